//! Section 9.7.1.12-13: the Semantics of min and max.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::min_max::MinMax;
use ptx_spec::catalogue::{defined, Inputs, Outputs};

use super::lanes16;

pub fn encode<A: Algebra>(v: &MinMax, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (is_min, ty, relu) = match *v {
        MinMax::Min { ty, relu } => (true, ty, relu),
        MinMax::Max { ty, relu } => (false, ty, relu),
    };
    let signed = ty.is_signed();
    // d = (a < b) ? a : b (min), (a > b) ? a : b (max), per lane for the
    // packed types; .relu clamps a negative result to 0.
    let pick = |x: A::Bv, y: A::Bv| {
        let better = match (is_min, signed) {
            (true, true) => sym.bvslt(x, y),
            (true, false) => sym.bvult(x, y),
            (false, true) => sym.bvsgt(x, y),
            (false, false) => sym.bvugt(x, y),
        };
        let r = sym.ite(better, x, y);
        if relu {
            let zero = sym.constant_like(r, 0);
            sym.ite(sym.bvslt(r, zero), zero, r)
        } else {
            r
        }
    };
    let d =
        if ty.lanes() == 2 { lanes16(sym, ins.get("a"), ins.get("b"), pick) } else { pick(ins.get("a"), ins.get("b")) };
    vec![defined(sym, d)]
}
