//! `errata.md`: the root causes, with their findings, severity and fixes.

use std::fmt::Write as _;

use rayon::prelude::*;

use crate::audit::errata::{self, Class, Impact, RootCause};
use crate::audit::finding::{Finding, FindingKind, Severity, WitnessTable};
use crate::audit::text::judge::Status;
use crate::audit::text::TextAudit;
use crate::audit::Audit;

use super::vendor::Vendor;
use super::{anchor, markdown_table, HEADER};

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
    pub(super) fn id(&self) -> &str {
        self.root_cause.map_or(errata::UNASSIGNED, |rc| rc.id.as_str())
    }

    pub(super) fn severity(&self) -> Severity {
        self.root_cause.map_or_else(
            || self.findings.iter().map(|f| f.severity).min().unwrap_or(Severity::High),
            |rc| rc.severity(),
        )
    }

    pub(super) fn class(&self) -> &'static str {
        self.root_cause.map_or("unclassified", |rc| rc.class.label())
    }

    pub(super) fn sections(&self) -> String {
        self.root_cause.map_or_else(|| "-".into(), |rc| rc.sections_text())
    }

    /// The witnesses of its lead finding: a passage's (every reading, on up
    /// to three inputs) if it has one, else the first finding's.
    pub(super) fn witnesses(&self) -> Vec<&WitnessTable> {
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
    // Each root cause's vendor and GPU verdicts are independent and read
    // thousands of results: one root cause per thread.
    errata::group(&audit.findings)
        .into_par_iter()
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
pub(super) fn severity_rules() -> String {
    let mut t = vec![vec!["severity".to_string(), "when (impact on someone implementing from the text)".into()]];
    for sev in [Severity::High, Severity::Medium, Severity::Low] {
        let when: Vec<&str> = Impact::ALL.iter().filter(|i| errata::severity(**i) == sev).map(|i| i.rule()).collect();
        t.push(vec![sev.label().to_string(), when.join("; or ")]);
    }
    markdown_table(&t)
}

/// Root causes by class and severity.
pub(super) fn class_counts(errata: &[Erratum]) -> String {
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

/// The sentence that says which text the errata were judged against, and
/// how each root cause stands in it.
fn judged_against(text: Option<&TextAudit>) -> String {
    let Some(t) = text else {
        return "Not judged against a text: `ptxcheck report --text PATH...` judges each root cause against the \
                user's copy of the sections.\n"
            .into();
    };
    let mut files: Vec<&str> = t.document.sections.iter().map(|s| s.file.as_str()).collect();
    files.dedup();
    let names: Vec<&str> = files.iter().map(|f| f.rsplit('/').next().unwrap_or(f)).collect();
    let counts: Vec<String> = Status::ALL
        .iter()
        .map(|s| format!("{} {}", t.judged.iter().filter(|j| j.status == *s).count(), s.label()))
        .collect();
    format!(
        "Judged against the text `ptxcheck report --text` was given: {} files ({}), {} units, fingerprint `{}` \
         (`ptxcheck.json`'s `spec_text`). Root causes: {}. A root cause is open while the units it rests on are \
         unchanged; fixed where its edit is in the text and the passes that read the text no longer find it; \
         changed where its units changed otherwise ([findings.md](findings.md) lists them).\n",
        names.len(),
        names.join(", "),
        t.coverage.units.len(),
        &t.fingerprint()[..16],
        counts.join(", ")
    )
}

pub(super) fn errata_md(audit: &Audit, errata: &[Erratum], text: Option<&TextAudit>) -> String {
    let mut s = String::from(HEADER);
    s.push_str("# Errata\n\n");
    let _ = writeln!(
        s,
        "The defects ptxcheck finds in the PTX ISA text of sections 9.7.1, 9.7.8 and 9.7.9.5 (shfl), and of the 9.1 \
         release's 9.7.2 (the carry chains), 9.7.6 (set, setp, selp, slct), 9.7.9.6 (shfl.sync) and 9.7.9.7 (prmt): \
         {} root causes, \
         each a defect that one edit of the text fixes, covering {} findings. Each row gives the section, the class, \
         the severity, the problem, a proposed fix, and what NVIDIA's assembler (ptxas, by constant folding) and a GPU \
         do where the fix is a choice. [findings.md](findings.md) has each root cause's quote, witnesses and sites.\n",
        errata.len(),
        audit.findings.len()
    );
    s.push_str(&judged_against(text));
    s.push('\n');
    s.push_str("Severity is judged by the impact on someone implementing the instruction from the text:\n\n");
    s.push_str(&severity_rules());
    s.push('\n');
    s.push_str(&class_counts(errata));
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
    if text.is_some() {
        t[0].insert(5, "in the text".into());
    }
    for (n, e) in errata.iter().enumerate() {
        let (problem, fix) = e.root_cause.map_or_else(
            || ("findings no root cause lists yet".to_string(), "-".to_string()),
            |rc| (rc.problem.clone(), rc.fix()),
        );
        let mut row = vec![
            (n + 1).to_string(),
            format!("[{}](findings.md#{})", e.id(), anchor(e.id())),
            e.sections(),
            e.class().into(),
            e.severity().label().into(),
            problem,
            fix,
            e.ptxas.clone(),
            e.hardware.clone(),
        ];
        if let Some(t) = text {
            let judged = t.judged.iter().find(|j| j.id == e.id());
            row.insert(5, judged.map_or("-".into(), |j| j.status.label().to_string()));
        }
        t.push(row);
    }
    s.push_str(&markdown_table(&t));
    s
}

/// Readings (rows) against inputs (columns), with the vendor's value where
/// ptxas folded that input: one table for up to three witnesses of the
/// same readings.
pub(super) fn compact_markdown(tables: &[&WitnessTable], vendor: Option<&Vendor>) -> String {
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
