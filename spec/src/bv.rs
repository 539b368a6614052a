//! The bit-vector algebra: the trusted core of ptxcheck.
//!
//! Every concrete semantic function is written once, generically, against the
//! [`Algebra`] trait. Two implementations exist: [`Concrete`] here, which
//! computes values, and the symbolic one in `ptx-smt`, which builds SMT-LIB
//! terms. The operations are named after their SMT-LIB counterparts and follow
//! QF_BV semantics exactly: `bvudiv` by zero is all ones, `bvurem` by zero is
//! the dividend, and shifts by an amount at or above the width yield zero (or
//! the sign fill for `bvashr`). There is deliberately no `>>` operator: a right
//! shift is spelled `bvlshr` or `bvashr`.
//!
//! Widths run from 1 to 128 bits. Predicates are 1-bit vectors.

use std::fmt;

/// The widest bit-vector the algebra handles (mul.wide.u64 needs 128).
pub const MAX_WIDTH: u32 = 128;

/// A bit-vector algebra: constants, arithmetic, bitwise logic, shifts,
/// extract/concat/extend, comparisons and if-then-else.
///
/// Both sorts are `Copy`: a concrete value or a handle to an interned term.
pub trait Algebra {
    /// A bit-vector of some width.
    type Bv: Copy + fmt::Debug;
    /// A Boolean.
    type Bool: Copy + fmt::Debug;

    /// The constant `value` (taken modulo 2^width) of `width` bits.
    fn constant(&self, width: u32, value: u128) -> Self::Bv;
    /// The Boolean constant `b`.
    fn bool_constant(&self, b: bool) -> Self::Bool;
    /// The width of `x` in bits.
    fn width(&self, x: Self::Bv) -> u32;

    fn bvadd(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvsub(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvmul(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvudiv(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvurem(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvsdiv(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvsrem(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvneg(&self, a: Self::Bv) -> Self::Bv;

    fn bvnot(&self, a: Self::Bv) -> Self::Bv;
    fn bvand(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvor(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvxor(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;

    fn bvshl(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvlshr(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;
    fn bvashr(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv;

    /// Bits `hi..=lo` of `x`.
    fn extract(&self, hi: u32, lo: u32, x: Self::Bv) -> Self::Bv;
    /// `hi` above `lo`.
    fn concat(&self, hi: Self::Bv, lo: Self::Bv) -> Self::Bv;
    fn zero_extend(&self, extra: u32, x: Self::Bv) -> Self::Bv;
    fn sign_extend(&self, extra: u32, x: Self::Bv) -> Self::Bv;

    fn eq(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool;
    fn bvult(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool;
    fn bvule(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool;
    fn bvslt(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool;
    fn bvsle(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool;

    fn ite(&self, c: Self::Bool, t: Self::Bv, e: Self::Bv) -> Self::Bv;
    fn and(&self, a: Self::Bool, b: Self::Bool) -> Self::Bool;
    fn or(&self, a: Self::Bool, b: Self::Bool) -> Self::Bool;
    fn not(&self, a: Self::Bool) -> Self::Bool;

    // Derived operations, the same on both sides.

    /// A constant of the same width as `like`.
    fn constant_like(&self, like: Self::Bv, value: u128) -> Self::Bv {
        self.constant(self.width(like), value)
    }
    /// All ones, `width` bits.
    fn ones(&self, width: u32) -> Self::Bv {
        self.constant(width, u128::MAX)
    }
    fn bvugt(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool {
        self.bvult(b, a)
    }
    fn bvuge(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool {
        self.bvule(b, a)
    }
    fn bvsgt(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool {
        self.bvslt(b, a)
    }
    fn bvsge(&self, a: Self::Bv, b: Self::Bv) -> Self::Bool {
        self.bvsle(b, a)
    }
    /// `x == 0`.
    fn is_zero(&self, x: Self::Bv) -> Self::Bool {
        let zero = self.constant_like(x, 0);
        self.eq(x, zero)
    }
    /// Bit `i` of `x` as a 1-bit vector.
    fn bit(&self, x: Self::Bv, i: u32) -> Self::Bv {
        self.extract(i, i, x)
    }
    /// A 1-bit vector (a predicate) as a Boolean.
    fn is_set(&self, bit: Self::Bv) -> Self::Bool {
        debug_assert_eq!(self.width(bit), 1);
        let one = self.constant(1, 1);
        self.eq(bit, one)
    }
    /// A Boolean as a 1-bit vector (a predicate).
    fn bool_to_bv(&self, b: Self::Bool) -> Self::Bv {
        let (one, zero) = (self.constant(1, 1), self.constant(1, 0));
        self.ite(b, one, zero)
    }
    /// Resize to `width` bits by zero extension or truncation.
    fn zext_or_trunc(&self, x: Self::Bv, width: u32) -> Self::Bv {
        let w = self.width(x);
        if width > w {
            self.zero_extend(width - w, x)
        } else if width < w {
            self.extract(width - 1, 0, x)
        } else {
            x
        }
    }
    /// Exclusive or of two Booleans.
    fn bool_xor(&self, a: Self::Bool, b: Self::Bool) -> Self::Bool {
        let (na, nb) = (self.not(a), self.not(b));
        self.or(self.and(a, nb), self.and(na, b))
    }
    /// Widen by `extra` bits: sign extension when `signed`, else zero extension.
    fn extend(&self, signed: bool, extra: u32, x: Self::Bv) -> Self::Bv {
        if signed {
            self.sign_extend(extra, x)
        } else {
            self.zero_extend(extra, x)
        }
    }
    /// `a < b`, signed or unsigned.
    fn less(&self, signed: bool, a: Self::Bv, b: Self::Bv) -> Self::Bool {
        if signed {
            self.bvslt(a, b)
        } else {
            self.bvult(a, b)
        }
    }
    /// Unsigned minimum.
    fn umin(&self, a: Self::Bv, b: Self::Bv) -> Self::Bv {
        let lt = self.bvult(a, b);
        self.ite(lt, a, b)
    }
}

/// A concrete bit-vector value: `width` bits, stored in the low bits of
/// `bits`; the bits above the width are always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitVec {
    width: u32,
    bits: u128,
}

/// The mask of the low `width` bits.
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl BitVec {
    /// `value` modulo 2^width.
    pub fn new(width: u32, value: u128) -> BitVec {
        assert!((1..=MAX_WIDTH).contains(&width), "bit-vector width {width} outside 1..={MAX_WIDTH}");
        BitVec { width, bits: value & mask(width) }
    }
    pub fn width(self) -> u32 {
        self.width
    }
    /// The value read as unsigned.
    pub fn unsigned(self) -> u128 {
        self.bits
    }
    /// The value read as two's complement.
    pub fn signed(self) -> i128 {
        // The sign bit moved to bit 127 and shifted back arithmetically:
        // 2^width itself does not fit an i128 at width 127.
        let up = 128 - self.width;
        ((self.bits << up) as i128) >> up
    }
    /// The most significant bit.
    pub fn msb(self) -> bool {
        (self.bits >> (self.width - 1)) & 1 == 1
    }
    /// Zero-padded hexadecimal with `0x`, as many digits as the width needs.
    pub fn hex(self) -> String {
        hex(self.bits, self.width)
    }
    /// The SMT-LIB literal: `#x...` when the width is a multiple of 4, else `#b...`.
    pub fn smtlib(self) -> String {
        let w = self.width as usize;
        if w.is_multiple_of(4) {
            format!("#x{:0width$x}", self.bits, width = w / 4)
        } else {
            format!("#b{:0w$b}", self.bits)
        }
    }
    /// Parse an SMT-LIB bit-vector literal (`#x..`, `#b..`, or `(_ bvN W)`).
    pub fn parse_smtlib(text: &str) -> Option<BitVec> {
        let text = text.trim();
        if let Some(hex) = text.strip_prefix("#x") {
            let w = u32::try_from(hex.len()).ok()? * 4;
            let v = u128::from_str_radix(hex, 16).ok()?;
            (1..=MAX_WIDTH).contains(&w).then(|| BitVec::new(w, v))
        } else if let Some(bin) = text.strip_prefix("#b") {
            let w = u32::try_from(bin.len()).ok()?;
            let v = u128::from_str_radix(bin, 2).ok()?;
            (1..=MAX_WIDTH).contains(&w).then(|| BitVec::new(w, v))
        } else {
            let inner = text.strip_prefix("(_")?.strip_suffix(')')?;
            let mut parts = inner.split_whitespace();
            let v = parts.next()?.strip_prefix("bv")?.parse::<u128>().ok()?;
            let w = parts.next()?.parse::<u32>().ok()?;
            (parts.next().is_none() && (1..=MAX_WIDTH).contains(&w)).then(|| BitVec::new(w, v))
        }
    }
}

/// `value` as the reports, vectors and result files write it: `0x`, then
/// zero-padded hexadecimal with as many digits as `width` needs.
pub fn hex(value: u128, width: u32) -> String {
    let digits = width.div_ceil(4).max(1) as usize;
    format!("0x{value:0digits$x}")
}

/// A hexadecimal value as [`hex`] writes it (`0x` optional, surrounding
/// space ignored); `None` if it is not one or does not fit 128 bits.
pub fn parse_hex(text: &str) -> Option<u128> {
    let text = text.trim();
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).unwrap_or(text);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        return Some(0);
    }
    u128::from_str_radix(significant, 16).ok()
}

impl fmt::Debug for BitVec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.hex(), self.width)
    }
}

impl serde::Serialize for BitVec {
    /// As its hexadecimal text, which keeps the width visible.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.hex())
    }
}

impl fmt::Display for BitVec {
    /// `0x80 (128, -128)` for a value whose signed reading differs, else `0x05 (5)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.msb() && self.width > 1 {
            write!(f, "{} ({}, {})", self.hex(), self.unsigned(), self.signed())
        } else {
            write!(f, "{} ({})", self.hex(), self.unsigned())
        }
    }
}

/// The concrete implementation of the algebra: computes values.
#[derive(Clone, Copy, Debug, Default)]
pub struct Concrete;

impl Concrete {
    fn same(a: BitVec, b: BitVec) -> u32 {
        assert_eq!(a.width, b.width, "operands of different widths");
        a.width
    }
    /// Shift amount as a number, saturated: any amount at or above the width
    /// behaves the same in every shift.
    fn amount(b: BitVec) -> u32 {
        b.bits.min(u128::from(MAX_WIDTH)) as u32
    }
}

impl Algebra for Concrete {
    type Bv = BitVec;
    type Bool = bool;

    fn constant(&self, width: u32, value: u128) -> BitVec {
        BitVec::new(width, value)
    }
    fn bool_constant(&self, b: bool) -> bool {
        b
    }
    fn width(&self, x: BitVec) -> u32 {
        x.width
    }
    fn bvadd(&self, a: BitVec, b: BitVec) -> BitVec {
        BitVec::new(Self::same(a, b), a.bits.wrapping_add(b.bits))
    }
    fn bvsub(&self, a: BitVec, b: BitVec) -> BitVec {
        BitVec::new(Self::same(a, b), a.bits.wrapping_sub(b.bits))
    }
    fn bvmul(&self, a: BitVec, b: BitVec) -> BitVec {
        BitVec::new(Self::same(a, b), a.bits.wrapping_mul(b.bits))
    }
    // QF_BV: division by zero gives all ones.
    fn bvudiv(&self, a: BitVec, b: BitVec) -> BitVec {
        let w = Self::same(a, b);
        match a.bits.checked_div(b.bits) {
            Some(q) => BitVec::new(w, q),
            None => BitVec::new(w, u128::MAX),
        }
    }
    // QF_BV: remainder by zero gives the dividend.
    fn bvurem(&self, a: BitVec, b: BitVec) -> BitVec {
        let w = Self::same(a, b);
        match a.bits.checked_rem(b.bits) {
            Some(r) => BitVec::new(w, r),
            None => a,
        }
    }
    // QF_BV defines bvsdiv through bvudiv of the magnitudes.
    fn bvsdiv(&self, a: BitVec, b: BitVec) -> BitVec {
        let (na, nb) = (a.msb(), b.msb());
        let ua = if na { self.bvneg(a) } else { a };
        let ub = if nb { self.bvneg(b) } else { b };
        let q = self.bvudiv(ua, ub);
        if na != nb {
            self.bvneg(q)
        } else {
            q
        }
    }
    // QF_BV: the remainder takes the sign of the dividend.
    fn bvsrem(&self, a: BitVec, b: BitVec) -> BitVec {
        let (na, nb) = (a.msb(), b.msb());
        let ua = if na { self.bvneg(a) } else { a };
        let ub = if nb { self.bvneg(b) } else { b };
        let r = self.bvurem(ua, ub);
        if na {
            self.bvneg(r)
        } else {
            r
        }
    }
    fn bvneg(&self, a: BitVec) -> BitVec {
        BitVec::new(a.width, a.bits.wrapping_neg())
    }
    fn bvnot(&self, a: BitVec) -> BitVec {
        BitVec::new(a.width, !a.bits)
    }
    fn bvand(&self, a: BitVec, b: BitVec) -> BitVec {
        BitVec::new(Self::same(a, b), a.bits & b.bits)
    }
    fn bvor(&self, a: BitVec, b: BitVec) -> BitVec {
        BitVec::new(Self::same(a, b), a.bits | b.bits)
    }
    fn bvxor(&self, a: BitVec, b: BitVec) -> BitVec {
        BitVec::new(Self::same(a, b), a.bits ^ b.bits)
    }
    fn bvshl(&self, a: BitVec, b: BitVec) -> BitVec {
        let w = Self::same(a, b);
        let n = Self::amount(b);
        BitVec::new(w, if n >= w { 0 } else { a.bits << n })
    }
    fn bvlshr(&self, a: BitVec, b: BitVec) -> BitVec {
        let w = Self::same(a, b);
        let n = Self::amount(b);
        BitVec::new(w, if n >= w { 0 } else { a.bits >> n })
    }
    fn bvashr(&self, a: BitVec, b: BitVec) -> BitVec {
        let w = Self::same(a, b);
        let n = Self::amount(b).min(w - 1);
        // Shift the sign-extended 128-bit value, then cut back to the width.
        BitVec::new(w, (a.signed() >> n) as u128)
    }
    fn extract(&self, hi: u32, lo: u32, x: BitVec) -> BitVec {
        assert!(hi >= lo && hi < x.width, "extract {hi}..{lo} of {} bits", x.width);
        BitVec::new(hi - lo + 1, x.bits >> lo)
    }
    fn concat(&self, hi: BitVec, lo: BitVec) -> BitVec {
        let w = hi.width + lo.width;
        assert!(w <= MAX_WIDTH, "concat wider than {MAX_WIDTH} bits");
        BitVec::new(w, (hi.bits << lo.width) | lo.bits)
    }
    fn zero_extend(&self, extra: u32, x: BitVec) -> BitVec {
        BitVec::new(x.width + extra, x.bits)
    }
    fn sign_extend(&self, extra: u32, x: BitVec) -> BitVec {
        BitVec::new(x.width + extra, x.signed() as u128)
    }
    fn eq(&self, a: BitVec, b: BitVec) -> bool {
        Self::same(a, b);
        a.bits == b.bits
    }
    fn bvult(&self, a: BitVec, b: BitVec) -> bool {
        Self::same(a, b);
        a.bits < b.bits
    }
    fn bvule(&self, a: BitVec, b: BitVec) -> bool {
        Self::same(a, b);
        a.bits <= b.bits
    }
    fn bvslt(&self, a: BitVec, b: BitVec) -> bool {
        Self::same(a, b);
        a.signed() < b.signed()
    }
    fn bvsle(&self, a: BitVec, b: BitVec) -> bool {
        Self::same(a, b);
        a.signed() <= b.signed()
    }
    fn ite(&self, c: bool, t: BitVec, e: BitVec) -> BitVec {
        Self::same(t, e);
        if c {
            t
        } else {
            e
        }
    }
    fn and(&self, a: bool, b: bool) -> bool {
        a && b
    }
    fn or(&self, a: bool, b: bool) -> bool {
        a || b
    }
    fn not(&self, a: bool) -> bool {
        !a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(w: u32, v: u128) -> BitVec {
        BitVec::new(w, v)
    }

    #[test]
    fn hex_pads_to_the_width_and_parses_back() {
        assert_eq!(hex(0x1, 32), "0x00000001");
        assert_eq!(hex(0x1, 1), "0x1");
        assert_eq!(hex(0x1f, 5), "0x1f");
        assert_eq!(bv(16, 0xab).hex(), "0x00ab");
        assert_eq!(parse_hex(" 0x00ab "), Some(0xab));
        assert_eq!(parse_hex("0XAB"), Some(0xab));
        assert_eq!(parse_hex("ab"), Some(0xab));
        assert_eq!(parse_hex(&format!("0x{}", "0".repeat(40))), Some(0), "leading zeros beyond 128 bits");
        for bad in ["", "0x", "0x-1", "+1", "0xg", &"f".repeat(33)] {
            assert_eq!(parse_hex(bad), None, "{bad:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn hex_round_trips(w in 1u32..=128, v: u128) {
            let v = v & mask(w);
            proptest::prop_assert_eq!(parse_hex(&hex(v, w)), Some(v));
        }
    }

    #[test]
    fn division_by_zero_follows_qf_bv() {
        let c = Concrete;
        assert_eq!(c.bvudiv(bv(8, 7), bv(8, 0)), bv(8, 0xff));
        assert_eq!(c.bvurem(bv(8, 7), bv(8, 0)), bv(8, 7));
        // bvsdiv of a negative dividend by zero: the magnitude divides to all ones, negated to 1.
        assert_eq!(c.bvsdiv(bv(8, 0xf9), bv(8, 0)), bv(8, 1));
        assert_eq!(c.bvsdiv(bv(8, 7), bv(8, 0)), bv(8, 0xff));
        assert_eq!(c.bvsrem(bv(8, 0xf9), bv(8, 0)), bv(8, 0xf9));
    }

    #[test]
    fn signed_division_truncates_toward_zero() {
        let c = Concrete;
        // -7 / 2 = -3, -7 % 2 = -1
        assert_eq!(c.bvsdiv(bv(8, 0xf9), bv(8, 2)), bv(8, 0xfd));
        assert_eq!(c.bvsrem(bv(8, 0xf9), bv(8, 2)), bv(8, 0xff));
        // -128 / -1 overflows to -128
        assert_eq!(c.bvsdiv(bv(8, 0x80), bv(8, 0xff)), bv(8, 0x80));
    }

    #[test]
    fn shifts_at_and_above_width() {
        let c = Concrete;
        assert_eq!(c.bvshl(bv(32, 1), bv(32, 31)), bv(32, 0x8000_0000));
        assert_eq!(c.bvshl(bv(32, 1), bv(32, 32)), bv(32, 0));
        assert_eq!(c.bvlshr(bv(32, u128::MAX), bv(32, 0xffff_ffff)), bv(32, 0));
        assert_eq!(c.bvashr(bv(32, 0x8000_0000), bv(32, 33)), bv(32, 0xffff_ffff));
        assert_eq!(c.bvashr(bv(128, 1 << 127), bv(128, 127)), bv(128, u128::MAX));
        assert_eq!(c.bvashr(bv(1, 1), bv(1, 1)), bv(1, 1));
    }

    #[test]
    fn literals_round_trip() {
        for v in [bv(1, 1), bv(3, 5), bv(8, 0xa5), bv(128, u128::MAX), bv(32, 0)] {
            assert_eq!(BitVec::parse_smtlib(&v.smtlib()), Some(v));
        }
        assert_eq!(BitVec::parse_smtlib("(_ bv5 8)"), Some(bv(8, 5)));
        assert_eq!(BitVec::parse_smtlib("#xzz"), None);
        assert_eq!(bv(8, 0x80).to_string(), "0x80 (128, -128)");
        assert_eq!(bv(16, 5).to_string(), "0x0005 (5)");
    }
}
