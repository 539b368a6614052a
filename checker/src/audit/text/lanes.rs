//! Where a packed result's elements go. A Semantics block that takes the
//! elements of a packed source out as bit fields (`fA[0] = a[0:15];`) and
//! stores each result as `d[i]` writes the destination in another notation
//! than its sources: read with the block's own `a[0:15]`, `d[i]` is bit i
//! of `d`, and as an element it says nothing of which bits element i
//! fills. Unless a sentence of the section places the elements (element 0
//! in the low bits), element 0 in the low half and in the high half are
//! both readings. Where the section is modelled, the witness is the
//! model's result on inputs whose elements differ, beside the same
//! elements in the other order.

use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::Variant;

use super::document::{BlockKind, Document, Section};
use super::helpers::{code_of, is_ident_char};
use super::packed::extracts;
use super::units::collapse;
use crate::audit::finding::{Finding, FindingKind, Repair, Severity, WitnessTable};
use crate::audit::passages::Formula;

/// A block that stores a packed result element by element, unplaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub section: String,
    pub file: String,
    /// The first store of an element of `d`, and its line.
    pub line: usize,
    pub store: String,
    /// The first statement that takes a source element out as bits.
    pub extract: String,
}

/// Whether a line of code stores an element of `d` (`d[i] = ...`): not a
/// bit field (`d[15:0]`), not a comparison (`d[i] == x`).
fn element_stores(code: &str) -> bool {
    let bytes = code.as_bytes();
    let mut at = 0;
    while let Some(k) = code[at..].find("d[") {
        let start = at + k;
        at = start + 2;
        if start > 0 && is_ident_char(bytes[start - 1] as char) {
            continue;
        }
        let Some(close) = code[start..].find(']') else { return false };
        let index = &code[start + 2..start + close];
        let after = code[start + close + 1..].trim_start();
        if !index.contains(':') && after.starts_with('=') && !after.starts_with("==") {
            return true;
        }
    }
    false
}

/// A sentence that says which bits an element fills: it names elements
/// (or half-words, lanes) and bits or a half by its significance.
fn places_elements(text: &str) -> bool {
    let t = text.to_lowercase();
    let elements = ["element", "half-word", "halfword", "lane"].iter().any(|w| t.contains(w));
    let bits = ["bits", "significant", "low half", "high half", "lower half", "upper half", "low-order", "high-order"]
        .iter()
        .any(|w| t.contains(w));
    elements && bits
}

fn site(s: &Section) -> Option<Site> {
    let semantics = s.block(BlockKind::Semantics)?;
    let code: Vec<_> = semantics.code().collect();
    let extract = code.iter().find(|l| extracts(code_of(&l.text)))?;
    let store = code.iter().find(|l| element_stores(code_of(&l.text)))?;
    // A block that packs the elements into `d` itself places them.
    let packs = code.iter().any(|l| {
        let c = code_of(&l.text).trim_start();
        c.starts_with("d =") && c.contains("d[")
    });
    let prose = [BlockKind::Description, BlockKind::Notes, BlockKind::Semantics];
    let placed = prose.iter().filter_map(|k| s.block(*k)).any(|b| {
        b.paragraphs().iter().any(|p| places_elements(&p.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join(" ")))
    });
    (!packs && !placed).then(|| Site {
        section: s.number.clone(),
        file: s.file.clone(),
        line: store.number,
        store: collapse(code_of(&store.text)),
        extract: collapse(code_of(&extract.text)),
    })
}

/// Every block of the document that stores packed elements unplaced, one
/// per section.
pub fn sites(doc: &Document) -> Vec<Site> {
    let mut out: Vec<Site> = Vec::new();
    for s in &doc.sections {
        if out.iter().all(|x| x.section != s.number) {
            out.extend(site(s));
        }
    }
    out
}

/// The elements of `value` (`lanes` of them) in the other order.
fn reversed(value: BitVec, lanes: u32) -> BitVec {
    let width = value.width() / lanes;
    let mask = (1u128 << width) - 1;
    let bits =
        (0..lanes).fold(0u128, |acc, i| acc | ((value.unsigned() >> (i * width)) & mask) << ((lanes - 1 - i) * width));
    BitVec::new(value.width(), bits)
}

/// The lanes of a packed mnemonic (`add.u16x2`: 2).
fn lanes(variant: &Variant) -> Option<u32> {
    variant
        .mnemonic()
        .split('.')
        .find_map(|q| q.split_once('x').and_then(|(t, n)| (t.len() > 1).then_some(n))?.parse().ok())
}

/// Where the section is modelled: the model's result on sources whose
/// element 0 is 1 and whose other elements are 0, beside its elements in
/// the other order, for the first packed variant where the two differ.
pub fn witness(site: &Site) -> Option<WitnessTable> {
    for v in Variant::all().into_iter().filter(|v| v.section() == site.section) {
        let Some(lanes) = lanes(&v).filter(|n| *n > 1) else { continue };
        let ops = v.inputs();
        let ins: Vec<BitVec> = ops.iter().map(|o| BitVec::new(o.ty.width(), 1)).collect();
        let Some(model) = Formula::Model.outputs(&Concrete, &v, &ins) else { continue };
        let (Some(d), Some(name)) = (model.first(), v.outputs().first().map(|o| o.name)) else { continue };
        if !d.defined || d.value.width() % lanes != 0 {
            continue;
        }
        let other = reversed(d.value, lanes);
        if other != d.value {
            return Some(WitnessTable {
                variant: v.to_string(),
                inputs: ops.iter().map(|o| o.name.to_string()).zip(ins).collect(),
                columns: vec!["element 0 in the low bits (the model)".into(), "element 0 in the high bits".into()],
                rows: vec![(name.to_string(), vec![Some(d.value), Some(other)])],
            });
        }
    }
    None
}

/// A finding for every site: which bits of `d` each element fills is an
/// unstated case.
/// The fix: a sentence, at the end of the Description's first paragraph,
/// that places the elements of `d` as the block's own extractions place
/// those of the sources (element 0 in the low bits), which is the reading
/// the model takes.
fn repair(doc: &Document, site: &Site) -> Option<Repair> {
    let s = doc.sections.iter().find(|s| s.number == site.section)?;
    super::ending_description(
        s,
        "In the Semantics block, the result stored as element i of d fills the same bits of d as element i of \
         each source, element 0 in the least significant bits.",
    )
}

pub fn check(doc: &Document) -> Vec<Finding> {
    sites(doc)
        .into_iter()
        .map(|s| {
            let witness = witness(&s);
            let mut detail = vec![format!(
                "{}:{}: the block takes the source elements out as bit fields (`{}`) and stores each result as \
                 `{}`. Read in the block's own notation, `d[i]` is bit i of `d`; read as an element, it does not \
                 say which bits element i fills, and no sentence of the section says so.",
                s.file, s.line, s.extract, s.store
            )];
            detail.push(match &witness {
                Some(w) => format!(
                    "On {} with every source's element 0 equal to 1 and its other elements 0, the model's result \
                     and the same elements in the other order differ.",
                    w.variant
                ),
                None => "With element results r0 and r1 of a two-element form, `d` holds r1:r0 (element 0 in \
                         the low half) under one reading and r0:r1 under the other."
                    .to_string(),
            });
            let mut f = Finding::of_text(
                format!("text-lanes-{}", s.section),
                s.section.clone(),
                FindingKind::Ambiguity,
                s.store.clone(),
                "the Semantics block takes the source elements out as bit fields and stores each result as \
                 `d[i]`: which bits of `d` element i fills is stated nowhere"
                    .into(),
                detail,
            );
            f.severity = Severity::Medium;
            f.model_choice = witness.as_ref().map(|_| "element 0 in the low bits".to_string());
            f.witness = witness;
            f.repairs = repair(doc, &s).into_iter().collect();
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn section(number: &str, description: &str, semantics: &str) -> String {
        format!(
            "#### {number}. Integer Arithmetic Instructions: `add`\n\n`add`\n\nAdd.\n\nSyntax\n\n```\n\
             add.type d, a, b;\n.type = {{ .u16x2 }};\n```\n\nDescription\n\n{description}\n\nSemantics\n\n```\n\
             {semantics}\n```\n\n"
        )
    }

    fn doc(text: &str) -> Document {
        Document { sections: parse_any("made.md", text.as_bytes()).unwrap() }
    }

    const BLOCK: &str = "iA[0] = a[0:15];\niA[1] = a[16:31];\niB[0] = b[0:15];\niB[1] = b[16:31];\n\
                         for (i = 0; i < 2; i++) {\n    if (c) d[i] = iA[i];\n    else d[i] = iA[i] + iB[i];\n}";

    #[test]
    fn an_element_store_without_a_placing_sentence_is_a_site() {
        let text = section("9.7.1.1", "Adds the half-words in parallel.", BLOCK)
            + &section("9.7.1.2", "Element i of `d` is bits 16i+15..16i.", BLOCK)
            + &section("9.7.1.3", "Adds.", &format!("{BLOCK}\nd = (d[1] << 16) | d[0];"))
            + &section("9.7.1.4", "Adds.", "iA[0] = a[0:15];\nd[15:0] = iA[0];\nd[1] == 0;");
        let found = sites(&doc(&text));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].section.as_str(), found[0].store.as_str(), found[0].extract.as_str()),
            ("9.7.1.1", "if (c) d[i] = iA[i];", "iA[0] = a[0:15];")
        );
    }

    #[test]
    fn the_fix_places_the_elements_and_the_site_goes() {
        let d = doc(&section("9.7.1.1", "Adds the half-words in parallel.", BLOCK));
        let r = check(&d).remove(0).repairs.remove(0);
        assert!(r.new.starts_with("Adds the half-words in parallel. In the Semantics block"), "{r:?}");
        let fixed = doc(&section("9.7.1.1", &r.new, BLOCK));
        assert!(sites(&fixed).is_empty());
    }

    /// The model's add.u16x2 of 1 and 1 is 2 in the low half-word; the
    /// other placement puts it in the high one.
    #[test]
    fn the_witness_is_the_model_beside_its_elements_reversed() {
        let site = Site {
            section: "9.7.1.1".into(),
            file: "made.md".into(),
            line: 1,
            store: String::new(),
            extract: String::new(),
        };
        let w = witness(&site).expect("a packed add");
        assert_eq!(w.variant, "add.u16x2");
        assert_eq!(w.rows[0].1, [Some(BitVec::new(32, 2)), Some(BitVec::new(32, 0x0002_0000))]);
        assert_eq!(reversed(BitVec::new(32, 0x1122_3344), 4), BitVec::new(32, 0x4433_2211));
    }
}
