//! Section 9.7.1.3-6: mul, mad, mul24, mad24.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::mul_mad`.

use super::add_sub::INT_TYPES;
use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, MUL24_LOW_BITS, MUL24_OPERAND_SIGN, SAT_OF_EXACT_RESULT, WRAPAROUND};
use std::fmt;

/// Which part of the product is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MulMode {
    Hi,
    Lo,
    /// The whole double-width product (16- and 32-bit types only).
    Wide,
}

impl MulMode {
    fn name(self) -> &'static str {
        match self {
            MulMode::Hi => "hi",
            MulMode::Lo => "lo",
            MulMode::Wide => "wide",
        }
    }
}

/// A variant of mul, mad, mul24 or mad24.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MulMad {
    Mul(MulMode, Type),
    /// `mad.mode.type`; `sat` only in `mad.hi.sat.s32`.
    Mad {
        mode: MulMode,
        ty: Type,
        sat: bool,
    },
    Mul24(MulMode, Type),
    /// `mad24.mode.type`; `sat` only in `mad24.hi.sat.s32`.
    Mad24 {
        mode: MulMode,
        ty: Type,
        sat: bool,
    },
}

const WIDE_TYPES: [Type; 4] = [Type::U16, Type::U32, Type::S16, Type::S32];

const TYPES_24: [Type; 2] = [Type::U32, Type::S32];

fn modes_and_types() -> Vec<(MulMode, Type)> {
    let mut v = Vec::new();
    for mode in [MulMode::Hi, MulMode::Lo] {
        v.extend(INT_TYPES.map(|t| (mode, t)));
    }
    v.extend(WIDE_TYPES.map(|t| (MulMode::Wide, t)));
    v
}

impl Family for MulMad {
    fn all() -> Vec<MulMad> {
        let mut all: Vec<MulMad> = modes_and_types().into_iter().map(|(m, t)| MulMad::Mul(m, t)).collect();
        all.extend(modes_and_types().into_iter().map(|(mode, ty)| MulMad::Mad { mode, ty, sat: false }));
        all.push(MulMad::Mad { mode: MulMode::Hi, ty: Type::S32, sat: true });
        for mode in [MulMode::Hi, MulMode::Lo] {
            all.extend(TYPES_24.map(|t| MulMad::Mul24(mode, t)));
        }
        for mode in [MulMode::Hi, MulMode::Lo] {
            all.extend(TYPES_24.map(|ty| MulMad::Mad24 { mode, ty, sat: false }));
        }
        all.push(MulMad::Mad24 { mode: MulMode::Hi, ty: Type::S32, sat: true });
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            MulMad::Mul(..) => "mul",
            MulMad::Mad { .. } => "mad",
            MulMad::Mul24(..) => "mul24",
            MulMad::Mad24 { .. } => "mad24",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            MulMad::Mul(..) => "9.7.1.3",
            MulMad::Mad { .. } => "9.7.1.4",
            MulMad::Mul24(..) => "9.7.1.5",
            MulMad::Mad24 { .. } => "9.7.1.6",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let (mode, ty, addend) = match *self {
            MulMad::Mul(mode, ty) | MulMad::Mul24(mode, ty) => (mode, ty, false),
            MulMad::Mad { mode, ty, .. } | MulMad::Mad24 { mode, ty, .. } => (mode, ty, true),
        };
        let n = ty.operand();
        // .wide: d (and mad's c) are twice as wide as a and b (Notes).
        let result = if mode == MulMode::Wide { OperandType::Bits(2 * ty.width()) } else { n };
        let mut ops = vec![Operand::dest("d", result), Operand::src("a", n), Operand::src("b", n)];
        if addend {
            ops.push(Operand::src("c", result));
        }
        ops
    }

    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(1, 0), target: Target::All }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            MulMad::Mul(..) | MulMad::Mad { sat: false, .. } => vec![&WRAPAROUND],
            MulMad::Mad { sat: true, .. } => vec![&SAT_OF_EXACT_RESULT],
            MulMad::Mul24(_, ty) | MulMad::Mad24 { ty, sat: false, .. } if ty.is_signed() => {
                vec![&MUL24_LOW_BITS, &MUL24_OPERAND_SIGN, &WRAPAROUND]
            }
            MulMad::Mul24(..) | MulMad::Mad24 { sat: false, .. } => vec![&MUL24_LOW_BITS, &WRAPAROUND],
            MulMad::Mad24 { sat: true, .. } => vec![&MUL24_LOW_BITS, &MUL24_OPERAND_SIGN, &SAT_OF_EXACT_RESULT],
        }
    }
}

impl fmt::Display for MulMad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mode, ty, sat) = match *self {
            MulMad::Mul(mode, ty) | MulMad::Mul24(mode, ty) => (mode, ty, false),
            MulMad::Mad { mode, ty, sat } | MulMad::Mad24 { mode, ty, sat } => (mode, ty, sat),
        };
        write!(f, "{}.{}{}{ty}", self.opcode(), mode.name(), if sat { ".sat" } else { "" })
    }
}
