//! Section 9.7.1.14-18: popc, clz, bfind, fns, brev.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::bit_count`.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, BFIND_SHIFT_WIDTH, CLZ_MASK_TEST, FNS_BASE, FNS_MIN_OFFSET};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitCount {
    Popc(Type),
    Clz(Type),
    /// `bfind.type`, or `bfind.shiftamt.type`.
    Bfind {
        ty: Type,
        shiftamt: bool,
    },
    Fns,
    Brev(Type),
}

const B_TYPES: [Type; 2] = [Type::B32, Type::B64];

const BFIND_TYPES: [Type; 4] = [Type::U32, Type::U64, Type::S32, Type::S64];

impl Family for BitCount {
    fn all() -> Vec<BitCount> {
        let mut all: Vec<BitCount> = B_TYPES.map(BitCount::Popc).to_vec();
        all.extend(B_TYPES.map(BitCount::Clz));
        for shiftamt in [false, true] {
            all.extend(BFIND_TYPES.map(|ty| BitCount::Bfind { ty, shiftamt }));
        }
        all.push(BitCount::Fns);
        all.extend(B_TYPES.map(BitCount::Brev));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            BitCount::Popc(_) => "popc",
            BitCount::Clz(_) => "clz",
            BitCount::Bfind { .. } => "bfind",
            BitCount::Fns => "fns",
            BitCount::Brev(_) => "brev",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            BitCount::Popc(_) => "9.7.1.14",
            BitCount::Clz(_) => "9.7.1.15",
            BitCount::Bfind { .. } => "9.7.1.16",
            BitCount::Fns => "9.7.1.17",
            BitCount::Brev(_) => "9.7.1.18",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let u32 = OperandType::Bits(32);
        match *self {
            // popc, clz and bfind write a .u32 whatever the operand type.
            BitCount::Popc(t) | BitCount::Clz(t) | BitCount::Bfind { ty: t, .. } => {
                vec![Operand::dest("d", u32), Operand::src("a", t.operand())]
            }
            BitCount::Fns => vec![
                Operand::dest("d", u32),
                Operand::src("mask", u32),
                Operand::src("base", u32),
                Operand::src("offset", u32),
            ],
            BitCount::Brev(t) => vec![Operand::dest("d", t.operand()), Operand::src("a", t.operand())],
        }
    }

    fn requirement(&self) -> Requirement {
        match self {
            BitCount::Fns => Requirement { ptx: PtxVersion(6, 0), target: Target::Sm(30) },
            _ => Requirement { ptx: PtxVersion(2, 0), target: Target::Sm(20) },
        }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            BitCount::Clz(_) => vec![&CLZ_MASK_TEST],
            BitCount::Bfind { ty, .. } if ty.width() == 64 => vec![&BFIND_SHIFT_WIDTH],
            BitCount::Fns => vec![&FNS_BASE, &FNS_MIN_OFFSET],
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for BitCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitCount::Popc(t) | BitCount::Clz(t) | BitCount::Brev(t) => write!(f, "{}{t}", self.opcode()),
            BitCount::Bfind { ty, shiftamt } => write!(f, "bfind{}{ty}", if *shiftamt { ".shiftamt" } else { "" }),
            BitCount::Fns => write!(f, "fns.b32"),
        }
    }
}
