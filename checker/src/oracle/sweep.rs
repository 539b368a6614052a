//! `ptxcheck hw sweep`: the hardware as an oracle on many inputs. A variant
//! whose inputs have at most 32 bits gets every input, generated on the GPU
//! from the thread index; every other variant gets its boundary inputs (the
//! edge values of each operand, crossed), the audit's witnesses and the
//! claims' worked values, and a seeded uniform sample. The GPU computes, the
//! CPU compares each result with the model on all cores.
//!
//! What is kept is small enough to commit: per variant the counts, a digest
//! of the hardware's results (so a later model can be checked against this
//! run without a GPU, by recomputing the same inputs), and examples of every
//! kind of outcome other than agreement: the first in input order and an
//! order-free sample (the smallest hashes of the input's index).

use std::time::Instant;

use ptx_spec::bv::{hex, mask, BitVec, Concrete};
use ptx_spec::catalogue::{Role, Variant};
use ptx_spec::lanes::{Lanes, LANES};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use super::fold::{Instance, Rng};
use super::gpu::{Gpu, PARAMS};
use super::kernel::{from_word, instruction, read_flag, register_type, set_flag, to_word, NEWEST};
use crate::error::Error;
use crate::exhaustive::{decode_lanes, input_bits, MAX_BITS};
use ptx_spec::catalogue::OperandType;
use ptx_spec::hardware::Model;

/// Inputs per launch: the results of one launch are compared, and hashed
/// into one digest, before the next.
pub const CHUNK: u64 = 1 << 26;

/// Examples kept of each outcome: the first `FIRST` in input order, and
/// `SAMPLED` more by smallest hash.
const FIRST: usize = 8;
const SAMPLED: usize = 56;

/// Threads per block.
const BLOCK: u32 = 256;

/// One input on which the hardware did not simply agree with the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The inputs, in the variant's input order, hex.
    pub inputs: Vec<String>,
    pub hardware: Vec<String>,
    /// The model's outputs; `unspecified` where it leaves one open.
    pub model: Vec<String>,
    #[serde(skip)]
    rank: u64,
}

/// The examples of one outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Examples {
    pub first: Vec<Example>,
    pub sampled: Vec<Example>,
}

impl Examples {
    fn add(&mut self, e: Example, index: u64) {
        if self.first.len() < FIRST {
            self.first.push(Example { rank: index, ..e });
            return;
        }
        let rank = xxh3_64(&index.to_le_bytes());
        if self.sampled.len() < SAMPLED || rank < self.sampled.last().map_or(u64::MAX, |s| s.rank) {
            let at = self.sampled.partition_point(|s| s.rank < rank);
            self.sampled.insert(at, Example { rank, ..e });
            self.sampled.truncate(SAMPLED);
        }
    }

    /// Both sets of examples, `other`'s inputs coming after `self`'s.
    fn merge(mut self, other: Examples) -> Examples {
        let mut rest = Vec::new();
        for e in other.first {
            if self.first.len() < FIRST {
                self.first.push(e);
            } else {
                rest.push(Example { rank: xxh3_64(&e.rank.to_le_bytes()), ..e });
            }
        }
        self.sampled.extend(rest);
        self.sampled.extend(other.sampled);
        self.sampled.sort_by_key(|e| e.rank);
        self.sampled.truncate(SAMPLED);
        self
    }
}

/// The outcome counts against one model, with examples.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub agree: u64,
    pub disagree: u64,
    /// The model leaves an output open and the hardware gives a value.
    pub picks: u64,
    pub disagreements: Examples,
    pub hardware_picks: Examples,
}

impl Tally {
    fn merge(self, other: Tally) -> Tally {
        Tally {
            agree: self.agree + other.agree,
            disagree: self.disagree + other.disagree,
            picks: self.picks + other.picks,
            disagreements: self.disagreements.merge(other.disagreements),
            hardware_picks: self.hardware_picks.merge(other.hardware_picks),
        }
    }
}

/// How a variant's inputs were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Every input, from the thread index: the operands' bits, the first
    /// operand lowest (as `ptxcheck exhaustive`).
    Exhaustive,
    /// Boundary inputs, witnesses and a seeded sample.
    Sampled,
}

/// One variant's sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantSweep {
    pub variant: String,
    pub mode: Mode,
    pub inputs: u64,
    /// Of those, boundary inputs and witnesses (sampled mode).
    pub boundary: u64,
    /// xxh3 of each chunk's hardware results: per input, each output as a
    /// little-endian u64, masked to its width.
    pub digests: Vec<String>,
    pub spec: Tally,
    /// The same results against the sm_90 model (the H100's rules).
    pub sm_90: Tally,
    pub seconds: f64,
}

/// The inputs of one variant in sampled mode: the boundary inputs first,
/// then `samples` uniform ones, each drawn from its index and the seed (so
/// any input can be made again alone, in any order, on any thread).
pub struct Sample {
    widths: Vec<u32>,
    imm: Vec<bool>,
    pub boundary: Vec<Vec<u128>>,
    samples: u64,
    seed: u64,
}

impl Sample {
    pub fn new(variant: &Variant, witnesses: &[Instance], samples: u64, seed: u64) -> Sample {
        let ops = variant.inputs();
        let mut inputs: Vec<Vec<u128>> =
            witnesses.iter().filter(|i| i.variant == *variant).map(|i| i.inputs.clone()).collect();
        // Every combination of the operands' edge values.
        let mut edges: Vec<Vec<u128>> = ops.iter().map(|o| edges(o.ty.width(), o.role)).collect();
        if edges.iter().map(|e| e.len() as u64).product::<u64>() > 1 << 20 {
            // Four operands: the core edges of each (0, 1, 2, the width and its
            // neighbours, the extremes), not every power of two.
            edges = ops.iter().map(|o| core_edges(o.ty.width(), o.role)).collect();
        }
        let combos: u64 = edges.iter().map(|e| e.len() as u64).product();
        for k in 0..combos {
            let mut rest = k;
            inputs.push(
                edges
                    .iter()
                    .map(|e| {
                        let v = e[(rest % e.len() as u64) as usize];
                        rest /= e.len() as u64;
                        v
                    })
                    .collect(),
            );
        }
        let mut seen = std::collections::HashSet::new();
        inputs.retain(|i| seen.insert(i.clone()));
        Sample {
            widths: ops.iter().map(|o| o.ty.width()).collect(),
            imm: ops.iter().map(|o| o.role == Role::Imm).collect(),
            boundary: inputs,
            samples,
            seed: seed ^ xxh3_64(variant.to_string().as_bytes()),
        }
    }

    pub fn len(&self) -> usize {
        self.boundary.len() + self.samples as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Input `i`. An immediate operand of a uniform input takes the values
    /// in turn, so that each of lop3's 256 tables gets an equal share.
    pub fn input(&self, i: usize) -> Vec<u128> {
        if let Some(b) = self.boundary.get(i) {
            return b.clone();
        }
        let n = (i - self.boundary.len()) as u64;
        self.widths
            .iter()
            .zip(&self.imm)
            .enumerate()
            .map(|(j, (&w, &imm))| {
                if imm {
                    u128::from(n) & mask(w)
                } else {
                    u128::from(Rng(self.seed ^ n.wrapping_mul(8).wrapping_add(j as u64)).next()) & mask(w)
                }
            })
            .collect()
    }
}

/// The edge values of an operand of width `w`: small values and shift
/// amounts around every power of two up to 256, the width and its
/// neighbours, and the unsigned and signed extremes with theirs.
fn edges(w: u32, role: Role) -> Vec<u128> {
    let m = mask(w);
    if role == Role::Imm && w <= 8 {
        return (0..=m).collect();
    }
    let mut e: Vec<u128> = vec![0, 1, 2, 3];
    for p in [3u32, 4, 5, 6, 7, 8] {
        let p = 1u128 << p;
        e.extend([p - 1, p, p + 1]);
    }
    e.extend([u128::from(w) - 1, u128::from(w), u128::from(w) + 1]);
    let min = 1u128 << (w - 1);
    e.extend([m, m - 1, m - 2, min, min + 1, min - 1, min - 2]);
    let mut e: Vec<u128> = e.into_iter().map(|v| v & m).collect();
    e.sort_unstable();
    e.dedup();
    e
}

/// The fewer edges of an operand crossed with three others.
fn core_edges(w: u32, role: Role) -> Vec<u128> {
    let m = mask(w);
    let min = 1u128 << (w - 1);
    let all = edges(w, role);
    let core = [0, 1, 2, 31, 32, 33, 63, 64, 255, 256, m, m - 1, min, min - 1];
    all.into_iter().filter(|v| core.contains(v) || role == Role::Imm).collect()
}

/// The opening of a kernel with one thread per input: the parameters
/// `in`, `out`, `extra` and `count` loaded into `%pin`, `%pout`, `%<extra>`
/// and `%count` (the pointers made global), the thread's index in `%i`
/// (using `%t`, `%tx`, `%cx`, `%nx`), and threads at or past `count` sent to
/// `DONE` (using `%over`).
pub(crate) fn thread_prologue(extra: &[&str]) -> Vec<String> {
    let mut body = vec!["ld.param.u64 %pin, [in];".to_string(), "ld.param.u64 %pout, [out];".into()];
    body.extend(extra.iter().map(|p| format!("ld.param.u64 %{p}, [{p}];")));
    body.extend(
        [
            "ld.param.u64 %count, [count];",
            "cvta.to.global.u64 %pin, %pin;",
            "cvta.to.global.u64 %pout, %pout;",
            "mov.u32 %tx, %tid.x;",
            "mov.u32 %cx, %ctaid.x;",
            "mov.u32 %nx, %ntid.x;",
            "mul.wide.u32 %i, %cx, %nx;",
            "cvt.u64.u32 %t, %tx;",
            "add.u64 %i, %i, %t;",
            "setp.ge.u64 %over, %i, %count;",
            "@%over bra DONE;",
        ]
        .map(String::from),
    );
    body
}

/// The sweep kernel of `variant`: thread `i` takes input `base + i`, from
/// its index (exhaustive) or from `in[i*k..]` (sampled, k register inputs),
/// and writes its outputs to `out[i*m..]`. `imm` gives the immediate
/// operands' values (lop3's immLut), which are part of the instruction text.
pub fn kernel(variant: &Variant, name: &str, mode: Mode, imm: &[u128]) -> String {
    let ops = variant.operands();
    let reg_inputs = variant.inputs().iter().filter(|o| o.role != Role::Imm).count();
    let outputs = variant.outputs().len();
    let mut regs: Vec<(String, &str)> = [
        ("%pin", ".b64"),
        ("%pout", ".b64"),
        ("%base", ".b64"),
        ("%count", ".b64"),
        ("%i", ".b64"),
        ("%x", ".b64"),
        ("%t", ".b64"),
        ("%w", ".b64"),
        ("%at", ".b64"),
        ("%tx", ".b32"),
        ("%cx", ".b32"),
        ("%nx", ".b32"),
        ("%over", ".pred"),
    ]
    .iter()
    .map(|(r, t)| (r.to_string(), *t))
    .collect();
    let mut body = thread_prologue(&["base"]);
    body.extend([
        "add.u64 %x, %base, %i;".into(),
        format!("mul.lo.u64 %at, %i, {};", reg_inputs * 8),
        "add.u64 %at, %pin, %at;".into(),
    ]);
    let mut tokens: Vec<(String, bool)> = Vec::new();
    let mut dests = Vec::new();
    let (mut shift, mut word, mut imms) = (0u32, 0usize, imm.iter());
    for (pos, o) in ops.iter().enumerate() {
        let reg = format!("%o{pos}");
        if o.is_dest() {
            regs.push((reg.clone(), register_type(o.ty)));
            dests.push((reg.clone(), o.ty));
            tokens.push((reg, o.piped));
            continue;
        }
        if o.role == Role::Imm {
            tokens.push((format!("{:#x}", imms.next().copied().unwrap_or(0)), o.piped));
            continue;
        }
        regs.push((reg.clone(), register_type(o.ty)));
        match mode {
            Mode::Exhaustive => body.push(format!("shr.b64 %w, %x, {shift};")),
            Mode::Sampled => body.push(format!("ld.global.u64 %w, [%at+{}];", word * 8)),
        }
        shift += o.ty.width();
        word += 1;
        if o.ty == OperandType::Pred {
            // Exhaustive: the predicate is the index's one bit there.
            body.push("and.b64 %w, %w, 1;".into());
        }
        body.push(from_word(&reg, o.ty));
        tokens.push((reg, o.piped));
    }
    // 9.7.2: the carry flag is the last input, set just before the
    // instruction, and the last output, read just after it.
    if variant.reads_flag() {
        regs.push(("%cf".into(), ".b32"));
        match mode {
            Mode::Exhaustive => body.push(format!("shr.b64 %w, %x, {shift};")),
            Mode::Sampled => body.push(format!("ld.global.u64 %w, [%at+{}];", word * 8)),
        }
        body.push("cvt.u32.u64 %cf, %w;".into());
        body.extend(set_flag("%cf"));
    }
    body.push(instruction(variant, tokens));
    if variant.writes_flag() {
        regs.push(("%cfo".into(), ".b32"));
        body.push(read_flag("%cfo"));
        dests.push(("%cfo".into(), OperandType::Bits(32)));
    }
    body.push(format!("mul.lo.u64 %at, %i, {};", outputs * 8));
    body.push("add.u64 %at, %pout, %at;".into());
    for (n, (reg, ty)) in dests.iter().enumerate() {
        body.push(to_word(reg, *ty));
        body.push(format!("st.global.u64 [%at+{}], %w;", n * 8));
    }
    body.push("DONE:".into());
    body.push("ret;".into());
    super::kernel::entry(name, PARAMS, &regs, &body)
}

/// Every non-warp variant's sweep kernel in one module (lop3's for one
/// table), as `hw sweep` makes them.
pub fn module() -> String {
    let mut ptx = NEWEST.header();
    for (k, v) in Variant::all().iter().filter(|v| !v.is_warp_wide()).enumerate() {
        let mode = if exhaustive(v) { Mode::Exhaustive } else { Mode::Sampled };
        let imm: Vec<u128> = v.inputs().iter().filter(|o| o.role == Role::Imm).map(|_| 0x96).collect();
        ptx.push_str(&kernel(v, &format!("sweep{k}"), mode, &imm));
    }
    ptx
}

/// Compare the hardware's `got` (m words per input) with the model on the
/// inputs `inputs(i)`, `i` in `0..n`; `index0` numbers the first input.
fn tally_concrete(
    model: Model,
    variant: &Variant,
    n: usize,
    inputs: impl Fn(usize) -> Vec<u128> + Sync,
    got: &[u64],
    index0: u64,
) -> Tally {
    let ops = variant.inputs();
    let outs = variant.outputs();
    let m = outs.len();
    (0..n)
        .into_par_iter()
        .fold(Tally::default, |mut t, i| {
            let ins = inputs(i);
            let bits: Vec<BitVec> = ops.iter().zip(&ins).map(|(o, &v)| BitVec::new(o.ty.width(), v)).collect();
            let model = variant.semantics_in(model, &Concrete, &bits);
            let hw = &got[i * m..(i + 1) * m];
            classify(
                &mut t,
                variant,
                &ins,
                hw,
                model.iter().map(|o| o.defined.then_some(o.value.unsigned())),
                index0 + i as u64,
            );
            t
        })
        .reduce(Tally::default, Tally::merge)
}

/// Count one input's outcome, keeping it as an example unless it agrees.
fn classify(
    t: &mut Tally,
    variant: &Variant,
    ins: &[u128],
    hw: &[u64],
    model: impl Iterator<Item = Option<u128>>,
    index: u64,
) {
    let outs = variant.outputs();
    let model: Vec<Option<u128>> = model.collect();
    let (mut differ, mut open) = (false, false);
    for ((o, m), &h) in outs.iter().zip(&model).zip(hw) {
        let h = u128::from(h) & mask(o.ty.width());
        match m {
            Some(m) if *m != h => differ = true,
            None => open = true,
            _ => {}
        }
    }
    if !differ && !open {
        t.agree += 1;
        return;
    }
    let example = || Example {
        inputs: variant.inputs().iter().zip(ins).map(|(o, &v)| hex(v, o.ty.width())).collect(),
        hardware: outs.iter().zip(hw).map(|(o, &h)| hex(u128::from(h) & mask(o.ty.width()), o.ty.width())).collect(),
        model: outs
            .iter()
            .zip(&model)
            .map(|(o, m)| m.map_or("unspecified".to_string(), |v| hex(v, o.ty.width())))
            .collect(),
        rank: 0,
    };
    if differ {
        t.disagree += 1;
        t.disagreements.add(example(), index);
    } else {
        t.picks += 1;
        t.hardware_picks.add(example(), index);
    }
}

/// Compare one exhaustive chunk: inputs `base..base + n`, with the lane
/// algebra (64 inputs at a time).
fn tally_exhaustive(model: Model, variant: &Variant, base: u64, n: usize, got: &[u64]) -> Tally {
    let widths: Vec<u32> = variant.inputs().iter().map(|o| o.ty.width()).collect();
    let m = variant.outputs().len();
    if n < LANES {
        return tally_concrete(model, variant, n, |i| decode(&widths, base + i as u64), got, base);
    }
    (0..n / LANES)
        .into_par_iter()
        .fold(Tally::default, |mut t, block| {
            let first = base + (block * LANES) as u64;
            let ins = decode_lanes(&widths, first);
            let model = variant.semantics_in(model, &Lanes, &ins);
            for lane in 0..LANES {
                let i = block * LANES + lane;
                let hw = &got[i * m..(i + 1) * m];
                let outputs =
                    model.iter().map(|o| (o.defined.0 >> lane & 1 == 1).then(|| u128::from(o.value.lane(lane))));
                // Agreement, the common case, without building anything.
                let quick = model.iter().zip(hw).zip(variant.outputs()).all(|((o, &h), op)| {
                    o.defined.0 >> lane & 1 == 1 && o.value.lane(lane) == h & mask(op.ty.width()) as u64
                });
                if quick {
                    t.agree += 1;
                } else {
                    classify(&mut t, variant, &decode(&widths, first + lane as u64), hw, outputs, first + lane as u64);
                }
            }
            t
        })
        .reduce(Tally::default, Tally::merge)
}

fn decode(widths: &[u32], index: u64) -> Vec<u128> {
    let mut rest = u128::from(index);
    widths
        .iter()
        .map(|&w| {
            let v = rest & mask(w);
            rest >>= w;
            v
        })
        .collect()
}

/// The digest of one chunk of results.
fn digest(variant: &Variant, got: &[u64]) -> String {
    let masks: Vec<u64> = variant.outputs().iter().map(|o| mask(o.ty.width()) as u64).collect();
    let bytes: Vec<u8> =
        got.iter().enumerate().flat_map(|(k, &v)| (v & masks[k % masks.len()]).to_le_bytes()).collect();
    format!("{:016x}", xxh3_64(&bytes))
}

/// Whether `variant` is swept exhaustively.
pub fn exhaustive(variant: &Variant) -> bool {
    input_bits(variant) <= MAX_BITS && variant.inputs().iter().all(|o| o.role != Role::Imm)
}

/// Sweep one (non-warp) variant on `gpu`.
pub fn sweep(
    gpu: &Gpu,
    pool: &rayon::ThreadPool,
    variant: &Variant,
    witnesses: &[Instance],
    samples: u64,
    seed: u64,
) -> Result<VariantSweep, Error> {
    let start = Instant::now();
    let m = variant.outputs().len();
    let mut digests = Vec::new();
    let mut tally = Tally::default();
    let mut vendor = Tally::default();
    let ops = variant.inputs();
    let (mode, inputs, boundary) = if exhaustive(variant) {
        let ptx = format!("{}{}", NEWEST.header(), kernel(variant, "sweep", Mode::Exhaustive, &[]));
        let module = gpu.load(&ptx)?;
        let f = gpu.kernel(&module, "sweep")?;
        let total = 1u64 << input_bits(variant);
        let chunk = total.min(CHUNK);
        let input = gpu.zeros(1)?;
        let mut output = gpu.zeros(chunk as usize * m)?;
        let mut got = vec![0u64; chunk as usize * m];
        for c in 0..total / chunk {
            if crate::interrupt::requested() {
                return Err(Error::Interrupted);
            }
            let base = c * chunk;
            gpu.launch(&f, &input, &mut output, base, chunk, (chunk.div_ceil(u64::from(BLOCK)) as u32, BLOCK))?;
            gpu.download(&output, &mut got)?;
            digests.push(digest(variant, &got));
            for (t, model) in [(&mut tally, Model::Spec), (&mut vendor, Model::Sm90)] {
                *t = std::mem::take(t)
                    .merge(pool.install(|| tally_exhaustive(model, variant, base, chunk as usize, &got)));
            }
        }
        (Mode::Exhaustive, total, 0)
    } else {
        let sample = Sample::new(variant, witnesses, samples, seed);
        let n = sample.len();
        // Immediate operands are part of the instruction: a kernel for each
        // value they take, over the inputs that have it.
        let imm_at: Vec<usize> = ops.iter().enumerate().filter(|(_, o)| o.role == Role::Imm).map(|(k, _)| k).collect();
        let keys: Vec<Vec<u128>> = if imm_at.is_empty() {
            vec![Vec::new(); n]
        } else {
            pool.install(|| {
                (0..n).into_par_iter().map(|i| imm_at.iter().map(|&p| sample.input(i)[p]).collect()).collect()
            })
        };
        let mut groups: std::collections::BTreeMap<&[u128], Vec<usize>> = Default::default();
        for (i, key) in keys.iter().enumerate() {
            groups.entry(key.as_slice()).or_default().push(i);
        }
        let mut ptx = NEWEST.header();
        for (g, imm) in groups.keys().enumerate() {
            ptx.push_str(&kernel(variant, &format!("sweep{g}"), Mode::Sampled, imm));
        }
        let module = gpu.load(&ptx)?;
        let regs: Vec<usize> = (0..ops.len()).filter(|k| !imm_at.contains(k)).collect();
        let k = regs.len().max(1);
        let mut got_all = vec![0u64; n * m];
        for (g, members) in groups.values().enumerate() {
            let f = gpu.kernel(&module, &format!("sweep{g}"))?;
            for part in members.chunks(CHUNK as usize) {
                let mut words = vec![0u64; part.len() * k];
                pool.install(|| {
                    words.par_chunks_mut(k).zip(part).for_each(|(w, &i)| {
                        let input = sample.input(i);
                        for (slot, &r) in w.iter_mut().zip(&regs) {
                            *slot = input[r] as u64;
                        }
                    })
                });
                let input = gpu.upload(&words)?;
                let mut output = gpu.zeros(part.len() * m)?;
                let count = part.len() as u64;
                gpu.launch(&f, &input, &mut output, 0, count, (count.div_ceil(u64::from(BLOCK)) as u32, BLOCK))?;
                let mut got = vec![0u64; part.len() * m];
                gpu.download(&output, &mut got)?;
                for (j, &i) in part.iter().enumerate() {
                    got_all[i * m..(i + 1) * m].copy_from_slice(&got[j * m..(j + 1) * m]);
                }
            }
        }
        for c in 0..n.div_ceil(CHUNK as usize) {
            let first = c * CHUNK as usize;
            let len = (n - first).min(CHUNK as usize);
            let got = &got_all[first * m..(first + len) * m];
            digests.push(digest(variant, got));
            for (t, model) in [(&mut tally, Model::Spec), (&mut vendor, Model::Sm90)] {
                let more = pool
                    .install(|| tally_concrete(model, variant, len, |i| sample.input(first + i), got, first as u64));
                *t = std::mem::take(t).merge(more);
            }
        }
        (Mode::Sampled, n as u64, sample.boundary.len() as u64)
    };
    Ok(VariantSweep {
        variant: variant.to_string(),
        mode,
        inputs,
        boundary,
        digests,
        spec: tally,
        sm_90: vendor,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// A sweep's record, as committed under `reports/vendor/`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The record's format; raised when a field changes meaning.
    pub schema: u32,
    pub ptxcheck: String,
    pub device: super::gpu::DeviceInfo,
    /// When the sweep ran (UTC, RFC 3339).
    pub date: String,
    pub seed: u64,
    /// The uniform sample per variant in sampled mode.
    pub samples: u64,
    pub variants: Vec<VariantSweep>,
}

/// The record's current format.
pub const SCHEMA: u32 = 1;

/// The shfl grid: every shfl variant under many `b`, `c` and active masks,
/// lane `i` holding a distinct value so that the source lane shows.
pub fn shfl_grid(seed: u64) -> Vec<super::hw::ShflCase> {
    let bs = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 30, 31, 32, 33, 63, 64, 0x8000_0000, 0xffff_ffff];
    let cs =
        [0, 0x1f, 0x0f, 0x07, 0x101f, 0x1807, 0x0c1f, 0x1f1f, 0x181f, 0x3f, 0x20, 0x1000, 0x1e1f, 0x1e, 0xffff_ffff];
    let mut rng = Rng(seed);
    let mut masks = vec![u32::MAX, 0x0000_ffff, 0xffff_0000, 0x5555_5555, 0xaaaa_aaaa, 0x8000_0001, 0x0f0f_f0f0, 1];
    masks.extend((0..2).map(|_| rng.next() as u32 | 1));
    let mut out = Vec::new();
    for v in Variant::all().into_iter().filter(Variant::is_warp_wide) {
        for &b in &bs {
            for &c in &cs {
                for &active in &masks {
                    let base = (rng.next() as u32 & 0x00ff_ff00) | 0x100;
                    out.push(super::hw::ShflCase { variant: v, b, c, active, base });
                }
            }
        }
    }
    out
}

/// Sweep the shfl variants over [`shfl_grid`]: one [`VariantSweep`] per
/// variant, an input being one lane of one case.
pub fn sweep_shfl(gpu: &Gpu, seed: u64) -> Result<Vec<VariantSweep>, Error> {
    let start = Instant::now();
    let cases = shfl_grid(seed);
    let program = super::hw::Program::new(&[], &cases);
    let lines = program.run(gpu)?;
    let text = lines.join("\n");
    let rows = super::hw::compare_in(&text, Model::Spec).map_err(Error::Tool)?;
    let vendor_rows = super::hw::compare_in(&text, Model::Sm90).map_err(Error::Tool)?;
    let mut out: Vec<VariantSweep> = Vec::new();
    for v in Variant::all().into_iter().filter(Variant::is_warp_wide) {
        let key = format!("shfl {} {}", v.mnemonic(), if v.outputs().len() == 2 { "d|p" } else { "d" });
        let mine: Vec<&super::hw::Compared> = rows.iter().filter(|r| r.instruction() == key).collect();
        let theirs: Vec<&super::hw::Compared> = vendor_rows.iter().filter(|r| r.instruction() == key).collect();
        let results: Vec<&str> = mine.iter().map(|r| r.hardware.as_str()).collect();
        out.push(VariantSweep {
            variant: v.to_string(),
            mode: Mode::Sampled,
            inputs: mine.len() as u64,
            boundary: mine.len() as u64,
            digests: vec![format!("{:016x}", xxh3_64(results.join("\n").as_bytes()))],
            spec: tally_rows(&mine),
            sm_90: tally_rows(&theirs),
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(out)
}

/// The outcomes of compared result lines.
fn tally_rows(rows: &[&super::hw::Compared]) -> Tally {
    let mut t = Tally::default();
    for (k, r) in rows.iter().enumerate() {
        let e = Example {
            inputs: vec![r.label.clone()],
            hardware: r.hardware.split_whitespace().map(String::from).collect(),
            model: r.model.split(' ').map(String::from).collect(),
            rank: 0,
        };
        match r.verdict {
            "agree" => t.agree += 1,
            "disagree" => {
                t.disagree += 1;
                t.disagreements.add(e, k as u64);
            }
            _ => {
                t.picks += 1;
                t.hardware_picks.add(e, k as u64);
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_keep_the_first_and_the_smallest_hashes_whatever_the_split() {
        let e = |i: u64| Example { inputs: vec![i.to_string()], hardware: vec![], model: vec![], rank: 0 };
        let mut whole = Examples::default();
        (0..500).for_each(|i| whole.add(e(i), i));
        let (mut a, mut b) = (Examples::default(), Examples::default());
        (0..200).for_each(|i| a.add(e(i), i));
        (200..500).for_each(|i| b.add(e(i), i));
        let merged = a.merge(b);
        assert_eq!(merged.first, whole.first);
        assert_eq!(merged.sampled, whole.sampled);
        assert_eq!(whole.first.len(), FIRST);
        assert_eq!(whole.sampled.len(), SAMPLED);
    }

    #[test]
    fn a_chunk_is_tallied_against_both_models() {
        // div.u16 on the inputs whose divisor (the high half) is 0, as an
        // H100 answers them: all ones, which the spec leaves open and
        // sm_90 names.
        let v = Variant::from_mnemonic("div.u16").unwrap();
        let got = vec![0xffffu64; 1 << 16];
        let spec = tally_exhaustive(Model::Spec, &v, 0, 1 << 16, &got);
        let sm_90 = tally_exhaustive(Model::Sm90, &v, 0, 1 << 16, &got);
        assert_eq!((spec.agree, spec.disagree, spec.picks), (0, 0, 1 << 16));
        assert_eq!((sm_90.agree, sm_90.disagree, sm_90.picks), (1 << 16, 0, 0));
        assert_eq!(spec.hardware_picks.first[0].model, ["unspecified"]);
        // A wrong value is a disagreement under both.
        let mut got = got;
        got[5] = 7;
        assert_eq!(tally_exhaustive(Model::Sm90, &v, 0, 1 << 16, &got).disagree, 1);
    }

    #[test]
    fn the_exhaustive_kernel_decodes_operands_as_the_cpu_does() {
        let v = Variant::from_mnemonic("add.u16").unwrap();
        let k = kernel(&v, "sweep", Mode::Exhaustive, &[]);
        assert!(k.contains("shr.b64 %w, %x, 0;\n  cvt.u16.u64 %o1, %w;"), "{k}");
        assert!(k.contains("shr.b64 %w, %x, 16;\n  cvt.u16.u64 %o2, %w;"), "{k}");
        assert!(k.contains("add.u16 %o0, %o1, %o2;"), "{k}");
        assert_eq!(decode(&[16, 16], 0x0003_0005), vec![5, 3]);
    }

    #[test]
    fn sampled_inputs_start_with_the_boundary_and_are_reproducible() {
        let v = Variant::from_mnemonic("bfe.u32").unwrap();
        let (a, b) = (Sample::new(&v, &[], 1000, 7), Sample::new(&v, &[], 1000, 7));
        let boundary = a.boundary.len() as u64;
        assert_eq!(a.len() as u64, boundary + 1000);
        let a: Vec<Vec<u128>> = (0..a.len()).map(|i| a.input(i)).collect();
        assert_eq!(a, (0..b.len()).map(|i| b.input(i)).collect::<Vec<_>>());
        // 32 and 33 as start, next to each other, among the boundary inputs.
        assert!(a[..boundary as usize].contains(&vec![0xffff_ffff, 32, 1]));
        assert!(a[..boundary as usize].contains(&vec![0xffff_ffff, 33, 0]));
        let lop3 = Variant::all().into_iter().find(|v| v.opcode() == "lop3").unwrap();
        let k = kernel(&lop3, "k", Mode::Sampled, &[0x96]);
        assert!(k.contains(", 0x96;"), "{k}");
    }
}
