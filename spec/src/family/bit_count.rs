//! Section 9.7.1.14-18: popc, clz, bfind, fns, brev.
//! The concrete semantics, as an emulator author writes them: closed forms
//! (a SWAR population count, a binary-search leading-zero count, a swap
//! network for bit reversal) instead of the spec's bit loops.

use std::fmt;

use crate::assumption::{Assumption, BFIND_SHIFT_WIDTH, CLZ_MASK_TEST, FNS_BASE, FNS_MIN_OFFSET};
use crate::bv::Algebra;
use crate::catalogue::{defined, Family, Operand, OperandType, Out, Outputs, PtxVersion, Requirement, Target, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitCount {
    Popc(Type),
    Clz(Type),
    /// `bfind.type`, or `bfind.shiftamt.type`.
    Bfind {
        ty: Type,
        shiftamt: bool,
    },
    Fns,
    Brev(Type),
}

const B_TYPES: [Type; 2] = [Type::B32, Type::B64];
const BFIND_TYPES: [Type; 4] = [Type::U32, Type::U64, Type::S32, Type::S64];

impl Family for BitCount {
    fn all() -> Vec<BitCount> {
        let mut all: Vec<BitCount> = B_TYPES.map(BitCount::Popc).to_vec();
        all.extend(B_TYPES.map(BitCount::Clz));
        for shiftamt in [false, true] {
            all.extend(BFIND_TYPES.map(|ty| BitCount::Bfind { ty, shiftamt }));
        }
        all.push(BitCount::Fns);
        all.extend(B_TYPES.map(BitCount::Brev));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            BitCount::Popc(_) => "popc",
            BitCount::Clz(_) => "clz",
            BitCount::Bfind { .. } => "bfind",
            BitCount::Fns => "fns",
            BitCount::Brev(_) => "brev",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            BitCount::Popc(_) => "9.7.1.14",
            BitCount::Clz(_) => "9.7.1.15",
            BitCount::Bfind { .. } => "9.7.1.16",
            BitCount::Fns => "9.7.1.17",
            BitCount::Brev(_) => "9.7.1.18",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let u32 = OperandType::Bits(32);
        match *self {
            // popc, clz and bfind write a .u32 whatever the operand type.
            BitCount::Popc(t) | BitCount::Clz(t) | BitCount::Bfind { ty: t, .. } => {
                vec![Operand::dest("d", u32), Operand::src("a", t.operand())]
            }
            BitCount::Fns => vec![
                Operand::dest("d", u32),
                Operand::src("mask", u32),
                Operand::src("base", u32),
                Operand::src("offset", u32),
            ],
            BitCount::Brev(t) => vec![Operand::dest("d", t.operand()), Operand::src("a", t.operand())],
        }
    }

    fn requirement(&self) -> Requirement {
        match self {
            BitCount::Fns => Requirement { ptx: PtxVersion(6, 0), target: Target::Sm(30) },
            _ => Requirement { ptx: PtxVersion(2, 0), target: Target::Sm(20) },
        }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            BitCount::Clz(_) => vec![&CLZ_MASK_TEST],
            BitCount::Bfind { ty, .. } if ty.width() == 64 => vec![&BFIND_SHIFT_WIDTH],
            BitCount::Fns => vec![&FNS_BASE, &FNS_MIN_OFFSET],
            _ => Vec::new(),
        }
    }

    /// Inputs: `a`, or `mask, base, offset` for fns.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &[A::Bv]) -> Outputs<A> {
        let to_u32 = |x: A::Bv| alg.zext_or_trunc(x, 32);
        match *self {
            BitCount::Popc(_) => vec![defined(alg, to_u32(popc(alg, ins[0])))],
            BitCount::Clz(_) => vec![defined(alg, to_u32(clz(alg, ins[0])))],
            BitCount::Bfind { ty, shiftamt } => vec![defined(alg, bfind(alg, ty.is_signed(), shiftamt, ins[0]))],
            BitCount::Fns => vec![fns(alg, ins[0], ins[1], ins[2])],
            BitCount::Brev(_) => vec![defined(alg, brev(alg, ins[0]))],
        }
    }

    /// fns's 32-step search does not finish in one query in any solver:
    /// offset = 0 is proven in one query, and each sign of offset for each
    /// base value 0..31 in one of its own; for base > 31 both models must
    /// only agree that the result is undefined.
    fn proof_cases<A: Algebra>(&self, alg: &A, ins: &[A::Bv]) -> Vec<(String, A::Bool)> {
        if *self != BitCount::Fns {
            return Vec::new();
        }
        let (base, offset) = (ins[1], ins[2]);
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
fn bfind<A: Algebra>(alg: &A, signed: bool, shiftamt: bool, a: A::Bv) -> A::Bv {
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
    let mut to_skip = skip;
    let mut at = alg.constant(32, 0);
    let mut found = alg.bool_constant(false);
    for t in 0..32 {
        let set = alg.and(alg.is_set(alg.bit(m, t)), alg.not(found));
        let none_left = alg.is_zero(to_skip);
        let here = alg.and(set, none_left);
        at = alg.ite(here, alg.constant(32, u128::from(t)), at);
        found = alg.or(found, here);
        to_skip = alg.ite(alg.and(set, alg.not(none_left)), alg.bvsub(to_skip, alg.constant(6, 1)), to_skip);
    }
    (found, at)
}

/// fns: the |offset|-th set bit of `mask` counting from `base` upward
/// (offset > 0) or downward (offset < 0), or `mask[base]` itself for
/// offset 0; 0xffffffff when there is none. Undefined for base > 31.
fn fns<A: Algebra>(alg: &A, mask: A::Bv, base: A::Bv, offset: A::Bv) -> Out<A::Bv, A::Bool> {
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
    let none = alg.constant(32, 0xffff_ffff);
    let zero = alg.constant(32, 0);
    let in_range = alg.bvule(base, alg.constant(32, 31));
    // offset = 0: the bit at base itself.
    let at_base = alg.ite(alg.is_set(alg.bit(alg.bvlshr(mask, base), 0)), base, none);
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
    // offset > 0: shift base down to bit 0 and count up from there.
    let (found_up, t_up) = nth_set_bit(alg, alg.bvlshr(mask, base), skip);
    let upward = alg.ite(found_up, alg.bvadd(base, t_up), none);
    // offset < 0: reverse, so that base lands at bit 0 and lower bits above it.
    let reversed = alg.bvlshr(brev(alg, mask), alg.bvsub(alg.constant(32, 31), base));
    let (found_down, t_down) = nth_set_bit(alg, reversed, skip);
    let downward = alg.ite(found_down, alg.bvsub(base, t_down), none);
    let value = alg.ite(alg.is_zero(offset), at_base, alg.ite(alg.bvsgt(offset, zero), upward, downward));
    let defined = match magnitude {
        FnsMagnitude::CAbs => alg.and(in_range, alg.not(alg.eq(offset, alg.constant(32, 1 << 31)))),
        _ => in_range,
    };
    Out { value, defined }
}

/// A reading of clz the model does not adopt (see assumption clz-mask-test),
/// kept for the audit: C parses `a&mask == 0` as `a & (mask == 0)`, which is
/// `a & 0`, so the loop never runs and every result is 0.
pub fn clz_c_precedence<A: Algebra>(alg: &A, _a: A::Bv) -> A::Bv {
    alg.constant(32, 0)
}

/// A reading of fns's base the model does not adopt (passage
/// fns-base-above-31-undefined): the pseudocode's loop tests `pos < 32` and
/// never runs for a base above 31, and `mask[base]` of a bit past the msb
/// reads 0, so every such base gives 0xffffffff.
pub fn fns_base_unchecked<A: Algebra>(alg: &A, mask: A::Bv, base: A::Bv, offset: A::Bv) -> A::Bv {
    let model = fns(alg, mask, base, offset);
    alg.ite(model.defined, model.value, alg.constant(32, 0xffff_ffff))
}

/// A reading of bfind the model does not adopt (see assumption
/// bfind-shift-width), kept for the audit: `1<<i` as a 32-bit C int, the
/// amount taken mod 32 as x86 does. For a 64-bit operand the sign test then
/// reads bit 31 and the search bit i mod 32: the search runs over the low
/// word repeated in both halves.
pub fn bfind_int_shift<A: Algebra>(alg: &A, signed: bool, shiftamt: bool, a: A::Bv) -> A::Bv {
    if alg.width(a) <= 32 {
        return bfind(alg, signed, shiftamt, a);
    }
    let low = alg.extract(31, 0, a);
    let x = if signed { alg.ite(alg.is_set(alg.bit(a, 31)), alg.bvnot(low), low) } else { low };
    bfind(alg, false, shiftamt, alg.concat(x, x))
}

impl fmt::Display for BitCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitCount::Popc(t) | BitCount::Clz(t) | BitCount::Brev(t) => write!(f, "{}{t}", self.opcode()),
            BitCount::Bfind { ty, shiftamt } => write!(f, "bfind{}{ty}", if *shiftamt { ".shiftamt" } else { "" }),
            BitCount::Fns => write!(f, "fns.b32"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::catalogue::testing::run_opt as run;
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

    #[test]
    fn readings_not_adopted() {
        use super::{bfind_int_shift, clz_c_precedence};
        use crate::bv::{BitVec, Concrete};
        // C's precedence makes clz 0 even for a = 0, where the count is 32.
        assert_eq!(clz_c_precedence(&Concrete, BitVec::new(32, 0)), BitVec::new(32, 0));
        assert_eq!(run("clz.b32", &[0]), Some(32));
        // A 32-bit `1<<i` sees bit 0 of a .u64 value at i = 32 as well.
        let one = BitVec::new(64, 1);
        assert_eq!(bfind_int_shift(&Concrete, false, false, one), BitVec::new(32, 32));
        assert_eq!(run("bfind.u64", &[1]), Some(0));
        // For a .u32 operand the readings agree.
        assert_eq!(
            bfind_int_shift(&Concrete, false, false, BitVec::new(32, 0x10)).unsigned(),
            run("bfind.u32", &[0x10]).unwrap()
        );
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
