//! `reports/vendor-defects.md`: ptxas's miscompilations, apart from the
//! spec's errata. Written by `ptxcheck report` from the committed record
//! `vendor/ptxas-defects.json` (`ptxcheck vendor defects --write`), with a
//! reproducer for each that ptxcheck writes.

use std::fmt::Write as _;

use crate::oracle::defects::{self, DefectsRecord};

use super::{markdown_table, HEADER};

/// The report's file name under `reports/`.
pub const FILE: &str = "vendor-defects.md";

/// The report of `record`.
pub fn markdown(record: &DefectsRecord) -> String {
    let mut md = String::from(HEADER);
    md.push_str("# ptxas defects: constant folding against the H100\n\n");
    md.push_str(
        "Where ptxas's constant folder gives a value the H100 does not, a program's result depends on whether \
         its operands were constants: a miscompilation, a defect of the compiler and not of the spec (the \
         spec's defects are in [errata.md](errata.md)). Each input below is one of ptxas's folded values \
         (`vendor/ptxas-fold.json`: every variant's witnesses, probes of the readings, case boundaries and \
         samples) that the H100 contradicts: an exact H100 result where the committed results hold the input, \
         else the sm_90 model's value, whose rules are drawn from those results. `ptxcheck vendor defects \
         --ptxas PATH ...` assembles each reproducer again with each ptxas given.\n\n",
    );
    let releases: Vec<String> = record.head.ptxas.iter().map(|t| t.release.clone()).collect();
    let _ = writeln!(md, "Setting: {}. ptxas versions checked: {}.\n", record.head.setting, releases.join("; "));
    let mut rows = vec![{
        let mut h = vec!["#".to_string(), "instruction".into(), "inputs".into(), "H100".into(), "evidence".into()];
        h.extend(releases.iter().map(|r| format!("ptxas {}", r.rsplit(' ').next().unwrap_or(r))));
        h
    }];
    for (k, d) in record.defects.iter().enumerate() {
        let mut row = vec![
            (k + 1).to_string(),
            format!("`{}`", d.defect.variant),
            d.defect.inputs.join(", "),
            d.defect.hardware.join(", "),
            d.defect.evidence.clone(),
        ];
        row.extend(d.by_ptxas.iter().cloned());
        rows.push(row);
    }
    md.push_str(&markdown_table(&rows));
    let has = |k: usize| record.defects.iter().filter(|d| d.by_ptxas[k].starts_with("folds to")).count();
    for (k, r) in releases.iter().enumerate() {
        let wrong = record
            .defects
            .iter()
            .filter(|d| d.by_ptxas[k].strip_prefix("folds to ").is_some_and(|v| v != d.defect.hardware.join(", ")))
            .count();
        let _ = writeln!(
            md,
            "\n- {r}: folds {} of the {} inputs, {wrong} of them to a value the H100 does not give.",
            has(k),
            record.defects.len()
        );
    }
    md.push_str("\n## Reproducers\n\n");
    for (k, d) in record.defects.iter().enumerate() {
        let Some(inst) = defects::instance(&d.defect) else { continue };
        let _ = writeln!(md, "### {}. `{} {}`\n", k + 1, d.defect.variant, d.defect.inputs.join(", "));
        let _ = writeln!(
            md,
            "Kernel `folded` computes the instruction on constants, kernel `loaded` on the same values loaded from \
             `in` (operand k of the instruction at byte 8k). The H100 computes {}; ptxas {} folds `folded` to \
             {}, so on the GPU `folded` stores {2} and `loaded` {0}.\n",
            d.defect.hardware.join(", "),
            releases.first().map_or("", |r| r.rsplit(' ').next().unwrap_or(r)),
            d.defect.folded.join(", ")
        );
        let _ = writeln!(md, "```ptx\n{}```\n", defects::reproducer(&inst));
        md.push_str(
            "```sh\nptxas -O3 -arch=sm_90 repro.ptx -o repro.cubin\ncuobjdump -sass repro.cubin   # `folded` stores a \
             constant; `loaded` computes the instruction\n```\n\n",
        );
    }
    md
}
