//! Section 9.7.1.3-6: mul, mad, mul24, mad24.
//! The concrete semantics, as an emulator author writes them: one
//! double-width product of the extended operands, then the half asked for.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::mul_mad::*;
use crate::catalogue::{defined, Inputs, Outputs};
use crate::family::add_sub::{signed_max, signed_min};

impl Semantics for MulMad {
    /// Inputs: `a, b` (mul, mul24) and `c` (mad, mad24).
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let d = match *self {
            MulMad::Mul(mode, ty) => part(alg, mode, product(alg, ty.is_signed(), ins.get("a"), ins.get("b"))),
            MulMad::Mad { mode, ty, sat } => {
                add_c(alg, sat, part(alg, mode, product(alg, ty.is_signed(), ins.get("a"), ins.get("b"))), ins.get("c"))
            }
            MulMad::Mul24(mode, ty) => part24(alg, mode, product24(alg, ty.is_signed(), ins.get("a"), ins.get("b"))),
            MulMad::Mad24 { mode, ty, sat } => add_c(
                alg,
                sat,
                part24(alg, mode, product24(alg, ty.is_signed(), ins.get("a"), ins.get("b"))),
                ins.get("c"),
            ),
        };
        vec![defined(alg, d)]
    }
}

/// The full product of two n-bit values, 2n bits.
fn product<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let n = alg.width(a);
    alg.bvmul(alg.extend(signed, n, a), alg.extend(signed, n, b))
}

fn part<A: Algebra>(alg: &A, mode: MulMode, t: A::Bv) -> A::Bv {
    let n = alg.width(t) / 2;
    match mode {
        MulMode::Hi => alg.extract(2 * n - 1, n, t),
        MulMode::Lo => alg.extract(n - 1, 0, t),
        MulMode::Wide => t,
    }
}

/// The 48-bit product of the low 24 bits of each operand.
fn product24<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let low24 = |x: A::Bv| alg.extend(signed, 24, alg.extract(23, 0, x));
    alg.bvmul(low24(a), low24(b))
}

/// mul24.hi keeps bits 47..16, .lo bits 31..0.
fn part24<A: Algebra>(alg: &A, mode: MulMode, t: A::Bv) -> A::Bv {
    match mode {
        MulMode::Hi => alg.extract(47, 16, t),
        _ => alg.extract(31, 0, t),
    }
}

/// mad's `+ c`: saturating under .sat, wrapping otherwise.
fn add_c<A: Algebra>(alg: &A, sat: bool, p: A::Bv, c: A::Bv) -> A::Bv {
    if sat {
        saturating_add(alg, p, c)
    } else {
        alg.bvadd(p, c)
    }
}

/// a + b for signed 32-bit values, clamped instead of wrapping: computed
/// one bit wider, where it cannot overflow.
fn saturating_add<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let sum = alg.bvadd(alg.sign_extend(1, a), alg.sign_extend(1, b));
    let (min, max) = (alg.sign_extend(1, signed_min(alg, a)), alg.sign_extend(1, signed_max(alg, a)));
    let clamped = alg.ite(alg.bvslt(sum, min), min, alg.ite(alg.bvsgt(sum, max), max, sum));
    alg.extract(alg.width(a) - 1, 0, clamped)
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.3-6.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("mul.lo.u16", &[0x100, 0x100]), 0);
        assert_eq!(run("mul.hi.u16", &[0x100, 0x100]), 1);
        assert_eq!(run("mul.wide.s16", &[0xffff, 0xffff]), 1);
        assert_eq!(run("mul.wide.u16", &[0xffff, 0xffff]), 0xfffe_0001);
        assert_eq!(run("mul.hi.s32", &[0xffff_ffff, 2]), 0xffff_ffff);
        assert_eq!(run("mul.hi.u32", &[0xffff_ffff, 2]), 1);
        assert_eq!(run("mul.hi.u64", &[u128::from(u64::MAX), u128::from(u64::MAX)]), u128::from(u64::MAX - 1));
        assert_eq!(run("mad.lo.s32", &[3, 4, 5]), 17);
        assert_eq!(run("mad.wide.u32", &[0xffff_ffff, 0xffff_ffff, 1]), 0xffff_fffe_0000_0002);
        // hi(0x7fffffff * 0x7fffffff) = 0x3fffffff, plus 0x7fffffff saturates.
        assert_eq!(run("mad.hi.sat.s32", &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]), 0x7fff_ffff);
        assert_eq!(run("mad.hi.s32", &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]), 0xbfff_fffe);
        // mul24: bits 24..31 do not take part.
        assert_eq!(run("mul24.lo.u32", &[0xff00_0002, 3]), 6);
        assert_eq!(run("mul24.lo.s32", &[0x00ff_ffff, 3]), 0xffff_fffd);
        assert_eq!(run("mul24.hi.u32", &[0x00ff_ffff, 0x00ff_ffff]), 0xffff_fe00);
        assert_eq!(run("mad24.hi.sat.s32", &[0x0080_0000, 0x0080_0000, 0x7fff_ffff]), 0x7fff_ffff);
    }

    proptest! {
        #[test]
        fn match_rust_wide_products(a: i32, b: i32, c: i64) {
            let u = |x: i32| u128::from(x as u32);
            let p = i64::from(a) * i64::from(b);
            prop_assert_eq!(run("mul.lo.s32", &[u(a), u(b)]), u(a.wrapping_mul(b)));
            prop_assert_eq!(run("mul.hi.s32", &[u(a), u(b)]), u((p >> 32) as i32));
            prop_assert_eq!(run("mul.wide.s32", &[u(a), u(b)]), u128::from(p as u64));
            prop_assert_eq!(run("mad.wide.s32", &[u(a), u(b), u128::from(c as u64)]), u128::from(p.wrapping_add(c) as u64));
            let hi = (p >> 32) as i32;
            prop_assert_eq!(run("mad.hi.sat.s32", &[u(a), u(b), u(c as i32)]), u(hi.saturating_add(c as i32)));
            let (a24, b24) = (i64::from((a << 8) >> 8), i64::from((b << 8) >> 8));
            prop_assert_eq!(run("mul24.hi.s32", &[u(a), u(b)]), u(((a24 * b24) >> 16) as i32));
        }
    }
}
