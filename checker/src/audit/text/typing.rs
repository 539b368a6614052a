//! Operands whose type no sentence gives, in forms of two types. By the
//! document's convention an instruction's operands have its type
//! (`add.s32 d, a, b`), so a Syntax line of one type types them all. A line
//! that writes two types (`add.f32.atype d, a, c`, `set.CmpOp.dtype.stype
//! d, a, b`) leaves the convention nothing to go by: which operand has
//! which type, and so which registers an assembler accepts for it, is the
//! prose's to say. Each operand of such a line that no sentence of the
//! Description or Notes names beside a type (`` Operand `c` has type
//! `.pred` ``, `` Converts input operand `a` from `.atype` ``) is open.
//! One finding per section; sections the catalogue models are typed by it
//! (the names pass asks there).

use super::captions::type_word;
use super::defaults::grammar;
use super::document::{BlockKind, Document, Section};
use crate::audit::finding::{Finding, FindingKind};

/// Whether a qualifier names a type: `.f32`, `.bf16x2`, `.atype`, `.pred`.
fn is_type(q: &str) -> bool {
    let bare = q.trim_start_matches('.');
    type_word(bare).is_some() || bare.ends_with("type") || bare == "pred"
}

/// The type slots of a Syntax line's mnemonic: each qualifier that names a
/// type, or a set of types.
fn type_slots(mnemonic: &str, sets: &std::collections::BTreeMap<String, Vec<String>>) -> usize {
    mnemonic
        .split(['.', '{', '}'])
        .filter(|w| !w.is_empty())
        .skip(1)
        .filter(|w| {
            let q = format!(".{w}");
            is_type(&q) || sets.get(&q).is_some_and(|vs| !vs.is_empty() && vs.iter().all(|v| is_type(v)))
        })
        .count()
}

/// The operand names of a Syntax line: `d, a, b, {!}c;` gives d, a, b, c;
/// `p[|q]` gives p and q.
fn operands(line: &str) -> Vec<String> {
    let Some((_, rest)) = line.split_once(char::is_whitespace) else { return Vec::new() };
    rest.trim()
        .trim_end_matches(';')
        .split([',', '|', '[', ']', '{', '}', '!'])
        .map(str::trim)
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// The sentences of a section's Description and Notes.
fn sentences(s: &Section) -> Vec<String> {
    let mut out = Vec::new();
    for b in s.blocks.iter().filter(|b| matches!(b.kind, BlockKind::Description | BlockKind::Notes)) {
        for p in b.paragraphs() {
            let text: Vec<&str> = p.iter().map(|l| l.text.trim()).collect();
            out.extend(text.join(" ").split(". ").map(str::to_string));
        }
    }
    out
}

/// Whether a sentence names `operand` beside a type: a type qualifier's
/// code span, a predicate, or a width.
fn types(sentence: &str, operand: &str) -> bool {
    if !sentence.contains(&format!("`{operand}`")) {
        return false;
    }
    let spans = sentence.split('`').skip(1).step_by(2);
    let lower = sentence.to_ascii_lowercase();
    spans.into_iter().any(|c| c.starts_with('.') && is_type(c)) || lower.contains("predicate") || lower.contains("-bit")
}

fn section(s: &Section, modelled: &[String]) -> Vec<Finding> {
    if modelled.contains(&s.number) {
        return Vec::new();
    }
    let Some(g) = grammar(s) else { return Vec::new() };
    let two_types: Vec<&String> = g
        .templates
        .iter()
        .filter(|t| t.split_whitespace().next().is_some_and(|m| type_slots(m, &g.sets) >= 2))
        .collect();
    let Some(line) = two_types.first() else { return Vec::new() };
    let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let said = sentences(s);
    let mut all: Vec<String> = Vec::new();
    for t in &two_types {
        for o in operands(t) {
            if !all.contains(&o) {
                all.push(o);
            }
        }
    }
    let open: Vec<&String> = all.iter().filter(|o| !said.iter().any(|x| types(x, o))).collect();
    if open.is_empty() {
        return Vec::new();
    }
    let typed: Vec<&String> = all.iter().filter(|o| !open.contains(o)).collect();
    let list = |names: &[&String]| super::and_list(&names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>());
    let others = if typed.is_empty() {
        String::new()
    } else {
        format!(" (of its operands, a sentence types only {})", list(&typed))
    };
    vec![Finding::of_text(
        format!("text-typing-{}", s.number),
        s.number.clone(),
        FindingKind::Ambiguity,
        line.clone(),
        format!(
            "the Syntax line `{line}` writes two types, and no sentence says which {} {}{others}",
            if open.len() == 1 { "type" } else { "types" },
            if open.len() == 1 { format!("{} has", list(&open)) } else { format!("{} have", list(&open)) }
        ),
        vec![format!(
            "{}: section {}'s Description and Notes name {} beside no type; with two types on the line, the \
             convention that operands take the instruction's type gives none, so the registers an assembler \
             accepts for {} are the reader's guess.",
            s.file,
            s.number,
            list(&open),
            if open.len() == 1 { "it" } else { "them" }
        )],
    )]
}

/// Every section without a model whose two-type forms leave an operand's
/// type unstated.
pub fn check(doc: &Document) -> Vec<Finding> {
    let modelled = super::modelled_sections();
    super::each_section(doc, |s| section(s, &modelled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(syntax: &str, description: &str) -> Vec<Finding> {
        let text = format!(
            "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nDescription\n\n{description}\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
    }

    #[test]
    fn operands_of_a_two_type_form_no_sentence_types_are_found() {
        let syntax = "add{.rnd}.f32.atype d, a, c;\n.atype = { .f16, .bf16 };\n.rnd = { .rn };";
        let f = found(syntax, "Converts input operand `a` from `.atype` into `.f32` type. The result goes to `d`.");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].summary,
            "the Syntax line `add{.rnd}.f32.atype d, a, c;` writes two types, and no sentence says which types `d` \
             and `c` have (of its operands, a sentence types only `a`)"
        );
        let set = "set.CmpOp.dtype.stype d, a, b, {!}c;\n.dtype = { .u32 };\n.stype = { .f16 };";
        let f = found(set, "Operand `c` has type `.pred`.");
        assert!(f[0].summary.contains("which types `d`, `a` and `b` have"), "{}", f[0].summary);
    }

    #[test]
    fn one_type_forms_and_typed_operands_are_not_found() {
        assert!(found("add.f32 d, a, b;", "Adds.").is_empty());
        assert!(found(
            "add.f32.atype d, a, c;\n.atype = { .f16 };",
            "Operand `d` has type `.f32`. Operand `a` has type `.atype`, and `c` is a 32-bit value."
        )
        .is_empty());
        // A set of rounding modes is no type.
        assert!(found("add.rnd.f32 d, a, b;\n.rnd = { .rn, .rz };", "Adds.").is_empty());
    }
}
