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

/// A shift amount as a number, saturated: any amount at or above the width
/// behaves the same in every shift.
#[inline(always)]
fn amount(y: u64) -> u32 {
    y.min(64) as u32
}

/// The magnitude of `x` read as signed, and whether it was negative.
#[inline(always)]
fn magnitude(width: u32, x: u64) -> (u64, bool) {
    let negative = signed(width, x) < 0;
    (if negative { x.wrapping_neg() & mask(width) } else { x }, negative)
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

    /// The operation on operands `x` and `y` of `width` bits; the result is
    /// cut back to `width` bits (a comparison's to one).
    #[inline(always)]
    pub fn apply(self, width: u32, x: u64, y: u64) -> u64 {
        let m = mask(width);
        match self {
            Op2::Add => x.wrapping_add(y) & m,
            Op2::Sub => x.wrapping_sub(y) & m,
            Op2::Mul => x.wrapping_mul(y) & m,
            // QF_BV: division by zero gives all ones.
            Op2::Udiv => x.checked_div(y).unwrap_or(u64::MAX) & m,
            // QF_BV: remainder by zero gives the dividend.
            Op2::Urem => x.checked_rem(y).unwrap_or(x),
            // QF_BV defines bvsdiv through bvudiv of the magnitudes.
            Op2::Sdiv => {
                let ((ux, nx), (uy, ny)) = (magnitude(width, x), magnitude(width, y));
                let q = ux.checked_div(uy).unwrap_or(u64::MAX);
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
                if amount(y) >= width {
                    0
                } else {
                    (x << y) & m
                }
            }
            Op2::Lshr => {
                if amount(y) >= width {
                    0
                } else {
                    x >> y
                }
            }
            Op2::Ashr => (signed(width, x) >> amount(y).min(width - 1)) as u64 & m,
            Op2::Eq => u64::from(x == y),
            Op2::Ult => u64::from(x < y),
            Op2::Ule => u64::from(x <= y),
            Op2::Slt => u64::from(signed(width, x) < signed(width, y)),
            Op2::Sle => u64::from(signed(width, x) <= signed(width, y)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_values() {
        assert_eq!(Op2::Udiv.apply(8, 7, 0), 0xff);
        assert_eq!(Op2::Urem.apply(8, 7, 0), 7);
        assert_eq!(Op2::Sdiv.apply(8, 0xf9, 2), 0xfd); // -7 / 2 = -3
        assert_eq!(Op2::Srem.apply(8, 0xf9, 2), 0xff); // -7 rem 2 = -1
        assert_eq!(Op2::Ashr.apply(8, 0x80, 200), 0xff);
        assert_eq!(Op2::Shl.apply(8, 1, 8), 0);
        assert_eq!(Op2::Slt.apply(8, 0x80, 0x7f), 1);
        assert_eq!(Op2::Add.apply(64, u64::MAX, 1), 0);
    }
}
