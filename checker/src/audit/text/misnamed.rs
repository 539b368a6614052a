//! Instructions misspelt in a section's notes: a code span of the PTX ISA
//! Notes, the Target ISA Notes or the Notes that names no instruction of
//! the document, one or two letters from an instruction the section's
//! heading names (9.7.18.2.1's `varvg2` beside its heading's `vavrg2`).
//! Read as written, the requirement or the version it states is for no
//! instruction, and the one it means has none.

use std::collections::BTreeSet;

use super::directives::distance;
use super::document::{BlockKind, Document, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The code spans of a line that could name an instruction: a word of
/// letters, digits, `_` and `.`, starting with a letter.
fn names(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        })
        .collect()
}

fn section(s: &Section, known: &BTreeSet<&str>) -> Vec<Finding> {
    let heading = s.opcodes();
    let mut out = Vec::new();
    let notes = [BlockKind::PtxIsaNotes, BlockKind::TargetIsaNotes, BlockKind::Notes];
    for b in s.blocks.iter().filter(|b| notes.contains(&b.kind)) {
        for l in b.lines.iter().filter(|l| !l.code) {
            for name in names(&l.text) {
                let opcode = name.split('.').next().unwrap_or(name);
                let id = format!("text-names-{}-misnamed-{opcode}", s.number);
                if known.contains(opcode) || opcode.len() < 4 || out.iter().any(|f: &Finding| f.id == id) {
                    continue;
                }
                // The heading's name with two letters swapped or one moved:
                // the same letters, in another order (`varvg2`, `vavrg2`).
                // A word of other letters (`addr` under `add`, `mask` under
                // `max`) is an operand or a word, not a slip.
                let letters = |w: &str| {
                    let mut v: Vec<char> = w.chars().collect();
                    v.sort_unstable();
                    v
                };
                let close = heading.iter().find(|h| {
                    let d = distance(opcode, h);
                    d > 0 && d <= 2 && letters(h) == letters(opcode) && h.chars().next() == opcode.chars().next()
                });
                let Some(meant) = close else { continue };
                let mut f = Finding::of_text(
                    id,
                    s.number.clone(),
                    FindingKind::Name,
                    name.to_string(),
                    format!(
                        "the {} name `{opcode}`, which no section defines; the heading names `{meant}`",
                        b.kind.label()
                    ),
                    vec![format!(
                        "{}:{}: read as written, what the line states is for an instruction the document does not \
                         have, and `{meant}` is left without it.",
                        s.file, l.number
                    )],
                );
                let renamed = format!("{meant}{}", &name[opcode.len()..]);
                f.repairs = vec![Repair { line: l.number, old: format!("`{name}`"), new: format!("`{renamed}`") }];
                out.push(f);
            }
        }
    }
    out
}

/// Every misspelt instruction of every section's notes.
pub fn check(doc: &Document) -> Vec<Finding> {
    let known: BTreeSet<&str> = doc.sections.iter().flat_map(|s| s.opcodes()).collect();
    doc.first_renderings().flat_map(|s| section(s, &known)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(notes: &str) -> Vec<Finding> {
        let text = format!(
            "##### 9.7.18.2.1. SIMD Video Instructions: vadd2, vavrg2\n\n`vadd2`\n\nAdd.\n\n\
             Target ISA Notes\n\n{notes}\n"
        );
        check(&Document::of_markdown(&text))
    }

    #[test]
    fn a_name_one_slip_from_the_headings_is_found() {
        let f = found("`vadd2`, `varvg2` require `sm_30` or higher.");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].summary,
            "the Target ISA Notes name `varvg2`, which no section defines; the heading names `vavrg2`"
        );
        let r = f[0].repairs.first().unwrap();
        assert_eq!((r.old.as_str(), r.new.as_str()), ("`varvg2`", "`vavrg2`"));
        // Names the document has, a target, a far word and a word of other
        // letters one slip away (`vadd4` under `vadd2`) are not.
        assert!(found("`vadd2` and `vavrg2` require `sm_30`; `vadd2.sat` too; see `shfl`, `vadd4`.").is_empty());
        // A qualified span is renamed whole, and found once.
        let f = found("`varvg2.sat` and `varvg2` require `sm_30`.");
        assert_eq!(f.len(), 1, "{f:?}");
        let r = f[0].repairs.first().unwrap();
        assert_eq!((r.old.as_str(), r.new.as_str()), ("`varvg2.sat`", "`vavrg2.sat`"));
    }
}
