//! `ptxcheck report`: the discrepancy reports under `reports/`, for spec
//! auditors (Markdown) and tools (JSON).
//!
//! The files are a function of the catalogue, the claims, the passages and
//! the solvers' verdicts only: sorted, with no timestamps, timings or paths,
//! so that a rerun writes the same bytes and `report --check` can tell a
//! stale report from a fresh one. (Times vary run to run; they belong to the
//! benchmark.)

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::audit::claims::section_key;
use ptx_spec::assumption;
use ptx_spec::catalogue::Variant;
use serde_json::{json, Value};

use crate::audit::finding::{Finding, FindingKind, WitnessTable};
use crate::audit::Audit;
use crate::cmd::audit::audit_json;
use crate::cmd::claims::ClaimSummary;
use crate::error::Error;
use crate::output::Output;
use crate::prove::ProofResult;

pub mod hardware;
use hardware::Hardware;

/// One solver's `prove all`.
pub struct SolverRun {
    pub solver: String,
    /// In catalogue order.
    pub results: Vec<ProofResult>,
}

impl SolverRun {
    fn count(&self, label: &str) -> usize {
        self.results.iter().filter(|r| r.verdict.label() == label).count()
    }
}

/// The report's files: name and contents.
pub struct Report {
    pub files: Vec<(&'static str, String)>,
}

pub const FILES: [&str; 4] = ["README.md", "findings.md", "variants.md", "ptxcheck.json"];

/// What NVIDIA's assembler said, as `ptxcheck vendor syntax|fold --write`
/// recorded it under `reports/vendor/` (the ptxas column of the findings).
pub struct Vendor {
    pub syntax: Value,
    pub fold: Value,
    /// The committed GPU run, if there is one (`vendor/h100-run.txt`).
    pub hardware: Option<Hardware>,
}

impl Vendor {
    /// The recorded results in `dir/vendor`, if both files are there.
    pub fn load(dir: &Path) -> Option<Vendor> {
        let read = |name: &str| -> Option<Value> {
            serde_json::from_str(&fs::read_to_string(dir.join("vendor").join(name)).ok()?).ok()
        };
        Some(Vendor {
            syntax: read("ptxas-syntax.json")?,
            fold: read("ptxas-fold.json")?,
            hardware: Hardware::load(dir),
        })
    }

    /// One line per folded instance that came from this finding's witness,
    /// and for an example, what ptxas made of it.
    fn lines(&self, f: &Finding) -> Vec<String> {
        let mut out = Vec::new();
        let origins = [format!("audit {}", f.id), format!("claim {}", f.id)];
        let empty = Vec::new();
        for i in self.fold["instances"].as_array().unwrap_or(&empty) {
            if !origins.iter().any(|o| i["origin"].as_str() == Some(o.as_str())) {
                continue;
            }
            let list = |v: &Value| {
                v.as_array().map_or(String::new(), |a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "))
            };
            let matches = list(&i["matches"]);
            let verdict = match i["verdict"].as_str().unwrap_or("") {
                "agree" if matches.is_empty() => "spec and vendor agree".to_string(),
                "agree" => format!("spec and vendor agree (reading: {})", matches.replace(' ', ", ")),
                "vendor picks" if matches.is_empty() => {
                    "the spec leaves it open; the vendor's value matches no reading".into()
                }
                "vendor picks" => {
                    format!("the spec leaves it open; the vendor picks reading {}", matches.replace(' ', ", "))
                }
                "disagree" => "the vendor contradicts the model".into(),
                other => other.to_string(),
            };
            let instance = format!("`{} {}`", i["variant"].as_str().unwrap_or(""), list(&i["inputs"]));
            out.push(if i["verdict"] == "not folded" {
                format!(
                    "ptxas: {instance} is not folded to a constant ({}); model: {}",
                    list(&i["vendor"]),
                    list(&i["model"])
                )
            } else {
                format!("ptxas: {instance} gives {} (model: {}): {verdict}", list(&i["vendor"]), list(&i["model"]))
            });
        }
        if f.kind == FindingKind::ExampleSyntax {
            let instruction = f.summary.split('`').nth(1).unwrap_or("");
            for c in self.syntax["cases"].as_array().unwrap_or(&empty) {
                if c["kind"] == "example" && c["instruction"].as_str() == Some(instruction) {
                    let said = match c["error"].as_str() {
                        Some(e) => format!("rejects it (`{e}`)"),
                        None => "accepts it".into(),
                    };
                    out.push(format!("ptxas: {said}"));
                }
            }
        }
        // Every finding gets the GPU's line: the reading it takes, or why
        // it did not run.
        out.push(match &self.hardware {
            Some(h) => h.line(f),
            None => "GPU: not run (no GPU run is committed under vendor/)".into(),
        });
        out
    }
}

/// Build every file of the report.
pub fn build(runs: &[SolverRun], audit: &Audit, vendor: Option<&Vendor>) -> Report {
    Report {
        files: vec![
            ("README.md", readme(runs, audit, vendor)),
            ("findings.md", findings(audit, vendor)),
            ("variants.md", variants(runs, vendor.and_then(|v| v.hardware.as_ref()), audit)),
            ("ptxcheck.json", format!("{:#}\n", json_report(runs, audit))),
        ],
    }
}

impl Report {
    /// The files of a report in `dir`, checked before the report is built
    /// (which takes minutes).
    pub fn output(dir: &Path) -> Result<Output, Error> {
        Output::in_dir(dir, &FILES)
    }

    /// Write every file to `output` ([`Report::output`]: the same files in
    /// the same order): each is renamed into place only once all are
    /// written, so an error leaves the old report whole.
    pub fn write(&self, output: &Output) -> Result<(), Error> {
        let texts: Vec<&str> = self.files.iter().map(|(_, text)| text.as_str()).collect();
        output.write(&texts)
    }

    /// The files in `dir` that differ from this report (missing ones too).
    pub fn stale(&self, dir: &Path) -> Vec<PathBuf> {
        self.files
            .iter()
            .map(|(name, text)| (dir.join(name), text))
            .filter(|(path, text)| fs::read_to_string(path).ok().as_deref() != Some(text.as_str()))
            .map(|(path, _)| path)
            .collect()
    }
}

const HEADER: &str =
    "<!-- Generated by `ptxcheck report`; do not edit. `ptxcheck report --check` tells whether it is current. -->\n\n";

fn readme(runs: &[SolverRun], audit: &Audit, vendor: Option<&Vendor>) -> String {
    let mut s = String::from(HEADER);
    s.push_str("# ptxcheck reports\n\n");
    s.push_str(
        "What ptxcheck proves about the PTX integer, logic and shift instructions (9.7.1, 9.7.8, and the \
         deprecated shfl of 9.7.9.5), and what it finds in the spec text.\n\n\
         - [findings.md](findings.md): every finding, with its readings, verdicts and a witness table.\n\
         - [variants.md](variants.md): every variant, its proof and the assumptions it rests on.\n\
         - [ptxcheck.json](ptxcheck.json): all of it, for tools.\n\n",
    );

    readme_variants(&mut s, runs);
    readme_claims(&mut s, audit);
    if let Some(v) = vendor {
        readme_vendor(&mut s, v, audit);
    }
    readme_findings(&mut s, audit);
    s
}

/// The README's proofs: by solver, then by section.
fn readme_variants(s: &mut String, runs: &[SolverRun]) {
    s.push_str("## Variants proven\n\n");
    s.push_str(
        "For every variant, the SMT encoding that transcribes the Semantics block and the concrete function an \
         emulator would use are proven equal on every input, by each solver.\n\n",
    );
    let mut t = vec![vec![
        "solver".to_string(),
        "variants".into(),
        "proven".into(),
        "counterexample".into(),
        "unknown".into(),
        "timeout".into(),
    ]];
    for r in runs {
        t.push(vec![
            format!("`{}`", r.solver),
            r.results.len().to_string(),
            r.count("proven").to_string(),
            r.count("counterexample").to_string(),
            r.count("unknown").to_string(),
            r.count("timeout").to_string(),
        ]);
    }
    s.push_str(&markdown_table(&t));
    s.push_str(&format!("\nThe solvers {} on every variant.\n", agreement(runs)));
    s.push_str("Times are in the project README's benchmark section: they vary from run to run.\n\n");

    s.push_str("By section:\n\n");
    let mut sections: Vec<&str> = Variant::all().iter().map(|v| v.section()).collect();
    sections.sort_by_key(|a| section_key(a));
    sections.dedup();
    let mut t =
        vec![vec!["section".to_string(), "instructions".into(), "variants".into(), "proven by every solver".into()]];
    for sec in sections {
        let vs: Vec<Variant> = Variant::all().into_iter().filter(|v| v.section() == sec).collect();
        let mut ops: Vec<&str> = vs.iter().map(|v| v.opcode()).collect();
        ops.dedup();
        let proven = vs.iter().filter(|v| proven_by_all(runs, v)).count();
        t.push(vec![sec.to_string(), ops.join(", "), vs.len().to_string(), proven.to_string()]);
    }
    s.push_str(&markdown_table(&t));
}

/// The README's claims, and the Semantics blocks read as C.
fn readme_claims(s: &mut String, audit: &Audit) {
    s.push_str("\n## Claims of the spec\n\n");
    let summary = ClaimSummary { results: &audit.claims };
    let mut t = vec![vec!["verdict".to_string(), "claims".into()]];
    for v in ["holds", "refuted", "not checkable", "unknown"] {
        t.push(vec![v.to_string(), summary.count(v).to_string()]);
    }
    t.push(vec!["**all**".into(), audit.claims.len().to_string()]);
    s.push_str(&markdown_table(&t));

    s.push_str("\n## Semantics blocks read as C\n\n");
    s.push_str(
        "Every Semantics block, transcribed as a C compiler reads it (precedence, the types of literals and \
         operands, promotions), with each operation checked for undefined and implementation-defined behaviour \
         and the defined result compared with the model's, on every variant the block covers. A question the \
         solver did not settle is listed as unresolved: it is neither a finding nor clean.\n\n",
    );
    let mut t = vec![vec![
        "section".to_string(),
        "block".into(),
        "variants".into(),
        "hazard sites".into(),
        "findings".into(),
        "unresolved".into(),
    ]];
    for b in &audit.literal {
        t.push(vec![
            b.section.clone(),
            b.opcode.clone(),
            b.variants.to_string(),
            b.hazards_examined.to_string(),
            b.findings.len().to_string(),
            if b.unresolved.is_empty() { String::new() } else { b.unresolved.join("; ") },
        ]);
    }
    s.push_str(&markdown_table(&t));
}

/// The README's vendor ground truth: ptxas's syntax and folded values.
fn readme_vendor(s: &mut String, v: &Vendor, audit: &Audit) {
    s.push_str("\n## Vendor ground truth (ptxas)\n\n");
    let _ = writeln!(
        s,
        "What NVIDIA's assembler ({}, from `{}`) makes of the same instructions, recorded in \
         [vendor/](vendor/) by `ptxcheck vendor syntax|fold --write`; the findings below carry its \
         value where it folded a witness.\n",
        v.fold["ptxas"]["release"].as_str().unwrap_or("?"),
        v.fold["ptxas"]["wheel"].as_str().unwrap_or("?"),
    );
    let c = &v.syntax["counts"];
    let n = |x: &Value| x.as_u64().unwrap_or(0).to_string();
    let mut t = vec![vec!["syntax".to_string(), "count".into()]];
    t.push(vec!["variants accepted".into(), format!("{} of {}", n(&c["variants_accepted"]), n(&c["variants"]))]);
    t.push(vec!["examples accepted".into(), format!("{} of {}", n(&c["examples_accepted"]), n(&c["examples"]))]);
    t.push(vec!["ptxas and ptxcheck agree".into(), n(&c["agree"])]);
    t.push(vec!["ptxas and ptxcheck disagree".into(), n(&c["disagree"])]);
    s.push_str(&markdown_table(&t));
    let c = &v.fold["counts"];
    let mut t = vec![vec!["folded values".to_string(), "instances".into()]];
    t.push(vec!["all".into(), n(&c["instances"])]);
    t.push(vec!["vendor agrees with the model".into(), n(&c["agree"])]);
    t.push(vec!["vendor contradicts the model".into(), n(&c["disagree"])]);
    t.push(vec!["model leaves it open, vendor picks a value".into(), n(&c["vendor_picks"])]);
    t.push(vec!["not folded (no constant to read back)".into(), n(&c["not_folded"])]);
    s.push('\n');
    s.push_str(&markdown_table(&t));
    readme_hardware(s, v.hardware.as_ref(), audit);
}

/// The README's hardware counts, next to ptxas's.
fn readme_hardware(s: &mut String, hw: Option<&Hardware>, audit: &Audit) {
    s.push_str("\n## The hardware\n\n");
    let Some(hw) = hw else {
        s.push_str("No GPU run is committed under [vendor/](vendor/) (`ptxcheck hw run --output`).\n");
        return;
    };
    let _ = writeln!(
        s,
        "The same instances and 360 whole-warp shfl cases run on {}, recorded in \
         [vendor/{}](vendor/{}) by `ptxcheck hw run --output`; each finding below says which reading the GPU \
         takes on its witness.\n",
        hw.device,
        hardware::RUN,
        hardware::RUN
    );
    let mut t = vec![vec!["results on the GPU".to_string(), "count".into()]];
    t.push(vec!["all".into(), hw.rows.len().to_string()]);
    t.push(vec!["the GPU agrees with the model".into(), hw.count("agree").to_string()]);
    t.push(vec!["the GPU contradicts the model".into(), hw.count("disagree").to_string()]);
    t.push(vec!["model leaves it open, the GPU picks a value".into(), hw.count("hardware picks").to_string()]);
    s.push_str(&markdown_table(&t));
    s.push_str(
        "\nWhich reading of each passage the GPU takes, on the inputs that separate its readings (the audit's \
         comparisons) that the run holds: per reading, on how many of them the GPU gives the reading's value.\n\n",
    );
    let mut t = vec![vec![
        "passage".to_string(),
        "separating inputs run".into(),
        "the GPU gives".into(),
        "no reading matches".into(),
    ]];
    for p in hw.readings(audit) {
        let gives: Vec<String> = p.matches.iter().map(|(r, n)| format!("{r} {n}/{}", p.run)).collect();
        let none = match &p.smallest_none {
            Some(smallest) => format!("{}, e.g. {smallest}", p.none),
            None => p.none.to_string(),
        };
        let gives = if p.run == 0 { "not run".to_string() } else { gives.join(", ") };
        t.push(vec![format!("`{}`", p.passage), format!("{} of {}", p.run, p.witnesses), gives, none]);
    }
    s.push_str(&markdown_table(&t));
}

/// The README's findings: by kind and severity, then by section.
fn readme_findings(s: &mut String, audit: &Audit) {
    s.push_str("\n## Findings\n\n");
    let mut t = vec![vec!["kind".to_string(), "findings".into(), "high".into(), "medium".into(), "low".into()]];
    for k in FindingKind::ALL {
        let of: Vec<&Finding> = audit.findings.iter().filter(|f| f.kind == k).collect();
        let sev = |l: &str| of.iter().filter(|f| f.severity.label() == l).count().to_string();
        t.push(vec![k.label().to_string(), of.len().to_string(), sev("high"), sev("medium"), sev("low")]);
    }
    t.push(vec!["**all**".into(), audit.findings.len().to_string(), String::new(), String::new(), String::new()]);
    s.push_str(&markdown_table(&t));
    s.push_str("\nBy section:\n\n");
    let mut header = vec!["section".to_string()];
    header.extend(FindingKind::ALL.iter().map(|k| k.label().to_string()));
    let mut t = vec![header];
    let mut secs: Vec<&str> = audit.findings.iter().map(|f| f.section.as_str()).collect();
    secs.dedup();
    for sec in secs {
        let mut row = vec![sec.to_string()];
        for k in FindingKind::ALL {
            let n = audit.findings.iter().filter(|f| f.section == sec && f.kind == k).count();
            row.push(if n == 0 { String::new() } else { n.to_string() });
        }
        t.push(row);
    }
    s.push_str(&markdown_table(&t));
}

fn proven_by_all(runs: &[SolverRun], v: &Variant) -> bool {
    runs.iter().all(|r| r.results.iter().any(|p| p.variant == *v && p.verdict.is_proven()))
}

/// "agree" or which variants they do not agree on.
fn agreement(runs: &[SolverRun]) -> String {
    let Some(first) = runs.first() else { return "(none ran)".into() };
    let split: Vec<String> = first
        .results
        .iter()
        .enumerate()
        .filter(|(i, p)| runs.iter().any(|r| r.results[*i].verdict.label() != p.verdict.label()))
        .map(|(_, p)| p.variant.to_string())
        .collect();
    if split.is_empty() {
        "agree".into()
    } else {
        format!("do not all agree ({})", split.join(", "))
    }
}

fn findings(audit: &Audit, vendor: Option<&Vendor>) -> String {
    let mut s = String::from(HEADER);
    s.push_str("# Findings\n\n");
    s.push_str(
        "Each finding quotes the spec, says what is wrong or open, and shows inputs that demonstrate it. Every \
         witness was found by a solver, brought down to the least input in operand order, and confirmed by \
         evaluating each reading concretely. Values are hexadecimal; `undefined` marks a result the reading leaves \
         undefined or unspecified. A shfl witness is one thread's view of the warp: `lane` is its lane id, `b` and \
         `c` its operands, `aN`, `activeN` and `unpredictableN` lane N's register, state and unpredictable value; \
         inputs not listed are 0.\n\n",
    );
    let mut t = vec![vec!["finding".to_string(), "section".into(), "kind".into(), "severity".into(), "summary".into()]];
    for f in &audit.findings {
        t.push(vec![
            format!("[{}](#{})", f.id, anchor(&f.id)),
            f.section.clone(),
            f.kind.label().into(),
            f.severity.label().into(),
            f.summary.clone(),
        ]);
    }
    s.push_str(&markdown_table(&t));
    for f in &audit.findings {
        let _ = write!(s, "\n## {}\n\n", f.id);
        let _ = writeln!(s, "- section: {}", f.section);
        let _ = writeln!(s, "- kind: {}, severity: {}", f.kind.label(), f.severity.label());
        if !f.fragment.is_empty() {
            let _ = writeln!(s, "- spec: `{}`", f.fragment.replace('`', "'"));
        }
        if let Some(m) = &f.model_choice {
            let _ = writeln!(s, "- the model's choice: {m}");
        }
        let _ = writeln!(s, "\n{}\n", f.summary);
        for d in &f.detail {
            let _ = writeln!(s, "- {d}");
        }
        let said = vendor.map(|v| v.lines(f)).unwrap_or_default();
        if !said.is_empty() {
            let _ = writeln!(s, "\nWhat the vendor does:\n");
            for line in said {
                let _ = writeln!(s, "- {line}");
            }
        }
        if let Some(w) = &f.witness {
            let _ = writeln!(s, "\nWitness, `{}`:\n", w.variant);
            s.push_str(&witness_markdown(w));
        }
    }
    s
}

fn witness_markdown(w: &WitnessTable) -> String {
    let mut s = String::new();
    if w.inputs.is_empty() {
        s.push_str("Every input 0.\n\n");
    } else {
        let mut t = vec![vec!["input".to_string(), "value".into()]];
        t.extend(w.inputs.iter().map(|(n, v)| vec![n.clone(), format!("`{}`", v.hex())]));
        s.push_str(&markdown_table(&t));
        s.push('\n');
    }
    let mut header = vec!["output".to_string()];
    header.extend(w.columns.iter().cloned());
    let mut t = vec![header];
    for (n, vs) in &w.rows {
        let mut row = vec![n.clone()];
        row.extend(vs.iter().map(|v| v.map_or("undefined".to_string(), |b| format!("`{}`", b.hex()))));
        t.push(row);
    }
    s.push_str(&markdown_table(&t));
    s
}

fn variants(runs: &[SolverRun], hw: Option<&Hardware>, audit: &Audit) -> String {
    let mut s = String::from(HEADER);
    s.push_str("# Variants\n\n");
    s.push_str(
        "Every legal variant of the catalogue, its requirements, each solver's verdict on the equivalence of its \
         SMT encoding and its concrete semantics, and the assumptions the model makes for it (listed below the \
         table).\n\n",
    );
    let mut header = vec!["variant".to_string(), "section".into(), "requires".into()];
    header.extend(runs.iter().map(|r| r.solver.clone()));
    header.push("assumptions".into());
    let mut t = vec![header];
    for (i, v) in Variant::all().iter().enumerate() {
        let mut row = vec![format!("`{v}`"), v.section().to_string(), v.requirement().to_string()];
        if let Some(d) = v.deprecation() {
            row[2].push_str(&format!("; deprecated from PTX {}", d.since));
        }
        row.extend(runs.iter().map(|r| r.results[i].verdict.label().to_string()));
        let ids: Vec<&str> = v.assumptions().iter().map(|a| a.id).collect();
        row.push(if ids.is_empty() { "-".into() } else { ids.join(", ") });
        t.push(row);
    }
    s.push_str(&markdown_table(&t));
    s.push_str("\n## Assumptions\n\n");
    for a in assumption::ALL {
        let users: Vec<String> = Variant::all()
            .iter()
            .filter(|v| v.assumptions().iter().any(|u| u.id == a.id))
            .map(|v| v.to_string())
            .collect();
        let _ = write!(
            s,
            "### {}\n\n- section: {}\n- spec: `{}`\n- reading: {}\n- variants ({}): {}\n\n",
            a.id,
            a.section,
            a.fragment,
            a.reading,
            users.len(),
            if users.is_empty() { "all integer variants".to_string() } else { users.join(", ") }
        );
        let _ = writeln!(s, "- GPU: {}\n", hw.map_or("not run".to_string(), |h| h.assumption_line(a, &users, audit)));
    }
    s
}

fn json_report(runs: &[SolverRun], audit: &Audit) -> Value {
    let variants: Vec<Value> = Variant::all()
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let verdicts: serde_json::Map<String, Value> =
                runs.iter().map(|r| (r.solver.clone(), json!(r.results[i].verdict.label()))).collect();
            json!({
                "variant": v.to_string(),
                "section": v.section(),
                "requires": v.requirement().to_string(),
                "verdicts": verdicts,
                "assumptions": v.assumptions().iter().map(|a| a.id).collect::<Vec<_>>(),
            })
        })
        .collect();
    let solvers: Vec<Value> = runs
        .iter()
        .map(|r| {
            json!({
                "solver": r.solver, "variants": r.results.len(), "proven": r.count("proven"),
                "counterexample": r.count("counterexample"), "unknown": r.count("unknown"), "timeout": r.count("timeout"),
            })
        })
        .collect();
    json!({
        "solvers": solvers,
        "variants": variants,
        "assumptions": assumption::ALL,
        "claims": ClaimSummary { results: &audit.claims }.json(),
        "audit": audit_json(audit),
    })
}

/// A GitHub-style anchor for a heading.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A Markdown table; the first row is the header. Cells have `|` escaped
/// and line breaks flattened.
fn markdown_table(rows: &[Vec<String>]) -> String {
    let cell = |c: &str| c.replace('\n', " ").replace('|', "\\|");
    let mut s = String::new();
    for (i, r) in rows.iter().enumerate() {
        s.push_str("| ");
        s.push_str(&r.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "));
        s.push_str(" |\n");
        if i == 0 {
            s.push('|');
            s.push_str(&r.iter().map(|_| " --- |").collect::<String>());
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_tables_escape_bars_and_flatten_lines() {
        let t = markdown_table(&[vec!["a".into(), "b".into()], vec!["shfl.up.b32 d|p".into(), "x\ny".into()]]);
        assert_eq!(t, "| a | b |\n| --- | --- |\n| shfl.up.b32 d\\|p | x y |\n");
    }

    #[test]
    fn the_vendor_column_reads_the_recorded_instances() {
        let vendor = Vendor {
            syntax: json!({"cases": [{"kind": "example", "instruction": "bfe.b32  d,a,start,len;", "error": "bad type"}]}),
            fold: json!({"instances": [
                {"variant": "div.u32", "origin": "audit div-by-zero-unspecified", "inputs": ["0x0", "0x0"],
                 "model": ["unspecified"], "vendor": ["0xffffffff"], "verdict": "vendor picks", "matches": ["smt-lib-total"]},
                {"variant": "add.s32", "origin": "sample", "inputs": ["0x1", "0x2"], "model": ["0x3"], "vendor": ["0x3"],
                 "verdict": "agree"},
            ]}),
            hardware: None,
        };
        let finding = |id: &str, kind: FindingKind, summary: &str| Finding {
            id: id.into(),
            section: "9.7.1.8".into(),
            kind,
            severity: crate::audit::finding::Severity::Medium,
            fragment: String::new(),
            summary: summary.into(),
            detail: vec![],
            model_choice: None,
            witness: None,
        };
        let lines = vendor.lines(&finding("div-by-zero-unspecified", FindingKind::Ambiguity, ""));
        assert_eq!(
            lines[0],
            "ptxas: `div.u32 0x0 0x0` gives 0xffffffff (model: unspecified): the spec leaves it open; the vendor picks \
             reading smt-lib-total"
        );
        assert_eq!(lines.len(), 2, "and the GPU line");
        assert_eq!(lines[1], "GPU: not run (no GPU run is committed under vendor/)");
        let syntax = finding(
            "9.7.1.19/example-syntax-1",
            FindingKind::ExampleSyntax,
            "refuted: the example `bfe.b32  d,a,start,len;` fits",
        );
        assert_eq!(vendor.lines(&syntax)[0], "ptxas: rejects it (`bad type`)");
        assert_eq!(vendor.lines(&finding("other", FindingKind::Ambiguity, "")).len(), 1, "the GPU line alone");
    }

    #[test]
    fn anchors_follow_headings() {
        assert_eq!(anchor("9.7.1.12/example-syntax-3"), "97112example-syntax-3");
        assert_eq!(anchor("szext-mask-or-zero"), "szext-mask-or-zero");
    }

    #[test]
    fn write_then_check_then_stale() {
        let dir = std::env::temp_dir().join(format!("ptxcheck-report-test-{}", std::process::id()));
        let report = Report { files: vec![("README.md", "one\n".into()), ("findings.md", "two\n".into())] };
        assert_eq!(report.stale(&dir).len(), 2, "nothing written yet");
        report.write(&Output::in_dir(&dir, &["README.md", "findings.md"]).unwrap()).unwrap();
        assert!(report.stale(&dir).is_empty());
        let changed = Report { files: vec![("README.md", "one\n".into()), ("findings.md", "three\n".into())] };
        assert_eq!(changed.stale(&dir), vec![dir.join("findings.md")]);
        // No temporary file is left behind.
        let mut names: Vec<String> =
            fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["README.md", "findings.md"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
