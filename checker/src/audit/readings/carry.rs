//! Section 9.7.2, the extended-precision instructions. The readings of
//! their text the model does not adopt, for the audit's passages: what
//! "carry-out" is for a signed type, the polarity and width of a borrow,
//! the slice bounds of mad.cc's product as written, and the flag where no
//! instruction has written it.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::carry::{Arith, Carry};
use ptx_spec::catalogue::mul_mad::MulMode;
use ptx_spec::catalogue::{defined, Outputs};

/// How a reading departs from the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryReading {
    /// For .s32 and .s64, the flag is the signed overflow of the sum: an
    /// overflow flag, where the model keeps the unsigned carry.
    SignedOverflow,
    /// A set flag means no borrow, as the carry of a + ~b + 1 on machines
    /// that subtract by adding: sub.cc and subc.cc write the complement of
    /// the borrow and subc subtracts the complement of the flag it reads.
    CarryPolarity,
    /// `b + CC.CF` computed in b's type, as C computes it: the borrow is
    /// a < (b + CC.CF) mod 2^n, which misses the borrow when b is all ones
    /// and the flag is set.
    WrappedSubtrahend,
    /// `t<63..32>` and `t<31..0>` as written, for every type: of the 128-bit
    /// product of two 64-bit values, bits 63..32 and 31..0, zero-extended.
    LiteralBounds,
    /// The flag reads 0 where no instruction set it: the proofs' input flag
    /// taken as 0.
    UnsetReadsZero,
}

/// The outputs of `v` (`d`, then `CC.CF` under .cc) under `reading`.
pub fn carry_reading<A: Algebra>(alg: &A, v: Carry, reading: CarryReading, [a, b, c, flag]: [A::Bv; 4]) -> Outputs<A> {
    let n = v.ty.width();
    let flag_in = match reading {
        _ if !v.carry_in => alg.constant(1, 0),
        CarryReading::UnsetReadsZero => alg.constant(1, 0),
        CarryReading::CarryPolarity if v.arith == Arith::Sub => alg.bvnot(flag),
        _ => flag,
    };
    let exact = |x: A::Bv, signed: bool| alg.extend(signed, 2, x);
    let cf = alg.zero_extend(n + 1, flag_in);
    let signed = reading == CarryReading::SignedOverflow && v.ty.is_signed();
    // n + 2 bits hold every sum and difference below exactly.
    let (wide, flag_out) = match v.arith {
        Arith::Add | Arith::Mad(_) => {
            let first = match v.arith {
                Arith::Mad(mode) => product_part(alg, v.ty.is_signed(), mode, reading, a, b),
                _ => a,
            };
            let second = if let Arith::Mad(_) = v.arith { c } else { b };
            let sum = alg.bvadd(alg.bvadd(exact(first, signed), exact(second, signed)), cf);
            let out = if signed {
                // The exact signed sum outside the n-bit signed range.
                let top = alg.extract(n + 1, n - 1, sum);
                alg.not(alg.or(alg.is_zero(top), alg.eq(top, alg.ones(3))))
            } else {
                alg.is_set(alg.bit(sum, n))
            };
            (sum, out)
        }
        Arith::Sub => {
            let subtrahend = match reading {
                CarryReading::WrappedSubtrahend => alg.zero_extend(2, alg.bvadd(b, alg.extract(n - 1, 0, cf))),
                _ => alg.bvadd(exact(b, false), cf),
            };
            let difference = alg.bvsub(exact(a, false), subtrahend);
            let borrow = alg.bvult(exact(a, false), subtrahend);
            let out = if reading == CarryReading::CarryPolarity { alg.not(borrow) } else { borrow };
            (difference, out)
        }
    };
    let mut outs = vec![defined(alg, alg.extract(n - 1, 0, wide))];
    if v.carry_out {
        outs.push(defined(alg, alg.bool_to_bv(flag_out)));
    }
    outs
}

/// The part of a * b that mad.cc adds to c: the upper or lower n bits of
/// the 2n-bit product, or under [`CarryReading::LiteralBounds`] bits 63..32
/// or 31..0 of it, zero-extended to n bits.
fn product_part<A: Algebra>(alg: &A, signed: bool, mode: MulMode, reading: CarryReading, a: A::Bv, b: A::Bv) -> A::Bv {
    let n = alg.width(a);
    let t = alg.bvmul(alg.extend(signed, n, a), alg.extend(signed, n, b));
    let (hi, lo) = match (reading, mode) {
        (CarryReading::LiteralBounds, MulMode::Hi) => (63, 32),
        (CarryReading::LiteralBounds, _) => (31, 0),
        (_, MulMode::Hi) => (2 * n - 1, n),
        _ => (n - 1, 0),
    };
    alg.zext_or_trunc(alg.extract(hi, lo, t), n)
}
