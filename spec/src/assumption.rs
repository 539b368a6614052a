//! Where the spec's pseudocode reaches a case it does not settle, the model
//! adopts one reading and says so. Each reading is an [`Assumption`]: data
//! that `prove` prints next to the proof and the reports list.

use serde::Serialize;

/// A reading the model adopts where the spec text leaves a case open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Assumption {
    /// Stable identifier, used in tables and JSON.
    pub id: &'static str,
    /// The spec section the case comes from.
    pub section: &'static str,
    /// A short fragment of the spec text the case arises from.
    pub fragment: &'static str,
    /// The reading adopted, and the words that support it.
    pub reading: &'static str,
}

/// shf's pseudocode shifts a 32-bit word by `32-n`, which is 32 when n is 0,
/// and by `n`, which is 32 under .clamp.
pub const SHF_SHIFT_BY_32: Assumption = Assumption {
    id: "shf-shift-by-32",
    section: "9.7.8.7",
    fragment: "a >> (32-n)",
    reading: "a 32-bit shift by 32 (n = 0 in `32-n`, or n = 32 under .clamp) yields 0, \
              so a funnel shift by 0 returns b for shf.l and a for shf.r, and by 32 returns a \
              for shf.l and b for shf.r; this is what shifting the 64-bit value [b, a] in the \
              Description means (in C such a shift is undefined)",
};

/// shl/shr take a 32-bit amount whatever the operand width, and the notes
/// clamp amounts above the width.
pub const SHIFT_CLAMPED_TO_WIDTH: Assumption = Assumption {
    id: "shift-clamped-to-width",
    section: "9.7.8.8-9",
    fragment: "clamped to N",
    reading: "the amount b is an unsigned 32-bit value and any b >= N shifts every bit of the \
              N-bit operand out: 0 for shl and for shr of .b/.u types, copies of the sign bit \
              for shr of .s types (Description: signed shifts fill with the sign bit)",
};

/// Integer results of fixed width.
pub const WRAPAROUND: Assumption = Assumption {
    id: "int-wraparound",
    section: "9.7.1",
    fragment: "d = a + b",
    reading: "an n-bit result is the exact result modulo 2^n (two's complement wrap-around), signed \
              overflow included, which C leaves undefined; only the .sat variants saturate",
};

/// `.sat` on add, sub, mad.hi and mad24.hi.
pub const SAT_OF_EXACT_RESULT: Assumption = Assumption {
    id: "sat-of-exact-result",
    section: "9.7.1.1-2, 9.7.1.4, 9.7.1.6",
    fragment: "limits result to MININT..MAXINT",
    reading: "the exact (unwrapped) result is clamped to the 32-bit signed range; nothing wraps \
              before the clamp",
};

/// abs and neg of the most negative value.
pub const ABS_NEG_MIN: Assumption = Assumption {
    id: "abs-neg-most-negative",
    section: "9.7.1.10-11",
    fragment: "d = |a|",
    reading: "for the most negative value, whose magnitude does not fit, the result wraps to that \
              value itself (two's complement); the section is silent. Other readings: unspecified, \
              or saturation to the most positive value",
};

/// div by zero.
pub const DIV_BY_ZERO: Assumption = Assumption {
    id: "div-by-zero-unspecified",
    section: "9.7.1.8",
    fragment: "unspecified, machine-specific value",
    reading: "for b = 0 the quotient is unspecified: both models mark it so, and the proof covers \
              every b != 0 and that both leave exactly b = 0 unspecified",
};

/// rem by zero.
pub const REM_BY_ZERO: Assumption = Assumption {
    id: "rem-by-zero-unspecified",
    section: "9.7.1.9",
    fragment: "Divides a by b",
    reading: "rem divides as div does, so for b = 0 the remainder is unspecified too (rem's own \
              text is silent on it)",
};

/// Signed division overflow.
pub const DIV_SIGNED_OVERFLOW: Assumption = Assumption {
    id: "div-signed-overflow",
    section: "9.7.1.8",
    fragment: "d = a / b",
    reading: "the most negative value divided by -1 gives the most negative value (the quotient \
              truncated toward zero, modulo 2^n); the section is silent. Other readings: \
              unspecified, or saturation to the most positive value",
};

/// The rounding of a signed quotient.
pub const DIV_ROUNDING: Assumption = Assumption {
    id: "div-rounding-direction",
    section: "9.7.1.8",
    fragment: "d = a / b",
    reading: "a signed quotient is truncated toward zero (C99's /), so 7 / -2 is -3; div's section \
              never says which way it rounds, and rem's Notes call the rounding machine-dependent \
              (toward zero or toward negative infinity)",
};

/// Signed remainder with a negative operand.
pub const REM_NEGATIVE: Assumption = Assumption {
    id: "rem-negative-machine-dependent",
    section: "9.7.1.9",
    fragment: "machine-dependent",
    reading: "for signed types, when a or b is negative the remainder is unspecified: it depends on \
              whether division truncates toward zero (the sign of a) or floors (the sign of b); \
              both readings are kept for the audit",
};

/// The 24-bit multiplies.
pub const MUL24_LOW_BITS: Assumption = Assumption {
    id: "mul24-low-24-bits",
    section: "9.7.1.5-6",
    fragment: "two 24-bit integer values held in 32-bit source registers",
    reading: "only bits 0..23 of a and b take part, sign-extended from bit 23 for .s32 and \
              zero-extended for .u32; bits 24..31 are ignored, so the product has 48 bits as the \
              Notes say. Other reading: the full 32-bit operands are multiplied",
};

/// The sign of a .s32 operand's 24-bit part (9.7.1.5-6).
pub const MUL24_OPERAND_SIGN: Assumption = Assumption {
    id: "mul24-operand-sign",
    section: "9.7.1.5-6",
    fragment: "two 24-bit integer values",
    reading: "for .s32, bits 0..23 of a and b are a signed 24-bit value, extended from bit 23; the \
              text says which bits take part but not whether the part of a signed register is itself \
              signed. Other reading: the 24 bits are read unsigned, as the .u32 form reads them",
};

/// clz's loop test.
pub const CLZ_MASK_TEST: Assumption = Assumption {
    id: "clz-mask-test",
    section: "9.7.1.15",
    fragment: "a&mask == 0",
    reading: "the test is (a & mask) == 0, as the Description's count of leading zeros needs; C \
              would parse a & (mask == 0), which is always 0 and makes every result 0",
};

/// bfind's bit test at 64 bits.
pub const BFIND_SHIFT_WIDTH: Assumption = Assumption {
    id: "bfind-shift-width",
    section: "9.7.1.16",
    fragment: "1<<i",
    reading: "the single-bit mask is formed at the operand's width, so bits 32..63 of a .u64/.s64 \
              operand are tested; a C int 1 shifted by 32 or more is undefined",
};

/// fns with a base above 31.
pub const FNS_BASE: Assumption = Assumption {
    id: "fns-base-above-31-undefined",
    section: "9.7.1.17",
    fragment: "otherwise behavior is undefined",
    reading: "base is read as an unsigned 32-bit value; for base > 31 (a negative .s32 base \
              included) the result is undefined, and the proof covers base <= 31",
};

/// fns with the most negative offset.
pub const FNS_MIN_OFFSET: Assumption = Assumption {
    id: "fns-most-negative-offset",
    section: "9.7.1.17",
    fragment: "count = |offset| - 1",
    reading: "|offset| is exact, so for offset = -2^31 the count (2^31 - 1) is never reached \
              within 32 bits and d = 0xffffffff; a 32-bit |offset| would overflow",
};

/// bfe fields reaching past the msb.
pub const BFE_PAST_MSB: Assumption = Assumption {
    id: "bfe-field-past-msb",
    section: "9.7.1.19",
    fragment: "pos+i<=msb",
    reading: "bits of the field at or past the msb of a take the field's sign bit, which is a's \
              msb for signed types once pos+len-1 passes it, as the pseudocode's min(pos+len-1, \
              msb) and the Description's fill rule say",
};

/// szext's final expression.
pub const SZEXT_MASK_OR_ZERO: Assumption = Assumption {
    id: "szext-mask-or-zero",
    section: "9.7.1.21",
    fragment: "sign_bit ? mask | 0",
    reading: "read as sign_bit ? mask : 0 (the `:` of the conditional is missing), which gives the \
              sign- and zero-extension the Description states",
};

/// shfl's source lane `j`: the pseudocode gives neither its width nor its
/// signedness, and .up and .down reach past the warp's edges.
pub const SHFL_SOURCE_LANE: Assumption = Assumption {
    id: "shfl-source-lane",
    section: "9.7.9.5",
    fragment: "j = lane - bval",
    reading: "j is a signed integer wide enough for lane - bval and lane + bval (-31..62), so a \
              source below lane 0 or above maxLane is out of range: the lane copies its own a and \
              p is false, as the Description's 'if the computed source lane index j is in range' \
              says (a 5-bit j would wrap lane 0 - 1 to lane 31 and transfer data)",
};

/// shfl lanes that do not execute, and lanes that read from them.
pub const SHFL_UNPREDICTABLE_SOURCE: Assumption = Assumption {
    id: "shfl-unpredictable-source",
    section: "9.7.9.5",
    fragment: "unpredictable for inactive/predicated-off threads",
    reading: "a lane that is inactive or predicated off writes neither d nor p; an executing lane \
              whose source lane j does not execute gets an unpredictable d (any value, proven \
              for all), with p still defined, as the Semantics' SourceA and the Description's \
              note on divergent control flow say",
};

/// shfl.sync's member mask: the lanes outside it.
pub const SHFL_SYNC_MEMBERMASK: Assumption = Assumption {
    id: "shfl-sync-membermask",
    section: "9.7.9.6",
    fragment: "is not in membermask",
    reading: "an executing lane whose own bit of membermask is clear gets neither a defined d nor \
              a defined p (the Description makes its behaviour undefined); one whose source lane j \
              is outside membermask gets an unpredictable d (any value, proven for all) with p \
              still defined, as for a source lane that does not execute. The Semantics block \
              never reads membermask after the wait, so neither case is in it",
};

/// shfl.sync lanes that name each other with different masks.
pub const SHFL_SYNC_MASK_AGREEMENT: Assumption = Assumption {
    id: "shfl-sync-mask-agreement",
    section: "9.7.9.6",
    fragment: "with the same qualifiers and same",
    reading: "when an executing lane in the thread's membermask executes shfl.sync with a \
              different membermask, the thread's d and p are unspecified: the text says only \
              that the thread waits for the lanes of its mask to execute shfl.sync with the same \
              mask, and not what happens when one executes it with another",
};

/// dp4a's and dp2a's extract helpers, which the text never defines.
pub const DOT_ELEMENT_ORDER: Assumption = Assumption {
    id: "dot-element-order",
    section: "9.7.1.23-24",
    fragment: "extractAndSignOrZeroExt_4(b, .btype)",
    reading: "element i of a packed operand is its i-th lowest byte (bits 8i..8i+7) or half-word \
              (bits 16i..16i+15), extended by the operand's type as the blocks' comments say; \
              the helpers are never defined, and this is the order add's .u16x2 block packs its \
              halves in. Reversed, dp4a's sum is the same; dp2a pairs other halves and bytes",
};

/// prmt's eight source bytes: the block shifts the 32-bit `b` left by 32.
pub const PRMT_SOURCE_PAIR: Assumption = Assumption {
    id: "prmt-source-pair",
    section: "9.7.9.7",
    fragment: "tmp64 = (b<<32) | a",
    reading: "tmp64 is the 64-bit value whose high word is b and low word is a, bytes b7..b0 as the \
              Description numbers them: b is widened before the shift (in C a 32-bit b shifted by \
              32 is undefined, and on most machines gives b or 0, so that tmp64 would hold a | b \
              or a alone)",
};

/// prmt's `ReadByte`, which the text calls and never defines, and its
/// `tmp`, which the block fills and never assigns to `d`.
pub const PRMT_BYTE_SELECT: Assumption = Assumption {
    id: "prmt-byte-select",
    section: "9.7.9.7",
    fragment: "ReadByte( mode, ctl[0], tmp64 )",
    reading: "ReadByte returns byte ctl & 7 of tmp64 in the generic form, with the byte's sign bit \
              copied over all 8 bits where ctl's bit 3 is set; under a mode it returns the byte the \
              mode's row for c[1:0] gives at that target position in the Description's table (the \
              block passes the same ctl at every position, so the position is read as an unstated \
              argument). d is the block's tmp, which the block never assigns to d",
};

/// selp's floating-point types: the text says what is selected, not that
/// the bits pass unchanged (slct's Description says so; selp's does not).
pub const SELP_FLOAT_BITS: Assumption = Assumption {
    id: "selp-float-bits",
    section: "9.7.6.3",
    fragment: "d = (c == 1) ? a : b;",
    reading: "selp.f32 and selp.f64 copy the bits of a or b to d unchanged, a NaN's payload and a \
              signalling NaN included, as slct's Description says of slct (a selection is a move, \
              not an arithmetic operation that would quiet a NaN)",
};

/// slct's test of an .f32 c: the Semantics' `c >= 0`, which the Floating
/// Point Notes settle for -0, NaN and subnormals, and which the one-line
/// summary calls a test of the sign.
pub const SLCT_F32_TEST: Assumption = Assumption {
    id: "slct-f32-test",
    section: "9.7.6.4",
    fragment: "d = (c >= 0) ? a : b;",
    reading: "for an .f32 c, `c >= 0` is the IEEE comparison: +0 and -0 select a, a NaN (of either \
              sign) selects b, a negative subnormal selects b, except under .ftz, which flushes it \
              to -0 and so selects a. This is sm_20 and later; on sm_1x slct without .ftz flushes as \
              .ftz does, which the model does not follow. The sign bit alone (the summary's 'sign \
              of the third operand') would select b for -0 and a for a NaN whose sign bit is clear",
};

/// 9.7.2: what "carry-out" is for each type, the signed ones included.
pub const CARRY_OUT_UNSIGNED: Assumption = Assumption {
    id: "carry-out-unsigned",
    section: "9.7.2.1-2, 9.7.2.5-6",
    fragment: "carry-out written to CC.CF",
    reading: "CC.CF after add.cc, addc.cc, mad.cc and madc.cc is 1 exactly when the sum of the n-bit \
              addends (with the carry-in), their bit patterns read as unsigned, reaches 2^n: bit n of the \
              exact sum. The same for .s32 and .s64, as the Notes say the behaviour is the same for signed \
              and unsigned integers; never the signed overflow of the sum",
};

/// 9.7.2.3-4: what "borrow-out" is, and its polarity.
pub const BORROW_OUT: Assumption = Assumption {
    id: "borrow-out",
    section: "9.7.2.3-4",
    fragment: "d = a  - (b + CC.CF);",
    reading: "CC.CF after sub.cc and subc.cc is 1 exactly when a borrow occurs: a < b (sub.cc), a < b + \
              CC.CF (subc.cc), the operands' bit patterns read as unsigned and b + CC.CF taken exactly, not \
              at n bits. A set flag means a borrow, the polarity subc's own `- (b + CC.CF)` reads; not the \
              carry of a + ~b + 1, its complement, which some machines keep",
};

/// 9.7.2.5-6: which bits of which product mad.cc and madc take.
pub const MAD_CC_PRODUCT_HALVES: Assumption = Assumption {
    id: "mad-cc-product-halves",
    section: "9.7.2.5-6",
    fragment: "d = t<63..32> + c;",
    reading: "t is the full 2n-bit product of a and b (signed for .s32 and .s64), and .hi takes its upper \
              n bits t<2n-1..n>, .lo its lower n bits t<n-1..0>, as mad in 9.7.1.4 does. The bounds the block \
              writes, t<63..32> and t<31..0>, fit the 32-bit types only; read literally for .u64 and .s64 they \
              would take bits 63..32 of a 128-bit product",
};

/// 9.7.2: the flag where no instruction writes it.
pub const CC_FLAG_STATE: Assumption = Assumption {
    id: "cc-flag-state",
    section: "9.7.2",
    fragment: "implicitly specified condition code register",
    reading: "CC.CF keeps its value through every instruction that does not write it (addc, subc and madc \
              without .cc, and every instruction outside 9.7.2). Its value before any instruction writes it \
              is not given by the text: the proofs take it as an input of either value, and a program that \
              reads it first has it as an input",
};

/// 9.7.6.1-2: which order lt, le, gt and ge compare in.
pub const COMPARE_ORDER_BY_TYPE: Assumption = Assumption {
    id: "compare-order-by-type",
    section: "9.7.6.1-2",
    fragment: "The signed and unsigned comparison operators are",
    reading: "lt, le, gt and ge compare the values of a and b as the type says: as signed integers for the \
              .s types, as unsigned ones for the .u types; lo, ls, hi and hs, which the Integer Notes give the \
              unsigned types only, are lt, le, gt and ge. The Notes name the operators of both kinds without \
              saying which order each one uses",
};

/// 9.7.6.1-2: the forms without a Boolean operator.
pub const COMPARE_NO_BOOLOP: Assumption = Assumption {
    id: "compare-no-boolop",
    section: "9.7.6.1-2",
    fragment: "BoolOp(t, c)",
    reading: "a form without .BoolOp, which has no c, writes the comparison itself: setp's p is t and its q \
              is !t, set's d is written from t. The Semantics applies BoolOp to t and c in every form, \
              whether or not the instruction has either",
};

/// 9.7.6.1-2: the operand `!c`.
pub const COMPARE_NOT_C: Assumption = Assumption {
    id: "compare-not-c",
    section: "9.7.6.1-2",
    fragment: "{!}c",
    reading: "written `!c`, the operand's complement takes c's place in every BoolOp: BoolOp(t, !c), and \
              setp's q is BoolOp(!t, !c). The Syntax allows the `!`; the Description and the Semantics name c \
              only",
};

/// 9.7.6.2: what setp writes to its second destination.
pub const COMPARE_Q: Assumption = Assumption {
    id: "compare-q",
    section: "9.7.6.2",
    fragment: "A related value computed using the complement",
    reading: "q is BoolOp(!t, c), the Semantics' line: the complement of the comparison, combined with c. \
              Not the complement of p, which the Description's words admit too and which differs under and \
              and or",
};

/// 9.7.6.1: set's floating-point destination.
pub const COMPARE_SET_F32_ONE: Assumption = Assumption {
    id: "compare-set-f32-one",
    section: "9.7.6.1",
    fragment: "1.0f is written for floating-point destination types",
    reading: "set with the .f32 destination writes 1.0 as its single-precision bit pattern 0x3f800000, and \
              0x00000000 (+0.0) where the result is false",
};

/// Every assumption the model makes, in a stable order.
pub const ALL: &[&Assumption] = &[
    &WRAPAROUND,
    &SAT_OF_EXACT_RESULT,
    &ABS_NEG_MIN,
    &DIV_BY_ZERO,
    &REM_BY_ZERO,
    &DIV_SIGNED_OVERFLOW,
    &DIV_ROUNDING,
    &REM_NEGATIVE,
    &MUL24_LOW_BITS,
    &MUL24_OPERAND_SIGN,
    &CLZ_MASK_TEST,
    &BFIND_SHIFT_WIDTH,
    &FNS_BASE,
    &FNS_MIN_OFFSET,
    &BFE_PAST_MSB,
    &SZEXT_MASK_OR_ZERO,
    &DOT_ELEMENT_ORDER,
    &CARRY_OUT_UNSIGNED,
    &BORROW_OUT,
    &MAD_CC_PRODUCT_HALVES,
    &CC_FLAG_STATE,
    &COMPARE_ORDER_BY_TYPE,
    &COMPARE_NO_BOOLOP,
    &COMPARE_NOT_C,
    &COMPARE_Q,
    &COMPARE_SET_F32_ONE,
    &SHF_SHIFT_BY_32,
    &SHIFT_CLAMPED_TO_WIDTH,
    &SHFL_SOURCE_LANE,
    &SHFL_UNPREDICTABLE_SOURCE,
    &SHFL_SYNC_MEMBERMASK,
    &SHFL_SYNC_MASK_AGREEMENT,
    &PRMT_SOURCE_PAIR,
    &PRMT_BYTE_SELECT,
    &SELP_FLOAT_BITS,
    &SLCT_F32_TEST,
];
