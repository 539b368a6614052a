//! `ptxcheck prove`: each variant's SMT encoding against its concrete
//! semantics, for all inputs; the verdicts as a table or as JSON, each
//! counterexample with both sides' outputs.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ptx_spec::assumption::Assumption;
use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::{Model, Rule};
use serde_json::{json, Map, Value};

use super::prove_text::TextSummary;
use super::render::{deprecations, inputs_line, note, output_pairs, seconds, shown_inputs, Table, Width, WidthArgs};
use super::{select, status, Format, ModelArgs, Setup, SolverArgs};
use crate::error::Error;
use crate::prove::{self, Counterexample, ProofResult, Verdict};

/// The arguments of `ptxcheck prove`.
#[derive(clap::Args)]
pub struct Args {
    /// `all`, an instruction (`shf`) or a variant (`shf.l.wrap.b32`).
    #[arg(required = true)]
    targets: Vec<String>,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    width: WidthArgs,
    #[command(flatten)]
    model: ModelArgs,
    /// Also prove each variant's Semantics block, read from the copy of the
    /// text in DIR (a folder or file of sections), against its encoding.
    #[arg(long, value_name = "DIR")]
    text: Option<std::path::PathBuf>,
}

/// Prove the variants `args` names; exit 1 unless every one is proven.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let variants = select(&args.targets)?;
    let setup = Setup::new(&args.solver)?;
    let start = Instant::now();
    let model = args.model.model;
    // The text is read first, so that a bad path stops before any proof.
    let doc = match &args.text {
        Some(dir) => Some(crate::audit::text::document::read(std::slice::from_ref(dir))?),
        None => None,
    };
    let jobs = prove::jobs(model, &variants, &setup.backend);
    let label = |job: &Vec<Variant>| job[0].to_string();
    let results: Vec<_> = setup
        .run_each(&jobs, label, |job| prove::prove_job(model, job, &setup.backend, setup.timeout))?
        .into_iter()
        .flatten()
        .collect();
    let summary = ProveSummary { results: &results, solver: setup.backend.to_string(), wall: start.elapsed() };
    let text_start = Instant::now();
    let proofs = match &doc {
        Some(doc) => {
            setup.run_all(&variants, |v| crate::text_proof::prove_text(doc, v, &setup.backend, setup.timeout))?
        }
        None => Vec::new(),
    };
    let third = TextSummary { proofs: &proofs, wall: text_start.elapsed() };
    match args.solver.format {
        Format::Table => {
            summary.text(out, args.width.resolve())?;
            if doc.is_some() {
                writeln!(out)?;
                third.text(out, args.width.resolve())?;
            }
        }
        Format::Json if doc.is_some() => {
            let mut all = summary.json();
            all["text"] = third.json();
            writeln!(out, "{all:#}")?
        }
        Format::Json => writeln!(out, "{:#}", summary.json())?,
    }
    Ok(status(summary.all_proven() && third.accounted()))
}

/// The assumptions used by `results`, each once, in first-use order.
fn used_assumptions<'a>(lists: impl IntoIterator<Item = &'a Vec<&'static Assumption>>) -> Vec<&'static Assumption> {
    let mut used: Vec<&'static Assumption> = Vec::new();
    for list in lists {
        for a in list {
            if !used.iter().any(|u| u.id == a.id) {
                used.push(a);
            }
        }
    }
    used
}

/// A counterexample the way Alive2 shows one: a headline, the inputs, then
/// each output on both sides.
pub fn counterexample(out: &mut dyn Write, width: Width, variant: &Variant, cex: &Counterexample) -> io::Result<()> {
    writeln!(out, "counterexample for {variant}: the SMT encoding and the concrete semantics differ")?;
    let (shown, hidden) = shown_inputs(&cex.inputs);
    if hidden > 0 {
        writeln!(out, "  inputs (the {hidden} not shown are 0):")?;
    } else {
        writeln!(out, "  inputs:")?;
    }
    for (name, value) in shown {
        writeln!(out, "    {name} = {value}")?;
    }
    output_pairs(out, width, cex, "concrete")
}

pub struct ProveSummary<'a> {
    pub results: &'a [ProofResult],
    pub solver: String,
    pub wall: Duration,
}

impl ProveSummary<'_> {
    fn count(&self, label: &str) -> usize {
        self.results.iter().filter(|r| r.verdict.label() == label).count()
    }
    pub fn all_proven(&self) -> bool {
        self.results.iter().all(|r| r.verdict.is_proven())
    }

    pub fn text(&self, out: &mut dyn Write, width: Width) -> io::Result<()> {
        let rows = self
            .results
            .iter()
            .map(|r| {
                let mut assumptions = if r.assumptions.is_empty() {
                    "-".to_string()
                } else {
                    r.assumptions.iter().map(|a| a.id).collect::<Vec<_>>().join(", ")
                };
                if !r.rules.is_empty() {
                    let rules: Vec<&str> = r.rules.iter().map(|u| u.id).collect();
                    assumptions.push_str(&format!("; {}: {}", r.model, rules.join(", ")));
                }
                let verdict = match &r.verdict {
                    // The witness in the row; both sides' outputs below the table.
                    Verdict::Counterexample(cex) => {
                        format!("counterexample\n{}", inputs_line(&cex.inputs))
                    }
                    Verdict::Proven if r.cases > 1 => format!("proven\n({} cases)", r.cases),
                    v => v.label().to_string(),
                };
                vec![r.variant.to_string(), verdict, assumptions, seconds(r.time)]
            })
            .collect();
        // A counterexample's inputs follow its verdict, and wrap with it.
        let table = Table::new(&["variant", "verdict", "assumptions", "time"], rows).wrap(1, None).wrap(2, None);
        writeln!(out, "{}", table.render(width))?;
        for r in self.results {
            match &r.verdict {
                Verdict::Counterexample(cex) => {
                    writeln!(out)?;
                    counterexample(out, width, &r.variant, cex)?;
                }
                Verdict::Unknown { reason } => {
                    writeln!(out)?;
                    note(out, width, "", "  ", &format!("unknown for {}: {reason}", r.variant))?;
                }
                Verdict::Timeout => {
                    writeln!(out)?;
                    note(out, width, "", "  ", &format!("timeout for {}: no answer within the time limit", r.variant))?;
                }
                Verdict::Proven => {}
            }
        }
        let used = used_assumptions(self.results.iter().map(|r| &r.assumptions));
        if !used.is_empty() {
            writeln!(out, "\nAssumptions (a proof holds under those on its row):")?;
            for a in used {
                note(out, width, "  ", "    ", &format!("{} ({}, `{}`): {}", a.id, a.section, a.fragment, a.reading))?;
            }
        }
        let rules = used_rules(self.results);
        if let Some(model) = self.results.iter().map(|r| r.model).find(|m| *m != Model::Spec) {
            writeln!(out, "\n{model} rules (each fills in or replaces the assumption it names, where it applies):")?;
            for u in &rules {
                note(
                    out,
                    width,
                    "  ",
                    "    ",
                    &format!("{} ({}, {}: {}): {}", u.id, u.section, u.change.label(), u.assumption, u.rule),
                )?;
                if !u.open.is_empty() {
                    note(out, width, "    ", "    ", &format!("left unspecified: {}", u.open))?;
                }
            }
        }
        deprecations(out, width, self.results.iter().map(|r| &r.variant))?;
        writeln!(out)?;
        let model = match self.results.first().map(|r| r.model) {
            Some(m) if m != Model::Spec => format!("; model {m}"),
            _ => String::new(),
        };
        let summary = format!(
            "{} variants: {} proven, {} counterexample, {} unknown, {} timeout{model}; solver {}; {} wall",
            self.results.len(),
            self.count("proven"),
            self.count("counterexample"),
            self.count("unknown"),
            self.count("timeout"),
            self.solver,
            seconds(self.wall),
        );
        note(out, width, "", "", &summary)
    }

    pub fn json(&self) -> Value {
        let results: Vec<Value> = self
            .results
            .iter()
            .map(|r| {
                let mut o = Map::new();
                o.insert("variant".into(), json!(r.variant.to_string()));
                o.insert("section".into(), json!(r.variant.section()));
                o.insert("verdict".into(), json!(r.verdict.label()));
                o.insert("assumptions".into(), json!(r.assumptions.iter().map(|a| a.id).collect::<Vec<_>>()));
                if r.model != Model::Spec {
                    o.insert("rules".into(), json!(r.rules.iter().map(|u| u.id).collect::<Vec<_>>()));
                }
                o.insert("cases".into(), json!(r.cases));
                if r.batch > 1 {
                    o.insert("batch".into(), json!(r.batch));
                }
                o.insert("time_s".into(), json!(r.time.as_secs_f64()));
                if let Some(d) = r.variant.deprecation() {
                    o.insert("deprecation".into(), json!(d.to_string()));
                }
                match &r.verdict {
                    Verdict::Counterexample(cex) => {
                        o.insert("counterexample".into(), counterexample_json(cex));
                    }
                    Verdict::Unknown { reason } => {
                        o.insert("reason".into(), json!(reason));
                    }
                    _ => {}
                }
                Value::Object(o)
            })
            .collect();
        let mut summary = json!({
            "solver": self.solver,
            "results": results,
            "summary": {
                "variants": self.results.len(),
                "proven": self.count("proven"),
                "counterexample": self.count("counterexample"),
                "unknown": self.count("unknown"),
                "timeout": self.count("timeout"),
                "wall_s": self.wall.as_secs_f64(),
            },
            "assumptions": used_assumptions(self.results.iter().map(|r| &r.assumptions)),
        });
        if let Some(model) = self.results.iter().map(|r| r.model).find(|m| *m != Model::Spec) {
            summary["model"] = json!(model.name());
            summary["rules"] = json!(used_rules(self.results));
        }
        summary
    }
}

/// The vendor rules used by `results`, each once, in first-use order.
fn used_rules(results: &[ProofResult]) -> Vec<&'static Rule> {
    let mut used: Vec<&'static Rule> = Vec::new();
    for u in results.iter().flat_map(|r| &r.rules) {
        if !used.iter().any(|x| x.id == u.id) {
            used.push(u);
        }
    }
    used
}

fn hex_or_null(v: Option<BitVec>) -> Value {
    v.map_or(Value::Null, |b| json!(b.hex()))
}

fn counterexample_json(cex: &Counterexample) -> Value {
    let inputs: Map<String, Value> = cex.inputs.iter().map(|(n, v)| (n.clone(), json!(v.hex()))).collect();
    let outputs: Vec<Value> = cex
        .outputs
        .iter()
        .map(|o| json!({"name": o.name, "smt": hex_or_null(o.smt), "concrete": hex_or_null(o.concrete)}))
        .collect();
    json!({"inputs": inputs, "outputs": outputs})
}
