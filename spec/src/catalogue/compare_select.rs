//! Section 9.7.6: the comparison and selection instructions. This slice
//! holds the two selections, selp (9.7.6.3) and slct (9.7.6.4), every type
//! of both; the floating-point types are selected as bits. Their semantics
//! are in `crate::family::compare_select`.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use crate::assumption::{Assumption, SELP_FLOAT_BITS, SLCT_F32_TEST};
use std::fmt;

/// The `.type` of selp and the `.dtype` of slct: the same eleven types,
/// every type but `.pred` and the packed ones, in the order of their Syntax
/// blocks (which is `Type::ALL`'s).
pub fn selected_types() -> impl Iterator<Item = Type> {
    Type::ALL.into_iter().filter(|t| *t != Type::Pred && t.lanes() == 1)
}

/// What slct tests the sign of: its second type, `.s32` or `.f32` (the
/// latter with or without `.ftz`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlctTest {
    S32,
    F32 { ftz: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareSelect {
    /// `selp.type d, a, b, c`: `c` is a predicate.
    Selp(Type),
    /// `slct.dtype.s32 d, a, b, c` or `slct{.ftz}.dtype.f32 d, a, b, c`.
    Slct { dtype: Type, test: SlctTest },
}

impl Family for CompareSelect {
    fn all() -> Vec<CompareSelect> {
        let mut all: Vec<CompareSelect> = selected_types().map(CompareSelect::Selp).collect();
        // The Syntax block's two lines: the .s32 test, then .f32 with and without .ftz.
        for test in [SlctTest::S32, SlctTest::F32 { ftz: false }, SlctTest::F32 { ftz: true }] {
            all.extend(selected_types().map(|dtype| CompareSelect::Slct { dtype, test }));
        }
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            CompareSelect::Selp(_) => "selp",
            CompareSelect::Slct { .. } => "slct",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            CompareSelect::Selp(_) => "9.7.6.3",
            CompareSelect::Slct { .. } => "9.7.6.4",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let (ty, c) = match *self {
            CompareSelect::Selp(ty) => (ty, OperandType::Pred),
            CompareSelect::Slct { dtype, .. } => (dtype, OperandType::Bits(32)),
        };
        let t = ty.operand();
        vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t), Operand::src("c", c)]
    }

    /// Both since PTX 1.0; the .f64 type needs sm_13 (the Target ISA Notes
    /// name `selp.f64` and `slct.f64`, the latter meaning its `.dtype`).
    fn requirement(&self) -> Requirement {
        let ty = match *self {
            CompareSelect::Selp(ty) | CompareSelect::Slct { dtype: ty, .. } => ty,
        };
        let target = if ty == Type::F64 { Target::Sm(13) } else { Target::All };
        Requirement { ptx: PtxVersion(1, 0), target }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match *self {
            CompareSelect::Selp(Type::F32 | Type::F64) => vec![&SELP_FLOAT_BITS],
            CompareSelect::Slct { test: SlctTest::F32 { .. }, .. } => vec![&SLCT_F32_TEST],
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for CompareSelect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CompareSelect::Selp(ty) => write!(f, "selp{ty}"),
            CompareSelect::Slct { dtype, test: SlctTest::S32 } => write!(f, "slct{dtype}.s32"),
            CompareSelect::Slct { dtype, test: SlctTest::F32 { ftz } } => {
                write!(f, "slct{}{dtype}.f32", if ftz { ".ftz" } else { "" })
            }
        }
    }
}
