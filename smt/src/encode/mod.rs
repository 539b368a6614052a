//! The SMT encodings: each instruction's Semantics pseudocode transcribed
//! into bit-vector terms, one file per family, mirroring `ptx_spec::family`.
//!
//! These are the formal specification. They are written from the spec text,
//! independently of the concrete semantics they are proven against: loops
//! over bits are unrolled to their bound, `?:` becomes `ite`, and C's
//! shifts become SMT-LIB shifts (whose result at or above the width is
//! stated as an assumption of the variant, see `ptx_spec::assumption`).
//! They are generic over the algebra so that they can also be evaluated
//! concretely, fast, for the exhaustive cross-check.

pub mod add_sub;
pub mod bit_count;
pub mod bit_field;
pub mod carry;
pub mod compare;
pub mod compare_select;
pub mod div_rem;
pub mod dot;
pub mod logic;
pub mod min_max;
pub mod mul_mad;
pub mod prmt;
pub mod shfl;
pub mod shift;
pub mod sm_90;

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::{Inputs, Outputs, Variant};
use ptx_spec::hardware::Model;

/// The SMT encoding of `variant` on `inputs` (in the order of
/// `Variant::inputs`); outputs in the order of `Variant::outputs`.
pub fn encode<A: Algebra>(variant: &Variant, alg: &A, inputs: &[A::Bv]) -> Outputs<A> {
    let operands = variant.inputs();
    let inputs = &Inputs::new(&operands, inputs);
    match variant {
        Variant::AddSub(v) => add_sub::encode(v, alg, inputs),
        Variant::MulMad(v) => mul_mad::encode(v, alg, inputs),
        Variant::DivRem(v) => div_rem::encode(v, alg, inputs),
        Variant::MinMax(v) => min_max::encode(v, alg, inputs),
        Variant::BitCount(v) => bit_count::encode(v, alg, inputs),
        Variant::BitField(v) => bit_field::encode(v, alg, inputs),
        Variant::Dot(v) => dot::encode(v, alg, inputs),
        Variant::Carry(v) => carry::encode(v, alg, inputs),
        Variant::Logic(v) => logic::encode(v, alg, inputs),
        Variant::Shift(v) => shift::encode(v, alg, inputs),
        Variant::Shfl(v) => shfl::encode(v, alg, inputs),
        Variant::Prmt(v) => prmt::encode(v, alg, inputs),
        Variant::Compare(v) => compare::encode(v, alg, inputs),
        Variant::CompareSelect(v) => compare_select::encode(v, alg, inputs),
    }
}

/// The SMT encoding of `variant` in `model`: the spec's, or a vendor
/// model's (the spec's with the vendor's rules applied, see [`sm_90`]).
pub fn encode_in<A: Algebra>(model: Model, variant: &Variant, alg: &A, inputs: &[A::Bv]) -> Outputs<A> {
    match model {
        Model::Spec => encode(variant, alg, inputs),
        Model::Sm90 => sm_90::encode(variant, alg, inputs),
    }
}

/// The packed forms: `op` on the low halves of a and b gives d's low half,
/// and on the high halves its high half.
fn lanes16<A: Algebra>(sym: &A, a: A::Bv, b: A::Bv, op: impl Fn(A::Bv, A::Bv) -> A::Bv) -> A::Bv {
    let lane = |x: A::Bv, i: u32| sym.extract(16 * i + 15, 16 * i, x);
    let d0 = op(lane(a, 0), lane(b, 0));
    let d1 = op(lane(a, 1), lane(b, 1));
    sym.concat(d1, d0)
}

/// .sat: an exact 33-bit signed result limited to MININT..MAXINT of 32 bits.
fn saturate_s32<A: Algebra>(sym: &A, exact: A::Bv) -> A::Bv {
    debug_assert_eq!(sym.width(exact), 33);
    let min = sym.constant(33, 0x1_8000_0000);
    let max = sym.constant(33, 0x0_7fff_ffff);
    let limited = sym.ite(sym.bvslt(exact, min), min, sym.ite(sym.bvsgt(exact, max), max, exact));
    sym.extract(31, 0, limited)
}
