//! The ranges the prose allows an operand, as formulas with every reading,
//! and the pairs of sentences that allow it different ranges.
//!
//! A bound on an operand (fns's `base (between 0 and 31)`, `Operand base
//! must be <= 31`) says which inputs are legal. Its words can leave two
//! things open:
//!
//! - whether the ends are in the range (a bare `between A and B`);
//! - whether the comparison is signed, where the operand's type does not
//!   say: a `.b32` operand, or one with no stated type. A `.s32` operand
//!   is compared signed and a `.u32` one unsigned.
//!
//! Each reading is a condition on the operand, in the claims' language. The
//! solver compares two readings over all inputs of the variant, with the
//! least input where they differ as the witness (confirmed by running the
//! variant). Two readings of one sentence that differ make it ambiguous. Two
//! sentences that bound the same operand of the same variant conflict for
//! an operand type where no reading of the one agrees with any reading of
//! the other: a reader cannot obey both.
//!
//! The operand types are read from the section's prose (`Operand base has
//! .b32, .u32 or .s32 type`), one type at a time: a sentence may agree with
//! another for a `.u32` operand and not for a `.s32` one.

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::bv::BitVec;
use ptx_spec::Variant;

use super::bounds::{self, stated_ends, Bound, Ends, Subject};
use super::document::{BlockKind, Document};
use super::operands::words;
use super::units::{units, UnitKind};
use crate::audit::claims::check::separate;
use crate::audit::finding::{Finding, FindingKind, WitnessTable};

/// How a reading compares an operand with a bound's ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Unsigned,
    Signed,
}

/// One reading of a bound on one operand.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reading {
    /// What it takes the words to mean (`ends included, signed`); empty
    /// where the words admit only this reading.
    label: String,
    /// Its ends and its signedness, where the words leave them open.
    ends: Option<Ends>,
    sign: Option<Sign>,
    /// The legal inputs, as conditions on the operand (`base <=s 31`).
    conditions: Vec<String>,
}

/// The signedness readings of a comparison with an operand of type `ty`.
fn signs(ty: Option<&str>) -> &'static [Sign] {
    match ty.and_then(|t| t.strip_prefix('.')).and_then(|t| t.chars().next()) {
        Some('s') => &[Sign::Signed],
        Some('u') => &[Sign::Unsigned],
        _ => &[Sign::Unsigned, Sign::Signed],
    }
}

/// Every reading of bound `b` on operand `x` of type `ty` and `width`
/// bits: its ends in or out where the words do not say, times its
/// signedness where the type does not say. A signedness whose range cannot
/// hold the stated ends is no reading (an 8-bit `immLut` that takes the
/// values `from 0 to 255` is not signed).
fn readings(b: &Bound, x: &str, ty: Option<&str>, width: u32) -> Vec<Reading> {
    let ends = b.ends.readings();
    let top = |s: Sign| match s {
        Sign::Unsigned => u128::MAX >> (128 - width),
        Sign::Signed => u128::MAX >> (129 - width),
    };
    let fits = |s: Sign| b.lo.into_iter().chain(b.hi).all(|e| u128::from(e) <= top(s));
    let signs: Vec<Sign> = signs(ty).iter().copied().filter(|&s| fits(s)).collect();
    let mut out = Vec::new();
    for &e in ends {
        for &s in &signs {
            let mut label = Vec::new();
            if ends.len() > 1 {
                label.push(if e == Ends::Exclusive { "ends excluded" } else { "ends included" });
            }
            if signs.len() > 1 {
                label.push(if s == Sign::Signed { "signed" } else { "unsigned" });
            }
            let signed = if s == Sign::Signed { "s" } else { "" };
            out.push(Reading {
                label: label.join(", "),
                ends: (ends.len() > 1).then_some(e),
                sign: (signs.len() > 1).then_some(s),
                conditions: bounds::conditions(b, x, e, signed),
            });
        }
    }
    out
}

/// The types the prose of `section` gives operand `x`: the type names in
/// code marks of each Description or Notes sentence that names `x`, among
/// the operands of `variant` it names before its first type (`Operand base
/// has .b32, .u32 or .s32 type`; bfe's `b` and `c` are `type .u32`).
fn stated_types(doc: &Document, section: &str, variant: &Variant, x: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let prose = units(doc).into_iter().filter(|u| {
        u.base_section() == section
            && matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem)
            && matches!(u.block, Some(BlockKind::Description | BlockKind::Notes))
    });
    for u in prose {
        let ws = words(&u.text);
        let is_operand = |w: &str| variant.operands().iter().any(|o| o.name == w);
        let Some(first_type) = ws.iter().position(|(w, code)| {
            *code && super::operands::qualifier_width(w.strip_prefix('.').unwrap_or("-")).is_some()
        }) else {
            continue;
        };
        let named: Vec<&str> =
            ws[..first_type].iter().filter(|(w, code)| *code && is_operand(w)).map(|(w, _)| w.as_str()).collect();
        if !named.contains(&x) {
            continue;
        }
        for (w, _) in ws[first_type..].iter().filter(|(w, code)| *code && w.starts_with('.')) {
            if super::operands::qualifier_width(&w[1..]).is_some() && !out.contains(w) {
                out.push(w.clone());
            }
        }
    }
    out
}

/// Two readings of a bound on operand `x` of `v` compared by the solver:
/// `None` where they allow the same values, else the least value where they
/// differ and whether it is the first reading that allows it.
fn differ(v: &Variant, x: &str, a: &Reading, b: &Reading) -> Result<Option<(BitVec, bool)>, String> {
    let width = width(v, x);
    let only = |yes: &Reading, no: &Reading| {
        separate(&Backend::Embedded, TIMEOUT, x, width, &yes.conditions, &no.conditions)
            .map_err(|why| format!("{} {x}: {why}", v.mnemonic()))
    };
    Ok(match (only(a, b)?, only(b, a)?) {
        (Some(p), Some(q)) if q.unsigned() < p.unsigned() => Some((q, false)),
        (Some(p), _) => Some((p, true)),
        (None, Some(q)) => Some((q, false)),
        (None, None) => None,
    })
}

/// The width of operand `x` of `v`.
fn width(v: &Variant, x: &str) -> u32 {
    v.operands().iter().find(|o| o.name == x).map_or(32, |o| o.ty.width())
}

/// A query's limit: each compares a few conditions on one operand.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The bounds of the prose on one operand each: (bound, operand).
fn operand_bounds(doc: &Document) -> Vec<(Bound, String)> {
    let mut out = Vec::new();
    for b in bounds::read(doc) {
        if let Subject::Operands(names) = &b.subject {
            for x in names {
                out.push((b.clone(), x.clone()));
            }
        }
    }
    out
}

/// The inputs of `v` that every reading of every bound the prose puts on
/// its operands allows, as conditions on the operands by name: the inputs
/// that are legal however the bounds are read.
pub fn legal(doc: &Document, v: &Variant) -> Vec<String> {
    let mut out = Vec::new();
    for (b, x) in operand_bounds(doc).into_iter().filter(|(b, _)| b.variants.contains(v)) {
        if !v.inputs().iter().any(|o| o.name == x) {
            continue;
        }
        for ty in types_of(doc, v, &x) {
            for r in readings(&b, &x, ty.as_deref(), width(v, &x)) {
                out.extend(r.conditions.into_iter().filter(|c| !out.contains(c)).collect::<Vec<_>>());
            }
        }
    }
    out
}

/// The units whose bounds on operands this pass reads (for `--coverage`).
pub fn read_units(doc: &Document) -> Vec<String> {
    operand_bounds(doc).into_iter().map(|(b, _)| b.unit).collect()
}

/// The operand types to read a bound on `x` of `v` with: those stated, or
/// one unknown type where none is.
fn types_of(doc: &Document, v: &Variant, x: &str) -> Vec<Option<String>> {
    let stated = stated_types(doc, v.section(), v, x);
    if stated.is_empty() {
        vec![None]
    } else {
        stated.into_iter().map(Some).collect()
    }
}

/// The variant's inputs with operand `x` at `value` and every other one 0.
fn inputs(v: &Variant, x: &str, value: BitVec) -> Vec<(String, BitVec)> {
    v.inputs()
        .iter()
        .map(|o| (o.name.to_string(), if o.name == x { value } else { BitVec::new(o.ty.width(), 0) }))
        .collect()
}

/// The model's result on those inputs (`None`: undefined).
fn model(v: &Variant, x: &str, value: BitVec) -> Option<BitVec> {
    let values: Vec<u128> = inputs(v, x, value).iter().map(|(_, b)| b.unsigned()).collect();
    v.run(&values).first().copied().flatten()
}

/// The witness as a table: the inputs, whether each reading allows them
/// (1) or not (0), and the model's result there.
fn table(v: &Variant, x: &str, value: BitVec, columns: Vec<String>, allows: &[bool]) -> WitnessTable {
    let d = v.outputs()[0].name.to_string();
    let held = allows.iter().map(|&a| Some(BitVec::new(1, u128::from(a)))).collect();
    WitnessTable {
        variant: v.mnemonic(),
        inputs: inputs(v, x, value),
        columns,
        rows: vec![("a legal input".to_string(), held), (d, allows.iter().map(|_| model(v, x, value)).collect())],
    }
}

/// The model's result at the witness, in words.
fn model_there(v: &Variant, x: &str, value: BitVec) -> String {
    let d = v.outputs()[0].name;
    let others: Vec<&str> = v.inputs().iter().map(|o| o.name).filter(|n| *n != x).collect();
    let zero = if others.is_empty() { String::new() } else { format!(" (with {} = 0)", others.join(", ")) };
    match model(v, x, value) {
        Some(r) => format!("the model gives {d} = {r} there{zero}"),
        None => format!("the model leaves {d} undefined there{zero}"),
    }
}

fn type_words(ty: &Option<String>, x: &str) -> String {
    ty.as_ref().map_or_else(|| x.to_string(), |t| format!("a {t} {x}"))
}

/// The ambiguity findings: a bound on an operand whose readings admit
/// different inputs. The first reading (ends included, unsigned) is
/// compared with each other one, for each type of the operand.
fn ambiguities(doc: &Document, out: &mut Vec<Finding>) {
    for (b, x) in operand_bounds(doc) {
        let Some(v) = b.variants.iter().find(|v| v.operands().iter().any(|o| o.name == x)) else { continue };
        let mut found = None;
        let mut detail = Vec::new();
        for ty in types_of(doc, v, &x) {
            let rs = readings(&b, &x, ty.as_deref(), width(v, &x));
            // Each reading that changes one thing the words leave open.
            for r in rs.iter().skip(1).filter(|r| r.ends == rs[0].ends || r.sign == rs[0].sign) {
                match differ(v, &x, &rs[0], r) {
                    Ok(None) => {}
                    Ok(Some((w, first))) => {
                        let (yes, no) = if first { (&rs[0], r) } else { (r, &rs[0]) };
                        detail.push(format!(
                            "For {}: read as ({}), `{}` allows {x} = {w}; read as ({}), it does not.",
                            type_words(&ty, &x),
                            yes.label,
                            b.fragment,
                            no.label
                        ));
                        found.get_or_insert((ty.clone(), rs[0].clone(), r.clone(), w, first));
                    }
                    Err(why) => detail.push(format!("Not settled: {why}.")),
                }
            }
        }
        let id = format!("text-domain-{}-{x}", b.unit.replace('/', "-"));
        let Some((ty, r0, r, w, first)) = found else {
            if !detail.is_empty() {
                let summary = format!("the readings of `{}` on {x} could not be compared", b.fragment);
                out.push(Finding::of_text(
                    id,
                    b.section.clone(),
                    FindingKind::Ambiguity,
                    b.fragment.clone(),
                    summary,
                    detail,
                ));
            }
            continue;
        };
        let open = if r0.ends != r.ends {
            format!("whether {} are in the range", stated_ends(&b))
        } else {
            format!("whether {} is compared signed", type_words(&ty, &x))
        };
        let (yes, no) = if first { (&r0.label, &r.label) } else { (&r.label, &r0.label) };
        let summary = format!(
            "`{}` does not say {open}: read as ({yes}) it allows {x} = {w}, read as ({no}) it does not (the least \
             input where the readings differ); {}",
            b.fragment,
            model_there(v, &x, w)
        );
        let mut f =
            Finding::of_text(id, b.section.clone(), FindingKind::Ambiguity, b.fragment.clone(), summary, detail);
        f.witness = Some(table(v, &x, w, vec![r0.label.clone(), r.label.clone()], &[first, !first]));
        out.push(f);
    }
}

/// The conflict findings: two sentences that bound the same operand of a
/// variant they both speak of, where, for some type of the operand, no
/// reading of the one allows the inputs some reading of the other does.
fn conflicts(doc: &Document, out: &mut Vec<Finding>) {
    let all = operand_bounds(doc);
    for (i, (a, x)) in all.iter().enumerate() {
        for (b, y) in &all[i + 1..] {
            let shared = a.variants.iter().find(|v| b.variants.contains(v));
            let Some(v) = shared.filter(|_| x == y && a.unit != b.unit && a.section == b.section) else { continue };
            let mut detail = Vec::new();
            let mut found = None;
            let mut unsettled = false;
            for ty in types_of(doc, v, x) {
                let w = width(v, x);
                let (ra, rb) = (readings(a, x, ty.as_deref(), w), readings(b, x, ty.as_deref(), w));
                let mut first_witness = None;
                let mut agree = false;
                for r in &ra {
                    for s in &rb {
                        match differ(v, x, r, s) {
                            Ok(None) => agree = true,
                            Ok(Some(w)) => {
                                first_witness.get_or_insert((w, r.clone(), s.clone()));
                            }
                            Err(why) => {
                                unsettled = true;
                                detail.push(format!("Not settled: {why}."));
                            }
                        }
                    }
                }
                let who = type_words(&ty, x);
                match first_witness.filter(|_| !agree) {
                    Some(((w, a_allows), _, _)) => {
                        detail.push(format!(
                            "For {who}: no reading of the one allows the inputs a reading of the other does; the \
                             least input where they differ is {x} = {w}."
                        ));
                        found.get_or_insert((ty.clone(), w, a_allows));
                    }
                    None => detail.push(format!("For {who}: some reading of each allows the same inputs.")),
                }
            }
            let Some((ty, w, a_allows)) = found.filter(|_| !unsettled) else { continue };
            let (yes, no) = if a_allows { (a, b) } else { (b, a) };
            let summary = format!(
                "for {}, `{}` ({}) and `{}` ({}) do not allow the same inputs: `{}` allows {x} = {w} and `{}` does \
                 not, whatever reading each is given; {}",
                type_words(&ty, x),
                a.fragment,
                a.unit,
                b.fragment,
                b.unit,
                yes.fragment,
                no.fragment,
                model_there(v, x, w)
            );
            let tail = b.unit.rsplit('/').next().unwrap_or(&b.unit);
            let id = format!("text-conflict-{}-{tail}-{x}", a.unit.replace('/', "-"));
            let mut f =
                Finding::of_text(id, a.section.clone(), FindingKind::Conflict, a.fragment.clone(), summary, detail);
            f.witness = Some(table(v, x, w, vec![a.fragment.clone(), b.fragment.clone()], &[a_allows, !a_allows]));
            f.also_quotes = vec![b.fragment.clone()];
            out.push(f);
        }
    }
}

/// The findings of the pass: ambiguous bounds on operands, then sentences
/// whose bounds on an operand conflict.
pub fn check_all(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    ambiguities(doc, &mut out);
    conflicts(doc, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(lo: Option<u64>, hi: Option<u64>, ends: Ends) -> Bound {
        Bound {
            unit: "9.7.1.17/description/sentence-1".to_string(),
            section: "9.7.1.17".to_string(),
            fragment: String::new(),
            subject: Subject::Operands(vec!["base".to_string()]),
            lo,
            hi,
            ends,
            variants: Vec::new(),
        }
    }

    fn conditions(rs: &[Reading]) -> Vec<(String, Vec<String>)> {
        rs.iter().map(|r| (r.label.clone(), r.conditions.clone())).collect()
    }

    fn owned(label: &str, conds: &[&str]) -> (String, Vec<String>) {
        (label.to_string(), conds.iter().map(|c| c.to_string()).collect())
    }

    #[test]
    fn the_readings_of_a_bound_on_an_operand() {
        let between = bound(Some(0), Some(31), Ends::Unstated);
        assert_eq!(
            conditions(&readings(&between, "base", Some(".u32"), 32)),
            [owned("ends included", &["base >= 0", "base <= 31"]), owned("ends excluded", &["base > 0", "base < 31"])]
        );
        let at_most = bound(None, Some(31), Ends::Inclusive);
        assert_eq!(conditions(&readings(&at_most, "base", Some(".s32"), 32)), [owned("", &["base <=s 31"])]);
        assert_eq!(
            conditions(&readings(&at_most, "base", Some(".b32"), 32)),
            [owned("unsigned", &["base <= 31"]), owned("signed", &["base <=s 31"])]
        );
        assert_eq!(readings(&at_most, "base", None, 32).len(), 2, "no stated type: both signednesses");
        let byte = bound(Some(0), Some(255), Ends::Inclusive);
        assert_eq!(conditions(&readings(&byte, "immLut", None, 8)), [owned("", &["immLut >= 0", "immLut <= 255"])]);
    }

    #[test]
    fn readings_are_compared_by_the_solver_with_the_least_input() {
        let v = Variant::from_mnemonic("fns.b32").unwrap();
        let at_most = bound(None, Some(31), Ends::Inclusive);
        let rs = readings(&at_most, "base", Some(".b32"), 32);
        let (w, first) = differ(&v, "base", &rs[0], &rs[1]).unwrap().expect("signed and unsigned differ");
        assert!(!first, "the signed reading allows it");
        assert_eq!(w.unsigned(), 0x8000_0000, "the least value below 0, read signed");
        let between = bound(Some(0), Some(31), Ends::Inclusive);
        let same = readings(&between, "base", Some(".b32"), 32);
        assert_eq!(differ(&v, "base", &same[0], &same[1]), Ok(None), "0..31 is the same set signed or not");
    }
}
