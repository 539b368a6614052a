//! Transcription drift: the project transcribes blocks of the spec by hand
//! (every Syntax block, Semantics block and Examples block, and the
//! passages the audit reads). Each is recorded here as the SHA-256 of its
//! normalised text as it stood when it was transcribed
//! (`checker/text/fingerprints.toml`: fingerprints, never the text). Given
//! a newer document, every block whose text changed, that appeared, or that
//! went is listed as "transcription stale: re-check".

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::document::{normalise, paragraphs, BlockKind, Document, Line, Section};
pub use super::units::sha256;
use crate::audit::claims::section_key;

/// The blocks of a section the project transcribes.
pub const TRANSCRIBED: [BlockKind; 3] = [BlockKind::Syntax, BlockKind::Semantics, BlockKind::Examples];

/// One recorded block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockPrint {
    pub section: String,
    pub block: BlockKind,
    pub sha256: String,
}

/// One recorded passage: the paragraph (or code block) its fragment is in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassagePrint {
    pub id: String,
    /// The section the fragment was found in.
    pub section: String,
    pub sha256: String,
}

/// The fingerprint table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fingerprints {
    #[serde(default)]
    pub block: Vec<BlockPrint>,
    #[serde(default)]
    pub passage: Vec<PassagePrint>,
    /// Every unit of the document (`revision`), written by hand in
    /// [`to_toml`]: one line each.
    #[serde(default, skip_serializing)]
    pub unit: Vec<super::revision::UnitPrint>,
    /// The units each root cause rests on.
    #[serde(default, skip_serializing)]
    pub rests_on: Vec<super::revision::RestsOn>,
}

pub const FILE: (&str, &str) = ("checker/text/fingerprints.toml", include_str!("../../../text/fingerprints.toml"));

/// The table built into the binary; a malformed one is a one-line error
/// naming the file and line.
pub fn recorded() -> Result<Fingerprints, String> {
    toml::from_str(FILE.1).map_err(|e| toml_error(FILE, &e))
}

/// A built-in data file's parse error in one line: `FILE:LINE: what`.
pub fn toml_error((file, text): (&str, &str), e: &toml::de::Error) -> String {
    let line = e.span().map_or(1, |s| text[..s.start.min(text.len())].matches('\n').count() + 1);
    format!("{file}:{line}: {}", e.message())
}

/// The blocks the project transcribes, by section: its Syntax blocks
/// (`audit::syntax`), its Semantics blocks read as C (`audit::literal`) and
/// the sections whose example instructions the claims check.
pub fn transcribed_blocks() -> Vec<(String, BlockKind)> {
    let mut out: Vec<(String, BlockKind)> = Vec::new();
    let mut push = |s: &str, k: BlockKind| {
        if !out.iter().any(|(t, j)| t == s && *j == k) {
            out.push((s.to_string(), k));
        }
    };
    for b in crate::audit::syntax::BLOCKS {
        push(b.section, BlockKind::Syntax);
    }
    for b in crate::audit::literal::table::BLOCKS {
        push(b.section, BlockKind::Semantics);
    }
    for (s, _) in crate::audit::syntax::EXAMPLE_INSTRUCTIONS {
        push(s, BlockKind::Examples);
    }
    out.sort_by_key(|a| (section_key(&a.0), a.1));
    out
}

/// The sections a passage's section names: `9.7.1.1-2` is 9.7.1.1 and
/// 9.7.1.2; a group (`9.7.1`) includes its subsections.
pub(crate) fn passage_sections(section: &str) -> Vec<String> {
    match section.split_once('-') {
        Some((first, last)) => {
            let (stem, from) = first.rsplit_once('.').unwrap_or(("", first));
            match (from.parse::<u32>(), last.parse::<u32>()) {
                (Ok(a), Ok(b)) => (a..=b).map(|n| format!("{stem}.{n}")).collect(),
                _ => vec![first.to_string()],
            }
        }
        None => vec![section.to_string()],
    }
}

/// A text without Markdown's marks (code, emphasis, escapes), on one line:
/// how a passage's fragment is quoted.
pub(crate) fn plain(text: &str) -> String {
    text.replace(['`', '\\'], "").replace(" *", " ").replace("* ", " ").replace("*.", ".").replace("*,", ",")
}

/// The units a passage can be in, in document order: each block's code as
/// a whole, each prose paragraph.
fn units(section: &Section) -> Vec<Vec<&Line>> {
    let mut out: Vec<Vec<&Line>> = paragraphs(&section.intro);
    for b in &section.blocks {
        let code: Vec<&Line> = b.code().collect();
        if !code.is_empty() {
            out.push(code);
        }
        out.extend(b.paragraphs());
    }
    out
}

/// Where a passage's fragment is: its section and the unit's normalised
/// text and first line.
pub fn locate<'a>(doc: &'a Document, section: &str, fragment: &str) -> Option<(&'a Section, String, usize)> {
    let want = fragment.split_whitespace().collect::<Vec<_>>().join(" ");
    let scopes = passage_sections(section);
    let in_scope = |s: &Section| scopes.iter().any(|p| s.number == *p || s.number.starts_with(&format!("{p}.")));
    for s in doc.first_renderings().filter(|s| in_scope(s)) {
        for unit in units(s) {
            let text = normalise(unit.iter().copied());
            let flat = text.replace('\n', " ");
            // A comment that runs over several lines reads as one.
            let comments = text.lines().map(|l| l.trim_start_matches("// ")).collect::<Vec<_>>().join(" ");
            if flat.contains(&want) || plain(&flat).contains(&want) || comments.contains(&want) {
                return Some((s, text, unit[0].number));
            }
        }
    }
    None
}

/// The fingerprints of a document: what `--record-fingerprints` writes,
/// and the passages whose fragment it does not contain.
pub fn record(doc: &Document) -> (Fingerprints, Vec<String>) {
    let mut prints = Fingerprints::default();
    for (section, kind) in transcribed_blocks() {
        if let Some(b) = doc.section(&section).and_then(|s| s.block(kind)) {
            prints.block.push(BlockPrint { section, block: kind, sha256: sha256(&normalise(&b.lines)) });
        }
    }
    let mut missing = Vec::new();
    for p in crate::audit::passages::PASSAGES {
        // A passage of a section the document does not render has nothing
        // to record: it is fingerprinted with a text that holds it.
        if !passage_sections(p.section).iter().any(|s| doc.section(s).is_some()) {
            continue;
        }
        match locate(doc, p.section, p.fragment) {
            Some((s, text, _)) => prints.passage.push(PassagePrint {
                id: p.id.to_string(),
                section: s.number.clone(),
                sha256: sha256(&text),
            }),
            None => missing.push(format!("passage {} ({}): `{}` is not in the text", p.id, p.section, p.fragment)),
        }
    }
    (prints, missing)
}

/// The table as its file is written.
pub fn to_toml(prints: &Fingerprints) -> String {
    let head = "# The SHA-256 of the normalised text (blank lines dropped, white space collapsed) of every\n\
                # block of the PTX ISA sections the project transcribes, as it stood when transcribed:\n\
                # fingerprints only, never the text. Written by `ptxcheck text --record-fingerprints`;\n\
                # `ptxcheck text` lists every block of a newer document that no longer matches.\n\n";
    format!(
        "{head}{}{}{}",
        super::revision::units_toml(&prints.unit),
        toml::to_string(prints).unwrap_or_default(),
        super::revision::rests_toml(&prints.rests_on)
    )
}

/// How a transcribed block differs from the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// The text changed.
    Changed,
    /// The document has a block of a transcribed kind the project never
    /// transcribed.
    Added,
    /// The document's section no longer has the block (or the passage's
    /// fragment).
    Removed,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Changed => "changed",
            Change::Added => "added",
            Change::Removed => "removed",
        }
    }
}

/// One stale transcription.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stale {
    /// `9.7.8.2 Semantics`, or `passage clz-mask-test (9.7.1.15)`.
    pub what: String,
    pub change: Change,
    /// `FILE:LINE` in the document, where there is a place.
    pub at: Option<String>,
}

/// The drift of a document against the recorded fingerprints: every
/// rendering of every section compared. Sections the document does not
/// render at all (and whose group it does not render either, or renders
/// with a list most of whose instructions the text has no section for)
/// are not checked: the user may supply a part of the document; they are
/// counted in `unchecked`.
pub fn compare(doc: &Document, prints: &Fingerprints) -> (Vec<Stale>, usize) {
    let mut stale = Vec::new();
    let mut unchecked = 0;
    let recorded: BTreeMap<(String, BlockKind), &str> =
        prints.block.iter().map(|b| ((b.section.clone(), b.block), b.sha256.as_str())).collect();
    let partial: Vec<String> = super::wording::partial_groups(doc).into_iter().map(|(g, ..)| g).collect();
    let rendered = |s: &str| {
        doc.section(s).is_some()
            || s.rsplit_once('.')
                .is_some_and(|(group, _)| doc.section(group).is_some() && !partial.iter().any(|p| p == group))
    };
    for ((section, kind), print) in &recorded {
        if !rendered(section) {
            unchecked += 1;
            continue;
        }
        let mut renderings = doc.renderings(section).peekable();
        if renderings.peek().is_none() {
            stale.push(Stale { what: format!("{section} {}", kind.label()), change: Change::Removed, at: None });
        }
        for s in renderings {
            match s.block(*kind) {
                Some(b) if sha256(&normalise(&b.lines)) == *print => {}
                Some(b) => stale.push(Stale {
                    what: format!("{section} {}", kind.label()),
                    change: Change::Changed,
                    at: Some(format!("{}:{}", s.file, b.line)),
                }),
                None => stale.push(Stale {
                    what: format!("{section} {}", kind.label()),
                    change: Change::Removed,
                    at: Some(format!("{}:{}", s.file, s.line)),
                }),
            }
        }
    }
    // A block is added where ptxcheck models its section: a section it does
    // not model has no transcription to be stale.
    let covered = super::document::covered();
    for s in doc.sections.iter().filter(|s| covered.contains(&s.number)) {
        for b in &s.blocks {
            if TRANSCRIBED.contains(&b.kind) && !recorded.contains_key(&(s.number.clone(), b.kind)) {
                let what = format!("{} {}", s.number, b.kind.label());
                if !stale.iter().any(|x| x.what == what) {
                    stale.push(Stale { what, change: Change::Added, at: Some(format!("{}:{}", s.file, b.line)) });
                }
            }
        }
    }
    for p in &prints.passage {
        let Some(passage) = crate::audit::passages::PASSAGES.iter().find(|q| q.id == p.id) else {
            continue; // a passage the project no longer reads
        };
        if !rendered(&p.section) {
            unchecked += 1;
            continue;
        }
        let what = format!("passage {} ({})", p.id, p.section);
        match locate(doc, passage.section, passage.fragment) {
            Some((_, text, _)) if sha256(&text) == p.sha256 => {}
            Some((s, _, line)) => {
                stale.push(Stale { what, change: Change::Changed, at: Some(format!("{}:{line}", s.file)) })
            }
            None => stale.push(Stale { what, change: Change::Removed, at: None }),
        }
    }
    (stale, unchecked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passage_sections_expand_ranges() {
        assert_eq!(passage_sections("9.7.1.1-2"), ["9.7.1.1", "9.7.1.2"]);
        assert_eq!(passage_sections("9.7.8.8-9"), ["9.7.8.8", "9.7.8.9"]);
        assert_eq!(passage_sections("9.7.1"), ["9.7.1"]);
    }

    #[test]
    fn the_table_loads_and_covers_every_transcribed_block_and_passage() {
        let prints = recorded().unwrap();
        for (section, kind) in transcribed_blocks() {
            assert!(
                prints.block.iter().any(|b| b.section == section && b.block == kind),
                "{section} {}: transcribed but not fingerprinted",
                kind.label()
            );
        }
        // A passage of a section the recorded text does not hold (no unit
        // of it is recorded) cannot be fingerprinted until the section
        // joins the text: set's and setp's, 9.7.6.1-2, today.
        let recorded_sections: std::collections::BTreeSet<&str> = prints.unit.iter().map(|u| u.section()).collect();
        for p in crate::audit::passages::PASSAGES {
            let held = passage_sections(p.section).iter().any(|s| recorded_sections.contains(s.as_str()));
            assert!(!held || prints.passage.iter().any(|q| q.id == p.id), "passage {} not fingerprinted", p.id);
        }
    }
}
