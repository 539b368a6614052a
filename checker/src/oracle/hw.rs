//! `ptxcheck hw emit DIR` and `ptxcheck hw compare RESULTS`: the same
//! instances as `vendor fold`, and whole-warp shfl cases under several
//! active masks, run on a GPU.
//!
//! The emitted program needs no CUDA toolkit to build: the kernels are PTX
//! (loaded and compiled for the GPU at hand by the driver), the host is C++
//! that opens the driver library at run time, so `g++` and the driver are
//! enough (the `nvidia-cuda-nvcc-cu12` wheel ships ptxas but not nvcc). The
//! inputs are loaded from memory, so the hardware computes every value.
//!
//! It prints one self-describing line per result, which `hw compare` reads
//! and checks against the model:
//! `inst add.u32 0x00000005 0x00000007 -> 0x0000000c` and
//! `shfl shfl.up.b32 d|p b=0x1 c=0x0 active=0xffffffff base=0x100 lane=3 -> 0x00000102 0x1`.

use std::fmt::Write as _;

use ptx_spec::bv::{hex, parse_hex};
use ptx_spec::catalogue::{Role, Variant};
use rayon::prelude::*;

use super::fold::Instance;
use super::gpu::{Gpu, PARAMS};
use super::kernel::{from_word, instruction, register_type, to_word, NEWEST, SHFL_LEGAL};
use crate::error::Error;
use crate::eval::{evaluate_warp_in, LaneOutput, LaneValues};
use ptx_spec::hardware::Model;

/// One whole-warp shfl case: lane `i` holds `base + i` in `a`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShflCase {
    pub variant: Variant,
    pub b: u32,
    pub c: u32,
    pub active: u32,
    pub base: u32,
}

impl ShflCase {
    /// The form's destinations, `d|p` or `d`.
    fn form(&self) -> &'static str {
        if self.variant.outputs().len() == 2 {
            "d|p"
        } else {
            "d"
        }
    }
}

/// Every shfl variant, with the spec examples' b and c values and more,
/// under every lane active, half, alternate lanes and a sparse mask.
pub fn shfl_cases() -> Vec<ShflCase> {
    let mut out = Vec::new();
    let bc = [(1, 0), (2, 0), (16, 0), (1, 0x1f), (4, 0x1f), (31, 0x1f), (5, 0x1807), (33, 0x1f), (3, 0x0c1f)];
    let masks = [u32::MAX, 0x0000_ffff, 0x5555_5555, 0x8000_0001, 0x0f0f_f0f0];
    for v in Variant::all().into_iter().filter(Variant::is_warp_wide) {
        for (k, (b, c)) in bc.iter().enumerate() {
            for active in masks {
                out.push(ShflCase { variant: v, b: *b, c: *c, active, base: 0x100 * (k as u32 + 1) });
            }
        }
    }
    out
}

/// The line prefix of an instance's result.
fn instance_label(inst: &Instance) -> String {
    let ops = inst.variant.inputs();
    let inputs: Vec<String> = inst.inputs.iter().zip(&ops).map(|(v, o)| hex(*v, o.ty.width())).collect();
    format!("inst {} {}", inst.variant, inputs.join(" "))
}

pub fn shfl_label(case: &ShflCase) -> String {
    format!(
        "shfl {} {} b={:#x} c={:#x} active={:#010x} base={:#x}",
        case.variant.mnemonic(),
        case.form(),
        case.b,
        case.c,
        case.active,
        case.base
    )
}

/// Values move through memory as 64-bit words.
const WORDS_IN: usize = 6;

/// The kernel of a group of instances: inputs from `in`, results to `out`.
fn instance_kernel(name: &str, instances: &[&Instance]) -> String {
    let mut regs: Vec<(String, String)> =
        vec![("%pin".into(), ".b64".into()), ("%pout".into(), ".b64".into()), ("%in".into(), ".b64".into())];
    regs.push(("%out".into(), ".b64".into()));
    regs.push(("%w".into(), ".b64".into()));
    let mut body = vec![
        "ld.param.u64 %pin, [in];".to_string(),
        "ld.param.u64 %pout, [out];".into(),
        "cvta.to.global.u64 %in, %pin;".into(),
        "cvta.to.global.u64 %out, %pout;".into(),
    ];
    for (j, inst) in instances.iter().enumerate() {
        let mut tokens: Vec<(String, bool)> = Vec::new();
        let mut outputs = Vec::new();
        let mut n_in = 0;
        let mut values = inst.inputs.iter();
        for (pos, o) in inst.variant.operands().iter().enumerate() {
            let reg = format!("%r{j}_{pos}");
            if o.is_dest() {
                regs.push((reg.clone(), register_type(o.ty).into()));
                outputs.push((reg.clone(), o.ty));
                tokens.push((reg, o.piped));
                continue;
            }
            let value = *values.next().unwrap_or(&0);
            if o.role == Role::Imm {
                tokens.push((hex(value, o.ty.width()), o.piped));
                continue;
            }
            body.push(format!("ld.global.u64 %w, [%in+{}];", (j * WORDS_IN + n_in) * 8));
            n_in += 1;
            regs.push((reg.clone(), register_type(o.ty).into()));
            body.push(from_word(&reg, o.ty));
            tokens.push((reg, o.piped));
        }
        body.push(instruction(&inst.variant, tokens));
        for (n, (reg, ty)) in outputs.iter().enumerate() {
            let at = (j * 2 + n) * 8;
            body.push(to_word(reg, *ty));
            body.push(format!("st.global.u64 [%out+{at}], %w;"));
        }
    }
    with_params(name, &regs, &body)
}

fn with_params(name: &str, regs: &[(String, String)], body: &[String]) -> String {
    let mut text = format!(".visible .entry {name}{PARAMS}\n{{\n");
    for (reg, ty) in regs {
        let _ = writeln!(text, "  .reg {ty} {reg};");
    }
    for line in body {
        let _ = writeln!(text, "  {line}");
    }
    text.push_str("}\n");
    text
}

/// The shfl kernel: 32 threads; case `j` reads `a` from `in[j*32 + lane]`
/// and writes `d`, `p` to `out[(j*32 + lane)*2 ..]` in its active lanes.
fn shfl_kernel(name: &str, cases: &[ShflCase]) -> String {
    let regs: Vec<(String, String)> = [
        ("%pin", ".b64"),
        ("%pout", ".b64"),
        ("%in", ".b64"),
        ("%out", ".b64"),
        ("%lane", ".b32"),
        ("%lane64", ".b64"),
        ("%a", ".b32"),
        ("%d", ".b32"),
        ("%t", ".b32"),
        ("%w", ".b64"),
        ("%act", ".pred"),
        ("%p", ".pred"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let mut body = vec![
        "ld.param.u64 %pin, [in];".to_string(),
        "ld.param.u64 %pout, [out];".into(),
        "cvta.to.global.u64 %in, %pin;".into(),
        "cvta.to.global.u64 %out, %pout;".into(),
        "mov.u32 %lane, %laneid;".into(),
        "mul.wide.u32 %lane64, %lane, 8;".into(),
        "add.u64 %in, %in, %lane64;".into(),
        "mul.wide.u32 %lane64, %lane, 16;".into(),
        "add.u64 %out, %out, %lane64;".into(),
    ];
    for (j, case) in cases.iter().enumerate() {
        body.push(format!("ld.global.u64 %w, [%in+{}];", j * 32 * 8));
        body.push("cvt.u32.u64 %a, %w;".into());
        body.push(format!("shr.b32 %t, {:#x}, %lane;", case.active));
        body.push("and.b32 %t, %t, 1;".into());
        body.push("setp.eq.u32 %act, %t, 1;".into());
        body.push(format!("@!%act bra SKIP{j};"));
        let dest = if case.form() == "d|p" { "%d|%p" } else { "%d" };
        let operands = format!("{dest}, %a, {:#x}, {:#x}{}", case.b, case.c, membermask(case.variant, case.active));
        body.push(format!("{} {operands};", case.variant.mnemonic()));
        body.push("cvt.u64.u32 %w, %d;".into());
        body.push(format!("st.global.u64 [%out+{}], %w;", j * 32 * 16));
        if case.form() == "d|p" {
            body.push("selp.u64 %w, 1, 0, %p;".into());
            body.push(format!("st.global.u64 [%out+{}], %w;", j * 32 * 16 + 8));
        }
        body.push(format!("SKIP{j}:"));
    }
    with_params(name, &regs, &body)
}

/// shfl.sync's last operand in a case: the lanes that execute it, so that
/// no lane waits for one that branched away (`, 0x...`); nothing for shfl.
fn membermask(variant: Variant, active: u32) -> String {
    if variant.opcode() == "shfl.sync" {
        format!(", {active:#x}")
    } else {
        String::new()
    }
}

/// Instances per kernel.
const PER_KERNEL: usize = 128;

/// One kernel of the program and the cases it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub kernel: String,
    /// A whole-warp shfl kernel (32 lanes a case) or one thread for all its
    /// instances.
    pub shfl: bool,
    /// Instances, or shfl cases, in the kernel.
    pub count: usize,
    /// The group's first input word in [`Program::inputs`].
    pub word: usize,
    /// The group's first case in [`Program::cases`].
    pub first: usize,
}

/// One case's line prefix, result count and active lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub label: String,
    pub outputs: usize,
    /// The lanes that report a result: all lanes of a shfl case that run
    /// the instruction, lane 0 alone for an instance.
    pub active: u32,
}

/// The hardware check: the fold instances and the whole-warp shfl cases as
/// two PTX modules, with their inputs.
#[derive(Clone, Debug)]
pub struct Program {
    pub ptx: String,
    pub shfl_ptx: String,
    pub groups: Vec<Group>,
    pub inputs: Vec<u64>,
    pub cases: Vec<Case>,
}

impl Program {
    pub fn new(instances: &[Instance], shfl: &[ShflCase]) -> Program {
        let mut ptx = NEWEST.header();
        let mut groups = Vec::new();
        let mut inputs = Vec::new();
        let mut cases = Vec::new();
        for (k, chunk) in instances.chunks(PER_KERNEL).enumerate() {
            let refs: Vec<&Instance> = chunk.iter().collect();
            let kernel = format!("inst{k}");
            ptx.push_str(&instance_kernel(&kernel, &refs));
            groups.push(Group { kernel, shfl: false, count: chunk.len(), word: inputs.len(), first: cases.len() });
            for inst in chunk {
                let mut words: Vec<u64> = inst
                    .variant
                    .inputs()
                    .iter()
                    .zip(&inst.inputs)
                    .filter(|(o, _)| o.role != Role::Imm)
                    .map(|(_, v)| *v as u64)
                    .collect();
                words.resize(WORDS_IN, 0);
                inputs.extend(words);
                cases.push(Case { label: instance_label(inst), outputs: inst.variant.outputs().len(), active: 1 });
            }
        }
        let mut shfl_ptx = SHFL_LEGAL.header();
        for (k, chunk) in shfl.chunks(16).enumerate() {
            let kernel = format!("shfl{k}");
            shfl_ptx.push_str(&shfl_kernel(&kernel, chunk));
            groups.push(Group { kernel, shfl: true, count: chunk.len(), word: inputs.len(), first: cases.len() });
            for case in chunk {
                inputs.extend((0..32).map(|i| u64::from(case.base + i)));
                cases.push(Case {
                    label: shfl_label(case),
                    outputs: case.variant.outputs().len(),
                    active: case.active,
                });
            }
        }
        Program { ptx, shfl_ptx, groups, inputs, cases }
    }

    /// Run every kernel on `gpu`; the results file's lines, one per result
    /// (one per active lane of a shfl case), which [`compare`] reads.
    pub fn run(&self, gpu: &Gpu) -> Result<Vec<String>, Error> {
        let modules = [gpu.load(&self.ptx)?, gpu.load(&self.shfl_ptx)?];
        let mut lines = Vec::new();
        for g in &self.groups {
            let kernel = gpu.kernel(&modules[usize::from(g.shfl)], &g.kernel)?;
            let (in_words, out_words, threads) =
                if g.shfl { (g.count * 32, g.count * 32 * 2, 32) } else { (g.count * WORDS_IN, g.count * 2, 1) };
            let input = gpu.upload(&self.inputs[g.word..g.word + in_words])?;
            let mut output = gpu.zeros(out_words)?;
            gpu.launch(&kernel, &input, &mut output, 0, 0, (1, threads))?;
            let mut out = vec![0u64; out_words];
            gpu.download(&output, &mut out)?;
            for (j, case) in self.cases[g.first..g.first + g.count].iter().enumerate() {
                let lanes: Vec<usize> =
                    if g.shfl { (0..32).filter(|l| case.active >> l & 1 == 1).collect() } else { vec![0] };
                for lane in lanes {
                    let at = if g.shfl { (j * 32 + lane) * 2 } else { j * 2 };
                    let values: Vec<String> = out[at..at + case.outputs].iter().map(|v| format!("{v:#x}")).collect();
                    let prefix = if g.shfl { format!("{} lane={lane}", case.label) } else { case.label.clone() };
                    lines.push(format!("{prefix} -> {}", values.join(" ")));
                }
            }
        }
        Ok(lines)
    }
}

/// One result line compared with the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compared {
    pub line: usize,
    pub label: String,
    pub hardware: String,
    pub model: String,
    /// `agree`, `disagree`, `hardware picks` (the model leaves it open).
    pub verdict: &'static str,
}

impl Compared {
    /// The instruction of the case: `inst rem.s32`, `shfl shfl.idx.b32 d|p`.
    pub fn instruction(&self) -> String {
        let n = if self.label.starts_with("shfl ") { 3 } else { 2 };
        self.label.split_whitespace().take(n).collect::<Vec<_>>().join(" ")
    }
}

/// Compare every result line of `text` with the model; `Err` names the
/// first line that cannot be read.
pub fn compare(text: &str) -> Result<Vec<Compared>, String> {
    compare_in(text, Model::Spec)
}

/// [`compare`] against the concrete semantics of `model`. Two formats are
/// read, line by line: `hw run`'s (`inst VARIANT INPUTS -> OUTPUTS`, `shfl
/// ... -> OUTPUTS`), and an edge sweep's (`INSTRUCTION|VALUE OF d`: the
/// instruction on immediates, as PTX writes it). Either way a line's label
/// is `inst VARIANT INPUTS`, so results of both files meet on one input.
pub fn compare_in(text: &str, model: Model) -> Result<Vec<Compared>, String> {
    // Thousands of lines, each with its model run: read side by side, the
    // first bad line (in the file's order) reported.
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    lines.par_iter().map(|&(n, line)| compare_line(n, line, model)).collect::<Vec<_>>().into_iter().collect()
}

/// Result line `n` against `model`.
fn compare_line(n: usize, line: &str, model: Model) -> Result<Compared, String> {
    let bad = |why: &str| format!("results line {n}: {why}: `{line}`");
    let read = if line.contains(" -> ") { run_line(line, model) } else { edge_line(line, model) };
    let Read { label, model, widths, got } = read.map_err(|why| bad(&why))?;
    if got.len() != model.len() {
        return Err(bad("wrong number of results"));
    }
    let got: Vec<u128> = got.iter().zip(&widths).map(|(g, &w)| g & ptx_spec::bv::mask(w)).collect();
    let verdict = if model.iter().zip(&got).any(|(m, g)| m.is_some_and(|m| m != *g)) {
        "disagree"
    } else if model.iter().any(Option::is_none) {
        "hardware picks"
    } else {
        "agree"
    };
    let show = |vals: Vec<String>| vals.join(" ");
    Ok(Compared {
        line: n,
        label,
        hardware: show(got.iter().zip(&widths).map(|(g, &w)| hex(*g, w)).collect()),
        model: show(
            model.iter().zip(&widths).map(|(m, &w)| m.map_or("unspecified".to_string(), |v| hex(v, w))).collect(),
        ),
        verdict,
    })
}

/// One result line read: its label, the model's outputs (`None`: left
/// open), their widths, and the hardware's values.
struct Read {
    label: String,
    model: Vec<Option<u128>>,
    widths: Vec<u32>,
    got: Vec<u128>,
}

/// The model's outputs of `variant` on `inputs`, and their widths.
fn model_outputs(variant: &Variant, inputs: &[u128], model: Model) -> (Vec<Option<u128>>, Vec<u32>) {
    let values = variant.run_in(model, inputs).into_iter().map(|o| o.map(|b| b.unsigned())).collect();
    (values, variant.outputs().iter().map(|o| o.ty.width()).collect())
}

/// A line of `hw run`'s results.
fn run_line(line: &str, model: Model) -> Result<Read, String> {
    let (left, right) = line.split_once(" -> ").ok_or("no ` -> `")?;
    let got: Vec<u128> =
        right.split_whitespace().map(|t| parse_hex(t).ok_or("not a hex value")).collect::<Result<_, _>>()?;
    let tokens: Vec<&str> = left.split_whitespace().collect();
    let (model, widths) = match tokens.first() {
        Some(&"inst") if tokens.len() >= 2 => {
            let v = Variant::from_mnemonic(tokens[1]).ok_or("unknown variant")?;
            let inputs: Vec<u128> =
                tokens[2..].iter().map(|t| parse_hex(t).ok_or("bad input")).collect::<Result<_, _>>()?;
            if inputs.len() != v.inputs().len() {
                return Err("wrong number of inputs".into());
            }
            model_outputs(&v, &inputs, model)
        }
        Some(&"shfl") if tokens.len() == 8 => {
            let field = |key: &str| -> Result<u32, String> {
                let t = tokens.iter().find_map(|t| t.strip_prefix(key)).ok_or("missing field")?;
                Ok(parse_hex(t).and_then(|v| u32::try_from(v).ok()).ok_or("bad field")?)
            };
            let (b, c, active, base) = (field("b=")?, field("c=")?, field("active=")?, field("base=")?);
            let lane = tokens[7].strip_prefix("lane=").and_then(|l| l.parse::<usize>().ok()).filter(|l| *l < 32);
            let lane = lane.ok_or("bad lane")?;
            let variant = Variant::with_mnemonic(tokens[1]).first().copied().ok_or("unknown variant")?;
            let text = format!("{} {}, a, {b:#x}, {c:#x}{}", tokens[1], tokens[2], membermask(variant, active));
            let lanes = LaneValues::parse(&format!("a={}..{}", base, base + 31)).map_err(|e| e.to_string())?;
            let e = evaluate_warp_in(&text, &[lanes], active, model).map_err(|e| e.to_string())?;
            let model = e.rows[lane]
                .outputs
                .iter()
                .map(|o| match o {
                    LaneOutput::Value(v) => Some(v.unsigned()),
                    _ => None,
                })
                .collect();
            (model, e.output_types.iter().map(|t| t.width()).collect())
        }
        _ => return Err("expected `inst` or `shfl` results".into()),
    };
    Ok(Read { label: left.to_string(), model, widths, got })
}

/// A line of an edge sweep: `INSTRUCTION|VALUE`, the instruction's inputs
/// all immediates and VALUE its one destination's.
fn edge_line(line: &str, model: Model) -> Result<Read, String> {
    let (instruction, value) = line.rsplit_once('|').ok_or("expected ` -> ` or `INSTRUCTION|VALUE`")?;
    let got = parse_hex(value).ok_or("not a hex value")?;
    let parsed = crate::ptx::parse::parse_instruction(instruction.trim()).map_err(|e| e.to_string())?;
    let v = parsed.variant;
    if v.outputs().len() != 1 || v.is_warp_wide() {
        return Err("an edge result gives one destination of one thread".into());
    }
    let inputs: Vec<u128> = v
        .operands()
        .iter()
        .zip(&parsed.operands)
        .filter(|(o, _)| !o.is_dest())
        .map(|(_, t)| match t {
            crate::ptx::parse::OperandText::Imm(b) => Ok(b.unsigned()),
            _ => Err("an input that is not an immediate"),
        })
        .collect::<Result<_, _>>()?;
    let label = std::iter::once(format!("inst {v}"))
        .chain(v.inputs().iter().zip(&inputs).map(|(o, x)| hex(*x, o.ty.width())))
        .collect::<Vec<_>>()
        .join(" ");
    let (model, widths) = model_outputs(&v, &inputs, model);
    Ok(Read { label, model, widths, got: vec![got] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_finds_a_wrong_value() {
        let text = "\
# results of ptxcheck_hw
inst add.u32 0x00000005 0x00000007 -> 0x0000000c
inst add.u32 0x00000005 0x00000007 -> 0x0000000d
inst div.u32 0x00000007 0x00000000 -> 0xffffffff
shfl shfl.up.b32 d|p b=0x1 c=0x0 active=0xffffffff base=0x100 lane=3 -> 0x00000102 0x1
shfl shfl.up.b32 d|p b=0x1 c=0x0 active=0xffffffff base=0x100 lane=0 -> 0x00000100 0x0
shfl shfl.bfly.b32 d b=0x1 c=0x1f active=0xffffffff base=0x100 lane=0 -> 0x00000100
";
        let got = compare(text).unwrap();
        let verdicts: Vec<&str> = got.iter().map(|c| c.verdict).collect();
        assert_eq!(verdicts, ["agree", "disagree", "hardware picks", "agree", "agree", "disagree"]);
        assert_eq!(got[1].model, "0x0000000c");
        assert_eq!(got[5].model, "0x00000101");
        assert!(compare("inst nope.u32 1 -> 2").unwrap_err().starts_with("results line 1: unknown variant"));
    }
}
