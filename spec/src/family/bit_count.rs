//! Section 9.7.1.14-18: popc, clz, bfind, fns, brev.
//! The concrete semantics, as an emulator author writes them: closed forms
//! (a SWAR population count, a binary-search leading-zero count, a swap
//! network for bit reversal) instead of the spec's bit loops.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::bit_count::*;
use crate::catalogue::{defined, Inputs, Out, Outputs};

impl Semantics for BitCount {
    /// Inputs: `a`, or `mask, base, offset` for fns.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let to_u32 = |x: A::Bv| alg.zext_or_trunc(x, 32);
        match *self {
            BitCount::Popc(_) => vec![defined(alg, to_u32(popc(alg, ins.get("a"))))],
            BitCount::Clz(_) => vec![defined(alg, to_u32(clz(alg, ins.get("a"))))],
            BitCount::Bfind { ty, shiftamt } => vec![defined(alg, bfind(alg, ty.is_signed(), shiftamt, ins.get("a")))],
            BitCount::Fns => vec![fns(alg, ins.get("mask"), ins.get("base"), ins.get("offset"))],
            BitCount::Brev(_) => vec![defined(alg, brev(alg, ins.get("a")))],
        }
    }

    /// fns's 32-step search does not finish in one query in any solver:
    /// offset = 0 is proven in one query, and each sign of offset for each
    /// base value 0..31 in one of its own; for base > 31 both models must
    /// only agree that the result is undefined.
    fn proof_cases<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Vec<(String, A::Bool)> {
        if *self != BitCount::Fns {
            return Vec::new();
        }
        let (base, offset) = (ins.get("base"), ins.get("offset"));
        let zero = alg.constant(32, 0);
        let mut cases = vec![("offset = 0".to_string(), alg.eq(offset, zero))];
        for k in 0..32 {
            let at = alg.eq(base, alg.constant(32, k));
            cases.push((format!("base = {k}, offset < 0"), alg.and(at, alg.bvslt(offset, zero))));
            cases.push((format!("base = {k}, offset > 0"), alg.and(at, alg.bvsgt(offset, zero))));
        }
        cases.push(("base > 31".into(), alg.bvugt(base, alg.constant(32, 31))));
        cases
    }

    fn whole_in_z3(&self) -> bool {
        *self != BitCount::Fns
    }
}

/// The repeating pattern `unit` (of `bits` bits) filling `width` bits.
fn repeat(unit: u128, bits: u32, width: u32) -> u128 {
    (0..width / bits).fold(0, |acc, i| acc | unit << (i * bits))
}

/// Population count by summing bit fields of doubling width (SWAR).
pub fn popc<A: Algebra>(alg: &A, x: A::Bv) -> A::Bv {
    let w = alg.width(x);
    let mut x = x;
    let mut field = 1;
    while field < w {
        let m = alg.constant(w, repeat(crate::bv::mask(field), 2 * field, w));
        let shifted = alg.bvlshr(x, alg.constant(w, u128::from(field)));
        x = alg.bvadd(alg.bvand(x, m), alg.bvand(shifted, m));
        field *= 2;
    }
    x
}

/// Leading zeros by binary search: test the top half, shift it out if
/// empty, halve. Zero has `width` leading zeros.
pub fn clz<A: Algebra>(alg: &A, x: A::Bv) -> A::Bv {
    let w = alg.width(x);
    let mut x = x;
    let mut n = alg.constant(w, 0);
    let mut half = w / 2;
    while half >= 1 {
        let top_empty = alg.is_zero(alg.bvlshr(x, alg.constant(w, u128::from(w - half))));
        n = alg.ite(top_empty, alg.bvadd(n, alg.constant(w, u128::from(half))), n);
        x = alg.ite(top_empty, alg.bvshl(x, alg.constant(w, u128::from(half))), x);
        half /= 2;
    }
    // After the search only the top bit is unknown.
    let last_empty = alg.is_zero(alg.bit(x, w - 1));
    alg.ite(last_empty, alg.bvadd(n, alg.constant(w, 1)), n)
}

/// Bit reversal by swapping halves, then quarters, down to single bits.
pub fn brev<A: Algebra>(alg: &A, x: A::Bv) -> A::Bv {
    let w = alg.width(x);
    let mut x = x;
    let mut field = w / 2;
    while field >= 1 {
        let low = alg.constant(w, repeat(crate::bv::mask(field), 2 * field, w));
        let k = alg.constant(w, u128::from(field));
        x = alg.bvor(alg.bvshl(alg.bvand(x, low), k), alg.bvand(alg.bvlshr(x, k), low));
        field /= 2;
    }
    x
}

/// The position of the highest bit that differs from the sign (signed) or
/// is set (unsigned), or 0xffffffff; with `shiftamt`, the left shift that
/// brings it to the msb.
pub fn bfind<A: Algebra>(alg: &A, signed: bool, shiftamt: bool, a: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let x = if signed { alg.ite(alg.is_set(alg.bit(a, w - 1)), alg.bvnot(a), a) } else { a };
    let leading = alg.zext_or_trunc(clz(alg, x), 32);
    let found = if shiftamt { leading } else { alg.bvsub(alg.constant(32, u128::from(w - 1)), leading) };
    alg.ite(alg.is_zero(x), alg.constant(32, 0xffff_ffff), found)
}

/// The (skip+1)-th set bit of `m`, scanned from bit 0 up: whether there is
/// one, and its index. `skip` is a 6-bit count: there are only 32 bits, so
/// any count of 32 or more is held as 32 and never reached.
fn nth_set_bit<A: Algebra>(alg: &A, m: A::Bv, skip: A::Bv) -> (A::Bool, A::Bv) {
    let scan = (0..32).fold(Scan::start(alg, skip), |scan, t| scan.step(alg, m, t));
    (scan.found, scan.at)
}

/// The state of [`nth_set_bit`]'s scan after some steps. Public so that
/// the audit can prove fns's literal loop against it step by step.
pub struct Scan<A: Algebra> {
    /// The bit has been found ...
    pub found: A::Bool,
    /// ... at this index (0 until it is).
    pub at: A::Bv,
    /// Set bits still to pass over, in 6 bits.
    pub to_skip: A::Bv,
}

// Derived Clone and Copy would ask A itself to be Copy.
impl<A: Algebra> Clone for Scan<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for Scan<A> {}

impl<A: Algebra> Scan<A> {
    /// Before bit 0, with `skip` set bits to pass over.
    pub fn start(alg: &A, skip: A::Bv) -> Self {
        Scan { found: alg.bool_constant(false), at: alg.constant(32, 0), to_skip: skip }
    }
    /// After reading bit `t` of `m`.
    pub fn step(self, alg: &A, m: A::Bv, t: u32) -> Self {
        let set = alg.and(alg.is_set(alg.bit(m, t)), alg.not(self.found));
        let none_left = alg.is_zero(self.to_skip);
        let here = alg.and(set, none_left);
        let passed = alg.bvsub(self.to_skip, alg.constant(6, 1));
        Scan {
            found: alg.or(self.found, here),
            at: alg.ite(here, alg.constant(32, u128::from(t)), self.at),
            to_skip: alg.ite(alg.and(set, alg.not(none_left)), passed, self.to_skip),
        }
    }
}

/// What fns's two scans read: bit t of `upward` is mask[base + t], bit t of
/// `downward` is mask[base - t] (0 past either end), and `skip` is
/// min(|offset| - 1, 32) in 6 bits, `|offset|` computed as `magnitude` says.
pub struct FnsScans<A: Algebra> {
    pub upward: A::Bv,
    pub downward: A::Bv,
    pub skip: A::Bv,
}

pub fn fns_scans<A: Algebra>(alg: &A, magnitude: FnsMagnitude, mask: A::Bv, base: A::Bv, offset: A::Bv) -> FnsScans<A> {
    // Set bits to pass over: |offset| - 1, computed wide enough for the most
    // negative offset, and at most 32.
    let wide = match magnitude {
        FnsMagnitude::Exact => alg.sign_extend(1, offset),
        FnsMagnitude::Wrap32 | FnsMagnitude::CAbs => offset,
    };
    let w = alg.width(wide);
    let zero_w = alg.constant(w, 0);
    let size = alg.ite(alg.bvslt(wide, zero_w), alg.bvneg(wide), wide);
    let skip = alg.bvsub(size, alg.constant(w, 1));
    let skip = alg.extract(5, 0, alg.umin(skip, alg.constant(w, 32)));
    FnsScans {
        // offset > 0: shift base down to bit 0 and count up from there.
        upward: alg.bvlshr(mask, base),
        // offset < 0: reverse, so that base lands at bit 0 and lower bits above it.
        downward: alg.bvlshr(brev(alg, mask), alg.bvsub(alg.constant(32, 31), base)),
        skip,
    }
}

/// fns: the |offset|-th set bit of `mask` counting from `base` upward
/// (offset > 0) or downward (offset < 0), or `mask[base]` itself for
/// offset 0; 0xffffffff when there is none. Undefined for base > 31.
pub fn fns<A: Algebra>(alg: &A, mask: A::Bv, base: A::Bv, offset: A::Bv) -> Out<A::Bv, A::Bool> {
    fns_reading(alg, FnsMagnitude::Exact, mask, base, offset)
}

/// How fns's `|offset|` is computed (passage fns-most-negative-offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnsMagnitude {
    /// Exactly: 2^31 for the most negative offset (the model).
    Exact,
    /// In 32-bit two's complement, read as unsigned: -2^31 stays 0x80000000,
    /// which is 2^31 again.
    Wrap32,
    /// As C's `abs` of an `int`: undefined for the most negative offset.
    CAbs,
}

/// fns with `|offset|` computed as `magnitude` says.
pub fn fns_reading<A: Algebra>(
    alg: &A,
    magnitude: FnsMagnitude,
    mask: A::Bv,
    base: A::Bv,
    offset: A::Bv,
) -> Out<A::Bv, A::Bool> {
    let parts = fns_parts(alg, magnitude, mask, base, offset);
    fns_from_parts(alg, &parts, mask, base, offset)
}

/// What a reading of `|offset|` ([`FnsMagnitude`]) decides: the scans
/// (their count of set bits to pass over) and where the result is defined.
/// [`fns_reading`] is one fixed function of these and the operands, so two
/// readings whose parts are equal on every input agree on every input: the
/// audit proves that on the parts, a small query, where the whole results
/// hold two copies of the 32-step scans each.
pub struct FnsParts<A: Algebra> {
    pub scans: FnsScans<A>,
    pub defined: A::Bool,
}

pub fn fns_parts<A: Algebra>(alg: &A, magnitude: FnsMagnitude, mask: A::Bv, base: A::Bv, offset: A::Bv) -> FnsParts<A> {
    // Undefined for base > 31; C's abs is undefined for the most negative int.
    let in_range = alg.bvule(base, alg.constant(32, 31));
    let defined = match magnitude {
        FnsMagnitude::CAbs => alg.and(in_range, alg.not(alg.eq(offset, alg.constant(32, 1 << 31)))),
        _ => in_range,
    };
    FnsParts { scans: fns_scans(alg, magnitude, mask, base, offset), defined }
}

fn fns_from_parts<A: Algebra>(
    alg: &A,
    parts: &FnsParts<A>,
    mask: A::Bv,
    base: A::Bv,
    offset: A::Bv,
) -> Out<A::Bv, A::Bool> {
    let none = alg.constant(32, 0xffff_ffff);
    let zero = alg.constant(32, 0);
    // offset = 0: the bit at base itself.
    let at_base = alg.ite(alg.is_set(alg.bit(alg.bvlshr(mask, base), 0)), base, none);
    let scans = &parts.scans;
    let (found_up, t_up) = nth_set_bit(alg, scans.upward, scans.skip);
    let upward = alg.ite(found_up, alg.bvadd(base, t_up), none);
    let (found_down, t_down) = nth_set_bit(alg, scans.downward, scans.skip);
    let downward = alg.ite(found_down, alg.bvsub(base, t_down), none);
    let value = alg.ite(alg.is_zero(offset), at_base, alg.ite(alg.bvsgt(offset, zero), upward, downward));
    Out { value, defined: parts.defined }
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run_opt as run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.14-18, including the four fns examples.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("popc.b32", &[0xf0f0_0001]), Some(9));
        assert_eq!(run("popc.b64", &[u128::from(u64::MAX)]), Some(64));
        assert_eq!(run("clz.b32", &[0]), Some(32));
        assert_eq!(run("clz.b32", &[1]), Some(31));
        assert_eq!(run("clz.b64", &[0]), Some(64));
        assert_eq!(run("clz.b64", &[1 << 63]), Some(0));
        assert_eq!(run("bfind.u32", &[0x10]), Some(4));
        assert_eq!(run("bfind.u32", &[0]), Some(0xffff_ffff));
        assert_eq!(run("bfind.s32", &[0xffff_ffff]), Some(0xffff_ffff));
        assert_eq!(run("bfind.s32", &[0xffff_fff0]), Some(3));
        assert_eq!(run("bfind.shiftamt.u64", &[1]), Some(63));
        assert_eq!(run("bfind.shiftamt.s64", &[0]), Some(0xffff_ffff));
        assert_eq!(run("brev.b32", &[1]), Some(0x8000_0000));
        assert_eq!(run("brev.b64", &[0x8000_0000_0000_0003]), Some(0xc000_0000_0000_0001));
        // 9.7.1.17 Examples.
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 3, 1]), Some(3));
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 3, 0xffff_ffff]), Some(3));
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 2, 1]), Some(3));
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 2, 0xffff_ffff]), Some(1));
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 2, 0]), Some(0xffff_ffff));
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 31, 0x8000_0000]), Some(0xffff_ffff));
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 32, 1]), None);
    }

    /// fns by the spec's loop, in Rust.
    fn fns_reference(mask: u32, base: u32, offset: i32) -> u32 {
        if offset == 0 {
            return if mask >> base & 1 == 1 { base } else { u32::MAX };
        }
        let mut count = i64::from(offset).abs() - 1;
        let inc = if offset > 0 { 1 } else { -1 };
        let mut pos = i64::from(base);
        while (0..32).contains(&pos) {
            if mask >> pos & 1 == 1 {
                if count == 0 {
                    return pos as u32;
                }
                count -= 1;
            }
            pos += inc;
        }
        u32::MAX
    }

    proptest! {
        #[test]
        fn match_rust_bit_counts(a: u64, base in 0u32..32, offset in prop_oneof![-40i32..40, any::<i32>()]) {
            let a32 = a as u32;
            prop_assert_eq!(run("popc.b64", &[a.into()]), Some(a.count_ones().into()));
            prop_assert_eq!(run("clz.b32", &[a32.into()]), Some(a32.leading_zeros().into()));
            prop_assert_eq!(run("brev.b64", &[a.into()]), Some(a.reverse_bits().into()));
            let expect = if a32 == 0 { u32::MAX } else { 31 - a32.leading_zeros() };
            prop_assert_eq!(run("bfind.u32", &[a32.into()]), Some(expect.into()));
            prop_assert_eq!(run("fns.b32", &[a32.into(), base.into(), u128::from(offset as u32)]), Some(fns_reference(a32, base, offset).into()));
        }
    }
}
