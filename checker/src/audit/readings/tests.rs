//! The readings against hand-worked values, and against the model where
//! they agree with it.

use proptest::prelude::*;
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::shfl::Mode;
use ptx_spec::catalogue::Variant;
use ptx_spec::family::shfl::source_lane;

use super::add_sub;
use super::div_rem::{div_flooring, div_saturating, rem_flooring, rem_truncating};
use super::shfl::{source_lane_reading, SourceReading};

/// The model's first output of variant `name` on `inputs`, `None` where it
/// is unspecified.
fn run_opt(name: &str, inputs: &[u128]) -> Option<u128> {
    let v = Variant::from_mnemonic(name).unwrap_or_else(|| panic!("no variant {name}"));
    v.run(inputs)[0].map(|b| b.unsigned())
}

/// The model's first output, which must be defined.
fn run(name: &str, inputs: &[u128]) -> u128 {
    run_opt(name, inputs).unwrap_or_else(|| panic!("{name}: unspecified result"))
}

#[test]
fn the_saturating_reading_of_abs_differs_only_at_the_most_negative_value() {
    let c = Concrete;
    assert_eq!(add_sub::abs_saturating(&c, BitVec::new(16, 0x8000)), BitVec::new(16, 0x7fff));
    assert_eq!(add_sub::neg_saturating(&c, BitVec::new(16, 0x8000)), BitVec::new(16, 0x7fff));
    assert_eq!(add_sub::neg_saturating(&c, BitVec::new(16, 5)).unsigned(), run("neg.s16", &[5]));
    assert_eq!(run("abs.s16", &[0x8000]), 0x8000);
    for a in [0u128, 1, 0x7fff, 0x8001, 0xffff] {
        assert_eq!(add_sub::abs_saturating(&c, BitVec::new(16, a)).unsigned(), run("abs.s16", &[a]));
    }
}

#[test]
fn readings_not_adopted() {
    use super::bit_count::{bfind_int_shift, clz_c_precedence};
    // C's precedence makes clz 0 even for a = 0, where the count is 32.
    assert_eq!(clz_c_precedence(&Concrete, BitVec::new(32, 0)), BitVec::new(32, 0));
    assert_eq!(run_opt("clz.b32", &[0]), Some(32));
    // A 32-bit `1<<i` sees bit 0 of a .u64 value at i = 32 as well.
    let one = BitVec::new(64, 1);
    assert_eq!(bfind_int_shift(&Concrete, false, false, one), BitVec::new(32, 32));
    assert_eq!(run_opt("bfind.u64", &[1]), Some(0));
    // For a .u32 operand the readings agree.
    assert_eq!(
        bfind_int_shift(&Concrete, false, false, BitVec::new(32, 0x10)).unsigned(),
        run_opt("bfind.u32", &[0x10]).unwrap()
    );
}

#[test]
fn the_full_operand_reading_of_mul24_differs_when_bits_24_to_31_are_set() {
    use super::mul_mad::mul24_full_operands;
    use ptx_spec::catalogue::mul_mad::MulMode;
    let (a, b) = (BitVec::new(32, 0xff00_0002), BitVec::new(32, 3));
    assert_eq!(mul24_full_operands(&Concrete, MulMode::Lo, false, a, b), BitVec::new(32, 0xfd00_0006));
    assert_eq!(run("mul24.lo.u32", &[0xff00_0002, 3]), 6);
    // Where bits 24..31 are a sign or zero extension, the readings agree.
    let (a, b) = (BitVec::new(32, 0xffff_fffe), BitVec::new(32, 3));
    assert_eq!(
        mul24_full_operands(&Concrete, MulMode::Lo, true, a, b).unsigned(),
        run("mul24.lo.s32", &[0xffff_fffe, 3])
    );
}

#[test]
fn the_other_readings_of_j_transfer_data_at_lane_0() {
    let (c, b, cz) = (Concrete, BitVec::new(32, 1), BitVec::new(32, 0));
    let (j, pval) = source_lane(&c, Mode::Up, BitVec::new(5, 0), b, cz);
    assert_eq!((j.unsigned(), pval), (0, false));
    let (j, pval) = source_lane_reading(&c, SourceReading::FiveBit, Mode::Up, BitVec::new(5, 0), b, cz);
    assert_eq!((j.unsigned(), pval), (31, true), "a 5-bit j wraps to lane 31");
    let (j, pval) = source_lane_reading(&c, SourceReading::Unsigned32, Mode::Up, BitVec::new(5, 0), b, cz);
    assert_eq!((j.unsigned(), pval), (0xffff_ffff, true), "an unsigned j leaves the warp");
    // .down: the unsigned reading agrees at lane 31, the 5-bit one wraps.
    let (b, c31) = (BitVec::new(32, 2), BitVec::new(32, 0x1f));
    let wrapped = source_lane_reading(&c, SourceReading::FiveBit, Mode::Down, BitVec::new(5, 31), b, c31);
    assert_eq!((wrapped.0.unsigned(), wrapped.1), (1, true));
    let unsigned = source_lane_reading(&c, SourceReading::Unsigned32, Mode::Down, BitVec::new(5, 31), b, c31);
    assert_eq!((unsigned.0.unsigned(), unsigned.1), (31, false));
}

#[test]
fn the_readings_of_negative_remainders_and_min_over_minus_one() {
    // The two readings the audit compares: -7 % 3 is -1 truncating, 2 flooring.
    let (a, b) = (BitVec::new(32, 0xffff_fff9), BitVec::new(32, 3));
    assert_eq!(rem_truncating(&Concrete, a, b).signed(), -1);
    assert_eq!(rem_flooring(&Concrete, a, b).signed(), 2);
    // The saturating reading of MIN / -1.
    let (min, minus1) = (BitVec::new(16, 0x8000), BitVec::new(16, 0xffff));
    assert_eq!(div_saturating(&Concrete, min, minus1), BitVec::new(16, 0x7fff));
    assert_eq!(div_saturating(&Concrete, BitVec::new(16, 7), minus1), BitVec::new(16, 0xfff9));
    // The two roundings of div-rounding-direction: 7 / -2 is -3 toward zero
    // (the model), -4 flooring; exact or same-sign quotients agree.
    let s32 = |x: i32| BitVec::new(32, u128::from(x as u32));
    assert_eq!(run("div.s32", &[7, s32(-2).unsigned()]), s32(-3).unsigned());
    assert_eq!(div_flooring(&Concrete, s32(7), s32(-2)), s32(-4));
    assert_eq!(div_flooring(&Concrete, s32(-7), s32(2)), s32(-4));
    assert_eq!(div_flooring(&Concrete, s32(-7), s32(-2)), s32(3));
    assert_eq!(div_flooring(&Concrete, s32(-8), s32(2)), s32(-4));
    assert_eq!(div_flooring(&Concrete, min, minus1), min);
}

proptest! {
    #[test]
    fn remainder_readings_match_rust_integer_arithmetic(a: i32, b: i32) {
        let u = |x: i32| u128::from(x as u32);
        if b != 0 {
                        let (ca, cb) = (BitVec::new(32, u(a)), BitVec::new(32, u(b)));
                        prop_assert_eq!(rem_truncating(&Concrete, ca, cb).signed() as i32, a.wrapping_rem(b));
                        prop_assert_eq!(rem_flooring(&Concrete, ca, cb).signed() as i32, a.wrapping_rem_euclid(b) + if b < 0 && a.wrapping_rem_euclid(b) != 0 { b } else { 0 });
                        let floor = i64::from(a).div_euclid(i64::from(b)) - i64::from(b < 0 && i64::from(a).rem_euclid(i64::from(b)) != 0);
                        prop_assert_eq!(i64::from(div_flooring(&Concrete, ca, cb).signed() as i32), if a == i32::MIN && b == -1 { i64::from(i32::MIN) } else { floor });
                    }
    }
}

// 9.7.1.24, worked by hand: a's halves are 2 (high) and 3 (low), b's bytes
// 4, 3, 2, 1 from the top. The model pairs a's low half with byte 0. Each
// expected value is written as its two products, `* 1` included.
#[test]
#[allow(clippy::identity_op)]
fn dp2a_element_orders_by_hand() {
    use super::dot::{dot_reading, ElementOrder, ExtractOrder};
    let dot = |name: &str, halves: ElementOrder, bytes: ElementOrder, a: u128, b: u128| {
        let Variant::Dot(d) = Variant::from_mnemonic(name).unwrap() else { panic!("{name}") };
        let order = ExtractOrder { halves, bytes };
        dot_reading(&Concrete, d, order, BitVec::new(32, a), BitVec::new(32, b), BitVec::new(32, 0)).unsigned()
    };
    use ElementOrder::{LeastSignificantFirst as Low, MostSignificantFirst as High};
    let (a, b) = (0x0002_0003, 0x0403_0201);
    assert_eq!(dot("dp2a.lo.u32.u32", Low, Low, a, b), 3 * 1 + 2 * 2);
    assert_eq!(dot("dp2a.lo.u32.u32", High, High, a, b), 2 * 4 + 3 * 3);
    assert_eq!(dot("dp2a.lo.u32.u32", High, Low, a, b), 2 * 1 + 3 * 2);
    assert_eq!(dot("dp2a.lo.u32.u32", Low, High, a, b), 3 * 4 + 2 * 3);
    assert_eq!(dot("dp2a.hi.u32.u32", Low, Low, a, b), 3 * 3 + 2 * 4);
    assert_eq!(run("dp2a.lo.u32.u32", &[a, b, 0]), 7);
    // dp4a pairs byte i of a with byte i of b whichever end is element 0.
    assert_eq!(
        dot("dp4a.u32.s32", High, High, 0x0102_0304, 0xff01_0101),
        run("dp4a.u32.s32", &[0x0102_0304, 0xff01_0101, 0])
    );
}

proptest! {
    /// The model's order, read through the helpers, is the model.
    #[test]
    fn the_lowest_first_reading_of_the_extract_helpers_is_the_model(a: u32, b: u32, c: u32, k in 0usize..12) {
        use super::dot::{dot_reading, ExtractOrder};
        let v = Variant::all().into_iter().filter(|v| matches!(v, Variant::Dot(_))).nth(k).unwrap();
        let Variant::Dot(d) = v else { unreachable!() };
        let (x, y, z) = (BitVec::new(32, a.into()), BitVec::new(32, b.into()), BitVec::new(32, c.into()));
        prop_assert_eq!(
            dot_reading(&Concrete, d, ExtractOrder::MODEL, x, y, z).unsigned(),
            run(&v.mnemonic(), &[a.into(), b.into(), c.into()])
        );
    }
}

/// The committed H100 run (`reports/vendor/h100-run.txt`) against the
/// readings of passage dot-element-order (9.7.1.23-24): the GPU gives the
/// model's order on every dp4a and dp2a input it ran; each reversed reading
/// misses some dp2a input, and none misses a dp4a one (the solver proves
/// them equal there).
#[test]
fn the_h100_run_takes_the_lowest_first_element_order() {
    use crate::audit::passages::PASSAGES;
    let run = include_str!("../../../../reports/vendor/h100-run.txt");
    let passage = PASSAGES.iter().find(|p| p.id == "dot-element-order").unwrap();
    let mut lines = 0;
    let mut missed: Vec<(&str, &str)> = Vec::new();
    for line in run.lines() {
        let Some((call, result)) = line.strip_prefix("inst ").and_then(|l| l.split_once(" -> ")) else { continue };
        let mut words = call.split_whitespace();
        let name = words.next().unwrap();
        if !passage.variants.contains(&name) {
            continue;
        }
        lines += 1;
        let v = Variant::from_mnemonic(name).unwrap();
        let hex = |w: &str| ptx_spec::bv::parse_hex(w).unwrap();
        let ins: Vec<BitVec> = words.map(|w| BitVec::new(32, hex(w))).collect();
        for r in passage.readings {
            let d = r.formula.outputs(&Concrete, &v, &ins).unwrap()[0].value.unsigned();
            if d != hex(result.trim()) && !missed.contains(&(r.name, &name[..4])) {
                missed.push((r.name, &name[..4]));
            }
        }
    }
    assert!(lines > 100, "the run holds dp4a and dp2a results: {lines}");
    missed.sort();
    assert_eq!(
        missed,
        [("reversed-bytes", "dp2a"), ("reversed-elements", "dp2a"), ("reversed-halves", "dp2a")],
        "readings that miss a GPU result, by instruction"
    );
}

#[test]
fn slct_by_the_sign_bit_differs_at_negative_zero_and_at_a_positive_nan() {
    use super::compare_select::slct_sign_bit;
    let (a, b) = (BitVec::new(32, 0x1111_1111), BitVec::new(32, 0x2222_2222));
    let sign_bit = |c: u128| slct_sign_bit(&Concrete, a, b, BitVec::new(32, c)).unsigned();
    // -0: the sign bit picks b, the comparison -0 >= 0 picks a.
    assert_eq!(sign_bit(0x8000_0000), 0x2222_2222);
    assert_eq!(run("slct.b32.f32", &[0x1111_1111, 0x2222_2222, 0x8000_0000]), 0x1111_1111);
    // A quiet NaN with a clear sign: the sign bit picks a, the ordered comparison b.
    assert_eq!(sign_bit(0x7fc0_0000), 0x1111_1111);
    assert_eq!(run("slct.b32.f32", &[0x1111_1111, 0x2222_2222, 0x7fc0_0000]), 0x2222_2222);
    // Elsewhere they agree: 1.0, -1.0, +0.
    for c in [0x3f80_0000, 0xbf80_0000, 0] {
        assert_eq!(sign_bit(c), run("slct.b32.f32", &[0x1111_1111, 0x2222_2222, c]), "{c:#x}");
    }
}

#[test]
fn selp_as_a_quieting_move_differs_only_at_a_signalling_nan() {
    use super::compare_select::selp_quieting;
    use ptx_spec::catalogue::Type;
    let quieted = |ty: Type, w: u32, x: u128| {
        selp_quieting(&Concrete, ty, BitVec::new(w, x), BitVec::new(w, 0), BitVec::new(1, 1)).unsigned()
    };
    assert_eq!(quieted(Type::F32, 32, 0x7f80_0001), 0x7fc0_0001);
    assert_eq!(run("selp.f32", &[0x7f80_0001, 0, 1]), 0x7f80_0001);
    assert_eq!(quieted(Type::F64, 64, 0xfff0_0000_0000_0001), 0xfff8_0000_0000_0001);
    // A quiet NaN, an infinity and a number pass unchanged under both.
    for x in [0x7fc0_0000, 0x7f80_0000, 0x3f80_0000] {
        assert_eq!(quieted(Type::F32, 32, x), run("selp.f32", &[x, 0, 1]), "{x:#x}");
    }
}
