//! A variant's failures split into groups that one bug explains.
//!
//! An emulator with two bugs in one variant fails on two sets of inputs,
//! and the least failing input of all shows only one of them. So the
//! failures are split, first by what they are:
//! - a value that is the other model's (the H100's, against the spec): one
//!   group, wherever the models differ;
//! - an event, by its kind (crash, trap, unimplemented, timeout);
//! - a wrong value, by the shape of its difference: bits set that should
//!   not be, bits missing, or both.
//!
//! Then each class is covered by conditions on the inputs, the way a
//! reader looks for the cause. The predicates are fixed per variant: an
//! operand or its low byte (where positions, lengths and lanes are read)
//! at least a power of two, the width or one past it; equal to zero, one,
//! all ones or the signed extremes; a multiple of the width (an amount
//! taken modulo the width goes wrong at each). A condition starts with the
//! predicate that holds the most of the class's failures left in the
//! smallest share of results, and adds predicates that keep every failure
//! it holds and raise their share among its results; its failures are a
//! group, and the rest are covered again. Groups of wrong values over the
//! same condition are one (a wrong product is sometimes too large,
//! sometimes too small).
//!
//! Each group has its size, its own least failing input, its condition
//! (`b[7:0] >= 64, c[7:0] != 0`) and how its values differ from the
//! model's (`only bits 32..63 differ`, `actual = expected + 1`, `sm_90's
//! value`). The same results give the same groups on every run.

use std::collections::BTreeMap;

use ptx_spec::bv::{hex, mask};
use ptx_spec::catalogue::Variant;
use serde::Serialize;

use super::files::Event;

/// The fewest results a predicate must leave out of a group's region to be
/// part of its condition: fewer say more about the sample than the bug.
const MIN_LEFT_OUT: usize = 3;

/// The deepest a group's condition goes: four predicates.
pub const MAX_DEPTH: usize = 4;

/// A predicate is added to a group's condition only where it raises the
/// share of the group's failures among the results it covers by at least
/// this much (relative).
const MIN_GAIN: f64 = 0.10;

/// What a result is, for grouping: the classes the tree separates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Passed,
    /// A wrong value, by the shape of its difference from the model's.
    Value(Shape),
    /// A wrong value that is the other model's (the H100's where the spec
    /// is the model): one cause, wherever the two models differ.
    Theirs,
    Event(Event),
}

/// How a wrong value differs from the model's, in its first output that
/// differs: a cause tends to give one shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape {
    /// It has bits set that the model's value has not, and lacks none.
    Extra,
    /// It lacks bits of the model's value, and has no others.
    Lost,
    /// Both.
    Mixed,
}

impl Shape {
    /// The shape of `actual` against `expected`, where they differ.
    pub fn of(expected: &[Option<u128>], actual: &[u128]) -> Shape {
        let Some((e, a)) = expected.iter().zip(actual).find_map(|(e, a)| e.filter(|e| e != a).map(|e| (e, *a))) else {
            return Shape::Mixed;
        };
        match (a & !e != 0, e & !a != 0) {
            (true, false) => Shape::Extra,
            (false, true) => Shape::Lost,
            _ => Shape::Mixed,
        }
    }
}

/// One result, for grouping.
pub struct Case<'a> {
    pub class: Class,
    pub inputs: &'a [u128],
    /// The failure as it would be shown; `None` for a passing result.
    pub failure: Option<Failure>,
    /// The other model's expected outputs (sm_90's when grouping against
    /// the spec), to see whether a wrong value is that model's.
    pub other: &'a [Option<u128>],
}

/// One failing result, as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub at: String,
    pub inputs: Vec<u128>,
    pub actual: Vec<u128>,
    /// What happened instead of a value (`crash: SIGFPE`), if it was no value.
    pub event: Option<String>,
    pub expected: Vec<Option<u128>>,
    pub reason: String,
}

/// One group of failures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    pub size: usize,
    /// `value`, or the event (`crash`, `trap`, ...).
    pub kind: String,
    /// The inputs it covers, as a conjunction: `every input` where every
    /// result fails so, `no narrower condition` where no predicate tells
    /// the failing ones apart.
    pub condition: String,
    /// How the values differ, where the group has a common pattern.
    pub pattern: String,
    /// The named findings, readings and claims among its vectors; where it
    /// has none, the least input's reason (`boundary b=width`).
    pub named: Vec<String>,
    #[serde(skip)]
    pub least: Failure,
}

impl Group {
    /// Take in `other`, a group of the same kind over the same inputs.
    fn absorb(&mut self, other: Group) {
        self.size += other.size;
        if other.least.inputs < self.least.inputs {
            self.least = other.least;
        }
        for n in other.named {
            if !self.named.contains(&n) {
                self.named.push(n);
            }
        }
        // What both have in common, as far as their patterns say.
        let theirs: Vec<&str> = other.pattern.split("; ").collect();
        self.pattern = self.pattern.split("; ").filter(|p| theirs.contains(p)).collect::<Vec<_>>().join("; ");
    }
}

/// What part of an operand a predicate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    operand: usize,
    /// 8 for the low byte, else the operand's width.
    bits: u32,
    whole: bool,
    signed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    AtLeast(u128),
    Is(u128),
    /// A multiple of 2^k: an amount or a position taken modulo the width
    /// goes wrong at every multiple of it.
    Multiple(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Atom {
    field: Field,
    test: Test,
}

impl Field {
    fn value(&self, inputs: &[u128]) -> u128 {
        inputs[self.operand] & mask(self.bits)
    }
}

impl Atom {
    fn holds(&self, inputs: &[u128]) -> bool {
        let x = self.field.value(inputs);
        match self.test {
            Test::AtLeast(t) => x >= t,
            Test::Is(t) => x == t,
            Test::Multiple(k) => x & mask(k) == 0,
        }
    }
}

/// The predicates of `variant`, in a fixed order.
fn atoms(variant: &Variant) -> Vec<Atom> {
    let data_width = variant.outputs().first().map_or(32, |o| o.ty.width()) as u128;
    let mut out: Vec<Atom> = Vec::new();
    for (operand, op) in variant.inputs().iter().enumerate() {
        let w = op.ty.width();
        let mut fields = vec![Field { operand, bits: w, whole: true, signed: signed(variant, operand, w) }];
        if w > 8 {
            // Positions, lengths and lane numbers are read from the low byte.
            fields.push(Field { operand, bits: 8, whole: false, signed: false });
        }
        for field in fields {
            let m = mask(field.bits);
            let mut tests =
                vec![Test::Is(0), Test::Is(1), Test::Is(m), Test::Is(1 << (field.bits - 1)), Test::Is(m >> 1)];
            tests.extend((1..field.bits).map(|k| Test::AtLeast(1 << k)));
            tests.extend([data_width, data_width + 1].into_iter().filter(|&x| x <= m).map(Test::AtLeast));
            if data_width.is_power_of_two() && data_width < m {
                tests.push(Test::Multiple(data_width.trailing_zeros()));
            }
            for test in tests {
                let atom = Atom { field, test };
                if !out.contains(&atom) {
                    out.push(atom);
                }
            }
        }
    }
    out
}

/// Whether the operand at `operand` is read as signed: an operand of a
/// signed type's width, but for the positions, lengths and amounts of the
/// bit-field and shift instructions, which are never negative.
fn signed(variant: &Variant, operand: usize, width: u32) -> bool {
    let name = variant.mnemonic();
    let Some(ty) = name.rsplit('.').find_map(|part| part.strip_prefix('s').and_then(|w| w.parse::<u32>().ok())) else {
        return false;
    };
    let amounts = ["shr", "shl", "shf", "bfe", "bfi", "fns", "bmsk", "szext"].iter().any(|op| name.starts_with(op));
    ty == width && (operand == 0 || !amounts)
}

/// A set of results, one bit each.
#[derive(Clone)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize, f: impl Fn(usize) -> bool) -> Bits {
        let mut words = vec![0u64; n.div_ceil(64)];
        for i in 0..n {
            if f(i) {
                words[i / 64] |= 1 << (i % 64);
            }
        }
        Bits(words)
    }
    fn and(&self, other: &Bits) -> Bits {
        Bits(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }
    /// The members that are (`yes`) or are not in `other`.
    fn and_if(&self, other: &Bits, yes: bool) -> Bits {
        if yes {
            self.and(other)
        } else {
            self.and_not(other)
        }
    }
    fn and_not(&self, other: &Bits) -> Bits {
        Bits(self.0.iter().zip(&other.0).map(|(a, b)| a & !b).collect())
    }
    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    fn count_and(&self, other: &Bits) -> usize {
        self.0.iter().zip(&other.0).map(|(a, b)| (a & b).count_ones() as usize).sum()
    }
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
}

/// The failures among `cases` (all results of `variant` against one
/// model), grouped; largest group first. `this` and `other` name the model
/// the failures are against and the other one (`the spec`, `sm_90`).
pub fn groups(variant: &Variant, cases: &[Case], this: &str, other: &str) -> Vec<Group> {
    let n = cases.len();
    let atoms = atoms(variant);
    let holds: Vec<Bits> = atoms.iter().map(|a| Bits::new(n, |i| a.holds(cases[i].inputs))).collect();
    let mut classes: Vec<Class> = cases.iter().map(|c| c.class).filter(|c| *c != Class::Passed).collect();
    classes.sort();
    classes.dedup();
    let mut out: Vec<Group> = Vec::new();
    for class in classes {
        let of_class = Bits::new(n, |i| cases[i].class == class);
        let members = |bits: &Bits| (0..n).filter(|&i| bits.has(i)).map(|i| &cases[i]).collect::<Vec<_>>();
        if class == Class::Theirs {
            // The other model's values are one group, wherever they fall.
            let mut g = group(variant, class, &[], &members(&of_class), other);
            g.condition = format!("where {other} and {this} differ");
            out.push(g);
            continue;
        }
        let mut left = of_class.clone();
        while left.count() > 0 {
            let path = cover(&holds, &of_class, &left, n);
            let covered = path.iter().fold(left.clone(), |b, (i, yes)| b.and_if(&holds[*i], *yes));
            left = left.and_not(&covered);
            let path: Vec<(Atom, bool)> = path.into_iter().map(|(i, yes)| (atoms[i], yes)).collect();
            let mut g = group(variant, class, &path, &members(&covered), other);
            if path.is_empty() && covered.count() < n {
                // Not every input fails, but no predicate tells which do.
                g.condition = "no narrower condition".into();
            }
            out.push(g);
        }
    }
    // One cause shows in values of more than one shape (a wrong product is
    // sometimes larger, sometimes smaller): groups of values over the same
    // inputs are one group.
    let mut merged: Vec<Group> = Vec::new();
    for g in out {
        match merged.iter_mut().find(|m| m.kind == "value" && g.kind == "value" && m.condition == g.condition) {
            Some(m) => m.absorb(g),
            None => merged.push(g),
        }
    }
    merged.sort_by(|a, b| b.size.cmp(&a.size).then_with(|| a.least.inputs.cmp(&b.least.inputs)));
    merged
}

/// The conjunction that explains part of `left` (the class's failures not
/// yet in a group) best, as (atom, polarity) pairs. The first predicate
/// takes the most of `left` in the smallest region (covered² / region);
/// each next one must keep every failure covered so far and shrink the
/// region's other results by at least [`MIN_GAIN`]; at most [`MAX_DEPTH`].
fn cover(holds: &[Bits], of_class: &Bits, left: &Bits, n: usize) -> Vec<(usize, bool)> {
    let all = Bits::new(n, |_| true);
    let mut path: Vec<(usize, bool)> = Vec::new();
    let mut region = all;
    let mut covered = left.clone();
    loop {
        let precision = |r: &Bits| of_class.count_and(r) as f64 / r.count().max(1) as f64;
        let now = precision(&region);
        let mut best: Option<(f64, usize, bool, Bits)> = None;
        for (i, h) in holds.iter().enumerate() {
            if path.iter().any(|(j, _)| *j == i) {
                continue;
            }
            for yes in [true, false] {
                let r = region.and_if(h, yes);
                let k = covered.count_and(&r);
                let score = if path.is_empty() {
                    // The first predicate: as much of what is left, in as
                    // small a region, as one predicate can.
                    (k * k) as f64 / r.count().max(1) as f64
                } else if k == covered.count() {
                    precision(&r)
                } else {
                    continue;
                };
                if best.as_ref().is_none_or(|(s, ..)| score > *s + 1e-12) {
                    best = Some((score, i, yes, r));
                }
            }
        }
        let Some((score, i, yes, r)) = best else { break };
        if !path.is_empty() && (score - now) < MIN_GAIN * now.max(1e-9) {
            break;
        }
        // A predicate must rest on more than a result or two it leaves out.
        if region.count() - r.count() < MIN_LEFT_OUT {
            break;
        }
        // No predicate at all scores what is left over every input: where
        // none does better, the failures are everywhere.
        let everywhere = (covered.count() * covered.count()) as f64 / n as f64;
        if path.is_empty() && score <= everywhere {
            break;
        }
        path.push((i, yes));
        covered = covered.and(&r);
        region = r;
        if path.len() >= MAX_DEPTH || precision(&region) >= 1.0 {
            break;
        }
    }
    path
}

fn group(variant: &Variant, class: Class, path: &[(Atom, bool)], members: &[&Case], other: &str) -> Group {
    let least = members
        .iter()
        .filter_map(|c| c.failure.as_ref())
        .min_by(|a, b| a.inputs.cmp(&b.inputs))
        .expect("a group has a failing member")
        .clone();
    let mut named: Vec<String> = Vec::new();
    for f in members.iter().filter_map(|c| c.failure.as_ref()) {
        if ["finding ", "reading ", "claim "].iter().any(|k| f.reason.starts_with(k)) && !named.contains(&f.reason) {
            named.push(f.reason.clone());
        }
    }
    if named.is_empty() && least.reason != "-" {
        // No named finding: the least input's own reason (its boundary,
        // its edge class) says what it belongs to.
        named.push(least.reason.clone());
    }
    let kind = match class {
        Class::Event(e) => e.word().to_string(),
        _ => "value".to_string(),
    };
    Group {
        size: members.len(),
        kind,
        condition: condition(variant, path),
        pattern: pattern(variant, class, members, other),
        named,
        least,
    }
}

/// A power of two or a small number as a reader writes it.
fn number(x: u128, bits: u32) -> String {
    if x < 256 {
        x.to_string()
    } else if x.is_power_of_two() {
        format!("2^{}", x.trailing_zeros())
    } else if x == mask(bits) {
        format!("2^{bits}-1")
    } else if x == mask(bits) >> 1 {
        format!("2^{}-1", bits - 1)
    } else {
        hex(x, bits)
    }
}

/// The path as a conjunction, the bounds on each field merged.
fn condition(variant: &Variant, path: &[(Atom, bool)]) -> String {
    if path.is_empty() {
        return "every input".into();
    }
    let ops = variant.inputs();
    // Per field, in the order first met: its bounds and (in)equalities.
    struct Bounds {
        field: Field,
        lo: Option<u128>,
        hi: Option<u128>,
        eqs: Vec<String>,
    }
    let mut fields: Vec<Bounds> = Vec::new();
    for (atom, yes) in path {
        let at = match fields.iter().position(|f| f.field == atom.field) {
            Some(i) => i,
            None => {
                fields.push(Bounds { field: atom.field, lo: None, hi: None, eqs: Vec::new() });
                fields.len() - 1
            }
        };
        let f = &mut fields[at];
        let bits = atom.field.bits;
        let signed = atom.field.signed;
        match (atom.test, yes) {
            (Test::AtLeast(t), true) => f.lo = Some(f.lo.map_or(t, |x| x.max(t))),
            (Test::AtLeast(t), false) => f.hi = Some(f.hi.map_or(t, |x| x.min(t))),
            (Test::Multiple(k), yes) => {
                f.eqs.push(format!("mod {} {} 0", 1u128 << k, if *yes { "=" } else { "!=" }));
            }
            (Test::Is(t), yes) => {
                let shown = if signed && t >> (bits - 1) & 1 == 1 {
                    if t == mask(bits) {
                        "-1".to_string()
                    } else {
                        format!("-2^{}", bits - 1)
                    }
                } else {
                    number(t, bits)
                };
                f.eqs.push(format!("{} {shown}", if *yes { "=" } else { "!=" }));
            }
        }
    }
    let mut parts = Vec::new();
    for Bounds { field, lo, hi, eqs } in fields {
        let name =
            if field.whole { ops[field.operand].name.to_string() } else { format!("{}[7:0]", ops[field.operand].name) };
        let half = 1u128 << (field.bits - 1);
        match (lo, hi) {
            // The sign bit of a signed operand, said as its sign.
            (Some(l), None) if field.signed && l == half => parts.push(format!("{name} < 0")),
            (None, Some(h)) if field.signed && h == half => parts.push(format!("{name} >= 0")),
            (Some(l), Some(h)) => {
                parts.push(format!("{} <= {name} < {}", number(l, field.bits), number(h, field.bits)))
            }
            (Some(l), None) => parts.push(format!("{name} >= {}", number(l, field.bits))),
            (None, Some(h)) => parts.push(format!("{name} < {}", number(h, field.bits))),
            (None, None) => {}
        }
        parts.extend(eqs.into_iter().map(|e| format!("{name} {e}")));
    }
    parts.join(", ")
}

/// What the group's failures have in common: the event's message, or how
/// the values differ from the model's.
fn pattern(variant: &Variant, class: Class, members: &[&Case], other: &str) -> String {
    let failures: Vec<&Failure> = members.iter().filter_map(|c| c.failure.as_ref()).collect();
    if let Class::Event(_) = class {
        let mut messages: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &failures {
            *messages.entry(f.event.as_deref().unwrap_or("")).or_default() += 1;
        }
        // One message is the actual value's column already.
        return if messages.len() == 1 { String::new() } else { format!("{} different messages", messages.len()) };
    }
    let outs = variant.outputs();
    let mut said = Vec::new();
    match class {
        Class::Value(Shape::Extra) => said.push("extra bits set".to_string()),
        Class::Value(Shape::Lost) => said.push("bits missing".to_string()),
        _ => {}
    }
    // The outputs that differ anywhere.
    let differs: Vec<usize> =
        (0..outs.len()).filter(|&j| failures.iter().any(|f| f.expected[j].is_some_and(|e| e != f.actual[j]))).collect();
    if outs.len() > 1 && differs.len() == 1 {
        said.push(format!("only {} differs", outs[differs[0]].name));
    }
    if let [j] = differs[..] {
        let w = outs[j].ty.width();
        let pairs: Vec<(u128, u128)> =
            failures.iter().filter_map(|f| f.expected[j].map(|e| (f.actual[j], e))).filter(|(a, e)| a != e).collect();
        let union = pairs.iter().fold(0u128, |u, (a, e)| u | (a ^ e));
        let (lo, hi) = (union.trailing_zeros(), 127 - union.leading_zeros());
        if union != 0 && (lo > 0 || hi < w - 1) {
            said.push(if lo == hi { format!("only bit {lo} differs") } else { format!("only bits {lo}..{hi} differ") });
        }
        let offsets: Vec<u128> = pairs.iter().map(|(a, e)| a.wrapping_sub(*e) & mask(w)).collect();
        if pairs.len() > 1 && offsets.iter().all(|o| *o == offsets[0]) {
            let o = offsets[0];
            let (sign, by) = if o >> (w - 1) & 1 == 1 { ("-", (o.wrapping_neg()) & mask(w)) } else { ("+", o) };
            said.push(format!("actual = expected {sign} {}", number(by, w)));
        }
        if pairs.len() > 1 && pairs.iter().all(|(a, _)| *a == pairs[0].0) {
            said.push(format!("actual always {}", hex(pairs[0].0, w)));
        }
    }
    let theirs = members.iter().all(|c| {
        let f = c.failure.as_ref().expect("a failing member");
        c.other.iter().zip(&f.actual).all(|(e, a)| *e == Some(*a))
    });
    if theirs {
        said.push(format!("{other}'s value"));
    }
    said.join("; ")
}
