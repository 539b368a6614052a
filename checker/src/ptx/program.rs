//! Straight-line PTX: a parser for short programs such as the spec's
//! multi-instruction examples, and an executor generic over the algebra, so
//! that the same program runs on concrete values (`ptxcheck run`) and on
//! symbolic ones (the claims' proofs).
//!
//! A program is a sequence of instructions from the catalogue, each with an
//! optional guard (`@p`, `@!p`), `//` comments and optional register
//! declarations (`.reg .b32 r, s;`, `.reg .pred p<4>;`). A register takes
//! its width from its declaration or else from its first use, and every
//! later use must agree. A register read before any write is an input of
//! the program. A program with a warp-wide instruction (shfl) runs on the 32
//! lanes of a warp, any other on one lane (lanes never interact).

use std::collections::BTreeMap;

use thiserror::Error;

use crate::ptx::parse::{parse_instruction, Instruction, OperandText};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::shfl::{input, WARP};
use ptx_spec::catalogue::{OperandType, Variant};

/// A program rejected, with the line (from 1) it was rejected at.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct ProgramError {
    pub line: usize,
    pub message: String,
}

/// A guard: the predicate register, and whether it is negated (`@!p`).
pub type Guard = (String, bool);

/// One instruction of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line number in the source, from 1.
    pub number: usize,
    pub guard: Option<Guard>,
    pub instruction: Instruction,
}

/// A parsed program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub lines: Vec<Line>,
    /// Every register with its width, in order of first appearance.
    pub registers: Vec<(String, u32)>,
    /// Registers read before they are written, in order of first read.
    pub inputs: Vec<String>,
    /// Registers written, in order of first write.
    pub outputs: Vec<String>,
    /// 32 if some instruction acts on the whole warp, else 1.
    pub lanes: usize,
}

/// A register's value in one lane: its bits and whether they are defined
/// (not unspecified, not unpredictable, written at all).
#[derive(Debug)]
pub struct Value<A: Algebra> {
    pub bits: A::Bv,
    pub defined: A::Bool,
}

// By hand: a derive would ask for `A: Copy`, which the algebra need not be.
impl<A: Algebra> Clone for Value<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for Value<A> {}

impl Program {
    pub fn width(&self, register: &str) -> Option<u32> {
        self.registers.iter().find(|(r, _)| r == register).map(|(_, w)| *w)
    }

    pub fn parse(text: &str) -> Result<Program, ProgramError> {
        let mut widths: Vec<(String, u32)> = Vec::new();
        let mut lines = Vec::new();
        let (mut inputs, mut outputs): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        for (i, raw) in text.lines().enumerate() {
            let number = i + 1;
            let err = |message: String| ProgramError { line: number, message };
            let code = raw.split("//").next().unwrap_or("").trim();
            for statement in code.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                if let Some(decl) = statement.strip_prefix(".reg") {
                    declare(decl, &mut widths).map_err(err)?;
                    continue;
                }
                if statement.ends_with(':') || statement.starts_with("bra") || statement.contains(" bra") {
                    return Err(err(format!(
                        "`{statement}`: labels and branches are not supported (straight-line code only)"
                    )));
                }
                let (guard, rest) = split_guard(statement).map_err(err)?;
                let instruction = parse_instruction(rest).map_err(|e| err(e.to_string()))?;
                let mut use_register = |name: &str, width: u32, what: String| -> Result<(), ProgramError> {
                    match widths.iter().find(|(r, _)| r == name) {
                        Some((_, w)) if *w != width => Err(err(format!(
                            "register `{name}` is {}, but {what} is {}",
                            describe(*w),
                            describe(width)
                        ))),
                        Some(_) => Ok(()),
                        None => {
                            widths.push((name.to_string(), width));
                            Ok(())
                        }
                    }
                };
                if let Some((p, _)) = &guard {
                    use_register(p, 1, "a guard".into())?;
                    if !outputs.contains(p) && !inputs.contains(p) {
                        inputs.push(p.clone());
                    }
                }
                let operands = instruction.variant.operands();
                // Reads first: `add r, r, 1` reads r before writing it.
                for (op, text) in operands.iter().zip(&instruction.operands) {
                    if let (false, OperandText::Reg(r)) = (op.is_dest(), text) {
                        use_register(r, op.ty.width(), format!("operand {} of {}", op.name, instruction.variant))?;
                        if !outputs.contains(r) && !inputs.contains(r) {
                            inputs.push(r.clone());
                        }
                    }
                }
                for (op, text) in operands.iter().zip(&instruction.operands) {
                    if let (true, OperandText::Reg(r)) = (op.is_dest(), text) {
                        use_register(r, op.ty.width(), format!("operand {} of {}", op.name, instruction.variant))?;
                        if !outputs.contains(r) {
                            outputs.push(r.clone());
                        }
                    }
                }
                lines.push(Line { number, guard, instruction });
            }
        }
        if lines.is_empty() {
            return Err(ProgramError { line: 1, message: "no instructions".into() });
        }
        let lanes = if lines.iter().any(|l| l.instruction.variant.is_warp_wide()) { WARP } else { 1 };
        Ok(Program { lines, registers: widths, inputs, outputs, lanes })
    }

    /// Run the program: `inputs` gives every input register's value in every
    /// lane, `active` whether each lane executes at all. Returns every
    /// register's value in every lane at the end.
    pub fn execute<A: Algebra>(
        &self,
        alg: &A,
        inputs: &BTreeMap<String, Vec<A::Bv>>,
        active: &[A::Bool],
    ) -> BTreeMap<String, Vec<Value<A>>> {
        assert_eq!(active.len(), self.lanes, "one activity per lane");
        let yes = alg.bool_constant(true);
        let mut regs: BTreeMap<String, Vec<Value<A>>> = BTreeMap::new();
        for name in &self.inputs {
            let values = &inputs[name];
            assert_eq!(values.len(), self.lanes, "input {name}: one value per lane");
            regs.insert(name.clone(), values.iter().map(|&bits| Value { bits, defined: yes }).collect());
        }
        for line in &self.lines {
            let variant = line.instruction.variant;
            let operands = variant.operands();
            // Which lanes execute this line.
            let executes: Vec<A::Bool> = (0..self.lanes)
                .map(|lane| match &line.guard {
                    None => active[lane],
                    Some((p, negated)) => {
                        let g = regs[p][lane];
                        let set = alg.is_set(g.bits);
                        let taken = if *negated { alg.not(set) } else { set };
                        alg.and(active[lane], taken)
                    }
                })
                .collect();
            // Source operands per lane, each with whether it is defined.
            let sources: Vec<Vec<Value<A>>> = (0..self.lanes)
                .map(|lane| {
                    let sources = operands.iter().zip(&line.instruction.operands).filter(|(op, _)| !op.is_dest());
                    sources
                        .map(|(_, text)| match text {
                            OperandText::Imm(v) => Value { bits: alg.constant(v.width(), v.unsigned()), defined: yes },
                            OperandText::Reg(r) => regs[r][lane],
                            OperandText::Sink => unreachable!("the parser only accepts `_` as a destination"),
                        })
                        .collect()
                })
                .collect();
            let results: Vec<Vec<Value<A>>> = if variant.is_warp_wide() {
                warp_results(alg, &variant, &sources, &executes)
            } else {
                sources
                    .iter()
                    .map(|values| {
                        let bits: Vec<A::Bv> = values.iter().map(|v| v.bits).collect();
                        let defined = values.iter().fold(yes, |acc, v| alg.and(acc, v.defined));
                        variant
                            .semantics(alg, &bits)
                            .into_iter()
                            .map(|o| Value { bits: o.value, defined: alg.and(o.defined, defined) })
                            .collect()
                    })
                    .collect()
            };
            // Write the destinations of the lanes that execute.
            let dests = operands.iter().zip(&line.instruction.operands).filter(|(op, _)| op.is_dest());
            for (k, (op, text)) in dests.enumerate() {
                let OperandText::Reg(r) = text else { continue };
                let width = op.ty.width();
                let old: Vec<Value<A>> = regs.get(r).cloned().unwrap_or_else(|| {
                    let never = Value { bits: alg.constant(width, 0), defined: alg.bool_constant(false) };
                    vec![never; self.lanes]
                });
                let new = (0..self.lanes)
                    .map(|lane| {
                        let (run, out, was) = (executes[lane], results[lane][k], old[lane]);
                        Value {
                            bits: alg.ite(run, out.bits, was.bits),
                            defined: alg.or(alg.and(run, out.defined), alg.and(alg.not(run), was.defined)),
                        }
                    })
                    .collect();
                regs.insert(r.clone(), new);
            }
        }
        regs
    }
}

/// A warp-wide instruction's outputs in every lane: each lane's thread sees
/// every lane's `a` and whether it executes. (The unpredictable values are
/// only read by the SMT encoding; the concrete semantics mark what depends
/// on them undefined.) `d` is defined where the semantics define it, the
/// lane's own b and c are defined, and so is the source lane's a: found by
/// running the same shuffle on each lane's definedness in place of its a.
fn warp_results<A: Algebra>(
    alg: &A,
    variant: &Variant,
    sources: &[Vec<Value<A>>],
    executes: &[A::Bool],
) -> Vec<Vec<Value<A>>> {
    let thread = |lane: usize, a: &dyn Fn(&Vec<Value<A>>) -> A::Bv| {
        let own = &sources[lane];
        let mut ins = vec![alg.constant(5, lane as u128), own[1].bits, own[2].bits];
        ins.extend(sources.iter().map(a));
        ins.extend(executes.iter().map(|&e| alg.bool_to_bv(e)));
        ins.extend((0..WARP).map(|_| alg.constant(32, 0)));
        debug_assert_eq!(ins.len(), input::COUNT);
        variant.semantics(alg, &ins)
    };
    (0..WARP)
        .map(|lane| {
            let outs = thread(lane, &|s| s[0].bits);
            let a_defined = thread(lane, &|s| alg.zero_extend(31, alg.bool_to_bv(s[0].defined)))[0].value;
            let bc_defined = alg.and(sources[lane][1].defined, sources[lane][2].defined);
            outs.into_iter()
                .enumerate()
                .map(|(k, o)| {
                    let defined =
                        if k == 0 { alg.and(o.defined, alg.is_set(alg.bit(a_defined, 0))) } else { o.defined };
                    Value { bits: o.value, defined: alg.and(defined, bc_defined) }
                })
                .collect()
        })
        .collect()
}

fn describe(width: u32) -> String {
    if width == 1 {
        "a predicate".into()
    } else {
        format!("{width}-bit")
    }
}

/// `@p rest` or `@!p rest`: the guard and the instruction.
fn split_guard(statement: &str) -> Result<(Option<Guard>, &str), String> {
    let Some(rest) = statement.strip_prefix('@') else { return Ok((None, statement)) };
    let (negated, rest) = match rest.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let end = rest.find(char::is_whitespace).ok_or_else(|| format!("`{statement}`: a guard needs an instruction"))?;
    let name = &rest[..end];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%')) {
        return Err(format!("`@{name}`: not a predicate register name"));
    }
    Ok((Some((name.to_string(), negated)), rest[end..].trim()))
}

/// `.reg .b32 r, s<4>`: declare registers (`s<4>` is s0..s3).
fn declare(decl: &str, widths: &mut Vec<(String, u32)>) -> Result<(), String> {
    let decl = decl.trim();
    let (ty, names) =
        decl.split_once(char::is_whitespace).ok_or_else(|| format!("`.reg {decl}`: expected a type and names"))?;
    let width = match ty {
        ".pred" => 1,
        ".b16" | ".u16" | ".s16" => 16,
        ".b32" | ".u32" | ".s32" => 32,
        ".b64" | ".u64" | ".s64" => 64,
        _ => return Err(format!("`{ty}`: not an integer or predicate register type")),
    };
    for name in names.split(',').map(str::trim) {
        let expanded: Vec<String> = match name.split_once('<') {
            Some((base, count)) => {
                let n: usize = count
                    .strip_suffix('>')
                    .and_then(|c| c.parse().ok())
                    .ok_or_else(|| format!("`{name}`: expected name<count>"))?;
                (0..n).map(|i| format!("{base}{i}")).collect()
            }
            None => vec![name.to_string()],
        };
        for n in expanded {
            if widths.iter().any(|(r, _)| *r == n) {
                return Err(format!("register `{n}` is declared twice"));
            }
            widths.push((n, width));
        }
    }
    Ok(())
}

/// The operand type a register of `width` bits holds, for messages.
pub fn register_type(width: u32) -> OperandType {
    if width == 1 {
        OperandType::Pred
    } else {
        OperandType::Bits(width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_spec::bv::{BitVec, Concrete};

    fn run(text: &str, inputs: &[(&str, Vec<u128>)]) -> BTreeMap<String, Vec<Option<u128>>> {
        let p = Program::parse(text).unwrap();
        let ins = inputs
            .iter()
            .map(|(n, vs)| (n.to_string(), vs.iter().map(|&v| BitVec::new(p.width(n).unwrap(), v)).collect()))
            .collect();
        let out = p.execute(&Concrete, &ins, &vec![true; p.lanes]);
        out.into_iter().map(|(n, vs)| (n, vs.iter().map(|v| v.defined.then(|| v.bits.unsigned())).collect())).collect()
    }

    #[test]
    fn registers_take_widths_and_inputs_are_read_before_written() {
        let p = Program::parse("add.u32 x, y, 1;\n@p add.u32 x, x, y; // again\nmul.wide.u16 w, h, h;").unwrap();
        assert_eq!(p.inputs, ["y", "p", "h"]);
        assert_eq!(p.outputs, ["x", "w"]);
        assert_eq!((p.width("x"), p.width("p"), p.width("w"), p.width("h")), (Some(32), Some(1), Some(32), Some(16)));
        assert_eq!(p.lanes, 1);
    }

    #[test]
    fn guards_choose_whether_a_line_writes() {
        let text = "add.u32 x, y, 1;\n@p add.u32 x, x, y;\n@!p add.u32 z, y, y;";
        let out = run(text, &[("y", vec![5]), ("p", vec![1])]);
        assert_eq!((out["x"][0], out["z"][0]), (Some(11), None), "z is never written");
        let out = run(text, &[("y", vec![5]), ("p", vec![0])]);
        assert_eq!((out["x"][0], out["z"][0]), (Some(6), Some(10)));
    }

    #[test]
    fn unspecified_results_propagate() {
        let out = run("div.u32 q, a, 0;\nadd.u32 r, q, 1;", &[("a", vec![7])]);
        assert_eq!((out["q"][0], out["r"][0]), (None, None));
    }

    #[test]
    fn shfl_runs_on_the_warp() {
        let text = ".reg .b32 Rx, Ry;\n.reg .pred p;\nshfl.up.b32 Ry|p, Rx, 0x1, 0x0;\n@p add.u32 Rx, Ry, Rx;";
        let out = run(text, &[("Rx", (0..32).map(|l| 1 << l).collect())]);
        assert_eq!(out["Rx"][0], Some(1));
        assert_eq!(out["Rx"][5], Some(0b110000));
    }

    #[test]
    fn bad_programs_name_their_line() {
        let err = |t: &str| Program::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("add.u32 x, y, 1;\nadd.u64 z, x, 1;"),
            "line 2: register `x` is 32-bit, but operand a of add.u64 is 64-bit"
        );
        assert!(err("\n\nfoo.b32 x, y;").starts_with("line 3: unknown opcode `foo` (known: add, sub, sad,"));
        assert_eq!(err("L1:"), "line 1: `L1:`: labels and branches are not supported (straight-line code only)");
        assert_eq!(err(".reg .f32 x;"), "line 1: `.f32`: not an integer or predicate register type");
        assert_eq!(err("@ add.u32 x, y, 1;"), "line 1: `@`: not a predicate register name");
        assert_eq!(err("// nothing"), "line 1: no instructions");
        assert_eq!(
            err("@x add.u32 x, y, 1;"),
            "line 1: register `x` is a predicate, but operand d of add.u32 is 32-bit"
        );
    }
}
