//! Section 9.7.1.12-13: min, max.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::min_max`.

use super::{Family, Operand, PtxVersion, Requirement, Target, Type};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MinMax {
    Min { ty: Type, relu: bool },
    Max { ty: Type, relu: bool },
}

/// `.atype`: no .relu.
const ATYPES: [Type; 6] = [Type::U16, Type::U32, Type::U64, Type::U16x2, Type::S16, Type::S64];

/// `.btype`: with or without .relu.
const BTYPES: [Type; 2] = [Type::S16x2, Type::S32];

fn forms() -> Vec<(Type, bool)> {
    let mut v: Vec<(Type, bool)> = ATYPES.iter().map(|&t| (t, false)).collect();
    for relu in [false, true] {
        v.extend(BTYPES.map(|t| (t, relu)));
    }
    v
}

impl Family for MinMax {
    fn all() -> Vec<MinMax> {
        let mut all: Vec<MinMax> = forms().into_iter().map(|(ty, relu)| MinMax::Min { ty, relu }).collect();
        all.extend(forms().into_iter().map(|(ty, relu)| MinMax::Max { ty, relu }));
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            MinMax::Min { .. } => "min",
            MinMax::Max { .. } => "max",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            MinMax::Min { .. } => "9.7.1.12",
            MinMax::Max { .. } => "9.7.1.13",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let (MinMax::Min { ty, .. } | MinMax::Max { ty, .. }) = *self;
        let t = ty.operand();
        vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t)]
    }

    fn requirement(&self) -> Requirement {
        let (MinMax::Min { ty, relu } | MinMax::Max { ty, relu }) = *self;
        // The packed forms and .relu came with PTX 8.0 and need sm_90 (Notes).
        if ty.lanes() == 2 || relu {
            Requirement { ptx: PtxVersion(8, 0), target: Target::Sm(90) }
        } else {
            Requirement { ptx: PtxVersion(1, 0), target: Target::All }
        }
    }
}

impl fmt::Display for MinMax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (MinMax::Min { ty, relu } | MinMax::Max { ty, relu }) = self;
        write!(f, "{}{}{ty}", self.opcode(), if *relu { ".relu" } else { "" })
    }
}
