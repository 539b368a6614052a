//! `ptxcheck exhaustive`: both models, the SMT encoding evaluated
//! concretely, on every input of each small variant; agreement, the first
//! mismatch, and the throughput.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::render::{note, seconds, value_or_undefined, Table, Width, WidthArgs};
use super::{select_sampled, status, thread_pool, Format};
use crate::error::Error;
use crate::exhaustive;
use ptx_spec::program::Isa;

/// The arguments of `ptxcheck exhaustive`.
#[derive(clap::Args)]
pub struct Args {
    #[arg(default_values_t = vec!["all".to_string()])]
    targets: Vec<String>,
    /// Check only variants with at most this many input bits.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=32))]
    max_bits: u32,
    /// Threads (default: one per CPU; at most 1024, as for prove).
    #[arg(long)]
    jobs: Option<usize>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// The vector instructions the compiled programs run with: the widest
    /// this processor has, or a narrower path, to test or time it.
    #[arg(long, value_enum, default_value_t = Simd::Auto)]
    simd: Simd,
    #[command(flatten)]
    width: WidthArgs,
}

/// `--simd`: a path of [`Isa`], or the widest.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Simd {
    Auto,
    Avx512,
    Avx2,
    Baseline,
}

impl Simd {
    /// The path asked for, where this processor has it.
    fn isa(self) -> Result<Isa, Error> {
        let isa = match self {
            Simd::Auto => return Ok(Isa::best()),
            Simd::Avx512 => Isa::Avx512,
            Simd::Avx2 => Isa::Avx2,
            Simd::Baseline => Isa::Baseline,
        };
        if !isa.supported() {
            return Err(Error::usage(format!(
                "--simd {}: this processor does not have it (the widest it has is {})",
                isa.name(),
                Isa::best().name()
            )));
        }
        Ok(isa)
    }
}

/// Check every input of the variants with at most --max-bits input bits;
/// exit 1 on a mismatch.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let max_bits = args.max_bits;
    let isa = args.simd.isa()?;
    // Every argument is checked before the sample's note is printed.
    let pool = thread_pool(args.jobs)?;
    let variants: Vec<_> =
        select_sampled(&args.targets)?.into_iter().filter(|v| exhaustive::input_bits(v) <= max_bits).collect();
    if variants.is_empty() {
        return Err(Error::usage(format!("no selected variant has at most {max_bits} input bits")));
    }
    let start = Instant::now();
    let reports: Vec<_> = variants.iter().map(|v| pool.install(|| exhaustive::check(v, isa))).collect();
    crate::interrupt::check()?;
    let summary =
        ExhaustiveSummary { reports: &reports, wall: start.elapsed(), threads: pool.current_num_threads(), isa };
    match args.format {
        Format::Table => summary.text(out, args.width.resolve())?,
        Format::Json => writeln!(out, "{:#}", summary.json())?,
    }
    Ok(status(reports.iter().all(|r| r.mismatch.is_none())))
}

pub struct ExhaustiveSummary<'a> {
    pub reports: &'a [exhaustive::Report],
    pub wall: Duration,
    /// The threads each variant ran on (all of them, one variant at a time).
    pub threads: usize,
    /// The vector instructions the programs ran with.
    pub isa: Isa,
}

impl ExhaustiveSummary<'_> {
    /// Millions of inputs a second, on all threads; none where there were
    /// too few inputs to compile (their microseconds say nothing of a rate)
    /// or a mismatch stopped the run.
    fn throughput(r: &exhaustive::Report) -> Option<f64> {
        (r.steps.is_some() && r.mismatch.is_none()).then(|| r.inputs as f64 / r.time.as_secs_f64().max(1e-9) / 1e6)
    }

    pub fn text(&self, out: &mut dyn Write, width: Width) -> io::Result<()> {
        let rows = self
            .reports
            .iter()
            .map(|r| {
                let verdict = if r.mismatch.is_some() { "MISMATCH" } else { "agree" };
                vec![
                    r.variant.to_string(),
                    exhaustive::input_bits(&r.variant).to_string(),
                    if r.mismatch.is_some() { "-".into() } else { r.inputs.to_string() },
                    verdict.to_string(),
                    seconds(r.time),
                    Self::throughput(r).map_or("-".into(), |t| format!("{t:.1} M/s")),
                    Self::throughput(r).map_or("-".into(), |t| format!("{:.1} M/s", t / self.threads as f64)),
                    r.steps.map_or("-".into(), |n| n.to_string()),
                ]
            })
            .collect();
        writeln!(
            out,
            "{}",
            Table::new(
                &["variant", "input bits", "inputs", "result", "time", "throughput", "per thread", "steps"],
                rows
            )
            .render(width)
        )?;
        for r in self.reports {
            if let Some(m) = &r.mismatch {
                writeln!(out, "\nmismatch for {}: the SMT encoding and the concrete semantics differ", r.variant)?;
                for (o, v) in r.variant.inputs().iter().zip(&m.inputs) {
                    writeln!(out, "    {} = {v}", o.name)?;
                }
                for ((o, s), c) in r.variant.outputs().iter().zip(&m.smt).zip(&m.concrete) {
                    writeln!(
                        out,
                        "    {}: SMT {}, concrete {}",
                        o.name,
                        value_or_undefined(*s),
                        value_or_undefined(*c)
                    )?;
                }
            }
        }
        let total: u64 = self.reports.iter().map(|r| r.inputs).sum();
        let bad = self.reports.iter().filter(|r| r.mismatch.is_some()).count();
        writeln!(out)?;
        let summary = format!(
            "{} variants: {} agree on every input, {} mismatch; {} inputs in {} ({:.1} M inputs/s)",
            self.reports.len(),
            self.reports.len() - bad,
            bad,
            total,
            seconds(self.wall),
            total as f64 / self.wall.as_secs_f64().max(1e-9) / 1e6,
        );
        note(out, width, "", "", &summary)?;
        if self.reports.iter().any(|r| r.steps.is_some()) {
            writeln!(out)?;
            let steps = "steps: the compiled program's steps per block of inputs, both models together; 0 \
                         where the two models compile to the same steps, so that their difference is the \
                         constant 0 (every input is still run); - where a variant has too few inputs to \
                         compile, each evaluated one at a time (and no rate is given: they take microseconds)";
            note(out, width, "", "", steps)?;
            let threads = format!(
                "throughput: inputs a second on all {} threads, each variant in turn; per thread: that \
                 divided by {}",
                self.threads, self.threads
            );
            note(out, width, "", "", &threads)?;
            let widest = if self.isa == Isa::best() { "the widest this processor has" } else { "asked for" };
            note(out, width, "", "", &format!("vector instructions: {} ({widest})", self.isa.name()))?;
        }
        Ok(())
    }

    pub fn json(&self) -> Value {
        let reports: Vec<Value> = self
            .reports
            .iter()
            .map(|r| {
                json!({
                    "variant": r.variant.to_string(),
                    "input_bits": exhaustive::input_bits(&r.variant),
                    "inputs": r.inputs,
                    "agree": r.mismatch.is_none(),
                    "mismatch": r.mismatch.as_ref().map(|m| json!({
                        "inputs": m.inputs,
                        "smt": m.smt,
                        "concrete": m.concrete,
                    })),
                    "time_s": r.time.as_secs_f64(),
                    "inputs_per_s": Self::throughput(r).map(|t| t * 1e6),
                    "program_steps": r.steps,
                })
            })
            .collect();
        json!({ "results": reports, "wall_s": self.wall.as_secs_f64(), "threads": self.threads, "simd": self.isa.name() })
    }
}
