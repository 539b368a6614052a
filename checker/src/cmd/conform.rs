//! `ptxcheck conform`: an implementation's results on the conformance suite
//! against the spec model and the sm_90 model; exit 1 when one fails
//! against the model chosen. With `--gpu`, the suite's own PTX is run on the
//! GPU and its results compared the same way.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

use super::render::{note, Table, Width, WidthArgs};
use super::status;
use crate::error::Error;
use crate::oracle::gpu::Gpu;
use crate::vectors::conform::{self, show_inputs, show_outputs, Tally};
use crate::vectors::files::{self, Outcome};
use crate::vectors::{ptx, Reason, Vector};

/// The arguments of `ptxcheck conform`.
#[derive(clap::Args)]
pub struct Args {
    /// An implementation's results: the suite's JSON Lines with an `actual`
    /// field, or its CSV with the `actual` column filled in (a name ending
    /// in `.csv`). With --gpu: the suite's folder, whose vectors are run.
    results: PathBuf,
    /// The model a failure is counted against for the exit status: `spec`,
    /// or `sm_90` (the H100's rules). Both are always reported.
    #[arg(long, default_value = "spec", value_parser = super::model, value_name = "MODEL")]
    model: Model,
    /// Run the suite in the folder RESULTS on the GPU (through the CUDA
    /// driver), its self-checking PTX, and compare what the device gives.
    #[arg(long)]
    gpu: bool,
    #[command(flatten)]
    width: WidthArgs,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let outcomes = if args.gpu { run_on_gpu(&args.results, out)? } else { read(&args.results)? };
    let tallies = conform::compare(&outcomes);
    let failed = show(out, &tallies, args.model, args.width.resolve())?;
    Ok(status(failed == 0))
}

fn read(file: &Path) -> Result<Vec<Outcome>, Error> {
    let text = std::fs::read_to_string(file).map_err(|e| Error::file(format!("cannot read {}", file.display()), e))?;
    let outcomes = files::read(file, &text).map_err(Error::usage)?;
    if outcomes.is_empty() {
        return Err(Error::usage(format!("{} holds no results: nothing to score", file.display())));
    }
    Ok(outcomes)
}

/// Run the suite in `dir` on the GPU: each variant's vectors through its
/// module, the device's own mismatch count printed beside the host's.
fn run_on_gpu(dir: &Path, out: &mut dyn Write) -> Result<Vec<Outcome>, Error> {
    let file = dir.join(files::JSONL);
    let text = std::fs::read_to_string(&file).map_err(|e| Error::file(format!("cannot read {}", file.display()), e))?;
    let suite = files::read_suite(&file, &text).map_err(Error::usage)?;
    let gpu = Gpu::open()?;
    writeln!(out, "running {} vectors on {}", suite.len(), gpu.info.line())?;
    let vectors: Vec<Vector> =
        suite.iter().map(|o| Vector::new(o.variant, o.inputs.clone(), Reason::Exhaustive)).collect();
    let mut outcomes = Vec::new();
    let mut device = 0;
    let mut skipped = 0;
    for v in Variant::all() {
        let mine: Vec<(usize, &Vector)> = vectors.iter().enumerate().filter(|(_, x)| x.variant == v).collect();
        if mine.is_empty() {
            continue;
        }
        if !ptx::has_kernel(&v) {
            skipped += mine.len();
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
    if skipped > 0 {
        writeln!(out, "{skipped} shfl vectors not run: each needs a warp of its own (not yet built)")?;
    }
    Ok(outcomes)
}

fn count(n: usize) -> String {
    n.to_string()
}

/// The tables; the number of results failing against `model`.
fn show(out: &mut dyn Write, tallies: &[(Variant, Tally)], model: Model, width: Width) -> Result<usize, Error> {
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
            let Some(f) = t.failure(m) else { continue };
            // sm_90 agrees with the spec wherever the spec defines a value,
            // but for the readings its rules replace: a second row only
            // where it says something new.
            if m == Model::Sm90
                && t.failed(Model::Sm90) == t.failed_spec
                && t.spec_failure.as_ref().is_some_and(|s| s.inputs == f.inputs && s.expected == f.expected)
            {
                continue;
            }
            let reasons = t.reasons(m);
            // The named things (findings, readings, claims) among the other
            // failing vectors: what the failures have in common.
            let named: Vec<&String> = reasons
                .iter()
                .filter(|r| ["finding ", "reading ", "claim "].iter().any(|k| r.starts_with(k)) && **r != f.reason)
                .collect();
            let others = if !named.is_empty() {
                let shown: Vec<&str> = named.iter().take(3).map(|s| s.as_str()).collect();
                let more = named.len().saturating_sub(3);
                format!("{}{}", shown.join("; "), if more > 0 { format!("; {more} more") } else { String::new() })
            } else {
                String::new()
            };
            failures.push(vec![
                v.to_string(),
                m.name().to_string(),
                count(t.failed(m)),
                show_inputs(v, &f.inputs),
                f.event.clone().unwrap_or_else(|| show_outputs(v, f.actual.iter().map(|&x| Some(x)))),
                show_outputs(v, f.expected.iter().copied()),
                f.reason.clone(),
                others,
            ]);
        }
    }
    if !failures.is_empty() {
        let header = [
            "variant",
            "model",
            "failures",
            "least failing input",
            "actual",
            "expected",
            "its reason",
            "other findings, readings, claims failing",
        ];
        let table = Table::new(&header, failures)
            .wrap(3, Some(40))
            .wrap(4, Some(40))
            .wrap(5, Some(40))
            .wrap(6, Some(40))
            .wrap(7, Some(40));
        writeln!(out, "{}", table.render(width))?;
    }
    let total = |f: fn(&Tally) -> usize| tallies.iter().map(|(_, t)| f(t)).sum::<usize>();
    let failed_model: usize = tallies.iter().map(|(_, t)| t.failed(model)).sum();
    // A variant the implementation does not have at all is said so, and
    // never counts as passed.
    for (v, t) in tallies.iter().filter(|(_, t)| t.unimplemented == t.results) {
        note(out, width, "", "", &format!("unimplemented: `{v}` answers every one of its {} results so", t.results))?;
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
    // if the whole catalogue had been checked.
    let all = Variant::all();
    let not_run: Vec<String> =
        all.iter().filter(|v| !tallies.iter().any(|(t, _)| t == *v)).map(|v| format!("`{v}`")).collect();
    if !not_run.is_empty() {
        let text =
            format!("not run: {} of the {} variants have no result: {}", not_run.len(), all.len(), not_run.join(", "));
        note(out, width, "", "          ", &text)?;
    }
    if failed_model > 0 {
        writeln!(out, "{failed_model} results fail against the {} model: exit status 1.", model.name())?;
    }
    Ok(failed_model)
}
