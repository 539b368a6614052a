//! The bit-vector algebra evaluated on [`LANES`] inputs at once.
//!
//! The exhaustive cross-check runs both models on up to 2^32 inputs. One
//! input at a time through [`Concrete`](crate::bv::Concrete) spends most of
//! its time on per-call overhead; here every operation works on a whole
//! column of values in one loop that the compiler vectorises, so the overhead
//! is paid once per [`LANES`] inputs. The semantics are QF_BV's, operation
//! for operation the same as `Concrete` (a differential test holds them
//! together), restricted to widths of at most 64 bits.
//!
//! Nothing here branches on a value: a Boolean is a mask with one bit per
//! lane and `ite` selects lane by lane, exactly as the generic models expect.

use crate::bv::Algebra;
use crate::word::{mask, signed, Op2};

/// Inputs evaluated together.
pub const LANES: usize = 64;

/// The widest bit-vector a lane holds.
pub const MAX_LANE_WIDTH: u32 = crate::word::MAX_WORD_WIDTH;

/// [`LANES`] values of one width; bits above the width are always zero.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct LaneBv {
    width: u32,
    values: [u64; LANES],
}

/// [`LANES`] Booleans, lane `i` in bit `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneBool(pub u64);

impl std::fmt::Debug for LaneBv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LaneBv<{}>{:x?}", self.width, &self.values[..4])?;
        f.write_str("..")
    }
}

impl LaneBv {
    /// Lane `i` holds `values[i]` modulo 2^width.
    pub fn new(width: u32, mut values: [u64; LANES]) -> LaneBv {
        assert!((1..=MAX_LANE_WIDTH).contains(&width), "lane width {width} outside 1..={MAX_LANE_WIDTH}");
        let m = mask(width);
        for v in &mut values {
            *v &= m;
        }
        LaneBv { width, values }
    }
    pub fn width(&self) -> u32 {
        self.width
    }
    /// The value in lane `i`.
    pub fn lane(&self, i: usize) -> u64 {
        self.values[i]
    }
    /// The lanes where `self` and `other` differ, as a mask.
    pub fn differ(&self, other: &LaneBv) -> u64 {
        let mut out = 0u64;
        for (i, (a, b)) in self.values.iter().zip(&other.values).enumerate() {
            out |= u64::from(a != b) << i;
        }
        out
    }
}

/// The algebra on [`LANES`] inputs at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lanes;

impl Lanes {
    fn same(a: &LaneBv, b: &LaneBv) -> u32 {
        assert_eq!(a.width, b.width, "operands of different widths");
        a.width
    }
    /// Lane by lane `op`, on operands of one width (`word::Op2::apply`).
    fn bin(op: Op2, a: LaneBv, b: LaneBv) -> LaneBv {
        let w = Self::same(&a, &b);
        LaneBv { width: w, values: std::array::from_fn(|i| op.apply(w, a.values[i], b.values[i])) }
    }
    fn map1(width: u32, a: LaneBv, f: impl Fn(u64) -> u64) -> LaneBv {
        let m = mask(width);
        LaneBv { width, values: std::array::from_fn(|i| f(a.values[i]) & m) }
    }
    /// Lane by lane comparison, as a mask.
    fn compare(op: Op2, a: LaneBv, b: LaneBv) -> LaneBool {
        let w = Self::same(&a, &b);
        let mut out = 0u64;
        for i in 0..LANES {
            out |= op.apply(w, a.values[i], b.values[i]) << i;
        }
        LaneBool(out)
    }
}

impl Algebra for Lanes {
    type Bv = LaneBv;
    type Bool = LaneBool;

    fn constant(&self, width: u32, value: u128) -> LaneBv {
        LaneBv::new(width, [value as u64; LANES])
    }
    fn bool_constant(&self, b: bool) -> LaneBool {
        LaneBool(if b { u64::MAX } else { 0 })
    }
    fn width(&self, x: LaneBv) -> u32 {
        x.width
    }
    fn bvadd(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Add, a, b)
    }
    fn bvsub(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Sub, a, b)
    }
    fn bvmul(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Mul, a, b)
    }
    fn bvudiv(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Udiv, a, b)
    }
    fn bvurem(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Urem, a, b)
    }
    fn bvsdiv(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Sdiv, a, b)
    }
    fn bvsrem(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Srem, a, b)
    }
    fn bvneg(&self, a: LaneBv) -> LaneBv {
        Self::map1(a.width, a, u64::wrapping_neg)
    }
    fn bvnot(&self, a: LaneBv) -> LaneBv {
        Self::map1(a.width, a, |x| !x)
    }
    fn bvand(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::And, a, b)
    }
    fn bvor(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Or, a, b)
    }
    fn bvxor(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Xor, a, b)
    }
    fn bvshl(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Shl, a, b)
    }
    fn bvlshr(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Lshr, a, b)
    }
    fn bvashr(&self, a: LaneBv, b: LaneBv) -> LaneBv {
        Self::bin(Op2::Ashr, a, b)
    }
    fn extract(&self, hi: u32, lo: u32, x: LaneBv) -> LaneBv {
        assert!(hi >= lo && hi < x.width, "extract {hi}..{lo} of {} bits", x.width);
        Self::map1(hi - lo + 1, x, |v| v >> lo)
    }
    fn concat(&self, hi: LaneBv, lo: LaneBv) -> LaneBv {
        let w = hi.width + lo.width;
        assert!(w <= MAX_LANE_WIDTH, "concat wider than {MAX_LANE_WIDTH} bits");
        LaneBv { width: w, values: std::array::from_fn(|i| (hi.values[i] << lo.width) | lo.values[i]) }
    }
    fn zero_extend(&self, extra: u32, x: LaneBv) -> LaneBv {
        let w = x.width + extra;
        assert!(w <= MAX_LANE_WIDTH, "zero_extend to more than {MAX_LANE_WIDTH} bits");
        LaneBv { width: w, values: x.values }
    }
    fn sign_extend(&self, extra: u32, x: LaneBv) -> LaneBv {
        let w = x.width + extra;
        assert!(w <= MAX_LANE_WIDTH, "sign_extend to more than {MAX_LANE_WIDTH} bits");
        Self::map1(w, x, |v| signed(x.width, v) as u64)
    }
    fn eq(&self, a: LaneBv, b: LaneBv) -> LaneBool {
        Self::compare(Op2::Eq, a, b)
    }
    fn bvult(&self, a: LaneBv, b: LaneBv) -> LaneBool {
        Self::compare(Op2::Ult, a, b)
    }
    fn bvule(&self, a: LaneBv, b: LaneBv) -> LaneBool {
        Self::compare(Op2::Ule, a, b)
    }
    fn bvslt(&self, a: LaneBv, b: LaneBv) -> LaneBool {
        Self::compare(Op2::Slt, a, b)
    }
    fn bvsle(&self, a: LaneBv, b: LaneBv) -> LaneBool {
        Self::compare(Op2::Sle, a, b)
    }
    fn ite(&self, c: LaneBool, t: LaneBv, e: LaneBv) -> LaneBv {
        let w = Self::same(&t, &e);
        let values = std::array::from_fn(|i| {
            // All ones where lane i's condition holds.
            let pick = ((c.0 >> i) & 1).wrapping_neg();
            (t.values[i] & pick) | (e.values[i] & !pick)
        });
        LaneBv { width: w, values }
    }
    fn and(&self, a: LaneBool, b: LaneBool) -> LaneBool {
        LaneBool(a.0 & b.0)
    }
    fn or(&self, a: LaneBool, b: LaneBool) -> LaneBool {
        LaneBool(a.0 | b.0)
    }
    fn not(&self, a: LaneBool) -> LaneBool {
        LaneBool(!a.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::{BitVec, Concrete};
    use proptest::prelude::*;

    /// Edge values of `width` bits, then `extra` spread into the remaining lanes.
    fn column(width: u32, extra: &[u64]) -> LaneBv {
        let m = mask(width);
        let edges = [0, 1, 2, m, m - 1, m >> 1, (m >> 1) + 1, (m >> 1).wrapping_sub(1), width as u64, 5];
        let mut values = [0u64; LANES];
        for (i, v) in values.iter_mut().enumerate() {
            *v = if i < edges.len() { edges[i] } else { extra[i % extra.len()].rotate_left(i as u32) };
        }
        LaneBv::new(width, values)
    }

    /// Every lane of a lane operation against the same operation in `Concrete`.
    fn agree(width: u32, a: &LaneBv, b: &LaneBv) {
        let (l, c) = (Lanes, Concrete);
        let bv = |x: &LaneBv, i: usize| BitVec::new(x.width, u128::from(x.lane(i)));
        type Op<A> = fn(&A, <A as Algebra>::Bv, <A as Algebra>::Bv) -> <A as Algebra>::Bv;
        let binary: [(&str, Op<Lanes>, Op<Concrete>); 13] = [
            ("bvadd", Lanes::bvadd, Concrete::bvadd),
            ("bvsub", Lanes::bvsub, Concrete::bvsub),
            ("bvmul", Lanes::bvmul, Concrete::bvmul),
            ("bvudiv", Lanes::bvudiv, Concrete::bvudiv),
            ("bvurem", Lanes::bvurem, Concrete::bvurem),
            ("bvsdiv", Lanes::bvsdiv, Concrete::bvsdiv),
            ("bvsrem", Lanes::bvsrem, Concrete::bvsrem),
            ("bvand", Lanes::bvand, Concrete::bvand),
            ("bvor", Lanes::bvor, Concrete::bvor),
            ("bvxor", Lanes::bvxor, Concrete::bvxor),
            ("bvshl", Lanes::bvshl, Concrete::bvshl),
            ("bvlshr", Lanes::bvlshr, Concrete::bvlshr),
            ("bvashr", Lanes::bvashr, Concrete::bvashr),
        ];
        for (name, lane_op, concrete_op) in binary {
            let r = lane_op(&l, *a, *b);
            for i in 0..LANES {
                assert_eq!(bv(&r, i), concrete_op(&c, bv(a, i), bv(b, i)), "{name} width {width} lane {i}");
            }
        }
        type Cmp<A> = fn(&A, <A as Algebra>::Bv, <A as Algebra>::Bv) -> <A as Algebra>::Bool;
        let compare: [(&str, Cmp<Lanes>, Cmp<Concrete>); 5] = [
            ("eq", Lanes::eq, Concrete::eq),
            ("bvult", Lanes::bvult, Concrete::bvult),
            ("bvule", Lanes::bvule, Concrete::bvule),
            ("bvslt", Lanes::bvslt, Concrete::bvslt),
            ("bvsle", Lanes::bvsle, Concrete::bvsle),
        ];
        for (name, lane_op, concrete_op) in compare {
            let r = lane_op(&l, *a, *b);
            for i in 0..LANES {
                assert_eq!((r.0 >> i) & 1 == 1, concrete_op(&c, bv(a, i), bv(b, i)), "{name} width {width} lane {i}");
            }
        }
        let lt = l.bvult(*a, *b);
        let (sel, neg, not) = (l.ite(lt, *a, *b), l.bvneg(*a), l.bvnot(*a));
        for i in 0..LANES {
            let (x, y) = (bv(a, i), bv(b, i));
            assert_eq!(bv(&sel, i), c.ite(c.bvult(x, y), x, y), "ite width {width} lane {i}");
            assert_eq!(bv(&neg, i), c.bvneg(x), "bvneg width {width} lane {i}");
            assert_eq!(bv(&not, i), c.bvnot(x), "bvnot width {width} lane {i}");
        }
        let hi = width - 1;
        for (h, lo) in [(hi, 0), (hi, hi), (hi / 2, 0), (hi, hi / 2)] {
            let r = l.extract(h, lo, *a);
            for i in 0..LANES {
                assert_eq!(bv(&r, i), c.extract(h, lo, bv(a, i)), "extract {h} {lo} width {width} lane {i}");
            }
        }
        if width <= 32 {
            let (cat, zx, sx) = (l.concat(*a, *b), l.zero_extend(width, *a), l.sign_extend(width, *a));
            for i in 0..LANES {
                let (x, y) = (bv(a, i), bv(b, i));
                assert_eq!(bv(&cat, i), c.concat(x, y), "concat width {width} lane {i}");
                assert_eq!(bv(&zx, i), c.zero_extend(width, x), "zero_extend width {width} lane {i}");
                assert_eq!(bv(&sx, i), c.sign_extend(width, x), "sign_extend width {width} lane {i}");
            }
        }
    }

    #[test]
    fn lanes_agree_with_concrete_on_edge_values() {
        for width in [1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64] {
            let a = column(width, &[0x0123_4567_89ab_cdef]);
            let mut b = column(width, &[0xfedc_ba98_7654_3210]);
            // Every edge against every edge, by rotating the second column.
            for _ in 0..10 {
                agree(width, &a, &b);
                b.values.rotate_left(1);
            }
        }
    }

    proptest! {
        #[test]
        fn lanes_agree_with_concrete(width in 1u32..=64, xs in prop::collection::vec(any::<u64>(), 1..8),
                                     ys in prop::collection::vec(any::<u64>(), 1..8)) {
            agree(width, &column(width, &xs), &column(width, &ys));
        }
    }
}
