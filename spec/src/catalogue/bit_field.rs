//! Section 9.7.1.19-22: bfe, bfi, szext, bmsk.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::bit_field`.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, BFE_PAST_MSB, SZEXT_MASK_OR_ZERO};
use std::fmt;

/// How szext and bmsk treat an amount of 32 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Clamp,
    Wrap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitField {
    Bfe(Type),
    Bfi(Type),
    Szext(Mode, Type),
    Bmsk(Mode),
}

const BFE_TYPES: [Type; 4] = [Type::U32, Type::U64, Type::S32, Type::S64];

const BFI_TYPES: [Type; 2] = [Type::B32, Type::B64];

const MODES: [Mode; 2] = [Mode::Clamp, Mode::Wrap];

impl Family for BitField {
    fn all() -> Vec<BitField> {
        let mut all: Vec<BitField> = BFE_TYPES.map(BitField::Bfe).to_vec();
        all.extend(BFI_TYPES.map(BitField::Bfi));
        for mode in MODES {
            all.extend([Type::U32, Type::S32].map(|t| BitField::Szext(mode, t)));
        }
        all.extend(MODES.map(BitField::Bmsk));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            BitField::Bfe(_) => "bfe",
            BitField::Bfi(_) => "bfi",
            BitField::Szext(..) => "szext",
            BitField::Bmsk(_) => "bmsk",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            BitField::Bfe(_) => "9.7.1.19",
            BitField::Bfi(_) => "9.7.1.20",
            BitField::Szext(..) => "9.7.1.21",
            BitField::Bmsk(_) => "9.7.1.22",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let u32 = OperandType::Bits(32);
        match *self {
            // b and c (bfe), c and d (bfi) are .u32; only their low 8 bits count.
            BitField::Bfe(t) => vec![
                Operand::dest("d", t.operand()),
                Operand::src("a", t.operand()),
                Operand::src("b", u32),
                Operand::src("c", u32),
            ],
            BitField::Bfi(t) => vec![
                Operand::dest("f", t.operand()),
                Operand::src("a", t.operand()),
                Operand::src("b", t.operand()),
                Operand::src("c", u32),
                Operand::src("d", u32),
            ],
            BitField::Szext(..) | BitField::Bmsk(_) => {
                vec![Operand::dest("d", u32), Operand::src("a", u32), Operand::src("b", u32)]
            }
        }
    }

    fn requirement(&self) -> Requirement {
        match self {
            BitField::Bfe(_) | BitField::Bfi(_) => Requirement { ptx: PtxVersion(2, 0), target: Target::Sm(20) },
            BitField::Szext(..) | BitField::Bmsk(_) => Requirement { ptx: PtxVersion(7, 6), target: Target::Sm(70) },
        }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            BitField::Bfe(_) => vec![&BFE_PAST_MSB],
            BitField::Szext(..) => vec![&SZEXT_MASK_OR_ZERO],
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for BitField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode_name = |m: &Mode| match m {
            Mode::Clamp => "clamp",
            Mode::Wrap => "wrap",
        };
        match self {
            BitField::Bfe(t) | BitField::Bfi(t) => write!(f, "{}{t}", self.opcode()),
            BitField::Szext(m, t) => write!(f, "szext.{}{t}", mode_name(m)),
            BitField::Bmsk(m) => write!(f, "bmsk.{}.b32", mode_name(m)),
        }
    }
}
