//! Sections 9.7.6.1-2, set and setp: a comparison, optionally combined
//! with a predicate. The concrete semantics, as an emulator author writes
//! them: a signed order is the unsigned order of the operands with their
//! sign bits flipped, and every operator is one `<` or one `==`.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::compare::{BoolOp, CmpOp, Combine, Compare, Dest};
use crate::catalogue::{defined, Inputs, Outputs, Type};

/// set's true value for an `.f32` destination: 1.0f.
pub const F32_ONE: u128 = 0x3f80_0000;

impl Semantics for Compare {
    /// Inputs: `a, b`, then `c` where there is a Boolean operator.
    /// Outputs: set's `d`; setp's `p`, then `q` for `p|q`.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let t = compare(alg, self.cmp, self.signed(), ins.get("a"), ins.get("b"));
        let combined = |t: A::Bool| match self.combine {
            None => t,
            Some(Combine { op, not_c }) => {
                let c = alg.is_set(ins.get("c"));
                let c = if not_c { alg.not(c) } else { c };
                match op {
                    BoolOp::And => alg.and(t, c),
                    BoolOp::Or => alg.or(t, c),
                    BoolOp::Xor => alg.bool_xor(t, c),
                }
            }
        };
        match self.dest {
            Dest::Set(dtype) => {
                let truth = if dtype == Type::F32 { F32_ONE } else { 0xffff_ffff };
                vec![defined(alg, alg.ite(combined(t), alg.constant(32, truth), alg.constant(32, 0)))]
            }
            Dest::Setp { q } => {
                let mut outs = vec![defined(alg, alg.bool_to_bv(combined(t)))];
                if q {
                    outs.push(defined(alg, alg.bool_to_bv(combined(alg.not(t)))));
                }
                outs
            }
        }
    }
}

/// `a CmpOp b`, each ordering one unsigned `<` (signed: both sign bits
/// flipped first, which maps the signed order onto the unsigned one).
fn compare<A: Algebra>(alg: &A, cmp: CmpOp, signed: bool, a: A::Bv, b: A::Bv) -> A::Bool {
    let n = alg.width(a);
    let flip = |x: A::Bv| if signed { alg.bvxor(x, alg.constant(n, 1 << (n - 1))) } else { x };
    let (a, b) = (flip(a), flip(b));
    match cmp {
        CmpOp::Eq => alg.eq(a, b),
        CmpOp::Ne => alg.not(alg.eq(a, b)),
        CmpOp::Lt | CmpOp::Lo => alg.bvult(a, b),
        CmpOp::Le | CmpOp::Ls => alg.not(alg.bvult(b, a)),
        CmpOp::Gt | CmpOp::Hi => alg.bvult(b, a),
        CmpOp::Ge | CmpOp::Hs => alg.not(alg.bvult(a, b)),
    }
}

#[cfg(test)]
mod tests {
    use crate::family::testing::{run, run_all};

    const MINUS_ONE_32: u128 = 0xffff_ffff;

    // Values worked by hand from 9.7.6.1-2.
    #[test]
    fn orders_follow_the_type() {
        // -1 < 0 as .s32, 0xffffffff > 0 as .u32.
        assert_eq!(run("setp.lt.s32", &[MINUS_ONE_32, 0]), 1);
        assert_eq!(run("setp.lt.u32", &[MINUS_ONE_32, 0]), 0);
        assert_eq!(run("setp.lo.u32", &[MINUS_ONE_32, 0]), 0);
        assert_eq!(run("setp.hi.u32", &[MINUS_ONE_32, 0]), 1);
        assert_eq!(run("setp.ge.s16", &[0x8000, 0x7fff]), 0);
        assert_eq!(run("setp.ls.u64", &[5, 5]), 1);
        assert_eq!(run("setp.eq.b64", &[1 << 63, 1 << 63]), 1);
        assert_eq!(run("setp.ne.b16", &[1, 2]), 1);
    }

    #[test]
    fn boolean_forms_and_the_second_destination() {
        // t = (1 < 2) = 1: and with c, with !c; q combines !t.
        assert_eq!(run_all("setp.lt.and.s32 p|q", &[1, 2, 1]), [1, 0]);
        assert_eq!(run_all("setp.lt.and.s32 p|q", &[1, 2, 0]), [0, 0]);
        assert_eq!(run_all("setp.lt.and.s32 p|q !c", &[1, 2, 0]), [1, 0]);
        assert_eq!(run_all("setp.lt.or.s32 p|q", &[2, 1, 1]), [1, 1]);
        assert_eq!(run_all("setp.lt.xor.s32 p|q", &[1, 2, 1]), [0, 1]);
        assert_eq!(run_all("setp.eq.u32 p|q", &[3, 3]), [1, 0]);
    }

    #[test]
    fn set_writes_all_ones_or_one_point_zero() {
        assert_eq!(run("set.eq.u32.u32", &[7, 7]), MINUS_ONE_32);
        assert_eq!(run("set.eq.s32.u32", &[7, 8]), 0);
        assert_eq!(run("set.lt.and.f32.s32", &[MINUS_ONE_32, 0, 1]), 0x3f80_0000);
        assert_eq!(run("set.lt.and.f32.s32 !c", &[MINUS_ONE_32, 0, 1]), 0);
    }
}
