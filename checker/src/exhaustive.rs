//! The exhaustive cross-check: for a variant whose inputs together have at
//! most 32 bits, evaluate the concrete semantics and the SMT encoding
//! (concretely, no solver) on every input and compare. Independent evidence
//! next to the proof.
//!
//! Both models are compiled into one straight-line program over machine
//! words (`ptx_spec::program`) whose result is 1 where they differ, run on
//! blocks of inputs; a difference it finds is evaluated again one input at a
//! time with [`Concrete`], the reference, before it is reported. Tests hold
//! each model's compiled program to `Concrete` on every variant.

use std::time::{Duration, Instant};

use ptx_smt::encode;
use ptx_spec::bv::{mask, Algebra, BitVec, Concrete};
use ptx_spec::catalogue::{Outputs, Variant};
use ptx_spec::lanes::LaneBv;
use ptx_spec::program::{Isa, Program, Tracer, Word, BLOCK};
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
    /// The steps of the compiled program run per block of inputs (`None`
    /// where there were too few inputs to compile: one at a time). 0: the
    /// two models compiled to the same steps, so the difference is the
    /// constant 0.
    pub steps: Option<usize>,
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

/// Where two sets of outputs differ, as a traced Boolean: in definedness,
/// or in value where both define it.
fn differing(t: &Tracer, a: &Outputs<Tracer>, b: &Outputs<Tracer>) -> Word {
    a.iter().zip(b).fold(t.bool_constant(false), |acc, (x, y)| {
        let both = t.and(x.defined, y.defined);
        let value = t.and(both, t.not(t.eq(x.value, y.value)));
        t.or(acc, t.or(t.bool_xor(x.defined, y.defined), value))
    })
}

/// The operands of `variant` as traced inputs.
fn traced_inputs(t: &Tracer, widths: &[u32]) -> Vec<Word> {
    widths.iter().enumerate().map(|(k, &w)| t.input(k, w)).collect()
}

/// Where operand `k`'s bits start in an input's number.
fn shifts(widths: &[u32]) -> Vec<u32> {
    widths.iter().scan(0, |at, &w| Some(std::mem::replace(at, *at + w))).collect()
}

/// Both models of `variant` compiled into one program whose only root is 1
/// on the inputs where they differ.
pub fn compile(variant: &Variant) -> Program {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let t = Tracer::new();
    let ins = traced_inputs(&t, &widths);
    let smt = encode::encode(variant, &t, &ins);
    let concrete = variant.semantics(&t, &ins);
    t.program(&[differing(&t, &smt, &concrete)])
}

/// The first of the [`BLOCK`] inputs from `first` on which the program
/// finds the models differ.
fn first_difference(
    program: &Program,
    shifts: &[u32],
    first: u64,
    scratch: &mut ptx_spec::program::Scratch,
) -> Option<u64> {
    program.run(first, shifts, scratch);
    program.first_nonzero(scratch, 0).map(|i| first + i as u64)
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

/// Compare both models on every input of `variant` (which must have at most
/// [`MAX_BITS`] input bits), in parallel on the current thread pool, the
/// compiled program run with `isa`'s instructions (which the processor must
/// have: [`Isa::supported`]).
pub fn check(variant: &Variant, isa: Isa) -> Report {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let bits = input_bits(variant);
    assert!(bits <= MAX_BITS && widths.len() <= 8, "{variant}: {bits} input bits");
    let total = 1u64 << bits;
    let start = Instant::now();
    let mut steps = None;
    let mismatch = if total < BLOCK as u64 {
        // Too few inputs to fill a block: one at a time.
        (0..total).find_map(|index| confirm(variant, &widths, index))
    } else {
        let program = compile(variant);
        steps = Some(program.len());
        let shifts = shifts(&widths);
        // Chunks of 2^16 inputs: small enough to share among threads, large
        // enough that the bookkeeping costs nothing.
        let chunk = 1u64 << bits.min(16);
        // After an interrupt the remaining chunks are skipped; the report
        // is then not used (the caller checks).
        (0..total / chunk)
            .into_par_iter()
            .map_init(
                || program.scratch().on(isa),
                |scratch, c| {
                    if crate::interrupt::requested() {
                        return None;
                    }
                    let index = (c * chunk..(c + 1) * chunk)
                        .step_by(BLOCK)
                        .find_map(|first| first_difference(&program, &shifts, first, scratch))?;
                    let mismatch = confirm(variant, &widths, index);
                    assert!(
                        mismatch.is_some(),
                        "{variant}: the compiled program and the concrete algebra disagree on input {index:#x}"
                    );
                    mismatch
                },
            )
            .find_map_any(|m| m)
    };
    Report {
        variant: *variant,
        inputs: if mismatch.is_some() { 0 } else { total },
        mismatch,
        time: start.elapsed(),
        steps,
    }
}

/// Inputs per second compared on one thread, measured on at least `samples`
/// inputs spread over the input space, with `isa`'s instructions (for the
/// benchmark).
pub fn throughput(variant: &Variant, samples: u64, isa: Isa) -> f64 {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let total = 1u64 << input_bits(variant);
    let start = Instant::now();
    let program = compile(variant);
    let (shifts, mut scratch) = (shifts(&widths), program.scratch().on(isa));
    let blocks = samples.div_ceil(BLOCK as u64);
    let mut found = 0;
    for b in 0..blocks {
        let first = b.wrapping_mul(0x9e37_79b9_7f4a_7c15) % total.max(1) / BLOCK as u64 * BLOCK as u64;
        found += u32::from(first_difference(&program, &shifts, first, &mut scratch).is_some());
    }
    std::hint::black_box(found);
    (blocks * BLOCK as u64) as f64 / start.elapsed().as_secs_f64()
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
            for isa in Isa::ALL.into_iter().filter(|i| i.supported()) {
                let r = check(&v, isa);
                assert_eq!(r.mismatch, None, "{name} on {isa:?}");
                assert_eq!(r.inputs, 1 << input_bits(&v), "{name} on {isa:?}");
            }
        }
    }

    /// Each model compiled on its own, run on blocks spread over the input
    /// space, against the same model evaluated one input at a time with
    /// `Concrete`: the program computes each model, not only their
    /// difference (a fault shared by both compiled models would hide in it).
    #[test]
    fn every_small_variant_compiles_to_what_concrete_computes() {
        let small: Vec<_> = Variant::all().into_iter().filter(|v| input_bits(v) <= MAX_BITS).collect();
        assert!(small.len() >= 40, "{} variants", small.len());
        for v in small {
            let widths: Vec<u32> = v.inputs().iter().map(|o| o.ty.width()).collect();
            let t = Tracer::new();
            let ins = traced_inputs(&t, &widths);
            let (smt, concrete) = (encode::encode(&v, &t, &ins), v.semantics(&t, &ins));
            let roots: Vec<Word> = smt.iter().chain(&concrete).flat_map(|o| [o.value, o.defined]).collect();
            let program = t.program(&roots);
            let shifts = shifts(&widths);
            let total = 1u64 << input_bits(&v);
            // The lanes the exhaustive check runs (32 bits wide where the
            // values fit), and 64-bit ones, on every path this processor has.
            let (isas, program) = (Isa::ALL.into_iter().filter(|i| i.supported()), &program);
            for (first, mut scratch) in isas.flat_map(|isa| {
                [0, total / 3, total.saturating_sub(BLOCK as u64)].into_iter().flat_map(move |first| {
                    [(first, program.scratch().on(isa)), (first, program.wide_scratch().on(isa))]
                })
            }) {
                let first = first / BLOCK as u64 * BLOCK as u64;
                program.run(first, &shifts, &mut scratch);
                for lane in 0..BLOCK.min(total as usize) {
                    let mut one = [BitVec::new(1, 0); 8];
                    decode(&widths, first + lane as u64, &mut one);
                    let n = widths.len();
                    let expect =
                        encode::encode(&v, &Concrete, &one[..n]).into_iter().chain(v.semantics(&Concrete, &one[..n]));
                    for (k, out) in expect.enumerate() {
                        let got = (program.root(&scratch, 2 * k, lane), program.root(&scratch, 2 * k + 1, lane));
                        assert_eq!(
                            got.1,
                            u64::from(out.defined),
                            "{v} input {:#x} output {k} definedness",
                            first + lane as u64
                        );
                        if out.defined {
                            assert_eq!(
                                got.0,
                                out.value.unsigned() as u64,
                                "{v} input {:#x} output {k}",
                                first + lane as u64
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_difference_between_two_models_is_found_at_its_first_input() {
        // add.u16 against sub.u16's semantics on the same operands: they
        // first differ at a = 0, b = 1, input number 0x10000.
        let (add, sub) = (Variant::from_mnemonic("add.u16").unwrap(), Variant::from_mnemonic("sub.u16").unwrap());
        let t = Tracer::new();
        let ins = traced_inputs(&t, &[16, 16]);
        let program = t.program(&[differing(&t, &add.semantics(&t, &ins), &sub.semantics(&t, &ins))]);
        let mut scratch = program.scratch();
        let found = (0..1u64 << 32).step_by(BLOCK).find_map(|f| first_difference(&program, &[0, 16], f, &mut scratch));
        assert_eq!(found, Some(0x10000));
        assert!(compile(&add).len() < 4, "both models of add fold into one step: {} steps", compile(&add).len());
    }

    #[test]
    fn lanes_decode_like_one_at_a_time() {
        let widths = [16, 16];
        let cols = decode_lanes(&widths, 0x1234_5640);
        let mut ins = [BitVec::new(1, 0); 8];
        for i in 0..ptx_spec::lanes::LANES {
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
