//! The ptxcheck command line.
//!
//! Exit status: 0 when everything asked for holds (every variant proven,
//! every non-equivalent mutant killed); 1 when some verdict is not that
//! (a counterexample, unknown, timeout, a surviving mutant); 2 for bad usage
//! or bad input (unknown names, a malformed instruction, a missing solver).

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context as _, Result};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ptx_smt::Backend;
use ptxcheck::render::{self, MutantSummary, ProveSummary};
use ptxcheck::{eval, exhaustive, mutants, prove, run, select, smtlib};
use rayon::prelude::*;

#[derive(Parser)]
#[command(
    name = "ptxcheck",
    version,
    about = "Formal specification and SMT model checker for PTX integer, logic and shift instructions"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Table,
    Json,
}

#[derive(clap::Args)]
struct SolverArgs {
    /// Solver back end: `embedded` (Z3 linked in-process), or a solver
    /// process: `z3`, `cvc5`, `yices`, `bitwuzla`.
    #[arg(long, default_value = "embedded")]
    solver: String,
    /// Time limit for each solver query, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Queries run in parallel (default: one per CPU).
    #[arg(long)]
    jobs: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Subcommand)]
enum Command {
    /// Prove that each variant's SMT encoding and concrete semantics agree
    /// for all inputs.
    Prove {
        /// `all`, an instruction (`shf`) or a variant (`shf.l.wrap.b32`).
        #[arg(required = true)]
        targets: Vec<String>,
        #[command(flatten)]
        solver: SolverArgs,
    },
    /// Evaluate one instruction with immediate operands, e.g.
    /// 'shf.l.wrap.b32 d, 0x80000001, 0x80000001, 1'; or on the 32 lanes of
    /// a warp, e.g. 'shfl.up.b32 d|p, a, 1, 0' --lanes a=0..31.
    Eval {
        instruction: String,
        /// A register's value in each lane: NAME=V (every lane), NAME=A..B
        /// (32 consecutive values) or NAME=V0,V1,...,V31. Repeatable. Runs
        /// the instruction on all 32 lanes (shfl always does).
        #[arg(long = "lanes", value_name = "NAME=VALUES")]
        lanes: Vec<String>,
        /// Lanes that are active with their guard predicate true, as a mask.
        #[arg(long, value_name = "MASK")]
        active: Option<String>,
        /// Output format: `table` prints `d = 0x...`, `json` an object.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Check the spec's claims: worked examples, identities, prose and notes,
    /// and derived claims. Exit 1 when a claim is refuted (a finding about
    /// the spec) or unsettled.
    Claims {
        /// Show one claim in full.
        #[arg(long)]
        id: Option<String>,
        #[command(flatten)]
        solver: SolverArgs,
    },
    /// Run a straight-line PTX program (instructions of the catalogue,
    /// guards, `.reg` declarations) on concrete values and print the
    /// registers it writes.
    Run {
        /// The program's file.
        file: std::path::PathBuf,
        /// An input register's value: NAME=V, or per lane for a program with
        /// shfl (NAME=A..B, NAME=V0,...,V31). Repeatable.
        #[arg(long = "set", value_name = "NAME=VALUES")]
        set: Vec<String>,
        /// Lanes that execute, as a mask (programs with shfl run on 32 lanes).
        #[arg(long, value_name = "MASK")]
        active: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Fault each encoding in turn and check that `prove` catches every
    /// fault that changes the function.
    Mutants {
        /// `all`, an instruction or a variant.
        #[arg(default_values_t = vec!["all".to_string()])]
        targets: Vec<String>,
        #[command(flatten)]
        solver: SolverArgs,
    },
    /// Compare the concrete semantics and the SMT encoding, evaluated
    /// concretely, on every input of each variant whose inputs have at most
    /// --max-bits bits together (32 at most).
    Exhaustive {
        #[arg(default_values_t = vec!["all".to_string()])]
        targets: Vec<String>,
        /// Check only variants with at most this many input bits.
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=32))]
        max_bits: u32,
        /// Threads (default: one per CPU).
        #[arg(long)]
        jobs: Option<usize>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Audit the spec text: every ambiguous passage with its readings
    /// compared, every refuted claim, example and prose statement, each
    /// with a confirmed witness. Exit 1 when some comparison is unsettled.
    Audit {
        /// Show one finding in full, with its witness table.
        #[arg(long)]
        id: Option<String>,
        #[command(flatten)]
        solver: SolverArgs,
    },
    /// Regenerate the reports (`reports/`): every variant proven by each
    /// solver, the claims, and the audit's findings. With --check, write
    /// nothing and exit 1 if the committed reports are not current.
    Report {
        /// The reports' folder.
        #[arg(long, default_value = "reports")]
        dir: std::path::PathBuf,
        /// Compare with the files in --dir instead of writing them.
        #[arg(long)]
        check: bool,
        /// The solvers whose `prove all` the report records, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "embedded,z3,cvc5")]
        solvers: Vec<String>,
        /// Time limit for each solver query, in seconds.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Queries run in parallel (default: one per CPU).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Print the SMT encodings as SMT-LIB2: one define-fun per output of
    /// each variant, over its inputs, with the assumptions as comments.
    Smtlib {
        /// `all`, an instruction (`bfe`) or a variant (`bfe.s32`).
        #[arg(required = true)]
        targets: Vec<String>,
        /// Write to this file (replaced whole, never left half-written)
        /// instead of standard output.
        #[arg(long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
    },
    /// Ground truth from NVIDIA's assembler: syntax, and folded values.
    Vendor {
        #[command(subcommand)]
        command: ptxcheck::oracle::cli::VendorCommand,
    },
    /// The hardware check: emit a GPU program, compare its results.
    Hw {
        #[command(subcommand)]
        command: ptxcheck::oracle::cli::HwCommand,
    },
    /// List the catalogue: every legal variant with its operands,
    /// requirements and assumptions.
    List {
        #[arg(default_values_t = vec!["all".to_string()])]
        targets: Vec<String>,
    },
}

/// An error of usage or input: exit status 2.
struct Usage(anyhow::Error);

fn usage(e: impl Into<anyhow::Error>) -> Usage {
    Usage(e.into())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = io::stdout().lock();
    match run(cli, &mut stdout) {
        Ok(code) => code,
        // The reader went away (`ptxcheck claims | head`): nothing to report.
        Err(Usage(e)) if e.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(Usage(e)) => {
            let _ = stdout.flush();
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli, out: &mut dyn Write) -> Result<ExitCode, Usage> {
    match cli.command {
        Command::Prove { targets, solver } => {
            let variants = select::select(&targets).map_err(|e| usage(anyhow!(e)))?;
            let setup = Setup::new(&solver)?;
            let start = Instant::now();
            let results = setup.run_all(&variants, |v| prove::prove(v, &setup.backend, setup.timeout));
            let summary = ProveSummary { results: &results, solver: setup.backend.to_string(), wall: start.elapsed() };
            match solver.format {
                Format::Table => summary.text(out).map_err(usage)?,
                Format::Json => writeln!(out, "{:#}", summary.json()).map_err(usage)?,
            }
            Ok(if summary.all_proven() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Eval { instruction, lanes, active, format } => {
            let warp_wide =
                ptxcheck::ptx::parse::parse_instruction(&instruction).is_ok_and(|i| i.variant.is_warp_wide());
            if warp_wide || !lanes.is_empty() || active.is_some() {
                let lanes: Vec<_> =
                    lanes.iter().map(|l| eval::LaneValues::parse(l)).collect::<Result<_, _>>().map_err(usage)?;
                let active = active.as_deref().map(eval::parse_active).transpose().map_err(usage)?.unwrap_or(u32::MAX);
                let e = eval::evaluate_warp(&instruction, &lanes, active).map_err(usage)?;
                match format {
                    Format::Table => render::warp_text(out, &e).map_err(usage)?,
                    Format::Json => writeln!(out, "{:#}", render::warp_json(&e)).map_err(usage)?,
                }
                return Ok(ExitCode::SUCCESS);
            }
            let e = eval::evaluate(&instruction).map_err(usage)?;
            match format {
                Format::Table => render::evaluation_text(out, &e).map_err(usage)?,
                Format::Json => writeln!(out, "{}", render::evaluation_json(&e)).map_err(usage)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Claims { id, solver } => {
            let mut claims = ptxcheck::audit::claims::all();
            if let Some(id) = &id {
                claims.retain(|c| &c.id == id);
                if claims.is_empty() {
                    return Err(usage(anyhow!("unknown claim `{id}` (`ptxcheck claims` lists them)")));
                }
            }
            let setup = Setup::new(&solver)?;
            let results: Vec<_> = setup.pool.install(|| {
                claims
                    .par_iter()
                    .map(|c| ptxcheck::audit::claims::check::check(c, &setup.backend, setup.timeout))
                    .collect()
            });
            let summary = render::ClaimSummary { results: &results };
            match (solver.format, id) {
                (Format::Json, _) => writeln!(out, "{:#}", summary.json()).map_err(usage)?,
                (Format::Table, Some(_)) => render::claim_text(out, &results[0]).map_err(usage)?,
                (Format::Table, None) => summary.text(out).map_err(usage)?,
            }
            let settled = summary.count("refuted") == 0 && summary.count("unknown") == 0;
            Ok(if settled { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Run { file, set, active, format } => {
            let source = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))
                .map_err(usage)?;
            let active = active.as_deref().map(eval::parse_active).transpose().map_err(usage)?.unwrap_or(u32::MAX);
            let r = run::run(&file.display().to_string(), &source, &set, active).map_err(usage)?;
            match format {
                Format::Table => render::run_text(out, &r).map_err(usage)?,
                Format::Json => writeln!(out, "{:#}", render::run_json(&r)).map_err(usage)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Mutants { targets, solver } => {
            let selected = select::select(&targets).map_err(|e| usage(anyhow!(e)))?;
            let setup = Setup::new(&solver)?;
            let mut variants = Vec::new();
            for v in selected {
                match mutants::skipped(&v) {
                    Some(why) => eprintln!("note: {v}: mutants not run: {why}"),
                    None => variants.push(v),
                }
            }
            let per_variant = setup.run_all(&variants, |v| mutants::run(v, &setup.backend, setup.timeout));
            let mut all = Vec::new();
            for r in per_variant {
                all.extend(r.map_err(usage)?);
            }
            let summary = MutantSummary { mutants: &all };
            match solver.format {
                Format::Table => summary.text(out).map_err(usage)?,
                Format::Json => writeln!(out, "{:#}", summary.json()).map_err(usage)?,
            }
            Ok(if summary.survived() == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Exhaustive { targets, max_bits, jobs, format } => {
            let variants: Vec<_> = select::select(&targets)
                .map_err(|e| usage(anyhow!(e)))?
                .into_iter()
                .filter(|v| exhaustive::input_bits(v) <= max_bits)
                .collect();
            if variants.is_empty() {
                return Err(usage(anyhow!("no selected variant has at most {max_bits} input bits")));
            }
            let pool = thread_pool(jobs)?;
            let start = Instant::now();
            let reports: Vec<_> = variants.iter().map(|v| pool.install(|| exhaustive::check(v))).collect();
            let summary = render::ExhaustiveSummary { reports: &reports, wall: start.elapsed() };
            match format {
                Format::Table => summary.text(out).map_err(usage)?,
                Format::Json => writeln!(out, "{:#}", summary.json()).map_err(usage)?,
            }
            Ok(if reports.iter().all(|r| r.mismatch.is_none()) { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Audit { id, solver } => {
            let setup = Setup::new(&solver)?;
            let (timeout, literal) = (setup.timeout, literal_timeout(setup.timeout));
            if let Some(id) = &id {
                // Only the check that can produce this finding runs.
                let found = setup.pool.install(|| ptxcheck::audit::run_one(id, &setup.backend, timeout, literal));
                let unknown = || usage(anyhow!("unknown finding `{id}` (`ptxcheck audit` lists them)"));
                let f = found.map_err(usage)?.flatten().ok_or_else(unknown)?;
                match solver.format {
                    Format::Table => render::finding_text(out, &f).map_err(usage)?,
                    Format::Json => writeln!(out, "{:#}", serde_json::json!(f)).map_err(usage)?,
                }
                return Ok(ExitCode::SUCCESS);
            }
            let audit = setup.pool.install(|| ptxcheck::audit::run(&setup.backend, timeout, literal)).map_err(usage)?;
            match solver.format {
                Format::Table => render::audit_text(out, &audit).map_err(usage)?,
                Format::Json => writeln!(out, "{:#}", render::audit_json(&audit)).map_err(usage)?,
            }
            Ok(if audit.settled() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Report { dir, check, solvers, timeout, jobs } => {
            let args = |solver: &str| SolverArgs { solver: solver.to_string(), timeout, jobs, format: Format::Table };
            let variants = ptx_spec::Variant::all();
            let mut runs = Vec::new();
            for name in &solvers {
                let setup = Setup::new(&args(name))?;
                let results = setup.run_all(&variants, |v| prove::prove(v, &setup.backend, setup.timeout));
                runs.push(ptxcheck::report::SolverRun { solver: setup.backend.to_string(), results });
            }
            let setup = Setup::new(&args("embedded"))?;
            let audit = setup
                .pool
                .install(|| ptxcheck::audit::run(&setup.backend, setup.timeout, literal_timeout(setup.timeout)))
                .map_err(usage)?;
            let vendor = ptxcheck::report::Vendor::load(&dir);
            let report = ptxcheck::report::build(&runs, &audit, vendor.as_ref());
            if check {
                let stale = report.stale(&dir);
                if stale.is_empty() {
                    writeln!(out, "{}: current", dir.display()).map_err(usage)?;
                    return Ok(ExitCode::SUCCESS);
                }
                for path in stale {
                    writeln!(out, "stale: {} (run `ptxcheck report` and commit it)", path.display()).map_err(usage)?;
                }
                return Ok(ExitCode::from(1));
            }
            report.write(&dir).map_err(usage)?;
            writeln!(out, "wrote {} files to {}", ptxcheck::report::FILES.len(), dir.display()).map_err(usage)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Smtlib { targets, output } => {
            let variants = select::select(&targets).map_err(|e| usage(anyhow!(e)))?;
            let text = smtlib::export(&variants);
            match output {
                Some(path) => smtlib::write_atomically(&path, &text)
                    .with_context(|| format!("cannot write {}", path.display()))
                    .map_err(usage)?,
                None => out.write_all(text.as_bytes()).map_err(usage)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Vendor { command } => ptxcheck::oracle::cli::vendor(command, out).map(ExitCode::from).map_err(usage),
        Command::Hw { command } => ptxcheck::oracle::cli::hw(command, out).map(ExitCode::from).map_err(usage),
        Command::List { targets } => {
            let variants = select::select(&targets).map_err(|e| usage(anyhow!(e)))?;
            render::catalogue(out, &variants).map_err(usage)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The literal C audit's limit per query: a few of its comparisons are
/// beyond the solvers at any limit, so it waits at most 5 s on each (the
/// findings are the same with 3 s and with 30 s).
fn literal_timeout(timeout: Duration) -> Duration {
    timeout.min(Duration::from_secs(20))
}

/// A pool of `jobs` threads (default: one per CPU).
fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Usage> {
    let jobs = match jobs {
        Some(0) => return Err(usage(anyhow!("--jobs must be at least 1"))),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    rayon::ThreadPoolBuilder::new().num_threads(jobs).build().context("starting worker threads").map_err(usage)
}

/// The solver, limits and thread pool shared by the solver commands.
struct Setup {
    backend: Backend,
    timeout: Duration,
    pool: rayon::ThreadPool,
}

impl Setup {
    fn new(args: &SolverArgs) -> Result<Setup, Usage> {
        let backend = Backend::from_name(&args.solver).map_err(usage)?;
        backend.check_available().map_err(usage)?;
        if !(args.timeout.is_finite() && args.timeout > 0.0) {
            return Err(usage(anyhow!("--timeout must be a positive number of seconds, got {}", args.timeout)));
        }
        let jobs = match args.jobs {
            Some(0) => return Err(usage(anyhow!("--jobs must be at least 1"))),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .context("starting worker threads")
            .map_err(usage)?;
        Ok(Setup { backend, timeout: Duration::from_secs_f64(args.timeout), pool })
    }

    /// Run `job` on every variant in parallel, with a progress bar on a
    /// terminal; results in catalogue order.
    fn run_all<T: Send>(&self, variants: &[ptx_spec::Variant], job: impl Fn(&ptx_spec::Variant) -> T + Sync) -> Vec<T> {
        let bar = ProgressBar::with_draw_target(
            Some(variants.len() as u64),
            if io::stderr().is_terminal() && io::stdout().is_terminal() {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("a valid template"));
        let results = self.pool.install(|| {
            variants
                .par_iter()
                .map(|v| {
                    let r = job(v);
                    bar.set_message(v.to_string());
                    bar.inc(1);
                    r
                })
                .collect()
        });
        bar.finish_and_clear();
        results
    }
}
