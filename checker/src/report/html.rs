//! `reports/html/`: the audit as pages, for the people who act on the
//! errata. A static site made from the typed report ([`data::Report`]) alone:
//! the annotated document, the errata, the coverage and the proofs, with no
//! server, no network and no framework (one small script opens a finding a
//! link points to, and sorts and filters the errata table; without it a
//! finding opens by a click and the table is whole).
//!
//! Every element id is made from an id of the report (a unit, a finding, a
//! root cause, a variant), so a link still works after `report` runs again,
//! and the pages, like the rest of the report, are the same bytes on every
//! run.

use std::collections::BTreeMap;

use askama::Template;

use crate::audit::finding::Severity;
use crate::audit::text::coverage::Status as UnitStatus;
use crate::audit::text::units::UnitKind;

use super::data::{self, FindingEntry, Report, RootCauseEntry};

/// The site's files, in the order [`site`] gives their texts.
pub const FILES: [&str; 6] = [
    "html/index.html",
    "html/errata.html",
    "html/coverage.html",
    "html/proofs.html",
    "html/style.css",
    "html/table.js",
];

/// Each page's file and its name in the navigation.
const NAV: [(&str, &str); 4] =
    [("index.html", "Document"), ("errata.html", "Errata"), ("coverage.html", "Coverage"), ("proofs.html", "Proofs")];

pub(super) const STYLE: &str = include_str!("../../templates/html/style.css");
const SCRIPT: &str = include_str!("../../templates/html/table.js");

/// The command a site comes from, which its footer names: `report` (the
/// catalogue proven, the seeds audited) or `text` (a copy of the text read
/// with no model: a report with no variants).
#[derive(Clone, Copy, PartialEq, Eq)]
enum MadeBy {
    Report,
    Text,
}

impl MadeBy {
    fn of(report: &Report) -> MadeBy {
        if report.variants.is_empty() {
            MadeBy::Text
        } else {
            MadeBy::Report
        }
    }
}

/// An element id from a report id: the id itself, behind a prefix that
/// says what it names. HTML allows any character but white space in an
/// id; the report's ids have none.
fn anchor(prefix: &str, id: &str) -> String {
    format!("{prefix}-{id}")
}

/// A section number as a key that sorts in document order (`9.7.1.12`
/// after `9.7.1.2`).
fn section_key(number: &str) -> String {
    number.split(['.', '@']).map(|p| format!("{p:0>4}")).collect::<Vec<_>>().join(".")
}

/// One edit of a fix, as a change of the text: what it keeps on either
/// side, and what it removes and adds.
struct EditView {
    unit: String,
    unit_anchor: String,
    before: String,
    removed: String,
    added: String,
    after: String,
}

/// The text `old` and `new` share at the start and the end, each cut at a
/// space unless it is all of one of them, and what lies between in each.
fn change(unit: &str, old: &str, new: &str) -> EditView {
    let mut p = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(p) {
        p -= 1;
    }
    if p < old.len() && p < new.len() {
        p = old[..p].rfind(' ').map_or(0, |i| i + 1);
    }
    let (o, n) = (&old[p..], &new[p..]);
    let mut s = o.bytes().rev().zip(n.bytes().rev()).take_while(|(a, b)| a == b).count();
    while !o.is_char_boundary(o.len() - s) {
        s -= 1;
    }
    if s < o.len() && s < n.len() {
        s = o[o.len() - s..].find(' ').map_or(0, |i| s - i);
    }
    EditView {
        unit: unit.to_string(),
        unit_anchor: anchor("u", unit),
        before: old[..p].to_string(),
        removed: o[..o.len() - s].to_string(),
        added: n[..n.len() - s].to_string(),
        after: o[o.len() - s..].to_string(),
    }
}

/// A witness table as the page shows it: `None` (undefined under that
/// reading) in words.
struct WitnessView<'a> {
    variant: &'a str,
    inputs: String,
    columns: &'a [String],
    rows: Vec<(&'a str, Vec<&'a str>)>,
}

impl<'a> From<&'a data::Witness> for WitnessView<'a> {
    fn from(w: &'a data::Witness) -> Self {
        let inputs = w.inputs.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ");
        let rows = w
            .rows
            .iter()
            .map(|(name, vs)| (name.as_str(), vs.iter().map(|v| v.as_deref().unwrap_or("undefined")).collect()))
            .collect();
        WitnessView { variant: &w.variant, inputs, columns: &w.columns, rows }
    }
}

struct FindingView<'a> {
    entry: &'a FindingEntry,
    /// Its summary in runs of prose and code ([`code_spans`]).
    summary: Vec<(bool, &'a str)>,
    /// Its readings, each in runs.
    detail: Vec<Vec<(bool, &'a str)>>,
    anchor: String,
    severity: &'static str,
    kind: &'static str,
    witnesses: Vec<WitnessView<'a>>,
    root_cause: Option<&'a RootCauseEntry>,
    rc_anchor: String,
    edits: Vec<EditView>,
}

impl<'a> FindingView<'a> {
    fn new(entry: &'a FindingEntry, root_causes: &'a [RootCauseEntry]) -> Self {
        let root_cause = root_causes.iter().find(|rc| rc.id == entry.root_cause);
        FindingView {
            summary: code_spans(&entry.summary),
            detail: entry.detail.iter().map(|d| code_spans(d)).collect(),
            entry,
            anchor: anchor("f", &entry.id),
            severity: entry.severity.label(),
            kind: entry.kind.label(),
            witnesses: entry.witness.iter().chain(&entry.more_witnesses).map(WitnessView::from).collect(),
            root_cause,
            rc_anchor: anchor("rc", &entry.root_cause),
            edits: root_cause
                .map_or_else(Vec::new, |rc| rc.edit.iter().map(|e| change(&e.unit, &e.old, &e.new)).collect()),
        }
    }
}

struct UnitView<'a> {
    id: &'a str,
    anchor: String,
    kind: &'static str,
    code: bool,
    text: &'a str,
    /// A prose unit's text in runs, each `true` where the document writes
    /// it in code font (between backticks).
    spans: Vec<(bool, &'a str)>,
    /// The mark's class: `sev-high`, `checked`, `not-checkable`, `unread`.
    class: &'static str,
    label: String,
    why: String,
    /// The findings shown under it: those whose first unit it is.
    findings: Vec<FindingView<'a>>,
    /// The other findings about it, shown under their first unit.
    see: Vec<(String, &'a str)>,
}

struct SectionView<'a> {
    anchor: String,
    number: &'a str,
    title: &'a str,
    units: Vec<UnitView<'a>>,
    findings: usize,
}

#[derive(Template)]
#[template(path = "html/document.html")]
struct DocumentPage<'a> {
    title: &'static str,
    page: &'static str,
    nav: &'static [(&'static str, &'static str)],
    made_by: MadeBy,
    legend: Vec<(&'static str, &'static str, usize)>,
    sections: Vec<SectionView<'a>>,
    unplaced: Vec<FindingView<'a>>,
}

fn severity_class(s: Severity) -> &'static str {
    match s {
        Severity::High => "sev-high",
        Severity::Medium => "sev-medium",
        Severity::Low => "sev-low",
    }
}

fn status_class(s: UnitStatus) -> &'static str {
    match s {
        UnitStatus::Checked => "checked",
        UnitStatus::NotCheckable => "not-checkable",
        UnitStatus::Unread => "unread",
    }
}

/// Section anchors, one per rendering: a section the text renders twice
/// gets `-2` on its second.
fn section_anchors(sections: &[data::SectionEntry]) -> Vec<String> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    sections
        .iter()
        .map(|s| {
            let n = seen.entry(s.number.as_str()).or_default();
            *n += 1;
            if *n == 1 {
                anchor("s", &s.number)
            } else {
                format!("{}-{n}", anchor("s", &s.number))
            }
        })
        .collect()
}

/// `text` cut at its backticks into runs of prose and of code; a text
/// with an unpaired backtick is one run of prose, as written.
fn code_spans(text: &str) -> Vec<(bool, &str)> {
    if text.matches('`').count() % 2 == 1 {
        return vec![(false, text)];
    }
    text.split('`').enumerate().filter(|(_, run)| !run.is_empty()).map(|(i, run)| (i % 2 == 1, run)).collect()
}

/// The first unit of the text each finding names: where it is shown.
fn placements(report: &Report) -> BTreeMap<&str, &str> {
    report.audit.findings.iter().filter_map(|f| Some((f.id.as_str(), f.units.as_ref()?.first()?.as_str()))).collect()
}

fn document(report: &Report) -> DocumentPage<'_> {
    let sections = report.spec_text.as_ref().map_or(&[][..], |t| &t.sections[..]);
    let rcs = &report.root_causes;
    let first = placements(report);
    // Per unit: the findings about it, in the report's order.
    let mut about: BTreeMap<&str, Vec<&FindingEntry>> = BTreeMap::new();
    for f in &report.audit.findings {
        for u in f.units.iter().flatten() {
            about.entry(u.as_str()).or_default().push(f);
        }
    }
    let mut legend: BTreeMap<&'static str, usize> = BTreeMap::new();
    let views = sections
        .iter()
        .zip(section_anchors(sections))
        .map(|(s, anchor_of_section)| {
            let units: Vec<UnitView> = s
                .units
                .iter()
                .map(|u| {
                    let mine = about.get(u.id.as_str()).map_or(&[][..], |v| &v[..]);
                    let worst = mine.iter().map(|f| f.severity).min();
                    let (class, label, why) = match worst {
                        Some(sev) => {
                            let n = mine.len();
                            (
                                severity_class(sev),
                                format!("{} finding{}", sev.label(), if n > 1 { "s" } else { "" }),
                                String::new(),
                            )
                        }
                        None => {
                            let why = match u.status {
                                UnitStatus::Checked => format!("by {}", u.checked_by.join(", ")),
                                _ => u.why.clone().unwrap_or_default(),
                            };
                            (status_class(u.status), u.status.label().to_string(), why)
                        }
                    };
                    *legend.entry(class).or_default() += 1;
                    let (here, elsewhere): (Vec<&FindingEntry>, Vec<&FindingEntry>) =
                        mine.iter().partition(|f| first.get(f.id.as_str()) == Some(&u.id.as_str()));
                    UnitView {
                        id: &u.id,
                        anchor: anchor("u", &u.id),
                        kind: u.kind.key(),
                        code: u.kind.is_code() || u.kind == UnitKind::Syntax,
                        text: &u.text,
                        spans: code_spans(&u.text),
                        class,
                        label,
                        why,
                        findings: here.into_iter().map(|f| FindingView::new(f, rcs)).collect(),
                        see: elsewhere.into_iter().map(|f| (anchor("f", &f.id), f.summary.as_str())).collect(),
                    }
                })
                .collect();
            let findings = units.iter().map(|u| u.findings.len()).sum();
            SectionView { anchor: anchor_of_section, number: &s.number, title: &s.title, units, findings }
        })
        .collect();
    let unplaced: Vec<FindingView> = report
        .audit
        .findings
        .iter()
        .filter(|f| !first.contains_key(f.id.as_str()))
        .map(|f| FindingView::new(f, rcs))
        .collect();
    let legend_rows = [
        ("sev-high", "high"),
        ("sev-medium", "medium"),
        ("sev-low", "low"),
        ("checked", "checked"),
        ("not-checkable", "not checkable"),
        ("unread", "unread"),
    ]
    .into_iter()
    .map(|(class, label)| (class, label, legend.get(class).copied().unwrap_or(0)))
    .collect();
    DocumentPage {
        title: "The annotated document",
        page: "index.html",
        nav: &NAV,
        made_by: MadeBy::of(report),
        legend: legend_rows,
        sections: views,
        unplaced,
    }
}

struct ErratumRow<'a> {
    id: &'a str,
    anchor: String,
    sections: String,
    section_key: String,
    class: String,
    severity: &'static str,
    severity_rank: usize,
    status: &'static str,
    findings: Vec<(String, &'a str)>,
    problem: &'a str,
    fix: &'a str,
}

#[derive(Template)]
#[template(path = "html/errata.html")]
struct ErrataPage<'a> {
    title: &'static str,
    page: &'static str,
    nav: &'static [(&'static str, &'static str)],
    made_by: MadeBy,
    filters: Vec<(&'static str, &'static str, Vec<String>)>,
    columns: [(&'static str, &'static str); 7],
    rows: Vec<ErratumRow<'a>>,
}

fn class_label(c: &data::RootCauseClass) -> String {
    match c {
        data::RootCauseClass::Unclassified => "unclassified".into(),
        data::RootCauseClass::Class(c) => c.label().into(),
    }
}

fn errata(report: &Report) -> ErrataPage<'_> {
    let placed = placements(report);
    let rows: Vec<ErratumRow> = report
        .root_causes
        .iter()
        .map(|rc| ErratumRow {
            id: &rc.id,
            anchor: anchor("rc", &rc.id),
            sections: rc.sections.join(", "),
            section_key: rc.sections.first().map_or_else(String::new, |s| section_key(s)),
            class: class_label(&rc.class),
            severity: rc.severity.label(),
            severity_rank: rc.severity as usize,
            status: rc.status.map_or("not judged", |s| s.label()),
            // A finding in no unit of the text is shown at the document's end.
            findings: rc
                .findings
                .iter()
                .map(|f| (if placed.contains_key(f.as_str()) { anchor("f", f) } else { "unplaced".into() }, f.as_str()))
                .collect(),
            problem: rc.problem.as_deref().unwrap_or(""),
            fix: rc.fix.as_deref().unwrap_or(""),
        })
        .collect();
    let distinct = |values: Vec<String>| {
        let mut v = values;
        v.sort();
        v.dedup();
        v
    };
    let mut sections: Vec<String> = distinct(report.root_causes.iter().flat_map(|rc| rc.sections.clone()).collect());
    sections.sort_by_key(|s| section_key(s));
    let filters = vec![
        ("section", "Section", sections),
        ("class", "Class", distinct(rows.iter().map(|r| r.class.clone()).collect())),
        ("severity", "Severity", ["high", "medium", "low"].map(String::from).to_vec()),
        ("status", "Status", distinct(rows.iter().map(|r| r.status.to_string()).collect())),
    ];
    ErrataPage {
        title: "Errata",
        page: "errata.html",
        nav: &NAV,
        made_by: MadeBy::of(report),
        filters,
        columns: [
            ("id", "root cause"),
            ("sections", "sections"),
            ("class", "class"),
            ("severity", "severity"),
            ("status", "status"),
            ("findings", "findings"),
            ("problem", "problem and fix"),
        ],
        rows,
    }
}

struct SectionRow<'a> {
    anchor: String,
    number: &'a str,
    title: &'a str,
    counts: [usize; 5],
}

struct PassRow {
    name: String,
    units: usize,
    sections: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "html/coverage.html")]
struct CoveragePage<'a> {
    title: &'static str,
    page: &'static str,
    nav: &'static [(&'static str, &'static str)],
    made_by: MadeBy,
    sections: Vec<SectionRow<'a>>,
    kinds: Vec<(&'static str, [usize; 4])>,
    passes: Vec<PassRow>,
}

fn coverage(report: &Report) -> CoveragePage<'_> {
    let text = report.spec_text.as_ref();
    let sections = text.map_or(&[][..], |t| &t.sections[..]);
    let mut findings_in: BTreeMap<&str, usize> = BTreeMap::new();
    for u in report.audit.findings.iter().filter_map(|f| f.units.as_ref()?.first()) {
        *findings_in.entry(u.as_str()).or_default() += 1;
    }
    let anchors = section_anchors(sections);
    let rows = sections
        .iter()
        .zip(&anchors)
        .map(|(s, a)| {
            let n = |st: UnitStatus| s.units.iter().filter(|u| u.status == st).count();
            let found = s.units.iter().map(|u| findings_in.get(u.id.as_str()).copied().unwrap_or(0)).sum();
            SectionRow {
                anchor: a.clone(),
                number: &s.number,
                title: &s.title,
                counts: [
                    s.units.len(),
                    n(UnitStatus::Checked),
                    n(UnitStatus::NotCheckable),
                    n(UnitStatus::Unread),
                    found,
                ],
            }
        })
        .collect();
    let kinds = text.map_or_else(Vec::new, |t| {
        t.coverage
            .kinds
            .iter()
            .map(|k| (k.kind.key(), [k.counts.units, k.counts.checked, k.counts.not_checkable, k.counts.unread]))
            .collect()
    });
    // A check's kind is its name up to the colon (`claim`, `passage`,
    // `literal`, `text`...).
    let mut passes: BTreeMap<String, (usize, Vec<usize>)> = BTreeMap::new();
    for (i, s) in sections.iter().enumerate() {
        for u in &s.units {
            let mut kinds: Vec<&str> = u.checked_by.iter().map(|c| c.split(':').next().unwrap_or(c)).collect();
            kinds.dedup();
            for k in kinds {
                let e = passes.entry(k.to_string()).or_default();
                e.0 += 1;
                if e.1.last() != Some(&i) {
                    e.1.push(i);
                }
            }
        }
    }
    let passes = passes
        .into_iter()
        .map(|(name, (units, ss))| PassRow {
            name,
            units,
            sections: ss.into_iter().map(|i| (anchors[i].clone(), sections[i].number.clone())).collect(),
        })
        .collect();
    CoveragePage {
        title: "Coverage",
        page: "coverage.html",
        nav: &NAV,
        made_by: MadeBy::of(report),
        sections: rows,
        kinds,
        passes,
    }
}

struct VariantRow<'a> {
    name: &'a str,
    anchor: String,
    section: &'a str,
    section_anchor: Option<String>,
    /// Each solver's verdict and its class (`proven`, `not-run`...).
    verdicts: Vec<(&'a str, String)>,
    block: (&'a str, String),
    assumptions: Vec<(&'a str, String)>,
}

struct AssumptionView<'a> {
    id: &'a str,
    anchor: String,
    section: &'a str,
    fragment: &'a str,
    reading: &'a str,
}

#[derive(Template)]
#[template(path = "html/proofs.html")]
struct ProofsPage<'a> {
    title: &'static str,
    page: &'static str,
    nav: &'static [(&'static str, &'static str)],
    made_by: MadeBy,
    solvers: &'a [data::SolverSummary],
    variants: Vec<VariantRow<'a>>,
    assumptions: Vec<AssumptionView<'a>>,
}

/// A verdict and the class that colours it: its words joined by `-`.
fn verdict(label: &str) -> (&str, String) {
    (label, label.replace(' ', "-"))
}

fn proofs(report: &Report) -> ProofsPage<'_> {
    let sections = report.spec_text.as_ref().map_or(&[][..], |t| &t.sections[..]);
    let anchors: BTreeMap<&str, String> =
        sections.iter().zip(section_anchors(sections)).rev().map(|(s, a)| (s.number.as_str(), a)).collect();
    let variants = report
        .variants
        .iter()
        .map(|v| VariantRow {
            name: &v.variant,
            anchor: anchor("v", &v.variant),
            section: &v.section,
            section_anchor: anchors.get(v.section.as_str()).cloned(),
            verdicts: v.verdicts.values().map(|x| verdict(x)).collect(),
            block: verdict(v.semantics_block.as_ref().map_or("not run", |b| b.verdict.as_str())),
            assumptions: v.assumptions.iter().map(|a| (a.as_str(), anchor("a", a))).collect(),
        })
        .collect();
    let assumptions = report
        .assumptions
        .iter()
        .map(|a| AssumptionView {
            id: &a.id,
            anchor: anchor("a", &a.id),
            section: &a.section,
            fragment: &a.fragment,
            reading: &a.reading,
        })
        .collect();
    ProofsPage {
        title: "Proofs",
        page: "proofs.html",
        nav: &NAV,
        made_by: MadeBy::of(report),
        solvers: &report.solvers,
        variants,
        assumptions,
    }
}

/// Every file of the site, in the order of [`FILES`].
pub fn site(report: &Report) -> Vec<String> {
    let render = |r: askama::Result<String>| r.expect("the templates render") + "\n";
    vec![
        render(document(report).render()),
        render(errata(report).render()),
        render(coverage(report).render()),
        render(proofs(report).render()),
        STYLE.to_string(),
        SCRIPT.to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_addition_keeps_the_old_words_and_marks_the_new() {
        let e = change("9.7.1/intro/sentence-1", "immediate forms.", "immediate forms. Integers are exact.");
        assert_eq!((e.before.as_str(), e.removed.as_str()), ("immediate forms.", ""));
        assert_eq!((e.added.as_str(), e.after.as_str()), (" Integers are exact.", ""));
        let e = change("u", "a bat c d", "a bar c d");
        assert_eq!(
            (e.before.as_str(), e.removed.as_str(), e.added.as_str(), e.after.as_str()),
            ("a ", "bat", "bar", " c d")
        );
        let e = change("u", "x ≥ y", "x ≤ y");
        assert_eq!((e.removed.as_str(), e.added.as_str()), ("≥", "≤"));
    }

    /// The committed report cut down to one section (9.7.8.4, not: one
    /// finding with a root cause and a fix), rendered: the golden file
    /// holds its annotated HTML, marks, finding and proposed change.
    #[test]
    fn one_section_of_the_annotated_document() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/ptxcheck.json");
        let mut report: Report = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let text = report.spec_text.as_mut().unwrap();
        text.sections.retain(|s| s.number == "9.7.8.4");
        let units: Vec<String> = text.sections.iter().flat_map(|s| &s.units).map(|u| u.id.clone()).collect();
        report.audit.findings.retain(|f| f.units.iter().flatten().any(|u| units.contains(u)));
        assert!(!report.audit.findings.is_empty(), "9.7.8.4 has a finding to show");
        let page = document(&report).render().unwrap();
        let start = page.find("<section id=\"s-9.7.8.4\"").unwrap();
        let end = start + page[start..].find("</section>").unwrap() + "</section>".len();
        insta::assert_snapshot!(&page[start..end]);
    }

    #[test]
    fn backticks_mark_code_runs() {
        assert_eq!(code_spans("Invert the bits in `a`."), [(false, "Invert the bits in "), (true, "a"), (false, ".")]);
        assert_eq!(code_spans("`.u32` and `.s32`"), [(true, ".u32"), (false, " and "), (true, ".s32")]);
        assert_eq!(code_spans("one ` alone"), [(false, "one ` alone")]);
    }

    #[test]
    fn section_keys_sort_in_document_order() {
        let mut s = ["9.7.1.12", "9.7.1.2", "9.7.10", "9.7.8.6@2", "9.7.8.6"];
        s.sort_by_key(|n| section_key(n));
        assert_eq!(s, ["9.7.1.2", "9.7.1.12", "9.7.8.6", "9.7.8.6@2", "9.7.10"]);
    }
}
