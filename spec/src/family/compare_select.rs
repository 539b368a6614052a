//! Sections 9.7.6.3-4, selp and slct: one of two operands, chosen by a
//! predicate or by a sign test. The concrete semantics, as an emulator
//! author writes them: the float test of slct on the bits of its .f32 `c`.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::compare_select::{CompareSelect, SlctTest};
use crate::catalogue::{defined, Inputs, Outputs};

impl Semantics for CompareSelect {
    /// Inputs: `a, b, c`.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let (a, b, c) = (ins.get("a"), ins.get("b"), ins.get("c"));
        let picks_a = match *self {
            CompareSelect::Selp(_) => alg.is_set(c),
            CompareSelect::Slct { test: SlctTest::S32, .. } => alg.not(alg.is_set(alg.bit(c, 31))),
            CompareSelect::Slct { test: SlctTest::F32 { ftz }, .. } => f32_at_least_zero(alg, c, ftz),
        };
        // Either operand is moved as bits, whatever the type (9.7.6.4: without modification).
        vec![defined(alg, alg.ite(picks_a, a, b))]
    }
}

/// Whether the .f32 `c` is >= 0: not a NaN, and either its sign bit is
/// clear or its magnitude is zero (-0 equals zero); under `ftz` a
/// subnormal magnitude counts as zero too, being flushed to a signed zero.
fn f32_at_least_zero<A: Algebra>(alg: &A, c: A::Bv, ftz: bool) -> A::Bool {
    let magnitude = alg.extract(30, 0, c);
    let nan = alg.bvugt(magnitude, alg.constant(31, 0x7f80_0000));
    let below_normal = if ftz { 0x0080_0000 } else { 1 };
    let zero = alg.bvult(magnitude, alg.constant(31, below_normal));
    let positive = alg.not(alg.is_set(alg.bit(c, 31)));
    alg.and(alg.not(nan), alg.or(positive, zero))
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run;

    const A: u128 = 0x1111_1111;
    const B: u128 = 0x2222_2222;

    #[test]
    fn selp_takes_a_where_c_is_true() {
        assert_eq!(run("selp.s32", &[A, B, 1]), A);
        assert_eq!(run("selp.s32", &[A, B, 0]), B);
        // A float is selected as bits: a signalling NaN passes unchanged.
        assert_eq!(run("selp.f32", &[0x7f80_0001, B, 1]), 0x7f80_0001);
        assert_eq!(run("selp.b64", &[1 << 63, 7, 0]), 7);
    }

    #[test]
    fn slct_s32_tests_the_sign() {
        assert_eq!(run("slct.u32.s32", &[A, B, 0]), A);
        assert_eq!(run("slct.u32.s32", &[A, B, 0x7fff_ffff]), A);
        assert_eq!(run("slct.u32.s32", &[A, B, 0xffff_ffff]), B);
        assert_eq!(run("slct.b16.s32", &[0x1234, 0x5678, 0x8000_0000]), 0x5678);
    }

    #[test]
    fn slct_f32_compares_with_zero() {
        let (pos_zero, neg_zero, one, minus_one) = (0, 0x8000_0000, 0x3f80_0000, 0xbf80_0000);
        for ftz in ["", ".ftz"] {
            let name = format!("slct{ftz}.u32.f32");
            // Negative zero equals zero.
            assert_eq!(run(&name, &[A, B, pos_zero]), A);
            assert_eq!(run(&name, &[A, B, neg_zero]), A);
            assert_eq!(run(&name, &[A, B, one]), A);
            assert_eq!(run(&name, &[A, B, minus_one]), B);
            // A NaN of either sign selects b; infinities are ordered.
            assert_eq!(run(&name, &[A, B, 0x7fc0_0000]), B);
            assert_eq!(run(&name, &[A, B, 0xffc0_0000]), B);
            assert_eq!(run(&name, &[A, B, 0x7f80_0000]), A);
            assert_eq!(run(&name, &[A, B, 0xff80_0000]), B);
        }
        // The least negative subnormal: below zero, unless .ftz flushes it to -0.
        assert_eq!(run("slct.u32.f32", &[A, B, 0x8000_0001]), B);
        assert_eq!(run("slct.ftz.u32.f32", &[A, B, 0x8000_0001]), A);
        assert_eq!(run("slct.ftz.u32.f32", &[A, B, 0x807f_ffff]), A);
        assert_eq!(run("slct.ftz.u32.f32", &[A, B, 0x8080_0000]), B);
    }
}
