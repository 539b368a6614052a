//! Section 9.7.1.8-9: div, rem.
//! The concrete semantics, as an emulator author writes them. Where the spec leaves the result unspecified the output is marked
//! undefined rather than given a value.

use std::fmt;

use crate::assumption::{Assumption, DIV_BY_ZERO, DIV_SIGNED_OVERFLOW, REM_BY_ZERO, REM_NEGATIVE};
use crate::bv::Algebra;
use crate::catalogue::{Family, Operand, Out, Outputs, PtxVersion, Requirement, Target, Type};
use crate::family::add_sub::INT_TYPES;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivRem {
    Div(Type),
    Rem(Type),
}

impl Family for DivRem {
    fn all() -> Vec<DivRem> {
        INT_TYPES.map(DivRem::Div).into_iter().chain(INT_TYPES.map(DivRem::Rem)).collect()
    }

    fn opcode(&self) -> &'static str {
        match self {
            DivRem::Div(_) => "div",
            DivRem::Rem(_) => "rem",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            DivRem::Div(_) => "9.7.1.8",
            DivRem::Rem(_) => "9.7.1.9",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let (DivRem::Div(ty) | DivRem::Rem(ty)) = *self;
        let t = ty.operand();
        vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t)]
    }

    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(1, 0), target: Target::All }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            DivRem::Div(t) if t.is_signed() => vec![&DIV_BY_ZERO, &DIV_SIGNED_OVERFLOW],
            DivRem::Div(_) => vec![&DIV_BY_ZERO],
            DivRem::Rem(t) if t.is_signed() => vec![&REM_BY_ZERO, &REM_NEGATIVE],
            DivRem::Rem(_) => vec![&REM_BY_ZERO],
        }
    }

    /// Inputs: `a, b`.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &[A::Bv]) -> Outputs<A> {
        let (a, b) = (ins[0], ins[1]);
        let nonzero = alg.not(alg.is_zero(b));
        let zero = alg.constant_like(a, 0);
        let out = match *self {
            // Rust's wrapping_div: truncating signed division. Both models
            // divide once, with the same operator: solvers cannot prove two
            // differently built dividers equal at these widths, so the
            // independence lies in definedness and overflow, and the operator
            // itself is checked against the solver in the algebra's tests.
            DivRem::Div(t) if t.is_signed() => Out { value: alg.bvsdiv(a, b), defined: nonzero },
            DivRem::Div(_) => Out { value: alg.bvudiv(a, b), defined: nonzero },
            DivRem::Rem(t) if t.is_signed() => {
                // Only non-negative operands have a machine-independent remainder.
                let both_non_negative = alg.and(alg.bvsge(a, zero), alg.bvsge(b, zero));
                // Rust's `%` on the signed values; as with div, one operator on both sides.
                Out { value: alg.bvsrem(a, b), defined: alg.and(nonzero, both_non_negative) }
            }
            DivRem::Rem(_) => Out { value: alg.bvurem(a, b), defined: nonzero },
        };
        vec![out]
    }
}

/// A reading of signed division the model does not adopt (see assumption
/// div-signed-overflow), kept for the audit: MIN / -1 saturates to MAX.
pub fn div_saturating<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let min = alg.constant_like(a, 1u128 << (w - 1));
    let overflow = alg.and(alg.eq(a, min), alg.eq(b, alg.ones(w)));
    alg.ite(overflow, alg.bvsub(min, alg.constant_like(a, 1)), alg.bvsdiv(a, b))
}

/// The two readings of a signed remainder with negative operands, kept for
/// the audit: C's, where the quotient truncates toward zero and the
/// remainder takes a's sign, and the flooring one, where it takes b's.
pub fn rem_truncating<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    alg.bvsrem(a, b)
}

/// See [`rem_truncating`].
pub fn rem_flooring<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let r = alg.bvsrem(a, b);
    let zero = alg.constant_like(a, 0);
    let signs_differ = alg.bool_xor(alg.bvslt(r, zero), alg.bvslt(b, zero));
    let adjust = alg.and(alg.not(alg.is_zero(r)), signs_differ);
    alg.ite(adjust, alg.bvadd(r, b), r)
}

impl fmt::Display for DivRem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (DivRem::Div(ty) | DivRem::Rem(ty)) = self;
        write!(f, "{}{ty}", self.opcode())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::{BitVec, Concrete};
    use crate::catalogue::testing::run_opt as run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.8-9 and the readings above.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("div.u32", &[7, 2]), Some(3));
        assert_eq!(run("div.s32", &[0xffff_fff9, 2]), Some(0xffff_fffd)); // -7 / 2 = -3
        assert_eq!(run("div.s16", &[0x8000, 0xffff]), Some(0x8000)); // MIN / -1 wraps
        assert_eq!(run("div.u64", &[7, 0]), None); // unspecified
        assert_eq!(run("div.s32", &[7, 0]), None);
        assert_eq!(run("rem.u16", &[7, 3]), Some(1));
        assert_eq!(run("rem.u16", &[7, 0]), None);
        assert_eq!(run("rem.s32", &[7, 3]), Some(1));
        assert_eq!(run("rem.s32", &[0xffff_fff9, 3]), None); // machine-dependent
        assert_eq!(run("rem.s32", &[7, 0xffff_fffd]), None);
        // The two readings the audit compares: -7 % 3 is -1 truncating, 2 flooring.
        let (a, b) = (BitVec::new(32, 0xffff_fff9), BitVec::new(32, 3));
        assert_eq!(rem_truncating(&Concrete, a, b).signed(), -1);
        assert_eq!(rem_flooring(&Concrete, a, b).signed(), 2);
        // The saturating reading of MIN / -1.
        let (min, minus1) = (BitVec::new(16, 0x8000), BitVec::new(16, 0xffff));
        assert_eq!(div_saturating(&Concrete, min, minus1), BitVec::new(16, 0x7fff));
        assert_eq!(div_saturating(&Concrete, BitVec::new(16, 7), minus1), BitVec::new(16, 0xfff9));
    }

    proptest! {
        #[test]
        fn match_rust_division(a: i32, b: i32) {
            let u = |x: i32| u128::from(x as u32);
            let expect_div = (b != 0).then(|| u(a.wrapping_div(b)));
            prop_assert_eq!(run("div.s32", &[u(a), u(b)]), expect_div);
            let expect_rem = (b > 0 && a >= 0).then(|| u(a % b));
            prop_assert_eq!(run("rem.s32", &[u(a), u(b)]), expect_rem);
            let (ua, ub) = (a as u32, b as u32);
            prop_assert_eq!(run("div.u32", &[ua.into(), ub.into()]), ua.checked_div(ub).map(u128::from));
            if b != 0 {
                let (ca, cb) = (BitVec::new(32, u(a)), BitVec::new(32, u(b)));
                prop_assert_eq!(rem_truncating(&Concrete, ca, cb).signed() as i32, a.wrapping_rem(b));
                prop_assert_eq!(rem_flooring(&Concrete, ca, cb).signed() as i32, a.wrapping_rem_euclid(b) + if b < 0 && a.wrapping_rem_euclid(b) != 0 { b } else { 0 });
            }
        }
    }
}
