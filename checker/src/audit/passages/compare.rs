//! The ambiguous passages (`crate::audit::passages`): every pair of readings is
//! proven to agree on all inputs of each variant, or told apart by inputs the
//! solver finds, minimised, and confirmed by evaluating both readings
//! concretely.

use std::time::Duration;

use crate::audit::passages::{Passage, Reading, Text};
use ptx_smt::{Backend, SatResult, SolverError, Sym, SymBv, SymOutputs, Var};
use ptx_spec::bv::{Algebra, BitVec, Concrete};
use ptx_spec::catalogue::Variant;
use rayon::prelude::*;
use serde::Serialize;

use crate::audit::finding::{Finding, FindingKind, Severity, WitnessTable};
use crate::prove::{compare_least, Comparison, Sides};

/// How two readings compare on one variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum PairVerdict {
    /// Proven equal (outputs and definedness) on every input.
    Agree,
    /// Confirmed inputs on which they differ: the table has the two columns.
    Differ { witness: WitnessTable },
    /// No answer from the solver, or an answer that did not check out.
    Unknown { reason: String },
}

#[derive(Clone, Debug, Serialize)]
pub struct Pair {
    pub first: &'static str,
    pub second: &'static str,
    pub variant: String,
    #[serde(flatten)]
    pub verdict: PairVerdict,
}

/// Whether a reading agrees with a text or an example.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agreement {
    Yes,
    No,
    Unknown,
    /// No reading transcribes that text (or there is no example).
    NotApplicable,
}

impl Agreement {
    pub fn label(self) -> &'static str {
        match self {
            Agreement::Yes => "yes",
            Agreement::No => "no",
            Agreement::Unknown => "unknown",
            Agreement::NotApplicable => "-",
        }
    }
}

/// One reading's standing.
#[derive(Clone, Debug, Serialize)]
pub struct ReadingSummary {
    pub name: &'static str,
    pub says: &'static str,
    pub text: Text,
    pub adopted: bool,
    /// The other readings it is proven equal to on every variant.
    pub agrees_with: Vec<&'static str>,
    /// Is, or agrees on every variant with, a reading that transcribes the
    /// pseudocode as it stands (a repair is not the pseudocode) ...
    pub pseudocode: Agreement,
    /// ... a reading of the prose ...
    pub prose: Agreement,
    /// ... gives every worked example's stated result ...
    pub examples: Agreement,
    /// ... and agrees with the model.
    pub model: Agreement,
}

/// Everything the audit learned about one passage.
#[derive(Clone, Debug)]
pub struct PassageResult {
    pub passage: &'static Passage,
    pub pairs: Vec<Pair>,
    pub readings: Vec<ReadingSummary>,
}

/// Compare every pair of readings of `passage` at every width it covers.
pub fn check(passage: &'static Passage, backend: &Backend, timeout: Duration) -> PassageResult {
    let rs = passage.readings;
    let widths = passage.widths();
    let jobs: Vec<(usize, usize, &str)> = widths
        .iter()
        .flat_map(|v| (0..rs.len()).flat_map(move |i| (i + 1..rs.len()).map(move |j| (i, j, v.as_str()))))
        .collect();
    let pairs: Vec<Pair> = jobs
        .par_iter()
        .map(|&(i, j, v)| {
            let variant = Variant::from_mnemonic(v).expect("a passage's widths are catalogue names");
            let verdict = compare_readings(&variant, &rs[i], &rs[j], backend, timeout)
                .unwrap_or_else(|e| PairVerdict::Unknown { reason: e.to_string() });
            Pair { first: rs[i].name, second: rs[j].name, variant: v.to_string(), verdict }
        })
        .collect();
    let readings = rs.iter().map(|r| summarise(passage, r, &pairs)).collect();
    PassageResult { passage, pairs, readings }
}

/// How reading `r` stands against the readings of a text: it agrees with
/// the text if it is one of its readings or is proven equal, on every
/// variant, to one of them.
fn summarise(passage: &Passage, r: &Reading, pairs: &[Pair]) -> ReadingSummary {
    let agreement = |other: &str| -> Agreement {
        if other == r.name {
            return Agreement::Yes;
        }
        let mut result = Agreement::Yes;
        for p in
            pairs.iter().filter(|p| (p.first, p.second) == (r.name, other) || (p.second, p.first) == (r.name, other))
        {
            match p.verdict {
                PairVerdict::Agree => {}
                PairVerdict::Differ { .. } => return Agreement::No,
                PairVerdict::Unknown { .. } => result = Agreement::Unknown,
            }
        }
        result
    };
    let against = |is: &dyn Fn(&Reading) -> bool| -> Agreement {
        let verdicts: Vec<Agreement> = passage.readings.iter().filter(|o| is(o)).map(|o| agreement(o.name)).collect();
        if verdicts.is_empty() {
            Agreement::NotApplicable
        } else if verdicts.contains(&Agreement::Yes) {
            Agreement::Yes
        } else if verdicts.contains(&Agreement::Unknown) {
            Agreement::Unknown
        } else {
            Agreement::No
        }
    };
    let examples = if passage.examples.is_empty() {
        Agreement::NotApplicable
    } else if passage.examples.iter().all(|e| example_holds(r, e)) {
        Agreement::Yes
    } else {
        Agreement::No
    };
    ReadingSummary {
        name: r.name,
        says: r.says,
        text: r.text,
        adopted: passage.adopted == r.name,
        agrees_with: passage
            .readings
            .iter()
            .filter(|o| o.name != r.name && agreement(o.name) == Agreement::Yes)
            .map(|o| o.name)
            .collect(),
        pseudocode: against(&|o| o.text == Text::Pseudocode),
        prose: against(&|o| o.text == Text::Prose),
        examples,
        model: against(&|o| o.name == "model"),
    }
}

/// The reading gives the example's stated outputs.
fn example_holds(r: &Reading, e: &crate::audit::passages::Example) -> bool {
    let Some(variant) = Variant::from_mnemonic(e.variant) else { return false };
    let ins: Vec<BitVec> = variant.inputs().iter().zip(e.inputs).map(|(o, &v)| BitVec::new(o.ty.width(), v)).collect();
    match r.formula.outputs(&Concrete, &variant, &ins) {
        Some(outs) => outs.iter().zip(e.outputs).all(|(o, &want)| o.defined && o.value.unsigned() == want),
        None => false,
    }
}

/// Prove two readings equal on `variant`, or find and confirm inputs on
/// which they differ.
fn compare_readings(
    variant: &Variant,
    first: &Reading,
    second: &Reading,
    backend: &Backend,
    timeout: Duration,
) -> Result<PairVerdict, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let vars: Vec<Var> =
        variant.inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
    let output_names: Vec<String> = variant.outputs().iter().map(|o| o.name.to_string()).collect();
    let sym = Sym::new(&ctx);
    let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
    let side = |r: &Reading| -> Result<SymOutputs, SolverError> {
        r.formula.outputs(&sym, variant, &ins).ok_or_else(|| SolverError::Rejected {
            solver: "audit".into(),
            message: format!("reading {} does not apply to {variant}", r.name),
        })
    };
    let (a, b) = (side(first)?, side(second)?);
    // Readings that are one function of their keys agree where the keys
    // do: asked of the keys, a small query, before the outputs are (fns's
    // magnitudes: the outputs hold two copies of the 32-step scans, which
    // took the solver 20-40 s to match).
    let keys = (first.formula.key(&sym, variant, &ins), second.formula.key(&sym, variant, &ins));
    if let (Some(ka), Some(kb)) = keys {
        if ka.len() == kb.len() {
            let differ =
                ka.iter().zip(&kb).fold(sym.bool_constant(false), |d, (x, y)| sym.or(d, sym.not(sym.eq(*x, *y))));
            if backend.check(&mut ctx, &vars, &[differ], timeout)? == SatResult::Unsat {
                return Ok(PairVerdict::Agree);
            }
        }
    }
    let sides = Sides { vars: &vars, constraint: None, output_names: &output_names, smt: &a, concrete: &b };
    Ok(match compare_least(backend, &mut ctx, &sides, timeout)? {
        Comparison::Equivalent => PairVerdict::Agree,
        Comparison::Differ(cex) => {
            let inputs: Vec<BitVec> = cex.inputs.iter().map(|(_, v)| *v).collect();
            match witness(variant, &[first, second], &inputs) {
                Some(table) if table.rows.iter().any(|(_, vs)| vs[0] != vs[1]) => {
                    PairVerdict::Differ { witness: table }
                }
                _ => PairVerdict::Unknown {
                    reason: "the solver's witness does not make the readings differ on concrete evaluation".into(),
                },
            }
        }
        Comparison::Unconfirmed(_) => PairVerdict::Unknown {
            reason: "the solver's witness does not make the readings differ on concrete evaluation".into(),
        },
        Comparison::Unknown(reason) => PairVerdict::Unknown { reason },
    })
}

/// Every reading in `readings` evaluated concretely on `inputs`.
pub fn witness(variant: &Variant, readings: &[&Reading], inputs: &[BitVec]) -> Option<WitnessTable> {
    let names: Vec<String> = variant.inputs().iter().map(|o| o.name.to_string()).collect();
    let mut columns = Vec::new();
    let mut values: Vec<Vec<Option<BitVec>>> = Vec::new();
    for r in readings {
        let outs = r.formula.outputs(&Concrete, variant, inputs)?;
        columns.push(r.name.to_string());
        values.push(outs.iter().map(|o| o.defined.then_some(o.value)).collect());
    }
    let rows = variant
        .outputs()
        .iter()
        .enumerate()
        .map(|(k, o)| (o.name.to_string(), values.iter().map(|v| v[k]).collect()))
        .collect();
    // A warp-wide instruction has 99 inputs; the ones left at 0 go unlisted.
    let shown = names
        .into_iter()
        .zip(inputs.iter().copied())
        .filter(|(_, v)| !variant.is_warp_wide() || v.unsigned() != 0)
        .collect();
    Some(WitnessTable { variant: variant.to_string(), inputs: shown, columns, rows })
}

/// The passage as a finding: its readings, what each agrees with, and the
/// first confirmed witness against the adopted reading, with every reading's
/// outputs on it.
pub fn finding(result: &PassageResult) -> Finding {
    let p = result.passage;
    let adopted = p.reading(p.adopted).expect("tested: the adopted reading exists");
    let differ: Vec<&Pair> = result.pairs.iter().filter(|q| matches!(q.verdict, PairVerdict::Differ { .. })).collect();
    // Prefer a witness that involves the adopted reading.
    let lead = differ.iter().find(|q| q.first == p.adopted || q.second == p.adopted).or(differ.first());
    let witness = lead.and_then(|q| {
        let PairVerdict::Differ { witness } = &q.verdict else { return None };
        let variant = Variant::from_mnemonic(&q.variant)?;
        let inputs = full_inputs(&variant, witness);
        self::witness(&variant, &p.readings.iter().collect::<Vec<_>>(), &inputs)
    });
    // Up to two more inputs that tell the readings apart, each with every
    // reading: the compact table's further columns.
    let mut more_witnesses: Vec<WitnessTable> = Vec::new();
    for q in &differ {
        let PairVerdict::Differ { witness: w } = &q.verdict else { continue };
        let Some(variant) = Variant::from_mnemonic(&q.variant) else { continue };
        let inputs = full_inputs(&variant, w);
        let Some(t) = self::witness(&variant, &p.readings.iter().collect::<Vec<_>>(), &inputs) else { continue };
        let seen = witness.iter().chain(&more_witnesses).any(|o| o.variant == t.variant && o.inputs == t.inputs);
        if !seen && more_witnesses.len() < 2 {
            more_witnesses.push(t);
        }
    }
    // The prose-against-pseudocode pass over the passages: where the
    // passage has readings of both texts and no reading of the prose agrees
    // with the pseudocode, the text contradicts itself; otherwise the
    // passage is ambiguous.
    let prose: Vec<&ReadingSummary> = result.readings.iter().filter(|r| r.text == Text::Prose).collect();
    let contradicts = !prose.is_empty() && prose.iter().all(|r| r.pseudocode == Agreement::No);
    let distinct = distinct_results(result);
    let unknown = result.pairs.iter().filter(|q| matches!(q.verdict, PairVerdict::Unknown { .. })).count();
    let summary = format!(
        "{}: {} readings give {} different results{}; adopted: {}",
        p.question,
        p.readings.len(),
        distinct,
        if unknown > 0 { format!(" ({unknown} comparisons unknown)") } else { String::new() },
        adopted.says
    );
    let mut detail = Vec::new();
    for r in &result.readings {
        detail.push(format!(
            "`{}` ({}{}): {}. Same results as: {}. Agrees with the pseudocode: {}; the prose: {}; the examples: {}; \
             the model: {}.",
            r.name,
            r.text.label(),
            if r.adopted { ", adopted" } else { "" },
            r.says,
            if r.agrees_with.is_empty() { "none".to_string() } else { r.agrees_with.join(", ") },
            r.pseudocode.label(),
            r.prose.label(),
            r.examples.label(),
            r.model.label()
        ));
    }
    // One entry per pair of readings, over every variant.
    // Which readings agree is in each reading's line, and where they differ
    // is in the witness table (every reading on the inputs that tell them
    // apart); only what the solver left open is listed pair by pair.
    for q in &result.pairs {
        if let PairVerdict::Unknown { reason } = &q.verdict {
            detail.push(format!("`{}` vs `{}` on {}: unknown ({reason})", q.first, q.second, q.variant));
        }
    }
    for e in p.examples {
        detail.push(format!("Worked example: `{}`", e.instruction));
    }
    Finding {
        id: p.id.to_string(),
        section: p.section.to_string(),
        kind: if contradicts { FindingKind::ProseVsPseudocode } else { FindingKind::Ambiguity },
        severity: if distinct > 1 { Severity::Medium } else { Severity::Low },
        root_cause: String::new(),
        fragment: p.fragment.to_string(),
        summary,
        detail,
        model_choice: Some(match p.assumption {
            Some(a) => format!("`{}` (assumption {}): {}", adopted.name, a.id, adopted.says),
            None => format!("`{}`: {}", adopted.name, adopted.says),
        }),
        witness,
        more_witnesses,
        also_quotes: Vec::new(),
        repairs: Vec::new(),
    }
}

/// How many classes of readings that agree on every variant.
fn distinct_results(result: &PassageResult) -> usize {
    let names: Vec<&str> = result.passage.readings.iter().map(|r| r.name).collect();
    let same = |a: &str, b: &str| {
        result
            .pairs
            .iter()
            .filter(|q| (q.first, q.second) == (a, b) || (q.first, q.second) == (b, a))
            .all(|q| q.verdict == PairVerdict::Agree)
    };
    let mut classes: Vec<&str> = Vec::new();
    for n in names {
        if !classes.iter().any(|c| same(c, n)) {
            classes.push(n);
        }
    }
    classes.len()
}

/// The witness's inputs in the variant's order, the unlisted ones 0.
fn full_inputs(variant: &Variant, w: &WitnessTable) -> Vec<BitVec> {
    variant
        .inputs()
        .iter()
        .map(|o| w.inputs.iter().find(|(n, _)| n == o.name).map_or(BitVec::new(o.ty.width(), 0), |(_, v)| *v))
        .collect()
}

/// `a=0x80 b=0x8 -> colon d=0xffffff80, drop-conditional d=0x80`.
pub fn show_witness(w: &WitnessTable) -> String {
    let ins: Vec<String> = w.inputs.iter().map(|(n, v)| format!("{n}={}", v.hex())).collect();
    let outs: Vec<String> = w
        .columns
        .iter()
        .enumerate()
        .map(|(c, col)| {
            let vals: Vec<String> = w
                .rows
                .iter()
                .map(|(n, vs)| format!("{n}={}", vs[c].map_or("undefined".to_string(), |v| v.hex())))
                .collect();
            format!("{col} {}", vals.join(" "))
        })
        .collect();
    format!("{} -> {}", if ins.is_empty() { "all inputs 0".to_string() } else { ins.join(" ") }, outs.join(", "))
}
