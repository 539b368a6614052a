//! `variants.md`: every variant's verdict from each solver.

use std::fmt::Write as _;

use ptx_spec::assumption;
use ptx_spec::catalogue::Variant;

use crate::audit::Audit;
use crate::text_proof::{TextProof, TextVerdict};

use super::hardware::Hardware;
use super::{markdown_table, SolverRun, HEADER};

/// `stated`: the assumptions the report's text now states, each with its
/// fixed root cause.
pub(super) fn variants(
    runs: &[SolverRun],
    blocks: &[TextProof],
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
    if !blocks.is_empty() {
        s.push_str(
            "The column `Semantics block` is the third proof: the variant's Semantics block, parsed from the text \
             the report was made with and evaluated over bit-vectors, against its SMT encoding, for every input \
             (embedded Z3). `proven` where the two agree; otherwise the difference the model names, or why the \
             block is not read ([below](#the-semantics-blocks)).\n\n",
        );
    }
    let mut header = vec!["variant".to_string(), "section".into(), "requires".into()];
    header.extend(runs.iter().map(|r| r.solver.clone()));
    if !blocks.is_empty() {
        header.push("Semantics block".into());
    }
    header.push("assumptions".into());
    let mut t = vec![header];
    for (i, v) in Variant::all().iter().enumerate() {
        let mut row = vec![format!("`{v}`"), v.section().to_string(), v.requirement().to_string()];
        if let Some(d) = v.deprecation() {
            row[2].push_str(&format!("; deprecated from PTX {}", d.since));
        }
        row.extend(runs.iter().map(|r| r.results[i].verdict.label().to_string()));
        if let Some(p) = blocks.get(i) {
            row.push(block_cell(&p.verdict));
        }
        let ids: Vec<&str> = v.assumptions().iter().map(|a| a.id).collect();
        row.push(if ids.is_empty() { "-".into() } else { ids.join(", ") });
        t.push(row);
    }
    s.push_str(&markdown_table(&t));
    if !blocks.is_empty() {
        semantics_blocks(&mut s, blocks);
    }
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

/// A variant's third proof in one cell.
fn block_cell(v: &TextVerdict) -> String {
    match v {
        TextVerdict::Proven { narrower: Some(_) } => "proven (model narrower)".into(),
        TextVerdict::Named { difference, .. } => format!("differs: {}", difference.id),
        TextVerdict::Stale(d) => format!("stale difference: {}", d.id),
        v => v.label().into(),
    }
}

/// What the third proof's column rests on: each named difference, each
/// reason a block is not read, each counterexample, each input where the
/// model leaves unspecified what the block defines; with the variants of
/// each.
fn semantics_blocks(s: &mut String, blocks: &[TextProof]) {
    s.push_str("\n## The Semantics blocks\n\n");
    let mut by: Vec<(String, Vec<String>)> = Vec::new();
    for p in blocks {
        let line = match &p.verdict {
            TextVerdict::Proven { narrower: None } => continue,
            TextVerdict::Proven { narrower: Some(ins) } => {
                format!("proven; the block defines what the model leaves unspecified, at {}", at(ins))
            }
            TextVerdict::Named { difference, witness } => {
                format!("differs as named, `{}`: {} (witness {})", difference.id, difference.why, at(&witness.inputs))
            }
            TextVerdict::Differs(cex) => {
                format!("counterexample: the block and the encoding differ at {}", at(&cex.inputs))
            }
            TextVerdict::Stale(d) => format!("stale difference: `{}` no longer differs", d.id),
            TextVerdict::NotRead(why) => format!("not read: {why}"),
            TextVerdict::Unknown(why) => format!("unknown: {why}"),
            TextVerdict::Timeout => "timeout".into(),
        };
        match by.iter_mut().find(|(l, _)| *l == line) {
            Some((_, vs)) => vs.push(p.variant.to_string()),
            None => by.push((line, vec![p.variant.to_string()])),
        }
    }
    let proven = blocks.iter().filter(|p| matches!(p.verdict, TextVerdict::Proven { .. })).count();
    let _ = writeln!(
        s,
        "{proven} of {} variants proven against their Semantics block. Below: what each other verdict rests on, and \
         where a proven block defines more than the model does.\n",
        blocks.len()
    );
    for (line, vs) in by {
        let names: Vec<String> = vs.iter().map(|v| format!("`{v}`")).collect();
        let _ = writeln!(s, "- {} ({}): {line}", names.join(", "), vs.len());
    }
}

/// An input as its values other than 0 (`a=0x1 b=0x2`, `all 0`): a warp's
/// 100 inputs are mostly 0.
fn at(inputs: &[(String, ptx_spec::bv::BitVec)]) -> String {
    let set: Vec<String> =
        inputs.iter().filter(|(_, v)| v.unsigned() != 0).map(|(n, v)| format!("{n}={}", v.hex())).collect();
    match (set.is_empty(), set.len() == inputs.len()) {
        (true, _) => "every input 0".into(),
        (false, true) => set.join(" "),
        (false, false) => format!("{}, the others 0", set.join(" ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_spec::bv::BitVec;

    #[test]
    fn an_input_is_shown_by_its_values_other_than_0() {
        let ins = |vs: &[u128]| -> Vec<(String, BitVec)> {
            vs.iter().enumerate().map(|(k, v)| (format!("a{k}"), BitVec::new(8, *v))).collect()
        };
        assert_eq!(at(&ins(&[1, 0, 3])), "a0=0x01 a2=0x03, the others 0");
        assert_eq!(at(&ins(&[1, 2])), "a0=0x01 a1=0x02");
        assert_eq!(at(&ins(&[0, 0])), "every input 0");
    }

    #[test]
    fn a_named_difference_is_named_in_its_cell() {
        let d = &crate::text_proof::DIFFERENCES[0];
        assert_eq!(block_cell(&TextVerdict::Stale(d)), format!("stale difference: {}", d.id));
        assert_eq!(block_cell(&TextVerdict::Proven { narrower: None }), "proven");
        assert_eq!(block_cell(&TextVerdict::NotRead("why".into())), "not read");
    }
}
