//! Labels read against what stands under them. A lead-in or a term that
//! names a kind of modifier (`Saturation modifier:`) heads the text that
//! describes one; every qualifier that text names must be of that kind. A
//! label over a qualifier of another kind (a saturation label over
//! `.relu`) tells a reader to look for the wrong thing.
//!
//! The kinds and their qualifiers are data: [`KINDS`]. A label of a kind
//! the table does not know is read as a plain sentence by the other passes.

use super::document::Document;
use super::units::{units, Unit, UnitKind};
use crate::audit::finding::{Finding, FindingKind};

/// Each kind of modifier a label can name, with the qualifiers of that
/// kind (without their dot).
pub const KINDS: &[(&str, &[&str])] = &[
    ("saturation", &["sat"]),
    ("relu", &["relu"]),
    ("rounding", &["rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"]),
    ("shift amount", &["shiftamt"]),
    ("clamp", &["clamp", "wrap"]),
];

/// A label and the text it heads: the label's kind of modifier, as written
/// before `modifier:` (lower case), and the text after the colon, or the
/// next unit of the block where the label stands alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelled<'a> {
    pub kind: String,
    pub label: &'a Unit,
    pub content: &'a Unit,
    pub text: String,
}

/// The kind a unit's leading `NAME modifier:` (or `qualifier:`) names, and
/// what follows its colon.
fn label_of(text: &str) -> Option<(String, String)> {
    let (head, rest) = text.split_once(':')?;
    let words: Vec<&str> = head.split_whitespace().collect();
    let (last, name) = words.split_last()?;
    let is_label = matches!(last.to_lowercase().as_str(), "modifier" | "modifiers" | "qualifier" | "qualifiers");
    (is_label && !name.is_empty() && name.len() <= 3).then(|| (name.join(" ").to_lowercase(), rest.trim().to_string()))
}

/// Every modifier label of the document with the text it heads.
pub fn labelled(all: &[Unit]) -> Vec<Labelled<'_>> {
    let mut out = Vec::new();
    for (k, u) in all.iter().enumerate() {
        if !matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem) {
            continue;
        }
        let Some((kind, rest)) = label_of(&u.text) else { continue };
        if !rest.is_empty() {
            out.push(Labelled { kind, label: u, content: u, text: rest });
        } else if let Some(next) = all.get(k + 1).filter(|n| n.section == u.section && n.block == u.block) {
            out.push(Labelled { kind, label: u, content: next, text: next.text.clone() });
        }
    }
    out
}

/// The qualifiers a text names (`.relu`, `min.relu.{s16x2, s32}`'s
/// `relu`) that [`KINDS`] knows, in order, once each.
pub fn qualifiers(text: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (i, _) in text.match_indices('.') {
        let word: String = text[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        let known = KINDS.iter().flat_map(|(_, qs)| qs.iter()).find(|q| **q == word);
        if let Some(q) = known.filter(|q| !out.contains(q)) {
            out.push(q);
        }
    }
    out
}

/// Every label whose text names qualifiers, none of them of its kind.
pub fn check(doc: &Document) -> Vec<Finding> {
    let all = units(doc);
    let mut out = Vec::new();
    for l in labelled(&all) {
        let Some((_, expected)) = KINDS.iter().find(|(k, _)| *k == l.kind) else { continue };
        let named = qualifiers(&l.text);
        if named.is_empty() || named.iter().any(|q| expected.contains(q)) {
            continue;
        }
        let section = l.label.base_section().to_string();
        let shown = |qs: &[&str]| qs.iter().map(|q| format!("`.{q}`")).collect::<Vec<_>>().join(", ");
        let of = |q: &str| KINDS.iter().find(|(_, qs)| qs.contains(&q)).map_or("", |(k, _)| k);
        out.push(Finding::of_text(
            format!("text-label-{section}-modifier-{}", l.kind.replace(' ', "-")),
            section,
            FindingKind::Structure,
            l.content.text.clone(),
            format!(
                "the label `{}` stands over {}, a {} modifier, not a {} one",
                l.label.text.split(':').next().unwrap_or_default(),
                shown(&named),
                of(named[0]),
                l.kind
            ),
            vec![format!(
                "{}:{}: the text under the label names {} and no qualifier of its kind ({}).",
                l.content.file,
                l.content.line,
                shown(&named),
                shown(expected)
            )],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse;

    const TEXT: &str = "#### 9.7.1.12. Integer Arithmetic Instructions: `min`\n\n`min`\n\nFind the minimum.\n\n\
        Syntax\n\n```\nmin.type d, a, b;\n```\n\nDescription\n\nStore the minimum.\n\nSemantics\n\n```\n\
        d = (a < b) ? a : b;\n```\n\nNotes\n\nSaturation modifier:\n\n.sat\n:   limits the result.\n\n\
        Saturation modifier:\n:   `min.relu.{s16x2, s32}` clamps the result to 0 if negative.\n\n\
        Rounding modifier: `.sat` is no rounding.\n\nPTX ISA Notes\n\nIntroduced in PTX ISA version 1.0.\n\n\
        Target ISA Notes\n\nSupported on all target architectures.\n\nExamples\n\n```\nmin.s32 r0,a,b;\n```\n";

    fn doc() -> Document {
        Document { sections: parse("made.md", TEXT.as_bytes()).unwrap() }
    }

    #[test]
    fn a_label_is_read_with_what_it_heads() {
        assert_eq!(label_of("Saturation modifier:"), Some(("saturation".into(), String::new())));
        assert_eq!(label_of("Shift amount modifier: x"), Some(("shift amount".into(), "x".into())));
        assert_eq!(label_of("The sign bit of the extracted field is defined as:"), None);
        assert_eq!(qualifiers("`min.relu.{s16x2, s32}` and .sat, MININT..MAXINT"), ["relu", "sat"]);
        let all = units(&doc());
        let kinds: Vec<(String, String)> =
            labelled(&all).iter().map(|l| (l.kind.clone(), qualifiers(&l.text).join(","))).collect();
        assert_eq!(
            kinds,
            [
                ("saturation".into(), "sat".into()),
                ("saturation".into(), "relu".into()),
                ("rounding".into(), "sat".into())
            ]
        );
    }

    #[test]
    fn a_label_over_another_kind_is_a_finding() {
        let found = check(&doc());
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["text-label-9.7.1.12-modifier-saturation", "text-label-9.7.1.12-modifier-rounding"]);
        assert!(found[0].summary.contains("`.relu`, a relu modifier"), "{}", found[0].summary);
    }
}
