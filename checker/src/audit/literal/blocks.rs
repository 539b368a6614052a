//! The hand transcriptions of the Semantics blocks into the C semantics of
//! [`super::C`], one function per family. The audit reads every family
//! but fns from the text (`super::parsed`); the others' transcriptions
//! are what `checker/tests/literal_text.rs` holds the text's reading
//! against, finding by finding, until fns has switched and this file goes.
//! The table of the blocks is `super::table`.
//!
//! Each transcription follows its block statement by statement, in C order:
//! loops are unrolled to their bounds (a `while` to the most iterations it
//! can run, a `break` as a guard on the iterations after it), `if` and `?:`
//! are guarded so that hazards count only where the branch runs, and every
//! operation carries the short fragment of pseudocode it transcribes.
//! Variables the block does not declare take the type of their first
//! initialiser, as an `auto` declaration would; each such choice is stated
//! where it is made. Non-C notation (`t<47..16>`, `a[0:15]`, `|a|`,
//! `bitwidth of type`, `.u32 d = 0;`, `min()`) is read with its obvious
//! meaning.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::add_sub::AddSub;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::bit_field::{BitField, Mode as BitFieldMode};
use ptx_spec::catalogue::carry::{Arith, Carry, FLAG_NAME};
use ptx_spec::catalogue::compare::{BoolOp as CompareBoolOp, CmpOp, Combine, Compare, Dest as CompareDest};
use ptx_spec::catalogue::compare_select::{CompareSelect, SlctTest};
use ptx_spec::catalogue::div_rem::DivRem;
use ptx_spec::catalogue::dot::{Dot, Half};
use ptx_spec::catalogue::logic::{BoolOp, Logic};
use ptx_spec::catalogue::min_max::MinMax;
use ptx_spec::catalogue::mul_mad::{MulMad, MulMode};
use ptx_spec::catalogue::prmt::Prmt;
use ptx_spec::catalogue::shfl::{Mode as ShflMode, Shfl, WARP};
use ptx_spec::catalogue::shift::{ShfDir, ShfMode, Shift};
use ptx_spec::catalogue::{defined, Inputs, Out, Outputs, Type, Variant};
use ptx_spec::family::shfl::{masks_agree, member};

use super::table::{Block, Transcription};
use super::{CInt, CType, C};

impl Transcription for Block {
    fn literal<A: Algebra>(&self, c: &mut C<A>, variant: &Variant, inputs: &[A::Bv]) -> Outputs<A> {
        transcribe(c, variant, inputs)
    }
}

/// The literal reading of `variant`'s block, dispatched on its family.
fn transcribe<A: Algebra>(c: &mut C<A>, variant: &Variant, ins: &[A::Bv]) -> Outputs<A> {
    let operands = variant.inputs();
    let ins = &Inputs::new(&operands, ins);
    match *variant {
        Variant::AddSub(v) => add_sub(c, v, ins),
        Variant::MulMad(v) => mul_mad(c, v, ins),
        Variant::DivRem(v) => div_rem(c, v, ins),
        Variant::MinMax(v) => min_max(c, v, ins),
        Variant::BitCount(v) => bit_count(c, v, ins),
        Variant::BitField(v) => bit_field(c, v, ins),
        Variant::Dot(v) => dot(c, v, ins),
        Variant::Carry(v) => carry(c, v, ins),
        Variant::Logic(v) => logic(c, v, ins),
        Variant::Shift(v) => shift(c, v, ins),
        Variant::Shfl(v) => shfl(c, v, ins),
        Variant::Prmt(v) => prmt(c, v, ins),
        Variant::Compare(v) => compare(c, v, ins),
        Variant::CompareSelect(v) => compare_select(c, v, ins),
    }
}

/// A defined output from the value of the destination variable.
fn out<A: Algebra>(c: &C<A>, x: CInt<A>) -> Out<A::Bv, A::Bool> {
    defined(c.alg(), x.bits)
}

/// The 16-bit lane `i` of a packed operand, `a[0:15]` or `a[16:31]`: read as
/// a value of the lane type (`short` for .s16x2), the obvious meaning of a
/// lane of a packed register. Reading it as a bit field (an `int` 0..65535)
/// would make the .s16x2 comparisons unsigned.
fn lane<A: Algebra>(c: &C<A>, x: A::Bv, i: u32, ty: CType) -> CInt<A> {
    c.operand(c.alg().extract(16 * i + 15, 16 * i, x), ty)
}

/// Both lanes written back into one 32-bit register, lane 0 low.
fn packed<A: Algebra>(c: &C<A>, lanes: [CInt<A>; 2]) -> CInt<A> {
    CInt { bits: c.alg().concat(lanes[1].bits, lanes[0].bits), ty: CType::UInt }
}

/// 9.7.1.1-2, 9.7.1.7, 9.7.1.10-11.
fn add_sub<A: Algebra>(c: &mut C<A>, v: AddSub, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let d = match v {
        AddSub::Add { ty, .. } if ty.lanes() == 2 => {
            // 9.7.1.1, packed: iA and iB take the lane type; d[i] is a lane
            // of d, of the lane type.
            let lt = c.of_ptx(ty);
            let mut d = [c.int(0); 2];
            for (i, di) in d.iter_mut().enumerate() {
                let (ia, ib) = (lane(c, ins.get("a"), i as u32, lt), lane(c, ins.get("b"), i as u32, lt));
                let sum = c.add("iA[i] + iB[i]", ia, ib);
                *di = c.assign("d[i] = iA[i] + iB[i]", sum, lt);
            }
            packed(c, d)
        }
        AddSub::Add { ty, .. } | AddSub::Sub { ty, .. } => {
            let t = c.of_ptx(ty);
            let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t));
            if matches!(v, AddSub::Add { .. }) {
                let sum = c.add("a + b", a, b);
                c.assign("d = a + b", sum, t)
            } else {
                let diff = c.sub("a - b", a, b);
                c.assign("d = a - b", diff, t)
            }
        }
        AddSub::Sad(ty) => {
            // 9.7.1.7: d = c + ((a<b) ? b-a : a-b)
            let t = c.of_ptx(ty);
            let (a, b, cc) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t), c.operand(ins.get("c"), t));
            let less = c.lt(a, b);
            let diff = c.cond(less, |c| c.sub("b-a", b, a), |c| c.sub("a-b", a, b));
            let sum = c.add("c + (...)", cc, diff);
            c.assign("d = c + ...", sum, t)
        }
        AddSub::Abs(ty) => {
            let t = c.of_ptx(ty);
            let a = c.operand(ins.get("a"), t);
            let m = c.abs("|a|", a);
            c.assign("d = |a|", m, t)
        }
        AddSub::Neg(ty) => {
            let t = c.of_ptx(ty);
            let a = c.operand(ins.get("a"), t);
            let m = c.neg("-a", a);
            c.assign("d = -a", m, t)
        }
    };
    vec![out(c, d)]
}

/// 9.7.1.3-6. `t` takes the type of `a * b`: the promoted operand type, not
/// a double-width one, since C multiplies in the operands' type.
fn mul_mad<A: Algebra>(c: &mut C<A>, v: MulMad, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (mode, ty, addend, is24) = match v {
        MulMad::Mul(mode, ty) => (mode, ty, false, false),
        MulMad::Mad { mode, ty, .. } => (mode, ty, true, false),
        MulMad::Mul24(mode, ty) => (mode, ty, false, true),
        MulMad::Mad24 { mode, ty, .. } => (mode, ty, true, true),
    };
    let t_in = c.of_ptx(ty);
    let n = ty.width();
    let dest = if mode == MulMode::Wide { CType::of_width(2 * n, ty.is_signed()) } else { t_in };
    let (a, b) = (c.operand(ins.get("a"), t_in), c.operand(ins.get("b"), t_in));
    let t = c.mul("t = a * b", a, b);
    // `n = bitwidth of type`; mul24's bounds are fixed (47..16, 31..0).
    let part = match (mode, is24) {
        (MulMode::Wide, _) => t,
        (MulMode::Hi, false) => c.slice("t<2n-1..n>", t, 2 * n - 1, n),
        (MulMode::Lo, false) => c.slice("t<n-1..0>", t, n - 1, 0),
        (MulMode::Hi, true) => c.slice("t<47..16>", t, 47, 16),
        (MulMode::Lo, true) => c.slice("t<31..0>", t, 31, 0),
    };
    let d = if addend {
        let cc = c.operand(ins.get("c"), dest);
        let fragment = match (mode, is24) {
            (MulMode::Wide, _) => "t + c",
            (MulMode::Hi, false) => "t<2n-1..n> + c",
            (MulMode::Lo, false) => "t<n-1..0> + c",
            (MulMode::Hi, true) => "t<47..16> + c",
            (MulMode::Lo, true) => "t<31..0> + c",
        };
        let sum = c.add(fragment, part, cc);
        c.assign("d = ... + c", sum, dest)
    } else {
        c.assign("d = t...", part, dest)
    };
    vec![out(c, d)]
}

/// 9.7.2.1-6. `CC.CF` is read as an `int` 0 or 1, what a one-bit flag
/// promotes to. The sentence under each block that writes the flag is not
/// code, so the reading computes `d` alone.
fn carry<A: Algebra>(c: &mut C<A>, v: Carry, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let t = c.of_ptx(v.ty);
    let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t));
    let flag = |c: &C<A>| c.operand(c.alg().zero_extend(31, ins.get(FLAG_NAME)), CType::Int);
    let d = match (v.arith, v.carry_in) {
        (Arith::Add, false) => {
            let sum = c.add("d = a + b", a, b);
            c.assign("d = a + b", sum, t)
        }
        (Arith::Add, true) => {
            let sum = c.add("a + b", a, b);
            let cf = flag(c);
            let sum = c.add("a + b + CC.CF", sum, cf);
            c.assign("d = a + b + CC.CF", sum, t)
        }
        (Arith::Sub, false) => {
            let diff = c.sub("d = a - b", a, b);
            c.assign("d = a - b", diff, t)
        }
        (Arith::Sub, true) => {
            let cf = flag(c);
            let subtrahend = c.add("b + CC.CF", b, cf);
            let diff = c.sub("a - (b + CC.CF)", a, subtrahend);
            c.assign("d = a - (b + CC.CF)", diff, t)
        }
        (Arith::Mad(mode), carry_in) => {
            let product = c.mul("t = a * b", a, b);
            // The assignment the comment names for the variant.
            let (part, fragment) = match mode {
                MulMode::Hi => (c.slice("t<63..32>", product, 63, 32), "t<63..32> + c"),
                _ => (c.slice("t<31..0>", product, 31, 0), "t<31..0> + c"),
            };
            let addend = c.operand(ins.get("c"), t);
            let mut sum = c.add(fragment, part, addend);
            if carry_in {
                let cf = flag(c);
                sum = c.add("+ CC.CF", sum, cf);
            }
            c.assign("d = t<..> + c", sum, t)
        }
    };
    vec![out(c, d)]
}

/// 9.7.1.8-9.
fn div_rem<A: Algebra>(c: &mut C<A>, v: DivRem, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (DivRem::Div(ty) | DivRem::Rem(ty)) = v;
    let t = c.of_ptx(ty);
    let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t));
    let d = match v {
        DivRem::Div(_) => {
            let q = c.div("a / b", a, b);
            c.assign("d = a / b", q, t)
        }
        DivRem::Rem(_) => {
            let r = c.rem("a % b", a, b);
            c.assign("d = a % b", r, t)
        }
    };
    vec![out(c, d)]
}

/// 9.7.1.12-13. The block has no .relu: it is read for every variant.
fn min_max<A: Algebra>(c: &mut C<A>, v: MinMax, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let (is_min, ty) = match v {
        MinMax::Min { ty, .. } => (true, ty),
        MinMax::Max { ty, .. } => (false, ty),
    };
    let t = c.of_ptx(ty);
    let pick = |c: &mut C<A>, x: CInt<A>, y: CInt<A>| {
        let test = if is_min { c.lt(x, y) } else { c.gt(x, y) };
        c.cond(test, |_| x, |_| y)
    };
    let d = if ty.lanes() == 2 {
        let mut d = [c.int(0); 2];
        for (i, di) in d.iter_mut().enumerate() {
            let (ia, ib) = (lane(c, ins.get("a"), i as u32, t), lane(c, ins.get("b"), i as u32, t));
            let r = pick(c, ia, ib);
            *di = c.assign("d[i] = (...) ? ... : ...", r, t);
        }
        packed(c, d)
    } else {
        let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t));
        let r = pick(c, a, b);
        c.assign("d = (...) ? a : b", r, t)
    };
    vec![out(c, d)]
}

/// 9.7.1.14-18.
fn bit_count<A: Algebra>(c: &mut C<A>, v: BitCount, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let alg = c.alg();
    let d = match v {
        BitCount::Popc(ty) => {
            // .u32 d = 0; while (a != 0) { if (a & 0x1) d++; a = a >> 1; }
            // Each iteration shifts a right by one, so at most width
            // iterations run.
            let mut a = c.operand(ins.get("a"), c.of_ptx(ty));
            let mut d = c.value(CType::UInt, 0);
            let mut running = alg.bool_constant(true);
            for _ in 0..ty.width() {
                let zero = c.lit("0");
                let test = c.ne(a, zero);
                running = alg.and(running, c.truth(test));
                let (next_a, set) = c.guarded(running, |c| {
                    let low = c.lit("0x1");
                    let bit = c.and(a, low);
                    let one = c.lit("1");
                    let shifted = c.shr("a >> 1", a, one);
                    (c.assign("a = a >> 1", shifted, a.ty), c.truth(bit))
                });
                // `if (a & 0x1) d++;` adds 1 exactly when the loop runs and
                // the bit is set: written as d + (that ? 1 : 0), the same
                // value, so that the solver sees the loop as a sum. Why: with
                // a choice between d + 1 and d at each step, popc.b64's
                // comparison with the model did not finish in 60 s; as a sum,
                // split by the highest set bit ([`literal_cases`]), each case
                // takes well under a second.
                let step = c.from_bool(alg.and(running, set));
                d = c.guarded(running, |c| {
                    let inc = c.add("d++", d, step);
                    c.assign("d++", inc, CType::UInt)
                });
                a = c.select(running, next_a, a);
            }
            let zero = c.lit("0");
            let test = c.ne(a, zero);
            c.loop_ends("while (a != 0)", ty.width(), alg.and(running, c.truth(test)));
            d
        }
        BitCount::Clz(ty) => {
            // .u32 d = 0; max and mask take the types of their literals in
            // the branch the type selects; then
            // while (d < max && (a&mask == 0)) { d++; a = a << 1; }
            // where `==` binds tighter than `&`.
            let mut a = c.operand(ins.get("a"), c.of_ptx(ty));
            let mut d = c.value(CType::UInt, 0);
            let (max, mask) = if ty == Type::B32 {
                (c.lit("32"), c.lit("0x80000000"))
            } else {
                (c.lit("64"), c.lit("0x8000000000000000"))
            };
            let test = |c: &mut C<A>, d: CInt<A>, a: CInt<A>| {
                let below = c.lt(d, max);
                let test = c.land(below, |c| {
                    let zero = c.lit("0");
                    let mask_is_zero = c.eq(mask, zero);
                    c.and(a, mask_is_zero)
                });
                c.truth(test)
            };
            let mut running = alg.bool_constant(true);
            for _ in 0..=ty.width() {
                running = alg.and(running, test(c, d, a));
                let (next_a, next_d) = c.guarded(running, |c| {
                    let one = c.int(1);
                    let inc = c.add("d++", d, one);
                    let inc = c.assign("d++", inc, CType::UInt);
                    let one = c.lit("1");
                    let shifted = c.shl("a = a << 1", a, one);
                    (c.assign("a = a << 1", shifted, a.ty), inc)
                });
                a = c.select(running, next_a, a);
                d = c.select(running, next_d, d);
            }
            let again = c.guarded(running, |c| test(c, d, a));
            c.loop_ends("while (d < max && (a&mask == 0))", ty.width() + 1, alg.and(running, again));
            d
        }
        BitCount::Bfind { ty, shiftamt } => bfind(c, ty, shiftamt, ins),
        BitCount::Fns => return vec![fns(c, ins)],
        BitCount::Brev(ty) => {
            // for (i=0; i<=msb; i++) d[i] = a[msb-i]; d is the .b32/.b64
            // destination, every bit of which the loop writes.
            let t = c.of_ptx(ty);
            let a = c.operand(ins.get("a"), t);
            let msb = i128::from(ty.width() - 1);
            let mut d = c.value(t, 0);
            for i in 0..=msb {
                let bit = c.bit_at("a[msb-i]", a, msb - i);
                d = c.set_bit_at("d[i]", d, i, bit);
            }
            d
        }
    };
    vec![out(c, d)]
}

/// 9.7.1.15: bfind's block.
fn bfind<A: Algebra>(c: &mut C<A>, ty: Type, shiftamt: bool, ins: &Inputs<A::Bv>) -> CInt<A> {
    let alg = c.alg();
    let mut a = c.operand(ins.get("a"), c.of_ptx(ty));
    // msb = (...) ? 31 : 63; an int.
    let msb = if ty.width() == 32 { c.lit("31") } else { c.lit("63") };
    let msb_value = i128::from(ty.width() - 1);
    // if ((.type==.s32 || .type==.s64) && (a & (1<<msb))) a = ~a;
    // The left of && is a constant of the variant.
    if ty.is_signed() {
        let one = c.lit("1");
        let sign = c.shl("1<<msb", one, msb);
        let test = c.and(a, sign);
        let inverted = c.not(a);
        let inverted = c.assign("a = ~a", inverted, a.ty);
        a = c.select(c.truth(test), inverted, a);
    }
    // .u32 d = 0xffffffff;
    let all_ones = c.lit("0xffffffff");
    let mut d = c.assign(".u32 d = 0xffffffff", all_ones, CType::UInt);
    // for (.s32 i=msb; i>=0; i--) if (a & (1<<i)) { d = i; break; }
    let mut running = alg.bool_constant(true);
    for i in (0..=msb_value).rev() {
        let (hit, found) = c.guarded(running, |c| {
            let one = c.lit("1");
            let index = c.int(i);
            let bit = c.shl("1<<i", one, index);
            let test = c.and(a, bit);
            let found = c.assign("d = i", index, CType::UInt);
            (c.truth(test), found)
        });
        let taken = alg.and(running, hit);
        d = c.select(taken, found, d);
        running = alg.and(running, alg.not(hit));
    }
    // if (.shiftamt && d != 0xffffffff) d = msb - d;
    if shiftamt {
        let all_ones = c.lit("0xffffffff");
        let test = c.ne(d, all_ones);
        let test = c.truth(test);
        let flipped = c.guarded(test, |c| {
            let diff = c.sub("msb - d", msb, d);
            c.assign("d = msb - d", diff, CType::UInt)
        });
        d = c.select(test, flipped, d);
    }
    d
}

/// 9.7.1.17. mask is .b32 (unsigned int), offset .s32 (int), base one of
/// .b32/.u32/.s32: read as unsigned int, the .b32/.u32 reading. (As int the
/// loop and the index test behave the same: a negative base is out of range
/// either way.) d, pos, count and inc take their initialisers' types:
/// unsigned int, unsigned int (base), int (`|offset| - 1`), int.
fn fns<A: Algebra>(c: &mut C<A>, ins: &Inputs<A::Bv>) -> Out<A::Bv, A::Bool> {
    let alg = c.alg();
    let FnsOperands { mask, base, offset, d } = FnsOperands::read(c, ins);
    let zero = c.lit("0");
    let offset_zero = c.eq(offset, zero);
    let offset_zero = c.truth(offset_zero);
    // if (offset == 0) { if (mask[base] == 1) d = base; }
    let d_at_base = c.guarded(offset_zero, |c| {
        let bit = c.bit("mask[base]", mask, base);
        let one = c.lit("1");
        let test = c.eq(bit, one);
        let at = c.assign("d = base", base, CType::UInt);
        c.select(c.truth(test), at, d)
    });
    // else { pos = base; count = |offset| - 1; inc = ...; while (...) {...} }
    // pos moves by one each iteration and the loop runs only inside 0..31,
    // so at most 32 iterations run.
    let d_searched = c.guarded(alg.not(offset_zero), |c| {
        let (mut state, inc) = FnsLoop::start(c, FnsOperands { mask, base, offset, d });
        for _ in 0..32 {
            state = state.iteration(c, mask, inc);
        }
        let again = FnsLoop::test(c, state.pos);
        c.loop_ends("while ((pos >= 0) && (pos < 32))", 32, alg.and(state.running, again));
        state.d
    });
    let d = c.select(offset_zero, d_at_base, d_searched);
    out(c, d)
}

/// fns's operands as C values, and `d = 0xffffffff`, the first statement.
pub struct FnsOperands<A: Algebra> {
    pub mask: CInt<A>,
    pub base: CInt<A>,
    pub offset: CInt<A>,
    pub d: CInt<A>,
}

impl<A: Algebra> FnsOperands<A> {
    pub fn read(c: &mut C<A>, ins: &Inputs<A::Bv>) -> Self {
        let mask = c.operand(ins.get("mask"), c.of_ptx(Type::B32));
        let base = c.operand(ins.get("base"), CType::UInt);
        let offset = c.operand(ins.get("offset"), CType::Int);
        let all_ones = c.lit("0xffffffff");
        let d = c.assign("d = 0xffffffff", all_ones, CType::UInt);
        FnsOperands { mask, base, offset, d }
    }
}

/// The variables of fns's `while` loop before an iteration: `running` while
/// no `break` has run and every test of the condition so far held. Written
/// as a start and one iteration, so that the audit can also run an
/// iteration from any state (the lockstep proof, `super::lockstep`).
pub struct FnsLoop<A: Algebra> {
    pub running: A::Bool,
    pub pos: CInt<A>,
    pub count: CInt<A>,
    pub d: CInt<A>,
}

impl<A: Algebra> Clone for FnsLoop<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for FnsLoop<A> {}

impl<A: Algebra> FnsLoop<A> {
    /// `pos = base; count = |offset| - 1; inc = (offset > 0) ? 1 : -1;`:
    /// the state before the first iteration, and `inc`.
    pub fn start(c: &mut C<A>, ops: FnsOperands<A>) -> (Self, CInt<A>) {
        let magnitude = c.abs("|offset|", ops.offset);
        let one = c.lit("1");
        let count = c.sub("|offset| - 1", magnitude, one);
        let zero = c.lit("0");
        let positive = c.gt(ops.offset, zero);
        let inc = c.cond(
            positive,
            |c| c.lit("1"),
            |c| {
                let one = c.lit("1");
                c.neg("-1", one)
            },
        );
        let running = c.alg().bool_constant(true);
        (FnsLoop { running, pos: ops.base, count, d: ops.d }, inc)
    }

    /// `(pos >= 0) && (pos < 32)`.
    pub fn test(c: &mut C<A>, pos: CInt<A>) -> A::Bool {
        let zero = c.lit("0");
        let at_least_zero = c.ge(pos, zero);
        let test = c.land(at_least_zero, |c| {
            let limit = c.lit("32");
            c.lt(pos, limit)
        });
        c.truth(test)
    }

    /// One test of the condition and, where it holds, one run of the body:
    /// `if (mask[pos] == 1) { if (count == 0) { d = pos; break; } else
    /// count--; } pos = pos + inc;`
    pub fn iteration(self, c: &mut C<A>, mask: CInt<A>, inc: CInt<A>) -> Self {
        let alg = c.alg();
        let FnsLoop { running, pos, count, d } = self;
        let running = alg.and(running, FnsLoop::test(c, pos));
        let (set, hit, next_count, next_pos) = c.guarded(running, |c| {
            let bit = c.bit("mask[pos]", mask, pos);
            let one = c.lit("1");
            let set = c.eq(bit, one);
            let set = c.truth(set);
            let zero = c.lit("0");
            let count_zero = c.eq(count, zero);
            let count_zero = c.truth(count_zero);
            let next_count = c.guarded(alg.and(set, alg.not(count_zero)), |c| {
                let one = c.lit("1");
                let less = c.sub("count - 1", count, one);
                c.assign("count = count - 1", less, count.ty)
            });
            let hit = alg.and(set, count_zero);
            let next_pos = c.guarded(alg.not(hit), |c| {
                let moved = c.add("pos + inc", pos, inc);
                c.assign("pos = pos + inc", moved, pos.ty)
            });
            (set, hit, next_count, next_pos)
        });
        let found = c.assign("d = pos", pos, CType::UInt);
        FnsLoop {
            d: c.select(alg.and(running, hit), found, d),
            count: c.select(alg.and(running, alg.and(set, alg.not(hit))), next_count, count),
            pos: c.select(alg.and(running, alg.not(hit)), next_pos, pos),
            running: alg.and(running, alg.not(hit)),
        }
    }
}

/// 9.7.1.19-22.
fn bit_field<A: Algebra>(c: &mut C<A>, v: BitField, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let alg = c.alg();
    let d = match v {
        BitField::Bfe(ty) => {
            // pos and len are `b & 0xff` and `c & 0xff` with b, c .u32:
            // unsigned int. sbit takes the type of `0` and of `a[...]`: int.
            let t = c.of_ptx(ty);
            let a = c.operand(ins.get("a"), t);
            let (b, cc) = (c.operand(ins.get("b"), CType::UInt), c.operand(ins.get("c"), CType::UInt));
            let msb = if ty.width() == 32 { c.lit("31") } else { c.lit("63") };
            let msb_value = i128::from(ty.width() - 1);
            let ff = c.lit("0xff");
            let pos = c.and(b, ff);
            let len = c.and(cc, ff);
            let sbit = if ty.is_signed() {
                let zero = c.lit("0");
                let len_zero = c.eq(len, zero);
                let len_zero = c.truth(len_zero);
                let field_sign = c.guarded(alg.not(len_zero), |c| {
                    let end = c.add("pos+len", pos, len);
                    let one = c.lit("1");
                    let end = c.sub("pos+len-1", end, one);
                    let at = c.min(end, msb);
                    c.bit("a[min(pos+len-1,msb)]", a, at)
                });
                let zero = c.lit("0");
                c.select(len_zero, zero, field_sign)
            } else {
                c.lit("0")
            };
            let mut d = c.value(t, 0);
            for i in 0..=msb_value {
                let index = c.int(i);
                let inside = c.lt(index, len);
                let test = c.land(inside, |c| {
                    let at = c.add("pos+i", pos, index);
                    c.le(at, msb)
                });
                let bit = c.cond(
                    test,
                    |c| {
                        let at = c.add("pos+i", pos, index);
                        c.bit("a[pos+i]", a, at)
                    },
                    |_| sbit,
                );
                d = c.set_bit_at("d[i]", d, i, bit);
            }
            d
        }
        BitField::Bfi(ty) => {
            // f = b; for (i=0; i<len && pos+i<=msb; i++) f[pos+i] = a[i];
            // pos, len: unsigned int, from the .u32 operands c and d.
            let t = c.of_ptx(ty);
            let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t));
            let (cc, dd) = (c.operand(ins.get("c"), CType::UInt), c.operand(ins.get("d"), CType::UInt));
            let msb = if ty.width() == 32 { c.lit("31") } else { c.lit("63") };
            let ff = c.lit("0xff");
            let pos = c.and(cc, ff);
            let len = c.and(dd, ff);
            let mut f = b;
            // i < len && pos+i <= msb
            let test = |c: &mut C<A>, index: CInt<A>| {
                let inside = c.lt(index, len);
                let test = c.land(inside, |c| {
                    let at = c.add("pos+i", pos, index);
                    c.le(at, msb)
                });
                c.truth(test)
            };
            let mut running = alg.bool_constant(true);
            for i in 0..=i128::from(ty.width() - 1) {
                let index = c.int(i);
                running = alg.and(running, test(c, index));
                let next = c.guarded(running, |c| {
                    let at = c.add("pos+i", pos, index);
                    let bit = c.bit_at("a[i]", a, i);
                    c.set_bit("f[pos+i]", f, at, bit)
                });
                f = c.select(running, next, f);
            }
            let again = c.guarded(running, |c| {
                let index = c.int(i128::from(ty.width()));
                test(c, index)
            });
            c.loop_ends("for (i=0; i<len && pos+i<=msb; i++)", ty.width(), alg.and(running, again));
            f
        }
        BitField::Szext(mode, ty) => szext(c, mode, ty, ins),
        BitField::Bmsk(mode) => bmsk(c, mode, ins),
    };
    vec![out(c, d)]
}

/// 9.7.1.21, with its last line repaired to `sign_bit ? mask : 0` (the
/// block's `NotC`). a and d have the instruction's type (`int` for .s32,
/// `unsigned int` for .u32), b is .u32. b1 and sign_pos take the type of
/// their initialisers, unsigned int; mask that of `0` and `(~0) << b1`,
/// int; too_large and sign_bit that of `true` and `false`, int (as in
/// bmsk). `.mode == .clamp` and `.type != .s32` are constants of the
/// variant.
fn szext<A: Algebra>(c: &mut C<A>, mode: BitFieldMode, ty: Type, ins: &Inputs<A::Bv>) -> CInt<A> {
    let t = c.of_ptx(ty);
    let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), CType::UInt));
    let low5 = c.lit("0x1f");
    let b1 = c.and(b, low5);
    let limit = c.lit("32");
    let b_big = c.ge(b, limit);
    let clamping = c.int(i128::from(mode == BitFieldMode::Clamp));
    let too_large_test = c.land(b_big, |_| clamping);
    let too_large = c.cond(too_large_test, |c| c.lit("1"), |c| c.lit("0"));
    let mask = c.cond(
        too_large,
        |c| c.lit("0"),
        |c| {
            let zero = c.lit("0");
            let all = c.not(zero);
            c.shl("(~0) << b1", all, b1)
        },
    );
    let one = c.lit("1");
    let below = c.sub("b1 - 1", b1, one);
    let sign_pos = c.and(below, low5);
    let zero = c.lit("0");
    let b1_zero = c.eq(b1, zero);
    let not_s32 = c.int(i128::from(ty != Type::S32));
    let plain = c.lor(b1_zero, |c| c.lor(too_large, |_| not_s32));
    let sign_bit = c.cond(
        plain,
        |c| c.lit("0"),
        |c| {
            let shifted = c.shr("a >> sign_pos", a, sign_pos);
            let one = c.lit("1");
            let bit = c.and(shifted, one);
            c.assign("sign_bit = (a >> sign_pos) & 1", bit, CType::Int)
        },
    );
    let kept = c.and(a, c.not(mask));
    let zero = c.lit("0");
    let fill = c.cond(sign_bit, |_| mask, |_| zero);
    let d = c.or(kept, fill);
    c.assign("d = (a & ~mask) | (sign_bit ? mask : 0)", d, t)
}

/// 9.7.1.22. a and b are .u32. mask0 and mask1 take the type of `(~0)`,
/// int; the three flags the type of `true`/`false`, int (C23's `true` is a
/// bool, promoted to int: the same values).
fn bmsk<A: Algebra>(c: &mut C<A>, mode: BitFieldMode, ins: &Inputs<A::Bv>) -> CInt<A> {
    let alg = c.alg();
    let (a, b) = (c.operand(ins.get("a"), CType::UInt), c.operand(ins.get("b"), CType::UInt));
    let low5 = c.lit("0x1f");
    let a1 = c.and(a, low5);
    let zero = c.lit("0");
    let all = c.not(zero);
    let mut mask0 = c.shl("(~0) << a1", all, a1);
    let b1 = c.and(b, low5);
    let sum = c.add("a1 + b1", a1, b1);
    let mut mask1 = c.shl("(~0) << sum", all, sum);
    let limit = c.lit("32");
    let sum_overflow = c.ge(sum, limit);
    let mut position_overflow = c.int(0);
    let mut width_overflow = c.int(0);
    if mode == BitFieldMode::Clamp {
        let a_big = c.ge(a, limit);
        let a_big = c.truth(a_big);
        position_overflow = c.select(a_big, c.int(1), position_overflow);
        mask0 = c.select(a_big, zero, mask0);
        let b_big = c.ge(b, limit);
        width_overflow = c.select(c.truth(b_big), c.int(1), width_overflow);
    }
    let any = alg.or(c.truth(sum_overflow), alg.or(c.truth(position_overflow), c.truth(width_overflow)));
    let b1_zero = c.eq(b1, zero);
    let all_again = c.not(zero);
    let otherwise = c.select(c.truth(b1_zero), all_again, mask1);
    mask1 = c.select(any, zero, otherwise);
    let keep = c.not(mask1);
    let d = c.and(mask0, keep);
    c.assign("d = mask0 & ~mask1", d, CType::UInt)
}

/// 9.7.1.23-24. d and c are .u32 when both types are, else .s32. The
/// extracted values are read as `int`, the type sign or zero extension of a
/// byte or half-word gives in C.
fn dot<A: Algebra>(c: &mut C<A>, v: Dot, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let alg = c.alg();
    let (atype, btype) = match v {
        Dot::Dp4a { atype, btype } | Dot::Dp2a { atype, btype, .. } => (atype, btype),
    };
    let d_ty = if atype.is_signed() || btype.is_signed() { CType::Int } else { CType::UInt };
    let extract = |x: A::Bv, parts: u32, signed: bool| -> Vec<CInt<A>> {
        let w = 32 / parts;
        (0..parts)
            .map(|i| CInt { bits: alg.extend(signed, 32 - w, alg.extract(w * i + w - 1, w * i, x)), ty: CType::Int })
            .collect()
    };
    let mut d = c.operand(ins.get("c"), d_ty);
    let vb = extract(ins.get("b"), 4, btype.is_signed());
    match v {
        Dot::Dp4a { .. } => {
            let va = extract(ins.get("a"), 4, atype.is_signed());
            for i in 0..4 {
                let p = c.mul("Va[i] * Vb[i]", va[i], vb[i]);
                let sum = c.add("d += Va[i] * Vb[i]", d, p);
                d = c.assign("d += Va[i] * Vb[i]", sum, d_ty);
            }
        }
        Dot::Dp2a { half, .. } => {
            let va = extract(ins.get("a"), 2, atype.is_signed());
            let select = if half == Half::Lo { 0 } else { 2 };
            for i in 0..2 {
                let p = c.mul("Va[i] * Vb[b_select + i]", va[i], vb[select + i]);
                let sum = c.add("d += Va[i] * Vb[b_select + i]", d, p);
                d = c.assign("d += Va[i] * Vb[b_select + i]", sum, d_ty);
            }
        }
    }
    vec![out(c, d)]
}

/// 9.7.8.1-6.
fn logic<A: Algebra>(c: &mut C<A>, v: Logic, ins: &Inputs<A::Bv>) -> Outputs<A> {
    match v {
        Logic::And(ty) | Logic::Or(ty) | Logic::Xor(ty) => {
            let t = c.of_ptx(ty);
            let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t));
            let r = match v {
                Logic::And(_) => c.and(a, b),
                Logic::Or(_) => c.or(a, b),
                _ => c.xor(a, b),
            };
            let d = c.assign("d = a op b", r, t);
            vec![out(c, d)]
        }
        Logic::Not(ty) => {
            let t = c.of_ptx(ty);
            let a = c.operand(ins.get("a"), t);
            let r = c.not(a);
            let d = c.assign("d = ~a", r, t);
            vec![out(c, d)]
        }
        Logic::Cnot(ty) => {
            let t = c.of_ptx(ty);
            let a = c.operand(ins.get("a"), t);
            let zero = c.lit("0");
            let test = c.eq(a, zero);
            let r = c.cond(test, |c| c.lit("1"), |c| c.lit("0"));
            let d = c.assign("d = (a==0) ? 1 : 0", r, t);
            vec![out(c, d)]
        }
        Logic::Lop3(bool_op) => {
            // F = GetFunctionFromTable(immLut); d = F(a, b, c): read as the
            // table lookup per bit, bit i of d being bit (a[i]<<2 | b[i]<<1 |
            // c[i]) of immLut (an integer constant: int).
            let alg = c.alg();
            let bits = c.of_ptx(Type::B32);
            let (a, b, cc) =
                (c.operand(ins.get("a"), bits), c.operand(ins.get("b"), bits), c.operand(ins.get("c"), bits));
            let lut = CInt { bits: alg.zero_extend(24, ins.get("immLut")), ty: CType::Int };
            let mut d = c.value(CType::UInt, 0);
            for i in 0..32 {
                let (ai, bi, ci) = (c.bit_at("a[i]", a, i), c.bit_at("b[i]", b, i), c.bit_at("c[i]", cc, i));
                let (two, one) = (c.int(2), c.int(1));
                let ai = c.shl("a[i]<<2", ai, two);
                let bi = c.shl("b[i]<<1", bi, one);
                let index = c.or(c.or(ai, bi), ci);
                let bit = c.bit("immLut[index]", lut, index);
                d = c.set_bit_at("d[i]", d, i, bit);
            }
            let mut outs = vec![out(c, d)];
            if let Some(op) = bool_op {
                // p = (d != 0) BoolOp q; BoolOp read as || or &&.
                let q = c.operand(ins.get("q"), CType::Bool);
                let zero = c.lit("0");
                let nonzero = c.ne(d, zero);
                let r = match op {
                    BoolOp::Or => c.lor(nonzero, |_| q),
                    BoolOp::And => c.land(nonzero, |_| q),
                };
                let p = c.assign("p = (d != 0) BoolOp q", r, CType::Bool);
                outs.push(out(c, p));
            }
            outs
        }
    }
}

/// 9.7.8.7-9.
fn shift<A: Algebra>(c: &mut C<A>, v: Shift, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let d = match v {
        Shift::Shf(dir, mode) => {
            // u32 n = (.mode == .clamp) ? min(c, 32) : c & 0x1f; a, b .b32.
            let bits = c.of_ptx(Type::B32);
            let (a, b) = (c.operand(ins.get("a"), bits), c.operand(ins.get("b"), bits));
            let cc = c.operand(ins.get("c"), CType::UInt);
            let n = match mode {
                ShfMode::Clamp => {
                    let limit = c.lit("32");
                    c.min(cc, limit)
                }
                ShfMode::Wrap => {
                    let low5 = c.lit("0x1f");
                    c.and(cc, low5)
                }
            };
            let n = c.assign("u32 n", n, CType::UInt);
            let width = c.lit("32");
            let rest = c.sub("32-n", width, n);
            let (hi, lo) = match dir {
                ShfDir::L => (c.shl("b << n", b, n), c.shr("a >> (32-n)", a, rest)),
                ShfDir::R => (c.shl("b << (32-n)", b, rest), c.shr("a >> n", a, n)),
            };
            let r = c.or(hi, lo);
            c.assign("u32 d", r, CType::UInt)
        }
        Shift::Shl(ty) | Shift::Shr(ty) => {
            let t = c.of_ptx(ty);
            let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), CType::UInt));
            if matches!(v, Shift::Shl(_)) {
                let r = c.shl("a << b", a, b);
                c.assign("d = a << b", r, t)
            } else {
                let r = c.shr("a >> b", a, b);
                c.assign("d = a >> b", r, t)
            }
        }
    };
    vec![out(c, d)]
}

/// 9.7.9.5 and 9.7.9.6, one thread's view of the warp (see `family::shfl`).
/// The 5-bit fields `lane[4:0]`, `bval[4:0]`, `cval[4:0]` and `mask[4:0]`
/// (`segmask` in 9.7.9.6) are read as unsigned bit-fields of 5 bits, which C
/// promotes to int; `j` then takes the type of `lane - bval`, int, so a
/// source below lane 0 is negative. SourceA holds every lane's a,
/// unpredictable (undefined) where that lane does not execute; a thread that
/// does not execute runs none of the block. shfl.sync's
/// `wait_for_specified_threads` is never defined: it is read as the model
/// reads it, on the membermask and the lanes' agreement.
fn shfl<A: Algebra>(c: &mut C<A>, v: Shfl, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let alg = c.alg();
    let field = |x: A::Bv, hi: u32, lo: u32| CInt::<A> {
        bits: alg.zero_extend(32 - (hi - lo + 1), alg.extract(hi, lo, x)),
        ty: CType::Int,
    };
    let lane = CInt::<A> { bits: alg.zero_extend(27, ins.get("lane")), ty: CType::Int };
    let bval = field(ins.get("b"), 4, 0);
    let cval = field(ins.get("c"), 4, 0);
    let mask = field(ins.get("c"), 12, 8);
    let source: Vec<CInt<A>> = ins.from("a0", WARP).iter().map(|&bits| CInt { bits, ty: CType::UInt }).collect();
    let active: Vec<CInt<A>> = ins.from("active0", WARP).iter().map(|&bits| CInt { bits, ty: CType::Bool }).collect();
    let not_mask = c.not(mask);
    let max_lane = c.or(c.and(lane, mask), c.and(cval, not_mask));
    let min_lane = c.and(lane, mask);
    let (j, pval) = match v.mode {
        ShflMode::Up => {
            let j = c.sub("j = lane - bval", lane, bval);
            (j, c.ge(j, max_lane))
        }
        ShflMode::Down => {
            let j = c.add("j = lane + bval", lane, bval);
            (j, c.le(j, max_lane))
        }
        ShflMode::Bfly => {
            let j = c.xor(lane, bval);
            (j, c.le(j, max_lane))
        }
        ShflMode::Idx => {
            let j = c.or(min_lane, c.and(bval, not_mask));
            (j, c.le(j, max_lane))
        }
    };
    // if (!pval) j = lane; d = SourceA[j];
    let in_range = c.truth(pval);
    let j = c.select(in_range, j, lane);
    let d = c.index("SourceA[j]", &source, j);
    // Whether a lane executes is not a C value of the block; read without
    // an index check (lane and j are both in 0..31 here).
    let executes = c.truth(select_lane(c, &active, lane));
    let source_executes = c.truth(select_lane(c, &active, j));
    let (executes, source_executes) = if v.sync {
        let (me, mask) = (ins.get("lane"), ins.get("membermask"));
        let waits_end = alg.and(
            member(alg, mask, me),
            masks_agree(alg, me, mask, ins.from("active0", WARP), ins.from("agrees0", WARP)),
        );
        (alg.and(executes, waits_end), alg.and(source_executes, member(alg, mask, alg.extract(4, 0, j.bits))))
    } else {
        (executes, source_executes)
    };
    let mut outs = vec![Out { value: d.bits, defined: alg.and(executes, source_executes) }];
    if v.pred {
        let p = c.assign("p = pval", pval, CType::Bool);
        outs.push(Out { value: p.bits, defined: executes });
    }
    outs
}

/// Element `j` of `values`, as a multiplexer (`j` known to be in range).
fn select_lane<A: Algebra>(c: &C<A>, values: &[CInt<A>], j: CInt<A>) -> CInt<A> {
    let alg = c.alg();
    let mut value = values[0];
    for (k, x) in values.iter().enumerate().skip(1) {
        let here = alg.eq(j.bits, alg.constant(32, k as u128));
        value = CInt { bits: alg.ite(here, x.bits, value.bits), ty: value.ty };
    }
    value
}

/// 9.7.9.7. `tmp64`, `ctl` and `tmp` are never declared: tmp64 takes the
/// type its name gives, 64 bits unsigned, and holds `(b<<32) | a` computed
/// in the operands' `unsigned int`, as C computes it; `ctl[i]` and `tmp`
/// are `unsigned int`. `mode` is 0 in the generic form. ReadByte is never
/// defined: it is read as the model reads it (assumption prmt-byte-select),
/// on the tmp64 the block computes. d is tmp, which the block never
/// assigns to d.
fn prmt<A: Algebra>(c: &mut C<A>, v: Prmt, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let alg = c.alg();
    let bits = c.of_ptx(Type::B32);
    let (a, b, cc) = (c.operand(ins.get("a"), bits), c.operand(ins.get("b"), bits), c.operand(ins.get("c"), bits));
    let by = c.lit("32");
    let high = c.shl("(b<<32) | a", b, by);
    let pair = c.or(high, a);
    let tmp64 = c.assign("tmp64 = (b<<32) | a", pair, CType::ULongLong);
    let ctl: Vec<CInt<A>> = (0..4)
        .map(|i| match v.mode {
            None => {
                let field = c.shr("(c >> 4) & 0xf", cc, c.int(4 * i));
                c.and(field, c.lit("0xf"))
            }
            Some(_) => c.and(cc, c.lit("0x3")),
        })
        .collect();
    let mut d: Option<A::Bv> = None;
    for (position, selector) in ctl.iter().enumerate() {
        let value = ptx_smt::encode::prmt::read_byte(alg, v.mode, selector.bits, position as u32, tmp64.bits);
        d = Some(d.map_or(value, |lower| alg.concat(value, lower)));
    }
    vec![defined(alg, d.expect("four bytes"))]
}

/// 9.7.6.1-2, with the repair of `BoolOp(t, c)` (the bitwise operator on
/// the `int` t and c, each 0 or 1; `!c` C's `!`). The operands are read as
/// their C types, compared after the usual conversions. set's `1.0f :
/// 0x00000000` is a float, stored in a float `d`: its bits are 1.0f's or
/// +0.0's; `0xffffffff : 0x00000000` is an `unsigned int`, converted to
/// `d`'s type on assignment.
fn compare<A: Algebra>(c: &mut C<A>, v: Compare, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let alg = c.alg();
    let ty = c.of_ptx(v.ty);
    let (a, b) = (c.operand(ins.get("a"), ty), c.operand(ins.get("b"), ty));
    let holds = match v.cmp {
        CmpOp::Eq => c.eq(a, b),
        CmpOp::Ne => c.ne(a, b),
        CmpOp::Lt | CmpOp::Lo => c.lt(a, b),
        CmpOp::Le | CmpOp::Ls => c.le(a, b),
        CmpOp::Gt | CmpOp::Hi => c.gt(a, b),
        CmpOp::Ge | CmpOp::Hs => c.ge(a, b),
    };
    let t = c.cond(holds, |c| c.lit("1"), |c| c.lit("0"));
    let bool_op = |c: &mut C<A>, x: CInt<A>| match v.combine {
        None => x,
        Some(Combine { op, not_c }) => {
            let pred = c.operand(alg.zero_extend(31, ins.get("c")), CType::Int);
            let pred = if not_c { c.lnot(pred) } else { pred };
            match op {
                CompareBoolOp::And => c.and(x, pred),
                CompareBoolOp::Or => c.or(x, pred),
                CompareBoolOp::Xor => c.xor(x, pred),
            }
        }
    };
    let r = bool_op(c, t);
    match v.dest {
        CompareDest::Set(Type::F32) => {
            let one = alg.constant(32, ptx_spec::family::compare::F32_ONE);
            vec![defined(alg, alg.ite(c.truth(r), one, alg.constant(32, 0)))]
        }
        CompareDest::Set(dtype) => {
            let d = c.cond(r, |c| c.lit("0xffffffff"), |c| c.lit("0x00000000"));
            let d = c.assign("d = BoolOp(t, c) ? 0xffffffff : 0x00000000", d, c.of_ptx(dtype));
            vec![out(c, d)]
        }
        CompareDest::Setp { q } => {
            let mut outs = vec![defined(alg, alg.bool_to_bv(c.truth(r)))];
            if q {
                let not_t = c.lnot(t);
                let r = bool_op(c, not_t);
                outs.push(defined(alg, alg.bool_to_bv(c.truth(r))));
            }
            outs
        }
    }
}

/// 9.7.6.3-4. selp's `c` is a `.pred`, read as `_Bool`. slct's `c >= 0`
/// with an .f32 c is C's float comparison (IEEE, as C's Annex F makes it:
/// a NaN compares false, -0 equals 0), on the value as written: C has no
/// .ftz.
fn compare_select<A: Algebra>(c: &mut C<A>, v: CompareSelect, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let alg = c.alg();
    let (ty, test) = match v {
        CompareSelect::Selp(ty) => (ty, c.eq(c.operand(ins.get("c"), CType::Bool), c.lit("1"))),
        CompareSelect::Slct { dtype, test: SlctTest::S32 } => {
            (dtype, c.ge(c.operand(ins.get("c"), c.of_ptx(Type::S32)), c.lit("0")))
        }
        CompareSelect::Slct { dtype, test: SlctTest::F32 { .. } } => {
            let ordered = ptx_smt::encode::compare_select::float_geq_zero(alg, ins.get("c"));
            (dtype, c.from_bool(ordered))
        }
    };
    let t = c.of_ptx(ty);
    let (a, b) = (c.operand(ins.get("a"), t), c.operand(ins.get("b"), t));
    let d = c.cond(test, |_| a, |_| b);
    vec![out(c, d)]
}
