//! Section 9.7.9.5: shfl (deprecated), the warp shuffle.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::shfl`.

use super::{Deprecation, Family, Operand, OperandType, PtxVersion, Requirement, Role, Target};
use crate::assumption::{Assumption, SHFL_SOURCE_LANE, SHFL_UNPREDICTABLE_SOURCE};
use std::fmt;
use std::sync::OnceLock;

/// Lanes in a warp.
pub const WARP: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Up,
    Down,
    Bfly,
    Idx,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Up, Mode::Down, Mode::Bfly, Mode::Idx];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Up => "up",
            Mode::Down => "down",
            Mode::Bfly => "bfly",
            Mode::Idx => "idx",
        }
    }
}

/// `shfl.mode.b32 d, a, b, c`, or with the predicate destination `d|p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shfl {
    pub mode: Mode,
    /// Writes the predicate `p` too.
    pub pred: bool,
}

/// Where the model's inputs sit: the lane id, the thread's b and c, then
/// every lane's a, every lane's state and every lane's unpredictable value.
pub mod input {
    use super::WARP;
    pub const LANE: usize = 0;
    pub const B: usize = 1;
    pub const C: usize = 2;
    pub const A: usize = 3;
    pub const ACTIVE: usize = A + WARP;
    pub const UNPREDICTABLE: usize = ACTIVE + WARP;
    pub const COUNT: usize = UNPREDICTABLE + WARP;
}

/// `a7`, `active7`, `unpredictable7`: the per-lane inputs' names.
fn lane_name(base: usize, lane: usize) -> &'static str {
    static NAMES: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        ["a", "active", "unpredictable"]
            .iter()
            .map(|b| (0..WARP).map(|l| &*Box::leak(format!("{b}{l}").into_boxed_str())).collect())
            .collect()
    });
    names[base][lane]
}

impl Family for Shfl {
    fn all() -> Vec<Shfl> {
        Mode::ALL.iter().flat_map(|&mode| [false, true].map(|pred| Shfl { mode, pred })).collect()
    }

    fn opcode(&self) -> &'static str {
        "shfl"
    }

    fn section(&self) -> &'static str {
        "9.7.9.5"
    }

    fn mnemonic(&self) -> String {
        format!("shfl.{}.b32", self.mode.name())
    }

    fn operands(&self) -> Vec<Operand> {
        let b32 = OperandType::Bits(32);
        let mut ops = vec![Operand::dest("d", b32)];
        if self.pred {
            ops.push(Operand { piped: true, ..Operand::dest("p", OperandType::Pred) });
        }
        ops.extend([Operand::src("a", b32), Operand::src("b", b32), Operand::src("c", b32)]);
        ops
    }

    /// The thread's lane id, b and c; every lane's a, state and
    /// unpredictable value (see [`input`]).
    fn inputs(&self) -> Vec<Operand> {
        let b32 = OperandType::Bits(32);
        let lanes = |base: usize, role: Role, ty: OperandType| {
            (0..WARP).map(move |l| Operand {
                name: lane_name(base, l),
                role,
                ty,
                piped: false,
                sink: false,
                negated: false,
            })
        };
        let mut ins = vec![
            Operand {
                name: "lane",
                role: Role::Warp,
                ty: OperandType::Bits(5),
                piped: false,
                sink: false,
                negated: false,
            },
            Operand::src("b", b32),
            Operand::src("c", b32),
        ];
        ins.extend(lanes(0, Role::Src, b32));
        ins.extend(lanes(1, Role::Warp, OperandType::Pred));
        ins.extend(lanes(2, Role::Unpredictable, b32));
        debug_assert_eq!(ins.len(), input::COUNT);
        ins
    }

    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(3, 0), target: Target::Sm(30) }
    }

    fn deprecation(&self) -> Option<Deprecation> {
        Some(Deprecation { since: PtxVersion(6, 0), instead: "shfl.sync", removed: Some((PtxVersion(6, 4), 70)) })
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        vec![&SHFL_SOURCE_LANE, &SHFL_UNPREDICTABLE_SOURCE]
    }
}

impl fmt::Display for Shfl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The two forms share a mnemonic; the name tells them apart.
        write!(f, "{}{}", self.mnemonic(), if self.pred { " d|p" } else { "" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Variant;

    #[test]
    fn catalogue_names_and_inputs() {
        let names: Vec<String> = Shfl::all().iter().map(|s| Variant::Shfl(*s).to_string()).collect();
        assert_eq!(names[..2], ["shfl.up.b32", "shfl.up.b32 d|p"]);
        assert_eq!(names.len(), 8);
        assert_eq!(Variant::Shfl(Shfl::all()[1]).mnemonic(), "shfl.up.b32");
        let v = Variant::Shfl(Shfl { mode: Mode::Idx, pred: true });
        let ins = v.inputs();
        assert_eq!(ins.len(), input::COUNT);
        assert_eq!([ins[0].name, ins[input::A + 7].name, ins[input::ACTIVE].name], ["lane", "a7", "active0"]);
        assert_eq!(v.outputs().iter().map(|o| o.name).collect::<Vec<_>>(), ["d", "p"]);
    }
}
