//! Sections 9.7.6.3-4: the Semantics of selp and slct, each one `?:`. An
//! .f32 `c` of slct is compared with 0 as the Floating Point Notes say:
//! subnormals flushed to a signed zero first under .ftz, -0 equal to zero,
//! and a NaN ordered (unequal to everything), written on the IEEE fields.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::compare_select::{CompareSelect, SlctTest};
use ptx_spec::catalogue::{defined, Inputs, Outputs};

pub fn encode<A: Algebra>(v: &CompareSelect, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (a, b, c) = (ins.get("a"), ins.get("b"), ins.get("c"));
    let condition = match *v {
        // d = (c == 1) ? a : b;
        CompareSelect::Selp(_) => sym.eq(c, sym.constant(1, 1)),
        // d = (c >= 0) ? a : b; with c an .s32.
        CompareSelect::Slct { test: SlctTest::S32, .. } => sym.bvsge(c, sym.constant(32, 0)),
        // d = (c >= 0) ? a : b; with c an .f32.
        CompareSelect::Slct { test: SlctTest::F32 { ftz }, .. } => {
            let c = if ftz { flush_subnormal(sym, c) } else { c };
            float_geq_zero(sym, c)
        }
    };
    vec![defined(sym, sym.ite(condition, a, b))]
}

/// .ftz: a subnormal (exponent field 0) becomes the zero of its sign.
fn flush_subnormal<A: Algebra>(sym: &A, c: A::Bv) -> A::Bv {
    let exponent = sym.extract(30, 23, c);
    let signed_zero = sym.bvand(c, sym.constant(32, 0x8000_0000));
    sym.ite(sym.is_zero(exponent), signed_zero, c)
}

/// The IEEE comparison `c >= +0` of an .f32: false when c is a NaN
/// (exponent all ones, fraction not zero); true when c is a zero of either
/// sign or positive.
pub fn float_geq_zero<A: Algebra>(sym: &A, c: A::Bv) -> A::Bool {
    let (sign, exponent, fraction) = (sym.extract(31, 31, c), sym.extract(30, 23, c), sym.extract(22, 0, c));
    let nan = sym.and(sym.eq(exponent, sym.ones(8)), sym.not(sym.is_zero(fraction)));
    let zero = sym.and(sym.is_zero(exponent), sym.is_zero(fraction));
    let positive = sym.is_zero(sign);
    sym.and(sym.not(nan), sym.or(zero, positive))
}
