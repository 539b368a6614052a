//! The C layer's rules on values worked by hand.

use super::table::{Transcription, BLOCKS};
use super::*;
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::{Role, Variant};

fn int(c: &C<Concrete>, v: i128) -> CInt<Concrete> {
    c.int(v)
}

/// The rules of the hazards recorded, and whether each applies.
fn fired(c: &C<Concrete>) -> Vec<(Rule, bool)> {
    c.hazards().iter().map(|h| (h.rule, h.when)).collect()
}

#[test]
fn literals_take_cs_types() {
    assert_eq!(parse_literal("1"), Some((1, CType::Int)));
    assert_eq!(parse_literal("2147483647"), Some((0x7fff_ffff, CType::Int)));
    // A decimal literal never becomes unsigned without a suffix.
    assert_eq!(parse_literal("2147483648"), Some((0x8000_0000, CType::LongLong)));
    assert_eq!(parse_literal("0x7fffffff"), Some((0x7fff_ffff, CType::Int)));
    assert_eq!(parse_literal("0xffffffff"), Some((0xffff_ffff, CType::UInt)));
    assert_eq!(parse_literal("0x80000000"), Some((0x8000_0000, CType::UInt)));
    assert_eq!(parse_literal("0x100000000"), Some((1 << 32, CType::LongLong)));
    assert_eq!(parse_literal("0x8000000000000000"), Some((1 << 63, CType::ULongLong)));
    assert_eq!(parse_literal("1u"), Some((1, CType::UInt)));
    assert_eq!(parse_literal("1ULL"), Some((1, CType::ULongLong)));
    assert_eq!(parse_literal("017"), Some((15, CType::Int)));
    assert_eq!(parse_literal("0x1g"), None);
    assert_eq!(parse_literal("1uu"), None);
    assert_eq!(parse_literal("0x10000000000000000"), None);
}

#[test]
fn one_shifted_into_the_sign_bit_of_an_int_is_undefined() {
    let mut c = C::new(&Concrete);
    let one = c.lit("1");
    let r = c.shl("1<<31", one, int(&c, 31));
    assert_eq!(r.ty, CType::Int);
    assert_eq!(r.bits, BitVec::new(32, 0x8000_0000));
    assert!(fired(&c).contains(&(Rule::ShiftIntoSignBit, true)));
    // 1<<30 fits.
    let mut c = C::new(&Concrete);
    let one = c.lit("1");
    c.shl("1<<30", one, int(&c, 30));
    assert!(fired(&c).iter().all(|(_, f)| !f));
    // An int shifted by 32 or more is past its width.
    let mut c = C::new(&Concrete);
    let one = c.lit("1");
    c.shl("1<<32", one, int(&c, 32));
    assert!(fired(&c).contains(&(Rule::ShiftPastWidth, true)));
    // And by a negative amount.
    let mut c = C::new(&Concrete);
    let one = c.lit("1");
    c.shl("1<<-1", one, int(&c, -1));
    assert!(fired(&c).contains(&(Rule::ShiftByNegative, true)));
    // A negative value shifted left, even by 0.
    let mut c = C::new(&Concrete);
    let zero = c.lit("0");
    let all = c.not(zero);
    c.shl("(~0) << 0", all, int(&c, 0));
    assert!(fired(&c).contains(&(Rule::LeftShiftOfNegative, true)));
}

#[test]
fn unsigned_arithmetic_wraps_without_hazard() {
    let mut c = C::new(&Concrete);
    let max = c.lit("0xffffffff");
    let one = c.lit("1");
    let r = c.add("0xffffffff + 1", max, one);
    assert_eq!((r.ty, r.bits), (CType::UInt, BitVec::new(32, 0)));
    let r = c.shl("0xffffffff << 31", max, int(&c, 31));
    assert_eq!(r.bits, BitVec::new(32, 0x8000_0000));
    let r = c.mul("0xffffffff * 0xffffffff", max, max);
    assert_eq!(r.bits, BitVec::new(32, 1));
    assert!(fired(&c).iter().all(|(_, f)| !f), "{:?}", c.hazards());
}

#[test]
fn usual_arithmetic_conversions() {
    assert_eq!(C::<Concrete>::common_type(CType::Int, CType::UInt), CType::UInt);
    assert_eq!(C::<Concrete>::common_type(CType::Short, CType::UShort), CType::Int);
    assert_eq!(C::<Concrete>::common_type(CType::Int, CType::ULongLong), CType::ULongLong);
    assert_eq!(C::<Concrete>::common_type(CType::LongLong, CType::UInt), CType::LongLong);
    assert_eq!(C::<Concrete>::common_type(CType::LongLong, CType::ULongLong), CType::ULongLong);
    // -1 < 0u is false: -1 converts to 0xffffffff.
    let c = C::new(&Concrete);
    let minus_one = int(&c, -1);
    let zero_u = c.lit("0u");
    assert_eq!(c.lt(minus_one, zero_u).bits, BitVec::new(32, 0));
    // int + unsigned is unsigned and wraps without a hazard.
    let mut c = C::new(&Concrete);
    let max = int(&c, i128::from(i32::MAX));
    let one = c.lit("1u");
    let r = c.add("INT_MAX + 1u", max, one);
    assert_eq!((r.ty, r.bits), (CType::UInt, BitVec::new(32, 0x8000_0000)));
    assert!(fired(&c).iter().all(|(_, f)| !f));
    // short + short is int: 0x7fff + 1 does not overflow.
    let mut c = C::new(&Concrete);
    let s = c.operand(BitVec::new(16, 0x7fff), CType::Short);
    let r = c.add("s + s", s, s);
    assert_eq!((r.ty, r.bits), (CType::Int, BitVec::new(32, 0xfffe)));
    assert!(fired(&c).iter().all(|(_, f)| !f));
    // Stored back into a short it is out of range: implementation-defined.
    c.assign("s = s + s", r, CType::Short);
    assert!(fired(&c).contains(&(Rule::ConversionOutOfRange, true)));
    assert_eq!(Rule::ConversionOutOfRange.behaviour(), Behaviour::ImplementationDefined);
}

#[test]
fn signed_overflow_and_division() {
    let mut c = C::new(&Concrete);
    let max = int(&c, i128::from(i32::MAX));
    let one = int(&c, 1);
    c.add("INT_MAX + 1", max, one);
    assert_eq!(fired(&c), [(Rule::SignedOverflow, true)]);
    let mut c = C::new(&Concrete);
    let min = int(&c, i128::from(i32::MIN));
    let minus_one = int(&c, -1);
    let q = c.div("INT_MIN / -1", min, minus_one);
    assert_eq!(q.bits, BitVec::new(32, 0x8000_0000));
    assert_eq!(fired(&c), [(Rule::DivisionByZero, false), (Rule::QuotientOverflow, true)]);
    let mut c = C::new(&Concrete);
    c.rem("INT_MIN % -1", min, minus_one);
    assert!(fired(&c).contains(&(Rule::QuotientOverflow, true)));
    let mut c = C::new(&Concrete);
    c.div("1 / 0", one, int(&c, 0));
    assert_eq!(fired(&c)[0], (Rule::DivisionByZero, true));
    let mut c = C::new(&Concrete);
    c.neg("-INT_MIN", min);
    c.abs("|INT_MIN|", min);
    assert_eq!(fired(&c), [(Rule::SignedOverflow, true), (Rule::SignedOverflow, true)]);
    // The product of two unsigned shorts is an int, and can overflow.
    let mut c = C::new(&Concrete);
    let u = c.operand(BitVec::new(16, 0xffff), CType::UShort);
    c.mul("a * b", u, u);
    assert_eq!(fired(&c), [(Rule::SignedOverflow, true)]);
}

#[test]
fn right_shift_of_a_negative_value_is_implementation_defined() {
    let mut c = C::new(&Concrete);
    let minus_two = int(&c, -2);
    let r = c.shr("-2 >> 1", minus_two, int(&c, 1));
    assert_eq!(r.bits, BitVec::new(32, 0xffff_ffff));
    assert!(fired(&c).contains(&(Rule::RightShiftOfNegative, true)));
    assert_eq!(Rule::RightShiftOfNegative.behaviour(), Behaviour::ImplementationDefined);
}

#[test]
fn precedence_is_the_callers_and_branches_guard_hazards() {
    // `a & mask == 0` as C parses it: a & (mask == 0).
    let c = C::new(&Concrete);
    let a = c.operand(BitVec::new(32, 0), CType::UInt);
    let mask = c.lit("0x80000000");
    let zero = c.lit("0");
    let parsed = c.and(a, c.eq(mask, zero));
    assert_eq!(parsed.bits, BitVec::new(32, 0));
    // 0 ? 1/0 : 1 does not divide.
    let mut c = C::new(&Concrete);
    let zero = int(&c, 0);
    c.cond(zero, |c| c.div("1/0", int(c, 1), int(c, 0)), |c| int(c, 1));
    assert!(fired(&c).iter().all(|(_, f)| !f));
    // 0 && 1/0 neither.
    let mut c = C::new(&Concrete);
    c.land(zero, |c| c.div("1/0", int(c, 1), int(c, 0)));
    assert!(fired(&c).iter().all(|(_, f)| !f));
}

#[test]
fn bit_notation() {
    let mut c = C::new(&Concrete);
    let a = c.operand(BitVec::new(32, 0x8000_0001), CType::UInt);
    assert_eq!(c.bit_at("a[31]", a, 31).bits, BitVec::new(32, 1));
    assert_eq!(c.bit_at("a[1]", a, 1).bits, BitVec::new(32, 0));
    assert!(fired(&c).iter().all(|(_, f)| !f));
    c.bit_at("a[32]", a, 32);
    assert!(fired(&c).contains(&(Rule::BitIndexOutOfRange, true)));
    let mut c = C::new(&Concrete);
    let t = c.operand(BitVec::new(32, 0x1234_5678), CType::UInt);
    let hi = c.slice("t<31..16>", t, 31, 16);
    assert_eq!((hi.ty, hi.bits), (CType::Int, BitVec::new(32, 0x1234)));
    assert!(fired(&c).is_empty());
    c.slice("t<63..32>", t, 63, 32);
    assert!(fired(&c).contains(&(Rule::BitIndexOutOfRange, true)));
    let d = c.value(CType::UInt, 0);
    let one = int(&c, 1);
    let d = c.set_bit_at("d[4]", d, 4, one);
    assert_eq!(d.bits, BitVec::new(32, 0x10));
}

#[test]
fn stored_predicates_are_bools() {
    let mut c = C::new(&Concrete);
    let p = c.operand(BitVec::new(1, 1), CType::Bool);
    // ~1 is -2, nonzero: stored back into a _Bool it is 1.
    let r = c.not(p);
    assert_eq!(r.bits, BitVec::new(32, 0xffff_fffe));
    assert_eq!(c.assign("d = ~a", r, CType::Bool).bits, BitVec::new(1, 1));
}

/// Every transcription runs on concrete inputs without panicking, and
/// gives one value of the right width per output the block computes: every
/// destination operand (9.7.2's blocks leave `CC.CF` to the prose below them).
#[test]
fn every_block_transcribes_every_variant() {
    let alg = Concrete;
    for block in BLOCKS {
        for v in block.variants() {
            for fill in [0u128, u128::MAX, 0x8000_0001] {
                let ins: Vec<BitVec> = v.inputs().iter().map(|o| BitVec::new(o.ty.width(), fill)).collect();
                let mut c = C::new(&alg);
                let outs = block.literal(&mut c, &v, &ins);
                let widths: Vec<u32> = outs.iter().map(|o| o.value.width()).collect();
                let computed = v.outputs().into_iter().filter(|o| o.role != Role::Flag);
                let expected: Vec<u32> = computed.map(|o| o.ty.width()).collect();
                assert_eq!(widths, expected, "{v}");
            }
        }
    }
}

#[test]
fn the_table_covers_every_variant_once() {
    let mut covered: Vec<Variant> = BLOCKS.iter().flat_map(|b| b.variants()).collect();
    assert_eq!(covered.len(), Variant::sampled().len());
    covered.dedup();
    assert_eq!(covered.len(), Variant::sampled().len());
}

/// Values of the literal readings, worked by hand.
#[test]
fn literal_readings_on_hand_worked_inputs() {
    let run = |name: &str, inputs: &[u128]| -> (Vec<u128>, Vec<Rule>) {
        let v = Variant::from_mnemonic(name).expect("a variant");
        let block = super::table::block(v.opcode()).expect("a block");
        let ins: Vec<BitVec> = v.inputs().iter().zip(inputs).map(|(o, &x)| BitVec::new(o.ty.width(), x)).collect();
        let mut c = C::new(&Concrete);
        let outs = block.literal(&mut c, &v, &ins);
        let rules = c.hazards().iter().filter(|h| h.when).map(|h| h.rule).collect();
        (outs.iter().map(|o| o.value.unsigned()).collect(), rules)
    };
    // clz: the loop never runs.
    assert_eq!(run("clz.b32", &[0]), (vec![0], vec![]));
    assert_eq!(run("clz.b64", &[1]), (vec![0], vec![]));
    // bfind.u32 starts at 1<<31.
    let (_, rules) = run("bfind.u32", &[1]);
    assert!(rules.contains(&Rule::ShiftIntoSignBit));
    // popc counts.
    assert_eq!(run("popc.b32", &[0xf0f0]), (vec![8], vec![]));
    // mul.wide.u32 multiplies in 32 bits.
    assert_eq!(run("mul.wide.u32", &[0x1_0000, 0x1_0000]), (vec![0], vec![]));
    // shf.l.wrap.b32 with n = 0 shifts a by 32.
    let (_, rules) = run("shf.l.wrap.b32", &[1, 2, 0]);
    assert_eq!(rules, [Rule::ShiftPastWidth]);
    // not.pred: ~1 is nonzero.
    assert_eq!(run("not.pred", &[1]), (vec![1], vec![]));
    // fns: the second set bit above bit 3 of 0xaaaaaaaa.
    assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 3, 2]), (vec![5], vec![]));
    assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 2, 0xffff_ffff]), (vec![1], vec![]));
    // bfe.s32 of 0x80 at 4, 4 bits: 0x8 sign-extended.
    assert_eq!(run("bfe.s32", &[0x80, 4, 4]), (vec![0xffff_fff8], vec![]));
    // bfi.b32 puts 0xf at bit 4.
    assert_eq!(run("bfi.b32", &[0xf, 0, 4, 4]), (vec![0xf0], vec![]));
    // szext, read with `sign_bit ? mask : 0`: the example's 0 (9.7.1.21),
    // where `(~0) << b1` shifts a negative int even by 0.
    assert_eq!(run("szext.wrap.u32", &[0xffff_ffff, 0]), (vec![0], vec![Rule::LeftShiftOfNegative]));
    // 0x80 sign-extended from 8 bits; a is positive, so `a >> sign_pos` is
    // defined.
    assert_eq!(run("szext.clamp.s32", &[0x80, 8]), (vec![0xffff_ff80], vec![Rule::LeftShiftOfNegative]));
    // A negative a: its right shift is implementation-defined.
    let (d, rules) = run("szext.clamp.s32", &[0xffff_ff7f, 8]);
    assert_eq!(d, [0x7f]);
    assert!(rules.contains(&Rule::RightShiftOfNegative), "{rules:?}");
    // Clamped: mask is 0, nothing is shifted.
    assert_eq!(run("szext.clamp.s32", &[0x1234, 40]), (vec![0x1234], vec![]));
}

/// The promoted operation at the wide width, as SMT-LIB defines it.
fn wide_division(signed: bool, remainder: bool, a: BitVec, b: BitVec, wide: u32) -> BitVec {
    let alg = Concrete;
    let extra = wide - a.width();
    let (a, b) = (alg.extend(signed, extra, a), alg.extend(signed, extra, b));
    // Promoted to a signed type: divided as signed values.
    if remainder {
        alg.bvsrem(a, b)
    } else {
        alg.bvsdiv(a, b)
    }
}

#[test]
fn division_at_the_operands_width_is_the_promoted_division_bit_for_bit() {
    let alg = Concrete;
    for signed in [false, true] {
        for remainder in [false, true] {
            for wide in [9, 16, 32] {
                for a in 0..256u128 {
                    for b in 0..256u128 {
                        let (x, y) = (BitVec::new(8, a), BitVec::new(8, b));
                        assert_eq!(
                            narrow_division(&alg, signed, remainder, x, y, wide),
                            wide_division(signed, remainder, x, y, wide),
                            "signed {signed}, remainder {remainder}, {a:#x} and {b:#x} at {wide} bits"
                        );
                    }
                }
            }
            let edges = [0u128, 1, 2, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff];
            for a in edges {
                for b in edges {
                    let (x, y) = (BitVec::new(16, a), BitVec::new(16, b));
                    assert_eq!(
                        narrow_division(&alg, signed, remainder, x, y, 32),
                        wide_division(signed, remainder, x, y, 32),
                        "signed {signed}, remainder {remainder}, {a:#x} and {b:#x} at 32 bits"
                    );
                }
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn division_at_16_bits_is_the_promoted_division(a: u16, b: u16, signed: bool, remainder: bool) {
        let (x, y) = (BitVec::new(16, a.into()), BitVec::new(16, b.into()));
        proptest::prop_assert_eq!(
            narrow_division(&Concrete, signed, remainder, x, y, 32),
            wide_division(signed, remainder, x, y, 32)
        );
    }
}

/// A value stored into a signed type that cannot hold it is
/// implementation-defined (C11 6.3.1.3p3), read on the value's own bits:
/// an `unsigned __int128` near 2^128 is no negative `long long`.
#[test]
fn conversions_into_signed_types_are_checked_at_every_width() {
    let alg = Concrete;
    let stores = [
        (CType::UInt128, u128::MAX, CType::LongLong, false),
        (CType::UInt128, (1 << 63) - 1, CType::LongLong, true),
        (CType::UInt128, 1 << 63, CType::LongLong, false),
        (CType::ULongLong, u128::from(u64::MAX), CType::Int, false),
        (CType::UInt, 0x7fff_ffff, CType::Int, true),
        (CType::UInt, 0x8000_0000, CType::Int, false),
        (CType::LongLong, u128::from(u64::MAX), CType::Int, true),
        (CType::LongLong, 0xffff_ffff_7fff_ffff, CType::Int, false),
        (CType::LongLong, 0x8000_0000, CType::Int, false),
        (CType::Int, 0xffff_ffff, CType::LongLong, true),
    ];
    for (from, value, to, holds) in stores {
        let mut c = C::new(&alg);
        let x = CInt { bits: alg.constant(from.width(), value), ty: from };
        c.assign("d = x", x, to);
        let out_of_range = fired(&c).iter().any(|&(r, when)| r == Rule::ConversionOutOfRange && when);
        assert_eq!(out_of_range, !holds, "{value:#x} as {} into {}", from.name(), to.name());
    }
}
