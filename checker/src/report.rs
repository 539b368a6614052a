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
use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::Variant;
use serde_json::{json, Value};

use crate::audit::claims::json as claims_json;
use crate::audit::errata::{self, Class, Impact, RootCause};
use crate::audit::finding::{Finding, FindingKind, Severity, WitnessTable};
use crate::audit::passages::compare::{self as passage_compare, PassageResult};
use crate::audit::text::TextAudit;
use crate::audit::Audit;
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

pub const FILES: [&str; 5] = ["README.md", "errata.md", "findings.md", "variants.md", "ptxcheck.json"];

/// The version of `ptxcheck.json`'s layout (`reports/SCHEMA.md`): raised
/// whenever a field is removed or changes meaning.
pub const SCHEMA_VERSION: u32 = 2;

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

    /// What ptxas does about a root cause, in a few words: where one of its
    /// findings' witnesses was folded, or where a sampled instance tells the
    /// readings of its passage apart; for an example, whether it assembles.
    pub fn ptxas_verdict(&self, findings: &[&Finding], passages: &[PassageResult]) -> String {
        let mut said = Vec::new();
        let empty = Vec::new();
        for f in findings.iter().filter(|f| f.kind == FindingKind::ExampleSyntax) {
            let instruction = f.summary.split('`').nth(1).unwrap_or("");
            for c in self.syntax["cases"].as_array().unwrap_or(&empty) {
                if c["kind"] == "example" && c["instruction"].as_str() == Some(instruction) {
                    said.push(if c["error"].is_string() { "rejects the example" } else { "accepts the example" });
                }
            }
        }
        if let Some(s) = said.first() {
            return s.to_string();
        }
        let own = instances_verdict(&self.fold, findings);
        match (own, picks_elsewhere(&self.fold, findings, passages)) {
            (Some(own), Some(elsewhere)) => format!("{own}; but {elsewhere}"),
            (None, Some(samples)) => samples,
            (own, None) => own.unwrap_or_else(|| "no instance".into()),
        }
    }

    /// The value ptxas folded on a witness's variant and inputs, if it
    /// folded that instance (of any origin).
    fn folded(&self, t: &WitnessTable) -> Option<String> {
        let want: Vec<String> = t.inputs.iter().map(|(_, v)| v.hex()).collect();
        let i = self.fold["instances"]
            .as_array()?
            .iter()
            .find(|i| i["variant"].as_str() == Some(t.variant.as_str()) && strings(&i["inputs"]) == want)?;
        Some(if i["verdict"] == "not folded" {
            "not folded".into()
        } else {
            strings(&i["vendor"]).iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
        })
    }

    /// What the GPU does about a root cause, read from the committed run
    /// as ptxas's verdict is from its folding; "not run" without a run.
    pub fn hardware_verdict(&self, findings: &[&Finding], passages: &[PassageResult]) -> String {
        match &self.hardware {
            None => "not run".into(),
            Some(hw) => {
                let run = hw.instances(findings);
                picks_elsewhere(&run, findings, passages)
                    .or_else(|| instances_verdict(&run, findings))
                    .unwrap_or_else(|| "not run".into())
            }
        }
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

/// `inputs` of a recorded instance, as its hex strings.
fn strings(v: &Value) -> Vec<&str> {
    v.as_array().map_or(Vec::new(), |a| a.iter().filter_map(Value::as_str).collect())
}

/// A recorded instance in a few words: `add.s32 0x1, 0x7fffffff -> 0x80000000`.
fn instance_text(i: &Value) -> String {
    format!(
        "`{} {}` gives {}",
        i["variant"].as_str().unwrap_or(""),
        strings(&i["inputs"]).join(", "),
        strings(&i["vendor"]).join(", ")
    )
}

/// An instance's origin as the report says it: `a sample`, `a case
/// boundary of the model`...
fn origin_words(origin: &str) -> &'static str {
    match origin.split(' ').next().unwrap_or("") {
        "sample" => "a sample",
        "case" => "a case boundary of the model",
        "probe" => "a probe of the readings",
        "audit" => "another finding's witness",
        "claim" => "a claim's worked value",
        "run" => "another input of the run",
        _ => "another input",
    }
}

/// The verdict of the recorded instances that came from these findings'
/// witnesses: a contradiction first, then a value picked where the model
/// leaves it open, then agreement, then nothing folded.
fn instances_verdict(source: &Value, findings: &[&Finding]) -> Option<String> {
    let empty = Vec::new();
    let origins: Vec<String> =
        findings.iter().flat_map(|f| [format!("audit {}", f.id), format!("claim {}", f.id)]).collect();
    let mine: Vec<&Value> = source["instances"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .filter(|i| origins.iter().any(|o| i["origin"].as_str() == Some(o.as_str())))
        .collect();
    let with = |verdict: &str| mine.iter().find(|i| i["verdict"] == verdict);
    if let Some(i) = with("disagree") {
        let matches = strings(&i["matches"]);
        let which = if matches.is_empty() { "no reading".to_string() } else { format!("`{}`", matches.join("`, `")) };
        return Some(format!("contradicts the model, matches {which}: {}", instance_text(i)));
    }
    if let Some(i) = with("vendor picks") {
        let matches = strings(&i["matches"]);
        return Some(if matches.is_empty() {
            format!("picks a value no reading gives: {}", instance_text(i))
        } else {
            format!("picks `{}`: {}", matches.join("`, `"), instance_text(i))
        });
    }
    // An agreement that names the readings it matches says more than one
    // on a witness where every reading gives the same value.
    let informative = mine.iter().find(|i| i["verdict"] == "agree" && !strings(&i["matches"]).is_empty());
    if let Some(i) = informative.or(with("agree")) {
        let matches = strings(&i["matches"]);
        return Some(if matches.is_empty() {
            format!("agrees with the model: {}", instance_text(i))
        } else {
            format!("agrees, `{}`: {}", matches.join("`, `"), instance_text(i))
        });
    }
    mine.first().map(|_| "not folded".to_string())
}

/// Where a recorded instance of any origin (a sample, say) falls on a
/// variant of one of these findings' passages and the vendor contradicts
/// the model there: which readings of the passage give the vendor's value,
/// each evaluated concretely on the instance's inputs, and where the
/// instance comes from.
fn picks_elsewhere(source: &Value, findings: &[&Finding], passages: &[PassageResult]) -> Option<String> {
    let empty = Vec::new();
    let covers = |p: &PassageResult, name: &str| p.passage.widths().iter().any(|w| w == name);
    for p in passages.iter().filter(|p| findings.iter().any(|f| f.id == p.passage.id)) {
        for i in source["instances"].as_array().unwrap_or(&empty) {
            let name = i["variant"].as_str().unwrap_or("");
            if i["verdict"] != "disagree" || !covers(p, name) {
                continue;
            }
            let Some(variant) = Variant::from_mnemonic(name) else { continue };
            let parse = |t: &str| u128::from_str_radix(t.trim_start_matches("0x"), 16).ok();
            let ins: Option<Vec<BitVec>> = variant
                .inputs()
                .iter()
                .zip(strings(&i["inputs"]))
                .map(|(o, t)| parse(t).map(|v| BitVec::new(o.ty.width(), v)))
                .collect();
            let vendor: Option<Vec<u128>> = strings(&i["vendor"]).into_iter().map(parse).collect();
            let (Some(ins), Some(vendor)) = (ins, vendor) else { continue };
            let matches = readings_giving(&variant, p, &ins, &vendor);
            // A value another passage's reading also gives is no evidence
            // for this one: a 64-bit bfe length of 0x101 read as 255 is the
            // operand range at work, whatever the sign-bit readings say.
            let elsewhere = passages
                .iter()
                .filter(|q| q.passage.id != p.passage.id && covers(q, name))
                .any(|q| !readings_giving(&variant, q, &ins, &vendor).is_empty());
            if elsewhere {
                continue;
            }
            if !matches.is_empty() {
                return Some(format!(
                    "on {} it picks `{}` against the model: {}",
                    origin_words(i["origin"].as_str().unwrap_or("")),
                    matches.join("`, `"),
                    instance_text(i)
                ));
            }
        }
    }
    None
}

/// The readings of passage `p` that give `vendor` on `ins` (each evaluated
/// concretely), by name.
fn readings_giving(variant: &Variant, p: &PassageResult, ins: &[BitVec], vendor: &[u128]) -> Vec<String> {
    let readings: Vec<_> = p.passage.readings.iter().collect();
    let Some(t) = passage_compare::witness(variant, &readings, ins) else { return Vec::new() };
    t.columns
        .iter()
        .enumerate()
        .filter(|(c, _)| t.rows.iter().zip(vendor).all(|((_, vs), v)| vs[*c].map(|b| b.unsigned()) == Some(*v)))
        .map(|(_, n)| n.clone())
        .collect()
}

/// Build every file of the report.
pub fn build(runs: &[SolverRun], audit: &Audit, vendor: Option<&Vendor>, text: Option<&TextAudit>) -> Report {
    let mut readme = readme(runs, audit, vendor);
    let mut json = json_report(runs, audit, vendor);
    if let Some(t) = text {
        readme_text(&mut readme, t);
        json["spec_text"] = text_json(t);
    }
    Report {
        files: vec![
            ("README.md", readme),
            ("errata.md", errata_md(audit, vendor)),
            ("findings.md", findings(audit, vendor)),
            ("variants.md", variants(runs, vendor.and_then(|v| v.hardware.as_ref()), audit)),
            ("ptxcheck.json", format!("{json:#}\n")),
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
         - [errata.md](errata.md): the defects of the spec text, one row per root cause, each with a proposed fix.\n\
         - [findings.md](findings.md): every finding under its root cause, with its readings and witnesses.\n\
         - [variants.md](variants.md): every variant, its proof and the assumptions it rests on.\n\
         - [ptxcheck.json](ptxcheck.json): all of it, for tools.\n\n",
    );

    readme_errata(&mut s, audit, vendor);
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
    s.push_str("Times are in the project's docs/performance.md: they vary from run to run.\n\n");

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
    let mut t = vec![vec!["verdict".to_string(), "claims".into()]];
    for v in ["holds", "refuted", "not checkable", "unknown"] {
        t.push(vec![v.to_string(), claims_json::count(&audit.claims, v).to_string()]);
    }
    t.push(vec!["**all**".into(), audit.claims.len().to_string()]);
    s.push_str(&markdown_table(&t));

    s.push_str("\n## Semantics blocks read as C\n\n");
    s.push_str(
        "Every Semantics block, transcribed as a C compiler reads it (precedence, the types of literals and \
         operands, promotions), with each operation checked for undefined and implementation-defined behaviour \
         and the defined result compared with the model's, on every variant the block covers. A block that is \
         not C is read with its smallest repair. Every loop whose iterations depend on the inputs is proven to \
         stop within the iterations the transcription unrolls. A question the solver did not settle is listed \
         as unresolved: it is neither a finding nor clean.\n\n",
    );
    let mut t = vec![vec![
        "section".to_string(),
        "block".into(),
        "variants".into(),
        "hazard sites".into(),
        "loops proven to stop".into(),
        "findings".into(),
        "unresolved".into(),
    ]];
    for b in &audit.literal {
        t.push(vec![
            b.section.clone(),
            b.opcode.clone(),
            b.variants.to_string(),
            b.hazards_examined.to_string(),
            b.loops_bounded.to_string(),
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
    t.push(vec![
        "forbidden neighbours (types and forms the text excludes, a version or target below its minimum)".into(),
        n(&c["negative"]),
    ]);
    t.push(vec!["... rejected, as the text says".into(), n(&c["negative_rejected"])]);
    t.push(vec!["... accepted, against the text".into(), n(&c["negative_accepted"])]);
    t.push(vec!["forms the text allows, rejected against the text".into(), n(&c["positive_rejected"])]);
    t.push(vec!["immediates just outside a stated operand range".into(), n(&c["range_edges"])]);
    t.push(vec!["... where ptxas answers otherwise than the text".into(), n(&c["range_edges_disagree"])]);
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
    let folded = hardware::folded_by_label(&v.fold);
    let values = |label: &str| folded.get(label).cloned();
    let rows: Vec<_> = audit.passages.iter().map(|p| hardware::passage_readings(p, &values)).collect();
    s.push_str(
        "\nWhich reading of each passage ptxas's folder takes, on the inputs that separate its readings (the \
         audit's comparisons) that it folds: per reading, on how many of them ptxas gives the reading's value.\n\n",
    );
    passage_table(s, "separating inputs folded", "ptxas gives", &rows);
    readme_hardware(s, v.hardware.as_ref(), audit);
}

/// A table of which reading of each passage a vendor takes.
fn passage_table(s: &mut String, run: &str, gives: &str, rows: &[hardware::PassageReadings]) {
    let mut t = vec![vec!["passage".to_string(), run.into(), gives.into(), "no reading matches".into()]];
    for p in rows {
        let taken: Vec<String> = p.matches.iter().map(|(r, n)| format!("{r} {n}/{}", p.run)).collect();
        let none = match &p.smallest_none {
            Some(smallest) => format!("{}, e.g. {smallest}", p.none),
            None => p.none.to_string(),
        };
        let taken = if p.run == 0 { "not run".to_string() } else { taken.join(", ") };
        t.push(vec![format!("`{}`", p.passage), format!("{} of {}", p.run, p.witnesses), taken, none]);
    }
    s.push_str(&markdown_table(&t));
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
    passage_table(s, "separating inputs run", "the GPU gives", &hw.readings(audit));
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

/// A root cause as the reports show it, with its findings and the vendor's
/// verdicts.
pub struct Erratum<'a> {
    /// `None`: the findings no root cause of the table lists.
    pub root_cause: Option<&'static RootCause>,
    pub findings: Vec<&'a Finding>,
    pub ptxas: String,
    pub hardware: String,
}

impl Erratum<'_> {
    fn id(&self) -> &str {
        self.root_cause.map_or(errata::UNASSIGNED, |rc| rc.id.as_str())
    }

    fn severity(&self) -> Severity {
        self.root_cause.map_or_else(
            || self.findings.iter().map(|f| f.severity).min().unwrap_or(Severity::High),
            |rc| rc.severity(),
        )
    }

    fn class(&self) -> &'static str {
        self.root_cause.map_or("unclassified", |rc| rc.class.label())
    }

    fn sections(&self) -> String {
        self.root_cause.map_or_else(|| "-".into(), |rc| rc.sections_text())
    }

    /// The witnesses of its lead finding: a passage's (every reading, on up
    /// to three inputs) if it has one, else the first finding's.
    fn witnesses(&self) -> Vec<&WitnessTable> {
        let lead = self
            .findings
            .iter()
            .find(|f| f.witness.is_some() && matches!(f.kind, FindingKind::Ambiguity | FindingKind::ProseVsPseudocode))
            .or_else(|| self.findings.iter().find(|f| f.witness.is_some()));
        lead.map_or(Vec::new(), |f| f.witness.iter().chain(&f.more_witnesses).collect())
    }
}

/// Every root cause with findings, in the table's order, then the findings
/// no root cause lists.
pub fn errata_of<'a>(audit: &'a Audit, vendor: Option<&Vendor>) -> Vec<Erratum<'a>> {
    errata::group(&audit.findings)
        .into_iter()
        .map(|(root_cause, findings)| {
            let (ptxas, hardware) = match vendor {
                Some(v) => {
                    (v.ptxas_verdict(&findings, &audit.passages), v.hardware_verdict(&findings, &audit.passages))
                }
                None => ("not recorded".into(), "not run".into()),
            };
            Erratum { root_cause, findings, ptxas, hardware }
        })
        .collect()
}

/// The severity rule, one row per severity, as `errata::severity` applies it.
fn severity_rules() -> String {
    let mut t = vec![vec!["severity".to_string(), "when (impact on someone implementing from the text)".into()]];
    for sev in [Severity::High, Severity::Medium, Severity::Low] {
        let when: Vec<&str> = Impact::ALL.iter().filter(|i| errata::severity(**i) == sev).map(|i| i.rule()).collect();
        t.push(vec![sev.label().to_string(), when.join("; or ")]);
    }
    markdown_table(&t)
}

/// Root causes by class and severity.
fn class_counts(errata: &[Erratum]) -> String {
    let mut t = vec![vec![
        "class".to_string(),
        "high".into(),
        "medium".into(),
        "low".into(),
        "root causes".into(),
        "findings".into(),
    ]];
    let mut classes: Vec<&str> = Class::ALL.iter().map(|c| c.label()).collect();
    if errata.iter().any(|e| e.root_cause.is_none()) {
        classes.push("unclassified");
    }
    for class in classes {
        let of: Vec<&Erratum> = errata.iter().filter(|e| e.class() == class).collect();
        let n = |sev: Severity| of.iter().filter(|e| e.severity() == sev).count().to_string();
        let findings: usize = of.iter().map(|e| e.findings.len()).sum();
        t.push(vec![
            class.to_string(),
            n(Severity::High),
            n(Severity::Medium),
            n(Severity::Low),
            of.len().to_string(),
            findings.to_string(),
        ]);
    }
    let all = |sev: Severity| errata.iter().filter(|e| e.severity() == sev).count().to_string();
    let findings: usize = errata.iter().map(|e| e.findings.len()).sum();
    t.push(vec![
        "**all**".into(),
        all(Severity::High),
        all(Severity::Medium),
        all(Severity::Low),
        errata.len().to_string(),
        findings.to_string(),
    ]);
    markdown_table(&t)
}

/// The README's lead: the errata by class and severity.
fn readme_errata(s: &mut String, audit: &Audit, vendor: Option<&Vendor>) {
    let errata = errata_of(audit, vendor);
    s.push_str("## Errata\n\n");
    let _ = writeln!(
        s,
        "{} defects of the spec text, each fixed by one edit, cover the audit's {} findings; [errata.md](errata.md) \
         lists them with a proposed fix each.\n",
        errata.len(),
        audit.findings.len()
    );
    s.push_str(&class_counts(&errata));
    s.push('\n');
}

fn errata_md(audit: &Audit, vendor: Option<&Vendor>) -> String {
    let errata = errata_of(audit, vendor);
    let mut s = String::from(HEADER);
    s.push_str("# Errata\n\n");
    let _ = writeln!(
        s,
        "The defects ptxcheck finds in the PTX ISA text of sections 9.7.1, 9.7.8 and 9.7.9.5 (shfl): {} root causes, \
         each a defect that one edit of the text fixes, covering {} findings. Each row gives the section, the class, \
         the severity, the problem, a proposed fix, and what NVIDIA's assembler (ptxas, by constant folding) and a GPU \
         do where the fix is a choice. [findings.md](findings.md) has each root cause's quote, witnesses and sites.\n",
        errata.len(),
        audit.findings.len()
    );
    s.push_str("Severity is judged by the impact on someone implementing the instruction from the text:\n\n");
    s.push_str(&severity_rules());
    s.push('\n');
    s.push_str(&class_counts(&errata));
    s.push('\n');
    let mut t = vec![vec![
        "#".to_string(),
        "root cause".into(),
        "section".into(),
        "class".into(),
        "severity".into(),
        "problem".into(),
        "proposed fix".into(),
        "ptxas".into(),
        "hardware".into(),
    ]];
    for (n, e) in errata.iter().enumerate() {
        let (problem, fix) = e.root_cause.map_or_else(
            || ("findings no root cause lists yet".to_string(), "-".to_string()),
            |rc| (rc.problem.clone(), rc.fix.clone()),
        );
        t.push(vec![
            (n + 1).to_string(),
            format!("[{}](findings.md#{})", e.id(), anchor(e.id())),
            e.sections(),
            e.class().into(),
            e.severity().label().into(),
            problem,
            fix,
            e.ptxas.clone(),
            e.hardware.clone(),
        ]);
    }
    s.push_str(&markdown_table(&t));
    s
}

/// Readings (rows) against inputs (columns), with the vendor's value where
/// ptxas folded that input: one table for up to three witnesses of the
/// same readings.
fn compact_markdown(tables: &[&WitnessTable], vendor: Option<&Vendor>) -> String {
    let Some(first) = tables.first() else { return String::new() };
    let mut header = vec!["reading".to_string()];
    for t in tables {
        let ins: Vec<String> = t.inputs.iter().map(|(n, v)| format!("{n}={}", v.hex())).collect();
        header.push(format!("`{}` {}", t.variant, if ins.is_empty() { "every input 0".into() } else { ins.join(" ") }));
    }
    let cell = |t: &WitnessTable, c: usize| -> String {
        let value = |v: &Option<ptx_spec::bv::BitVec>| v.map_or("undefined".to_string(), |b| format!("`{}`", b.hex()));
        if t.rows.len() == 1 {
            value(&t.rows[0].1[c])
        } else {
            t.rows.iter().map(|(n, vs)| format!("{n}={}", value(&vs[c]))).collect::<Vec<_>>().join(", ")
        }
    };
    let mut rows = vec![header];
    for (c, name) in first.columns.iter().enumerate() {
        let mut row = vec![name.clone()];
        row.extend(tables.iter().map(|t| cell(t, c)));
        rows.push(row);
    }
    let folded: Vec<Option<String>> = tables.iter().map(|t| vendor.and_then(|v| v.folded(t))).collect();
    if folded.iter().any(Option::is_some) {
        let mut row = vec!["ptxas".to_string()];
        row.extend(folded.into_iter().map(|f| f.unwrap_or_else(|| "-".into())));
        rows.push(row);
    }
    markdown_table(&rows)
}

fn findings(audit: &Audit, vendor: Option<&Vendor>) -> String {
    let errata = errata_of(audit, vendor);
    let mut s = String::from(HEADER);
    s.push_str("# Findings\n\n");
    s.push_str(
        "Every finding, under the root cause it is a site of ([errata.md](errata.md) has one row per root cause). \
         Each root cause quotes the spec, says what is wrong or open, proposes a fix, and shows a witness table: one \
         row per reading, one column per input (up to three) that tells them apart, and ptxas's value where it folded \
         that input. Every witness was found by a solver, brought down to the least input in operand order, and \
         confirmed by evaluating each reading concretely. Values are hexadecimal; `undefined` marks a result the \
         reading leaves undefined or unspecified. A shfl witness is one thread's view of the warp: `lane` is its lane \
         id, `b` and `c` its operands, `aN`, `activeN` and `unpredictableN` lane N's register, state and \
         unpredictable value; inputs not listed are 0.\n\n",
    );
    let _ = writeln!(
        s,
        "The Semantics blocks read literally as C (findings `literal-*`) assume {}.\n",
        crate::audit::literal::check::C_MODEL
    );
    let mut t =
        vec![vec!["root cause".to_string(), "section".into(), "class".into(), "severity".into(), "findings".into()]];
    for e in &errata {
        let ids: Vec<String> = e.findings.iter().map(|f| format!("[{}](#{})", f.id, anchor(&f.id))).collect();
        t.push(vec![
            format!("[{}](#{})", e.id(), anchor(e.id())),
            e.sections(),
            e.class().into(),
            e.severity().label().into(),
            ids.join(", "),
        ]);
    }
    s.push_str(&markdown_table(&t));
    for e in &errata {
        let _ = write!(s, "\n## {}\n\n", e.id());
        let _ = writeln!(s, "- section: {}", e.sections());
        match e.root_cause {
            Some(rc) => {
                let _ = writeln!(
                    s,
                    "- class: {}; severity: {} ({})",
                    rc.class.label(),
                    rc.severity().label(),
                    rc.impact.label()
                );
                let _ = writeln!(s, "- spec: `{}`", rc.quote.replace('`', "'"));
                let _ = writeln!(s, "- ptxas: {}; hardware: {}", e.ptxas, e.hardware);
                let _ = writeln!(s, "\n{}.\n", capitalise(&rc.problem));
                let _ = writeln!(s, "Proposed fix: {}", rc.fix);
                if let Some(r) = &rc.reading {
                    let _ = writeln!(s, "(the reading `{r}`)");
                }
            }
            None => {
                let _ = writeln!(s, "\nFindings that no root cause of `checker/errata/root-causes.toml` lists yet.");
            }
        }
        let w = e.witnesses();
        if !w.is_empty() {
            let _ = writeln!(s, "\nWitness:\n");
            s.push_str(&compact_markdown(&w, vendor));
        }
        let _ = writeln!(s, "\nSites ({}):\n", e.findings.len());
        let mut t = vec![vec!["finding".to_string(), "section".into(), "kind".into(), "summary".into()]];
        for f in &e.findings {
            t.push(vec![
                format!("[{}](#{})", f.id, anchor(&f.id)),
                f.section.clone(),
                f.kind.label().into(),
                f.summary.clone(),
            ]);
        }
        s.push_str(&markdown_table(&t));
        for f in &e.findings {
            finding_md(&mut s, f, vendor);
        }
    }
    s
}

/// One finding in full, under its root cause.
fn finding_md(s: &mut String, f: &Finding, vendor: Option<&Vendor>) {
    let _ = write!(s, "\n### {}\n\n", f.id);
    let _ = writeln!(s, "- section: {}; kind: {}", f.section, f.kind.label());
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
    let w: Vec<&WitnessTable> = f.witness.iter().chain(&f.more_witnesses).collect();
    if !w.is_empty() {
        let _ = writeln!(s, "\nWitness:\n");
        s.push_str(&compact_markdown(&w, vendor));
    }
}

fn capitalise(text: &str) -> String {
    let mut c = text.chars();
    c.next().map_or_else(String::new, |first| first.to_uppercase().chain(c).collect())
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

impl Vendor {
    /// Where the text and ptxas disagree on what is legal, as findings of
    /// class requirements: a forbidden neighbour ptxas accepts, or a
    /// variant the text allows that it rejects.
    pub fn requirement_findings(&self) -> Vec<Finding> {
        let rows = self.syntax["cases"].as_array().cloned().unwrap_or_default();
        let mut out = range_findings(&rows);
        for r in &rows {
            let kind = r["kind"].as_str().unwrap_or("");
            let accepted = r["ptxas"] == "accepted";
            let negative = crate::oracle::negative::KINDS.contains(&kind);
            if !(negative && accepted || kind == "variant" && !accepted) {
                continue;
            }
            let instruction = r["instruction"].as_str().unwrap_or("");
            let mnemonic = instruction.split_whitespace().next().unwrap_or("");
            let setting = format!("PTX {}, {}", r["ptx"].as_str().unwrap_or("?"), r["target"].as_str().unwrap_or("?"));
            let (id, summary) = if negative {
                (
                    format!(
                        "vendor-accepts-{kind}-{mnemonic}-{}-{}",
                        r["ptx"].as_str().unwrap_or(""),
                        r["target"].as_str().unwrap_or("")
                    ),
                    format!("ptxas accepts `{mnemonic}` under {setting}, which the text excludes ({kind})"),
                )
            } else {
                (
                    format!("vendor-rejects-{mnemonic}"),
                    format!(
                        "ptxas rejects `{mnemonic}` under {setting}, which the text allows: {}",
                        r["error"].as_str().unwrap_or("")
                    ),
                )
            };
            let section = Variant::all()
                .iter()
                .find(|v| v.mnemonic() == mnemonic || v.to_string() == r["name"].as_str().unwrap_or(""))
                .map_or_else(|| r["name"].as_str().unwrap_or("").to_string(), |v| v.section().to_string());
            out.push(Finding {
                id,
                section,
                kind: FindingKind::VendorSyntax,
                severity: Severity::Medium,
                root_cause: String::new(),
                fragment: mnemonic.to_string(),
                summary,
                detail: vec![format!("Assembled by `ptxcheck vendor syntax`: `{instruction}` under {setting}.")],
                model_choice: None,
                witness: None,
                more_witnesses: Vec::new(),
            });
        }
        out
    }
}

/// Where ptxas answers otherwise than the text on an immediate just outside
/// an operand's stated range (`range-edge` cases): one finding per section,
/// naming every such value.
fn range_findings(rows: &[Value]) -> Vec<Finding> {
    let mut by_section: Vec<(String, Vec<&Value>)> = Vec::new();
    for r in rows.iter().filter(|r| r["kind"] == crate::oracle::syntax::RANGE_EDGE && r["verdict"] == "disagree") {
        let name = r["name"].as_str().unwrap_or("");
        let variant = name.split(' ').next().unwrap_or("");
        let Some(section) = Variant::from_mnemonic(variant).map(|v| v.section().to_string()) else { continue };
        match by_section.iter_mut().find(|(s, _)| *s == section) {
            Some((_, list)) => list.push(r),
            None => by_section.push((section, vec![r])),
        }
    }
    by_section
        .into_iter()
        .map(|(section, list)| {
            let accepted = list[0]["ptxas"] == "accepted";
            let values: Vec<&str> =
                list.iter().filter_map(|r| r["name"].as_str()?.split_once(' ').map(|x| x.1)).collect();
            let variant = list[0]["name"].as_str().unwrap_or("").split(' ').next().unwrap_or("").to_string();
            let summary = if accepted {
                format!(
                    "ptxas accepts `{variant}` with {} as an immediate, outside the range the text gives the operand, \
                     and the text does not say what such a value does",
                    values.join(", ")
                )
            } else {
                format!(
                    "ptxas rejects `{variant}` with {} as an immediate ({}), where the text's range only restricts \
                     the value the block uses: the text does not say an immediate outside it is an error",
                    values.join(", "),
                    list[0]["error"].as_str().unwrap_or("").trim_start_matches("error : ")
                )
            };
            Finding {
                id: format!("vendor-range-{variant}"),
                section,
                kind: FindingKind::VendorSyntax,
                severity: Severity::Medium,
                root_cause: String::new(),
                fragment: variant.clone(),
                summary,
                detail: list
                    .iter()
                    .map(|r| {
                        format!(
                            "Assembled by `ptxcheck vendor syntax`: `{}` under PTX {}, {}: {}.",
                            r["instruction"].as_str().unwrap_or(""),
                            r["ptx"].as_str().unwrap_or("?"),
                            r["target"].as_str().unwrap_or("?"),
                            r["ptxas"].as_str().unwrap_or("?")
                        )
                    })
                    .collect(),
                model_choice: None,
                witness: None,
                more_witnesses: Vec::new(),
            }
        })
        .collect()
}

/// The README's section on the spec text the report was given.
fn readme_text(s: &mut String, t: &TextAudit) {
    s.push_str("\n## The spec text\n\n");
    s.push_str(
        "The PTX ISA sections read by `ptxcheck text` (the document is the user's: the report names no file): its \
         wording, structure and code, and every block the project transcribed compared with it by fingerprint.\n\n",
    );
    let mut sections: Vec<&str> = t.document.sections.iter().map(|x| x.number.as_str()).collect();
    let renderings = sections.len();
    sections.sort_by_key(|x| section_key(x));
    sections.dedup();
    let mut rows = vec![vec!["spec text".to_string(), "count".into()]];
    rows.push(vec!["sections read (renderings)".into(), format!("{} ({renderings})", sections.len())]);
    for k in [FindingKind::Spelling, FindingKind::Structure, FindingKind::MalformedCode, FindingKind::UndefinedHelper] {
        rows.push(vec![
            format!("{} findings", k.label()),
            t.findings.iter().filter(|f| f.kind == k).count().to_string(),
        ]);
    }
    rows.push(vec!["transcribed blocks and passages compared".into(), t.compared.to_string()]);
    rows.push(vec!["stale transcriptions".into(), t.stale.len().to_string()]);
    rows.push(vec!["not rendered by the text, not compared".into(), t.unchecked.to_string()]);
    s.push_str(&markdown_table(&rows));
    if let Some(why) = &t.spelling_skipped {
        let _ = writeln!(s, "\nSpelling not checked: {why}.");
    }
    for x in &t.stale {
        let _ = writeln!(s, "\n- transcription stale: re-check {} ({})", x.what, x.change.label());
    }
    for h in &t.helpers_unlisted {
        let _ = writeln!(s, "\n- {h}");
    }
    readme_coverage(s, &t.coverage);
}

/// The README's document coverage: every unit of the text, checked, marked
/// not checkable, or unread, by kind of unit and by section.
fn readme_coverage(s: &mut String, c: &crate::audit::text::coverage::Coverage) {
    use crate::audit::text::coverage::Counts;
    s.push_str("\n### Document coverage\n\n");
    s.push_str(
        "Every unit of the text (heading, label, sentence, list item, table row, Syntax line, Semantics statement \
         and comment, example and its comment) and how it is accounted for: checked by a claim, a passage, a \
         finding, a transcription read by a check, the structure, requirements or operands pass; marked not checkable \
         (`checker/text/not-checkable.toml`, with its reason); or unread. `ptxcheck text PATH --coverage` lists \
         each unit and what checks it.\n\n",
    );
    let header = |first: &str| {
        let mut h = vec![first.to_string()];
        h.extend(Counts::COLUMNS.iter().map(|c| c.to_string()));
        h
    };
    let mut rows = vec![header("kind of unit")];
    rows.extend(c.by_kind().iter().map(|(k, n)| n.row(k.key().to_string())));
    rows.push(c.total().row("all".into()));
    s.push_str(&markdown_table(&rows));
    s.push('\n');
    let mut rows = vec![header("section")];
    rows.extend(c.by_section().iter().map(|(sec, n)| n.row(sec.clone())));
    s.push_str(&markdown_table(&rows));
}

/// The spec text's summary for tools (its findings are among the audit's).
fn text_json(t: &TextAudit) -> Value {
    // What was read: the SHA-256 of its units' fingerprints, in order, so a
    // report says which text it was made with.
    let prints: String = t.coverage.units.iter().map(|a| a.unit.sha256.as_str()).collect::<Vec<_>>().join("\n");
    json!({
        "fingerprint": crate::audit::text::drift::sha256(&prints),
        "compared": t.compared,
        "unchecked": t.unchecked,
        "stale": t.stale.iter().map(|x| json!({ "what": x.what, "change": x.change })).collect::<Vec<_>>(),
        "spelling_skipped": t.spelling_skipped,
        "helpers_unlisted": t.helpers_unlisted,
        "coverage": {
            "total": t.coverage.total(),
            "kinds": t.coverage.by_kind().into_iter().map(|(k, c)| json!({"kind": k, "counts": c})).collect::<Vec<_>>(),
            "unread": t.coverage.unread().map(|a| a.unit.id.clone()).collect::<Vec<_>>(),
        },
    })
}

fn json_report(runs: &[SolverRun], audit: &Audit, vendor: Option<&Vendor>) -> Value {
    let root_causes: Vec<Value> = errata_of(audit, vendor)
        .iter()
        .map(|e| {
            let ids: Vec<&str> = e.findings.iter().map(|f| f.id.as_str()).collect();
            let mut v = match e.root_cause {
                Some(rc) => json!(rc),
                None => json!({ "id": errata::UNASSIGNED, "class": "unclassified" }),
            };
            v["severity"] = json!(e.severity());
            v["findings"] = json!(ids);
            v["ptxas"] = json!(e.ptxas);
            v["hardware"] = json!(e.hardware);
            v
        })
        .collect();
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
        "schema_version": SCHEMA_VERSION,
        "root_causes": root_causes,
        "solvers": solvers,
        "variants": variants,
        "assumptions": assumption::ALL,
        "claims": claims_json::claims(&audit.claims),
        "audit": audit.json(),
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

    /// The README's section on the seed text (`../shared/seeds/` from the
    /// repository root) and its JSON.
    #[test]
    fn the_spec_text_section_counts_the_seeds() {
        // The copy the tests read (checker/tests/common: `spec_text`).
        let seeds = match std::env::var_os("PTXCHECK_SPEC_TEXT").filter(|v| !v.is_empty()) {
            Some(v) => std::env::split_paths(&v).next().unwrap(),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds"),
        };
        if !seeds.is_dir() {
            let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
            assert!(!ci, "CI: nothing may be skipped, but the spec text {} is missing", seeds.display());
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "skipped: the_spec_text_section_counts_the_seeds needs the spec text");
            return;
        }
        let t = crate::audit::text::run(&[seeds]).unwrap();
        let mut s = String::new();
        readme_text(&mut s, &t);
        assert!(s.contains("| sections read (renderings) | 36 (38) |"), "{s}");
        assert!(s.contains("| stale transcriptions | 0 |"), "{s}");
        assert!(!s.contains("shared/seeds"), "no paths in the report: {s}");
        assert!(s.contains("| undefined helper findings | 8 |"), "{s}");
        assert_eq!(text_json(&t)["compared"], 128, "the transcribed blocks and passages, the new passages included");
        assert_eq!(text_json(&t)["helpers_unlisted"].as_array().unwrap().len(), 0);
    }

    #[test]
    fn immediates_outside_a_stated_range_are_one_finding_per_section() {
        let rows: Vec<Value> = vec![
            json!({"kind": "range-edge", "name": "lop3.b32 immLut=256", "instruction": "lop3.b32 %d, %a, %b, %c, 256;",
                   "ptx": "4.3", "target": "sm_50", "ptxas": "accepted", "verdict": "disagree"}),
            json!({"kind": "range-edge", "name": "lop3.b32 immLut=-1", "instruction": "lop3.b32 %d, %a, %b, %c, -1;",
                   "ptx": "4.3", "target": "sm_50", "ptxas": "accepted", "verdict": "disagree"}),
            json!({"kind": "range-edge", "name": "shf.l.clamp.b32 c=33", "instruction": "shf.l.clamp.b32 %d, %a, %b, 33;",
                   "ptx": "4.0", "target": "sm_50", "ptxas": "accepted", "verdict": "agree"}),
        ];
        let found = range_findings(&rows);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].id.as_str(), found[0].section.as_str()), ("vendor-range-lop3.b32", "9.7.8.6"));
        assert!(
            found[0].summary.starts_with("ptxas accepts `lop3.b32` with immLut=256, immLut=-1"),
            "{}",
            found[0].summary
        );
        assert_eq!(found[0].detail.len(), 2);
    }

    #[test]
    fn ptxas_and_the_text_disagreeing_on_legality_are_requirement_findings() {
        let vendor = Vendor {
            syntax: json!({"cases": [
                {"kind": "forbidden-type", "name": "9.7.1.14", "instruction": "popc.u32 %d, %a;", "ptx": "8.8",
                 "target": "sm_90", "ptxas": "accepted"},
                {"kind": "below-ptx", "name": "lop3.or.b32", "instruction": "lop3.or.b32 %d|%p, %a, %b, %c, 0x96, %q;",
                 "ptx": "8.1", "target": "sm_70", "ptxas": "rejected", "error": "needs 8.2"},
                {"kind": "variant", "name": "add.s32", "instruction": "add.s32 %d, %a, %b;", "ptx": "4.0",
                 "target": "sm_50", "ptxas": "rejected", "error": "no"},
                {"kind": "variant", "name": "add.u32", "instruction": "add.u32 %d, %a, %b;", "ptx": "4.0",
                 "target": "sm_50", "ptxas": "accepted"},
            ]}),
            fold: json!({"instances": []}),
            hardware: None,
        };
        let found = vendor.requirement_findings();
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["vendor-accepts-forbidden-type-popc.u32-8.8-sm_90", "vendor-rejects-add.s32"]);
        assert_eq!((found[0].section.as_str(), found[1].section.as_str()), ("9.7.1.14", "9.7.1.1"));
        assert!(found.iter().all(|f| f.kind == FindingKind::VendorSyntax));
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
            root_cause: String::new(),
            fragment: String::new(),
            summary: summary.into(),
            detail: vec![],
            model_choice: None,
            witness: None,
            more_witnesses: Vec::new(),
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
