//! Section 9.7.1.19-22: bfe, bfi, szext, bmsk.
//! The concrete semantics, as an emulator author writes them: whole-word
//! shifts and masks instead of the spec's per-bit loops.

use std::fmt;

use crate::assumption::{Assumption, BFE_PAST_MSB, SZEXT_MASK_OR_ZERO};
use crate::bv::Algebra;
use crate::catalogue::{defined, Family, Operand, OperandType, Outputs, PtxVersion, Requirement, Target, Type};

/// How szext and bmsk treat an amount of 32 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Clamp,
    Wrap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitField {
    Bfe(Type),
    Bfi(Type),
    Szext(Mode, Type),
    Bmsk(Mode),
}

const BFE_TYPES: [Type; 4] = [Type::U32, Type::U64, Type::S32, Type::S64];
const BFI_TYPES: [Type; 2] = [Type::B32, Type::B64];
const MODES: [Mode; 2] = [Mode::Clamp, Mode::Wrap];

impl Family for BitField {
    fn all() -> Vec<BitField> {
        let mut all: Vec<BitField> = BFE_TYPES.map(BitField::Bfe).to_vec();
        all.extend(BFI_TYPES.map(BitField::Bfi));
        for mode in MODES {
            all.extend([Type::U32, Type::S32].map(|t| BitField::Szext(mode, t)));
        }
        all.extend(MODES.map(BitField::Bmsk));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            BitField::Bfe(_) => "bfe",
            BitField::Bfi(_) => "bfi",
            BitField::Szext(..) => "szext",
            BitField::Bmsk(_) => "bmsk",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            BitField::Bfe(_) => "9.7.1.19",
            BitField::Bfi(_) => "9.7.1.20",
            BitField::Szext(..) => "9.7.1.21",
            BitField::Bmsk(_) => "9.7.1.22",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let u32 = OperandType::Bits(32);
        match *self {
            // b and c (bfe), c and d (bfi) are .u32; only their low 8 bits count.
            BitField::Bfe(t) => vec![
                Operand::dest("d", t.operand()),
                Operand::src("a", t.operand()),
                Operand::src("b", u32),
                Operand::src("c", u32),
            ],
            BitField::Bfi(t) => vec![
                Operand::dest("f", t.operand()),
                Operand::src("a", t.operand()),
                Operand::src("b", t.operand()),
                Operand::src("c", u32),
                Operand::src("d", u32),
            ],
            BitField::Szext(..) | BitField::Bmsk(_) => {
                vec![Operand::dest("d", u32), Operand::src("a", u32), Operand::src("b", u32)]
            }
        }
    }

    fn requirement(&self) -> Requirement {
        match self {
            BitField::Bfe(_) | BitField::Bfi(_) => Requirement { ptx: PtxVersion(2, 0), target: Target::Sm(20) },
            BitField::Szext(..) | BitField::Bmsk(_) => Requirement { ptx: PtxVersion(7, 6), target: Target::Sm(70) },
        }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            BitField::Bfe(_) => vec![&BFE_PAST_MSB],
            BitField::Szext(..) => vec![&SZEXT_MASK_OR_ZERO],
            _ => Vec::new(),
        }
    }

    /// Inputs: `a, b, c` (bfe), `a, b, c, d` (bfi), `a, b` (szext, bmsk).
    fn semantics<A: Algebra>(&self, alg: &A, ins: &[A::Bv]) -> Outputs<A> {
        let d = match *self {
            BitField::Bfe(t) => bfe(alg, t.is_signed(), ins[0], ins[1], ins[2]),
            BitField::Bfi(_) => bfi(alg, ins[0], ins[1], ins[2], ins[3]),
            BitField::Szext(mode, t) => szext(alg, mode, t.is_signed(), ins[0], ins[1]),
            BitField::Bmsk(mode) => bmsk(alg, mode, ins[0], ins[1]),
        };
        vec![defined(alg, d)]
    }
}

/// The low byte of a 32-bit position or length, widened to `width` bits.
fn byte<A: Algebra>(alg: &A, x: A::Bv, width: u32) -> A::Bv {
    alg.zero_extend(width - 8, alg.extract(7, 0, x))
}

/// `len` ones at the bottom of a `width`-bit word (all ones for len >= width).
fn low_ones<A: Algebra>(alg: &A, len: A::Bv) -> A::Bv {
    let ones = alg.ones(alg.width(len));
    alg.bvnot(alg.bvshl(ones, len))
}

/// bfe: shift the field down, keep `len` bits of it, but no more than reach
/// the msb; fill above with the field's sign bit.
fn bfe<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let (pos, len) = (byte(alg, b, w), byte(alg, c, w));
    let width = alg.constant(w, u128::from(w));
    // Bits of a available from pos upward: w - pos, or none past the msb.
    let available = alg.ite(alg.bvult(pos, width), alg.bvsub(width, pos), alg.constant(w, 0));
    let kept = alg.umin(len, available);
    let field = alg.bvand(alg.bvlshr(a, pos), low_ones(alg, kept));
    if !signed {
        return field;
    }
    // The sign bit: a's bit at pos+len-1, or a's msb when that is past it;
    // none for an empty field.
    let last = alg.bvsub(alg.bvadd(pos, len), alg.constant(w, 1));
    let last = alg.umin(last, alg.constant(w, u128::from(w - 1)));
    let sign = alg.bit(alg.bvlshr(a, last), 0);
    let sign = alg.ite(alg.is_zero(len), alg.constant(1, 0), sign);
    let fill = alg.bvand(alg.sign_extend(w - 1, sign), alg.bvnot(low_ones(alg, kept)));
    alg.bvor(field, fill)
}

/// bfi: the `len` low bits of a, moved to pos, replace those bits of b;
/// bits that would land past the msb are dropped.
fn bfi<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv, c: A::Bv, d: A::Bv) -> A::Bv {
    let w = alg.width(a);
    let (pos, len) = (byte(alg, c, w), byte(alg, d, w));
    let field_mask = alg.bvshl(low_ones(alg, len), pos);
    alg.bvor(alg.bvand(b, alg.bvnot(field_mask)), alg.bvand(alg.bvshl(a, pos), field_mask))
}

/// szext: keep the low N bits of a and extend them; N = 0 gives 0, and
/// N >= 32 gives a under .clamp and N mod 32 under .wrap.
fn szext<A: Algebra>(alg: &A, mode: Mode, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let n = alg.bvand(b, alg.constant(32, 31));
    let extended = if signed {
        // Move bit N-1 to the top, then shift back arithmetically.
        let up = alg.bvsub(alg.constant(32, 32), n);
        alg.bvashr(alg.bvshl(a, up), up)
    } else {
        alg.bvand(a, low_ones(alg, n))
    };
    let result = alg.ite(alg.is_zero(n), alg.constant(32, 0), extended);
    match mode {
        Mode::Clamp => alg.ite(alg.bvuge(b, alg.constant(32, 32)), a, result),
        Mode::Wrap => result,
    }
}

/// bmsk: `width` ones starting at bit `pos`, cut at bit 31; .clamp takes
/// min(b, 32) as the width and makes pos >= 32 an empty mask, .wrap takes
/// both mod 32.
fn bmsk<A: Algebra>(alg: &A, mode: Mode, a: A::Bv, b: A::Bv) -> A::Bv {
    let k31 = alg.constant(32, 31);
    let (pos, width) = match mode {
        Mode::Clamp => (a, alg.umin(b, alg.constant(32, 32))),
        Mode::Wrap => (alg.bvand(a, k31), alg.bvand(b, k31)),
    };
    // bvshl by 32 or more is 0, which is the empty mask pos >= 32 needs.
    alg.bvshl(low_ones(alg, width), pos)
}

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

impl fmt::Display for BitField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode_name = |m: &Mode| match m {
            Mode::Clamp => "clamp",
            Mode::Wrap => "wrap",
        };
        match self {
            BitField::Bfe(t) | BitField::Bfi(t) => write!(f, "{}{t}", self.opcode()),
            BitField::Szext(m, t) => write!(f, "szext.{}{t}", mode_name(m)),
            BitField::Bmsk(m) => write!(f, "bmsk.{}.b32", mode_name(m)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::catalogue::testing::run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.19-22, with the Examples' values.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("bfe.u32", &[0xf0, 4, 4]), 0xf);
        assert_eq!(run("bfe.s32", &[0xf0, 4, 4]), 0xffff_ffff);
        assert_eq!(run("bfe.s32", &[0x70, 4, 4]), 7);
        assert_eq!(run("bfe.s32", &[0xf0, 4, 0]), 0); // zero length gives 0
        assert_eq!(run("bfe.s32", &[0x8000_0000, 40, 4]), 0xffff_ffff); // past the msb: a's msb
        assert_eq!(run("bfe.u32", &[0x8000_0000, 40, 4]), 0);
        assert_eq!(run("bfe.s64", &[0x8000_0000_0000_0000, 60, 10]), 0xffff_ffff_ffff_fff8);
        assert_eq!(run("bfe.u32", &[0xabcd, 0x104, 0x108]), 0xbc); // only the low byte of b and c
        assert_eq!(run("bfi.b32", &[0xf, 0xffff_0000, 4, 8]), 0xffff_00f0);
        assert_eq!(run("bfi.b32", &[0xf, 0x1234, 4, 0]), 0x1234); // zero length: b
        assert_eq!(run("bfi.b32", &[0xf, 0x1234, 40, 8]), 0x1234); // past the msb: b
        assert_eq!(run("bfi.b64", &[0xff, 0, 60, 8]), 0xf000_0000_0000_0000);
        assert_eq!(run("szext.wrap.u32", &[0xffff_ffff, 0]), 0); // 9.7.1.21 Examples
        assert_eq!(run("szext.clamp.s32", &[0x80, 8]), 0xffff_ff80);
        assert_eq!(run("szext.clamp.s32", &[0x1234_5680, 40]), 0x1234_5680);
        assert_eq!(run("szext.wrap.s32", &[0x80, 40]), 0xffff_ff80);
        assert_eq!(run("szext.wrap.u32", &[0x1ff, 8]), 0xff);
        assert_eq!(run("bmsk.wrap.b32", &[1, 2]), 0x6); // 9.7.1.22 Examples
        assert_eq!(run("bmsk.clamp.b32", &[32, 2]), 0);
        assert_eq!(run("bmsk.clamp.b32", &[4, 40]), 0xffff_fff0);
        assert_eq!(run("bmsk.wrap.b32", &[4, 32]), 0);
        assert_eq!(run("bmsk.wrap.b32", &[30, 4]), 0xc000_0000);
    }

    /// bfe by the spec's per-bit loop, in Rust.
    fn bfe_reference(signed: bool, a: u32, b: u32, c: u32) -> u32 {
        let (pos, len) = (b & 0xff, c & 0xff);
        let sbit = if !signed || len == 0 { 0 } else { a >> (pos + len - 1).min(31) & 1 };
        (0..32).map(|i| if i < len && pos + i <= 31 { a >> (pos + i) & 1 } else { sbit } << i).sum()
    }

    /// bfi by the spec's loop, in Rust.
    fn bfi_reference(a: u32, b: u32, c: u32, d: u32) -> u32 {
        let (pos, len) = (c & 0xff, d & 0xff);
        let mut f = b;
        let mut i = 0;
        while i < len && pos + i <= 31 {
            f = (f & !(1 << (pos + i))) | ((a >> i & 1) << (pos + i));
            i += 1;
        }
        f
    }

    proptest! {
        #[test]
        fn match_the_loops(a: u32, b: u32, c in prop_oneof![0u32..40, any::<u32>()], d in prop_oneof![0u32..40, any::<u32>()]) {
            let small = |x: u32| x % 48;
            prop_assert_eq!(run("bfe.u32", &[a.into(), small(c).into(), d.into()]), bfe_reference(false, a, small(c), d).into());
            prop_assert_eq!(run("bfe.s32", &[a.into(), c.into(), small(d).into()]), bfe_reference(true, a, c, small(d)).into());
            prop_assert_eq!(run("bfi.b32", &[a.into(), b.into(), small(c).into(), d.into()]), bfi_reference(a, b, small(c), d).into());
            let n = c;
            let sz = if n >= 32 { a } else if n == 0 { 0 } else { ((a << (32 - n)) as i32 >> (32 - n)) as u32 };
            prop_assert_eq!(run("szext.clamp.s32", &[a.into(), n.into()]), sz.into());
        }
    }
}
