//! Section 9.7.9.7: prmt, the byte permute of a register pair.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::prmt`.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target};
use crate::assumption::{Assumption, PRMT_BYTE_SELECT, PRMT_SOURCE_PAIR};
use std::fmt;

/// A specialised permute: the byte each target position takes is fixed by
/// the two low bits of `c` (9.7.9.7's second table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Forward 4 extract.
    F4e,
    /// Backward 4 extract.
    B4e,
    /// Replicate 8.
    Rc8,
    /// Edge clamp left.
    Ecl,
    /// Edge clamp right.
    Ecr,
    /// Replicate 16.
    Rc16,
}

impl Mode {
    /// In the order of the Syntax block.
    pub const ALL: [Mode; 6] = [Mode::F4e, Mode::B4e, Mode::Rc8, Mode::Ecl, Mode::Ecr, Mode::Rc16];

    pub fn name(self) -> &'static str {
        match self {
            Mode::F4e => "f4e",
            Mode::B4e => "b4e",
            Mode::Rc8 => "rc8",
            Mode::Ecl => "ecl",
            Mode::Ecr => "ecr",
            Mode::Rc16 => "rc16",
        }
    }
}

/// `prmt.b32 d, a, b, c` (the generic form, `mode` none) or
/// `prmt.b32.mode d, a, b, c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Prmt {
    pub mode: Option<Mode>,
}

impl Family for Prmt {
    fn all() -> Vec<Prmt> {
        let mut all = vec![Prmt { mode: None }];
        all.extend(Mode::ALL.map(|m| Prmt { mode: Some(m) }));
        all
    }

    fn opcode(&self) -> &'static str {
        "prmt"
    }

    fn section(&self) -> &'static str {
        "9.7.9.7"
    }

    fn operands(&self) -> Vec<Operand> {
        let b32 = OperandType::Bits(32);
        vec![Operand::dest("d", b32), Operand::src("a", b32), Operand::src("b", b32), Operand::src("c", b32)]
    }

    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(2, 0), target: Target::Sm(20) }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        vec![&PRMT_SOURCE_PAIR, &PRMT_BYTE_SELECT]
    }
}

impl fmt::Display for Prmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mode {
            None => write!(f, "prmt.b32"),
            Some(m) => write!(f, "prmt.b32.{}", m.name()),
        }
    }
}
