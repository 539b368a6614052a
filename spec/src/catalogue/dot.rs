//! Section 9.7.1.23-24: dp4a, dp2a.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::dot`.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, DOT_ELEMENT_ORDER, WRAPAROUND};
use std::fmt;

/// Which half of b dp2a uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Half {
    Lo,
    Hi,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dot {
    Dp4a { atype: Type, btype: Type },
    Dp2a { half: Half, atype: Type, btype: Type },
}

const TYPES: [Type; 2] = [Type::U32, Type::S32];

impl Family for Dot {
    fn all() -> Vec<Dot> {
        let mut all = Vec::new();
        for atype in TYPES {
            for btype in TYPES {
                all.push(Dot::Dp4a { atype, btype });
            }
        }
        for half in [Half::Lo, Half::Hi] {
            for atype in TYPES {
                for btype in TYPES {
                    all.push(Dot::Dp2a { half, atype, btype });
                }
            }
        }
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            Dot::Dp4a { .. } => "dp4a",
            Dot::Dp2a { .. } => "dp2a",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            Dot::Dp4a { .. } => "9.7.1.23",
            Dot::Dp2a { .. } => "9.7.1.24",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        // c is .u32 when both types are .u32, else .s32: 32 bits either way.
        let b32 = OperandType::Bits(32);
        vec![Operand::dest("d", b32), Operand::src("a", b32), Operand::src("b", b32), Operand::src("c", b32)]
    }

    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(5, 0), target: Target::Sm(61) }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        vec![&WRAPAROUND, &DOT_ELEMENT_ORDER]
    }
}

impl fmt::Display for Dot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dot::Dp4a { atype, btype } => write!(f, "dp4a{atype}{btype}"),
            Dot::Dp2a { half, atype, btype } => {
                let h = match half {
                    Half::Lo => "lo",
                    Half::Hi => "hi",
                };
                write!(f, "dp2a.{h}{atype}{btype}")
            }
        }
    }
}
