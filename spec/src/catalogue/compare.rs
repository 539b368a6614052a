//! Sections 9.7.6.1-2: set and setp, the forms with integer and bit-size
//! operands (the float `.stype`s are read by the passes that need no model).
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::compare`.
//!
//! A variant is the mnemonic (comparison, Boolean operator, types) and the
//! operand form the Syntax leaves to the operands: `!c` in place of `c`, and
//! for setp `p|q` in place of `p`. Each is its own variant, as shfl's `d|p`
//! is, so that every form is proven on its own.

use super::{Family, Operand, OperandType, PtxVersion, Requirement, Target, Type};
use crate::assumption::{
    Assumption, COMPARE_NOT_C, COMPARE_NO_BOOLOP, COMPARE_ORDER_BY_TYPE, COMPARE_Q, COMPARE_SET_F32_ONE,
};
use std::fmt;

/// A comparison operator of the Syntax's `.CmpOp` that applies to integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// lower, lower-or-same, higher, higher-or-same: the unsigned spellings
    /// of lt, le, gt, ge.
    Lo,
    Ls,
    Hi,
    Hs,
}

impl CmpOp {
    /// In the order of the Syntax's `.CmpOp` list.
    pub const ALL: [CmpOp; 10] =
        [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Lo, CmpOp::Ls, CmpOp::Hi, CmpOp::Hs];

    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
            CmpOp::Lo => "lo",
            CmpOp::Ls => "ls",
            CmpOp::Hi => "hi",
            CmpOp::Hs => "hs",
        }
    }

    /// The operators the Integer Notes give each kind of type: eq and ne
    /// for the bit-size types; eq..ge for the signed; those and lo..hs for
    /// the unsigned (9.7.6.1-2, Integer Notes; ptxas agrees, rejecting the
    /// others with "Mismatch between instruction type and comparison
    /// qualifier").
    pub fn for_type(ty: Type) -> &'static [CmpOp] {
        match ty {
            Type::B16 | Type::B32 | Type::B64 => &CmpOp::ALL[..2],
            Type::S16 | Type::S32 | Type::S64 => &CmpOp::ALL[..6],
            _ => &CmpOp::ALL,
        }
    }
}

/// The Syntax's `.BoolOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

impl BoolOp {
    pub const ALL: [BoolOp; 3] = [BoolOp::And, BoolOp::Or, BoolOp::Xor];

    pub fn name(self) -> &'static str {
        match self {
            BoolOp::And => "and",
            BoolOp::Or => "or",
            BoolOp::Xor => "xor",
        }
    }
}

/// The second line of each Syntax block: the comparison combined with the
/// predicate `c`, or with `!c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Combine {
    pub op: BoolOp,
    /// The operand is written `!c`.
    pub not_c: bool,
}

impl Combine {
    /// No Boolean operator, then each operator with `c` and with `!c`.
    pub fn forms() -> [Option<Combine>; 7] {
        let mut forms = [None; 7];
        for (i, op) in BoolOp::ALL.into_iter().enumerate() {
            forms[1 + 2 * i] = Some(Combine { op, not_c: false });
            forms[2 + 2 * i] = Some(Combine { op, not_c: true });
        }
        forms
    }
}

/// What the instruction writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dest {
    /// set's `d` of `.dtype`: `.u32`, `.s32` or `.f32`.
    Set(Type),
    /// setp's `p`, and `q` where the operands are written `p|q`.
    Setp { q: bool },
}

/// set's `.dtype`s, in the Syntax's order.
pub const SET_DTYPES: [Type; 3] = [Type::U32, Type::S32, Type::F32];

/// The integer and bit-size `.stype`s of set and the `.type`s of setp, in
/// the Syntax's order.
pub const TYPES: [Type; 9] =
    [Type::B16, Type::B32, Type::B64, Type::U16, Type::U32, Type::U64, Type::S16, Type::S32, Type::S64];

/// `set.CmpOp{.BoolOp}.dtype.stype d, a, b{, {!}c}` or
/// `setp.CmpOp{.BoolOp}.type p[|q], a, b{, {!}c}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Compare {
    pub dest: Dest,
    pub cmp: CmpOp,
    pub combine: Option<Combine>,
    /// `.stype` (set) or `.type` (setp): the type of `a` and `b`.
    pub ty: Type,
}

impl Compare {
    /// The comparison is signed: an operator of order on a signed type
    /// (assumption compare-order-by-type).
    pub fn signed(&self) -> bool {
        self.ty.is_signed()
    }
}

impl Compare {
    /// Whether the variant is in the covering sample: one form for each
    /// operator at each type, chosen so that every Boolean form meets every
    /// destination among them (set: 54 forms, 7 Boolean forms by 3
    /// `.dtype`s; setp: 54, 7 by `p` and `p|q`). The checks that read
    /// each form's terms alike (the mutants, the exported functions run on
    /// values) run on it; the proofs run on every form.
    pub fn in_sample(&self) -> bool {
        let pairs = TYPES.iter().flat_map(|&ty| CmpOp::for_type(ty).iter().map(move |&cmp| (cmp, ty)));
        let Some(i) = pairs.into_iter().position(|p| p == (self.cmp, self.ty)) else { return false };
        let dest = match self.dest {
            Dest::Set(_) => Dest::Set(SET_DTYPES[i % SET_DTYPES.len()]),
            Dest::Setp { .. } => Dest::Setp { q: i % 2 == 1 },
        };
        self.combine == Combine::forms()[i % 7] && self.dest == dest
    }
}

impl Family for Compare {
    /// set before setp; within each, by type, then operator, then the
    /// Boolean form, then (set) the destination type or (setp) `p|q` after
    /// `p`.
    fn all() -> Vec<Compare> {
        let dests: [Vec<Dest>; 2] =
            [SET_DTYPES.iter().map(|&t| Dest::Set(t)).collect(), vec![Dest::Setp { q: false }, Dest::Setp { q: true }]];
        let mut all = Vec::new();
        for dests in &dests {
            for ty in TYPES {
                for &cmp in CmpOp::for_type(ty) {
                    for combine in Combine::forms() {
                        all.extend(dests.iter().map(|&dest| Compare { dest, cmp, combine, ty }));
                    }
                }
            }
        }
        all
    }

    fn opcode(&self) -> &'static str {
        match self.dest {
            Dest::Set(_) => "set",
            Dest::Setp { .. } => "setp",
        }
    }

    fn section(&self) -> &'static str {
        match self.dest {
            Dest::Set(_) => "9.7.6.1",
            Dest::Setp { .. } => "9.7.6.2",
        }
    }

    fn mnemonic(&self) -> String {
        let combine = self.combine.map_or(String::new(), |c| format!(".{}", c.op.name()));
        let dtype = match self.dest {
            Dest::Set(t) => t.to_string(),
            Dest::Setp { .. } => String::new(),
        };
        format!("{}.{}{combine}{dtype}{}", self.opcode(), self.cmp.name(), self.ty)
    }

    fn operands(&self) -> Vec<Operand> {
        let mut ops = match self.dest {
            Dest::Set(dtype) => vec![Operand::dest("d", dtype.operand())],
            Dest::Setp { q } => {
                // The sink `_` may stand for either destination (9.7.6.2).
                let p = Operand { sink: true, ..Operand::dest("p", OperandType::Pred) };
                let mut ops = vec![p];
                if q {
                    ops.push(Operand { piped: true, sink: true, ..Operand::dest("q", OperandType::Pred) });
                }
                ops
            }
        };
        let t = self.ty.operand();
        ops.extend([Operand::src("a", t), Operand::src("b", t)]);
        if let Some(Combine { not_c, .. }) = self.combine {
            ops.push(Operand { negated: not_c, ..Operand::src("c", OperandType::Pred) });
        }
        ops
    }

    /// Both since PTX 1.0 on every target: the Target ISA Notes restrict
    /// only the .f64 source type.
    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(1, 0), target: Target::All }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        let mut all = Vec::new();
        if !matches!(self.cmp, CmpOp::Eq | CmpOp::Ne) {
            all.push(&COMPARE_ORDER_BY_TYPE);
        }
        match self.combine {
            None => all.push(&COMPARE_NO_BOOLOP),
            Some(Combine { not_c: true, .. }) => all.push(&COMPARE_NOT_C),
            Some(_) => {}
        }
        match self.dest {
            Dest::Set(Type::F32) => all.push(&COMPARE_SET_F32_ONE),
            Dest::Setp { q: true } => all.push(&COMPARE_Q),
            _ => {}
        }
        all
    }
}

impl fmt::Display for Compare {
    /// The mnemonic, then the operand form where it is not the plain one:
    /// `setp.lt.s32 p|q`, `set.eq.and.u32.b32 !c`, `setp.lt.or.u64 p|q !c`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mnemonic())?;
        if self.dest == (Dest::Setp { q: true }) {
            write!(f, " p|q")?;
        }
        if matches!(self.combine, Some(Combine { not_c: true, .. })) {
            write!(f, " !c")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Variant;

    #[test]
    fn counts_and_names() {
        let all = Compare::all();
        // 18 operators a width (2 bit-size, 10 unsigned, 6 signed) at 3
        // widths, 7 Boolean forms, 3 set destinations and 2 setp ones.
        assert_eq!(all.len(), 54 * 7 * 5);
        let names: Vec<String> = all.iter().map(|c| c.to_string()).collect();
        assert_eq!(names[0], "set.eq.u32.b16");
        assert!(names.contains(&"set.lt.and.f32.s32".to_string()));
        assert!(names.contains(&"setp.lt.and.s32 p|q".to_string()));
        assert!(names.contains(&"setp.hs.xor.u64 p|q !c".to_string()));
        assert!(!names.iter().any(|n| n.starts_with("setp.lo.s") || n.starts_with("setp.lt.b")));
        let v = Variant::from_mnemonic("setp.lt.or.u64 p|q !c").unwrap();
        assert_eq!(v.mnemonic(), "setp.lt.or.u64");
        assert_eq!(v.inputs().iter().map(|o| o.name).collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(v.outputs().iter().map(|o| o.name).collect::<Vec<_>>(), ["p", "q"]);
        // The sample: 54 forms of each instruction, every Boolean form at
        // every destination among them.
        let sample: Vec<&Compare> = all.iter().filter(|c| c.in_sample()).collect();
        assert_eq!(sample.len(), 108);
        for dest in [Dest::Set(Type::U32), Dest::Set(Type::F32), Dest::Setp { q: false }, Dest::Setp { q: true }] {
            for combine in Combine::forms() {
                assert!(sample.iter().any(|c| c.dest == dest && c.combine == combine), "{dest:?} {combine:?}");
            }
        }
        let v = Variant::from_mnemonic("set.ne.f32.u16").unwrap();
        assert_eq!(v.inputs().iter().map(|o| o.ty.width()).collect::<Vec<_>>(), [16, 16]);
        assert_eq!(v.outputs()[0].ty, OperandType::Bits(32));
    }
}
