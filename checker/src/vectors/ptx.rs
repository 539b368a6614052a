//! The suite's self-checking PTX: one module per variant, each thread one
//! vector. Operands, expected values and which outputs the spec defines are
//! loaded from memory (nothing folds); the thread stores its results and,
//! where one differs from a defined expected value, adds one to a mismatch
//! counter, so the device itself says whether the suite passed.
//!
//! Memory, in 64-bit words: input vector `i` at `in[i*S..]` holds the
//! register operands, then the spec's expected outputs, then a flag per
//! output (1 where the spec defines it), `S = k + 2m`; `out[0]` counts the
//! mismatches and `out[1 + i*m + j]` is output `j` of vector `i`. An
//! immediate operand (lop3's immLut) is part of the instruction, so each
//! value it takes has its own kernel, `check0`, `check1`, ... in the order
//! of [`groups`].

use std::collections::BTreeMap;

use ptx_spec::catalogue::{OperandType, Role, Variant};

use super::files::Outcome;
use super::Vector;
use crate::error::Error;
use crate::oracle::gpu::{Gpu, PARAMS};
use crate::oracle::kernel::{from_word, instruction, read_flag, register_type, set_flag, to_word, NEWEST};

/// Threads per block.
const BLOCK: u32 = 256;

/// Whether a variant has a kernel: shfl needs a whole warp per vector.
pub fn has_kernel(v: &Variant) -> bool {
    !v.is_warp_wide()
}

/// The vectors of one variant grouped by their immediate operands' values
/// (one group, keyed by nothing, when it has none).
/// Each vector comes with its number in the suite.
pub fn groups<'a>(vectors: &[(usize, &'a Vector)]) -> BTreeMap<Vec<u128>, Vec<(usize, &'a Vector)>> {
    let mut out: BTreeMap<Vec<u128>, Vec<(usize, &Vector)>> = BTreeMap::new();
    for &(id, v) in vectors {
        let imm: Vec<u128> =
            v.variant.inputs().iter().zip(&v.inputs).filter(|(o, _)| o.role == Role::Imm).map(|(_, &x)| x).collect();
        out.entry(imm).or_default().push((id, v));
    }
    out
}

/// The self-checking kernel `name` of `variant`, with `imm` as its
/// immediate operands' values.
pub fn kernel(variant: &Variant, name: &str, imm: &[u128]) -> String {
    let regs_in = variant.inputs().iter().filter(|o| o.role != Role::Imm).count();
    let m = variant.outputs().len();
    let stride = regs_in + 2 * m;
    let mut regs: Vec<(String, &str)> = [
        ("%pin", ".b64"),
        ("%pout", ".b64"),
        ("%count", ".b64"),
        ("%i", ".b64"),
        ("%t", ".b64"),
        ("%w", ".b64"),
        ("%e", ".b64"),
        ("%f", ".b64"),
        ("%at", ".b64"),
        ("%res", ".b64"),
        ("%old", ".b64"),
        ("%tx", ".b32"),
        ("%cx", ".b32"),
        ("%nx", ".b32"),
        ("%over", ".pred"),
        ("%bad", ".pred"),
    ]
    .iter()
    .map(|(r, t)| (r.to_string(), *t))
    .collect();
    let mut body = crate::oracle::sweep::thread_prologue(&[]);
    body.extend([format!("mul.lo.u64 %at, %i, {};", stride * 8), "add.u64 %at, %pin, %at;".into()]);
    let mut tokens = Vec::new();
    let mut dests = Vec::new();
    let (mut word, mut imms) = (0usize, imm.iter());
    for (pos, o) in variant.operands().iter().enumerate() {
        let reg = format!("%o{pos}");
        if o.is_dest() {
            regs.push((reg.clone(), register_type(o.ty)));
            dests.push((reg.clone(), o.ty));
            tokens.push((reg, o.piped));
        } else if o.role == Role::Imm {
            tokens.push((format!("{:#x}", imms.next().copied().unwrap_or(0)), o.piped));
        } else {
            regs.push((reg.clone(), register_type(o.ty)));
            body.push(format!("ld.global.u64 %w, [%at+{}];", word * 8));
            body.push(from_word(&reg, o.ty));
            tokens.push((reg, o.piped));
            word += 1;
        }
    }
    // 9.7.2: the carry flag is the last input, set just before the
    // instruction, and the last output, read just after it.
    if variant.reads_flag() {
        regs.push(("%cf".into(), ".b32"));
        body.push(format!("ld.global.u64 %w, [%at+{}];", word * 8));
        body.push("cvt.u32.u64 %cf, %w;".into());
        body.extend(set_flag("%cf"));
    }
    body.push(instruction(variant, tokens));
    if variant.writes_flag() {
        regs.push(("%cfo".into(), ".b32"));
        body.push(read_flag("%cfo"));
        dests.push(("%cfo".into(), OperandType::Bits(32)));
    }
    body.push(format!("mul.lo.u64 %res, %i, {};", m * 8));
    body.push("add.u64 %res, %pout, %res;".into());
    for (n, (reg, ty)) in dests.iter().enumerate() {
        body.push(to_word(reg, *ty));
        body.push(format!("st.global.u64 [%res+{}], %w;", 8 + n * 8));
        body.push(format!("ld.global.u64 %e, [%at+{}];", (regs_in + n) * 8));
        body.push(format!("ld.global.u64 %f, [%at+{}];", (regs_in + m + n) * 8));
        // A mismatch only where the spec defines the output.
        body.push("setp.ne.u64 %bad, %w, %e;".into());
        body.push("setp.ne.and.u64 %bad, %f, 0, %bad;".into());
        body.push("@%bad atom.global.add.u64 %old, [%pout], 1;".into());
    }
    body.push("DONE:".into());
    body.push("ret;".into());
    crate::oracle::kernel::entry(name, PARAMS, &regs, &body)
}

/// The module of one variant's vectors: a kernel per group.
pub fn module(variant: &Variant, vectors: &[(usize, &Vector)]) -> String {
    let mut ptx = format!("// ptxcheck conformance vectors: {variant}, {} vectors\n", vectors.len());
    ptx.push_str(&NEWEST.header());
    for (g, imm) in groups(vectors).keys().enumerate() {
        if !imm.is_empty() {
            let values: Vec<String> = imm.iter().map(|x| format!("{x:#x}")).collect();
            ptx.push_str(&format!("// check{g}: immediate {}\n", values.join(", ")));
        }
        ptx.push_str(&kernel(variant, &format!("check{g}"), imm));
    }
    ptx
}

/// The file name of a variant's module.
pub fn file_name(v: &Variant) -> String {
    format!("{v}.ptx")
}

/// The words a group's vectors are uploaded as.
fn words(group: &[(usize, &Vector)]) -> Vec<u64> {
    let mut out = Vec::new();
    for (_, v) in group {
        for (o, &x) in v.variant.inputs().iter().zip(&v.inputs) {
            if o.role != Role::Imm {
                out.push(x as u64);
            }
        }
        out.extend(v.spec.iter().map(|e| e.unwrap_or(0) as u64));
        out.extend(v.spec.iter().map(|e| u64::from(e.is_some())));
    }
    out
}

/// Run one variant's vectors on `gpu`: what the device gave for each, as
/// results (`at` is `VARIANT#N`, N the vector's place in the suite), and
/// the mismatches the device counted against the spec.
pub fn run(gpu: &Gpu, variant: &Variant, vectors: &[(usize, &Vector)]) -> Result<(Vec<Outcome>, u64), Error> {
    let module = gpu.load(&module(variant, vectors))?;
    let m = variant.outputs().len();
    let mut outcomes = Vec::new();
    let mut mismatches = 0;
    for (g, group) in groups(vectors).values().enumerate() {
        let f = gpu.kernel(&module, &format!("check{g}"))?;
        let input = gpu.upload(&words(group))?;
        let mut output = gpu.zeros(1 + group.len() * m)?;
        let count = group.len() as u64;
        gpu.launch(&f, &input, &mut output, 0, count, (count.div_ceil(u64::from(BLOCK)) as u32, BLOCK))?;
        let mut got = vec![0u64; 1 + group.len() * m];
        gpu.download(&output, &mut got)?;
        mismatches += got[0];
        for (j, (id, v)) in group.iter().enumerate() {
            let widths = v.variant.outputs();
            let actual = widths
                .iter()
                .enumerate()
                .map(|(n, o)| u128::from(got[1 + j * m + n]) & ptx_spec::bv::mask(o.ty.width()));
            outcomes.push(Outcome {
                at: format!("{variant}#{id}"),
                variant: *variant,
                inputs: v.inputs.clone(),
                actual: actual.collect(),
                event: None,
                reason: Some(v.reason.label()),
            });
        }
    }
    Ok((outcomes, mismatches))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_checks_each_defined_output() {
        let v = Variant::from_mnemonic("div.u32").unwrap();
        let k = kernel(&v, "check0", &[]);
        assert!(k.contains("ld.global.u64 %w, [%at+8];"), "{k}");
        assert!(k.contains("setp.ne.and.u64 %bad, %f, 0, %bad;"), "{k}");
        assert!(k.contains("@%bad atom.global.add.u64 %old, [%pout], 1;"), "{k}");
        let d = Vector::new(Variant::from_mnemonic("div.u32").unwrap(), vec![7, 0], super::super::Reason::Exhaustive);
        // a, b, the expected value (open: 0) and its flag (0: not checked).
        assert_eq!(words(&[(0, &d)]), vec![7, 0, 0, 0]);
    }
}
