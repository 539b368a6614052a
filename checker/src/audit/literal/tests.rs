//! The C layer's rules on values worked by hand.

use super::table::BLOCKS;
use super::*;
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::Variant;

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

#[test]
fn the_table_covers_every_variant_once() {
    let mut covered: Vec<Variant> = BLOCKS.iter().flat_map(|b| b.variants()).collect();
    assert_eq!(covered.len(), Variant::sampled().len());
    covered.dedup();
    assert_eq!(covered.len(), Variant::sampled().len());
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
