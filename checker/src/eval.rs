//! `ptxcheck eval`: run one instruction on the concrete semantics, with
//! immediate operands, or on the 32 lanes of a warp with per-lane register
//! values (`--lanes`), as shfl needs.

use crate::ptx::parse::{
    immediate, integer, is_identifier, parse_instruction, parse_integer, shown, IntegerError, OperandText, ParseError,
};
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::shfl::WARP;
use ptx_spec::catalogue::{OperandType, Variant};
use ptx_spec::family::shfl::Warp;
use ptx_spec::hardware::Model;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(
        "operand {operand} is the register `{}`: give an immediate, or its value in every lane with --lanes '{}=...'",
        shown(token),
        shown(token)
    )]
    Register { token: String, operand: String },
    /// `reason` names any token it quotes through [`shown`] already.
    #[error("{}: {reason}", argument("--lanes", spec))]
    BadLanes { spec: String, reason: String },
    #[error("{}: {error}", argument("--lanes", spec))]
    LaneValue { spec: String, error: ParseError },
    #[error("--lanes gives `{}`, which the instruction does not read (it reads: {})", shown(name), names(reads))]
    UnusedLanes { name: String, reads: Vec<String> },
    #[error("{}: expected a 32-bit lane mask such as 0xffffffff", argument("--active", token))]
    BadActive { token: String },
}

/// Bad input, as every evaluation error is.
impl From<EvalError> for crate::error::Error {
    fn from(e: EvalError) -> crate::error::Error {
        crate::error::Error::Usage(crate::error::chain(&e))
    }
}

/// A flag's argument as a message names it: ``bad --lanes `a=1..` `` or,
/// where it is empty, `empty --lanes`, so that no message quotes nothing.
pub fn argument(flag: &str, value: &str) -> String {
    if value.is_empty() {
        format!("empty {flag}")
    } else {
        format!("bad {flag} `{}`", shown(value))
    }
}

/// Register names for a message: each shown, the first few only.
pub fn names(list: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut text: Vec<String> = list.iter().take(SHOWN).map(|n| shown(n)).collect();
    if list.len() > SHOWN {
        text.push(format!("… {} in all", list.len()));
    }
    if text.is_empty() {
        "none".into()
    } else {
        text.join(", ")
    }
}

/// One written output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The destination as written in the instruction (`d`, `%r1`).
    pub name: String,
    pub ty: OperandType,
    /// `None` where the spec leaves the result unspecified.
    pub value: Option<BitVec>,
}

/// The result of evaluating one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub variant: Variant,
    pub written: Vec<Written>,
}

pub fn evaluate(text: &str) -> Result<Evaluation, EvalError> {
    evaluate_in(text, Model::Spec)
}

/// [`evaluate`] with the concrete semantics of `model`.
pub fn evaluate_in(text: &str, model: Model) -> Result<Evaluation, EvalError> {
    let instr = parse_instruction(text)?;
    if instr.variant.is_warp_wide() {
        return Err(EvalError::Parse(ParseError::Unexpected {
            token: instr.variant.mnemonic(),
            reason: "acts on the whole warp; evaluate it with evaluate_warp".into(),
        }));
    }
    let operands = instr.variant.operands();
    let mut inputs = Vec::new();
    for (op, written) in operands.iter().zip(&instr.operands) {
        if op.is_dest() {
            continue;
        }
        match written {
            OperandText::Imm(v) => inputs.push(*v),
            OperandText::Reg(r) => return Err(EvalError::Register { token: r.clone(), operand: op.name.to_string() }),
            OperandText::Sink => unreachable!("the parser only accepts `_` as a destination"),
        }
    }
    let outs = instr.variant.semantics_in(model, &Concrete, &inputs);
    let dests = operands.iter().zip(&instr.operands).filter(|(op, _)| op.is_dest());
    let written = dests
        .zip(outs)
        .filter_map(|((op, text), out)| match text {
            OperandText::Reg(name) => {
                Some(Written { name: name.clone(), ty: op.ty, value: out.defined.then_some(out.value) })
            }
            _ => None, // the sink `_` discards its value
        })
        .collect();
    Ok(Evaluation { variant: instr.variant, written })
}

/// The values of one register in the 32 lanes, from `--lanes NAME=VALUES`:
/// one value for every lane (`7`), a range of 32 (`0..31`, `100..131`), or
/// 32 values separated by commas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneValues {
    /// The argument as given.
    pub spec: String,
    pub register: String,
    /// The values as written, one per lane.
    pub tokens: Vec<String>,
}

impl LaneValues {
    pub fn parse(spec: &str) -> Result<LaneValues, EvalError> {
        let bad = |reason: &str| EvalError::BadLanes { spec: spec.to_string(), reason: reason.to_string() };
        let (name, values) = spec.split_once('=').ok_or_else(|| bad("expected NAME=VALUES"))?;
        let (name, values) = (name.trim(), values.trim());
        if name.is_empty() {
            return Err(bad("no register name before `=`"));
        }
        // The carry flag (9.7.2) is no register of the syntax, but a
        // program that reads it first takes its value as an input.
        if !is_identifier(name) && name != ptx_spec::catalogue::carry::FLAG_NAME {
            return Err(bad(&format!("`{}` is not a register name", shown(name))));
        }
        let tokens: Vec<String> = if let Some((from, to)) = values.split_once("..") {
            let number = |t: &str| match integer(t.trim()) {
                Ok(v) => Ok(v),
                Err(_) if t.trim().is_empty() => Err(bad("a range needs a first and a last value, as in 0..31")),
                Err(IntegerError::TooLarge) => {
                    Err(bad(&format!("`{}` is out of range (over 128 bits)", shown(t.trim()))))
                }
                Err(IntegerError::Malformed) => Err(bad(&format!("`{}` is not an integer", shown(t.trim())))),
            };
            let (from, to) = (number(from)?, number(to)?);
            // Checked: the ends may be any 128-bit integers.
            let span = to.checked_sub(from).and_then(|d| d.checked_add(1));
            if span != Some(WARP as i128) {
                let span = span.map_or("over 2^127".to_string(), |n| n.to_string());
                return Err(bad(&format!("a range gives one value per lane, so it must span 32 values, not {span}")));
            }
            (from..=to).map(|v| v.to_string()).collect()
        } else if values.contains(',') {
            let tokens: Vec<String> = values.split(',').map(|t| t.trim().to_string()).collect();
            if tokens.len() != WARP {
                return Err(bad(&format!(
                    "a list gives one value per lane, so it needs 32 values, not {}",
                    tokens.len()
                )));
            }
            if let Some(lane) = tokens.iter().position(String::is_empty) {
                return Err(bad(&format!("the value for lane {lane} is missing")));
            }
            tokens
        } else if values.is_empty() {
            return Err(bad("no values after `=`"));
        } else {
            vec![values.to_string(); WARP]
        };
        Ok(LaneValues { spec: spec.to_string(), register: name.to_string(), tokens })
    }
}

/// What one output of one lane is after the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneOutput {
    Value(BitVec),
    /// The spec leaves the result unspecified (division by zero, ...).
    Unspecified,
    /// shfl read lane `source`, which does not execute.
    Unpredictable {
        source: u32,
    },
    /// The lane does not execute: nothing is written.
    NotWritten,
}

/// One lane of a warp evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneRow {
    pub lane: usize,
    pub executes: bool,
    /// The source operands' values in this lane.
    pub inputs: Vec<BitVec>,
    /// For shfl, the lane `a` was read from.
    pub source: Option<u32>,
    pub outputs: Vec<LaneOutput>,
}

/// One instruction run on every lane of a warp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpEvaluation {
    pub variant: Variant,
    /// The instruction as given.
    pub text: String,
    /// Bit `l`: lane `l` is active with its guard predicate true.
    pub active: u32,
    /// Source operands as `name` or `name (register)`.
    pub input_names: Vec<String>,
    /// Written destinations as `name` or `name (register)`; the sink `_` is left out.
    pub output_names: Vec<String>,
    pub output_types: Vec<OperandType>,
    pub rows: Vec<LaneRow>,
}

/// The lane mask of `--active`.
pub fn parse_active(token: &str) -> Result<u32, EvalError> {
    parse_integer(token.trim())
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| EvalError::BadActive { token: token.to_string() })
}

/// Run `text` on every lane of a warp: registers take their per-lane values
/// from `lanes`, immediates are the same in every lane, and only the lanes in
/// `active` execute.
pub fn evaluate_warp(text: &str, lanes: &[LaneValues], active: u32) -> Result<WarpEvaluation, EvalError> {
    evaluate_warp_in(text, lanes, active, Model::Spec)
}

/// [`evaluate_warp`] with the concrete semantics of `model`.
pub fn evaluate_warp_in(
    text: &str,
    lanes: &[LaneValues],
    active: u32,
    model: Model,
) -> Result<WarpEvaluation, EvalError> {
    let instr = parse_instruction(text)?;
    let operands = instr.variant.operands();
    let named = |name: &str, written: &OperandText| match written {
        OperandText::Reg(r) if r != name => format!("{name} ({r})"),
        _ => name.to_string(),
    };
    // Each source operand's value in every lane.
    let mut columns: Vec<Vec<BitVec>> = Vec::new();
    let mut input_names = Vec::new();
    let mut reads = Vec::new();
    for (op, written) in operands.iter().zip(&instr.operands) {
        if op.is_dest() {
            continue;
        }
        input_names.push(named(op.name, written));
        columns.push(match written {
            OperandText::Imm(v) => vec![*v; WARP],
            OperandText::Reg(r) => {
                reads.push(r.clone());
                let given = lanes
                    .iter()
                    .rev()
                    .find(|l| &l.register == r)
                    .ok_or_else(|| EvalError::Register { token: r.clone(), operand: op.name.to_string() })?;
                given
                    .tokens
                    .iter()
                    .map(|t| immediate(t, op))
                    .collect::<Result<_, _>>()
                    .map_err(|error| EvalError::LaneValue { spec: given.spec.clone(), error })?
            }
            OperandText::Sink => unreachable!("the parser only accepts `_` as a destination"),
        });
    }
    if let Some(unused) = lanes.iter().find(|l| !reads.contains(&l.register)) {
        return Err(EvalError::UnusedLanes { name: unused.register.clone(), reads });
    }
    let dests: Vec<(usize, String, OperandType)> = operands
        .iter()
        .zip(&instr.operands)
        .filter(|(op, _)| op.is_dest())
        .enumerate()
        .filter(|(_, (_, text))| !matches!(text, OperandText::Sink))
        .map(|(i, (op, text))| (i, named(op.name, text), op.ty))
        .collect();
    let in_lane = |lane: usize| -> Vec<BitVec> { columns.iter().map(|c| c[lane]).collect() };
    let executes = |lane: usize| active >> lane & 1 == 1;
    let rows: Vec<LaneRow> = match instr.variant {
        Variant::Shfl(shfl) => {
            let column = |i: usize| std::array::from_fn(|l| columns[i][l].unsigned() as u32);
            // shfl.sync's membermask is its fourth source; shfl has none.
            let membermask = if shfl.sync { column(3) } else { [u32::MAX; WARP] };
            let warp = Warp { a: column(0), b: column(1), c: column(2), membermask, active };
            warp.run_in(shfl, model)
                .into_iter()
                .enumerate()
                .map(|(lane, r)| {
                    let d = match r.d {
                        Some(v) => LaneOutput::Value(BitVec::new(32, v.into())),
                        None if !r.takes_part => LaneOutput::Unspecified,
                        None if r.executes => LaneOutput::Unpredictable { source: r.source },
                        None => LaneOutput::NotWritten,
                    };
                    let p = match r.p {
                        Some(p) => LaneOutput::Value(BitVec::new(1, p.into())),
                        None if !r.takes_part => LaneOutput::Unspecified,
                        None => LaneOutput::NotWritten,
                    };
                    let all = [d, p];
                    let outputs = dests.iter().map(|(i, _, _)| all[*i]).collect();
                    LaneRow { lane, executes: r.executes, inputs: in_lane(lane), source: Some(r.source), outputs }
                })
                .collect()
        }
        variant => (0..WARP)
            .map(|lane| {
                let inputs = in_lane(lane);
                let outputs =
                    if executes(lane) {
                        let outs = variant.semantics_in(model, &Concrete, &inputs);
                        dests
                            .iter()
                            .map(|(i, _, _)| {
                                if outs[*i].defined {
                                    LaneOutput::Value(outs[*i].value)
                                } else {
                                    LaneOutput::Unspecified
                                }
                            })
                            .collect()
                    } else {
                        vec![LaneOutput::NotWritten; dests.len()]
                    };
                LaneRow { lane, executes: executes(lane), inputs, source: None, outputs }
            })
            .collect(),
    };
    Ok(WarpEvaluation {
        variant: instr.variant,
        // White space as one space: a carriage return or other control
        // character that separates tokens is not printed raw.
        text: text.trim().trim_end_matches(';').split_whitespace().collect::<Vec<_>>().join(" "),
        active,
        input_names,
        output_names: dests.iter().map(|(_, n, _)| n.clone()).collect(),
        output_types: dests.iter().map(|(_, _, t)| *t).collect(),
        rows,
    })
}
