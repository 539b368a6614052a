//! ptxas's miscompilations: inputs where its constant folder gives a value
//! the H100 does not. A program's result then depends on whether its
//! operands were constants, which is a defect of the compiler, not of the
//! spec. Each is found from the committed records alone: ptxas's folded
//! values (`reports/vendor/ptxas-fold.json`, every variant's witnesses,
//! probes, case boundaries and samples) against the H100's value on the
//! same input, an exact H100 result where one of the committed results
//! files has it, else the sm_90 model's value where sm_90 defines it (its
//! rules are drawn from those results). `vendor defects` then assembles a
//! reproducer of each with every ptxas it is given, to say which versions
//! have the defect.

use std::collections::HashMap;

use ptx_spec::bv::{hex, parse_hex};
use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

use super::fold::{self, Instance};
use super::hw;
use super::kernel::{entry, NEWEST};
use super::record::{FoldRow, ToolRecord};
use serde::{Deserialize, Serialize};

/// The record's file under `reports/vendor/`.
pub const FILE: &str = "ptxas-defects.json";

/// One defect: an input, what ptxas folds, what the H100 gives, and why we
/// know the H100's value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defect {
    pub variant: String,
    pub inputs: Vec<String>,
    /// ptxas's folded outputs (the pinned ptxas, `ptxas-fold.json`).
    pub folded: Vec<String>,
    /// The H100's outputs.
    pub hardware: Vec<String>,
    /// Where the H100's value comes from: `H100 result (FILE line N)`, or
    /// the sm_90 rule (or the spec model sm_90 keeps) and the H100 results
    /// on the variant.
    pub evidence: String,
    /// Where the folded instance comes from (a sample, a case boundary...).
    pub origin: String,
}

/// A defect checked with each ptxas: what each folds the reproducer's
/// `folded` kernel to (`0x...`, or `not folded (OPCODE)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefectRow {
    #[serde(flatten)]
    pub defect: Defect,
    /// One entry per ptxas of the record, in its order.
    pub by_ptxas: Vec<String>,
}

/// `reports/vendor/ptxas-defects.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DefectsHead {
    pub ptxas: Vec<ToolRecord>,
    pub setting: String,
}

/// `reports/vendor/ptxas-defects.json`: each defect with each ptxas's fold.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DefectsRecord {
    #[serde(flatten)]
    pub head: DefectsHead,
    pub defects: Vec<DefectRow>,
}

/// The H100's results by label, with the file and line of each.
pub fn hardware_results(results: &[(&str, String)]) -> Result<HashMap<String, (String, String)>, String> {
    let mut by_label = HashMap::new();
    for (name, text) in results {
        for r in hw::compare_in(text, Model::Sm90)? {
            by_label.entry(r.label.clone()).or_insert((r.hardware.clone(), format!("{name} line {}", r.line)));
        }
    }
    Ok(by_label)
}

/// Every folded instance whose value the H100 contradicts, once each: by a
/// result on the same inputs, or by the sm_90 model of a variant the H100
/// was run on.
pub fn find(fold: &[FoldRow], results: &[(&str, String)]) -> Result<Vec<Defect>, String> {
    let by_label = hardware_results(results)?;
    let mut on_variant: HashMap<String, usize> = HashMap::new();
    for label in by_label.keys() {
        if let Some(v) = label.split_whitespace().nth(1) {
            *on_variant.entry(v.to_string()).or_default() += 1;
        }
    }
    let mut out: Vec<Defect> = Vec::new();
    for row in fold {
        // A shuffle's row holds its operands, not the model's inputs, and
        // no H100 result is one lane's of a warp of constants.
        let Some(variant) = Variant::from_mnemonic(&row.variant).filter(|v| v.inputs().len() == row.inputs.len())
        else {
            continue;
        };
        let inputs: Option<Vec<u128>> = row.inputs.iter().map(|t| parse_hex(t)).collect();
        let folded: Option<Vec<u128>> = row.vendor.iter().map(|t| parse_hex(t)).collect();
        let (Some(inputs), Some(folded)) = (inputs, folded) else { continue };
        let label = format!("inst {} {}", row.variant, row.inputs.join(" "));
        let widths: Vec<u32> = variant.outputs().iter().map(|o| o.ty.width()).collect();
        let (hardware, evidence) = match by_label.get(&label) {
            Some((values, place)) => (values.split(' ').map(String::from).collect(), format!("H100 result ({place})")),
            // No H100 result on the variant at all: sm_90 is the spec model
            // there untested, so a folded value against it is the text's
            // disagreement with ptxas (`vendor fold` shows it), not a defect
            // of the assembler's (9.7.2's flag after a subtraction).
            None if !on_variant.contains_key(&row.variant) => continue,
            None => {
                let values: Option<Vec<String>> = variant
                    .run_in(Model::Sm90, &inputs)
                    .iter()
                    .zip(&widths)
                    .map(|(o, &w)| o.map(|b| hex(b.unsigned(), w)))
                    .collect();
                let Some(values) = values else { continue };
                let rule = ptx_spec::hardware::sm_90::rule_for(
                    &variant,
                    &variant
                        .inputs()
                        .iter()
                        .zip(&inputs)
                        .map(|(o, &x)| ptx_spec::BitVec::new(o.ty.width(), x))
                        .collect::<Vec<_>>(),
                );
                let model =
                    rule.map_or_else(|| "the spec model, which sm_90 keeps".to_string(), |r| format!("`{}`", r.id));
                let n = on_variant.get(&row.variant).copied().unwrap_or(0);
                (values, format!("sm_90 ({model}), which {n} H100 results on `{}` agree with", row.variant))
            }
        };
        let folded: Vec<String> = folded.iter().zip(&widths).map(|(&v, &w)| hex(v, w)).collect();
        let inputs_hex: Vec<String> =
            variant.inputs().iter().zip(&inputs).map(|(o, &x)| hex(x, o.ty.width())).collect();
        let seen = out.iter().any(|d| d.variant == row.variant && d.inputs == inputs_hex);
        if folded != hardware && !seen {
            out.push(Defect {
                variant: row.variant.clone(),
                inputs: inputs_hex,
                folded,
                hardware,
                evidence,
                origin: row.origin.clone(),
            });
        }
    }
    Ok(out)
}

/// The defect's input as a fold instance.
pub fn instance(d: &Defect) -> Option<Instance> {
    let variant = Variant::from_mnemonic(&d.variant)?;
    let inputs: Option<Vec<u128>> = d.inputs.iter().map(|t| parse_hex(t)).collect();
    Some(Instance { variant, inputs: inputs?, origin: d.origin.clone(), readings: None })
}

/// A module a user can send to NVIDIA: kernel `folded` computes the
/// instruction on constant operands, kernel `loaded` on the same values
/// loaded from memory (operand k of the instruction at byte 8k of `in`, the
/// carry flag of 9.7.2 after the operands).
/// ptxas folds the first; on the GPU the two store different values.
pub fn reproducer(inst: &Instance) -> String {
    let mut text = NEWEST.header();
    text.push('\n');
    text.push_str(&fold::kernel("folded", &[inst]));
    text.push('\n');
    let mut registers = vec![
        ("%param".to_string(), ".b64".to_string()),
        ("%out".to_string(), ".b64".to_string()),
        ("%in".to_string(), ".b64".to_string()),
    ];
    let mut body = vec![
        "ld.param.u64 %param, [out];".to_string(),
        "cvta.to.global.u64 %out, %param;".to_string(),
        "ld.param.u64 %param, [in];".to_string(),
        "cvta.to.global.u64 %in, %param;".to_string(),
    ];
    body.extend(fold::instance_body_from(0, inst, &mut registers, fold::Operands::Loaded));
    body.push("ret;".into());
    text.push_str(&entry("loaded", "(.param .u64 out, .param .u64 in)", &registers, &body));
    text
}

/// What one ptxas made of a defect's `folded` kernel, as a record says it.
pub fn folded_text(row: &FoldRow) -> String {
    if row.vendor.iter().all(|v| parse_hex(v).is_some()) {
        format!("folds to {}", row.vendor.join(", "))
    } else {
        row.vendor.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::record::{self, FoldRecord};
    use std::path::Path;

    /// From the committed records alone: ptxas 12.9 folds `sub.sat.s32`
    /// wrapped where the H100 saturates, and nothing else.
    #[test]
    fn the_committed_records_give_the_sub_sat_defects() {
        let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports");
        let fold: FoldRecord = record::read(&reports.join("vendor/ptxas-fold.json")).unwrap().unwrap();
        let results: Vec<(&str, String)> = crate::sm_90_report::RESULTS
            .iter()
            .map(|name| (*name, std::fs::read_to_string(reports.join(name)).unwrap()))
            .collect();
        let found = find(&fold.instances, &results).unwrap();
        let shown: Vec<String> = found.iter().map(|d| format!("{} {}", d.variant, d.inputs.join(" "))).collect();
        assert_eq!(
            shown,
            [
                "sub.sat.s32 0x00000000 0x80000000",
                "sub.sat.s32 0x00000001 0x80000000",
                "sub.sat.s32 0x7fffffff 0x80000000"
            ]
        );
        assert!(found.iter().all(|d| d.hardware == ["0x7fffffff"]));
        assert!(found[1].evidence.starts_with("H100 result (vendor/h100-run.txt line "), "{}", found[1].evidence);
        let module = reproducer(&instance(&found[1]).unwrap());
        assert!(module.contains(".visible .entry folded(.param .u64 out)"), "{module}");
        assert!(module.contains("mov.b32 %i0_2, 0x80000000;"), "{module}");
        assert!(module.contains("ld.global.b32 %i0_2, [%in+16];"), "{module}");
        assert!(module.contains("sub.sat.s32 %o0_0, %i0_1, %i0_2;"), "{module}");
    }
}
