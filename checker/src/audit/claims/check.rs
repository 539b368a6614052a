//! `ptxcheck claims`: check every claim of the catalogue
//! (`crate::audit::claims`). Worked values run concretely; facts over all inputs
//! are proven with a solver, and any input the solver finds is confirmed by
//! running the program concretely before it is shown.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use crate::audit::claims::{Check, Claim, WarpSum};
use crate::ptx::expr::Condition;
use crate::ptx::program::{Program, Value};
use easy_smt::SExpr;
use ptx_smt::{Backend, SatResult, SolverError, Sym, SymBv, Var};
use ptx_spec::bv::{Algebra, BitVec, Concrete};

use crate::prove::minimise;

/// Concrete inputs and what the program left in the registers that matter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// Input registers (per lane for a warp program: `Rx.3`); a warp
    /// witness lists only its non-zero inputs.
    pub inputs: Vec<(String, BitVec)>,
    /// Registers the conditions read, after the run (`None`: undefined).
    pub observed: Vec<(String, Option<BitVec>)>,
    /// The conditions that fail on this input.
    pub failing: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimVerdict {
    /// The claim holds (for a `Fails` claim, the witness shows the failure).
    Holds(Option<Witness>),
    /// The claim is false: the witness shows it (none for a `Fails` claim
    /// whose identity turns out to hold everywhere).
    Refuted(Option<Witness>),
    NotCheckable(String),
    /// The solver gave no answer, or one that did not check out.
    Unknown(String),
}

impl ClaimVerdict {
    pub fn label(&self) -> &'static str {
        match self {
            ClaimVerdict::Holds(_) => "holds",
            ClaimVerdict::Refuted(_) => "refuted",
            ClaimVerdict::NotCheckable(_) => "not checkable",
            ClaimVerdict::Unknown(_) => "unknown",
        }
    }
    pub fn witness(&self) -> Option<&Witness> {
        match self {
            ClaimVerdict::Holds(w) | ClaimVerdict::Refuted(w) => w.as_ref(),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ClaimResult {
    pub claim: Claim,
    pub verdict: ClaimVerdict,
    /// How it was checked, in words.
    pub method: &'static str,
    pub time: Duration,
}

/// Check one claim.
pub fn check(claim: &Claim, backend: &Backend, timeout: Duration) -> ClaimResult {
    let start = Instant::now();
    let (method, verdict) = match &claim.check {
        Check::Values { program, inputs, expect } => ("concrete run", values(program, inputs, expect)),
        Check::Always { program, assume, holds } => {
            ("SMT proof over all inputs", universal(backend, timeout, program, assume, holds, false))
        }
        Check::Fails { program, assume, holds } => {
            ("SMT search for a failing input", universal(backend, timeout, program, assume, holds, true))
        }
        Check::Warp { program, register, sum } => {
            ("SMT proof over 32 lanes", warp(backend, timeout, program, register, *sum))
        }
        Check::Parses { text } => ("parse against the catalogue", Ok(parses(text))),
        Check::FitsSyntax { text } => ("match against the Syntax block", Ok(fits_syntax(&claim.section, text))),
        Check::Rejected { text } => {
            ("parse against the catalogue and the Syntax block", Ok(rejected(&claim.section, text)))
        }
        Check::NotCheckable { reason } => ("none", Ok(ClaimVerdict::NotCheckable(reason.clone()))),
    };
    let verdict = verdict.unwrap_or_else(ClaimVerdict::Unknown);
    ClaimResult { claim: claim.clone(), verdict, method, time: start.elapsed() }
}

/// An example instruction parses against the catalogue; if not, the
/// parser's message is the evidence.
fn parses(text: &str) -> ClaimVerdict {
    syntax_verdict(Program::parse(text).map(|_| ()).map_err(|e| e.message))
}

/// An instruction the text excludes is neither a variant of the catalogue
/// nor a form of its section's Syntax block; where it is one, which.
fn rejected(section: &str, text: &str) -> ClaimVerdict {
    let catalogue = Program::parse(text).is_ok().then(|| format!("`{text}` parses as a variant of the catalogue"));
    let syntax = crate::audit::syntax::check(section, text)
        .is_ok()
        .then(|| format!("`{text}` fits the Syntax block of {section}"));
    let failing: Vec<String> = catalogue.into_iter().chain(syntax).collect();
    if failing.is_empty() {
        ClaimVerdict::Holds(None)
    } else {
        ClaimVerdict::Refuted(Some(Witness { inputs: Vec::new(), observed: Vec::new(), failing }))
    }
}

/// An example instruction fits its section's Syntax block; if not, why.
fn fits_syntax(section: &str, text: &str) -> ClaimVerdict {
    syntax_verdict(crate::audit::syntax::check(section, text))
}

fn syntax_verdict(result: Result<(), String>) -> ClaimVerdict {
    match result {
        Ok(()) => ClaimVerdict::Holds(None),
        Err(why) => {
            ClaimVerdict::Refuted(Some(Witness { inputs: Vec::new(), observed: Vec::new(), failing: vec![why] }))
        }
    }
}

fn solver_error(e: SolverError) -> String {
    e.to_string()
}

/// Parse a claim's program and conditions; every register a condition
/// names must be one of the program's.
fn parse(program: &str, conditions: &[&[String]]) -> Result<(Program, Vec<Vec<Condition>>), String> {
    let p = Program::parse(program).map_err(|e| format!("malformed claim program: {e}"))?;
    let mut parsed = Vec::new();
    for list in conditions {
        let mut conds = Vec::new();
        for text in *list {
            let c = Condition::parse(text).map_err(|e| format!("malformed claim: {e}"))?;
            if let Some((r, _)) = c.registers().into_iter().find(|(r, _)| p.width(r).is_none()) {
                return Err(format!("malformed claim: condition `{text}` reads `{r}`, which the program does not use"));
            }
            conds.push(c);
        }
        parsed.push(conds);
    }
    Ok((p, parsed))
}

/// How conditions read registers: the final value of a register the
/// program writes, else (and for `@in`) the input.
pub(crate) fn reader<'a, A: Algebra>(
    alg: &'a A,
    program: &'a Program,
    inputs: &'a BTreeMap<String, Vec<A::Bv>>,
    regs: &'a BTreeMap<String, Vec<Value<A>>>,
    lane: usize,
) -> impl Fn(&str, bool) -> Value<A> + 'a {
    move |name: &str, at_start: bool| {
        if at_start || !program.outputs.iter().any(|o| o == name) {
            Value { bits: inputs[name][lane], defined: alg.bool_constant(true) }
        } else {
            regs[name][lane]
        }
    }
}

/// Run concretely; in lane `lane`, the conditions that fail, and the
/// registers they read that the program wrote.
fn run_concrete(
    program: &Program,
    conditions: &[Condition],
    inputs: &BTreeMap<String, Vec<BitVec>>,
    lane: usize,
) -> (Vec<String>, Vec<(String, Option<BitVec>)>) {
    let regs = program.execute(&Concrete, inputs, &vec![true; program.lanes]);
    let read = reader(&Concrete, program, inputs, &regs, lane);
    let failing = conditions.iter().filter(|c| !c.eval(&Concrete, &read)).map(Condition::parenthesised).collect();
    let mut observed = Vec::new();
    // Inputs are shown with the inputs; here only what the program wrote.
    for c in conditions {
        for (name, at_start) in c.registers() {
            let shown = if program.lanes == 1 { name.clone() } else { lane_var(&name, lane) };
            if !at_start && program.outputs.contains(&name) && !observed.iter().any(|(n, _)| *n == shown) {
                let v = read(&name, false);
                observed.push((shown, v.defined.then_some(v.bits)));
            }
        }
    }
    (failing, observed)
}

fn values(program: &str, inputs: &[(String, u128)], expect: &[String]) -> Result<ClaimVerdict, String> {
    let (p, conds) = parse(program, &[expect])?;
    let mut ins = BTreeMap::new();
    for name in &p.inputs {
        let v = inputs
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| format!("malformed claim: no value for input `{name}`"))?
            .1;
        ins.insert(name.clone(), vec![BitVec::new(p.width(name).expect("an input has a width"), v)]);
    }
    let (failing, observed) = run_concrete(&p, &conds[0], &ins, 0);
    let witness = Witness { inputs: flatten(&p, &ins), observed, failing: failing.clone() };
    Ok(if failing.is_empty() { ClaimVerdict::Holds(Some(witness)) } else { ClaimVerdict::Refuted(Some(witness)) })
}

/// The inputs as a witness shows them: per lane (`a.3`), and only the
/// non-zero ones, for a warp program.
fn flatten(p: &Program, ins: &BTreeMap<String, Vec<BitVec>>) -> Vec<(String, BitVec)> {
    if p.lanes == 1 {
        return ins.iter().map(|(n, v)| (n.clone(), v[0])).collect();
    }
    let mut out = Vec::new();
    for (n, values) in ins {
        for (lane, v) in values.iter().enumerate() {
            if v.unsigned() != 0 {
                out.push((lane_var(n, lane), *v));
            }
        }
    }
    out
}

/// The solver variables of a program's inputs: one per input, or one per
/// input and lane for a warp program.
fn input_vars(p: &Program) -> Vec<Var> {
    let name = |n: &str, lane: usize| if p.lanes == 1 { n.to_string() } else { lane_var(n, lane) };
    p.inputs
        .iter()
        .flat_map(|n| {
            (0..p.lanes).map(move |l| Var { name: name(n, l), width: p.width(n).expect("an input has a width") })
        })
        .collect()
}

/// An input satisfying `goal`, minimised; `None` if there is none.
fn search(
    backend: &Backend,
    ctx: &mut easy_smt::Context,
    vars: &[Var],
    goal: SExpr,
    timeout: Duration,
) -> Result<Option<HashMap<String, BitVec>>, String> {
    match backend.check(ctx, vars, &[goal], timeout).map_err(solver_error)? {
        SatResult::Unsat => Ok(None),
        SatResult::Unknown(reason) => Err(format!("the solver gave no answer: {reason}")),
        SatResult::Sat(model) => {
            minimise(backend, ctx, vars, goal, model, timeout, true).map(Some).map_err(solver_error)
        }
    }
}

/// Ask the solver for an input that satisfies `assume` and breaks `holds`.
/// For an `Always` claim such an input refutes it; for a `Fails` claim it
/// is the evidence that it holds.
fn universal(
    backend: &Backend,
    timeout: Duration,
    program: &str,
    assume: &[String],
    holds: &[String],
    expect_failure: bool,
) -> Result<ClaimVerdict, String> {
    let (p, conds) = parse(program, &[assume, holds])?;
    let (assumed, held) = (&conds[0], &conds[1]);
    let mut ctx = backend.context(timeout).map_err(solver_error)?;
    let vars = input_vars(&p);
    let goal = {
        let sym = Sym::new(&ctx);
        let columns = vars.chunks(p.lanes).map(|lanes| lanes.iter().map(|v| sym.var(&v.name, v.width)).collect());
        let inputs: BTreeMap<String, Vec<SymBv>> = p.inputs.iter().cloned().zip(columns).collect();
        let regs = p.execute(&sym, &inputs, &vec![ctx.true_(); p.lanes]);
        // Some lane satisfies the assumptions and breaks a condition.
        let broken = (0..p.lanes).map(|lane| {
            let read = reader(&sym, &p, &inputs, &regs, lane);
            let all =
                |cs: &[Condition]| -> SExpr { cs.iter().fold(ctx.true_(), |acc, c| ctx.and(acc, c.eval(&sym, &read))) };
            ctx.and(all(assumed), ctx.not(all(held)))
        });
        ctx.or_many(broken)
    };
    let Some(model) = search(backend, &mut ctx, &vars, goal, timeout)? else {
        return Ok(if expect_failure { ClaimVerdict::Refuted(None) } else { ClaimVerdict::Holds(None) });
    };
    let witness = confirm(&p, &vars, &model, assumed, held)?;
    Ok(if expect_failure { ClaimVerdict::Holds(Some(witness)) } else { ClaimVerdict::Refuted(Some(witness)) })
}

/// The least value of a `width`-bit operand `name` that satisfies every
/// condition of `a` and breaks one of `b` (conditions on that operand
/// alone, in the claims' language); `None` where there is none. The
/// solver's answer is evaluated concretely before it is returned.
pub fn separate(
    backend: &Backend,
    timeout: Duration,
    name: &str,
    width: u32,
    a: &[String],
    b: &[String],
) -> Result<Option<BitVec>, String> {
    let parse_all = |list: &[String]| -> Result<Vec<Condition>, String> {
        list.iter()
            .map(|text| {
                let c = Condition::parse(text).map_err(|e| format!("malformed condition: {e}"))?;
                match c.registers().into_iter().find(|(r, _)| r != name) {
                    Some((r, _)) => Err(format!("condition `{text}` reads `{r}`, not `{name}`")),
                    None => Ok(c),
                }
            })
            .collect()
    };
    let (a, b) = (parse_all(a)?, parse_all(b)?);
    let mut ctx = backend.context(timeout).map_err(solver_error)?;
    let vars = [Var { name: name.to_string(), width }];
    let goal = {
        let sym = Sym::new(&ctx);
        let x = sym.var(name, width);
        let read = |_: &str, _: bool| Value { bits: x, defined: ctx.true_() };
        let all = |cs: &[Condition]| cs.iter().fold(ctx.true_(), |acc, c| ctx.and(acc, c.eval(&sym, &read)));
        ctx.and(all(&a), ctx.not(all(&b)))
    };
    let Some(model) = search(backend, &mut ctx, &vars, goal, timeout)? else { return Ok(None) };
    let x = model.get(name).copied().unwrap_or(BitVec::new(width, 0));
    let read = |_: &str, _: bool| Value { bits: x, defined: true };
    let holds = |cs: &[Condition]| cs.iter().all(|c| c.eval(&Concrete, &read));
    if holds(&a) && !holds(&b) {
        Ok(Some(x))
    } else {
        Err(format!("the solver's {name} = {x} does not separate the conditions when evaluated"))
    }
}

/// Run the program concretely on the solver's input: the assumptions must
/// hold and some condition of `held` fail, or the answer is not trusted.
fn confirm(
    p: &Program,
    vars: &[Var],
    model: &HashMap<String, BitVec>,
    assumed: &[Condition],
    held: &[Condition],
) -> Result<Witness, String> {
    let columns = vars
        .chunks(p.lanes)
        .map(|lanes| lanes.iter().map(|v| model.get(&v.name).copied().unwrap_or(BitVec::new(v.width, 0))).collect());
    let ins: BTreeMap<String, Vec<BitVec>> = p.inputs.iter().cloned().zip(columns).collect();
    for lane in 0..p.lanes {
        let (assume_failing, _) = run_concrete(p, assumed, &ins, lane);
        let (failing, observed) = run_concrete(p, held, &ins, lane);
        if assume_failing.is_empty() && !failing.is_empty() {
            let failing =
                if p.lanes == 1 { failing } else { failing.iter().map(|f| format!("lane {lane}: {f}")).collect() };
            return Ok(Witness { inputs: flatten(p, &ins), observed, failing });
        }
    }
    Err("the solver's input does not break the claim when run concretely".into())
}

/// The register's name for lane `lane` as a solver variable.
fn lane_var(register: &str, lane: usize) -> String {
    format!("{register}.{lane}")
}

/// A warp program: prove that `register` ends holding `sum` in every lane.
fn warp(
    backend: &Backend,
    timeout: Duration,
    program: &str,
    register: &str,
    sum: WarpSum,
) -> Result<ClaimVerdict, String> {
    let (p, _) = parse(program, &[])?;
    if p.lanes != 32 || p.inputs != [register.to_string()] {
        return Err(format!("malformed claim: expected a warp program whose one input is {register}"));
    }
    let width = p.width(register).expect("width");
    let vars: Vec<Var> = (0..32).map(|l| Var { name: lane_var(register, l), width }).collect();
    let mut ctx = backend.context(timeout).map_err(solver_error)?;
    let goal = {
        let sym = Sym::new(&ctx);
        let xs: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
        let inputs = BTreeMap::from([(register.to_string(), xs.clone())]);
        let regs = p.execute(&sym, &inputs, &[ctx.true_(); 32]);
        let wrong: Vec<SExpr> = (0..32)
            .map(|l| {
                let expected = expected_sum(&sym, &xs, l, sum);
                let got = regs[register][l];
                ctx.or(ctx.not(got.defined), ctx.not(sym.eq(got.bits, expected)))
            })
            .collect();
        ctx.or_many(wrong)
    };
    let Some(model) = search(backend, &mut ctx, &vars, goal, timeout)? else {
        return Ok(ClaimVerdict::Holds(None));
    };
    // Confirm concretely.
    let xs: Vec<BitVec> = vars.iter().map(|v| model.get(&v.name).copied().unwrap_or(BitVec::new(width, 0))).collect();
    let regs = p.execute(&Concrete, &BTreeMap::from([(register.to_string(), xs.clone())]), &[true; 32]);
    let observed: Vec<(String, Option<BitVec>)> = (0..32)
        .map(|l| {
            let v = regs[register][l];
            (lane_var(register, l), v.defined.then_some(v.bits))
        })
        .collect();
    let failing: Vec<String> = (0..32)
        .filter(|&l| observed[l].1 != Some(expected_sum(&Concrete, &xs, l, sum)))
        .map(|l| format!("lane {l}"))
        .collect();
    if failing.is_empty() {
        return Err("the solver's input does not break the claim when run concretely".into());
    }
    let inputs = vars.iter().zip(&xs).filter(|(_, v)| v.unsigned() != 0).map(|(v, x)| (v.name.clone(), *x)).collect();
    Ok(ClaimVerdict::Refuted(Some(Witness { inputs, observed, failing })))
}

/// What lane `lane` should hold: the sum over the lanes `sum` names.
fn expected_sum<A: Algebra>(alg: &A, xs: &[A::Bv], lane: usize, sum: WarpSum) -> A::Bv {
    let range = match sum {
        WarpSum::Prefix => 0..lane + 1,
        WarpSum::Suffix => lane..xs.len(),
        WarpSum::Total => 0..xs.len(),
    };
    xs[range].iter().copied().reduce(|a, b| alg.bvadd(a, b)).expect("a non-empty range")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_claim_parses() {
        for c in crate::audit::claims::all() {
            let lists: Vec<&[String]> = match &c.check {
                Check::Values { expect, .. } => vec![expect],
                Check::Always { assume, holds, .. } | Check::Fails { assume, holds, .. } => vec![assume, holds],
                Check::Warp { .. }
                | Check::Parses { .. }
                | Check::FitsSyntax { .. }
                | Check::Rejected { .. }
                | Check::NotCheckable { .. } => vec![],
            };
            if let Check::Values { program, .. }
            | Check::Always { program, .. }
            | Check::Fails { program, .. }
            | Check::Warp { program, .. } = &c.check
            {
                parse(program, &lists).unwrap_or_else(|e| panic!("{}: {e}", c.id));
            }
        }
    }

    fn claim_with(check: Check) -> Claim {
        Claim {
            id: "test/claim".into(),
            section: "0".into(),
            kind: crate::audit::claims::Kind::Derived,
            statement: "a test claim".into(),
            fragment: None,
            rests_on: Vec::new(),
            refuted: None,
            check,
        }
    }

    fn verdict(check: Check) -> ClaimVerdict {
        super::check(&claim_with(check), &Backend::Embedded, Duration::from_secs(60)).verdict
    }

    #[test]
    fn a_false_identity_is_refuted_with_a_confirmed_witness() {
        // shf.l.wrap is not a rotate when a and b differ.
        let v = verdict(Check::Always {
            program: "shf.l.wrap.b32 r, a, b, n;".into(),
            assume: vec![],
            holds: vec!["r == (a << (n & 31)) | (a >> (32 - (n & 31)))".into()],
        });
        let ClaimVerdict::Refuted(Some(w)) = v else { panic!("{v:?}") };
        // Minimised: n = 0 makes r = b, so a = 0, b = 1.
        let inputs: Vec<(String, u128)> = w.inputs.iter().map(|(n, v)| (n.clone(), v.unsigned())).collect();
        assert_eq!(inputs, [("a".to_string(), 0), ("b".to_string(), 1), ("n".to_string(), 0)]);
        assert_eq!(w.observed, [("r".to_string(), Some(BitVec::new(32, 1)))]);
    }

    #[test]
    fn a_failure_claim_on_a_true_identity_is_refuted() {
        let v = verdict(Check::Fails {
            program: "shf.l.wrap.b32 r, a, a, n;".into(),
            assume: vec![],
            holds: vec!["r == (a << (n & 31)) | (a >> (32 - (n & 31)))".into()],
        });
        assert_eq!(v, ClaimVerdict::Refuted(None));
    }

    #[test]
    fn a_wrong_warp_sum_is_refuted_at_some_lane() {
        // The butterfly leaves the total, not the prefix sum.
        let v = verdict(Check::Warp {
            program: crate::audit::claims::shfl_butterfly(),
            register: "Rx".into(),
            sum: WarpSum::Prefix,
        });
        let ClaimVerdict::Refuted(Some(w)) = v else { panic!("{v:?}") };
        assert!(!w.failing.is_empty() && !w.inputs.is_empty());
    }

    #[test]
    fn a_wrong_worked_value_is_refuted() {
        let v = verdict(Check::Values {
            program: "fns.b32 d, 0xaaaaaaaa, 2, -1;".into(),
            inputs: vec![],
            expect: vec!["d == 3".into()],
        });
        let ClaimVerdict::Refuted(Some(w)) = v else { panic!("{v:?}") };
        assert_eq!(w.observed, [("d".to_string(), Some(BitVec::new(32, 1)))]);
    }

    #[test]
    fn a_malformed_claim_is_unknown_never_holds() {
        let v =
            verdict(Check::Always { program: "add.u32 d, a, 1;".into(), assume: vec![], holds: vec!["z == 1".into()] });
        assert!(matches!(v, ClaimVerdict::Unknown(ref why) if why.contains("reads `z`")), "{v:?}");
    }

    #[test]
    fn claim_ids_are_unique() {
        let mut ids: Vec<String> = crate::audit::claims::all().into_iter().map(|c| c.id).collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n);
    }
}
