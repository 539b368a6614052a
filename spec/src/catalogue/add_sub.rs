//! Section 9.7.1.1, .2, .7, .10, .11: add, sub, sad, abs, neg.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::add_sub`.

use super::{Family, Operand, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, ABS_NEG_MIN, SAT_OF_EXACT_RESULT, WRAPAROUND};
use std::fmt;

/// A variant of add, sub, sad, abs or neg.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddSub {
    /// `add.type`, or `add.sat.s32` when `sat`.
    Add {
        ty: Type,
        sat: bool,
    },
    /// `sub.type`, or `sub.sat.s32` when `sat`.
    Sub {
        ty: Type,
        sat: bool,
    },
    Sad(Type),
    Abs(Type),
    Neg(Type),
}

/// The six scalar integer types most of 9.7.1 accepts.
pub const INT_TYPES: [Type; 6] = [Type::U16, Type::U32, Type::U64, Type::S16, Type::S32, Type::S64];

pub(crate) const SIGNED_TYPES: [Type; 3] = [Type::S16, Type::S32, Type::S64];

impl Family for AddSub {
    fn all() -> Vec<AddSub> {
        let mut all: Vec<AddSub> =
            INT_TYPES.iter().chain(&[Type::U16x2, Type::S16x2]).map(|&ty| AddSub::Add { ty, sat: false }).collect();
        all.push(AddSub::Add { ty: Type::S32, sat: true });
        all.extend(INT_TYPES.map(|ty| AddSub::Sub { ty, sat: false }));
        all.push(AddSub::Sub { ty: Type::S32, sat: true });
        all.extend(INT_TYPES.map(AddSub::Sad));
        all.extend(SIGNED_TYPES.map(AddSub::Abs));
        all.extend(SIGNED_TYPES.map(AddSub::Neg));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            AddSub::Add { .. } => "add",
            AddSub::Sub { .. } => "sub",
            AddSub::Sad(_) => "sad",
            AddSub::Abs(_) => "abs",
            AddSub::Neg(_) => "neg",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            AddSub::Add { .. } => "9.7.1.1",
            AddSub::Sub { .. } => "9.7.1.2",
            AddSub::Sad(_) => "9.7.1.7",
            AddSub::Abs(_) => "9.7.1.10",
            AddSub::Neg(_) => "9.7.1.11",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        match *self {
            AddSub::Add { ty, .. } | AddSub::Sub { ty, .. } => {
                let t = ty.operand();
                vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t)]
            }
            AddSub::Sad(ty) => {
                let t = ty.operand();
                vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t), Operand::src("c", t)]
            }
            AddSub::Abs(ty) | AddSub::Neg(ty) => {
                vec![Operand::dest("d", ty.operand()), Operand::src("a", ty.operand())]
            }
        }
    }

    fn requirement(&self) -> Requirement {
        match self {
            // 9.7.1.1, PTX ISA and Target ISA Notes.
            AddSub::Add { ty: Type::U16x2 | Type::S16x2, .. } => {
                Requirement { ptx: PtxVersion(8, 0), target: Target::Sm(90) }
            }
            _ => Requirement { ptx: PtxVersion(1, 0), target: Target::All },
        }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            AddSub::Add { sat: true, .. } | AddSub::Sub { sat: true, .. } => vec![&SAT_OF_EXACT_RESULT],
            AddSub::Abs(_) | AddSub::Neg(_) => vec![&ABS_NEG_MIN],
            _ => vec![&WRAPAROUND],
        }
    }
}

impl fmt::Display for AddSub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddSub::Add { ty, sat } | AddSub::Sub { ty, sat } => {
                write!(f, "{}{}{ty}", self.opcode(), if *sat { ".sat" } else { "" })
            }
            AddSub::Sad(ty) | AddSub::Abs(ty) | AddSub::Neg(ty) => write!(f, "{}{ty}", self.opcode()),
        }
    }
}
