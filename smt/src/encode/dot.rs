//! Section 9.7.1.23-24: the Semantics of dp4a and dp2a.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::dot::{Dot, Half};
use ptx_spec::catalogue::{defined, Inputs, Outputs};

pub fn encode<A: Algebra>(v: &Dot, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (a, b, c) = (ins.get("a"), ins.get("b"), ins.get("c"));
    // d = c; d += Va[i] * Vb[...] in 32-bit arithmetic.
    let mut d = c;
    match *v {
        Dot::Dp4a { atype, btype } => {
            let va = extract_and_extend(sym, a, 8, atype.is_signed());
            let vb = extract_and_extend(sym, b, 8, btype.is_signed());
            for i in 0..4 {
                d = sym.bvadd(d, sym.bvmul(va[i], vb[i]));
            }
        }
        Dot::Dp2a { half, atype, btype } => {
            let va = extract_and_extend(sym, a, 16, atype.is_signed());
            let vb = extract_and_extend(sym, b, 8, btype.is_signed());
            let b_select = match half {
                Half::Lo => 0,
                Half::Hi => 2,
            };
            for i in 0..2 {
                d = sym.bvadd(d, sym.bvmul(va[i], vb[b_select + i]));
            }
        }
    }
    vec![defined(sym, d)]
}

/// extractAndSignOrZeroExt_4 / _2: the `bits`-wide pieces of x, lowest
/// first, each extended to 32 bits.
fn extract_and_extend<A: Algebra>(sym: &A, x: A::Bv, bits: u32, signed: bool) -> Vec<A::Bv> {
    (0..32 / bits)
        .map(|i| {
            let piece = sym.extract(i * bits + bits - 1, i * bits, x);
            if signed {
                sym.sign_extend(32 - bits, piece)
            } else {
                sym.zero_extend(32 - bits, piece)
            }
        })
        .collect()
}
