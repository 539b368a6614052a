//! Sections 9.7.6.3-4, selp and slct. The readings of their text the model
//! does not adopt, for the audit's passages: slct's test as the summary
//! line words it (the sign of `c`), and selp's float selection as a float
//! move that quiets a NaN.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::Type;

/// slct with `c` tested by its sign bit alone: `a` where bit 31 is clear.
/// It differs from `c >= 0` at -0 (sign set, equal to zero) and at a NaN
/// with its sign clear (unordered).
pub fn slct_sign_bit<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    alg.ite(alg.is_set(alg.bit(c, 31)), b, a)
}

/// selp.f32 or selp.f64 as a float move that quiets a signalling NaN: the
/// selected operand, with the fraction's top bit set where it is a NaN.
pub fn selp_quieting<A: Algebra>(alg: &A, ty: Type, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let x = alg.ite(alg.is_set(c), a, b);
    let (width, fraction) = match ty {
        Type::F64 => (64, 52),
        _ => (32, 23),
    };
    let exponent = alg.extract(width - 2, fraction, x);
    let nan = alg
        .and(alg.eq(exponent, alg.ones(width - 1 - fraction)), alg.not(alg.is_zero(alg.extract(fraction - 1, 0, x))));
    let quiet = alg.bvor(x, alg.constant(width, 1u128 << (fraction - 1)));
    alg.ite(nan, quiet, x)
}
