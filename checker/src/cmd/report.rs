//! `ptxcheck report`: regenerate the reports under `reports/` (every
//! variant proven by each solver, the claims, the audit's findings), or
//! with --check tell whether the committed ones are current.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Setup;
use crate::error::Error;
use crate::output::Output;
use crate::prove;
use crate::report::{self, Report, SolverRun, Vendor};
use crate::sm_90_report;

/// The arguments of `ptxcheck report`.
#[derive(clap::Args)]
pub struct Args {
    /// The reports' folder.
    #[arg(long, default_value = "reports")]
    dir: PathBuf,
    /// Compare with the files in --dir instead of writing them.
    #[arg(long)]
    check: bool,
    /// The solvers whose `prove all` the report records, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "embedded,z3,cvc5")]
    solvers: Vec<String>,
    /// Time limit for each solver query, in seconds (more than 0, at most
    /// 86400: one day).
    #[arg(long, default_value_t = 60.0, allow_negative_numbers = true, value_name = "SECONDS")]
    timeout: f64,
    /// Queries run in parallel (default: one per CPU; at most 1024, as for
    /// prove).
    #[arg(long)]
    jobs: Option<usize>,
    /// The PTX ISA text (files or folders, as `ptxcheck text` takes them):
    /// its wording findings join the audit's, and the transcriptions are
    /// compared with it. CI gives ../shared/seeds/.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    text: Vec<PathBuf>,
    /// Report without a spec text even where the reports in --dir were made
    /// with one (their text findings are then dropped).
    #[arg(long, conflicts_with = "text")]
    no_text: bool,
}

/// The environment variable that names the spec text (paths separated as
/// in PATH) where --text is not given.
pub const SPEC_TEXT_VAR: &str = "PTXCHECK_SPEC_TEXT";

/// What the reports in a folder record of how they were made.
#[derive(serde::Deserialize)]
struct Made {
    #[serde(default)]
    spec_text: Option<serde::de::IgnoredAny>,
}

/// The spec text to report with: --text, else PTXCHECK_SPEC_TEXT, else none.
/// Where the reports in --dir were made with a text and none is given (nor
/// --no-text), reporting without one would drop its findings, and checking
/// would call current reports stale: a one-line error says how to pass it.
fn spec_text(args: &Args) -> Result<Vec<PathBuf>, Error> {
    if !args.text.is_empty() {
        return Ok(args.text.clone());
    }
    if let Some(v) = std::env::var_os(SPEC_TEXT_VAR).filter(|v| !v.is_empty()) {
        return Ok(std::env::split_paths(&v).collect());
    }
    if args.no_text {
        return Ok(Vec::new());
    }
    let path = args.dir.join("ptxcheck.json");
    let made = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str::<Made>(&t).ok());
    if made.is_some_and(|m| m.spec_text.is_some()) {
        return Err(Error::usage(format!(
            "{} was made with a spec text: pass it with --text PATH (the seed copy: --text ../shared/seeds/) or in \
             {SPEC_TEXT_VAR}, or give --no-text to report without one",
            path.display()
        )));
    }
    Ok(Vec::new())
}

/// Every variant proven by every solver named, one run per solver in the
/// order named.
fn solver_runs(setups: &[Setup], setup: &Setup, variants: &[ptx_spec::Variant]) -> Result<Vec<SolverRun>, Error> {
    // Every solver's proofs in one pool: run one solver after another, each
    // left a core idle while its slowest proofs finished. The last solver
    // named (the slowest of the default list, cvc5) goes first, so that its
    // slowest proofs do not end the run.
    // Each solver's jobs: a batch of small forms of one opcode, or one
    // variant (`prove::jobs`), in the variants' order.
    let jobs: Vec<(&Setup, Vec<ptx_spec::Variant>)> = setups
        .iter()
        .rev()
        .flat_map(|s| {
            prove::jobs(ptx_spec::hardware::Model::Spec, variants, &s.backend).into_iter().map(move |job| (s, job))
        })
        .collect();
    let label = |(s, job): &(&Setup, Vec<ptx_spec::Variant>)| format!("{} ({})", job[0], s.backend);
    let mut proofs = setup
        .run_each(&jobs, label, |(s, job)| {
            prove::prove_job(ptx_spec::hardware::Model::Spec, job, &s.backend, s.timeout)
        })?
        .into_iter()
        .flatten();
    let mut runs: Vec<SolverRun> = setups
        .iter()
        .rev()
        .map(|s| SolverRun { solver: s.backend.to_string(), results: proofs.by_ref().take(variants.len()).collect() })
        .collect();
    runs.reverse();
    Ok(runs)
}

/// Build the reports, then write them, or with --check compare them with
/// the files in --dir (exit 1 when one is stale).
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let variants = ptx_spec::Variant::all();
    // Everything that can fail without computing is checked first: the
    // report takes minutes.
    let setups =
        args.solvers.iter().map(|name| Setup::with(name, args.timeout, args.jobs)).collect::<Result<Vec<_>, _>>()?;
    let setup = Setup::with("embedded", args.timeout, args.jobs)?;
    let output = if args.check { None } else { Some(Report::output(&args.dir)?) };
    // The files of their own beside the report: the sm_90 model's
    // deviations, and ptxas's defects where their record is committed.
    let has_defects = args.dir.join("vendor").join(crate::oracle::defects::FILE).is_file();
    let mut own = vec![sm_90_report::FILE];
    if has_defects {
        own.push(report::defects::FILE);
    }
    let own_output = if args.check { None } else { Some(Output::in_dir(&args.dir, &own)?) };
    // The text is read before anything is proven: bad input stops at once.
    let paths = spec_text(&args)?;
    let text = if paths.is_empty() { None } else { Some(crate::audit::text::run_for_reports(&paths)?) };
    // The errata are judged against the whole text: a section left out
    // would read as every root cause there unjudged.
    if let Some(m) = text.as_ref().and_then(|t| t.missing.first()) {
        let n = text.as_ref().map_or(0, |t| t.missing.len());
        let more = if n > 1 { format!(" (and {} more)", n - 1) } else { String::new() };
        return Err(Error::usage(format!(
            "--text: section {m}{more} is not in the text; the errata are judged against all of sections 9.7.1, \
             9.7.8 and 9.7.9.5"
        )));
    }
    let runs = solver_runs(&setups, &setup, &variants)?;
    // The third proof: each variant's Semantics block, parsed from the
    // text, against its encoding.
    let blocks = match &text {
        Some(t) => setup.run_each(
            &variants,
            |v| format!("{v} (its Semantics block)"),
            |v| crate::text_proof::prove_text(&t.document, v, &setup.backend, setup.timeout),
        )?,
        None => Vec::new(),
    };
    let document = text.as_ref().map(|t| &t.document);
    let mut audit = setup.install(|| crate::audit::run(&setup.backend, setup.timeout, document))??;
    let dir = &args.dir;
    let vendor = Vendor::load(dir)?;
    // Where ptxas and the text disagree on what is legal, and the text's
    // wording: findings like the audit's, grouped by the same root causes.
    audit.findings.extend(vendor.iter().flat_map(Vendor::requirement_findings));
    // The text's blocks read as C are the audit's too: each finding once.
    let text_findings = text.iter().flat_map(|t| t.findings.iter());
    let fresh: Vec<_> = text_findings.filter(|f| audit.find(&f.id).is_none()).cloned().collect();
    audit.findings.extend(fresh);
    crate::audit::errata::assign(&mut audit.findings);
    crate::audit::sort(&mut audit.findings);
    let report = report::build(&runs, &audit, vendor.as_ref(), text.as_ref(), &blocks);
    // The sm_90 model's deviations: a file of its own, from the rule table
    // and the committed H100 results.
    let results: Vec<(&str, String)> = sm_90_report::RESULTS
        .iter()
        .filter_map(|name| Some((*name, std::fs::read_to_string(dir.join(name)).ok()?)))
        .collect();
    let mut own_texts = vec![sm_90_report::markdown(&results, vendor.as_ref().map(|v| &v.fold))];
    if let Some(defects) = vendor.as_ref().and_then(|v| v.defects.as_ref()) {
        own_texts.push(report::defects::markdown(defects));
    }
    if own_texts.len() != own.len() {
        return Err(Error::usage(format!(
            "{} reads only with ptxas-syntax.json and ptxas-fold.json",
            dir.join("vendor").join(crate::oracle::defects::FILE).display()
        )));
    }
    if args.check {
        let mut stale = report.stale(dir);
        for (name, text) in own.iter().zip(&own_texts) {
            let path = dir.join(name);
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path);
            }
        }
        if stale.is_empty() {
            writeln!(out, "{}: current", dir.display())?;
            return Ok(ExitCode::SUCCESS);
        }
        for path in stale {
            writeln!(out, "stale: {} (run `ptxcheck report` and commit it)", path.display())?;
        }
        return Ok(ExitCode::from(1));
    }
    if let Some(output) = output {
        report.write(&output)?;
    }
    if let Some(output) = own_output {
        output.write(&own_texts.iter().map(String::as_str).collect::<Vec<_>>())?;
    }
    writeln!(out, "wrote {} files to {}", report::files().len() + own.len(), dir.display())?;
    Ok(ExitCode::SUCCESS)
}
