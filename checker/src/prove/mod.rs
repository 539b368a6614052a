//! The proof: for every input of a variant, its SMT encoding and its
//! concrete semantics agree.
//!
//! The query asks the solver for an input on which the two differ. `unsat`
//! is a proof for all inputs. `sat` gives a model, which is minimised and
//! then confirmed by evaluating both sides on it without the solver before
//! it is reported as a counterexample. Anything else is `unknown` or
//! `timeout`, never `proven`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use easy_smt::{Context, SExpr};
use ptx_smt::eval::Evaluator;
use ptx_smt::{encode, solver, Backend, Incremental, Pin, SatResult, SolverError, Sym, SymBv, SymOutputs, Var};
use ptx_spec::assumption::Assumption;
use ptx_spec::bv::{Algebra, BitVec, Concrete};
use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::{Model, Rule};
use rayon::prelude::*;
use serde::Serialize;

mod batch;
mod lockstep;

pub use batch::{jobs, prove_job};

/// The outcome of one proof, carrying its evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Unsat: the two encodings agree on every input.
    Proven,
    /// A confirmed input on which they differ.
    Counterexample(Box<Counterexample>),
    /// The solver gave no answer, or an answer that did not check out.
    Unknown { reason: String },
    /// The solver ran out of time.
    Timeout,
}

impl Verdict {
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Proven => "proven",
            Verdict::Counterexample(_) => "counterexample",
            Verdict::Unknown { .. } => "unknown",
            Verdict::Timeout => "timeout",
        }
    }
    pub fn is_proven(&self) -> bool {
        matches!(self, Verdict::Proven)
    }
}

/// One output on a counterexample: its value on each side (`None` where
/// that side leaves it undefined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutputPair {
    pub name: String,
    pub smt: Option<BitVec>,
    pub concrete: Option<BitVec>,
}

/// Inputs on which the two sides differ, with both sides' outputs, as
/// computed by concrete evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counterexample {
    pub inputs: Vec<(String, BitVec)>,
    pub outputs: Vec<OutputPair>,
}

/// The proof of one variant.
#[derive(Clone, Debug)]
pub struct ProofResult {
    pub variant: Variant,
    pub verdict: Verdict,
    pub assumptions: Vec<&'static Assumption>,
    /// The model proven (both of its encodings), and its rules that change
    /// this variant (none for `spec`).
    pub model: Model,
    pub rules: Vec<&'static Rule>,
    /// How many cases the proof was split into (1: a single comparison, for
    /// fns beside the obligations of its induction).
    pub cases: usize,
    /// How many variants the query that proved it proved together (1:
    /// alone; see [`batch`]).
    pub batch: usize,
    /// Its time; in a batch, the batch's time shared equally.
    pub time: Duration,
}

impl ProofResult {
    /// `variant`'s proof in `model`, begun at `start`.
    fn of(model: Model, variant: &Variant, verdict: Verdict, cases: usize, start: Instant) -> ProofResult {
        ProofResult {
            variant: *variant,
            verdict,
            assumptions: variant.assumptions(),
            model,
            rules: model.rules_for(variant),
            cases,
            batch: 1,
            time: start.elapsed(),
        }
    }
}

/// An equivalence query between two sets of outputs over the same inputs.
#[derive(Clone, Copy)]
pub(crate) struct Sides<'a> {
    pub vars: &'a [Var],
    /// Only inputs satisfying this are considered (a case of a split proof).
    pub constraint: Option<SExpr>,
    pub output_names: &'a [String],
    pub smt: &'a SymOutputs,
    pub concrete: &'a SymOutputs,
}

/// What the solver and the evaluator together found.
pub(crate) enum Comparison {
    Equivalent,
    /// Confirmed by concrete evaluation; the model is minimised.
    Differ(Counterexample),
    /// The solver's model does not make the sides differ when evaluated.
    Unconfirmed(HashMap<String, BitVec>),
    Unknown(String),
}

/// Both encodings of a variant as terms over its inputs, which are solver
/// variables named after its operands.
pub(crate) struct Encodings {
    pub vars: Vec<Var>,
    pub output_names: Vec<String>,
    pub smt: SymOutputs,
    pub concrete: SymOutputs,
    /// The variant's proof cases (see `Variant::proof_cases`).
    pub cases: Vec<(String, SExpr)>,
}

impl Encodings {
    /// `smt` is the SMT encoding to use (the variant's own, or a test's).
    pub fn build(variant: &Variant, ctx: &Context, smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs) -> Encodings {
        Encodings::build_split(variant, ctx, smt, |sym, ins| variant.proof_cases(sym, ins))
    }

    /// As [`Encodings::build`], with the proof cases given by `cases`.
    pub fn build_split(
        variant: &Variant,
        ctx: &Context,
        smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs,
        cases: impl Fn(&Sym, &[SymBv]) -> Vec<(String, SExpr)>,
    ) -> Encodings {
        Encodings::build_split_in(Model::Spec, variant, ctx, smt, cases)
    }

    /// As [`Encodings::build_split`], the concrete side that of `model`.
    pub fn build_split_in(
        model: Model,
        variant: &Variant,
        ctx: &Context,
        smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs,
        cases: impl Fn(&Sym, &[SymBv]) -> Vec<(String, SExpr)>,
    ) -> Encodings {
        let vars: Vec<Var> =
            variant.inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
        let output_names = variant.outputs().iter().map(|o| o.name.to_string()).collect();
        let sym = Sym::new(ctx);
        let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
        let (smt, concrete) = (smt(&sym, &ins), variant.semantics_in(model, &sym, &ins));
        let cases = cases(&sym, &ins);
        Encodings { vars, output_names, smt, concrete, cases }
    }

    /// The SMT encoding against the concrete semantics.
    pub fn sides(&self) -> Sides<'_> {
        Sides {
            vars: &self.vars,
            constraint: None,
            output_names: &self.output_names,
            smt: &self.smt,
            concrete: &self.concrete,
        }
    }
}

/// Whether one query about `variant` with `backend` needs the variant's
/// proof cases: always with a solver process, and with the embedded Z3
/// only where it cannot prove the variant whole (see
/// `Variant::whole_in_z3`).
pub(crate) fn needs_split(variant: &Variant, backend: &Backend) -> bool {
    *backend != Backend::Embedded || !variant.whole_in_z3()
}

/// Prove that `variant`'s SMT encoding and concrete semantics agree.
pub fn prove(variant: &Variant, backend: &Backend, timeout: Duration) -> ProofResult {
    prove_in(Model::Spec, variant, backend, timeout)
}

/// Prove that `variant`'s two encodings in `model` agree.
pub fn prove_in(model: Model, variant: &Variant, backend: &Backend, timeout: Duration) -> ProofResult {
    if lockstep::applies(model, variant, backend) {
        let start = Instant::now();
        // By induction over fns's steps, or, where that is not proven, by
        // its cases below.
        let by_induction = match lockstep::prove(variant, backend, timeout) {
            Ok(Ok(verdict)) => Some(verdict),
            Ok(Err(_)) => None,
            Err(e) => Some(Verdict::Unknown { reason: e.to_string() }),
        };
        if let Some(verdict) = by_induction {
            return ProofResult::of(model, variant, verdict, 1, start);
        }
    }
    prove_against_in(model, variant, backend, timeout, |sym, ins| encode::encode_in(model, variant, sym, ins))
}

/// [`prove_against`]: `model`'s concrete semantics against the SMT encoding
/// `smt` (tests plant a fault in a vendor rule this way).
pub fn prove_against_in(
    model: Model,
    variant: &Variant,
    backend: &Backend,
    timeout: Duration,
    smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs + Sync,
) -> ProofResult {
    prove_split_in(model, variant, backend, timeout, smt, |sym, ins| variant.proof_cases(sym, ins))
}

/// Prove `variant`'s concrete semantics against the SMT encoding `smt`
/// (tests use this to check that a wrong encoding is caught).
pub fn prove_against(
    variant: &Variant,
    backend: &Backend,
    timeout: Duration,
    smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs + Sync,
) -> ProofResult {
    prove_split(variant, backend, timeout, smt, |sym, ins| variant.proof_cases(sym, ins))
}

/// Prove `variant`'s concrete semantics against the SMT encoding `smt`, split
/// into the proof cases `cases` (tests use this to check that cases which do
/// not cover every input never give `proven`).
pub fn prove_split(
    variant: &Variant,
    backend: &Backend,
    timeout: Duration,
    smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs + Sync,
    cases: impl Fn(&Sym, &[SymBv]) -> Vec<(String, SExpr)> + Sync,
) -> ProofResult {
    prove_split_in(Model::Spec, variant, backend, timeout, smt, cases)
}

/// [`prove_split`] with the concrete semantics of `model`.
pub fn prove_split_in(
    model: Model,
    variant: &Variant,
    backend: &Backend,
    timeout: Duration,
    smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs + Sync,
    cases: impl Fn(&Sym, &[SymBv]) -> Vec<(String, SExpr)> + Sync,
) -> ProofResult {
    let start = Instant::now();
    let (verdict, cases) = match run_proof(model, variant, backend, timeout, smt, cases) {
        Ok(v) => v,
        Err(e) => (Verdict::Unknown { reason: e.to_string() }, 1),
    };
    ProofResult::of(model, variant, verdict, cases, start)
}

fn run_proof(
    model: Model,
    variant: &Variant,
    backend: &Backend,
    timeout: Duration,
    smt: impl Fn(&Sym, &[SymBv]) -> SymOutputs + Sync,
    cases: impl Fn(&Sym, &[SymBv]) -> Vec<(String, SExpr)> + Sync,
) -> Result<(Verdict, usize), SolverError> {
    let mut ctx = backend.context(timeout)?;
    let encodings = Encodings::build_split_in(model, variant, &ctx, &smt, &cases);
    if encodings.cases.is_empty() {
        return Ok((prove_case(model, variant, backend, &mut ctx, &encodings, None, timeout)?, 1));
    }
    // A split proof holds only if the cases cover every input ...
    let any_case = ctx.or_many(encodings.cases.iter().map(|(_, c)| *c));
    let uncovered = ctx.not(any_case);
    match backend.check(&mut ctx, &encodings.vars, &[uncovered], timeout)? {
        SatResult::Unsat => {}
        SatResult::Sat(model) => {
            let reason = format!("the proof cases miss the input {}", show_model(&encodings.vars, &model));
            return Ok((Verdict::Unknown { reason }, encodings.cases.len()));
        }
        SatResult::Unknown(reason) => {
            let reason = format!("could not show that the proof cases cover every input: {reason}");
            return Ok((Verdict::Unknown { reason }, encodings.cases.len()));
        }
    }
    // ... and each case is proven, in parallel, each with its own solver;
    // the first case (in order) that is not proven decides the verdict.
    let n = encodings.cases.len();
    let verdicts: Vec<Result<Verdict, SolverError>> = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut ctx = backend.context(timeout)?;
            let encodings = Encodings::build_split_in(model, variant, &ctx, &smt, &cases);
            let (label, condition) = &encodings.cases[i];
            Ok(match prove_case(model, variant, backend, &mut ctx, &encodings, Some(*condition), timeout)? {
                Verdict::Unknown { reason } => Verdict::Unknown { reason: format!("case {label}: {reason}") },
                v => v,
            })
        })
        .collect();
    for v in verdicts {
        match v? {
            Verdict::Proven => {}
            other => return Ok((other, n)),
        }
    }
    Ok((Verdict::Proven, n))
}

/// One query: the encodings agree on every input (satisfying `constraint`).
fn prove_case(
    model: Model,
    variant: &Variant,
    backend: &Backend,
    ctx: &mut Context,
    encodings: &Encodings,
    constraint: Option<SExpr>,
    timeout: Duration,
) -> Result<Verdict, SolverError> {
    let sides = Sides { constraint, ..encodings.sides() };
    let start = Instant::now();
    Ok(match compare(backend, ctx, &sides, timeout)? {
        Comparison::Equivalent => Verdict::Proven,
        Comparison::Differ(cex) => {
            // The concrete side was evaluated from its term; the emulator
            // itself must compute the same, or the algebra is broken.
            check_emulator_agrees(model, variant, &cex)?;
            Verdict::Counterexample(Box::new(cex))
        }
        Comparison::Unconfirmed(model) => Verdict::Unknown {
            reason: format!(
                "the solver's model {} does not make the sides differ on concrete evaluation",
                show_model(&encodings.vars, &model)
            ),
        },
        Comparison::Unknown(reason) => timeout_or_unknown(reason, start.elapsed(), timeout),
    })
}

/// Classify a solver's `unknown`.
pub(crate) fn timeout_or_unknown(reason: String, elapsed: Duration, timeout: Duration) -> Verdict {
    if reason.contains("timeout") || reason.contains("canceled") || elapsed >= timeout.mul_f64(0.95) {
        Verdict::Timeout
    } else {
        Verdict::Unknown { reason }
    }
}

fn show_model(vars: &[Var], model: &HashMap<String, BitVec>) -> String {
    vars.iter()
        .filter_map(|v| model.get(&v.name).map(|b| format!("{}={}", v.name, b.hex())))
        .collect::<Vec<_>>()
        .join(" ")
}

fn check_emulator_agrees(model: Model, variant: &Variant, cex: &Counterexample) -> Result<(), SolverError> {
    let ins: Vec<BitVec> = cex.inputs.iter().map(|(_, v)| *v).collect();
    let outs = variant.semantics_in(model, &Concrete, &ins);
    for (out, pair) in outs.iter().zip(&cex.outputs) {
        let direct = out.defined.then_some(out.value);
        if direct != pair.concrete {
            return Err(SolverError::Rejected {
                solver: "evaluator".into(),
                message: format!(
                    "internal inconsistency: the concrete semantics computes {:?} for {} but its term evaluates to {:?}",
                    direct, pair.name, pair.concrete
                ),
            });
        }
    }
    Ok(())
}

/// The Boolean "the two sides differ on some output": definedness differs,
/// or both are defined and the values differ.
fn differ(ctx: &Context, sides: &Sides) -> SExpr {
    let sym = Sym::new(ctx);
    let mut any = Vec::new();
    for (s, c) in sides.smt.iter().zip(sides.concrete) {
        let defined_differs = ctx.not(ctx.eq(s.defined, c.defined));
        let values_differ = sym.and(s.defined, sym.not(sym.eq(s.value, c.value)));
        any.push(ctx.or(defined_differs, values_differ));
    }
    ctx.or_many(any)
}

/// Evaluate both sides on `model`: `Some(cex)` if they differ.
fn evaluate(
    ctx: &Context,
    sides: &Sides,
    model: &HashMap<String, BitVec>,
) -> Result<Option<Counterexample>, SolverError> {
    let env: HashMap<String, BitVec> = sides
        .vars
        .iter()
        .map(|v| (v.name.clone(), model.get(&v.name).copied().unwrap_or(BitVec::new(v.width, 0))))
        .collect();
    let mut ev = Evaluator::new(ctx, env.clone());
    let eval_err =
        |e: ptx_smt::eval::EvalError| SolverError::Rejected { solver: "evaluator".into(), message: e.to_string() };
    let mut outputs = Vec::new();
    let mut differs = false;
    for ((s, c), name) in sides.smt.iter().zip(sides.concrete).zip(sides.output_names) {
        let side =
            |ev: &mut Evaluator, o: &ptx_spec::catalogue::Out<SymBv, SExpr>| -> Result<Option<BitVec>, SolverError> {
                Ok(if ev.eval_bool(o.defined).map_err(eval_err)? {
                    Some(ev.eval_bv(o.value.term).map_err(eval_err)?)
                } else {
                    None
                })
            };
        let (sv, cv) = (side(&mut ev, s)?, side(&mut ev, c)?);
        differs |= sv != cv;
        outputs.push(OutputPair { name: name.clone(), smt: sv, concrete: cv });
    }
    let inputs = sides.vars.iter().map(|v| (v.name.clone(), env[&v.name])).collect();
    Ok(differs.then_some(Counterexample { inputs, outputs }))
}

/// Ask whether the sides differ; on `sat`, minimise the witness and confirm
/// it concretely.
pub(crate) fn compare(
    backend: &Backend,
    ctx: &mut Context,
    sides: &Sides,
    timeout: Duration,
) -> Result<Comparison, SolverError> {
    compare_with(backend, ctx, sides, timeout, false)
}

/// [`compare`] over a split proof: `sides` compared under each of `cases`
/// in turn (and its own constraint, if any), the first case that is not
/// equivalent deciding; with no cases, one comparison. The cases are a
/// variant's proof cases, which its proof shows cover every input, so that
/// equivalent in every case is equivalent.
pub(crate) fn compare_cases(
    backend: &Backend,
    ctx: &mut Context,
    sides: &Sides,
    cases: &[(String, SExpr)],
    timeout: Duration,
) -> Result<Comparison, SolverError> {
    if cases.is_empty() {
        return compare(backend, ctx, sides, timeout);
    }
    for (_, case) in cases {
        let constraint = match sides.constraint {
            Some(c) => ctx.and(c, *case),
            None => *case,
        };
        match compare(backend, ctx, &Sides { constraint: Some(constraint), ..*sides }, timeout)? {
            Comparison::Equivalent => {}
            other => return Ok(other),
        }
    }
    Ok(Comparison::Equivalent)
}

/// As [`compare`], with the least witness (see [`minimise`]).
pub(crate) fn compare_least(
    backend: &Backend,
    ctx: &mut Context,
    sides: &Sides,
    timeout: Duration,
) -> Result<Comparison, SolverError> {
    compare_with(backend, ctx, sides, timeout, true)
}

fn compare_with(
    backend: &Backend,
    ctx: &mut Context,
    sides: &Sides,
    timeout: Duration,
    least: bool,
) -> Result<Comparison, SolverError> {
    let mut goal = differ(ctx, sides);
    if let Some(c) = sides.constraint {
        goal = ctx.and(c, goal);
    }
    let model = match backend.check(ctx, sides.vars, &[goal], timeout)? {
        SatResult::Unsat => return Ok(Comparison::Equivalent),
        SatResult::Unknown(reason) => return Ok(Comparison::Unknown(reason)),
        SatResult::Sat(model) => model,
    };
    let model = minimise(backend, ctx, sides.vars, goal, model, timeout, least)?;
    Ok(match evaluate(ctx, sides, &model)? {
        Some(cex) => Comparison::Differ(cex),
        None => Comparison::Unconfirmed(model),
    })
}

/// The small values `minimise` pins one by one before it descends bit by bit.
const LEAST_SCAN: u128 = 16;

/// Prefer 0, then 1, for each input in turn, so a person can check the
/// witness by hand. Each step keeps the earlier choices.
///
/// With `least`, the values 2..=LEAST_SCAN are tried next, and an input
/// that can be none of them is brought down to its least
/// value, bit by bit from the top: the witness is then the least input in
/// operand order, whatever model the solver gave, so a report that shows it
/// is the same on every run and with every solver.
pub(crate) fn minimise(
    backend: &Backend,
    ctx: &mut Context,
    vars: &[Var],
    goal: SExpr,
    model: HashMap<String, BitVec>,
    timeout: Duration,
    least: bool,
) -> Result<HashMap<String, BitVec>, SolverError> {
    // The result depends on the goal, `least` and, without `least`, the
    // solver's first model (values other than 0 and 1 are kept): the proof
    // cache holds it under all three, and checks it satisfies the goal
    // before it is used.
    let start: Vec<String> = vars.iter().map(|v| model.get(&v.name).map_or("-".into(), |b| b.smtlib())).collect();
    let cached = ptx_smt::cache::current().and_then(|cache| {
        let id = backend.identity()?;
        let text = format!("minimise least={least} from {}\n{}", start.join(" "), solver::script(ctx, vars, &[goal]));
        Some((cache, ptx_smt::cache::Cache::key(&id, &text)))
    });
    if let Some((cache, key)) = &cached {
        if let Some(SatResult::Sat(hit)) = cache.get(key, ctx, vars, &[goal]) {
            return Ok(hit);
        }
    }
    let mut pins = match backend.incremental(ctx, vars, &[goal], timeout)? {
        Some(kept) => Pins::Kept(kept),
        None => Pins::Separate(vec![goal]),
    };
    let found = descend(backend, ctx, vars, &mut pins, model, timeout, least)?;
    if let Some((cache, key)) = &cached {
        cache.put(key, ctx, vars, &[goal], &SatResult::Sat(found.clone()));
    }
    Ok(found)
}

/// The least model (in operand order, as `minimise` with `least`) of the
/// goal `kept` holds, from its `model`; uncached, for a caller that keeps
/// several goals in one solver and caches the results itself.
pub(crate) fn least_in(
    backend: &Backend,
    ctx: &mut Context,
    vars: &[Var],
    kept: Incremental,
    model: HashMap<String, BitVec>,
    timeout: Duration,
) -> Result<HashMap<String, BitVec>, SolverError> {
    descend(backend, ctx, vars, &mut Pins::Kept(kept), model, timeout, true)
}

/// Where `minimise` keeps the goal and the pins chosen so far: in a kept
/// solver, or as assertions repeated in every query.
enum Pins<'a> {
    Kept(Incremental<'a>),
    Separate(Vec<SExpr>),
}

impl Pins<'_> {
    /// The goal with the pins kept so far and `pin`: a model, or `None`.
    fn try_pin(
        &self,
        backend: &Backend,
        ctx: &mut Context,
        vars: &[Var],
        pin: &Pin,
        timeout: Duration,
    ) -> Result<Option<HashMap<String, BitVec>>, SolverError> {
        let answer = match self {
            Pins::Kept(kept) => kept.check(std::slice::from_ref(pin))?,
            Pins::Separate(fixed) => {
                let mut assertions = fixed.clone();
                assertions.push(pin_term(ctx, pin));
                backend.check(ctx, vars, &assertions, timeout)?
            }
        };
        Ok(match answer {
            SatResult::Sat(m) => Some(m),
            _ => None,
        })
    }
    fn keep(&mut self, ctx: &Context, pin: &Pin) {
        match self {
            Pins::Kept(kept) => kept.keep(pin),
            Pins::Separate(fixed) => fixed.push(pin_term(ctx, pin)),
        }
    }
}

fn pin_term(ctx: &Context, pin: &Pin) -> SExpr {
    let sym = Sym::new(ctx);
    let bits = sym.extract(pin.hi, pin.lo, sym.var(&pin.var.name, pin.var.width));
    sym.eq(bits, sym.constant(pin.hi - pin.lo + 1, pin.value))
}

fn descend(
    backend: &Backend,
    ctx: &mut Context,
    vars: &[Var],
    pins: &mut Pins,
    mut model: HashMap<String, BitVec>,
    timeout: Duration,
    least: bool,
) -> Result<HashMap<String, BitVec>, SolverError> {
    for v in vars {
        let whole = |value: u128| Pin { var: v.clone(), hi: v.width - 1, lo: 0, value };
        let current = model.get(&v.name).copied().unwrap_or(BitVec::new(v.width, 0));
        let mut chosen = current;
        // Tried in increasing order, so the first that holds is the least.
        // With `least`, the small values up to LEAST_SCAN are pinned one at
        // a time before the bit-by-bit descent: a query with an input
        // pinned to a constant is cheap even where that input multiplies
        // (a 64-bit overflow witness starts at 2), while each step of the
        // descent leaves the input's low bits free.
        let smalls = if least { LEAST_SCAN } else { 1 };
        for small in 0..=smalls.min(ptx_spec::bv::mask(v.width)) {
            if current.unsigned() == small {
                break;
            }
            if let Some(m) = pins.try_pin(backend, ctx, vars, &whole(small), timeout)? {
                model = m;
                chosen = BitVec::new(v.width, small);
                break;
            }
        }
        if least && chosen.unsigned() > smalls {
            let mut value = chosen.unsigned();
            for i in (0..v.width).rev() {
                if value >> i & 1 == 0 {
                    continue;
                }
                // Can the bits from the top down to i read as `value`'s with bit i clear?
                let prefix = Pin { var: v.clone(), hi: v.width - 1, lo: i, value: (value >> i) & !1 };
                if let Some(m) = pins.try_pin(backend, ctx, vars, &prefix, timeout)? {
                    value = m.get(&v.name).map_or(prefix.value << i, |b| b.unsigned());
                    model = m;
                }
            }
            chosen = BitVec::new(v.width, value);
        }
        pins.keep(ctx, &whole(chosen.unsigned()));
        model.insert(v.name.clone(), chosen);
    }
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_spec::catalogue::Out;

    /// The least witness, input by input in operand order, whether the
    /// least first input lies among the small values pinned one by one or
    /// above them, where the bit-by-bit descent finds it: held against a
    /// search of every 8-bit pair.
    #[test]
    fn minimise_finds_the_least_witness_in_operand_order() {
        // The embedded solver keeps the goal and pins across checks; a
        // solver process gets every query whole (skipped, loudly, where z3
        // is not installed).
        least_witnesses(&Backend::Embedded);
        let z3 = Backend::from_name("z3").unwrap();
        match z3.check_available() {
            Ok(()) => least_witnesses(&z3),
            Err(e) => eprintln!("skipping minimise with a solver process: {e}"),
        }
    }

    fn least_witnesses(backend: &Backend) {
        let backend = backend.clone();
        let timeout = Duration::from_secs(30);
        let vars = [Var { name: "a".into(), width: 8 }, Var { name: "b".into(), width: 8 }];
        for floor in [0u8, 5, 40] {
            let mut ctx = backend.context(timeout).unwrap();
            let sym = Sym::new(&ctx);
            let (a, b) = (sym.var("a", 8), sym.var("b", 8));
            // a * b = 144 (mod 256) with a > floor.
            let product = sym.eq(sym.bvmul(a, b), sym.constant(8, 144));
            let goal = sym.and(product, sym.bvugt(a, sym.constant(8, floor.into())));
            let kept = backend.incremental(&ctx, &vars, &[goal], timeout).unwrap().is_some();
            assert_eq!(kept, backend == Backend::Embedded);
            let holds = |x: u8, y: u8| x.wrapping_mul(y) == 144 && x > floor;
            let least_a = (0..=255).find(|&x| (0..=255).any(|y| holds(x, y))).unwrap();
            let least_b = (0..=255).find(|&y| holds(least_a, y)).unwrap();
            // Start from the largest witness, so that every step has to move.
            let (ta, tb) = (0..=255u8)
                .rev()
                .flat_map(|x| (0..=255u8).rev().map(move |y| (x, y)))
                .find(|&(x, y)| holds(x, y))
                .unwrap();
            let start = HashMap::from([
                ("a".to_string(), BitVec::new(8, ta.into())),
                ("b".to_string(), BitVec::new(8, tb.into())),
            ]);
            let found = minimise(&backend, &mut ctx, &vars, goal, start, timeout, true).unwrap();
            assert_eq!((found["a"].unsigned(), found["b"].unsigned()), (least_a.into(), least_b.into()), "a > {floor}");
        }
    }

    /// A split comparison is equivalent only when every case is: a fault
    /// confined to one case is found there, with a confirmed input.
    #[test]
    fn a_split_comparison_finds_a_difference_in_one_case() {
        let v = Variant::from_mnemonic("not.b16").unwrap();
        let backend = Backend::Embedded;
        let timeout = Duration::from_secs(30);
        let mut ctx = backend.context(timeout).unwrap();
        let e = Encodings::build(&v, &ctx, |sym, ins| encode::encode(&v, sym, ins));
        let half = |op: &str| ctx.list(vec![ctx.atom(op), ctx.atom("a"), ctx.atom("#x8000")]);
        let cases = vec![("a < 0x8000".to_string(), half("bvult")), ("a >= 0x8000".to_string(), half("bvuge"))];
        // Wrong (0) for a >= 0x8000 only, where not(a) is 0 only at 0xffff.
        let faulty: SymOutputs = e
            .smt
            .iter()
            .map(|o| Out {
                value: SymBv { term: ctx.ite(cases[1].1, ctx.atom("#x0000"), o.value.term), width: o.value.width },
                defined: o.defined,
            })
            .collect();
        let same = Sides { smt: &e.smt, ..e.sides() };
        assert!(matches!(compare_cases(&backend, &mut ctx, &same, &cases, timeout).unwrap(), Comparison::Equivalent));
        let wrong = Sides { smt: &faulty, ..e.sides() };
        match compare_cases(&backend, &mut ctx, &wrong, &cases, timeout).unwrap() {
            Comparison::Differ(cex) => assert!(cex.inputs[0].1.unsigned() >= 0x8000, "{:?}", cex.inputs),
            _ => panic!("the fault in the second case is not found"),
        }
    }
}
