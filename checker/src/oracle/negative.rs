//! The forbidden neighbours of every variant, for `vendor syntax`: what the
//! text excludes, which ptxas should reject.
//!
//! - every type a Syntax block's type set leaves out, put in its place
//!   (`popc.u32`: popc's block gives `.b32` and `.b64` only);
//! - every form a Syntax block writes that a restriction of the text
//!   excludes (the catalogue, which applies the Description's restrictions,
//!   has no such variant: `mul.wide.u64`);
//! - every variant under the PTX ISA version just below the one it requires,
//!   and under the target just below the one it requires (the catalogue's
//!   requirements, transcribed from the PTX ISA Notes and Target ISA Notes),
//!   where this ptxas still assembles for that version and target.
//!
//! A neighbour ptxas accepts is the text and the assembler disagreeing: a
//! finding of class requirements.

use ptx_spec::catalogue::{OperandType, PtxVersion, Role, Target, Variant};

use super::kernel::{register_type, Case, Setting, NEWEST};
use crate::audit::syntax::{expand, mnemonic_fits, BLOCKS};

/// The type qualifiers of the covered instructions: a type set's
/// neighbours are the ones it leaves out.
const TYPES: [&str; 12] =
    [".pred", ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".u16x2", ".s16x2"];

/// The PTX ISA versions, in order (the PTX ISA's release history).
const PTX_VERSIONS: [(u8, u8); 42] = [
    (1, 0),
    (1, 1),
    (1, 2),
    (1, 3),
    (1, 4),
    (1, 5),
    (2, 0),
    (2, 1),
    (2, 2),
    (2, 3),
    (3, 0),
    (3, 1),
    (3, 2),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 3),
    (5, 0),
    (6, 0),
    (6, 1),
    (6, 2),
    (6, 3),
    (6, 4),
    (6, 5),
    (7, 0),
    (7, 1),
    (7, 2),
    (7, 3),
    (7, 4),
    (7, 5),
    (7, 6),
    (7, 7),
    (7, 8),
    (8, 0),
    (8, 1),
    (8, 2),
    (8, 3),
    (8, 4),
    (8, 5),
    (8, 6),
    (8, 7),
    (8, 8),
];

/// The targets ptxas 12.9 assembles for, each with the oldest PTX ISA
/// version that names it (the PTX ISA's target table).
const TARGETS: [(u32, PtxVersion); 14] = [
    (50, PtxVersion(4, 0)),
    (52, PtxVersion(4, 1)),
    (53, PtxVersion(4, 2)),
    (60, PtxVersion(5, 0)),
    (61, PtxVersion(5, 0)),
    (62, PtxVersion(5, 0)),
    (70, PtxVersion(6, 0)),
    (72, PtxVersion(6, 1)),
    (75, PtxVersion(6, 3)),
    (80, PtxVersion(7, 0)),
    (86, PtxVersion(7, 1)),
    (87, PtxVersion(7, 4)),
    (89, PtxVersion(7, 8)),
    (90, PtxVersion(7, 8)),
];

/// The case kinds, as `vendor syntax` and the report name them.
pub const FORBIDDEN_TYPE: &str = "forbidden-type";
pub const FORBIDDEN_FORM: &str = "forbidden-form";
pub const BELOW_PTX: &str = "below-ptx";
pub const BELOW_TARGET: &str = "below-target";
pub const KINDS: [&str; 4] = [FORBIDDEN_TYPE, FORBIDDEN_FORM, BELOW_PTX, BELOW_TARGET];

/// The width of a mnemonic's last type qualifier, and whether it is `.pred`.
fn type_width(mnemonic: &str) -> Option<OperandType> {
    let q = mnemonic.split('.').skip(1).filter(|q| TYPES.contains(&format!(".{q}").as_str())).last()?;
    Some(match q {
        "pred" => OperandType::Pred,
        _ => OperandType::Bits(q.trim_start_matches(['b', 'u', 's']).split('x').next()?.parse().ok()?),
    })
}

/// The catalogue variant whose operands a forbidden mnemonic borrows: the
/// same opcode and the same qualifiers but for the type, else the same
/// opcode.
fn model(mnemonic: &str, all: &[Variant]) -> Option<Variant> {
    let untyped = |m: &str| -> Vec<String> {
        m.split('.').filter(|q| !TYPES.contains(&format!(".{q}").as_str())).map(str::to_string).collect()
    };
    let opcode = mnemonic.split('.').next()?;
    let same_opcode = all.iter().filter(|v| v.opcode() == opcode);
    same_opcode
        .clone()
        .find(|v| untyped(&v.mnemonic()) == untyped(mnemonic))
        .or_else(|| same_opcode.clone().next())
        .copied()
}

/// The instruction and its registers: the model variant's operands, each
/// as wide as the new type where the model's was as wide as its own type
/// (twice as wide for twice), otherwise as the model has it.
fn instruction(mnemonic: &str, m: &Variant) -> (String, Vec<(String, String)>) {
    let (old, new) = (type_width(&m.mnemonic()), type_width(mnemonic));
    let mut registers = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    for o in m.operands() {
        let token = match o.role {
            Role::Imm => "0x96".to_string(),
            _ => {
                let ty = match (old, new, o.ty) {
                    (Some(old), Some(new), ty) if ty == old => new,
                    (Some(OperandType::Bits(w)), Some(OperandType::Bits(n)), OperandType::Bits(t)) if t == 2 * w => {
                        OperandType::Bits(2 * n)
                    }
                    (_, _, ty) => ty,
                };
                let reg = format!("%{}", o.name);
                let text = match ty {
                    OperandType::Bits(128) => ".b128".to_string(),
                    ty => register_type(ty).to_string(),
                };
                registers.push((reg.clone(), text));
                reg
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
    (format!("{mnemonic} {};", groups.join(", ")), registers)
}

fn case(kind: &'static str, name: String, mnemonic: &str, m: &Variant, setting: Setting) -> Case {
    let (instruction, registers) = instruction(mnemonic, m);
    Case { kind, name, instruction, setting, registers, catalogue: Some(false), syntax_block: None }
}

/// Where a neighbour that is no variant is assembled: the model variant's
/// requirement raised to what this ptxas assembles, so that only the form
/// can be what is rejected.
fn setting_for(m: &Variant) -> Setting {
    if m.deprecation().is_some() {
        super::kernel::SHFL_LEGAL
    } else {
        NEWEST.max(Setting::for_requirement(m.requirement()))
    }
}

/// Every forbidden neighbour, in a fixed order.
pub fn cases() -> Vec<Case> {
    let all = Variant::all();
    let legal = |m: &str| all.iter().any(|v| v.mnemonic() == m);
    let mut out: Vec<Case> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for block in BLOCKS {
        for line in block.lines {
            // Forms the block writes that the text's restrictions exclude.
            for m in expand(line, block.sets) {
                if !legal(&m) && !seen.contains(&m) {
                    if let Some(model) = model(&m, &all) {
                        seen.push(m.clone());
                        out.push(case(FORBIDDEN_FORM, block.section.to_string(), &m, &model, setting_for(&model)));
                    }
                }
            }
            // Types the block's type sets leave out.
            for (set, values) in block.sets {
                if !values.iter().all(|v| TYPES.contains(v)) || !line.contains(set) {
                    continue;
                }
                let first: Vec<(&str, &[&str])> =
                    block.sets.iter().map(|(n, vs)| if n == set { (*n, *vs) } else { (*n, &vs[..1]) }).collect();
                for m in expand(line, &first) {
                    for t in TYPES.iter().filter(|t| !values.contains(t)) {
                        // Put the left-out type in the set's place.
                        let Some(pos) =
                            values.iter().filter_map(|v| m.find(&v.to_string()).map(|p| (p, v))).next_back()
                        else {
                            continue;
                        };
                        let neighbour = format!("{}{t}{}", &m[..pos.0], &m[pos.0 + pos.1.len()..]);
                        if legal(&neighbour) || mnemonic_fits(block, &neighbour) || seen.contains(&neighbour) {
                            continue;
                        }
                        if let Some(model) = model(&m, &all) {
                            seen.push(neighbour.clone());
                            out.push(case(
                                FORBIDDEN_TYPE,
                                block.section.to_string(),
                                &neighbour,
                                &model,
                                setting_for(&model),
                            ));
                        }
                    }
                }
            }
        }
    }
    // One version and one target below each variant's requirement.
    for v in &all {
        if v.deprecation().is_some() {
            continue; // shfl's versions are the deprecation's: checked as removed
        }
        let r = v.requirement();
        let at = Setting::for_requirement(r);
        let below_ptx = PTX_VERSIONS.iter().rposition(|&(a, b)| PtxVersion(a, b) < r.ptx).map(|i| PTX_VERSIONS[i]);
        let target_floor = TARGETS.iter().find(|t| t.0 == at.sm).map(|t| t.1);
        if let (Some((a, b)), Some(floor)) = (below_ptx, target_floor) {
            if PtxVersion(a, b) >= floor && r.ptx > PtxVersion(4, 0) {
                let setting = Setting { ptx: PtxVersion(a, b), sm: at.sm };
                out.push(case(BELOW_PTX, v.to_string(), &v.mnemonic(), v, setting));
            }
        }
        if let Target::Sm(n) = r.target {
            if let Some(&(sm, floor)) = TARGETS.iter().rev().find(|t| t.0 < n) {
                let setting = Setting { ptx: r.ptx.max(floor), sm };
                out.push(case(BELOW_TARGET, v.to_string(), &v.mnemonic(), v, setting));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neighbours_are_what_the_text_excludes() {
        let cases = cases();
        let find = |kind: &str, text: &str| cases.iter().find(|c| c.kind == kind && c.instruction.starts_with(text));
        // popc's block gives .b32 and .b64 only.
        assert!(find(FORBIDDEN_TYPE, "popc.u32 ").is_some());
        // mul's block writes mul.wide.u64; the text excludes it.
        let wide = find(FORBIDDEN_FORM, "mul.wide.u64 ").expect("mul.wide.u64");
        assert!(wide.registers.iter().any(|(n, t)| n == "%d" && t == ".b128"), "{:?}", wide.registers);
        // lop3's .BoolOp needs PTX 8.2 and sm_70.
        let below = find(BELOW_PTX, "lop3.or.b32 ").expect("lop3.or below 8.2");
        assert_eq!((below.setting.ptx, below.setting.sm), (PtxVersion(8, 1), 70));
        let below = find(BELOW_TARGET, "lop3.or.b32 ").expect("lop3.or below sm_70");
        assert_eq!(below.setting.sm, 62);
        // Nothing the catalogue allows is a forbidden neighbour.
        for c in cases.iter().filter(|c| c.kind == FORBIDDEN_TYPE || c.kind == FORBIDDEN_FORM) {
            let m = c.instruction.split_whitespace().next().unwrap();
            assert!(Variant::all().iter().all(|v| v.mnemonic() != m), "{m}");
        }
    }
}
