//! Section 9.7.1.14-18: popc, clz, bfind, fns, brev.
//! The readings the model does not adopt, for the audit's passages.

use ptx_spec::bv::Algebra;
use ptx_spec::family::bit_count::*;
/// A reading of clz the model does not adopt (see assumption clz-mask-test),
/// kept for the audit: C parses `a&mask == 0` as `a & (mask == 0)`, which is
/// `a & 0`, so the loop never runs and every result is 0.
pub fn clz_c_precedence<A: Algebra>(alg: &A, _a: A::Bv) -> A::Bv {
    alg.constant(32, 0)
}

/// A reading of fns's base the model does not adopt (passage
/// fns-base-above-31-undefined): the pseudocode's loop tests `pos < 32` and
/// never runs for a base above 31, and `mask[base]` of a bit past the msb
/// reads 0, so every such base gives 0xffffffff.
pub fn fns_base_unchecked<A: Algebra>(alg: &A, mask: A::Bv, base: A::Bv, offset: A::Bv) -> A::Bv {
    let model = fns(alg, mask, base, offset);
    alg.ite(model.defined, model.value, alg.constant(32, 0xffff_ffff))
}

/// A reading of bfind the model does not adopt (see assumption
/// bfind-shift-width), kept for the audit: `1<<i` as a 32-bit C int, the
/// amount taken mod 32 as x86 does. For a 64-bit operand the sign test then
/// reads bit 31 and the search bit i mod 32: the search runs over the low
/// word repeated in both halves.
pub fn bfind_int_shift<A: Algebra>(alg: &A, signed: bool, shiftamt: bool, a: A::Bv) -> A::Bv {
    if alg.width(a) <= 32 {
        return bfind(alg, signed, shiftamt, a);
    }
    let low = alg.extract(31, 0, a);
    let x = if signed { alg.ite(alg.is_set(alg.bit(a, 31)), alg.bvnot(low), low) } else { low };
    bfind(alg, false, shiftamt, alg.concat(x, x))
}

/// bfind's comment inside its Semantics block read as prose (passage
/// bfind-negate-comment): "negate" taken as two's complement negation, so a
/// negative signed input becomes -a before the search for its most
/// significant 1, where the block writes `a = ~a`.
pub fn bfind_negate<A: Algebra>(alg: &A, shiftamt: bool, a: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let x = alg.ite(alg.is_set(alg.bit(a, w - 1)), alg.bvneg(a), a);
    bfind(alg, false, shiftamt, x)
}

/// bfind.shiftamt of a signed type with "the most-significant bit position"
/// read as the highest bit below the sign bit (passage
/// bfind-shiftamt-signed): the amount that moves the found bit to bit w-2,
/// one less than the block's, so that the shifted value keeps its sign.
pub fn bfind_shift_below_sign<A: Algebra>(alg: &A, model: A::Bv) -> A::Bv {
    let none = alg.constant(32, 0xffff_ffff);
    alg.ite(alg.eq(model, none), none, alg.bvsub(model, alg.constant(32, 1)))
}
