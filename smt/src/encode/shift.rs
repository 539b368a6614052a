//! Section 9.7.8.7-9: the Semantics of shf, shl and shr.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::shift::{ShfDir, ShfMode, Shift};
use ptx_spec::catalogue::{defined, Inputs, Outputs};

pub fn encode<A: Algebra>(v: &Shift, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let d = match *v {
        Shift::Shf(dir, mode) => shf(sym, dir, mode, ins.get("a"), ins.get("b"), ins.get("c")),
        Shift::Shl(t) => shl(sym, t.width(), ins.get("a"), ins.get("b")),
        Shift::Shr(t) => shr(sym, t.width(), t.is_signed(), ins.get("a"), ins.get("b")),
    };
    vec![defined(sym, d)]
}

/// 9.7.8.7, in 32-bit words throughout as the pseudocode declares them:
/// `n = (.clamp) ? min(c, 32) : c & 0x1f`, then
/// shf.l: `d = (b << n) | (a >> (32-n))`, shf.r: `d = (b << (32-n)) | (a >> n)`.
/// Where n is 0 or 32 one of the shifts is by 32: SMT-LIB gives 0, which is
/// assumption `shf-shift-by-32`.
fn shf<A: Algebra>(sym: &A, dir: ShfDir, mode: ShfMode, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let k32 = sym.constant(32, 32);
    let n = match mode {
        ShfMode::Clamp => sym.ite(sym.bvult(c, k32), c, k32),
        ShfMode::Wrap => sym.bvand(c, sym.constant(32, 0x1f)),
    };
    let rest = sym.bvsub(k32, n);
    match dir {
        ShfDir::L => sym.bvor(sym.bvshl(b, n), sym.bvlshr(a, rest)),
        ShfDir::R => sym.bvor(sym.bvshl(b, rest), sym.bvlshr(a, n)),
    }
}

/// The width C would compute `a << b` in: both operands promoted to at least
/// the 32 bits of b.
fn promoted(width: u32) -> u32 {
    width.max(32)
}

/// The amount after the Notes' clamp: min(b, N), still 32-bit.
fn clamped_amount<A: Algebra>(sym: &A, width: u32, b: A::Bv) -> A::Bv {
    let n = sym.constant(32, u128::from(width));
    sym.ite(sym.bvugt(b, n), n, b)
}

/// 9.7.8.8: `d = a << b`, the amount clamped to N (Notes). Computed in the
/// promoted width and cut back to N bits; a shift by N yields 0
/// (assumption `shift-clamped-to-width`).
fn shl<A: Algebra>(sym: &A, width: u32, a: A::Bv, b: A::Bv) -> A::Bv {
    let w = promoted(width);
    let n = sym.zero_extend(w - 32, clamped_amount(sym, width, b));
    let a = sym.zero_extend(w - width, a);
    sym.extract(width - 1, 0, sym.bvshl(a, n))
}

/// 9.7.8.9: `d = a >> b`, sign-filling for .s types and zero-filling
/// otherwise (Description), the amount clamped to N (Notes).
fn shr<A: Algebra>(sym: &A, width: u32, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let w = promoted(width);
    let n = sym.zero_extend(w - 32, clamped_amount(sym, width, b));
    let shifted = if signed {
        sym.bvashr(sym.sign_extend(w - width, a), n)
    } else {
        sym.bvlshr(sym.zero_extend(w - width, a), n)
    };
    sym.extract(width - 1, 0, shifted)
}
