//! What NVIDIA's assembler and the committed GPU run said, as `ptxcheck
//! vendor syntax|fold --write` and `hw run --output` recorded them under
//! `reports/vendor/`: the ptxas and GPU columns of the errata and findings.

use std::path::Path;

use ptx_spec::bv::{parse_hex, BitVec};
use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

use crate::audit::finding::{Finding, FindingKind, Severity, WitnessTable};
use crate::audit::passages::compare::{self as passage_compare, PassageResult};
use crate::audit::text::names::INDEPENDENT_ONLY;

use crate::error::Error;
use crate::oracle::defects::{self, DefectsRecord};
use crate::oracle::record::{self, FoldRecord, SyntaxRecord};
use crate::oracle::{fold, syntax};

use super::hardware::Hardware;

/// What NVIDIA's assembler said, as `ptxcheck vendor syntax|fold --write`
/// recorded it under `reports/vendor/` (the ptxas column of the findings).
pub struct Vendor {
    pub syntax: SyntaxRecord,
    pub fold: FoldRecord,
    /// The committed GPU run, if there is one (`vendor/h100-run.txt`).
    pub hardware: Option<Hardware>,
    /// ptxas's miscompilations, if their record is committed
    /// (`vendor/ptxas-defects.json`).
    pub defects: Option<DefectsRecord>,
}

impl Vendor {
    /// The recorded results in `dir/vendor`, if both files are there; an
    /// error if one is not as `vendor syntax|fold` write it.
    pub fn load(dir: &Path) -> Result<Option<Vendor>, Error> {
        let syntax = record::read(&dir.join("vendor").join("ptxas-syntax.json"))?;
        let fold = record::read(&dir.join("vendor").join("ptxas-fold.json"))?;
        let defects = record::read(&dir.join("vendor").join(defects::FILE))?;
        Ok(syntax.zip(fold).map(|(syntax, fold)| Vendor { syntax, fold, hardware: Hardware::load(dir), defects }))
    }

    /// The recorded cases of the spec's example `instruction`.
    fn example_cases<'a>(&'a self, instruction: &'a str) -> impl Iterator<Item = &'a syntax::Row> + 'a {
        self.syntax
            .cases
            .iter()
            .filter(move |c| c.kind == "example" && c.instruction.split_whitespace().eq(instruction.split_whitespace()))
    }

    /// What ptxas does about a root cause, in a few words: where one of its
    /// findings' witnesses was folded, or where a sampled instance tells the
    /// readings of its passage apart; for an example, whether it assembles.
    pub fn ptxas_verdict(&self, findings: &[&Finding], passages: &[PassageResult]) -> String {
        let mut said = Vec::new();
        for f in findings.iter().filter(|f| f.kind == FindingKind::ExampleSyntax) {
            for c in self.example_cases(&f.fragment) {
                said.push(if c.error.is_some() { "rejects the example" } else { "accepts the example" });
            }
        }
        if let Some(s) = said.first() {
            return s.to_string();
        }
        // A Syntax line read two ways: ptxas on the examples only one
        // reading admits.
        let independent_only = findings.iter().flat_map(|f| &f.detail).filter_map(|d| d.strip_prefix(INDEPENDENT_ONLY));
        for example in independent_only.flat_map(|d| d.split('`').skip(1).step_by(2)) {
            for c in self.example_cases(example) {
                said.push(if c.error.is_some() {
                    "rejects the example only the independent reading admits"
                } else {
                    "accepts the example only the independent reading admits"
                });
            }
        }
        if let Some(s) = said.first() {
            return s.to_string();
        }
        // A miscompilation is ptxas's defect, not a reading it takes: such
        // inputs are left out here and named apart.
        let miscompiled = |i: &fold::Row| {
            self.defects
                .as_ref()
                .is_some_and(|d| d.defects.iter().any(|x| x.defect.variant == i.variant && x.defect.inputs == i.inputs))
        };
        let clean: Vec<&fold::Row> = self.fold.instances.iter().filter(|i| !miscompiled(i)).collect();
        let own = instances_verdict(&clean, findings);
        let verdict = match (own, picks_elsewhere(&clean, findings, passages)) {
            (Some(own), Some(elsewhere)) => format!("{own}; but {elsewhere}"),
            (None, Some(samples)) => samples,
            (own, None) => own.unwrap_or_else(|| "no instance".into()),
        };
        let widths: Vec<String> = passages
            .iter()
            .filter(|p| findings.iter().any(|f| f.id == p.passage.id))
            .flat_map(|p| p.passage.widths())
            .collect();
        let mut defects: Vec<&str> = self
            .fold
            .instances
            .iter()
            .filter(|i| miscompiled(i) && widths.contains(&i.variant))
            .map(|i| i.variant.as_str())
            .collect();
        defects.dedup();
        match defects.len() {
            0 => verdict,
            _ => format!(
                "{verdict}; ptxas miscompiles `{}` on constants ([vendor-defects.md](vendor-defects.md))",
                defects.join("`, `")
            ),
        }
    }

    /// The value ptxas folded on a witness's variant and inputs, if it
    /// folded that instance (of any origin).
    pub(super) fn folded(&self, t: &WitnessTable) -> Option<String> {
        let want: Vec<String> = t.inputs.iter().map(|(_, v)| v.hex()).collect();
        let i = self.fold.instances.iter().find(|i| i.variant == t.variant && i.inputs == want)?;
        Some(if i.verdict == "not folded" {
            "not folded".into()
        } else {
            i.vendor.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
        })
    }

    /// What the GPU does about a root cause, read from the committed run
    /// as ptxas's verdict is from its folding; "not run" without a run.
    pub fn hardware_verdict(&self, findings: &[&Finding], passages: &[PassageResult]) -> String {
        match &self.hardware {
            None => "not run".into(),
            Some(hw) => {
                let own = hw.instances(findings);
                let run: Vec<&fold::Row> = own.iter().chain(hw.run_instances()).collect();
                picks_elsewhere(&run, findings, passages)
                    .or_else(|| instances_verdict(&run, findings))
                    .or_else(|| takes_elsewhere(&run, findings, passages))
                    .or_else(|| rule_verdict(findings))
                    .unwrap_or_else(|| "not run".into())
            }
        }
    }

    /// One line per folded instance that came from this finding's witness,
    /// and for an example, what ptxas made of it.
    pub(super) fn lines(&self, f: &Finding) -> Vec<String> {
        let mut out = Vec::new();
        let origins = [format!("audit {}", f.id), format!("claim {}", f.id)];
        for i in self.fold.instances.iter().filter(|i| origins.contains(&i.origin)) {
            let matches = i.matches.as_deref().unwrap_or_default().join(", ");
            let verdict = match i.verdict.as_str() {
                "agree" if matches.is_empty() => "spec and vendor agree".to_string(),
                "agree" => format!("spec and vendor agree (reading: {matches})"),
                "vendor picks" if matches.is_empty() => {
                    "the spec leaves it open; the vendor's value matches no reading".into()
                }
                "vendor picks" => format!("the spec leaves it open; the vendor picks reading {matches}"),
                "disagree" => "the vendor contradicts the model".into(),
                other => other.to_string(),
            };
            let instance = format!("`{} {}`", i.variant, i.inputs.join(" "));
            out.push(if i.verdict == "not folded" {
                format!(
                    "ptxas: {instance} is not folded to a constant ({}); model: {}",
                    i.vendor.join(" "),
                    i.model.join(" ")
                )
            } else {
                format!("ptxas: {instance} gives {} (model: {}): {verdict}", i.vendor.join(" "), i.model.join(" "))
            });
        }
        if f.kind == FindingKind::ExampleSyntax {
            for c in self.example_cases(&f.fragment) {
                let said = match &c.error {
                    Some(e) => format!("rejects it (`{e}`)"),
                    None => "accepts it".into(),
                };
                out.push(format!("ptxas: {said}"));
            }
        }
        // Every finding gets the GPU's line: the reading it takes, or why
        // it did not run.
        out.push(match &self.hardware {
            Some(h) => h.line(f),
            None => "GPU: not run (no GPU run is committed under vendor/)".into(),
        });
        out
    }
}

/// A recorded instance in a few words: `add.s32 0x1, 0x7fffffff -> 0x80000000`.
pub(super) fn instance_text(i: &fold::Row) -> String {
    match i.origin.strip_prefix("run shfl ") {
        // A shfl lane: its case as the run names it, not its 99 inputs.
        Some(case) => format!("`{case}` gives {}", i.vendor.join(", ")),
        None => format!("`{} {}` gives {}", i.variant, i.inputs.join(", "), i.vendor.join(", ")),
    }
}

/// An instance's origin as the report says it: `a sample`, `a case
/// boundary of the model`...
pub(super) fn origin_words(origin: &str) -> &'static str {
    match origin.split(' ').next().unwrap_or("") {
        "sample" => "a sample",
        "case" => "a case boundary of the model",
        "probe" => "a probe of the readings",
        "audit" => "another finding's witness",
        "claim" => "a claim's worked value",
        "run" => "another input of the run",
        _ => "another input",
    }
}

/// The verdict of the recorded instances that came from these findings'
/// witnesses: a contradiction first, then a value picked where the model
/// leaves it open, then agreement, then nothing folded.
pub(super) fn instances_verdict(source: &[&fold::Row], findings: &[&Finding]) -> Option<String> {
    let origins: Vec<String> =
        findings.iter().flat_map(|f| [format!("audit {}", f.id), format!("claim {}", f.id)]).collect();
    let mine: Vec<&fold::Row> = source.iter().copied().filter(|i| origins.contains(&i.origin)).collect();
    let matches = |i: &fold::Row| i.matches.clone().unwrap_or_default();
    let with = |verdict: &str| mine.iter().find(|i| i.verdict == verdict);
    if let Some(i) = with("disagree") {
        let matches = matches(i);
        let which = if matches.is_empty() { "no reading".to_string() } else { format!("`{}`", matches.join("`, `")) };
        return Some(format!("contradicts the model, matches {which}: {}", instance_text(i)));
    }
    if let Some(i) = with("vendor picks") {
        let matches = matches(i);
        return Some(if matches.is_empty() {
            format!("picks a value no reading gives: {}", instance_text(i))
        } else {
            format!("picks `{}`: {}", matches.join("`, `"), instance_text(i))
        });
    }
    // An agreement that names the readings it matches says more than one
    // on a witness where every reading gives the same value.
    let informative = mine.iter().find(|i| i.verdict == "agree" && !matches(i).is_empty());
    if let Some(i) = informative.or(with("agree")) {
        let matches = matches(i);
        return Some(if matches.is_empty() {
            format!("agrees with the model: {}", instance_text(i))
        } else {
            format!("agrees, `{}`: {}", matches.join("`, `"), instance_text(i))
        });
    }
    mine.first().map(|_| "not folded".to_string())
}

/// Where a recorded instance of any origin (a sample, say) falls on a
/// variant of one of these findings' passages and the vendor contradicts
/// the model there: which readings of the passage give the vendor's value,
/// each evaluated concretely on the instance's inputs, and where the
/// instance comes from.
pub(super) fn picks_elsewhere(
    source: &[&fold::Row],
    findings: &[&Finding],
    passages: &[PassageResult],
) -> Option<String> {
    let covers = |p: &PassageResult, name: &str| p.passage.widths().iter().any(|w| w == name);
    for p in passages.iter().filter(|p| findings.iter().any(|f| f.id == p.passage.id)) {
        for i in source {
            let name = i.variant.as_str();
            if i.verdict != "disagree" || !covers(p, name) {
                continue;
            }
            let Some((variant, ins, vendor)) = instance_values(i) else { continue };
            let matches = readings_giving(&variant, p, &ins, &vendor);
            // A value another passage's reading also gives is no evidence
            // for this one: a 64-bit bfe length of 0x101 read as 255 is the
            // operand range at work, whatever the sign-bit readings say.
            let elsewhere = passages
                .iter()
                .filter(|q| q.passage.id != p.passage.id && covers(q, name))
                .any(|q| !readings_giving(&variant, q, &ins, &vendor).is_empty());
            if elsewhere {
                continue;
            }
            if !matches.is_empty() {
                return Some(format!(
                    "on {} it picks `{}` against the model: {}",
                    origin_words(&i.origin),
                    matches.join("`, `"),
                    instance_text(i)
                ));
            }
        }
    }
    None
}

/// A recorded instance's variant, inputs and vendor values, where each
/// reads.
fn instance_values(i: &fold::Row) -> Option<(Variant, Vec<BitVec>, Vec<u128>)> {
    // A shuffle's fold row holds its operands, not the model's inputs
    // (a lane of a warp the GPU ran holds them all).
    let variant = Variant::from_mnemonic(&i.variant).filter(|v| v.inputs().len() == i.inputs.len())?;
    let ins: Option<Vec<BitVec>> = variant
        .inputs()
        .iter()
        .zip(&i.inputs)
        .map(|(o, t)| parse_hex(t).map(|v| BitVec::new(o.ty.width(), v)))
        .collect();
    let vendor: Option<Vec<u128>> = i.vendor.iter().map(|v| parse_hex(v)).collect();
    Some((variant, ins?, vendor?))
}

/// Where a recorded instance of any origin falls on a variant of one of
/// these findings' passages and its value tells the passage's readings
/// apart (some give it, some do not): which readings give it. The reading
/// probes and case boundaries that a run holds decide a root cause this
/// way when no witness of its own was run.
pub(super) fn takes_elsewhere(
    source: &[&fold::Row],
    findings: &[&Finding],
    passages: &[PassageResult],
) -> Option<String> {
    for p in passages.iter().filter(|p| findings.iter().any(|f| f.id == p.passage.id)) {
        let widths = p.passage.widths();
        for i in source.iter().filter(|i| widths.contains(&i.variant)) {
            let Some((variant, ins, vendor)) = instance_values(i) else { continue };
            let matches = readings_giving(&variant, p, &ins, &vendor);
            if !matches.is_empty() && matches.len() < p.passage.readings.len() {
                return Some(format!(
                    "on {} it takes `{}`: {}",
                    origin_words(&i.origin),
                    matches.join("`, `"),
                    instance_text(i)
                ));
            }
        }
    }
    None
}

/// Where an sm_90 rule, drawn from the committed GPU results, fills in or
/// replaces the assumption one of these findings is about: the rule, its
/// formula and its evidence (warp-wide shfl, which the instances above do
/// not hold, is decided this way).
fn rule_verdict(findings: &[&Finding]) -> Option<String> {
    let rule = Model::Sm90.rules().iter().find(|r| findings.iter().any(|f| f.id == r.assumption))?;
    Some(format!("gives a value in every case (`{}`: {}; {} results)", rule.id, rule.formula, rule.results()))
}

/// The readings of passage `p` that give `vendor` on `ins` (each evaluated
/// concretely), by name.
pub(super) fn readings_giving(variant: &Variant, p: &PassageResult, ins: &[BitVec], vendor: &[u128]) -> Vec<String> {
    let readings: Vec<_> = p.passage.readings.iter().collect();
    let Some(t) = passage_compare::witness(variant, &readings, ins) else { return Vec::new() };
    t.columns
        .iter()
        .enumerate()
        .filter(|(c, _)| t.rows.iter().zip(vendor).all(|((_, vs), v)| vs[*c].map(|b| b.unsigned()) == Some(*v)))
        .map(|(_, n)| n.clone())
        .collect()
}

impl Vendor {
    /// Where the text and ptxas disagree on what is legal, as findings of
    /// class requirements: a forbidden neighbour ptxas accepts, or a
    /// variant the text allows that it rejects.
    pub fn requirement_findings(&self) -> Vec<Finding> {
        let rows = &self.syntax.cases;
        let mut out = range_findings(rows);
        for r in rows {
            let kind = r.kind.as_str();
            let accepted = r.ptxas == "accepted";
            let negative = crate::oracle::negative::KINDS.contains(&kind);
            if !(negative && accepted || kind == "variant" && !accepted) {
                continue;
            }
            let instruction = r.instruction.as_str();
            let mnemonic = instruction.split_whitespace().next().unwrap_or("");
            let setting = format!("PTX {}, {}", r.ptx, r.target);
            let (id, summary) = if negative {
                (
                    format!("vendor-accepts-{kind}-{mnemonic}-{}-{}", r.ptx, r.target),
                    format!("ptxas accepts `{mnemonic}` under {setting}, which the text excludes ({kind})"),
                )
            } else {
                (
                    format!("vendor-rejects-{mnemonic}"),
                    format!(
                        "ptxas rejects `{mnemonic}` under {setting}, which the text allows: {}",
                        r.error.as_deref().unwrap_or("")
                    ),
                )
            };
            let section = Variant::all()
                .iter()
                .find(|v| v.mnemonic() == mnemonic || v.to_string() == r.name)
                .map_or_else(|| r.name.clone(), |v| v.section().to_string());
            out.push(Finding {
                id,
                section,
                kind: FindingKind::VendorSyntax,
                severity: Severity::Medium,
                root_cause: String::new(),
                fragment: mnemonic.to_string(),
                summary,
                detail: vec![format!("Assembled by `ptxcheck vendor syntax`: `{instruction}` under {setting}.")],
                model_choice: None,
                witness: None,
                more_witnesses: Vec::new(),
                also_quotes: Vec::new(),
                repairs: Vec::new(),
            });
        }
        out
    }
}

/// Where ptxas answers otherwise than the text on an immediate just outside
/// an operand's stated range (`range-edge` cases): one finding per section,
/// naming every such value.
pub(super) fn range_findings(rows: &[syntax::Row]) -> Vec<Finding> {
    let mut by_section: Vec<(String, Vec<&syntax::Row>)> = Vec::new();
    for r in rows.iter().filter(|r| r.kind == syntax::RANGE_EDGE && r.verdict == "disagree") {
        let name = r.name.as_str();
        let variant = name.split(' ').next().unwrap_or("");
        let Some(section) = Variant::from_mnemonic(variant).map(|v| v.section().to_string()) else { continue };
        match by_section.iter_mut().find(|(s, _)| *s == section) {
            Some((_, list)) => list.push(r),
            None => by_section.push((section, vec![r])),
        }
    }
    by_section
        .into_iter()
        .map(|(section, list)| {
            let accepted = list[0].ptxas == "accepted";
            let values: Vec<&str> = list.iter().filter_map(|r| r.name.split_once(' ').map(|x| x.1)).collect();
            let variant = list[0].name.split(' ').next().unwrap_or("").to_string();
            let summary = if accepted {
                format!(
                    "ptxas accepts `{variant}` with {} as an immediate, outside the range the text gives the operand, \
                     and the text does not say what such a value does",
                    values.join(", ")
                )
            } else {
                format!(
                    "ptxas rejects `{variant}` with {} as an immediate ({}), where the text's range only restricts \
                     the value the block uses: the text does not say an immediate outside it is an error",
                    values.join(", "),
                    list[0].error.as_deref().unwrap_or("").trim_start_matches("error : ")
                )
            };
            Finding {
                id: format!("vendor-range-{variant}"),
                section,
                kind: FindingKind::VendorSyntax,
                severity: Severity::Medium,
                root_cause: String::new(),
                fragment: variant.clone(),
                summary,
                detail: list
                    .iter()
                    .map(|r| {
                        format!(
                            "Assembled by `ptxcheck vendor syntax`: `{}` under PTX {}, {}: {}.",
                            r.instruction, r.ptx, r.target, r.ptxas
                        )
                    })
                    .collect(),
                model_choice: None,
                witness: None,
                more_witnesses: Vec::new(),
                also_quotes: Vec::new(),
                repairs: Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::record::{FoldCounts, FoldHead, SyntaxCounts, SyntaxHead, ToolRecord};
    use serde_json::json;

    /// Recorded syntax cases, each given only by the fields a test needs.
    fn syntax_rows(rows: serde_json::Value) -> Vec<syntax::Row> {
        let full = |r: &serde_json::Value| {
            let mut full = json!({"kind": "", "name": "", "instruction": "", "ptx": "", "target": "", "ptxas": "",
                                  "verdict": ""});
            for (k, v) in r.as_object().unwrap() {
                full[k] = v.clone();
            }
            serde_json::from_value(full).unwrap()
        };
        rows.as_array().unwrap().iter().map(full).collect()
    }

    /// A record of these cases and instances.
    fn vendor(cases: Vec<syntax::Row>, instances: Vec<fold::Row>) -> Vendor {
        let tool = ToolRecord { release: "12.9".into(), wheel: None };
        Vendor {
            syntax: SyntaxRecord {
                head: SyntaxHead { ptxas: tool.clone(), arch: "sm_90".into(), counts: SyntaxCounts::default() },
                cases,
            },
            fold: FoldRecord {
                head: FoldHead {
                    ptxas: tool.clone(),
                    cuobjdump: tool,
                    setting: String::new(),
                    samples_per_variant: 0,
                    counts: FoldCounts::default(),
                },
                instances,
            },
            hardware: None,
            defects: None,
        }
    }

    #[test]
    fn immediates_outside_a_stated_range_are_one_finding_per_section() {
        let rows = syntax_rows(json!([
            {"kind": "range-edge", "name": "lop3.b32 immLut=256", "instruction": "lop3.b32 %d, %a, %b, %c, 256;",
             "ptx": "4.3", "target": "sm_50", "ptxas": "accepted", "verdict": "disagree"},
            {"kind": "range-edge", "name": "lop3.b32 immLut=-1", "instruction": "lop3.b32 %d, %a, %b, %c, -1;",
             "ptx": "4.3", "target": "sm_50", "ptxas": "accepted", "verdict": "disagree"},
            {"kind": "range-edge", "name": "shf.l.clamp.b32 c=33", "instruction": "shf.l.clamp.b32 %d, %a, %b, 33;",
             "ptx": "4.0", "target": "sm_50", "ptxas": "accepted", "verdict": "agree"},
        ]));
        let found = range_findings(&rows);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].id.as_str(), found[0].section.as_str()), ("vendor-range-lop3.b32", "9.7.8.6"));
        assert!(
            found[0].summary.starts_with("ptxas accepts `lop3.b32` with immLut=256, immLut=-1"),
            "{}",
            found[0].summary
        );
        assert_eq!(found[0].detail.len(), 2);
    }

    #[test]
    fn ptxas_and_the_text_disagreeing_on_legality_are_requirement_findings() {
        let vendor = vendor(
            syntax_rows(json!([
                {"kind": "forbidden-type", "name": "9.7.1.14", "instruction": "popc.u32 %d, %a;", "ptx": "8.8",
                 "target": "sm_90", "ptxas": "accepted"},
                {"kind": "below-ptx", "name": "lop3.or.b32", "instruction": "lop3.or.b32 %d|%p, %a, %b, %c, 0x96, %q;",
                 "ptx": "8.1", "target": "sm_70", "ptxas": "rejected", "error": "needs 8.2"},
                {"kind": "variant", "name": "add.s32", "instruction": "add.s32 %d, %a, %b;", "ptx": "4.0",
                 "target": "sm_50", "ptxas": "rejected", "error": "no"},
                {"kind": "variant", "name": "add.u32", "instruction": "add.u32 %d, %a, %b;", "ptx": "4.0",
                 "target": "sm_50", "ptxas": "accepted"},
            ])),
            Vec::new(),
        );
        let found = vendor.requirement_findings();
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["vendor-accepts-forbidden-type-popc.u32-8.8-sm_90", "vendor-rejects-add.s32"]);
        assert_eq!((found[0].section.as_str(), found[1].section.as_str()), ("9.7.1.14", "9.7.1.1"));
        assert!(found.iter().all(|f| f.kind == FindingKind::VendorSyntax));
    }

    #[test]
    fn the_vendor_column_reads_the_recorded_instances() {
        let instances = serde_json::from_value(json!([
            {"variant": "div.u32", "origin": "audit div-by-zero-unspecified", "inputs": ["0x0", "0x0"],
             "model": ["unspecified"], "vendor": ["0xffffffff"], "verdict": "vendor picks", "matches": ["smt-lib-total"]},
            {"variant": "add.s32", "origin": "sample", "inputs": ["0x1", "0x2"], "model": ["0x3"], "vendor": ["0x3"],
             "verdict": "agree"},
        ]))
        .unwrap();
        let vendor = vendor(
            syntax_rows(json!([{"kind": "example", "instruction": "bfe.b32  d,a,start,len;", "error": "bad type"}])),
            instances,
        );
        let finding = |id: &str, kind: FindingKind, summary: &str| Finding {
            id: id.into(),
            section: "9.7.1.8".into(),
            kind,
            severity: crate::audit::finding::Severity::Medium,
            root_cause: String::new(),
            fragment: String::new(),
            summary: summary.into(),
            detail: vec![],
            model_choice: None,
            witness: None,
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
        };
        let lines = vendor.lines(&finding("div-by-zero-unspecified", FindingKind::Ambiguity, ""));
        assert_eq!(
            lines[0],
            "ptxas: `div.u32 0x0 0x0` gives 0xffffffff (model: unspecified): the spec leaves it open; the vendor picks \
             reading smt-lib-total"
        );
        assert_eq!(lines.len(), 2, "and the GPU line");
        assert_eq!(lines[1], "GPU: not run (no GPU run is committed under vendor/)");
        let mut syntax = finding(
            "9.7.1.19/example-syntax-1",
            FindingKind::ExampleSyntax,
            "the example `bfe.b32  d,a,start,len;` does not fit the Syntax block of 9.7.1.19",
        );
        syntax.fragment = "bfe.b32  d,a,start,len;".into();
        assert_eq!(vendor.lines(&syntax)[0], "ptxas: rejects it (`bad type`)");
        assert_eq!(vendor.lines(&finding("other", FindingKind::Ambiguity, "")).len(), 1, "the GPU line alone");
    }
}
