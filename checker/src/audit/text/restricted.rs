//! A qualifier the prose allows for some types only, against the forms the
//! Syntax block writes.
//!
//! A sentence of the Description or the Notes may restrict a qualifier to
//! some types ("the `.wide` suffix is supported only for 16- and 32-bit
//! integer types"). Where the Syntax block writes the qualifier from a set
//! and the type from another, freely combined, it admits the forms the
//! sentence forbids (`mul.wide.u64`): an assembler or a test generator
//! built from the Syntax accepts them, one built from the prose does not.
//! The pass reads the Syntax from the document, so it runs on any section.

use std::collections::BTreeMap;

use super::document::{BlockKind, Document, Section};
use super::names::{statements, templates};
use super::units::{units, Unit, UnitKind};
use crate::audit::finding::{Finding, FindingKind};
use crate::audit::syntax::expand;

/// What a sentence allows a qualifier: the types it names (`.s32`), or
/// the widths it names (`16- and 32-bit`).
#[derive(Debug, PartialEq, Eq)]
struct Restriction {
    qualifier: String,
    types: Vec<String>,
    widths: Vec<u32>,
}

impl Restriction {
    fn allows(&self, ty: &str) -> bool {
        let width = ty.trim_start_matches(|c: char| !c.is_ascii_digit()).parse::<u32>().ok();
        self.types.iter().any(|t| t == ty) || width.is_some_and(|w| self.widths.contains(&w))
    }
}

/// The spans a sentence writes in code font.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The restriction a sentence states, if it states one: a qualifier in
/// code font before "only for" or "only to", and the types or widths after.
fn restriction(text: &str) -> Option<Restriction> {
    let at = text.find(" only for ").or_else(|| text.find(" only to "))?;
    let (before, after) = text.split_at(at);
    let qualifier = code_spans(before).into_iter().rev().find(|s| s.starts_with('.') && !is_type(s))?.to_string();
    let types: Vec<String> = code_spans(after).into_iter().filter(|s| is_type(s)).map(str::to_string).collect();
    // `16- and 32-bit`, `16-bit and 32-bit`: each number written before
    // a hyphen.
    let widths: Vec<u32> = after
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter_map(|w| w.strip_suffix("-bit").or_else(|| w.strip_suffix('-')))
        .filter_map(|n| n.parse().ok())
        .collect();
    (!types.is_empty() || !widths.is_empty()).then_some(Restriction { qualifier, types, widths })
}

/// A PTX type qualifier: `.s32`, `.u16x2`, `.f16`, `.b64`.
fn is_type(word: &str) -> bool {
    word.strip_prefix('.').is_some_and(|rest| super::captions::type_word(rest).is_some())
}

/// The sets a Syntax block gives its placeholders: `.mode` → `.hi`,
/// `.lo`, `.wide`.
fn sets(section: &Section) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for s in statements(section) {
        let parts: Vec<&str> = s.split('=').map(str::trim).collect();
        let Some((values, names)) = parts.split_last() else { continue };
        let Some(values) = values.strip_prefix('{').and_then(|v| v.strip_suffix('}')) else { continue };
        // A set may list its values without their dots (`{ eq, ne }`).
        let values: Vec<String> = values
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| if v.starts_with('.') { v.to_string() } else { format!(".{v}") })
            .collect();
        for n in names {
            out.insert(n.to_string(), values.clone());
        }
    }
    out
}

/// The forms of a section's Syntax that write `qualifier` with a type the
/// restriction does not allow, as mnemonics.
fn admitted(section: &Section, r: &Restriction) -> Vec<String> {
    let sets = sets(section);
    let sets: Vec<(&str, &[String])> = sets.iter().map(|(n, v)| (n.as_str(), v.as_slice())).collect();
    let mut out = Vec::new();
    for t in templates(section) {
        for mnemonic in expand(&t.text, &sets) {
            let qualifiers: Vec<String> = mnemonic.split('.').skip(1).map(|q| format!(".{q}")).collect();
            // The instruction's type is the last type a form writes (set's
            // `.stype`, not its `.dtype`): the one a restriction of the
            // operation concerns.
            let ty = qualifiers.iter().rev().find(|q| is_type(q));
            if qualifiers.contains(&r.qualifier) && ty.is_some_and(|ty| !r.allows(ty)) && !out.contains(&mnemonic) {
                out.push(mnemonic);
            }
        }
    }
    out
}

/// The instruction types of some mnemonics, each once, in order.
fn types_of(mnemonics: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in mnemonics {
        if let Some(t) = m.split('.').rev().map(|q| format!(".{q}")).find(|q| is_type(q)) {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// Every restriction of a qualifier that the section's own Syntax breaks.
pub fn check(doc: &Document) -> Vec<Finding> {
    let all = units(doc);
    let mut out: Vec<Finding> = Vec::new();
    for section in doc.first_renderings() {
        let prose = all.iter().filter(|u: &&Unit| {
            u.section == section.number
                && matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem)
                && matches!(u.block, Some(BlockKind::Description | BlockKind::Notes))
        });
        for u in prose {
            let Some(r) = restriction(&u.text) else { continue };
            let forms = admitted(section, &r);
            if forms.is_empty() {
                continue;
            }
            let id =
                format!("text-restricted-{}-{}", section.number, r.qualifier.trim_start_matches('.').to_lowercase());
            if out.iter().any(|f| f.id == id) {
                continue;
            }
            const SHOWN: usize = 4;
            let mut shown = forms.iter().take(SHOWN).map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
            if forms.len() > SHOWN {
                shown.push_str(&format!(" and {} more", forms.len() - SHOWN));
            }
            let syntax_line = section.block(BlockKind::Syntax).map_or(section.line, |b| b.line);
            out.push(Finding::of_text(
                id,
                section.number.clone(),
                FindingKind::Conflict,
                u.text.clone(),
                format!(
                    "the Syntax admits {shown}, which the sentence \"{}\" forbids: the two give different sets of \
                     legal forms",
                    u.text
                ),
                vec![
                    format!("{}:{}: \"{}\".", u.file, u.line, u.text),
                    format!(
                        "The Syntax writes `{}` with the types {}, which the sentence does not allow.",
                        r.qualifier,
                        types_of(&forms).iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                    ),
                    format!(
                        "{}:{syntax_line}: the Syntax combines `{}` with every type of its set, {} forms of which \
                         the sentence does not allow.",
                        section.file,
                        r.qualifier,
                        forms.len()
                    ),
                ],
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_that_restricts_a_qualifier_is_read() {
        let wide = restriction("The `.wide` suffix is supported only for 16- and 32-bit integer types.").unwrap();
        assert_eq!(wide, Restriction { qualifier: ".wide".into(), types: vec![], widths: vec![16, 32] });
        assert!(wide.allows(".s16") && wide.allows(".u32") && !wide.allows(".u64"));
        let also = restriction("The `.wide` suffix is supported only for 16-bit and 32-bit integer types.").unwrap();
        assert_eq!(also.widths, [16, 32]);
        let sat = restriction("`.sat` applies only to `.s32` type in `.hi` mode.").unwrap();
        assert_eq!((sat.qualifier.as_str(), sat.types.as_slice()), (".sat", [".s32".to_string()].as_slice()));
        assert_eq!(restriction("Supported on all target architectures."), None);
        assert_eq!(restriction("The mode applies only to the last operand."), None);
    }
}
