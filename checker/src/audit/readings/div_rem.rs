//! Section 9.7.1.8-9: div, rem.
//! The readings the model does not adopt, for the audit's passages.

use ptx_spec::bv::Algebra;
/// A reading of signed division the model does not adopt (see assumption
/// div-signed-overflow), kept for the audit: MIN / -1 saturates to MAX.
pub fn div_saturating<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let min = alg.constant_like(a, 1u128 << (w - 1));
    let overflow = alg.and(alg.eq(a, min), alg.eq(b, alg.ones(w)));
    alg.ite(overflow, alg.bvsub(min, alg.constant_like(a, 1)), alg.bvsdiv(a, b))
}

/// A reading of signed division the model does not adopt (see assumption
/// div-rounding-direction): the quotient rounded toward negative infinity,
/// the other rounding rem's Notes name. It is one less than the truncated
/// quotient where the division is inexact and the signs differ.
pub fn div_flooring<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let q = alg.bvsdiv(a, b);
    alg.ite(floor_differs(alg, alg.bvsrem(a, b), b), alg.bvsub(q, alg.constant_like(a, 1)), q)
}

/// Where flooring division departs from truncating division: the truncated
/// remainder `r` is not 0 and its sign differs from the divisor `b`'s.
fn floor_differs<A: Algebra>(alg: &A, r: A::Bv, b: A::Bv) -> A::Bool {
    let zero = alg.constant_like(r, 0);
    let signs_differ = alg.bool_xor(alg.bvslt(r, zero), alg.bvslt(b, zero));
    alg.and(alg.not(alg.is_zero(r)), signs_differ)
}

/// The two readings of a signed remainder with negative operands, kept for
/// the audit: C's, where the quotient truncates toward zero and the
/// remainder takes a's sign, and the flooring one, where it takes b's.
pub fn rem_truncating<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    alg.bvsrem(a, b)
}

/// See [`rem_truncating`].
pub fn rem_flooring<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let r = alg.bvsrem(a, b);
    alg.ite(floor_differs(alg, r, b), alg.bvadd(r, b), r)
}
