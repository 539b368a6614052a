//! `ptxcheck hw`: the hardware check. `emit` writes a program that runs the
//! fold instances and whole-warp shfl cases on a GPU; `compare` reads its
//! results file and compares each result with the model (exit 1 when one
//! disagrees).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::json;

use super::vendor::fold_instances;
use super::{select, status, thread_pool, Format};
use crate::error::Error;
use crate::oracle::gpu::Gpu;
use crate::oracle::{hw, sweep};
use crate::output::Output;
use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

/// The arguments of `ptxcheck hw`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: HwCommand,
}

#[derive(Subcommand)]
pub enum HwCommand {
    /// Run the fold instances and whole-warp shfl cases on the GPU, through
    /// the CUDA driver, and compare each result with the model (exit 1 when
    /// one disagrees).
    Run {
        /// Random, edge-biased samples per variant (as `vendor fold`).
        #[arg(long, default_value_t = 16)]
        samples: usize,
        /// The audit report whose witnesses are instances.
        /// (Default: the report built into ptxcheck.)
        #[arg(long, value_name = "FILE")]
        audit: Option<PathBuf>,
        /// Write the results file (what `hw compare` reads) here.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Sweep variants on the GPU: every input of those with at most 32
    /// input bits, boundary inputs, witnesses and a seeded sample of the
    /// others, a grid of cases for shfl; each result compared with the model
    /// on all cores (exit 1 when one disagrees).
    Sweep {
        #[arg(default_values_t = vec!["all".to_string()])]
        targets: Vec<String>,
        /// The uniform sample per variant that is not swept exhaustively.
        #[arg(long, default_value_t = 1 << 24)]
        samples: u64,
        /// The sample's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only the variants swept exhaustively (`exhaustive`), or only the
        /// others (`sampled`).
        #[arg(long, value_enum)]
        only: Option<SweepMode>,
        /// The audit report whose witnesses are boundary inputs.
        /// (Default: the report built into ptxcheck.)
        #[arg(long, value_name = "FILE")]
        audit: Option<PathBuf>,
        /// Write the record (counts, digests, examples; JSON) here.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Threads comparing results (default: one per CPU).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Write the PTX modules `hw run` runs (for reading, or other tools).
    Emit {
        dir: PathBuf,
        /// Random, edge-biased samples per variant (as `vendor fold`).
        #[arg(long, default_value_t = 16)]
        samples: usize,
        /// The audit report whose witnesses are instances.
        /// (Default: the report built into ptxcheck.)
        #[arg(long, value_name = "FILE")]
        audit: Option<PathBuf>,
    },
    /// Compare a results file (from `hw run --output`) with the model.
    Compare {
        results: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// The model to compare with: `spec`, or `sm_90` (the H100's rules).
        #[arg(long, default_value = "spec", value_parser = super::model, value_name = "MODEL")]
        model: Model,
    },
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    match args.command {
        HwCommand::Run { samples, audit, output, format } => {
            run_on_gpu(samples, audit.as_deref(), output.as_deref(), format, out)
        }
        HwCommand::Emit { dir, samples, audit } => emit(&dir, samples, audit.as_deref(), out),
        HwCommand::Sweep { targets, samples, seed, only, audit, output, jobs } => {
            let pool = thread_pool(jobs)?;
            sweep(&pool, &targets, samples, seed, only, audit.as_deref(), output.as_deref(), out)
        }
        HwCommand::Compare { results, format, model } => compare(&results, format, model, out),
    }
}

/// The program `hw run` runs and `hw emit` writes.
fn program(samples: usize, audit: Option<&Path>) -> Result<hw::Program, Error> {
    // The hardware runs the instances of `vendor fold`.
    Ok(hw::Program::new(&fold_instances(audit, samples, &thread_pool(None)?)?, &hw::shfl_cases()))
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SweepMode {
    Exhaustive,
    Sampled,
}

/// `hw sweep`.
#[allow(clippy::too_many_arguments)]
fn sweep(
    pool: &rayon::ThreadPool,
    targets: &[String],
    samples: u64,
    seed: u64,
    only: Option<SweepMode>,
    audit: Option<&Path>,
    output: Option<&Path>,
    out: &mut dyn Write,
) -> Result<ExitCode, Error> {
    let output = output.map(Output::file).transpose()?;
    let variants: Vec<Variant> = select(targets)?
        .into_iter()
        .filter(|v| match only {
            None => true,
            Some(SweepMode::Exhaustive) => !v.is_warp_wide() && sweep::exhaustive(v),
            Some(SweepMode::Sampled) => v.is_warp_wide() || !sweep::exhaustive(v),
        })
        .collect();
    if variants.is_empty() {
        return Err(Error::usage("no selected variant is swept that way"));
    }
    let gpu = Gpu::open()?;
    let witnesses = fold_instances(audit, 0, pool)?;
    writeln!(out, "sweeping {} variants on {}", variants.len(), gpu.info.line())?;
    let mut record = sweep::Record {
        schema: sweep::SCHEMA,
        ptxcheck: env!("CARGO_PKG_VERSION").to_string(),
        device: gpu.info.clone(),
        date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        seed,
        samples,
        variants: Vec::new(),
    };
    let show = |out: &mut dyn Write, s: &sweep::VariantSweep| -> Result<(), Error> {
        let mode = match s.mode {
            sweep::Mode::Exhaustive => "every input",
            sweep::Mode::Sampled => "sampled",
        };
        writeln!(
            out,
            "{:<28} {:<11} {:>11} inputs: {:>11} agree, {:>9} disagree, {:>11} hardware picks; sm_90: {} disagree, {} picks ({:.1} s)",
            s.variant,
            mode,
            s.inputs,
            s.spec.agree,
            s.spec.disagree,
            s.spec.picks,
            s.sm_90.disagree,
            s.sm_90.picks,
            s.seconds
        )?;
        Ok(out.flush()?)
    };
    // The record is written again after each variant: a long sweep that
    // is stopped keeps what it has measured.
    let save = |record: &sweep::Record| -> Result<(), Error> {
        if let Some(output) = &output {
            let text = serde_json::to_string_pretty(record).map_err(|e| Error::Tool(e.to_string()))? + "\n";
            output.write(&[&text])?;
        }
        Ok(())
    };
    for v in variants.iter().filter(|v| !v.is_warp_wide()) {
        let s = sweep::sweep(&gpu, pool, v, &witnesses, samples, seed)?;
        show(out, &s)?;
        record.variants.push(s);
        save(&record)?;
    }
    if variants.iter().any(Variant::is_warp_wide) {
        for s in sweep::sweep_shfl(&gpu, seed)? {
            if variants.iter().any(|v| v.to_string() == s.variant) {
                show(out, &s)?;
                record.variants.push(s);
            }
        }
        save(&record)?;
    }
    let total = |f: fn(&sweep::Tally) -> u64| record.variants.iter().map(|s| f(&s.spec)).sum::<u64>();
    let (agree, disagree, picks) = (total(|t| t.agree), total(|t| t.disagree), total(|t| t.picks));
    writeln!(
        out,
        "{} results: {agree} agree, {disagree} disagree, {picks} hardware picks (model unspecified)",
        agree + disagree + picks
    )?;
    let vendor = |f: fn(&sweep::Tally) -> u64| record.variants.iter().map(|s| f(&s.sm_90)).sum::<u64>();
    writeln!(
        out,
        "against sm_90: {} agree, {} disagree, {} picks left",
        vendor(|t| t.agree),
        vendor(|t| t.disagree),
        vendor(|t| t.picks)
    )?;
    if disagree > 0 {
        writeln!(out, "{disagree} results contradict the model: exit status 1.")?;
    }
    Ok(status(disagree == 0))
}

/// The names of the modules `hw emit` writes, in the order it writes them.
const FILES: [&str; 3] = ["ptxcheck_hw.ptx", "ptxcheck_hw_shfl.ptx", "ptxcheck_sweep.ptx"];

/// `hw emit`: the program's PTX modules, and one with every variant's sweep
/// kernel, for reading or for other tools (`hw run` and `hw sweep` make and
/// run them themselves).
fn emit(dir: &Path, samples: usize, audit: Option<&Path>, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let output = Output::in_dir(dir, &FILES)?;
    let program = program(samples, audit)?;
    output.write(&[&program.ptx, &program.shfl_ptx, &sweep::module()])?;
    let files = FILES.len();
    writeln!(
        out,
        "wrote {files} PTX modules to {} ({} cases; `ptxcheck hw run` runs them on a GPU)",
        dir.display(),
        program.cases.len()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `hw run`: the results file's text, written where asked, then compared.
fn run_on_gpu(
    samples: usize,
    audit: Option<&Path>,
    output: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> Result<ExitCode, Error> {
    let output = output.map(Output::file).transpose()?;
    // The driver first: without one, nothing else is worth computing.
    let gpu = Gpu::open()?;
    let program = program(samples, audit)?;
    let lines = program.run(&gpu)?;
    let text = format!(
        "# ptxcheck hw results: `ptxcheck hw compare` reads this file\n# device: {}\n{}\n",
        gpu.info.line(),
        lines.join("\n")
    );
    if let Some(output) = &output {
        output.write(&[&text])?;
    }
    if format == Format::Table {
        writeln!(out, "ran {} results on {}", lines.len(), gpu.info.line())?;
    }
    let rows = hw::compare(&text).map_err(Error::Tool)?;
    show(&rows, format, out)
}

/// `hw compare`: exit 1 when the hardware and the model disagree.
fn compare(results: &Path, format: Format, model: Model, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let text =
        std::fs::read_to_string(results).map_err(|e| Error::file(format!("cannot read {}", results.display()), e))?;
    let rows = hw::compare_in(&text, model).map_err(Error::usage)?;
    if rows.is_empty() {
        return Err(Error::usage(format!("{} holds no results: nothing to compare", results.display())));
    }
    show(&rows, format, out)
}

/// The compared results, as a table or JSON; exit 1 when one disagrees.
fn show(rows: &[hw::Compared], format: Format, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let count = |v: &str| rows.iter().filter(|r| r.verdict == v).count();
    match format {
        Format::Json => {
            let rows: Vec<_> = rows
                .iter()
                .map(|r| json!({"line": r.line, "case": r.label, "hardware": r.hardware, "model": r.model, "verdict": r.verdict}))
                .collect();
            writeln!(out, "{:#}", json!({"results": rows}))?;
        }
        Format::Table => {
            // The hardware's picks, a line per instruction (there are
            // hundreds), then every disagreement, which decides the exit
            // status, in sight above the counts.
            let mut picks: Vec<(String, usize, &hw::Compared)> = Vec::new();
            for r in rows.iter().filter(|r| r.verdict == "hardware picks") {
                let key = r.instruction();
                match picks.iter_mut().find(|(k, _, _)| *k == key) {
                    Some(p) => p.1 += 1,
                    None => picks.push((key, 1, r)),
                }
            }
            for (key, n, r) in &picks {
                let results = if *n == 1 { "result" } else { "results" };
                writeln!(
                    out,
                    "hardware picks: {key}: {n} {results}, first line {}: {} -> hardware {}, model {}",
                    r.line, r.label, r.hardware, r.model
                )?;
            }
            for r in rows.iter().filter(|r| r.verdict == "disagree") {
                writeln!(out, "line {}: {} -> hardware {}, model {}: disagree", r.line, r.label, r.hardware, r.model)?;
            }
            writeln!(
                out,
                "{} results: {} agree, {} disagree, {} hardware picks (model unspecified)",
                rows.len(),
                count("agree"),
                count("disagree"),
                count("hardware picks")
            )?;
            // A value the model leaves open is the hardware's to pick: only a
            // contradiction fails.
            let disagree = count("disagree");
            if disagree > 0 {
                let results = if disagree == 1 { "result contradicts" } else { "results contradict" };
                writeln!(out, "{disagree} {results} the model (the `disagree` lines above): exit status 1.")?;
            }
        }
    }
    Ok(status(count("disagree") == 0))
}
