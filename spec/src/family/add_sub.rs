//! Section 9.7.1.1, .2, .7, .10, .11: add, sub, sad, abs, neg.
//! The concrete semantics, as an emulator author writes them.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::add_sub::*;
use crate::catalogue::{defined, Inputs, Outputs};

impl Semantics for AddSub {
    /// Inputs: `a, b` (add, sub), `a, b, c` (sad), `a` (abs, neg).
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let d = match *self {
            AddSub::Add { ty, sat: false } if ty.lanes() == 2 => packed_add(alg, ins.get("a"), ins.get("b")),
            AddSub::Add { sat: false, .. } => alg.bvadd(ins.get("a"), ins.get("b")),
            AddSub::Sub { sat: false, .. } => alg.bvsub(ins.get("a"), ins.get("b")),
            AddSub::Add { sat: true, .. } => add_sat(alg, ins.get("a"), ins.get("b")),
            // a - b saturates exactly where a + ~b + 1 does; spelled out for clarity.
            AddSub::Sub { sat: true, .. } => sub_sat(alg, ins.get("a"), ins.get("b")),
            AddSub::Sad(ty) => {
                let (a, b, c) = (ins.get("a"), ins.get("b"), ins.get("c"));
                let a_less = alg.less(ty.is_signed(), a, b);
                let (hi, lo) = (alg.ite(a_less, b, a), alg.ite(a_less, a, b));
                alg.bvadd(c, alg.bvsub(hi, lo))
            }
            AddSub::Abs(_) => {
                // (a ^ s) - s with s the sign replicated: the branch-free absolute value.
                let a = ins.get("a");
                let s = alg.bvashr(a, alg.constant_like(a, u128::from(alg.width(a) - 1)));
                alg.bvsub(alg.bvxor(a, s), s)
            }
            AddSub::Neg(_) => alg.bvsub(alg.constant_like(ins.get("a"), 0), ins.get("a")),
        };
        vec![defined(alg, d)]
    }
}

/// Two 16-bit additions in one 32-bit word: add the low 15 bits of each lane,
/// then put back each lane's top bit with an xor, so no carry crosses lanes.
/// The same bits serve .u16x2 and .s16x2.
fn packed_add<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let low15 = alg.constant(32, 0x7fff_7fff);
    let tops = alg.constant(32, 0x8000_8000);
    let sum = alg.bvadd(alg.bvand(a, low15), alg.bvand(b, low15));
    alg.bvxor(sum, alg.bvand(alg.bvxor(a, b), tops))
}

/// Signed overflow of a + b happens when a and b have the same sign and the
/// wrapped sum has the other; the result is then the bound on a's side.
fn add_sat<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let sum = alg.bvadd(a, b);
    let zero = alg.constant_like(a, 0);
    let (a_neg, b_neg, s_neg) = (alg.bvslt(a, zero), alg.bvslt(b, zero), alg.bvslt(sum, zero));
    let same_sign = alg.not(alg.bool_xor(a_neg, b_neg));
    let overflow = alg.and(same_sign, alg.bool_xor(a_neg, s_neg));
    let bound = alg.ite(a_neg, signed_min(alg, a), signed_max(alg, a));
    alg.ite(overflow, bound, sum)
}

/// a - b overflows when a and b have different signs and the wrapped
/// difference has b's sign.
fn sub_sat<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let diff = alg.bvsub(a, b);
    let zero = alg.constant_like(a, 0);
    let (a_neg, b_neg, d_neg) = (alg.bvslt(a, zero), alg.bvslt(b, zero), alg.bvslt(diff, zero));
    let overflow = alg.and(alg.bool_xor(a_neg, b_neg), alg.bool_xor(a_neg, d_neg));
    let bound = alg.ite(a_neg, signed_min(alg, a), signed_max(alg, a));
    alg.ite(overflow, bound, diff)
}

/// The most negative value of `like`'s width.
pub fn signed_min<A: Algebra>(alg: &A, like: A::Bv) -> A::Bv {
    alg.constant_like(like, 1u128 << (alg.width(like) - 1))
}

/// The most positive value of `like`'s width.
pub fn signed_max<A: Algebra>(alg: &A, like: A::Bv) -> A::Bv {
    alg.constant_like(like, (1u128 << (alg.width(like) - 1)) - 1)
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.1-2, .7, .10-11.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("add.u16", &[0xffff, 2]), 1);
        assert_eq!(run("add.s32", &[0x7fff_ffff, 1]), 0x8000_0000);
        assert_eq!(run("add.sat.s32", &[0x7fff_ffff, 1]), 0x7fff_ffff);
        assert_eq!(run("add.sat.s32", &[0x8000_0000, 0xffff_ffff]), 0x8000_0000);
        assert_eq!(run("add.sat.s32", &[5, 0xffff_fffd]), 2);
        assert_eq!(run("sub.sat.s32", &[0x8000_0000, 1]), 0x8000_0000);
        assert_eq!(run("sub.sat.s32", &[0x7fff_ffff, 0xffff_ffff]), 0x7fff_ffff);
        assert_eq!(run("sub.u64", &[0, 1]), u128::from(u64::MAX));
        // Lanes do not carry into each other.
        assert_eq!(run("add.u16x2", &[0x0001_ffff, 0x0001_0001]), 0x0002_0000);
        assert_eq!(run("add.s16x2", &[0x7fff_8000, 0x0001_ffff]), 0x8000_7fff);
        // sad: c + |a - b|
        assert_eq!(run("sad.u32", &[3, 10, 100]), 107);
        assert_eq!(run("sad.s16", &[0xfffd, 4, 1]), 8);
        assert_eq!(run("sad.u16", &[0xfffd, 4, 1]), 0xfffa);
        assert_eq!(run("abs.s16", &[0xfff6]), 10);
        assert_eq!(run("abs.s32", &[0x8000_0000]), 0x8000_0000);
        assert_eq!(run("neg.s64", &[1]), u128::from(u64::MAX));
    }

    proptest! {
        #[test]
        fn match_rust_integer_arithmetic(a: i32, b: i32, c: i32) {
            let u = |x: i32| u128::from(x as u32);
            prop_assert_eq!(run("add.s32", &[u(a), u(b)]), u(a.wrapping_add(b)));
            prop_assert_eq!(run("add.sat.s32", &[u(a), u(b)]), u(a.saturating_add(b)));
            prop_assert_eq!(run("sub.sat.s32", &[u(a), u(b)]), u(a.saturating_sub(b)));
            prop_assert_eq!(run("abs.s32", &[u(a)]), u(a.wrapping_abs()));
            prop_assert_eq!(run("neg.s32", &[u(a)]), u(a.wrapping_neg()));
            prop_assert_eq!(run("sad.s32", &[u(a), u(b), u(c)]), u(c.wrapping_add(a.abs_diff(b) as i32)));
            let (a16, b16) = (a as u32, b as u32);
            let lanes = |x: u32, y: u32| u128::from((x as u16).wrapping_add(y as u16)) | u128::from(((x >> 16) as u16).wrapping_add((y >> 16) as u16)) << 16;
            prop_assert_eq!(run("add.u16x2", &[a16.into(), b16.into()]), lanes(a16, b16));
        }
    }
}
