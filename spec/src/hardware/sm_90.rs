//! The `sm_90` model: what an NVIDIA H100 (compute capability 9.0) computes,
//! as the spec model changed by the named rules of [`RULES`].
//!
//! Every rule rests on the H100's results committed in `reports/vendor/`:
//! `h100-run.txt` (`hw run`'s program) and `h100-edges.txt` (an edge sweep
//! made without ptxcheck, each instance its own kernel), both with the PTX
//! compiled by the driver and the operands loaded from memory, so nothing
//! was folded. Each rule covers the variants, and the cases, that those
//! results reach, and is stated over the whole input space. Where they do not decide a case, the
//! case stays unspecified here too, and the rule says so: a vendor model is
//! only as good as the measurements behind it.
//!
//! The concrete side, here, is the spec model's concrete semantics with each
//! rule applied on top; the SMT side (`ptx-smt`, `encode/sm_90.rs`) applies
//! each rule to the SMT encoding, written apart from this file.

use super::{Change, Rule};
use crate::bv::{Algebra, BitVec, Concrete};
use crate::catalogue::bit_count::BitCount;
use crate::catalogue::bit_field::BitField;
use crate::catalogue::div_rem::DivRem;
use crate::catalogue::shfl::WARP;
use crate::catalogue::{Inputs, Outputs, Variant};
use crate::family::shfl::{read_lane, source_lane};

/// 9.7.1.8: the quotient for b = 0.
pub const DIV_BY_ZERO: Rule = Rule {
    id: "sm90-div-by-zero",
    section: "9.7.1.8",
    change: Change::FillsUnspecified,
    assumption: "div-by-zero-unspecified",
    variants: &["div.u16", "div.u32", "div.u64", "div.s16", "div.s32", "div.s64"],
    formula: "b = 0 and (unsigned or a >= 0) -> d = 2^w - 1",
    rule: "b = 0 gives all ones (0xffff, 0xffffffff, 0xffffffffffffffff): for the unsigned types \
           whatever a is, for the signed types when a >= 0 (a < 0 at 16 bits: \
           sm90-signed-by-zero-negative-dividend). Extrapolated over a from a few values of a per \
           variant (0, 1, 0x20, the sign bit, all ones, random ones)",
    open: "div.s32 and div.s64 by zero with a < 0: no result has one, and a sign-magnitude divider \
           would give 1 there, not -1 (`ptxcheck eval 'div.s32 d, -1, 0'` on an H100 decides it)",
    evidence: &[("div.u16", 4), ("div.u32", 2), ("div.u64", 4), ("div.s16", 2), ("div.s32", 2), ("div.s64", 2)],
};

/// 9.7.1.8-9: signed division and remainder by zero of a negative dividend,
/// at 16 bits.
pub const SIGNED_BY_ZERO_NEGATIVE: Rule = Rule {
    id: "sm90-signed-by-zero-negative-dividend",
    section: "9.7.1.8-9",
    change: Change::FillsUnspecified,
    assumption: "div-by-zero-unspecified",
    variants: &["div.s16", "rem.s16"],
    formula: "b = 0 and a < 0 -> d = 2^w - 1 (w = 16)",
    rule: "b = 0 with a < 0 gives all ones too, as with a >= 0: not the 1 a sign-magnitude divider \
           would give (-(all ones)). Every 16-bit result with a < 0 by zero fits it",
    open: "",
    evidence: &[("div.s16", 2), ("rem.s16", 1)],
};

/// 9.7.1.9: the remainder for b = 0.
pub const REM_BY_ZERO: Rule = Rule {
    id: "sm90-rem-by-zero",
    section: "9.7.1.9",
    change: Change::FillsUnspecified,
    assumption: "rem-by-zero-unspecified",
    variants: &["rem.u16", "rem.u32", "rem.s16", "rem.s64"],
    formula: "b = 0 and (unsigned or a >= 0) -> d = 2^w - 1",
    rule: "b = 0 gives all ones, not a (so not a - q*b with the all-ones quotient): for rem.u16 and \
           rem.u32 whatever a is, for rem.s16 and rem.s64 when a >= 0 (a < 0 at 16 bits: \
           sm90-signed-by-zero-negative-dividend). Extrapolated over a from a few values of a per \
           variant",
    open: "rem.u64 and rem.s32 by zero (no result has one: `ptxcheck eval 'rem.u64 d, 1, 0'` and \
           `'rem.s32 d, 1, 0'` on an H100 decide them), and rem.s64 by zero with a < 0 (no result)",
    evidence: &[("rem.u16", 5), ("rem.u32", 2), ("rem.s16", 4), ("rem.s64", 1)],
};

/// 9.7.1.9: the machine-dependent remainder of negative operands.
pub const REM_TRUNCATING: Rule = Rule {
    id: "sm90-rem-truncating",
    section: "9.7.1.9",
    change: Change::FillsUnspecified,
    assumption: "rem-negative-machine-dependent",
    variants: &["rem.s16", "rem.s32", "rem.s64"],
    formula: "b != 0 -> d = bvsrem(a, b)",
    rule: "for b != 0 with a or b negative, the remainder of truncating division: the sign of a, \
           magnitude below |b| (C's %, SMT-LIB's bvsrem); MIN rem -1 is 0. Every such result at \
           16, 32 and 64 bits fits it; the flooring reading fails on each with mixed signs",
    open: "",
    evidence: &[("rem.s16", 31), ("rem.s32", 19), ("rem.s64", 20)],
};

/// 9.7.1.17: fns with base above 31.
pub const FNS_BASE_ABOVE_31: Rule = Rule {
    id: "sm90-fns-base-above-31",
    section: "9.7.1.17",
    change: Change::FillsUnspecified,
    assumption: "fns-base-above-31-undefined",
    variants: &["fns.b32"],
    formula: "base >u 31 and offset != -2^31 -> d = 0xffffffff",
    rule: "base > 31 (unsigned) gives 0xffffffff, whatever the mask, for every offset but -2^31 \
           (sm90-fns-most-negative-offset): the results cover base 32, 0x3f, 0x7fffffff, 0xfffffffe, \
           0xffffffff and random bases, with offset 0, positive and negative, and masks 0, all ones \
           and random",
    open: "",
    evidence: &[("fns.b32", 41)],
};

/// 9.7.1.17: fns with offset = -2^31, which the hardware contradicts.
pub const FNS_MOST_NEGATIVE_OFFSET: Rule = Rule {
    id: "sm90-fns-most-negative-offset",
    section: "9.7.1.17",
    change: Change::Replaces,
    assumption: "fns-most-negative-offset",
    variants: &["fns.b32"],
    formula: "offset = -2^31 -> d = 0",
    rule: "offset = -2^31 gives 0 whatever the mask and the base, base above 31 included, where the \
           spec model (and every reading of |offset| the audit knows) finds no set bit and gives \
           0xffffffff. The results cover masks 0, 0x80000001 (bit 0 set: 0 is no position found \
           there), 0xfffffffe and 0x12c, with base 0 and 0x3f",
    open: "",
    evidence: &[("fns.b32", 4)],
};

/// 9.7.1.19-20: 64-bit bfe and bfi with a position or length above 255.
pub const BIT_FIELD_64_WIDE_OPERAND: Rule = Rule {
    id: "sm90-bfe-bfi-64-wide-operand",
    section: "9.7.1.19-20",
    change: Change::Replaces,
    assumption: "restricted to the 8-bit value range 0..255",
    variants: &["bfe.u64", "bfe.s64", "bfi.b64"],
    formula: "w = 64 -> pos := min(pos, 255), len := min(len, 255), then the spec's bfe/bfi",
    rule: "at 64 bits a position or length above 255 acts as 255 (saturates: a field past the msb), \
           not as its low byte (the spec's 8-bit range): results from 0x100 and 0x101 to 2^31 and \
           above contradict the low byte and fit saturation, none contradicts it. At 32 bits the \
           low byte holds on every result, so bfe.u32, bfe.s32 and bfi.b32 keep it. Below 256 both \
           are the same",
    open: "",
    evidence: &[("bfe.u64", 28), ("bfe.s64", 27), ("bfi.b64", 31)],
};

/// 9.7.9.5: shfl reading from a lane that does not execute.
pub const SHFL_SOURCE_NOT_EXECUTING: Rule = Rule {
    id: "sm90-shfl-inactive-source-zero",
    section: "9.7.9.5",
    change: Change::FillsUnspecified,
    assumption: "shfl-unpredictable-source",
    variants: &[
        "shfl.up.b32",
        "shfl.up.b32 d|p",
        "shfl.down.b32",
        "shfl.down.b32 d|p",
        "shfl.bfly.b32",
        "shfl.bfly.b32 d|p",
        "shfl.idx.b32",
        "shfl.idx.b32 d|p",
    ],
    formula: "source lane not in the active mask -> d = 0",
    rule: "a lane whose source lane does not execute gets d = 0 (p as in the spec model), though the \
           source lane holds its a: every lane had loaded a before the lanes outside the active mask \
           branched around the shfl. Measured under 5 active masks and 9 (b, c) pairs per variant. \
           Extrapolated to a lane that is active but whose guard predicate is false, which the \
           results do not include and the model does not tell apart",
    open: "",
    evidence: &[
        ("shfl.up.b32", 35),
        ("shfl.up.b32 d|p", 35),
        ("shfl.down.b32", 95),
        ("shfl.down.b32 d|p", 95),
        ("shfl.bfly.b32", 139),
        ("shfl.bfly.b32 d|p", 139),
        ("shfl.idx.b32", 170),
        ("shfl.idx.b32 d|p", 170),
    ],
};

/// The sm_90 model's changes to the spec model.
pub const RULES: &[Rule] = &[
    DIV_BY_ZERO,
    REM_BY_ZERO,
    SIGNED_BY_ZERO_NEGATIVE,
    REM_TRUNCATING,
    FNS_BASE_ABOVE_31,
    FNS_MOST_NEGATIVE_OFFSET,
    BIT_FIELD_64_WIDE_OPERAND,
    SHFL_SOURCE_NOT_EXECUTING,
];

/// Whether `rule` lists `v` among its variants: the table, not this file's
/// code, says which variants each rule reaches.
pub fn covers(rule: &Rule, v: &Variant) -> bool {
    let name = v.to_string();
    rule.variants.iter().any(|n| *n == name)
}

/// The concrete semantics of the sm_90 model: the spec model's, with the
/// rules that cover `v` applied on top.
pub fn semantics<A: Algebra>(v: &Variant, alg: &A, values: &[A::Bv]) -> Outputs<A> {
    let mut outs = v.semantics(alg, values);
    let operands = v.inputs();
    let ins = Inputs::new(&operands, values);
    match v {
        Variant::DivRem(op) => {
            let (a, b) = (ins.get("a"), ins.get("b"));
            let by_zero = alg.is_zero(b);
            let signed = matches!(op, DivRem::Div(t) | DivRem::Rem(t) if t.is_signed());
            // Signed variants: measured for a >= 0, and at 16 bits for a < 0.
            let a_measured = if signed && !covers(&SIGNED_BY_ZERO_NEGATIVE, v) {
                alg.bvsge(a, alg.constant_like(a, 0))
            } else {
                alg.bool_constant(true)
            };
            let rule = if matches!(op, DivRem::Div(_)) { &DIV_BY_ZERO } else { &REM_BY_ZERO };
            let o = &mut outs[0];
            if signed && matches!(op, DivRem::Rem(_)) && covers(&REM_TRUNCATING, v) {
                // Truncating remainder for every b != 0, negative operands included.
                o.value = alg.bvsrem(a, b);
                o.defined = alg.not(by_zero);
            }
            if covers(rule, v) {
                let all_ones = alg.and(by_zero, a_measured);
                o.value = alg.ite(all_ones, alg.ones(alg.width(a)), o.value);
                o.defined = alg.or(o.defined, all_ones);
            }
        }
        Variant::BitCount(BitCount::Fns) => {
            let (base, offset) = (ins.get("base"), ins.get("offset"));
            let base_above_31 = alg.bvugt(base, alg.constant(32, 31));
            let most_negative = alg.eq(offset, alg.constant(32, 1 << 31));
            let o = &mut outs[0];
            // Offset -2^31: 0, whatever the mask and the base.
            o.value = alg.ite(most_negative, alg.constant(32, 0), o.value);
            o.defined = alg.or(most_negative, o.defined);
            // Base above 31, at every other offset.
            let all_ones = alg.and(base_above_31, alg.not(most_negative));
            o.value = alg.ite(all_ones, alg.constant(32, 0xffff_ffff), o.value);
            o.defined = alg.or(o.defined, all_ones);
        }
        Variant::BitField(op @ (BitField::Bfe(_) | BitField::Bfi(_))) if covers(&BIT_FIELD_64_WIDE_OPERAND, v) => {
            let (pos, len) = if matches!(op, BitField::Bfe(_)) { ("b", "c") } else { ("c", "d") };
            // Position and length saturate at 255.
            let k255 = alg.constant(32, 0xff);
            let changed: Vec<A::Bv> = operands
                .iter()
                .zip(values)
                .map(|(o, &x)| if o.name == pos || o.name == len { alg.umin(x, k255) } else { x })
                .collect();
            outs[0] = v.semantics(alg, &changed).remove(0);
        }
        Variant::Shfl(_) if covers(&SHFL_SOURCE_NOT_EXECUTING, v) => {
            let Variant::Shfl(shfl) = v else { unreachable!() };
            let me = ins.get("lane");
            let active = ins.from("active0", WARP);
            let (source, _) = source_lane(alg, shfl.mode, me, ins.get("b"), ins.get("c"));
            let source_executes = alg.is_set(read_lane(alg, source, active));
            let executes = alg.is_set(read_lane(alg, me, active));
            let o = &mut outs[0];
            o.value = alg.ite(source_executes, o.value, alg.constant(32, 0));
            o.defined = executes;
        }
        _ => {}
    }
    outs
}

/// The rule of [`RULES`] whose case the input `values` of `v` fall in, if
/// any: what decides an sm_90 result where it is not the spec model's.
/// Counting the hardware results in each rule's case gives its evidence.
pub fn rule_for(v: &Variant, values: &[BitVec]) -> Option<&'static Rule> {
    let operands = v.inputs();
    let ins = Inputs::new(&operands, values);
    let c = Concrete;
    let negative = |x: BitVec| c.is_set(c.bit(x, x.width() - 1));
    let rule = match v {
        Variant::DivRem(op) => {
            let (a, b) = (ins.get("a"), ins.get("b"));
            let signed = matches!(op, DivRem::Div(t) | DivRem::Rem(t) if t.is_signed());
            match op {
                _ if b.unsigned() == 0 && signed && negative(a) => Some(&SIGNED_BY_ZERO_NEGATIVE),
                DivRem::Div(_) if b.unsigned() == 0 => Some(&DIV_BY_ZERO),
                DivRem::Rem(_) if b.unsigned() == 0 => Some(&REM_BY_ZERO),
                DivRem::Rem(_) if signed && (negative(a) || negative(b)) => Some(&REM_TRUNCATING),
                _ => None,
            }
        }
        Variant::BitCount(BitCount::Fns) if ins.get("offset").unsigned() == 1 << 31 => Some(&FNS_MOST_NEGATIVE_OFFSET),
        Variant::BitCount(BitCount::Fns) if ins.get("base").unsigned() > 31 => Some(&FNS_BASE_ABOVE_31),
        Variant::BitField(op @ (BitField::Bfe(_) | BitField::Bfi(_))) => {
            let (pos, len) = if matches!(op, BitField::Bfe(_)) { ("b", "c") } else { ("c", "d") };
            let wide = [ins.get(pos), ins.get(len)].iter().any(|x| x.unsigned() > 0xff);
            wide.then_some(&BIT_FIELD_64_WIDE_OPERAND)
        }
        Variant::Shfl(shfl) => {
            let active = ins.from("active0", WARP);
            let (source, _) = source_lane(&c, shfl.mode, ins.get("lane"), ins.get("b"), ins.get("c"));
            let executes = |lane: BitVec| c.is_set(read_lane(&c, lane, active));
            (executes(ins.get("lane")) && !executes(source)).then_some(&SHFL_SOURCE_NOT_EXECUTING)
        }
        _ => None,
    };
    rule.filter(|r| covers(r, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hardware::Model;

    fn run(name: &str, inputs: &[u128]) -> Option<u128> {
        let v = Variant::from_mnemonic(name).unwrap();
        v.run_in(Model::Sm90, inputs)[0].map(|b| b.unsigned())
    }

    // Values from the H100's results, and the cases the rules leave open.
    #[test]
    fn hardware_values_and_open_cases() {
        assert_eq!(run("div.u32", &[7, 0]), Some(0xffff_ffff));
        assert_eq!(run("div.s64", &[0x20, 0]), Some(u128::from(u64::MAX)));
        assert_eq!(run("div.s64", &[u128::from(u64::MAX), 0]), None); // a < 0: not measured
        assert_eq!(run("div.s32", &[7, 0]), Some(0xffff_ffff));
        assert_eq!(run("div.s32", &[0xffff_ffff, 0]), None); // a < 0: no result
        assert_eq!(run("div.s16", &[0x8001, 0]), Some(0xffff)); // a < 0 at 16 bits: measured
        assert_eq!(run("rem.s16", &[0xfffe, 0]), Some(0xffff));
        assert_eq!(run("rem.u16", &[0, 0]), Some(0xffff));
        assert_eq!(run("rem.u64", &[0, 0]), None);
        assert_eq!(run("rem.s32", &[0xbde7_f659, 0xff]), Some(0xffff_fff5));
        assert_eq!(run("rem.s32", &[0x8000_0000, 0xffff_ffff]), Some(0));
        assert_eq!(run("rem.s32", &[7, 0]), None);
        assert_eq!(run("fns.b32", &[0, 0x20, 0]), Some(0xffff_ffff));
        assert_eq!(run("fns.b32", &[0, 0, 0x8000_0000]), Some(0));
        assert_eq!(run("fns.b32", &[0x8000_0001, 0, 0x8000_0000]), Some(0));
        assert_eq!(run("fns.b32", &[0xffff_ffff, 0xffff_ffff, 0x8000_0000]), Some(0));
        assert_eq!(run("fns.b32", &[0xffff_ffff, 0xffff_ffff, 0x7fff_ffff]), Some(0xffff_ffff));
        assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 2, 0xffff_ffff]), Some(1)); // the spec's example
        assert_eq!(run("bfe.u64", &[0x40, 0x8000_0000, 0xffff_ffff]), Some(0));
        assert_eq!(run("bfe.u64", &[1, 0x100, 1]), Some(0)); // saturated at 255, not the low byte 0
        assert_eq!(run("bfe.s64", &[0x11, 0x100, 0x7f]), Some(0)); // an edge-sweep result
        assert_eq!(run("bfe.u64", &[1, 0x140, 1]), Some(0)); // both readings past the msb
        assert_eq!(run("bfe.u32", &[0xe2f1_a82c, 0, 0x1262_e002]), Some(0)); // the low byte at 32 bits
        assert_eq!(
            run("bfi.b64", &[0x3f, 0xdaee_5aea_b757_5c14, 0x8000_0000, 0xa44b_c953]),
            Some(0xdaee_5aea_b757_5c14)
        );
    }

    #[test]
    fn every_rule_names_real_variants_and_its_evidence_matches_them() {
        for r in RULES {
            for v in r.variants {
                assert!(Variant::from_mnemonic(v).is_some(), "{}: {v}", r.id);
            }
            for (v, _) in r.evidence {
                assert!(r.variants.contains(v), "{}: evidence for {v}", r.id);
            }
            let known = crate::assumption::ALL.iter().any(|a| a.id == r.assumption);
            assert!(known || r.change == Change::Replaces, "{}: {}", r.id, r.assumption);
        }
    }
}
