//! The exhaustive cross-check: for a variant whose inputs together have at
//! most 32 bits, evaluate the concrete semantics and the SMT encoding
//! (concretely, with the same algebra the emulator uses, no solver) on
//! every input and compare. Independent evidence next to the proof.

use std::time::{Duration, Instant};

use ptx_smt::encode;
use ptx_spec::bv::{mask, BitVec, Concrete};
use ptx_spec::catalogue::{Outputs, Variant};
use ptx_spec::lanes::{LaneBv, Lanes, LANES};
use rayon::prelude::*;

/// The most input bits a variant may have to be checked exhaustively.
pub const MAX_BITS: u32 = 32;

/// The total width of a variant's inputs.
pub fn input_bits(variant: &Variant) -> u32 {
    variant.inputs().iter().map(|o| o.ty.width()).sum()
}

/// An input on which the two disagree, with both outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub inputs: Vec<BitVec>,
    pub smt: Vec<Option<BitVec>>,
    pub concrete: Vec<Option<BitVec>>,
}

#[derive(Clone, Debug)]
pub struct Report {
    pub variant: Variant,
    /// How many inputs were compared (all of them, unless a mismatch stopped the run).
    pub inputs: u64,
    pub mismatch: Option<Mismatch>,
    pub time: Duration,
}

/// The inputs numbered `index`: the operands' bits taken from `index`, the
/// first operand lowest.
fn decode(widths: &[u32], index: u64, out: &mut [BitVec; 8]) {
    let mut rest = u128::from(index);
    for (slot, &w) in out.iter_mut().zip(widths) {
        *slot = BitVec::new(w, rest & mask(w));
        rest >>= w;
    }
}

/// The [`LANES`] inputs numbered `first..first + LANES`, one column per operand.
pub fn decode_lanes(widths: &[u32], first: u64) -> Vec<LaneBv> {
    let mut shift = 0;
    widths
        .iter()
        .map(|&w| {
            let values = std::array::from_fn(|i| (first + i as u64) >> shift);
            shift += w;
            LaneBv::new(w, values)
        })
        .collect()
}

/// The lanes where the two models' outputs differ: in definedness, or in
/// value where both define it.
fn differing(smt: &Outputs<Lanes>, concrete: &Outputs<Lanes>) -> u64 {
    smt.iter().zip(concrete).fold(0, |acc, (s, c)| {
        let defined = s.defined.0 & c.defined.0;
        acc | (s.defined.0 ^ c.defined.0) | (s.value.differ(&c.value) & defined)
    })
}

fn outputs(outs: &[ptx_spec::catalogue::Out<BitVec, bool>]) -> Vec<Option<BitVec>> {
    outs.iter().map(|o| o.defined.then_some(o.value)).collect()
}

/// Evaluate both models on one input, one at a time with [`Concrete`]: the
/// evidence shown for a mismatch the lane evaluation found.
fn confirm(variant: &Variant, widths: &[u32], index: u64) -> Option<Mismatch> {
    let mut ins = [BitVec::new(1, 0); 8];
    decode(widths, index, &mut ins);
    let n = widths.len();
    let concrete = variant.semantics(&Concrete, &ins[..n]);
    let smt = encode::encode(variant, &Concrete, &ins[..n]);
    let same = concrete.iter().zip(&smt).all(|(c, s)| c.defined == s.defined && (!c.defined || c.value == s.value));
    (!same).then(|| Mismatch { inputs: ins[..n].to_vec(), smt: outputs(&smt), concrete: outputs(&concrete) })
}

/// Compare both models on the [`LANES`] inputs from `first`; the first
/// mismatch, confirmed with the one-input algebra.
fn check_lanes(variant: &Variant, widths: &[u32], first: u64) -> Option<Mismatch> {
    let ins = decode_lanes(widths, first);
    let concrete = variant.semantics(&Lanes, &ins);
    let smt = encode::encode(variant, &Lanes, &ins);
    let differ = differing(&smt, &concrete);
    if differ == 0 {
        return None;
    }
    let index = first + u64::from(differ.trailing_zeros());
    let mismatch = confirm(variant, widths, index);
    assert!(mismatch.is_some(), "{variant}: the lane algebra and the concrete algebra disagree on input {index:#x}");
    mismatch
}

/// Compare both models on every input of `variant` (which must have at most
/// [`MAX_BITS`] input bits), in parallel on the current thread pool.
pub fn check(variant: &Variant) -> Report {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let bits = input_bits(variant);
    assert!(bits <= MAX_BITS && widths.len() <= 8, "{variant}: {bits} input bits");
    let total = 1u64 << bits;
    let start = Instant::now();
    let mismatch = if total < LANES as u64 {
        // Too few inputs to fill the lanes: one at a time.
        (0..total).find_map(|index| confirm(variant, &widths, index))
    } else {
        // Chunks of 2^16 inputs: small enough to share among threads, large
        // enough that the bookkeeping costs nothing.
        let chunk = 1u64 << bits.min(16);
        // After an interrupt the remaining chunks are skipped; the report
        // is then not used (the caller checks).
        (0..total / chunk).into_par_iter().find_map_any(|c| {
            if crate::interrupt::requested() {
                return None;
            }
            (c * chunk..(c + 1) * chunk).step_by(LANES).find_map(|first| check_lanes(variant, &widths, first))
        })
    };
    Report { variant: *variant, inputs: if mismatch.is_some() { 0 } else { total }, mismatch, time: start.elapsed() }
}

/// Inputs per second compared on one thread, measured on at least `samples`
/// inputs spread over the input space (for the benchmark).
pub fn throughput(variant: &Variant, samples: u64) -> f64 {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let total = 1u64 << input_bits(variant);
    let batches = samples.div_ceil(LANES as u64);
    let start = Instant::now();
    let mut found = 0;
    for b in 0..batches {
        let first = b.wrapping_mul(0x9e37_79b9_7f4a_7c15) % total.max(1) / LANES as u64 * LANES as u64;
        found += u32::from(check_lanes(variant, &widths, first).is_some());
    }
    std::hint::black_box(found);
    (batches * LANES as u64) as f64 / start.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_variants_agree_on_every_input() {
        for name in ["not.b16", "abs.s16", "neg.s16", "cnot.b16", "and.pred", "lop3.or.b32"] {
            let v = Variant::from_mnemonic(name).unwrap();
            if input_bits(&v) > 16 {
                continue;
            }
            let r = check(&v);
            assert_eq!(r.mismatch, None, "{name}");
            assert_eq!(r.inputs, 1 << input_bits(&v), "{name}");
        }
    }

    #[test]
    fn every_small_variant_evaluates_in_lanes() {
        // Each variant within MAX_BITS, on a batch of inputs spread over its
        // input space: no intermediate is wider than a lane.
        let small: Vec<_> = Variant::all().into_iter().filter(|v| input_bits(v) <= MAX_BITS).collect();
        assert!(small.len() >= 40, "{} variants", small.len());
        for v in small {
            let widths: Vec<u32> = v.inputs().iter().map(|o| o.ty.width()).collect();
            let total = 1u64 << input_bits(&v);
            for first in [0, total / 2, total.saturating_sub(LANES as u64)] {
                assert_eq!(check_lanes(&v, &widths, first / LANES as u64 * LANES as u64), None, "{v}");
            }
        }
    }

    #[test]
    fn lanes_decode_like_one_at_a_time() {
        let widths = [16, 16];
        let cols = decode_lanes(&widths, 0x1234_5640);
        let mut ins = [BitVec::new(1, 0); 8];
        for i in 0..LANES {
            decode(&widths, 0x1234_5640 + i as u64, &mut ins);
            assert_eq!((cols[0].lane(i), cols[1].lane(i)), (ins[0].unsigned() as u64, ins[1].unsigned() as u64));
        }
    }

    #[test]
    fn inputs_are_decoded_lowest_operand_first() {
        let mut ins = [BitVec::new(1, 0); 8];
        decode(&[16, 16], 0x1234_5678, &mut ins);
        assert_eq!((ins[0], ins[1]), (BitVec::new(16, 0x5678), BitVec::new(16, 0x1234)));
    }
}
