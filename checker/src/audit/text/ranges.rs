//! Stated ranges of operands. Where the prose gives an operand's range
//! (`from 0 to 255`, `0..32` in clamp mode), `vendor syntax` assembles the
//! values just outside it as immediates (`range-edge` cases) and reports
//! what ptxas does: an immediate-only operand outside its range is illegal
//! by the text, and an operand the block masks or clamps is legal; where
//! ptxas answers otherwise, the text does not say what the user meets.
//!
//! The ranges are data ([`RANGES`]): which operands, which modes. The text
//! pass ([`stated`]) finds every range the prose states, so a range of a
//! newer document that the table lacks is seen (`ranges_unlisted`), and a
//! unit is checked by `vendor-range` only where its range is in the table.

use super::document::Document;
use super::units::{units, Unit, UnitKind};

/// A range the text states for some operands of a section's variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatedRange {
    pub section: &'static str,
    pub operands: &'static [&'static str],
    pub lo: i64,
    pub hi: i64,
    /// The mode qualifier the range is stated for (`clamp`), if one.
    pub mode: Option<&'static str>,
}

/// Every operand range of the covered sections.
pub const RANGES: &[StatedRange] = &[
    StatedRange { section: "9.7.1.19", operands: &["b", "c"], lo: 0, hi: 255, mode: None },
    StatedRange { section: "9.7.1.20", operands: &["c", "d"], lo: 0, hi: 255, mode: None },
    StatedRange { section: "9.7.1.22", operands: &["b"], lo: 0, hi: 32, mode: Some("clamp") },
    StatedRange { section: "9.7.1.22", operands: &["b"], lo: 0, hi: 31, mode: Some("wrap") },
    StatedRange { section: "9.7.8.6", operands: &["immLut"], lo: 0, hi: 255, mode: None },
    StatedRange { section: "9.7.8.7", operands: &["c"], lo: 0, hi: 32, mode: Some("clamp") },
    StatedRange { section: "9.7.8.7", operands: &["c"], lo: 0, hi: 31, mode: Some("wrap") },
];

/// The numeric ranges of a sentence: `N..M` and `from N to M`.
pub fn ranges_in(text: &str) -> Vec<(i64, i64)> {
    let plain = text.replace('`', "");
    let mut out: Vec<(i64, i64)> = Vec::new();
    let words: Vec<&str> = plain.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',').collect();
    for (i, w) in words.iter().enumerate() {
        let w = w.trim_end_matches(['.', ';', ':']);
        let pair = match w.split_once("..") {
            Some((a, b)) => a.parse::<i64>().ok().zip(b.parse::<i64>().ok()),
            None if w == "from" => words.get(i + 1).and_then(|a| a.parse::<i64>().ok()).zip(
                (words.get(i + 2) == Some(&"to"))
                    .then(|| words.get(i + 3).and_then(|b| b.trim_end_matches(['.', ',']).parse::<i64>().ok()))
                    .flatten(),
            ),
            None => None,
        };
        if let Some(p) = pair.filter(|p| !out.contains(p)) {
            out.push(p);
        }
    }
    out
}

/// Every sentence or list item of the document that states a range, with
/// its ranges.
pub fn stated(doc: &Document) -> Vec<(Unit, Vec<(i64, i64)>)> {
    units(doc)
        .into_iter()
        .filter(|u| matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem))
        .filter_map(|u| {
            let r = ranges_in(&u.text);
            (!r.is_empty()).then_some((u, r))
        })
        .collect()
}

/// Whether the table lists a range of a unit's section.
pub fn listed(u: &Unit, range: (i64, i64)) -> bool {
    RANGES.iter().any(|r| r.section == u.base_section() && (r.lo, r.hi) == range)
}

/// The ranges the text states that the table does not list: `section
/// lo..hi (unit)`.
pub fn unlisted(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    for (u, ranges) in stated(doc) {
        for r in ranges.into_iter().filter(|r| !listed(&u, *r)) {
            out.push(format!("{} {}..{} ({})", u.base_section(), r.0, r.1, u.id));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_in_both_spellings() {
        assert_eq!(ranges_in("restricted to the 8-bit value range `0..255`."), [(0, 255)]);
        assert_eq!(ranges_in("can take values from 0 to 255, thereby"), [(0, 255)]);
        assert_eq!(
            ranges_in("the range `0..32` in clamp mode and `0..31` in wrap mode, the remaining `0..31`"),
            [(0, 32), (0, 31)]
        );
        assert_eq!(ranges_in("limits result to `MININT..MAXINT` (no overflow)"), []);
    }
}
