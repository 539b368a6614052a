//! The catalogue: every legal variant of every instruction in scope, with its
//! operands' roles and widths, and its PTX ISA version and target requirement.
//!
//! A variant is a value of [`Variant`]; [`Variant::all`] is the table the
//! checker iterates. Its `Display` is the exact PTX mnemonic, and
//! [`Variant::from_mnemonic`] reads it back.

use std::fmt;

use serde::Serialize;

use crate::assumption::Assumption;
use crate::bv::Algebra;

pub mod add_sub;
pub mod bit_count;
pub mod bit_field;
pub mod carry;
pub mod compare;
pub mod compare_select;
pub mod div_rem;
pub mod dot;
pub mod logic;
pub mod min_max;
pub mod mul_mad;
pub mod prmt;
pub mod shfl;
pub mod shift;

use self::{
    add_sub::AddSub, bit_count::BitCount, bit_field::BitField, carry::Carry, compare::Compare,
    compare_select::CompareSelect, div_rem::DivRem, dot::Dot, logic::Logic, min_max::MinMax, mul_mad::MulMad,
    prmt::Prmt, shfl::Shfl, shift::Shift,
};

/// A PTX type qualifier, as written after the instruction name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Pred,
    B16,
    B32,
    B64,
    U16,
    U32,
    U64,
    S16,
    S32,
    S64,
    /// Two 16-bit lanes in a 32-bit register.
    U16x2,
    S16x2,
    /// The floating-point types, held only as bits: the instructions in
    /// scope that take them (selp, slct) select them without arithmetic.
    F32,
    F64,
}

impl Type {
    /// Every type, in the order of the enum.
    pub const ALL: [Type; 14] = [
        Type::Pred,
        Type::B16,
        Type::B32,
        Type::B64,
        Type::U16,
        Type::U32,
        Type::U64,
        Type::S16,
        Type::S32,
        Type::S64,
        Type::U16x2,
        Type::S16x2,
        Type::F32,
        Type::F64,
    ];

    /// Width in bits; a predicate is one bit.
    pub fn width(self) -> u32 {
        match self {
            Type::Pred => 1,
            Type::B16 | Type::U16 | Type::S16 => 16,
            Type::B32 | Type::U32 | Type::S32 | Type::U16x2 | Type::S16x2 | Type::F32 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
        }
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Type::S16 | Type::S32 | Type::S64 | Type::S16x2)
    }
    /// The signed (`.sN`) or unsigned (`.uN`) type of `width` bits: 16, 32
    /// or 64.
    pub fn integer(width: u32, signed: bool) -> Option<Type> {
        Type::ALL
            .into_iter()
            .find(|t| t.width() == width && t.is_signed() == signed && t.name().starts_with(['s', 'u']))
    }
    /// The number of lanes: 2 for the packed types, else 1.
    pub fn lanes(self) -> u32 {
        match self {
            Type::U16x2 | Type::S16x2 => 2,
            _ => 1,
        }
    }
    /// Width of one lane.
    pub fn lane_width(self) -> u32 {
        self.width() / self.lanes()
    }
    /// The qualifier as written, without the dot.
    pub fn name(self) -> &'static str {
        match self {
            Type::Pred => "pred",
            Type::B16 => "b16",
            Type::B32 => "b32",
            Type::B64 => "b64",
            Type::U16 => "u16",
            Type::U32 => "u32",
            Type::U64 => "u64",
            Type::S16 => "s16",
            Type::S32 => "s32",
            Type::S64 => "s64",
            Type::U16x2 => "u16x2",
            Type::S16x2 => "s16x2",
            Type::F32 => "f32",
            Type::F64 => "f64",
        }
    }
    /// The operand type of a register of this type.
    pub fn operand(self) -> OperandType {
        match self {
            Type::Pred => OperandType::Pred,
            t => OperandType::Bits(t.width()),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}

/// What an operand holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OperandType {
    /// A bit-vector of the given width.
    Bits(u32),
    /// A predicate (one bit).
    Pred,
}

impl OperandType {
    pub fn width(self) -> u32 {
        match self {
            OperandType::Bits(w) => w,
            OperandType::Pred => 1,
        }
    }
}

impl fmt::Display for OperandType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OperandType::Bits(w) => write!(f, "{w}-bit"),
            OperandType::Pred => write!(f, "predicate"),
        }
    }
}

/// The role of an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Written by the instruction.
    Dest,
    /// Read by the instruction: a register or an immediate.
    Src,
    /// Read by the instruction, and must be an integer constant (lop3's immLut).
    Imm,
    /// Not an operand: the state of a lane of the warp (whether it executes).
    Warp,
    /// Not an operand: a value the spec calls unpredictable, an input to the
    /// proof so that it holds whatever the value is.
    Unpredictable,
    /// Not an operand: the condition code's carry flag `CC.CF` (9.7.2),
    /// which an instruction reads or writes without naming it.
    Flag,
}

/// One operand of a variant, in the order the syntax writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Operand {
    pub name: &'static str,
    pub role: Role,
    pub ty: OperandType,
    /// Written joined to the previous operand by `|` (the `p` of `d|p`).
    pub piped: bool,
    /// May be the sink `_` instead of a register.
    pub sink: bool,
    /// Written with `!` before it (set's and setp's `!c`): the instruction
    /// reads the register and takes its complement.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub negated: bool,
}

impl Operand {
    pub const fn dest(name: &'static str, ty: OperandType) -> Operand {
        Operand { name, role: Role::Dest, ty, piped: false, sink: false, negated: false }
    }
    pub const fn src(name: &'static str, ty: OperandType) -> Operand {
        Operand { name, role: Role::Src, ty, piped: false, sink: false, negated: false }
    }
    pub const fn imm(name: &'static str, ty: OperandType) -> Operand {
        Operand { name, role: Role::Imm, ty, piped: false, sink: false, negated: false }
    }
    pub fn is_dest(&self) -> bool {
        self.role == Role::Dest
    }
}

/// A PTX ISA version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PtxVersion(pub u8, pub u8);

impl fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// The oldest target architecture a variant runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    All,
    /// `sm_NN` or higher.
    Sm(u32),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::All => write!(f, "all targets"),
            Target::Sm(n) => write!(f, "sm_{n}+"),
        }
    }
}

/// The PTX ISA version that introduced a variant and the target it requires,
/// from the section's "PTX ISA Notes" and "Target ISA Notes".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Requirement {
    pub ptx: PtxVersion,
    pub target: Target,
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PTX {}, {}", self.ptx, self.target)
    }
}

/// A deprecated instruction: since when, what replaces it, and from which
/// PTX ISA version it is removed for targets `sm_NN` and above.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Deprecation {
    pub since: PtxVersion,
    pub instead: &'static str,
    pub removed: Option<(PtxVersion, u32)>,
}

impl fmt::Display for Deprecation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "deprecated in PTX {} in favour of {}", self.since, self.instead)?;
        if let Some((ptx, sm)) = self.removed {
            write!(f, "; not supported from PTX {ptx} for sm_{sm} and above")?;
        }
        Ok(())
    }
}

/// One output of a semantic function: its value, and whether the spec
/// defines it (`false` where the spec says the result is unspecified or
/// undefined; the value is then meaningless).
#[derive(Clone, Copy, Debug)]
pub struct Out<V, B> {
    pub value: V,
    pub defined: B,
}

/// The outputs of a semantic function, in the order of the variant's
/// destination operands.
pub type Outputs<A> = Vec<Out<<A as Algebra>::Bv, <A as Algebra>::Bool>>;

/// A variant's input values, read by operand name: `ins.get("a")`. Both
/// encodings read their operands this way, so neither depends on the order
/// in which [`Family::inputs`] lists them.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a, V> {
    operands: &'a [Operand],
    values: &'a [V],
}

impl<'a, V: Copy> Inputs<'a, V> {
    /// `values` in the order of `operands` (a variant's [`Family::inputs`]).
    pub fn new(operands: &'a [Operand], values: &'a [V]) -> Inputs<'a, V> {
        assert_eq!(operands.len(), values.len(), "one value per input operand");
        Inputs { operands, values }
    }

    fn index(&self, name: &str) -> usize {
        self.operands.iter().position(|o| o.name == name).unwrap_or_else(|| {
            let names: Vec<&str> = self.operands.iter().map(|o| o.name).collect();
            panic!("no input operand `{name}` among {names:?}")
        })
    }

    /// The value of the input operand `name`. A name the variant does not
    /// have is a bug in the semantics, not in the input: it panics.
    pub fn get(&self, name: &str) -> V {
        self.values[self.index(name)]
    }

    /// The values of `count` consecutive inputs from the one named `first`
    /// (shfl's per-lane inputs `a0`..`a31`).
    pub fn from(&self, first: &str, count: usize) -> &'a [V] {
        let i = self.index(first);
        &self.values[i..i + count]
    }
}

/// An output the spec always defines.
pub fn defined<A: Algebra>(alg: &A, value: A::Bv) -> Out<A::Bv, A::Bool> {
    Out { value, defined: alg.bool_constant(true) }
}

/// What the catalogue says of every instruction family: its variants, their
/// operands, requirements and assumptions. The semantics are not here: the
/// concrete ones are in `crate::family`, the SMT encodings in `ptx-smt`.
pub trait Family: Sized + Copy + fmt::Display {
    /// Every legal variant of the family, in spec order.
    fn all() -> Vec<Self>;
    /// The instruction name (`shf`).
    fn opcode(&self) -> &'static str;
    /// The spec section that defines it.
    fn section(&self) -> &'static str;
    /// The mnemonic as PTX writes it; the variant's name (`Display`) unless
    /// two variants share it.
    fn mnemonic(&self) -> String {
        self.to_string()
    }
    /// Operands in the order the syntax writes them.
    fn operands(&self) -> Vec<Operand>;
    /// The values the semantics read, in order: the source operands, unless
    /// the instruction reads more than its own lane.
    fn inputs(&self) -> Vec<Operand> {
        self.operands().into_iter().filter(|o| !o.is_dest()).collect()
    }
    /// The values the semantics write, in order: the destination operands.
    fn outputs(&self) -> Vec<Operand> {
        self.operands().into_iter().filter(|o| o.is_dest()).collect()
    }
    fn requirement(&self) -> Requirement;
    /// For a deprecated instruction, its deprecation and removal notes.
    fn deprecation(&self) -> Option<Deprecation> {
        None
    }
    /// The readings the model adopts where the spec leaves a case open.
    fn assumptions(&self) -> Vec<&'static Assumption> {
        Vec::new()
    }
}

/// Calls `$body` with `$v` bound to the family value inside a [`Variant`].
#[macro_export]
#[doc(hidden)]
macro_rules! each_family {
    ($self:expr, $v:ident => $body:expr) => {
        match $self {
            Variant::AddSub($v) => $body,
            Variant::MulMad($v) => $body,
            Variant::DivRem($v) => $body,
            Variant::MinMax($v) => $body,
            Variant::BitCount($v) => $body,
            Variant::BitField($v) => $body,
            Variant::Dot($v) => $body,
            Variant::Carry($v) => $body,
            Variant::Logic($v) => $body,
            Variant::Shift($v) => $body,
            Variant::Shfl($v) => $body,
            Variant::Prmt($v) => $body,
            Variant::Compare($v) => $body,
            Variant::CompareSelect($v) => $body,
        }
    };
}

/// A legal variant of an instruction in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Section 9.7.1: add, sub, sad, abs, neg.
    AddSub(AddSub),
    /// Section 9.7.1: mul, mad, mul24, mad24.
    MulMad(MulMad),
    /// Section 9.7.1: div, rem.
    DivRem(DivRem),
    /// Section 9.7.1: min, max.
    MinMax(MinMax),
    /// Section 9.7.1: popc, clz, bfind, fns, brev.
    BitCount(BitCount),
    /// Section 9.7.1: bfe, bfi, szext, bmsk.
    BitField(BitField),
    /// Section 9.7.1: dp4a, dp2a.
    Dot(Dot),
    /// Section 9.7.2: add.cc, addc, sub.cc, subc, mad.cc, madc.
    Carry(Carry),
    /// Section 9.7.8.1-6: and, or, xor, not, cnot, lop3.
    Logic(Logic),
    /// Section 9.7.8.7-9: shf, shl, shr.
    Shift(Shift),
    /// Sections 9.7.9.5-6: shfl (deprecated) and shfl.sync, over the whole warp.
    Shfl(Shfl),
    /// Section 9.7.9.7: prmt.
    Prmt(Prmt),
    /// Section 9.7.6.1-2: set, setp, the integer and bit-size forms.
    Compare(Compare),
    /// Section 9.7.6.3-4: selp, slct.
    CompareSelect(CompareSelect),
}

impl Variant {
    /// Every legal variant, in spec order (9.7.1 by instruction, then 9.7.2,
    /// 9.7.6, 9.7.8 and 9.7.9).
    pub fn all() -> Vec<Variant> {
        let mut all: Vec<Variant> = Vec::new();
        all.extend(AddSub::all().into_iter().map(Variant::AddSub));
        all.extend(MulMad::all().into_iter().map(Variant::MulMad));
        all.extend(DivRem::all().into_iter().map(Variant::DivRem));
        all.extend(MinMax::all().into_iter().map(Variant::MinMax));
        all.extend(BitCount::all().into_iter().map(Variant::BitCount));
        all.extend(BitField::all().into_iter().map(Variant::BitField));
        all.extend(Dot::all().into_iter().map(Variant::Dot));
        all.extend(Carry::all().into_iter().map(Variant::Carry));
        all.extend(Compare::all().into_iter().map(Variant::Compare));
        all.extend(CompareSelect::all().into_iter().map(Variant::CompareSelect));
        all.extend(Logic::all().into_iter().map(Variant::Logic));
        all.extend(Shift::all().into_iter().map(Variant::Shift));
        all.extend(Shfl::all().into_iter().map(Variant::Shfl));
        all.extend(Prmt::all().into_iter().map(Variant::Prmt));
        all
    }

    /// Every variant, except that of set and setp only their covering
    /// sample ([`compare::Compare::in_sample`]), and of shfl.sync one form
    /// ([`shfl::Shfl::in_sample`]): for the checks that run every variant's
    /// terms on values or faults, where set's and setp's 1,890 forms share
    /// their terms but for the operator, the types and the Boolean form, and
    /// shfl.sync's are shfl's and one member-mask test.
    pub fn sampled() -> Vec<Variant> {
        Variant::all()
            .into_iter()
            .filter(|v| match v {
                Variant::Compare(c) => c.in_sample(),
                Variant::Shfl(s) => s.in_sample(),
                _ => true,
            })
            .collect()
    }

    /// The variant whose name is exactly `name` (`shf.l.wrap.b32`,
    /// `shfl.up.b32 d|p`).
    pub fn from_mnemonic(name: &str) -> Option<Variant> {
        Variant::all().into_iter().find(|v| v.to_string() == name)
    }

    /// The variants written with the PTX mnemonic `mnemonic`: one, except
    /// where the operands tell variants apart (`shfl.up.b32` with `d` or `d|p`).
    pub fn with_mnemonic(mnemonic: &str) -> Vec<Variant> {
        Variant::all().into_iter().filter(|v| v.mnemonic() == mnemonic).collect()
    }

    /// The mnemonic as PTX writes it.
    pub fn mnemonic(&self) -> String {
        each_family!(self, v => v.mnemonic())
    }

    /// Every opcode in the catalogue, in catalogue order.
    pub fn opcodes() -> Vec<&'static str> {
        let mut ops: Vec<&'static str> = Vec::new();
        for v in Variant::all() {
            if !ops.contains(&v.opcode()) {
                ops.push(v.opcode());
            }
        }
        ops
    }

    /// The instruction name (`shf`).
    pub fn opcode(&self) -> &'static str {
        each_family!(self, v => v.opcode())
    }

    /// Its family, named as the family's files are
    /// (`spec/src/family/bit_field.rs`, `smt/src/encode/bit_field.rs`).
    pub fn family(&self) -> &'static str {
        match self {
            Variant::AddSub(_) => "add_sub",
            Variant::MulMad(_) => "mul_mad",
            Variant::DivRem(_) => "div_rem",
            Variant::MinMax(_) => "min_max",
            Variant::BitCount(_) => "bit_count",
            Variant::BitField(_) => "bit_field",
            Variant::Dot(_) => "dot",
            Variant::Carry(_) => "carry",
            Variant::Logic(_) => "logic",
            Variant::Shift(_) => "shift",
            Variant::Shfl(_) => "shfl",
            Variant::Prmt(_) => "prmt",
            Variant::Compare(_) => "compare",
            Variant::CompareSelect(_) => "compare_select",
        }
    }

    /// The spec section that defines it.
    pub fn section(&self) -> &'static str {
        each_family!(self, v => v.section())
    }

    /// Operands in the order the syntax writes them.
    pub fn operands(&self) -> Vec<Operand> {
        each_family!(self, v => v.operands())
    }

    /// The inputs of [`Variant::semantics`]: the operands the instruction
    /// reads, in syntax order; for shfl, one thread's view of the warp (see
    /// `family::shfl`).
    pub fn inputs(&self) -> Vec<Operand> {
        each_family!(self, v => v.inputs())
    }

    /// The outputs of [`Variant::semantics`]: the operands the instruction
    /// writes, in syntax order.
    pub fn outputs(&self) -> Vec<Operand> {
        each_family!(self, v => v.outputs())
    }

    /// Whether the instruction acts on the whole warp (its semantics read
    /// other lanes).
    pub fn is_warp_wide(&self) -> bool {
        matches!(self, Variant::Shfl(_))
    }

    /// Whether the instruction reads the carry flag `CC.CF` (9.7.2's addc,
    /// subc, madc): an input that no operand names.
    pub fn reads_flag(&self) -> bool {
        self.inputs().iter().any(|o| o.role == Role::Flag)
    }

    /// Whether the instruction writes the carry flag (9.7.2's `.cc` forms).
    pub fn writes_flag(&self) -> bool {
        self.outputs().iter().any(|o| o.role == Role::Flag)
    }

    pub fn requirement(&self) -> Requirement {
        each_family!(self, v => v.requirement())
    }

    pub fn deprecation(&self) -> Option<Deprecation> {
        each_family!(self, v => v.deprecation())
    }

    /// What the model assumes where the spec leaves a case open.
    pub fn assumptions(&self) -> Vec<&'static Assumption> {
        each_family!(self, v => v.assumptions())
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each_family!(self, v => fmt::Display::fmt(v, f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_has_the_2184_variants() {
        let all = Variant::all();
        assert_eq!(all.len(), 2184);
        let count = |op: &str| all.iter().filter(|v| v.opcode() == op).count();
        // 9.7.1: 141 variants, 9.7.2: 48, 9.7.8: 38, 9.7.9.5: 8,
        // 9.7.9.6: 8, 9.7.9.7: 7, 9.7.6: 1,934 (set 1,134, setp 756, selp and slct 44).
        let expected = [
            ("add", 9),
            ("sub", 7),
            ("mul", 16),
            ("mad", 17),
            ("mul24", 4),
            ("mad24", 5),
            ("sad", 6),
            ("div", 6),
            ("rem", 6),
            ("abs", 3),
            ("neg", 3),
            ("min", 10),
            ("max", 10),
            ("popc", 2),
            ("clz", 2),
            ("bfind", 8),
            ("fns", 1),
            ("brev", 2),
            ("bfe", 4),
            ("bfi", 2),
            ("szext", 4),
            ("bmsk", 2),
            ("dp4a", 4),
            ("dp2a", 8),
            ("add.cc", 4),
            ("addc", 8),
            ("sub.cc", 4),
            ("subc", 8),
            ("mad.cc", 8),
            ("madc", 16),
            ("and", 4),
            ("or", 4),
            ("xor", 4),
            ("not", 4),
            ("cnot", 3),
            ("lop3", 3),
            ("shf", 4),
            ("shl", 3),
            ("shr", 9),
            ("shfl", 8),
            ("shfl.sync", 8),
            ("prmt", 7),
            ("set", 1134),
            ("setp", 756),
            ("selp", 11),
            ("slct", 33),
        ];
        for (op, n) in expected {
            assert_eq!(count(op), n, "{op}");
        }
        assert_eq!(expected.iter().map(|(_, n)| n).sum::<usize>(), 2184);
    }

    #[test]
    fn variants_sharing_a_mnemonic_are_its_operand_forms() {
        for v in Variant::all() {
            let same = Variant::with_mnemonic(&v.mnemonic());
            assert!(same.contains(&v), "{v}");
            // shfl's d and d|p; setp's p and p|q; set's and setp's c and !c.
            let forms = match v {
                Variant::Shfl(_) => 2,
                Variant::Compare(c) => {
                    let q = if c.opcode() == "setp" { 2 } else { 1 };
                    q * if c.combine.is_some() { 2 } else { 1 }
                }
                _ => 1,
            };
            assert_eq!(same.len(), forms, "{v}");
        }
    }

    #[test]
    fn mnemonics_are_unique_and_round_trip() {
        let all = Variant::all();
        for v in &all {
            assert_eq!(Variant::from_mnemonic(&v.to_string()), Some(*v), "{v}");
        }
        let mut names: Vec<String> = all.iter().map(|v| v.to_string()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }

    #[test]
    fn shift_amounts_are_32_bit_and_immlut_is_8_bit() {
        for v in Variant::all() {
            for o in v.operands() {
                if matches!(v.opcode(), "shl" | "shr") && o.name == "b" {
                    assert_eq!(o.ty, OperandType::Bits(32), "{v}");
                }
                if o.name == "immLut" {
                    assert_eq!((o.role, o.ty), (Role::Imm, OperandType::Bits(8)), "{v}");
                }
            }
        }
    }

    #[test]
    fn lop3_boolop_needs_ptx_82_and_sm_70() {
        let v = Variant::from_mnemonic("lop3.or.b32").unwrap();
        assert_eq!(v.requirement(), Requirement { ptx: PtxVersion(8, 2), target: Target::Sm(70) });
        let v = Variant::from_mnemonic("lop3.b32").unwrap();
        assert_eq!(v.requirement(), Requirement { ptx: PtxVersion(4, 3), target: Target::Sm(50) });
        let v = Variant::from_mnemonic("shf.r.clamp.b32").unwrap();
        assert_eq!(v.requirement(), Requirement { ptx: PtxVersion(3, 1), target: Target::Sm(32) });
    }
}
