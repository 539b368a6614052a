//! PTX module text for the vendor's tools: a header (`.version`, `.target`)
//! and `.entry` kernels, each holding what one check needs.

use std::fmt;

use ptx_spec::catalogue::{OperandType, PtxVersion, Requirement, Target, Variant};

/// The `.version` and `.target` a module is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Setting {
    pub ptx: PtxVersion,
    pub sm: u32,
}

/// The oldest target this ptxas assembles for, and the PTX version it needs.
const OLDEST_SM: u32 = 50;
const OLDEST_SM_PTX: PtxVersion = PtxVersion(4, 0);

/// The setting every non-shfl example is assembled for: the newest PTX
/// version ptxas 12.9 accepts, and the H100's target.
pub const NEWEST: Setting = Setting { ptx: PtxVersion(8, 8), sm: 90 };

/// Where the deprecated shfl is still legal: PTX 6.0 for sm_60.
pub const SHFL_LEGAL: Setting = Setting { ptx: PtxVersion(6, 0), sm: 60 };

/// Where the spec says shfl without `.sync` is gone: PTX 6.4 for sm_70.
pub const SHFL_REMOVED: Setting = Setting { ptx: PtxVersion(6, 4), sm: 70 };

/// One instruction to assemble (`super::syntax`, `super::negative`).
#[derive(Clone, Debug)]
pub struct Case {
    /// `variant`, `variant-removed` or `example`.
    pub kind: &'static str,
    /// The variant's name, or the example's section.
    pub name: String,
    pub instruction: String,
    pub setting: Setting,
    /// Register declarations: name and PTX type.
    pub registers: Vec<(String, String)>,
    /// What the catalogue parser says: legal (`Some(true)`), illegal, or
    /// nothing (an instruction outside the catalogue's scope).
    pub catalogue: Option<bool>,
    /// What the section's Syntax block says, for examples.
    pub syntax_block: Option<bool>,
}

impl Setting {
    /// A variant's requirement, raised to the oldest target ptxas still
    /// assembles (sm_50 with PTX 4.0): older targets are out of its reach.
    pub fn for_requirement(r: Requirement) -> Setting {
        let sm = match r.target {
            Target::All => OLDEST_SM,
            Target::Sm(n) => n.max(OLDEST_SM),
        };
        Setting { ptx: r.ptx.max(OLDEST_SM_PTX), sm }
    }

    /// The module header.
    pub fn header(&self) -> String {
        format!(".version {}\n.target sm_{}\n.address_size 64\n", self.ptx, self.sm)
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PTX {}, sm_{}", self.ptx, self.sm)
    }
}

/// The PTX register type holding an operand: `.b16`, `.b32`, `.b64`, `.pred`.
pub fn register_type(ty: OperandType) -> &'static str {
    match ty {
        OperandType::Pred => ".pred",
        OperandType::Bits(16) => ".b16",
        OperandType::Bits(64) => ".b64",
        OperandType::Bits(_) => ".b32",
    }
}

/// The instruction line of `variant`: its mnemonic, then `tokens`, one per
/// operand in syntax order, a piped operand joined to the one before it by
/// `|` (`d|p`), a negated one written after `!` (`!c`).
pub fn instruction(variant: &Variant, tokens: Vec<(String, bool)>) -> String {
    let operands = variant.operands();
    debug_assert_eq!(operands.len(), tokens.len(), "{variant}: one token per operand");
    let mut groups: Vec<String> = Vec::new();
    for ((t, piped), o) in tokens.into_iter().zip(&operands) {
        let t = if o.negated { format!("!{t}") } else { t };
        match groups.last_mut() {
            Some(last) if piped => {
                last.push('|');
                last.push_str(&t);
            }
            _ => groups.push(t),
        }
    }
    format!("{} {};", variant.mnemonic(), groups.join(", "))
}

/// Move the 64-bit word `%w` into the operand register `reg` of type `ty`
/// (a predicate is set when the word is not zero).
pub fn from_word(reg: &str, ty: OperandType) -> String {
    match ty {
        OperandType::Pred => format!("setp.ne.u64 {reg}, %w, 0;"),
        OperandType::Bits(64) => format!("mov.b64 {reg}, %w;"),
        OperandType::Bits(w) => format!("cvt.u{w}.u64 {reg}, %w;"),
    }
}

/// Move the result register `reg` of type `ty` into the 64-bit word `%w`
/// (a predicate as 1 or 0).
pub fn to_word(reg: &str, ty: OperandType) -> String {
    match ty {
        OperandType::Pred => format!("selp.u64 %w, 1, 0, {reg};"),
        OperandType::Bits(64) => format!("mov.b64 %w, {reg};"),
        OperandType::Bits(w) => format!("cvt.u64.u{w} %w, {reg};"),
    }
}

/// 9.7.2's carry flag `CC.CF`, which no operand names, set from the low bit
/// of the `.b32` register `reg`: an `add.cc` of that bit and all ones
/// carries exactly where the bit is 1. Put just before the instruction that
/// reads the flag.
pub fn set_flag(reg: &str) -> [String; 2] {
    [format!("and.b32 {reg}, {reg}, 1;"), format!("add.cc.u32 {reg}, {reg}, 0xffffffff;")]
}

/// The carry flag read into the `.b32` register `reg` (0 or 1): an `addc` of
/// zeros. Put just after the instruction that writes the flag.
pub fn read_flag(reg: &str) -> String {
    format!("addc.u32 {reg}, 0, 0;")
}

/// One `.entry` kernel: its parameters (`()` for none), the registers
/// declared, then the body's lines, one each.
pub fn entry<T: std::fmt::Display>(name: &str, params: &str, registers: &[(String, T)], body: &[String]) -> String {
    let mut text = format!(".visible .entry {name}{params}\n{{\n");
    for (reg, ty) in registers {
        text.push_str(&format!("  .reg {ty} {reg};\n"));
    }
    for line in body {
        text.push_str(&format!("  {line}\n"));
    }
    text.push_str("}\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_spec::Variant;

    #[test]
    fn requirements_are_raised_to_what_ptxas_assembles() {
        let setting = |name: &str| Setting::for_requirement(Variant::from_mnemonic(name).unwrap().requirement());
        assert_eq!(setting("add.u32").to_string(), "PTX 4.0, sm_50");
        assert_eq!(setting("lop3.or.b32").to_string(), "PTX 8.2, sm_70");
        assert_eq!(setting("dp4a.u32.u32").to_string(), "PTX 5.0, sm_61");
    }

    #[test]
    fn an_entry_declares_then_runs() {
        let k = entry("k0", "()", &[("%d".to_string(), ".b32")], &["add.u32 %d, %d, 1;".into()]);
        assert_eq!(k, ".visible .entry k0()\n{\n  .reg .b32 %d;\n  add.u32 %d, %d, 1;\n}\n");
    }
}
