//! The elements of packed forms. Where a section's Syntax has a packed type
//! (`.s16x2`, `.u8x4`) and its Semantics block takes the elements out as
//! bit fields (`iA[0] = a[0:15];`) without a word on how they extend (no
//! sign or zero extension in the block or the Description), the sign of a
//! signed form's elements is an unstated case. Every such block must have
//! a passage that compares the readings (`packed-element-sign` and its
//! kin, with `Formula::PackedUnsignedSlices`); a block that has none is a
//! finding, so a new packed form in a newer document is not passed over.

use super::document::{BlockKind, Document, Section};
use super::drift::passage_sections;
use crate::audit::finding::{Finding, FindingKind, Severity};
use crate::audit::passages::{Formula, PASSAGES};
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::Variant;

/// A block that extracts packed elements without saying how they extend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub section: String,
    pub file: String,
    pub line: usize,
    /// The first extracting statement, white space collapsed.
    pub fragment: String,
    /// The packed types the Syntax names (`.s16x2`).
    pub types: Vec<String>,
}

/// A packed type token: `.s16x2`, `.u8x4`.
fn packed_types(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, _) in text.match_indices('.') {
        let word: String = text[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        let Some((bits, lanes)) = word.get(1..).and_then(|w| w.split_once('x')) else { continue };
        let typed = matches!(&word[..1], "s" | "u" | "b");
        if typed && !bits.is_empty() && bits.bytes().all(|b| b.is_ascii_digit()) && lanes.parse::<u32>().is_ok() {
            let t = format!(".{word}");
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// `X[i] = y[hi:lo]`: an element taken out as a bit field.
pub fn extracts(code: &str) -> bool {
    let Some((left, right)) = code.split_once('=') else { return false };
    let right = right.trim().trim_end_matches(';').trim();
    let field = right.split_once('[').is_some_and(|(name, rest)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && rest
                .strip_suffix(']')
                .is_some_and(|r| r.split(':').count() == 2 && r.split(':').all(|n| n.trim().parse::<u32>().is_ok()))
    });
    field && left.contains('[') && !left.contains(['<', '>', '!'])
}

/// Whether a text says how something extends.
fn says_extension(text: &str) -> bool {
    let t = text.to_lowercase();
    ["extend", "sext", "zext", "signorzeroext"].iter().any(|w| t.contains(w))
}

/// Every block of the document that extracts packed elements unextended.
pub fn sites(doc: &Document) -> Vec<Site> {
    let mut out: Vec<Site> = Vec::new();
    for s in &doc.sections {
        if out.iter().any(|x| x.section == s.number) {
            continue;
        }
        if let Some(site) = site(s) {
            out.push(site);
        }
    }
    out
}

fn site(s: &Section) -> Option<Site> {
    let syntax: String =
        s.block(BlockKind::Syntax)?.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join(" ");
    let types = packed_types(&syntax);
    if !types.iter().any(|t| t.starts_with(".s")) {
        return None;
    }
    let semantics = s.block(BlockKind::Semantics)?;
    let stated = |k: BlockKind| s.block(k).is_some_and(|b| b.lines.iter().any(|l| says_extension(&l.text)));
    if stated(BlockKind::Semantics) || stated(BlockKind::Description) {
        return None;
    }
    let first = semantics.code().find(|l| extracts(super::helpers::code_of(&l.text)))?;
    Some(Site {
        section: s.number.clone(),
        file: s.file.clone(),
        line: first.number,
        fragment: super::units::collapse(super::helpers::code_of(&first.text)),
        types,
    })
}

/// The passage that compares the readings of a site's elements, if any.
pub fn passage_for(site: &Site) -> Option<&'static str> {
    PASSAGES
        .iter()
        .find(|p| {
            passage_sections(p.section).contains(&site.section)
                && p.readings.iter().any(|r| r.formula == Formula::PackedUnsignedSlices)
        })
        .map(|p| p.id)
}

/// How a site's two readings compare on the edge values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edges {
    /// They agree on every edge input of every signed packed variant.
    Agree { variants: usize, inputs: usize },
    /// They differ: the first variant and inputs where they do.
    Differ { variant: String, inputs: Vec<BitVec> },
    /// A variant the readings cannot be run on (no catalogue variant, or the
    /// unsigned-slices formula does not cover it).
    Unrun(String),
}

/// The edge values of one 32-bit operand of two 16-bit elements.
fn edges32() -> Vec<u128> {
    const HALF: [u128; 5] = [0, 1, 0x7fff, 0x8000, 0xffff];
    HALF.iter().flat_map(|hi| HALF.iter().map(move |lo| hi << 16 | lo)).collect()
}

/// The site's signed packed variants under both readings.
pub fn edges(site: &Site) -> Edges {
    let signed: Vec<&String> = site.types.iter().filter(|t| t.starts_with(".s")).collect();
    let variants: Vec<Variant> = Variant::all()
        .into_iter()
        .filter(|v| v.section() == site.section && v.mnemonic().split('.').any(|q| signed.iter().any(|t| t[1..] == *q)))
        .collect();
    if variants.is_empty() {
        return Edges::Unrun(signed.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", "));
    }
    let values = edges32();
    let mut inputs = 0;
    for v in &variants {
        let ops = v.inputs();
        if ops.iter().any(|o| o.ty.width() != 32) || ops.len() > 3 {
            return Edges::Unrun(v.to_string());
        }
        let count = values.len().pow(ops.len() as u32);
        for code in 0..count {
            let ins: Vec<BitVec> = (0..ops.len())
                .map(|i| BitVec::new(32, values[code / values.len().pow(i as u32) % values.len()]))
                .collect();
            let (Some(model), Some(slices)) =
                (Formula::Model.outputs(&Concrete, v, &ins), Formula::PackedUnsignedSlices.outputs(&Concrete, v, &ins))
            else {
                return Edges::Unrun(v.to_string());
            };
            if model.iter().zip(&slices).any(|(m, u)| m.defined && u.defined && m.value != u.value) {
                return Edges::Differ { variant: v.to_string(), inputs: ins };
            }
        }
        inputs += count;
    }
    Edges::Agree { variants: variants.len(), inputs }
}

/// A finding for every site whose readings differ (or cannot be run) and
/// that no passage reads.
pub fn check(doc: &Document) -> Vec<Finding> {
    sites(doc)
        .into_iter()
        .filter(|s| passage_for(s).is_none() && !matches!(edges(s), Edges::Agree { .. }))
        .map(|s| Finding {
            id: format!("text-packed-{}", s.section),
            section: s.section.clone(),
            kind: FindingKind::Ambiguity,
            severity: Severity::Medium,
            root_cause: String::new(),
            fragment: s.fragment.clone(),
            summary: format!(
                "the Semantics block takes the elements of {} out as bit fields and never says how they extend: \
                 signed or unsigned elements is an unstated case, and no passage compares the two readings",
                s.types.join(", ")
            ),
            detail: vec![format!(
                "{}:{}: `{}`; a passage with the packed readings (`unsigned-slices`) would compare them on every \
                 signed packed variant.",
                s.file, s.line, s.fragment
            )],
            model_choice: None,
            witness: None,
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse;

    fn section(number: &str, syntax: &str, description: &str, semantics: &str) -> String {
        format!(
            "#### {number}. Integer Arithmetic Instructions: `vmin`\n\n`vmin`\n\nMinimum.\n\nSyntax\n\n```\n{syntax}\n```\n\n\
             Description\n\n{description}\n\nSemantics\n\n```\n{semantics}\n```\n\nPTX ISA Notes\n\nIntroduced in PTX ISA \
             version 1.0.\n\nTarget ISA Notes\n\nSupported on all target architectures.\n\nExamples\n\n```\nvmin.s8x4 d,a,b;\n```\n\n"
        )
    }

    fn doc(text: &str) -> Document {
        Document { sections: parse("made.md", text.as_bytes()).unwrap() }
    }

    #[test]
    fn a_block_that_extracts_signed_elements_unextended_is_a_site() {
        let block = "e[0] = a[0:7];\ne[1] = a[8:15];\nd = min(e[0], e[1]);";
        let text = section("9.7.1.14", "vmin.type d, a, b;\n.type = { .u8x4, .s8x4 };", "Minimum per byte.", block)
            + &section("9.7.1.15", "vmin.type d, a, b;\n.type = { .u8x4 };", "Unsigned only.", block)
            + &section("9.7.1.16", "vmin.type d, a, b;\n.type = { .s8x4 };", "Each byte is sign-extended.", block);
        let d = doc(&text);
        let found = sites(&d);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].section.as_str(), found[0].fragment.as_str()), ("9.7.1.14", "e[0] = a[0:7];"));
        assert_eq!(found[0].types, [".u8x4", ".s8x4"]);
        let f = check(&d);
        assert_eq!(f.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["text-packed-9.7.1.14"]);
    }

    #[test]
    fn the_readings_agree_for_add_and_differ_for_min() {
        let site = |section: &str| Site {
            section: section.into(),
            file: "made.md".into(),
            line: 1,
            fragment: "iA[0] = a[0:15];".into(),
            types: vec![".u16x2".into(), ".s16x2".into()],
        };
        assert_eq!(edges(&site("9.7.1.1")), Edges::Agree { variants: 1, inputs: 625 });
        let Edges::Differ { variant, inputs } = edges(&site("9.7.1.12")) else { panic!("min's readings differ") };
        assert_eq!(variant, "min.s16x2");
        // 0x8000 against 0 in the low half: signed, 0x8000 is the least.
        assert_eq!(inputs.iter().map(|b| b.unsigned()).collect::<Vec<_>>(), [0x8000, 0]);
        assert_eq!(passage_for(&site("9.7.1.12")), Some("packed-element-sign"));
        assert_eq!(passage_for(&site("9.7.1.1")), None);
    }

    #[test]
    fn extraction_is_told_from_other_statements() {
        assert!(extracts("iA[0] = a[0:15];"));
        assert!(!extracts("d = a[0:15];"));
        assert!(!extracts("d[i] = iA[i] + iB[i];"));
        assert!(!extracts("if (x[0] == a[0:15])"));
        assert_eq!(packed_types(".type = { .u16x2, .s16x2, .s32 };"), [".u16x2", ".s16x2"]);
    }
}
