//! The spec document itself as input: `ptxcheck text` reads the user's
//! copy of the PTX ISA sections (`document`), checks its wording and
//! structure (`wording`), tells which of the project's transcriptions it
//! no longer matches (`drift`), names every helper its Semantics blocks call
//! and never define (`helpers`), and derives the forbidden neighbours of
//! every variant for NVIDIA's assembler (`negative`).

pub mod bounds;
pub mod captions;
pub mod comments;
pub mod consequences;
pub mod control;
pub mod coverage;
pub mod dating;
pub mod declarations;
pub mod defaults;
pub mod directives;
pub mod document;
pub mod domains;
pub mod drift;
pub mod exponents;
pub mod flow;
pub mod forms;
pub mod grammar;
pub mod helper_code;
pub mod helpers;
pub mod immediates;
pub mod implied;
pub mod judge;
pub mod labels;
pub mod lanes;
pub mod misnamed;
pub mod mixed;
pub mod modifiers;
pub mod names;
pub mod notations;
pub mod operands;
pub mod operators;
pub mod optional;
pub mod order;
pub mod packed;
pub mod punctuation;
pub mod ranges;
pub mod requirements;
pub mod restricted;
pub mod retyped;
pub mod revision;
pub mod semantics;
pub mod shapes;
pub mod silence;
pub mod sizes;
pub mod spellings;
pub mod subqualifiers;
pub mod tables;
pub mod terms;
pub mod threads;
pub mod typing;
pub mod units;
pub mod unread;
pub mod values;
pub mod wording;
pub mod zeros;

use std::path::PathBuf;

use crate::audit::finding::Finding;
use document::{Document, TextError};
use drift::Stale;
use ptx_smt::Backend;

/// The time limit of each of the literal reading's solver queries in
/// `text`: the audit's default.
const LITERAL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// What the text pass found in a document.
pub struct TextAudit {
    pub document: Document,
    /// Every wording, structure, code and undefined-helper finding, each
    /// with its root cause, sorted by section then id.
    pub findings: Vec<Finding>,
    /// Why spelling was not checked, where it was not (no dictionary).
    pub spelling_skipped: Option<String>,
    /// The groups the text holds only part of, each said once: their lists
    /// of instructions are not checked for items no subsection defines.
    pub partial_lists: Vec<String>,
    /// The transcribed blocks the document no longer matches.
    pub stale: Vec<Stale>,
    /// Transcribed blocks and passages of sections the document does not
    /// render, so not compared.
    pub unchecked: usize,
    /// Transcribed blocks and passages compared.
    pub compared: usize,
    /// Helpers the document calls that the helper table does not list for
    /// that section, and uses it lists that the document no longer has.
    pub helpers_unlisted: Vec<String>,
    /// Every unit of the document, and what checks it.
    pub coverage: coverage::Coverage,
    /// How its units differ from the recorded ones.
    pub revision: revision::Diff,
    /// Every root cause of the errata, judged against it.
    pub judged: Vec<judge::Judgement>,
    /// The recorded sections it does not render, in document order.
    pub missing: Vec<String>,
    /// The blocks read as C from the document (the families the literal
    /// reading reads from the text), with what each left unsettled; their
    /// findings are among `findings`.
    pub literal: Vec<crate::audit::literal::check::BlockCheck>,
    /// The literal reading's findings that a fixed root cause's prose now
    /// settles (the text states what C leaves undefined), as (finding,
    /// root cause): no longer among `findings`.
    pub settled: Vec<(String, String)>,
    /// The root causes of the findings the table does not list, derived
    /// from them, each fix judged on a copy of the text.
    pub chapter: Vec<crate::audit::chapter::ChapterCause>,
    /// The Semantics blocks of sections with no model, read as C without
    /// values ([`flow`]).
    pub without_model: flow::Reading,
}

impl TextAudit {
    /// The units a finding rests on: those its fragment and its further
    /// quotes are in, or, where
    /// the fragment runs across units (a list's items quoted with a comma),
    /// those of its root cause in the finding's section.
    pub fn units_of(&self, f: &crate::audit::finding::Finding) -> Vec<String> {
        let section = std::slice::from_ref(&f.section);
        let mut mine = judge::units_of(&self.coverage, section, &f.fragment);
        for quote in &f.also_quotes {
            for u in judge::units_of(&self.coverage, section, quote) {
                if !mine.contains(&u) {
                    mine.push(u);
                }
            }
        }
        if !mine.is_empty() {
            return mine;
        }
        // A fragment of a block read as C too short to anchor a quote
        // (`a-b`), or abbreviated (`d = c + (...)`): the block's statements
        // that hold each of its pieces.
        if f.id.starts_with("literal-") {
            let block = format!("{}/semantics/statement-", f.section);
            let pieces: Vec<String> =
                f.fragment.split("(...)").map(units::collapse).filter(|p| !p.is_empty()).collect();
            let holds = |u: &units::Unit| {
                let text = units::collapse(&u.text);
                !pieces.is_empty() && pieces.iter().all(|p| text.contains(p.as_str()))
            };
            let at: Vec<String> = self
                .coverage
                .units
                .iter()
                .filter(|a| a.unit.id.starts_with(&block) && holds(&a.unit))
                .map(|a| a.unit.id.clone())
                .collect();
            if !at.is_empty() {
                return at;
            }
        }
        let rc = self.judged.iter().find(|j| j.id == f.root_cause);
        let section = |u: &&String| u.split('/').next().is_some_and(|s| s == f.section);
        rc.map(|j| j.rests_on.iter().filter(section).cloned().collect()).unwrap_or_default()
    }

    /// The model's assumptions that the text now states, each with the
    /// fixed root cause it is a site of.
    pub fn assumptions_stated(&self) -> Vec<(&'static str, String)> {
        let fixed = self.judged.iter().filter(|j| j.status == judge::Status::Fixed);
        let sites = |id: &str| crate::audit::errata::all().iter().find(|rc| rc.id == id).map(|rc| rc.findings.clone());
        fixed
            .flat_map(|j| {
                let sites = sites(&j.id).unwrap_or_default();
                let stated = ptx_spec::assumption::ALL.iter().filter(move |a| sites.iter().any(|f| f == a.id));
                stated.map(move |a| (a.id, j.id.clone()))
            })
            .collect()
    }

    /// Which text was read: the SHA-256 of its units' fingerprints, in
    /// order.
    pub fn fingerprint(&self) -> String {
        let prints: Vec<&str> = self.coverage.units.iter().map(|a| a.unit.sha256.as_str()).collect();
        drift::sha256(&prints.join("\n"))
    }
}

/// The sections the catalogue models: their examples and operands are read
/// against its variants, not against the text alone.
fn modelled_sections() -> Vec<String> {
    ptx_spec::Variant::all().iter().map(|v| v.section().to_string()).collect()
}

/// Whether a sentence names an operand: in code or bold, or, for a name
/// longer than a letter (`offset`, `membermask`), as a word of its own.
fn names_operand(sentence: &str, operand: &str) -> bool {
    sentence.contains(&format!("`{operand}`"))
        || sentence.contains(&format!("**{operand}**"))
        || (operand.len() > 1 && sentence.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| w == operand))
}

/// Whether a character continues a name: PTX identifiers and the
/// Semantics' variables take letters, digits, `_` and `$`.
fn in_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$')
}

/// The byte offsets where `name` stands in `text` as a whole name: `max`
/// in `max(a, b)`, not the end of `fmax` or the start of `maxval`.
fn names_at<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| !text[..at].ends_with(in_name) && !text[at + name.len()..].starts_with(in_name))
}

/// `text` with each whole `name` written `by`.
fn rename(text: &str, name: &str, by: &str) -> String {
    let mut out = String::new();
    let mut from = 0;
    for at in names_at(text, name) {
        out.push_str(&text[from..at]);
        out.push_str(by);
        from = at + name.len();
    }
    out.push_str(&text[from..]);
    out
}

/// The operands a sentence gives a truth value (``for which `waitComplete`
/// returns `False` ``, `` `p` is `True` ``): what holds `True` or `False`
/// is a predicate, however the Syntax types the instruction.
fn truth_valued(text: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split('`').collect();
    let mut out: Vec<String> = Vec::new();
    for k in (1..parts.len().saturating_sub(2)).step_by(2) {
        let (name, verb, value) = (parts[k], parts[k + 1].trim(), parts[k + 2]);
        let plain = name.starts_with(|c: char| c.is_ascii_alphabetic()) && name.chars().all(in_name);
        let truth = value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false");
        if plain && truth && matches!(verb, "returns" | "is" | "holds") && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// The edits that write `new` for the first `old` of each line that has it.
fn on_each_line<'a>(
    lines: impl Iterator<Item = &'a document::Line>,
    old: &str,
    new: &str,
) -> Vec<crate::audit::finding::Repair> {
    lines
        .filter_map(|l| {
            let at = l.text.find(old)?;
            Some(crate::audit::finding::Repair::at(l.number, &l.text, at, at + old.len(), new))
        })
        .collect()
}

/// The edit that ends the first paragraph of a section's Description with
/// `sentence`: the fix of a finding whose defect is a thing no sentence
/// says (a notation, where the elements go, the operands' types).
fn ending_description(s: &document::Section, sentence: &str) -> Option<crate::audit::finding::Repair> {
    let last = *s.block(document::BlockKind::Description)?.paragraphs().first()?.last()?;
    let old = last.text.trim_end().to_string();
    Some(crate::audit::finding::Repair { line: last.number, new: format!("{old} {sentence}"), old })
}

/// Items as a sentence lists them: `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

fn each_section(doc: &Document, pass: impl Fn(&document::Section) -> Vec<Finding>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for s in &doc.sections {
        for f in pass(s) {
            if out.iter().all(|g| g.id != f.id) {
                out.push(f);
            }
        }
    }
    out
}

/// Read the document and run the wording pass and the drift check.
pub fn run(paths: &[PathBuf]) -> Result<TextAudit, TextError> {
    run_on(document::read(paths)?)
}

/// [`run`] on the text the reports are written from: its files named by
/// their file names alone ([`document::read_by_file_name`]).
pub fn run_for_reports(paths: &[PathBuf]) -> Result<TextAudit, TextError> {
    run_on(document::read_by_file_name(paths)?)
}

/// The findings of the passes that read the text and need no solver, why
/// spelling was not checked where it was not, and the helpers the table
/// does not list.
fn passes(
    document: &Document,
    dict: Result<&std::collections::HashSet<String>, &str>,
) -> (Vec<Finding>, Option<String>, Vec<String>) {
    let (mut findings, spelling_skipped) = wording::check(document, dict);
    let helpers = helpers::check(document, &helpers::TABLE);
    findings.extend(helpers.findings);
    findings.extend(helpers::arities(document, &helpers::TABLE));
    findings.extend(declarations::check(document));
    findings.extend(operands::findings(document));
    findings.extend(requirements::findings(document));
    findings.extend(control::check(document));
    findings.extend(helper_code::check(document));
    findings.extend(misnamed::check(document));
    findings.extend(order::check(document));
    findings.extend(operators::check(document));
    findings.extend(flow::check(document));
    findings.extend(semantics::check(document));
    findings.extend(labels::check(document));
    findings.extend(optional::check(document));
    findings.extend(names::check(document));
    findings.extend(restricted::check(document));
    findings.extend(spellings::check(document));
    findings.extend(spellings::in_prose(document));
    findings.extend(bounds::check_all(document));
    findings.extend(domains::check_all(document));
    findings.extend(tables::check(document));
    findings.extend(packed::check(document));
    findings.extend(lanes::check(document));
    findings.extend(captions::check(document));
    findings.extend(exponents::check(document));
    findings.extend(defaults::check(document));
    findings.extend(modifiers::check(document));
    findings.extend(mixed::check(document));
    findings.extend(zeros::check(document));
    findings.extend(typing::check(document));
    findings.extend(immediates::check(document));
    findings.extend(notations::check(document));
    findings.extend(directives::check(document));
    findings.extend(forms::check(document));
    findings.extend(shapes::check(document));
    findings.extend(grammar::check(document));
    findings.extend(sizes::check(document));
    findings.extend(dating::check(document));
    findings.extend(unread::check(document));
    findings.extend(retyped::check(document));
    findings.extend(terms::check(document));
    findings.extend(threads::check(document));
    findings.extend(implied::check(document));
    findings.extend(consequences::check(document));
    findings.extend(punctuation::check(document));
    findings.extend(subqualifiers::check(document));
    findings.extend(values::check(document));
    findings.extend(comments::check(document).1);
    (findings, spelling_skipped, helpers.unlisted)
}

fn run_on(document: Document) -> Result<TextAudit, TextError> {
    let dict = wording::load_dictionary(&wording::dictionary_path());
    let dict = dict.as_ref().map_err(String::as_str);
    let (mut findings, spelling_skipped, helpers_unlisted) = passes(&document, dict);
    let without_model = flow::reading(&document);
    // The code as C: the blocks the literal reading reads from the text.
    let literal = crate::audit::literal::check::read_text(&Backend::Embedded, LITERAL_TIMEOUT, &document)
        .map_err(|e| TextError { file: "the literal reading".into(), line: None, message: e.to_string(), io: None })?;
    findings.extend(literal.findings);
    // The prose's silences that are findings: solver queries, so once, not
    // in the passes run again on each fix's copy.
    let silences = silence::table().map_err(|e| {
        let (file, message) = e.split_once(": ").unwrap_or((silence::TABLE_FILE.0, &e));
        TextError { file: file.to_string(), line: None, message: message.to_string(), io: None }
    })?;
    findings.extend(silence::findings(&document, &silences));
    crate::audit::errata::assign(&mut findings);
    crate::audit::sort(&mut findings);
    // The findings no table lists: root causes of their own, each fix
    // judged by the passes that need no solver.
    let rerun = |d: &Document| passes(d, dict).0;
    let chapter = crate::audit::chapter::derive(&document, &mut findings, &rerun);
    let prints = drift::recorded().map_err(|message| TextError {
        file: drift::FILE.0.to_string(),
        line: None,
        message,
        io: None,
    })?;
    let (stale, unchecked) = drift::compare(&document, &prints);
    let compared = prints.block.len() + prints.passage.len() - unchecked;
    // The data files' errors name their file and line: `FILE:LINE: what`.
    let coverage = coverage::account(&document, &findings).map_err(|e| {
        let (file, message) = e.split_once(": ").unwrap_or((coverage::MARKS_FILE.0, &e));
        TextError { file: file.to_string(), line: None, message: message.to_string(), io: None }
    })?;
    let now: Vec<units::Unit> = coverage.units.iter().map(|a| a.unit.clone()).collect();
    if let Some(u) = now.iter().find(|u| u.id.split('/').next().is_some_and(|s| s.contains('@'))) {
        let first = document.renderings(u.base_section()).next().map(|s| format!("{}:{}", s.file, s.line));
        return Err(TextError {
            file: u.file.clone(),
            line: Some(u.line),
            message: format!(
                "section {} is given twice with different text (first at {}): two releases mixed? \
                 Give one release at a time",
                u.base_section(),
                first.unwrap_or_default()
            ),
            io: None,
        });
    }
    // Sections the document does not render are not compared unit by unit:
    // they are named, and the root causes that rest on them not judged.
    let missing = judge::missing_sections(&document, &prints.unit);
    let rendered: Vec<revision::UnitPrint> =
        prints.unit.iter().filter(|p| !missing.iter().any(|m| m == p.section())).cloned().collect();
    // Units are new since the recording in the sections it recorded: those
    // of a section ptxcheck does not model were never recorded.
    let covered = document::covered();
    let modelled: Vec<units::Unit> =
        now.iter().filter(|u| covered.iter().any(|c| c == u.base_section())).cloned().collect();
    let revision = revision::diff(&rendered, &modelled);
    let unsettled: Vec<(String, String)> = literal
        .blocks
        .iter()
        .filter_map(|b| b.unresolved.first().map(|why| (b.section.clone(), why.clone())))
        .collect();
    let judged = judge::judge(
        &document,
        crate::audit::errata::all(),
        (&prints.unit, &prints.rests_on),
        &now,
        &revision,
        (&findings, &unsettled),
    );
    // A fixed root cause's literal findings outside the blocks its edits
    // touch are settled by its prose: the text now says what C leaves open.
    let settled: Vec<(String, String)> = judged
        .iter()
        .filter(|j| j.status == judge::Status::Fixed)
        .flat_map(|j| j.settled.iter().map(move |f| (f.clone(), j.id.clone())))
        .collect();
    findings.retain(|f| !settled.iter().any(|(s, _)| *s == f.id));
    let partial_lists = wording::partial_lists(&document);
    Ok(TextAudit {
        document,
        findings,
        literal: literal.blocks,
        settled,
        spelling_skipped,
        partial_lists,
        stale,
        unchecked,
        compared,
        helpers_unlisted,
        coverage,
        revision,
        judged,
        missing,
        chapter,
        without_model,
    })
}
