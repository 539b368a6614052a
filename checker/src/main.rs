//! The ptxcheck command line: parses the arguments and hands them to the
//! command's module under `ptxcheck::cmd`.
//!
//! Exit status: 0 when everything asked for holds (every variant proven,
//! every non-equivalent mutant killed); 1 when some verdict is not that
//! (a counterexample, unknown, timeout, a surviving mutant); 2 for bad usage
//! or bad input (unknown names, a malformed instruction, a file that does
//! not exist) and for a missing or failing tool (a solver, ptxas); 3 when
//! reading or writing fails otherwise (a file that cannot be read or
//! replaced, a full disk, standard output); 130 when interrupted (Ctrl-C),
//! whatever the run had computed by then. Every error is one line on
//! standard error. A reader that closes standard output early
//! (`ptxcheck claims | head`) ends the run quietly, with status 0.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use ptxcheck::cmd::{self, Command};
use ptxcheck::error::Error;

#[derive(Parser)]
#[command(
    name = "ptxcheck",
    version,
    about = "Formal specification and SMT model checker for PTX integer, logic and shift instructions"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Solve every query, neither reading nor writing the proof cache (also
    /// PTXCHECK_NO_CACHE=1; the cache lives in PTXCHECK_CACHE_DIR, by default
    /// the user's cache directory).
    #[arg(long, global = true)]
    no_cache: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    ptxcheck::interrupt::install();
    use ptx_smt::cache;
    let off = cli.no_cache || cache::off_by_environment();
    cache::configure(if off { None } else { cache::Cache::default_location() });
    let mut stdout = io::stdout().lock();
    let result = run(cli.command, &mut stdout);
    // Results computed after an interrupt are no verdicts, whatever the
    // command made of them (and it wrote no file after it: `output` checks).
    if ptxcheck::interrupt::requested() {
        let _ = stdout.flush();
        ptxcheck::interrupt::report();
        return ExitCode::from(ptxcheck::interrupt::STATUS);
    }
    match result {
        Ok(code) => code,
        // The reader went away: nothing to report.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _ = stdout.flush();
            eprintln!("error: {e}");
            ExitCode::from(e.status())
        }
    }
}

/// Clap's verdict on the arguments. Help and version print as clap writes
/// them; an error is cut to its first line (clap adds a usage block and tips
/// below it), with control characters escaped, as every other error is.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(e.exit_code() as u8);
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or_default();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let shown: String =
        first.chars().flat_map(|c| if c.is_control() { c.escape_default().collect() } else { vec![c] }).collect();
    eprintln!("error: {shown} (see --help)");
    ExitCode::from(2)
}

fn run(command: Command, out: &mut dyn Write) -> Result<ExitCode, Error> {
    match command {
        Command::Prove(args) => cmd::prove::run(args, out),
        Command::Eval(args) => cmd::eval::run(args, out),
        Command::Claims(args) => cmd::claims::run(args, out),
        Command::Run(args) => cmd::run::run(args, out),
        Command::Mutants(args) => cmd::mutants::run(args, out),
        Command::Exhaustive(args) => cmd::exhaustive::run(args, out),
        Command::Audit(args) => cmd::audit::run(args, out),
        Command::Report(args) => cmd::report::run(args, out),
        Command::Smtlib(args) => cmd::smtlib::run(args, out),
        Command::Text(args) => cmd::text::run(args, out),
        Command::Pseudocode(args) => cmd::pseudocode::run(args, out),
        Command::Vendor(args) => cmd::vendor::run(args, out),
        Command::Hw(args) => cmd::hw::run(args, out),
        Command::List(args) => cmd::list::run(args, out),
        Command::Vectors(args) => cmd::vectors::run(args, out),
        Command::Conform(args) => cmd::conform::run(args, out),
    }
}
