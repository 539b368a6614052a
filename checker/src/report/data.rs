//! The report as one typed value: what `ptxcheck.json` holds, field for
//! field (`reports/SCHEMA.md`). The JSON is this value serialised, and the
//! other renderings (Markdown, HTML) read it, so a field the schema names is
//! a field here, and a committed report deserialises into it
//! (`deny_unknown_fields` throughout: a key no type names is an error, not
//! a key ignored).
//!
//! The types own their data and carry values as the report writes them
//! (hexadecimal text, labels), so a report read back from disk is the same
//! value as the one built.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::audit::errata::{Class, Edit, Impact};
use crate::audit::finding::{FindingKind, Severity};
use crate::audit::literal::check::BlockCheck;
use crate::audit::passages::compare::Agreement;
use crate::audit::passages::Text;
use crate::audit::text::coverage::{Counts, Reason, Status as UnitStatus};
use crate::audit::text::drift::Change;
use crate::audit::text::judge::Status;
use crate::audit::text::units::UnitKind;
use crate::oracle::defects::DefectRow;

/// Named values in the order the check gives them: input registers and
/// their hexadecimal values.
pub type Named = IndexMap<String, String>;

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub schema_version: u32,
    pub root_causes: Vec<RootCauseEntry>,
    pub solvers: Vec<SolverSummary>,
    pub variants: Vec<VariantEntry>,
    pub assumptions: Vec<AssumptionEntry>,
    pub claims: Claims,
    pub audit: AuditEntry,
    /// ptxas's miscompilations: apart from the spec's root causes.
    pub vendor_defects: Vec<DefectRow>,
    /// What was read of the spec text, where the report was made with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_text: Option<SpecText>,
}

/// One root cause of the errata, or the group of findings none lists
/// (`id` `unassigned`, with only the fields every entry has).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RootCauseEntry {
    pub id: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
    pub class: RootCauseClass,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impact: Option<Impact>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edit: Vec<Edit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub also: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// Its sites: the ids of the findings it covers.
    pub findings: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settles: Vec<String>,
    /// The fix in words, made from `edit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    pub severity: Severity,
    /// What NVIDIA's assembler says of it, in words.
    pub ptxas: String,
    /// What the H100 results say of it, in words.
    pub hardware: String,
    /// How it stands in the text the report was made with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_why: Option<String>,
    /// The units of that text its verdict rests on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rests_on: Option<Vec<String>>,
}

/// A root cause's class; the findings no root cause lists are
/// `unclassified`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RootCauseClass {
    Unclassified,
    #[serde(untagged)]
    Class(Class),
}

/// One solver's counts over the catalogue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverSummary {
    pub solver: String,
    pub variants: usize,
    pub proven: usize,
    pub counterexample: usize,
    pub unknown: usize,
    pub timeout: usize,
}

/// One variant of the catalogue and its verdicts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantEntry {
    pub variant: String,
    pub section: String,
    pub requires: String,
    /// Solver name to verdict label, in the order the solvers ran.
    pub verdicts: IndexMap<String, String>,
    pub assumptions: Vec<String>,
    /// The third proof: its Semantics block against its encoding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semantics_block: Option<SemanticsBlock>,
}

/// One variant's third proof.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SemanticsBlock {
    pub variant: String,
    pub verdict: String,
    pub readings: Vec<String>,
    pub fixes: Vec<String>,
    /// The named difference between text and model the verdict rests on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difference: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<BlockWitness>,
    /// Why the block was not read, or why the solver gave no answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// An input where the model is narrower than the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrower: Option<Named>,
}

/// Inputs where the text's block and the encoding differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockWitness {
    pub inputs: Named,
    pub outputs: Vec<BlockOutput>,
}

/// One output under the encoding and under the text (`None`: undefined).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockOutput {
    pub name: String,
    pub encoding: Option<String>,
    pub text: Option<String>,
}

/// A reading the model adopts where the text leaves a case open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssumptionEntry {
    pub id: String,
    pub section: String,
    pub fragment: String,
    pub reading: String,
    /// The root cause whose fix, fixed in the text, states this reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stated_by_text: Option<String>,
}

/// The spec's checkable claims (`ptxcheck claims --format json` too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claims {
    pub claims: Vec<ClaimEntry>,
    pub summary: ClaimSummary,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimEntry {
    pub id: String,
    pub section: String,
    pub kind: String,
    pub statement: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fragment: Option<String>,
    pub check: CheckEntry,
    /// How it was checked, in words.
    pub method: String,
    pub verdict: String,
    /// Why it is not checkable, or why the solver gave no answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<ClaimWitness>,
}

/// How a claim is checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "how", deny_unknown_fields)]
pub enum CheckEntry {
    /// A concrete run with given inputs and expected outputs.
    #[serde(rename = "values")]
    Values { program: String, inputs: Named, expect: Vec<String> },
    /// Proven for every input that meets `assume`.
    #[serde(rename = "always")]
    Always { program: String, assume: Vec<String>, holds: Vec<String> },
    /// Shown to fail for some input that meets `assume`.
    #[serde(rename = "fails")]
    Fails { program: String, assume: Vec<String>, holds: Vec<String> },
    /// A warp-wide program, its register summed over the lanes.
    #[serde(rename = "warp")]
    Warp { program: String, register: String, sum: String },
    /// An instruction the catalogue parses.
    #[serde(rename = "catalogue")]
    Catalogue { instruction: String },
    /// An instruction its Syntax block admits.
    #[serde(rename = "syntax-block")]
    SyntaxBlock { instruction: String },
    /// An instruction the text says is rejected.
    #[serde(rename = "rejected")]
    Rejected { instruction: String },
    #[serde(rename = "none")]
    None { reason: String },
}

/// The inputs on which a claim fails, what the conditions read, and which
/// conditions fail.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimWitness {
    pub inputs: Named,
    /// `None`: undefined after the run.
    pub observed: IndexMap<String, Option<String>>,
    pub failing: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSummary {
    pub claims: usize,
    pub holds: usize,
    pub refuted: usize,
    pub not_checkable: usize,
    pub unknown: usize,
}

/// Every finding, each passage's readings, and each Semantics block read
/// as C.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditEntry {
    pub findings: Vec<FindingEntry>,
    pub passages: Vec<PassageEntry>,
    pub semantics_blocks_as_c: Vec<BlockCheck>,
}

/// One finding about the spec text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FindingEntry {
    pub id: String,
    pub section: String,
    pub kind: FindingKind,
    pub severity: Severity,
    pub root_cause: String,
    pub fragment: String,
    pub summary: String,
    pub detail: Vec<String>,
    pub model_choice: Option<String>,
    pub witness: Option<Witness>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_witnesses: Vec<Witness>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_quotes: Vec<String>,
    /// The units of the text it is about, where the report was made with
    /// one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<String>>,
}

/// Inputs and each compared reading's outputs (`None`: undefined or
/// unspecified under that reading).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Witness {
    pub variant: String,
    pub inputs: Vec<(String, String)>,
    pub columns: Vec<String>,
    pub rows: Vec<(String, Vec<Option<String>>)>,
}

/// An ambiguous passage and its readings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassageEntry {
    pub id: String,
    pub section: String,
    pub fragment: String,
    pub question: String,
    pub adopted: String,
    pub readings: Vec<ReadingEntry>,
    pub comparisons: Vec<ComparisonEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadingEntry {
    pub name: String,
    pub says: String,
    pub text: Text,
    pub adopted: bool,
    pub agrees_with: Vec<String>,
    pub pseudocode: Agreement,
    pub prose: Agreement,
    pub examples: Agreement,
    pub model: Agreement,
}

/// Two readings on one variant: `agree`, `differ` (with the witness) or
/// `unknown` (with the reason).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComparisonEntry {
    pub first: String,
    pub second: String,
    pub variant: String,
    pub verdict: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<Witness>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What was read of the spec text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecText {
    pub fingerprint: String,
    pub compared: usize,
    pub unchecked: usize,
    pub stale: Vec<StaleEntry>,
    pub spelling_skipped: Option<String>,
    pub helpers_unlisted: Vec<String>,
    pub coverage: CoverageEntry,
    /// The sections read, in the text's order, each with its units: what
    /// the annotated document shows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<SectionEntry>,
}

/// One section of the text (one rendering of it, where the text renders a
/// section twice: `9.7.8.6@2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectionEntry {
    pub number: String,
    pub title: String,
    pub units: Vec<UnitEntry>,
}

/// One unit of the text and how it is accounted for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitEntry {
    pub id: String,
    pub kind: UnitKind,
    /// Its text, white space collapsed, Markdown's marks kept.
    pub text: String,
    pub status: UnitStatus,
    /// The checks that rest on it (`claim:ID`, `passage:ID`,
    /// `literal:SECTION`, `text:PASS`), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checked_by: Vec<String>,
    /// Why it cannot be checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaleEntry {
    pub what: String,
    pub change: Change,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoverageEntry {
    pub total: Counts,
    pub kinds: Vec<KindCounts>,
    /// The ids of the units nothing read.
    pub unread: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindCounts {
    pub kind: UnitKind,
    pub counts: Counts,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed report is a value of these types, and serialising it
    /// again gives its bytes: the types name every field, in order.
    #[test]
    fn the_committed_report_reads_back_into_the_types() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/ptxcheck.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let report: Report = serde_json::from_str(&text).unwrap_or_else(|e| panic!("ptxcheck.json: {e}"));
        assert_eq!(serde_json::to_string_pretty(&report).unwrap() + "\n", text);
        assert!(report.spec_text.is_some() && !report.audit.findings.is_empty());
        // The committed file is the current layout, not an earlier one that
        // happens to read back (a raised version must be regenerated).
        assert_eq!(
            report.schema_version,
            crate::report::SCHEMA_VERSION,
            "reports/ptxcheck.json: run `ptxcheck report`"
        );
    }

    /// A key that no type names is refused, not dropped.
    #[test]
    fn an_unknown_key_is_an_error() {
        let entry = r#"{"solver": "z3", "variants": 1, "proven": 1, "counterexample": 0, "unknown": 0, "timeout": 0}"#;
        assert!(serde_json::from_str::<SolverSummary>(entry).is_ok());
        let extra = entry.replace("\"z3\",", "\"z3\", \"wall_s\": 3,");
        let err = serde_json::from_str::<SolverSummary>(&extra).unwrap_err().to_string();
        assert!(err.contains("unknown field `wall_s`"), "{err}");
    }
}

#[cfg(test)]
mod schema {
    use super::Report;
    use serde_json::Value;

    /// The keys of objects whose keys are data (register and solver names),
    /// not fields.
    const MAPS: [&str; 4] = ["verdicts", "inputs", "observed", "narrower"];

    fn keys(v: &Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    out.insert(k.clone());
                    if !MAPS.contains(&k.as_str()) || !x.is_object() {
                        keys(x, out);
                    }
                }
            }
            Value::Array(xs) => xs.iter().for_each(|x| keys(x, out)),
            _ => {}
        }
    }

    /// `reports/SCHEMA.md` names, in code font, every field the committed
    /// report has.
    #[test]
    fn the_schema_page_names_every_key() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports");
        let report: Report =
            serde_json::from_str(&std::fs::read_to_string(root.join("ptxcheck.json")).unwrap()).unwrap();
        let page = std::fs::read_to_string(root.join("SCHEMA.md")).unwrap();
        let mut all = std::collections::BTreeSet::new();
        keys(&serde_json::to_value(&report).unwrap(), &mut all);
        let unnamed: Vec<&String> = all.iter().filter(|k| !page.contains(&format!("`{k}`"))).collect();
        assert!(unnamed.is_empty(), "keys SCHEMA.md does not name: {unnamed:?}");
    }
}
