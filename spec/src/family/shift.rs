//! Section 9.7.8.7-9, the shift instructions: shf, shl, shr.
//! The concrete semantics, as an emulator author writes them: the funnel
//! shift as a 64-bit shift of the concatenation, shl/shr with an explicit
//! test for amounts at or above the width.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::shift::*;
use crate::catalogue::{defined, Inputs, Outputs};

impl Semantics for Shift {
    /// Concrete semantics. Inputs: `a, b, c` (shf), `a, b` (shl, shr).
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let d = match *self {
            Shift::Shf(dir, mode) => shf(alg, dir, mode, ins.get("a"), ins.get("b"), ins.get("c")),
            Shift::Shl(_) => shl(alg, ins.get("a"), ins.get("b")),
            Shift::Shr(t) => shr(alg, t.is_signed(), ins.get("a"), ins.get("b")),
        };
        vec![defined(alg, d)]
    }
}

/// The funnel shift: shift the 64-bit value [b, a] by n and keep the high
/// word (shf.l) or the low word (shf.r).
pub fn shf<A: Algebra>(alg: &A, dir: ShfDir, mode: ShfMode, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let n = match mode {
        ShfMode::Clamp => alg.umin(c, alg.constant(32, 32)),
        ShfMode::Wrap => alg.bvand(c, alg.constant(32, 31)),
    };
    let wide = alg.concat(b, a);
    let n = alg.zero_extend(32, n);
    match dir {
        ShfDir::L => alg.extract(63, 32, alg.bvshl(wide, n)),
        ShfDir::R => alg.extract(31, 0, alg.bvlshr(wide, n)),
    }
}

/// `a` shifted left by the 32-bit amount `b`; every bit is shifted out once
/// b reaches the width.
pub fn shl<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let width = alg.width(a);
    let all_out = alg.bvuge(b, alg.constant(32, u128::from(width)));
    let zero = alg.constant(width, 0);
    let shifted = alg.bvshl(a, alg.zext_or_trunc(b, width));
    alg.ite(all_out, zero, shifted)
}

/// `a` shifted right by the 32-bit amount `b`, sign-filling when `signed`;
/// an arithmetic shift by width-1 already fills every bit with the sign.
pub fn shr<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let width = alg.width(a);
    if signed {
        let n = alg.umin(b, alg.constant(32, u128::from(width - 1)));
        alg.bvashr(a, alg.zext_or_trunc(n, width))
    } else {
        let all_out = alg.bvuge(b, alg.constant(32, u128::from(width)));
        let zero = alg.constant(width, 0);
        let shifted = alg.bvlshr(a, alg.zext_or_trunc(b, width));
        alg.ite(all_out, zero, shifted)
    }
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run;
    use proptest::prelude::*;

    // Values worked by hand from the Description and Notes of 9.7.8.7-9.
    #[test]
    fn hand_worked_values() {
        // [b, a] = 0x80000001_80000001 shifted left by 1: high word 0x00000003.
        assert_eq!(run("shf.l.wrap.b32", &[0x8000_0001, 0x8000_0001, 1]), 0x0000_0003);
        // ... shifted right by 1: low word 0xc0000000.
        assert_eq!(run("shf.r.wrap.b32", &[0x8000_0001, 0x8000_0001, 1]), 0xc000_0000);
        // wrap takes c mod 32: 33 shifts by 1.
        assert_eq!(run("shf.l.wrap.b32", &[0x8000_0000, 0, 33]), 1);
        // clamp takes min(c, 32): 33 shifts by 32, bringing a into the high word.
        assert_eq!(run("shf.l.clamp.b32", &[0x1234_5678, 0xdead_beef, 33]), 0x1234_5678);
        assert_eq!(run("shf.r.clamp.b32", &[0x1234_5678, 0xdead_beef, 1000]), 0xdead_beef);
        // A shift by 0 leaves [b, a] as it is.
        assert_eq!(run("shf.l.clamp.b32", &[0x1234_5678, 0xdead_beef, 0]), 0xdead_beef);
        assert_eq!(run("shf.r.wrap.b32", &[0x1234_5678, 0xdead_beef, 32]), 0x1234_5678);
        // shl/shr: amounts above N clamp to N (Notes).
        assert_eq!(run("shl.b32", &[1, 2]), 4);
        assert_eq!(run("shl.b16", &[0x8001, 15]), 0x8000);
        assert_eq!(run("shl.b16", &[0xffff, 16]), 0);
        assert_eq!(run("shl.b64", &[1, 63]), 1 << 63);
        assert_eq!(run("shl.b64", &[1, 0xffff_ffff]), 0);
        assert_eq!(run("shr.u16", &[0x8000, 2]), 0x2000);
        assert_eq!(run("shr.s16", &[0x8000, 2]), 0xe000);
        assert_eq!(run("shr.s32", &[0x8000_0000, 100]), 0xffff_ffff);
        assert_eq!(run("shr.s32", &[0x7fff_ffff, 100]), 0);
        assert_eq!(run("shr.b64", &[u64::MAX as u128, 64]), 0);
        assert_eq!(run("shr.b16", &[0xffff, 0x1_0000 - 1]), 0);
    }

    proptest! {
        // shf as the Description states it: shift the 64-bit [b, a].
        #[test]
        fn shf_shifts_the_64_bit_concatenation(a: u32, b: u32, c in prop_oneof![0u32..70, any::<u32>()]) {
            let wide = (u64::from(b) << 32) | u64::from(a);
            let clamp = c.min(32);
            let wrap = c & 31;
            let l = |n: u32| (wide.checked_shl(n).unwrap_or(0) >> 32) as u128;
            let r = |n: u32| (wide.checked_shr(n).unwrap_or(0) & 0xffff_ffff) as u128;
            let ins = [u128::from(a), u128::from(b), u128::from(c)];
            prop_assert_eq!(run("shf.l.clamp.b32", &ins), l(clamp));
            prop_assert_eq!(run("shf.l.wrap.b32", &ins), l(wrap));
            prop_assert_eq!(run("shf.r.clamp.b32", &ins), r(clamp));
            prop_assert_eq!(run("shf.r.wrap.b32", &ins), r(wrap));
        }

        #[test]
        fn shl_shr_match_rust_with_clamping(a: u64, b in prop_oneof![0u32..80, any::<u32>()]) {
            let (a128, b128) = (u128::from(a), u128::from(b));
            prop_assert_eq!(run("shl.b64", &[a128, b128]), u128::from(a.checked_shl(b).unwrap_or(0)));
            prop_assert_eq!(run("shr.u64", &[a128, b128]), u128::from(a.checked_shr(b).unwrap_or(0)));
            prop_assert_eq!(run("shr.s64", &[a128, b128]), u128::from((a as i64 >> b.min(63)) as u64));
            let a32 = a as u32;
            prop_assert_eq!(run("shr.s32", &[a32.into(), b128]), u128::from((a32 as i32 >> b.min(31)) as u32));
            let a16 = a as u16;
            prop_assert_eq!(run("shl.b16", &[a16.into(), b128]), u128::from(if b >= 16 { 0 } else { a16 << b }));
            prop_assert_eq!(run("shr.s16", &[a16.into(), b128]), u128::from((a16 as i16 >> b.min(15)) as u16));
        }
    }
}
