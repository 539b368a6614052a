//! Section 9.7.8.7-9, the shift instructions: shf, shl, shr.
//! The readings the model does not adopt, for the audit's passages.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::shift::*;
/// The top of the range shf's Notes give the amount in `mode`: 0..32 in
/// clamp mode, 0..31 in wrap mode (passage shf-amount-limited).
pub fn shf_amount_top(mode: ShfMode) -> u128 {
    match mode {
        ShfMode::Clamp => 32,
        ShfMode::Wrap => 31,
    }
}

/// A reading of shf the model does not adopt (assumption shf-shift-by-32),
/// kept for the audit: the pseudocode's two 32-bit shifts as x86 executes
/// C's shift by 32, the amount taken mod 32, so a shift by 32 leaves the
/// word unchanged instead of clearing it.
pub fn shf_mod32<A: Algebra>(alg: &A, dir: ShfDir, mode: ShfMode, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let k = |v: u128| alg.constant(32, v);
    let n = match mode {
        ShfMode::Clamp => alg.umin(c, k(32)),
        ShfMode::Wrap => alg.bvand(c, k(31)),
    };
    let mod32 = |x: A::Bv| alg.bvand(x, k(31));
    let rest = alg.bvsub(k(32), n);
    match dir {
        ShfDir::L => alg.bvor(alg.bvshl(b, mod32(n)), alg.bvlshr(a, mod32(rest))),
        ShfDir::R => alg.bvor(alg.bvshl(b, mod32(rest)), alg.bvlshr(a, mod32(n))),
    }
}

/// Readings of a shift amount at or above the operand's width (assumption
/// shift-clamped-to-width) the model does not adopt, kept for the audit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShiftAmount {
    /// The amount taken mod the width, as x86 executes C's oversized shift.
    ModWidth,
    /// The 32-bit amount cut to the operand's width before shifting (a
    /// .b16 shift by 0x10000 shifts by 0).
    CutToWidth,
}

/// shl (`shr: None`) or shr (`Some(signed)`) with the amount read as `reading`.
pub fn shift_reading<A: Algebra>(alg: &A, reading: ShiftAmount, shr: Option<bool>, a: A::Bv, b: A::Bv) -> A::Bv {
    let width = alg.width(a);
    let n = match reading {
        ShiftAmount::ModWidth => alg.zext_or_trunc(alg.bvand(b, alg.constant(32, u128::from(width - 1))), width),
        ShiftAmount::CutToWidth => alg.zext_or_trunc(b, width),
    };
    match shr {
        None => alg.bvshl(a, n),
        Some(true) => alg.bvashr(a, n),
        Some(false) => alg.bvlshr(a, n),
    }
}
