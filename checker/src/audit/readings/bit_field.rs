//! Section 9.7.1.19-22: bfe, bfi, szext, bmsk.
//! The readings the model does not adopt, for the audit's passages.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_field::*;
use ptx_spec::catalogue::{Type, Variant};
use ptx_spec::family::bit_field::*;
/// Readings of bfe's sentence on the sign bit of a signed field, kept for
/// the audit (passage bfe-sign-bit). Each gives the sign bit for a non-empty
/// field; the result is 0 for an empty one whatever the reading, as the
/// Description says on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BfeSign {
    /// The model's (and the pseudocode's): a's bit at pos+len-1, or a's msb
    /// once the field's last bit passes it.
    FieldMsbClamped,
    /// "extends beyond the msb" read as "reaches it": a's msb when
    /// pos+len-1 >= msb, the field's last bit otherwise.
    ReachesMsb,
    /// "otherwise" read as dangling, leaving the field's own msb out: a's msb
    /// when the field passes it, 0 otherwise (no sign extension at all).
    OnlyPastMsb,
    /// "extends beyond" read as the field's start passing the msb; a field
    /// that starts inside a and ends past it takes its last bit from a
    /// zero-extended a.
    StartPastMsb,
}

/// bfe.s32/.s64 with the sign bit read as `reading` (see [`BfeSign`]).
pub fn bfe_sign_reading<A: Algebra>(alg: &A, reading: BfeSign, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let (pos, len) = (byte(alg, b, w), byte(alg, c, w));
    // The field's last bit index, exact (pos and len are below 256).
    let last = alg.bvsub(alg.bvadd(pos, len), alg.constant(w, 1));
    let msb = alg.constant(w, u128::from(w - 1));
    let a_msb = alg.bit(a, w - 1);
    let bit_at = |i: A::Bv| alg.bit(alg.bvlshr(a, i), 0);
    let sign = match reading {
        BfeSign::FieldMsbClamped => bit_at(alg.umin(last, msb)),
        BfeSign::ReachesMsb => alg.ite(alg.bvuge(last, msb), a_msb, bit_at(last)),
        BfeSign::OnlyPastMsb => alg.ite(alg.bvugt(last, msb), a_msb, alg.constant(1, 0)),
        // bvlshr by w or more reads 0: the zero-extended a.
        BfeSign::StartPastMsb => alg.ite(alg.bvugt(pos, msb), a_msb, bit_at(last)),
    };
    bfe_with_sign(alg, a, pos, len, sign)
}

/// bfe as the pseudocode writes it, with bits of the field past the msb read
/// from a zero-extended a (0) rather than filled with the sign bit (passage
/// bfe-field-past-msb): only bits at and above len take the sign.
pub fn bfe_zero_past_msb<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let (pos, len) = (byte(alg, b, w), byte(alg, c, w));
    let field = alg.bvand(alg.bvlshr(a, pos), low_ones(alg, len));
    if !signed {
        return field;
    }
    let last = alg.umin(alg.bvsub(alg.bvadd(pos, len), alg.constant(w, 1)), alg.constant(w, u128::from(w - 1)));
    let sign = alg.ite(alg.is_zero(len), alg.constant(1, 0), alg.bit(alg.bvlshr(a, last), 0));
    alg.bvor(field, alg.bvand(alg.sign_extend(w - 1, sign), alg.bvnot(low_ones(alg, len))))
}

/// The field of a at pos, len bits but no further than the msb, padded above
/// with `sign`; 0 for an empty field.
fn bfe_with_sign<A: Algebra>(alg: &A, a: A::Bv, pos: A::Bv, len: A::Bv, sign: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let width = alg.constant(w, u128::from(w));
    let available = alg.ite(alg.bvult(pos, width), alg.bvsub(width, pos), alg.constant(w, 0));
    let kept = alg.umin(len, available);
    let field = alg.bvand(alg.bvlshr(a, pos), low_ones(alg, kept));
    let fill = alg.bvand(alg.sign_extend(w - 1, sign), alg.bvnot(low_ones(alg, kept)));
    alg.ite(alg.is_zero(len), alg.constant(w, 0), alg.bvor(field, fill))
}

/// Repairs of szext's last line, `sign_bit ? mask | 0`, which lacks the
/// conditional's `:` (passage szext-mask-or-zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SzextRepair {
    /// `|` read as the missing `:`: `sign_bit ? mask : 0`.
    Colon,
    /// `: 0` taken as lost after `mask | 0`: `sign_bit ? (mask | 0) : 0`.
    ColonAfter,
    /// The conditional dropped as a stray: `(a & ~mask) | 0`.
    DropConditional,
    /// `?` read as `|`: `sign_bit | mask | 0`.
    QuestionAsOr,
    /// The branches the other way round: `sign_bit ? 0 : mask`.
    Swapped,
}

/// szext computed the way the Semantics block does (b1, too_large, mask,
/// sign_pos, sign_bit), with its last line repaired as `repair` says.
pub fn szext_pseudocode<A: Algebra>(
    alg: &A,
    mode: Mode,
    signed: bool,
    repair: SzextRepair,
    a: A::Bv,
    b: A::Bv,
) -> A::Bv {
    let k = |v: u128| alg.constant(32, v);
    let b1 = alg.bvand(b, k(0x1f));
    let too_large = match mode {
        Mode::Clamp => alg.bvuge(b, k(32)),
        Mode::Wrap => alg.bool_constant(false),
    };
    let mask = alg.ite(too_large, k(0), alg.bvshl(alg.ones(32), b1));
    let sign_pos = alg.bvand(alg.bvsub(b1, k(1)), k(0x1f));
    let no_sign = alg.or(alg.is_zero(b1), too_large);
    let sign_bit = if signed { alg.ite(no_sign, k(0), alg.bvand(alg.bvlshr(a, sign_pos), k(1))) } else { k(0) };
    let set = alg.not(alg.is_zero(sign_bit));
    let tail = match repair {
        SzextRepair::Colon => alg.ite(set, mask, k(0)),
        SzextRepair::ColonAfter => alg.ite(set, alg.bvor(mask, k(0)), k(0)),
        SzextRepair::DropConditional => k(0),
        SzextRepair::QuestionAsOr => alg.bvor(alg.bvor(sign_bit, mask), k(0)),
        SzextRepair::Swapped => alg.ite(set, k(0), mask),
    };
    alg.bvor(alg.bvand(a, alg.bvnot(mask)), tail)
}

/// bfe.s32/.s64 with the Description's rule for a start past the msb taken
/// before its rule for a zero length (passage bfe-empty-field-past-msb): a
/// start past the msb fills d with a's msb whatever the length.
pub fn bfe_start_rule_first<A: Algebra>(alg: &A, model: A::Bv, a: A::Bv, b: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let past = alg.bvugt(byte(alg, b, w), alg.constant(w, u128::from(w - 1)));
    alg.ite(past, alg.sign_extend(w - 1, alg.bit(a, w - 1)), model)
}

/// szext.wrap with "the wrapped value of N" read as N brought into 0..32,
/// the widths the Description gives a meaning, by wrapping modulo 33 (passage
/// szext-wrapped-value): N = 32 keeps all of a, where N mod 32 gives 0.
pub fn szext_wrap_mod_33<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let ty = if signed { Type::S32 } else { Type::U32 };
    let n = alg.bvurem(b, alg.constant(32, 33));
    let clamp = Variant::BitField(BitField::Szext(Mode::Clamp, ty));
    clamp.semantics(alg, &[a, n])[0].value
}

/// How Notes that say an operand "is limited to range" (0..32 under
/// .clamp, 0..31 under .wrap) take a value outside that range: bmsk's
/// width (passage bmsk-width-limited) and shf's amount (passage
/// shf-amount-limited).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeLimit {
    /// A value above the range counts as its top: 31 under .wrap.
    Clamped,
    /// A value above the range is not allowed: the result is undefined.
    OutOfContract,
}

/// The top of the range bmsk's Notes give the width in `mode`.
pub fn bmsk_width_top(mode: Mode) -> u128 {
    match mode {
        Mode::Clamp => 32,
        Mode::Wrap => 31,
    }
}

/// bmsk.clamp with `a` and `b` read as signed 32-bit values (passage
/// bmsk-operand-sign): the block's `a >= 32` and `b >= 32` then fail for a
/// negative value, which keeps only its low five bits (`a & 0x1f`).
pub fn bmsk_signed_operands<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> [A::Bv; 2] {
    let low = |x: A::Bv| {
        let negative = alg.bvslt(x, alg.constant(32, 0));
        alg.ite(negative, alg.bvand(x, alg.constant(32, 0x1f)), x)
    };
    [low(a), low(b)]
}

/// bmsk.wrap with the position `a` taken as it is, since the Description
/// wraps only `b` (passage bmsk-wrap-of-position): a position of 32 or more
/// lies past bit 31, and the mask is 0.
pub fn bmsk_position_unwrapped<A: Algebra>(alg: &A, model: A::Bv, a: A::Bv) -> A::Bv {
    alg.ite(alg.bvuge(a, alg.constant(32, 32)), alg.constant(32, 0), model)
}

/// bfi with a field that does not fit whole (its start inside the word, its
/// end past the msb) read as the start-past-msb rule reads a field past the
/// msb: the result is b (passage bfi-field-past-msb).
pub fn bfi_whole_or_nothing<A: Algebra>(alg: &A, model: A::Bv, b: A::Bv, c: A::Bv, d: A::Bv) -> A::Bv {
    let w = alg.width(b);
    let (pos, len) = (byte(alg, c, w), byte(alg, d, w));
    let past = alg.bvugt(alg.bvadd(pos, len), alg.constant(w, u128::from(w)));
    alg.ite(past, b, model)
}

/// bfi with the field taken from `a` in place (passage bfi-field-in-place):
/// the bits of `a` at the insertion positions, where the block takes `a`'s
/// low `len` bits and moves them up to the start ("Align").
pub fn bfi_field_in_place<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv, c: A::Bv, d: A::Bv) -> A::Bv {
    let w = alg.width(b);
    let (pos, len) = (byte(alg, c, w), byte(alg, d, w));
    // A start past the msb shifts every bit out: the field is empty, as the
    // block's `pos+i<=msb` makes it.
    let field = alg.bvshl(low_ones(alg, len), pos);
    alg.bvor(alg.bvand(b, alg.bvnot(field)), alg.bvand(a, field))
}

/// bmsk.clamp with the Description's second zero case read with "either":
/// the mask is 0 when `b` is 0 or when its wrapped value `b & 0x1f` is 0,
/// in either mode (passage bmsk-zero-width-either), where the block wraps
/// `b` only under .wrap.
pub fn bmsk_zero_either_width<A: Algebra>(alg: &A, model: A::Bv, b: A::Bv) -> A::Bv {
    let wrapped = alg.bvand(b, alg.constant(32, 0x1f));
    alg.ite(alg.is_zero(wrapped), alg.constant(32, 0), model)
}

/// bmsk.wrap with a mask that passes bit 31 wrapped around to bit 0, as a
/// rotated run of ones (passage bmsk-mask-past-bit-31): a = 30, b = 4 gives
/// bits 30, 31, 0 and 1.
pub fn bmsk_wrap_around<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let k = |v: u128| alg.constant(32, v);
    let (a1, b1) = (alg.bvand(a, k(0x1f)), alg.bvand(b, k(0x1f)));
    let ones = low_ones(alg, b1);
    // A shift by 32 (a1 = 0) reads 0: no bit comes round.
    let rotated = alg.bvor(alg.bvshl(ones, a1), alg.bvlshr(ones, alg.bvsub(k(32), a1)));
    alg.ite(alg.is_zero(b1), k(0), rotated)
}
