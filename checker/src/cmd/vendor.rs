//! `ptxcheck vendor`: NVIDIA's assembler as ground truth. `syntax` runs every
//! catalogue variant and spec example through ptxas; `fold` reads back the
//! values ptxas folds from instructions on constants. Each compares with
//! the model, prints a table or the report's JSON, and can write or check
//! the report file under `reports/vendor/`.
//!
//! Exit status: 0 when ptxas and ptxcheck agree everywhere, 1 when they
//! disagree somewhere (a finding), or with --check when the committed
//! report is stale.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use super::{thread_pool, Format};
use crate::error::Error;
use crate::oracle::ptxas::{find_cuobjdump, find_ptxas, version, Tool};
use crate::oracle::record::{
    self, AuditWitnesses, FoldCounts, FoldHead, FoldRecord, SyntaxCounts, SyntaxHead, SyntaxRecord, ToolRecord,
};
use crate::oracle::{boundary, defects, fold, negative, syntax};
use crate::output::Output;
use ptx_smt::solver::Backend;
use ptx_spec::catalogue::Variant;

/// The arguments of `ptxcheck vendor`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: VendorCommand,
}

#[derive(clap::Args)]
pub struct Common {
    /// The ptxas to run (default: ptxas on PATH, else the nvidia-cuda-nvcc-cu12 wheel's).
    #[arg(long, value_name = "PATH")]
    ptxas: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write the result to the report file under reports/vendor/.
    #[arg(long)]
    write: bool,
    /// Write nothing; exit 1 if the committed report file differs from this run's.
    #[arg(long, conflicts_with = "write")]
    check: bool,
    /// The reports' folder.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    dir: PathBuf,
}

#[derive(Subcommand)]
pub enum VendorCommand {
    /// Assemble every catalogue variant and every example instruction of the
    /// spec with ptxas and compare with ptxcheck's parser and Syntax blocks.
    Syntax {
        #[command(flatten)]
        common: Common,
    },
    /// Assemble instructions on constants with ptxas -O3, read the folded
    /// values back from the SASS, and compare them with the model.
    Fold {
        #[command(flatten)]
        common: Common,
        /// The cuobjdump to run (default: on PATH, else the nvidia-cuda-cuobjdump wheel's).
        #[arg(long, value_name = "PATH")]
        cuobjdump: Option<PathBuf>,
        /// Random, edge-biased samples per variant.
        #[arg(long, default_value_t = 16)]
        samples: usize,
    },
    /// ptxas's miscompilations: every folded value of the committed
    /// ptxas-fold.json that the H100 contradicts, each assembled again as
    /// a reproducer with every ptxas given (repeat --ptxas), to say which
    /// versions fold it wrong.
    Defects {
        /// A ptxas to check, repeated for each version (default: the one
        /// `vendor fold` runs).
        #[arg(long = "ptxas", value_name = "PATH")]
        ptxas: Vec<PathBuf>,
        /// The cuobjdump to run (default: on PATH, else the nvidia-cuda-cuobjdump wheel's).
        #[arg(long, value_name = "PATH")]
        cuobjdump: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Write the result to reports/vendor/ptxas-defects.json.
        #[arg(long)]
        write: bool,
        /// The reports' folder.
        #[arg(long, default_value = "reports", value_name = "DIR")]
        dir: PathBuf,
    },
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    match args.command {
        VendorCommand::Syntax { common } => run_syntax(&common, out),
        VendorCommand::Fold { common, cuobjdump, samples } => run_fold(&common, cuobjdump.as_deref(), samples, out),
        VendorCommand::Defects { ptxas, cuobjdump, format, write, dir } => {
            run_defects(&ptxas, cuobjdump.as_deref(), format, write, &dir, out)
        }
    }
}

impl Common {
    /// With --write, the report file `file` under the reports' folder,
    /// checked before ptxas runs.
    fn output(&self, file: &str) -> Result<Option<Output>, Error> {
        self.write.then(|| Output::in_dir(&self.dir.join("vendor"), &[file])).transpose()
    }
}

/// `vendor syntax`.
fn run_syntax(common: &Common, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let output = common.output("ptxas-syntax.json")?;
    let ptxas = find_ptxas(common.ptxas.as_deref())?;
    let cases = syntax::cases();
    let rows = syntax::run(&ptxas, &cases)?;
    let count = |f: &dyn Fn(&syntax::Row) -> bool| syntax::count(&rows, f);
    let counts = SyntaxCounts {
        variants: count(&|r| r.kind == "variant"),
        variants_accepted: count(&|r| r.kind == "variant" && r.ptxas == "accepted"),
        removed_rejected: count(&|r| r.kind == "variant-removed" && r.ptxas == "rejected"),
        examples: count(&|r| r.kind == "example"),
        examples_accepted: count(&|r| r.kind == "example" && r.ptxas == "accepted"),
        negative: count(&|r| negative::KINDS.contains(&r.kind.as_str())),
        negative_rejected: count(&|r| negative::KINDS.contains(&r.kind.as_str()) && r.ptxas == "rejected"),
        negative_accepted: count(&|r| negative::KINDS.contains(&r.kind.as_str()) && r.ptxas == "accepted"),
        positive_rejected: count(&|r| {
            r.kind != syntax::RANGE_EDGE
                && (r.kind == "variant" || r.catalogue == Some(true) || r.syntax_block == Some(true))
                && r.ptxas == "rejected"
        }),
        range_edges: count(&|r| r.kind == syntax::RANGE_EDGE),
        range_edges_disagree: count(&|r| r.kind == syntax::RANGE_EDGE && r.verdict == "disagree"),
        agree: count(&|r| r.verdict == "agree"),
        disagree: count(&|r| r.verdict == "disagree"),
        out_of_scope: count(&|r| r.verdict == "out of scope"),
    };
    let record = SyntaxRecord {
        head: SyntaxHead { ptxas: tool_record(&ptxas, "ptxas")?, arch: syntax::ARCH.into(), counts },
        cases: rows,
    };
    let text = record::lines_json(&record.head, "cases", &record.cases);
    let (rows, counts) = (&record.cases, &record.head.counts);
    match common.format {
        Format::Json => out.write_all(text.as_bytes())?,
        Format::Table => syntax_table(out, rows, counts)?,
    }
    let current = write_or_check(out, common, output, "ptxas-syntax.json", &text)?;
    let disagree = counts.disagree;
    exit_status(out, common, current, disagree)
}

/// `vendor fold`.
fn run_fold(common: &Common, cuobjdump: Option<&Path>, samples: usize, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let output = common.output("ptxas-fold.json")?;
    let ptxas = find_ptxas(common.ptxas.as_deref())?;
    let cuobjdump = find_cuobjdump(cuobjdump)?;
    // The report being checked, where there is one; else the built-in one.
    let report = common.dir.join("ptxcheck.json");
    let audit = report.is_file().then_some(report.as_path());
    let recorded: Option<FoldRecord> = record::read(&common.dir.join("vendor").join("ptxas-fold.json"))?;
    let stand_in = recorded.as_ref().map(recorded_boundaries).unwrap_or_default();
    let instances = fold_instances_with(audit, samples, &thread_pool(None)?, &stand_in)?;
    let rows = fold::run(&ptxas, &cuobjdump, &instances)?;
    let counts = FoldCounts::of(&rows);
    let record = FoldRecord {
        head: FoldHead {
            ptxas: tool_record(&ptxas, "ptxas")?,
            cuobjdump: tool_record(&cuobjdump, "cuobjdump")?,
            setting: "ptxas -O3 -arch=sm_90, PTX 8.8".into(),
            samples_per_variant: samples,
            counts,
        },
        instances: rows,
    };
    let text = record::lines_json(&record.head, "instances", &record.instances);
    let (rows, counts) = (&record.instances, &record.head.counts);
    match common.format {
        Format::Json => out.write_all(text.as_bytes())?,
        Format::Table => fold_table(out, rows, counts)?,
    }
    let current = write_or_check(out, common, output, "ptxas-fold.json", &text)?;
    let disagree = counts.disagree;
    exit_status(out, common, current, disagree)
}

/// The fold instances: the witnesses of the audit report `audit`, the
/// claims, `samples` samples per variant, the inputs on either side of
/// every case boundary of the model (found by the solver on `pool`), and
/// every probe of the readings (an input on which two readings of a
/// passage differ, from each comparison of the audit), without repeats.
pub fn fold_instances(
    audit: Option<&Path>,
    samples: usize,
    pool: &rayon::ThreadPool,
) -> Result<Vec<fold::Instance>, Error> {
    fold_instances_with(audit, samples, pool, &[])
}

/// [`fold_instances`], with `stand_in` (the case-boundary inputs of a
/// record written earlier) taken in where the solver leaves a boundary
/// search open: what the record holds then depends on the inputs, not on
/// how loaded the machine was.
fn fold_instances_with(
    audit: Option<&Path>,
    samples: usize,
    pool: &rayon::ThreadPool,
    stand_in: &[fold::Instance],
) -> Result<Vec<fold::Instance>, Error> {
    let report = read_witnesses(audit)?;
    let mut all = fold::instances(&report, samples);
    all.extend(case_boundaries(pool, stand_in)?);
    all.extend(fold::probe_instances(&report));
    fold::unique(&mut all);
    Ok(all)
}

/// `vendor defects`.
fn run_defects(
    ptxas: &[PathBuf],
    cuobjdump: Option<&Path>,
    format: Format,
    write: bool,
    dir: &Path,
    out: &mut dyn Write,
) -> Result<ExitCode, Error> {
    let target = dir.join("vendor").join(defects::FILE);
    let output = if write { Some(Output::in_dir(&dir.join("vendor"), &[defects::FILE])?) } else { None };
    let fold_path = dir.join("vendor").join("ptxas-fold.json");
    let fold: FoldRecord = record::read(&fold_path)?
        .ok_or_else(|| Error::usage(format!("cannot read {}: no such file", fold_path.display())))?;
    let results: Vec<(&str, String)> = crate::sm_90_report::RESULTS
        .iter()
        .filter_map(|name| Some((*name, std::fs::read_to_string(dir.join(name)).ok()?)))
        .collect();
    let found = defects::find(&fold.instances, &results).map_err(Error::usage)?;
    let tools = if ptxas.is_empty() {
        vec![find_ptxas(None)?]
    } else {
        ptxas.iter().map(|p| find_ptxas(Some(p))).collect::<Result<_, _>>()?
    };
    let cuobjdump = find_cuobjdump(cuobjdump)?;
    let instances: Vec<fold::Instance> = found.iter().filter_map(defects::instance).collect();
    let mut by_ptxas: Vec<Vec<String>> = vec![Vec::new(); found.len()];
    let mut records = Vec::new();
    for tool in &tools {
        records.push(tool_record(tool, "ptxas")?);
        for (i, row) in fold::run(tool, &cuobjdump, &instances)?.iter().enumerate() {
            by_ptxas[i].push(defects::folded_text(row));
        }
    }
    let record = defects::DefectsRecord {
        head: defects::DefectsHead { ptxas: records, setting: "ptxas -O3 -arch=sm_90, PTX 8.8".into() },
        defects: found
            .into_iter()
            .zip(by_ptxas)
            .map(|(defect, by_ptxas)| defects::DefectRow { defect, by_ptxas })
            .collect(),
    };
    let text = record::lines_json(&record.head, "defects", &record.defects);
    match format {
        Format::Json => out.write_all(text.as_bytes())?,
        Format::Table => {
            for d in &record.defects {
                writeln!(
                    out,
                    "{} {}: H100 {} ({}); folded: {}",
                    d.defect.variant,
                    d.defect.inputs.join(" "),
                    d.defect.hardware.join(" "),
                    d.defect.evidence,
                    record
                        .head
                        .ptxas
                        .iter()
                        .zip(&d.by_ptxas)
                        .map(|(t, f)| format!("{} {f}", t.release))
                        .collect::<Vec<_>>()
                        .join("; ")
                )?;
            }
            writeln!(out, "{} inputs where ptxas's constant folding and the H100 differ", record.defects.len())?;
        }
    }
    if let Some(output) = output {
        output.write(&[&text])?;
        writeln!(out, "wrote {}", target.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The audit's witnesses in the report `audit` (a `ptxcheck.json`), or
/// without one, in the report built into ptxcheck.
pub fn read_witnesses(audit: Option<&Path>) -> Result<AuditWitnesses, Error> {
    match audit {
        Some(path) => {
            record::read(path)?.ok_or_else(|| Error::usage(format!("cannot read {}: no such file", path.display())))
        }
        None => record::built_in_witnesses(),
    }
}

/// The inputs on either side of every case boundary of the model, with a
/// line on stderr saying how many there are (and any search left open).
/// Where the solver leaves a search open, `stand_in` is taken in too: the
/// boundary inputs of the record written earlier, which a search that
/// finishes finds again.
fn case_boundaries(pool: &rayon::ThreadPool, stand_in: &[fold::Instance]) -> Result<Vec<fold::Instance>, Error> {
    let variants = Variant::all();
    let search = boundary::search(&variants, &Backend::Embedded, boundary::TIMEOUT, pool)?;
    let mut instances = boundary::instances(&search.found);
    let open = match (search.open, stand_in.len()) {
        (0, _) => String::new(),
        (n, 0) => format!("; {n} searches left open by the solver"),
        (n, k) => {
            instances.extend(stand_in.iter().cloned());
            boundary::once_each(&mut instances);
            format!("; {n} searches left open by the solver, and the {k} boundary inputs of the record written before taken in")
        }
    };
    eprintln!(
        "case boundaries of the model: {} in {} variants, {} inputs{open}",
        search.found.len(),
        variants.iter().filter(|v| search.found.iter().any(|b| b.variant == **v)).count(),
        instances.len()
    );
    Ok(instances)
}

/// The case-boundary inputs a fold record holds.
fn recorded_boundaries(record: &FoldRecord) -> Vec<fold::Instance> {
    record
        .instances
        .iter()
        .filter(|row| row.origin.starts_with(boundary::ORIGIN))
        .filter_map(|row| {
            let variant = Variant::from_mnemonic(&row.variant)?;
            let inputs: Option<Vec<u128>> = row.inputs.iter().map(|t| ptx_spec::bv::parse_hex(t)).collect();
            Some(fold::Instance { variant, inputs: inputs?, origin: row.origin.clone(), readings: None })
        })
        .collect()
}

/// The tool, with its release line and the wheel it came from.
fn tool_record(tool: &Tool, name: &'static str) -> Result<ToolRecord, Error> {
    Ok(ToolRecord { release: version(tool, name)?, wheel: tool.wheel.clone() })
}

/// Write `text` to `output` (with --write), or with --check compare it with
/// the report file `file`; true when current.
fn write_or_check(
    out: &mut dyn Write,
    common: &Common,
    output: Option<Output>,
    file: &str,
    text: &str,
) -> Result<bool, Error> {
    let path = common.dir.join("vendor").join(file);
    if common.check {
        let current = std::fs::read_to_string(&path).is_ok_and(|old| old == text);
        if current {
            writeln!(out, "{}: current", path.display())?;
        } else {
            writeln!(out, "stale: {} (rerun with --write and commit it)", path.display())?;
        }
        return Ok(current);
    }
    if let Some(output) = output {
        output.write(&[text])?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(true)
}

/// With --check, 1 only when the committed file is stale (its findings are
/// recorded there); otherwise 1 when ptxas and ptxcheck disagree.
fn exit_status(out: &mut dyn Write, common: &Common, current: bool, disagree: usize) -> Result<ExitCode, Error> {
    if common.check {
        // The stale file is named on the last line already.
        return Ok(ExitCode::from(u8::from(!current)));
    }
    if disagree > 0 {
        writeln!(out, "ptxas and ptxcheck disagree on {disagree} (the `disagree` rows above): exit status 1.")?;
    }
    Ok(ExitCode::from(u8::from(disagree > 0)))
}

fn syntax_table(out: &mut dyn Write, rows: &[syntax::Row], counts: &SyntaxCounts) -> io::Result<()> {
    let yn = |b: Option<bool>| b.map_or("-", |b| if b { "legal" } else { "illegal" });
    writeln!(
        out,
        "{:<16} {:<44} {:<12} {:<9} {:<9} {:<9} {:<12} ptxas's error",
        "kind", "instruction", "setting", "ptxas", "catalogue", "syntax", "verdict"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<16} {:<44} {:<12} {:<9} {:<9} {:<9} {:<12} {}",
            r.kind,
            r.instruction,
            format!("{} {}", r.ptx, r.target),
            r.ptxas,
            yn(r.catalogue),
            yn(r.syntax_block),
            r.verdict,
            r.error.as_deref().unwrap_or("")
        )?;
    }
    writeln!(
        out,
        "variants: {} of {} accepted; removed shfl forms rejected: {}; examples: {} of {} accepted; agree {}, disagree {}, out of scope {}",
        counts.variants_accepted, counts.variants, counts.removed_rejected, counts.examples_accepted,
        counts.examples, counts.agree, counts.disagree, counts.out_of_scope
    )?;
    writeln!(
        out,
        "forbidden neighbours (types and forms the text excludes, a version or target below its minimum): {}; rejected as the text says {}, accepted against the text {}; allowed forms rejected against the text {}",
        counts.negative, counts.negative_rejected, counts.negative_accepted, counts.positive_rejected
    )?;
    writeln!(
        out,
        "immediates just outside a stated operand range: {}; where ptxas answers otherwise than the text {}",
        counts.range_edges, counts.range_edges_disagree
    )?;
    Ok(())
}

fn fold_table(out: &mut dyn Write, rows: &[fold::Row], counts: &FoldCounts) -> io::Result<()> {
    writeln!(out, "{:<20} {:<40} {:<24} {:<24} {:<12} origin", "variant", "inputs", "model", "ptxas", "verdict")?;
    // Every row but the plain agreements of samples: those are counted.
    for r in rows.iter().filter(|r| r.verdict != "agree" || r.origin != "sample") {
        let mut origin = r.origin.clone();
        if let Some(m) = &r.matches {
            origin.push_str(&format!(" (matches: {})", if m.is_empty() { "none".into() } else { m.join(", ") }));
        }
        writeln!(
            out,
            "{:<20} {:<40} {:<24} {:<24} {:<12} {}",
            r.variant,
            r.inputs.join(" "),
            r.model.join(" "),
            r.vendor.join(" "),
            r.verdict,
            origin
        )?;
    }
    writeln!(
        out,
        "{} instances: {} agree, {} disagree, {} vendor picks (model unspecified), {} not folded, {} rejected",
        counts.instances, counts.agree, counts.disagree, counts.vendor_picks, counts.not_folded, counts.rejected
    )?;
    Ok(())
}
