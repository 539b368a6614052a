//! Section 9.7.2: the extended-precision instructions add.cc, addc, sub.cc,
//! subc, mad.cc and madc, which pass a carry (or borrow) from one
//! instruction to the next through the condition code's one flag, `CC.CF`.
//! The variants: their names, operands, requirements and the readings the
//! model adopts. Their semantics are in `crate::family::carry`.
//!
//! The flag is no operand in the Syntax, so [`Family::operands`] does not
//! list it; it is an input of every variant that reads it and an output of
//! every variant that writes it ([`FLAG`], role [`Role::Flag`]), so that the
//! proofs cover both of its values and programs carry it from one
//! instruction to the next.

use super::mul_mad::MulMode;
use super::{Family, Operand, OperandType, PtxVersion, Requirement, Role, Target, Type};
use crate::assumption::{Assumption, BORROW_OUT, CARRY_OUT_UNSIGNED, CC_FLAG_STATE, MAD_CC_PRODUCT_HALVES};
use std::fmt;

/// The condition code's carry flag, as the text names it.
pub const FLAG_NAME: &str = "CC.CF";

/// `CC.CF` as an input or output of a variant: one bit, no operand.
pub const FLAG: Operand =
    Operand { name: FLAG_NAME, role: Role::Flag, ty: OperandType::Pred, piped: false, sink: false, negated: false };

/// The four types of every Syntax block of 9.7.2.
pub const TYPES: [Type; 4] = [Type::U32, Type::S32, Type::U64, Type::S64];

/// What the instruction computes before the carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arith {
    /// `a + b`.
    Add,
    /// `a - b`, with a borrow.
    Sub,
    /// `.hi` or `.lo` half of `a * b`, plus `c`.
    Mad(MulMode),
}

/// A variant of 9.7.2: the arithmetic, whether it reads the flag (the
/// `c`-suffixed instructions: addc, subc, madc) and whether it writes it
/// (`.cc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Carry {
    pub arith: Arith,
    pub carry_in: bool,
    pub carry_out: bool,
    pub ty: Type,
}

impl Carry {
    /// The instruction as its section's heading names it, and the section.
    fn heading(&self) -> (&'static str, &'static str) {
        match (self.arith, self.carry_in) {
            (Arith::Add, false) => ("add.cc", "9.7.2.1"),
            (Arith::Add, true) => ("addc", "9.7.2.2"),
            (Arith::Sub, false) => ("sub.cc", "9.7.2.3"),
            (Arith::Sub, true) => ("subc", "9.7.2.4"),
            (Arith::Mad(_), false) => ("mad.cc", "9.7.2.5"),
            (Arith::Mad(_), true) => ("madc", "9.7.2.6"),
        }
    }
}

impl Family for Carry {
    /// In the order of the sections: add.cc, addc{.cc}, sub.cc, subc{.cc},
    /// mad{.hi,.lo}.cc, madc{.hi,.lo}{.cc}; each over the four types.
    fn all() -> Vec<Carry> {
        let mut all = Vec::new();
        let mut forms = |arith: Arith, carry_in: bool, outs: &[bool]| {
            for &carry_out in outs {
                all.extend(TYPES.map(|ty| Carry { arith, carry_in, carry_out, ty }));
            }
        };
        for arith in [Arith::Add, Arith::Sub] {
            forms(arith, false, &[true]);
            forms(arith, true, &[false, true]);
        }
        for mode in [MulMode::Hi, MulMode::Lo] {
            forms(Arith::Mad(mode), false, &[true]);
        }
        for mode in [MulMode::Hi, MulMode::Lo] {
            forms(Arith::Mad(mode), true, &[false, true]);
        }
        all
    }

    fn opcode(&self) -> &'static str {
        self.heading().0
    }

    fn section(&self) -> &'static str {
        self.heading().1
    }

    fn operands(&self) -> Vec<Operand> {
        let t = self.ty.operand();
        let mut ops = vec![Operand::dest("d", t), Operand::src("a", t), Operand::src("b", t)];
        if let Arith::Mad(_) = self.arith {
            ops.push(Operand::src("c", t));
        }
        ops
    }

    /// The sources, then `CC.CF` where the instruction reads it.
    fn inputs(&self) -> Vec<Operand> {
        let mut ins: Vec<Operand> = self.operands().into_iter().filter(|o| !o.is_dest()).collect();
        if self.carry_in {
            ins.push(FLAG);
        }
        ins
    }

    /// `d`, then `CC.CF` where the instruction writes it.
    fn outputs(&self) -> Vec<Operand> {
        let mut outs: Vec<Operand> = self.operands().into_iter().filter(|o| o.is_dest()).collect();
        if self.carry_out {
            outs.push(FLAG);
        }
        outs
    }

    /// The PTX ISA Notes: the 32-bit forms since 1.2 (add, sub) or 3.0
    /// (mad), the 64-bit ones since 4.3. The Target ISA Notes: add and sub
    /// at 32 bits on all targets, everything else sm_20.
    fn requirement(&self) -> Requirement {
        let wide = self.ty.width() == 64;
        let ptx = match (self.arith, wide) {
            (_, true) => PtxVersion(4, 3),
            (Arith::Mad(_), false) => PtxVersion(3, 0),
            _ => PtxVersion(1, 2),
        };
        let target = match (self.arith, wide) {
            (Arith::Add | Arith::Sub, false) => Target::All,
            _ => Target::Sm(20),
        };
        Requirement { ptx, target }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        let mut list: Vec<&'static Assumption> = match self.arith {
            Arith::Add => vec![&CARRY_OUT_UNSIGNED],
            Arith::Sub => vec![&BORROW_OUT],
            Arith::Mad(_) => vec![&MAD_CC_PRODUCT_HALVES, &CARRY_OUT_UNSIGNED],
        };
        list.push(&CC_FLAG_STATE);
        list
    }
}

impl fmt::Display for Carry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = match self.arith {
            Arith::Mad(MulMode::Hi) => ".hi",
            Arith::Mad(_) => ".lo",
            _ => "",
        };
        let cc = if self.carry_out { ".cc" } else { "" };
        // The mnemonic writes the mode between the name and `.cc`.
        let base = self.opcode().trim_end_matches(".cc");
        write!(f, "{base}{mode}{cc}{}", self.ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Variant;

    #[test]
    fn names_and_the_flag_as_input_and_output() {
        let names: Vec<String> = Carry::all().iter().map(|c| c.to_string()).collect();
        assert_eq!(names.len(), 48);
        assert_eq!(names[..5], ["add.cc.u32", "add.cc.s32", "add.cc.u64", "add.cc.s64", "addc.u32"]);
        assert!(names.contains(&"madc.lo.cc.s64".to_string()));
        assert!(names.contains(&"mad.hi.cc.u32".to_string()));
        let v = Variant::from_mnemonic("madc.hi.cc.u64").unwrap();
        let ins: Vec<&str> = v.inputs().iter().map(|o| o.name).collect();
        assert_eq!(ins, ["a", "b", "c", "CC.CF"]);
        let outs: Vec<&str> = v.outputs().iter().map(|o| o.name).collect();
        assert_eq!(outs, ["d", "CC.CF"]);
        let v = Variant::from_mnemonic("addc.s32").unwrap();
        assert_eq!(v.outputs().len(), 1);
        assert!(v.operands().iter().all(|o| o.role != Role::Flag), "the flag is no operand of the syntax");
    }
}
