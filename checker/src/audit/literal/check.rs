//! The audit of the Semantics blocks read literally as C (see
//! `crate::audit::literal`).
//!
//! For every variant of every block, the solver answers two questions:
//! (a) for each hazard the transcription recorded (a C rule under which the
//! result is undefined or implementation-defined), is there an input that
//! reaches it? (b) is there an input where no hazard applies, the model's
//! output is defined, and the literal C output differs from it? Every `sat`
//! answer is minimised and then confirmed by running the transcription (and,
//! for (b), the model) on the witness with the concrete algebra, without the
//! solver, before it becomes a finding. Identical hazards of one block are
//! one finding, listing the variants where they occur.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::audit::literal::lockstep;
use crate::audit::literal::parsed::ParsedReading;
use crate::audit::literal::table::{literal_cases, Block, NotC, Transcription, BLOCKS};
use crate::audit::literal::{Behaviour, Hazard, Rule, C};
use crate::audit::text::document::Document;
use crate::text_proof;
use easy_smt::{Context, SExpr};
use ptx_smt::{Backend, SatResult, SolverError, Sym, SymBv, Var};
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::Variant;
use rayon::prelude::*;
use serde::Serialize;

use crate::audit::finding::{Finding, FindingKind, Severity, WitnessTable};
use crate::prove::minimise;

/// What the audit of one block examined and found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct BlockCheck {
    pub section: String,
    pub opcode: String,
    /// The catalogue variants the block covers.
    pub variants: usize,
    /// Hazard sites checked: distinct (fragment, rule) pairs, per variant.
    pub hazards_examined: usize,
    /// Loops whose iterations depend on the inputs, per variant, proven to
    /// stop within the iterations the transcription unrolls.
    pub loops_bounded: usize,
    /// The ids of the findings about this block.
    pub findings: Vec<String>,
    /// Questions the solver did not settle, or witnesses that did not
    /// check out; never counted as findings, and never as clean.
    pub unresolved: Vec<String>,
    /// What was read as C: the text's own block, or nothing.
    pub read_from: ReadFrom,
}

/// What a block's literal reading reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadFrom {
    /// The block as the document writes it, parsed.
    Text,
    /// Nothing: the block is read from the text, and no text was given.
    NotRead,
}

/// The literal-reading audit of every block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LiteralAudit {
    pub blocks: Vec<BlockCheck>,
    /// Ordered by section, then id.
    pub findings: Vec<Finding>,
}

/// The columns of every witness table of this audit.
const COLUMNS: [&str; 2] = ["literal C", "model"];

/// Audit every Semantics block, read from `text`; without one they are
/// listed as not read.
pub fn audit(backend: &Backend, timeout: Duration, text: Option<&Document>) -> Result<LiteralAudit, SolverError> {
    audit_blocks(backend, timeout, BLOCKS, text)
}

/// Audit the given blocks, each read from `text`.
pub fn audit_blocks(
    backend: &Backend,
    timeout: Duration,
    blocks: &[Block],
    text: Option<&Document>,
) -> Result<LiteralAudit, SolverError> {
    let results: Vec<Result<(BlockCheck, Vec<Finding>), SolverError>> =
        blocks.par_iter().map(|b| audit_block(backend, timeout, b, text)).collect();
    let mut audit = LiteralAudit { blocks: Vec::new(), findings: Vec::new() };
    for r in results {
        let (check, findings) = r?;
        audit.blocks.push(check);
        audit.findings.extend(findings);
    }
    audit.blocks.sort_by_key(|b| section_key(&b.section));
    audit.findings.sort_by(|x, y| (section_key(&x.section), &x.id).cmp(&(section_key(&y.section), &y.id)));
    Ok(audit)
}

/// The literal reading of the document's own blocks: those whose sections
/// the document renders. This is what `ptxcheck text` reads of the code as C,
/// and what judges a proposed fix that edits one of those blocks.
pub fn read_text(backend: &Backend, timeout: Duration, doc: &Document) -> Result<LiteralAudit, SolverError> {
    let blocks: Vec<Block> = BLOCKS.iter().filter(|b| doc.section(b.section).is_some()).copied().collect();
    audit_blocks(backend, timeout, &blocks, Some(doc))
}

/// The block a literal finding is about, by its id (`literal-OPCODE-...`,
/// the longest opcode that fits): `None` for another check's finding.
fn block_of(finding: &str) -> Option<&'static Block> {
    let rest = finding.strip_prefix("literal-")?;
    let fits = BLOCKS.iter().filter(|b| rest.strip_prefix(b.opcode).is_some_and(|r| r.starts_with('-')));
    fits.max_by_key(|b| b.opcode.len())
}

/// The block of a literal finding, which is read from the text.
pub fn block_read_from_text(finding: &str) -> Option<&'static Block> {
    block_of(finding)
}

/// Whether a finding is the literal reading's, of a block read from the
/// text.
pub fn read_from_text(finding: &str) -> bool {
    block_read_from_text(finding).is_some()
}

/// Audit `block`, read from `text`.
fn audit_block(
    backend: &Backend,
    timeout: Duration,
    block: &Block,
    text: Option<&Document>,
) -> Result<(BlockCheck, Vec<Finding>), SolverError> {
    let unread = |read_from: ReadFrom, unresolved: Vec<String>| BlockCheck {
        section: block.section.to_string(),
        opcode: block.opcode.to_string(),
        variants: block.variants().len(),
        hazards_examined: 0,
        loops_bounded: 0,
        findings: Vec::new(),
        unresolved,
        read_from,
    };
    match text.map(|doc| ParsedReading::of(doc, &block.variants())) {
        None => Ok((unread(ReadFrom::NotRead, Vec::new()), Vec::new())),
        // The text's block is not one the reading can follow: unsettled,
        // never clean.
        Some(Err(e)) => Ok((unread(ReadFrom::Text, vec![format!("the block cannot be read: {e}")]), Vec::new())),
        Some(Ok(reading)) => {
            let (mut check, findings) = audit_block_with(backend, timeout, block, &reading)?;
            check.read_from = ReadFrom::Text;
            Ok((check, findings))
        }
    }
}

/// Audit `block` read by `reading` (the text's block parsed, or, in tests,
/// a deliberately wrong transcription).
pub fn audit_block_with<T: Transcription + Sync>(
    backend: &Backend,
    timeout: Duration,
    block: &Block,
    reading: &T,
) -> Result<(BlockCheck, Vec<Finding>), SolverError> {
    let variants = block.variants();
    // The audit's reading of every variant, and, where a variant has bit
    // type (.bN) operands, the reading with those signed.
    let jobs: Vec<(Variant, Reading)> = variants
        .iter()
        .map(|v| (*v, Reading::Audit))
        .chain(variants.iter().filter(|v| has_bit_types(v)).map(|v| (*v, Reading::SignedBitTypes)))
        .collect();
    let mut outcomes: Vec<Result<VariantOutcome, SolverError>> =
        jobs.par_iter().map(|(v, r)| check_variant(backend, timeout, reading, v, *r)).collect();
    let signed: Vec<Result<VariantOutcome, SolverError>> = outcomes.split_off(variants.len());
    let mut check = BlockCheck {
        section: block.section.to_string(),
        opcode: block.opcode.to_string(),
        variants: variants.len(),
        hazards_examined: 0,
        loops_bounded: 0,
        findings: Vec::new(),
        unresolved: Vec::new(),
        read_from: ReadFrom::Text,
    };
    let mut found: Vec<VariantOutcome> = Vec::new();
    for o in outcomes {
        let o = o?;
        check.hazards_examined += o.examined;
        check.loops_bounded += o.loops_bounded;
        check.unresolved.extend(o.unresolved.iter().cloned());
        found.push(o);
    }
    let mut signed_found: Vec<VariantOutcome> = Vec::new();
    for o in signed {
        let mut o = o?;
        // A result the audit's reading gets wrong already is its finding.
        if found.iter().any(|a| a.variant == o.variant && a.wrong_result.is_some()) {
            o.wrong_result = None;
        }
        check.unresolved.extend(o.unresolved.iter().cloned());
        signed_found.push(o);
    }
    let mut findings = findings_of(block, reading.not_c(block), &found);
    findings.extend(signed_bit_types_finding(block, &signed_found));
    findings.sort_by(|x, y| x.id.cmp(&y.id));
    check.findings = findings.iter().map(|f| f.id.clone()).collect();
    Ok((check, findings))
}

/// A reachable hazard of one variant, with its confirmed witness.
struct HazardHit {
    fragment: &'static str,
    rule: Rule,
    /// Reachable on an input where the model defines every output.
    ordinary: bool,
    witness: WitnessTable,
}

/// How the transcription is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    /// As the audit reads every block: `.bN` operands unsigned.
    Audit,
    /// With `.bN` operands as signed C types, the other reading of an
    /// unstated case: only what it adds is asked (hazard sites the audit's
    /// reading does not have, and loops that no longer stop); its results
    /// are not compared with the model.
    SignedBitTypes,
}

/// Whether `variant` has a bit type among its type qualifiers
/// (`shf.l.wrap.b32`).
fn has_bit_types(variant: &Variant) -> bool {
    variant.mnemonic().split('.').skip(1).any(|q| matches!(q, "b16" | "b32" | "b64"))
}

/// What one variant showed.
struct VariantOutcome {
    variant: Variant,
    examined: usize,
    loops_bounded: usize,
    /// Loops that still run after their unrolled iterations (only under
    /// [`Reading::SignedBitTypes`]; under the audit's reading they are
    /// unresolved), with the least input where they do.
    runaway: Vec<(&'static str, WitnessTable)>,
    hazards: Vec<HazardHit>,
    /// A confirmed input where the literal C result is defined and differs.
    wrong_result: Option<WitnessTable>,
    unresolved: Vec<String>,
}

/// The literal transcription and the model on concrete inputs.
struct ConcreteRun {
    literal: Vec<Option<BitVec>>,
    hazards: Vec<Hazard<Concrete>>,
    /// The loops that would still run after their unrolled iterations.
    loops_running: Vec<&'static str>,
    model: Vec<Option<BitVec>>,
}

fn run_concrete<T: Transcription>(reading: &T, variant: &Variant, inputs: &[BitVec], how: Reading) -> ConcreteRun {
    let mut c = context(&Concrete, how);
    let literal = reading.literal(&mut c, variant, inputs).into_iter().map(|o| o.defined.then_some(o.value)).collect();
    let model = variant.semantics(&Concrete, inputs).into_iter().map(|o| o.defined.then_some(o.value)).collect();
    let loops_running = c.loops().iter().filter(|l| l.still_running).map(|l| l.fragment).collect();
    ConcreteRun { literal, hazards: c.into_hazards(), loops_running, model }
}

/// One question per (fragment, rule): any of its sites reached.
fn group_hazards<A: ptx_spec::bv::Algebra<Bool = SExpr>>(
    hazards: &[Hazard<A>],
) -> Vec<(&'static str, Rule, Vec<SExpr>)> {
    let mut groups: Vec<(&'static str, Rule, Vec<SExpr>)> = Vec::new();
    for h in hazards {
        match groups.iter_mut().find(|(f, r, _)| *f == h.fragment && *r == h.rule) {
            Some(g) => g.2.push(h.when),
            None => groups.push((h.fragment, h.rule, vec![h.when])),
        }
    }
    groups
}

/// The C semantics `how` reads the block with.
fn context<A: ptx_spec::bv::Algebra>(alg: &A, how: Reading) -> C<'_, A> {
    match how {
        Reading::Audit => C::new(alg),
        Reading::SignedBitTypes => C::with_signed_bit_types(alg),
    }
}

/// The hazard sites (fragment, rule) a reading of `variant` records,
/// reachable or not.
fn hazard_sites<T: Transcription>(reading: &T, variant: &Variant, how: Reading) -> HashSet<(&'static str, Rule)> {
    let ins: Vec<BitVec> = variant.inputs().iter().map(|o| BitVec::new(o.ty.width(), 0)).collect();
    run_concrete(reading, variant, &ins, how).hazards.iter().map(|h| (h.fragment, h.rule)).collect()
}

/// What every query about one reading of one variant shares.
struct Query<'a, T> {
    backend: &'a Backend,
    timeout: Duration,
    reading: &'a T,
    variant: &'a Variant,
    how: Reading,
    vars: Vec<Var>,
}

impl<T: Transcription> Query<'_, T> {
    fn run(&self, inputs: &[BitVec]) -> ConcreteRun {
        run_concrete(self.reading, self.variant, inputs, self.how)
    }

    /// The output rows of a witness table: the model's value of each output.
    fn model_rows(&self, run: &ConcreteRun) -> Vec<(String, Vec<Option<BitVec>>)> {
        self.variant.outputs().iter().zip(&run.model).map(|(o, m)| (o.name.to_string(), vec![None, *m])).collect()
    }

    /// Every loop stops within the iterations unrolled: else the
    /// transcription does not follow the block there, and nothing it says on
    /// such inputs could be trusted.
    fn check_loops(
        &self,
        ctx: &mut Context,
        loops: &[(&'static str, u32, SExpr)],
        outcome: &mut VariantOutcome,
    ) -> Result<(), SolverError> {
        let (variant, vars) = (self.variant, &self.vars);
        for &(fragment, iterations, still_running) in loops {
            let label = format!("{variant}: `{fragment}` after {iterations} iterations");
            match self.backend.check(ctx, vars, &[still_running], self.timeout)? {
                SatResult::Unsat => outcome.loops_bounded += 1,
                SatResult::Sat(m) => {
                    let witness = minimise(self.backend, ctx, vars, still_running, m, self.timeout, true)?;
                    let inputs = values(vars, &witness);
                    let shown: Vec<String> =
                        vars.iter().zip(&inputs).map(|(v, x)| format!("{} = {}", v.name, x.hex())).collect();
                    let run = self.run(&inputs);
                    if !run.loops_running.contains(&fragment) {
                        outcome
                            .unresolved
                            .push(format!("{label}: the solver's witness does not run on concrete evaluation"));
                    } else if self.how == Reading::SignedBitTypes {
                        outcome.runaway.push((fragment, table(variant, vars, &inputs, self.model_rows(&run))));
                    } else {
                        outcome.unresolved.push(format!(
                            "{label}: still runs at {}, past the passes the C reading unrolls",
                            shown.join(", ")
                        ));
                    }
                }
                SatResult::Unknown(reason) => outcome.unresolved.push(format!("{label}: solver unknown ({reason})")),
            }
        }
        Ok(())
    }

    /// Each group of hazard sites: a witness that reaches it, where the
    /// model defines the result if there is one. `tried` are the inputs run
    /// concretely first.
    fn check_hazards(
        &self,
        ctx: &mut Context,
        groups: &[(&'static str, Rule, Vec<SExpr>)],
        model_defined: SExpr,
        tried: &[(Vec<BitVec>, ConcreteRun)],
        outcome: &mut VariantOutcome,
    ) -> Result<(), SolverError> {
        let (variant, vars, timeout) = (self.variant, &self.vars, self.timeout);
        for (fragment, rule, whens) in groups {
            let reached = any(ctx, whens.iter().copied());
            let ordinary_goal = ctx.and(reached, model_defined);
            // A loop's site is reached at one of its iterations: asked one
            // iteration at a time ([`Backend::check_any`]).
            let ordinary_cases: Vec<SExpr> = whens.iter().map(|&w| ctx.and(w, model_defined)).collect();
            let label = format!("{variant}: `{fragment}` {}", rule.slug());
            let unknown = |reason: String| format!("{label}: solver unknown ({reason})");
            let fires =
                |run: &ConcreteRun| run.hazards.iter().any(|h| h.fragment == *fragment && h.rule == *rule && h.when);
            let seeded = tried.iter().find(|(_, run)| fires(run) && run.model.iter().all(Option::is_some));
            // Prefer a witness where the model defines the result.
            let (goal, ordinary, model_values) = match seeded {
                Some((ins, _)) => (ordinary_goal, true, assignment(vars, ins)),
                None => match self.backend.check_any(ctx, vars, &ordinary_cases, timeout)? {
                    SatResult::Sat(m) => (ordinary_goal, true, m),
                    SatResult::Unknown(reason) => {
                        outcome.unresolved.push(unknown(reason));
                        continue;
                    }
                    SatResult::Unsat => match self.backend.check_any(ctx, vars, whens, timeout)? {
                        SatResult::Sat(m) => (reached, false, m),
                        SatResult::Unsat => continue,
                        SatResult::Unknown(reason) => {
                            outcome.unresolved.push(unknown(reason));
                            continue;
                        }
                    },
                },
            };
            let witness = minimise(self.backend, ctx, vars, goal, model_values, timeout, true)?;
            let inputs = values(vars, &witness);
            let run = self.run(&inputs);
            if !fires(&run) {
                outcome
                    .unresolved
                    .push(format!("{label}: the solver's witness does not reach it on concrete evaluation"));
                continue;
            }
            outcome.hazards.push(HazardHit {
                fragment,
                rule: *rule,
                ordinary,
                witness: table(variant, vars, &inputs, self.model_rows(&run)),
            });
        }
        Ok(())
    }

    /// An input where no hazard applies and the literal result differs from
    /// the model's (`wrong_goal`), confirmed concretely.
    fn check_result(
        &self,
        ctx: &mut Context,
        ins: &[SymBv],
        wrong_goal: SExpr,
        tried: &[(Vec<BitVec>, ConcreteRun)],
        outcome: &mut VariantOutcome,
    ) -> Result<(), SolverError> {
        let (variant, vars, timeout) = (self.variant, &self.vars, self.timeout);
        let label = format!("{variant}: literal result against the model");
        let seeded = tried.iter().find(|(_, run)| wrong_result(run).is_some());
        let found = match seeded {
            Some((ins, _)) => Some(assignment(vars, ins)),
            None => match wrong_result_query(
                self.backend,
                ctx,
                (variant, self.reading, self.how),
                vars,
                ins,
                wrong_goal,
                timeout,
            )? {
                Ok(m) => m,
                Err(reason) => {
                    outcome.unresolved.push(format!("{label}: {reason}"));
                    None
                }
            },
        };
        if let Some(m) = found {
            let witness = minimise(self.backend, ctx, vars, wrong_goal, m, timeout, true)?;
            let inputs = values(vars, &witness);
            match wrong_result(&self.run(&inputs)) {
                Some(pairs) => {
                    let rows =
                        variant.outputs().iter().zip(pairs).map(|(o, pair)| (o.name.to_string(), pair)).collect();
                    outcome.wrong_result = Some(table(variant, vars, &inputs, rows));
                }
                None => outcome
                    .unresolved
                    .push(format!("{label}: the solver's witness does not differ on concrete evaluation")),
            }
        }
        Ok(())
    }
}

fn check_variant<T: Transcription>(
    backend: &Backend,
    timeout: Duration,
    reading: &T,
    variant: &Variant,
    how: Reading,
) -> Result<VariantOutcome, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let vars: Vec<Var> =
        variant.inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
    let query = Query { backend, timeout, reading, variant, how, vars };
    let sym = Sym::new(&ctx);
    let ins: Vec<SymBv> = query.vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
    let mut c = context(&sym, how);
    let literal = reading.literal(&mut c, variant, &ins);
    let loops: Vec<(&'static str, u32, SExpr)> =
        c.loops().iter().map(|l| (l.fragment, l.iterations, l.still_running)).collect();
    let hazards = c.into_hazards();
    let model = variant.semantics(&sym, &ins);

    let mut groups = group_hazards(&hazards);
    if how == Reading::SignedBitTypes {
        let audited = hazard_sites(reading, variant, Reading::Audit);
        groups.retain(|(f, r, _)| !audited.contains(&(*f, *r)));
    }
    let model_defined = all(&ctx, model.iter().map(|o| o.defined));
    let any_hazard = any(&ctx, hazards.iter().map(|h| h.when));
    let differs = any(
        &ctx,
        literal.iter().zip(&model).map(|(l, m)| {
            let both = ctx.and(l.defined, m.defined);
            ctx.and(both, ctx.not(ctx.eq(l.value.term, m.value.term)))
        }),
    );
    let wrong_goal = ctx.and(ctx.not(any_hazard), differs);

    let mut outcome = VariantOutcome {
        variant: *variant,
        examined: groups.len(),
        loops_bounded: 0,
        runaway: Vec::new(),
        hazards: Vec::new(),
        wrong_result: None,
        unresolved: Vec::new(),
    };
    query.check_loops(&mut ctx, &loops, &mut outcome)?;
    // Inputs tried concretely first: a witness found there spares the solver
    // a satisfiability query (multiplications are its weak spot); the
    // solver still minimises it and answers every question they leave open.
    let tried: Vec<(Vec<BitVec>, ConcreteRun)> = candidates(&query.vars)
        .into_iter()
        .map(|ins| {
            let run = query.run(&ins);
            (ins, run)
        })
        .collect();
    query.check_hazards(&mut ctx, &groups, model_defined, &tried, &mut outcome)?;
    // Under the signed reading, a block read from the text is also asked
    // for a result of its own: a block whose sign of .bN decides the value
    // without any rule on the way (a sign-extending shift written out).
    let signed_results = outcome.runaway.is_empty();
    if (how != Reading::SignedBitTypes || signed_results) && speaks_of_whole(reading, variant) {
        query.check_result(&mut ctx, &ins, wrong_goal, &tried, &mut outcome)?;
    }
    Ok(outcome)
}

/// Whether the block speaks of everything `variant` does, so that its
/// result is compared with the model's: not where the variant has a
/// qualifier (`.sat`) that only the prose defines, for every instruction
/// that has it, that the block's code never names, and whose reading a
/// passage of the audit compares under an assumption
/// ([`text_proof::DIFFERENCES`]). That passage
/// (`sat-of-exact-result`) states the defect; a fix that writes the
/// qualifier into the block has its result compared again. `.relu`, which
/// no passage compares, is still this reading's finding.
fn speaks_of_whole<T: Transcription>(reading: &T, variant: &Variant) -> bool {
    text_proof::DIFFERENCES
        .iter()
        .filter(|d| d.opcode.is_none() && d.assumption.is_some() && d.concerns(variant))
        .all(|d| d.qualifier.is_none_or(|q| reading.names(variant, q)))
}

/// Where no hazard applies and the literal C result is defined and differs
/// from the model's: each output's pair of values.
fn wrong_result(run: &ConcreteRun) -> Option<Vec<Vec<Option<BitVec>>>> {
    let literal = &run.literal;
    let quiet = run.hazards.iter().all(|h| !h.when);
    let differ = literal.iter().zip(&run.model).any(|(l, m)| matches!((l, m), (Some(x), Some(y)) if x != y));
    (quiet && differ).then(|| literal.iter().zip(&run.model).map(|(l, m)| vec![*l, *m]).collect())
}

/// Is `goal` (a wrong literal result) satisfiable? One query, or, where the
/// variant splits its proof into cases (fns) or its block's comparison is
/// split ([`literal_cases`]), one per case after showing that the cases
/// cover every input. `Err` with a reason where the solver
/// does not settle it.
fn wrong_result_query<T: Transcription>(
    backend: &Backend,
    ctx: &mut Context,
    (variant, reading, how): (&Variant, &T, Reading),
    vars: &[Var],
    ins: &[SymBv],
    goal: SExpr,
    timeout: Duration,
) -> Result<Result<Option<HashMap<String, BitVec>>, String>, SolverError> {
    // fns's loop is proven against the model's scan in lockstep; the
    // comparison assumes what that proves (see `lockstep`), in one query.
    let signed = how == Reading::SignedBitTypes;
    let facts = match lockstep::facts(backend, ctx, (variant, reading, signed), vars, ins, timeout)? {
        Ok(facts) => facts,
        Err(reason) => return Ok(Err(reason)),
    };
    let goal = all(ctx, std::iter::once(goal).chain(facts.iter().copied()));
    let sym = Sym::new(ctx);
    // A split that only spares a slower solver is not taken with the
    // embedded Z3, which settles the whole query sooner than the cases.
    let split = facts.is_empty() && crate::prove::needs_split(variant, backend);
    let mut cases = if split { variant.proof_cases(&sym, ins) } else { Vec::new() };
    if cases.is_empty() {
        cases = literal_cases(&sym, variant, ins);
    }
    let settle = |r: SatResult| match r {
        SatResult::Sat(m) => Ok(Some(m)),
        SatResult::Unsat => Ok(None),
        SatResult::Unknown(reason) => Err(format!("solver unknown ({reason})")),
    };
    if cases.is_empty() {
        return Ok(settle(backend.check(ctx, vars, &[goal], timeout)?));
    }
    let covered = any(ctx, cases.iter().map(|(_, c)| *c));
    let uncovered = ctx.not(covered);
    match backend.check(ctx, vars, &[uncovered], timeout)? {
        SatResult::Unsat => {}
        _ => return Ok(Err("the proof cases do not cover every input".to_string())),
    }
    for (label, case) in &cases {
        let query = ctx.and(goal, *case);
        match settle(backend.check(ctx, vars, &[query], timeout)?) {
            Ok(None) => {}
            Ok(found) => return Ok(Ok(found)),
            Err(reason) => return Ok(Err(format!("case {label}: {reason}"))),
        }
    }
    Ok(Ok(None))
}

/// Inputs to try concretely: per input, 0, 1, 2^(w/2), the signed extremes
/// and all ones; every combination where there are at most four inputs,
/// else each value in every input at once.
fn candidates(vars: &[Var]) -> Vec<Vec<BitVec>> {
    let values = |w: u32| -> Vec<BitVec> {
        let mut vs: Vec<BitVec> = [0, 1, 1u128 << (w / 2), 1u128 << (w - 1), (1u128 << (w - 1)) - 1, u128::MAX]
            .into_iter()
            .map(|x| BitVec::new(w, x))
            .collect();
        vs.sort_by_key(|b| b.unsigned());
        vs.dedup();
        vs
    };
    if vars.len() > 4 {
        return (0..6)
            .map(|k| {
                vars.iter()
                    .map(|v| {
                        let vs = values(v.width);
                        vs[k.min(vs.len() - 1)]
                    })
                    .collect()
            })
            .collect();
    }
    let mut all: Vec<Vec<BitVec>> = vec![Vec::new()];
    for v in vars {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                values(v.width).into_iter().map(move |x| {
                    let mut p = prefix.clone();
                    p.push(x);
                    p
                })
            })
            .collect();
    }
    all
}

/// Concrete inputs as a solver model.
fn assignment(vars: &[Var], inputs: &[BitVec]) -> HashMap<String, BitVec> {
    vars.iter().zip(inputs).map(|(v, x)| (v.name.clone(), *x)).collect()
}

/// The disjunction of `terms` (false when there are none: easy-smt's
/// `or_many` needs one).
fn any(ctx: &Context, terms: impl Iterator<Item = SExpr>) -> SExpr {
    let terms: Vec<SExpr> = terms.collect();
    match terms.len() {
        0 => ctx.false_(),
        1 => terms[0],
        _ => ctx.or_many(terms),
    }
}

/// The conjunction of `terms` (true when there are none).
fn all(ctx: &Context, terms: impl Iterator<Item = SExpr>) -> SExpr {
    let terms: Vec<SExpr> = terms.collect();
    match terms.len() {
        0 => ctx.true_(),
        1 => terms[0],
        _ => ctx.and_many(terms),
    }
}

/// The witness's value of every variable, in order (0 where the model has
/// none).
fn values(vars: &[Var], model: &HashMap<String, BitVec>) -> Vec<BitVec> {
    vars.iter().map(|v| model.get(&v.name).copied().unwrap_or(BitVec::new(v.width, 0))).collect()
}

fn table(variant: &Variant, vars: &[Var], inputs: &[BitVec], rows: Vec<(String, Vec<Option<BitVec>>)>) -> WitnessTable {
    let inputs = vars
        .iter()
        .zip(inputs)
        .filter(|(_, x)| !variant.is_warp_wide() || x.unsigned() != 0)
        .map(|(v, x)| (v.name.clone(), *x))
        .collect();
    WitnessTable { variant: variant.to_string(), inputs, columns: COLUMNS.map(String::from).to_vec(), rows }
}

/// What a finding is about, within one block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Subject {
    Hazard(&'static str, Rule),
    WrongResult,
}

/// One finding per subject, in the order the subjects first occur (in
/// catalogue order of the variants), and one for a block that is not C.
fn findings_of(block: &Block, not_c: Option<NotC>, outcomes: &[VariantOutcome]) -> Vec<Finding> {
    let mut findings = Vec::new();
    if let Some(not_c) = not_c {
        let mut detail =
            vec![format!("Read as C, the Semantics block of {} does not parse: {}.", block.opcode, not_c.reason)];
        detail.push(format!(
            "The block is read with its smallest repair, {}, and audited like the others, so that the \
             undefined operations of the repaired text are found too.",
            not_c.repair
        ));
        findings.push(Finding {
            id: format!("literal-{}-not-c", block.opcode),
            section: block.section.to_string(),
            kind: FindingKind::LiteralReading,
            severity: Severity::Low,
            root_cause: String::new(),
            fragment: not_c.fragment.to_string(),
            summary: format!("the Semantics block is not valid C: {}", not_c.reason),
            detail,
            model_choice: block.model_note(not_c.fragment).map(String::from),
            witness: None,
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
        });
    }

    let mut subjects: Vec<Subject> = Vec::new();
    for o in outcomes {
        for h in &o.hazards {
            let s = Subject::Hazard(h.fragment, h.rule);
            if !subjects.contains(&s) {
                subjects.push(s);
            }
        }
        if o.wrong_result.is_some() && !subjects.contains(&Subject::WrongResult) {
            subjects.push(Subject::WrongResult);
        }
    }
    // A rule met at two fragments of one block: ids name the fragment too.
    let shared_rule =
        |rule: Rule| subjects.iter().filter(|s| matches!(s, Subject::Hazard(_, r) if *r == rule)).count() > 1;
    for subject in &subjects {
        findings.push(match *subject {
            Subject::Hazard(fragment, rule) => {
                let id = if shared_rule(rule) {
                    format!("literal-{}-{}-{}", block.opcode, rule.slug(), slug(fragment))
                } else {
                    format!("literal-{}-{}", block.opcode, rule.slug())
                };
                hazard_finding(block, id, fragment, rule, outcomes)
            }
            Subject::WrongResult => wrong_result_finding(block, outcomes),
        });
    }
    findings
}

fn hazard_finding(
    block: &Block,
    id: String,
    fragment: &'static str,
    rule: Rule,
    outcomes: &[VariantOutcome],
) -> Finding {
    let hits: Vec<(&Variant, &HazardHit)> = outcomes
        .iter()
        .filter_map(|o| o.hazards.iter().find(|h| h.fragment == fragment && h.rule == rule).map(|h| (&o.variant, h)))
        .collect();
    let ordinary: Vec<String> = hits.iter().filter(|(_, h)| h.ordinary).map(|(v, _)| v.to_string()).collect();
    let only_open: Vec<String> = hits.iter().filter(|(_, h)| !h.ordinary).map(|(v, _)| v.to_string()).collect();
    let behaviour = rule.behaviour();
    let severity = match behaviour {
        Behaviour::Undefined if !ordinary.is_empty() => Severity::Medium,
        _ => Severity::Low,
    };
    // The witness of the first variant, preferring one on ordinary inputs.
    let first = hits.iter().find(|(_, h)| h.ordinary).or(hits.first()).map(|(_, h)| h.witness.clone());
    let mut summary = format!("`{fragment}` read as C is {}: {}", behaviour.label(), rule.describe());
    if ordinary.is_empty() {
        summary.push_str(", only on inputs where the model leaves the result unspecified too");
    }
    let mut detail = vec![format!(
        "Read literally as C ({}), the fragment `{fragment}` of the Semantics block of {} \
         meets {} for some inputs, so the C program's result there is {}.",
        C_MODEL_SHORT,
        block.opcode,
        rule.describe(),
        behaviour.label()
    )];
    if !ordinary.is_empty() {
        detail.push(format!("Reachable on inputs where the model defines every output, in: {}.", ordinary.join(", ")));
    }
    if !only_open.is_empty() {
        detail.push(format!(
            "Reachable only on inputs where the model leaves an output unspecified, in: {}.",
            only_open.join(", ")
        ));
    }
    detail.push(
        "The witness is the first such variant's, minimised; the C reading was run on it without the solver \
         and reaches the rule there. The literal C column is empty: C gives that result no value."
            .to_string(),
    );
    Finding {
        id,
        section: block.section.to_string(),
        kind: FindingKind::Undefined,
        severity,
        root_cause: String::new(),
        fragment: fragment.to_string(),
        summary,
        detail,
        model_choice: Some(block.model_note(fragment).unwrap_or(default_model_choice(rule)).to_string()),
        witness: first,
        more_witnesses: Vec::new(),
        also_quotes: Vec::new(),
        repairs: Vec::new(),
    }
}

/// What reading a block's `.bN` operands as signed C types adds: loops
/// that no longer stop and hazards the unsigned reading does not have, in
/// one finding (the text never says which C type a bit type is).
fn signed_bit_types_finding(block: &Block, outcomes: &[VariantOutcome]) -> Option<Finding> {
    let mut items: Vec<(&'static str, String, &Variant, &WitnessTable)> = Vec::new();
    for o in outcomes {
        for (fragment, w) in &o.runaway {
            items.push((
                fragment,
                "never ends: a negative value shifted right keeps its sign (the arithmetic shift every C \
                 implementation in use takes) and never reaches 0"
                    .to_string(),
                &o.variant,
                w,
            ));
        }
        for h in &o.hazards {
            let what = format!("is {}: {}", h.rule.behaviour().label(), h.rule.describe());
            items.push((h.fragment, what, &o.variant, &h.witness));
        }
    }
    // Results after every rule: the fragment of a finding is a hazard's
    // where it has one.
    for o in outcomes {
        if let Some(w) = &o.wrong_result {
            let what = "computes another result than the model, with no rule on the way".to_string();
            items.push(("Semantics", what, &o.variant, w));
        }
    }
    let (fragment, _, _, witness) = items.first()?;
    let mut said: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for (f, what, _, _) in &items {
        let line = format!("`{f}` {what}");
        if !said.contains(&line) {
            said.push(line.clone());
            let variants: Vec<String> =
                items.iter().filter(|(g, w, _, _)| g == f && *w == *what).map(|(_, _, v, _)| v.to_string()).collect();
            lines.push(format!("{line}, in: {}.", variants.join(", ")));
        }
    }
    let mut detail = vec![format!(
        "The text never says which C type a bit-size operand (.b16, .b32, .b64) is. The audit reads them \
         unsigned; read as the signed type of the same width instead, the Semantics block of {} adds:",
        block.opcode
    )];
    detail.extend(lines);
    detail.push(
        "Each was found by the solver and confirmed by running the C reading, so read, on the witness (the \
         first one's is shown). The literal C column is empty: C gives that result no value."
            .to_string(),
    );
    Some(Finding {
        id: format!("literal-{}-bit-types-signed", block.opcode),
        section: block.section.to_string(),
        kind: FindingKind::LiteralReading,
        severity: Severity::Medium,
        root_cause: String::new(),
        fragment: fragment.to_string(),
        summary: signed_summary(&items),
        detail,
        model_choice: Some("reads the bit types as unsigned, bit patterns without a sign".to_string()),
        witness: Some((*witness).clone()),
        more_witnesses: Vec::new(),
        also_quotes: Vec::new(),
        repairs: Vec::new(),
    })
}

/// The one-line summary: the loops that never end, then the fragments
/// that meet new hazards.
fn signed_summary(items: &[(&'static str, String, &Variant, &WitnessTable)]) -> String {
    let mut loops: Vec<String> = Vec::new();
    let mut hazards: Vec<String> = Vec::new();
    let mut results = false;
    for (f, what, _, _) in items {
        if what.starts_with("computes") {
            results = true;
            continue;
        }
        let list = if what.starts_with("never ends") { &mut loops } else { &mut hazards };
        let quoted = format!("`{f}`");
        if !list.contains(&quoted) {
            list.push(quoted);
        }
    }
    let mut parts = Vec::new();
    if !loops.is_empty() {
        parts.push(format!("{} never ends on a negative operand", loops.join(", ")));
    }
    if !hazards.is_empty() {
        parts.push(format!("C leaves {} undefined or implementation-defined", hazards.join(", ")));
    }
    if results {
        parts.push("the block computes another result than the model".to_string());
    }
    format!("read with its .bN operands as signed C types (the text never says which), {}", parts.join(", and "))
}

fn wrong_result_finding(block: &Block, outcomes: &[VariantOutcome]) -> Finding {
    let hits: Vec<(&Variant, &WitnessTable)> =
        outcomes.iter().filter_map(|o| o.wrong_result.as_ref().map(|w| (&o.variant, w))).collect();
    let names: Vec<String> = hits.iter().map(|(v, _)| v.to_string()).collect();
    let (fragment, why) = block.wrong_result.unwrap_or(("Semantics", "the literal reading computes another value"));
    let mut assumptions: Vec<&str> = Vec::new();
    for (v, _) in &hits {
        for a in v.assumptions() {
            if !assumptions.contains(&a.id) {
                assumptions.push(a.id);
            }
        }
    }
    let model_choice = if assumptions.is_empty() {
        "computes the result the Description states".to_string()
    } else {
        format!("computes the result the Description states (assumptions {})", assumptions.join(", "))
    };
    Finding {
        id: format!("literal-{}-wrong-result", block.opcode),
        section: block.section.to_string(),
        kind: FindingKind::LiteralReading,
        severity: Severity::High,
        root_cause: String::new(),
        fragment: fragment.to_string(),
        summary: format!("read as C, the block computes a defined result that differs from the model: {why}"),
        detail: vec![
            format!(
                "Read literally as C ({C_MODEL_SHORT}), the Semantics block of {} is defined on some input, with no \
                 undefined or implementation-defined operation on the way, and computes another result than the model.",
                block.opcode
            ),
            format!("So in: {}.", names.join(", ")),
            "The witness is the first such variant's, minimised, and both the C reading and the model were run \
             on it without the solver."
                .to_string(),
        ],
        model_choice: Some(model_choice),
        witness: hits.first().map(|(_, w)| (*w).clone()),
        more_witnesses: Vec::new(),
        also_quotes: Vec::new(),
        repairs: Vec::new(),
    }
}

/// How the pseudocode is read as C: stated once at the top of the report's
/// findings, and named in short in each finding.
pub const C_MODEL_SHORT: &str = "an LP64 target, the types as the head of the findings states";

/// How the pseudocode is read as C, in full.
pub const C_MODEL: &str = "an LP64 target; .s16/.u16 as short/unsigned short, promoted to int; .s32/.u32 as \
                       int/unsigned int; .s64/.u64 as long long/unsigned long long; .bN as unsigned; .pred as _Bool";

fn default_model_choice(rule: Rule) -> &'static str {
    match rule {
        Rule::SignedOverflow => "wraps modulo 2^n (assumption int-wraparound)",
        Rule::ConversionOutOfRange => "keeps the low bits of the result, two's complement",
        Rule::DivisionByZero => "leaves the result unspecified",
        Rule::QuotientOverflow => "wraps MIN / -1 to MIN (assumption div-signed-overflow)",
        Rule::ShiftByNegative | Rule::ShiftPastWidth | Rule::LeftShiftOfNegative | Rule::ShiftIntoSignBit => {
            "shifts within the operand's width: bits shifted out are lost"
        }
        Rule::RightShiftOfNegative => "shifts in copies of the sign bit",
        Rule::BitIndexOutOfRange => "reads only bits within the operand's width",
        Rule::ArrayIndexOutOfRange => "reads only lanes 0..31 of the warp",
    }
}

/// A fragment as kebab-case words: `1<<i` is `1-shl-i`.
fn slug(fragment: &str) -> String {
    let spelled = fragment
        .replace("<<", " shl ")
        .replace(">>", " shr ")
        .replace('+', " plus ")
        .replace('-', " minus ")
        .replace('*', " times ")
        .replace('/', " div ")
        .replace('%', " rem ")
        .replace('~', " not ");
    let words: Vec<String> = spelled
        .split(|ch: char| !ch.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect();
    words.join("-")
}

/// `9.7.1.10` as numbers, so that it sorts after `9.7.1.9`.
fn section_key(section: &str) -> Vec<u32> {
    section.split(['.', '-']).map(|p| p.parse().unwrap_or(u32::MAX)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_sections() {
        assert_eq!(slug("1<<i"), "1-shl-i");
        assert_eq!(slug("a >> (32-n)"), "a-shr-32-minus-n");
        assert!(section_key("9.7.1.9") < section_key("9.7.1.10"));
        assert!(section_key("9.7.1.24") < section_key("9.7.8.1"));
    }
}
