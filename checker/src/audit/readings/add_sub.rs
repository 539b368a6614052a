//! Section 9.7.1.1, .2, .7, .10, .11: add, sub, sad, abs, neg.
//! The readings the model does not adopt, for the audit's passages.

use ptx_spec::bv::Algebra;
use ptx_spec::family::add_sub::*;
/// A reading of abs the model does not adopt (see assumption
/// abs-neg-most-negative), kept for the audit: the most negative value
/// saturates to the most positive one.
pub fn abs_saturating<A: Algebra>(alg: &A, a: A::Bv) -> A::Bv {
    let min = signed_min(alg, a);
    let negative = alg.bvslt(a, alg.constant_like(a, 0));
    alg.ite(alg.eq(a, min), signed_max(alg, a), alg.ite(negative, alg.bvneg(a), a))
}

/// The same reading for neg: -MIN saturates to MAX.
pub fn neg_saturating<A: Algebra>(alg: &A, a: A::Bv) -> A::Bv {
    let min = signed_min(alg, a);
    alg.ite(alg.eq(a, min), signed_max(alg, a), alg.bvneg(a))
}

/// neg with "negate the sign" read as sign-magnitude negation (passage
/// neg-negate-the-sign): the sign bit flipped, the other bits kept.
pub fn neg_sign_bit_flip<A: Algebra>(alg: &A, a: A::Bv) -> A::Bv {
    alg.bvxor(a, signed_min(alg, a))
}

/// sad with "the absolute value of `a-b`" read on the wrapped difference
/// (passage sad-absolute-of-wrapped): for the unsigned types a-b modulo 2^n
/// is never negative, so its absolute value is itself, where the block
/// subtracts the smaller operand from the larger.
pub fn sad_wrapped_difference<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    alg.bvadd(c, alg.bvsub(a, b))
}

/// sad with the block's `a<b` compared on the operands' bits as unsigned
/// values, whatever the instruction's type (passage sad-comparison-sign).
pub fn sad_unsigned_compare<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let a_less = alg.bvult(a, b);
    alg.bvadd(c, alg.ite(a_less, alg.bvsub(b, a), alg.bvsub(a, b)))
}
