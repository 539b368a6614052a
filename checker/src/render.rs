//! Rendering of results for a terminal (tables) and for tools (JSON), always
//! into a `Write` so that output is testable.

use std::io::{self, Write};
use std::time::Duration;

use crate::ptx::parse::syntax;
use ptx_spec::assumption::Assumption;
use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::{OperandType, Variant};
use serde_json::{json, Map, Value};
use tabled::builder::Builder;
use tabled::settings::Style;

use crate::eval::{Evaluation, LaneOutput, WarpEvaluation};
use crate::mutants::{Fate, Mutant};
use crate::prove::{Counterexample, ProofResult, Verdict};

fn table(header: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut b = Builder::default();
    b.push_record(header.iter().map(|h| h.to_string()));
    for r in rows {
        b.push_record(r);
    }
    b.build().with(Style::sharp()).to_string()
}

fn seconds(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
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

fn value_or_undefined(v: Option<BitVec>) -> String {
    v.map_or_else(|| "undefined".to_string(), |b| b.to_string())
}

/// Inputs beyond which a witness shows only its non-zero inputs (shfl's
/// model reads every lane of the warp; a minimised witness is mostly 0).
const FEW_INPUTS: usize = 8;

/// The inputs of a witness worth showing, and how many zeros were left out.
fn shown_inputs(cex: &Counterexample) -> (Vec<&(String, BitVec)>, usize) {
    if cex.inputs.len() <= FEW_INPUTS {
        return (cex.inputs.iter().collect(), 0);
    }
    let shown: Vec<_> = cex.inputs.iter().filter(|(_, v)| v.unsigned() != 0).collect();
    let hidden = cex.inputs.len() - shown.len();
    (shown, hidden)
}

/// A counterexample the way Alive2 shows one: a headline, the inputs, then
/// each output on both sides.
pub fn counterexample(out: &mut dyn Write, variant: &Variant, cex: &Counterexample) -> io::Result<()> {
    writeln!(out, "counterexample for {variant}: the SMT encoding and the concrete semantics differ")?;
    let (shown, hidden) = shown_inputs(cex);
    if hidden > 0 {
        writeln!(out, "  inputs (the {hidden} not shown are 0):")?;
    } else {
        writeln!(out, "  inputs:")?;
    }
    for (name, value) in shown {
        writeln!(out, "    {name} = {value}")?;
    }
    let rows = cex
        .outputs
        .iter()
        .map(|o| {
            let mark = if o.smt == o.concrete { "" } else { "differs" };
            vec![o.name.clone(), value_or_undefined(o.smt), value_or_undefined(o.concrete), mark.to_string()]
        })
        .collect();
    for line in table(&["output", "SMT encoding", "concrete", ""], rows).lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
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

    pub fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let rows = self
            .results
            .iter()
            .map(|r| {
                let assumptions = if r.assumptions.is_empty() {
                    "-".to_string()
                } else {
                    r.assumptions.iter().map(|a| a.id).collect::<Vec<_>>().join(", ")
                };
                let verdict = match &r.verdict {
                    // The witness in the row; both sides' outputs below the table.
                    Verdict::Counterexample(cex) => {
                        let (shown, hidden) = shown_inputs(cex);
                        let mut inputs: Vec<String> = shown.iter().map(|(n, v)| format!("{n}={}", v.hex())).collect();
                        if hidden > 0 {
                            inputs.push("others 0".into());
                        }
                        format!("counterexample\n{}", inputs.join(" "))
                    }
                    Verdict::Proven if r.cases > 1 => format!("proven\n({} cases)", r.cases),
                    v => v.label().to_string(),
                };
                vec![r.variant.to_string(), verdict, assumptions, seconds(r.time)]
            })
            .collect();
        writeln!(out, "{}", table(&["variant", "verdict", "assumptions", "time"], rows))?;
        for r in self.results {
            match &r.verdict {
                Verdict::Counterexample(cex) => {
                    writeln!(out)?;
                    counterexample(out, &r.variant, cex)?;
                }
                Verdict::Unknown { reason } => writeln!(out, "\nunknown for {}: {reason}", r.variant)?,
                Verdict::Timeout => writeln!(out, "\ntimeout for {}: no answer within the time limit", r.variant)?,
                Verdict::Proven => {}
            }
        }
        let used = used_assumptions(self.results.iter().map(|r| &r.assumptions));
        if !used.is_empty() {
            writeln!(out, "\nAssumptions (a proof holds under those on its row):")?;
            for a in used {
                writeln!(out, "  {} ({}, `{}`): {}", a.id, a.section, a.fragment, a.reading)?;
            }
        }
        deprecations(out, self.results.iter().map(|r| &r.variant))?;
        writeln!(
            out,
            "\n{} variants: {} proven, {} counterexample, {} unknown, {} timeout; solver {}; {} wall",
            self.results.len(),
            self.count("proven"),
            self.count("counterexample"),
            self.count("unknown"),
            self.count("timeout"),
            self.solver,
            seconds(self.wall),
        )
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
                o.insert("cases".into(), json!(r.cases));
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
        json!({
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
        })
    }
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

/// `d = 0x00000003`, `p = 1`, or `d = unspecified`.
pub fn evaluation_text(out: &mut dyn Write, e: &Evaluation) -> io::Result<()> {
    for w in &e.written {
        match (w.ty, w.value) {
            (_, None) => writeln!(out, "{} = unspecified", w.name)?,
            (OperandType::Pred, Some(v)) => writeln!(out, "{} = {}", w.name, v.unsigned())?,
            (OperandType::Bits(_), Some(v)) => writeln!(out, "{} = {}", w.name, v.hex())?,
        }
    }
    Ok(())
}

fn lane_output_text(o: LaneOutput, ty: OperandType) -> String {
    match (o, ty) {
        (LaneOutput::Value(v), OperandType::Pred) => (v.unsigned() == 1).to_string(),
        (LaneOutput::Value(v), _) => v.hex(),
        (LaneOutput::Unspecified, _) => "unspecified".into(),
        (LaneOutput::Unpredictable { source }, _) => format!("unpredictable (lane {source} off)"),
        (LaneOutput::NotWritten, _) => "-".into(),
    }
}

/// A warp evaluation as a table: one row per lane.
pub fn warp_text(out: &mut dyn Write, e: &WarpEvaluation) -> io::Result<()> {
    let executing = e.active.count_ones();
    writeln!(out, "{}", e.text)?;
    writeln!(out, "{executing} of 32 lanes execute (active mask {:#010x})", e.active)?;
    let shows_source = e.rows.iter().any(|r| r.source.is_some());
    let mut header: Vec<&str> = vec!["lane"];
    header.extend(e.input_names.iter().map(String::as_str));
    if shows_source {
        header.push("source lane");
    }
    header.extend(e.output_names.iter().map(String::as_str));
    let rows = e
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![r.lane.to_string()];
            row.extend(r.inputs.iter().map(|v| v.hex()));
            if let Some(source) = r.source {
                row.push(if r.executes { source.to_string() } else { "-".into() });
            }
            row.extend(r.outputs.iter().zip(&e.output_types).map(|(o, t)| lane_output_text(*o, *t)));
            row
        })
        .collect();
    writeln!(out, "{}", table(&header, rows))?;
    if e.rows.iter().any(|r| !r.executes) {
        writeln!(out, "-: the lane does not execute (inactive or predicated off) and writes nothing")?;
    }
    if e.rows.iter().any(|r| r.outputs.iter().any(|o| matches!(o, LaneOutput::Unpredictable { .. }))) {
        writeln!(out, "unpredictable: the source lane does not execute (assumption shfl-unpredictable-source)")?;
    }
    deprecations(out, [&e.variant])
}

/// A warp evaluation as JSON: per lane, the inputs and outputs; an output
/// is a hex string or a Boolean, `"unspecified"`, `"unpredictable"`, or
/// `null` where the lane does not execute.
pub fn warp_json(e: &WarpEvaluation) -> Value {
    let lanes: Vec<Value> = e
        .rows
        .iter()
        .map(|r| {
            let inputs: Map<String, Value> =
                e.input_names.iter().zip(&r.inputs).map(|(n, v)| (n.clone(), json!(v.hex()))).collect();
            let outputs: Map<String, Value> = e
                .output_names
                .iter()
                .zip(&r.outputs)
                .zip(&e.output_types)
                .map(|((n, o), t)| {
                    let v = match (o, t) {
                        (LaneOutput::Value(v), OperandType::Pred) => json!(v.unsigned() == 1),
                        (LaneOutput::Value(v), _) => json!(v.hex()),
                        (LaneOutput::Unspecified, _) => json!("unspecified"),
                        (LaneOutput::Unpredictable { .. }, _) => json!("unpredictable"),
                        (LaneOutput::NotWritten, _) => Value::Null,
                    };
                    (n.clone(), v)
                })
                .collect();
            let mut o = Map::new();
            o.insert("lane".into(), json!(r.lane));
            o.insert("executes".into(), json!(r.executes));
            o.insert("inputs".into(), Value::Object(inputs));
            if let Some(source) = r.source {
                o.insert("source_lane".into(), json!(source));
            }
            o.insert("outputs".into(), Value::Object(outputs));
            Value::Object(o)
        })
        .collect();
    let mut o = Map::new();
    o.insert("instruction".into(), json!(e.text));
    o.insert("variant".into(), json!(e.variant.to_string()));
    o.insert("active".into(), json!(format!("{:#010x}", e.active)));
    if let Some(d) = e.variant.deprecation() {
        o.insert("deprecation".into(), json!(d.to_string()));
    }
    o.insert("lanes".into(), Value::Array(lanes));
    Value::Object(o)
}

/// `{"d":"0x00000003","p":true}`; an unspecified result is `null`.
pub fn evaluation_json(e: &Evaluation) -> Value {
    let map: Map<String, Value> = e
        .written
        .iter()
        .map(|w| {
            let v = match (w.ty, w.value) {
                (_, None) => Value::Null,
                (OperandType::Pred, Some(v)) => json!(v.unsigned() == 1),
                (OperandType::Bits(_), Some(v)) => json!(v.hex()),
            };
            (w.name.clone(), v)
        })
        .collect();
    Value::Object(map)
}

/// The deprecation notes of the instructions among `variants`, once each.
pub fn deprecations<'a>(out: &mut dyn Write, variants: impl IntoIterator<Item = &'a Variant>) -> io::Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for v in variants {
        if let Some(d) = v.deprecation() {
            if !seen.contains(&v.opcode()) {
                if seen.is_empty() {
                    writeln!(out, "\nNotes:")?;
                }
                seen.push(v.opcode());
                writeln!(out, "  {} ({}): {d}", v.opcode(), v.section())?;
            }
        }
    }
    Ok(())
}

/// The catalogue as a table.
pub fn catalogue(out: &mut dyn Write, variants: &[Variant]) -> io::Result<()> {
    let rows = variants
        .iter()
        .map(|v| {
            let operands =
                v.operands().iter().map(|o| format!("{}:{}", o.name, o.ty.width())).collect::<Vec<_>>().join(" ");
            let assumptions = v.assumptions().iter().map(|a| a.id).collect::<Vec<_>>().join(", ");
            vec![
                syntax(v),
                v.section().to_string(),
                operands,
                match v.deprecation() {
                    Some(d) => {
                        let mut cell = format!("{}\ndeprecated from PTX {}", v.requirement(), d.since);
                        if let Some((ptx, sm)) = d.removed {
                            cell.push_str(&format!("\nnot on sm_{sm}+ from PTX {ptx}"));
                        }
                        cell
                    }
                    None => v.requirement().to_string(),
                },
                if assumptions.is_empty() { "-".into() } else { assumptions },
            ]
        })
        .collect();
    writeln!(out, "{}", table(&["syntax", "section", "operand widths", "requires", "assumptions"], rows))?;
    writeln!(out, "{} variants", variants.len())
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

    pub fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut variants: Vec<&str> = Vec::new();
        for m in self.mutants {
            if !variants.contains(&m.variant.as_str()) {
                variants.push(&m.variant);
            }
        }
        let rows = variants
            .iter()
            .map(|v| {
                let of = |f: fn(&Fate) -> bool| self.mutants.iter().filter(|m| m.variant == *v && f(&m.fate)).count();
                vec![
                    v.to_string(),
                    of(|_| true).to_string(),
                    of(|f| matches!(f, Fate::Killed)).to_string(),
                    of(|f| matches!(f, Fate::Equivalent)).to_string(),
                    of(|f| matches!(f, Fate::Survived { .. })).to_string(),
                ]
            })
            .collect();
        writeln!(out, "{}", table(&["variant", "mutants", "killed", "equivalent", "survived"], rows))?;
        let survivors: Vec<&Mutant> = self.mutants.iter().filter(|m| !matches!(m.fate, Fate::Killed)).collect();
        if !survivors.is_empty() {
            writeln!(out, "\nMutants not killed, and why:")?;
            for m in survivors {
                let why = match &m.fate {
                    Fate::Equivalent => "equivalent mutant: the solver proves it equal to the original".to_string(),
                    Fate::Survived { reason } => format!("NOT KILLED: {reason}"),
                    Fate::Killed => unreachable!(),
                };
                writeln!(out, "  {} ({:?} side): {}\n    {why}", m.variant, m.side, m.fault)?;
            }
        }
        writeln!(
            out,
            "\nkill rate {:.1}%: {} killed of {} non-equivalent mutants ({} mutants, {} equivalent, {} survived)",
            self.rate(),
            self.killed(),
            self.mutants.len() - self.equivalent(),
            self.mutants.len(),
            self.equivalent(),
            self.survived(),
        )
    }

    pub fn json(&self) -> Value {
        json!({
            "mutants": self.mutants,
            "summary": {
                "mutants": self.mutants.len(),
                "killed": self.killed(),
                "equivalent": self.equivalent(),
                "survived": self.survived(),
                "kill_rate_percent": self.rate(),
            }
        })
    }
}

pub struct ExhaustiveSummary<'a> {
    pub reports: &'a [crate::exhaustive::Report],
    pub wall: Duration,
}

impl ExhaustiveSummary<'_> {
    fn throughput(r: &crate::exhaustive::Report) -> f64 {
        r.inputs as f64 / r.time.as_secs_f64().max(1e-9) / 1e6
    }

    pub fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let rows = self
            .reports
            .iter()
            .map(|r| {
                let verdict = if r.mismatch.is_some() { "MISMATCH" } else { "agree" };
                vec![
                    r.variant.to_string(),
                    crate::exhaustive::input_bits(&r.variant).to_string(),
                    if r.mismatch.is_some() { "-".into() } else { r.inputs.to_string() },
                    verdict.to_string(),
                    seconds(r.time),
                    if r.mismatch.is_some() { "-".into() } else { format!("{:.1} M/s", Self::throughput(r)) },
                ]
            })
            .collect();
        writeln!(out, "{}", table(&["variant", "input bits", "inputs", "result", "time", "throughput"], rows))?;
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
        writeln!(
            out,
            "\n{} variants: {} agree on every input, {} mismatch; {} inputs in {} ({:.1} M inputs/s)",
            self.reports.len(),
            self.reports.len() - bad,
            bad,
            total,
            seconds(self.wall),
            total as f64 / self.wall.as_secs_f64().max(1e-9) / 1e6,
        )
    }

    pub fn json(&self) -> Value {
        let reports: Vec<Value> = self
            .reports
            .iter()
            .map(|r| {
                json!({
                    "variant": r.variant.to_string(),
                    "input_bits": crate::exhaustive::input_bits(&r.variant),
                    "inputs": r.inputs,
                    "agree": r.mismatch.is_none(),
                    "mismatch": r.mismatch.as_ref().map(|m| json!({
                        "inputs": m.inputs,
                        "smt": m.smt,
                        "concrete": m.concrete,
                    })),
                    "time_s": r.time.as_secs_f64(),
                })
            })
            .collect();
        json!({ "results": reports, "wall_s": self.wall.as_secs_f64() })
    }
}

fn register_text(v: Option<BitVec>) -> String {
    v.map_or_else(|| "undefined".to_string(), |b| if b.width() == 1 { b.unsigned().to_string() } else { b.hex() })
}

/// A program run: `r = 0x...` per written register, or one row per lane.
pub fn run_text(out: &mut dyn Write, r: &crate::run::Run) -> io::Result<()> {
    if r.lanes == 1 {
        for (name, values) in &r.written {
            writeln!(out, "{name} = {}", register_text(values[0]))?;
        }
    } else {
        writeln!(out, "{} of 32 lanes execute (active mask {:#010x})", r.active.count_ones(), r.active)?;
        let mut header = vec!["lane"];
        header.extend(r.written.iter().map(|(n, _)| n.as_str()));
        let rows = (0..r.lanes)
            .map(|lane| {
                let mut row = vec![lane.to_string()];
                row.extend(r.written.iter().map(|(_, vs)| register_text(vs[lane])));
                row
            })
            .collect();
        writeln!(out, "{}", table(&header, rows))?;
    }
    if r.written.iter().any(|(_, vs)| vs.iter().any(Option::is_none)) {
        writeln!(out, "undefined: never written in that lane, or unspecified or unpredictable by the spec")?;
    }
    Ok(())
}

/// A program run as JSON: each written register's value per lane (hex, a
/// predicate as 0/1, `null` where undefined).
pub fn run_json(r: &crate::run::Run) -> Value {
    let value = |v: &Option<BitVec>| match v {
        Some(b) if b.width() == 1 => json!(b.unsigned()),
        Some(b) => json!(b.hex()),
        None => Value::Null,
    };
    let registers: Map<String, Value> = r
        .written
        .iter()
        .map(|(n, vs)| {
            (n.clone(), if r.lanes == 1 { value(&vs[0]) } else { Value::Array(vs.iter().map(value).collect()) })
        })
        .collect();
    json!({"lanes": r.lanes, "active": format!("{:#010x}", r.active), "registers": registers})
}

fn witness_brief(w: &crate::audit::claims::check::Witness) -> String {
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
    pub results: &'a [crate::audit::claims::check::ClaimResult],
}

impl ClaimSummary<'_> {
    pub fn count(&self, label: &str) -> usize {
        self.results.iter().filter(|r| r.verdict.label() == label).count()
    }

    pub fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        use crate::audit::claims::check::ClaimVerdict;
        let rows = self
            .results
            .iter()
            .map(|r| {
                let detail = match &r.verdict {
                    ClaimVerdict::Refuted(Some(w)) => witness_brief(w),
                    ClaimVerdict::Refuted(None) => "holds for every input in the range".into(),
                    ClaimVerdict::Holds(Some(w))
                        if matches!(r.claim.check, crate::audit::claims::Check::Fails { .. }) =>
                    {
                        witness_brief(w)
                    }
                    ClaimVerdict::NotCheckable(why) | ClaimVerdict::Unknown(why) => why.clone(),
                    ClaimVerdict::Holds(_) => String::new(),
                };
                vec![r.claim.id.clone(), r.claim.kind.label().into(), r.verdict.label().into(), wrap(&detail, 60)]
            })
            .collect();
        writeln!(out, "{}", table(&["claim", "kind", "verdict", "witness / reason"], rows))?;
        writeln!(
            out,
            "\n{} claims: {} hold, {} refuted, {} not checkable, {} unknown",
            self.results.len(),
            self.count("holds"),
            self.count("refuted"),
            self.count("not checkable"),
            self.count("unknown"),
        )?;
        if self.count("refuted") > 0 {
            writeln!(
                out,
                "A refuted claim is a finding about the spec text: `ptxcheck claims --id ID` shows it in full."
            )?;
        }
        Ok(())
    }

    pub fn json(&self) -> Value {
        let claims: Vec<Value> = self.results.iter().map(claim_json).collect();
        json!({
            "claims": claims,
            "summary": {
                "claims": self.results.len(),
                "holds": self.count("holds"),
                "refuted": self.count("refuted"),
                "not_checkable": self.count("not checkable"),
                "unknown": self.count("unknown"),
            }
        })
    }
}

fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines.join("\n")
}

fn check_json(check: &crate::audit::claims::Check) -> Value {
    use crate::audit::claims::Check;
    match check {
        Check::Values { program, inputs, expect } => json!({
            "how": "values", "program": program,
            "inputs": inputs.iter().map(|(n, v)| (n.clone(), json!(format!("{v:#x}")))).collect::<Map<_, _>>(),
            "expect": expect,
        }),
        Check::Always { program, assume, holds } => {
            json!({"how": "always", "program": program, "assume": assume, "holds": holds})
        }
        Check::Fails { program, assume, holds } => {
            json!({"how": "fails", "program": program, "assume": assume, "holds": holds})
        }
        Check::Warp { program, register, sum } => {
            json!({"how": "warp", "program": program, "register": register, "sum": format!("{sum:?}").to_lowercase()})
        }
        Check::Parses { text } => json!({"how": "catalogue", "instruction": text}),
        Check::FitsSyntax { text } => json!({"how": "syntax-block", "instruction": text}),
        Check::NotCheckable { reason } => json!({"how": "none", "reason": reason}),
    }
}

fn claim_json(r: &crate::audit::claims::check::ClaimResult) -> Value {
    let mut o = Map::new();
    o.insert("id".into(), json!(r.claim.id));
    o.insert("section".into(), json!(r.claim.section));
    o.insert("kind".into(), json!(r.claim.kind.label()));
    o.insert("statement".into(), json!(r.claim.statement));
    if let Some(f) = &r.claim.fragment {
        o.insert("fragment".into(), json!(f));
    }
    o.insert("check".into(), check_json(&r.claim.check));
    o.insert("method".into(), json!(r.method));
    o.insert("verdict".into(), json!(r.verdict.label()));
    match &r.verdict {
        crate::audit::claims::check::ClaimVerdict::NotCheckable(why)
        | crate::audit::claims::check::ClaimVerdict::Unknown(why) => {
            o.insert("reason".into(), json!(why));
        }
        _ => {}
    }
    if let Some(w) = r.verdict.witness() {
        o.insert(
            "witness".into(),
            json!({
                "inputs": w.inputs.iter().map(|(n, v)| (n.clone(), json!(v.hex()))).collect::<Map<_, _>>(),
                "observed": w.observed.iter().map(|(n, v)| (n.clone(), v.map_or(Value::Null, |b| json!(b.hex())))).collect::<Map<_, _>>(),
                "failing": w.failing,
            }),
        );
    }
    Value::Object(o)
}

/// One claim in full: what it states, how it was checked, the verdict and
/// its witness.
pub fn claim_text(out: &mut dyn Write, r: &crate::audit::claims::check::ClaimResult) -> io::Result<()> {
    use crate::audit::claims::Check;
    let c = &r.claim;
    writeln!(out, "{} ({}, {})", c.id, c.section, c.kind.label())?;
    writeln!(out, "  claim: {}", c.statement)?;
    if let Some(f) = &c.fragment {
        writeln!(out, "  spec: `{f}`")?;
    }
    writeln!(out, "  checked by: {}", r.method)?;
    let program = match &c.check {
        Check::Values { program, .. }
        | Check::Always { program, .. }
        | Check::Fails { program, .. }
        | Check::Warp { program, .. } => Some(program),
        Check::Parses { .. } | Check::FitsSyntax { .. } | Check::NotCheckable { .. } => None,
    };
    if let Some(p) = program {
        writeln!(out, "  program:")?;
        for line in p.lines().flat_map(|l| l.split(';')).map(str::trim).filter(|l| !l.is_empty()) {
            writeln!(out, "    {line};")?;
        }
    }
    match &c.check {
        Check::Values { inputs, expect, .. } => {
            if !inputs.is_empty() {
                writeln!(
                    out,
                    "  inputs: {}",
                    inputs.iter().map(|(n, v)| format!("{n} = {v:#x}")).collect::<Vec<_>>().join(", ")
                )?;
            }
            writeln!(out, "  expect: {}", expect.join("; "))?;
        }
        Check::Always { assume, holds, .. } => {
            writeln!(
                out,
                "  for every input with: {}",
                if assume.is_empty() { "-".into() } else { assume.join("; ") }
            )?;
            writeln!(out, "  holds: {}", holds.join("; "))?;
        }
        Check::Fails { assume, holds, .. } => {
            writeln!(out, "  some input with: {}", assume.join("; "))?;
            writeln!(out, "  breaks: {}", holds.join("; "))?;
        }
        Check::Warp { register, sum, .. } => {
            let which = match sum {
                crate::audit::claims::WarpSum::Prefix => "over lanes 0 to its own",
                crate::audit::claims::WarpSum::Suffix => "over its own lane to lane 31",
                crate::audit::claims::WarpSum::Total => "over all 32 lanes",
            };
            writeln!(out, "  for every {register} in each of the 32 lanes, each lane's {register} ends as the sum {which} (mod 2^32)")?;
        }
        Check::Parses { text } | Check::FitsSyntax { text } => writeln!(out, "  instruction: {text}")?,
        Check::NotCheckable { .. } => {}
    }
    writeln!(out, "  verdict: {}", r.verdict.label())?;
    match &r.verdict {
        crate::audit::claims::check::ClaimVerdict::NotCheckable(why)
        | crate::audit::claims::check::ClaimVerdict::Unknown(why) => {
            writeln!(out, "  reason: {why}")?;
        }
        crate::audit::claims::check::ClaimVerdict::Refuted(None) => writeln!(out, "  no input in the range breaks it")?,
        _ => {}
    }
    if let Some(w) = r.verdict.witness() {
        let mut rows: Vec<Vec<String>> =
            w.inputs.iter().map(|(n, v)| vec!["input".into(), n.clone(), v.hex()]).collect();
        rows.extend(w.observed.iter().map(|(n, v)| vec!["result".into(), n.clone(), register_text(*v)]));
        writeln!(out, "  witness:")?;
        for line in table(&["", "register", "value"], rows).lines() {
            writeln!(out, "    {line}")?;
        }
        if !w.failing.is_empty() {
            writeln!(out, "  fails: {}", w.failing.join("; "))?;
        }
    }
    Ok(())
}

/// The audit's findings as a table, then counts by kind.
pub fn audit_text(out: &mut dyn Write, audit: &crate::audit::Audit) -> io::Result<()> {
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
    let counts: Vec<String> = crate::audit::finding::FindingKind::ALL
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
pub fn finding_text(out: &mut dyn Write, f: &crate::audit::finding::Finding) -> io::Result<()> {
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
pub fn witness_table(out: &mut dyn Write, w: &crate::audit::finding::WitnessTable) -> io::Result<()> {
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
pub fn audit_json(audit: &crate::audit::Audit) -> Value {
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
