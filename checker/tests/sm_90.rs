//! The sm_90 model against every committed H100 result
//! (`reports/vendor/h100-run.txt` and `h100-edges.txt`): no disagreement and
//! no value left for the hardware to pick; and each rule's evidence, as its table states it,
//! is the number of results in that rule's case; and both encodings of
//! every variant a rule changes proven equal, a fault planted in a rule
//! caught.

mod common;

use std::collections::BTreeMap;

use ptx_smt::{encode, Backend, Sym, SymBv, SymOutputs};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::Variant;
use ptx_spec::family::shfl::Warp;
use ptx_spec::hardware::{sm_90, Model};
use ptx_spec::BitVec;
use ptxcheck::oracle::hw;
use ptxcheck::prove::{prove_against_in, prove_in, Verdict};

const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Each committed results file: its name under `reports/`, and its text.
fn results() -> Vec<(&'static str, String)> {
    ptxcheck::sm_90_report::RESULTS
        .iter()
        .map(|name| {
            let path = format!("{}/../reports/{name}", env!("CARGO_MANIFEST_DIR"));
            (*name, std::fs::read_to_string(path).expect("the committed H100 results"))
        })
        .collect()
}

fn hex(t: &str) -> u128 {
    ptx_spec::bv::parse_hex(t).expect("a hex value")
}

#[test]
fn sm_90_agrees_with_every_h100_result() {
    // Per file: its results, and the spec model's agreements, contradictions
    // and values it leaves to the hardware, for contrast.
    let expected = [(8643, (7702, 5, 936)), (4706, (4610, 10, 86))];
    for ((name, text), (len, spec_counts)) in results().iter().zip(expected) {
        let rows = hw::compare_in(text, Model::Sm90).expect("the file reads");
        assert_eq!(rows.len(), len, "{name}");
        let bad: Vec<String> = rows
            .iter()
            .filter(|r| r.verdict != "agree")
            .map(|r| format!("{name} line {}: {} -> {} (sm_90 {})", r.line, r.label, r.hardware, r.model))
            .collect();
        assert!(bad.is_empty(), "{} results differ:\n{}", bad.len(), bad.join("\n"));
        let spec = hw::compare_in(text, Model::Spec).expect("the file reads");
        let count = |v: &str| spec.iter().filter(|r| r.verdict == v).count();
        assert_eq!((count("agree"), count("disagree"), count("hardware picks")), spec_counts, "{name}");
    }
}

/// The variant and the model's input values of one result's label.
fn inputs(label: &str) -> (Variant, Vec<BitVec>) {
    let tokens: Vec<&str> = label.split_whitespace().collect();
    if tokens[0] == "inst" {
        let v = Variant::from_mnemonic(tokens[1]).unwrap();
        let values = v.inputs().iter().zip(&tokens[2..]).map(|(o, t)| BitVec::new(o.ty.width(), hex(t))).collect();
        return (v, values);
    }
    let name = if tokens[2] == "d|p" { format!("{} d|p", tokens[1]) } else { tokens[1].to_string() };
    let v = Variant::from_mnemonic(&name).unwrap();
    let field = |key: &str| hex(tokens.iter().find_map(|t| t.strip_prefix(key)).unwrap()) as u32;
    let lane: usize = tokens[7].strip_prefix("lane=").unwrap().parse().unwrap();
    let base = field("base=");
    let Variant::Shfl(shfl) = v else { panic!("{label}: not a shuffle") };
    let warp = Warp::uniform(std::array::from_fn(|l| base + l as u32), field("b="), field("c="), field("active="));
    (v, warp.thread_inputs(shfl, lane))
}

#[test]
fn each_rule_states_the_results_in_its_case() {
    let mut counted: BTreeMap<(&str, String), u32> = BTreeMap::new();
    let labels: Vec<String> = results()
        .iter()
        .flat_map(|(_, text)| hw::compare_in(text, Model::Spec).unwrap().into_iter().map(|r| r.label))
        .collect();
    for line in &labels {
        let (v, values) = inputs(line);
        // Every result where sm_90 and spec differ falls in a rule's case.
        let spec_out = v.run_in(Model::Spec, &values.iter().map(|b| b.unsigned()).collect::<Vec<_>>());
        let sm90_out = v.run_in(Model::Sm90, &values.iter().map(|b| b.unsigned()).collect::<Vec<_>>());
        let rule = sm_90::rule_for(&v, &values);
        if spec_out != sm90_out {
            assert!(rule.is_some(), "{line}: sm_90 differs from spec outside every rule");
        }
        if let Some(r) = rule {
            *counted.entry((r.id, v.to_string())).or_default() += 1;
        }
    }
    let mut stated: BTreeMap<(&str, String), u32> = BTreeMap::new();
    for r in sm_90::RULES {
        for (v, n) in r.evidence {
            stated.insert((r.id, v.to_string()), *n);
        }
    }
    assert_eq!(counted, stated);
}

#[test]
fn eval_with_the_sm_90_model() {
    let run = |args: &[&str]| {
        let o = common::command().args(args).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let (code, out, _) = run(&["eval", "div.u32 d, 7, 0", "--model", "sm_90"]);
    assert_eq!((code, out.trim()), (Some(0), "d = 0xffffffff"));
    let (_, out, _) = run(&["eval", "div.u32 d, 7, 0"]);
    assert_eq!(out.trim(), "d = unspecified");
    let (code, _, err) = run(&["eval", "div.u32 d, 7, 0", "--model", "sm_91"]);
    assert_eq!(code, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    for (file, n) in [("h100-run.txt", 8643), ("h100-edges.txt", 4706)] {
        let path = format!("{}/../reports/vendor/{file}", env!("CARGO_MANIFEST_DIR"));
        let (code, out, _) = run(&["hw", "compare", &path, "--model", "sm_90"]);
        assert_eq!(code, Some(0));
        assert!(out.contains(&format!("{n} results: {n} agree, 0 disagree, 0 hardware picks")), "{out}");
    }
}

#[test]
fn every_variant_a_rule_changes_is_proven_in_sm_90() {
    let changed: Vec<Variant> = Variant::all().into_iter().filter(|v| !Model::Sm90.rules_for(v).is_empty()).collect();
    assert_eq!(changed.len(), 23);
    for v in changed {
        let r = prove_in(Model::Sm90, &v, &Backend::Embedded, TIMEOUT);
        assert!(r.verdict.is_proven(), "{v}: {:?}", r.verdict);
        assert!(!r.rules.is_empty());
    }
}

/// sm90-div-by-zero planted wrong on the SMT side: 0xfffffffe, not all ones.
fn div_by_zero_off_by_one(sym: &Sym, ins: &[SymBv]) -> SymOutputs {
    let v = Variant::from_mnemonic("div.u32").unwrap();
    let mut outs = encode::encode_in(Model::Sm90, &v, sym, ins);
    let b_zero = sym.is_zero(ins[1]);
    outs[0].value = sym.ite(b_zero, sym.constant(32, 0xffff_fffe), outs[0].value);
    outs
}

#[test]
fn a_fault_planted_in_an_sm_90_rule_is_caught() {
    let v = Variant::from_mnemonic("div.u32").unwrap();
    let r = prove_against_in(Model::Sm90, &v, &Backend::Embedded, TIMEOUT, div_by_zero_off_by_one);
    let Verdict::Counterexample(cex) = r.verdict else { panic!("expected a counterexample, got {:?}", r.verdict) };
    let inputs: Vec<u128> = cex.inputs.iter().map(|(_, v)| v.unsigned()).collect();
    assert_eq!(inputs, [0, 0]);
    assert_eq!(cex.outputs[0].concrete, Some(BitVec::new(32, 0xffff_ffff)));
    assert_eq!(cex.outputs[0].smt, Some(BitVec::new(32, 0xffff_fffe)));
    // The same fault is no fault against the spec model, which leaves b = 0 open.
    let spec = prove_against_in(Model::Spec, &v, &Backend::Embedded, TIMEOUT, |sym, ins| {
        let mut outs = encode::encode(&v, sym, ins);
        outs[0].value = sym.ite(sym.is_zero(ins[1]), sym.constant(32, 0xffff_fffe), outs[0].value);
        outs
    });
    assert!(spec.verdict.is_proven(), "{:?}", spec.verdict);
}

/// The division-by-zero rule planted wrong: defined for every dividend of
/// div.s32, where no result has a < 0.
#[test]
fn a_vendor_rule_that_claims_too_much_is_caught() {
    let v = Variant::from_mnemonic("div.s32").unwrap();
    let r = prove_against_in(Model::Sm90, &v, &Backend::Embedded, TIMEOUT, |sym, ins| {
        let mut outs = encode::encode_in(Model::Sm90, &v, sym, ins);
        let b_zero = sym.is_zero(ins[1]);
        outs[0].value = sym.ite(b_zero, sym.constant(32, 0xffff_ffff), outs[0].value);
        outs[0].defined = sym.or(outs[0].defined, b_zero);
        outs
    });
    let Verdict::Counterexample(cex) = r.verdict else { panic!("expected a counterexample, got {:?}", r.verdict) };
    assert_eq!(cex.outputs[0].concrete, None);
    assert!(cex.outputs[0].smt.is_some());
}

/// `reports/sm_90.md` is what `ptxcheck report` writes (regenerate it with
/// `ptxcheck report`, or with `INSTA_UPDATE=always` on this test).
#[test]
fn the_committed_sm_90_report_is_current() {
    let path = format!("{}/../reports/sm_90.md", env!("CARGO_MANIFEST_DIR"));
    let fold_path =
        std::path::PathBuf::from(format!("{}/../reports/vendor/ptxas-fold.json", env!("CARGO_MANIFEST_DIR")));
    let fold: ptxcheck::oracle::record::FoldRecord =
        ptxcheck::oracle::record::read(&fold_path).unwrap().expect("the committed ptxas results");
    let text = ptxcheck::sm_90_report::markdown(&results(), Some(&fold));
    if std::env::var("INSTA_UPDATE").as_deref() == Ok("always") {
        std::fs::write(&path, &text).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), text, "reports/sm_90.md is stale");
    assert!(text.contains("| `vendor/h100-run.txt` | `sm_90` | 8643 | 8643 | 0 | 0 |"), "{text}");
    assert!(text.contains("| `vendor/h100-run.txt` | `spec` | 8643 | 7702 | 5 | 936 |"), "{text}");
    assert!(text.contains("| `vendor/h100-edges.txt` | `sm_90` | 4706 | 4706 | 0 | 0 |"), "{text}");
}
