//! `ptxcheck run`: a straight-line PTX program run on concrete values.

use std::collections::BTreeMap;

use crate::ptx::parse::{escaped, immediate, shown};
use crate::ptx::program::{register_type, Program, ProgramError};
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::Operand;
use ptx_spec::hardware::Model;
use thiserror::Error;

use crate::eval::{argument, names, EvalError, LaneValues};

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RunError {
    /// `file:line:column: message`.
    #[error("{}:{error}", escaped(file))]
    Program { file: String, error: ProgramError },
    #[error(
        "register `{}` is read before it is written: give its value with --set {}=...",
        shown(register),
        shown(register)
    )]
    MissingInput { register: String },
    #[error(
        "--set gives `{}`, which the program does not read before writing it (inputs: {})",
        shown(register),
        names(inputs)
    )]
    NotAnInput { register: String, inputs: Vec<String> },
    #[error("{}: the program runs on one lane, so give one value", argument("--set", spec))]
    OneLane { spec: String },
    /// `reason` names any token it quotes through [`shown`] already.
    #[error("{}: {reason}", argument("--set", spec))]
    BadValue { spec: String, reason: String },
}

/// Bad input, as every program error is.
impl From<RunError> for crate::error::Error {
    fn from(e: RunError) -> crate::error::Error {
        crate::error::Error::Usage(crate::error::chain(&e))
    }
}

/// The program's registers after a run, per lane (`None`: undefined, that
/// is never written in that lane, unspecified or unpredictable).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub lanes: usize,
    pub active: u32,
    /// Registers the program writes, in order of first write.
    pub written: Vec<(String, Vec<Option<BitVec>>)>,
}

/// The text of `file`, whose contents are `bytes`: a file that is not
/// UTF-8 is bad input, reported where it stops being UTF-8.
pub fn text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, RunError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        // The part before the bad byte is valid, so this cannot fail.
        let before = std::str::from_utf8(valid).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        let message = "not UTF-8 text".to_string();
        RunError::Program { file: file.to_string(), error: ProgramError { line, column, message } }
    })
}

/// Run `source` (the text of `file`) with the input values in `set` and the
/// lanes in `active` executing.
pub fn run(file: &str, source: &str, set: &[String], active: u32) -> Result<Run, RunError> {
    run_in(file, source, set, active, Model::Spec)
}

/// [`run`] with the semantics of `model`.
pub fn run_in(file: &str, source: &str, set: &[String], active: u32, model: Model) -> Result<Run, RunError> {
    let program = Program::parse(source).map_err(|error| RunError::Program { file: file.to_string(), error })?;
    let mut inputs: BTreeMap<String, Vec<BitVec>> = BTreeMap::new();
    for spec in set {
        let per_lane = spec.split_once('=').is_some_and(|(_, v)| v.contains(',') || v.contains(".."));
        if program.lanes == 1 && per_lane {
            return Err(RunError::OneLane { spec: spec.clone() });
        }
        // The parser is shared with eval's --lanes; here the flag is --set.
        let given = LaneValues::parse(spec).map_err(|e| match e {
            EvalError::BadLanes { spec, reason } => RunError::BadValue { spec, reason },
            other => RunError::BadValue { spec: spec.clone(), reason: other.to_string() },
        })?;
        if !program.inputs.contains(&given.register) {
            return Err(RunError::NotAnInput { register: given.register, inputs: program.inputs.clone() });
        }
        let tokens = if program.lanes == 1 {
            if given.tokens.iter().any(|t| *t != given.tokens[0]) {
                return Err(RunError::OneLane { spec: spec.clone() });
            }
            vec![given.tokens[0].clone()]
        } else {
            given.tokens.clone()
        };
        let width = program.width(&given.register).expect("an input has a width");
        let op = Operand::src("value", register_type(width));
        let values = tokens
            .iter()
            .map(|t| immediate(t, &op))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| RunError::BadValue { spec: spec.clone(), reason: e.to_string() })?;
        inputs.insert(given.register, values);
    }
    if let Some(missing) = program.inputs.iter().find(|r| !inputs.contains_key(*r)) {
        return Err(RunError::MissingInput { register: missing.clone() });
    }
    let active_lanes: Vec<bool> = (0..program.lanes).map(|l| active >> l & 1 == 1).collect();
    let regs = program.execute_in(model, &Concrete, &inputs, &active_lanes);
    let written = program
        .outputs
        .iter()
        .map(|r| (r.clone(), regs[r].iter().map(|v| v.defined.then_some(v.bits)).collect()))
        .collect();
    Ok(Run { lanes: program.lanes, active: if program.lanes == 1 { active & 1 } else { active }, written })
}
