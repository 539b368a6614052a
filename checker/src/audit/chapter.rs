//! Root causes for the findings that no table lists: on a chapter the
//! project keeps no root-cause table for (`checker/errata/root-causes.toml`
//! covers the seeds), the findings are grouped by the rules the table
//! follows, one defect that one edit fixes, with its sites.
//!
//! - Findings of one pass with the same summary are one defect: the group
//!   name of 23 headings, a helper that 2 blocks call and the text never
//!   defines.
//! - The class and the impact are those the table gives most often to the
//!   findings of the same pass (`text-heading`: wording); a pass the table
//!   has no finding of takes them from its kind.
//! - The proposed fix is the edits the passes propose for their findings
//!   ([`Finding::repair`]). It is applied to a copy of the text, and the
//!   passes that read the text are run again on the sections it touches:
//!   the fix is judged fixed when they no longer find its findings and
//!   find everything else as before. A root cause whose pass proposes no
//!   edit stays open, and says so.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::audit::claims::section_key;
use crate::audit::errata::{self, Class, Edit, Impact, RootCause, UNASSIGNED};
use crate::audit::finding::{Finding, FindingKind};
use crate::audit::text::document::{Document, Line, Section};
use crate::audit::text::judge::Status;
use crate::audit::text::units::units;

/// A root cause derived from the findings, with its fix judged.
#[derive(Clone, Debug, Serialize)]
pub struct ChapterCause {
    #[serde(flatten)]
    pub cause: RootCause,
    /// Fixed where its edits, applied to a copy, remove its findings and
    /// nothing else changes; open otherwise.
    pub status: Status,
    /// Why, in one line.
    pub how: String,
}

/// The pass a finding comes from: `text-heading`, `literal`.
fn pass(id: &str) -> &str {
    let words = if id.starts_with(errata::TEXT_PREFIX) { 2 } else { 1 };
    let end = id.match_indices('-').nth(words - 1).map_or(id.len(), |(i, _)| i);
    &id[..end]
}

/// The class and impact of the findings of passes whose kind says too
/// little: an example's comment false of its instruction is a wrong
/// example whose parts disagree, with no result wrong; a power of two
/// whose exponent mark is lost is wording an expert reads through.
/// A table of combinations that the Syntax or an example contradicts is a
/// wrong table or example whose parts disagree.
const PASS_RULES: [(&str, Class, Impact); 3] = [
    ("text-caption", Class::WrongExample, Impact::PartsDisagree),
    ("text-exponent", Class::Wording, Impact::Wording),
    ("text-combination", Class::WrongExample, Impact::PartsDisagree),
];

/// The class and impact of a pass's findings: those the table gives them
/// most often (the first written, on a tie), else the pass's own rule,
/// else by the kind.
fn rule(pass_id: &str, kind: FindingKind) -> (Class, Impact) {
    let mut counts: Vec<((Class, Impact), usize)> = Vec::new();
    for rc in errata::all() {
        for _ in rc.findings.iter().filter(|f| pass(f) == pass_id) {
            match counts.iter_mut().find(|(k, _)| *k == (rc.class, rc.impact)) {
                Some((_, n)) => *n += 1,
                None => counts.push(((rc.class, rc.impact), 1)),
            }
        }
    }
    // The first of the most frequent: `max_by_key` keeps the last.
    let most = counts.iter().map(|(_, n)| *n).max().unwrap_or(0);
    if let Some((rule, _)) = counts.into_iter().find(|(_, n)| *n == most) {
        return rule;
    }
    if let Some((_, class, impact)) = PASS_RULES.iter().find(|(p, _, _)| *p == pass_id) {
        return (*class, *impact);
    }
    match kind {
        FindingKind::Spelling | FindingKind::Structure | FindingKind::Name | FindingKind::Grammar => {
            (Class::Wording, Impact::Wording)
        }
        FindingKind::MalformedCode | FindingKind::Undefined => (Class::InvalidPseudocode, Impact::UndefinedResult),
        FindingKind::LiteralReading => (Class::InvalidPseudocode, Impact::WrongResult),
        FindingKind::ExampleSyntax => (Class::WrongExample, Impact::ExampleDoesNotAssemble),
        FindingKind::VendorSyntax => (Class::VendorContradictsSpec, Impact::PartsDisagree),
        FindingKind::UndefinedHelper | FindingKind::Ambiguity => (Class::UnstatedCase, Impact::ResultOpen),
        FindingKind::ProseVsPseudocode | FindingKind::Conflict | FindingKind::Overgeneral => {
            (Class::ProseContradictsPseudocode, Impact::PartsDisagree)
        }
        FindingKind::ClaimRefuted => (Class::ProseContradictsPseudocode, Impact::WrongResult),
    }
}

/// The sections' longest common prefix of whole numbers: `9.7.3` for
/// 9.7.3.1 and 9.7.3.12.
fn common_section(sections: &BTreeSet<&str>) -> String {
    let mut parts: Option<Vec<&str>> = None;
    for s in sections {
        let these: Vec<&str> = s.split('.').collect();
        parts = Some(match parts {
            None => these,
            Some(p) => p.iter().zip(&these).take_while(|(a, b)| a == b).map(|(a, _)| *a).collect(),
        });
    }
    parts.unwrap_or_default().join(".")
}

/// The id of a group: its first finding's id without `text-` and its
/// section, then the sections' common prefix (`heading-group-9.7.3`).
fn group_id(first: &Finding, sections: &BTreeSet<&str>) -> String {
    let bare = first.id.strip_prefix(errata::TEXT_PREFIX).unwrap_or(&first.id);
    let rest: Vec<&str> = bare.split(&format!("-{}", first.section)).collect();
    let rest = rest.concat();
    let prefix = common_section(sections);
    if prefix.is_empty() {
        rest
    } else {
        format!("{rest}-{prefix}")
    }
}

/// The id of the unit that holds line `line` of the section: the last one
/// that starts at or before it.
fn unit_at(doc: &Document, section: &str, line: usize) -> Option<String> {
    let all = units(&Document { sections: doc.sections.iter().filter(|s| s.number == section).cloned().collect() });
    all.into_iter().filter(|u| u.line <= line).max_by_key(|u| u.line).map(|u| u.id)
}

/// Findings grouped as one defect: (their pass, kind and summary), and
/// their indices.
type Group = ((String, FindingKind, String), Vec<usize>);

/// The pass whose findings are statements the pseudocode parser could not
/// read.
const PARSE_PASS: &str = "text-parse";

/// The pass whose findings are values the prose gives a placeholder that
/// the Syntax's sets lack; its fix, a value added to a set, also makes the
/// examples that write the value fit (red.async's `.sys`).
const VALUES_PASS: &str = "text-values";

/// The pass whose findings are examples that fit no Syntax line.
const FORM_PASS: &str = "text-form";

/// The pass whose findings are operands no sentence types.
const TYPING_PASS: &str = "text-typing";

/// Whether a finding is a name misspelled in prose (`txCount` for the
/// Syntax's `tx_count`): the sentence that writes it types the operand by
/// the other name, so the operand's typing finding is the same defect.
fn misspelt_in_prose(id: &str) -> bool {
    id.starts_with("text-names-") && id.contains("-prose-")
}

/// A group of findings that another pass makes of a statement the parser
/// could not read joins that statement's group: the other pass read the
/// statement by a fallback (line by line, a condition unread), so they are
/// one defect. Which findings those are is shown, not guessed: the parse
/// group's edits are applied to a copy, and a group that proposes no edit
/// of its own, of the same section, whose every finding the copy no longer
/// gives, joins. The judge then holds the joined group to its edits. So
/// does a group of examples that fit no Syntax line which a value added to
/// a set makes fit: the example and the prose name the value the set lacks;
/// and an operand no sentence types, where the sentence that types it
/// writes its name misspelt (`txCount` for `tx_count`).
fn join_unparsed(
    doc: &Document,
    findings: &[Finding],
    groups: &mut Vec<Group>,
    passes: &dyn Fn(&Document) -> Vec<Finding>,
) {
    let mut joins: Vec<(usize, usize)> = Vec::new();
    let is_target = |g: &Group| {
        let p = &g.0 .0;
        p == PARSE_PASS || p == VALUES_PASS || g.1.iter().all(|i| misspelt_in_prose(&findings[*i].id))
    };
    for (t, group) in groups.iter().enumerate().filter(|(_, g)| is_target(g)) {
        let ((target, _, _), sites) = group;
        let sites: Vec<&Finding> = sites.iter().map(|i| &findings[*i]).collect();
        if sites.iter().all(|f| f.repairs.is_empty()) {
            continue;
        }
        let before = touched(doc, &sites);
        let mut after = before.clone();
        if apply(&mut after, &sites).is_err() {
            continue;
        }
        let ids = |d: &Document| -> BTreeSet<String> { passes(d).into_iter().map(|f| f.id).collect() };
        let (was, now) = (ids(&before), ids(&after));
        let sections: BTreeSet<&str> = sites.iter().map(|f| f.section.as_str()).collect();
        let spans: Vec<(&str, (usize, usize))> = sites
            .iter()
            .flat_map(|f| f.repairs.iter().map(|r| (f.section.as_str(), statement_span(doc, &f.section, r.line))))
            .collect();
        let rests = |f: &Finding| {
            let within = |(s, (a, b)): &(&str, (usize, usize))| {
                *s == f.section && lines_named(f).iter().any(|l| a <= l && l <= b)
            };
            spans.iter().any(within)
        };
        let follows = |f: &Finding| match target.as_str() {
            VALUES_PASS => f.repairs.is_empty() && pass(&f.id) == FORM_PASS,
            PARSE_PASS => f.repairs.is_empty() && rests(f),
            // A typing finding proposes a sentence of its own; the name
            // written right is the one edit that settles both.
            _ => pass(&f.id) == TYPING_PASS,
        };
        let gone = |f: &Finding| {
            sections.contains(f.section.as_str()) && was.contains(&f.id) && !now.contains(&f.id) && follows(f)
        };
        for (g, other) in groups.iter().enumerate() {
            let others = &other.1;
            if !is_target(other) && !joins.iter().any(|(j, _)| *j == g) && others.iter().all(|i| gone(&findings[*i])) {
                joins.push((g, t));
            }
        }
    }
    // The targets are parse groups, which never join: their indices hold
    // until the joined groups are taken out.
    for (g, t) in &joins {
        let sites = groups[*g].1.clone();
        groups[*t].1.extend(sites);
    }
    let mut index = 0;
    groups.retain(|_| {
        index += 1;
        !joins.iter().any(|(g, _)| *g == index - 1)
    });
}

/// The lines of the statement that begins on line `line` of a section's
/// Semantics or code: the line, and where it opens more braces than it
/// closes, every line up to the one that closes them.
fn statement_span(doc: &Document, section: &str, line: usize) -> (usize, usize) {
    let lines =
        doc.sections.iter().filter(|s| s.number == section).flat_map(|s| s.blocks.iter().flat_map(|b| &b.lines));
    let mut depth = 0i64;
    let mut end = line;
    for l in lines.skip_while(|l| l.number != line) {
        depth += l.text.matches('{').count() as i64 - l.text.matches('}').count() as i64;
        end = l.number;
        if depth <= 0 {
            break;
        }
    }
    (line, end)
}

/// The lines of its file a finding's detail names (`max.md:88`).
fn lines_named(f: &Finding) -> Vec<usize> {
    let mut out = Vec::new();
    for d in &f.detail {
        for (at, ext) in d.match_indices(".md:").chain(d.match_indices(".txt:")) {
            let digits: String = d[at + ext.len()..].chars().take_while(char::is_ascii_digit).collect();
            out.extend(digits.parse::<usize>());
        }
    }
    out
}

/// Root causes for every finding whose root cause is
/// [`UNASSIGNED`](errata::UNASSIGNED), each fix judged with `passes`, the
/// passes that read the text. The findings take their root cause's id and
/// severity.
pub fn derive(
    doc: &Document,
    findings: &mut [Finding],
    passes: &dyn Fn(&Document) -> Vec<Finding>,
) -> Vec<ChapterCause> {
    // Groups in the order of their first finding.
    let mut groups: Vec<Group> = Vec::new();
    for (i, f) in findings.iter().enumerate().filter(|(_, f)| f.root_cause == UNASSIGNED) {
        let key = (pass(&f.id).to_string(), f.kind, f.summary.clone());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, sites)) => sites.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    join_unparsed(doc, findings, &mut groups, passes);
    // An operand's typing joined to its name misspelt in prose is settled by
    // the name's edit alone: the sentence it would add says what one
    // already does.
    for (_, sites) in &groups {
        if sites.iter().any(|i| misspelt_in_prose(&findings[*i].id)) {
            for i in sites {
                if pass(&findings[*i].id) == TYPING_PASS {
                    findings[*i].repairs.clear();
                }
            }
        }
    }
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for ((pass_id, kind, summary), sites) in groups {
        let sections: BTreeSet<&str> = sites.iter().map(|i| findings[*i].section.as_str()).collect();
        let mut id = group_id(&findings[sites[0]], &sections);
        let mut sections: Vec<&str> = sections.into_iter().collect();
        sections.sort_by_key(|s| section_key(s));
        let n = taken.entry(id.clone()).or_default();
        *n += 1;
        if *n > 1 {
            id = format!("{id}-{n}");
        }
        let (class, mut impact) = rule(&pass_id, kind);
        // A group that others joined keeps the gravest impact among them
        // (`Severity` orders the gravest first).
        for i in &sites {
            let (_, joined) = rule(pass(&findings[*i].id), findings[*i].kind);
            if errata::severity(joined) < errata::severity(impact) {
                impact = joined;
            }
        }
        let edits: Vec<Edit> = sites
            .iter()
            .flat_map(|i| {
                let f = &findings[*i];
                f.repairs.iter().filter_map(|r| {
                    Some(Edit { unit: unit_at(doc, &f.section, r.line)?, old: r.old.clone(), new: r.new.clone() })
                })
            })
            .collect();
        let cause = RootCause {
            id,
            sections: sections.iter().map(|s| s.to_string()).collect(),
            class,
            impact,
            quote: findings[sites[0]].fragment.clone(),
            problem: summary,
            edits,
            also: None,
            reading: None,
            findings: sites.iter().map(|i| findings[*i].id.clone()).collect(),
            settles: Vec::new(),
        };
        let site_findings: Vec<&Finding> = sites.iter().map(|i| &findings[*i]).collect();
        let (status, how) = judge(doc, &site_findings, passes);
        for i in &sites {
            findings[*i].root_cause = cause.id.clone();
            findings[*i].severity = cause.severity();
        }
        out.push(ChapterCause { cause, status, how });
    }
    out
}

impl ChapterCause {
    /// The proposed fix in words: the edits that make one change in
    /// several places said once, with the places (`In the heading of each of
    /// 9.7.3.1 … 9.7.3.22 (22), replace ...`).
    pub fn fix(&self) -> String {
        let mut said: Vec<(&str, &str, Vec<&Edit>)> = Vec::new();
        for e in &self.cause.edits {
            match said.iter_mut().find(|(old, new, _)| *old == e.old && *new == e.new) {
                Some((_, _, edits)) => edits.push(e),
                None => said.push((&e.old, &e.new, vec![e])),
            }
        }
        let parts: Vec<String> = said
            .into_iter()
            .map(|(_, _, edits)| match edits.as_slice() {
                [one] => one.prose(),
                [first, ..] => {
                    let mut places: Vec<String> = edits.iter().map(|e| e.section().to_string()).collect();
                    places.dedup();
                    let what = first.prose();
                    let (head, rest) = what.split_once(", ").unwrap_or(("", what.as_str()));
                    // One block, several of its lines: the block once.
                    if places.len() == 1 && edits.iter().all(|e| e.place() == first.place()) {
                        return format!("{head}, in {} places, {rest}", edits.len());
                    }
                    let kind =
                        first.place().trim_start_matches(first.section()).trim_start_matches("'s ").trim().to_string();
                    format!("In the {kind} of each of {}, {rest}", sections_in_short(&places))
                }
                [] => String::new(),
            })
            .collect();
        parts.join(" ")
    }
}

/// Sections as a short list: all of up to three, else the first and the
/// last with the count.
pub fn sections_in_short(sections: &[String]) -> String {
    match sections {
        [first, .., last] if sections.len() > 3 => format!("{first} … {last} ({})", sections.len()),
        _ => sections.join(", "),
    }
}

/// The sections the findings are in, with every section above them that
/// the document has: what their passes read.
fn touched(doc: &Document, sites: &[&Finding]) -> Document {
    let wanted: BTreeSet<&str> = sites.iter().map(|f| f.section.as_str()).collect();
    let keep = |s: &Section| wanted.iter().any(|w| *w == s.number || w.starts_with(&format!("{}.", s.number)));
    Document { sections: doc.sections.iter().filter(|s| keep(s)).cloned().collect() }
}

/// Apply each finding's repair to the copy, in place; false where one does
/// not apply.
fn apply(copy: &mut Document, sites: &[&Finding]) -> Result<(), String> {
    for (f, r) in sites.iter().flat_map(|f| f.repairs.iter().map(move |r| (f, r))) {
        let mut done = false;
        for s in copy.sections.iter_mut().filter(|s| s.number == f.section) {
            if s.line == r.line && s.title.contains(&r.old) {
                s.title = s.title.replacen(&r.old, &r.new, 1);
                done = true;
            }
            for b in &mut s.blocks {
                if b.line == r.line && b.label.contains(&r.old) {
                    b.label = b.label.replacen(&r.old, &r.new, 1);
                    done = true;
                }
            }
            let lines = s.intro.iter_mut().chain(s.blocks.iter_mut().flat_map(|b| b.lines.iter_mut()));
            for l in lines.filter(|l| l.number == r.line && l.text.contains(&r.old)) {
                l.text = l.text.replacen(&r.old, &r.new, 1);
                done = true;
            }
        }
        if !done {
            return Err(format!("its edit of {} line {} does not apply", f.section, r.line));
        }
    }
    // An edit that adds a line (`new` holds a line break) gives the copy
    // that line, under the edited line's number.
    for s in &mut copy.sections {
        split_lines(&mut s.intro);
        for b in &mut s.blocks {
            split_lines(&mut b.lines);
        }
    }
    Ok(())
}

/// Each line that holds line breaks as that many lines, of its number.
fn split_lines(lines: &mut Vec<Line>) {
    if lines.iter().any(|l| l.text.contains('\n')) {
        *lines = lines
            .drain(..)
            .flat_map(|l| {
                let (number, code) = (l.number, l.code);
                l.text.split('\n').map(|t| Line { number, text: t.to_string(), code }).collect::<Vec<_>>()
            })
            .collect();
    }
}

/// Judge a group's edits on a copy of the sections they touch.
fn judge(doc: &Document, sites: &[&Finding], passes: &dyn Fn(&Document) -> Vec<Finding>) -> (Status, String) {
    let with_edit = sites.iter().filter(|f| !f.repairs.is_empty()).count();
    if with_edit == 0 {
        return (Status::Open, "no edit proposed: its pass names the defect, not the words that fix it".into());
    }
    let before = touched(doc, sites);
    let mut after = before.clone();
    if let Err(why) = apply(&mut after, sites) {
        return (Status::Open, why);
    }
    let ids = |d: &Document| -> BTreeSet<String> { passes(d).into_iter().map(|f| f.id).collect() };
    let (was, now) = (ids(&before), ids(&after));
    let own: BTreeSet<String> = sites.iter().map(|f| f.id.clone()).collect();
    let still: Vec<&String> = own.intersection(&now).collect();
    let expected: BTreeSet<String> = was.difference(&own).cloned().collect();
    let new: Vec<&String> = now.difference(&expected).filter(|id| !own.contains(*id)).collect();
    let gone: Vec<&String> = expected.difference(&now).collect();
    let partial = if with_edit < sites.len() {
        format!(" ({with_edit} of its {} findings have an edit)", sites.len())
    } else {
        String::new()
    };
    match (still.is_empty(), new.is_empty() && gone.is_empty()) {
        (true, true) => (
            Status::Fixed,
            match sites.len() {
                1 => "its edit, applied to a copy, removes its finding and changes no other".to_string(),
                n => format!("its edits, applied to a copy, remove its {n} findings and change no other"),
            },
        ),
        (false, _) => (Status::Open, format!("with its edits the passes still find `{}`{partial}", still[0])),
        (true, false) => {
            let what = new.first().map_or_else(|| format!("no longer find `{}`", gone[0]), |n| format!("find `{n}`"));
            (Status::Open, format!("its edits remove its findings, but the passes then {what}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;
    use crate::audit::text::wording;

    /// A group and two instructions of it, each heading naming the group
    /// as `group`.
    fn chapter(group: &str) -> Document {
        let text = format!(
            "### 9.7.3. Floating-Point Instructions\n\nThe instructions.\n\n\
             #### 9.7.3.1. {group}: `add`\n\nDescription\n\nThe sum.\n\n\
             #### 9.7.3.2. {group}: `sub`\n\nDescription\n\nThe difference.\n\n"
        );
        Document { sections: parse_any("made.md", text.as_bytes()).unwrap() }
    }

    fn structure(doc: &Document) -> Vec<Finding> {
        let mut found = wording::structure(doc);
        errata::assign(&mut found);
        found
    }

    #[test]
    fn one_heading_defect_at_two_sites_is_one_root_cause_fixed_on_a_copy() {
        let doc = chapter("Floating Point Arithmetic Instructions");
        let mut found = structure(&doc);
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["text-heading-9.7.3.1-group", "text-heading-9.7.3.2-group"]);
        let causes = derive(&doc, &mut found, &wording::structure);
        assert_eq!(causes.len(), 1, "{causes:?}");
        let c = &causes[0];
        assert_eq!(c.cause.id, "heading-group-9.7.3");
        assert_eq!(c.cause.sections, ["9.7.3.1", "9.7.3.2"]);
        assert_eq!((c.cause.class, c.cause.impact), (Class::Wording, Impact::Wording));
        assert_eq!(c.cause.edits.len(), 2);
        assert_eq!(
            (c.cause.edits[0].old.as_str(), c.cause.edits[0].new.as_str()),
            ("Floating Point Arithmetic Instructions", "Floating-Point Instructions")
        );
        assert_eq!(c.status, Status::Fixed, "{}", c.how);
        assert!(found.iter().all(|f| f.root_cause == "heading-group-9.7.3"));
    }

    #[test]
    fn an_edit_that_leaves_a_finding_is_judged_open() {
        let doc = chapter("Floating Point Arithmetic Instructions");
        let mut found = structure(&doc);
        // A wrong fix: the group's name replaced by another wrong one.
        for f in &mut found {
            for r in &mut f.repairs {
                r.new = "Floating Instructions".into();
            }
        }
        let causes = derive(&doc, &mut found, &wording::structure);
        assert_eq!(causes[0].status, Status::Open);
        assert!(causes[0].how.contains("still find"), "{}", causes[0].how);
        // Without edits, it is open and says why.
        for f in &mut found {
            f.repairs.clear();
            f.root_cause = UNASSIGNED.into();
        }
        let causes = derive(&doc, &mut found, &wording::structure);
        assert_eq!(causes[0].status, Status::Open);
        assert!(causes[0].how.starts_with("no edit proposed"), "{}", causes[0].how);
    }

    #[test]
    fn a_finding_read_from_a_statement_that_does_not_parse_joins_its_root_cause() {
        let text = "#### 9.7.3.12. Floating-Point Instructions: `max`\n\nSyntax\n\n```\n\
                    max{.xorsign.abs}.f32 d, a, b;\n```\n\nSemantics\n\n```\n\
                    if (.xorsign && .abs) {\n    s = getSignBit(a) ^ getSignBit(b);\n}\nd = a;\n\
                    if (.xorsign && .abs !isNaN(d)) {\n    setSignBit(d, s);\n}\n```\n";
        let doc = Document { sections: parse_any("max.md", text.as_bytes()).unwrap() };
        let passes = |d: &Document| {
            let mut found = crate::audit::text::semantics::check(d);
            found.extend(crate::audit::text::declarations::check(d));
            errata::assign(&mut found);
            found
        };
        let mut found = passes(&doc);
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["text-parse-9.7.3.12-no-operator", "text-scope-9.7.3.12"]);
        let causes = derive(&doc, &mut found, &passes);
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!(causes[0].cause.findings, ids_of(&found));
        assert_eq!(causes[0].status, Status::Fixed, "{}", causes[0].how);
        // Where the `&&` is there, the use runs under its assignment's
        // guard: nothing to find, so nothing to join.
        let fixed =
            Document { sections: parse_any("max.md", text.replace(" !isNaN", " && !isNaN").as_bytes()).unwrap() };
        assert!(passes(&fixed).is_empty());
    }

    #[test]
    fn an_operand_untyped_for_its_name_misspelt_in_prose_joins_the_name() {
        let text = "#### 9.7.3.12. Floating-Point Instructions: `wait`\n\n`wait`\n\nWait.\n\nSyntax\n\n```\n\
                    wait.b64 state, [addr], tx_count;\n```\n\nDescription\n\nOperand `state` is a 64-bit value. \
                    The 32-bit unsigned integer operand `txCount` specifies the count.\n";
        let doc = Document { sections: parse_any("wait.md", text.as_bytes()).unwrap() };
        let passes = |d: &Document| {
            let mut found = crate::audit::text::spellings::in_prose(d);
            found.extend(crate::audit::text::typing::check(d));
            errata::assign(&mut found);
            found
        };
        let mut found = passes(&doc);
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["text-names-9.7.3.12-prose-txcount", "text-typing-9.7.3.12"]);
        let causes = derive(&doc, &mut found, &passes);
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!(causes[0].cause.findings, ids_of(&found));
        // The name's edit alone: the typing's sentence is not added.
        assert_eq!(causes[0].cause.edits.len(), 1, "{:?}", causes[0].cause.edits);
        assert_eq!(causes[0].status, Status::Fixed, "{}", causes[0].how);
    }

    fn ids_of(found: &[Finding]) -> Vec<String> {
        found.iter().map(|f| f.id.clone()).collect()
    }

    #[test]
    fn a_pass_takes_the_tables_class_for_its_findings_or_its_kinds() {
        assert_eq!(rule("text-heading", FindingKind::Structure), (Class::Wording, Impact::Wording));
        assert_eq!(rule("text-nothing", FindingKind::LiteralReading), (Class::InvalidPseudocode, Impact::WrongResult));
        assert_eq!(pass("text-heading-9.7.3.1-group"), "text-heading");
        assert_eq!(pass("literal-div-quotient-overflow"), "literal");
    }
}
