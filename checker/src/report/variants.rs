//! `variants.md`: every variant's verdict from each solver.

use std::fmt::Write as _;

use ptx_spec::assumption;
use ptx_spec::catalogue::Variant;

use crate::audit::Audit;

use super::hardware::Hardware;
use super::{markdown_table, SolverRun, HEADER};

/// `stated`: the assumptions the report's text now states, each with its
/// fixed root cause.
pub(super) fn variants(
    runs: &[SolverRun],
    hw: Option<&Hardware>,
    audit: &Audit,
    stated: &[(&'static str, String)],
) -> String {
    let mut s = String::from(HEADER);
    s.push_str("# Variants\n\n");
    s.push_str(
        "Every legal variant of the catalogue, its requirements, each solver's verdict on the equivalence of its \
         SMT encoding and its concrete semantics, and the assumptions the model makes for it (listed below the \
         table).\n\n",
    );
    let mut header = vec!["variant".to_string(), "section".into(), "requires".into()];
    header.extend(runs.iter().map(|r| r.solver.clone()));
    header.push("assumptions".into());
    let mut t = vec![header];
    for (i, v) in Variant::all().iter().enumerate() {
        let mut row = vec![format!("`{v}`"), v.section().to_string(), v.requirement().to_string()];
        if let Some(d) = v.deprecation() {
            row[2].push_str(&format!("; deprecated from PTX {}", d.since));
        }
        row.extend(runs.iter().map(|r| r.results[i].verdict.label().to_string()));
        let ids: Vec<&str> = v.assumptions().iter().map(|a| a.id).collect();
        row.push(if ids.is_empty() { "-".into() } else { ids.join(", ") });
        t.push(row);
    }
    s.push_str(&markdown_table(&t));
    s.push_str("\n## Assumptions\n\n");
    for a in assumption::ALL {
        let users: Vec<String> = Variant::all()
            .iter()
            .filter(|v| v.assumptions().iter().any(|u| u.id == a.id))
            .map(|v| v.to_string())
            .collect();
        let _ = write!(
            s,
            "### {}\n\n- section: {}\n- spec: `{}`\n- reading: {}\n- variants ({}): {}\n\n",
            a.id,
            a.section,
            a.fragment,
            a.reading,
            users.len(),
            if users.is_empty() { "all integer variants".to_string() } else { users.join(", ") }
        );
        if let Some((_, rc)) = stated.iter().find(|(id, _)| *id == a.id) {
            let _ =
                writeln!(s, "- in the text: stated by the text now ({rc} is fixed); no longer adopted by the model");
        }
        let _ = writeln!(s, "- GPU: {}\n", hw.map_or("not run".to_string(), |h| h.assumption_line(a, &users, audit)));
    }
    s
}
