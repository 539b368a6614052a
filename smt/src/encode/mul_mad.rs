//! Section 9.7.1.3-6: the Semantics of mul, mad, mul24 and mad24.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::mul_mad::{MulMad, MulMode};
use ptx_spec::catalogue::{defined, Inputs, Outputs};

use super::saturate_s32;

pub fn encode<A: Algebra>(v: &MulMad, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let d = match *v {
        MulMad::Mul(mode, ty) => select(sym, mode, full_product(sym, ty.is_signed(), ins.get("a"), ins.get("b"))),
        // 9.7.1.4: d = t + c, t<2n-1..n> + c or t<n-1..0> + c.
        MulMad::Mad { mode, ty, sat } => {
            let t = select(sym, mode, full_product(sym, ty.is_signed(), ins.get("a"), ins.get("b")));
            add(sym, sat, t, ins.get("c"))
        }
        MulMad::Mul24(mode, ty) => select24(sym, mode, product24(sym, ty.is_signed(), ins.get("a"), ins.get("b"))),
        // 9.7.1.6: d = t<47..16> + c or t<31..0> + c.
        MulMad::Mad24 { mode, ty, sat } => {
            let t = select24(sym, mode, product24(sym, ty.is_signed(), ins.get("a"), ins.get("b")));
            add(sym, sat, t, ins.get("c"))
        }
    };
    vec![defined(sym, d)]
}

/// 9.7.1.3: t = a * b, all 2n bits of it (the Notes: .wide receives the
/// full result), of the operands as signed or unsigned n-bit integers.
fn full_product<A: Algebra>(sym: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let n = sym.width(a);
    let widen = |x: A::Bv| if signed { sym.sign_extend(n, x) } else { sym.zero_extend(n, x) };
    sym.bvmul(widen(a), widen(b))
}

/// d = t (.wide), t<2n-1..n> (.hi), t<n-1..0> (.lo).
fn select<A: Algebra>(sym: &A, mode: MulMode, t: A::Bv) -> A::Bv {
    let n = sym.width(t) / 2;
    match mode {
        MulMode::Wide => t,
        MulMode::Hi => sym.extract(2 * n - 1, n, t),
        MulMode::Lo => sym.extract(n - 1, 0, t),
    }
}

/// 9.7.1.5: t = a * b of two 24-bit values (assumption mul24-low-24-bits),
/// a 48-bit product.
fn product24<A: Algebra>(sym: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let value24 = |x: A::Bv| {
        let low = sym.extract(23, 0, x);
        if signed {
            sym.sign_extend(24, low)
        } else {
            sym.zero_extend(24, low)
        }
    };
    sym.bvmul(value24(a), value24(b))
}

/// d = t<47..16> (.hi), t<31..0> (.lo).
fn select24<A: Algebra>(sym: &A, mode: MulMode, t: A::Bv) -> A::Bv {
    match mode {
        MulMode::Hi => sym.extract(47, 16, t),
        _ => sym.extract(31, 0, t),
    }
}

/// `+ c`, limited to MININT..MAXINT under .sat (exact sum, then clamp).
fn add<A: Algebra>(sym: &A, sat: bool, t: A::Bv, c: A::Bv) -> A::Bv {
    if sat {
        saturate_s32(sym, sym.bvadd(sym.sign_extend(1, t), sym.sign_extend(1, c)))
    } else {
        sym.bvadd(t, c)
    }
}
