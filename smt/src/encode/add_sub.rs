//! Section 9.7.1.1, .2, .7, .10, .11: the Semantics of add, sub, sad, abs
//! and neg.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::add_sub::AddSub;
use ptx_spec::catalogue::{defined, Inputs, Outputs};

use super::{lanes16, saturate_s32};

pub fn encode<A: Algebra>(v: &AddSub, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let d = match *v {
        // 9.7.1.1: each 16-bit half of d is the sum of the same halves of a and b.
        AddSub::Add { ty, sat: false } if ty.lanes() == 2 => {
            lanes16(sym, ins.get("a"), ins.get("b"), |x, y| sym.bvadd(x, y))
        }
        // The whole words added or subtracted.
        AddSub::Add { sat: false, .. } => sym.bvadd(ins.get("a"), ins.get("b")),
        AddSub::Sub { sat: false, .. } => sym.bvsub(ins.get("a"), ins.get("b")),
        // .sat: the result limited to MININT..MAXINT: the exact sum or
        // difference, one bit wider, clamped.
        AddSub::Add { sat: true, .. } => {
            let exact = sym.bvadd(sym.sign_extend(1, ins.get("a")), sym.sign_extend(1, ins.get("b")));
            saturate_s32(sym, exact)
        }
        AddSub::Sub { sat: true, .. } => {
            let exact = sym.bvsub(sym.sign_extend(1, ins.get("a")), sym.sign_extend(1, ins.get("b")));
            saturate_s32(sym, exact)
        }
        // 9.7.1.7: d = c + ((a<b) ? b-a : a-b), the compare signed for .s types.
        AddSub::Sad(ty) => {
            let (a, b, c) = (ins.get("a"), ins.get("b"), ins.get("c"));
            let a_lt_b = if ty.is_signed() { sym.bvslt(a, b) } else { sym.bvult(a, b) };
            sym.bvadd(c, sym.ite(a_lt_b, sym.bvsub(b, a), sym.bvsub(a, b)))
        }
        // 9.7.1.10: d = |a|.
        AddSub::Abs(_) => {
            let a = ins.get("a");
            sym.ite(sym.bvslt(a, sym.constant_like(a, 0)), sym.bvneg(a), a)
        }
        // 9.7.1.11: d = -a.
        AddSub::Neg(_) => sym.bvneg(ins.get("a")),
    };
    vec![defined(sym, d)]
}
