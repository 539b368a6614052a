//! Section 9.7.1.19-22: the Semantics of bfe, bfi, szext and bmsk.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_field::{BitField, Mode};
use ptx_spec::catalogue::{defined, Inputs, Outputs};

pub fn encode<A: Algebra>(v: &BitField, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let d = match *v {
        BitField::Bfe(t) => bfe(sym, t.is_signed(), ins.get("a"), ins.get("b"), ins.get("c")),
        BitField::Bfi(_) => bfi(sym, ins.get("a"), ins.get("b"), ins.get("c"), ins.get("d")),
        BitField::Szext(mode, t) => szext(sym, mode, t.is_signed(), ins.get("a"), ins.get("b")),
        BitField::Bmsk(mode) => bmsk(sym, mode, ins.get("a"), ins.get("b")),
    };
    vec![defined(sym, d)]
}

/// Bit `index` (a 32-bit value below the width) of `x`, as a 1-bit vector.
fn bit_at<A: Algebra>(sym: &A, x: A::Bv, index: A::Bv) -> A::Bv {
    let w = sym.width(x);
    sym.extract(0, 0, sym.bvlshr(x, sym.zero_extend(w - 32, index)))
}

/// 9.7.1.19: the field starts at the low byte of b and is as long as the
/// low byte of c. Bit i of d is the field's bit i where the field has one
/// inside the word; every other bit of d is the fill bit: 0 for an unsigned
/// type or an empty field, else the field's top bit, or a's msb where the
/// field runs past it.
///
/// The sign bit is written without `ite`, in two steps from the pseudocode:
/// a[min(p, msb)] is bit 0 of `a >>s p` (an arithmetic shift by p >= msb
/// leaves only copies of the msb), and `len != 0` is the msb of -len (len is
/// at most 0xff, so -len has its msb set exactly when len is not 0).
/// Why: Z3 4.8.12 expands a `define-fun` whose per-bit `ite`s under `concat`
/// share an else-branch that itself contains an `ite` into a case per
/// combination of bits: the exported bfe.s32 did not load in 20 s nor within
/// memory, and cut down to 12, 14, 16 bits it took 0.1, 0.5, 2.5 s; the same
/// term asserted rather than defined was solved in 0.03 s. With an
/// `ite`-free sign bit it loads in 0.03 s. (Guarding the whole word with
/// `len == 0 ? 0 : ...` instead also loads, but made the bfe.s64 proof
/// 40% slower.)
fn bfe<A: Algebra>(sym: &A, signed: bool, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let w = sym.width(a);
    let msb = w - 1;
    let k = |x: u32| sym.constant(32, u128::from(x));
    let pos = sym.bvand(b, k(0xff));
    let len = sym.bvand(c, k(0xff));
    let sbit = if signed {
        let last = sym.bvsub(sym.bvadd(pos, len), k(1));
        let nonempty = sym.extract(31, 31, sym.bvneg(len));
        sym.bvand(nonempty, sym.extract(0, 0, sym.bvashr(a, sym.zero_extend(w - 32, last))))
    } else {
        sym.constant(1, 0)
    };
    let mut d: Option<A::Bv> = None;
    for i in 0..=msb {
        let inside = sym.and(sym.bvult(k(i), len), sym.bvule(sym.bvadd(pos, k(i)), k(msb)));
        let di = sym.ite(inside, bit_at(sym, a, sym.bvadd(pos, k(i))), sbit);
        d = Some(match d {
            None => di,
            Some(lower) => sym.concat(di, lower),
        });
    }
    d.expect("at least one bit")
}

/// 9.7.1.20: the field starts at the low byte of c and is as long as the
/// low byte of d. f is b with the field's bits replaced by a's low bits, the
/// copy stopping at the word's top.
/// Each destination bit j is written at most once, by iteration i = j - pos,
/// which runs iff pos <= j and j - pos < len (j <= msb always holds). So
/// f[j] = a[j-pos], that is bit j of a << pos, there, and b[j] elsewhere:
/// one term per destination bit, the shift of a shared by all of them.
fn bfi<A: Algebra>(sym: &A, a: A::Bv, b: A::Bv, c: A::Bv, d: A::Bv) -> A::Bv {
    let w = sym.width(a);
    let k = |x: u32| sym.constant(32, u128::from(x));
    let pos = sym.bvand(c, k(0xff));
    let len = sym.bvand(d, k(0xff));
    let moved = sym.bvshl(a, sym.zero_extend(w - 32, pos));
    let mut f: Option<A::Bv> = None;
    for j in 0..w {
        let written = sym.and(sym.bvule(pos, k(j)), sym.bvult(sym.bvsub(k(j), pos), len));
        let fj = sym.ite(written, sym.bit(moved, j), sym.bit(b, j));
        f = Some(match f {
            None => fj,
            Some(lower) => sym.concat(fj, lower),
        });
    }
    f.expect("at least one bit")
}

/// 9.7.1.21, with `sign_bit ? mask : 0` for the final `sign_bit ? mask | 0`
/// (assumption szext-mask-or-zero).
fn szext<A: Algebra>(sym: &A, mode: Mode, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let k = |x: u128| sym.constant(32, x);
    let b1 = sym.bvand(b, k(0x1f));
    let too_large = match mode {
        Mode::Clamp => sym.bvuge(b, k(32)),
        Mode::Wrap => sym.bool_constant(false),
    };
    let mask = sym.ite(too_large, k(0), sym.bvshl(k(0xffff_ffff), b1));
    let sign_pos = sym.bvand(sym.bvsub(b1, k(1)), k(0x1f));
    let sign_bit = if signed {
        let no_sign = sym.or(sym.eq(b1, k(0)), too_large);
        let bit = sym.eq(sym.bvand(sym.bvlshr(a, sign_pos), k(1)), k(1));
        sym.and(sym.not(no_sign), bit)
    } else {
        sym.bool_constant(false)
    };
    sym.bvor(sym.bvand(a, sym.bvnot(mask)), sym.ite(sign_bit, mask, k(0)))
}

/// 9.7.1.22, step by step.
fn bmsk<A: Algebra>(sym: &A, mode: Mode, a: A::Bv, b: A::Bv) -> A::Bv {
    let k = |x: u128| sym.constant(32, x);
    let ones = k(0xffff_ffff);
    let a1 = sym.bvand(a, k(0x1f));
    let mut mask0 = sym.bvshl(ones, a1);
    let b1 = sym.bvand(b, k(0x1f));
    let sum = sym.bvadd(a1, b1);
    let mut mask1 = sym.bvshl(ones, sum);
    let sum_overflow = sym.bvuge(sum, k(32));
    let mut position_overflow = sym.bool_constant(false);
    let mut width_overflow = sym.bool_constant(false);
    if mode == Mode::Clamp {
        position_overflow = sym.bvuge(a, k(32));
        mask0 = sym.ite(position_overflow, k(0), mask0);
        width_overflow = sym.bvuge(b, k(32));
    }
    let any_overflow = sym.or(sum_overflow, sym.or(position_overflow, width_overflow));
    mask1 = sym.ite(any_overflow, k(0), sym.ite(sym.eq(b1, k(0)), ones, mask1));
    sym.bvand(mask0, sym.bvnot(mask1))
}
