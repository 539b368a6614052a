//! The units of the document as they stood when recorded, and how a newer
//! document differs from them, unit by unit.
//!
//! `checker/text/fingerprints.toml` keeps, beside the transcribed blocks,
//! every unit's id and the first 16 hex digits of its fingerprint (never its
//! text), with the checks that quote it (claims, passages, transcriptions)
//! and the units each root cause rests on. Given a newer document, each
//! section's blocks are aligned unit by unit on their fingerprints: a unit
//! with the same text is the same unit even where an added sentence
//! renumbers the ones after it; what is left over is changed (paired with a
//! unit of its kind in the same place), added, or removed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::units::Unit;

/// Hex digits of a unit's fingerprint that the table keeps.
pub const PRINT_DIGITS: usize = 16;

/// One recorded unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitPrint {
    pub id: String,
    pub sha256: String,
    /// The recorded checks that rest on it, space-separated
    /// (`claim:9.7.1.1/add-is-sum passage:int-wraparound`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rests: String,
}

impl UnitPrint {
    /// Its section, without a rendering's mark.
    pub fn section(&self) -> &str {
        let s = self.id.split('/').next().unwrap_or(&self.id);
        s.split('@').next().unwrap_or(s)
    }

    /// Its place: section and block key (`9.7.1.9/notes`).
    fn place(&self) -> (&str, &str) {
        (self.section(), self.id.split('/').nth(1).unwrap_or(""))
    }

    /// Its kind's key (`sentence` of `.../sentence-2`).
    fn kind(&self) -> &str {
        let last = self.id.rsplit('/').next().unwrap_or("");
        last.rsplit_once('-').map_or(last, |(k, _)| k)
    }

    pub fn checks(&self) -> impl Iterator<Item = &str> {
        self.rests.split_whitespace()
    }
}

/// The units a root cause rests on, by id, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestsOn {
    pub root_cause: String,
    pub units: Vec<String>,
}

/// How a document differs from the recorded units.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Diff {
    /// A recorded unit whose place now holds other text: the recorded id,
    /// and the unit there now.
    pub changed: Vec<(UnitPrint, Unit)>,
    /// Units the recorded text did not have.
    pub added: Vec<Unit>,
    /// Recorded units the document no longer has.
    pub removed: Vec<UnitPrint>,
    /// Recorded id to the id it has now, for every unit whose text is
    /// unchanged.
    #[serde(skip)]
    pub same: BTreeMap<String, String>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }

    /// Whether the recorded unit `id` is in the document unchanged.
    pub fn unchanged(&self, id: &str) -> bool {
        self.same.contains_key(id)
    }
}

/// Align the document's units with the recorded ones, block by block.
pub fn diff(recorded: &[UnitPrint], now: &[Unit]) -> Diff {
    let mut old_by: BTreeMap<(String, String), Vec<&UnitPrint>> = BTreeMap::new();
    for u in recorded {
        let (s, b) = u.place();
        old_by.entry((s.to_string(), b.to_string())).or_default().push(u);
    }
    let mut new_by: BTreeMap<(String, String), Vec<&Unit>> = BTreeMap::new();
    for u in now {
        let block = u.id.split('/').nth(1).unwrap_or("").to_string();
        new_by.entry((u.base_section().to_string(), block)).or_default().push(u);
    }
    let mut out = Diff::default();
    let empty_old: Vec<&UnitPrint> = Vec::new();
    let empty_new: Vec<&Unit> = Vec::new();
    let mut places: Vec<&(String, String)> = old_by.keys().chain(new_by.keys()).collect();
    places.sort();
    places.dedup();
    for place in places {
        let old = old_by.get(place).unwrap_or(&empty_old);
        let new = new_by.get(place).unwrap_or(&empty_new);
        align(old, new, &mut out);
    }
    out
}

/// One block: the longest common subsequence of fingerprints, then each
/// gap's leftovers paired by kind in order.
fn align(old: &[&UnitPrint], new: &[&Unit], out: &mut Diff) {
    let (n, m) = (old.len(), new.len());
    let same = |i: usize, j: usize| new[j].sha256.starts_with(&old[i].sha256);
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if same(i, j) { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut gap_old, mut gap_new): (Vec<&UnitPrint>, Vec<&Unit>) = (Vec::new(), Vec::new());
    while i < n || j < m {
        if i < n && j < m && same(i, j) {
            settle_gap(&mut gap_old, &mut gap_new, out);
            out.same.insert(old[i].id.clone(), new[j].id.clone());
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            gap_new.push(new[j]);
            j += 1;
        } else {
            gap_old.push(old[i]);
            i += 1;
        }
    }
    settle_gap(&mut gap_old, &mut gap_new, out);
}

fn settle_gap(old: &mut Vec<&UnitPrint>, new: &mut Vec<&Unit>, out: &mut Diff) {
    let mut unpaired: Vec<&Unit> = Vec::new();
    let mut left: Vec<&UnitPrint> = std::mem::take(old);
    for u in new.drain(..) {
        match left.iter().position(|o| o.kind() == u.kind.key()) {
            Some(k) => out.changed.push((left.remove(k).clone(), u.clone())),
            None => unpaired.push(u),
        }
    }
    out.added.extend(unpaired.into_iter().cloned());
    out.removed.extend(left.into_iter().cloned());
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The units part of the fingerprint table: one inline table per unit, in
/// document order (a key of the table's top level, so written first).
pub fn units_toml(units: &[UnitPrint]) -> String {
    let mut out = String::from(
        "# Every unit of the document: its id, the first 16 hex digits of its fingerprint, and the\n\
         # claims, passages and transcriptions that rest on it.\nunit = [\n",
    );
    for u in units {
        let rests = if u.rests.is_empty() { String::new() } else { format!(", rests = {}", q(&u.rests)) };
        out.push_str(&format!("    {{ id = {}, sha256 = {}{rests} }},\n", q(&u.id), q(&u.sha256)));
    }
    out.push_str("]\n\n");
    out
}

/// The root causes' units, as tables after the rest.
pub fn rests_toml(rests: &[RestsOn]) -> String {
    let mut out = String::from("\n# The units each root cause (checker/errata/root-causes.toml) rests on.\n");
    for r in rests {
        let ids: Vec<String> = r.units.iter().map(|u| q(u)).collect();
        out.push_str(&format!("\n[[rests_on]]\nroot_cause = {}\nunits = [{}]\n", q(&r.root_cause), ids.join(", ")));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::audit::text::document::{parse, Document};
    use crate::audit::text::units::units;

    /// A whole section, as the parser wants one.
    pub(crate) fn section(number: &str, semantics: &str, notes: &str) -> String {
        format!(
            "#### {number}. Integer Arithmetic Instructions: `rem`\n\n`rem`\n\nThe remainder.\n\nSyntax\n\n```\n\
             rem.type d, a, b;\n```\n\nDescription\n\nDivides a by b.\n\nSemantics\n\n```\n{semantics}\n```\n\n\
             Notes\n\n{notes}\n\nPTX ISA Notes\n\nIntroduced in PTX ISA version 1.0.\n\nTarget ISA Notes\n\n\
             Supported on all target architectures.\n\nExamples\n\n```\nrem.s32 x,y,z;\n```\n"
        )
    }

    static DOC: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| section("9.7.1.9", "d = a % b;", "One sentence here. Another one."));

    fn of(text: &str) -> Vec<Unit> {
        units(&Document { sections: parse("doc.md", text.as_bytes()).unwrap() })
    }

    fn prints(text: &str) -> Vec<UnitPrint> {
        of(text)
            .into_iter()
            .map(|u| UnitPrint { id: u.id, sha256: u.sha256[..PRINT_DIGITS].into(), rests: String::new() })
            .collect()
    }

    #[test]
    fn the_same_text_differs_in_nothing() {
        let d = diff(&prints(&DOC), &of(&DOC));
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(d.same.len(), of(&DOC).len());
    }

    #[test]
    fn an_added_sentence_is_added_and_renumbers_nothing_else() {
        let newer = DOC.replace("Notes\n\nOne", "Notes\n\nA new first sentence. One");
        let d = diff(&prints(&DOC), &of(&newer));
        assert!(d.changed.is_empty() && d.removed.is_empty(), "{d:?}");
        assert_eq!(d.added.len(), 1);
        assert_eq!(d.added[0].text, "A new first sentence.");
        // The sentence that was first is second now, and unchanged.
        assert_eq!(d.same["9.7.1.9/notes/sentence-1"], "9.7.1.9/notes/sentence-2");
    }

    #[test]
    fn a_reworded_sentence_is_changed_and_a_cut_one_removed() {
        let newer = DOC.replace("Another one.", "Another two.").replace("d = a % b;", "");
        let d = diff(&prints(&DOC), &of(&newer));
        assert_eq!(d.changed.len(), 1, "{d:?}");
        assert_eq!(d.changed[0].0.id, "9.7.1.9/notes/sentence-2");
        assert_eq!(d.changed[0].1.text, "Another two.");
        assert_eq!(d.removed.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["9.7.1.9/semantics/statement-1"]);
    }
}
