//! `README.md`: the report's summary, section by section.

use std::fmt::Write as _;

use ptx_spec::catalogue::Variant;

use crate::audit::claims::json as claims_json;
use crate::audit::claims::section_key;
use crate::audit::finding::{Finding, FindingKind};
use crate::audit::text::TextAudit;
use crate::audit::Audit;

use super::errata::{class_counts, Erratum};
use super::hardware::{self, Hardware};
use super::vendor::Vendor;
use super::{markdown_table, SolverRun, HEADER};

pub(super) fn readme(runs: &[SolverRun], audit: &Audit, vendor: Option<&Vendor>, errata: &[Erratum]) -> String {
    let mut s = String::from(HEADER);
    s.push_str("# ptxcheck reports\n\n");
    s.push_str(
        "What ptxcheck proves about the PTX integer, logic and shift instructions (9.7.1, 9.7.8, and the \
         deprecated shfl of 9.7.9.5; from the 9.1 release, selp and slct of 9.7.6.3-4 and prmt of 9.7.9.7), and \
         what it finds in the spec text.\n\n\
         - [errata.md](errata.md): the defects of the spec text, one row per root cause, each with a proposed fix.\n\
         - [findings.md](findings.md): every finding under its root cause, with its readings and witnesses.\n\
         - [variants.md](variants.md): every variant, its proof and the assumptions it rests on.\n\
         - [ptxcheck.json](ptxcheck.json): all of it, for tools.\n\n",
    );

    readme_errata(&mut s, audit, errata);
    readme_variants(&mut s, runs);
    readme_claims(&mut s, audit);
    if let Some(v) = vendor {
        readme_vendor(&mut s, v, audit);
    }
    readme_findings(&mut s, audit);
    s
}

/// The README's proofs: by solver, then by section.
pub(super) fn readme_variants(s: &mut String, runs: &[SolverRun]) {
    s.push_str("## Variants proven\n\n");
    s.push_str(
        "For every variant, the SMT encoding that transcribes the Semantics block and the concrete function an \
         emulator would use are proven equal on every input, by each solver.\n\n",
    );
    let mut t = vec![vec![
        "solver".to_string(),
        "variants".into(),
        "proven".into(),
        "counterexample".into(),
        "unknown".into(),
        "timeout".into(),
    ]];
    for r in runs {
        t.push(vec![
            format!("`{}`", r.solver),
            r.results.len().to_string(),
            r.count("proven").to_string(),
            r.count("counterexample").to_string(),
            r.count("unknown").to_string(),
            r.count("timeout").to_string(),
        ]);
    }
    s.push_str(&markdown_table(&t));
    s.push_str(&format!("\nThe solvers {} on every variant.\n", agreement(runs)));
    s.push_str("Times are in the project's docs/performance.md: they vary from run to run.\n\n");

    s.push_str("By section:\n\n");
    let mut sections: Vec<&str> = Variant::all().iter().map(|v| v.section()).collect();
    sections.sort_by_key(|a| section_key(a));
    sections.dedup();
    let mut t =
        vec![vec!["section".to_string(), "instructions".into(), "variants".into(), "proven by every solver".into()]];
    for sec in sections {
        let vs: Vec<Variant> = Variant::all().into_iter().filter(|v| v.section() == sec).collect();
        let mut ops: Vec<&str> = vs.iter().map(|v| v.opcode()).collect();
        ops.dedup();
        let proven = vs.iter().filter(|v| proven_by_all(runs, v)).count();
        t.push(vec![sec.to_string(), ops.join(", "), vs.len().to_string(), proven.to_string()]);
    }
    s.push_str(&markdown_table(&t));
}

/// The README's claims, and the Semantics blocks read as C.
pub(super) fn readme_claims(s: &mut String, audit: &Audit) {
    s.push_str("\n## Claims of the spec\n\n");
    let mut t = vec![vec!["verdict".to_string(), "claims".into()]];
    for v in ["holds", "refuted", "not checkable", "unknown"] {
        t.push(vec![v.to_string(), claims_json::count(&audit.claims, v).to_string()]);
    }
    t.push(vec!["**all**".into(), audit.claims.len().to_string()]);
    s.push_str(&markdown_table(&t));

    s.push_str("\n## Semantics blocks read as C\n\n");
    s.push_str(
        "Every Semantics block, read as a C compiler reads it (precedence, the types of literals and \
         operands, promotions): the block as the text writes it, parsed (the column `read from` says \
         text, or that no text was given). Each operation is checked for undefined and implementation-defined behaviour \
         and the defined result compared with the model's, on every variant the block covers. A block that is \
         not C is read with its smallest repair. Every loop whose iterations depend on the inputs is proven to \
         stop within the iterations the reading unrolls. A question the solver did not settle is listed \
         as unresolved: it is neither a finding nor clean.\n\n",
    );
    let mut t = vec![vec![
        "section".to_string(),
        "block".into(),
        "variants".into(),
        "hazard sites".into(),
        "loops proven to stop".into(),
        "findings".into(),
        "unresolved".into(),
        "read from".into(),
    ]];
    for b in &audit.literal {
        let read_from = match b.read_from {
            crate::audit::literal::check::ReadFrom::Text => "text",
            crate::audit::literal::check::ReadFrom::NotRead => "not read (no text given)",
        };
        t.push(vec![
            b.section.clone(),
            b.opcode.clone(),
            b.variants.to_string(),
            b.hazards_examined.to_string(),
            b.loops_bounded.to_string(),
            b.findings.len().to_string(),
            if b.unresolved.is_empty() { String::new() } else { b.unresolved.join("; ") },
            read_from.into(),
        ]);
    }
    s.push_str(&markdown_table(&t));
}

/// The README's vendor ground truth: ptxas's syntax and folded values.
pub(super) fn readme_vendor(s: &mut String, v: &Vendor, audit: &Audit) {
    s.push_str("\n## Vendor ground truth (ptxas)\n\n");
    let _ = writeln!(
        s,
        "What NVIDIA's assembler ({}, from `{}`) makes of the same instructions, recorded in \
         [vendor/](vendor/) by `ptxcheck vendor syntax|fold --write`; the findings below carry its \
         value where it folded a witness.\n",
        v.fold.head.ptxas.release,
        v.fold.head.ptxas.wheel.as_deref().unwrap_or("?"),
    );
    let c = &v.syntax.head.counts;
    let n = |x: usize| x.to_string();
    let mut t = vec![vec!["syntax".to_string(), "count".into()]];
    t.push(vec!["variants accepted".into(), format!("{} of {}", n(c.variants_accepted), n(c.variants))]);
    t.push(vec!["examples accepted".into(), format!("{} of {}", n(c.examples_accepted), n(c.examples))]);
    t.push(vec!["ptxas and ptxcheck agree".into(), n(c.agree)]);
    t.push(vec!["ptxas and ptxcheck disagree".into(), n(c.disagree)]);
    t.push(vec![
        "forbidden neighbours (types and forms the text excludes, a version or target below its minimum)".into(),
        n(c.negative),
    ]);
    t.push(vec!["... rejected, as the text says".into(), n(c.negative_rejected)]);
    t.push(vec!["... accepted, against the text".into(), n(c.negative_accepted)]);
    t.push(vec!["forms the text allows, rejected against the text".into(), n(c.positive_rejected)]);
    t.push(vec!["immediates just outside a stated operand range".into(), n(c.range_edges)]);
    t.push(vec!["... where ptxas answers otherwise than the text".into(), n(c.range_edges_disagree)]);
    s.push_str(&markdown_table(&t));
    let c = &v.fold.head.counts;
    let mut t = vec![vec!["folded values".to_string(), "instances".into()]];
    t.push(vec!["all".into(), n(c.instances)]);
    t.push(vec!["vendor agrees with the model".into(), n(c.agree)]);
    t.push(vec!["vendor contradicts the model".into(), n(c.disagree)]);
    t.push(vec!["model leaves it open, vendor picks a value".into(), n(c.vendor_picks)]);
    t.push(vec!["not folded (no constant to read back)".into(), n(c.not_folded)]);
    s.push('\n');
    s.push_str(&markdown_table(&t));
    let folded = hardware::folded_by_label(&v.fold.instances);
    let values = |label: &str| folded.get(label).cloned();
    let rows: Vec<_> = audit.passages.iter().map(|p| hardware::passage_readings(p, &values)).collect();
    s.push_str(
        "\nWhich reading of each passage ptxas's folder takes, on the inputs that separate its readings (the \
         audit's comparisons) that it folds: per reading, on how many of them ptxas gives the reading's value.\n\n",
    );
    passage_table(s, "separating inputs folded", "ptxas gives", &rows);
    readme_hardware(s, v.hardware.as_ref(), audit);
}

/// A table of which reading of each passage a vendor takes.
pub(super) fn passage_table(s: &mut String, run: &str, gives: &str, rows: &[hardware::PassageReadings]) {
    let mut t = vec![vec!["passage".to_string(), run.into(), gives.into(), "no reading matches".into()]];
    for p in rows {
        let taken: Vec<String> = p.matches.iter().map(|(r, n)| format!("{r} {n}/{}", p.run)).collect();
        let none = match &p.smallest_none {
            Some(smallest) => format!("{}, e.g. {smallest}", p.none),
            None => p.none.to_string(),
        };
        let taken = if p.run == 0 { "not run".to_string() } else { taken.join(", ") };
        t.push(vec![format!("`{}`", p.passage), format!("{} of {}", p.run, p.witnesses), taken, none]);
    }
    s.push_str(&markdown_table(&t));
}

/// The README's hardware counts, next to ptxas's.
pub(super) fn readme_hardware(s: &mut String, hw: Option<&Hardware>, audit: &Audit) {
    s.push_str("\n## The hardware\n\n");
    let Some(hw) = hw else {
        s.push_str("No GPU run is committed under [vendor/](vendor/) (`ptxcheck hw run --output`).\n");
        return;
    };
    let _ = writeln!(
        s,
        "The same instances and 360 whole-warp shfl cases run on {}, recorded in \
         [vendor/{}](vendor/{}) by `ptxcheck hw run --output`, with an edge sweep on the same GPU made without \
         ptxcheck ([vendor/{}](vendor/{}): every operand at its edge values, each instance its own kernel); each \
         finding below says which reading the GPU takes on its witness.\n",
        hw.device,
        hardware::RUN,
        hardware::RUN,
        hardware::EDGES,
        hardware::EDGES
    );
    let mut t = vec![vec!["results on the GPU".to_string(), "count".into()]];
    t.push(vec!["all".into(), hw.rows.len().to_string()]);
    t.push(vec!["the GPU agrees with the model".into(), hw.count("agree").to_string()]);
    t.push(vec!["the GPU contradicts the model".into(), hw.count("disagree").to_string()]);
    t.push(vec!["model leaves it open, the GPU picks a value".into(), hw.count("hardware picks").to_string()]);
    s.push_str(&markdown_table(&t));
    s.push_str(
        "\nWhich reading of each passage the GPU takes, on the inputs that separate its readings (the audit's \
         comparisons) that the run holds: per reading, on how many of them the GPU gives the reading's value.\n\n",
    );
    passage_table(s, "separating inputs run", "the GPU gives", &hw.readings(audit));
}

/// The README's findings: by kind and severity, then by section.
pub(super) fn readme_findings(s: &mut String, audit: &Audit) {
    s.push_str("\n## Findings\n\n");
    let mut t = vec![vec!["kind".to_string(), "findings".into(), "high".into(), "medium".into(), "low".into()]];
    for k in FindingKind::ALL {
        let of: Vec<&Finding> = audit.findings.iter().filter(|f| f.kind == k).collect();
        let sev = |l: &str| of.iter().filter(|f| f.severity.label() == l).count().to_string();
        t.push(vec![k.label().to_string(), of.len().to_string(), sev("high"), sev("medium"), sev("low")]);
    }
    t.push(vec!["**all**".into(), audit.findings.len().to_string(), String::new(), String::new(), String::new()]);
    s.push_str(&markdown_table(&t));
    s.push_str("\nBy section:\n\n");
    let mut header = vec!["section".to_string()];
    header.extend(FindingKind::ALL.iter().map(|k| k.label().to_string()));
    let mut t = vec![header];
    let mut secs: Vec<&str> = audit.findings.iter().map(|f| f.section.as_str()).collect();
    secs.dedup();
    for sec in secs {
        let mut row = vec![sec.to_string()];
        for k in FindingKind::ALL {
            let n = audit.findings.iter().filter(|f| f.section == sec && f.kind == k).count();
            row.push(if n == 0 { String::new() } else { n.to_string() });
        }
        t.push(row);
    }
    s.push_str(&markdown_table(&t));
}

pub(super) fn proven_by_all(runs: &[SolverRun], v: &Variant) -> bool {
    runs.iter().all(|r| r.results.iter().any(|p| p.variant == *v && p.verdict.is_proven()))
}

/// "agree" or which variants they do not agree on.
pub(super) fn agreement(runs: &[SolverRun]) -> String {
    let Some(first) = runs.first() else { return "(none ran)".into() };
    let split: Vec<String> = first
        .results
        .iter()
        .enumerate()
        .filter(|(i, p)| runs.iter().any(|r| r.results[*i].verdict.label() != p.verdict.label()))
        .map(|(_, p)| p.variant.to_string())
        .collect();
    if split.is_empty() {
        "agree".into()
    } else {
        format!("do not all agree ({})", split.join(", "))
    }
}

/// The README's lead: the errata by class and severity.
pub(super) fn readme_errata(s: &mut String, audit: &Audit, errata: &[Erratum]) {
    s.push_str("## Errata\n\n");
    let _ = writeln!(
        s,
        "{} defects of the spec text, each fixed by one edit, cover the audit's {} findings; [errata.md](errata.md) \
         lists them with a proposed fix each.\n",
        errata.len(),
        audit.findings.len()
    );
    s.push_str(&class_counts(errata));
    s.push('\n');
}

/// The README's section on the spec text the report was given.
pub(super) fn readme_text(s: &mut String, t: &TextAudit) {
    s.push_str("\n## The spec text\n\n");
    s.push_str(
        "The PTX ISA sections read by `ptxcheck text` (the document is the user's: the report names no file): its \
         wording, structure and code, and every block the project transcribed compared with it by fingerprint.\n\n",
    );
    let mut sections: Vec<&str> = t.document.sections.iter().map(|x| x.number.as_str()).collect();
    let renderings = sections.len();
    sections.sort_by_key(|x| section_key(x));
    sections.dedup();
    let mut rows = vec![vec!["spec text".to_string(), "count".into()]];
    rows.push(vec!["sections read (renderings)".into(), format!("{} ({renderings})", sections.len())]);
    for k in [FindingKind::Spelling, FindingKind::Structure, FindingKind::MalformedCode, FindingKind::UndefinedHelper] {
        rows.push(vec![
            format!("{} findings", k.label()),
            t.findings.iter().filter(|f| f.kind == k).count().to_string(),
        ]);
    }
    rows.push(vec!["transcribed blocks and passages compared".into(), t.compared.to_string()]);
    rows.push(vec!["stale transcriptions".into(), t.stale.len().to_string()]);
    rows.push(vec!["not rendered by the text, not compared".into(), t.unchecked.to_string()]);
    s.push_str(&markdown_table(&rows));
    if let Some(why) = &t.spelling_skipped {
        let _ = writeln!(s, "\nSpelling not checked: {why}.");
    }
    for x in &t.stale {
        let _ = writeln!(s, "\n- transcription stale: re-check {} ({})", x.what, x.change.label());
    }
    for h in &t.helpers_unlisted {
        let _ = writeln!(s, "\n- {h}");
    }
    readme_coverage(s, &t.coverage);
}

/// The README's document coverage: every unit of the text, checked, marked
/// not checkable, or unread, by kind of unit and by section.
pub(super) fn readme_coverage(s: &mut String, c: &crate::audit::text::coverage::Coverage) {
    use crate::audit::text::coverage::Counts;
    s.push_str("\n### Document coverage\n\n");
    s.push_str(
        "Every unit of the text (heading, label, sentence, list item, table row, Syntax line, Semantics statement \
         and comment, example and its comment) and how it is accounted for: checked by a claim, a passage, a \
         finding, a transcription read by a check, the structure, requirements or operands pass; marked not checkable \
         (`checker/text/not-checkable.toml`, with its reason); or unread. `ptxcheck text PATH --coverage` lists \
         each unit and what checks it.\n\n",
    );
    let header = |first: &str| {
        let mut h = vec![first.to_string()];
        h.extend(Counts::COLUMNS.iter().map(|c| c.to_string()));
        h
    };
    let mut rows = vec![header("kind of unit")];
    rows.extend(c.by_kind().iter().map(|(k, n)| n.row(k.key().to_string())));
    rows.push(c.total().row("all".into()));
    s.push_str(&markdown_table(&rows));
    s.push('\n');
    let mut rows = vec![header("section")];
    rows.extend(c.by_section().iter().map(|(sec, n)| n.row(sec.clone())));
    s.push_str(&markdown_table(&rows));
}

/// The README's third proof: each variant's Semantics block, parsed from
/// the text, against its encoding, counted by verdict.
pub(super) fn readme_blocks(s: &mut String, blocks: &[crate::text_proof::TextProof]) {
    s.push_str("\n## The Semantics blocks against the encodings\n\n");
    s.push_str(
        "The third proof: each variant's Semantics block, parsed from the text and evaluated over bit-vectors, \
         against its SMT encoding, for every input. Each variant's verdict is in [variants.md](variants.md).\n\n",
    );
    let mut rows = vec![vec!["verdict".to_string(), "variants".into()]];
    for label in ["proven", "named difference", "not read", "counterexample", "stale difference", "unknown", "timeout"]
    {
        rows.push(vec![label.into(), blocks.iter().filter(|p| p.verdict.label() == label).count().to_string()]);
    }
    s.push_str(&markdown_table(&rows));
}
