//! The document cut into units, the smallest pieces of text a check can
//! rest on: every heading and label, every sentence, list item and table
//! row of the prose, every line of a Syntax block, every statement and
//! every comment of a Semantics block, every Examples line and its
//! comment. `coverage` accounts for each one.
//!
//! A unit's id says where it is and stays the same while the text before
//! it in its block does not gain or lose a unit of the same kind:
//! `9.7.1.19/description/sentence-3`. Its fingerprint is the SHA-256 of
//! its normalised text, so a changed sentence is a different unit.

use serde::{Deserialize, Serialize};

use super::document::{Block, BlockKind, Document, Line, Section};
use sha2::{Digest, Sha256};

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// A section's heading.
    Heading,
    /// A block's label (`Semantics`), or the instruction's name standing
    /// under its heading.
    Label,
    /// The short name of the instruction under its heading (`Bit Field
    /// Extract.`).
    Title,
    /// A sentence of prose.
    Sentence,
    /// An item of a bulleted list, or a term with its definition.
    ListItem,
    /// A row of a table (the header row included, the rule under it not).
    TableRow,
    /// A line of a Syntax block.
    Syntax,
    /// A statement (a line of code) of a Semantics block.
    Statement,
    /// A comment inside a Semantics or Syntax block.
    Comment,
    /// An example instruction (one line of an Examples block).
    Example,
    /// The comment on an Examples line.
    ExampleComment,
}

impl UnitKind {
    pub const ALL: [UnitKind; 11] = [
        UnitKind::Heading,
        UnitKind::Label,
        UnitKind::Title,
        UnitKind::Sentence,
        UnitKind::ListItem,
        UnitKind::TableRow,
        UnitKind::Syntax,
        UnitKind::Statement,
        UnitKind::Comment,
        UnitKind::Example,
        UnitKind::ExampleComment,
    ];

    pub fn key(self) -> &'static str {
        match self {
            UnitKind::Heading => "heading",
            UnitKind::Label => "label",
            UnitKind::Title => "title",
            UnitKind::Sentence => "sentence",
            UnitKind::ListItem => "list-item",
            UnitKind::TableRow => "table-row",
            UnitKind::Syntax => "syntax",
            UnitKind::Statement => "statement",
            UnitKind::Comment => "comment",
            UnitKind::Example => "example",
            UnitKind::ExampleComment => "example-comment",
        }
    }

    /// Whether the unit is code (matched against code fragments) rather
    /// than prose.
    pub fn is_code(self) -> bool {
        matches!(self, UnitKind::Syntax | UnitKind::Statement | UnitKind::Example)
    }
}

/// One unit of the document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unit {
    /// `9.7.1.19/description/sentence-3`; a unit only a later rendering of
    /// the section has carries `@2` after the section.
    pub id: String,
    pub section: String,
    /// The block it is in; none for the heading and the lines before the
    /// first label.
    pub block: Option<BlockKind>,
    pub kind: UnitKind,
    /// The file, as named on the command line, and the 1-based line where
    /// the unit starts.
    pub file: String,
    pub line: usize,
    /// Its text, white space collapsed, Markdown's marks kept.
    pub text: String,
    /// SHA-256 of `text`, in hex.
    pub sha256: String,
}

impl Unit {
    /// Its section without the rendering (`9.7.8.6` for `9.7.8.6@2`).
    pub fn base_section(&self) -> &str {
        self.section.split('@').next().unwrap_or(&self.section)
    }
}

/// The units of the whole document, in document order. A section that is
/// rendered twice gives its units once: a later rendering adds only the
/// units its first rendering does not have.
pub fn units(doc: &Document) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut rendering: Vec<(String, usize)> = Vec::new();
    for s in &doc.sections {
        let nth = match rendering.iter_mut().find(|(n, _)| *n == s.number) {
            Some((_, count)) => {
                *count += 1;
                *count
            }
            None => {
                rendering.push((s.number.clone(), 1));
                1
            }
        };
        let mine = section_units(s);
        if nth == 1 {
            out.extend(mine);
            continue;
        }
        for mut u in mine {
            let same = |o: &Unit| o.section == u.section && o.block == u.block && o.kind == u.kind && o.text == u.text;
            if !out.iter().any(same) {
                u.id = u.id.replacen(&s.number, &format!("{}@{nth}", s.number), 1);
                out.push(u);
            }
        }
    }
    out
}

/// Collects a section's units, numbering each kind within its block.
struct Builder<'a> {
    section: &'a Section,
    block: Option<BlockKind>,
    /// Per block and kind: a section with two blocks of one kind (9.7.6.1's
    /// Integer Notes and Floating Point Notes) numbers on through the second,
    /// so that every unit's id is its own.
    counts: Vec<((Option<BlockKind>, UnitKind), usize)>,
    out: Vec<Unit>,
}

impl Builder<'_> {
    fn push(&mut self, kind: UnitKind, line: usize, text: &str) {
        let text = collapse(text);
        if text.is_empty() {
            return;
        }
        let n = match self.counts.iter_mut().find(|(k, _)| *k == (self.block, kind)) {
            Some((_, c)) => {
                *c += 1;
                *c
            }
            None => {
                self.counts.push(((self.block, kind), 1));
                1
            }
        };
        let place = self.block.map_or("intro", BlockKind::key);
        self.out.push(Unit {
            id: format!("{}/{place}/{}-{n}", self.section.number, kind.key()),
            section: self.section.number.clone(),
            block: self.block,
            kind,
            file: self.section.file.clone(),
            line,
            sha256: sha256(&text),
            text,
        });
    }

    fn enter(&mut self, block: Option<BlockKind>) {
        self.block = block;
    }
}

/// SHA-256 of a normalised text, in hex.
pub fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Every run of white space one space, ends trimmed.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn section_units(s: &Section) -> Vec<Unit> {
    let mut b = Builder { section: s, block: None, counts: Vec::new(), out: Vec::new() };
    b.push(UnitKind::Heading, s.line, &s.title);
    intro(&mut b, &s.intro);
    for block in &s.blocks {
        b.enter(Some(block.kind));
        b.push(UnitKind::Label, block.line, &block.label);
        self::block(&mut b, block);
    }
    b.out
}

/// The lines before the first label: in an instruction's section, its name
/// in code and its short title; in a group's, prose and lists.
fn intro(b: &mut Builder, lines: &[Line]) {
    let opcode = b.section.opcode().map(str::to_string);
    let mut rest: Vec<Line> = Vec::new();
    let mut named = false;
    for l in lines {
        let t = l.text.trim();
        if opcode.is_some() && !named && !l.code && !t.is_empty() {
            // The name alone in code (`bfe`), or followed by a remark
            // (`shfl` (deprecated)).
            let name = opcode.as_deref().map(|o| format!("`{o}`")).unwrap_or_default();
            if t.starts_with(&name) && !t[name.len()..].contains('`') {
                b.push(UnitKind::Label, l.number, t);
                named = true;
                continue;
            }
        }
        rest.push(l.clone());
    }
    if opcode.is_some() {
        // The short title: the first sentence of prose after the name.
        let mut first = true;
        for p in super::document::paragraphs(&rest) {
            if first && p.len() == 1 && !p[0].text.trim().starts_with(['*', '-', '|']) {
                b.push(UnitKind::Title, p[0].number, &p[0].text);
                first = false;
                continue;
            }
            first = false;
            prose(b, &p);
        }
        return;
    }
    for p in super::document::paragraphs(&rest) {
        prose(b, &p);
    }
}

fn block(b: &mut Builder, block: &Block) {
    for p in block.paragraphs() {
        prose(b, &p);
    }
    let code_kind = match block.kind {
        BlockKind::Syntax => UnitKind::Syntax,
        BlockKind::Semantics => UnitKind::Statement,
        BlockKind::Examples => UnitKind::Example,
        _ => UnitKind::Statement,
    };
    let comment_kind = if block.kind == BlockKind::Examples { UnitKind::ExampleComment } else { UnitKind::Comment };
    let mut in_block_comment = false;
    for l in block.code() {
        for (is_comment, text) in split_comment(&l.text, &mut in_block_comment) {
            if is_comment {
                // A bare `//` spaces the comments around it: no words.
                if text.chars().any(char::is_alphanumeric) {
                    b.push(comment_kind, l.number, &text);
                }
            } else if text.chars().any(|c| c.is_alphanumeric()) {
                // A line of braces alone is the shape of the code, read
                // with the statements it encloses.
                b.push(code_kind, l.number, &text);
            }
        }
    }
}

/// A code line's code and comments, in order: `//` to the end of the line,
/// and `/* ... */` (which may run over lines: `open` carries it).
pub fn split_comment(line: &str, open: &mut bool) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    let mut rest = line;
    loop {
        if *open {
            match rest.find("*/") {
                Some(end) => {
                    out.push((true, rest[..end + 2].to_string()));
                    rest = &rest[end + 2..];
                    *open = false;
                }
                None => {
                    out.push((true, rest.to_string()));
                    break;
                }
            }
            continue;
        }
        let line_comment = rest.find("//");
        let block_comment = rest.find("/*");
        match (line_comment, block_comment) {
            (Some(a), b) if b.is_none_or(|b| a < b) => {
                out.push((false, rest[..a].to_string()));
                out.push((true, rest[a..].to_string()));
                break;
            }
            (_, Some(at)) => {
                out.push((false, rest[..at].to_string()));
                rest = &rest[at..];
                *open = true;
            }
            _ => {
                out.push((false, rest.to_string()));
                break;
            }
        }
    }
    out.into_iter().filter(|(_, t)| !t.trim().is_empty()).collect()
}

/// A paragraph of prose: a table (its rows), a list (its items), a term
/// with its definition (one item), or sentences.
fn prose(b: &mut Builder, p: &[&Line]) {
    let first = p[0].text.trim();
    if first.starts_with('|') {
        for l in p {
            let t = l.text.trim();
            if !is_table_rule(t) {
                b.push(UnitKind::TableRow, l.number, t);
            }
        }
        return;
    }
    if p.len() > 1 && p[1].text.trim_start().starts_with(':') {
        // A definition list: `term:` then `:   definition`, continued by
        // indented lines.
        let text = p.iter().map(|l| l.text.trim().trim_start_matches(':').trim()).collect::<Vec<_>>().join(" ");
        b.push(UnitKind::ListItem, p[0].number, &text);
        return;
    }
    let mut sentences_of: Vec<&Line> = Vec::new();
    let mut item: Option<(usize, String)> = None;
    let flush_item = |b: &mut Builder, item: &mut Option<(usize, String)>| {
        if let Some((line, text)) = item.take() {
            b.push(UnitKind::ListItem, line, &text);
        }
    };
    for l in p {
        let t = l.text.trim();
        if let Some(rest) = list_item(t) {
            if !sentences_of.is_empty() {
                sentences(b, &std::mem::take(&mut sentences_of));
            }
            flush_item(b, &mut item);
            item = Some((l.number, rest.to_string()));
        } else if let Some((_, text)) = item.as_mut() {
            text.push(' ');
            text.push_str(t);
        } else {
            sentences_of.push(l);
        }
    }
    flush_item(b, &mut item);
    if !sentences_of.is_empty() {
        sentences(b, &sentences_of);
    }
}

fn list_item(t: &str) -> Option<&str> {
    if let Some(rest) = t.strip_prefix("* ").or_else(|| t.strip_prefix("- ")) {
        return Some(rest);
    }
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
    (digits > 0).then(|| t[digits..].strip_prefix(". ")).flatten()
}

fn is_table_rule(t: &str) -> bool {
    t.starts_with('|') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// The sentences of lines of prose, each with the line it starts on.
fn sentences(b: &mut Builder, lines: &[&Line]) {
    let mut current = String::new();
    let mut start = lines[0].number;
    for l in lines {
        let words: Vec<&str> = l.text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            if current.is_empty() {
                start = l.number;
            } else {
                current.push(' ');
            }
            current.push_str(w);
            let next = words.get(i + 1).copied();
            if ends_sentence(w, next) {
                b.push(UnitKind::Sentence, start, &current);
                current.clear();
            }
        }
    }
    b.push(UnitKind::Sentence, start, &current);
}

/// A sentence of a block's prose, as the passes that edit around it need
/// it: the lines it starts and ends on, its paragraph (numbered through
/// the section's blocks of the kind) and the paragraph's last line, where
/// a sentence added after the paragraph goes.
pub(super) struct Sentence<'a> {
    pub start: &'a Line,
    pub end: &'a Line,
    pub last: &'a Line,
    pub paragraph: usize,
    pub text: String,
}

/// The sentences of a section's blocks of one kind, split where the units
/// split them ([`ends_sentence`]); a table's rows are no sentences.
pub(super) fn block_sentences(s: &Section, kind: BlockKind) -> Vec<Sentence<'_>> {
    let mut out = Vec::new();
    let mut paragraph = 0;
    for b in s.blocks.iter().filter(|b| b.kind == kind) {
        for p in b.paragraphs() {
            let lines: Vec<&Line> = p.into_iter().filter(|l| !l.text.trim_start().starts_with('|')).collect();
            let Some(&last) = lines.last() else { continue };
            let mut current: Option<(&Line, String)> = None;
            for l in &lines {
                let words: Vec<&str> = l.text.split_whitespace().collect();
                for (i, w) in words.iter().enumerate() {
                    let (_, text) = current.get_or_insert_with(|| (*l, String::new()));
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    text.push_str(w);
                    if ends_sentence(w, words.get(i + 1).copied()) {
                        if let Some((start, text)) = current.take() {
                            out.push(Sentence { start, end: l, last, paragraph, text });
                        }
                    }
                }
            }
            if let Some((start, text)) = current.take() {
                out.push(Sentence { start, end: last, last, paragraph, text });
            }
            paragraph += 1;
        }
    }
    out
}

/// Abbreviations whose period ends no sentence.
const ABBREVIATIONS: &[&str] = &["e.g.", "i.e.", "etc.", "vs.", "Fig.", "Sec.", "No."];

/// Whether a sentence ends after `word`: a period, question or
/// exclamation mark (before a closing mark), and no abbreviation; where the
/// next word is on the same line it must start as a sentence does.
pub(super) fn ends_sentence(word: &str, next: Option<&str>) -> bool {
    let core = word.trim_end_matches(['"', '\'', ')', '*', '`']);
    if !core.ends_with(['.', '?', '!']) || core.ends_with("..") || ABBREVIATIONS.iter().any(|a| core.ends_with(a)) {
        return false;
    }
    match next {
        None => true,
        Some(n) => n.starts_with(|c: char| c.is_uppercase() || c == '`' || c == '(' || c == '*' || c.is_ascii_digit()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse;

    const DOC: &str = "### 9.7.8. Logic and Shift Instructions\n\n\
        The logic instructions are:\n\n* `and`\n* `or`\n\n\
        #### 9.7.8.2. Logic and Shift Instructions: `or`\n\n`or`\n\nBiwise OR.\n\n\
        Syntax\n\n```\nor.type d, a, b;\n\n.type = { .pred, .b16 };  // the types\n```\n\n\
        Description\n\nCompute the OR. It works on all bits, e.g. the sign bit. Two\nlines here.\n\n\
        | a | b |\n| --- | --- |\n| 0 | 1 |\n\n\
        Semantics\n\n```\nd = a | b;   // or\n{\n}\n```\n\n\
        PTX ISA Notes\n\nIntroduced in PTX ISA version 1.0.\n\n\
        Target ISA Notes\n\nSupported on all target architectures.\n\n\
        Examples\n\n```\nor.b32  mask, mask, 0x0001;  // set bit 0\n```\n";

    fn kinds(units: &[Unit]) -> Vec<(&str, UnitKind)> {
        units.iter().map(|u| (u.text.as_str(), u.kind)).collect()
    }

    #[test]
    fn every_piece_of_a_section_is_a_unit() {
        let doc = Document { sections: parse("doc.md", DOC.as_bytes()).unwrap() };
        let u = units(&doc);
        let k = kinds(&u);
        for want in [
            ("Logic and Shift Instructions", UnitKind::Heading),
            ("The logic instructions are:", UnitKind::Sentence),
            ("`and`", UnitKind::ListItem),
            ("`or`", UnitKind::Label),
            ("Biwise OR.", UnitKind::Title),
            ("Syntax", UnitKind::Label),
            ("or.type d, a, b;", UnitKind::Syntax),
            ("// the types", UnitKind::Comment),
            ("Compute the OR.", UnitKind::Sentence),
            ("It works on all bits, e.g. the sign bit.", UnitKind::Sentence),
            ("Two lines here.", UnitKind::Sentence),
            ("| a | b |", UnitKind::TableRow),
            ("| 0 | 1 |", UnitKind::TableRow),
            ("d = a | b;", UnitKind::Statement),
            ("// or", UnitKind::Comment),
            ("Introduced in PTX ISA version 1.0.", UnitKind::Sentence),
            ("or.b32 mask, mask, 0x0001;", UnitKind::Example),
            ("// set bit 0", UnitKind::ExampleComment),
        ] {
            assert!(k.contains(&want), "{want:?} in {k:#?}");
        }
        assert!(!k.iter().any(|(t, _)| t.contains("---") || *t == "{" || *t == "}"), "{k:#?}");
        let ids: Vec<&str> = u.iter().map(|u| u.id.as_str()).collect();
        assert!(ids.contains(&"9.7.8.2/description/sentence-2"), "{ids:?}");
        assert!(ids.contains(&"9.7.8.2/examples/example-comment-1"), "{ids:?}");
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len(), "unit ids are unique");
    }

    /// 9.7.6.1 has an Integer Notes and a Floating Point Notes block: the
    /// second numbers on from the first, so that no two units share an id
    /// (an id is an anchor of the HTML report, and a key of the findings).
    #[test]
    fn two_blocks_of_one_kind_number_on() {
        let twice = DOC.replace(
            "PTX ISA Notes\n",
            "Integer Notes\n\nOne note. Two notes.\n\nFloating Point Notes\n\nA third note.\n\nPTX ISA Notes\n",
        );
        let u = units(&Document { sections: parse("doc.md", twice.as_bytes()).unwrap() });
        let notes: Vec<(&str, &str)> =
            u.iter().filter(|u| u.id.contains("/notes/")).map(|u| (u.id.as_str(), u.text.as_str())).collect();
        assert_eq!(
            notes,
            [
                ("9.7.8.2/notes/label-1", "Integer Notes"),
                ("9.7.8.2/notes/sentence-1", "One note."),
                ("9.7.8.2/notes/sentence-2", "Two notes."),
                ("9.7.8.2/notes/label-2", "Floating Point Notes"),
                ("9.7.8.2/notes/sentence-3", "A third note."),
            ]
        );
    }

    #[test]
    fn a_second_rendering_adds_only_what_differs() {
        let twice = format!("{DOC}\n{}", DOC.replace("Two\nlines here.", "Two\nlines there."));
        let doc = Document { sections: parse("doc.md", twice.as_bytes()).unwrap() };
        let once = units(&Document { sections: parse("doc.md", DOC.as_bytes()).unwrap() });
        let u = units(&doc);
        assert_eq!(u.len(), once.len() + 1);
        let extra = u.iter().find(|u| u.text == "Two lines there.").unwrap();
        assert_eq!(extra.id, "9.7.8.2@2/description/sentence-3");
    }

    #[test]
    fn comments_split_from_code() {
        let mut open = false;
        assert_eq!(
            split_comment("a = b; /* x */ c; // y", &mut open),
            vec![(false, "a = b; ".into()), (true, "/* x */".into()), (false, " c; ".into()), (true, "// y".into())]
        );
        assert_eq!(split_comment("x /* runs", &mut open), vec![(false, "x ".into()), (true, "/* runs".into())]);
        assert!(open);
        assert_eq!(split_comment("on */ y;", &mut open), vec![(true, "on */".into()), (false, " y;".into())]);
    }
}
