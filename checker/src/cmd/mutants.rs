//! `ptxcheck mutants`: each encoding faulted in turn, and whether `prove`
//! catches every fault that changes the function; the kill rate, and why
//! each mutant that was not killed survived.

use std::io::{self, Write};
use std::process::ExitCode;

use serde_json::{json, Value};

use super::render::{note, Table, Width, WidthArgs};
use super::{select_sampled, status, Format, Setup, SolverArgs};
use crate::error::Error;
use crate::mutants::{self, Fate, Mutant};

/// The arguments of `ptxcheck mutants`.
#[derive(clap::Args)]
pub struct Args {
    /// `all`, an instruction or a variant.
    #[arg(default_values_t = vec!["all".to_string()])]
    targets: Vec<String>,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    width: WidthArgs,
}

/// Run the mutants of the variants `args` names; exit 1 if one survives.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    // Every argument is checked before the sample's note is printed.
    let setup = Setup::new(&args.solver)?;
    let selected = select_sampled(&args.targets)?;
    let mut variants = Vec::new();
    for v in selected {
        match mutants::skipped(&v, &setup.backend) {
            Some(why) => eprintln!("note: {v}: mutants not run: {why}"),
            None => variants.push(v),
        }
    }
    let per_variant = setup.run_all(&variants, |v| mutants::run(v, &setup.backend, setup.timeout))?;
    let mut all = Vec::new();
    for r in per_variant {
        all.extend(r?);
    }
    let summary = MutantSummary { mutants: &all };
    match args.solver.format {
        Format::Table => summary.text(out, args.width.resolve())?,
        Format::Json => writeln!(out, "{:#}", summary.json())?,
    }
    Ok(status(summary.survived() == 0))
}

pub struct MutantSummary<'a> {
    pub mutants: &'a [Mutant],
}

impl MutantSummary<'_> {
    fn count(&self, f: impl Fn(&Fate) -> bool) -> usize {
        self.mutants.iter().filter(|m| f(&m.fate)).count()
    }
    pub fn killed(&self) -> usize {
        self.count(|f| matches!(f, Fate::Killed))
    }
    pub fn equivalent(&self) -> usize {
        self.count(|f| matches!(f, Fate::Equivalent))
    }
    pub fn survived(&self) -> usize {
        self.count(|f| matches!(f, Fate::Survived { .. }))
    }
    fn rate(&self) -> f64 {
        let non_equivalent = self.mutants.len() - self.equivalent();
        if non_equivalent == 0 {
            100.0
        } else {
            100.0 * self.killed() as f64 / non_equivalent as f64
        }
    }

    /// The mutants grouped by `key` (variant or family), in first-seen
    /// order.
    fn groups(&self, key: impl Fn(&Mutant) -> &str) -> Vec<(String, Vec<Mutant>)> {
        let mut groups: Vec<(String, Vec<Mutant>)> = Vec::new();
        for m in self.mutants {
            match groups.iter_mut().find(|(k, _)| k == key(m)) {
                Some((_, group)) => group.push(m.clone()),
                None => groups.push((key(m).to_string(), vec![m.clone()])),
            }
        }
        groups
    }

    fn row(&self, name: String) -> Vec<String> {
        vec![
            name,
            self.mutants.len().to_string(),
            self.killed().to_string(),
            self.equivalent().to_string(),
            self.survived().to_string(),
            format!("{:.1}%", self.rate()),
        ]
    }

    pub fn text(&self, out: &mut dyn Write, width: Width) -> io::Result<()> {
        let header = ["mutants", "killed", "equivalent", "survived", "kill rate"];
        for (what, key) in
            [("variant", (|m: &Mutant| m.variant.as_str()) as fn(&Mutant) -> &str), ("family", |m| m.family)]
        {
            let rows =
                self.groups(key).into_iter().map(|(name, group)| MutantSummary { mutants: &group }.row(name)).collect();
            let columns: Vec<&str> = [what].into_iter().chain(header).collect();
            let gap = if what == "family" { "\n" } else { "" };
            writeln!(out, "{gap}{}", Table::new(&columns, rows).render(width))?;
        }
        let survivors: Vec<&Mutant> = self.mutants.iter().filter(|m| !matches!(m.fate, Fate::Killed)).collect();
        if !survivors.is_empty() {
            writeln!(out, "\nMutants not killed, and why:")?;
            for m in survivors {
                let why = match &m.fate {
                    Fate::Equivalent => "equivalent mutant: the solver proves it equal to the original".to_string(),
                    Fate::Survived { reason } => format!("NOT KILLED: {reason}"),
                    Fate::Killed => unreachable!(),
                };
                note(out, width, "  ", "    ", &format!("{} ({:?} side): {}", m.variant, m.side, m.fault))?;
                note(out, width, "    ", "    ", &why)?;
            }
        }
        writeln!(out)?;
        let summary = format!(
            "kill rate {:.1}%: {} killed of {} non-equivalent mutants ({} mutants, {} equivalent, {} survived)",
            self.rate(),
            self.killed(),
            self.mutants.len() - self.equivalent(),
            self.mutants.len(),
            self.equivalent(),
            self.survived(),
        );
        note(out, width, "", "", &summary)
    }

    /// The counts and the kill rate.
    fn counts(&self) -> Value {
        json!({
            "mutants": self.mutants.len(),
            "killed": self.killed(),
            "equivalent": self.equivalent(),
            "survived": self.survived(),
            "kill_rate_percent": self.rate(),
        })
    }

    pub fn json(&self) -> Value {
        let by_family: serde_json::Map<String, Value> = self
            .groups(|m| m.family)
            .into_iter()
            .map(|(family, group)| (family, MutantSummary { mutants: &group }.counts()))
            .collect();
        json!({ "mutants": self.mutants, "summary": self.counts(), "by_family": by_family })
    }
}
