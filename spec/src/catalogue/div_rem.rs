//! Section 9.7.1.8-9: div, rem.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::div_rem`.

use super::add_sub::INT_TYPES;
use super::{Family, Operand, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, DIV_BY_ZERO, DIV_ROUNDING, DIV_SIGNED_OVERFLOW, REM_BY_ZERO, REM_NEGATIVE};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivRem {
    Div(Type),
    Rem(Type),
}

impl Family for DivRem {
    fn all() -> Vec<DivRem> {
        INT_TYPES.map(DivRem::Div).into_iter().chain(INT_TYPES.map(DivRem::Rem)).collect()
    }

    fn opcode(&self) -> &'static str {
        match self {
            DivRem::Div(_) => "div",
            DivRem::Rem(_) => "rem",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            DivRem::Div(_) => "9.7.1.8",
            DivRem::Rem(_) => "9.7.1.9",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let (DivRem::Div(ty) | DivRem::Rem(ty)) = *self;
        let t = ty.operand();
        vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t)]
    }

    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(1, 0), target: Target::All }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            DivRem::Div(t) if t.is_signed() => vec![&DIV_BY_ZERO, &DIV_SIGNED_OVERFLOW, &DIV_ROUNDING],
            DivRem::Div(_) => vec![&DIV_BY_ZERO],
            DivRem::Rem(t) if t.is_signed() => vec![&REM_BY_ZERO, &REM_NEGATIVE],
            DivRem::Rem(_) => vec![&REM_BY_ZERO],
        }
    }
}

impl fmt::Display for DivRem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (DivRem::Div(ty) | DivRem::Rem(ty)) = self;
        write!(f, "{}{ty}", self.opcode())
    }
}
