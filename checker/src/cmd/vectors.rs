//! `ptxcheck vectors`: write the conformance suite (JSON Lines, CSV and a
//! self-checking PTX module per variant), or, with `--kill-rate`, measure
//! how many of the mutants of `ptxcheck mutants` the suite's vectors catch.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use ptx_spec::catalogue::Variant;
use rayon::prelude::*;

use super::render::{note, seconds, Table, Width, WidthArgs};
use super::{select, status, Setup};
use crate::error::Error;
use crate::oracle::{boundary, fold};
use crate::output::Output;
use crate::vectors::kill::{self, Kills};
use crate::vectors::{self, files, ptx, Reason, Size, Vector};
use ptx_smt::solver::Backend;

/// The arguments of `ptxcheck vectors`.
#[derive(clap::Args)]
pub struct Args {
    /// `all`, an instruction or a variant.
    #[arg(default_values_t = vec!["all".to_string()])]
    targets: Vec<String>,
    /// The folder to write the suite into (`vectors.jsonl`, `vectors.csv`,
    /// and `VARIANT.ptx` for every variant but the shuffles', whose vectors
    /// run as whole warps).
    #[arg(long, value_name = "DIR", required_unless_present = "kill_rate")]
    output: Option<PathBuf>,
    /// The seeded uniform sample per variant.
    #[arg(long, default_value_t = vectors::DEFAULT_SAMPLES, value_name = "N")]
    samples: u64,
    /// The sample's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Every boundary input (the whole cross product of the operands' edge
    /// values), not a seeded subset of them; every lane of every shfl case.
    #[arg(long)]
    exhaustive: bool,
    /// The audit report whose findings' witnesses and readings' probes are
    /// vectors.
    /// (Default: the report built into ptxcheck, so that the suite is made
    /// from any folder.)
    #[arg(long, value_name = "FILE")]
    audit: Option<PathBuf>,
    /// Run every mutant of `ptxcheck mutants` on the suite's vectors and
    /// print the share killed per instruction (exit 1 when one is missed);
    /// survivors are settled by the solver.
    #[arg(long)]
    kill_rate: bool,
    /// Time limit for each solver query of --kill-rate, in seconds.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    timeout: f64,
    /// Threads (default: one per CPU).
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    width: WidthArgs,
}

/// The audit's witnesses, the claims' worked values and the inputs on
/// either side of each case boundary of `variants` (found by the solver on
/// `pool`), with reasons.
pub fn witnesses(
    audit: Option<&Path>,
    variants: &[Variant],
    pool: &rayon::ThreadPool,
) -> Result<Vec<(Variant, Vec<u128>, Reason)>, Error> {
    let report = super::vendor::read_witnesses(audit)?;
    let findings = fold::audit_instances(&report);
    let probes = fold::probe_instances(&report);
    let mut all = vectors::witnesses(&findings, &probes, &fold::claim_instances());
    let search = boundary::search(variants, &Backend::Embedded, boundary::TIMEOUT, pool)?;
    for b in &search.found {
        let operand = b.variant.inputs()[b.operand].name.to_string();
        for (inputs, place) in b.inputs() {
            all.push((b.variant, inputs, Reason::Case { operand: operand.clone(), place: place.into() }));
        }
    }
    Ok(all)
}

/// The suite for `variants`, in catalogue order, on the current pool.
pub fn suite(variants: &[Variant], witnesses: &[(Variant, Vec<u128>, Reason)], size: Size) -> Vec<Vector> {
    variants.par_iter().flat_map_iter(|v| vectors::generate(v, witnesses, size)).collect()
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let variants = select(&args.targets)?;
    let size = Size { samples: args.samples, seed: args.seed, exhaustive: args.exhaustive };
    let modules: Vec<String> = variants.iter().filter(|v| ptx::has_kernel(v)).map(ptx::file_name).collect();
    let output = match &args.output {
        Some(dir) => {
            let mut names = vec![files::JSONL, files::CSV];
            names.extend(modules.iter().map(String::as_str));
            Some(Output::in_dir(dir, &names)?)
        }
        None => None,
    };
    let setup = Setup::with("embedded", args.timeout, args.jobs)?;
    let start = Instant::now();
    let witnesses = witnesses(args.audit.as_deref(), &variants, &setup.pool)?;
    let suite = setup.install(|| suite(&variants, &witnesses, size))?;
    if let (Some(output), Some(dir)) = (&output, &args.output) {
        let (jsonl, csv, ptx) = setup.install(|| {
            let (jsonl, (csv, ptx)) = rayon::join(
                || files::jsonl(&suite),
                || rayon::join(|| files::csv(&suite), || modules_text(&variants, &suite)),
            );
            (jsonl, csv, ptx)
        })?;
        let mut texts: Vec<&str> = vec![&jsonl, &csv];
        texts.extend(ptx.iter().map(String::as_str));
        output.write(&texts)?;
        writeln!(
            out,
            "{} vectors of {} variants written to {} ({} and {}, {} PTX modules) in {}",
            suite.len(),
            variants.len(),
            dir.display(),
            files::JSONL,
            files::CSV,
            modules.len(),
            seconds(start.elapsed())
        )?;
        let by_reason = |f: fn(&Reason) -> bool| suite.iter().filter(|v| f(&v.reason)).count();
        writeln!(
            out,
            "reasons: {} finding witnesses, {} reading probes, {} claims, {} case boundaries, {} boundary, {} exhaustive, {} random",
            by_reason(|r| matches!(r, Reason::Finding { .. })),
            by_reason(|r| matches!(r, Reason::Reading { .. })),
            by_reason(|r| matches!(r, Reason::Claim { .. })),
            by_reason(|r| matches!(r, Reason::Case { .. })),
            by_reason(|r| matches!(r, Reason::Boundary { .. })),
            by_reason(|r| matches!(r, Reason::Exhaustive)),
            by_reason(|r| matches!(r, Reason::Random { .. })),
        )?;
    }
    if !args.kill_rate {
        return Ok(ExitCode::SUCCESS);
    }
    let kills = setup.run_all(&variants, |v| {
        let mine: Vec<&Vector> = suite.iter().filter(|x| x.variant == *v).collect();
        kill::kill(v, &mine, &setup.backend, setup.timeout)
    })?;
    let kills: Vec<(Variant, Kills)> =
        variants.iter().copied().zip(kills).map(|(v, k)| k.map(|k| (v, k))).collect::<Result<_, _>>()?;
    show_kills(out, &kills, args.width.resolve())?;
    Ok(status(kills.iter().all(|(_, k)| k.missed.is_empty())))
}

/// Every variant's module, in the order of `variants` (shfl's left out).
fn modules_text(variants: &[Variant], suite: &[Vector]) -> Vec<String> {
    let numbered: Vec<(usize, &Vector)> = suite.iter().enumerate().collect();
    variants
        .par_iter()
        .filter(|v| ptx::has_kernel(v))
        .map(|v| {
            let mine: Vec<(usize, &Vector)> = numbered.iter().filter(|(_, x)| x.variant == *v).copied().collect();
            ptx::module(v, &mine)
        })
        .collect()
}

/// The kill rates: a row per instruction, a total per section, then every
/// mutant missed or unsettled with its reason.
fn show_kills(out: &mut dyn Write, kills: &[(Variant, Kills)], width: Width) -> Result<(), Error> {
    let mut rows = Vec::new();
    let mut opcodes: Vec<&str> = Vec::new();
    for (v, _) in kills {
        if !opcodes.contains(&v.opcode()) {
            opcodes.push(v.opcode());
        }
    }
    let sum = |of: &[&Kills]| {
        of.iter().fold(Kills::default(), |mut a, k| {
            a.mutants += k.mutants;
            a.killed += k.killed;
            a.equivalent += k.equivalent;
            a.missed.extend(k.missed.iter().cloned());
            a.unsettled.extend(k.unsettled.iter().cloned());
            a
        })
    };
    let row = |name: String, variants: usize, k: &Kills| {
        vec![
            name,
            variants.to_string(),
            k.mutants.to_string(),
            k.killed.to_string(),
            k.equivalent.to_string(),
            k.missed.len().to_string(),
            k.unsettled.len().to_string(),
            format!("{:.1}%", 100.0 * k.rate()),
        ]
    };
    for op in &opcodes {
        let mine: Vec<&Kills> = kills.iter().filter(|(v, _)| v.opcode() == *op).map(|(_, k)| k).collect();
        rows.push(row(op.to_string(), mine.len(), &sum(&mine)));
    }
    let mut sections: Vec<&str> = Vec::new();
    for (v, _) in kills {
        let s = section_of(v.section());
        if !sections.contains(&s) {
            sections.push(s);
        }
    }
    for s in &sections {
        let mine: Vec<&Kills> = kills.iter().filter(|(v, _)| section_of(v.section()) == *s).map(|(_, k)| k).collect();
        rows.push(row(format!("all of {s}"), mine.len(), &sum(&mine)));
    }
    let header = [
        "instruction",
        "variants",
        "mutants",
        "killed",
        "equivalent",
        "missed",
        "unsettled",
        "killed of non-equivalent",
    ];
    writeln!(out, "{}", Table::new(&header, rows).render(width))?;
    for (v, k) in kills {
        for (what, list) in [("missed", &k.missed), ("unsettled", &k.unsettled)] {
            for m in list {
                let side = match m.side {
                    crate::mutants::Side::Smt => "smt",
                    crate::mutants::Side::Concrete => "concrete",
                };
                note(out, width, "", "  ", &format!("{what}: {v} ({side}) {}: {}", m.fault, m.reason))?;
            }
        }
    }
    let total = sum(&kills.iter().map(|(_, k)| k).collect::<Vec<_>>());
    writeln!(
        out,
        "{} mutants: {} killed by the suite, {} equivalent where the spec defines the result, {} missed, {} unsettled",
        total.mutants,
        total.killed,
        total.equivalent,
        total.missed.len(),
        total.unsettled.len()
    )?;
    if !total.missed.is_empty() {
        writeln!(out, "{} mutants are missed by the suite: exit status 1.", total.missed.len())?;
    }
    Ok(())
}

/// `9.7.1` for `9.7.1.19`: the section of the instruction family.
fn section_of(section: &str) -> &str {
    let parts: Vec<&str> = section.splitn(4, '.').collect();
    if parts.len() >= 3 {
        &section[..parts[0].len() + parts[1].len() + parts[2].len() + 2]
    } else {
        section
    }
}
