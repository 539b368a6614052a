//! `ptxcheck claims`: the spec's claims checked on the model; a table of
//! verdicts with witnesses, one claim in full, or JSON.

use std::io::{self, Write};
use std::process::ExitCode;

use rayon::prelude::*;
use serde_json::Value;

use super::render::{note, register_text, Table, Width, WidthArgs};
use super::{status, Format, Setup, SolverArgs};
use crate::audit::claims::check::{check, ClaimResult, ClaimVerdict, Witness};
use crate::audit::claims::json;
use crate::audit::claims::{Check, WarpSum};
use crate::error::Error;

/// The arguments of `ptxcheck claims`.
#[derive(clap::Args)]
pub struct Args {
    /// Show one claim in full.
    #[arg(long)]
    id: Option<String>,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    width: WidthArgs,
}

/// Check every claim, or the one --id names; exit 1 when one is refuted
/// or unsettled.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let mut claims = crate::audit::claims::all();
    if let Some(id) = &args.id {
        claims.retain(|c| &c.id == id);
        if claims.is_empty() {
            return Err(Error::usage(format!("unknown claim `{id}` (`ptxcheck claims` lists them)")));
        }
    }
    let setup = Setup::new(&args.solver)?;
    let results: Vec<_> =
        setup.install(|| claims.par_iter().map(|c| check(c, &setup.backend, setup.timeout)).collect())?;
    let summary = ClaimSummary { results: &results };
    let width = args.width.resolve();
    match (args.solver.format, args.id) {
        (Format::Json, _) => writeln!(out, "{:#}", summary.json())?,
        (Format::Table, Some(_)) => claim_text(out, width, &results[0])?,
        (Format::Table, None) => summary.text(out, width)?,
    }
    Ok(status(summary.count("refuted") == 0 && summary.count("unknown") == 0))
}

fn witness_brief(w: &Witness) -> String {
    if w.inputs.is_empty() && w.observed.is_empty() {
        return w.failing.join("; ");
    }
    let mut parts: Vec<String> = w.inputs.iter().map(|(n, v)| format!("{n}={}", v.hex())).collect();
    let failing: std::collections::BTreeSet<&str> = w.failing.iter().map(String::as_str).collect();
    if !failing.is_empty() {
        parts.push(format!(
            "-> {}",
            w.observed.iter().map(|(n, v)| format!("{n}={}", register_text(*v))).collect::<Vec<_>>().join(" ")
        ));
    }
    parts.join(" ")
}

/// The claims as a table, then a summary line.
pub struct ClaimSummary<'a> {
    pub results: &'a [ClaimResult],
}

impl ClaimSummary<'_> {
    pub fn count(&self, label: &str) -> usize {
        json::count(self.results, label)
    }

    pub fn text(&self, out: &mut dyn Write, width: Width) -> io::Result<()> {
        let rows = self
            .results
            .iter()
            .map(|r| {
                let detail = match &r.verdict {
                    ClaimVerdict::Refuted(Some(w)) => witness_brief(w),
                    ClaimVerdict::Refuted(None) => "holds for every input in the range".into(),
                    ClaimVerdict::Holds(Some(w)) if matches!(r.claim.check, Check::Fails { .. }) => witness_brief(w),
                    ClaimVerdict::NotCheckable(why) | ClaimVerdict::Unknown(why) => why.clone(),
                    ClaimVerdict::Holds(_) => String::new(),
                };
                vec![r.claim.id.clone(), r.claim.kind.label().into(), r.verdict.label().into(), detail]
            })
            .collect();
        // An id wraps only after a hyphen, where it still reads whole.
        let table = Table::new(&["claim", "kind", "verdict", "witness / reason"], rows).wrap(0, None).wrap(3, Some(60));
        writeln!(out, "{}", table.render(width))?;
        writeln!(out)?;
        let counts = format!(
            "{} claims: {} hold, {} refuted, {} not checkable, {} unknown",
            self.results.len(),
            self.count("holds"),
            self.count("refuted"),
            self.count("not checkable"),
            self.count("unknown"),
        );
        note(out, width, "", "", &counts)?;
        if self.count("refuted") > 0 {
            let why = "A refuted claim is a finding about the spec text: `ptxcheck claims --id ID` shows it in full.";
            note(out, width, "", "", why)?;
        }
        Ok(())
    }

    pub fn json(&self) -> Value {
        serde_json::json!(crate::report::json::claims(self.results))
    }
}

/// One claim in full: what it states, how it was checked, the verdict and
/// its witness.
pub fn claim_text(out: &mut dyn Write, width: Width, r: &ClaimResult) -> io::Result<()> {
    let c = &r.claim;
    let line = |out: &mut dyn Write, text: String| note(out, width, "  ", "    ", &text);
    writeln!(out, "{} ({}, {})", c.id, c.section, c.kind.label())?;
    line(out, format!("claim: {}", c.statement))?;
    if let Some(f) = &c.fragment {
        line(out, format!("spec: `{f}`"))?;
    }
    line(out, format!("checked by: {}", r.method))?;
    let program = match &c.check {
        Check::Values { program, .. }
        | Check::Always { program, .. }
        | Check::Fails { program, .. }
        | Check::Warp { program, .. } => Some(program),
        Check::Parses { .. } | Check::FitsSyntax { .. } | Check::Rejected { .. } | Check::NotCheckable { .. } => None,
    };
    if let Some(p) = program {
        writeln!(out, "  program:")?;
        for instruction in p.lines().flat_map(|l| l.split(';')).map(str::trim).filter(|l| !l.is_empty()) {
            writeln!(out, "    {instruction};")?;
        }
    }
    match &c.check {
        Check::Values { inputs, expect, .. } => {
            if !inputs.is_empty() {
                let inputs = inputs.iter().map(|(n, v)| format!("{n} = {v:#x}")).collect::<Vec<_>>();
                line(out, format!("inputs: {}", inputs.join(", ")))?;
            }
            line(out, format!("expect: {}", expect.join("; ")))?;
        }
        Check::Always { assume, holds, .. } => {
            line(
                out,
                format!("for every input with: {}", if assume.is_empty() { "-".into() } else { assume.join("; ") }),
            )?;
            line(out, format!("holds: {}", holds.join("; ")))?;
        }
        Check::Fails { assume, holds, .. } => {
            line(out, format!("some input with: {}", assume.join("; ")))?;
            line(out, format!("breaks: {}", holds.join("; ")))?;
        }
        Check::Warp { register, sum, .. } => {
            let which = match sum {
                WarpSum::Prefix => "over lanes 0 to its own",
                WarpSum::Suffix => "over its own lane to lane 31",
                WarpSum::Total => "over all 32 lanes",
            };
            line(out, format!("for every {register} in each of the 32 lanes, each lane's {register} ends as the sum {which} (mod 2^32)"))?;
        }
        Check::Parses { text } | Check::FitsSyntax { text } => line(out, format!("instruction: {text}"))?,
        Check::Rejected { text } => line(out, format!("no form of the text: {text}"))?,
        Check::NotCheckable { .. } => {}
    }
    writeln!(out, "  verdict: {}", r.verdict.label())?;
    match &r.verdict {
        ClaimVerdict::NotCheckable(why) | ClaimVerdict::Unknown(why) => {
            line(out, format!("reason: {why}"))?;
        }
        ClaimVerdict::Refuted(None) => writeln!(out, "  no input in the range breaks it")?,
        _ => {}
    }
    if let Some(w) = r.verdict.witness() {
        let mut rows: Vec<Vec<String>> =
            w.inputs.iter().map(|(n, v)| vec!["input".into(), n.clone(), v.hex()]).collect();
        rows.extend(w.observed.iter().map(|(n, v)| vec!["result".into(), n.clone(), register_text(*v)]));
        writeln!(out, "  witness:")?;
        for row in Table::new(&["", "register", "value"], rows).render(width.less(4)).lines() {
            writeln!(out, "    {row}")?;
        }
        if !w.failing.is_empty() {
            line(out, format!("fails: {}", w.failing.join("; ")))?;
        }
    }
    // Why the exit status is 1, last, where it is seen.
    match &r.verdict {
        ClaimVerdict::Refuted(_) => {
            note(out, width, "", "", "Refuted: a finding about the spec text (exit status 1).")?
        }
        ClaimVerdict::Unknown(_) => note(out, width, "", "", "Unknown: the solver did not settle it (exit status 1).")?,
        _ => {}
    }
    Ok(())
}
