//! `ptxcheck conform`: an implementation's results on the conformance suite
//! against the spec model and the sm_90 model; exit 1 when one fails
//! against the model chosen. With `--gpu`, the suite's own PTX is run on the
//! GPU and its results compared the same way.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

use super::render::{note, Table, Width, WidthArgs};
use super::{progress_bar, status, Format};
use crate::error::Error;
use crate::oracle::gpu::Gpu;
use crate::output::Output;
use crate::report::conform::{ConformReport, GroupEntry, Groups, LeastInput, NotRun, Partial, VariantResult};
use crate::vectors::conform::{self, show_inputs, show_outputs, Tally};
use crate::vectors::exec::{self, Exec};
use crate::vectors::files::{self, Outcome};
use crate::vectors::groups::Group;
use crate::vectors::warp::Warps;
use crate::vectors::{ptx, Reason, Vector, SCHEMA_VERSION};

/// The arguments of `ptxcheck conform`.
#[derive(clap::Args)]
pub struct Args {
    /// An implementation's results: the suite's JSON Lines with an `actual`
    /// (or `outcome`) field, or its CSV with the `actual` column filled in
    /// (a name ending in `.csv`). With --gpu or --exec: the suite's folder
    /// (or its `vectors.jsonl`), whose vectors are run.
    results: PathBuf,
    /// The model a failure is counted against for the exit status: `spec`,
    /// or `sm_90` (the H100's rules). Both are always reported.
    #[arg(long, default_value = "spec", value_parser = super::model, value_name = "MODEL")]
    model: Model,
    /// Run the suite in the folder RESULTS on the GPU (through the CUDA
    /// driver): its self-checking PTX, and the shuffle vectors as lanes of
    /// whole warps; and compare what the device gives.
    #[arg(long, conflicts_with = "exec")]
    gpu: bool,
    /// Run the suite in the folder RESULTS through COMMAND: one vector a
    /// line on its standard input (`add.u32 a=0x1 b=0x2`), one answer a
    /// line back (`d=0x3`, or `trap`, `crash`, `unimplemented`, `timeout`
    /// and a message). A process that dies is recorded as a crash of the
    /// vector it was on, and a fresh one goes on from the next.
    #[arg(long, value_name = "COMMAND")]
    exec: Option<String>,
    /// With --exec: also write the results, the suite's lines with what the
    /// command answered, as JSON Lines to FILE.
    #[arg(long, value_name = "FILE", requires = "exec")]
    save: Option<PathBuf>,
    /// With --exec: vectors sent at a time.
    #[arg(long, default_value_t = 1024, value_name = "N", requires = "exec",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    batch: u32,
    /// With --exec: the time a batch may take, in seconds; the vector the
    /// command was on when it ran out is recorded as a timeout.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS", requires = "exec")]
    batch_timeout: f64,
    /// The suite's folder (or its `vectors.jsonl`) the results answer: each
    /// variant the results cover only in part says how much.
    #[arg(long, value_name = "DIR")]
    suite: Option<PathBuf>,
    /// Also write the verdict as one HTML page to FILE: a row per variant,
    /// and each variant's groups of failures with their least failing
    /// inputs (its style inside, so it opens from anywhere).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Output format: the tables, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    #[command(flatten)]
    width: WidthArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let save = args.save.as_deref().map(Output::file).transpose()?;
    let html = match &args.html {
        Some(file) => Some((file, Output::file(file)?)),
        None => None,
    };
    let (outcomes, suite) = if args.gpu {
        let suite = Suite::read(&args.results)?;
        (run_on_gpu(&suite, out)?, Some(suite))
    } else if let Some(command) = &args.exec {
        let suite = Suite::read(&args.results)?;
        let outcomes = run_exec(&args, command, &suite)?;
        if let Some(save) = &save {
            save.write(&[&suite.results(&suite.file, &outcomes)?])?;
        }
        (outcomes, Some(suite))
    } else {
        let suite = args.suite.as_deref().map(Suite::read).transpose()?;
        (read(&args.results)?, suite)
    };
    let tallies = conform::compare(&outcomes);
    let sizes = suite.as_ref().map(Suite::sizes);
    let summary = Summary::new(&tallies, sizes.as_ref(), args.model);
    let report = summary.report(&tallies);
    match args.format {
        Format::Table => show(out, &tallies, &summary, args.width.resolve())?,
        Format::Json => {
            writeln!(out, "{}", serde_json::to_string_pretty(&report).expect("JSON serialises"))?;
        }
    }
    if let Some((file, output)) = html {
        output.write(&[&report.html()])?;
        // On stderr: the standard output stays the format asked for.
        eprintln!("wrote {}", file.display());
    }
    Ok(status(summary.failed == 0))
}

fn read(file: &Path) -> Result<Vec<Outcome>, Error> {
    let text = std::fs::read_to_string(file).map_err(|e| Error::file(format!("cannot read {}", file.display()), e))?;
    let outcomes = files::read(file, &text).map_err(Error::usage)?;
    if outcomes.is_empty() {
        return Err(Error::usage(format!("{} holds no results: nothing to score", file.display())));
    }
    Ok(outcomes)
}

/// The suite's own vectors, with their lines as written.
struct Suite {
    /// Its `vectors.jsonl`, for messages.
    file: PathBuf,
    text: String,
    vectors: Vec<Outcome>,
}

impl Suite {
    /// The suite in the folder `path` (its `vectors.jsonl`), or the file
    /// `path`.
    fn read(path: &Path) -> Result<Suite, Error> {
        let file = if path.is_dir() { path.join(files::JSONL) } else { path.to_path_buf() };
        let text =
            std::fs::read_to_string(&file).map_err(|e| Error::file(format!("cannot read {}", file.display()), e))?;
        let vectors = files::read_suite(&file, &text).map_err(Error::usage)?;
        if vectors.is_empty() {
            return Err(Error::usage(format!("{} holds no vectors: nothing to run", file.display())));
        }
        Ok(Suite { file, text, vectors })
    }

    /// Vectors per variant, in catalogue order.
    fn sizes(&self) -> Vec<(Variant, usize)> {
        let mut counts: HashMap<Variant, usize> = HashMap::new();
        for v in &self.vectors {
            *counts.entry(v.variant).or_default() += 1;
        }
        Variant::all().into_iter().filter_map(|v| counts.get(&v).map(|&n| (v, n))).collect()
    }

    /// The results file of `outcomes` (one for each vector, in order): each
    /// suite line with what the implementation gave. A line that is not as
    /// `ptxcheck vectors` writes it (a key added by hand) is an error: it
    /// would not be copied whole.
    fn results(&self, file: &Path, outcomes: &[Outcome]) -> Result<String, Error> {
        let mut text = String::new();
        let lines = self.text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        for ((n, line), o) in lines.zip(outcomes) {
            let line: files::SuiteLine = serde_json::from_str(line).map_err(|e| {
                Error::usage(format!("{}:{}: not as `ptxcheck vectors` writes it: {e}", file.display(), n + 1))
            })?;
            let (outcome, message, actual) = match &o.event {
                Some((event, message)) => (Some(event.word().to_string()), message.clone(), None),
                None => (None, None, Some(files::values(&o.variant.outputs(), o.actual.iter().map(|&x| Some(x))))),
            };
            let result = files::ResultLine { line, outcome, message, actual };
            text.push_str(&serde_json::to_string(&result).expect("JSON serialises"));
            text.push('\n');
        }
        Ok(text)
    }
}

/// Run the suite through `command`, with a progress bar on a terminal.
fn run_exec(args: &Args, command: &str, suite: &Suite) -> Result<Vec<Outcome>, Error> {
    let argv = shlex::split(command).filter(|a| !a.is_empty()).ok_or_else(|| {
        Error::usage(format!("--exec `{command}`: not a command line (an unclosed quote?), or empty"))
    })?;
    if !(args.batch_timeout > 0.0 && args.batch_timeout <= 86_400.0) {
        return Err(Error::usage(format!("--batch-timeout {}: give more than 0 s, at most 86400", args.batch_timeout)));
    }
    let exec = Exec { argv, batch: args.batch as usize, timeout: Duration::from_secs_f64(args.batch_timeout) };
    let bar = progress_bar(suite.vectors.len() as u64);
    let outcomes = exec::run(&exec, &suite.vectors, &|n| bar.set_position(n as u64));
    bar.finish_and_clear();
    outcomes
}

/// Run the suite in `dir` on the GPU: each variant's vectors through its
/// module, the device's own mismatch count printed beside the host's.
fn run_on_gpu(suite: &Suite, out: &mut dyn Write) -> Result<Vec<Outcome>, Error> {
    let suite = &suite.vectors;
    let gpu = Gpu::open()?;
    writeln!(out, "running {} vectors on {}", suite.len(), gpu.info.line())?;
    let vectors: Vec<Vector> =
        suite.iter().map(|o| Vector::new(o.variant, o.inputs.clone(), Reason::Exhaustive)).collect();
    let mut outcomes = Vec::new();
    let mut device = 0;
    for v in Variant::all() {
        let mine: Vec<(usize, &Vector)> = vectors.iter().enumerate().filter(|(_, x)| x.variant == v).collect();
        if mine.is_empty() || !ptx::has_kernel(&v) {
            continue;
        }
        let (mut got, mismatches) = ptx::run(&gpu, &v, &mine)?;
        for o in &mut got {
            // The reason as the suite's file gives it.
            let id: usize = o.at.rsplit('#').next().and_then(|n| n.parse().ok()).unwrap_or(0);
            o.reason = suite[id].reason.clone();
            o.at = suite[id].at.clone();
        }
        device += mismatches;
        outcomes.extend(got);
    }
    writeln!(out, "the device counted {device} mismatches against the spec")?;
    outcomes.extend(run_warps(&gpu, suite, out)?);
    Ok(outcomes)
}

/// The suite's shuffle vectors on `gpu`, as whole warps: every vector one
/// lane of a warp case, each case one launch of 32 threads.
fn run_warps(gpu: &Gpu, suite: &[Outcome], out: &mut dyn Write) -> Result<Vec<Outcome>, Error> {
    let warps = Warps::new(suite.iter().enumerate().filter(|(_, v)| v.variant.is_warp_wide()));
    if warps.cases.is_empty() && warps.not_run.is_empty() {
        return Ok(Vec::new());
    }
    let lines = crate::oracle::hw::Program::new(&[], &warps.cases).run(gpu)?;
    let outcomes = warps.outcomes(&lines, suite).map_err(Error::Tool)?;
    writeln!(out, "shuffle vectors: {} run as lanes of {} warps", outcomes.len(), warps.cases.len())?;
    if let Some((id, why)) = warps.not_run.first() {
        let n = warps.not_run.len();
        writeln!(out, "{n} shuffle vectors not run: no warp the kernels write (the first, {}: {why})", suite[*id].at)?;
    }
    Ok(outcomes)
}

fn count(n: usize) -> String {
    n.to_string()
}

/// What the tables and the JSON both say, computed once.
struct Summary {
    model: Model,
    /// Results failing against `model`.
    failed: usize,
    /// Variants that answered `unimplemented` to every result.
    unimplemented: Vec<Variant>,
    /// Variants with no result: of the suite where it is known, else of the
    /// catalogue.
    not_run: Vec<Variant>,
    /// Out of how many: the suite's variants, or the catalogue's.
    of: usize,
    /// Variants the results cover in part: results, and the suite's vectors.
    partial: Vec<(Variant, usize, usize)>,
}

impl Summary {
    fn new(tallies: &[(Variant, Tally)], sizes: Option<&Vec<(Variant, usize)>>, model: Model) -> Summary {
        let ran = |v: &Variant| tallies.iter().any(|(t, _)| t == v);
        let (not_run, of): (Vec<Variant>, usize) = match sizes {
            Some(s) => (s.iter().map(|(v, _)| *v).filter(|v| !ran(v)).collect(), s.len()),
            None => (Variant::all().into_iter().filter(|v| !ran(v)).collect(), Variant::all().len()),
        };
        let partial = tallies
            .iter()
            .filter_map(|(v, t)| {
                let n = sizes?.iter().find(|(s, _)| s == v)?.1;
                (t.results < n).then_some((*v, t.results, n))
            })
            .collect();
        Summary {
            model,
            failed: tallies.iter().map(|(_, t)| t.failed(model)).sum(),
            unimplemented: tallies.iter().filter(|(_, t)| t.unimplemented == t.results).map(|(v, _)| *v).collect(),
            not_run,
            of,
            partial,
        }
    }

    /// The verdict as one typed value: what `--format json` prints and
    /// `--html` renders.
    fn report(&self, tallies: &[(Variant, Tally)]) -> ConformReport {
        let total = |f: fn(&Tally) -> usize| tallies.iter().map(|(_, t)| f(t)).sum::<usize>();
        let variants = tallies
            .iter()
            .map(|(v, t)| {
                let groups = |m: Model| t.groups(m).iter().map(|g| group_entry(v, g)).collect::<Vec<_>>();
                VariantResult {
                    variant: v.to_string(),
                    results: t.results,
                    passed: t.passed,
                    failed_spec: t.failed_spec,
                    failed_sm_90: t.failed(Model::Sm90),
                    picks: t.picks,
                    no_value: t.events,
                    no_value_picks: t.event_picks,
                    unimplemented: t.unimplemented,
                    suite: self.partial.iter().find(|p| p.0 == *v).map(|p| p.2),
                    groups: Groups { spec: groups(Model::Spec), sm_90: groups(Model::Sm90) },
                }
            })
            .collect();
        let names = |vs: &[Variant]| vs.iter().map(|v| v.to_string()).collect::<Vec<_>>();
        ConformReport {
            schema_version: SCHEMA_VERSION,
            model: self.model.name().to_string(),
            results: total(|t| t.results),
            passed: total(|t| t.passed),
            failed_spec: total(|t| t.failed_spec),
            failed_sm_90_only: total(|t| t.failed_sm_90_only),
            picks: total(|t| t.picks),
            no_value: total(|t| t.events),
            failed: self.failed,
            variants,
            unimplemented: names(&self.unimplemented),
            not_run: NotRun { count: self.not_run.len(), of: self.of, variants: names(&self.not_run) },
            partial: self
                .partial
                .iter()
                .map(|(v, n, of)| Partial { variant: v.to_string(), results: *n, suite: *of })
                .collect(),
        }
    }
}

use files::values;

fn group_entry(v: &Variant, g: &Group) -> GroupEntry {
    let f = &g.least;
    GroupEntry {
        size: g.size,
        kind: g.kind.clone(),
        condition: g.condition.clone(),
        pattern: g.pattern.clone(),
        named: g.named.clone(),
        least_input: LeastInput {
            at: f.at.clone(),
            inputs: values(&v.inputs(), f.inputs.iter().map(|&x| Some(x))),
            actual: f.event.is_none().then(|| values(&v.outputs(), f.actual.iter().map(|&x| Some(x)))),
            outcome: f.event.clone(),
            expected: values(&v.outputs(), f.expected.iter().copied()),
            reason: f.reason.clone(),
        },
    }
}

/// Whether sm_90's groups say nothing the spec's do not: sm_90 agrees with
/// the spec wherever the spec defines a value, but for the readings its
/// rules replace.
fn same_groups(t: &Tally) -> bool {
    let key = |g: &Group| (g.size, g.condition.clone(), g.least.inputs.clone(), g.least.expected.clone());
    t.spec_groups.iter().map(key).eq(t.sm_90_groups.iter().map(key))
}

/// `3; 2 more` for a list cut at three.
fn first_three(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().take(3).map(String::as_str).collect();
    match items.len().saturating_sub(3) {
        0 => shown.join("; "),
        more => format!("{}; {more} more", shown.join("; ")),
    }
}

/// The variants without a result: the first names, then a count, since a
/// results file of a few variants leaves thousands unrun (`--format json`
/// lists every one).
fn not_run(variants: &[Variant], of: usize) -> String {
    const SHOWN: usize = 24;
    let shown = &variants[..variants.len().min(SHOWN)];
    let more = variants.len() - shown.len();
    let rest = if more > 0 { format!(" and {more} more") } else { String::new() };
    let names: Vec<String> = shown.iter().map(|v| format!("`{v}`")).collect();
    format!("not run: {} of the {} variants have no result: {}{rest}", variants.len(), of, names.join(", "))
}

/// The tables and the notes.
fn show(out: &mut dyn Write, tallies: &[(Variant, Tally)], summary: &Summary, width: Width) -> Result<(), Error> {
    let rows = tallies
        .iter()
        .map(|(v, t)| {
            vec![
                v.to_string(),
                count(t.results),
                count(t.passed),
                count(t.failed_spec),
                count(t.failed_sm_90_only),
                count(t.picks),
                count(t.events),
            ]
        })
        .collect();
    let header =
        ["variant", "results", "passed", "failed (spec)", "failed (sm_90 only)", "implementation picks", "no value"];
    writeln!(out, "{}", Table::new(&header, rows).render(width))?;
    let mut failures = Vec::new();
    for (v, t) in tallies {
        for m in [Model::Spec, Model::Sm90] {
            if m == Model::Sm90 && same_groups(t) {
                continue;
            }
            for g in t.groups(m) {
                let f = &g.least;
                failures.push(vec![
                    v.to_string(),
                    m.name().to_string(),
                    format!("{} of {}", g.size, t.failed(m)),
                    g.condition.clone(),
                    show_inputs(v, &f.inputs),
                    f.event.clone().unwrap_or_else(|| show_outputs(v, f.actual.iter().map(|&x| Some(x)))),
                    show_outputs(v, f.expected.iter().copied()),
                    g.pattern.clone(),
                    first_three(&g.named),
                ]);
            }
        }
    }
    if !failures.is_empty() {
        let header = [
            "variant",
            "model",
            "failures",
            "where",
            "least failing input",
            "actual",
            "expected",
            "how it differs",
            "findings, readings, claims (or its reason)",
        ];
        let mut table = Table::new(&header, failures);
        for column in 3..9 {
            // The inputs of three 64-bit operands stay on one line.
            table = table.wrap(column, Some(if column == 4 { 48 } else { 30 }));
        }
        writeln!(out, "{}", table.render(width))?;
    }
    let total = |f: fn(&Tally) -> usize| tallies.iter().map(|(_, t)| f(t)).sum::<usize>();
    let list = |vs: &[Variant]| vs.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
    // A variant the implementation does not have at all is said so, and
    // never counts as passed.
    if !summary.unimplemented.is_empty() {
        let n = summary.unimplemented.len();
        let text = format!(
            "unimplemented: {n} {} `unimplemented` to every result: {}",
            if n == 1 { "variant answers" } else { "variants answer" },
            list(&summary.unimplemented)
        );
        note(out, width, "", "          ", &text)?;
    }
    note(
        out,
        width,
        "",
        "",
        &format!(
            "{} results: {} passed, {} failed against the spec, {} failed against sm_90 only, {} implementation picks; \
             {} gave no value ({} of them where the spec leaves every output open)",
            total(|t| t.results),
            total(|t| t.passed),
            total(|t| t.failed_spec),
            total(|t| t.failed_sm_90_only),
            total(|t| t.picks),
            total(|t| t.events),
            total(|t| t.event_picks)
        ),
    )?;
    // What the results do not reach is said, so the summary never reads as
    // if the whole suite had been checked.
    if !summary.partial.is_empty() {
        let each: Vec<String> = summary.partial.iter().map(|(v, n, of)| format!("`{v}` {n} of {of}")).collect();
        let text = format!(
            "in part: {} {} for part of {} vectors: {}",
            each.len(),
            if each.len() == 1 { "variant has results" } else { "variants have results" },
            if each.len() == 1 { "its" } else { "their" },
            each.join(", ")
        );
        note(out, width, "", "          ", &text)?;
    }
    if !summary.not_run.is_empty() {
        note(out, width, "", "          ", &not_run(&summary.not_run, summary.of))?;
    }
    if summary.failed > 0 {
        writeln!(out, "{} results fail against the {} model: exit status 1.", summary.failed, summary.model.name())?;
    }
    Ok(())
}
