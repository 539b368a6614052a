//! `ptxcheck.json`: the report for tools (`reports/SCHEMA.md`).

use ptx_spec::assumption;
use ptx_spec::catalogue::Variant;
use serde_json::{json, Value};

use crate::audit::claims::json as claims_json;
use crate::audit::errata;
use crate::audit::text::TextAudit;
use crate::audit::Audit;
use crate::text_proof::TextProof;

use super::errata::Erratum;
use super::vendor::Vendor;
use super::{SolverRun, SCHEMA_VERSION};

/// The spec text's summary for tools (its findings are among the audit's).
pub(super) fn text_json(t: &TextAudit) -> Value {
    // What was read, so a report says which text it was made with.
    json!({
        "fingerprint": t.fingerprint(),
        "compared": t.compared,
        "unchecked": t.unchecked,
        "stale": t.stale.iter().map(|x| json!({ "what": x.what, "change": x.change })).collect::<Vec<_>>(),
        "spelling_skipped": t.spelling_skipped,
        "helpers_unlisted": t.helpers_unlisted,
        "coverage": {
            "total": t.coverage.total(),
            "kinds": t.coverage.by_kind().into_iter().map(|(k, c)| json!({"kind": k, "counts": c})).collect::<Vec<_>>(),
            "unread": t.coverage.unread().map(|a| a.unit.id.clone()).collect::<Vec<_>>(),
        },
    })
}

/// Each variant's third proof, beside its solvers' verdicts: its Semantics
/// block against its encoding.
pub(super) fn blocks_json(json: &mut Value, blocks: &[TextProof]) {
    if let Some(vs) = json["variants"].as_array_mut() {
        for (v, p) in vs.iter_mut().zip(blocks) {
            v["semantics_block"] = p.json();
        }
    }
}

/// What the report's text says of each root cause and finding: a root
/// cause's status in it and the units it rests on; a finding's units.
pub(super) fn judged_json(json: &mut Value, t: &TextAudit, audit: &Audit) {
    if let Some(rcs) = json["root_causes"].as_array_mut() {
        for rc in rcs {
            if let Some(j) = t.judged.iter().find(|j| rc["id"] == j.id.as_str()) {
                rc["status"] = json!(j.status);
                rc["status_why"] = json!(j.how);
                rc["rests_on"] = json!(j.rests_on);
            }
        }
    }
    let stated = t.assumptions_stated();
    if let Some(all) = json["assumptions"].as_array_mut() {
        for a in all {
            if let Some((_, rc)) = stated.iter().find(|(id, _)| a["id"] == *id) {
                a["stated_by_text"] = json!(rc);
            }
        }
    }
    if let Some(fs) = json["audit"]["findings"].as_array_mut() {
        for f in fs {
            if let Some(finding) = audit.findings.iter().find(|x| f["id"] == x.id.as_str()) {
                f["units"] = json!(t.units_of(finding));
            }
        }
    }
}

pub(super) fn json_report(runs: &[SolverRun], audit: &Audit, vendor: Option<&Vendor>, errata: &[Erratum]) -> Value {
    let root_causes: Vec<Value> = errata
        .iter()
        .map(|e| {
            let ids: Vec<&str> = e.findings.iter().map(|f| f.id.as_str()).collect();
            let mut v = match e.root_cause {
                Some(rc) => {
                    let mut v = json!(rc);
                    v["fix"] = json!(rc.fix());
                    v
                }
                None => json!({ "id": errata::UNASSIGNED, "class": "unclassified" }),
            };
            v["severity"] = json!(e.severity());
            v["findings"] = json!(ids);
            v["ptxas"] = json!(e.ptxas);
            v["hardware"] = json!(e.hardware);
            v
        })
        .collect();
    let variants: Vec<Value> = Variant::all()
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let verdicts: serde_json::Map<String, Value> =
                runs.iter().map(|r| (r.solver.clone(), json!(r.results[i].verdict.label()))).collect();
            json!({
                "variant": v.to_string(),
                "section": v.section(),
                "requires": v.requirement().to_string(),
                "verdicts": verdicts,
                "assumptions": v.assumptions().iter().map(|a| a.id).collect::<Vec<_>>(),
            })
        })
        .collect();
    let solvers: Vec<Value> = runs
        .iter()
        .map(|r| {
            json!({
                "solver": r.solver, "variants": r.results.len(), "proven": r.count("proven"),
                "counterexample": r.count("counterexample"), "unknown": r.count("unknown"), "timeout": r.count("timeout"),
            })
        })
        .collect();
    json!({
        "schema_version": SCHEMA_VERSION,
        "root_causes": root_causes,
        "solvers": solvers,
        "variants": variants,
        "assumptions": assumption::ALL,
        "claims": claims_json::claims(&audit.claims),
        "audit": audit.json(),
        // ptxas's miscompilations: apart from the spec's root causes.
        "vendor_defects": vendor.and_then(|v| v.defects.as_ref()).map_or(&[][..], |d| &d.defects[..]),
    })
}
