//! `ptxcheck text PATH...`: the user's copy of the PTX ISA sections as
//! input. Its wording, structure and code as findings, and every block the
//! project transcribed that the document no longer matches.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;

use super::render::{note, Table, Width, WidthArgs};
use super::{status, Format};
use crate::audit::chapter::ChapterCause;
use crate::audit::errata;
use crate::audit::text::judge::{Judgement, Status};
use crate::audit::text::{self, coverage, document::TextError, drift, judge, revision};
use crate::error::Error;
use crate::output::Output;

/// The arguments of `ptxcheck text`.
#[derive(clap::Args)]
pub struct Args {
    /// The document: files of plain text or Markdown, or folders (their
    /// .txt and .md files, README.md aside), in the order given.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Write the fingerprints of the document's transcribed blocks to FILE
    /// (the project's table is checker/text/fingerprints.toml): after the
    /// transcriptions have been re-checked against a newer document.
    #[arg(long, value_name = "FILE")]
    record_fingerprints: Option<PathBuf>,
    /// Account for every unit of the document (heading, label, sentence,
    /// list item, table row, Syntax line, Semantics statement and comment,
    /// example and its comment): what checks it, what is marked not
    /// checkable and why, and every unit that is unread (exit 1 while one is).
    #[arg(long, conflicts_with = "record_fingerprints")]
    coverage: bool,
    /// The release the recorded fingerprints were taken from (the
    /// project's: the seed text), to show each changed or gone unit's old
    /// text beside its new one. Only the units whose fingerprint is the
    /// recorded one are shown.
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with_all = ["record_fingerprints", "coverage"])]
    since: Vec<PathBuf>,
    /// Also write the audit of the text as static HTML pages into DIR
    /// (created if missing): the annotated document, its root causes with
    /// their fixes, and the coverage, as `ptxcheck report` writes them under
    /// reports/html/. Open DIR/index.html in a browser.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["record_fingerprints", "coverage"])]
    html: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    #[command(flatten)]
    width: WidthArgs,
}

impl From<TextError> for Error {
    fn from(e: TextError) -> Error {
        match e.io {
            Some(kind) if !matches!(kind, std::io::ErrorKind::NotFound | std::io::ErrorKind::InvalidInput) => {
                Error::Io { what: format!("cannot read {}", e.file), source: std::io::Error::from(kind) }
            }
            _ => Error::Usage(e.to_string()),
        }
    }
}

/// Exit 1 while a transcribed block is stale or a helper the blocks call is
/// not in the helper table (it must be looked at); the findings are about
/// the spec and leave the status 0, as the audit's do.
pub fn run(args: Args, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let output = match &args.record_fingerprints {
        Some(path) => Some(Output::file(path)?),
        None => None,
    };
    // Checked before the text is read, so that a folder that cannot be
    // written to is one line and nothing else.
    let site = match &args.html {
        Some(dir) => Some((dir, Output::in_dir(dir, &crate::report::html_files())?)),
        None => None,
    };
    let audit = text::run(&args.paths)?;
    let was = old_texts(&args.since, &audit.revision)?;
    if let Some((dir, output)) = site {
        let pages = crate::report::text_site(&audit);
        output.write(&pages.iter().map(|(_, text)| text.as_str()).collect::<Vec<_>>())?;
        // On stderr: the standard output stays the format asked for.
        eprintln!("wrote {} files to {}: open {}", pages.len(), dir.display(), dir.join("index.html").display());
    }
    if let Some(output) = output {
        let (mut prints, missing) = drift::record(&audit.document);
        prints.unit = judge::record_units(&audit.coverage);
        prints.rests_on = judge::rests_on(errata::all(), &audit.coverage);
        if let Some(m) = missing.first() {
            let more = if missing.len() > 1 { format!(" (and {} more)", missing.len() - 1) } else { String::new() };
            return Err(Error::usage(format!("cannot record the fingerprints: {m}{more}")));
        }
        output.write(&[&drift::to_toml(&prints)])?;
        writeln!(
            out,
            "wrote {} block, {} passage and {} unit fingerprints to {}",
            prints.block.len(),
            prints.passage.len(),
            prints.unit.len(),
            args.record_fingerprints.as_ref().map_or(String::new(), |p| p.display().to_string())
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = args.width.resolve();
    if args.coverage {
        return coverage(&audit, args.format, width, out);
    }
    if args.format == Format::Json {
        let value = TextJson::new(&audit, &was);
        writeln!(out, "{}", serde_json::to_string_pretty(&value).expect("JSON serialises"))?;
        return Ok(status(settled(&audit)));
    }
    let mut sections: Vec<&str> = audit.document.sections.iter().map(|s| s.number.as_str()).collect();
    let renderings = sections.len();
    sections.dedup();
    sections.sort();
    sections.dedup();
    writeln!(out, "{} sections read ({} renderings)", sections.len(), renderings)?;
    if let Some(why) = &audit.spelling_skipped {
        writeln!(out, "note: {why}")?;
    }
    for why in &audit.partial_lists {
        writeln!(out, "note: {why}")?;
    }
    let rows = audit
        .findings
        .iter()
        .map(|f| {
            vec![f.id.clone(), f.section.clone(), f.kind.label().to_string(), f.root_cause.clone(), f.summary.clone()]
        })
        .collect();
    let table =
        Table::new(&["finding", "section", "kind", "root cause", "summary"], rows).wrap(0, None).wrap(4, Some(64));
    writeln!(out, "{}", table.render(width))?;
    let counts: Vec<String> = super::audit::kind_counts(&audit.findings);
    note(out, width, "", "", &format!("{} findings: {}", audit.findings.len(), counts.join(", ")))?;
    for h in &audit.helpers_unlisted {
        writeln!(out, "{h}")?;
    }
    for s in &audit.stale {
        let at = s.at.as_ref().map(|a| format!(", {a}")).unwrap_or_default();
        writeln!(out, "transcription stale: re-check {} ({}{at})", s.what, s.change.label())?;
    }
    chapter_causes(&audit.chapter, width, out)?;
    seed_lines(&audit, &was, width, out)?;
    literal_lines(&audit, out)?;
    Ok(status(settled(&audit)))
}

/// `text --format json`: the audit of the text, typed, as it serialises.
#[derive(Serialize)]
struct TextJson<'a> {
    /// Each finding with the units it rests on.
    findings: Vec<WithUnits<'a>>,
    spelling_skipped: &'a Option<String>,
    partial_lists: &'a [String],
    stale: &'a [drift::Stale],
    compared: usize,
    unchecked: usize,
    helpers_unlisted: &'a [String],
    units: UnitsJson<'a>,
    root_causes: &'a [Judgement],
    chapter_root_causes: &'a [ChapterCause],
    sections_missing: &'a [String],
    assumptions_stated: Vec<Stated>,
    settled: Vec<Stated>,
    semantics_blocks_as_c: &'a [crate::audit::literal::check::BlockCheck],
    /// The sections whose blocks were read as C without a model, and those
    /// not read as they do not parse.
    semantics_blocks_without_model: &'a text::flow::Reading,
}

#[derive(Serialize)]
struct WithUnits<'a> {
    #[serde(flatten)]
    finding: &'a crate::audit::finding::Finding,
    units: Vec<String>,
}

/// The units that differ from the recorded text, each with its old text
/// where `--since` gives it.
#[derive(Serialize)]
struct UnitsJson<'a> {
    changed: Vec<Changed<'a>>,
    added: &'a [text::units::Unit],
    removed: Vec<Removed<'a>>,
}

#[derive(Serialize)]
struct Changed<'a> {
    id: &'a str,
    now: &'a text::units::Unit,
    was: Option<&'a String>,
}

#[derive(Serialize)]
struct Removed<'a> {
    id: &'a str,
    rests: &'a str,
    was: Option<&'a String>,
}

/// A finding or an assumption and the root cause that settles or states it.
#[derive(Serialize)]
struct Stated {
    id: String,
    root_cause: String,
}

impl<'a> TextJson<'a> {
    fn new(audit: &'a text::TextAudit, was: &'a BTreeMap<String, String>) -> TextJson<'a> {
        let seeds = has_seeds(audit);
        TextJson {
            findings: audit.findings.iter().map(|f| WithUnits { finding: f, units: audit.units_of(f) }).collect(),
            spelling_skipped: &audit.spelling_skipped,
            partial_lists: &audit.partial_lists,
            stale: &audit.stale,
            compared: audit.compared,
            unchecked: if seeds { audit.unchecked } else { 0 },
            helpers_unlisted: &audit.helpers_unlisted,
            units: UnitsJson {
                changed: audit
                    .revision
                    .changed
                    .iter()
                    .map(|(old, now)| Changed { id: &old.id, now, was: was.get(&old.id) })
                    .collect(),
                added: &audit.revision.added,
                removed: audit
                    .revision
                    .removed
                    .iter()
                    .map(|p| Removed { id: &p.id, rests: &p.rests, was: was.get(&p.id) })
                    .collect(),
            },
            root_causes: if seeds { &audit.judged } else { &[] },
            chapter_root_causes: &audit.chapter,
            sections_missing: if seeds { &audit.missing } else { &[] },
            assumptions_stated: audit
                .assumptions_stated()
                .into_iter()
                .map(|(a, rc)| Stated { id: a.to_string(), root_cause: rc })
                .collect(),
            settled: audit.settled.iter().map(|(f, rc)| Stated { id: f.clone(), root_cause: rc.clone() }).collect(),
            semantics_blocks_as_c: &audit.literal,
            semantics_blocks_without_model: &audit.without_model,
        }
    }
}

/// `text --coverage --format json`: every unit's account and the counts.
#[derive(Serialize)]
struct CoverageJson<'a> {
    total: coverage::Counts,
    sections: Vec<SectionCounts>,
    kinds: Vec<KindCounts>,
    units: &'a [coverage::Account],
    marks_unmatched: &'a [String],
    requirements_disagree: &'a [(String, String)],
    operands_fail: &'a [(String, String, String)],
    ranges_unlisted: &'a [String],
    formulas: coverage::Formulas,
    silence: &'a [text::silence::Silence],
    stale: &'a [drift::Stale],
}

#[derive(Serialize)]
struct SectionCounts {
    section: String,
    counts: coverage::Counts,
}

#[derive(Serialize)]
struct KindCounts {
    kind: text::units::UnitKind,
    counts: coverage::Counts,
}

/// What the text says of the seeds' transcriptions, units and root
/// causes: only where it holds one of their sections.
/// Whether the text holds any of the seed sections, whose transcriptions
/// and root causes the audit compares.
fn has_seeds(audit: &text::TextAudit) -> bool {
    audit.judged.iter().any(|j| j.status != Status::Missing)
}

fn seed_lines(
    audit: &text::TextAudit,
    was: &BTreeMap<String, String>,
    width: Width,
    out: &mut dyn Write,
) -> Result<(), Error> {
    // A text without the seed sections is read as a chapter of its own:
    // nothing of the seeds' transcriptions or root causes is said of it.
    if !has_seeds(audit) {
        return Ok(());
    }
    let unchecked = if audit.unchecked > 0 {
        format!("; {} in sections the text does not render, not compared", audit.unchecked)
    } else {
        String::new()
    };
    writeln!(
        out,
        "transcriptions: {} blocks and passages compared, {} stale{unchecked}",
        audit.compared,
        audit.stale.len()
    )?;
    if !audit.missing.is_empty() {
        let shown: Vec<&str> = audit.missing.iter().take(4).map(String::as_str).collect();
        let more = if audit.missing.len() > 4 { ", ..." } else { "" };
        writeln!(
            out,
            "not in the document: {} sections ({}{more}): their units not compared, their root causes not judged",
            audit.missing.len(),
            shown.join(", ")
        )?;
    }
    revision_lines(&audit.revision, was, out)?;
    judged(&audit.judged, width, out)?;
    for (a, rc) in audit.assumptions_stated() {
        writeln!(out, "assumption {a}: stated by the text now ({rc} is fixed), no longer adopted by the model")?;
    }
    Ok(())
}

/// The literal reading's findings the text's prose now settles, and what
/// it left unsettled in each block it read as C.
fn literal_lines(audit: &text::TextAudit, out: &mut dyn Write) -> Result<(), Error> {
    for (f, rc) in &audit.settled {
        writeln!(out, "finding {f}: settled by the text now ({rc} is fixed: its prose states what C leaves open)")?;
    }
    for b in &audit.literal {
        for u in &b.unresolved {
            writeln!(out, "read as C: {} {}: {u}", b.section, b.opcode)?;
        }
    }
    let w = &audit.without_model;
    if !w.read.is_empty() || !w.unparsed.is_empty() {
        let unparsed = match w.unparsed.len() {
            0 => String::new(),
            n => format!("; {n} not read, as they do not parse ({})", w.unparsed.join(", ")),
        };
        writeln!(
            out,
            "read as C without a model: {} Semantics blocks, for results never stored, reads before a store and \
             constant shifts past the width or into the sign bit{unparsed}",
            w.read.len()
        )?;
    }
    if audit.literal.is_empty() {
        return Ok(());
    }
    let read = audit.literal.iter().filter(|b| b.unresolved.is_empty()).count();
    writeln!(
        out,
        "read as C: {read} of {} Semantics blocks of the families read from the text settled",
        audit.literal.len()
    )?;
    Ok(())
}

/// Nothing to look at: no stale transcription, no unlisted helper, no unit
/// changed since the recording, every root cause open (or not judged, on a
/// section the document leaves out), every block read as C settled.
fn settled(audit: &text::TextAudit) -> bool {
    audit.stale.is_empty()
        && audit.helpers_unlisted.is_empty()
        && audit.revision.is_empty()
        && audit.judged.iter().all(|j| matches!(j.status, Status::Open | Status::Missing))
        && audit.literal.iter().all(|b| b.unresolved.is_empty())
}

/// The old text of each changed or gone unit, from the release given to
/// `--since`, where its fingerprint is the recorded one.
fn old_texts(since: &[PathBuf], diff: &revision::Diff) -> Result<BTreeMap<String, String>, Error> {
    if since.is_empty() {
        return Ok(BTreeMap::new());
    }
    let old = crate::audit::text::units::units(&crate::audit::text::document::read(since)?);
    let wanted = diff.changed.iter().map(|(p, _)| p).chain(&diff.removed);
    Ok(wanted
        .filter_map(|p| {
            let u = old.iter().find(|u| u.id == p.id && u.sha256.starts_with(&p.sha256))?;
            Some((p.id.clone(), u.text.clone()))
        })
        .collect())
}

/// Every unit that changed, came or went since the recorded text, with the
/// claims, passages and transcriptions that rest on it.
fn revision_lines(diff: &revision::Diff, was: &BTreeMap<String, String>, out: &mut dyn Write) -> Result<(), Error> {
    let was_text = |id: &str| was.get(id).map(|t| format!(", was \"{t}\"")).unwrap_or_default();
    let rests = |p: &revision::UnitPrint| {
        // A passage that is a model assumption is named as one too.
        let assumed = p.checks().filter_map(|c| c.strip_prefix("passage:")).filter_map(|id| {
            ptx_spec::assumption::ALL.iter().find(|a| a.id == id).map(|a| format!("assumption:{}", a.id))
        });
        let assumed: Vec<String> = assumed.collect();
        let checks: Vec<&str> = p.checks().chain(assumed.iter().map(String::as_str)).collect();
        if checks.is_empty() {
            String::new()
        } else {
            format!("; stale: re-check {}", checks.join(", "))
        }
    };
    for (old, now) in &diff.changed {
        let id = if old.id == now.id { String::new() } else { format!(", now {}", now.id) };
        writeln!(
            out,
            "unit changed: {}{id} ({}:{}): now \"{}\"{}{}",
            old.id,
            now.file,
            now.line,
            now.text,
            was_text(&old.id),
            rests(old)
        )?;
    }
    for u in &diff.added {
        writeln!(out, "unit new: {} ({}:{}): \"{}\" (no check reads it yet)", u.id, u.file, u.line, u.text)?;
    }
    for p in &diff.removed {
        writeln!(out, "unit gone: {}{}{}", p.id, was_text(&p.id), rests(p))?;
    }
    writeln!(
        out,
        "units: {} changed, {} new, {} gone since the recorded text",
        diff.changed.len(),
        diff.added.len(),
        diff.removed.len()
    )?;
    Ok(())
}

/// The root causes derived for the findings no table lists, with their
/// fixes and how each was judged.
fn chapter_causes(causes: &[ChapterCause], width: Width, out: &mut dyn Write) -> Result<(), Error> {
    if causes.is_empty() {
        return Ok(());
    }
    let rows: Vec<Vec<String>> = causes
        .iter()
        .map(|c| {
            let fix = if c.cause.edits.is_empty() { "-".to_string() } else { c.fix() };
            vec![
                c.cause.id.clone(),
                crate::audit::chapter::sections_in_short(&c.cause.sections),
                c.cause.class.label().to_string(),
                c.cause.severity().label().to_string(),
                c.cause.findings.len().to_string(),
                fix,
                format!("{}: {}", c.status.label(), c.how),
            ]
        })
        .collect();
    let table = Table::new(&["root cause", "sections", "class", "severity", "sites", "fix", "verdict"], rows)
        .wrap(1, Some(20))
        .wrap(5, Some(48))
        .wrap(6, Some(40));
    writeln!(out, "{}", table.render(width))?;
    let fixed = causes.iter().filter(|c| c.status == Status::Fixed).count();
    let with_edits = causes.iter().filter(|c| !c.cause.edits.is_empty()).count();
    writeln!(
        out,
        "{} root causes of the findings no table lists: {with_edits} with an edit, {fixed} of them judged fixed on a copy \
         of the text",
        causes.len()
    )?;
    Ok(())
}

/// The root causes judged: those not open, each with why, then the table
/// of root causes by status.
fn judged(judged: &[Judgement], width: Width, out: &mut dyn Write) -> Result<(), Error> {
    // Root causes on sections the document leaves out are named one by one
    // only where they are few: a document of other sections leaves out all.
    let missing = judged.iter().filter(|j| j.status == Status::Missing).count();
    let moved: Vec<Vec<String>> = judged
        .iter()
        .filter(|j| j.status != Status::Open && (j.status != Status::Missing || missing <= 8))
        .map(|j| vec![j.id.clone(), j.status.label().to_string(), j.how.clone()])
        .collect();
    if !moved.is_empty() {
        let table = Table::new(&["root cause", "status", "why"], moved).wrap(2, Some(72));
        writeln!(out, "{}", table.render(width))?;
    }
    let rows: Vec<Vec<String>> = Status::ALL
        .iter()
        .map(|s| {
            let ids: Vec<&str> = judged.iter().filter(|j| j.status == *s).map(|j| j.id.as_str()).collect();
            let named = match (s, ids.len()) {
                (_, 0) => "-".to_string(),
                (Status::Open, n) if n == judged.len() => format!("every root cause ({n})"),
                (Status::Open, n) if n > 8 => format!("every other root cause ({n})"),
                (Status::Missing, n) if n > 8 => format!("{n}, on sections not in the document"),
                _ => ids.join(", "),
            };
            vec![s.label().to_string(), ids.len().to_string(), named]
        })
        .collect();
    let table = Table::new(&["status", "root causes", "which"], rows).wrap(2, Some(64));
    writeln!(out, "{}", table.render(width))?;
    Ok(())
}

/// `text --coverage`: the counts per section and per kind of unit, every
/// unread unit, and the entries of the not-checkable table that matched
/// nothing. Exit 1 while a unit is unread or a transcription is stale.
fn coverage(audit: &text::TextAudit, format: Format, width: Width, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let cov = &audit.coverage;
    let ok = cov.unread().next().is_none() && audit.stale.is_empty();
    let silence = text::silence::check(&audit.document);
    if format == Format::Json {
        let value = CoverageJson {
            total: cov.total(),
            sections: cov.by_section().into_iter().map(|(section, counts)| SectionCounts { section, counts }).collect(),
            kinds: cov.by_kind().into_iter().map(|(kind, counts)| KindCounts { kind, counts }).collect(),
            units: &cov.units,
            marks_unmatched: &cov.marks_unmatched,
            requirements_disagree: &cov.requirements_disagree,
            operands_fail: &cov.operands_fail,
            ranges_unlisted: &cov.ranges_unlisted,
            formulas: cov.formulas(),
            silence: &silence,
            stale: &audit.stale,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&value).expect("JSON serialises"))?;
        return Ok(status(ok));
    }
    writeln!(out, "{}", coverage_table("section", cov.by_section().into_iter()))?;
    writeln!(
        out,
        "{}",
        coverage_table("kind of unit", cov.by_kind().into_iter().map(|(k, c)| (k.key().to_string(), c)))
    )?;
    let unread: Vec<Vec<String>> = cov
        .unread()
        .map(|a| vec![a.unit.id.clone(), format!("{}:{}", a.unit.file, a.unit.line), a.unit.text.clone()])
        .collect();
    if !unread.is_empty() {
        writeln!(out, "unread units:")?;
        let table = Table::new(&["unit", "at", "text"], unread).wrap(2, Some(72));
        writeln!(out, "{}", table.render(width))?;
    }
    for (id, why) in &cov.requirements_disagree {
        writeln!(out, "requirement: {id} disagrees with the catalogue: {why}")?;
    }
    for (id, variant, why) in &cov.operands_fail {
        writeln!(out, "operands: {id} fails for {variant}: {why}")?;
    }
    for m in &cov.marks_unmatched {
        writeln!(out, "not-checkable entry matches no unit: {m}")?;
    }
    for r in &cov.ranges_unlisted {
        writeln!(out, "stated range `vendor syntax` does not assemble (add it to audit/text/ranges.rs): {r}")?;
    }
    for s in &audit.stale {
        writeln!(out, "transcription stale: re-check {} ({})", s.what, s.change.label())?;
    }
    let f = cov.formulas();
    writeln!(
        out,
        "formulas: {} normative prose units checked: {} read from the sentence's shape, {} by hand-written claims \
         or passages alone, {} by neither (only a finding rests on it: {})",
        f.units,
        f.from_shapes,
        f.hand_written,
        f.neither.len(),
        if f.neither.is_empty() { "none".to_string() } else { f.neither.join(", ") }
    )?;
    silence_lines(&silence, out)?;
    let t = cov.total();
    writeln!(
        out,
        "coverage: {} units, {} checked ({}), {} not checkable ({}), {} unread ({})",
        t.units,
        t.checked,
        t.percent(t.checked),
        t.not_checkable,
        t.percent(t.not_checkable),
        t.unread,
        t.percent(t.unread)
    )?;
    Ok(status(ok))
}

/// What the prose's formulas leave open: a count, then each variant with
/// inputs no formula decides, by its least one.
fn silence_lines(silence: &[text::silence::Silence], out: &mut dyn Write) -> Result<(), Error> {
    let open: Vec<&text::silence::Silence> = silence.iter().filter(|s| !s.regions.is_empty()).collect();
    let unsettled: Vec<&str> = silence.iter().filter(|s| s.unsettled.is_some()).map(|s| s.variant.as_str()).collect();
    let decided = silence.iter().filter(|s| s.regions.is_empty() && s.unsettled.is_none()).count();
    writeln!(
        out,
        "silence: {} variants have formulas of their prose: {} decided on every legal input, {} with inputs no \
         formula decides (a formula missing, or the prose silent){}",
        silence.len(),
        decided,
        open.len(),
        if unsettled.is_empty() { String::new() } else { format!("; not settled: {}", unsettled.join(", ")) }
    )?;
    for s in open {
        let more = match s.regions.len() {
            1 => String::new(),
            n => format!(" (and {} more regions)", n - 1),
        };
        writeln!(out, "  {} ({}): {}{more}", s.variant, s.section, text::silence::describe(&s.regions[0]))?;
    }
    Ok(())
}

/// One coverage table: a row per section or kind, and the total.
pub fn coverage_table(first: &str, rows: impl Iterator<Item = (String, coverage::Counts)>) -> String {
    let mut total = coverage::Counts::default();
    let mut body: Vec<Vec<String>> = Vec::new();
    for (name, c) in rows {
        total = total.plus(c);
        body.push(c.row(name));
    }
    body.push(total.row("all".into()));
    let mut header = vec![first];
    header.extend(coverage::Counts::COLUMNS);
    super::render::table(&header, body)
}
