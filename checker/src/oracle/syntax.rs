//! `ptxcheck vendor syntax`: ptxas as the judge of what is legal PTX.
//!
//! Three kinds of case, each one instruction in its own kernel:
//! - every catalogue variant, under the `.version`/`.target` it requires
//!   (ptxcheck says: legal);
//! - every shfl variant again under PTX 6.4 for sm_70, where the catalogue's
//!   deprecation note says it is gone (ptxcheck says: illegal);
//! - every example instruction of the seed sections, under PTX 8.8 for sm_90
//!   (PTX 6.0 for sm_60 in the shfl section), compared with the catalogue
//!   parser and with the section's Syntax block.
//!
//! - every forbidden neighbour of a variant (`super::negative`): a type or
//!   form the text excludes, a PTX ISA version or target just below the one
//!   it requires (ptxcheck says: illegal).
//!
//! A case where ptxas and ptxcheck answer differently is a finding.

use crate::audit::syntax::EXAMPLE_INSTRUCTIONS;
use crate::audit::text::ranges::RANGES;
use crate::ptx::parse::{parse_instruction, OperandText};
use ptx_spec::catalogue::{Role, Variant};

pub use super::kernel::Case;
use super::kernel::{entry, register_type, Setting, NEWEST, SHFL_LEGAL, SHFL_REMOVED};
use super::ptxas::{assemble_each, Tool, ToolError};
pub use super::record::SyntaxRow as Row;

/// The architecture ptxas compiles every module for; the module's `.target`
/// is what legality depends on.
pub const ARCH: &str = "sm_90";

/// Every case, in a fixed order: variants in catalogue order, the shfl
/// removals, then examples in spec order.
pub fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let all = Variant::all();
    for v in &all {
        let setting = if v.deprecation().is_some() { SHFL_LEGAL } else { Setting::for_requirement(v.requirement()) };
        cases.push(variant_case(v, "variant", setting, true));
    }
    for v in all.iter().filter(|v| v.deprecation().is_some_and(|d| d.removed.is_some())) {
        cases.push(variant_case(v, "variant-removed", SHFL_REMOVED, false));
    }
    for (section, text) in EXAMPLE_INSTRUCTIONS {
        cases.push(example_case(section, text));
    }
    cases.extend(super::negative::cases());
    cases.extend(range_cases());
    cases
}

/// The `range-edge` cases: for every stated operand range
/// (`audit::text::ranges::RANGES`), the first variant of its section (of
/// its mode), with the operand an immediate just above the range and just
/// below it. ptxcheck says: illegal for an immediate-only operand (the text
/// gives its values), legal for one the block masks or clamps.
pub fn range_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for r in RANGES {
        let mode = |v: &&Variant| r.mode.is_none_or(|m| v.mnemonic().split('.').any(|q| q == m));
        let Some(v) = Variant::all().into_iter().filter(|v| v.section() == r.section).find(|v| mode(&v)) else {
            continue;
        };
        let (instruction, registers) = variant_instruction(&v);
        let Some((mnemonic, list)) = instruction.trim_end_matches(';').split_once(' ') else { continue };
        for name in r.operands {
            let Some(op) = v.operands().into_iter().find(|o| o.name == *name) else { continue };
            let token = if op.role == Role::Imm { "0x96".to_string() } else { format!("%{name}") };
            for value in [r.hi + 1, r.lo - 1] {
                let value_text = value.to_string();
                let operands: Vec<&str> =
                    list.split(", ").map(|p| if p == token { value_text.as_str() } else { p }).collect();
                out.push(Case {
                    kind: RANGE_EDGE,
                    name: format!("{v} {name}={value}"),
                    instruction: format!("{mnemonic} {};", operands.join(", ")),
                    setting: Setting::for_requirement(v.requirement()),
                    registers: registers.iter().filter(|(n, _)| *n != token).cloned().collect(),
                    catalogue: Some(op.role != Role::Imm),
                    syntax_block: None,
                });
            }
        }
    }
    out
}

/// The kind of a stated range's edge case.
pub const RANGE_EDGE: &str = "range-edge";

/// The variant written with registers `%name` for its operands (an
/// immediate where the operand must be one).
pub fn variant_instruction(v: &Variant) -> (String, Vec<(String, String)>) {
    let mut registers = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    for o in v.operands() {
        let token = match o.role {
            Role::Imm => "0x96".to_string(),
            _ => {
                let reg = format!("%{}", o.name);
                registers.push((reg.clone(), register_type(o.ty).to_string()));
                if o.negated {
                    format!("!{reg}")
                } else {
                    reg
                }
            }
        };
        match groups.last_mut() {
            Some(last) if o.piped => {
                last.push('|');
                last.push_str(&token);
            }
            _ => groups.push(token),
        }
    }
    (format!("{} {};", v.mnemonic(), groups.join(", ")), registers)
}

fn variant_case(v: &Variant, kind: &'static str, setting: Setting, legal: bool) -> Case {
    let (instruction, registers) = variant_instruction(v);
    Case { kind, name: v.to_string(), instruction, setting, registers, catalogue: Some(legal), syntax_block: None }
}

/// The register type a type qualifier implies.
fn qualifier_type(q: &str) -> Option<&'static str> {
    Some(match q {
        "pred" => ".pred",
        "b16" | "u16" | "s16" => ".b16",
        "b32" | "u32" | "s32" | "u16x2" | "s16x2" => ".b32",
        "b64" | "u64" | "s64" => ".b64",
        "f32" => ".f32",
        "f64" => ".f64",
        _ => return None,
    })
}

/// Whether an operand token is a register name (not a constant or the sink).
fn is_register(token: &str) -> bool {
    token != "_" && token.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '%')
}

/// An example, with its operands declared as registers: of the type the
/// catalogue gives them where the example is a legal variant, else of the
/// type its last type qualifier names (`.b32` if none).
pub fn example_case(section: &'static str, text: &str) -> Case {
    let trimmed = text.trim().trim_end_matches(';').trim();
    let (guard, body) = match trimmed.strip_prefix('@') {
        Some(rest) => {
            let (g, b) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            (Some(g.trim_start_matches('!').to_string()), b.trim())
        }
        None => (None, trimmed),
    };
    let mut registers: Vec<(String, String)> = Vec::new();
    let mut declare = |name: &str, ty: &str| {
        if !registers.iter().any(|(n, _)| n == name) {
            registers.push((name.to_string(), ty.to_string()));
        }
    };
    if let Some(g) = &guard {
        declare(g, ".pred");
    }
    let parsed = parse_instruction(body);
    let opcode = body.split(['.', ' ']).next().unwrap_or("");
    // A float form of an opcode in scope (`add.f32`) is not.
    let in_scope = Variant::opcodes().contains(&opcode) && !crate::audit::syntax::is_float_outside_catalogue(body);
    match &parsed {
        Ok(instr) => {
            for (op, written) in instr.variant.operands().iter().zip(&instr.operands) {
                if let OperandText::Reg(name) = written {
                    declare(name, register_type(op.ty));
                }
            }
        }
        Err(_) => {
            let mnemonic = body.split_whitespace().next().unwrap_or("");
            let ty = mnemonic.split('.').skip(1).filter_map(qualifier_type).last().unwrap_or(".b32");
            let operands = body[mnemonic.len()..].split([',', '|', ' ', '\t']).map(str::trim);
            for token in operands.filter(|t| is_register(t)) {
                declare(token, ty);
            }
        }
    }
    let fits = crate::audit::syntax::check(section, text).is_ok();
    Case {
        kind: "example",
        name: section.to_string(),
        instruction: text.trim().to_string(),
        setting: if section == "9.7.9.5" { SHFL_LEGAL } else { NEWEST },
        registers,
        catalogue: in_scope.then_some(parsed.is_ok()),
        syntax_block: in_scope.then_some(fits),
    }
}

/// The kernel of case `index`.
pub fn kernel(index: usize, case: &Case) -> String {
    entry(&format!("case{index}"), "()", &case.registers, std::slice::from_ref(&case.instruction))
}

/// Assemble every case (grouped by setting, many kernels a run) and compare.
pub fn run(ptxas: &Tool, cases: &[Case]) -> Result<Vec<Row>, ToolError> {
    let mut settings: Vec<Setting> = cases.iter().map(|c| c.setting).collect();
    settings.sort();
    settings.dedup();
    let mut errors: Vec<Option<Option<String>>> = vec![None; cases.len()];
    for setting in settings {
        let members: Vec<usize> = (0..cases.len()).filter(|&i| cases[i].setting == setting).collect();
        let kernels: Vec<String> = members.iter().map(|&i| kernel(i, &cases[i])).collect();
        let each = assemble_each(ptxas, &setting.header(), &kernels, ARCH, &[], None)?;
        for (&i, e) in members.iter().zip(each.rejected) {
            errors[i] = Some(e);
        }
    }
    Ok(cases.iter().zip(errors).map(|(c, e)| row(c, e.flatten())).collect())
}

fn row(case: &Case, error: Option<String>) -> Row {
    let accepted = error.is_none();
    let verdict = match (case.catalogue, case.syntax_block) {
        (None, None) => "out of scope",
        (c, s) if c.is_none_or(|c| c == accepted) && s.is_none_or(|s| s == accepted) => "agree",
        _ => "disagree",
    };
    Row {
        kind: case.kind.to_string(),
        name: case.name.clone(),
        instruction: case.instruction.clone(),
        ptx: case.setting.ptx.to_string(),
        target: format!("sm_{}", case.setting.sm),
        ptxas: if accepted { "accepted" } else { "rejected" }.to_string(),
        error,
        catalogue: case.catalogue,
        syntax_block: case.syntax_block,
        verdict: verdict.to_string(),
    }
}

/// Counts by verdict and by ptxas's answer.
pub fn count(rows: &[Row], f: impl Fn(&Row) -> bool) -> usize {
    rows.iter().filter(|r| f(r)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_kernels_declare_their_operands() {
        let v = Variant::from_mnemonic("lop3.or.b32").unwrap();
        let (text, regs) = variant_instruction(&v);
        assert_eq!(text, "lop3.or.b32 %d|%p, %a, %b, %c, 0x96, %q;");
        let k = kernel(3, &variant_case(&v, "variant", Setting::for_requirement(v.requirement()), true));
        assert_eq!(
            k,
            ".visible .entry case3()\n{\n  .reg .b32 %d;\n  .reg .pred %p;\n  .reg .b32 %a;\n  .reg .b32 %b;\n  .reg .b32 %c;\n  .reg .pred %q;\n  lop3.or.b32 %d|%p, %a, %b, %c, 0x96, %q;\n}\n"
        );
        assert_eq!(regs.len(), 6);
        let v = Variant::from_mnemonic("mul.wide.u16").unwrap();
        assert_eq!(
            variant_instruction(&v).1,
            [("%d".into(), ".b32".into()), ("%a".into(), ".b16".into()), ("%b".into(), ".b16".into())]
        );
    }

    #[test]
    fn range_edges_are_immediates_just_outside() {
        let cases = range_cases();
        let lop3: Vec<(&str, Option<bool>)> = cases
            .iter()
            .filter(|c| c.name.starts_with("lop3"))
            .map(|c| (c.instruction.as_str(), c.catalogue))
            .collect();
        assert_eq!(
            lop3,
            [("lop3.b32 %d, %a, %b, %c, 256;", Some(false)), ("lop3.b32 %d, %a, %b, %c, -1;", Some(false))]
        );
        let bfe = cases.iter().find(|c| c.name == "bfe.u32 b=256").unwrap();
        assert_eq!((bfe.instruction.as_str(), bfe.catalogue), ("bfe.u32 %d, %a, 256, %c;", Some(true)));
        assert!(!bfe.registers.iter().any(|(n, _)| n == "%b"));
        assert!(cases.iter().any(|c| c.instruction == "bmsk.wrap.b32 %d, %a, 32;"));
    }

    #[test]
    fn examples_declare_what_they_name() {
        let c = example_case("9.7.8.2", "or.b32  mask mask,0x00010001");
        assert_eq!(c.registers, [("mask".to_string(), ".b32".to_string())]);
        assert_eq!((c.catalogue, c.syntax_block), (Some(false), Some(false)));
        let c = example_case("9.7.1.3", "mul.wide.s16 fa,fxs,fys;");
        assert_eq!(c.registers[0], ("fa".to_string(), ".b32".to_string()));
        assert_eq!(c.registers[1], ("fxs".to_string(), ".b16".to_string()));
        let c = example_case("9.7.9.5", "@p  add.f32      Rx, Ry, Rx;");
        assert_eq!(
            c.registers,
            [("p".into(), ".pred".into()), ("Rx".into(), ".f32".into()), ("Ry".into(), ".f32".into())]
        );
        assert_eq!((c.catalogue, c.setting), (None, SHFL_LEGAL));
    }
}
