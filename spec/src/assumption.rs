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

/// Every assumption the model makes, in a stable order.
pub const ALL: &[&Assumption] = &[&SHF_SHIFT_BY_32, &SHIFT_CLAMPED_TO_WIDTH];
