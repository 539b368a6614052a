//! C's operators on the exact integers of [`super::value`]: each result is
//! the mathematical one (C's truncating `/` and `%`, `>>` rounding down),
//! held at the width its interval needs. Where C would overflow, the exact
//! value is what the model's readings take (an n-bit result is the exact
//! result modulo 2^n once it is stored).

use ptx_spec::bv::Algebra;

use super::ast::BinaryOp;
use super::value::{common, shape_of, Int, Refusal, Truth};

const WIDEST: u32 = 128;

/// The four products of two intervals' ends, or `None` on overflow.
fn corners(a: (i128, i128), b: (i128, i128), f: impl Fn(i128, i128) -> Option<i128>) -> Option<(i128, i128)> {
    let all = [f(a.0, b.0)?, f(a.0, b.1)?, f(a.1, b.0)?, f(a.1, b.1)?];
    Some((*all.iter().min()?, *all.iter().max()?))
}

/// `x + y`, `x - y` or `x * y`, exactly: at the width its interval needs,
/// or modulo 2^128 past that.
fn ring<A: Algebra>(alg: &A, op: BinaryOp, x: Int<A>, y: Int<A>) -> Int<A> {
    let range = if x.modular || y.modular {
        None
    } else {
        match (x.range, y.range) {
            (Some(a), Some(b)) => match op {
                BinaryOp::Add => a.0.checked_add(b.0).zip(a.1.checked_add(b.1)),
                BinaryOp::Sub => a.0.checked_sub(b.1).zip(a.1.checked_sub(b.0)),
                _ => corners(a, b, i128::checked_mul),
            },
            _ => None,
        }
    };
    let (signed, w) = common(alg, &[x, y], 1).unwrap_or((true, WIDEST));
    let natural = match op {
        BinaryOp::Mul => x.width(alg) + y.width(alg) + u32::from(signed),
        _ => w + 1,
    };
    let need = range.map_or(natural, |(lo, hi)| shape_of(lo, hi).1).max(w);
    let modular = need > WIDEST || x.modular || y.modular;
    // In whole bytes, as `Int::fitted` cuts: a sum built one small term at
    // a time stays at one width.
    let at = need.div_ceil(8).saturating_mul(8).min(WIDEST);
    let (a, b) = (x.bits_at(alg, at), y.bits_at(alg, at));
    let bv = match op {
        BinaryOp::Add => alg.bvadd(a, b),
        BinaryOp::Sub => alg.bvsub(a, b),
        _ => alg.bvmul(a, b),
    };
    let ok = alg.and(x.ok, y.ok);
    let signed = signed || op == BinaryOp::Sub;
    let mut out = Int::fitted(alg, bv, signed, if modular { None } else { range }, ok);
    out.modular = modular;
    out
}

/// `&`, `|`, `^` on exact two's complement integers (a negative value has
/// ones above its width).
fn bitwise<A: Algebra>(alg: &A, op: BinaryOp, x: Int<A>, y: Int<A>) -> Result<Int<A>, Refusal> {
    let nonneg = |v: &Int<A>| !v.modular && v.range.is_some_and(|(lo, _)| lo >= 0);
    let top = |v: &Int<A>| v.range.map_or(0, |r| r.1);
    let range = match op {
        BinaryOp::BitAnd if nonneg(&x) && nonneg(&y) => Some((0, top(&x).min(top(&y)))),
        BinaryOp::BitAnd if nonneg(&x) => Some((0, top(&x))),
        BinaryOp::BitAnd if nonneg(&y) => Some((0, top(&y))),
        _ if nonneg(&x) && nonneg(&y) => {
            let bits = shape_of(0, top(&x).max(top(&y))).1;
            Some((0, if bits >= 127 { i128::MAX } else { (1i128 << bits) - 1 }))
        }
        _ => None,
    };
    // A mask that is exact makes the result exact whatever the other side.
    let exact_by_mask = op == BinaryOp::BitAnd && (nonneg(&x) || nonneg(&y));
    let modular = (x.modular || y.modular) && !exact_by_mask;
    let (signed, w) = common(alg, &[x, y], 1).unwrap_or((true, WIDEST));
    let (a, b) = (x.bits_at(alg, w), y.bits_at(alg, w));
    let bv = match op {
        BinaryOp::BitAnd => alg.bvand(a, b),
        BinaryOp::BitOr => alg.bvor(a, b),
        _ => alg.bvxor(a, b),
    };
    let range = if modular { None } else { range.or_else(|| full(signed, w)) };
    let mut out = Int::fitted(alg, bv, signed, range, alg.and(x.ok, y.ok));
    out.modular = modular;
    Ok(out)
}

/// Every value of `w` bits read as `signed`, where that fits an `i128`.
fn full(signed: bool, w: u32) -> Option<(i128, i128)> {
    match (signed, w) {
        (_, 128..) | (false, 127) => None,
        (true, w) => Some((-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)),
        (false, w) => Some((0, (1i128 << w) - 1)),
    }
}

/// A shift amount: exact and never negative.
fn amount<A: Algebra>(n: Int<A>) -> Result<(i128, i128), Refusal> {
    let n = n.exact("a shift amount")?;
    match n.range {
        Some((lo, hi)) if lo >= 0 => Ok((lo, hi)),
        _ => Err("a shift by an amount that can be negative".into()),
    }
}

/// The amount `n` at `width` bits, where every amount at or above `width`
/// stays at or above it (so that the algebra's shift gives 0 or the sign).
fn amount_at<A: Algebra>(alg: &A, n: Int<A>, width: u32) -> A::Bv {
    let wn = n.width(alg);
    if wn <= width {
        return n.bits_at(alg, width);
    }
    let bits = n.bits_at(alg, wn);
    let big = alg.bvuge(bits, alg.constant(wn, u128::from(width)));
    alg.ite(big, alg.constant(width, u128::from(width)), alg.extract(width - 1, 0, bits))
}

/// `x << n`: the exact product by 2^n.
fn shl<A: Algebra>(alg: &A, x: Int<A>, n: Int<A>) -> Result<Int<A>, Refusal> {
    let (n0, n1) = amount(n)?;
    let shifted = |v: i128, k: i128| if k >= 127 { (v == 0).then_some(0) } else { v.checked_mul(1i128 << k) };
    let range = match x.range.filter(|_| !x.modular) {
        Some(r) => corners(r, (n0, n1), shifted),
        None => None,
    };
    let natural = u64::from(x.width(alg)) + u64::try_from(n1).unwrap_or(u64::MAX);
    let need = range.map_or(natural, |(lo, hi)| u64::from(shape_of(lo, hi).1)).max(u64::from(x.width(alg)));
    let modular = need > u64::from(WIDEST) || x.modular;
    let at = need.min(u64::from(WIDEST)) as u32;
    let bv = alg.bvshl(x.bits_at(alg, at), amount_at(alg, n, at));
    let mut out = Int::fitted(alg, bv, x.signed, if modular { None } else { range }, alg.and(x.ok, n.ok));
    out.modular = modular;
    Ok(out)
}

/// `x >> n`: the exact quotient by 2^n, rounded down (an arithmetic shift
/// of a signed value, a logical one of an unsigned).
fn shr<A: Algebra>(alg: &A, x: Int<A>, n: Int<A>) -> Result<Int<A>, Refusal> {
    let x = x.exact("a right shift")?;
    let (n0, n1) = amount(n)?;
    let shifted = |v: i128, k: i128| Some(v >> k.min(127));
    let range = x.range.and_then(|r| corners(r, (n0, n1), shifted));
    let w = x.width(alg);
    let amt = amount_at(alg, n, w);
    let bv = if x.signed { alg.bvashr(x.bv, amt) } else { alg.bvlshr(x.bv, amt) };
    Ok(Int::fitted(alg, bv, x.signed, range.or_else(|| full(x.signed, w)), alg.and(x.ok, n.ok)))
}

/// `x / y` or `x % y` as C computes them (the quotient rounded toward 0,
/// the remainder with the sign of `x`); undefined where `y` is 0.
fn divide<A: Algebra>(alg: &A, op: BinaryOp, x: Int<A>, y: Int<A>) -> Result<Int<A>, Refusal> {
    let (x, y) = (x.exact("a division")?, y.exact("a division")?);
    let (signed, w) = common(alg, &[x, y], 1).ok_or("a division wider than 128 bits")?;
    let (a, b) = (x.bits_at(alg, w), y.bits_at(alg, w));
    let bv = match (op, signed) {
        // The one quotient that needs a bit more: -2^(w-1) / -1 is 2^(w-1).
        (BinaryOp::Div, true) if w < WIDEST => {
            let q = alg.sign_extend(1, alg.bvsdiv(a, b));
            let min = alg.constant(w, 1u128 << (w - 1));
            let overflow = alg.and(alg.eq(a, min), alg.eq(b, alg.ones(w)));
            alg.ite(overflow, alg.constant(w + 1, 1u128 << (w - 1)), q)
        }
        (BinaryOp::Div, true) => alg.bvsdiv(a, b),
        (BinaryOp::Div, false) => alg.bvudiv(a, b),
        (_, true) => alg.bvsrem(a, b),
        (_, false) => alg.bvurem(a, b),
    };
    let nonzero = alg.not(alg.is_zero(b));
    let ok = alg.and(alg.and(x.ok, y.ok), nonzero);
    let range = x.range.map(|(lo, hi)| {
        let m = lo.unsigned_abs().max(hi.unsigned_abs()).min(i128::MAX as u128) as i128;
        if lo >= 0 && !signed {
            (0, hi)
        } else {
            (-m, m)
        }
    });
    Ok(Int::fitted(alg, bv, signed, range, ok))
}

/// A comparison of two exact integers, decided by their intervals where
/// they do not overlap.
fn compare<A: Algebra>(alg: &A, op: BinaryOp, x: Int<A>, y: Int<A>) -> Result<Truth<A>, Refusal> {
    let (x, y) = (x.exact("a comparison")?, y.exact("a comparison")?);
    let (signed, w) = common(alg, &[x, y], 1).ok_or("a comparison wider than 128 bits")?;
    let (a, b) = (x.bits_at(alg, w), y.bits_at(alg, w));
    let lt = |p, q| if signed { alg.bvslt(p, q) } else { alg.bvult(p, q) };
    let le = |p, q| if signed { alg.bvsle(p, q) } else { alg.bvule(p, q) };
    let b_ = match op {
        BinaryOp::Lt => lt(a, b),
        BinaryOp::Le => le(a, b),
        BinaryOp::Gt => lt(b, a),
        BinaryOp::Ge => le(b, a),
        BinaryOp::Eq => alg.eq(a, b),
        _ => alg.not(alg.eq(a, b)),
    };
    let known = match (x.range, y.range) {
        (Some((xl, xh)), Some((yl, yh))) => match op {
            BinaryOp::Lt if xh < yl => Some(true),
            BinaryOp::Lt if xl >= yh => Some(false),
            BinaryOp::Le if xh <= yl => Some(true),
            BinaryOp::Le if xl > yh => Some(false),
            BinaryOp::Gt if xl > yh => Some(true),
            BinaryOp::Gt if xh <= yl => Some(false),
            BinaryOp::Ge if xl >= yh => Some(true),
            BinaryOp::Ge if xh < yl => Some(false),
            BinaryOp::Eq | BinaryOp::Ne if xh < yl || yh < xl => Some(op == BinaryOp::Ne),
            BinaryOp::Eq | BinaryOp::Ne if xl == xh && yl == yh => Some((xl == yl) == (op == BinaryOp::Eq)),
            _ => None,
        },
        _ => None,
    };
    let ok = alg.and(x.ok, y.ok);
    Ok(match known {
        Some(k) => Truth { b: alg.bool_constant(k), known: Some(k), ok },
        None => Truth::of(b_, ok),
    })
}

/// A binary operator on two integers; `&&` and `||` are the caller's (they
/// take truth values).
pub fn binary<A: Algebra>(alg: &A, op: BinaryOp, x: Int<A>, y: Int<A>) -> Result<Result<Int<A>, Truth<A>>, Refusal> {
    Ok(match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => Ok(ring(alg, op, x, y)),
        BinaryOp::Div | BinaryOp::Rem => Ok(divide(alg, op, x, y)?),
        BinaryOp::Shl => Ok(shl(alg, x, y)?),
        BinaryOp::Shr => Ok(shr(alg, x, y)?),
        BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => Ok(bitwise(alg, op, x, y)?),
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne => {
            Err(compare(alg, op, x, y)?)
        }
        BinaryOp::And | BinaryOp::Or => return Err("`&&` and `||` take truth values".into()),
    })
}

/// `-x`, exactly.
pub fn negate<A: Algebra>(alg: &A, x: Int<A>) -> Int<A> {
    ring(alg, BinaryOp::Sub, Int::constant(alg, 0), x)
}

/// `~x`: `-x - 1`, exactly (a non-negative value has zeros above its
/// width, so its complement is negative).
pub fn complement<A: Algebra>(alg: &A, x: Int<A>) -> Int<A> {
    ring(alg, BinaryOp::Sub, Int::constant(alg, -1), x)
}

/// `|x|`, exactly.
pub fn absolute<A: Algebra>(alg: &A, x: Int<A>) -> Result<Int<A>, Refusal> {
    let x = x.exact("an absolute value")?;
    let negative = compare(alg, BinaryOp::Lt, x, Int::constant(alg, 0))?;
    super::value::select(alg, negative, negate(alg, x), x)
}

/// Bits `hi..=lo` of `x` (as exact two's complement), unsigned.
pub fn slice<A: Algebra>(alg: &A, x: Int<A>, hi: u32, lo: u32) -> Result<Int<A>, Refusal> {
    if hi >= WIDEST || (hi >= x.width(alg) && x.modular) {
        return Err(format!("the slice of bits {hi}..{lo} reads past what is known of the value"));
    }
    let bits = alg.extract(hi, lo, x.bits_at(alg, (hi + 1).max(x.width(alg))));
    let mut out = Int::of_bits(alg, bits, false);
    out.ok = x.ok;
    Ok(out)
}

/// Bit `i` of `x`: `(x >> i) & 1`.
pub fn bit<A: Algebra>(alg: &A, x: Int<A>, i: Int<A>) -> Result<Int<A>, Refusal> {
    if let Some(k) = i.known().filter(|k| (0..i128::from(WIDEST)).contains(k)) {
        return slice(alg, x, k as u32, k as u32).map(|b| b.and_ok(alg, i.ok));
    }
    // A negative index reads no bit: the result is undefined there.
    let (i, inside) = match i.range {
        Some((lo, _)) if lo < 0 => {
            let negative = compare(alg, BinaryOp::Lt, i, Int::constant(alg, 0))?;
            let zero = Int::constant(alg, 0);
            let mut at = super::value::select(alg, negative, zero, i)?;
            at.range = at.range.map(|(_, hi)| (0, hi.max(0)));
            (at, alg.not(negative.b))
        }
        _ => (i, alg.bool_constant(true)),
    };
    let shifted = shr(alg, x, i)?;
    Ok(bitwise(alg, BinaryOp::BitAnd, shifted, Int::constant(alg, 1))?.and_ok(alg, inside))
}
