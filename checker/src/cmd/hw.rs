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
use super::{status, Format};
use crate::error::Error;
use crate::oracle::hw;
use crate::output::Output;

/// The arguments of `ptxcheck hw`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: HwCommand,
}

#[derive(Subcommand)]
pub enum HwCommand {
    /// Write a program that runs the fold instances and whole-warp shfl
    /// cases on a GPU (PTX kernels, a C++ host, a Makefile).
    Emit {
        dir: PathBuf,
        /// Random, edge-biased samples per variant (as `vendor fold`).
        #[arg(long, default_value_t = 16)]
        samples: usize,
        /// The audit report whose witnesses are instances.
        #[arg(long, default_value = "reports/ptxcheck.json", value_name = "FILE")]
        audit: PathBuf,
    },
    /// Compare the program's results file with the model.
    Compare {
        results: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    match args.command {
        HwCommand::Emit { dir, samples, audit } => emit(&dir, samples, &audit, out),
        HwCommand::Compare { results, format } => compare(&results, format, out),
    }
}

/// `hw emit`.
fn emit(dir: &Path, samples: usize, audit: &Path, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let output = Output::in_dir(dir, &hw::FILES)?;
    let instances = fold_instances(audit, samples)?;
    let shfl = hw::shfl_cases();
    let files = hw::emit(&output, &instances, &shfl)?;
    writeln!(
        out,
        "wrote {files} files to {} ({} instances, {} shfl cases); build and run there with `make results.txt`, then `ptxcheck hw compare {}/results.txt`",
        dir.display(),
        instances.len(),
        shfl.len(),
        dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `hw compare`: exit 1 when the hardware and the model disagree.
fn compare(results: &Path, format: Format, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let text =
        std::fs::read_to_string(results).map_err(|e| Error::file(format!("cannot read {}", results.display()), e))?;
    let rows = hw::compare(&text).map_err(Error::usage)?;
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
            // The hardware's picks first: there are many, and the
            // disagreements, which decide the exit status, stay in sight
            // above the counts.
            for verdict in ["hardware picks", "disagree"] {
                for r in rows.iter().filter(|r| r.verdict == verdict) {
                    writeln!(
                        out,
                        "line {}: {} -> hardware {}, model {}: {}",
                        r.line, r.label, r.hardware, r.model, r.verdict
                    )?;
                }
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
