//! Section 9.7.8.1-6, the logic instructions: and, or, xor, not, cnot, lop3.
//! The concrete semantics, as an emulator author writes them.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::logic::*;
use crate::catalogue::{defined, Inputs, Outputs};

impl Semantics for Logic {
    /// Concrete semantics. Inputs: `a, b` (and, or, xor), `a` (not, cnot),
    /// `a, b, c, immLut` (lop3) and `q` (lop3.BoolOp).
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        match self {
            Logic::And(_) => vec![defined(alg, alg.bvand(ins.get("a"), ins.get("b")))],
            Logic::Or(_) => vec![defined(alg, alg.bvor(ins.get("a"), ins.get("b")))],
            Logic::Xor(_) => vec![defined(alg, alg.bvxor(ins.get("a"), ins.get("b")))],
            Logic::Not(_) => vec![defined(alg, alg.bvnot(ins.get("a")))],
            Logic::Cnot(_) => {
                let (one, zero) = (alg.constant_like(ins.get("a"), 1), alg.constant_like(ins.get("a"), 0));
                vec![defined(alg, alg.ite(alg.is_zero(ins.get("a")), one, zero))]
            }
            Logic::Lop3(bool_op) => {
                let d = lop3(alg, ins.get("a"), ins.get("b"), ins.get("c"), ins.get("immLut"));
                let mut outs = vec![defined(alg, d)];
                if let Some(op) = bool_op {
                    let nonzero = alg.not(alg.is_zero(d));
                    let q = alg.is_set(ins.get("q"));
                    let p = match op {
                        BoolOp::Or => alg.or(nonzero, q),
                        BoolOp::And => alg.and(nonzero, q),
                    };
                    outs.push(defined(alg, alg.bool_to_bv(p)));
                }
                outs
            }
        }
    }
}

/// lop3 as a sum of minterms: bit k of immLut is the function's value where
/// (a, b, c) = (bit 2, bit 1, bit 0 of k), because ta = 0xF0, tb = 0xCC and
/// tc = 0xAA hold exactly those bits at position k (9.7.8.6). Each selected
/// minterm is ORed in whole-word.
pub fn lop3<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv, c: A::Bv, imm_lut: A::Bv) -> A::Bv {
    let width = alg.width(a);
    let literal = |x: A::Bv, positive: bool| if positive { x } else { alg.bvnot(x) };
    let mut d = alg.constant(width, 0);
    for k in 0..8u32 {
        let minterm = alg.bvand(alg.bvand(literal(a, k & 4 != 0), literal(b, k & 2 != 0)), literal(c, k & 1 != 0));
        // All ones when bit k of immLut is set, else zero.
        let select = alg.sign_extend(width - 1, alg.bit(imm_lut, k));
        d = alg.bvor(d, alg.bvand(minterm, select));
    }
    d
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run_all as run;
    use proptest::prelude::*;

    // Values worked by hand from the Description of each instruction.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("and.b32", &[0xff00_ff00, 0x0ff0_0ff0]), [0x0f00_0f00]);
        assert_eq!(run("and.pred", &[1, 0]), [0]);
        assert_eq!(run("or.b16", &[0x00f0, 0x0f00]), [0x0ff0]);
        assert_eq!(run("xor.b64", &[u64::MAX as u128, 1]), [u64::MAX as u128 - 1]);
        assert_eq!(run("xor.pred", &[1, 1]), [0]);
        assert_eq!(run("not.b16", &[0x00ff]), [0xff00]);
        assert_eq!(run("not.pred", &[0]), [1]);
        // cnot is C's `!`: 1 for zero, 0 for anything else.
        assert_eq!(run("cnot.b32", &[0]), [1]);
        assert_eq!(run("cnot.b32", &[0x8000_0000]), [0]);
        assert_eq!(run("cnot.b64", &[0]), [1]);
    }

    // The lop3 examples of 9.7.8.6: immLut 0x80 is a & b & c, 0xFE is a | b | c,
    // 0x40 is a & b & ~c, 0x1A is (a & b | c) ^ a.
    #[test]
    fn lop3_worked_examples() {
        let (a, b, c) = (0xF0F0_1234u128, 0xCCCC_5678, 0xAAAA_9ABC);
        assert_eq!(run("lop3.b32", &[a, b, c, 0x80]), [a & b & c]);
        assert_eq!(run("lop3.b32", &[a, b, c, 0xFE]), [a | b | c]);
        assert_eq!(run("lop3.b32", &[a, b, c, 0x40]), [a & b & !c & 0xffff_ffff]);
        assert_eq!(run("lop3.b32", &[a, b, c, 0x1A]), [(a & b | c) ^ a]);
        assert_eq!(run("lop3.b32", &[a, b, c, 0x00]), [0]);
        assert_eq!(run("lop3.b32", &[a, b, c, 0xFF]), [0xffff_ffff]);
        // The table's inputs themselves give immLut back.
        assert_eq!(run("lop3.b32", &[0xF0, 0xCC, 0xAA, 0x1A]), [0x1A]);
    }

    #[test]
    fn lop3_predicate_result() {
        // d = 0 with .or: p = q; with .and: p = 0.
        assert_eq!(run("lop3.or.b32", &[0, 0, 0, 0x80, 1]), [0, 1]);
        assert_eq!(run("lop3.or.b32", &[0, 0, 0, 0x80, 0]), [0, 0]);
        assert_eq!(run("lop3.and.b32", &[0, 0, 0, 0xFF, 0]), [0xffff_ffff, 0]);
        assert_eq!(run("lop3.and.b32", &[0, 0, 0, 0xFF, 1]), [0xffff_ffff, 1]);
    }

    proptest! {
        // lop3 with immLut = F(0xF0, 0xCC, 0xAA) computes F bit by bit, for any F
        // given as its truth table.
        #[test]
        fn lop3_is_the_table_lookup(a: u32, b: u32, c: u32, lut: u8) {
            let mut expect = 0u32;
            for i in 0..32 {
                let k = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
                expect |= ((u32::from(lut) >> k) & 1) << i;
            }
            let got = run("lop3.b32", &[a.into(), b.into(), c.into(), lut.into()]);
            prop_assert_eq!(got, vec![u128::from(expect)]);
        }

        #[test]
        fn bitwise_ops_match_rust(a: u64, b: u64) {
            let (a128, b128) = (u128::from(a), u128::from(b));
            prop_assert_eq!(run("and.b64", &[a128, b128]), vec![u128::from(a & b)]);
            prop_assert_eq!(run("or.b64", &[a128, b128]), vec![u128::from(a | b)]);
            prop_assert_eq!(run("xor.b64", &[a128, b128]), vec![u128::from(a ^ b)]);
            prop_assert_eq!(run("not.b64", &[a128]), vec![u128::from(!a)]);
            prop_assert_eq!(run("cnot.b16", &[a128 & 0xffff]), vec![u128::from(a as u16 == 0)]);
        }
    }
}
