//! The errata judged against a document: for each root cause, whether the
//! text the user has still shows it.
//!
//! A root cause rests on units of the text (`revision::RestsOn`, recorded
//! with the fingerprints): the quote it is in, the units its proposed edits
//! touch, and the units its findings, claims and passages quote. Given a
//! document, it is:
//!
//! - `open` while those units are unchanged and its edit is not there;
//! - `fixed` where its edit is there (the text it adds is in the block it
//!   edits, and a replaced text is gone), and the passes that read the
//!   document no longer find any of its findings; or where its units
//!   changed otherwise, every finding of it comes from those passes, and
//!   none is found any more;
//! - `changed` where its units changed in some other way: what rests on
//!   them must be checked again;
//! - `missing` where the document does not render a section it rests on:
//!   never judged fixed.
//!
//! A unit changed by another root cause's proposed replacement, and by
//! nothing else, does not count as changed: two defects in one line are
//! two root causes, and fixing one leaves the other open.
//!
//! The edits themselves are applied here too ([`apply`]), to a copy of the
//! text, so that each proposed fix can be shown to remove its defect.

use serde::Serialize;

use super::coverage::{units_quoting, Coverage};
use super::document::{parse, Document};
use super::revision::{self, Diff, RestsOn, UnitPrint};
use super::units::{collapse, sha256, units, Unit};
use crate::audit::errata::{Edit, EditKind, RootCause, TEXT_PREFIX};
use crate::audit::finding::Finding;
use crate::audit::literal::check as literal;

/// How a root cause stands in a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Open,
    Fixed,
    Changed,
    Missing,
}

impl Status {
    pub const ALL: [Status; 4] = [Status::Open, Status::Fixed, Status::Changed, Status::Missing];

    pub fn label(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Fixed => "fixed",
            Status::Changed => "changed",
            Status::Missing => "not judged",
        }
    }
}

/// A unit a root cause rests on that is not in the document as recorded.
#[derive(Clone, Debug, Serialize)]
pub struct UnitChange {
    /// The recorded id.
    pub id: String,
    /// The recorded checks that rest on it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rests: Vec<String>,
    /// The unit in its place now, if any (none: removed).
    pub now: Option<Unit>,
}

/// One root cause judged against a document.
#[derive(Clone, Debug, Serialize)]
pub struct Judgement {
    pub id: String,
    pub status: Status,
    /// Why, in one line.
    pub how: String,
    /// Whether the verdict rests in part on the audit's own checks (its
    /// passages and claims, which hold the model's reading of the text),
    /// which `ptxcheck report` runs again, rather than only on passes that
    /// read the document.
    pub transcription: bool,
    /// Its findings of the literal reading that its fix settles in prose:
    /// the block they are in is not one its edits touch, and the text its
    /// edits add states what C leaves undefined there.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub settled: Vec<String>,
    /// The units it rests on, as recorded.
    pub rests_on: Vec<String>,
    /// Those of them that changed or went.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<UnitChange>,
}

/// The prefixes of the checks recorded against a unit: those that rest on
/// a copy of the text or a quote of it, which a changed unit makes stale.
/// The passes that read the document run again on any text and are not
/// recorded.
const RECORDED_CHECKS: [&str; 6] = ["claim:", "passage:", "literal:", "proof:", "syntax:", "example-syntax:"];

/// The recorded units of a document's coverage.
pub fn record_units(cov: &Coverage) -> Vec<UnitPrint> {
    cov.units
        .iter()
        .map(|a| UnitPrint {
            id: a.unit.id.clone(),
            sha256: a.unit.sha256[..revision::PRINT_DIGITS].to_string(),
            rests: a
                .checked_by
                .iter()
                .filter(|c| RECORDED_CHECKS.iter().any(|p| c.starts_with(p)))
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
        })
        .collect()
}

/// The units each root cause rests on in a document: its quote, the units
/// its edits name and touch, and the units its findings, claims and
/// passages quote (from the coverage's `checked_by`).
pub fn rests_on(root_causes: &[RootCause], cov: &Coverage) -> Vec<RestsOn> {
    let all: Vec<Unit> = cov.units.iter().map(|a| a.unit.clone()).collect();
    root_causes
        .iter()
        .map(|rc| {
            let mut at: Vec<usize> = units_quoting(&all, &rc.sections, &rc.quote);
            for e in &rc.edits {
                at.extend(all.iter().position(|u| u.id == e.unit));
                let block = e.unit.split('/').nth(1);
                let touched = units_quoting(&all, &[e.section().to_string()], &e.old).into_iter();
                at.extend(touched.filter(|&k| all[k].id.split('/').nth(1) == block));
            }
            let by: Vec<String> = rc
                .findings
                .iter()
                .flat_map(|f| [format!("finding:{f}"), format!("passage:{f}"), format!("claim:{f}")])
                .collect();
            for (k, a) in cov.units.iter().enumerate() {
                if a.checked_by.iter().any(|c| by.contains(c)) {
                    at.push(k);
                }
            }
            at.sort_unstable();
            at.dedup();
            RestsOn { root_cause: rc.id.clone(), units: at.into_iter().map(|k| all[k].id.clone()).collect() }
        })
        .collect()
}

/// The units (ids) of a document that a quote is in, in `sections` (a group
/// includes its subsections): what a finding rests on.
pub fn units_of(cov: &Coverage, sections: &[String], fragment: &str) -> Vec<String> {
    let all: Vec<Unit> = cov.units.iter().map(|a| a.unit.clone()).collect();
    units_quoting(&all, sections, fragment).into_iter().map(|k| all[k].id.clone()).collect()
}

/// The sections the recorded text has that a document does not render:
/// a document that lacks one cannot be judged whole.
pub fn missing_sections(doc: &Document, recorded: &[UnitPrint]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in recorded {
        let s = p.section();
        if doc.section(s).is_none() && !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    }
    out
}

/// A text as a presence check compares it: list marks at the start of a
/// line and comment markers dropped, white space collapsed; Markdown's
/// marks kept, since an edit may be only about them.
fn flat(text: &str) -> String {
    // A line of braces alone is no unit.
    let lines: Vec<&str> = text
        .lines()
        .map(|l| {
            let t = l.trim();
            ["* ", "- ", "+ "].iter().find_map(|m| t.strip_prefix(m)).unwrap_or(t)
        })
        .filter(|l| !matches!(*l, "{" | "}" | "};"))
        .collect();
    collapse(&lines.join("\n").replace("//", " ").replace("/*", " ").replace("*/", " "))
}

/// The text of the block an edit is in, every rendering, as fragments are
/// matched.
fn block_text(units: &[Unit], edit: &Edit) -> String {
    let block = edit.unit.split('/').nth(1).unwrap_or("intro");
    let of_block = units.iter().filter(|u| u.base_section() == edit.section() && u.id.split('/').nth(1) == Some(block));
    of_block.map(|u| flat(&u.text)).collect::<Vec<_>>().join(" ")
}

/// Whether the document holds the edit: the text it adds is in its block,
/// and a text it replaces is gone from it.
pub fn present(units: &[Unit], edit: &Edit) -> bool {
    let text = block_text(units, edit);
    let added = flat(edit.added());
    let holds = !added.is_empty() && text.contains(&added);
    match edit.kind() {
        EditKind::Replace => {
            let old = flat(&edit.old);
            holds && (added.contains(&old) || !text.contains(&old))
        }
        _ => holds,
    }
}

/// Judge every root cause against a document: its units now, how they
/// differ from the recorded ones, and the findings of the passes that read
/// it. `unsettled` names the sections whose Semantics block the literal
/// reading could not read or settle, each with why: a finding of such a
/// block is not there to be found, and its absence proves nothing.
pub fn judge(
    doc: &Document,
    root_causes: &[RootCause],
    recorded: (&[UnitPrint], &[RestsOn]),
    now: &[Unit],
    diff: &Diff,
    (findings, unsettled): (&[Finding], &[(String, String)]),
) -> Vec<Judgement> {
    let (prints, rests) = recorded;
    root_causes
        .iter()
        .map(|rc| {
            let rests_on: Vec<String> =
                rests.iter().find(|r| r.root_cause == rc.id).map(|r| r.units.clone()).unwrap_or_default();
            let changed: Vec<UnitChange> = rests_on
                .iter()
                .filter(|id| !diff.unchanged(id) && !another_fix(root_causes, rc, (diff, now), id))
                .map(|id| UnitChange {
                    id: id.clone(),
                    rests: prints
                        .iter()
                        .find(|p| &p.id == id)
                        .map(|p| p.checks().map(String::from).collect())
                        .unwrap_or_default(),
                    now: diff.changed.iter().find(|(o, _)| &o.id == id).map(|(_, u)| u.clone()),
                })
                .collect();
            let transcription = rc.findings.iter().any(|f| site(rc, f) == Site::Audit);
            let (status, how) = match unsettled_site(rc, unsettled) {
                Some(why) => (Status::Changed, why),
                None => verdict(doc, rc, now, (&changed, rests_on.len()), findings, transcription),
            };
            let settled = match status {
                Status::Fixed => rc.findings.iter().filter(|f| site(rc, f) == Site::Settled).cloned().collect(),
                _ => Vec::new(),
            };
            Judgement { id: rc.id.clone(), status, how, transcription, settled, rests_on, changed }
        })
        .collect()
}

/// Which pass judges a root cause's finding against a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Site {
    /// A pass that reads the document: the text pass, or the literal
    /// reading of a block read from the text that the fix edits (or of any
    /// such block, for a root cause without a fix).
    Text,
    /// The literal reading of a block read from the text that the fix
    /// leaves alone: its edits state in prose what C leaves undefined
    /// there, so with the edit in the text the finding is settled; without
    /// it, it is judged as a `Text` site.
    Settled,
    /// The audit's own checks: its passages and claims.
    Audit,
}

fn site(rc: &RootCause, finding: &str) -> Site {
    if finding.starts_with(TEXT_PREFIX) {
        return Site::Text;
    }
    let Some(b) = literal::block_read_from_text(finding) else { return Site::Audit };
    let semantics = format!("{}/semantics/", b.section);
    if rc.edits.is_empty() || rc.edits.iter().any(|e| e.unit.starts_with(&semantics)) {
        Site::Text
    } else {
        Site::Settled
    }
}

/// Whether the recorded unit `id` changed only by another root cause's
/// proposed replacement: undoing one of that fix's edits gives its
/// recorded text back. Two defects in one line are two root causes; fixing
/// one leaves the other open, not changed.
fn another_fix(root_causes: &[RootCause], rc: &RootCause, (diff, units): (&Diff, &[Unit]), id: &str) -> bool {
    let others = || root_causes.iter().filter(|other| other.id != rc.id).flat_map(|other| &other.edits);
    let replaces = || others().filter(|e| matches!(e.kind(), EditKind::Replace));
    // A code line's comment is a unit of its own: an edit of code and
    // comment is undone on the code alone too.
    let code =
        |t: &str| collapse(&t.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n"));
    let now = diff.changed.iter().find(|(p, _)| p.id == id);
    if let Some((print, unit)) = now {
        let undone_here = replaces().filter(|e| e.unit == id).any(|e| {
            [(collapse(&e.old), collapse(&e.new)), (code(&e.old), code(&e.new))].iter().any(|(old, new)| {
                !new.is_empty() && unit.text.contains(new.as_str()) && {
                    let undone = collapse(&unit.text.replacen(new.as_str(), old, 1));
                    sha256(&undone).starts_with(&print.sha256)
                }
            })
        });
        if undone_here {
            return true;
        }
    }
    // A unit inside an edit over several lines, the one it starts at
    // included (whose text now is one line of the edit's new text, not
    // all of it): its recorded text is one of the lines the edit
    // replaces, the document holds the edit whole, and the unit's text
    // now, if it has one, is part of the edit's new text. A line's comment
    // is a unit of its own.
    let Some(print) = now.map(|(p, _)| p).or_else(|| diff.removed.iter().find(|p| p.id == id)) else { return false };
    let section = |unit: &str| unit.split('/').next().unwrap_or("").to_string();
    replaces().filter(|e| section(&e.unit) == section(id)).any(|e| {
        let was_a_line = e.old.lines().any(|line| {
            let comment = line.find("//").map(|at| collapse(&line[at..])).unwrap_or_default();
            [collapse(line), code(line), comment].iter().any(|l| !l.is_empty() && sha256(l).starts_with(&print.sha256))
        });
        let within = |text: &str| {
            let t = collapse(text);
            !t.is_empty() && (collapse(&e.new).contains(&t) || code(&e.new).contains(&t))
        };
        was_a_line && present(units, e) && now.is_none_or(|(_, u)| within(&u.text))
    })
}

/// Where one of `rc`'s findings comes from a block read from the text
/// that the literal reading could not read or settle: why its verdict
/// cannot be computed.
fn unsettled_site(rc: &RootCause, unsettled: &[(String, String)]) -> Option<String> {
    rc.findings.iter().find_map(|f| {
        let b = literal::block_read_from_text(f)?;
        let (section, why) = unsettled.iter().find(|(s, _)| s == b.section)?;
        Some(format!("the Semantics block of {section}, which {f} is about, is not settled as C ({why})"))
    })
}

fn verdict(
    doc: &Document,
    rc: &RootCause,
    now: &[Unit],
    (changed, rests_on_len): (&[UnitChange], usize),
    findings: &[Finding],
    transcription: bool,
) -> (Status, String) {
    let mut sections: Vec<&str> = rc.sections.iter().map(String::as_str).collect();
    sections.extend(rc.edits.iter().map(Edit::section));
    if let Some(s) = sections.iter().find(|s| doc.section(s).is_none()) {
        return (Status::Missing, format!("section {s} is not in the document"));
    }
    let edited = rc.edits.iter().all(|e| present(now, e));
    // Without its edit, a finding its prose would settle is read as any
    // other finding of the text.
    let text_sites: Vec<&String> = rc
        .findings
        .iter()
        .filter(|f| match site(rc, f) {
            Site::Text => true,
            Site::Settled => !edited,
            Site::Audit => false,
        })
        .collect();
    let still: Vec<&str> =
        text_sites.iter().filter(|f| findings.iter().any(|x| &x.id == **f)).map(|f| f.as_str()).collect();
    let reread = if text_sites.is_empty() {
        String::new()
    } else {
        format!("; the passes that read the text no longer find {}", list(&text_sites))
    };
    let settled = rc.findings.iter().filter(|f| site(rc, f) == Site::Settled).count();
    let mut transcribed = match (edited, settled) {
        (true, 1) => "; its prose settles 1 finding of the blocks read as C".to_string(),
        (true, n) if n > 1 => format!("; its prose settles {n} findings of the blocks read as C"),
        _ => String::new(),
    };
    if transcription {
        let n = rc.findings.iter().filter(|f| site(rc, f) == Site::Audit).count();
        let verb = if n == 1 { "comes" } else { "come" };
        transcribed.push_str(&format!(
            "; {n} of its findings {verb} from the audit's passages or claims, which `ptxcheck report` checks again"
        ));
    }
    if edited && still.is_empty() {
        return (Status::Fixed, format!("its edit is in the text{reread}{transcribed}"));
    }
    if changed.is_empty() && !edited {
        return (Status::Open, "its units are unchanged".into());
    }
    // Where every finding comes from a pass that reads the text, the pass
    // has judged the changed text: finding them all is the defect still
    // there.
    if !edited && !transcription && still.len() == text_sites.len() {
        let n = changed.len();
        return (Status::Open, format!("{n} of its units changed, but the passes still find each of its findings"));
    }
    if !edited && !transcription && still.is_empty() {
        return (Status::Fixed, format!("its units changed{reread}"));
    }
    let mut why = match changed.len() {
        0 => "its units are unchanged".to_string(),
        n => format!("{n} of its {} units changed", rests_on_len),
    };
    let checks: Vec<String> = changed.iter().flat_map(|c| c.rests.iter().cloned()).collect();
    if !checks.is_empty() {
        let mut checks = checks;
        checks.sort();
        checks.dedup();
        why.push_str(&format!(": re-check {}", checks.join(", ")));
    }
    if !still.is_empty() {
        why.push_str(&format!("; the passes still find {}", still.join(", ")));
    }
    (Status::Changed, why)
}

/// Ids as a short list: `a`, `a and b`, `a, b and 2 more`.
fn list(ids: &[&String]) -> String {
    match ids {
        [] => String::new(),
        [a] => format!("`{a}`"),
        [a, b] => format!("`{a}` and `{b}`"),
        [a, rest @ ..] => format!("`{a}` and {} more", rest.len()),
    }
}

/// Apply an edit to the files of a document, given as (name, text), in
/// place: in every rendering of its section, the first match of `old` from
/// the line of its unit on (white space matching any white space) becomes
/// `new`. Returns how many renderings it edited; an edit whose unit or text
/// a rendering does not have is an error naming it.
pub fn apply(files: &mut [(String, String)], edit: &Edit) -> Result<usize, String> {
    let mut done = 0;
    for (name, text) in files.iter_mut() {
        let sections = parse(name, text.as_bytes()).map_err(|e| e.to_string())?;
        if !sections.iter().any(|s| s.number == edit.section()) {
            continue;
        }
        let doc = Document { sections };
        let Some(unit) = units(&doc).into_iter().find(|u| u.id == edit.unit) else {
            return Err(format!("{name}: no unit {} for the edit", edit.unit));
        };
        let from = offset_of_line(text, unit.line);
        let Some((a, b)) = find_loose(&text[from..], &edit.old) else {
            return Err(format!("{name}:{}: `{}` is not at or after unit {}", unit.line, edit.old, edit.unit));
        };
        text.replace_range(from + a..from + b, &edit.new);
        done += 1;
    }
    match done {
        0 => Err(format!("no rendering of section {} for the edit of {}", edit.section(), edit.unit)),
        n => Ok(n),
    }
}

/// The byte offset where 1-based line `line` starts.
fn offset_of_line(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1)
}

/// The first place `pattern` occurs in `text` with each run of white space
/// in it matching any run of white space: its byte range.
pub fn find_loose(text: &str, pattern: &str) -> Option<(usize, usize)> {
    let words: Vec<&str> = pattern.split_whitespace().collect();
    let first = *words.first()?;
    let mut from = 0;
    while let Some(at) = text[from..].find(first) {
        let start = from + at;
        let mut end = start + first.len();
        let mut ok = true;
        for w in &words[1..] {
            let rest = &text[end..];
            let gap = rest.len() - rest.trim_start().len();
            if gap == 0 || !rest[gap..].starts_with(w) {
                ok = false;
                break;
            }
            end += gap + w.len();
        }
        if ok {
            return Some((start, end));
        }
        from = start + first.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loose_matching_spans_white_space_and_lines() {
        assert_eq!(find_loose("x  a\n\n  b c", "a b"), Some((3, 9)));
        assert_eq!(find_loose("ab c", "a b"), None);
        assert_eq!(find_loose("a b", ""), None);
    }

    #[test]
    fn an_edit_changes_every_rendering_and_names_what_it_misses() {
        let doc = crate::audit::text::revision::tests::section("9.7.8.4", "d = ~a;", "A note.");
        let mut files = vec![("a.md".to_string(), doc.to_string()), ("b.md".to_string(), doc.to_string())];
        let edit = Edit { unit: "9.7.8.4/semantics/statement-1".into(), old: "d = ~a;".into(), new: "d = !a;".into() };
        assert_eq!(apply(&mut files, &edit), Ok(2));
        assert!(files.iter().all(|(_, t)| t.contains("d = !a;") && !t.contains('~')));
        let units = units(&Document { sections: parse("a.md", files[0].1.as_bytes()).unwrap() });
        assert!(present(&units, &edit));
        let e = apply(&mut files, &edit).unwrap_err();
        assert!(e.contains(": `d = ~a;` is not at or after unit 9.7.8.4/semantics/statement-1"), "{e}");
        let elsewhere = Edit { unit: "9.7.1.9/notes/sentence-1".into(), ..edit };
        assert_eq!(
            apply(&mut files, &elsewhere).unwrap_err(),
            "no rendering of section 9.7.1.9 for the edit of 9.7.1.9/notes/sentence-1"
        );
    }
}
