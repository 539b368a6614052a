//! The claims' results as `ptxcheck claims --format json` and the report's
//! `claims` give them.

use serde_json::{json, Map, Value};

use super::check::{ClaimResult, ClaimVerdict};
use super::Check;

/// How many results have the verdict `label` (`holds`, `refuted`, ...).
pub fn count(results: &[ClaimResult], label: &str) -> usize {
    results.iter().filter(|r| r.verdict.label() == label).count()
}

/// Every claim's result, then the counts of each verdict.
pub fn claims(results: &[ClaimResult]) -> Value {
    let claims: Vec<Value> = results.iter().map(claim_json).collect();
    json!({
        "claims": claims,
        "summary": {
            "claims": results.len(),
            "holds": count(results, "holds"),
            "refuted": count(results, "refuted"),
            "not_checkable": count(results, "not checkable"),
            "unknown": count(results, "unknown"),
        }
    })
}

fn check_json(check: &Check) -> Value {
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
        Check::Rejected { text } => json!({"how": "rejected", "instruction": text}),
        Check::NotCheckable { reason } => json!({"how": "none", "reason": reason}),
    }
}

fn claim_json(r: &ClaimResult) -> Value {
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
        ClaimVerdict::NotCheckable(why) | ClaimVerdict::Unknown(why) => {
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
