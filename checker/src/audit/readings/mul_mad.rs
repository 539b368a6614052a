//! Section 9.7.1.3-6: mul, mad, mul24, mad24.
//! The readings the model does not adopt, for the audit's passages.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::mul_mad::*;
/// A reading of mul24 the model does not adopt (see assumption
/// mul24-low-24-bits), kept for the audit: the full 32-bit operands are
/// multiplied, and bits 47..16 (.hi) or 31..0 (.lo) of the 64-bit product kept.
pub fn mul24_full_operands<A: Algebra>(alg: &A, mode: MulMode, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let t = alg.bvmul(alg.extend(signed, 32, a), alg.extend(signed, 32, b));
    match mode {
        MulMode::Hi => alg.extract(47, 16, t),
        _ => alg.extract(31, 0, t),
    }
}
