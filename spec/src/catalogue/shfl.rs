//! Sections 9.7.9.5 and 9.7.9.6: shfl (deprecated) and shfl.sync, the warp
//! shuffle without and with a member mask.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::shfl`.

use super::{Deprecation, Family, Operand, OperandType, PtxVersion, Requirement, Role, Target};
use crate::assumption::{
    Assumption, SHFL_SOURCE_LANE, SHFL_SYNC_MASK_AGREEMENT, SHFL_SYNC_MEMBERMASK, SHFL_UNPREDICTABLE_SOURCE,
};
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

/// `shfl.mode.b32 d, a, b, c`, or with the predicate destination `d|p`;
/// with `sync`, `shfl.sync.mode.b32 d, a, b, c, membermask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shfl {
    pub mode: Mode,
    /// Writes the predicate `p` too.
    pub pred: bool,
    /// `shfl.sync` (9.7.9.6): the lanes that take part are named by
    /// `membermask`.
    pub sync: bool,
}

/// Where the model's inputs sit: the lane id, the thread's b and c, then
/// every lane's a, every lane's state and every lane's unpredictable value;
/// for shfl.sync, then the thread's membermask and whether each lane
/// executes shfl.sync with that same membermask.
pub mod input {
    use super::WARP;
    pub const LANE: usize = 0;
    pub const B: usize = 1;
    pub const C: usize = 2;
    pub const A: usize = 3;
    pub const ACTIVE: usize = A + WARP;
    pub const UNPREDICTABLE: usize = ACTIVE + WARP;
    /// The inputs of shfl.
    pub const COUNT: usize = UNPREDICTABLE + WARP;
    pub const MEMBERMASK: usize = COUNT;
    pub const AGREES: usize = MEMBERMASK + 1;
    /// The inputs of shfl.sync.
    pub const SYNC_COUNT: usize = AGREES + WARP;
}

/// `a7`, `active7`, `unpredictable7`, `agrees7`: the per-lane inputs' names.
fn lane_name(base: usize, lane: usize) -> &'static str {
    static NAMES: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        ["a", "active", "unpredictable", "agrees"]
            .iter()
            .map(|b| (0..WARP).map(|l| &*Box::leak(format!("{b}{l}").into_boxed_str())).collect())
            .collect()
    });
    names[base][lane]
}

impl Shfl {
    /// Whether the form is in the sample of the checks that run each form's
    /// terms on values or faults (`Variant::sampled`): every shfl form, and
    /// of shfl.sync `.up` with `d|p`, since its member-mask terms are the
    /// same in every form and the rest are shfl's.
    pub fn in_sample(&self) -> bool {
        !self.sync || (self.mode == Mode::Up && self.pred)
    }
}

impl Family for Shfl {
    /// shfl's eight forms (9.7.9.5), then shfl.sync's (9.7.9.6).
    fn all() -> Vec<Shfl> {
        [false, true]
            .into_iter()
            .flat_map(|sync| {
                Mode::ALL.into_iter().flat_map(move |mode| [false, true].map(|pred| Shfl { mode, pred, sync }))
            })
            .collect()
    }

    fn opcode(&self) -> &'static str {
        if self.sync {
            "shfl.sync"
        } else {
            "shfl"
        }
    }

    fn section(&self) -> &'static str {
        if self.sync {
            "9.7.9.6"
        } else {
            "9.7.9.5"
        }
    }

    fn mnemonic(&self) -> String {
        format!("{}.{}.b32", self.opcode(), self.mode.name())
    }

    fn operands(&self) -> Vec<Operand> {
        let b32 = OperandType::Bits(32);
        let mut ops = vec![Operand::dest("d", b32)];
        if self.pred {
            ops.push(Operand { piped: true, ..Operand::dest("p", OperandType::Pred) });
        }
        ops.extend([Operand::src("a", b32), Operand::src("b", b32), Operand::src("c", b32)]);
        if self.sync {
            ops.push(Operand::src("membermask", b32));
        }
        ops
    }

    /// The thread's lane id, b and c; every lane's a, state and
    /// unpredictable value; for shfl.sync, the thread's membermask and
    /// every lane's agreement with it (see [`input`]).
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
        if self.sync {
            ins.push(Operand::src("membermask", b32));
            ins.extend(lanes(3, Role::Warp, OperandType::Pred));
            debug_assert_eq!(ins.len(), input::SYNC_COUNT);
        }
        ins
    }

    fn requirement(&self) -> Requirement {
        // 9.7.9.6: PTX 6.0, sm_30; 9.7.9.5: PTX 3.0, sm_30.
        Requirement { ptx: if self.sync { PtxVersion(6, 0) } else { PtxVersion(3, 0) }, target: Target::Sm(30) }
    }

    fn deprecation(&self) -> Option<Deprecation> {
        (!self.sync).then_some(Deprecation {
            since: PtxVersion(6, 0),
            instead: "shfl.sync",
            removed: Some((PtxVersion(6, 4), 70)),
        })
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        let mut all = vec![&SHFL_SOURCE_LANE, &SHFL_UNPREDICTABLE_SOURCE];
        if self.sync {
            all.extend([&SHFL_SYNC_MEMBERMASK, &SHFL_SYNC_MASK_AGREEMENT]);
        }
        all
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
        assert_eq!(names[8..10], ["shfl.sync.up.b32", "shfl.sync.up.b32 d|p"]);
        assert_eq!(names.len(), 16);
        assert_eq!(Variant::Shfl(Shfl::all()[1]).mnemonic(), "shfl.up.b32");
        let v = Variant::Shfl(Shfl { mode: Mode::Idx, pred: true, sync: false });
        let ins = v.inputs();
        assert_eq!(ins.len(), input::COUNT);
        assert_eq!([ins[0].name, ins[input::A + 7].name, ins[input::ACTIVE].name], ["lane", "a7", "active0"]);
        assert_eq!(v.outputs().iter().map(|o| o.name).collect::<Vec<_>>(), ["d", "p"]);
        let sync = Variant::Shfl(Shfl { mode: Mode::Idx, pred: true, sync: true });
        let ins = sync.inputs();
        assert_eq!(ins.len(), input::SYNC_COUNT);
        assert_eq!([ins[input::MEMBERMASK].name, ins[input::AGREES + 31].name], ["membermask", "agrees31"]);
        assert_eq!(sync.operands().last().map(|o| o.name), Some("membermask"));
        assert_eq!((sync.section(), sync.deprecation()), ("9.7.9.6", None));
    }
}
