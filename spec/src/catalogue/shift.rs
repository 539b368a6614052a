//! Section 9.7.8.7-9, the shift instructions: shf, shl, shr.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::shift`.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, SHF_SHIFT_BY_32, SHIFT_CLAMPED_TO_WIDTH};
use std::fmt;

/// Direction of a funnel shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShfDir {
    L,
    R,
}

/// How shf limits its shift amount (9.7.8.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShfMode {
    /// min(c, 32)
    Clamp,
    /// c mod 32
    Wrap,
}

/// A variant of a shift instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shift {
    Shf(ShfDir, ShfMode),
    Shl(Type),
    Shr(Type),
}

const SHL_TYPES: [Type; 3] = [Type::B16, Type::B32, Type::B64];

const SHR_TYPES: [Type; 9] =
    [Type::B16, Type::B32, Type::B64, Type::U16, Type::U32, Type::U64, Type::S16, Type::S32, Type::S64];

impl Family for Shift {
    fn all() -> Vec<Shift> {
        let mut all = Vec::new();
        for dir in [ShfDir::L, ShfDir::R] {
            for mode in [ShfMode::Clamp, ShfMode::Wrap] {
                all.push(Shift::Shf(dir, mode));
            }
        }
        all.extend(SHL_TYPES.map(Shift::Shl));
        all.extend(SHR_TYPES.map(Shift::Shr));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            Shift::Shf(..) => "shf",
            Shift::Shl(_) => "shl",
            Shift::Shr(_) => "shr",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            Shift::Shf(..) => "9.7.8.7",
            Shift::Shl(_) => "9.7.8.8",
            Shift::Shr(_) => "9.7.8.9",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let b32 = OperandType::Bits(32);
        match *self {
            Shift::Shf(..) => {
                vec![Operand::dest("d", b32), Operand::src("a", b32), Operand::src("b", b32), Operand::src("c", b32)]
            }
            // The amount b is 32-bit whatever the type (9.7.8.8-9, Notes).
            Shift::Shl(t) | Shift::Shr(t) => {
                vec![Operand::dest("d", t.operand()), Operand::src("a", t.operand()), Operand::src("b", b32)]
            }
        }
    }

    fn requirement(&self) -> Requirement {
        match self {
            Shift::Shf(..) => Requirement { ptx: PtxVersion(3, 1), target: Target::Sm(32) },
            _ => Requirement { ptx: PtxVersion(1, 0), target: Target::All },
        }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            Shift::Shf(..) => vec![&SHF_SHIFT_BY_32],
            Shift::Shl(_) | Shift::Shr(_) => vec![&SHIFT_CLAMPED_TO_WIDTH],
        }
    }
}

impl fmt::Display for Shift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shift::Shf(dir, mode) => {
                let dir = match dir {
                    ShfDir::L => "l",
                    ShfDir::R => "r",
                };
                let mode = match mode {
                    ShfMode::Clamp => "clamp",
                    ShfMode::Wrap => "wrap",
                };
                write!(f, "shf.{dir}.{mode}.b32")
            }
            Shift::Shl(t) => write!(f, "shl{t}"),
            Shift::Shr(t) => write!(f, "shr{t}"),
        }
    }
}
