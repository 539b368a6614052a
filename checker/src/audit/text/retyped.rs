//! Operands typed twice for one form: a sentence that gives operands the
//! instruction's type for every form (`Operands d, a and b have type
//! .type`, `the same type as the instruction type`), and a later sentence
//! that gives the same operands another type for some of those forms
//! (`For instruction types .u16x2, .s16x2, operands d, a and b have type
//! .b32`). For those forms the first sentence says `.u16x2` and the second
//! `.b32`: whether the second is an exception to the first, and so whether
//! a `.u16x2` (or a `.u32`) register may stand, is left to the reader.

use super::document::{BlockKind, Section};
use crate::audit::finding::{Finding, FindingKind};

/// The code spans of a sentence (`d`, `.b32`), in order.
pub(super) fn spans(sentence: &str) -> Vec<&str> {
    sentence.split('`').skip(1).step_by(2).collect()
}

/// Operand names among a sentence's code spans: a span of letters that is
/// no qualifier.
fn operand_spans(sentence: &str) -> Vec<String> {
    spans(sentence)
        .into_iter()
        .filter(|s| !s.starts_with('.') && !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(str::to_string)
        .collect()
}

/// Whether a sentence types its operands by the instruction's type, for
/// every form.
fn by_instruction_type(sentence: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    !lower.starts_with("for ")
        && !lower.contains("except")
        && (lower.contains("have type `.type`")
            || lower.contains("same type as the instruction type")
            || lower.contains("are of type `.type`"))
}

/// `(forms, type)` of a sentence that types operands for some forms only:
/// `For instruction types .u16x2, .s16x2, operands ... have type .b32`.
fn for_forms(sentence: &str) -> Option<(Vec<String>, String)> {
    let lower = sentence.to_ascii_lowercase();
    if !lower.starts_with("for instruction type") {
        return None;
    }
    let (head, tail) = sentence.split_once("have type")?;
    let forms: Vec<String> = spans(head).into_iter().filter(|s| s.starts_with('.')).map(str::to_string).collect();
    let ty = spans(tail).into_iter().find(|s| s.starts_with('.'))?.to_string();
    (!forms.is_empty()).then_some((forms, ty))
}

/// The sentences of a section's Description, in order, without the
/// closing full stop.
fn description_sentences(s: &Section) -> Vec<String> {
    let all = super::typing::sentences_in(s, &[BlockKind::Description]);
    all.into_iter().map(|(_, t)| t.trim().trim_end_matches('.').to_string()).collect()
}

fn section(s: &Section) -> Vec<Finding> {
    let all = description_sentences(s);
    let mut out = Vec::new();
    for (i, general) in all.iter().enumerate() {
        if !by_instruction_type(general) {
            continue;
        }
        let named = operand_spans(general);
        for special in &all[i + 1..] {
            let Some((forms, ty)) = for_forms(special) else { continue };
            let again: Vec<String> = operand_spans(special).into_iter().filter(|o| named.contains(o)).collect();
            if again.is_empty() || forms.contains(&ty) {
                continue;
            }
            let list = |v: &[String]| v.iter().map(|o| format!("`{o}`")).collect::<Vec<_>>().join(", ");
            let form = &forms[0];
            let mut f = Finding::of_text(
                format!("text-retyped-{}-{}", s.number, ty.trim_start_matches('.')),
                s.number.clone(),
                FindingKind::Conflict,
                general.clone(),
                format!(
                    "{} typed twice for {}: the instruction's type by one sentence, `{ty}` by the next",
                    list(&again),
                    forms.join(", ")
                ),
                vec![format!(
                    "\"{general}\" holds for every form, {} among them, so for the form `{form}` it gives {} type \
                     `{form}`; \"{special}\" gives them `{ty}`. Read as an exception, `{ty}` alone holds; read as \
                     two rules, both do, and whether a register of `{form}` (or of another type of `{ty}`'s size) \
                     may stand is left open.",
                    forms.join(", "),
                    list(&again)
                )],
            );
            f.also_quotes.push(special.clone());
            out.push(f);
        }
    }
    out
}

/// Every form whose operands two sentences type differently, each once.
pub fn check(doc: &super::document::Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::check;

    fn found(description: &str) -> Vec<String> {
        let text = format!(
            "#### 9.7.1.1. Integer Arithmetic Instructions: `add`\n\nSyntax\n\n```\nadd.type d, a, b;\n.type = {{ \
             .u16, .u16x2 }};\n```\n\nDescription\n\n{description}\n"
        );
        check(&Document::made(&text)).into_iter().map(|f| f.summary).collect()
    }

    #[test]
    fn a_form_typed_by_two_sentences_is_found() {
        assert_eq!(
            found(
                "Operands `d`, `a` and `b` have type `.type`. For instruction types `.u16x2`, operands `d`, `a` \
                 and `b` have type `.b32`."
            ),
            ["`d`, `a`, `b` typed twice for .u16x2: the instruction's type by one sentence, `.b32` by the next"]
        );
        // The exception written as one: nothing typed twice.
        assert!(found(
            "Operands `d`, `a` and `b` have type `.type`, except for `.u16x2`. For instruction types `.u16x2`, \
             operands `d`, `a` and `b` have type `.b32`."
        )
        .is_empty());
        assert!(found("For instruction type `.u16x2`, operands `a` and `b` have type `.b32`.").is_empty());
    }
}
