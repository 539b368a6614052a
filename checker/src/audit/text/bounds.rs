//! Stated bounds, as formulas with every reading. A sentence of the prose
//! that bounds a result (`the number of leading zeros is between 0 and 32,
//! inclusively`) is read into a formula: a guard (the variants its leading
//! `For ...,` names, or all of the section's) and a statement (`lo <= d <=
//! hi`). Where the words fix the ends (`inclusively`, `from 0 to 32`,
//! `0..32`), that is the one reading; a bare `between A and B` has two, the
//! ends in or out.
//!
//! Each reading is a claim over all inputs, proven or refuted by the solver
//! against the model (whose witness is confirmed by running the variant).
//! One reading that the model breaks everywhere it is read is a sentence
//! that disagrees with the Semantics block; two readings that the model
//! tells apart (it reaches an end) make the sentence ambiguous, with the
//! least input where it does and the reading the Semantics block meets.
//!
//! A bound on operands (fns's `base (between 0 and 31)`, `must be <= 31`)
//! is a condition on the inputs, not on the result: it is read here
//! ([`read`]) and compared, reading against reading and sentence against
//! sentence, in [`super::domains`].

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::bv::BitVec;
use ptx_spec::Variant;

use super::document::{BlockKind, Document};
use super::operands::{scope, words};
use super::units::{units, UnitKind};
use crate::audit::claims::check::{check, ClaimVerdict, Witness};
use crate::audit::claims::{Check, Claim, Kind};
use crate::audit::finding::{Finding, FindingKind, WitnessTable};

/// Whether a bound's ends are in its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    Inclusive,
    Exclusive,
    /// The words do not say (`between A and B`): both readings.
    Unstated,
}

impl Ends {
    /// The readings these words admit: both where they do not say.
    pub fn readings(&self) -> &[Ends] {
        match self {
            Ends::Unstated => &[Ends::Inclusive, Ends::Exclusive],
            stated => std::slice::from_ref(stated),
        }
    }
}

/// What a bound is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The instruction's result (`the number of ...`, `the result`, `d`).
    Result,
    /// Input operands, by their Syntax names: those named before the bound
    /// in its sentence (bfe's `b` and `c` are `restricted to ... 0..255`).
    Operands(Vec<String>),
}

/// One bound the prose states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The unit it is in (`9.7.1.15/description/sentence-3`).
    pub unit: String,
    pub section: String,
    /// The words that state it (`between 0 and 32, inclusively`).
    pub fragment: String,
    pub subject: Subject,
    /// The ends the words state: one of them only for a one-sided bound
    /// (`must be <= 31` has no lower end).
    pub lo: Option<u64>,
    pub hi: Option<u64>,
    /// Whether the stated ends are in the range.
    pub ends: Ends,
    /// The sentence's guard: the variants it speaks of (all of the
    /// section's modelled ones where it names no qualifier).
    pub variants: Vec<Variant>,
}

/// A bound's shape, as read at one word of a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shape {
    lo: Option<u64>,
    hi: Option<u64>,
    ends: Ends,
    /// The words that state it, lower-cased (`between 0 and 32`, `must be
    /// <= 31`), to find them in the sentence.
    needle: String,
}

/// The comparisons a requirement (`must be <= 31`) states: one end each.
const ONE_SIDED: [(&str, bool, Ends); 8] = [
    ("<=", true, Ends::Inclusive),
    ("<", true, Ends::Exclusive),
    (">=", false, Ends::Inclusive),
    (">", false, Ends::Exclusive),
    ("at most", true, Ends::Inclusive),
    ("less than", true, Ends::Exclusive),
    ("at least", false, Ends::Inclusive),
    ("greater than", false, Ends::Exclusive),
];

/// A shape of bound in `words` (lower-cased, code marks dropped) at word
/// `i`: its ends, whether they are in it, and the words that state it.
fn shape(ws: &[String], i: usize) -> Option<Shape> {
    let bare = |k: usize| ws.get(k).map(|w| w.trim_end_matches([',', '.']));
    let number = |k: usize| bare(k).and_then(|w| w.parse::<u64>().ok());
    match ws[i].as_str() {
        "between" if ws.get(i + 2).map(String::as_str) == Some("and") => {
            let (lo, hi) = (number(i + 1)?, number(i + 3)?);
            let ends = match bare(i + 4) {
                Some("inclusive" | "inclusively") => Ends::Inclusive,
                Some("exclusive" | "exclusively") => Ends::Exclusive,
                _ => Ends::Unstated,
            };
            Some(Shape { lo: Some(lo), hi: Some(hi), ends, needle: format!("between {lo} and {hi}") })
        }
        "from" if ws.get(i + 2).map(String::as_str) == Some("to") => {
            let (lo, hi) = (number(i + 1)?, number(i + 3)?);
            Some(Shape { lo: Some(lo), hi: Some(hi), ends: Ends::Inclusive, needle: format!("from {lo} to {hi}") })
        }
        "must" if bare(i + 1) == Some("be") => {
            let rest: Vec<&str> = (i + 2..i + 5).filter_map(bare).collect();
            ONE_SIDED.iter().find_map(|&(words, upper, ends)| {
                let n = words.split(' ').count();
                if rest.len() <= n || rest[..n].join(" ") != words {
                    return None;
                }
                let v: u64 = rest[n].parse().ok()?;
                let (lo, hi) = if upper { (None, Some(v)) } else { (Some(v), None) };
                Some(Shape { lo, hi, ends, needle: format!("must be {words} {v}") })
            })
        }
        w => {
            let (lo, hi) = w.trim_end_matches([',', '.']).split_once("..")?;
            let (lo, hi) = (lo.parse().ok()?, hi.parse().ok()?);
            Some(Shape { lo: Some(lo), hi: Some(hi), ends: Ends::Inclusive, needle: format!("{lo}..{hi}") })
        }
    }
}

/// Every bound of the prose of the document's modelled sections, in
/// document order. Its subject is the Syntax operand named in code before
/// it, or the result where the sentence speaks of `the number of` or `the
/// result`; a sentence with neither (prmt's bytes `numbered from 0 to 7`)
/// states no bound this reads.
pub fn read(doc: &Document) -> Vec<Bound> {
    let mut out = Vec::new();
    let prose = units(doc).into_iter().filter(|u| {
        matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem)
            && matches!(u.block, Some(BlockKind::Description | BlockKind::Notes))
    });
    for u in prose {
        let mine: Vec<Variant> = Variant::all().into_iter().filter(|v| v.section() == u.base_section()).collect();
        let Some(variants) = (!mine.is_empty()).then(|| scope(&u.text, &mine)).flatten() else {
            continue;
        };
        let ws = words(&u.text);
        let lower: Vec<String> = ws.iter().map(|(w, _)| w.to_lowercase()).collect();
        for i in 0..lower.len() {
            let Some(found) = shape(&lower, i) else { continue };
            let Some((at, fragment)) = quoted(&u.text, &found) else { continue };
            let mut named: Vec<String> = Vec::new();
            for (w, _) in ws[..i].iter().filter(|(w, code)| *code && mine[0].operands().iter().any(|o| o.name == w)) {
                if !named.contains(w) {
                    named.push(w.clone());
                }
            }
            // A bound in parentheses is of the operand just before it
            // (`an integer value base (between 0 and 31)`), not of every
            // operand the sentence has named so far.
            if u.text[..at].trim_end().ends_with('(') && named.len() > 1 {
                named.drain(..named.len() - 1);
            }
            let result = variants[0].outputs().first().map(|o| o.name.to_string());
            let subject = match named.last() {
                Some(w) if Some(w) == result.as_ref() => Subject::Result,
                Some(_) => Subject::Operands(named),
                None if lower[..i].join(" ").contains("the number of")
                    || lower[..i].join(" ").contains("the result") =>
                {
                    Subject::Result
                }
                None => continue,
            };
            out.push(Bound {
                unit: u.id.clone(),
                section: u.base_section().to_string(),
                fragment,
                subject,
                lo: found.lo,
                hi: found.hi,
                ends: found.ends,
                variants: variants.clone(),
            });
        }
    }
    out
}

/// Where the words of a bound start in `text`, and the exact words, for
/// the finding's fragment (`between 0 and 32, inclusively`).
fn quoted(text: &str, found: &Shape) -> Option<(usize, String)> {
    let at = text.to_ascii_lowercase().find(&found.needle)?;
    let mut end = at + found.needle.len();
    if found.needle.starts_with("between") && found.ends != Ends::Unstated {
        // The words that say the ends, after a comma or not.
        let rest = &text[end..];
        let word = rest.trim_start_matches([',', ' ']).split([' ', '.', ',', ';']).next().unwrap_or("");
        end += rest.find(word).unwrap_or(0) + word.len();
    }
    Some((at, text[at..end].to_string()))
}

/// The claim that `v`'s result lies within the bound read with `ends`.
fn reading(b: &Bound, v: &Variant, ends: Ends) -> Claim {
    let d = v.outputs()[0].name;
    let ins: Vec<&str> = v.operands().iter().map(|o| o.name).collect();
    let holds = conditions(b, d, ends, "");
    Claim {
        id: format!("{}/bound", b.section),
        section: b.section.clone(),
        kind: Kind::Prose,
        statement: format!("{} {}", v.mnemonic(), b.fragment),
        fragment: Some(b.fragment.clone()),
        rests_on: Vec::new(),
        refuted: None,
        check: Check::Always { program: format!("{} {};", v.mnemonic(), ins.join(", ")), assume: Vec::new(), holds },
    }
}

/// The conditions on `name` that a bound read with `ends` states, in the
/// claims' language; `signed` is `"s"` for signed comparisons (`base <=s
/// 31`), empty for unsigned ones. A bound that states neither end (none
/// does) would be no condition.
pub fn conditions(b: &Bound, name: &str, ends: Ends, signed: &str) -> Vec<String> {
    let (above, below) = if ends == Ends::Exclusive { (">", "<") } else { (">=", "<=") };
    let lo = b.lo.map(|lo| format!("{name} {above}{signed} {lo}"));
    let hi = b.hi.map(|hi| format!("{name} {below}{signed} {hi}"));
    lo.into_iter().chain(hi).collect()
}

/// The verdict on one reading, and its witness where the model breaks it.
fn verdict(b: &Bound, v: &Variant, ends: Ends, backend: &Backend) -> Result<Option<Witness>, String> {
    match check(&reading(b, v, ends), backend, TIMEOUT).verdict {
        ClaimVerdict::Holds(_) => Ok(None),
        ClaimVerdict::Refuted(Some(w)) => Ok(Some(w)),
        other => Err(format!("{}: {}", v.mnemonic(), other.label())),
    }
}

/// A query's limit: each is a few bit-vector comparisons of one variant.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The witness as a table: the inputs, the model's result, and whether the
/// sentence holds there under each reading (1) or not (0).
fn table(v: &Variant, w: &Witness, readings: &[(&str, bool)]) -> WitnessTable {
    let (d, value) = result(v, w);
    let mut rows = vec![(d.to_string(), readings.iter().map(|_| value).collect())];
    let held = readings.iter().map(|(_, h)| Some(BitVec::new(1, u128::from(*h)))).collect();
    rows.push(("the bound holds".to_string(), held));
    WitnessTable {
        variant: v.mnemonic(),
        inputs: w.inputs.clone(),
        columns: readings.iter().map(|(n, _)| n.to_string()).collect(),
        rows,
    }
}

/// The findings on the bounds of the result: a bound the model breaks, and
/// a bound without stated ends that the model tells apart. A solver that
/// gives no answer is said in the finding, never taken as either.
pub fn check_all(doc: &Document) -> Vec<Finding> {
    let backend = Backend::Embedded;
    let mut out = Vec::new();
    for b in read(doc).into_iter().filter(|b| b.subject == Subject::Result) {
        let id = format!("text-bound-{}", b.unit.replace('/', "-"));
        let readings = b.ends.readings();
        // Per reading, the variants whose model breaks it, with a witness.
        let mut broken: Vec<Vec<(Variant, Witness)>> = vec![Vec::new(); readings.len()];
        let mut unsettled = Vec::new();
        for v in &b.variants {
            for (k, &ends) in readings.iter().enumerate() {
                match verdict(&b, v, ends, &backend) {
                    Ok(Some(w)) => broken[k].push((*v, w)),
                    Ok(None) => {}
                    Err(why) => unsettled.push(why),
                }
            }
        }
        let name = |e: Ends| if e == Ends::Exclusive { "ends excluded" } else { "ends included" };
        let mut detail = Vec::new();
        for (k, &ends) in readings.iter().enumerate() {
            let on = if broken[k].is_empty() {
                "the model meets it on every input of every variant it speaks of (proven)".to_string()
            } else {
                let vs: Vec<String> = broken[k].iter().map(|(v, _)| v.mnemonic()).collect();
                format!("the model breaks it on {}", vs.join(", "))
            };
            detail.push(format!("Read with the {}: {on}.", name(ends)));
        }
        if !unsettled.is_empty() {
            detail.push(format!("Not settled: {}.", unsettled.join("; ")));
        }
        let all_broken = broken.iter().all(|vs| !vs.is_empty());
        let first_broken = broken.iter().enumerate().find_map(|(k, vs)| vs.first().map(|x| (k, x)));
        let finding = if all_broken {
            let (v, w) = &broken[0][0];
            let summary = format!(
                "`{}` does not hold for the Semantics block: {} gives {} at the least input that breaks it",
                b.fragment,
                v.mnemonic(),
                show(v, w)
            );
            let cols: Vec<(&str, bool)> = readings.iter().map(|&e| (name(e), false)).collect();
            Some((FindingKind::ProseVsPseudocode, summary, table(v, w, &cols)))
        } else if let Some((k, (v, w))) = first_broken.filter(|_| readings.len() == 2) {
            let met = name(readings[1 - k]);
            let summary = format!(
                "`{}` does not say whether {} are in the range; the readings differ where {} gives {} (the least \
                 such input), and the Semantics block meets the one with the {met}",
                b.fragment,
                stated_ends(&b),
                v.mnemonic(),
                show(v, w)
            );
            let cols = [(name(readings[0]), k != 0), (name(readings[1]), k != 1)];
            Some((FindingKind::Ambiguity, summary, table(v, w, &cols)))
        } else {
            None
        };
        if let Some((kind, summary, witness)) = finding {
            let mut f = Finding::of_text(id, b.section.clone(), kind, b.fragment.clone(), summary, detail);
            f.witness = Some(witness);
            out.push(f);
        }
    }
    out
}

/// The ends a bound states, in words: `0 and 32`, or `31` alone.
pub fn stated_ends(b: &Bound) -> String {
    let ends: Vec<String> = b.lo.into_iter().chain(b.hi).map(|e| e.to_string()).collect();
    ends.join(" and ")
}

/// The result's name, and its value at the witness (`None`: undefined).
pub fn result(v: &Variant, w: &Witness) -> (&'static str, Option<BitVec>) {
    let d = v.outputs()[0].name;
    (d, w.observed.iter().find(|(n, _)| n == d).and_then(|(_, x)| *x))
}

/// The witness's result in words: `d = 0x00000020 (32) for a = 0x00000000 (0)`.
fn show(v: &Variant, w: &Witness) -> String {
    let (d, value) = result(v, w);
    let inputs: Vec<String> = w.inputs.iter().map(|(n, x)| format!("{n} = {x}")).collect();
    let value = value.map_or("an undefined result".to_string(), |x| format!("{d} = {x}"));
    format!("{value} for {}", inputs.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(text: &str) -> Vec<String> {
        words(text).into_iter().map(|(w, _)| w.to_lowercase()).collect()
    }

    #[test]
    fn the_shapes_of_a_bound_and_their_ends() {
        let read = |text: &str, i: usize| shape(&lower(text), i).map(|s| (s.lo, s.hi, s.ends, s.needle));
        let both = |lo, hi, ends, needle: &str| Some((Some(lo), Some(hi), ends, needle.to_string()));
        assert_eq!(read("is between 0 and 32, inclusively.", 1), both(0, 32, Ends::Inclusive, "between 0 and 32"));
        assert_eq!(read("is between 0 and 32.", 1), both(0, 32, Ends::Unstated, "between 0 and 32"));
        assert_eq!(read("values from 0 to 255, thereby", 1), both(0, 255, Ends::Inclusive, "from 0 to 255"));
        assert_eq!(read("the range `0..31` in wrap mode", 2), both(0, 31, Ends::Inclusive, "0..31"));
        assert_eq!(read("between the lanes", 0), None);
        // A requirement states one end.
        let one = |lo, hi, ends, needle: &str| Some((lo, hi, ends, needle.to_string()));
        assert_eq!(read("`base` must be <= 31, otherwise", 1), one(None, Some(31), Ends::Inclusive, "must be <= 31"));
        assert_eq!(read("`n` must be less than 32.", 1), one(None, Some(32), Ends::Exclusive, "must be less than 32"));
        assert_eq!(read("`k` must be at least 1", 1), one(Some(1), None, Ends::Inclusive, "must be at least 1"));
        assert_eq!(read("`b` must be a 32-bit value", 1), None);
    }
}
