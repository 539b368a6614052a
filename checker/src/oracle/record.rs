//! The files one stage writes and another reads, as types: `vendor syntax`
//! and `vendor fold` write `reports/vendor/ptxas-syntax.json` and
//! `ptxas-fold.json` through them, and `report`, `sm_90` and `hw` read them
//! back through the same types, so a field that is missing or of the wrong
//! kind is an error naming the file and the field, never a silent default.
//! The witnesses that `vendor fold`, `hw` and `vectors` take from the
//! report's `ptxcheck.json` are read the same way ([`AuditWitnesses`]).

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

use crate::error::Error;
use ptx_spec::bv::parse_hex;

/// A vendor tool as a record names it: its release line and the wheel it
/// came from (if it came from one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolRecord {
    pub release: String,
    pub wheel: Option<String>,
}

/// A case of `ptxas-syntax.json` (`super::syntax`) and ptxas's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyntaxRow {
    pub kind: String,
    pub name: String,
    pub instruction: String,
    pub ptx: String,
    pub target: String,
    pub ptxas: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub catalogue: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_block: Option<bool>,
    /// `agree`, `disagree`, or `out of scope` (neither of ptxcheck's checks
    /// judges it: a floating-point example).
    pub verdict: String,
}

/// An instance of `ptxas-fold.json` (`super::fold`) and what ptxas made of it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FoldRow {
    pub variant: String,
    pub origin: String,
    pub inputs: Vec<String>,
    /// The model's outputs: hex, or `unspecified`.
    pub model: Vec<String>,
    /// ptxas's folded outputs: hex, or `not folded (OPCODE)`.
    pub vendor: Vec<String>,
    /// `agree`, `disagree`, `vendor picks` (the model leaves the value
    /// unspecified; ptxas folds it to one), `not folded` or `rejected`.
    pub verdict: String,
    /// For an audit witness: the readings whose values ptxas's match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `ptxas-syntax.json` before its cases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyntaxHead {
    pub ptxas: ToolRecord,
    pub arch: String,
    pub counts: SyntaxCounts,
}

/// The cases of `ptxas-syntax.json` counted by kind and by ptxas's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntaxCounts {
    pub variants: usize,
    pub variants_accepted: usize,
    /// The removed shfl forms ptxas rejects.
    pub removed_rejected: usize,
    pub examples: usize,
    pub examples_accepted: usize,
    /// Forbidden neighbours of the variants (`crate::oracle::negative`).
    pub negative: usize,
    pub negative_rejected: usize,
    pub negative_accepted: usize,
    /// Forms the text allows that ptxas rejects.
    pub positive_rejected: usize,
    /// Immediates just outside a stated operand range.
    pub range_edges: usize,
    pub range_edges_disagree: usize,
    pub agree: usize,
    pub disagree: usize,
    pub out_of_scope: usize,
}

/// `ptxas-syntax.json`: every case ptxas assembled, and its answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyntaxRecord {
    #[serde(flatten)]
    pub head: SyntaxHead,
    pub cases: Vec<SyntaxRow>,
}

/// `ptxas-fold.json` before its instances.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FoldHead {
    pub ptxas: ToolRecord,
    pub cuobjdump: ToolRecord,
    pub setting: String,
    pub samples_per_variant: usize,
    pub counts: FoldCounts,
}

/// The instances of `ptxas-fold.json` counted by verdict
/// (`crate::oracle::fold::VERDICTS`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoldCounts {
    pub instances: usize,
    pub agree: usize,
    pub disagree: usize,
    pub vendor_picks: usize,
    pub not_folded: usize,
    pub rejected: usize,
}

impl FoldCounts {
    /// The counts of `rows`.
    pub fn of(rows: &[FoldRow]) -> FoldCounts {
        let n = |v: &str| rows.iter().filter(|r| r.verdict == v).count();
        FoldCounts {
            instances: rows.len(),
            agree: n("agree"),
            disagree: n("disagree"),
            vendor_picks: n("vendor picks"),
            not_folded: n("not folded"),
            rejected: n("rejected"),
        }
    }
}

/// `ptxas-fold.json`: every instance on constants, and what ptxas folded.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FoldRecord {
    #[serde(flatten)]
    pub head: FoldHead,
    pub instances: Vec<FoldRow>,
}

/// The witnesses of the audit in a report's `ptxcheck.json`: each
/// finding's, and each comparison's of each passage (the probes).
#[derive(Clone, Debug, Deserialize)]
pub struct AuditWitnesses {
    pub audit: Witnesses,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Witnesses {
    pub findings: Vec<FindingWitness>,
    pub passages: Vec<PassageWitnesses>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct FindingWitness {
    pub id: String,
    pub witness: Option<WitnessRecord>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct PassageWitnesses {
    pub id: String,
    pub comparisons: Vec<ComparisonWitness>,
}

/// A comparison of two readings: its witness where they differ.
#[derive(Clone, Debug, Deserialize)]
pub struct ComparisonWitness {
    #[serde(default)]
    pub witness: Option<WitnessRecord>,
}

/// A witness table as the report writes it (`crate::audit::finding::
/// WitnessTable`): its values read back as numbers.
#[derive(Clone, Debug, Deserialize)]
pub struct WitnessRecord {
    pub variant: String,
    pub inputs: Vec<(String, Hex)>,
    pub columns: Vec<String>,
    /// Per output: its name and its value under each column (`None`:
    /// undefined under that column).
    pub rows: Vec<(String, Vec<Option<Hex>>)>,
}

/// A value written in hexadecimal ([`ptx_spec::bv::hex`]); anything else
/// is an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hex(pub u128);

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let text = String::deserialize(d)?;
        parse_hex(&text).map(Hex).ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a hex value")))
    }
}

/// The committed report (`reports/ptxcheck.json`) as ptxcheck was built
/// with it: `vectors`, `hw` and `vendor fold` take its witnesses from here
/// unless given a report, so that they run from any folder.
const BUILT_IN_REPORT: &str = include_str!("../../../reports/ptxcheck.json");

/// The witnesses of the report built into ptxcheck.
pub fn built_in_witnesses() -> Result<AuditWitnesses, Error> {
    parse(Path::new("the built-in reports/ptxcheck.json"), BUILT_IN_REPORT)
}

/// The record in `text`, read from `path`: an error names the file, and
/// the field and line where it fails.
pub fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, Error> {
    serde_json::from_str(text)
        .map_err(|e| Error::usage(format!("{} is not as ptxcheck writes it: {e}", path.display())))
}

/// The record at `path`; `None` if there is no such file.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, Error> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(path, &text).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::file(format!("cannot read {}", path.display()), e)),
    }
}

/// JSON with the head's fields, then one row a line under `key`, so diffs
/// of the committed records stay small.
pub fn lines_json<H: Serialize, R: Serialize>(head: &H, key: &str, rows: &[R]) -> String {
    let mut text = serde_json::to_string_pretty(head).unwrap_or_default();
    text.truncate(text.trim_end().trim_end_matches('}').trim_end().len());
    let body: Vec<String> =
        rows.iter().map(|r| format!("    {}", serde_json::to_string(r).unwrap_or_default())).collect();
    format!("{text},\n  \"{key}\": [\n{}\n  ]\n}}\n", body.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reports() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/vendor")
    }

    /// The committed records read through the types and written again give
    /// the same bytes: the types hold every field, in the order written.
    #[test]
    fn committed_records_read_and_write_back_unchanged() {
        let path = reports().join("ptxas-syntax.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let syntax: SyntaxRecord = parse(&path, &text).unwrap();
        assert_eq!(lines_json(&syntax.head, "cases", &syntax.cases), text);
        let path = reports().join("ptxas-fold.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let fold: FoldRecord = parse(&path, &text).unwrap();
        assert_eq!(lines_json(&fold.head, "instances", &fold.instances), text);
        assert_eq!(FoldCounts::of(&fold.instances), fold.head.counts);
    }

    #[test]
    fn a_missing_field_is_an_error_naming_the_file_and_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ptxas-fold.json");
        let text = std::fs::read_to_string(reports().join("ptxas-fold.json")).unwrap();
        std::fs::write(&path, text.replacen(",\"verdict\":\"agree\"", "", 1)).unwrap();
        let e = read::<FoldRecord>(&path).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{} is not as ptxcheck writes it", path.display())), "{e}");
        assert!(e.contains("missing field `verdict`"), "{e}");
        assert!(read::<FoldRecord>(&dir.path().join("none.json")).unwrap().is_none());
    }

    #[test]
    fn a_witness_value_that_is_not_hex_is_an_error() {
        let text = r#"{"audit": {"findings": [{"id": "x", "witness": {"variant": "add.s32",
            "inputs": [["a", "12z"]], "columns": [], "rows": []}}], "passages": []}}"#;
        let e = parse::<AuditWitnesses>(Path::new("ptxcheck.json"), text).unwrap_err().to_string();
        assert!(e.contains("`12z` is not a hex value"), "{e}");
    }
}
