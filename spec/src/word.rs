//! QF_BV's operations on one machine word: a bit-vector of at most 64 bits
//! held in a `u64` whose bits above the width are zero.
//!
//! The lane algebra ([`crate::lanes`]) and the compiled straight-line
//! programs ([`crate::program`]) both evaluate through these functions, so
//! the two fast paths share one definition of every operation, and the
//! differential tests against [`Concrete`](crate::bv::Concrete) cover both.

/// The widest bit-vector a word holds.
pub const MAX_WORD_WIDTH: u32 = 64;

/// The low `width` bits set.
#[inline(always)]
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// `x` of `width` bits read as two's complement.
#[inline(always)]
pub fn signed(width: u32, x: u64) -> i64 {
    let up = 64 - width;
    ((x << up) as i64) >> up
}

/// The machine word a lane is held in: `u64` holds any bit-vector up to
/// [`MAX_WORD_WIDTH`] bits, `u32` one of at most 32 bits at twice as many
/// lanes per vector instruction. Every operation below is written once,
/// against this trait, and compiled for both.
pub trait Lane:
    Copy
    + Default
    + Eq
    + Ord
    + Send
    + Sync
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + 'static
{
    /// The word's own width.
    const BITS: u32;
    const ZERO: Self;
    const ONE: Self;
    const ONES: Self;
    /// The low bits of `v` (the caller knows they are all there is).
    fn from_u64(v: u64) -> Self;
    fn to_u64(self) -> u64;
    fn from_bool(b: bool) -> Self;
    fn wrapping_add(self, y: Self) -> Self;
    fn wrapping_sub(self, y: Self) -> Self;
    fn wrapping_mul(self, y: Self) -> Self;
    fn wrapping_neg(self) -> Self;
    fn checked_div(self, y: Self) -> Option<Self>;
    fn checked_rem(self, y: Self) -> Option<Self>;
    /// Shifts by fewer than [`Lane::BITS`] bits.
    fn shl(self, n: u32) -> Self;
    fn shr(self, n: u32) -> Self;
    /// The word read as two's complement, shifted right by fewer than
    /// [`Lane::BITS`] bits, the sign copied in.
    fn sar(self, n: u32) -> Self;
    /// The word read as two's complement, compared.
    fn signed_lt(self, y: Self) -> bool;
    /// The word as a shift amount, saturated at [`Lane::BITS`]: any amount
    /// at or above a width behaves the same in every shift.
    fn amount(self) -> u32;
    /// The count of zero bits above the highest set bit, [`Lane::BITS`]
    /// for 0; the ones below are the word's own bit counts, which the
    /// compiler makes vector instructions (AVX-512's, or AVX2's sequences
    /// of table look-ups).
    fn leading_zeros(self) -> Self;
    /// The count of zero bits below the lowest set bit, [`Lane::BITS`] for 0.
    fn trailing_zeros(self) -> Self;
    fn count_ones(self) -> Self;
    fn reverse_bits(self) -> Self;

    /// The low `width` bits set.
    #[inline(always)]
    fn mask(width: u32) -> Self {
        if width >= Self::BITS {
            Self::ONES
        } else {
            Self::ONE.shl(width).wrapping_sub(Self::ONE)
        }
    }

    /// All ones where bit `i` is set, else 0.
    #[inline(always)]
    fn bit_mask(self, i: u32) -> Self {
        self.shl(Self::BITS - 1 - i).sar(Self::BITS - 1)
    }

    /// `self` of `width` bits sign-extended to the whole word.
    #[inline(always)]
    fn sext(self, width: u32) -> Self {
        let up = Self::BITS - width;
        self.shl(up).sar(up)
    }
}

macro_rules! lane {
    ($u:ty, $i:ty) => {
        impl Lane for $u {
            const BITS: u32 = <$u>::BITS;
            const ZERO: $u = 0;
            const ONE: $u = 1;
            const ONES: $u = <$u>::MAX;
            #[inline(always)]
            fn from_u64(v: u64) -> $u {
                v as $u
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn from_bool(b: bool) -> $u {
                <$u>::from(b)
            }
            #[inline(always)]
            fn wrapping_add(self, y: $u) -> $u {
                <$u>::wrapping_add(self, y)
            }
            #[inline(always)]
            fn wrapping_sub(self, y: $u) -> $u {
                <$u>::wrapping_sub(self, y)
            }
            #[inline(always)]
            fn wrapping_mul(self, y: $u) -> $u {
                <$u>::wrapping_mul(self, y)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> $u {
                <$u>::wrapping_neg(self)
            }
            #[inline(always)]
            fn checked_div(self, y: $u) -> Option<$u> {
                <$u>::checked_div(self, y)
            }
            #[inline(always)]
            fn checked_rem(self, y: $u) -> Option<$u> {
                <$u>::checked_rem(self, y)
            }
            #[inline(always)]
            fn shl(self, n: u32) -> $u {
                self << n
            }
            #[inline(always)]
            fn shr(self, n: u32) -> $u {
                self >> n
            }
            #[inline(always)]
            fn sar(self, n: u32) -> $u {
                ((self as $i) >> n) as $u
            }
            #[inline(always)]
            fn signed_lt(self, y: $u) -> bool {
                (self as $i) < (y as $i)
            }
            #[inline(always)]
            fn amount(self) -> u32 {
                self.min(<$u>::BITS as $u) as u32
            }
            #[inline(always)]
            fn leading_zeros(self) -> $u {
                <$u>::leading_zeros(self) as $u
            }
            #[inline(always)]
            fn trailing_zeros(self) -> $u {
                <$u>::trailing_zeros(self) as $u
            }
            #[inline(always)]
            fn count_ones(self) -> $u {
                <$u>::count_ones(self) as $u
            }
            #[inline(always)]
            fn reverse_bits(self) -> $u {
                <$u>::reverse_bits(self)
            }
        }
    };
}
lane!(u32, i32);
lane!(u64, i64);

/// The magnitude of `x` read as signed, and whether it was negative.
#[inline(always)]
fn magnitude<L: Lane>(width: u32, x: L) -> (L, bool) {
    let negative = x.sext(width).signed_lt(L::ZERO);
    (if negative { x.wrapping_neg() & L::mask(width) } else { x }, negative)
}

/// A binary operation: the bit-vector ones give a value of the operands'
/// width, the comparisons 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op2 {
    Add,
    Sub,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    And,
    Or,
    Xor,
    Shl,
    Lshr,
    Ashr,
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
}

impl Op2 {
    /// Whether the result is a Boolean (0 or 1) rather than a word.
    pub fn is_comparison(self) -> bool {
        matches!(self, Op2::Eq | Op2::Ult | Op2::Ule | Op2::Slt | Op2::Sle)
    }

    /// The operation on operands `x` and `y` of `width` bits (at most the
    /// lane's); the result is cut back to `width` bits (a comparison's to one).
    #[inline(always)]
    pub fn apply<L: Lane>(self, width: u32, x: L, y: L) -> L {
        let m = L::mask(width);
        match self {
            Op2::Add => x.wrapping_add(y) & m,
            Op2::Sub => x.wrapping_sub(y) & m,
            Op2::Mul => x.wrapping_mul(y) & m,
            // QF_BV: division by zero gives all ones.
            Op2::Udiv => x.checked_div(y).unwrap_or(L::ONES) & m,
            // QF_BV: remainder by zero gives the dividend.
            Op2::Urem => x.checked_rem(y).unwrap_or(x),
            // QF_BV defines bvsdiv through bvudiv of the magnitudes.
            Op2::Sdiv => {
                let ((ux, nx), (uy, ny)) = (magnitude(width, x), magnitude(width, y));
                let q = ux.checked_div(uy).unwrap_or(L::ONES);
                (if nx != ny { q.wrapping_neg() } else { q }) & m
            }
            // QF_BV: the remainder takes the sign of the dividend.
            Op2::Srem => {
                let ((ux, nx), (uy, _)) = (magnitude(width, x), magnitude(width, y));
                let r = ux.checked_rem(uy).unwrap_or(ux);
                (if nx { r.wrapping_neg() } else { r }) & m
            }
            Op2::And => x & y,
            Op2::Or => x | y,
            Op2::Xor => x ^ y,
            Op2::Shl => {
                let n = y.amount();
                if n >= width {
                    L::ZERO
                } else {
                    x.shl(n) & m
                }
            }
            Op2::Lshr => {
                let n = y.amount();
                if n >= width {
                    L::ZERO
                } else {
                    x.shr(n)
                }
            }
            Op2::Ashr => x.sext(width).sar(y.amount().min(width - 1)) & m,
            Op2::Eq => L::from_bool(x == y),
            Op2::Ult => L::from_bool(x < y),
            Op2::Ule => L::from_bool(x <= y),
            Op2::Slt => L::from_bool(x.sext(width).signed_lt(y.sext(width))),
            Op2::Sle => L::from_bool(!y.sext(width).signed_lt(x.sext(width))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_values() {
        assert_eq!(Op2::Udiv.apply(8, 7u64, 0), 0xff);
        assert_eq!(Op2::Urem.apply(8, 7u64, 0), 7);
        assert_eq!(Op2::Sdiv.apply(8, 0xf9u64, 2), 0xfd); // -7 / 2 = -3
        assert_eq!(Op2::Srem.apply(8, 0xf9u64, 2), 0xff); // -7 rem 2 = -1
        assert_eq!(Op2::Ashr.apply(8, 0x80u64, 200), 0xff);
        assert_eq!(Op2::Shl.apply(8, 1u64, 8), 0);
        assert_eq!(Op2::Slt.apply(8, 0x80u64, 0x7f), 1);
        assert_eq!(Op2::Add.apply(64, u64::MAX, 1), 0);
    }

    /// Every operation on 32-bit lanes gives what it gives on 64-bit ones,
    /// for every width a 32-bit lane holds.
    #[test]
    fn narrow_lanes_compute_what_wide_ones_do() {
        use Op2::*;
        let ops = [Add, Sub, Mul, Udiv, Urem, Sdiv, Srem, And, Or, Xor, Shl, Lshr, Ashr, Eq, Ult, Ule, Slt, Sle];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for width in 1..=32 {
            let m = mask(width);
            let edges = [0, 1, m, m >> 1, (m >> 1) + 1, u64::from(width), u64::from(width) - 1];
            for _ in 0..400 {
                let pick =
                    |r: u64| if r.is_multiple_of(4) { edges[(r >> 8) as usize % edges.len()] } else { r >> 3 & m };
                let (x, y) = (pick(next()), pick(next()));
                for op in ops {
                    let wide = op.apply(width, x, y);
                    assert_eq!(u64::from(op.apply(width, x as u32, y as u32)), wide, "{op:?} {width} {x:#x} {y:#x}");
                }
            }
        }
    }
}
