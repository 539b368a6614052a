//! The typed report ([`data::Report`]) built from what the stages computed;
//! `ptxcheck.json` is it serialised (`reports/SCHEMA.md`).

use ptx_spec::assumption;
use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::Variant;

use crate::audit::claims::check::{ClaimResult, ClaimVerdict};
use crate::audit::claims::json::count;
use crate::audit::claims::Check;
use crate::audit::errata;
use crate::audit::finding::{Finding, WitnessTable};
use crate::audit::passages::compare::{PairVerdict, PassageResult};
use crate::audit::text::TextAudit;
use crate::audit::Audit;
use crate::prove::Counterexample;
use crate::text_proof::{TextProof, TextVerdict};

use super::data::{self, Named};
use super::errata::Erratum;
use super::vendor::Vendor;
use super::{SolverRun, SCHEMA_VERSION};

fn hex(values: &[(String, BitVec)]) -> Named {
    values.iter().map(|(n, v)| (n.clone(), v.hex())).collect()
}

impl From<&WitnessTable> for data::Witness {
    fn from(w: &WitnessTable) -> Self {
        data::Witness {
            variant: w.variant.clone(),
            inputs: w.inputs.iter().map(|(n, v)| (n.clone(), v.hex())).collect(),
            columns: w.columns.clone(),
            rows: w.rows.iter().map(|(n, vs)| (n.clone(), vs.iter().map(|v| v.map(BitVec::hex)).collect())).collect(),
        }
    }
}

/// A finding, with the units of the text it is about where there is a text.
pub(crate) fn finding(f: &Finding, units: Option<Vec<String>>) -> data::FindingEntry {
    data::FindingEntry {
        id: f.id.clone(),
        section: f.section.clone(),
        kind: f.kind,
        severity: f.severity,
        root_cause: f.root_cause.clone(),
        fragment: f.fragment.clone(),
        summary: f.summary.clone(),
        detail: f.detail.clone(),
        model_choice: f.model_choice.clone(),
        witness: f.witness.as_ref().map(data::Witness::from),
        more_witnesses: f.more_witnesses.iter().map(data::Witness::from).collect(),
        also_quotes: f.also_quotes.clone(),
        units,
    }
}

impl From<&PassageResult> for data::PassageEntry {
    fn from(p: &PassageResult) -> Self {
        let readings = p
            .readings
            .iter()
            .map(|r| data::ReadingEntry {
                name: r.name.into(),
                says: r.says.into(),
                text: r.text,
                adopted: r.adopted,
                agrees_with: r.agrees_with.iter().map(|s| s.to_string()).collect(),
                pseudocode: r.pseudocode,
                prose: r.prose,
                examples: r.examples,
                model: r.model,
            })
            .collect();
        let comparisons = p
            .pairs
            .iter()
            .map(|q| {
                let (verdict, witness, reason) = match &q.verdict {
                    PairVerdict::Agree => ("agree", None, None),
                    PairVerdict::Differ { witness } => ("differ", Some(witness.into()), None),
                    PairVerdict::Unknown { reason } => ("unknown", None, Some(reason.clone())),
                };
                data::ComparisonEntry {
                    first: q.first.into(),
                    second: q.second.into(),
                    variant: q.variant.clone(),
                    verdict: verdict.into(),
                    witness,
                    reason,
                }
            })
            .collect();
        data::PassageEntry {
            id: p.passage.id.into(),
            section: p.passage.section.into(),
            fragment: p.passage.fragment.into(),
            question: p.passage.question.into(),
            adopted: p.passage.adopted.into(),
            readings,
            comparisons,
        }
    }
}

/// The audit for tools: every finding, each passage's readings, and each
/// Semantics block read as C.
impl From<&Audit> for data::AuditEntry {
    fn from(a: &Audit) -> Self {
        data::AuditEntry {
            findings: a.findings.iter().map(|f| finding(f, None)).collect(),
            passages: a.passages.iter().map(data::PassageEntry::from).collect(),
            semantics_blocks_as_c: a.literal.clone(),
        }
    }
}

fn check(check: &Check) -> data::CheckEntry {
    use data::CheckEntry as C;
    match check {
        Check::Values { program, inputs, expect } => C::Values {
            program: program.clone(),
            inputs: inputs.iter().map(|(n, v)| (n.clone(), format!("{v:#x}"))).collect(),
            expect: expect.clone(),
        },
        Check::Always { program, assume, holds } => {
            C::Always { program: program.clone(), assume: assume.clone(), holds: holds.clone() }
        }
        Check::Fails { program, assume, holds } => {
            C::Fails { program: program.clone(), assume: assume.clone(), holds: holds.clone() }
        }
        Check::Warp { program, register, sum } => {
            C::Warp { program: program.clone(), register: register.clone(), sum: format!("{sum:?}").to_lowercase() }
        }
        Check::Parses { text } => C::Catalogue { instruction: text.clone() },
        Check::FitsSyntax { text } => C::SyntaxBlock { instruction: text.clone() },
        Check::Rejected { text } => C::Rejected { instruction: text.clone() },
        Check::NotCheckable { reason } => C::None { reason: reason.clone() },
    }
}

fn claim(r: &ClaimResult) -> data::ClaimEntry {
    let reason = match &r.verdict {
        ClaimVerdict::NotCheckable(why) | ClaimVerdict::Unknown(why) => Some(why.clone()),
        _ => None,
    };
    data::ClaimEntry {
        id: r.claim.id.clone(),
        section: r.claim.section.clone(),
        kind: r.claim.kind.label().into(),
        statement: r.claim.statement.clone(),
        fragment: r.claim.fragment.clone(),
        check: check(&r.claim.check),
        method: r.method.into(),
        verdict: r.verdict.label().into(),
        reason,
        witness: r.verdict.witness().map(|w| data::ClaimWitness {
            inputs: hex(&w.inputs),
            observed: w.observed.iter().map(|(n, v)| (n.clone(), v.map(BitVec::hex))).collect(),
            failing: w.failing.clone(),
        }),
    }
}

/// Every claim's result, then the counts of each verdict (the report's
/// `claims`, and `ptxcheck claims --format json`).
pub fn claims(results: &[ClaimResult]) -> data::Claims {
    data::Claims {
        claims: results.iter().map(claim).collect(),
        summary: data::ClaimSummary {
            claims: results.len(),
            holds: count(results, "holds"),
            refuted: count(results, "refuted"),
            not_checkable: count(results, "not checkable"),
            unknown: count(results, "unknown"),
        },
    }
}

fn block_witness(cex: &Counterexample) -> data::BlockWitness {
    data::BlockWitness {
        inputs: hex(&cex.inputs),
        outputs: cex
            .outputs
            .iter()
            .map(|o| data::BlockOutput {
                name: o.name.clone(),
                encoding: o.smt.map(BitVec::hex),
                text: o.concrete.map(BitVec::hex),
            })
            .collect(),
    }
}

/// One variant's third proof: its verdict, the readings and fixes of the
/// text it needed, and what the verdict rests on (the named difference and
/// its witness, a counterexample, the reason a block is not read, an input
/// where the model is narrower).
impl From<&TextProof> for data::SemanticsBlock {
    fn from(p: &TextProof) -> Self {
        let mut b = data::SemanticsBlock {
            variant: p.variant.to_string(),
            verdict: p.verdict.label().into(),
            readings: p.readings.iter().map(|r| r.id.to_string()).collect(),
            fixes: p.fixes.iter().map(|f| f.to_string()).collect(),
            difference: None,
            witness: None,
            reason: None,
            narrower: None,
        };
        match &p.verdict {
            TextVerdict::Named { difference, witness } => {
                b.difference = Some(difference.id.into());
                b.witness = Some(block_witness(witness));
            }
            TextVerdict::Differs(cex) => b.witness = Some(block_witness(cex)),
            TextVerdict::Stale(d) => b.difference = Some(d.id.into()),
            TextVerdict::NotRead(why) | TextVerdict::Unknown(why) => b.reason = Some(why.clone()),
            TextVerdict::Proven { narrower: Some(ins) } => b.narrower = Some(hex(ins)),
            TextVerdict::Proven { narrower: None } | TextVerdict::Timeout => {}
        }
        b
    }
}

/// The spec text's summary for tools (its findings are among the audit's):
/// what was read, so a report says which text it was made with.
pub(super) fn spec_text(t: &TextAudit) -> data::SpecText {
    data::SpecText {
        fingerprint: t.fingerprint(),
        compared: t.compared,
        unchecked: t.unchecked,
        stale: t.stale.iter().map(|x| data::StaleEntry { what: x.what.clone(), change: x.change }).collect(),
        spelling_skipped: t.spelling_skipped.clone(),
        helpers_unlisted: t.helpers_unlisted.clone(),
        coverage: data::CoverageEntry {
            total: t.coverage.total(),
            kinds: t.coverage.by_kind().into_iter().map(|(kind, counts)| data::KindCounts { kind, counts }).collect(),
            unread: t.coverage.unread().map(|a| a.unit.id.clone()).collect(),
        },
        sections: sections(t),
    }
}

/// The text's sections in its order, each with its units.
fn sections(t: &TextAudit) -> Vec<data::SectionEntry> {
    let mut out: Vec<data::SectionEntry> = Vec::new();
    for a in &t.coverage.units {
        if out.last().is_none_or(|s| s.number != a.unit.section) {
            let title = t.document.sections.iter().find(|s| s.number == a.unit.base_section()).map(|s| s.title.clone());
            out.push(data::SectionEntry {
                number: a.unit.section.clone(),
                title: title.unwrap_or_default(),
                units: Vec::new(),
            });
        }
        let unit = data::UnitEntry {
            id: a.unit.id.clone(),
            kind: a.unit.kind,
            text: a.unit.text.clone(),
            status: a.status,
            checked_by: a.checked_by.clone(),
            reason: a.reason,
            why: a.why.clone(),
        };
        out.last_mut().expect("a section was pushed").units.push(unit);
    }
    out
}

/// One root cause of the errata with its verdicts, and how it stands in
/// the report's text where there is one.
fn root_cause(e: &Erratum, text: Option<&TextAudit>) -> data::RootCauseEntry {
    let mut entry = cause_entry(e.root_cause, e);
    if let Some(j) = text.and_then(|t| t.judged.iter().find(|j| j.id == entry.id)) {
        entry.status = Some(j.status);
        entry.status_why = Some(j.how.clone());
        entry.rests_on = Some(j.rests_on.clone());
    }
    entry
}

/// A root cause's entry (`None`: the findings none lists) with the findings
/// and verdicts of `e`: `rc` is `e`'s own, or a chapter's, which no
/// `'static` table holds.
fn cause_entry(rc: Option<&errata::RootCause>, e: &Erratum) -> data::RootCauseEntry {
    let mut entry = data::RootCauseEntry {
        id: errata::UNASSIGNED.into(),
        sections: Vec::new(),
        class: data::RootCauseClass::Unclassified,
        impact: None,
        quote: None,
        problem: None,
        edit: Vec::new(),
        also: None,
        reading: None,
        findings: e.findings.iter().map(|f| f.id.clone()).collect(),
        settles: Vec::new(),
        fix: None,
        severity: rc.map_or_else(|| e.severity(), errata::RootCause::severity),
        ptxas: e.ptxas.clone(),
        hardware: e.hardware.clone(),
        status: None,
        status_why: None,
        rests_on: None,
    };
    if let Some(rc) = rc {
        entry.id = rc.id.clone();
        entry.sections = rc.sections.clone();
        entry.class = data::RootCauseClass::Class(rc.class);
        entry.impact = Some(rc.impact);
        entry.quote = Some(rc.quote.clone());
        entry.problem = Some(rc.problem.clone());
        entry.edit = rc.edits.clone();
        entry.also = rc.also.clone();
        entry.reading = rc.reading.clone();
        entry.settles = rc.settles.clone();
        entry.fix = Some(rc.fix());
    }
    entry
}

/// The report of a text read alone (`ptxcheck text PATH... --html OUT`):
/// its units and findings, each finding under the seeds' root cause that
/// lists it (judged against the text) or the chapter's own root cause
/// (its fix checked on a copy), with no proofs, claims or vendor results.
pub fn text_report(t: &TextAudit) -> data::Report {
    let (ptxas, hardware) = ("not recorded (`ptxcheck text` runs no assembler)", "not run");
    let mut root_causes = Vec::new();
    let mut loose: Vec<&Finding> = Vec::new();
    for (rc, findings) in errata::group(&t.findings) {
        let e = Erratum { root_cause: rc, findings, ptxas: ptxas.into(), hardware: hardware.into() };
        match rc {
            Some(_) => root_causes.push(root_cause(&e, Some(t))),
            None => loose = e.findings,
        }
    }
    for c in &t.chapter {
        let (mine, rest): (Vec<&Finding>, Vec<&Finding>) =
            loose.into_iter().partition(|f| c.cause.findings.contains(&f.id));
        loose = rest;
        if mine.is_empty() {
            continue;
        }
        let e = Erratum { root_cause: None, findings: mine, ptxas: ptxas.into(), hardware: hardware.into() };
        let mut entry = cause_entry(Some(&c.cause), &e);
        entry.status = Some(c.status);
        entry.status_why = Some(c.how.clone());
        root_causes.push(entry);
    }
    if !loose.is_empty() {
        let e = Erratum { root_cause: None, findings: loose, ptxas: ptxas.into(), hardware: hardware.into() };
        root_causes.push(root_cause(&e, None));
    }
    data::Report {
        schema_version: SCHEMA_VERSION,
        root_causes,
        solvers: Vec::new(),
        variants: Vec::new(),
        assumptions: Vec::new(),
        claims: data::Claims {
            claims: Vec::new(),
            summary: data::ClaimSummary { claims: 0, holds: 0, refuted: 0, not_checkable: 0, unknown: 0 },
        },
        audit: data::AuditEntry {
            findings: t.findings.iter().map(|f| finding(f, Some(t.units_of(f)))).collect(),
            passages: Vec::new(),
            semantics_blocks_as_c: t.literal.clone(),
        },
        vendor_defects: Vec::new(),
        spec_text: Some(spec_text(t)),
    }
}

/// The whole report. `text`: the spec text it is made with; `blocks`: each
/// variant's third proof, in catalogue order, or none.
pub(super) fn report(
    runs: &[SolverRun],
    audit: &Audit,
    vendor: Option<&Vendor>,
    errata: &[Erratum],
    text: Option<&TextAudit>,
    blocks: &[TextProof],
) -> data::Report {
    let variants = Variant::all()
        .iter()
        .enumerate()
        .map(|(i, v)| data::VariantEntry {
            variant: v.to_string(),
            section: v.section().to_string(),
            requires: v.requirement().to_string(),
            verdicts: runs.iter().map(|r| (r.solver.clone(), r.results[i].verdict.label().to_string())).collect(),
            assumptions: v.assumptions().iter().map(|a| a.id.to_string()).collect(),
            semantics_block: blocks.get(i).map(data::SemanticsBlock::from),
        })
        .collect();
    let solvers = runs
        .iter()
        .map(|r| data::SolverSummary {
            solver: r.solver.clone(),
            variants: r.results.len(),
            proven: r.count("proven"),
            counterexample: r.count("counterexample"),
            unknown: r.count("unknown"),
            timeout: r.count("timeout"),
        })
        .collect();
    let stated = text.map(TextAudit::assumptions_stated).unwrap_or_default();
    let assumptions = assumption::ALL
        .iter()
        .map(|a| data::AssumptionEntry {
            id: a.id.into(),
            section: a.section.into(),
            fragment: a.fragment.into(),
            reading: a.reading.into(),
            stated_by_text: stated.iter().find(|(id, _)| *id == a.id).map(|(_, rc)| rc.clone()),
        })
        .collect();
    let mut audit_entry = data::AuditEntry::from(audit);
    if let Some(t) = text {
        for (entry, f) in audit_entry.findings.iter_mut().zip(&audit.findings) {
            entry.units = Some(t.units_of(f));
        }
    }
    data::Report {
        schema_version: SCHEMA_VERSION,
        root_causes: errata.iter().map(|e| root_cause(e, text)).collect(),
        solvers,
        variants,
        assumptions,
        claims: claims(&audit.claims),
        audit: audit_entry,
        // ptxas's miscompilations: apart from the spec's root causes.
        vendor_defects: vendor.and_then(|v| v.defects.as_ref()).map_or_else(Vec::new, |d| d.defects.clone()),
        spec_text: text.map(spec_text),
    }
}
