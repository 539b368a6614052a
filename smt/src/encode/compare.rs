//! Sections 9.7.6.1-2: the Semantics of set and setp, line by line: `t` is
//! the comparison as a bit, `BoolOp(t, c)` the bitwise operator on two
//! bits, and set writes its constant where that bit is 1. The readings of
//! what the lines leave open (the order of each type, the forms with no
//! `BoolOp`, `!c`, `q`, `1.0f`) are the variant's assumptions.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::compare::{BoolOp, CmpOp, Combine, Compare, Dest};
use ptx_spec::catalogue::{defined, Inputs, Outputs, Type};

pub fn encode<A: Algebra>(v: &Compare, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (a, b) = (ins.get("a"), ins.get("b"));
    // t = (a CmpOp b) ? 1 : 0;
    let holds = match (v.cmp, v.signed()) {
        (CmpOp::Eq, _) => sym.eq(a, b),
        (CmpOp::Ne, _) => sym.not(sym.eq(a, b)),
        (CmpOp::Lt, true) => sym.bvslt(a, b),
        (CmpOp::Le, true) => sym.bvsle(a, b),
        (CmpOp::Gt, true) => sym.bvsgt(a, b),
        (CmpOp::Ge, true) => sym.bvsge(a, b),
        (CmpOp::Lt | CmpOp::Lo, false) => sym.bvult(a, b),
        (CmpOp::Le | CmpOp::Ls, false) => sym.bvule(a, b),
        (CmpOp::Gt | CmpOp::Hi, false) => sym.bvugt(a, b),
        (CmpOp::Ge | CmpOp::Hs, false) => sym.bvuge(a, b),
        (CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs, true) => {
            unreachable!("{v}: no unsigned operator on a signed type")
        }
    };
    let (one, zero) = (sym.constant(1, 1), sym.constant(1, 0));
    let t = sym.ite(holds, one, zero);
    // BoolOp(x, c), with `!c` read as c's complement; no BoolOp: x itself.
    let bool_op = |x: A::Bv| match v.combine {
        None => x,
        Some(Combine { op, not_c }) => {
            let c = ins.get("c");
            let c = if not_c { sym.bvnot(c) } else { c };
            match op {
                BoolOp::And => sym.bvand(x, c),
                BoolOp::Or => sym.bvor(x, c),
                BoolOp::Xor => sym.bvxor(x, c),
            }
        }
    };
    match v.dest {
        // d = BoolOp(t, c) ? 1.0f : 0x00000000; or ? 0xffffffff : 0x00000000;
        Dest::Set(dtype) => {
            let truth = if dtype == Type::F32 { 0x3f80_0000 } else { 0xffff_ffff };
            let written = sym.eq(bool_op(t), one);
            vec![defined(sym, sym.ite(written, sym.constant(32, truth), sym.constant(32, 0)))]
        }
        // p = BoolOp(t, c); q = BoolOp(!t, c);
        Dest::Setp { q } => {
            let mut outs = vec![defined(sym, bool_op(t))];
            if q {
                outs.push(defined(sym, bool_op(sym.bvnot(t))));
            }
            outs
        }
    }
}
