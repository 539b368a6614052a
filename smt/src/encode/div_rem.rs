//! Section 9.7.1.8-9: the Semantics of div and rem.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::div_rem::DivRem;
use ptx_spec::catalogue::{Inputs, Out, Outputs};

pub fn encode<A: Algebra>(v: &DivRem, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (a, b) = (ins.get("a"), ins.get("b"));
    let zero = sym.constant_like(b, 0);
    // Division by zero yields an unspecified value (Notes; for rem,
    // assumption rem-by-zero-unspecified).
    let b_nonzero = sym.not(sym.eq(b, zero));
    let out = match *v {
        // d = a / b, truncating toward zero as C does.
        DivRem::Div(t) if t.is_signed() => Out { value: sym.bvsdiv(a, b), defined: b_nonzero },
        DivRem::Div(_) => Out { value: sym.bvudiv(a, b), defined: b_nonzero },
        // d = a % b; for negative operands machine-dependent (Notes).
        DivRem::Rem(t) if t.is_signed() => {
            let negative = sym.or(sym.bvslt(a, zero), sym.bvslt(b, zero));
            Out { value: sym.bvsrem(a, b), defined: sym.and(b_nonzero, sym.not(negative)) }
        }
        DivRem::Rem(_) => Out { value: sym.bvurem(a, b), defined: b_nonzero },
    };
    vec![out]
}
