//! Section 9.7.8.1-6, the logic instructions: and, or, xor, not, cnot, lop3.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::logic`.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use std::fmt;

/// The Boolean operation lop3 applies to `d != 0` and `q` (9.7.8.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    Or,
    And,
}

/// A variant of a logic instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Logic {
    And(Type),
    Or(Type),
    Xor(Type),
    Not(Type),
    Cnot(Type),
    /// `lop3.b32`, or `lop3.BoolOp.b32 d|p, ..., q` with a predicate result.
    Lop3(Option<BoolOp>),
}

/// and, or, xor and not accept predicates as well as bit types (9.7.8.1-4).
const BITWISE_TYPES: [Type; 4] = [Type::Pred, Type::B16, Type::B32, Type::B64];

/// cnot has no predicate form (9.7.8.5).
const CNOT_TYPES: [Type; 3] = [Type::B16, Type::B32, Type::B64];

impl Family for Logic {
    fn all() -> Vec<Logic> {
        let mut all = Vec::new();
        for make in [Logic::And, Logic::Or, Logic::Xor, Logic::Not] {
            all.extend(BITWISE_TYPES.map(make));
        }
        all.extend(CNOT_TYPES.map(Logic::Cnot));
        all.extend([None, Some(BoolOp::Or), Some(BoolOp::And)].map(Logic::Lop3));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            Logic::And(_) => "and",
            Logic::Or(_) => "or",
            Logic::Xor(_) => "xor",
            Logic::Not(_) => "not",
            Logic::Cnot(_) => "cnot",
            Logic::Lop3(_) => "lop3",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            Logic::And(_) => "9.7.8.1",
            Logic::Or(_) => "9.7.8.2",
            Logic::Xor(_) => "9.7.8.3",
            Logic::Not(_) => "9.7.8.4",
            Logic::Cnot(_) => "9.7.8.5",
            Logic::Lop3(_) => "9.7.8.6",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let b32 = OperandType::Bits(32);
        match *self {
            Logic::And(t) | Logic::Or(t) | Logic::Xor(t) => {
                let t = t.operand();
                vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t)]
            }
            Logic::Not(t) | Logic::Cnot(t) => {
                let t = t.operand();
                vec![Operand::dest("d", t), Operand::src("a", t)]
            }
            Logic::Lop3(bool_op) => {
                let mut ops = vec![Operand::dest("d", b32)];
                if bool_op.is_some() {
                    // `d|p`, where d may be the sink `_`.
                    ops[0].sink = true;
                    ops.push(Operand { piped: true, ..Operand::dest("p", OperandType::Pred) });
                }
                ops.extend([
                    Operand::src("a", b32),
                    Operand::src("b", b32),
                    Operand::src("c", b32),
                    Operand::imm("immLut", OperandType::Bits(8)),
                ]);
                if bool_op.is_some() {
                    ops.push(Operand::src("q", OperandType::Pred));
                }
                ops
            }
        }
    }

    fn requirement(&self) -> Requirement {
        match self {
            Logic::Lop3(None) => Requirement { ptx: PtxVersion(4, 3), target: Target::Sm(50) },
            Logic::Lop3(Some(_)) => Requirement { ptx: PtxVersion(8, 2), target: Target::Sm(70) },
            _ => Requirement { ptx: PtxVersion(1, 0), target: Target::All },
        }
    }
}

impl fmt::Display for Logic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Logic::And(t) | Logic::Or(t) | Logic::Xor(t) | Logic::Not(t) | Logic::Cnot(t) => {
                write!(f, "{}{t}", self.opcode())
            }
            Logic::Lop3(None) => write!(f, "lop3.b32"),
            Logic::Lop3(Some(BoolOp::Or)) => write!(f, "lop3.or.b32"),
            Logic::Lop3(Some(BoolOp::And)) => write!(f, "lop3.and.b32"),
        }
    }
}
