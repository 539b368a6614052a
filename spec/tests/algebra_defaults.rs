//! Every default (derived) method of `Algebra`, checked against its definition
//! computed with native integers.
//!
//! The derived methods of the trait (`bvuge`, `umin`, `zext_or_trunc` and the
//! rest) are written once and inherited by every implementation: the concrete
//! values, the symbolic SMT terms and the 64-lane evaluator. Both sides of every
//! equivalence proof therefore run the same derived code, and a bug in it (a
//! `bvuge` made strict, say) changes both sides alike: no proof can see it.
//!
//! So each derived method is checked here, through `Concrete` and through
//! `Lanes`, against its meaning spelled out in `u128`/`i128` arithmetic (never
//! through another `Algebra` method): at every width 1..=128 (1..=64 for lanes)
//! on the boundary values of that width and every pair of them, and on random
//! values at random widths. The last test reads the trait's source and fails
//! when a derived method is added without being listed here.

use proptest::prelude::*;
use ptx_spec::bv::{Algebra, BitVec, Concrete};
use ptx_spec::lanes::{LaneBool, LaneBv, Lanes, LANES};

/// The derived methods of `Algebra`, each checked below.
const COVERED: [&str; 15] = [
    "constant_like",
    "ones",
    "bvugt",
    "bvuge",
    "bvsgt",
    "bvsge",
    "is_zero",
    "bit",
    "is_set",
    "bool_to_bv",
    "zext_or_trunc",
    "bool_xor",
    "extend",
    "less",
    "umin",
];

// ---------------------------------------------------------------------------
// Native semantics
// ---------------------------------------------------------------------------

/// The low `w` bits set.
fn mask(w: u32) -> u128 {
    if w == 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// `v`, a value of `w` bits, read as two's complement.
fn signed(w: u32, v: u128) -> i128 {
    let up = 128 - w;
    ((v << up) as i128) >> up
}

/// 0, 1, 2, max, max - 1, the signed min (msb only), signed min + 1, signed
/// max and signed max - 1, all of `w` bits.
fn boundary(w: u32) -> [u128; 9] {
    let max = mask(w);
    let smin = 1u128 << (w - 1);
    let smax = smin - 1;
    [0, 1, 2, max, max.wrapping_sub(1), smin, smin + 1, smax, smax.wrapping_sub(1)].map(|v| v & max)
}

/// Constants to feed `constant_like`: wider than any width, to see the cut.
const CONSTANTS: [u128; 6] = [0, 1, u128::MAX, 1 << 127, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210, 0xdead_beef];

fn each_width_and_value(f: impl Fn(u32, u128)) {
    for w in 1..=128 {
        for v in boundary(w) {
            f(w, v);
        }
    }
}

fn each_width_and_pair(f: impl Fn(u32, u128, u128)) {
    for w in 1..=128 {
        for a in boundary(w) {
            for b in boundary(w) {
                f(w, a, b);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Through `Concrete`
// ---------------------------------------------------------------------------

fn bv(w: u32, v: u128) -> BitVec {
    BitVec::new(w, v)
}

/// `got` has `w` bits and the value `v`.
#[track_caller]
fn expect(got: BitVec, w: u32, v: u128, what: &str) {
    assert_eq!((got.width(), got.unsigned()), (w, v), "{what}");
}

fn check_constant_like(w: u32, like: u128, value: u128) {
    let got = Concrete.constant_like(bv(w, like), value);
    expect(got, w, value & mask(w), &format!("constant_like({like:#x}:{w}, {value:#x})"));
}

fn check_ones(w: u32) {
    expect(Concrete.ones(w), w, mask(w), &format!("ones({w})"));
}

fn check_bvugt(w: u32, a: u128, b: u128) {
    assert_eq!(Concrete.bvugt(bv(w, a), bv(w, b)), a > b, "bvugt {a:#x} {b:#x} at width {w}");
}

fn check_bvuge(w: u32, a: u128, b: u128) {
    assert_eq!(Concrete.bvuge(bv(w, a), bv(w, b)), a >= b, "bvuge {a:#x} {b:#x} at width {w}");
}

fn check_bvsgt(w: u32, a: u128, b: u128) {
    let want = signed(w, a) > signed(w, b);
    assert_eq!(Concrete.bvsgt(bv(w, a), bv(w, b)), want, "bvsgt {a:#x} {b:#x} at width {w}");
}

fn check_bvsge(w: u32, a: u128, b: u128) {
    let want = signed(w, a) >= signed(w, b);
    assert_eq!(Concrete.bvsge(bv(w, a), bv(w, b)), want, "bvsge {a:#x} {b:#x} at width {w}");
}

fn check_less(w: u32, a: u128, b: u128) {
    assert_eq!(Concrete.less(false, bv(w, a), bv(w, b)), a < b, "less unsigned {a:#x} {b:#x} at width {w}");
    let want = signed(w, a) < signed(w, b);
    assert_eq!(Concrete.less(true, bv(w, a), bv(w, b)), want, "less signed {a:#x} {b:#x} at width {w}");
}

fn check_umin(w: u32, a: u128, b: u128) {
    let want = if a < b { a } else { b };
    expect(Concrete.umin(bv(w, a), bv(w, b)), w, want, &format!("umin {a:#x} {b:#x} at width {w}"));
}

fn check_is_zero(w: u32, v: u128) {
    assert_eq!(Concrete.is_zero(bv(w, v)), v == 0, "is_zero {v:#x} at width {w}");
}

/// Every bit of `v`.
fn check_bit(w: u32, v: u128) {
    for i in 0..w {
        expect(Concrete.bit(bv(w, v), i), 1, (v >> i) & 1, &format!("bit {i} of {v:#x} at width {w}"));
    }
}

/// `v` resized to every width.
fn check_zext_or_trunc(w: u32, v: u128) {
    for to in 1..=128 {
        let got = Concrete.zext_or_trunc(bv(w, v), to);
        expect(got, to, v & mask(to), &format!("zext_or_trunc {v:#x} from width {w} to {to}"));
    }
}

/// `v` widened by every amount that stays within 128 bits, both ways.
fn check_extend(w: u32, v: u128) {
    for extra in 0..=128 - w {
        let to = w + extra;
        let got = Concrete.extend(false, extra, bv(w, v));
        expect(got, to, v, &format!("extend unsigned {v:#x} from width {w} by {extra}"));
        let got = Concrete.extend(true, extra, bv(w, v));
        let want = signed(w, v) as u128 & mask(to);
        expect(got, to, want, &format!("extend signed {v:#x} from width {w} by {extra}"));
    }
}

fn check_is_set(v: u128) {
    assert_eq!(Concrete.is_set(bv(1, v)), v == 1, "is_set {v}");
}

fn check_bool_to_bv(b: bool) {
    expect(Concrete.bool_to_bv(b), 1, u128::from(b), &format!("bool_to_bv {b}"));
}

fn check_bool_xor(a: bool, b: bool) {
    assert_eq!(Concrete.bool_xor(a, b), a != b, "bool_xor {a} {b}");
}

#[test]
fn constant_like_on_boundary_values() {
    each_width_and_value(|w, like| {
        for value in CONSTANTS.into_iter().chain(boundary(w)) {
            check_constant_like(w, like, value);
        }
    });
}

#[test]
fn ones_at_every_width() {
    for w in 1..=128 {
        check_ones(w);
    }
}

#[test]
fn bvugt_on_boundary_pairs() {
    each_width_and_pair(check_bvugt);
}

#[test]
fn bvuge_on_boundary_pairs() {
    each_width_and_pair(check_bvuge);
}

#[test]
fn bvsgt_on_boundary_pairs() {
    each_width_and_pair(check_bvsgt);
}

#[test]
fn bvsge_on_boundary_pairs() {
    each_width_and_pair(check_bvsge);
}

#[test]
fn less_on_boundary_pairs() {
    each_width_and_pair(check_less);
}

#[test]
fn umin_on_boundary_pairs() {
    each_width_and_pair(check_umin);
}

#[test]
fn is_zero_on_boundary_values() {
    each_width_and_value(check_is_zero);
}

#[test]
fn bit_on_boundary_values() {
    each_width_and_value(check_bit);
}

#[test]
fn zext_or_trunc_on_boundary_values() {
    each_width_and_value(check_zext_or_trunc);
}

#[test]
fn extend_on_boundary_values() {
    each_width_and_value(check_extend);
}

#[test]
fn is_set_bool_to_bv_and_bool_xor_on_every_input() {
    for v in [0, 1] {
        check_is_set(v);
    }
    for a in [false, true] {
        check_bool_to_bv(a);
        for b in [false, true] {
            check_bool_xor(a, b);
        }
    }
}

// ---------------------------------------------------------------------------
// Random values
// ---------------------------------------------------------------------------

/// A value of `w` bits of varied magnitude: `raw` cut down by `shift`, and
/// negated when `neg` (so near the maximum), then masked.
fn shape(w: u32, raw: u128, shift: u32, neg: bool) -> u128 {
    let v = raw >> shift;
    (if neg { v.wrapping_neg() } else { v }) & mask(w)
}

/// A second operand related to `a` as `kind` says: unrelated, equal, one
/// above, one below, or with the sign bit flipped.
fn partner(w: u32, a: u128, kind: u8, other: u128) -> u128 {
    let b = match kind {
        0 => other,
        1 => a,
        2 => a.wrapping_add(1),
        3 => a.wrapping_sub(1),
        _ => a ^ (1 << (w - 1)),
    };
    b & mask(w)
}

prop_compose! {
    /// Two operands of `w` bits.
    fn pair_at(w: u32)(raw in any::<u128>(), shift in 0u32..128, neg in any::<bool>(), kind in 0u8..5,
                       raw_b in any::<u128>(), shift_b in 0u32..128, neg_b in any::<bool>()) -> (u128, u128) {
        let a = shape(w, raw, shift, neg);
        (a, partner(w, a, kind, shape(w, raw_b, shift_b, neg_b)))
    }
}

/// A width in 1..=128 and two operands of that width.
fn operands() -> impl Strategy<Value = (u32, u128, u128)> {
    (1u32..=128).prop_flat_map(|w| pair_at(w).prop_map(move |(a, b)| (w, a, b)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn constant_like_on_random_values((w, like, _) in operands(), value in any::<u128>()) {
        check_constant_like(w, like, value);
    }

    #[test]
    fn ones_at_random_widths(w in 1u32..=128) {
        check_ones(w);
    }

    #[test]
    fn bvugt_on_random_values((w, a, b) in operands()) {
        check_bvugt(w, a, b);
    }

    #[test]
    fn bvuge_on_random_values((w, a, b) in operands()) {
        check_bvuge(w, a, b);
    }

    #[test]
    fn bvsgt_on_random_values((w, a, b) in operands()) {
        check_bvsgt(w, a, b);
    }

    #[test]
    fn bvsge_on_random_values((w, a, b) in operands()) {
        check_bvsge(w, a, b);
    }

    #[test]
    fn less_on_random_values((w, a, b) in operands()) {
        check_less(w, a, b);
    }

    #[test]
    fn umin_on_random_values((w, a, b) in operands()) {
        check_umin(w, a, b);
    }

    #[test]
    fn is_zero_on_random_values((w, a, _) in operands()) {
        check_is_zero(w, a);
    }

    #[test]
    fn bit_on_random_values((w, a, _) in operands()) {
        check_bit(w, a);
    }

    #[test]
    fn zext_or_trunc_on_random_values((w, a, _) in operands()) {
        check_zext_or_trunc(w, a);
    }

    #[test]
    fn extend_on_random_values((w, a, _) in operands()) {
        check_extend(w, a);
    }
}

// ---------------------------------------------------------------------------
// Through `Lanes`
// ---------------------------------------------------------------------------

/// A column of `w`-bit values, lane `i` holding `values[i]`.
fn column(w: u32, values: &[u128; LANES]) -> LaneBv {
    LaneBv::new(w, values.map(|v| v as u64))
}

fn lane_bit(b: LaneBool, i: usize) -> bool {
    (b.0 >> i) & 1 == 1
}

/// `got` has `w` bits and lane `i` holds `want(i)`.
#[track_caller]
fn expect_lanes(got: LaneBv, w: u32, want: impl Fn(usize) -> u128, what: &str) {
    assert_eq!(got.width(), w, "{what}: width");
    for i in 0..LANES {
        assert_eq!(u128::from(got.lane(i)), want(i), "{what}: lane {i}");
    }
}

/// Every derived method on the lanes `xs` and `ys` of `w` bits, and on the
/// lane Booleans `p` and `q`, against the native semantics lane by lane.
fn check_lanes(w: u32, xs: &[u128; LANES], ys: &[u128; LANES], p: u64, q: u64) {
    let l = Lanes;
    let (a, b) = (column(w, xs), column(w, ys));
    let at = |what: &str| format!("{what} at width {w}");

    for value in CONSTANTS.into_iter().chain(boundary(w)) {
        expect_lanes(l.constant_like(a, value), w, |_| value & mask(w), &at(&format!("constant_like {value:#x}")));
    }
    expect_lanes(l.ones(w), w, |_| mask(w), &at("ones"));

    let (ugt, uge, sgt, sge) = (l.bvugt(a, b), l.bvuge(a, b), l.bvsgt(a, b), l.bvsge(a, b));
    let (ult, slt, zero) = (l.less(false, a, b), l.less(true, a, b), l.is_zero(a));
    for i in 0..LANES {
        let (x, y) = (xs[i], ys[i]);
        let (sx, sy) = (signed(w, x), signed(w, y));
        let what = |op: &str| format!("{op} {x:#x} {y:#x} at width {w}, lane {i}");
        assert_eq!(lane_bit(ugt, i), x > y, "{}", what("bvugt"));
        assert_eq!(lane_bit(uge, i), x >= y, "{}", what("bvuge"));
        assert_eq!(lane_bit(sgt, i), sx > sy, "{}", what("bvsgt"));
        assert_eq!(lane_bit(sge, i), sx >= sy, "{}", what("bvsge"));
        assert_eq!(lane_bit(ult, i), x < y, "{}", what("less unsigned"));
        assert_eq!(lane_bit(slt, i), sx < sy, "{}", what("less signed"));
        assert_eq!(lane_bit(zero, i), x == 0, "{}", what("is_zero"));
    }
    expect_lanes(l.umin(a, b), w, |i| if xs[i] < ys[i] { xs[i] } else { ys[i] }, &at("umin"));

    for bit in 0..w {
        expect_lanes(l.bit(a, bit), 1, |i| (xs[i] >> bit) & 1, &at(&format!("bit {bit}")));
    }
    for to in 1..=64 {
        expect_lanes(l.zext_or_trunc(a, to), to, |i| xs[i] & mask(to), &at(&format!("zext_or_trunc to {to}")));
    }
    for extra in 0..=64 - w {
        let to = w + extra;
        expect_lanes(l.extend(false, extra, a), to, |i| xs[i], &at(&format!("extend unsigned by {extra}")));
        let want = |i: usize| signed(w, xs[i]) as u128 & mask(to);
        expect_lanes(l.extend(true, extra, a), to, want, &at(&format!("extend signed by {extra}")));
    }

    let bits_of_p = std::array::from_fn(|i| u128::from((p >> i) & 1));
    assert_eq!(l.is_set(column(1, &bits_of_p)).0, p, "is_set {p:#x}");
    expect_lanes(l.bool_to_bv(LaneBool(p)), 1, |i| bits_of_p[i], &format!("bool_to_bv {p:#x}"));
    assert_eq!(l.bool_xor(LaneBool(p), LaneBool(q)).0, p ^ q, "bool_xor {p:#x} {q:#x}");
}

/// A width in 1..=64 and a pair of operands of that width for every lane.
fn lane_operands() -> impl Strategy<Value = (u32, Vec<(u128, u128)>)> {
    (1u32..=64).prop_flat_map(|w| (Just(w), prop::collection::vec(pair_at(w), LANES)))
}

#[test]
fn lanes_on_boundary_pairs() {
    // The four combinations of two Booleans, in every group of four lanes.
    let (p, q) = (0xcccc_cccc_cccc_cccc, 0xaaaa_aaaa_aaaa_aaaa);
    for w in 1..=64 {
        let pairs: Vec<(u128, u128)> = boundary(w).into_iter().flat_map(|a| boundary(w).map(|b| (a, b))).collect();
        for chunk in pairs.chunks(LANES) {
            let xs = std::array::from_fn(|i| chunk.get(i).map_or(0, |&(a, _)| a));
            let ys = std::array::from_fn(|i| chunk.get(i).map_or(0, |&(_, b)| b));
            check_lanes(w, &xs, &ys, p, q);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn lanes_on_random_values((w, pairs) in lane_operands(), p in any::<u64>(), q in any::<u64>()) {
        let xs = std::array::from_fn(|i| pairs[i].0);
        let ys = std::array::from_fn(|i| pairs[i].1);
        check_lanes(w, &xs, &ys, p, q);
    }
}

// ---------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------

/// The trait's methods that have a body, read from its source.
fn derived_methods() -> Vec<String> {
    let src = include_str!("../src/bv.rs");
    let start = src.find("pub trait Algebra {").expect("the trait Algebra in bv.rs");
    let end = start + src[start..].find("\n}\n").expect("the end of the trait Algebra");
    let lines: Vec<&str> = src[start..end].lines().collect();
    let mut names = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let Some(signature) = line.trim_start().strip_prefix("fn ") else { continue };
        let name: String = signature.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // A body opens with `{` before any `;`; a required method ends with `;`.
        let rest = lines[n..].join("\n");
        let end = rest.find(['{', ';']).expect("a signature ends");
        if rest[end..].starts_with('{') {
            names.push(name);
        }
    }
    names
}

#[test]
fn every_derived_method_is_covered() {
    let mut found = derived_methods();
    let mut covered: Vec<String> = COVERED.iter().map(|s| s.to_string()).collect();
    found.sort();
    covered.sort();
    assert_eq!(found, covered, "the derived methods of Algebra and those this file checks");
}
