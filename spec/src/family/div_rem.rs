//! Section 9.7.1.8-9: div, rem.
//! The concrete semantics, as an emulator author writes them. Where the spec leaves the result unspecified the output is marked
//! undefined rather than given a value.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::div_rem::*;
use crate::catalogue::{Inputs, Out, Outputs};

impl Semantics for DivRem {
    /// Inputs: `a, b`.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let (a, b) = (ins.get("a"), ins.get("b"));
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

#[cfg(test)]
mod tests {

    use crate::family::testing::run_opt as run;
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
        }
    }
}
