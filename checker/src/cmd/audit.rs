//! `ptxcheck audit`: the audit of the spec text; its findings as a table,
//! one finding in full with its witness table, or JSON.

use std::io::{self, Write};
use std::process::ExitCode;

use serde_json::json;

use super::render::{note, register_text, Table, Width, WidthArgs};
use super::{status, Format, Setup, SolverArgs};
use crate::audit::finding::{Finding, FindingKind, WitnessTable};
use crate::audit::literal::check::ReadFrom;
use crate::audit::text::document::Document;
use crate::audit::Audit;
use crate::error::Error;

/// The arguments of `ptxcheck audit`.
#[derive(clap::Args)]
pub struct Args {
    /// Show one finding in full, with its witness table.
    #[arg(long)]
    id: Option<String>,
    /// The spec text (files or directories) whose Semantics blocks are read
    /// as C, for the families read from the text; default
    /// PTXCHECK_SPEC_TEXT. Without one those blocks are listed as not read.
    #[arg(long, num_args = 1.., value_name = "PATH")]
    text: Vec<std::path::PathBuf>,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    width: WidthArgs,
}

/// The text --text (else PTXCHECK_SPEC_TEXT) names, read; `None` when
/// neither names one.
fn text_of(args: &Args) -> Result<Option<Document>, Error> {
    let paths = if args.text.is_empty() {
        std::env::var_os(super::report::SPEC_TEXT_VAR)
            .filter(|v| !v.is_empty())
            .map(|v| std::env::split_paths(&v).collect())
            .unwrap_or_default()
    } else {
        args.text.clone()
    };
    if paths.is_empty() {
        return Ok(None);
    }
    Ok(Some(crate::audit::text::document::read_by_file_name(&paths)?))
}

/// The whole audit, or only the check behind the finding --id names; exit
/// 1 while a comparison of what ran is unsettled.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let setup = Setup::new(&args.solver)?;
    let timeout = setup.timeout;
    let width = args.width.resolve();
    let text = text_of(&args)?;
    if let Some(id) = &args.id {
        let from_text = crate::audit::literal::check::read_from_text(id);
        if from_text && text.is_none() {
            return Err(Error::usage(format!(
                "`{id}` is found in the Semantics block of the spec text: give it with --text PATH (the seed copy: \
                 --text ../shared/seeds/) or in {}",
                super::report::SPEC_TEXT_VAR
            )));
        }
        // Only the check that can produce this finding runs.
        let found = setup.install(|| crate::audit::run_one(id, &setup.backend, timeout, text.as_ref()))?;
        let unknown = || Error::usage(format!("unknown finding `{id}` (`ptxcheck audit` lists them)"));
        let one = found?.ok_or_else(unknown)?;
        // A check that settles nothing may find nothing: that is not an
        // unknown id.
        if one.finding.is_none() && one.unresolved.is_empty() {
            return Err(unknown());
        }
        match (args.solver.format, &one.finding) {
            (Format::Table, Some(f)) => finding_text(out, width, f)?,
            (Format::Json, Some(f)) => writeln!(out, "{:#}", json!(f))?,
            (Format::Table, None) => writeln!(out, "{id}: not found by its check, which did not settle")?,
            (Format::Json, None) => writeln!(out, "null")?,
        }
        if args.solver.format == Format::Table {
            unresolved_text(out, width, &one.unresolved)?;
        }
        return Ok(status(one.unresolved.is_empty()));
    }
    let audit = setup.install(|| crate::audit::run(&setup.backend, timeout, text.as_ref()))??;
    match args.solver.format {
        Format::Table => audit_text(out, width, &audit)?,
        Format::Json => writeln!(out, "{:#}", json!(crate::report::data::AuditEntry::from(&audit)))?,
    }
    Ok(status(audit.settled()))
}

/// What the solver did not settle, and why that makes the exit status 1,
/// last; nothing when everything is settled.
pub fn unresolved_text(out: &mut dyn Write, width: Width, unresolved: &[String]) -> io::Result<()> {
    if unresolved.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    note(out, width, "", "", "Unresolved (the solver did not settle these: neither findings nor clean):")?;
    for u in unresolved {
        note(out, width, "  - ", "    ", u)?;
    }
    let n = unresolved.len();
    let what = if n == 1 { "comparison" } else { "comparisons" };
    let closing = format!("{n} {what} unresolved (listed above): the audit is incomplete, exit status 1.");
    note(out, width, "", "", &closing)
}

/// The audit's findings as a table, then counts by kind, then what is
/// unresolved.
pub fn audit_text(out: &mut dyn Write, width: Width, audit: &Audit) -> io::Result<()> {
    let rows = audit
        .findings
        .iter()
        .map(|f| {
            vec![
                f.id.clone(),
                f.section.clone(),
                f.kind.label().to_string(),
                f.severity.label().to_string(),
                f.summary.clone(),
            ]
        })
        .collect();
    // An id wraps only after a hyphen, where it still reads whole.
    let table =
        Table::new(&["finding", "section", "kind", "severity", "summary"], rows).wrap(0, None).wrap(4, Some(64));
    writeln!(out, "{}", table.render(width))?;
    let counts: Vec<String> = kind_counts(&audit.findings);
    writeln!(out)?;
    note(out, width, "", "", &format!("{} findings: {}", audit.findings.len(), counts.join(", ")))?;
    writeln!(out, "`ptxcheck audit --id ID` shows one in full, with its witness.")?;
    let unread: Vec<&str> =
        audit.literal.iter().filter(|b| b.read_from == ReadFrom::NotRead).map(|b| b.opcode.as_str()).collect();
    if !unread.is_empty() {
        let line = format!(
            "Not read as C: the Semantics blocks of {}, which are read from the spec text, and none was given \
             (--text PATH).",
            unread.join(", ")
        );
        note(out, width, "", "", &line)?;
    }
    unresolved_text(out, width, &audit.unresolved())
}

/// One finding in full: the fragment, the account, the model's choice and
/// the witness table.
pub fn finding_text(out: &mut dyn Write, width: Width, f: &Finding) -> io::Result<()> {
    writeln!(out, "{} ({}, {}, severity {})", f.id, f.section, f.kind.label(), f.severity.label())?;
    if let Some(rc) = crate::audit::errata::of(&f.id) {
        note(out, width, "  ", "    ", &format!("root cause: {} ({}): {}", rc.id, rc.class.label(), rc.problem))?;
        note(out, width, "  ", "    ", &format!("proposed fix: {}", rc.fix()))?;
    }
    if !f.fragment.is_empty() {
        note(out, width, "  ", "    ", &format!("spec: `{}`", f.fragment))?;
    }
    note(out, width, "  ", "  ", &f.summary)?;
    for d in &f.detail {
        note(out, width, "  - ", "    ", d)?;
    }
    if let Some(m) = &f.model_choice {
        note(out, width, "  ", "    ", &format!("model: {m}"))?;
    }
    if let Some(w) = &f.witness {
        writeln!(out, "\nwitness ({}):", w.variant)?;
        witness_table(out, width, w)?;
    }
    Ok(())
}

/// Inputs, then one row per output with a column per reading; values in hex.
pub fn witness_table(out: &mut dyn Write, width: Width, w: &WitnessTable) -> io::Result<()> {
    let ins: Vec<Vec<String>> = w.inputs.iter().map(|(n, v)| vec![n.clone(), v.hex()]).collect();
    if ins.is_empty() {
        writeln!(out, "every input 0")?;
    } else {
        writeln!(out, "{}", Table::new(&["input", "value"], ins).render(width))?;
    }
    let mut header = vec!["output"];
    header.extend(w.columns.iter().map(String::as_str));
    let rows = w
        .rows
        .iter()
        .map(|(n, vs)| std::iter::once(n.clone()).chain(vs.iter().map(|v| register_text(*v))).collect())
        .collect();
    writeln!(out, "{}", Table::new(&header, rows).render(width))
}

/// "N kind" for each kind of finding present, in the kinds' order.
pub(super) fn kind_counts(findings: &[Finding]) -> Vec<String> {
    FindingKind::ALL
        .iter()
        .map(|k| (k, findings.iter().filter(|f| f.kind == *k).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {}", k.label()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(width: Width, unresolved: &[&str]) -> String {
        let mut out = Vec::new();
        let unresolved: Vec<String> = unresolved.iter().map(|u| u.to_string()).collect();
        unresolved_text(&mut out, width, &unresolved).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn unresolved_comparisons_are_listed_and_the_last_line_says_why_the_status_is_1() {
        assert_eq!(text(Width::Natural, &[]), "");
        let two = [
            "9.7.1.9 rem read as C: rem.s16: literal result against the model: solver unknown (timeout)",
            "9.7.1.14 popc read as C: popc.b64: literal result against the model: solver unknown (timeout)",
        ];
        assert_eq!(
            text(Width::Natural, &two),
            "\nUnresolved (the solver did not settle these: neither findings nor clean):\n\
             \x20 - 9.7.1.9 rem read as C: rem.s16: literal result against the model: solver unknown (timeout)\n\
             \x20 - 9.7.1.14 popc read as C: popc.b64: literal result against the model: solver unknown (timeout)\n\
             2 comparisons unresolved (listed above): the audit is incomplete, exit status 1.\n"
        );
        let narrow = text(Width::Columns(60), &two[..1]);
        assert!(narrow.lines().all(|l| l.chars().count() <= 60), "{narrow}");
        assert!(
            narrow.ends_with("\n1 comparison unresolved (listed above): the audit is\nincomplete, exit status 1.\n")
        );
    }
}
