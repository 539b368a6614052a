//! `ptxcheck eval`: run one instruction with immediate operands on the
//! concrete semantics.

use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::{OperandType, Variant};
use ptx_spec::parse::{parse_instruction, OperandText, ParseError};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error("operand {operand} is the register `{token}`: eval needs an immediate value for every source operand")]
    Register { token: String, operand: String },
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
    let instr = parse_instruction(text)?;
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
    let outs = instr.variant.semantics(&Concrete, &inputs);
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
