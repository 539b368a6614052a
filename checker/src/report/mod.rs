//! `ptxcheck report`: the discrepancy reports under `reports/`, for spec
//! auditors (Markdown) and tools (JSON).
//!
//! The files are a function of the catalogue, the claims, the passages and
//! the solvers' verdicts only: sorted, with no timestamps, timings or paths,
//! so that a rerun writes the same bytes and `report --check` can tell a
//! stale report from a fresh one. (Times vary run to run; they belong to the
//! benchmark.)

use std::fs;
use std::path::{Path, PathBuf};

use crate::audit::text::TextAudit;
use crate::audit::Audit;
use crate::error::Error;
use crate::output::Output;
use crate::prove::ProofResult;

mod errata;
mod findings;
pub mod hardware;
mod json;
mod readme;
mod variants;
mod vendor;

use errata::errata_md;
pub use errata::{errata_of, Erratum};
use findings::findings;
use json::{json_report, text_json};
use readme::{readme, readme_text};
use variants::variants;
pub use vendor::Vendor;

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
