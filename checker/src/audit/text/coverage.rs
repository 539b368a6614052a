//! Document coverage: every unit of the document (`units`) accounted for.
//! A unit is checked when a check rests on it, named by id:
//!
//! - a claim, a passage or a finding whose fragment it holds (a fragment
//!   that runs over several units marks each of them);
//! - a transcribed Syntax, Semantics or Examples block whose fingerprint the
//!   document's block still has: its code is read by the Syntax matcher,
//!   the literal C reading and the proof, or the example syntax check;
//! - the structure pass, for headings, labels and a group's list;
//! - the requirements pass, for the version and target sentences;
//! - the operands pass, for the sentences that state operand types and
//!   sizes, or which types and modes an instruction has;
//! - the labels pass, for a modifier's label and the text it heads;
//! - the tables pass, for every row of a table;
//! - the packed pass, for the statements that take a packed form's
//!   elements out as bit fields;
//! - `vendor syntax`'s range edges, for a sentence that states an
//!   operand's range (`ranges`);
//! - the example comments pass, for a comment on an example's line that
//!   says what it computes (`comments`).
//!
//! Or it is marked not checkable in `checker/text/not-checkable.toml`, with
//! a reason from a short fixed list. Any other unit is unread.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::document::{BlockKind, Document, STRUCTURE};
use super::drift::{self, Fingerprints};
use super::units::{collapse, units, Unit, UnitKind};
use crate::audit::claims::{self, Check};
use crate::audit::finding::Finding;
use crate::audit::passages::PASSAGES;

/// Why a unit cannot be checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Advice to the programmer: what to use, or prefer, not what an
    /// instruction computes.
    Advice,
    /// The instruction's plain name under its heading.
    Name,
    /// What a future release may do.
    Future,
    /// Speed or cost on some hardware, which no model of values can check.
    Performance,
    /// A pointer to another part of the document.
    Reference,
    /// What a target the model does not cover does (sm_1x): the model is
    /// of the targets the catalogue's variants require and later ones.
    Target,
    /// What the floating-point forms do (set's and setp's float `.stype`,
    /// `.ftz`, NaN): the model holds integers and bits, and floats only as
    /// bits where an instruction moves them unchanged.
    Float,
}

impl Reason {
    pub fn key(self) -> &'static str {
        match self {
            Reason::Advice => "advice",
            Reason::Name => "name",
            Reason::Future => "future",
            Reason::Performance => "performance",
            Reason::Reference => "reference",
            Reason::Target => "target",
            Reason::Float => "float",
        }
    }
}

/// One entry of the not-checkable table: the unit by its section, a short
/// fragment of it, and the first 16 hex digits of its fingerprint, so that
/// an entry stops matching when the sentence changes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    pub section: String,
    pub fragment: String,
    pub sha256: String,
    pub reason: Reason,
    /// Why, in a few words, where the reason alone does not say it.
    #[serde(default)]
    pub why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarksFile {
    #[serde(default)]
    unit: Vec<Mark>,
}

pub const MARKS_FILE: (&str, &str) =
    ("checker/text/not-checkable.toml", include_str!("../../../text/not-checkable.toml"));

/// The built-in table; a malformed one is a one-line error naming the file.
pub fn marks() -> Result<Vec<Mark>, String> {
    toml::from_str::<MarksFile>(MARKS_FILE.1).map(|f| f.unit).map_err(|e| drift::toml_error(MARKS_FILE, &e))
}

/// How a unit is accounted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Checked,
    NotCheckable,
    Unread,
}

impl Status {
    pub const ALL: [Status; 3] = [Status::Checked, Status::NotCheckable, Status::Unread];

    pub fn label(self) -> &'static str {
        match self {
            Status::Checked => "checked",
            Status::NotCheckable => "not checkable",
            Status::Unread => "unread",
        }
    }
}

/// One unit and how it is accounted for.
#[derive(Clone, Debug, Serialize)]
pub struct Account {
    #[serde(flatten)]
    pub unit: Unit,
    pub status: Status,
    /// The checks that rest on it (`claim:9.7.1.1/add-is-sum`,
    /// `passage:int-wraparound`, `literal:9.7.1.19`), sorted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checked_by: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// The coverage of a document.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coverage {
    pub units: Vec<Account>,
    /// Entries of the not-checkable table that match no unit of the
    /// document (a changed or removed sentence, or a stale entry).
    pub marks_unmatched: Vec<String>,
    /// Requirement sentences that disagree with the catalogue: the unit's
    /// id and what the catalogue says.
    pub requirements_disagree: Vec<(String, String)>,
    /// Operand sentences that fail for some variant: the unit's id, the
    /// variant and what the catalogue says.
    pub operands_fail: Vec<(String, String, String)>,
    /// Operand ranges the text states that `vendor syntax` does not
    /// assemble (`ranges::RANGES` lacks them): `section lo..hi (unit)`.
    pub ranges_unlisted: Vec<String>,
}

/// Counts of one row of the coverage tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub units: usize,
    pub checked: usize,
    pub not_checkable: usize,
    pub unread: usize,
}

impl Counts {
    fn add(&mut self, s: Status) {
        self.units += 1;
        match s {
            Status::Checked => self.checked += 1,
            Status::NotCheckable => self.not_checkable += 1,
            Status::Unread => self.unread += 1,
        }
    }

    /// The columns of a table row of counts, after its name.
    pub const COLUMNS: [&'static str; 4] = ["units", "checked", "not checkable", "unread"];

    /// A table row: the name, then each count with its percentage.
    pub fn row(&self, name: String) -> Vec<String> {
        let with = |n: usize| format!("{n} ({})", self.percent(n));
        vec![name, self.units.to_string(), with(self.checked), with(self.not_checkable), with(self.unread)]
    }

    /// The sum of two rows.
    pub fn plus(self, o: Counts) -> Counts {
        Counts {
            units: self.units + o.units,
            checked: self.checked + o.checked,
            not_checkable: self.not_checkable + o.not_checkable,
            unread: self.unread + o.unread,
        }
    }

    /// `n` as a percentage of the units, one decimal.
    pub fn percent(&self, n: usize) -> String {
        if self.units == 0 {
            return "-".into();
        }
        format!("{:.1}%", n as f64 * 100.0 / self.units as f64)
    }
}

/// Where the formulas of the normative prose come from: each sentence, list
/// item and table row of a Description, a Notes block or an introduction
/// that a check reads (a lead-in is read with what it introduces, and a
/// unit marked not checkable has no formula).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Formulas {
    pub units: usize,
    /// Read into a formula by a pass that knows the sentence's shape.
    pub from_shapes: usize,
    /// Only by a claim or a passage written by hand.
    pub hand_written: usize,
    /// By neither: only a finding's fragment rests on it (the ids).
    pub neither: Vec<String>,
}

/// The passes that read a sentence into a formula from its shape: the
/// prefixes of their marks in `checked_by` (`text-structure` reads an
/// introduction's list of instructions against the sections it heads).
const SHAPE_READERS: [&str; 11] = [
    "text-structure",
    "operands",
    "bounds",
    "domains",
    "table",
    "labels",
    "vendor-range",
    "names",
    "example-comment",
    "packed",
    "requirements",
];

/// The marks of checks written by hand for a sentence.
const HAND_WRITTEN: [&str; 2] = ["claim", "passage"];

impl Coverage {
    pub fn unread(&self) -> impl Iterator<Item = &Account> {
        self.units.iter().filter(|a| a.status == Status::Unread)
    }

    /// Where the formulas of the normative prose come from ([`Formulas`]).
    pub fn formulas(&self) -> Formulas {
        let mut f = Formulas::default();
        let prose = self.units.iter().filter(|a| {
            a.status == Status::Checked
                && matches!(a.unit.kind, UnitKind::Sentence | UnitKind::ListItem | UnitKind::TableRow)
                && matches!(a.unit.block, None | Some(BlockKind::Description | BlockKind::Notes))
                && !a.checked_by.iter().any(|c| c.starts_with("lead-in:"))
        });
        for a in prose {
            let by =
                |passes: &[&str]| a.checked_by.iter().any(|c| passes.iter().any(|p| c.split(':').next() == Some(*p)));
            f.units += 1;
            if by(&SHAPE_READERS) {
                f.from_shapes += 1;
            } else if by(&HAND_WRITTEN) {
                f.hand_written += 1;
            } else {
                f.neither.push(a.unit.id.clone());
            }
        }
        f
    }

    pub fn total(&self) -> Counts {
        let mut c = Counts::default();
        self.units.iter().for_each(|a| c.add(a.status));
        c
    }

    /// Per section, in section order.
    pub fn by_section(&self) -> Vec<(String, Counts)> {
        let mut out: BTreeMap<Vec<u32>, (String, Counts)> = BTreeMap::new();
        for a in &self.units {
            let e = out
                .entry(claims::section_key(&a.unit.section))
                .or_insert_with(|| (a.unit.section.clone(), Counts::default()));
            e.1.add(a.status);
        }
        out.into_values().collect()
    }

    /// Per kind of unit, in the kinds' order.
    pub fn by_kind(&self) -> Vec<(UnitKind, Counts)> {
        UnitKind::ALL
            .iter()
            .filter_map(|&k| {
                let mut c = Counts::default();
                self.units.iter().filter(|a| a.unit.kind == k).for_each(|a| c.add(a.status));
                (c.units > 0).then_some((k, c))
            })
            .collect()
    }
}

/// A check that quotes the text: who it is, the sections it may be in, and
/// its fragment.
struct Quote {
    by: String,
    sections: Vec<String>,
    fragment: String,
}

/// A passage's further fragments (`checker/text/rests-on.toml`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassageRests {
    pub id: String,
    pub rests_on: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RestsFile {
    #[serde(default)]
    passage: Vec<PassageRests>,
}

pub const RESTS_FILE: (&str, &str) = ("checker/text/rests-on.toml", include_str!("../../../text/rests-on.toml"));

/// The built-in table; a malformed one, or one that names a passage the
/// audit does not have, is a one-line error naming the file.
pub fn passage_rests() -> Result<Vec<PassageRests>, String> {
    let file: RestsFile = toml::from_str(RESTS_FILE.1).map_err(|e| drift::toml_error(RESTS_FILE, &e))?;
    match file.passage.iter().find(|r| !PASSAGES.iter().any(|p| p.id == r.id)) {
        Some(r) => Err(format!("{}: no passage `{}`", RESTS_FILE.0, r.id)),
        None => Ok(file.passage),
    }
}

/// Every quote of the project's checks: the claims that are checked, the
/// passages, and the findings given.
fn quotes(findings: &[Finding], rests: &[PassageRests]) -> Vec<Quote> {
    let mut out: Vec<Quote> = Vec::new();
    for c in claims::all() {
        if matches!(c.check, Check::NotCheckable { .. }) {
            continue;
        }
        for f in c.fragment.iter().chain(&c.rests_on) {
            out.push(Quote { by: format!("claim:{}", c.id), sections: vec![c.section.clone()], fragment: f.clone() });
        }
    }
    for p in PASSAGES {
        let more = rests.iter().filter(|r| r.id == p.id).flat_map(|r| r.rests_on.iter().cloned());
        for fragment in std::iter::once(p.fragment.to_string()).chain(more) {
            out.push(Quote { by: format!("passage:{}", p.id), sections: drift::passage_sections(p.section), fragment });
        }
    }
    for f in findings {
        for fragment in std::iter::once(&f.fragment).chain(&f.also_quotes).filter(|q| !q.trim().is_empty()) {
            out.push(Quote {
                by: format!("finding:{}", f.id),
                sections: vec![f.section.clone()],
                fragment: fragment.clone(),
            });
        }
    }
    out
}

/// Text as fragments are matched: Markdown's marks and comment markers
/// gone, white space collapsed.
fn matchable(text: &str) -> String {
    collapse(&drift::plain(text).replace("//", " ").replace("/*", " ").replace("*/", " "))
}

/// The units (indices into `units`) that `fragment` is in, in the sections
/// `sections` (a group includes its subsections).
pub(crate) fn units_quoting(units: &[Unit], sections: &[String], fragment: &str) -> Vec<usize> {
    quoted(units, &Quote { by: String::new(), sections: sections.to_vec(), fragment: fragment.to_string() })
}

/// Whether section `number` is in the scope of a check made for `scopes`
/// (a group includes its subsections).
fn in_scope(number: &str, scopes: &[String]) -> bool {
    let number = number.split('@').next().unwrap_or(number);
    scopes.iter().any(|p| number == p || number.starts_with(&format!("{p}.")))
}

/// The units a quote rests on: every place its fragment occurs in a run of
/// units of one block (prose and code apart), each unit the match touches.
fn quoted(units: &[Unit], q: &Quote) -> Vec<usize> {
    let want = matchable(&q.fragment);
    // A lone name of a letter or two (a variable) is found all over a
    // section: it anchors nothing.
    if want.is_empty() || (!want.contains(' ') && want.chars().filter(|c| c.is_alphanumeric()).count() < 3) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < units.len() {
        // A stream: consecutive units of one section and block, all prose or
        // all code (comments run with the code they annotate).
        let code = |u: &Unit| u.kind.is_code() || matches!(u.kind, UnitKind::Comment | UnitKind::ExampleComment);
        let mut j = i + 1;
        while j < units.len()
            && units[j].section == units[i].section
            && units[j].block == units[i].block
            && code(&units[j]) == code(&units[i])
            && units[j].kind != UnitKind::Heading
            && units[j].kind != UnitKind::Label
            && units[i].kind != UnitKind::Heading
            && units[i].kind != UnitKind::Label
        {
            j += 1;
        }
        if in_scope(&units[i].section, &q.sections) {
            let mut flat = String::new();
            let mut spans: Vec<(usize, usize, usize)> = Vec::new();
            for (k, u) in units.iter().enumerate().take(j).skip(i) {
                let t = matchable(&u.text);
                if !flat.is_empty() {
                    flat.push(' ');
                }
                spans.push((k, flat.len(), flat.len() + t.len()));
                flat.push_str(&t);
            }
            let mut from = 0;
            while let Some(at) = flat[from..].find(&want) {
                let (a, b) = (from + at, from + at + want.len());
                for &(k, s, e) in &spans {
                    if s < b && a < e && !out.contains(&k) {
                        out.push(k);
                    }
                }
                from = a + 1;
                while !flat.is_char_boundary(from) {
                    from += 1;
                }
            }
        }
        i = j;
    }
    out
}

/// The transcribed blocks that every rendering of the document still
/// matches, by section and kind.
fn current_transcriptions(doc: &Document, prints: &Fingerprints) -> Vec<(String, BlockKind)> {
    prints
        .block
        .iter()
        .filter(|p| {
            let mut renderings = doc.renderings(&p.section).peekable();
            renderings.peek().is_some()
                && renderings.all(|s| {
                    s.block(p.block).is_some_and(|b| drift::sha256(&super::document::normalise(&b.lines)) == p.sha256)
                })
        })
        .map(|p| (p.section.clone(), p.block))
        .collect()
}

/// The checks that read a transcribed block's code.
fn transcription_checks(section: &str, kind: BlockKind) -> Vec<String> {
    match kind {
        BlockKind::Syntax => vec![format!("syntax:{section}")],
        BlockKind::Semantics => vec![format!("literal:{section}"), format!("proof:{section}")],
        BlockKind::Examples => vec![format!("example-syntax:{section}")],
        _ => Vec::new(),
    }
}

/// Mark the units that the passes over tables, packed forms, example
/// comments, stated ranges, labels and names read, and the lead-ins of
/// checked units.
fn mark_passes(doc: &Document, units: &[Unit], by: &mut [Vec<String>]) {
    // Every row of a table, read against its header.
    let rows = super::tables::read_rows(doc);
    for (k, u) in units.iter().enumerate() {
        if u.kind == UnitKind::TableRow && rows.iter().any(|(f, l)| *f == u.file && *l == u.line) {
            by[k].push(format!("table:{}", u.base_section()));
        }
    }
    // Every statement that takes a packed form's elements out, read by the
    // packed pass (and the passage that compares its readings).
    for site in super::packed::sites(doc) {
        for (k, u) in units.iter().enumerate() {
            if u.kind == UnitKind::Statement && u.section == site.section && super::packed::extracts(&u.text) {
                by[k].push(format!("packed:{}", site.section));
            }
        }
    }
    // An example's comment read into facts about its instruction.
    for r in super::comments::check(doc).0 {
        for (k, u) in units.iter().enumerate() {
            if u.kind == UnitKind::ExampleComment && u.section == r.section && u.line == r.line {
                by[k].push(format!("example-comment:{}", r.section));
            }
        }
    }
    // A stated range, whose edges `vendor syntax` assembles.
    for (u, ranges) in super::ranges::stated(doc) {
        if ranges.iter().all(|r| super::ranges::listed(&u, *r)) {
            if let Some(k) = units.iter().position(|x| x.id == u.id) {
                by[k].push(format!("vendor-range:{}", u.base_section()));
            }
        }
    }
    // A modifier's label and the text under it, read against each other.
    for l in super::labels::labelled(units) {
        if super::labels::KINDS.iter().any(|(k, _)| *k == l.kind) && !super::labels::qualifiers(&l.text).is_empty() {
            for u in [l.label, l.content] {
                if let Some(k) = units.iter().position(|x| x.id == u.id) {
                    by[k].push(format!("labels:{}", u.base_section()));
                }
            }
        }
    }
    // An example read against its Syntax line's names, and the Syntax
    // lines read as templates and type relations.
    let names = super::names::read_units(doc);
    for (k, u) in units.iter().enumerate() {
        if names.contains(&u.id) {
            by[k].push(format!("names:{}", u.base_section()));
        }
    }
    // A bound on a result, read into a formula per reading and proven or
    // refuted against the model; a bound on an operand, its readings
    // compared with each other and with every other bound on the operand.
    let bounded: Vec<String> = super::bounds::read(doc)
        .into_iter()
        .filter(|b| b.subject == super::bounds::Subject::Result)
        .map(|b| b.unit)
        .collect();
    let domains = super::domains::read_units(doc);
    for (k, u) in units.iter().enumerate() {
        if bounded.contains(&u.id) {
            by[k].push(format!("bounds:{}", u.base_section()));
        }
        if domains.contains(&u.id) {
            by[k].push(format!("domains:{}", u.base_section()));
        }
    }
    // A lead-in (`Saturation modifier:`, `... as follows:`) is read with
    // what it introduces: the unit after it in its block, where that one is
    // checked.
    for k in (0..units.len().saturating_sub(1)).rev() {
        let (u, next) = (&units[k], &units[k + 1]);
        if u.kind == UnitKind::Sentence && u.text.ends_with(':') && next.block == u.block && !by[k + 1].is_empty() {
            by[k].push(format!("lead-in:{}", next.id));
        }
    }
}

/// Account for every unit of the document, given the findings of the
/// passes that read it (each finding rests on the units its fragment is
/// in) and the units the requirements pass checked.
pub fn account(doc: &Document, findings: &[Finding]) -> Result<Coverage, String> {
    let units = units(doc);
    let mut by: Vec<Vec<String>> = vec![Vec::new(); units.len()];
    for q in quotes(findings, &passage_rests()?) {
        for k in quoted(&units, &q) {
            by[k].push(q.by.clone());
        }
    }
    let prints = drift::recorded()?;
    let current = current_transcriptions(doc, &prints);
    let groups = &STRUCTURE.introductions;
    let requirements = super::requirements::check(doc);
    let operands = super::operands::check(doc);
    for (k, u) in units.iter().enumerate() {
        let section = u.base_section();
        if let Some(kind) = u.block {
            if u.kind.is_code() && current.iter().any(|(s, b)| s == section && *b == kind) {
                by[k].extend(transcription_checks(section, kind));
            }
        }
        let structure = match u.kind {
            UnitKind::Heading => {
                groups.iter().any(|g| g == section) || doc.section(section).is_some_and(|s| s.opcode().is_some())
            }
            UnitKind::Label => true,
            UnitKind::ListItem | UnitKind::Sentence => {
                u.block.is_none() && groups.iter().any(|g| g == section) && super::wording::in_group_list(doc, u)
            }
            _ => false,
        };
        if structure {
            by[k].push(format!("text-structure:{section}"));
        }
        if requirements.checked.contains(&u.id) {
            by[k].push(format!("requirements:{section}"));
        }
        if operands.checked.contains(&u.id) || operands.fails.iter().any(|(f, _, _)| f.id == u.id) {
            by[k].push(format!("operands:{section}"));
        }
    }
    mark_passes(doc, &units, &mut by);
    let marks = marks()?;
    let mut matched = vec![false; marks.len()];
    let mut accounts = Vec::with_capacity(units.len());
    for (unit, mut checked_by) in units.into_iter().zip(by) {
        checked_by.sort();
        checked_by.dedup();
        let mark = marks.iter().position(|m| {
            in_scope(&unit.section, std::slice::from_ref(&m.section))
                && unit.base_section() == m.section
                && unit.sha256.starts_with(&m.sha256)
                && matchable(&unit.text).contains(&matchable(&m.fragment))
        });
        // A mark counts only where it accounts for a unit no check reads.
        if let Some(i) = mark.filter(|_| checked_by.is_empty()) {
            matched[i] = true;
        }
        let (status, reason, why) = match (checked_by.is_empty(), mark) {
            (false, _) => (Status::Checked, None, None),
            (true, Some(i)) => (Status::NotCheckable, Some(marks[i].reason), marks[i].why.clone()),
            (true, None) => (Status::Unread, None, None),
        };
        accounts.push(Account { unit, status, checked_by, reason, why });
    }
    let marks_unmatched = marks
        .iter()
        .zip(matched)
        .filter(|(_, m)| !m)
        .map(|(m, _)| format!("{} `{}` ({})", m.section, m.fragment, m.reason.key()))
        .collect();
    Ok(Coverage {
        units: accounts,
        marks_unmatched,
        requirements_disagree: requirements.disagree,
        operands_fail: operands.fails.into_iter().map(|(u, v, why)| (u.id, v, why)).collect(),
        ranges_unlisted: super::ranges::unlisted(doc),
    })
}
