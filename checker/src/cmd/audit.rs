//! `ptxcheck audit`: the audit of the spec text; its findings as a table,
//! one finding in full with its witness table, or JSON.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{json, Value};

use super::render::{register_text, table, wrap};
use super::{status, Format, Setup, SolverArgs};
use crate::audit::finding::{Finding, FindingKind, WitnessTable};
use crate::audit::Audit;
use crate::error::Error;

/// The arguments of `ptxcheck audit`.
#[derive(clap::Args)]
pub struct Args {
    /// Show one finding in full, with its witness table.
    #[arg(long)]
    id: Option<String>,
    #[command(flatten)]
    solver: SolverArgs,
}

/// The literal C audit's limit per query: a few of its comparisons are
/// beyond the solvers at any limit, so it waits at most 20 s on each (the
/// findings are the same with 3 s and with 30 s).
pub fn literal_timeout(timeout: Duration) -> Duration {
    timeout.min(Duration::from_secs(20))
}

/// The whole audit (exit 1 while a comparison is unsettled), or only the
/// check behind the finding --id names.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let setup = Setup::new(&args.solver)?;
    let (timeout, literal) = (setup.timeout, literal_timeout(setup.timeout));
    if let Some(id) = &args.id {
        // Only the check that can produce this finding runs.
        let found = setup.install(|| crate::audit::run_one(id, &setup.backend, timeout, literal))?;
        let unknown = || Error::usage(format!("unknown finding `{id}` (`ptxcheck audit` lists them)"));
        let f = found?.flatten().ok_or_else(unknown)?;
        match args.solver.format {
            Format::Table => finding_text(out, &f)?,
            Format::Json => writeln!(out, "{:#}", json!(f))?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let audit = setup.install(|| crate::audit::run(&setup.backend, timeout, literal))??;
    match args.solver.format {
        Format::Table => audit_text(out, &audit)?,
        Format::Json => writeln!(out, "{:#}", audit_json(&audit))?,
    }
    Ok(status(audit.settled()))
}

/// The audit's findings as a table, then counts by kind.
pub fn audit_text(out: &mut dyn Write, audit: &Audit) -> io::Result<()> {
    let rows = audit
        .findings
        .iter()
        .map(|f| {
            vec![
                f.id.clone(),
                f.section.clone(),
                f.kind.label().to_string(),
                f.severity.label().to_string(),
                wrap(&f.summary, 64),
            ]
        })
        .collect();
    writeln!(out, "{}", table(&["finding", "section", "kind", "severity", "summary"], rows))?;
    let counts: Vec<String> = FindingKind::ALL
        .iter()
        .map(|k| (k, audit.findings.iter().filter(|f| f.kind == *k).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {}", k.label()))
        .collect();
    writeln!(out, "\n{} findings: {}", audit.findings.len(), counts.join(", "))?;
    writeln!(out, "`ptxcheck audit --id ID` shows one in full, with its witness.")
}

/// One finding in full: the fragment, the account, the model's choice and
/// the witness table.
pub fn finding_text(out: &mut dyn Write, f: &Finding) -> io::Result<()> {
    writeln!(out, "{} ({}, {}, severity {})", f.id, f.section, f.kind.label(), f.severity.label())?;
    if !f.fragment.is_empty() {
        writeln!(out, "  spec: `{}`", f.fragment)?;
    }
    writeln!(out, "  {}", f.summary)?;
    for d in &f.detail {
        writeln!(out, "  - {}", d)?;
    }
    if let Some(m) = &f.model_choice {
        writeln!(out, "  model: {m}")?;
    }
    if let Some(w) = &f.witness {
        writeln!(out, "\nwitness ({}):", w.variant)?;
        witness_table(out, w)?;
    }
    Ok(())
}

/// Inputs, then one row per output with a column per reading; values in hex.
pub fn witness_table(out: &mut dyn Write, w: &WitnessTable) -> io::Result<()> {
    let ins: Vec<Vec<String>> = w.inputs.iter().map(|(n, v)| vec![n.clone(), v.hex()]).collect();
    if ins.is_empty() {
        writeln!(out, "every input 0")?;
    } else {
        writeln!(out, "{}", table(&["input", "value"], ins))?;
    }
    let mut header = vec!["output"];
    header.extend(w.columns.iter().map(String::as_str));
    let rows = w
        .rows
        .iter()
        .map(|(n, vs)| std::iter::once(n.clone()).chain(vs.iter().map(|v| register_text(*v))).collect())
        .collect();
    writeln!(out, "{}", table(&header, rows))
}

/// The audit for tools: every finding, and each passage's readings.
pub fn audit_json(audit: &Audit) -> Value {
    let passages: Vec<Value> = audit
        .passages
        .iter()
        .map(|p| {
            json!({
                "id": p.passage.id,
                "section": p.passage.section,
                "fragment": p.passage.fragment,
                "question": p.passage.question,
                "adopted": p.passage.adopted,
                "readings": p.readings,
                "comparisons": p.pairs,
            })
        })
        .collect();
    json!({ "findings": audit.findings, "passages": passages, "semantics_blocks_as_c": audit.literal })
}
