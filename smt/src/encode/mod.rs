//! The SMT encodings: each instruction's Semantics pseudocode transcribed
//! into bit-vector terms, one file per family, mirroring `ptx_spec::family`.
//!
//! These are the formal specification. They are written from the spec text,
//! independently of the concrete semantics they are proven against: loops
//! over bits are unrolled per bit, `?:` becomes `ite`, and C's shifts become
//! SMT-LIB shifts (whose result at or above the width is stated as an
//! assumption of the variant, see `ptx_spec::assumption`).

pub mod logic;
pub mod shift;

use ptx_spec::catalogue::Variant;

use crate::term::{Sym, SymBv, SymOutputs};

/// The SMT encoding of `variant` on `inputs` (in the order of
/// `Variant::inputs`); outputs in the order of `Variant::outputs`.
pub fn encode(variant: &Variant, sym: &Sym, inputs: &[SymBv]) -> SymOutputs {
    assert_eq!(inputs.len(), variant.inputs().len(), "{variant}: wrong number of inputs");
    match variant {
        Variant::Logic(v) => logic::encode(v, sym, inputs),
        Variant::Shift(v) => shift::encode(v, sym, inputs),
    }
}
