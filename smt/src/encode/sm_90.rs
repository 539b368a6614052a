//! The `sm_90` model's SMT side: the SMT encoding of each variant with the
//! rules of `ptx_spec::hardware::sm_90::RULES` applied to its terms. Written
//! apart from the concrete side (`ptx_spec::hardware::sm_90`), from the rules'
//! text; the proof holds the two equal for every input. Which variants a
//! rule reaches is read from the rule table, as on the concrete side.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::bit_field::BitField;
use ptx_spec::catalogue::div_rem::DivRem;
use ptx_spec::catalogue::shfl::{input, WARP};
use ptx_spec::catalogue::{Inputs, Out, Outputs, Variant};
use ptx_spec::hardware::sm_90::{
    covers, BIT_FIELD_64_WIDE_OPERAND, DIV_BY_ZERO, FNS_BASE_ABOVE_31, FNS_MOST_NEGATIVE_OFFSET, REM_BY_ZERO,
    REM_TRUNCATING, SHFL_SOURCE_NOT_EXECUTING, SIGNED_BY_ZERO_NEGATIVE,
};

/// The sm_90 encoding of `v` on `values` (in the order of `Variant::inputs`).
pub fn encode<A: Algebra>(v: &Variant, sym: &A, values: &[A::Bv]) -> Outputs<A> {
    let mut outs = super::encode(v, sym, values);
    let operands = v.inputs();
    let ins = Inputs::new(&operands, values);
    match v {
        Variant::DivRem(op) => {
            let (a, b) = (ins.get("a"), ins.get("b"));
            let w = sym.width(a);
            let b_zero = sym.eq(b, sym.constant(w, 0));
            // a's sign bit clear: a >= 0 read as signed.
            let a_sign_clear = sym.eq(sym.extract(w - 1, w - 1, a), sym.constant(1, 0));
            let (t, is_div) = match op {
                DivRem::Div(t) => (t, true),
                DivRem::Rem(t) => (t, false),
            };
            let o = &mut outs[0];
            // 9.7.1.9, sm90-rem-truncating: C's % for every nonzero b.
            if !is_div && covers(&REM_TRUNCATING, v) {
                o.value = sym.bvsrem(a, b);
                o.defined = sym.not(b_zero);
            }
            // 9.7.1.8-9, sm90-div-by-zero / sm90-rem-by-zero: all ones, for
            // signed types where a >= 0, and where a < 0 at the widths
            // sm90-signed-by-zero-negative-dividend covers.
            let rule = if is_div { &DIV_BY_ZERO } else { &REM_BY_ZERO };
            if covers(rule, v) {
                let every_a = !t.is_signed() || covers(&SIGNED_BY_ZERO_NEGATIVE, v);
                let case = if every_a { b_zero } else { sym.and(b_zero, a_sign_clear) };
                o.value = sym.ite(case, sym.bvnot(sym.constant(w, 0)), o.value);
                o.defined = sym.or(case, o.defined);
            }
        }
        Variant::BitCount(BitCount::Fns) => {
            let (base, offset) = (ins.get("base"), ins.get("offset"));
            let zero = sym.constant(32, 0);
            // 9.7.1.17, sm90-fns-base-above-31: some bit above bit 4 of base.
            let high_base = sym.not(sym.eq(sym.extract(31, 5, base), sym.constant(27, 0)));
            // sm90-fns-most-negative-offset: 0 whatever the mask and the base.
            let min_offset = sym.eq(offset, sym.constant(32, 0x8000_0000));
            let o = outs[0];
            let (value, defined) = if covers(&FNS_MOST_NEGATIVE_OFFSET, v) {
                (sym.ite(min_offset, zero, o.value), sym.or(min_offset, o.defined))
            } else {
                (o.value, o.defined)
            };
            if covers(&FNS_BASE_ABOVE_31, v) {
                // At every offset but -2^31, which no result covers.
                let all_ones = sym.and(high_base, sym.not(min_offset));
                outs[0] = Out {
                    value: sym.ite(all_ones, sym.constant(32, 0xffff_ffff), value),
                    defined: choose(sym, all_ones, sym.bool_constant(true), defined),
                };
            } else {
                outs[0] = Out { value, defined };
            }
        }
        Variant::BitField(op @ (BitField::Bfe(_) | BitField::Bfi(_))) if covers(&BIT_FIELD_64_WIDE_OPERAND, v) => {
            // 9.7.1.19-20, sm90-bfe-bfi-64-wide-operand: the encoding run on
            // the position and length saturated at 255.
            let (pos, len) = match op {
                BitField::Bfe(_) => ("b", "c"),
                _ => ("c", "d"),
            };
            // Written without `ite`: the encoding masks the operand to its
            // low byte, so setting every bit of one above 255 gives 255.
            // Why: with an `ite` there, z3 4.8.12 expands the exported
            // define-funs bit by bit (see `bit_field.rs`) and does not load
            // them within 30 s; without, they load as fast as the spec's.
            let all_if = |bit: A::Bv, x: A::Bv| sym.bvor(x, sym.sign_extend(31, bit));
            // Above 255: the borrow of 255 - x, at 33 bits.
            let above_255 = |x: A::Bv| {
                let diff = sym.bvsub(sym.constant(33, 0xff), sym.zero_extend(1, x));
                all_if(sym.extract(32, 32, diff), x)
            };
            let reading = |replace: &dyn Fn(A::Bv) -> A::Bv| -> A::Bv {
                let mut changed = values.to_vec();
                for (i, o) in operands.iter().enumerate() {
                    if o.name == pos || o.name == len {
                        changed[i] = replace(values[i]);
                    }
                }
                super::encode(v, sym, &changed)[0].value
            };
            outs[0] = Out { value: reading(&above_255), defined: sym.bool_constant(true) };
        }
        Variant::Shfl(_) if covers(&SHFL_SOURCE_NOT_EXECUTING, v) => {
            // 9.7.9.5, sm90-shfl-inactive-source-zero: the value a lane that
            // does not execute supplies is 0, not a free input; d is then
            // defined wherever the thread itself executes.
            let mut changed = values.to_vec();
            for slot in &mut changed[input::UNPREDICTABLE..input::UNPREDICTABLE + WARP] {
                *slot = sym.constant(32, 0);
            }
            let lane = ins.get("lane");
            let active = ins.from("active0", WARP);
            let executes = (0..WARP).fold(sym.bool_constant(false), |acc, k| {
                let here = sym.and(sym.eq(lane, sym.constant(5, k as u128)), sym.is_set(active[k]));
                sym.or(acc, here)
            });
            let d = super::encode(v, sym, &changed)[0];
            outs[0] = Out { value: d.value, defined: executes };
        }
        _ => {}
    }
    outs
}

/// `c ? t : e` on Booleans.
fn choose<A: Algebra>(sym: &A, c: A::Bool, t: A::Bool, e: A::Bool) -> A::Bool {
    sym.or(sym.and(c, t), sym.and(sym.not(c), e))
}
