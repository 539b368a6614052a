//! `findings.md`: every finding in full, with its witnesses.

use std::fmt::Write as _;

use crate::audit::finding::{Finding, WitnessTable};
use crate::audit::text::TextAudit;

use super::errata::{compact_markdown, Erratum};
use super::vendor::Vendor;
use super::{anchor, markdown_table, HEADER};

pub(super) fn findings(errata: &[Erratum], vendor: Option<&Vendor>, text: Option<&TextAudit>) -> String {
    let mut s = String::from(HEADER);
    s.push_str("# Findings\n\n");
    s.push_str(
        "Every finding, under the root cause it is a site of ([errata.md](errata.md) has one row per root cause). \
         Each root cause quotes the spec, says what is wrong or open, proposes a fix, and shows a witness table: one \
         row per reading, one column per input (up to three) that tells them apart, and ptxas's value where it folded \
         that input. Every witness was found by a solver, brought down to the least input in operand order, and \
         confirmed by evaluating each reading concretely. Values are hexadecimal; `undefined` marks a result the \
         reading leaves undefined or unspecified. A shfl witness is one thread's view of the warp: `lane` is its lane \
         id, `b` and `c` its operands, `aN`, `activeN` and `unpredictableN` lane N's register, state and \
         unpredictable value; inputs not listed are 0.\n\n",
    );
    let _ = writeln!(
        s,
        "The Semantics blocks read literally as C (findings `literal-*`) assume {}.\n",
        crate::audit::literal::check::C_MODEL
    );
    let mut t =
        vec![vec!["root cause".to_string(), "section".into(), "class".into(), "severity".into(), "findings".into()]];
    for e in errata {
        let ids: Vec<String> = e.findings.iter().map(|f| format!("[{}](#{})", f.id, anchor(&f.id))).collect();
        t.push(vec![
            format!("[{}](#{})", e.id(), anchor(e.id())),
            e.sections(),
            e.class().into(),
            e.severity().label().into(),
            ids.join(", "),
        ]);
    }
    s.push_str(&markdown_table(&t));
    for e in errata {
        let _ = write!(s, "\n## {}\n\n", e.id());
        let _ = writeln!(s, "- section: {}", e.sections());
        match e.root_cause {
            Some(rc) => {
                let _ = writeln!(
                    s,
                    "- class: {}; severity: {} ({})",
                    rc.class.label(),
                    rc.severity().label(),
                    rc.impact.label()
                );
                let _ = writeln!(s, "- spec: `{}`", rc.quote.replace('`', "'"));
                let _ = writeln!(s, "- ptxas: {}; hardware: {}", e.ptxas, e.hardware);
                if let Some(j) = text.and_then(|t| t.judged.iter().find(|j| j.id == rc.id)) {
                    let _ = writeln!(s, "- in the text: {} ({})", j.status.label(), j.how);
                    let ids: Vec<String> = j.rests_on.iter().map(|u| format!("`{u}`")).collect();
                    let _ = writeln!(s, "- rests on: {}", ids.join(", "));
                }
                let _ = writeln!(s, "\n{}.\n", capitalise(&rc.problem));
                let _ = writeln!(s, "Proposed fix: {}", rc.fix());
                if let Some(r) = &rc.reading {
                    let _ = writeln!(s, "(the reading `{r}`)");
                }
            }
            None => {
                let _ = writeln!(s, "\nFindings that no root cause of `checker/errata/root-causes.toml` lists yet.");
            }
        }
        let w = e.witnesses();
        if !w.is_empty() {
            let _ = writeln!(s, "\nWitness:\n");
            s.push_str(&compact_markdown(&w, vendor));
        }
        let _ = writeln!(s, "\nSites ({}):\n", e.findings.len());
        let mut t = vec![vec!["finding".to_string(), "section".into(), "kind".into(), "summary".into()]];
        for f in &e.findings {
            t.push(vec![
                format!("[{}](#{})", f.id, anchor(&f.id)),
                f.section.clone(),
                f.kind.label().into(),
                f.summary.clone(),
            ]);
        }
        s.push_str(&markdown_table(&t));
        for f in &e.findings {
            finding_md(&mut s, f, vendor);
            let units = text.map(|t| t.units_of(f));
            if let Some(ids) = units.filter(|u| !u.is_empty()) {
                let ids: Vec<String> = ids.iter().map(|u| format!("`{u}`")).collect();
                let _ = writeln!(s, "\nRests on: {}.", ids.join(", "));
            }
        }
    }
    s
}

/// One finding in full, under its root cause.
pub(super) fn finding_md(s: &mut String, f: &Finding, vendor: Option<&Vendor>) {
    let _ = write!(s, "\n### {}\n\n", f.id);
    let _ = writeln!(s, "- section: {}; kind: {}", f.section, f.kind.label());
    if !f.fragment.is_empty() {
        let _ = writeln!(s, "- spec: `{}`", f.fragment.replace('`', "'"));
    }
    if let Some(m) = &f.model_choice {
        let _ = writeln!(s, "- the model's choice: {m}");
    }
    let _ = writeln!(s, "\n{}\n", f.summary);
    for d in &f.detail {
        let _ = writeln!(s, "- {d}");
    }
    let said = vendor.map(|v| v.lines(f)).unwrap_or_default();
    if !said.is_empty() {
        let _ = writeln!(s, "\nWhat the vendor does:\n");
        for line in said {
            let _ = writeln!(s, "- {line}");
        }
    }
    let w: Vec<&WitnessTable> = f.witness.iter().chain(&f.more_witnesses).collect();
    if !w.is_empty() {
        let _ = writeln!(s, "\nWitness:\n");
        s.push_str(&compact_markdown(&w, vendor));
    }
}

pub(super) fn capitalise(text: &str) -> String {
    let mut c = text.chars();
    c.next().map_or_else(String::new, |first| first.to_uppercase().chain(c).collect())
}
