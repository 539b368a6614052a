//! The exhaustive cross-check: for a variant whose inputs together have at
//! most 32 bits, evaluate the concrete semantics and the SMT encoding
//! (concretely, with the same algebra the emulator uses, no solver) on
//! every input and compare. Independent evidence next to the proof.

use std::time::{Duration, Instant};

use ptx_smt::encode;
use ptx_spec::bv::{mask, BitVec, Concrete};
use ptx_spec::catalogue::Variant;
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

fn outputs(outs: &[ptx_spec::catalogue::Out<BitVec, bool>]) -> Vec<Option<BitVec>> {
    outs.iter().map(|o| o.defined.then_some(o.value)).collect()
}

/// Compare both models on every input of `variant` (which must have at most
/// [`MAX_BITS`] input bits), in parallel on the current thread pool.
pub fn check(variant: &Variant) -> Report {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let bits = input_bits(variant);
    assert!(bits <= MAX_BITS && widths.len() <= 8, "{variant}: {bits} input bits");
    let total = 1u64 << bits;
    let start = Instant::now();
    // Chunks of 2^16 inputs: small enough to share among threads, large
    // enough that the bookkeeping costs nothing.
    let chunk = 1u64 << bits.min(16);
    let n = widths.len();
    let mismatch = (0..total / chunk).into_par_iter().find_map_any(|c| {
        let mut ins = [BitVec::new(1, 0); 8];
        for index in c * chunk..(c + 1) * chunk {
            decode(&widths, index, &mut ins);
            let concrete = variant.semantics(&Concrete, &ins[..n]);
            let smt = encode::encode(variant, &Concrete, &ins[..n]);
            let same =
                concrete.iter().zip(&smt).all(|(c, s)| c.defined == s.defined && (!c.defined || c.value == s.value));
            if !same {
                return Some(Mismatch { inputs: ins[..n].to_vec(), smt: outputs(&smt), concrete: outputs(&concrete) });
            }
        }
        None
    });
    Report { variant: *variant, inputs: if mismatch.is_some() { 0 } else { total }, mismatch, time: start.elapsed() }
}

/// Inputs per second compared on one thread, measured on `samples` inputs
/// spread over the input space (for the benchmark).
pub fn throughput(variant: &Variant, samples: u64) -> f64 {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let n = widths.len();
    let mut ins = [BitVec::new(1, 0); 8];
    let mut agree = 0u64;
    let start = Instant::now();
    for i in 0..samples {
        decode(&widths, i.wrapping_mul(0x9e37_79b9_7f4a_7c15), &mut ins);
        let concrete = variant.semantics(&Concrete, &ins[..n]);
        let smt = encode::encode(variant, &Concrete, &ins[..n]);
        agree += u64::from(concrete[0].value == smt[0].value);
    }
    std::hint::black_box(agree);
    samples as f64 / start.elapsed().as_secs_f64()
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
    fn inputs_are_decoded_lowest_operand_first() {
        let mut ins = [BitVec::new(1, 0); 8];
        decode(&[16, 16], 0x1234_5678, &mut ins);
        assert_eq!((ins[0], ins[1]), (BitVec::new(16, 0x5678), BitVec::new(16, 0x1234)));
    }
}
