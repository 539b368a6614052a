//! Section 9.7.1.14-18: the Semantics of popc, clz, bfind, fns and brev.
//! Each loop is unrolled to its bound; a `while` whose condition has turned
//! false leaves the state unchanged in the remaining steps.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::{defined, Inputs, Out, Outputs};

pub fn encode<A: Algebra>(v: &BitCount, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    match *v {
        BitCount::Popc(_) => vec![defined(sym, popc(sym, ins.get("a")))],
        BitCount::Clz(_) => vec![defined(sym, clz(sym, ins.get("a")))],
        BitCount::Bfind { ty, shiftamt } => vec![defined(sym, bfind(sym, ty.is_signed(), shiftamt, ins.get("a")))],
        BitCount::Fns => vec![fns(sym, ins.get("mask"), ins.get("base"), ins.get("offset"))],
        BitCount::Brev(_) => vec![defined(sym, brev(sym, ins.get("a")))],
    }
}

/// 9.7.1.14: the loop counts a's low bit into d and shifts a right by one,
/// until a is 0. Iteration k tests bit k of the original a (the loop has shifted it down k
/// times), and once a is 0 no further bit is set: so d counts the set bits
/// of a, one term per iteration. Summed in 7 bits, widened to the .u32 d;
/// this shape, rather than a guarded shift per step, keeps the proof
/// against the closed form fast.
fn popc<A: Algebra>(sym: &A, a: A::Bv) -> A::Bv {
    let w = sym.width(a);
    let mut d = sym.constant(7, 0);
    for k in 0..w {
        d = sym.bvadd(d, sym.zero_extend(6, sym.bit(a, k)));
    }
    sym.zero_extend(25, d)
}

/// 9.7.1.15: the loop counts d up and shifts a left by one while d is below
/// max and a's bit under mask is 0, with max the width and mask its msb
/// (assumption clz-mask-test).
fn clz<A: Algebra>(sym: &A, a: A::Bv) -> A::Bv {
    let w = sym.width(a);
    let max = sym.constant(32, u128::from(w));
    let mask = sym.constant_like(a, 1u128 << (w - 1));
    let (one, zero) = (sym.constant_like(a, 1), sym.constant_like(a, 0));
    let mut a = a;
    let mut d = sym.constant(32, 0);
    for _ in 0..w {
        let running = sym.and(sym.bvult(d, max), sym.eq(sym.bvand(a, mask), zero));
        d = sym.ite(running, sym.bvadd(d, sym.constant(32, 1)), d);
        a = sym.ite(running, sym.bvshl(a, one), a);
    }
    d
}

/// 9.7.1.16: a negative signed input is complemented first (the comment
/// that says otherwise is the finding bfind-negate-comment). d is the
/// highest set bit's position, scanning down from the msb, or 0xffffffff
/// where no bit is set; .shiftamt turns a position found into its distance
/// from the msb.
fn bfind<A: Algebra>(sym: &A, signed: bool, shiftamt: bool, a: A::Bv) -> A::Bv {
    let w = sym.width(a);
    let msb = w - 1;
    let zero = sym.constant_like(a, 0);
    // (1<<msb) at the operand's width (assumption bfind-shift-width).
    let bit_mask = |i: u32| sym.constant_like(a, 1u128 << i);
    let a = if signed {
        let negative = sym.not(sym.eq(sym.bvand(a, bit_mask(msb)), zero));
        sym.ite(negative, sym.bvnot(a), a)
    } else {
        a
    };
    let not_found = sym.constant(32, 0xffff_ffff);
    // The loop breaks at the first hit from the top: build it from the bottom.
    let mut d = not_found;
    for i in 0..=msb {
        let hit = sym.not(sym.eq(sym.bvand(a, bit_mask(i)), zero));
        d = sym.ite(hit, sym.constant(32, u128::from(i)), d);
    }
    if shiftamt {
        let found = sym.not(sym.eq(d, not_found));
        sym.ite(found, sym.bvsub(sym.constant(32, u128::from(msb)), d), d)
    } else {
        d
    }
}

/// 9.7.1.18: d is a with the order of its bits reversed.
fn brev<A: Algebra>(sym: &A, a: A::Bv) -> A::Bv {
    let msb = sym.width(a) - 1;
    // d[0] = a[msb] ends up lowest: build from d[msb] (= a[0]) down.
    let mut d = sym.bit(a, 0);
    for i in (0..msb).rev() {
        d = sym.concat(d, sym.bit(a, msb - i));
    }
    d
}

/// 9.7.1.17. `count = |offset| - 1` is exact (33 bits: assumption
/// fns-most-negative-offset). base > 31 is undefined (assumption
/// fns-base-above-31-undefined). Three changes of shape keep the proof
/// tractable without changing the function: the loop is unrolled once for
/// each value `inc` can take, the sign of offset picking one; step t visits
/// pos = base + t*inc, so mask[pos] is read as bit t of the mask shifted
/// once to put base at bit 0 (reversed for inc = -1); and as the loop visits
/// at most 32 positions and lowers count by at most 1 at each, a count of 32
/// or more behaves as 32 and is held in 6 bits.
fn fns<A: Algebra>(sym: &A, mask: A::Bv, base: A::Bv, offset: A::Bv) -> Out<A::Bv, A::Bool> {
    let not_found = sym.constant(32, 0xffff_ffff);
    let zero32 = sym.constant(32, 0);
    // An offset of 0 asks about base itself: base where its mask bit is
    // set, else nothing found.
    let mask_at_base = sym.eq(sym.extract(0, 0, sym.bvlshr(mask, base)), sym.constant(1, 1));
    let at_base = sym.ite(mask_at_base, base, not_found);
    let walks = FnsWalks::of(sym, mask, base, offset);
    let walk =
        |bits: A::Bv, up: bool| (0..32).fold(FnsWalk::start(sym, walks.count), |w, t| w.step(sym, bits, base, up, t)).d;
    let walked = sym.ite(sym.bvsgt(offset, zero32), walk(walks.upward, true), walk(walks.downward, false));
    let value = sym.ite(sym.eq(offset, zero32), at_base, walked);
    Out { value, defined: sym.bvule(base, sym.constant(32, 31)) }
}

/// What fns's two walks read: bit t of `upward` is mask[base + t], bit t of
/// `downward` is mask[base - t] (0 past either end), and `count` is
/// min(|offset| - 1, 32) in 6 bits.
pub struct FnsWalks<A: Algebra> {
    pub upward: A::Bv,
    pub downward: A::Bv,
    pub count: A::Bv,
}

impl<A: Algebra> FnsWalks<A> {
    pub fn of(sym: &A, mask: A::Bv, base: A::Bv, offset: A::Bv) -> Self {
        // From offset: how many set bits the walk passes over before the
        // one it stops at, and which way it goes.
        let wide = sym.sign_extend(1, offset);
        let zero33 = sym.constant(33, 0);
        let magnitude = sym.ite(sym.bvslt(wide, zero33), sym.bvneg(wide), wide);
        let count = sym.bvsub(magnitude, sym.constant(33, 1));
        let k33 = sym.constant(33, 32);
        let count = sym.extract(5, 0, sym.ite(sym.bvult(count, k33), count, k33));
        // The positions from base in the direction of inc, as bits 0, 1, ...
        let mut reversed = sym.bit(mask, 0);
        for i in 1..32 {
            reversed = sym.concat(reversed, sym.bit(mask, i));
        }
        let downward = sym.bvlshr(reversed, sym.bvsub(sym.constant(32, 31), base));
        FnsWalks { upward: sym.bvlshr(mask, base), downward, count }
    }
}

/// fns's loop after some steps in one direction. Public so that the proof
/// can relate it, step by step, to the model's scan.
pub struct FnsWalk<A: Algebra> {
    /// Set bits still to pass over, in 6 bits.
    pub count: A::Bv,
    /// The answer so far: 0xffffffff until a position is found.
    pub d: A::Bv,
    /// The loop has stopped: found, or pos has left 0..31.
    pub done: A::Bool,
}

// Derived Clone and Copy would ask A itself to be Copy.
impl<A: Algebra> Clone for FnsWalk<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for FnsWalk<A> {}

impl<A: Algebra> FnsWalk<A> {
    /// Before the first step, with `count` set bits to pass over.
    pub fn start(sym: &A, count: A::Bv) -> Self {
        FnsWalk { count, d: sym.constant(32, 0xffff_ffff), done: sym.bool_constant(false) }
    }

    /// Whether step t's position, base + t (`up`) or base - t, is in 0..31.
    pub fn in_range(sym: &A, base: A::Bv, up: bool, t: u32) -> A::Bool {
        let k = |x: u32| sym.constant(32, u128::from(x));
        if up {
            sym.bvule(base, k(31 - t))
        } else {
            sym.bvuge(base, k(t))
        }
    }

    /// Step t: the loop body at pos = base + t (`up`) or base - t, reading
    /// mask[pos] as bit t of `bits`.
    pub fn step(self, sym: &A, bits: A::Bv, base: A::Bv, up: bool, t: u32) -> Self {
        let k = |x: u32| sym.constant(32, u128::from(x));
        // The walk goes on while its position, base + t or base - t, is
        // inside the word.
        let pos = if up { sym.bvadd(base, k(t)) } else { sym.bvsub(base, k(t)) };
        let in_range = Self::in_range(sym, base, up, t);
        let hit = sym.and(sym.and(sym.not(self.done), in_range), sym.is_set(sym.bit(bits, t)));
        let count_zero = sym.eq(self.count, sym.constant(6, 0));
        let found = sym.and(hit, count_zero);
        FnsWalk {
            d: sym.ite(found, pos, self.d),
            count: sym.ite(sym.and(hit, sym.not(count_zero)), sym.bvsub(self.count, sym.constant(6, 1)), self.count),
            done: sym.or(self.done, sym.or(found, sym.not(in_range))),
        }
    }
}
