//! `ptxcheck vendor fold`: ptxas's constant folding as an oracle for
//! values.
//!
//! Each instance is one instruction whose sources are constants (moved into
//! registers first, so every operand form assembles), its results stored to
//! global memory so they are live. ptxas -O3 folds most of them to
//! constants, which [`sass`](super::sass) reads back from the disassembly
//! and this module compares with the concrete model (`Variant::run`).
//! A value ptxas leaves to run time is "not folded", never a verdict.
//!
//! Instances: the single-instruction witnesses of the audit's findings (read
//! from the committed report), the claims' worked values that are one
//! instruction, and a seeded, edge-biased sample of every variant that does
//! not act on the whole warp.

use std::collections::BTreeMap;

use crate::audit::claims::Check;
use crate::ptx::parse::{parse_instruction, OperandText};
use ptx_spec::bv::{hex, mask};
use ptx_spec::catalogue::shfl::{Shfl, WARP};
use ptx_spec::catalogue::{OperandType, Role, Variant};
use ptx_spec::family::shfl::Warp;

use super::kernel::{instruction, read_flag, register_type, set_flag, NEWEST};
use super::ptxas::{assemble_each, disassemble, Scratch, Tool, ToolError};
pub use super::record::FoldRow as Row;
use super::record::{AuditWitnesses, WitnessRecord};
use super::sass::{functions, stores, Stored};

/// Instances per kernel: one variant each, so a rejection names one variant.
const PER_KERNEL: usize = 64;
/// Bytes between instances' results, and between an instance's two results:
/// wide enough that ptxas cannot merge neighbouring stores.
const SLOT: usize = 32;
const OUTPUT_SLOT: usize = 16;

/// An audit witness's readings: their names, and per output each reading's
/// value (`None`: undefined under that reading).
pub type Readings = (Vec<String>, Vec<Vec<Option<u128>>>);

/// One instruction on constant inputs.
#[derive(Clone, Debug)]
pub struct Instance {
    pub variant: Variant,
    /// Input values in the order of [`Variant::inputs`] (immLut included).
    pub inputs: Vec<u128>,
    /// Where it comes from: `audit <id>`, `claim <id>` or `sample`.
    pub origin: String,
    /// For an audit witness: the readings' names and, per output, each
    /// reading's value (`None`: undefined under that reading).
    pub readings: Option<Readings>,
}

/// Whether the fold oracle can take the variant: one thread's values.
pub fn foldable(v: &Variant) -> bool {
    !v.is_warp_wide()
}

/// The single-instruction witnesses of the audit's findings in the report's
/// witnesses (read from the committed `reports/ptxcheck.json`).
pub fn audit_instances(report: &AuditWitnesses) -> Vec<Instance> {
    report
        .audit
        .findings
        .iter()
        .filter_map(|f| witness_instance(f.witness.as_ref()?, format!("audit {}", f.id)))
        .collect()
}

/// The probes of the readings: every confirmed single-instruction input on
/// which two readings of a passage differ, from every comparison the audit
/// made (`origin`: `probe PASSAGE`).
pub fn probe_instances(report: &AuditWitnesses) -> Vec<Instance> {
    let mut out = Vec::new();
    for p in &report.audit.passages {
        let origin = format!("probe {}", p.id);
        for c in &p.comparisons {
            out.extend(c.witness.as_ref().and_then(|w| witness_instance(w, origin.clone())));
        }
    }
    out
}

/// A witness table of the report as an instance, if it is one foldable
/// instruction with every input given.
fn witness_instance(w: &WitnessRecord, origin: String) -> Option<Instance> {
    let variant = Variant::from_mnemonic(&w.variant)?;
    if !foldable(&variant) {
        return None;
    }
    let names: Vec<&str> = variant.inputs().iter().map(|o| o.name).collect();
    if w.inputs.len() != names.len() || w.inputs.iter().zip(&names).any(|((n, _), m)| n != m) {
        return None;
    }
    let rows = w.rows.iter().map(|(_, values)| values.iter().map(|v| v.map(|h| h.0)).collect()).collect();
    Some(Instance {
        variant,
        inputs: w.inputs.iter().map(|(_, v)| v.0).collect(),
        origin,
        readings: Some((w.columns.clone(), rows)),
    })
}

/// The claims' worked values that are one instruction on immediates.
pub fn claim_instances() -> Vec<Instance> {
    let mut out = Vec::new();
    for claim in crate::audit::claims::all() {
        let Check::Values { program, inputs, .. } = &claim.check else { continue };
        let lines: Vec<&str> = program.split(';').map(str::trim).filter(|l| !l.is_empty()).collect();
        if lines.len() != 1 || !inputs.is_empty() {
            continue;
        }
        let Ok(instr) = parse_instruction(lines[0]) else { continue };
        if !foldable(&instr.variant) {
            continue;
        }
        let values: Option<Vec<u128>> = instr
            .variant
            .operands()
            .iter()
            .zip(&instr.operands)
            .filter(|(o, _)| !o.is_dest())
            .map(|(_, t)| match t {
                OperandText::Imm(v) => Some(v.unsigned()),
                _ => None,
            })
            .collect();
        if let Some(inputs) = values {
            out.push(Instance {
                variant: instr.variant,
                inputs,
                origin: format!("claim {}", claim.id),
                readings: None,
            });
        }
    }
    out
}

/// A small deterministic generator (splitmix64).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The values edges are made of, at width `w`: 0, 1, -1, MIN, MAX, the
/// shift amounts around the width, 32, 255.
fn edges(w: u32) -> Vec<u128> {
    let m = mask(w);
    let mut e = vec![0, 1, m, 1 << (w - 1), (1 << (w - 1)) - 1, u128::from(w - 1), u128::from(w), 32, 255, m - 1];
    e.iter_mut().for_each(|v| *v &= m);
    e
}

/// `n` seeded, edge-biased samples of every foldable variant: the first
/// inputs all zero, then two thirds of inputs drawn from the edges, the rest
/// uniformly.
pub fn sample_instances(n: usize) -> Vec<Instance> {
    let mut out = Vec::new();
    for v in Variant::sampled().into_iter().filter(foldable) {
        let mut rng = Rng(seed(&v.to_string()));
        let ops = v.inputs();
        for _ in 0..n {
            let inputs = ops
                .iter()
                .map(|o| {
                    let w = o.ty.width();
                    let e = edges(w);
                    if o.role != Role::Imm && !rng.next().is_multiple_of(3) {
                        e[(rng.next() % e.len() as u64) as usize]
                    } else {
                        u128::from(rng.next()) & mask(w)
                    }
                })
                .collect();
            out.push(Instance { variant: v, inputs, origin: "sample".into(), readings: None });
        }
    }
    out
}

/// One instance of each shuffle sm_90 takes (shfl.sync; it rejects the
/// deprecated shfl), with constant operands: whether ptxas folds a shuffle
/// when every lane holds the same values. Its inputs are the operands'
/// (a, b, c, membermask), not the model's ([`Variant::inputs`] holds every
/// lane's `a`), and its model value is lane 0's ([`warp_model`]): each
/// lane reads `a` from a lane in range, all 32 execute.
pub fn warp_instances() -> Vec<Instance> {
    Variant::all()
        .into_iter()
        .filter(|v| matches!(v, Variant::Shfl(s) if s.sync))
        .map(|variant| Instance {
            variant,
            inputs: vec![0x100, 1, 0x1f, 0xffff_ffff],
            origin: "warp (every lane the same operands)".into(),
            readings: None,
        })
        .collect()
}

/// Lane 0's outputs where every lane of a full warp runs `shfl` on the
/// operand values `inputs` (a, b, c, membermask).
fn warp_model(shfl: Shfl, inputs: &[u128]) -> Vec<Option<u128>> {
    let value = |k: usize| inputs.get(k).map_or(0, |&x| x as u32);
    let warp = Warp { membermask: [value(3); WARP], ..Warp::uniform([value(0); WARP], value(1), value(2), u32::MAX) };
    let lane = warp.run(shfl)[0];
    let mut outputs = vec![lane.d.map(u128::from)];
    if shfl.pred {
        outputs.push(lane.p.map(u128::from));
    }
    outputs
}

/// Every instance: audit witnesses (from the report's `report`), claims,
/// then samples and the shuffles; without repeats (the first origin is
/// kept).
pub fn instances(report: &AuditWitnesses, samples: usize) -> Vec<Instance> {
    let mut all = audit_instances(report);
    all.extend(claim_instances());
    all.extend(sample_instances(samples));
    all.extend(warp_instances());
    unique(&mut all);
    all
}

/// `all` with each input of a variant kept once, where it first comes.
pub fn unique(all: &mut Vec<Instance>) {
    let mut seen = std::collections::HashSet::new();
    all.retain(|i| seen.insert((i.variant, i.inputs.clone())));
}

/// The PTX lines of instance `j` in a kernel: inputs moved into registers,
/// the instruction, its results stored at `j * SLOT`.
pub fn instance_body(j: usize, inst: &Instance, registers: &mut Vec<(String, String)>) -> Vec<String> {
    instance_body_from(j, inst, registers, Operands::Constants)
}

/// Where an instance's register operands get their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    /// Moved in as constants, which ptxas may fold.
    Constants,
    /// Loaded from global memory at `%in` (operand k of the instruction at
    /// byte 8k): computed at run time.
    Loaded,
}

/// [`instance_body`], its operands given as `from` says.
pub fn instance_body_from(
    j: usize,
    inst: &Instance,
    registers: &mut Vec<(String, String)>,
    from: Operands,
) -> Vec<String> {
    let mut body = Vec::new();
    let mut tokens: Vec<(String, bool)> = Vec::new();
    let mut inputs = inst.inputs.iter();
    let mut outputs = Vec::new();
    for o in inst.variant.operands() {
        let token = if o.is_dest() {
            let reg = format!("%o{j}_{}", outputs.len());
            registers.push((reg.clone(), register_type(o.ty).into()));
            outputs.push((reg.clone(), o.ty));
            reg
        } else {
            let value = *inputs.next().unwrap_or(&0);
            match (o.role, o.ty) {
                (Role::Imm, ty) => hex(value, ty.width()),
                (_, OperandType::Pred) => {
                    let reg = format!("%i{j}_{}", tokens.len());
                    registers.push((reg.clone(), ".pred".into()));
                    if from == Operands::Loaded {
                        let word = format!("%w{j}_{}", tokens.len());
                        registers.push((word.clone(), ".b32".into()));
                        body.push(format!("ld.global.b32 {word}, [%in+{}];", 8 * tokens.len()));
                        body.push(format!("setp.ne.u32 {reg}, {word}, 0;"));
                    } else {
                        body.push(format!("setp.ne.u32 {reg}, {value}, 0;"));
                    }
                    reg
                }
                (_, ty) => {
                    let reg = format!("%i{j}_{}", tokens.len());
                    registers.push((reg.clone(), register_type(ty).into()));
                    body.push(match from {
                        Operands::Constants => format!("mov{} {reg}, {};", register_type(ty), hex(value, ty.width())),
                        Operands::Loaded => {
                            format!("ld.global{} {reg}, [%in+{}];", register_type(ty), 8 * tokens.len())
                        }
                    });
                    reg
                }
            }
        };
        tokens.push((token, o.piped));
    }
    // 9.7.2: the carry flag is the last input, set just before the
    // instruction, and the last output, read just after it.
    if inst.variant.reads_flag() {
        let reg = format!("%cf{j}");
        registers.push((reg.clone(), ".b32".into()));
        body.push(match from {
            Operands::Constants => format!("mov.b32 {reg}, {};", inputs.next().unwrap_or(&0) & 1),
            Operands::Loaded => format!("ld.global.b32 {reg}, [%in+{}];", 8 * tokens.len()),
        });
        body.extend(set_flag(&reg));
    }
    body.push(instruction(&inst.variant, tokens));
    if inst.variant.writes_flag() {
        let reg = format!("%cfo{j}");
        registers.push((reg.clone(), ".b32".into()));
        body.push(read_flag(&reg));
        outputs.push((reg, OperandType::Bits(32)));
    }
    for (n, (reg, ty)) in outputs.iter().enumerate() {
        let at = j * SLOT + n * OUTPUT_SLOT;
        match ty {
            OperandType::Pred => {
                let word = format!("%s{j}_{n}");
                registers.push((word.clone(), ".b32".into()));
                body.push(format!("selp.b32 {word}, 1, 0, {reg};"));
                body.push(format!("st.global.b32 [%out+{at}], {word};"));
            }
            ty => body.push(format!("st.global{} [%out+{at}], {reg};", register_type(*ty))),
        }
    }
    body
}

/// One kernel: a parameter with the results' address, then the instances.
pub fn kernel(name: &str, instances: &[&Instance]) -> String {
    let mut registers = vec![("%param".to_string(), ".b64".to_string()), ("%out".to_string(), ".b64".to_string())];
    let mut body = vec!["ld.param.u64 %param, [out];".to_string(), "cvta.to.global.u64 %out, %param;".to_string()];
    for (j, inst) in instances.iter().enumerate() {
        body.extend(instance_body(j, inst, &mut registers));
    }
    let mut text = format!(".visible .entry {name}(.param .u64 out)\n{{\n");
    for (reg, ty) in &registers {
        text.push_str(&format!("  .reg {ty} {reg};\n"));
    }
    for line in body {
        text.push_str(&format!("  {line}\n"));
    }
    text.push_str("}\n");
    text
}

/// Chunks of instances, one variant each, in order.
fn chunks(instances: &[Instance]) -> Vec<Vec<usize>> {
    let mut by_variant: Vec<(Variant, Vec<usize>)> = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        match by_variant.iter_mut().find(|(v, _)| *v == inst.variant) {
            Some((_, list)) => list.push(i),
            None => by_variant.push((inst.variant, vec![i])),
        }
    }
    by_variant
        .into_iter()
        .flat_map(|(_, list)| list.chunks(PER_KERNEL).map(<[usize]>::to_vec).collect::<Vec<_>>())
        .collect()
}

/// Assemble every instance with `ptxas -O3`, disassemble, compare.
pub fn run(ptxas: &Tool, cuobjdump: &Tool, instances: &[Instance]) -> Result<Vec<Row>, ToolError> {
    let groups = chunks(instances);
    let kernels: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(k, g)| kernel(&format!("fold{k}"), &g.iter().map(|&i| &instances[i]).collect::<Vec<_>>()))
        .collect();
    let scratch = Scratch::new()?;
    let cubin = scratch.dir.join("fold.cubin");
    let each = assemble_each(ptxas, &NEWEST.header(), &kernels, super::syntax::ARCH, &["-O3"], Some(&cubin))?;
    let listing =
        if each.rejected.iter().all(Option::is_some) { String::new() } else { disassemble(cuobjdump, &cubin)? };
    let functions = functions(&listing);
    let mut rows: Vec<Option<Row>> = vec![None; instances.len()];
    for (k, group) in groups.iter().enumerate() {
        let found: BTreeMap<u64, Stored> = functions
            .get(&format!("fold{k}"))
            .map(|f| stores(f).into_iter().map(|s| (s.offset, s.value)).collect())
            .unwrap_or_default();
        for (j, &i) in group.iter().enumerate() {
            let outputs = instances[i].variant.outputs().len();
            let vendor: Vec<Result<u128, String>> = (0..outputs)
                .map(|n| match found.get(&((j * SLOT + n * OUTPUT_SLOT) as u64)) {
                    Some(Stored::Constant(v)) => Ok(*v),
                    Some(Stored::NotFolded(op)) => Err(op.clone()),
                    None => Err("no store".into()),
                })
                .collect();
            rows[i] = Some(row(&instances[i], &vendor, each.rejected[k].clone()));
        }
    }
    let mut rows: Vec<Row> = rows.into_iter().flatten().collect();
    let order: Vec<String> = Variant::all().iter().map(|v| v.to_string()).collect();
    let rank = |r: &Row| order.iter().position(|n| *n == r.variant).unwrap_or(usize::MAX);
    rows.sort_by(|a, b| (rank(a), &a.origin, &a.inputs).cmp(&(rank(b), &b.origin, &b.inputs)));
    Ok(rows)
}

/// Compare one instance's model outputs with ptxas's.
pub fn row(inst: &Instance, vendor: &[Result<u128, String>], rejected: Option<String>) -> Row {
    let outs = inst.variant.outputs();
    let model: Vec<Option<u128>> = match inst.variant {
        Variant::Shfl(shfl) => warp_model(shfl, &inst.inputs),
        v => v.run(&inst.inputs).into_iter().map(|o| o.map(|b| b.unsigned())).collect(),
    };
    let widths: Vec<u32> = outs.iter().map(|o| o.ty.width()).collect();
    let vendor: Vec<Result<u128, String>> =
        vendor.iter().zip(&widths).map(|(v, &w)| v.clone().map(|x| x & mask(w))).collect();
    let verdict = if rejected.is_some() {
        "rejected"
    } else if model.iter().zip(&vendor).any(|(m, v)| matches!((m, v), (Some(m), Ok(v)) if m != v)) {
        "disagree"
    } else if vendor.iter().any(Result::is_err) {
        "not folded"
    } else if model.iter().any(Option::is_none) {
        "vendor picks"
    } else {
        "agree"
    };
    let matches = inst.readings.as_ref().filter(|_| rejected.is_none()).map(|(columns, rows)| {
        columns
            .iter()
            .enumerate()
            .filter(|(c, _)| {
                rows.iter().zip(&vendor).all(|(row, v)| matches!((row.get(*c), v), (Some(Some(x)), Ok(y)) if x == y))
            })
            .map(|(_, name)| name.clone())
            .collect()
    });
    // A shuffle's inputs are its operands' (see `warp_instances`).
    let input_ops: Vec<_> = match inst.variant {
        Variant::Shfl(_) => inst.variant.operands().into_iter().filter(|o| !o.is_dest()).collect(),
        v => v.inputs(),
    };
    Row {
        variant: inst.variant.to_string(),
        origin: inst.origin.clone(),
        inputs: inst.inputs.iter().zip(&input_ops).map(|(v, o)| hex(*v, o.ty.width())).collect(),
        model: model.iter().zip(&widths).map(|(m, &w)| m.map_or("unspecified".into(), |v| hex(v, w))).collect(),
        vendor: vendor
            .iter()
            .zip(&widths)
            .map(|(v, &w)| match v {
                Ok(x) => hex(*x, w),
                Err(op) => format!("not folded ({op})"),
            })
            .collect(),
        verdict: verdict.to_string(),
        matches,
        error: rejected,
    }
}

pub const VERDICTS: [&str; 5] = ["agree", "disagree", "vendor picks", "not folded", "rejected"];

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(name: &str, inputs: &[u128]) -> Instance {
        Instance {
            variant: Variant::from_mnemonic(name).unwrap(),
            inputs: inputs.to_vec(),
            origin: "test".into(),
            readings: None,
        }
    }

    #[test]
    fn an_instance_moves_its_constants_and_stores_its_results() {
        let mut regs = Vec::new();
        let body = instance_body(2, &instance("lop3.or.b32", &[0xf0, 0xcc, 0xaa, 0x80, 0]), &mut regs);
        assert_eq!(
            body,
            [
                "mov.b32 %i2_2, 0x000000f0;",
                "mov.b32 %i2_3, 0x000000cc;",
                "mov.b32 %i2_4, 0x000000aa;",
                "setp.ne.u32 %i2_6, 0, 0;",
                "lop3.or.b32 %o2_0|%o2_1, %i2_2, %i2_3, %i2_4, 0x80, %i2_6;",
                "st.global.b32 [%out+64], %o2_0;",
                "selp.b32 %s2_1, 1, 0, %o2_1;",
                "st.global.b32 [%out+80], %s2_1;",
            ]
        );
    }

    #[test]
    fn a_shuffle_of_constants_is_compared_with_lane_0_of_a_full_warp() {
        let shuffles = warp_instances();
        assert_eq!(shuffles.len(), 8);
        assert!(shuffles.iter().all(|i| matches!(i.variant, Variant::Shfl(s) if s.sync) && i.inputs.len() == 4));
        let down = shuffles.iter().find(|i| i.variant.to_string() == "shfl.sync.down.b32 d|p").unwrap();
        // Lane 0 reads lane 1's a, which every lane holds: in range.
        let r = row(down, &[Err("SHFL.DOWN".into()), Err("SHFL.DOWN".into())], None);
        assert_eq!((r.model.clone(), r.verdict.as_str()), (vec!["0x00000100".into(), "0x1".into()], "not folded"));
        assert_eq!(r.inputs, ["0x00000100", "0x00000001", "0x0000001f", "0xffffffff"]);
        // Were ptxas to fold it, lane 0's values decide.
        assert_eq!(row(down, &[Ok(0x100), Ok(1)], None).verdict, "agree");
        assert_eq!(row(down, &[Ok(0x101), Ok(1)], None).verdict, "disagree");
    }

    #[test]
    fn verdicts_tell_apart_agreement_folding_and_unspecified() {
        let add = instance("add.u32", &[5, 7]);
        assert_eq!(row(&add, &[Ok(12)], None).verdict, "agree");
        assert_eq!(row(&add, &[Ok(13)], None).verdict, "disagree");
        assert_eq!(row(&add, &[Err("IADD3".into())], None).verdict, "not folded");
        let div = instance("div.u32", &[7, 0]);
        assert_eq!(row(&div, &[Ok(0xffffffff)], None).verdict, "vendor picks");
        assert_eq!(row(&add, &[Ok(12)], Some("error".into())).verdict, "rejected");
    }

    #[test]
    fn samples_are_deterministic_and_cover_every_foldable_variant() {
        let a = sample_instances(3);
        let b = sample_instances(3);
        assert_eq!(
            a.iter().map(|i| i.inputs.clone()).collect::<Vec<_>>(),
            b.iter().map(|i| i.inputs.clone()).collect::<Vec<_>>()
        );
        assert_eq!(a.len(), 3 * Variant::sampled().iter().filter(|v| foldable(v)).count());
    }
}
