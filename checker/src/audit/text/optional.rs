//! "Optionally" read against the Syntax. A sentence that calls a step
//! optional (`optionally extracts the high or low half`) tells a reader
//! that a form without its qualifiers exists. Where every form the
//! section's Syntax writes carries one of the set those qualifiers belong
//! to, the option is a choice of another value of that set (mad's `.wide`),
//! which the sentence does not name: a parser built from the prose accepts
//! a form the Syntax rejects (`mad.s32`).
//!
//! The phrases that name qualifiers are data: [`NAMED`]; a code span of a
//! qualifier (`.BoolOp`) names itself.

use super::document::Document;
use super::units::{units, Unit, UnitKind};
use crate::audit::finding::{Finding, FindingKind};
use crate::audit::syntax::{self, SyntaxBlock};

/// Phrases of the prose that name qualifiers, with the qualifiers.
pub const NAMED: &[(&str, &[&str])] =
    &[("high or low half", &[".hi", ".lo"]), ("carry-out", &[".cc"]), ("borrow-out", &[".cc"])];

/// The qualifiers the clause after an "optional" names: each phrase of
/// [`NAMED`] in it, and each code span of a qualifier, in order, once each.
pub fn named(clause: &str) -> Vec<String> {
    let lower = clause.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    let mut push = |q: String| {
        if !out.contains(&q) {
            out.push(q);
        }
    };
    for (phrase, qs) in NAMED {
        if lower.contains(phrase) {
            qs.iter().for_each(|q| push(q.to_string()));
        }
    }
    for span in clause.split('`').skip(1).step_by(2) {
        if span.starts_with('.') && span[1..].chars().all(|c| c.is_ascii_alphanumeric()) {
            push(span.to_string());
        }
    }
    out
}

/// The clauses a sentence calls optional, each as written: from each
/// "optional" or "optionally" to the next comma, semicolon or the end
/// (past the comma of an opening "Optionally,").
pub fn clauses(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    for (at, _) in lower.match_indices("optional") {
        let rest = &text[at..];
        let word = rest.len() - rest.trim_start_matches(|c: char| c.is_alphabetic() || c == ')').len();
        let after = rest[word..].strip_prefix(',').map_or(word, |_| word + 1);
        let end = rest[after..].find([',', ';']).map_or(rest.len(), |e| after + e);
        out.push(rest[..end].trim().trim_end_matches('.').to_string());
    }
    out
}

/// Whether the mnemonic writes qualifier `q` (`.hi`).
fn writes(mnemonic: &str, q: &str) -> bool {
    mnemonic.split('.').skip(1).any(|p| p == &q[1..])
}

/// Where every form the Syntax writes carries one of `qs` or another value
/// of the set that holds them: that set's name and those other values.
fn mandatory(block: &SyntaxBlock, qs: &[String]) -> Option<(&'static str, Vec<&'static str>)> {
    let forms: Vec<String> = block.lines.iter().flat_map(|l| syntax::expand(l, block.sets)).collect();
    let (set, values) = block.sets.iter().find(|(_, vs)| qs.iter().all(|q| vs.contains(&q.as_str())))?;
    let without: Vec<&String> = forms.iter().filter(|m| !qs.iter().any(|q| writes(m, q))).collect();
    let others: Vec<&'static str> = values.iter().copied().filter(|v| !qs.iter().any(|q| q == v)).collect();
    let each_other = without.iter().all(|m| others.iter().any(|v| writes(m, v)));
    (!forms.is_empty() && each_other).then_some((*set, others))
}

/// What one section says optional of one set: the section, the set, the
/// set's other values, the units that say so and their clauses.
type Sighting<'a> = (String, &'static str, Vec<&'static str>, Vec<&'a Unit>, Vec<String>);

/// Every section's sentences that call a choice of a mandatory qualifier
/// set optional: one finding per section and set, quoting each sentence.
pub fn check(doc: &Document) -> Vec<Finding> {
    let all = units(doc);
    let mut found: Vec<Sighting> = Vec::new();
    for u in all.iter().filter(|u| matches!(u.kind, UnitKind::Title | UnitKind::Sentence | UnitKind::ListItem)) {
        let section = u.base_section();
        let Some(block) = syntax::block(section) else { continue };
        for clause in clauses(&u.text) {
            let qs = named(&clause);
            let Some((set, others)) = (!qs.is_empty()).then(|| mandatory(block, &qs)).flatten() else { continue };
            match found.iter_mut().find(|(s, k, ..)| s == section && *k == set) {
                Some((.., at, clauses)) => {
                    at.push(u);
                    clauses.push(clause);
                }
                None => found.push((section.to_string(), set, others, vec![u], vec![clause])),
            }
        }
    }
    found
        .into_iter()
        .map(|(section, set, others, at, clauses)| {
            let shown = |vs: &[&str]| vs.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
            let mnemonic = syntax_opcode(&section);
            let mut f = Finding::of_text(
                format!("text-optional-{section}-{}", set.trim_start_matches('.').to_lowercase()),
                section.clone(),
                FindingKind::Ambiguity,
                clauses[0].clone(),
                format!(
                    "`{}` calls a step optional, but every form the Syntax writes has a `{set}`: the forms \
                     without {} are the {} forms, which the sentence does not name",
                    clauses[0],
                    shown(&qs_of(&section, set, &others)),
                    shown(&others)
                ),
                at.iter()
                    .map(|u| format!("{}:{}: \"{}\".", u.file, u.line, u.text))
                    .chain(std::iter::once(format!(
                        "Read as a qualifier left out, the sentence admits `{mnemonic}` with no `{set}`, which \
                         the Syntax rejects; read as a choice, the option is {}.",
                        shown(&others)
                    )))
                    .collect(),
            );
            f.also_quotes = clauses[1..].to_vec();
            f
        })
        .collect()
}

/// The values of `set` in the section's Syntax that are not `others`: the
/// qualifiers the sentence names.
fn qs_of(section: &str, set: &str, others: &[&str]) -> Vec<&'static str> {
    let values = syntax::block(section).and_then(|b| b.sets.iter().find(|(s, _)| *s == set)).map(|(_, vs)| *vs);
    values.unwrap_or_default().iter().copied().filter(|v| !others.contains(v)).collect()
}

/// The opcode a section's Syntax block writes, with an example type
/// (`mad.s32`): the form the prose's reading admits.
fn syntax_opcode(section: &str) -> String {
    let Some(block) = syntax::block(section) else { return String::new() };
    let template = block.lines.first().and_then(|l| l.split_whitespace().next()).unwrap_or_default();
    let opcode = template.split(['.', '{']).next().unwrap_or_default();
    let ty = block.sets.iter().find(|(s, _)| *s == ".type").and_then(|(_, vs)| vs.iter().find(|v| **v == ".s32"));
    format!("{opcode}{}", ty.copied().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse;

    #[test]
    fn the_clauses_called_optional_and_the_qualifiers_they_name() {
        assert_eq!(
            clauses("Multiplies two values, optionally extracts the high or low half of the result, and adds c."),
            ["optionally extracts the high or low half of the result"]
        );
        assert_eq!(clauses("Optionally, `.BoolOp` can be specified."), ["Optionally, `.BoolOp` can be specified"]);
        assert_eq!(named("optionally extracts the high or low half"), [".hi", ".lo"]);
        assert_eq!(named("with optional carry-out"), [".cc"]);
        assert_eq!(named("`.BoolOp` can be specified"), [".BoolOp"]);
        assert!(named("the optional destination predicate `p`").is_empty());
    }

    fn section(number: &str, opcode: &str, summary: &str) -> Document {
        let text = format!(
            "#### {number}. Integer Arithmetic Instructions: `{opcode}`\n\n`{opcode}`\n\n{summary}\n\nSyntax\n\n\
             ```\n{opcode}.mode.type d, a, b, c;\n```\n\nDescription\n\nIt computes.\n\nSemantics\n\n```\n\
             d = a * b + c;\n```\n\nPTX ISA Notes\n\nIntroduced in PTX ISA version 1.0.\n\nTarget ISA Notes\n\n\
             Supported on all target architectures.\n\nExamples\n\n```\n{opcode}.lo.s32 r0,a,b,c;\n```\n"
        );
        Document { sections: parse("made.md", text.as_bytes()).unwrap() }
    }

    #[test]
    fn an_optional_choice_of_a_mandatory_set_is_a_finding() {
        let doc = section("9.7.1.4", "mad", "Multiply, optionally extract the high or low half, and add.");
        let found = check(&doc);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].id, "text-optional-9.7.1.4-mode");
        assert!(found[0].summary.contains("without `.hi`, `.lo` are the `.wide` forms"), "{}", found[0].summary);
        assert!(found[0].detail.last().unwrap().contains("admits `mad.s32` with no `.mode`"), "{:?}", found[0].detail);
        // Named as a choice, or an optional qualifier the Syntax leaves
        // out: nothing to find.
        let named = section("9.7.1.4", "mad", "Multiply, extract the high or low half or keep it whole, and add.");
        assert!(check(&named).is_empty());
        let braced = section("9.7.2.2", "addc", "Add with carry-in and optional carry-out.");
        assert!(check(&braced).is_empty(), "addc{{.cc}} leaves .cc out");
    }
}
