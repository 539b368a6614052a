//! Passages of the spec that admit more than one reading, as data.
//!
//! Each [`Passage`] quotes a short fragment and lists its readings; each
//! [`Reading`] is a [`Formula`] over the operands of the variants it is
//! compared on, and says which text it transcribes. The audit
//! (`ptxcheck audit`) proves, for every pair of readings and every variant,
//! that they agree on all inputs or finds inputs that tell them apart, and
//! from that says which readings agree with the pseudocode, the prose, the
//! section's worked examples and the model.
//!
//! Every assumption of the model ([`ptx_spec::assumption`]) is a passage here,
//! with the reading it adopts and the ones it does not.

pub mod compare;

use ptx_spec::assumption::{self, Assumption};
use ptx_spec::bv::{Algebra, BitVec, Concrete};
use ptx_spec::catalogue::carry::{Arith, FLAG_NAME};
use ptx_spec::catalogue::{
    add_sub::AddSub,
    bit_count::BitCount,
    bit_field::{BitField, Mode},
    compare_select::CompareSelect,
    div_rem::DivRem,
    min_max::MinMax,
    mul_mad::{MulMad, MulMode},
    shift::Shift,
};
use ptx_spec::catalogue::{Inputs, Out, Outputs, Type, Variant};
use ptx_spec::family::bit_count::{fns_parts, fns_reading, FnsMagnitude};

use crate::audit::readings::add_sub::{
    abs_saturating, neg_saturating, neg_sign_bit_flip, sad_unsigned_compare, sad_wrapped_difference,
};
use crate::audit::readings::bit_count::{
    bfind_int_shift, bfind_negate, bfind_shift_below_sign, clz_c_precedence, fns_base_unchecked,
};
use crate::audit::readings::bit_field::{
    bfe_sign_reading, bfe_start_rule_first, bfe_zero_past_msb, bfi_field_in_place, bfi_whole_or_nothing,
    bmsk_position_unwrapped, bmsk_signed_operands, bmsk_width_top, bmsk_wrap_around, bmsk_zero_either_width,
    szext_pseudocode, szext_wrap_mod_33, BfeSign, RangeLimit, SzextRepair,
};
use crate::audit::readings::carry::{carry_reading, CarryReading};
use crate::audit::readings::compare::{compare_reading, CompareReading};
use crate::audit::readings::compare_select::{selp_quieting, slct_sign_bit};
use crate::audit::readings::div_rem::{div_flooring, div_saturating, rem_flooring, rem_truncating};
use crate::audit::readings::dot::{dot_reading, ElementOrder, ExtractOrder};
use crate::audit::readings::mul_mad::mul24_full_operands;
use crate::audit::readings::prmt::{prmt_pair_reading, prmt_position_blind, SourcePair};
use crate::audit::readings::shfl::{
    shfl_clamped_reading, shfl_guard_off_reading, shfl_reading, shfl_sync_reading, shfl_unordered_slots_reading,
    shfl_within_segment_reading, InactiveSource, SourceReading, SyncReading,
};
use crate::audit::readings::shift::{shf_amount_top, shf_mod32, shift_reading, ShiftAmount};

/// The text a reading transcribes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Text {
    /// The Semantics block as the model reads it.
    Pseudocode,
    /// The Semantics block with a repair where it does not parse.
    RepairedPseudocode,
    /// The Description or Notes.
    Prose,
    /// The Semantics block as a C compiler reads it.
    C,
    /// Neither text says it; a reading an implementer could plausibly take
    /// (what hardware or a solver does, say).
    Other,
}

impl Text {
    pub fn label(self) -> &'static str {
        match self {
            Text::Pseudocode => "pseudocode",
            Text::RepairedPseudocode => "repaired pseudocode",
            Text::Prose => "prose",
            Text::C => "C",
            Text::Other => "other",
        }
    }
}

/// How a reading takes an operand restricted to a range: the readings every
/// stated restriction gets, whatever the instruction (the restriction pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restrict {
    /// Only the low `bits` bits are used.
    Mask { bits: u32 },
    /// A value above `bound` counts as `bound`.
    Clamp { bound: u128 },
    /// A value above `bound` is out of contract: the result is undefined.
    OutOfContract { bound: u128 },
}

/// A reading of a passage, as a computation over the variant's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formula {
    /// The model's semantics (`Variant::semantics`).
    Model,
    /// 9.7.2: a reading of the carry flag (see [`CarryReading`]).
    Carry(CarryReading),
    /// 9.7.6.1-2: a reading of set and setp (see [`CompareReading`]).
    Compare(CompareReading),
    /// The model's value, undefined wherever it is not the exact result:
    /// signed overflow of add and sub, as in C.
    UndefinedOnSignedOverflow,
    /// .sat applied to the wrapped 32-bit result, which is always in range.
    SaturateWrapped,
    /// A packed add done as one add of the whole registers: element 0's
    /// carry passes into element 1.
    PackedAsOneWord,
    /// abs or neg of the most negative value gives the most positive one.
    AbsNegSaturating,
    /// The model's value, left unspecified at the most negative value (abs,
    /// neg) or at MIN / -1 (div).
    UnspecifiedAtMin,
    /// Division by zero as SMT-LIB defines it: a quotient of all ones
    /// (unsigned; for signed, -1 or 1 by a's sign), a remainder of a.
    SmtLibTotal,
    /// MIN / -1 saturates to MAX.
    DivSaturating,
    /// A signed quotient rounded toward negative infinity.
    DivFlooring,
    /// The remainder takes a's sign (C99's truncating division).
    RemTruncating,
    /// The remainder takes b's sign (flooring division).
    RemFlooring,
    /// mul24 multiplies the full 32-bit operands.
    Mul24FullOperands,
    /// mad and mad24 writing the product's half alone to d, c not added:
    /// what mul and mul24 write.
    MadProductHalf,
    /// mul24.s32 and mad24.s32 (not .sat) read each operand's 24 bits
    /// unsigned: the .u32 form's computation.
    Mul24UnsignedParts,
    /// clz with C's precedence: `a & (mask == 0)`.
    ClzCPrecedence,
    /// bfind's `1<<i` as a 32-bit int, the amount mod 32.
    BfindIntShift,
    /// bfind with a negative signed input negated (-a), as the block's
    /// comment says, instead of complemented.
    BfindNegate,
    /// A stated restriction of operands `operands` (section 9.7.1.19-20:
    /// "restricted to" a range) read as given: the model run on the
    /// operands masked, clamped, or with the result undefined out of range.
    Restricted { operands: &'static [&'static str], how: Restrict },
    /// fns with a base above 31: no bit found.
    FnsBaseUnchecked,
    /// fns with |offset| computed as given.
    FnsMagnitude(FnsMagnitude),
    /// bfe.s with the sign bit read as given.
    BfeSign(BfeSign),
    /// bfe with the field's bits past the msb read as 0.
    BfeZeroPastMsb,
    /// bfe.s with a start past the msb filling d with a's msb even for a
    /// zero length.
    BfeStartRuleFirst,
    /// neg flipping only the sign bit.
    NegSignBitFlip,
    /// szext.wrap with N taken modulo 33, so that N = 32 keeps a.
    SzextWrapMod33,
    /// bmsk.clamp with a and b read as signed values.
    BmskSignedOperands,
    /// bmsk.wrap with the position a not wrapped.
    BmskPositionUnwrapped,
    /// bmsk with a width outside the Notes' range read as given.
    BmskWidthLimited(RangeLimit),
    /// bmsk.wrap with a mask past bit 31 wrapped around to bit 0.
    BmskWrapAround,
    /// bfi with a field that does not fit whole leaving b.
    BfiWholeOrNothing,
    /// bfi with the field taken from a's bits at the insertion positions.
    BfiFieldInPlace,
    /// bmsk with a zero wrapped width giving 0 in either mode.
    BmskZeroEitherWidth,
    /// sad of an unsigned type on the wrapped difference a-b.
    SadWrappedDifference,
    /// sad of a signed type with a<b compared as unsigned values.
    SadUnsignedCompare,
    /// bfind.shiftamt of a signed type counting to the bit below the sign bit.
    BfindShiftBelowSign,
    /// szext's Semantics block with its last line repaired as given.
    Szext(SzextRepair),
    /// dp4a's or dp2a's Semantics block with its extract helpers' element
    /// order read as given.
    DotOrder(ExtractOrder),
    /// The elements of a packed `.s16x2` operand read unsigned, as bit
    /// fields (`a[0:15]`) are: the `.u16x2` form's computation (and `.relu`,
    /// which clamps only negative elements, then never applies).
    PackedUnsignedSlices,
    /// `.relu` on a packed `.s16x2` result read as one 32-bit signed
    /// value: the elements' minimum or maximum, then 0 where bit 31 is set.
    ReluOfWholeResult,
    /// shf's two 32-bit shifts with amounts taken mod 32.
    ShfMod32,
    /// shf with an amount outside the Notes' range read as given.
    ShfAmountLimited(RangeLimit),
    /// shl/shr with the amount read as given.
    ShiftAmount(ShiftAmount),
    /// shfl with the source lane j computed as given.
    ShflSource(SourceReading),
    /// shfl with a read from a lane that does not execute resolved as given.
    ShflInactive(InactiveSource),
    /// shfl.sync with its member mask read as given.
    ShflSync(SyncReading),
    /// shfl with the block run by a thread that does not execute.
    ShflGuardOffWrites,
    /// shfl with a source index past c's bound clamped to the bound.
    ShflClampedToBound,
    /// shfl with a source lane outside the thread's sub-segment out of range.
    ShflWithinSegment,
    /// shfl and shfl.sync with each thread running the block in its own
    /// order: another lane's `SourceA` slot not yet written when read.
    ShflUnorderedSlots,
    /// prmt with its source pair computed as given.
    PrmtPair(SourcePair),
    /// prmt with ReadByte blind to the target position.
    PrmtPositionBlind,
    /// The model's value, undefined everywhere: the block never assigns d.
    NeverAssigned,
    /// slct with c tested by its sign bit.
    SlctSignBit,
    /// selp of a float type as a move that quiets a NaN.
    SelpQuietsNan,
}

/// Whether `a + b` (`add`) or `a - b` fits in `w` signed bits.
fn fits_signed<A: Algebra>(alg: &A, add: bool, w: u32, a: A::Bv, b: A::Bv) -> A::Bool {
    let (a, b) = (alg.sign_extend(1, a), alg.sign_extend(1, b));
    let exact = if add { alg.bvadd(a, b) } else { alg.bvsub(a, b) };
    alg.eq(alg.sign_extend(1, alg.extract(w - 1, 0, exact)), exact)
}

/// The outputs of `variant` with the `restricted` operands brought into
/// their range as `how` says (or the result undefined outside it).
fn restricted_outputs<A: Algebra>(
    alg: &A,
    variant: &Variant,
    ins: &[A::Bv],
    restricted: &[&str],
    how: Restrict,
) -> Outputs<A> {
    let mut rewritten: Vec<A::Bv> = ins.to_vec();
    let mut in_range = alg.bool_constant(true);
    for (k, o) in variant.inputs().iter().enumerate().filter(|(_, o)| restricted.contains(&o.name)) {
        let w = o.ty.width();
        let x = ins[k];
        match how {
            Restrict::Mask { bits } => {
                rewritten[k] = alg.bvand(x, alg.constant(w, (1u128 << bits) - 1));
            }
            Restrict::Clamp { bound } => {
                let b = alg.constant(w, bound);
                rewritten[k] = alg.ite(alg.bvugt(x, b), b, x);
            }
            Restrict::OutOfContract { bound } => {
                in_range = alg.and(in_range, alg.bvule(x, alg.constant(w, bound)));
            }
        }
    }
    let mut outs = variant.semantics(alg, &rewritten);
    for o in &mut outs {
        o.defined = alg.and(o.defined, in_range);
    }
    outs
}

/// The unsigned form of a signed packed variant whose elements a reading
/// takes as unsigned bit fields (`.relu` then never applies).
fn packed_unsigned(variant: Variant) -> Option<Variant> {
    match variant {
        Variant::AddSub(AddSub::Add { ty: Type::S16x2, sat }) => {
            Some(Variant::AddSub(AddSub::Add { ty: Type::U16x2, sat }))
        }
        Variant::MinMax(MinMax::Min { ty: Type::S16x2, .. }) => {
            Some(Variant::MinMax(MinMax::Min { ty: Type::U16x2, relu: false }))
        }
        Variant::MinMax(MinMax::Max { ty: Type::S16x2, .. }) => {
            Some(Variant::MinMax(MinMax::Max { ty: Type::U16x2, relu: false }))
        }
        _ => None,
    }
}

/// min and max `.relu.s16x2` with `.relu` applied to the 32-bit result
/// read as one signed value ([`Formula::ReluOfWholeResult`]).
fn relu_of_whole_result<A: Algebra>(alg: &A, m: MinMax, ins: &[A::Bv]) -> Option<Outputs<A>> {
    let unclamped = match m {
        MinMax::Min { ty: Type::S16x2, relu: true } => MinMax::Min { ty: Type::S16x2, relu: false },
        MinMax::Max { ty: Type::S16x2, relu: true } => MinMax::Max { ty: Type::S16x2, relu: false },
        _ => return None,
    };
    let outs = Variant::MinMax(unclamped).semantics(alg, ins);
    let d = outs[0].value;
    let negative = alg.bvslt(d, alg.constant(32, 0));
    Some(vec![Out { value: alg.ite(negative, alg.constant(32, 0), d), defined: outs[0].defined }])
}

impl Formula {
    /// The outputs under this reading, in the order of `variant.outputs()`;
    /// `None` if the formula does not apply to the variant.
    pub fn outputs<A: Algebra>(self, alg: &A, variant: &Variant, ins: &[A::Bv]) -> Option<Outputs<A>> {
        let one = |value: A::Bv| Some(vec![Out { value, defined: alg.bool_constant(true) }]);
        // The model in its SMT encoding, the transcribed pseudocode, which
        // `prove` shows equal to the concrete semantics (outputs and
        // definedness) on every input: the readings are variations of the
        // pseudocode, so their terms share its shape. dp4a's reversed element
        // order against the semantics' products formed at 16 bits took the
        // solver about 50 s; against the encoding's, a fraction of a second.
        let model = || ptx_smt::encode::encode(variant, alg, ins);
        let operands = variant.inputs();
        let named = Inputs::new(&operands, ins);
        let get = |name: &str| named.get(name);
        let with_defined = |extra: A::Bool| {
            let mut outs = model();
            outs[0].defined = alg.and(outs[0].defined, extra);
            Some(outs)
        };
        match (self, *variant) {
            (Formula::Model, _) => Some(model()),
            (
                Formula::UndefinedOnSignedOverflow,
                Variant::AddSub(op @ (AddSub::Add { ty, sat: false } | AddSub::Sub { ty, sat: false })),
            ) if ty.is_signed() && ty.lanes() == 1 => {
                with_defined(fits_signed(alg, matches!(op, AddSub::Add { .. }), ty.width(), get("a"), get("b")))
            }
            (Formula::SaturateWrapped, Variant::AddSub(AddSub::Add { sat: true, .. })) => {
                one(alg.bvadd(get("a"), get("b")))
            }
            (Formula::SaturateWrapped, Variant::AddSub(AddSub::Sub { sat: true, .. })) => {
                one(alg.bvsub(get("a"), get("b")))
            }
            (Formula::PackedAsOneWord, Variant::AddSub(AddSub::Add { ty, .. })) if ty.lanes() > 1 => {
                one(alg.bvadd(get("a"), get("b")))
            }
            // mad and mad24 (9.7.1.4, 9.7.1.6): the block's wrapped sum of
            // the high half and c, the form without `.sat`.
            (Formula::SaturateWrapped, Variant::MulMad(MulMad::Mad { mode, ty, sat: true })) => {
                Some(Variant::MulMad(MulMad::Mad { mode, ty, sat: false }).semantics(alg, ins))
            }
            (Formula::SaturateWrapped, Variant::MulMad(MulMad::Mad24 { mode, ty, sat: true })) => {
                Some(Variant::MulMad(MulMad::Mad24 { mode, ty, sat: false }).semantics(alg, ins))
            }
            (Formula::AbsNegSaturating, Variant::AddSub(AddSub::Abs(_))) => one(abs_saturating(alg, get("a"))),
            (Formula::AbsNegSaturating, Variant::AddSub(AddSub::Neg(_))) => one(neg_saturating(alg, get("a"))),
            (Formula::UnspecifiedAtMin, Variant::AddSub(AddSub::Abs(t) | AddSub::Neg(t))) if t.is_signed() => {
                let min = alg.constant(t.width(), 1 << (t.width() - 1));
                with_defined(alg.not(alg.eq(get("a"), min)))
            }
            (Formula::UnspecifiedAtMin, Variant::DivRem(DivRem::Div(t))) if t.is_signed() => {
                let w = t.width();
                let overflow = alg.and(alg.eq(get("a"), alg.constant(w, 1 << (w - 1))), alg.eq(get("b"), alg.ones(w)));
                with_defined(alg.not(overflow))
            }
            (Formula::SmtLibTotal, Variant::DivRem(DivRem::Div(t))) if t.is_signed() => {
                one(alg.bvsdiv(get("a"), get("b")))
            }
            (Formula::SmtLibTotal, Variant::DivRem(DivRem::Div(_))) => one(alg.bvudiv(get("a"), get("b"))),
            (Formula::SmtLibTotal, Variant::DivRem(DivRem::Rem(t))) if !t.is_signed() => {
                one(alg.bvurem(get("a"), get("b")))
            }
            (Formula::DivSaturating, Variant::DivRem(DivRem::Div(t))) if t.is_signed() => {
                with_value::<A>(model(), div_saturating(alg, get("a"), get("b")))
            }
            (Formula::DivFlooring, Variant::DivRem(DivRem::Div(t))) if t.is_signed() => {
                defined_where_nonzero(alg, div_flooring(alg, get("a"), get("b")), get("b"))
            }
            (Formula::RemTruncating, Variant::DivRem(DivRem::Rem(t))) if t.is_signed() => {
                defined_where_nonzero(alg, rem_truncating(alg, get("a"), get("b")), get("b"))
            }
            (Formula::RemFlooring, Variant::DivRem(DivRem::Rem(t))) if t.is_signed() => {
                defined_where_nonzero(alg, rem_flooring(alg, get("a"), get("b")), get("b"))
            }
            (Formula::Mul24FullOperands, Variant::MulMad(MulMad::Mul24(mode, t))) => {
                one(mul24_full_operands(alg, mode, t.is_signed(), get("a"), get("b")))
            }
            (Formula::MadProductHalf, Variant::MulMad(MulMad::Mad { mode, ty, .. })) if mode != MulMode::Wide => {
                Some(Variant::MulMad(MulMad::Mul(mode, ty)).semantics(alg, &ins[..2]))
            }
            (Formula::MadProductHalf, Variant::MulMad(MulMad::Mad24 { mode, ty, .. })) => {
                Some(Variant::MulMad(MulMad::Mul24(mode, ty)).semantics(alg, &ins[..2]))
            }
            (Formula::Mul24UnsignedParts, Variant::MulMad(MulMad::Mul24(mode, t))) if t.is_signed() => {
                Some(Variant::MulMad(MulMad::Mul24(mode, Type::U32)).semantics(alg, ins))
            }
            (Formula::Mul24UnsignedParts, Variant::MulMad(MulMad::Mad24 { mode, ty, sat: false }))
                if ty.is_signed() =>
            {
                Some(Variant::MulMad(MulMad::Mad24 { mode, ty: Type::U32, sat: false }).semantics(alg, ins))
            }
            (Formula::ClzCPrecedence, Variant::BitCount(BitCount::Clz(_))) => one(clz_c_precedence(alg, get("a"))),
            (Formula::BfindIntShift, Variant::BitCount(BitCount::Bfind { ty, shiftamt })) => {
                one(bfind_int_shift(alg, ty.is_signed(), shiftamt, get("a")))
            }
            (Formula::BfindNegate, Variant::BitCount(BitCount::Bfind { ty, shiftamt })) if ty.is_signed() => {
                one(bfind_negate(alg, shiftamt, get("a")))
            }
            (Formula::Restricted { operands: restricted, how }, _) => {
                Some(restricted_outputs(alg, variant, ins, restricted, how))
            }
            (Formula::FnsBaseUnchecked, Variant::BitCount(BitCount::Fns)) => {
                one(fns_base_unchecked(alg, get("mask"), get("base"), get("offset")))
            }
            (Formula::FnsMagnitude(m), Variant::BitCount(BitCount::Fns)) => {
                Some(vec![fns_reading(alg, m, get("mask"), get("base"), get("offset"))])
            }
            (Formula::NegSignBitFlip, Variant::AddSub(AddSub::Neg(_))) => one(neg_sign_bit_flip(alg, get("a"))),
            (Formula::DotOrder(order), Variant::Dot(dot)) => {
                one(dot_reading(alg, dot, order, get("a"), get("b"), get("c")))
            }
            (Formula::PackedUnsignedSlices, _) => packed_unsigned(*variant).map(|u| u.semantics(alg, ins)),
            (Formula::ReluOfWholeResult, Variant::MinMax(m)) => relu_of_whole_result(alg, m, ins),
            (Formula::NeverAssigned, _) => with_defined(alg.bool_constant(false)),
            _ => self.difference_and_count_outputs(alg, variant, ins),
        }
    }

    /// [`Formula::outputs`] for the readings of sad's difference (9.7.1.7)
    /// and of bfind.shiftamt's target bit (9.7.1.16).
    fn difference_and_count_outputs<A: Algebra>(self, alg: &A, variant: &Variant, ins: &[A::Bv]) -> Option<Outputs<A>> {
        let one = |value: A::Bv| Some(vec![Out { value, defined: alg.bool_constant(true) }]);
        let model = || ptx_smt::encode::encode(variant, alg, ins);
        let operands = variant.inputs();
        let named = Inputs::new(&operands, ins);
        let get = |name: &str| named.get(name);
        match (self, *variant) {
            (Formula::SadWrappedDifference, Variant::AddSub(AddSub::Sad(t))) if !t.is_signed() => {
                one(sad_wrapped_difference(alg, get("a"), get("b"), get("c")))
            }
            (Formula::SadUnsignedCompare, Variant::AddSub(AddSub::Sad(t))) if t.is_signed() => {
                one(sad_unsigned_compare(alg, get("a"), get("b"), get("c")))
            }
            (Formula::BfindShiftBelowSign, Variant::BitCount(BitCount::Bfind { ty, shiftamt: true }))
                if ty.is_signed() =>
            {
                one(bfind_shift_below_sign(alg, model()[0].value))
            }
            _ => self.bit_field_outputs(alg, variant, ins),
        }
    }

    /// [`Formula::outputs`] for the bit-field readings (9.7.1.19-22).
    fn bit_field_outputs<A: Algebra>(self, alg: &A, variant: &Variant, ins: &[A::Bv]) -> Option<Outputs<A>> {
        let one = |value: A::Bv| Some(vec![Out { value, defined: alg.bool_constant(true) }]);
        let model = || ptx_smt::encode::encode(variant, alg, ins);
        let operands = variant.inputs();
        let named = Inputs::new(&operands, ins);
        let get = |name: &str| named.get(name);
        match (self, *variant) {
            (Formula::BfeSign(r), Variant::BitField(BitField::Bfe(t))) if t.is_signed() => {
                one(bfe_sign_reading(alg, r, get("a"), get("b"), get("c")))
            }
            (Formula::BfeZeroPastMsb, Variant::BitField(BitField::Bfe(t))) => {
                one(bfe_zero_past_msb(alg, t.is_signed(), get("a"), get("b"), get("c")))
            }
            (Formula::BfeStartRuleFirst, Variant::BitField(BitField::Bfe(t))) if t.is_signed() => {
                one(bfe_start_rule_first(alg, model()[0].value, get("a"), get("b")))
            }
            (Formula::SzextWrapMod33, Variant::BitField(BitField::Szext(Mode::Wrap, t))) => {
                one(szext_wrap_mod_33(alg, t.is_signed(), get("a"), get("b")))
            }
            (Formula::BmskSignedOperands, Variant::BitField(BitField::Bmsk(Mode::Clamp))) => {
                Some(variant.semantics(alg, &bmsk_signed_operands(alg, get("a"), get("b"))))
            }
            (Formula::BmskPositionUnwrapped, Variant::BitField(BitField::Bmsk(Mode::Wrap))) => {
                one(bmsk_position_unwrapped(alg, model()[0].value, get("a")))
            }
            (Formula::BmskWrapAround, Variant::BitField(BitField::Bmsk(Mode::Wrap))) => {
                one(bmsk_wrap_around(alg, get("a"), get("b")))
            }
            (Formula::BfiWholeOrNothing, Variant::BitField(BitField::Bfi(_))) => {
                one(bfi_whole_or_nothing(alg, model()[0].value, get("b"), get("c"), get("d")))
            }
            (Formula::BfiFieldInPlace, Variant::BitField(BitField::Bfi(_))) => {
                one(bfi_field_in_place(alg, get("a"), get("b"), get("c"), get("d")))
            }
            (Formula::BmskZeroEitherWidth, Variant::BitField(BitField::Bmsk(_))) => {
                one(bmsk_zero_either_width(alg, model()[0].value, get("b")))
            }
            (Formula::BmskWidthLimited(limit), Variant::BitField(BitField::Bmsk(mode))) => {
                let bound = bmsk_width_top(mode);
                let how = match limit {
                    RangeLimit::Clamped => Restrict::Clamp { bound },
                    RangeLimit::OutOfContract => Restrict::OutOfContract { bound },
                };
                Some(restricted_outputs(alg, variant, ins, &["b"], how))
            }
            (Formula::Szext(repair), Variant::BitField(BitField::Szext(mode, t))) => {
                one(szext_pseudocode(alg, mode, t.is_signed(), repair, get("a"), get("b")))
            }
            _ => self.shift_and_movement_outputs(alg, variant, ins),
        }
    }

    /// [`Formula::outputs`] for the shift and data movement readings (9.7.8.7-9, 9.7.9).
    fn shift_and_movement_outputs<A: Algebra>(self, alg: &A, variant: &Variant, ins: &[A::Bv]) -> Option<Outputs<A>> {
        let one = |value: A::Bv| Some(vec![Out { value, defined: alg.bool_constant(true) }]);
        let operands = variant.inputs();
        let named = Inputs::new(&operands, ins);
        let get = |name: &str| named.get(name);
        match (self, *variant) {
            (Formula::ShfAmountLimited(limit), Variant::Shift(Shift::Shf(_, mode))) => {
                let bound = shf_amount_top(mode);
                let how = match limit {
                    RangeLimit::Clamped => Restrict::Clamp { bound },
                    RangeLimit::OutOfContract => Restrict::OutOfContract { bound },
                };
                Some(restricted_outputs(alg, variant, ins, &["c"], how))
            }
            (Formula::ShfMod32, Variant::Shift(Shift::Shf(dir, mode))) => {
                one(shf_mod32(alg, dir, mode, get("a"), get("b"), get("c")))
            }
            (Formula::ShiftAmount(r), Variant::Shift(Shift::Shl(_))) => {
                one(shift_reading(alg, r, None, get("a"), get("b")))
            }
            (Formula::ShiftAmount(r), Variant::Shift(Shift::Shr(t))) => {
                one(shift_reading(alg, r, Some(t.is_signed()), get("a"), get("b")))
            }
            (Formula::ShflSource(r), Variant::Shfl(s)) => {
                Some(shfl_reading(alg, s, Some(r), InactiveSource::Unpredictable, ins))
            }
            (Formula::ShflInactive(r), Variant::Shfl(s)) => Some(shfl_reading(alg, s, None, r, ins)),
            (Formula::ShflSync(r), Variant::Shfl(s)) if s.sync => Some(shfl_sync_reading(alg, s, r, ins)),
            (Formula::ShflGuardOffWrites, Variant::Shfl(s)) if !s.sync => Some(shfl_guard_off_reading(alg, s, ins)),
            (Formula::ShflClampedToBound, Variant::Shfl(s)) if !s.sync => Some(shfl_clamped_reading(alg, s, ins)),
            (Formula::ShflWithinSegment, Variant::Shfl(s)) if !s.sync => Some(shfl_within_segment_reading(alg, s, ins)),
            (Formula::ShflUnorderedSlots, Variant::Shfl(s)) => Some(shfl_unordered_slots_reading(alg, s, ins)),
            (Formula::PrmtPair(pair), Variant::Prmt(v)) => {
                one(prmt_pair_reading(alg, v, pair, get("a"), get("b"), get("c")))
            }
            (Formula::PrmtPositionBlind, Variant::Prmt(v)) => {
                one(prmt_position_blind(alg, v, get("a"), get("b"), get("c")))
            }
            (Formula::SlctSignBit, Variant::CompareSelect(CompareSelect::Slct { .. })) => {
                one(slct_sign_bit(alg, get("a"), get("b"), get("c")))
            }
            (Formula::SelpQuietsNan, Variant::CompareSelect(CompareSelect::Selp(ty @ (Type::F32 | Type::F64)))) => {
                one(selp_quieting(alg, ty, get("a"), get("b"), get("c")))
            }
            (Formula::Compare(r), Variant::Compare(v)) => compare_reading(alg, v, r, ins),
            (Formula::Carry(r), Variant::Carry(v)) => {
                let applies = match r {
                    CarryReading::SignedOverflow => v.arith != Arith::Sub && v.carry_out,
                    CarryReading::CarryPolarity | CarryReading::WrappedSubtrahend => v.arith == Arith::Sub,
                    CarryReading::LiteralBounds => matches!(v.arith, Arith::Mad(_)),
                    CarryReading::UnsetReadsZero => v.carry_in,
                };
                let zero = alg.constant(v.ty.width(), 0);
                let operand = |name: &str| operands.iter().any(|o| o.name == name).then(|| get(name));
                let inputs = [get("a"), get("b"), operand("c").unwrap_or(zero), operand(FLAG_NAME).unwrap_or(zero)];
                applies.then(|| carry_reading(alg, v, r, inputs))
            }
            _ => None,
        }
    }
}

impl Formula {
    /// Terms of which this reading's outputs are one fixed function (with
    /// the operands), shared with every other reading that has a key of the
    /// same length: fns's readings of |offset| (see
    /// [`ptx_spec::family::bit_count::FnsParts`]). Two such readings agree
    /// wherever their keys do. `None` for every other reading.
    pub fn key<A: Algebra>(self, alg: &A, variant: &Variant, ins: &[A::Bv]) -> Option<Vec<A::Bv>> {
        match (self, *variant) {
            (Formula::FnsMagnitude(m), Variant::BitCount(BitCount::Fns)) => {
                let parts = fns_parts(alg, m, ins[0], ins[1], ins[2]);
                let s = parts.scans;
                Some(vec![s.upward, s.downward, s.skip, alg.bool_to_bv(parts.defined)])
            }
            _ => None,
        }
    }
}

/// The model's outputs with the first one's value replaced.
fn with_value<A: Algebra>(mut outs: Outputs<A>, value: A::Bv) -> Option<Outputs<A>> {
    outs[0].value = value;
    Some(outs)
}

/// One output, defined wherever the divisor is not zero.
fn defined_where_nonzero<A: Algebra>(alg: &A, value: A::Bv, divisor: A::Bv) -> Option<Outputs<A>> {
    Some(vec![Out { value, defined: alg.not(alg.is_zero(divisor)) }])
}

/// A reading of a passage.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    /// Short, kebab-case, unique within the passage.
    pub name: &'static str,
    /// The reading in words.
    pub says: &'static str,
    /// The text it transcribes.
    pub text: Text,
    pub formula: Formula,
}

/// A worked example of the section that bears on the passage: inputs and
/// the outputs the spec states.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The example as the spec writes it.
    pub instruction: &'static str,
    pub variant: &'static str,
    pub inputs: &'static [u128],
    pub outputs: &'static [u128],
}

/// A passage that admits more than one reading.
#[derive(Clone, Copy, Debug)]
pub struct Passage {
    /// Stable identifier; the assumption's id where the passage is one.
    pub id: &'static str,
    pub section: &'static str,
    /// A short fragment of the spec text.
    pub fragment: &'static str,
    /// What the text leaves open, in one line.
    pub question: &'static str,
    /// The variants the readings are compared on, as the passage names them;
    /// `widths` adds each one's other widths.
    pub variants: &'static [&'static str],
    pub readings: &'static [Reading],
    /// The name of the reading the model adopts.
    pub adopted: &'static str,
    pub examples: &'static [Example],
    /// The model's assumption for this passage, if it is one.
    pub assumption: Option<&'static Assumption>,
}

impl Passage {
    pub fn reading(&self, name: &str) -> Option<&Reading> {
        self.readings.iter().find(|r| r.name == name)
    }

    /// Every width the passage covers: the listed variants, then the same
    /// instructions at each other width of their type (`add.s32` brings
    /// `add.s16` and `add.s64`) where the catalogue has them and every
    /// reading applies. The readings are compared, and probed, on all of
    /// them: a reading that matches another at one width may not at the
    /// next. The listed ones come first, so they stay the findings' witnesses.
    pub fn widths(&self) -> Vec<String> {
        let mut out: Vec<String> = self.variants.iter().map(|v| v.to_string()).collect();
        for name in self.variants.iter().flat_map(|v| other_widths(v)) {
            let applies = Variant::from_mnemonic(&name).is_some_and(|v| self.applies_to(&v));
            if applies && !out.contains(&name) {
                out.push(name);
            }
        }
        out
    }

    /// Every reading gives outputs on `variant`.
    fn applies_to(&self, variant: &Variant) -> bool {
        let ins: Vec<BitVec> = variant.inputs().iter().map(|o| BitVec::new(o.ty.width(), 0)).collect();
        self.readings.iter().all(|r| r.formula.outputs(&Concrete, variant, &ins).is_some())
    }
}

/// `name` with every scalar type token (`.s32`, `.u16`, `.b64`) at each of
/// the other widths, the letters kept.
fn other_widths(name: &str) -> Vec<String> {
    let (head, tail) = name.split_once(' ').map_or((name, ""), |(h, t)| (h, t));
    let typed = |token: &str| {
        let Some((letter, bits)) = token.split_at_checked(1) else { return false };
        matches!(letter, "s" | "u" | "b") && matches!(bits, "16" | "32" | "64")
    };
    let tokens: Vec<&str> = head.split('.').collect();
    if !tokens.iter().skip(1).any(|t| typed(t)) {
        return Vec::new();
    }
    ["16", "32", "64"]
        .iter()
        .map(|bits| {
            let head: Vec<String> = tokens
                .iter()
                .enumerate()
                .map(|(i, t)| if i > 0 && typed(t) { format!("{}{bits}", &t[..1]) } else { t.to_string() })
                .collect();
            let joined = head.join(".");
            if tail.is_empty() {
                joined
            } else {
                format!("{joined} {tail}")
            }
        })
        .filter(|n| n != name)
        .collect()
}

/// The readings of a packed form's elements, where a block extracts them
/// as bit fields (`iA[0] = a[0:15]`) and never says how they extend: the
/// packed pass (`audit::text::packed`) finds every such block, and each
/// where the readings differ must have a passage with them.
const PACKED_SIGN: [Reading; 2] = [
    model(
        "each element has the sign of the instruction type: the halves of .s16x2 are signed 16-bit values, those of \
         .u16x2 unsigned, as the type names say (no sentence says it)",
        Text::Other,
    ),
    Reading {
        name: "unsigned-slices",
        says: "a[0:15] and a[16:31] are bit fields, unsigned as a slice of bits is, whatever the type: .s16x2 \
               computes what .u16x2 does (and .relu, which clamps negative elements, never applies)",
        text: Text::Pseudocode,
        formula: Formula::PackedUnsignedSlices,
    },
];

const fn model(says: &'static str, text: Text) -> Reading {
    Reading { name: "model", says, text, formula: Formula::Model }
}

/// The restriction pass: an operand the text says is "restricted to" a
/// range gets the same readings whatever the instruction, compared on every
/// width the instruction has (32-bit and 64-bit forms separately): masked to
/// the range's bits, as the pseudocode does where it writes `& 0xff`;
/// clamped to its top; or out of contract (the result undefined).
const fn restriction_readings(operands: &'static [&'static str], bound: u128) -> [Reading; 3] {
    [
        Reading {
            name: "model",
            says: "masked: only the low bits count, as the block's `& 0xff` and its comment say",
            text: Text::Pseudocode,
            formula: Formula::Model,
        },
        Reading {
            name: "clamped",
            says: "a value above the range counts as its top",
            text: Text::Other,
            formula: Formula::Restricted { operands, how: Restrict::Clamp { bound } },
        },
        Reading {
            name: "out-of-contract",
            says: "a value above the range is not allowed: the result is undefined",
            text: Text::Other,
            formula: Formula::Restricted { operands, how: Restrict::OutOfContract { bound } },
        },
    ]
}

const BFE_RANGE: [Reading; 3] = restriction_readings(&["b", "c"], 255);
const BFI_RANGE: [Reading; 3] = restriction_readings(&["c", "d"], 255);

const fn restriction(
    id: &'static str,
    section: &'static str,
    fragment: &'static str,
    _operands: &'static [&'static str],
    variants: &'static [&'static str],
    readings: &'static [Reading],
) -> Passage {
    Passage {
        id,
        section,
        fragment,
        question: "what an operand above its stated range does",
        variants,
        readings,
        adopted: "model",
        examples: &[],
        assumption: None,
    }
}

/// Every passage, in spec order.
pub const PASSAGES: &[Passage] = &[
    Passage {
        id: "int-wraparound",
        section: "9.7.1",
        fragment: "d = a + b",
        question: "what a signed result that does not fit its type is",
        variants: &["add.s32", "sub.s64"],
        readings: &[
            model("the result modulo 2^n, two's complement", Text::Pseudocode),
            Reading {
                name: "c-signed-overflow",
                says: "undefined where the exact result does not fit, as C's signed + and -",
                text: Text::C,
                formula: Formula::UndefinedOnSignedOverflow,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::WRAPAROUND),
    },
    Passage {
        id: "sat-of-exact-result",
        section: "9.7.1.1-6",
        fragment: "limits result to MININT..MAXINT",
        question: "whether .sat clamps the exact sum or the already wrapped 32-bit one",
        variants: &["add.sat.s32", "sub.sat.s32", "mad.hi.sat.s32", "mad24.hi.sat.s32"],
        readings: &[
            model("the exact result, clamped", Text::Prose),
            Reading {
                name: "clamp-wrapped",
                says: "the pseudocode's 32-bit d = a + b first, then the clamp (which then never applies)",
                text: Text::Pseudocode,
                formula: Formula::SaturateWrapped,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SAT_OF_EXACT_RESULT),
    },
    Passage {
        id: "packed-lane-carry",
        section: "9.7.1.1",
        fragment: "added in parallel",
        question: "whether an element's carry passes into the next element of a packed add",
        variants: &["add.u16x2"],
        readings: &[
            model("each element's sum taken modulo 2^16 on its own: no carry between the half-words", Text::Prose),
            Reading {
                name: "one-word",
                says: "the two registers added as one 32-bit value, as a .b32 add of the operands the Description \
                       types .b32: element 0's carry passes into element 1",
                text: Text::Other,
                formula: Formula::PackedAsOneWord,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "abs-neg-most-negative",
        section: "9.7.1.10-11",
        fragment: "d = |a|",
        question: "abs and neg of the most negative value, whose magnitude does not fit",
        variants: &["abs.s32", "neg.s32", "abs.s16"],
        readings: &[
            model("wraps to the most negative value itself", Text::Other),
            Reading {
                name: "saturating",
                says: "the most positive value",
                text: Text::Other,
                formula: Formula::AbsNegSaturating,
            },
            Reading {
                name: "unspecified",
                says: "no value is given (C's abs and unary minus overflow)",
                text: Text::C,
                formula: Formula::UnspecifiedAtMin,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::ABS_NEG_MIN),
    },
    Passage {
        id: "neg-negate-the-sign",
        section: "9.7.1.11",
        fragment: "Negate the sign of",
        question: "whether negating the sign is two's complement negation or flipping the sign bit alone",
        variants: &["neg.s32"],
        readings: &[
            model("two's complement negation, as the block's d = -a: 1 gives -1", Text::Pseudocode),
            Reading {
                name: "sign-bit-flip",
                says: "the sign bit flipped and the other bits kept (sign-magnitude negation): 1 gives 0x80000001",
                text: Text::Prose,
                formula: Formula::NegSignBitFlip,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "sad-absolute-of-wrapped",
        section: "9.7.1.7",
        fragment: "Adds the absolute value of `a-b`",
        question: "for the unsigned types, whether the absolute value is taken of the exact difference or of a-b \
                   as an unsigned instruction computes it, modulo 2^n, where it is never negative",
        variants: &["sad.u16", "sad.u32", "sad.u64"],
        readings: &[
            model("the exact difference, as the block subtracts the smaller operand from the larger", Text::Pseudocode),
            Reading {
                name: "wrapped",
                says: "a-b modulo 2^n, whose absolute value as an unsigned number is itself: sad.u32 of a = 0, \
                       b = 1, c = 0 gives 0xffffffff",
                text: Text::Prose,
                formula: Formula::SadWrappedDifference,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "sad-comparison-sign",
        section: "9.7.1.7",
        fragment: "(a<b)",
        question: "for the signed types, whether the block's a<b compares signed values; no sentence gives the \
                   operands a type or the comparison a sign",
        variants: &["sad.s16", "sad.s32", "sad.s64"],
        readings: &[
            model("a signed comparison, as the instruction's type is signed: a = -1, b = 1 gives 2", Text::Other),
            Reading {
                name: "unsigned-compare",
                says: "the bits compared as unsigned values, as a comparison of untyped registers reads: -1 is \
                       then the larger, and a = -1, b = 1 gives -2",
                text: Text::Other,
                formula: Formula::SadUnsignedCompare,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "div-by-zero-unspecified",
        section: "9.7.1.8",
        fragment: "unspecified, machine-specific value",
        question: "the quotient for b = 0, and whether \"machine-specific\" fixes it (the same a always gives the \
                   same quotient) or lets it differ from one execution to the next",
        variants: &["div.u32", "div.s32"],
        readings: &[
            model("unspecified: any value, not said to be the same on each execution", Text::Prose),
            Reading {
                name: "smt-lib-total",
                says: "a fixed quotient: all ones (SMT-LIB's bvudiv; bvsdiv gives -1 or 1 by a's sign)",
                text: Text::Other,
                formula: Formula::SmtLibTotal,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::DIV_BY_ZERO),
    },
    Passage {
        id: "rem-by-zero-unspecified",
        section: "9.7.1.9",
        fragment: "Divides a by b",
        question: "the remainder for b = 0, on which rem's section is silent",
        variants: &["rem.u32"],
        readings: &[
            model("unspecified, as div's quotient", Text::Other),
            Reading {
                name: "smt-lib-total",
                says: "a itself (SMT-LIB's bvurem)",
                text: Text::Other,
                formula: Formula::SmtLibTotal,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::REM_BY_ZERO),
    },
    Passage {
        id: "div-signed-overflow",
        section: "9.7.1.8",
        fragment: "d = a / b",
        question: "the most negative value divided by -1, whose quotient does not fit",
        variants: &["div.s32", "div.s16"],
        readings: &[
            model("the most negative value (the quotient modulo 2^n)", Text::Other),
            Reading {
                name: "saturating",
                says: "the most positive value",
                text: Text::Other,
                formula: Formula::DivSaturating,
            },
            Reading {
                name: "unspecified",
                says: "no value is given (C's / overflows)",
                text: Text::C,
                formula: Formula::UnspecifiedAtMin,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::DIV_SIGNED_OVERFLOW),
    },
    Passage {
        id: "div-rounding-direction",
        section: "9.7.1.8",
        fragment: "d = a / b",
        question: "which way a signed quotient rounds when it is inexact and a and b differ in sign",
        variants: &["div.s16", "div.s32", "div.s64"],
        readings: &[
            model("toward zero (C99's /): 7 / -2 = -3", Text::C),
            Reading {
                name: "flooring",
                says: "toward negative infinity: 7 / -2 = -4, the other rounding rem's Notes name",
                text: Text::Other,
                formula: Formula::DivFlooring,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::DIV_ROUNDING),
    },
    Passage {
        id: "rem-negative-machine-dependent",
        section: "9.7.1.9",
        fragment: "machine-dependent",
        question: "the sign of a signed remainder when an operand is negative",
        variants: &["rem.s32"],
        readings: &[
            model("unspecified where a or b is negative", Text::Prose),
            Reading {
                name: "truncating",
                says: "the remainder takes a's sign (C99's %)",
                text: Text::C,
                formula: Formula::RemTruncating,
            },
            Reading {
                name: "flooring",
                says: "the remainder takes b's sign",
                text: Text::Other,
                formula: Formula::RemFlooring,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::REM_NEGATIVE),
    },
    Passage {
        id: "mul24-low-24-bits",
        section: "9.7.1.5",
        fragment: "t = a * b",
        question: "whether bits 24..31 of the operands take part in the product",
        variants: &["mul24.lo.s32", "mul24.hi.u32"],
        readings: &[
            model("only bits 0..23, extended from bit 23 (a 48-bit product, as the Notes say)", Text::Prose),
            Reading {
                name: "full-operands",
                says: "the pseudocode's t = a * b of the full 32-bit registers",
                text: Text::Pseudocode,
                formula: Formula::Mul24FullOperands,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::MUL24_LOW_BITS),
    },
    Passage {
        id: "mad-half-written",
        section: "9.7.1.4",
        fragment: "half of the result is written to the destination register",
        question: "whether mad's Notes, which say the product's half is written to d, leave c out",
        variants: &["mad.hi.u32", "mad.lo.s32"],
        readings: &[
            model("the half plus c, as the block's d = t<2n-1..n> + c", Text::Pseudocode),
            Reading {
                name: "half-alone",
                says: "the upper or lower half of the product written to d as it is, as mul's Notes say: c not added",
                text: Text::Prose,
                formula: Formula::MadProductHalf,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "mad24-returns-half",
        section: "9.7.1.6",
        fragment: "Return either the high or low",
        question: "whether mad24's Description, which returns the 48-bit product's high or low 32 bits, leaves c out",
        variants: &["mad24.hi.u32", "mad24.lo.s32"],
        readings: &[
            model("the 32 bits plus c, as the block's d = t<47..16> + c", Text::Pseudocode),
            Reading {
                name: "half-alone",
                says: "the high or low 32 bits of the product returned as they are, as mul24's Description says: c not added",
                text: Text::Prose,
                formula: Formula::MadProductHalf,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "mul24-operand-sign",
        section: "9.7.1.5",
        fragment: "two 24-bit integer values",
        question: "whether the 24-bit part of a .s32 operand is signed",
        variants: &["mul24.lo.s32", "mul24.hi.s32", "mad24.lo.s32", "mad24.hi.s32"],
        readings: &[
            model(
                "bits 0..23 extended from bit 23, as the example's comment \"24x24-bit signed multiply\" suggests",
                Text::Prose,
            ),
            Reading {
                name: "unsigned-parts",
                says: "bits 0..23 read unsigned, as the .u32 form reads them: the text never says the part is signed",
                text: Text::Other,
                formula: Formula::Mul24UnsignedParts,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::MUL24_OPERAND_SIGN),
    },
    Passage {
        id: "relu-of-packed-result",
        section: "9.7.1.12-13",
        fragment: "clamps the result to 0 if negative",
        question: "whether .relu on .s16x2 clamps each half-word of the result or the 32-bit result as a whole",
        variants: &["min.relu.s16x2", "max.relu.s16x2"],
        readings: &[
            model("each half-word set to 0 where it is negative, as each element is computed", Text::Other),
            Reading {
                name: "whole-result",
                says: "the 32-bit result read as one signed value, set to 0 where it is negative: \
                       the Notes name one result",
                text: Text::Prose,
                formula: Formula::ReluOfWholeResult,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "packed-element-sign",
        section: "9.7.1.12-13",
        fragment: "iA[0] = a[0:15];",
        question: "whether the half-words of a .s16x2 operand are signed",
        variants: &["min.s16x2", "max.s16x2", "min.relu.s16x2", "max.relu.s16x2"],
        readings: &PACKED_SIGN,
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "clz-mask-test",
        section: "9.7.1.15",
        fragment: "a&mask == 0",
        question: "how the loop's test groups",
        variants: &["clz.b32", "clz.b64"],
        readings: &[
            model("(a & mask) == 0: the count of leading zeros the Description states", Text::Prose),
            Reading {
                name: "c-precedence",
                says: "a & (mask == 0), as C groups it: always 0, so d = 0",
                text: Text::C,
                formula: Formula::ClzCPrecedence,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::CLZ_MASK_TEST),
    },
    Passage {
        id: "bfind-shift-width",
        section: "9.7.1.16",
        fragment: "1<<i",
        question: "the width of the single-bit mask for 64-bit operands",
        variants: &["bfind.u64", "bfind.s64"],
        readings: &[
            model("the operand's width, so bits 32..63 are tested", Text::Prose),
            Reading {
                name: "c-int-shift",
                says: "a 32-bit C int, the shift amount taken mod 32 (as x86 runs C's undefined shift)",
                text: Text::C,
                formula: Formula::BfindIntShift,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::BFIND_SHIFT_WIDTH),
    },
    Passage {
        id: "bfind-negate-comment",
        section: "9.7.1.16",
        fragment: "// negate negative signed inputs",
        question: "what the block's comment \"negate\" does to a negative signed input before the search",
        variants: &["bfind.s32", "bfind.s64"],
        readings: &[
            model(
                "a = ~a, as the block's code writes and the Description's \"most significant 0\" says",
                Text::Pseudocode,
            ),
            Reading {
                name: "negate",
                says: "the comment read as written: a = -a, two's complement negation",
                text: Text::Prose,
                formula: Formula::BfindNegate,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bfind-shiftamt-signed",
        section: "9.7.1.16",
        fragment: "the shift amount needed to left-shift the found bit",
        question: "for the signed types, which bit \"the most-significant bit position\" is: the sign bit, or the \
                   highest bit below it, where a normalising shift of a signed value puts the found bit",
        variants: &["bfind.shiftamt.s32", "bfind.shiftamt.s64"],
        readings: &[
            model("the sign bit, as the block's msb - d: a = 1 gives 31, and the shifted value is negative", Text::Pseudocode),
            Reading {
                name: "below-sign",
                says: "the highest bit below the sign bit, so that the shift keeps the value's sign: a = 1 gives 30",
                text: Text::Other,
                formula: Formula::BfindShiftBelowSign,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "fns-base-above-31-undefined",
        section: "9.7.1.17",
        fragment: "otherwise behavior is undefined",
        question: "the result for a base above 31",
        variants: &["fns.b32"],
        readings: &[
            model("undefined, as the Description says", Text::Prose),
            Reading {
                name: "loop-never-runs",
                says: "the pseudocode's loop stops at once (pos < 32 fails) and mask[base] reads 0: d = 0xffffffff",
                text: Text::Pseudocode,
                formula: Formula::FnsBaseUnchecked,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::FNS_BASE),
    },
    Passage {
        id: "fns-most-negative-offset",
        section: "9.7.1.17",
        fragment: "count = |offset| - 1",
        question: "|offset| for offset = -2^31, which a 32-bit signed value cannot hold",
        variants: &["fns.b32"],
        readings: &[
            // The model's own function (the semantics' fns is this reading),
            // written as a magnitude reading so that the three compare on
            // their parts (`Formula::key`).
            Reading {
                name: "model",
                says: "exact: 2^31, so the count is never reached",
                text: Text::Pseudocode,
                formula: Formula::FnsMagnitude(FnsMagnitude::Exact),
            },
            Reading {
                name: "wrap-32",
                says: "in 32-bit two's complement, read unsigned (0x80000000)",
                text: Text::Other,
                formula: Formula::FnsMagnitude(FnsMagnitude::Wrap32),
            },
            Reading {
                name: "c-abs",
                says: "C's abs of an int: undefined for -2^31",
                text: Text::C,
                formula: Formula::FnsMagnitude(FnsMagnitude::CAbs),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::FNS_MIN_OFFSET),
    },
    Passage {
        id: "bfe-field-past-msb",
        section: "9.7.1.19",
        fragment: "pos+i<=msb",
        question: "what the bits of a field that runs past a's msb are",
        variants: &["bfe.s32", "bfe.s64", "bfe.u32"],
        readings: &[
            model("the field's sign bit, as the pseudocode's loop and the Description's padding say", Text::Pseudocode),
            Reading {
                name: "zero-past-msb",
                says: "0, as bits of a zero-extended a; only bits from len upward take the sign",
                text: Text::Other,
                formula: Formula::BfeZeroPastMsb,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::BFE_PAST_MSB),
    },
    Passage {
        id: "bfe-sign-bit",
        section: "9.7.1.19",
        fragment: "msb of input a if the extracted field extends beyond the msb of a msb of extracted field, otherwise",
        question: "how the Description's sentence on the sign bit of a signed field parses (its punctuation is lost)",
        variants: &["bfe.s32", "bfe.s64"],
        readings: &[
            Reading {
                name: "field-msb-clamped",
                says:
                    "a's msb if the field's last bit passes it, the field's own msb otherwise: a[min(pos+len-1, msb)]",
                text: Text::Pseudocode,
                formula: Formula::BfeSign(BfeSign::FieldMsbClamped),
            },
            Reading {
                name: "reaches-msb",
                says: "\"extends beyond\" as \"reaches\": a's msb if pos+len-1 >= msb, the field's msb otherwise",
                text: Text::Prose,
                formula: Formula::BfeSign(BfeSign::ReachesMsb),
            },
            Reading {
                name: "otherwise-dangling",
                says: "a's msb if the field passes it; the trailing \"msb of extracted field, otherwise\" dropped, \
                       so 0 otherwise",
                text: Text::Prose,
                formula: Formula::BfeSign(BfeSign::OnlyPastMsb),
            },
            Reading {
                name: "start-past-msb",
                says: "\"extends beyond\" as \"starts beyond\": a's msb if pos > msb, else the bit at pos+len-1 of a \
                       zero-extended a",
                text: Text::Prose,
                formula: Formula::BfeSign(BfeSign::StartPastMsb),
            },
            model("the model (an emulator's bfe)", Text::Other),
        ],
        adopted: "field-msb-clamped",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bfe-empty-field-past-msb",
        section: "9.7.1.19",
        fragment: "If the bit field length is zero, the result is zero",
        question:
            "which of the Description's two rules holds for a zero length at a start past the msb, where both apply",
        variants: &["bfe.s32", "bfe.s64"],
        readings: &[
            model("the zero-length rule: d = 0, as the block's len == 0 test gives a sign bit of 0", Text::Pseudocode),
            Reading {
                name: "start-rule-first",
                says: "the start-position rule: d filled with a's msb, all ones for a negative a",
                text: Text::Prose,
                formula: Formula::BfeStartRuleFirst,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    restriction(
        "bfe-operand-range",
        "9.7.1.19",
        "restricted to the 8-bit value range 0..255",
        &["b", "c"],
        &["bfe.u32", "bfe.s32", "bfe.u64", "bfe.s64"],
        &BFE_RANGE,
    ),
    restriction(
        "bfi-operand-range",
        "9.7.1.20",
        "restricted to the 8-bit value range 0..255",
        &["c", "d"],
        &["bfi.b32", "bfi.b64"],
        &BFI_RANGE,
    ),
    Passage {
        id: "bfi-field-past-msb",
        section: "9.7.1.20",
        fragment: "If the start position is beyond the msb of the input, the result is",
        question: "what a field that starts inside the word and ends past its msb inserts: the Description covers a \
                   zero length and a start past the msb, not a field cut short",
        variants: &["bfi.b32", "bfi.b64"],
        readings: &[
            model(
                "the bits that fit, from the start up to the msb; the rest of the field is dropped",
                Text::Pseudocode,
            ),
            Reading {
                name: "whole-or-nothing",
                says: "a field that does not fit whole leaves b, as a field that starts past the msb does",
                text: Text::Other,
                formula: Formula::BfiWholeOrNothing,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bfi-field-in-place",
        section: "9.7.1.20",
        fragment: "Align and insert a bit field from `a` into `b`",
        question: "which bits of a form the field: the Description does not say, and \"Align\" is not defined",
        variants: &["bfi.b32", "bfi.b64"],
        readings: &[
            model("a's low len bits, moved up to the start, as the block's f[pos+i] = a[i]", Text::Pseudocode),
            Reading {
                name: "in-place",
                says: "a's own bits at the insertion positions, a merged into b under a mask: a = 0xff00, b = 0, \
                       start 8, length 8 gives 0xff00 where the block gives 0",
                text: Text::Other,
                formula: Formula::BfiFieldInPlace,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "szext-mask-or-zero",
        section: "9.7.1.21",
        fragment: "sign_bit ? mask | 0",
        question: "what the last line of the Semantics block computes: the conditional has no `:`",
        variants: &["szext.clamp.s32", "szext.wrap.s32", "szext.wrap.u32"],
        readings: &[
            Reading {
                name: "colon",
                says: "`|` read as the missing `:`: sign_bit ? mask : 0",
                text: Text::RepairedPseudocode,
                formula: Formula::Szext(SzextRepair::Colon),
            },
            Reading {
                name: "colon-after",
                says: "`: 0` lost after `mask | 0`: sign_bit ? (mask | 0) : 0",
                text: Text::RepairedPseudocode,
                formula: Formula::Szext(SzextRepair::ColonAfter),
            },
            Reading {
                name: "drop-conditional",
                says: "the conditional a stray: (a & ~mask) | 0, zero-extension only",
                text: Text::RepairedPseudocode,
                formula: Formula::Szext(SzextRepair::DropConditional),
            },
            Reading {
                name: "question-as-or",
                says: "`?` read as `|`: sign_bit | mask | 0",
                text: Text::RepairedPseudocode,
                formula: Formula::Szext(SzextRepair::QuestionAsOr),
            },
            Reading {
                name: "swapped",
                says: "the branches the other way round: sign_bit ? 0 : mask",
                text: Text::RepairedPseudocode,
                formula: Formula::Szext(SzextRepair::Swapped),
            },
            model(
                "the Description: the low N bits of a sign-extended (.s32) or zero-extended (.u32); 0 for N = 0; \
                 for N >= 32, a under .clamp and N mod 32 under .wrap",
                Text::Prose,
            ),
        ],
        adopted: "colon",
        examples: &[Example {
            instruction: "szext.wrap.u32  rd, 0xffffffff, 0; // Result is 0.",
            variant: "szext.wrap.u32",
            inputs: &[0xffff_ffff, 0],
            outputs: &[0],
        }],
        assumption: Some(&assumption::SZEXT_MASK_OR_ZERO),
    },
    Passage {
        id: "szext-wrapped-value",
        section: "9.7.1.21",
        fragment: "the wrapped value of N",
        question: "what the wrapped value of a width N of 32 or more is under .wrap: no sentence says what N wraps by",
        variants: &["szext.wrap.s32", "szext.wrap.u32"],
        readings: &[
            model("N modulo 32, as the block's b & 0x1f: N = 32 gives 0, and so a result of 0", Text::Pseudocode),
            Reading {
                name: "modulo-33",
                says: "N wrapped into 0..32, the widths the Description gives a meaning: N = 32 keeps all of a",
                text: Text::Prose,
                formula: Formula::SzextWrapMod33,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bmsk-operand-sign",
        section: "9.7.1.22",
        fragment: "a >= 32",
        question: "whether the .b32 operands a and b, which the block compares with 32, are unsigned or signed",
        variants: &["bmsk.clamp.b32"],
        readings: &[
            model("unsigned: a position or width of 0x80000000 or more is 32 or higher", Text::Other),
            Reading {
                name: "signed",
                says: "signed, as a C int compares: a negative position or width is below 32, and only its low \
                       five bits (a & 0x1f) count",
                text: Text::C,
                formula: Formula::BmskSignedOperands,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bmsk-wrap-of-position",
        section: "9.7.1.22",
        fragment: "the wrapped value of `b`",
        question: "whether .wrap also wraps the position a, of which the Description says nothing",
        variants: &["bmsk.wrap.b32"],
        readings: &[
            model("a is taken modulo 32, as the block's a & 0x1f: a = 33 gives a mask from bit 1", Text::Pseudocode),
            Reading {
                name: "position-unwrapped",
                says: "only b wraps, as the Description says: a position of 32 or more lies past bit 31, and the \
                       mask is 0",
                text: Text::Prose,
                formula: Formula::BmskPositionUnwrapped,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bmsk-mask-past-bit-31",
        section: "9.7.1.22",
        fragment: "Generates a 32-bit mask starting from the bit position",
        question: "what a mask whose position and width together pass bit 31 holds: no sentence says it stops there",
        variants: &["bmsk.wrap.b32"],
        readings: &[
            model("the bits from the position up to bit 31, as the block's sum-overflow test gives", Text::Pseudocode),
            Reading {
                name: "wrap-around",
                says: "the bits past bit 31 wrapped around to bit 0, a rotated run of ones, as .wrap may be read: \
                       a = 30, b = 4 gives 0xc0000003",
                text: Text::Other,
                formula: Formula::BmskWrapAround,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bmsk-width-limited",
        section: "9.7.1.22",
        fragment: "is limited to range",
        question: "what a width outside the Notes' range (0..32 under .clamp, 0..31 under .wrap) does",
        variants: &["bmsk.clamp.b32", "bmsk.wrap.b32"],
        readings: &[
            model(
                "the block: under .clamp a width of 32 or more is 32, under .wrap it is taken modulo 32",
                Text::Pseudocode,
            ),
            Reading {
                name: "clamped",
                says: "a width above the range counts as its top in either mode: 31 under .wrap",
                text: Text::Prose,
                formula: Formula::BmskWidthLimited(RangeLimit::Clamped),
            },
            Reading {
                name: "out-of-contract",
                says: "a width above the range is not allowed: the result is undefined",
                text: Text::Prose,
                formula: Formula::BmskWidthLimited(RangeLimit::OutOfContract),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "bmsk-zero-width-either",
        section: "9.7.1.22",
        fragment: "When either the specified value of `b` or the wrapped value of `b`",
        question: "whether \"either ... or\" lets a wrapped width of 0 make the mask 0 under .clamp too, where the \
                   block wraps b only under .wrap",
        variants: &["bmsk.clamp.b32"],
        readings: &[
            model(
                "the value given under .clamp and the wrapped value under .wrap: bmsk.clamp of a = 0, b = 32 is \
                 0xffffffff, a width of 32",
                Text::Pseudocode,
            ),
            Reading {
                name: "either",
                says: "the mask is 0 when either value is 0, whatever the mode: bmsk.clamp of a = 0, b = 32 (wrapped \
                       value 0) is 0",
                text: Text::Prose,
                formula: Formula::BmskZeroEitherWidth,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "dot-element-order",
        section: "9.7.1.23-24",
        fragment: "extractAndSignOrZeroExt_4(b, .btype)",
        question: "which element of a packed operand the never-defined extract helpers return as element 0",
        variants: &[
            "dp4a.u32.u32",
            "dp4a.u32.s32",
            "dp4a.s32.u32",
            "dp4a.s32.s32",
            "dp2a.lo.u32.u32",
            "dp2a.lo.u32.s32",
            "dp2a.lo.s32.u32",
            "dp2a.lo.s32.s32",
            "dp2a.hi.u32.u32",
            "dp2a.hi.u32.s32",
            "dp2a.hi.s32.u32",
            "dp2a.hi.s32.s32",
        ],
        readings: &[
            model(
                "the lowest first: element i is bits 8i..8i+7 (16i..16i+15 for dp2a's a), as add's .u16x2 block \
                 packs its halves",
                Text::Other,
            ),
            Reading {
                name: "reversed-elements",
                says: "the most significant first, in both helpers: byte 3 and a's bits 16..31 are element 0",
                text: Text::Other,
                formula: Formula::DotOrder(ExtractOrder {
                    halves: ElementOrder::MostSignificantFirst,
                    bytes: ElementOrder::MostSignificantFirst,
                }),
            },
            Reading {
                name: "reversed-halves",
                says: "extractAndSignOrZeroExt_2 the most significant first, extractAndSignOrZeroExt_4 the lowest",
                text: Text::Other,
                formula: Formula::DotOrder(ExtractOrder {
                    halves: ElementOrder::MostSignificantFirst,
                    bytes: ElementOrder::LeastSignificantFirst,
                }),
            },
            Reading {
                name: "reversed-bytes",
                says: "extractAndSignOrZeroExt_4 the most significant first, extractAndSignOrZeroExt_2 the lowest",
                text: Text::Other,
                formula: Formula::DotOrder(ExtractOrder {
                    halves: ElementOrder::LeastSignificantFirst,
                    bytes: ElementOrder::MostSignificantFirst,
                }),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::DOT_ELEMENT_ORDER),
    },
    Passage {
        id: "shf-shift-by-32",
        section: "9.7.8.7",
        fragment: "a >> (32-n)",
        question: "a 32-bit shift by 32 (n = 0, or n = 32 under .clamp)",
        variants: &["shf.l.wrap.b32", "shf.r.clamp.b32"],
        readings: &[
            model("0, so the funnel shift of [b, a] the Description states", Text::Prose),
            Reading {
                name: "mod-32",
                says: "the amount taken mod 32, as x86 runs C's undefined shift: the word unchanged",
                text: Text::C,
                formula: Formula::ShfMod32,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SHF_SHIFT_BY_32),
    },
    Passage {
        id: "shf-amount-limited",
        section: "9.7.8.7",
        fragment: "limited to the range",
        question: "what an amount outside the Notes' range (0..32 in clamp mode, 0..31 in wrap mode) does",
        variants: &["shf.l.clamp.b32", "shf.l.wrap.b32", "shf.r.clamp.b32", "shf.r.wrap.b32"],
        readings: &[
            model(
                "the block: in clamp mode an amount of 32 or more is 32, in wrap mode it is taken modulo 32",
                Text::Pseudocode,
            ),
            Reading {
                name: "clamped",
                says: "an amount above the range counts as its top in either mode: 31 in wrap mode",
                text: Text::Prose,
                formula: Formula::ShfAmountLimited(RangeLimit::Clamped),
            },
            Reading {
                name: "out-of-contract",
                says: "an amount above the range is not allowed: the result is undefined",
                text: Text::Prose,
                formula: Formula::ShfAmountLimited(RangeLimit::OutOfContract),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "shift-clamped-to-width",
        section: "9.7.8.8-9",
        fragment: "clamped to N",
        question: "a shift amount at or above the operand's width",
        variants: &["shl.b16", "shl.b32", "shr.s16", "shr.u64"],
        readings: &[
            model("every bit shifted out: 0, or sign copies for shr of .s types", Text::Prose),
            Reading {
                name: "mod-width",
                says: "the amount taken mod the width, as x86 runs C's oversized shift",
                text: Text::C,
                formula: Formula::ShiftAmount(ShiftAmount::ModWidth),
            },
            Reading {
                name: "cut-to-width",
                says: "the 32-bit amount cut to the operand's width first (a .b16 shift by 0x10000 is by 0)",
                text: Text::Other,
                formula: Formula::ShiftAmount(ShiftAmount::CutToWidth),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SHIFT_CLAMPED_TO_WIDTH),
    },
    Passage {
        id: "shfl-source-lane",
        section: "9.7.9.5",
        fragment: "j = lane - bval",
        question: "the width and signedness of the source lane j",
        variants: &["shfl.up.b32 d|p", "shfl.down.b32 d|p"],
        readings: &[
            model("a signed integer wide enough for -31..62: out of range below 0 and above maxLane", Text::Prose),
            Reading {
                name: "five-bit",
                says: "5 bits like lane[4:0]: .up and .down wrap around the warp",
                text: Text::Other,
                formula: Formula::ShflSource(SourceReading::FiveBit),
            },
            Reading {
                name: "unsigned-32",
                says: "an unsigned 32-bit integer: .up below lane 0 wraps to an index past the warp",
                text: Text::C,
                formula: Formula::ShflSource(SourceReading::Unsigned32),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SHFL_SOURCE_LANE),
    },
    Passage {
        id: "shfl-clamp-bound",
        section: "9.7.9.5-6",
        fragment: "an upper bound for clamping the source lane index",
        question: "what c's clamp value bounds, and what a thread whose source lane lies past it reads",
        variants: &["shfl.up.b32 d|p", "shfl.down.b32 d|p"],
        readings: &[
            model(
                "the Semantics block: past maxLane the thread reads its own a; .up reads lane j where j >= maxLane, \
                 so maxLane is the lowest lane it may read",
                Text::Pseudocode,
            ),
            Reading {
                name: "upper-bound",
                says: "the Description: maxLane is an upper bound in every mode, so .up reads lane j where 0 <= j <= \
                       maxLane",
                text: Text::Prose,
                formula: Formula::ShflSource(SourceReading::ClampAsUpperBound),
            },
            Reading {
                name: "clamped",
                says: "the Description's clamping: a source lane past the bound is pulled back to it, and the thread \
                       reads the bound's lane, not its own a",
                text: Text::Prose,
                formula: Formula::ShflClampedToBound,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "shfl-bfly-segment",
        section: "9.7.9.5-6",
        fragment: "a mask for logically splitting warps into sub-segments",
        question: "whether a thread may read from a lane outside its own sub-segment",
        variants: &["shfl.bfly.b32 d|p"],
        readings: &[
            model(
                "the Semantics block: j is in range when j <= maxLane, so .bfly's lane ^ b may read a lane of a \
                 lower sub-segment",
                Text::Pseudocode,
            ),
            Reading {
                name: "within-segment",
                says: "the Description's sub-segments: a source lane outside the thread's own sub-segment is out of \
                       range, and the thread copies its own a",
                text: Text::Prose,
                formula: Formula::ShflWithinSegment,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "shfl-predicated-off-source",
        section: "9.7.9.5-6",
        fragment: "sources a register from an inactive thread",
        question: "what a thread reads from a source lane that is active but whose guard predicate is false",
        variants: &["shfl.idx.b32 d|p"],
        readings: &[
            model(
                "the Semantics block: any value, as its comment has SourceA unpredictable for inactive and \
                 predicated-off threads alike",
                Text::Pseudocode,
            ),
            Reading {
                name: "inactive-only",
                says: "the Description, which makes a read undefined only from an inactive thread: a source lane \
                       that is active with its guard false (the witness's lane that does not execute) still \
                       holds its register a, and the thread reads it",
                text: Text::Prose,
                formula: Formula::ShflInactive(InactiveSource::RegisterAnyway),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "shfl-guard-off-writes",
        section: "9.7.9.5-6",
        fragment: "isActive(Thread) && isGuardPredicateTrue(Thread)",
        question: "what a thread that does not execute (inactive, or its guard false) writes",
        variants: &["shfl.up.b32 d|p"],
        readings: &[
            model("nothing: neither d nor p, as a false guard means for any PTX instruction", Text::Other),
            Reading {
                name: "block-runs-anyway",
                says: "the block, which tests the thread's state only where it fills SourceA: d = SourceA[j] and p \
                       = pval, its own SourceA slot unpredictable",
                text: Text::C,
                formula: Formula::ShflGuardOffWrites,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "shfl-slot-order",
        section: "9.7.9.5-6",
        fragment: "d = SourceA[j]",
        question: "whether lane j has written its SourceA slot when this thread reads it",
        variants: &["shfl.idx.b32 d|p", "shfl.sync.idx.b32 d|p"],
        readings: &[
            model(
                "every executing lane's slot is written before any lane reads one, as 'exchange register data \
                 between threads' means",
                Text::Other,
            ),
            Reading {
                name: "each-thread-in-order",
                says: "each thread runs the block in its own order: nothing orders lane j's write of SourceA[j] \
                       before this thread's read (shfl.sync's wait comes before both), so d read from another \
                       lane is unpredictable",
                text: Text::C,
                formula: Formula::ShflUnorderedSlots,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "shfl-unpredictable-source",
        section: "9.7.9.5",
        fragment: "unpredictable for inactive/predicated-off threads",
        question: "what a thread reads from a source lane that does not execute",
        variants: &["shfl.idx.b32 d|p"],
        readings: &[
            model("any value", Text::Prose),
            Reading {
                name: "register-anyway",
                says: "the source lane's register a as it stands",
                text: Text::Other,
                formula: Formula::ShflInactive(InactiveSource::RegisterAnyway),
            },
            Reading {
                name: "own-value",
                says: "the thread's own a, as for a source out of range",
                text: Text::Other,
                formula: Formula::ShflInactive(InactiveSource::OwnValue),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SHFL_UNPREDICTABLE_SOURCE),
    },
    Passage {
        id: "shfl-sync-membermask",
        section: "9.7.9.6",
        fragment: "is not in membermask",
        question: "what a lane gets when it, or the lane it reads from, is outside membermask",
        variants: &["shfl.sync.idx.b32 d|p"],
        readings: &[
            model("undefined d and p outside the thread's own mask; any d from a source outside it", Text::Prose),
            Reading {
                name: "mask-ignored",
                says: "the Semantics block, which reads membermask only in the wait: data moves as under a full mask",
                text: Text::C,
                formula: Formula::ShflSync(SyncReading::MaskIgnored),
            },
            Reading {
                name: "own-bit-ignored",
                says: "only the source lane must be a member; a thread outside its own mask shuffles as any other",
                text: Text::Other,
                formula: Formula::ShflSync(SyncReading::OwnBitIgnored),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SHFL_SYNC_MEMBERMASK),
    },
    Passage {
        id: "shfl-sync-barrier",
        section: "9.7.9.6",
        fragment: "participating in barrier",
        question: "whether membermask names the lanes of a barrier only, or the lanes the data moves between",
        variants: &["shfl.sync.idx.b32 d|p"],
        readings: &[
            model(
                "the lanes of the shuffle: a thread reads only from a member, as the Description's later notes say",
                Text::Prose,
            ),
            Reading {
                name: "barrier-only",
                says: "the lanes of a barrier the thread waits at, as the operand's sentence words it: the thread \
                       must be in it and its lanes must agree on it, but a source lane outside it still supplies a",
                text: Text::Prose,
                formula: Formula::ShflSync(SyncReading::BarrierOnly),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: None,
    },
    Passage {
        id: "shfl-sync-mask-agreement",
        section: "9.7.9.6",
        fragment: "with the same qualifiers and same",
        question: "what a thread gets when a lane of its mask executes shfl.sync with another mask",
        variants: &["shfl.sync.idx.b32 d|p"],
        readings: &[
            model("unspecified d and p: the text only says the thread waits", Text::Prose),
            Reading {
                name: "disagreement-ignored",
                says: "each thread waits for its own mask's lanes whatever mask they give, then shuffles",
                text: Text::Other,
                formula: Formula::ShflSync(SyncReading::DisagreementIgnored),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SHFL_SYNC_MASK_AGREEMENT),
    },
    Passage {
        id: "prmt-source-pair",
        section: "9.7.9.7",
        fragment: "tmp64 = (b<<32) | a",
        question: "whether b's bytes reach tmp64, when b is a 32-bit operand shifted by 32",
        variants: &["prmt.b32", "prmt.b32.f4e"],
        readings: &[
            model("the 64-bit pair {b, a}, b widened before the shift, as the Description numbers b7..b0", Text::Prose),
            Reading {
                name: "shift-in-32-bits",
                says: "the shift in b's 32-bit type gives 0: tmp64 is a, and bytes 4..7 read 0",
                text: Text::C,
                formula: Formula::PrmtPair(SourcePair::ShiftIn32Bits),
            },
            Reading {
                name: "shift-mod-32",
                says: "the shift amount taken mod 32, as x86 does: tmp64 is b | a, and bytes 4..7 read 0",
                text: Text::Other,
                formula: Formula::PrmtPair(SourcePair::ShiftMod32),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::PRMT_SOURCE_PAIR),
    },
    Passage {
        id: "prmt-byte-select",
        section: "9.7.9.7",
        fragment: "ReadByte( mode, ctl[0], tmp64 )",
        question: "what ReadByte, never defined, returns, and what d is, which the block never assigns",
        variants: &["prmt.b32.f4e", "prmt.b32.b4e", "prmt.b32.ecl", "prmt.b32.ecr", "prmt.b32.rc16", "prmt.b32"],
        readings: &[
            model(
                "the byte the Description gives the target position: the selector's 3 lsbs and sign bit, or the \
                 mode's table row for c[1:0]; d is tmp",
                Text::Prose,
            ),
            Reading {
                name: "position-blind",
                says: "a function of its three arguments only, which are the same at every position under a mode: \
                       byte c[1:0] in all four positions, rc8's result",
                text: Text::Pseudocode,
                formula: Formula::PrmtPositionBlind,
            },
            Reading {
                name: "d-never-assigned",
                says: "the block computes tmp and never assigns d: d is undefined",
                text: Text::C,
                formula: Formula::NeverAssigned,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::PRMT_BYTE_SELECT),
    },
    Passage {
        id: "carry-out-unsigned",
        section: "9.7.2.1",
        fragment: "carry-out written to CC.CF",
        question: "what the carry-out of a signed addition is: the unsigned carry of its bit patterns, or its signed \
                   overflow",
        variants: &["add.cc.s32", "addc.cc.s32", "mad.lo.cc.s32", "madc.hi.cc.s32"],
        readings: &[
            model(
                "bit n of the exact sum of the addends' bit patterns, the same for signed and unsigned types as the \
                 Notes say",
                Text::Prose,
            ),
            Reading {
                name: "signed-overflow",
                says: "for .s32 and .s64, the flag is set where the exact signed sum leaves the type's range, as an \
                       overflow flag would be",
                text: Text::Other,
                formula: Formula::Carry(CarryReading::SignedOverflow),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::CARRY_OUT_UNSIGNED),
    },
    Passage {
        id: "borrow-out",
        section: "9.7.2.4",
        fragment: "d = a  - (b + CC.CF);",
        question: "what sub.cc and subc.cc write to CC.CF: a set flag for a borrow or for none, and whether b + CC.CF \
                   may wrap",
        variants: &["sub.cc.u32", "subc.cc.u32", "subc.u32"],
        readings: &[
            model(
                "1 exactly when a is below b + CC.CF, the sum taken exactly: a borrow, in the polarity subc's \
                 `- (b + CC.CF)` reads it",
                Text::Pseudocode,
            ),
            Reading {
                name: "carry-polarity",
                says: "a set flag means no borrow, the carry of a + ~b + 1 that machines which subtract by adding \
                       keep; subc then subtracts the flag's complement",
                text: Text::Other,
                formula: Formula::Carry(CarryReading::CarryPolarity),
            },
            Reading {
                name: "wrapped-subtrahend",
                says: "b + CC.CF computed in b's own type, as C computes it, so that b all ones with the flag set \
                       subtracts 0 and borrows nothing",
                text: Text::C,
                formula: Formula::Carry(CarryReading::WrappedSubtrahend),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::BORROW_OUT),
    },
    Passage {
        id: "mad-cc-product-halves",
        section: "9.7.2.5",
        fragment: "d = t<63..32> + c;",
        question: "which bits of the product mad.cc and madc add to c for the 64-bit types, whose product has 128 bits",
        variants: &["mad.hi.cc.u64", "mad.lo.cc.s64", "madc.hi.cc.u64", "madc.lo.s64"],
        readings: &[
            model(
                "the upper or lower half of the 2n-bit product, as mad in 9.7.1.4 takes t<2n-1..n> and t<n-1..0>",
                Text::Prose,
            ),
            Reading {
                name: "bounds-as-written",
                says: "bits 63..32 and 31..0 of the product, as the block writes them for every type, zero-extended",
                text: Text::Pseudocode,
                formula: Formula::Carry(CarryReading::LiteralBounds),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::MAD_CC_PRODUCT_HALVES),
    },
    Passage {
        id: "cc-flag-state",
        section: "9.7.2",
        fragment: "implicitly specified condition code register",
        question: "what CC.CF holds where no instruction has written it, which the chapter does not say",
        variants: &["addc.u32", "subc.u64", "madc.lo.u32"],
        readings: &[
            model("either value: the proofs take the flag as an input, and so must an implementation", Text::Other),
            Reading {
                name: "reads-zero",
                says: "the flag starts clear, as a register reset to 0 would, so that a chain may begin with addc",
                text: Text::Other,
                formula: Formula::Carry(CarryReading::UnsetReadsZero),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::CC_FLAG_STATE),
    },
    Passage {
        id: "compare-order-by-type",
        section: "9.7.6.2",
        fragment: "The signed and unsigned comparison operators are",
        question: "which order lt, le, gt and ge compare in for each type: the Integer Notes give the same operators \
                   to the signed and the unsigned types without saying",
        variants: &["setp.lt.s32", "setp.ge.u16", "set.gt.u32.s64", "setp.le.u64 p|q"],
        readings: &[
            model("the type's order: signed for the .s types, unsigned for the .u types", Text::Prose),
            Reading {
                name: "other-order",
                says: "each type in the other kind's order: the .s types compared unsigned, the .u types signed, \
                       the Notes giving both kinds the same names",
                text: Text::Prose,
                formula: Formula::Compare(CompareReading::OtherOrder),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::COMPARE_ORDER_BY_TYPE),
    },
    Passage {
        id: "compare-no-boolop",
        section: "9.7.6.2",
        fragment: "p = BoolOp(t, c);",
        question: "what the forms without .BoolOp write, where the Semantics applies BoolOp to a c they do not have",
        variants: &["setp.eq.u32", "setp.lt.s32 p|q", "set.ne.u32.b32"],
        readings: &[
            model("the comparison itself: p is t, q is !t, and set writes from t", Text::Prose),
            Reading {
                name: "absent-c-false",
                says: "the line as written, with no operator read as and and the absent c as false: always false",
                text: Text::Pseudocode,
                formula: Formula::Compare(CompareReading::AbsentCFalse),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::COMPARE_NO_BOOLOP),
    },
    Passage {
        id: "compare-not-c",
        section: "9.7.6.2",
        fragment: "{!}c",
        question: "what the operand written !c gives BoolOp, which the Description and the Semantics name c only",
        variants: &["setp.lt.and.s32 p|q !c", "set.eq.or.u32.u32 !c", "setp.ne.xor.b64 !c"],
        readings: &[
            model("the complement of c, in p's BoolOp and in q's", Text::Other),
            Reading {
                name: "c-as-named",
                says: "c, as the Semantics names it: the ! left unread",
                text: Text::Pseudocode,
                formula: Formula::Compare(CompareReading::NotCIgnored),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::COMPARE_NOT_C),
    },
    Passage {
        id: "compare-q",
        section: "9.7.6.2",
        fragment: "A related value computed using the complement",
        question: "what setp writes to q: the Description's related value from the complement of the comparison, or \
                   the complement of p",
        variants: &["setp.lt.and.s32 p|q", "setp.eq.or.u32 p|q", "setp.hi.u64 p|q"],
        readings: &[
            model("BoolOp(!t, c), the Semantics' line", Text::Pseudocode),
            Reading {
                name: "complement-of-p",
                says: "the complement of p, which the Description's words admit",
                text: Text::Prose,
                formula: Formula::Compare(CompareReading::QComplementOfP),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::COMPARE_Q),
    },
    Passage {
        id: "compare-set-f32-one",
        section: "9.7.6.1",
        fragment: "1.0f is written for floating-point destination types",
        question: "what bits set writes for true to an .f32 d: 1.0f, or the 1 of the Semantics' t",
        variants: &["set.eq.f32.u32", "set.lt.and.f32.s32"],
        readings: &[
            model("1.0f's bits, 0x3f800000", Text::Prose),
            Reading {
                name: "int-one",
                says: "the integer 1, the value t holds",
                text: Text::Other,
                formula: Formula::Compare(CompareReading::SetF32IntOne),
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::COMPARE_SET_F32_ONE),
    },
    Passage {
        id: "selp-float-bits",
        section: "9.7.6.3",
        fragment: "d = (c == 1) ? a : b;",
        question: "whether selp.f32 and selp.f64 pass a NaN's bits unchanged, which selp's text does not say",
        variants: &["selp.f32", "selp.f64"],
        readings: &[
            model("a move of bits: d is a or b exactly, a signalling NaN included", Text::Pseudocode),
            Reading {
                name: "nan-quieted",
                says: "a float move, as some float units make it: a signalling NaN comes out quiet",
                text: Text::Other,
                formula: Formula::SelpQuietsNan,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SELP_FLOAT_BITS),
    },
    Passage {
        id: "slct-f32-test",
        section: "9.7.6.4",
        fragment: "d = (c >= 0) ? a : b;",
        question: "what selects a when c is an .f32: the comparison c >= 0, or the sign of c the summary names",
        variants: &["slct.b32.f32", "slct.ftz.b32.f32"],
        readings: &[
            model(
                "the IEEE comparison c >= 0 of the Semantics and the Floating Point Notes: -0 selects a, a NaN b",
                Text::Prose,
            ),
            Reading {
                name: "sign-bit",
                says: "the summary's sign of the third operand: a where c's sign bit is clear, so -0 selects b and a \
                       NaN with a clear sign bit selects a",
                text: Text::Prose,
                formula: Formula::SlctSignBit,
            },
        ],
        adopted: "model",
        examples: &[],
        assumption: Some(&assumption::SLCT_F32_TEST),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_assumption_is_a_passage_and_every_formula_applies() {
        for a in assumption::ALL {
            assert!(PASSAGES.iter().any(|p| p.assumption == Some(*a)), "assumption {} has no passage", a.id);
        }
        for p in PASSAGES {
            assert!(p.reading(p.adopted).is_some(), "{}: adopted reading {} missing", p.id, p.adopted);
            assert!(p.readings.len() >= 2, "{}", p.id);
            for v in p.variants {
                let variant = Variant::from_mnemonic(v).unwrap_or_else(|| panic!("{}: no variant {v}", p.id));
                let ins: Vec<BitVec> = variant.inputs().iter().map(|o| BitVec::new(o.ty.width(), 0)).collect();
                for r in p.readings {
                    assert!(r.formula.outputs(&Concrete, &variant, &ins).is_some(), "{}: {} on {v}", p.id, r.name);
                }
            }
            for e in p.examples {
                assert!(Variant::from_mnemonic(e.variant).is_some(), "{}: {}", p.id, e.variant);
            }
        }
    }

    /// A passage is compared at every width of the instructions it lists,
    /// once each, and only where every reading applies (9.7.1: add and sub
    /// at 16, 32 and 64 bits; add.sat has only its 32-bit form).
    #[test]
    fn a_passage_covers_every_width_of_what_it_lists() {
        let widths = |id: &str| PASSAGES.iter().find(|p| p.id == id).unwrap().widths();
        assert_eq!(widths("int-wraparound"), ["add.s32", "sub.s64", "add.s16", "add.s64", "sub.s16", "sub.s32"]);
        assert_eq!(widths("sat-of-exact-result"), ["add.sat.s32", "sub.sat.s32", "mad.hi.sat.s32", "mad24.hi.sat.s32"]);
        assert_eq!(widths("bfind-negate-comment"), ["bfind.s32", "bfind.s64"]);
        assert_eq!(widths("shfl-unpredictable-source"), ["shfl.idx.b32 d|p"]);
        for p in PASSAGES {
            let all = p.widths();
            assert!(p.variants.iter().all(|v| all.iter().any(|w| w == v)), "{}: a listed variant dropped", p.id);
            for (i, w) in all.iter().enumerate() {
                assert!(!all[..i].contains(w), "{}: {w} twice", p.id);
            }
        }
    }
}
