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

use ptx_spec::catalogue::{OperandType, Role, Variant};

use super::fold::Instance;
use super::kernel::{register_type, Setting, NEWEST, SHFL_LEGAL};
use crate::error::Error;
use crate::eval::{evaluate_warp, LaneOutput, LaneValues};
use crate::output::Output;

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

fn hex(value: u128, width: u32) -> String {
    format!("{value:#0w$x}", w = width.div_ceil(4).max(1) as usize + 2)
}

/// The line prefix of an instance's result.
fn instance_label(inst: &Instance) -> String {
    let ops = inst.variant.inputs();
    let inputs: Vec<String> = inst.inputs.iter().zip(&ops).map(|(v, o)| hex(*v, o.ty.width())).collect();
    format!("inst {} {}", inst.variant, inputs.join(" "))
}

fn shfl_label(case: &ShflCase) -> String {
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
            body.push(match o.ty {
                OperandType::Pred => format!("setp.ne.u64 {reg}, %w, 0;"),
                OperandType::Bits(64) => format!("mov.b64 {reg}, %w;"),
                OperandType::Bits(w) => format!("cvt.u{w}.u64 {reg}, %w;"),
            });
            tokens.push((reg, o.piped));
        }
        let mut groups: Vec<String> = Vec::new();
        for (t, piped) in tokens {
            match groups.last_mut() {
                Some(last) if piped => {
                    last.push('|');
                    last.push_str(&t);
                }
                _ => groups.push(t),
            }
        }
        body.push(format!("{} {};", inst.variant.mnemonic(), groups.join(", ")));
        for (n, (reg, ty)) in outputs.iter().enumerate() {
            let at = (j * 2 + n) * 8;
            body.push(match ty {
                OperandType::Pred => format!("selp.u64 %w, 1, 0, {reg};"),
                OperandType::Bits(64) => format!("mov.b64 %w, {reg};"),
                OperandType::Bits(w) => format!("cvt.u64.u{w} %w, {reg};"),
            });
            body.push(format!("st.global.u64 [%out+{at}], %w;"));
        }
    }
    with_params(name, &regs, &body)
}

fn with_params(name: &str, regs: &[(String, String)], body: &[String]) -> String {
    let mut text = format!(".visible .entry {name}(.param .u64 in, .param .u64 out)\n{{\n");
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
        body.push(format!("{} {dest}, %a, {:#x}, {:#x};", case.variant.mnemonic(), case.b, case.c));
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

/// Instances per kernel.
const PER_KERNEL: usize = 128;

/// The files of the program: name and contents.
pub fn program(instances: &[Instance], shfl: &[ShflCase]) -> Vec<(&'static str, String)> {
    let chunks: Vec<&[Instance]> = instances.chunks(PER_KERNEL).collect();
    let setting: Setting = NEWEST;
    let mut ptx = setting.header();
    let mut tables = String::from("// Generated by `ptxcheck hw emit`.\nstatic const Group GROUPS[] = {\n");
    let mut data = String::new();
    let mut labels = String::new();
    let mut outs = String::new();
    let mut active = String::new();
    let (mut word, mut label) = (0usize, 0usize);
    for (k, chunk) in chunks.iter().enumerate() {
        let refs: Vec<&Instance> = chunk.iter().collect();
        ptx.push_str(&instance_kernel(&format!("inst{k}"), &refs));
        let _ = writeln!(tables, "  {{\"inst{k}\", 0, 1, {}, {word}, {label}}},", chunk.len());
        for inst in chunk.iter() {
            let mut words = inst
                .variant
                .inputs()
                .iter()
                .zip(&inst.inputs)
                .filter(|(o, _)| o.role != Role::Imm)
                .map(|(_, v)| format!("{:#x}ull", v))
                .collect::<Vec<_>>();
            words.resize(WORDS_IN, "0".into());
            let _ = writeln!(data, "  {},", words.join(", "));
            let _ = writeln!(labels, "  \"{}\",", instance_label(inst));
            let _ = write!(outs, "{},", inst.variant.outputs().len());
            active.push_str("1ull,");
            word += WORDS_IN;
            label += 1;
        }
    }
    let mut shfl_ptx = SHFL_LEGAL.header();
    for (k, chunk) in shfl.chunks(16).enumerate() {
        shfl_ptx.push_str(&shfl_kernel(&format!("shfl{k}"), chunk));
        let _ = writeln!(tables, "  {{\"shfl{k}\", 1, 32, {}, {word}, {label}}},", chunk.len());
        for case in chunk {
            let lanes: Vec<String> = (0..32).map(|i| format!("{:#x}ull", case.base + i)).collect();
            let _ = writeln!(data, "  {},", lanes.join(", "));
            let _ = writeln!(labels, "  \"{}\",", shfl_label(case));
            let _ = write!(outs, "{},", case.variant.outputs().len());
            let _ = write!(active, "{:#x}ull,", case.active);
            word += 32;
            label += 1;
        }
    }
    tables.push_str("};\n");
    let tables = format!("{tables}static const unsigned long long INPUTS[] = {{\n{data}  0}};\nstatic const char *LABELS[] = {{\n{labels}  0}};\nstatic const unsigned char OUTPUTS[] = {{{outs}0}};\nstatic const unsigned long long ACTIVE[] = {{{active}0}};\n");
    vec![
        ("ptxcheck_hw.ptx", ptx),
        ("ptxcheck_hw_shfl.ptx", shfl_ptx),
        ("ptxcheck_hw_tables.h", tables),
        ("ptxcheck_hw.cpp", HOST.to_string()),
        ("Makefile", MAKEFILE.to_string()),
    ]
}

/// The names of the program's files, in the order [`program`] gives them.
pub const FILES: [&str; 5] =
    ["ptxcheck_hw.ptx", "ptxcheck_hw_shfl.ptx", "ptxcheck_hw_tables.h", "ptxcheck_hw.cpp", "Makefile"];

/// Write the program's files to `output` ([`FILES`] in its folder).
pub fn emit(output: &Output, instances: &[Instance], shfl: &[ShflCase]) -> Result<usize, Error> {
    let files = program(instances, shfl);
    assert!(files.iter().map(|(name, _)| *name).eq(FILES), "FILES names the program's files");
    let texts: Vec<&str> = files.iter().map(|(_, text)| text.as_str()).collect();
    output.write(&texts)?;
    Ok(files.len())
}

const MAKEFILE: &str = include_str!("hw_makefile.txt");
const HOST: &str = include_str!("hw_host.cpp");

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

/// Compare every result line of `text` with the model; `Err` names the
/// first line that cannot be read.
pub fn compare(text: &str) -> Result<Vec<Compared>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("results line {n}: {why}: `{line}`");
        let (left, right) = line.split_once(" -> ").ok_or_else(|| bad("no ` -> `"))?;
        let got: Vec<u128> = right
            .split_whitespace()
            .map(|t| u128::from_str_radix(t.trim_start_matches("0x"), 16).map_err(|_| bad("not a hex value")))
            .collect::<Result<_, _>>()?;
        let tokens: Vec<&str> = left.split_whitespace().collect();
        let (model, widths): (Vec<Option<u128>>, Vec<u32>) = match tokens.first() {
            Some(&"inst") if tokens.len() >= 2 => {
                let v = Variant::from_mnemonic(tokens[1]).ok_or_else(|| bad("unknown variant"))?;
                let inputs: Vec<u128> = tokens[2..]
                    .iter()
                    .map(|t| u128::from_str_radix(t.trim_start_matches("0x"), 16).map_err(|_| bad("bad input")))
                    .collect::<Result<_, _>>()?;
                if inputs.len() != v.inputs().len() {
                    return Err(bad("wrong number of inputs"));
                }
                let model = v.run(&inputs).into_iter().map(|o| o.map(|b| b.unsigned())).collect();
                (model, v.outputs().iter().map(|o| o.ty.width()).collect())
            }
            Some(&"shfl") if tokens.len() == 8 => {
                let field = |key: &str| -> Result<u32, String> {
                    let t = tokens.iter().find_map(|t| t.strip_prefix(key)).ok_or_else(|| bad("missing field"))?;
                    u32::from_str_radix(t.trim_start_matches("0x"), 16).map_err(|_| bad("bad field"))
                };
                let (b, c, active, base) = (field("b=")?, field("c=")?, field("active=")?, field("base=")?);
                let lane = tokens[7].strip_prefix("lane=").and_then(|l| l.parse::<usize>().ok()).filter(|l| *l < 32);
                let lane = lane.ok_or_else(|| bad("bad lane"))?;
                let text = format!("{} {}, a, {b:#x}, {c:#x}", tokens[1], tokens[2]);
                let lanes =
                    LaneValues::parse(&format!("a={}..{}", base, base + 31)).map_err(|e| bad(&e.to_string()))?;
                let e = evaluate_warp(&text, &[lanes], active).map_err(|e| bad(&e.to_string()))?;
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
            _ => return Err(bad("expected `inst` or `shfl` results")),
        };
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
        out.push(Compared {
            line: n,
            label: left.to_string(),
            hardware: show(got.iter().zip(&widths).map(|(g, &w)| hex(*g, w)).collect()),
            model: show(
                model.iter().zip(&widths).map(|(m, &w)| m.map_or("unspecified".to_string(), |v| hex(v, w))).collect(),
            ),
            verdict,
        });
    }
    Ok(out)
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
