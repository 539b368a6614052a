//! The audit of the spec text: everything that checks the document rather
//! than the model. `claims/` (the spec's checkable statements, as data
//! files), `passages/` and `readings/` (ambiguous text and its readings),
//! `literal/` (the Semantics blocks read as C), `syntax` (the Syntax blocks)
//! and `finding` (what the audit reports). This module runs them all and
//! gathers every finding in one list for `ptxcheck audit` and the reports.

pub mod chapter;
pub mod claims;
pub mod errata;
pub mod finding;
pub mod literal;
pub mod passages;
pub mod readings;
pub mod syntax;
pub mod text;

use std::time::Duration;

use crate::audit::claims::{section_key, Check, Kind};
use crate::audit::passages::PASSAGES;
use ptx_smt::{Backend, SolverError};
use rayon::prelude::*;

use crate::audit::claims::check::{ClaimResult, ClaimVerdict, Witness};
use crate::audit::finding::{Finding, FindingKind, Severity, WitnessTable};
use crate::audit::literal::check::BlockCheck;
use crate::audit::passages::compare::{self, PassageResult};
use crate::audit::text::document::Document;

/// What the audit checked and found.
pub struct Audit {
    pub passages: Vec<PassageResult>,
    pub claims: Vec<ClaimResult>,
    /// Every Semantics block read as C.
    pub literal: Vec<BlockCheck>,
    /// Sorted by section, then id.
    pub findings: Vec<Finding>,
}

impl Audit {
    /// Every comparison and claim came to a verdict.
    pub fn settled(&self) -> bool {
        self.unresolved().is_empty()
    }

    /// What the solver did not settle, one line each, naming where it is.
    pub fn unresolved(&self) -> Vec<String> {
        let mut out = passages_unresolved(&self.passages);
        out.extend(claims_unresolved(&self.claims));
        out.extend(literal_unresolved(&self.literal));
        out
    }

    pub fn find(&self, id: &str) -> Option<&Finding> {
        self.findings.iter().find(|f| f.id == id)
    }
}

/// Run every check of the audit, each solver query under `timeout`; the
/// Semantics blocks that are read from the text are read from `text`.
pub fn run(backend: &Backend, timeout: Duration, text: Option<&Document>) -> Result<Audit, SolverError> {
    // The three sources run side by side in one pool: run one after
    // another, each source's slowest queries left the other cores idle at
    // its end.
    let ((passages, claims), literal) = rayon::join(
        || {
            rayon::join(
                || PASSAGES.par_iter().map(|p| compare::check(p, backend, timeout)).collect::<Vec<PassageResult>>(),
                || {
                    crate::audit::claims::all()
                        .par_iter()
                        .map(|c| crate::audit::claims::check::check(c, backend, timeout))
                        .collect::<Vec<ClaimResult>>()
                },
            )
        },
        || crate::audit::literal::check::audit(backend, timeout, text),
    );
    let literal = literal?;
    let mut findings: Vec<Finding> = passages.iter().map(compare::finding).collect();
    findings.extend(claim_findings(&claims));
    findings.extend(literal.findings);
    errata::assign(&mut findings);
    sort(&mut findings);
    Ok(Audit { passages, claims, literal: literal.blocks, findings })
}

fn passages_unresolved(passages: &[PassageResult]) -> Vec<String> {
    let pairs = passages.iter().flat_map(|p| p.pairs.iter().map(move |q| (p.passage.id, q)));
    pairs
        .filter_map(|(id, q)| match &q.verdict {
            compare::PairVerdict::Unknown { reason } => {
                Some(format!("{id}: {} against {} on {}: {reason}", q.first, q.second, q.variant))
            }
            _ => None,
        })
        .collect()
}

fn claims_unresolved(claims: &[ClaimResult]) -> Vec<String> {
    claims
        .iter()
        .filter_map(|c| match &c.verdict {
            ClaimVerdict::Unknown(reason) => Some(format!("claim {}: {reason}", c.claim.id)),
            _ => None,
        })
        .collect()
}

fn literal_unresolved(blocks: &[BlockCheck]) -> Vec<String> {
    let each = blocks.iter().flat_map(|b| b.unresolved.iter().map(move |u| (b, u)));
    each.map(|(b, u)| format!("{} {} read as C: {u}", b.section, b.opcode)).collect()
}

/// One finding, as the check behind it found it, and what that check left
/// unsettled.
pub struct One {
    /// `None` if the check ran and found nothing by that id.
    pub finding: Option<Finding>,
    pub unresolved: Vec<String>,
}

/// Only what finding `id` needs: its passage, its claim (with its twin),
/// or its Semantics block. `None` if no check can produce that id.
pub fn run_one(
    id: &str,
    backend: &Backend,
    timeout: Duration,
    text: Option<&Document>,
) -> Result<Option<One>, SolverError> {
    if let Some(p) = PASSAGES.iter().find(|p| p.id == id) {
        let result = compare::check(p, backend, timeout);
        let unresolved = passages_unresolved(std::slice::from_ref(&result));
        return Ok(Some(One { finding: Some(assigned(compare::finding(&result))), unresolved }));
    }
    let twin = id.replace("example-syntax-", "example-catalogue-");
    let claims: Vec<_> = crate::audit::claims::all().into_iter().filter(|c| c.id == id || c.id == twin).collect();
    if !claims.is_empty() {
        let results: Vec<ClaimResult> =
            claims.par_iter().map(|c| crate::audit::claims::check::check(c, backend, timeout)).collect();
        let unresolved = claims_unresolved(&results);
        let finding = claim_findings(&results).into_iter().find(|f| f.id == id).map(assigned);
        return Ok(Some(One { finding, unresolved }));
    }
    let blocks: Vec<_> = crate::audit::literal::table::BLOCKS
        .iter()
        .filter(|b| id.starts_with(&format!("literal-{}-", b.opcode)))
        .copied()
        .collect();
    if blocks.is_empty() {
        return Ok(None);
    }
    let literal = crate::audit::literal::check::audit_blocks(backend, timeout, &blocks, text)?;
    let unresolved = literal_unresolved(&literal.blocks);
    Ok(Some(One { finding: literal.findings.into_iter().find(|f| f.id == id).map(assigned), unresolved }))
}

/// A finding with its root cause named.
fn assigned(mut f: Finding) -> Finding {
    errata::assign(std::slice::from_mut(&mut f));
    f
}

/// By section (numerically), then id.
pub fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| (section_key(&a.section), &a.id).cmp(&(section_key(&b.section), &b.id)));
}

/// A finding for each claim that is refuted. An example instruction
/// refuted both against the Syntax block and against the catalogue is one
/// finding. A derived claim that an identity stops holding outside the
/// range the text states (`check = "fails"`) is no finding when it holds:
/// it confirms the stated range (9.7.8.7's "n < 32", 9.7.9.5's note on b).
/// The severity is a placeholder: [`errata::assign`] gives the root
/// cause's.
pub fn claim_findings(results: &[ClaimResult]) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in results {
        let c = &r.claim;
        let (kind, witness) = match (&r.verdict, &c.check, c.kind) {
            (ClaimVerdict::Refuted(_), Check::Parses { .. }, _) => continue, // merged below
            (ClaimVerdict::Refuted(w), Check::FitsSyntax { .. }, _) => (FindingKind::ExampleSyntax, w),
            (ClaimVerdict::Refuted(w), _, Kind::Prose | Kind::Note) => (FindingKind::ProseVsPseudocode, w),
            (ClaimVerdict::Refuted(w), _, _) => (FindingKind::ClaimRefuted, w),
            _ => continue,
        };
        let mut detail = vec![format!("Claim: {}", c.statement), format!("Checked by: {}.", r.method)];
        if let Some(reason) = refutation_reason(r) {
            detail.push(reason);
        }
        if kind == FindingKind::ExampleSyntax {
            // The same example against the catalogue, if that claim exists.
            let twin = c.id.replace("example-syntax-", "example-catalogue-");
            if let Some(t) = results.iter().find(|t| t.claim.id == twin) {
                detail.push(format!("Against the catalogue ({}): {}", t.verdict.label(), reason_text(t)));
            }
        }
        let witness = witness.as_ref().filter(|w| !(w.inputs.is_empty() && w.observed.is_empty()));
        if let Some(w) = witness {
            detail.extend(w.failing.iter().map(|f| format!("Fails on the witness: `{f}`")));
        }
        out.push(Finding {
            id: c.id.clone(),
            section: c.section.clone(),
            kind,
            severity: Severity::Medium,
            root_cause: String::new(),
            // An example that does not fit rests on its own text.
            fragment: match (&c.fragment, &c.check) {
                (Some(f), _) => f.clone(),
                (None, Check::FitsSyntax { text }) => text.clone(),
                (None, _) => String::new(),
            },
            summary: summary(r),
            detail,
            model_choice: None,
            witness: witness.map(|w| table(r, w)),
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
        });
    }
    out
}

/// What a refuted claim shows, stated positively: the claim's own words
/// for it where it has them (`refuted` in its file), else what the
/// example does not fit.
fn summary(r: &ClaimResult) -> String {
    match (&r.claim.refuted, &r.claim.check) {
        (Some(text), _) => text.clone(),
        (None, Check::FitsSyntax { text }) => {
            format!("the example `{}` does not fit the Syntax block of {}", text, r.claim.section)
        }
        (None, _) => format!("the witness contradicts the claim that {}", r.claim.statement),
    }
}

fn refutation_reason(r: &ClaimResult) -> Option<String> {
    match &r.claim.check {
        Check::FitsSyntax { text } | Check::Parses { text } => Some(format!("`{text}`: {}", reason_text(r))),
        _ => None,
    }
}

/// Why a claim fails, as its witness says (for a syntax claim, the
/// matcher's reason).
fn reason_text(r: &ClaimResult) -> String {
    r.verdict.witness().map_or_else(|| r.verdict.label().to_string(), |w| w.failing.join("; "))
}

fn table(r: &ClaimResult, w: &Witness) -> WitnessTable {
    let program = match &r.claim.check {
        Check::Values { program, .. } | Check::Always { program, .. } | Check::Fails { program, .. } => {
            program.lines().next().unwrap_or("").trim().to_string()
        }
        _ => String::new(),
    };
    WitnessTable {
        variant: program,
        inputs: w.inputs.clone(),
        columns: vec!["after the program".to_string()],
        rows: w.observed.iter().map(|(n, v)| (n.clone(), vec![*v])).collect(),
    }
}
