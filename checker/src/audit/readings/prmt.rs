//! Section 9.7.9.7, prmt. The readings of its block the model does not
//! adopt, for the audit's passages: the source pair as C computes it, and
//! `ReadByte` as its arguments allow. The model's reading is
//! `ptx_smt::encode::prmt`, whose `permute` each reading here reuses with
//! one part changed.

use ptx_smt::encode::prmt::{permute, read_byte};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::prmt::Prmt;

/// How `tmp64 = (b<<32) | a` is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourcePair {
    /// In b's 32-bit type, the shift by the width giving 0 (what the
    /// solvers and many compilers' constant folding give): tmp64 is a.
    ShiftIn32Bits,
    /// In b's 32-bit type, the amount taken mod 32 (x86's shift): tmp64 is
    /// `b | a`.
    ShiftMod32,
}

/// prmt with tmp64 computed as `pair` says, and ReadByte as the model reads it.
pub fn prmt_pair_reading<A: Algebra>(alg: &A, v: Prmt, pair: SourcePair, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let low = match pair {
        SourcePair::ShiftIn32Bits => a,
        SourcePair::ShiftMod32 => alg.bvor(b, a),
    };
    permute(alg, v.mode, alg.zero_extend(32, low), c, read_byte)
}

/// prmt with ReadByte a function of its three arguments only: the byte ctl
/// names (the sign replicated where ctl's bit 3 is set), whatever the target
/// position. Under a mode every position gets ctl = c & 3, so every mode
/// computes rc8's result.
pub fn prmt_position_blind<A: Algebra>(alg: &A, v: Prmt, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let tmp64 = alg.concat(b, a);
    permute(alg, v.mode, tmp64, c, |alg, _mode, ctl, position, tmp64| read_byte(alg, None, ctl, position, tmp64))
}
