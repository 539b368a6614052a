//! The commands of the command line, one module each: its arguments (a
//! `clap::Args`), its `run` into a `Write`, and the rendering of its
//! results as a table or as JSON. Here what several share: the output
//! format, the solver arguments, the thread pool and the progress bar.

pub mod audit;
pub mod claims;
pub mod conform;
pub mod eval;
pub mod exhaustive;
pub mod hw;
pub mod list;
pub mod mutants;
pub mod prove;
pub mod prove_text;
pub mod pseudocode;
pub mod render;
pub mod report;
pub mod run;
pub mod smtlib;
pub mod text;
pub mod vectors;
pub mod vendor;

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ptx_smt::Backend;
use ptx_spec::Variant;
use rayon::prelude::*;

use crate::error::{Error, Result};

#[derive(Subcommand)]
pub enum Command {
    /// Prove that each variant's SMT encoding and concrete semantics agree
    /// for all inputs.
    Prove(prove::Args),
    /// Evaluate one instruction with immediate operands, e.g.
    /// 'shf.l.wrap.b32 d, 0x80000001, 0x80000001, 1'; or on the 32 lanes of
    /// a warp, e.g. 'shfl.up.b32 d|p, a, 1, 0' --lanes a=0..31.
    Eval(eval::Args),
    /// Check the spec's claims: worked examples, identities, prose and notes,
    /// and derived claims. Exit 1 when a claim is refuted (a finding about
    /// the spec) or unsettled.
    Claims(claims::Args),
    /// Run a straight-line PTX program (instructions of the catalogue,
    /// guards, `.reg` declarations) on concrete values and print the
    /// registers it writes.
    Run(run::Args),
    /// Fault each encoding in turn and check that `prove` catches every
    /// fault that changes the function.
    Mutants(mutants::Args),
    /// Compare the concrete semantics and the SMT encoding, evaluated
    /// concretely, on every input of each variant whose inputs have at most
    /// --max-bits bits together (32 at most).
    Exhaustive(exhaustive::Args),
    /// Audit the spec text: every ambiguous passage with its readings
    /// compared, every refuted claim, example and prose statement, each
    /// with a confirmed witness. Exit 1 when some comparison is unsettled.
    Audit(audit::Args),
    /// Regenerate the reports (`reports/`): every variant proven by each
    /// solver, the claims, and the audit's findings. With --check, write
    /// nothing and exit 1 if the committed reports are not current.
    Report(report::Args),
    /// Print the SMT encodings as SMT-LIB2: one define-fun per output of
    /// each variant, over its inputs, with the assumptions as comments.
    Smtlib(smtlib::Args),
    /// Read the user's copy of the PTX ISA sections: wording, structure
    /// and code as findings, and every block the project transcribed that
    /// the text no longer matches. Exit 1 when a transcription is stale.
    Text(text::Args),
    /// Read the Semantics blocks of any section of the PTX ISA as code: each
    /// block as parsed, the notations it uses that C does not have, and every
    /// place that does not parse, at its line and column.
    Pseudocode(pseudocode::Args),
    /// Ground truth from NVIDIA's assembler: syntax, and folded values.
    Vendor(vendor::Args),
    /// The hardware check: emit a GPU program, compare its results.
    Hw(hw::Args),
    /// List the catalogue: every legal variant with its operands,
    /// requirements and assumptions.
    List(list::Args),
    /// Write the conformance suite: test vectors with the spec's and sm_90's
    /// expected values (JSON Lines, CSV, self-checking PTX).
    Vectors(vectors::Args),
    /// Check an implementation's results on the conformance suite against
    /// the spec and sm_90 models; exit 1 when one fails.
    Conform(conform::Args),
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
}

#[derive(clap::Args)]
pub struct SolverArgs {
    /// Solver back end: `embedded` (Z3 linked in-process), or a solver
    /// process: `z3`, `cvc5`, `yices`, `bitwuzla`.
    #[arg(long, default_value = "embedded")]
    pub solver: String,
    /// Time limit for each solver query, in seconds (more than 0, at most
    /// 86400: one day).
    #[arg(long, default_value_t = 60.0, allow_negative_numbers = true, value_name = "SECONDS")]
    pub timeout: f64,
    /// Queries run in parallel (default: one per CPU; at most 1024, a fixed
    /// bound beyond any machine's CPUs, so that a command line runs the same
    /// everywhere).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Exit status 0 when everything asked for holds, else 1.
pub fn status(holds: bool) -> ExitCode {
    if holds {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The most --timeout may ask for, in seconds: one day. Beyond, a query is
/// not worth waiting for, and limits stay within what every solver's option
/// takes (Z3's is a 32-bit count of milliseconds).
pub const MAX_TIMEOUT: f64 = 86_400.0;

/// The most --jobs may ask for. The queries are CPU-bound, so threads beyond
/// the CPUs only cost memory (an embedded Z3 context each); the bound is a
/// number rather than a multiple of the CPUs so that a command line valid
/// on one machine is valid on all.
pub const MAX_JOBS: usize = 1024;

/// The time limit --timeout gives, checked: a positive number of seconds,
/// at most [`MAX_TIMEOUT`].
pub fn timeout(seconds: f64) -> Result<Duration> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIMEOUT {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        // 1e300 in full would be a line of 300 digits.
        let given = if seconds.abs() >= 1e6 { format!("{seconds:e}") } else { seconds.to_string() };
        Err(Error::usage(format!("--timeout must be a positive number of seconds, at most {MAX_TIMEOUT}, got {given}")))
    }
}

/// A pool of `jobs` threads (default: one per CPU), as --jobs gives it:
/// from 1 to [`MAX_JOBS`].
pub fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool> {
    let jobs = match jobs {
        Some(n) if (1..=MAX_JOBS).contains(&n) => n,
        Some(n) => return Err(Error::usage(format!("--jobs must be at least 1 and at most {MAX_JOBS}, got {n}"))),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::Io { what: "starting worker threads".into(), source: io::Error::other(e) })
}

/// The solver, limits and thread pool shared by the solver commands.
pub struct Setup {
    pub backend: Backend,
    pub timeout: Duration,
    pub pool: rayon::ThreadPool,
}

impl Setup {
    pub fn new(args: &SolverArgs) -> Result<Setup> {
        Setup::with(&args.solver, args.timeout, args.jobs)
    }

    /// The solver named `solver` (checked to be installed), `timeout`
    /// seconds for each query, `jobs` threads.
    pub fn with(solver: &str, timeout: f64, jobs: Option<usize>) -> Result<Setup> {
        let backend = Backend::from_name(solver)?;
        backend.check_available()?;
        let timeout = self::timeout(timeout)?;
        let pool = thread_pool(jobs)?;
        Ok(Setup { backend, timeout, pool })
    }

    /// Run `work` on the thread pool. Its result is dropped for
    /// [`Error::Interrupted`] if the run was interrupted meanwhile: the
    /// interrupted queries' errors are in it, as verdicts or not.
    pub fn install<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T> {
        let result = self.pool.install(work);
        crate::interrupt::check()?;
        Ok(result)
    }

    /// Run `job` on every variant in parallel, with a progress bar on a
    /// terminal; results in catalogue order. Once the run is interrupted no
    /// further job starts, and the results, which may hold the interrupted
    /// queries' errors, are dropped for [`Error::Interrupted`].
    pub fn run_all<T: Send>(&self, variants: &[Variant], job: impl Fn(&Variant) -> T + Sync) -> Result<Vec<T>> {
        self.run_each(variants, Variant::to_string, job)
    }

    /// [`Setup::run_all`] over any items, each named on the progress bar by
    /// `label`.
    pub fn run_each<I: Sync, T: Send>(
        &self,
        items: &[I],
        label: impl Fn(&I) -> String + Sync,
        job: impl Fn(&I) -> T + Sync,
    ) -> Result<Vec<T>> {
        let bar = progress_bar(items.len() as u64);
        let results: Option<Vec<T>> = self.pool.install(|| {
            items
                .par_iter()
                .map(|item| {
                    if crate::interrupt::requested() {
                        return None;
                    }
                    let r = job(item);
                    bar.set_message(label(item));
                    bar.inc(1);
                    Some(r)
                })
                .collect()
        });
        bar.finish_and_clear();
        crate::interrupt::check()?;
        Ok(results.expect("every job ran, as no interrupt came"))
    }
}

/// A progress bar of `len` steps, drawn on standard error when both it and
/// standard output are a terminal, and hidden otherwise.
pub fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(len),
        if io::stderr().is_terminal() && io::stdout().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("a valid template"));
    bar
}

/// The variants `targets` names (see [`crate::select`]).
pub fn select(targets: &[String]) -> Result<Vec<Variant>> {
    crate::select::select(targets).map_err(Error::usage)
}

/// [`crate::select::select_sampled`] for a command line, saying on
/// standard error where the sample stands for the rest.
pub fn select_sampled(targets: &[String]) -> Result<Vec<Variant>> {
    let chosen = crate::select::select_sampled(targets).map_err(Error::usage)?;
    let sets = |vs: &[Variant]| vs.iter().filter(|v| matches!(v, Variant::Compare(_))).count();
    let (run, of) = (sets(&chosen), sets(&select(targets)?));
    if run < of {
        eprintln!(
            "note: set and setp: {run} of their {of} forms, a covering sample (every operator at every type, every \
             Boolean form at every destination); name them (`setp`) to run every form"
        );
    }
    let syncs = |vs: &[Variant]| vs.iter().filter(|v| v.opcode() == "shfl.sync").count();
    let (run, of) = (syncs(&chosen), syncs(&select(targets)?));
    if run < of {
        eprintln!(
            "note: shfl.sync: {run} of its {of} forms (`shfl.sync.up.b32 d|p`): the member mask's terms are the same \
             in every form, the rest are shfl's; name it (`shfl.sync`) to run every form"
        );
    }
    Ok(chosen)
}

/// The model `--model` names: `spec` (the default) or `sm_90`.
pub fn model(name: &str) -> std::result::Result<ptx_spec::hardware::Model, String> {
    ptx_spec::hardware::Model::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = ptx_spec::hardware::Model::ALL.iter().map(|m| m.name()).collect();
        format!("unknown model; the models are {}", names.join(", "))
    })
}

/// `--model`: which model of the instructions a command uses.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct ModelArgs {
    /// The model: `spec` (the spec text, with the model's assumptions where
    /// it is open) or `sm_90` (what an H100 computes: the spec model changed
    /// by the rules `list --model sm_90` shows).
    #[arg(long, default_value = "spec", value_parser = model, value_name = "MODEL")]
    pub model: ptx_spec::hardware::Model,
}
