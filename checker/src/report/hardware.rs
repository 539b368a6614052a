//! The hardware in the reports: the committed GPU run (`reports/vendor/
//! h100-run.txt`, written by `ptxcheck hw run --output`) read back and
//! compared with the model, for the counts in the README and a line per
//! finding saying which reading the GPU takes on the finding's witness.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use ptx_spec::assumption::Assumption;
use ptx_spec::bv::Concrete;
use ptx_spec::bv::{hex, mask, parse_hex};
use ptx_spec::catalogue::Variant;
use ptx_spec::family::shfl::Warp;

use crate::audit::finding::{Finding, WitnessTable};
use crate::audit::passages::compare::{PairVerdict, PassageResult};
use crate::audit::Audit;
use crate::oracle::fold;
use crate::oracle::hw::{self, Compared};

/// The edge sweep's results on the same GPU, beside the run.
pub const EDGES: &str = "h100-edges.txt";

/// The variant and the thread's model inputs of a whole-warp shfl result's
/// label (`shfl shfl.up.b32 d|p b=0x1 c=0x0 active=0xffffffff base=0x100
/// lane=3`): lane l holds a = base + l.
fn shfl_thread(label: &str) -> Option<(Variant, Vec<ptx_spec::BitVec>)> {
    let tokens: Vec<&str> = label.split_whitespace().collect();
    let name =
        if tokens.get(2) == Some(&"d|p") { format!("{} d|p", tokens.get(1)?) } else { tokens.get(1)?.to_string() };
    let variant = Variant::from_mnemonic(&name)?;
    let field =
        |key: &str| -> Option<u32> { u32::try_from(parse_hex(tokens.iter().find_map(|t| t.strip_prefix(key))?)?).ok() };
    let lane: usize = tokens.iter().find_map(|t| t.strip_prefix("lane="))?.parse().ok().filter(|l| *l < 32)?;
    let base = field("base=")?;
    let Variant::Shfl(shfl) = variant else { return None };
    let warp = Warp::uniform(
        std::array::from_fn(|l| base.wrapping_add(l as u32)),
        field("b=")?,
        field("c=")?,
        field("active=")?,
    );
    Some((variant, warp.thread_inputs(shfl, lane)))
}

/// The file of the committed run, under the report's `vendor/`.
pub const RUN: &str = "h100-run.txt";

/// A committed GPU run, compared with the model.
pub struct Hardware {
    /// The `# device:` line: what it ran on.
    pub device: String,
    pub rows: Vec<Compared>,
    by_label: HashMap<String, usize>,
    run_instances: OnceLock<Vec<fold::Row>>,
}

impl Hardware {
    /// The run in `dir/vendor`, if there is one that reads.
    pub fn load(dir: &Path) -> Option<Hardware> {
        let text = std::fs::read_to_string(dir.join("vendor").join(RUN)).ok()?;
        let mut hw = Hardware::parse(&text)?;
        // The edge sweep on the same GPU: its results join the run's, one
        // label per input (the run's result first where both have one).
        if let Ok(edges) = std::fs::read_to_string(dir.join("vendor").join(EDGES)) {
            for row in hw::compare(&edges).ok()? {
                if !hw.by_label.contains_key(&row.label) {
                    hw.by_label.insert(row.label.clone(), hw.rows.len());
                    hw.rows.push(row);
                }
            }
        }
        Some(hw)
    }

    pub fn parse(text: &str) -> Option<Hardware> {
        let device = text.lines().find_map(|l| l.strip_prefix("# device: "))?.trim().to_string();
        let rows = hw::compare(text).ok()?;
        let by_label = rows.iter().enumerate().map(|(k, r)| (r.label.clone(), k)).collect();
        Some(Hardware { device, rows, by_label, run_instances: OnceLock::new() })
    }

    /// The device's name alone (before its target).
    pub fn name(&self) -> &str {
        self.device.split(" (").next().unwrap_or(&self.device)
    }

    /// How many results have `verdict` (`agree`, `disagree`, `hardware picks`).
    pub fn count(&self, verdict: &str) -> usize {
        self.rows.iter().filter(|r| r.verdict == verdict).count()
    }

    /// The GPU's line for a finding: on its single-instruction witness, the
    /// value it gives and the readings that value matches; "not run" where
    /// the witness is not one instruction the run holds.
    pub fn line(&self, f: &Finding) -> String {
        let name = self.name();
        let not_run = format!("{name}: not run (the finding has no single-instruction witness in the run)");
        let Some(w) = &f.witness else { return not_run };
        let Some(label) = label(w) else { return not_run };
        let Some(row) = self.by_label.get(&label).map(|&k| &self.rows[k]) else { return not_run };
        let got: Vec<u128> = row.hardware.split_whitespace().filter_map(parse_hex).collect();
        let matches = matching(w, &got);
        let verdict = match (row.verdict, matches.is_empty()) {
            ("agree", true) => "the GPU and the model agree".to_string(),
            ("agree", false) => format!("the GPU and the model agree (reading: {})", matches.join(", ")),
            ("hardware picks", true) => "the spec leaves it open; the GPU's value matches no reading".into(),
            ("hardware picks", false) => {
                format!("the spec leaves it open; the GPU takes reading {}", matches.join(", "))
            }
            (_, true) => "the GPU contradicts the model, and matches no reading".into(),
            (_, false) => format!("the GPU contradicts the model; it takes reading {}", matches.join(", ")),
        };
        format!(
            "{name}: `{}` gives {} (model: {}): {verdict}",
            label.trim_start_matches("inst "),
            row.hardware,
            row.model
        )
    }
}

/// Which readings of one passage the GPU takes, over the inputs that
/// separate its readings (the audit's comparisons) that the run holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassageReadings {
    pub passage: &'static str,
    /// Distinct separating inputs, and how many of them the run holds.
    pub witnesses: usize,
    pub run: usize,
    /// Per reading, on how many of the run's inputs the GPU's value is the
    /// reading's.
    pub matches: Vec<(&'static str, usize)>,
    /// Inputs where the GPU matches no reading, and the smallest of them.
    pub none: usize,
    pub smallest_none: Option<String>,
}

impl Hardware {
    /// Every passage's readings against the GPU.
    pub fn readings(&self, audit: &Audit) -> Vec<PassageReadings> {
        audit.passages.iter().map(|p| passage_readings(p, &|label| self.values(label))).collect()
    }

    /// The GPU's outputs for a label (`0x1 0x0`), if the run has it.
    fn values(&self, label: &str) -> Option<String> {
        self.by_label.get(label).map(|&k| self.rows[k].hardware.clone())
    }
}

/// Which readings of a passage a vendor takes, on the inputs separating
/// them that it has values for: `values` gives a label's outputs as the
/// vendor gave them (`0x1 0x0`), `None` where it has none.
pub fn passage_readings(result: &PassageResult, values: &dyn Fn(&str) -> Option<String>) -> PassageReadings {
    let passage = result.passage;
    let mut witnesses: Vec<(String, &WitnessTable)> = Vec::new();
    for pair in &result.pairs {
        if let PairVerdict::Differ { witness } = &pair.verdict {
            if let Some(l) = label(witness) {
                if !witnesses.iter().any(|(seen, _)| *seen == l) {
                    witnesses.push((l, witness));
                }
            }
        }
    }
    let mut matches: Vec<(&'static str, usize)> = passage.readings.iter().map(|r| (r.name, 0)).collect();
    let (mut run, mut none, mut smallest_none) = (0, 0, None::<(u128, String)>);
    for (l, w) in &witnesses {
        let Some(given) = values(l) else { continue };
        let Some(variant) = Variant::from_mnemonic(&w.variant) else { continue };
        run += 1;
        let got: Vec<u128> = given.split_whitespace().filter_map(parse_hex).collect();
        let inputs: Vec<_> = w.inputs.iter().map(|(_, v)| *v).collect();
        let mut any = false;
        for (k, r) in passage.readings.iter().enumerate() {
            let Some(outs) = r.formula.outputs(&Concrete, &variant, &inputs) else { continue };
            let same =
                outs.len() == got.len() && outs.iter().zip(&got).all(|(o, g)| o.defined && o.value.unsigned() == *g);
            if same {
                matches[k].1 += 1;
                any = true;
            }
        }
        if !any {
            none += 1;
            let size: u128 = inputs.iter().map(|v| v.unsigned()).sum();
            if smallest_none.as_ref().is_none_or(|(s, _)| size < *s) {
                let shown = format!("`{}` gives {given}", l.trim_start_matches("inst "));
                smallest_none = Some((size, shown));
            }
        }
    }
    PassageReadings {
        passage: passage.id,
        witnesses: witnesses.len(),
        run,
        matches,
        none,
        smallest_none: smallest_none.map(|(_, s)| s),
    }
}

/// ptxas's folded values (`ptxas-fold.json`'s instances) by label, as
/// [`passage_readings`] reads them: only the instances it folded.
pub fn folded_by_label(fold: &[fold::Row]) -> HashMap<String, String> {
    fold.iter()
        .filter(|i| i.verdict != "not folded" && i.verdict != "rejected")
        .map(|i| (format!("inst {} {}", i.variant, i.inputs.join(" ")), i.vendor.join(" ")))
        .collect()
}

impl Hardware {
    /// The GPU's line for an assumption: the run's results on the variants
    /// it covers (`users`; none listed: every variant), and, where the
    /// assumption is a passage, the readings the GPU takes.
    pub fn assumption_line(&self, a: &Assumption, users: &[String], audit: &Audit) -> String {
        let mine: Vec<&Compared> = self
            .rows
            .iter()
            .filter(|r| {
                let variant = r.label.split_whitespace().nth(1).unwrap_or("");
                r.label.starts_with("inst ") && (users.is_empty() || users.iter().any(|u| u == variant))
            })
            .collect();
        let count = |v: &str| mine.iter().filter(|r| r.verdict == v).count();
        let mut line = format!(
            "{}: {} results on its variants, {} agree, {} disagree, {} where the model leaves the value open",
            self.name(),
            mine.len(),
            count("agree"),
            count("disagree"),
            count("hardware picks")
        );
        if let Some(p) = audit.passages.iter().find(|p| p.passage.id == a.id) {
            let r = passage_readings(p, &|label| self.values(label));
            if r.run > 0 {
                let gives: Vec<String> = r.matches.iter().map(|(name, n)| format!("{name} {n}/{}", r.run)).collect();
                line.push_str(&format!("; on the inputs separating its readings: {}", gives.join(", ")));
            }
        }
        line
    }
}

impl Hardware {
    /// The run in the layout of `ptxas-fold.json`'s instances, so that the
    /// errata read the GPU's verdict as they read ptxas's: the witnesses of
    /// `findings` the run holds (origin `audit ID`, with the readings their
    /// value matches). Every other result is in [`Hardware::run_instances`].
    pub fn instances(&self, findings: &[&Finding]) -> Vec<fold::Row> {
        let mut out = Vec::new();
        for f in findings {
            let Some(w) = &f.witness else { continue };
            let Some(row) = label(w).and_then(|l| self.by_label.get(&l)).map(|&k| &self.rows[k]) else { continue };
            let got: Vec<u128> = row.hardware.split_whitespace().filter_map(parse_hex).collect();
            out.push(instance(row, format!("audit {}", f.id), matching(w, &got)));
        }
        out
    }

    /// Every result of the run as an instance (origin `run`), after those
    /// of [`Hardware::instances`]: the same for every root cause, so made
    /// once (some 13,000 rows).
    pub fn run_instances(&self) -> &[fold::Row] {
        self.run_instances.get_or_init(|| {
            let mut out: Vec<fold::Row> = self
                .rows
                .iter()
                .filter(|r| r.label.starts_with("inst "))
                .map(|r| instance(r, "run".into(), vec![]))
                .collect();
            // A whole-warp shfl case, one lane: the thread's inputs, so that
            // the readings of shfl's passages can be run on it.
            for r in self.rows.iter().filter(|r| r.label.starts_with("shfl ")) {
                let Some((variant, inputs)) = shfl_thread(&r.label) else { continue };
                let mut row = instance(r, format!("run {}", r.label), vec![]);
                row.variant = variant.to_string();
                row.inputs =
                    variant.inputs().iter().zip(&inputs).map(|(o, x)| hex(x.unsigned(), o.ty.width())).collect();
                out.push(row);
            }
            out
        })
    }
}

/// A compared result as a row of `ptxas-fold.json`'s instances, from
/// `origin`, matching the readings `matches`.
fn instance(r: &Compared, origin: String, matches: Vec<&str>) -> fold::Row {
    let verdict = if r.verdict == "hardware picks" { "vendor picks" } else { r.verdict };
    let words = |t: &str| t.split_whitespace().map(String::from).collect::<Vec<_>>();
    fold::Row {
        origin,
        variant: r.label.split_whitespace().nth(1).unwrap_or("").to_string(),
        inputs: r.label.split_whitespace().skip(2).map(String::from).collect(),
        vendor: words(&r.hardware),
        model: r.model.split(' ').map(String::from).collect(),
        verdict: verdict.to_string(),
        matches: Some(matches.into_iter().map(String::from).collect()),
        error: None,
    }
}

/// The readings (columns) of a witness whose values are `got`.
fn matching<'a>(w: &'a WitnessTable, got: &[u128]) -> Vec<&'a str> {
    w.columns
        .iter()
        .enumerate()
        .filter(|(c, _)| {
            w.rows.len() == got.len()
                && w.rows.iter().zip(got).all(|((_, values), g)| {
                    values.get(*c).copied().flatten().is_some_and(|v| v.unsigned() & mask(v.width()) == *g)
                })
        })
        .map(|(_, name)| name.as_str())
        .collect()
}

/// The run's label of a witness that is one instruction on its inputs:
/// `inst bfe.u64 0x0000000000000040 0x80000000 0xffffffff`.
fn label(w: &WitnessTable) -> Option<String> {
    let variant = Variant::from_mnemonic(&w.variant)?;
    if variant.is_warp_wide() {
        return None;
    }
    let ops = variant.inputs();
    if ops.len() != w.inputs.len() || ops.iter().zip(&w.inputs).any(|(o, (n, _))| o.name != n) {
        return None;
    }
    let values: Vec<String> = w
        .inputs
        .iter()
        .zip(&ops)
        .map(|((_, v), o)| {
            let digits = o.ty.width().div_ceil(4).max(1) as usize;
            format!("{:#0w$x}", v.unsigned(), w = digits + 2)
        })
        .collect();
    Some(format!("inst {} {}", variant, values.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::finding::{FindingKind, Severity};
    use ptx_spec::bv::BitVec;

    fn finding(variant: &str, inputs: &[(&str, u32, u128)], columns: &[&str], values: &[Option<u128>]) -> Finding {
        Finding {
            id: "x".into(),
            section: "9.7.1.8".into(),
            kind: FindingKind::Ambiguity,
            severity: Severity::Medium,
            fragment: String::new(),
            summary: String::new(),
            detail: vec![],
            model_choice: None,
            root_cause: String::new(),
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
            witness: Some(WitnessTable {
                variant: variant.into(),
                inputs: inputs.iter().map(|(n, w, v)| (n.to_string(), BitVec::new(*w, *v))).collect(),
                columns: columns.iter().map(|c| c.to_string()).collect(),
                rows: vec![("d".into(), values.iter().map(|v| v.map(|v| BitVec::new(32, v))).collect())],
            }),
        }
    }

    #[test]
    fn a_finding_gets_the_reading_the_gpu_takes() {
        let run = "# device: NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0 driver API\n\
                   inst div.u32 0x00000007 0x00000000 -> 0xffffffff\n\
                   inst add.u32 0x00000005 0x00000007 -> 0xd\n";
        let hw = Hardware::parse(run).unwrap();
        assert_eq!(hw.name(), "NVIDIA H100 80GB HBM3");
        assert_eq!((hw.count("agree"), hw.count("disagree"), hw.count("hardware picks")), (0, 1, 1));
        let f = finding(
            "div.u32",
            &[("a", 32, 7), ("b", 32, 0)],
            &["smt-lib-total", "zero"],
            &[Some(u32::MAX.into()), Some(0)],
        );
        assert_eq!(
            hw.line(&f),
            "NVIDIA H100 80GB HBM3: `div.u32 0x00000007 0x00000000` gives 0xffffffff (model: unspecified): the spec \
             leaves it open; the GPU takes reading smt-lib-total"
        );
        let f = finding("add.u32", &[("a", 32, 5), ("b", 32, 7)], &["model"], &[Some(12)]);
        assert!(hw.line(&f).ends_with("the GPU contradicts the model, and matches no reading"), "{}", hw.line(&f));
        let f = finding("add.u32", &[("a", 32, 1), ("b", 32, 7)], &["model"], &[Some(8)]);
        assert!(hw.line(&f).ends_with(": not run (the finding has no single-instruction witness in the run)"));
        let audit = Audit { passages: vec![], claims: vec![], literal: vec![], findings: vec![] };
        let a = ptx_spec::assumption::ALL[0];
        assert_eq!(
            hw.assumption_line(a, &["div.u32".to_string()], &audit),
            "NVIDIA H100 80GB HBM3: 1 results on its variants, 0 agree, 0 disagree, 1 where the model leaves the value open"
        );
    }

    /// ptxas's folded values count per reading as the GPU's do, by the
    /// instruction and its inputs, whatever the instance's origin; an
    /// instance ptxas did not fold counts as not run.
    #[test]
    fn a_passage_counts_the_readings_ptxas_takes() {
        let passage = crate::audit::passages::PASSAGES.iter().find(|p| p.id == "shf-shift-by-32").unwrap();
        let result = crate::audit::passages::compare::check(
            passage,
            &ptx_smt::solver::Backend::Embedded,
            std::time::Duration::from_secs(60),
        );
        let separating: Vec<&WitnessTable> = result
            .pairs
            .iter()
            .filter_map(|p| match &p.verdict {
                PairVerdict::Differ { witness } => Some(witness),
                _ => None,
            })
            .collect();
        assert_eq!(separating.len(), 2);
        let instance = |w: &WitnessTable, vendor: &str, verdict: &str| fold::Row {
            variant: w.variant.clone(),
            origin: "sample".into(),
            inputs: label(w).unwrap().split(' ').skip(2).map(String::from).collect(),
            model: Vec::new(),
            vendor: vec![vendor.to_string()],
            verdict: verdict.into(),
            matches: None,
            error: None,
        };
        // The first folded to the model's value, the second to no reading's
        // (0x12345678), a third copy of it not folded.
        let model = |w: &WitnessTable| format!("0x{:08x}", w.rows[0].1[0].unwrap().unsigned());
        let fold = [
            instance(separating[0], &model(separating[0]), "agree"),
            instance(separating[1], "0x12345678", "disagree"),
        ];
        let folded = folded_by_label(&fold);
        let r = passage_readings(&result, &|l| folded.get(l).cloned());
        assert_eq!((r.witnesses, r.run, r.none), (2, 2, 1));
        assert_eq!(r.matches, vec![("model", 1), ("mod-32", 0)]);
        assert!(r.smallest_none.unwrap().ends_with("gives 0x12345678"));
        let unfolded = [instance(separating[0], "not folded (SHF)", "not folded")];
        let folded = folded_by_label(&unfolded);
        assert_eq!(passage_readings(&result, &|l| folded.get(l).cloned()).run, 0);
    }
}
