//! The PTX ISA document as the user supplies it (plain text or Markdown, as
//! the HTML pages render), cut into the sections ptxcheck covers and each
//! section into its labelled blocks.
//!
//! The document is never part of the project: the user points ptxcheck at
//! their copy. What the parser knows about its shape (the block labels, the
//! blocks an instruction's section must have, the page furniture to drop)
//! is data, in `checker/text/structure.toml`.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use serde::Deserialize;

/// A malformed or unreadable input: one line, naming the file and, where
/// there is one, the line.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct TextError {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
    /// The file could not be read at all (as opposed to read and rejected).
    pub io: Option<std::io::ErrorKind>,
}

impl TextError {
    fn at(file: &str, line: usize, message: impl Into<String>) -> TextError {
        TextError { file: file.to_string(), line: Some(line), message: message.into(), io: None }
    }
}

/// The labels a section's blocks carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockKind {
    Syntax,
    Description,
    Semantics,
    Notes,
    PtxIsaNotes,
    TargetIsaNotes,
    Examples,
    DeprecationNote,
    RemovalNote,
}

impl BlockKind {
    pub const ALL: [BlockKind; 9] = [
        BlockKind::Syntax,
        BlockKind::Description,
        BlockKind::Semantics,
        BlockKind::Notes,
        BlockKind::PtxIsaNotes,
        BlockKind::TargetIsaNotes,
        BlockKind::Examples,
        BlockKind::DeprecationNote,
        BlockKind::RemovalNote,
    ];

    /// The standard label, as the structure table gives it.
    pub fn label(self) -> &'static str {
        STRUCTURE.labels.iter().find(|l| l.block == self).map_or("?", |l| l.standard.as_str())
    }

    /// The block whose key is `key`.
    pub fn from_key(key: &str) -> Option<BlockKind> {
        BlockKind::ALL.into_iter().find(|k| k.key() == key)
    }

    /// The key of the block in the fingerprint table (`ptx-isa-notes`).
    pub fn key(self) -> &'static str {
        match self {
            BlockKind::Syntax => "syntax",
            BlockKind::Description => "description",
            BlockKind::Semantics => "semantics",
            BlockKind::Notes => "notes",
            BlockKind::PtxIsaNotes => "ptx-isa-notes",
            BlockKind::TargetIsaNotes => "target-isa-notes",
            BlockKind::Examples => "examples",
            BlockKind::DeprecationNote => "deprecation-note",
            BlockKind::RemovalNote => "removal-note",
        }
    }
}

/// What a block's content must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Content {
    /// At least one code block.
    Code,
    /// Prose, no code required.
    Prose,
}

/// One label of the structure table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelRule {
    pub block: BlockKind,
    /// The label the document uses for it everywhere else.
    pub standard: String,
    /// Other spellings the document uses for the same block.
    #[serde(default)]
    pub variants: Vec<String>,
    pub content: Content,
    /// Words one of which every paragraph of the block must contain (a
    /// PTX ISA Notes block speaks of PTX ISA versions).
    #[serde(default)]
    pub mentions: Vec<String>,
}

/// The structure table: what the document's sections look like.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Structure {
    /// Lines the web page adds that are not the text (a copy button).
    pub furniture: Vec<String>,
    /// Links the page adds to headings (their title says what they are).
    pub furniture_links: Vec<String>,
    /// The blocks every instruction's section has.
    pub required: Vec<BlockKind>,
    pub labels: Vec<LabelRule>,
    /// Sections that introduce a group of instructions with a list of
    /// them: the list must name the subsections' instructions in order,
    /// and the sentence before it the group, by the section's title.
    pub introductions: Vec<String>,
}

pub const STRUCTURE_FILE: (&str, &str) = ("checker/text/structure.toml", include_str!("../../../text/structure.toml"));

pub static STRUCTURE: LazyLock<Structure> = LazyLock::new(|| {
    toml::from_str(STRUCTURE_FILE.1).unwrap_or_else(|e| panic!("the built-in {}: {e}", STRUCTURE_FILE.0))
});

/// One line of the document, as written (trailing white space removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based, in its file.
    pub number: usize,
    pub text: String,
    /// Inside a fenced code block.
    pub code: bool,
}

/// A labelled block of a section: the lines after its label up to the next
/// label or heading.
#[derive(Clone, Debug)]
pub struct Block {
    pub kind: BlockKind,
    /// The label as the document writes it (`Example`).
    pub label: String,
    /// The label's line.
    pub line: usize,
    pub lines: Vec<Line>,
}

impl Block {
    /// Its code lines, fences dropped.
    pub fn code(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|l| l.code && !is_fence(&l.text))
    }

    /// Its prose paragraphs: runs of non-blank lines outside code.
    pub fn paragraphs(&self) -> Vec<Vec<&Line>> {
        paragraphs(&self.lines)
    }
}

/// Runs of non-blank prose lines.
pub fn paragraphs(lines: &[Line]) -> Vec<Vec<&Line>> {
    let mut out: Vec<Vec<&Line>> = Vec::new();
    let mut current: Vec<&Line> = Vec::new();
    for l in lines {
        if l.code || l.text.trim().is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
        } else {
            current.push(l);
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A section the document renders, with its blocks.
#[derive(Clone, Debug)]
pub struct Section {
    /// `9.7.8.2`, without the trailing dot.
    pub number: String,
    /// The heading with its links and code marks removed
    /// (`Logic and Shift Instructions: or`).
    pub title: String,
    /// The file, as named on the command line.
    pub file: String,
    /// The heading's line.
    pub line: usize,
    /// The lines between the heading and the first label.
    pub intro: Vec<Line>,
    pub blocks: Vec<Block>,
}

impl Section {
    pub fn block(&self, kind: BlockKind) -> Option<&Block> {
        self.blocks.iter().find(|b| b.kind == kind)
    }

    /// The instruction its title names (`or`), for an instruction's section.
    pub fn opcode(&self) -> Option<&str> {
        self.opcodes().into_iter().next()
    }

    /// Every instruction its title names: one (`or`), or several that share
    /// the section (`vadd, vsub, vabsdiff` of 9.7.18.1.1).
    pub fn opcodes(&self) -> Vec<&str> {
        let Some((_, names)) = self.title.rsplit_once(": ") else { return Vec::new() };
        names
            .split(',')
            .filter_map(|n| n.split_whitespace().next())
            .map(|n| n.trim_matches('`'))
            .filter(|n| !n.is_empty())
            .collect()
    }

    /// Every line of the section after its heading: intro and blocks.
    pub fn all_lines(&self) -> impl Iterator<Item = &Line> {
        self.intro.iter().chain(self.blocks.iter().flat_map(|b| b.lines.iter()))
    }
}

/// The covered sections of every file, in the order given; a section the
/// files render twice appears twice.
#[derive(Clone, Debug, Default)]
pub struct Document {
    pub sections: Vec<Section>,
}

#[cfg(test)]
impl Document {
    /// A document of one Markdown file, `f.md`, for the passes' tests.
    pub fn of_markdown(text: &str) -> Document {
        Document { sections: parse("f.md", text.as_bytes()).unwrap() }
    }

    /// A document of one Markdown file in any heading style, `made.md`,
    /// for the passes' tests.
    pub fn made(text: &str) -> Document {
        Document { sections: parse_any("made.md", text.as_bytes()).unwrap() }
    }
}

impl Document {
    /// The first rendering of each section.
    pub fn section(&self, number: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.number == number)
    }

    /// The first rendering of each section, in document order: the one
    /// that speaks for a section the files render twice.
    pub fn first_renderings(&self) -> impl Iterator<Item = &Section> + '_ {
        self.sections
            .iter()
            .enumerate()
            .filter(|(i, s)| !self.sections[..*i].iter().any(|e| e.number == s.number))
            .map(|(_, s)| s)
    }

    /// Every rendering of each section.
    pub fn renderings<'a>(&'a self, number: &'a str) -> impl Iterator<Item = &'a Section> + 'a {
        self.sections.iter().filter(move |s| s.number == number)
    }
}

/// The sections ptxcheck covers: every catalogue variant's section, and
/// the groups that introduce them (9.7.1, 9.7.8).
pub fn covered() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in ptx_spec::Variant::all() {
        let s = v.section().to_string();
        if !out.contains(&s) {
            out.push(s);
        }
    }
    for group in &STRUCTURE.introductions {
        if !out.contains(group) {
            out.push(group.clone());
        }
    }
    out
}

/// The sections of the catalogue's instructions (a heading there must be
/// followed by every required block).
pub fn instruction_sections() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for v in ptx_spec::Variant::all() {
        if !out.contains(&v.section()) {
            out.push(v.section());
        }
    }
    out
}

/// Read every path (a file, or a folder: its `.txt` and `.md` files in
/// name order) into one document of every numbered section, whether or not
/// ptxcheck models it; the sections of the instructions it models must
/// have every required block.
pub fn read(paths: &[PathBuf]) -> Result<Document, TextError> {
    read_with(paths, parse, Naming::AsGiven)
}

/// [`read`], each section's file named by its file name alone, so that
/// what is written from it does not depend on where the text lies or how
/// its path was spelled (`reports/` is compared byte for byte).
pub fn read_by_file_name(paths: &[PathBuf]) -> Result<Document, TextError> {
    read_with(paths, parse, Naming::FileName)
}

/// How a section's file is named in what the passes say of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// As named on the command line.
    AsGiven,
    /// By its file name, without the folders.
    FileName,
}

/// Every numbered section of one file (none is an error); a modelled
/// instruction's section without a required block is an error.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<Section>, TextError> {
    let sections = parse_any(file, bytes)?;
    if sections.is_empty() {
        return Err(TextError::at(
            file,
            1,
            "no numbered section (a heading such as `### 9.7.8. Logic and Shift Instructions`)",
        ));
    }
    required_blocks(file, &sections)?;
    Ok(sections)
}

/// Read every path into one document of every numbered section, covered
/// or not.
pub fn read_any(paths: &[PathBuf]) -> Result<Document, TextError> {
    read_with(paths, parse_any, Naming::AsGiven)
}

type Cut = fn(&str, &[u8]) -> Result<Vec<Section>, TextError>;

fn read_with(paths: &[PathBuf], cut: Cut, naming: Naming) -> Result<Document, TextError> {
    let mut files: Vec<PathBuf> = Vec::new();
    for p in paths {
        if p.is_dir() {
            let inside = text_files_under(p)?;
            if inside.is_empty() {
                return Err(TextError {
                    file: p.display().to_string(),
                    line: None,
                    message: "a folder with no .txt or .md file in it or in its folders".into(),
                    io: None,
                });
            }
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    let mut doc = Document::default();
    // A file given twice (by two names, or as two copies) would make every
    // section it renders a second rendering of itself.
    let mut seen: Vec<(&PathBuf, Vec<u8>)> = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| io_error(f, e))?;
        if let Some((other, _)) = seen.iter().find(|(_, b)| *b == bytes) {
            let message = format!("given twice: the same text as {}", other.display());
            return Err(TextError { file: f.display().to_string(), line: None, message, io: None });
        }
        let name = match (naming, f.file_name()) {
            (Naming::FileName, Some(name)) => name.to_string_lossy().into_owned(),
            _ => f.display().to_string(),
        };
        doc.sections.extend(cut(&name, &bytes)?);
        seen.push((f, bytes));
    }
    Ok(doc)
}

/// Every `.txt` and `.md` file in `dir` and in its folders, a chapter per
/// folder (`README.md` aside, hidden folders and linked folders not
/// entered), in the order of their paths.
fn text_files_under(dir: &Path) -> Result<Vec<PathBuf>, TextError> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(|e| io_error(&folder, e))? {
            let entry = entry.map_err(|e| io_error(&folder, e))?;
            let path = entry.path();
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if !hidden {
                    folders.push(path);
                }
            } else if path.is_file()
                && matches!(path.extension().and_then(|x| x.to_str()), Some("txt" | "md"))
                && entry.file_name() != "README.md"
            {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn io_error(path: &Path, e: std::io::Error) -> TextError {
    TextError { file: path.display().to_string(), line: None, message: format!("cannot read: {e}"), io: Some(e.kind()) }
}

pub fn is_fence(text: &str) -> bool {
    text.trim_start().starts_with("```")
}

/// A numbered heading: `### 9.7.8. Title` gives (`9.7.8`, `Title`).
fn heading(text: &str) -> Option<(String, String)> {
    let rest = text.strip_prefix('#')?.trim_start_matches('#');
    let rest = rest.strip_prefix(' ')?.trim_start();
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    let number = rest[..end].trim_end_matches('.');
    if number.is_empty() || !number.contains('.') || number.split('.').any(str::is_empty) {
        return Some((String::new(), plain_title(rest)));
    }
    Some((number.to_string(), plain_title(&rest[end..])))
}

/// A heading without its Markdown: links keep their text, empty links
/// (the permalink) go, code marks go.
pub fn plain_title(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find("](").and_then(|close| after[close..].find(')').map(|end| (close, close + end))) {
            Some((close, end)) => {
                // A link to the heading itself (its permalink icon, which
                // some renderings turn into stray letters) is no title.
                let target = &after[close + 2..end];
                if !STRUCTURE.furniture_links.iter().any(|f| target.contains(f.as_str())) {
                    out.push_str(&after[..close]);
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    // The permalink's icon is a private-use character some renderings keep.
    let out: String = out.chars().filter(|c| !('\u{e000}'..='\u{f8ff}').contains(c) && !c.is_control()).collect();
    out.replace('`', "").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cut one file into every numbered section it renders, whether or not
/// ptxcheck covers it (the passes that need no model read any section).
pub fn parse_any(file: &str, bytes: &[u8]) -> Result<Vec<Section>, TextError> {
    Ok(sections_of(file, decode(file, bytes)?, &|number| !number.is_empty()))
}

/// The text of a file: UTF-8, no NUL byte, not empty.
fn decode<'b>(file: &str, bytes: &'b [u8]) -> Result<&'b str, TextError> {
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        return Err(TextError::at(file, line, "a binary file, not text (a NUL byte)"));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        TextError::at(file, line, "not UTF-8 text")
    })?;
    if text.trim().is_empty() {
        return Err(TextError::at(file, 1, "an empty file"));
    }
    Ok(text)
}

/// The sections of a file whose number `keep` accepts, each cut into its
/// labelled blocks.
fn sections_of(file: &str, text: &str, keep: &dyn Fn(&str) -> bool) -> Vec<Section> {
    let furniture = &STRUCTURE.furniture;
    let mut sections: Vec<Section> = Vec::new();
    let mut current: Option<Section> = None;
    let mut in_code = false;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim_end();
        if !in_code {
            if let Some((num, title)) = heading(line) {
                // The page's own title and the section's heading name the
                // same section: one section.
                if let Some(s) = current.as_mut().filter(|s| s.number == num && s.blocks.is_empty()) {
                    s.title = title;
                    s.line = number;
                    s.intro.clear();
                    continue;
                }
                sections.extend(current.take());
                if keep(&num) {
                    current = Some(Section {
                        number: num,
                        title,
                        file: file.to_string(),
                        line: number,
                        intro: Vec::new(),
                        blocks: Vec::new(),
                    });
                }
                continue;
            }
            if furniture.iter().any(|f| f == line.trim()) {
                continue;
            }
        }
        let fence = is_fence(line);
        let Some(section) = current.as_mut() else {
            if fence {
                in_code = !in_code;
            }
            continue;
        };
        if !in_code && !fence {
            if let Some(rule) = label(line.trim()) {
                section.blocks.push(Block {
                    kind: rule.block,
                    label: line.trim().to_string(),
                    line: number,
                    lines: Vec::new(),
                });
                continue;
            }
        }
        let entry = Line { number, text: line.to_string(), code: in_code || fence };
        if fence {
            in_code = !in_code;
        }
        match section.blocks.last_mut() {
            Some(b) => b.lines.push(entry),
            None => section.intro.push(entry),
        }
    }
    sections.extend(current.take());
    sections
}

/// Every section of an instruction ptxcheck models has each required block.
fn required_blocks(file: &str, sections: &[Section]) -> Result<(), TextError> {
    let instructions = instruction_sections();
    for s in sections {
        if !instructions.contains(&s.number.as_str()) {
            continue;
        }
        for &kind in &STRUCTURE.required {
            if s.block(kind).is_none() {
                return Err(TextError::at(
                    file,
                    s.line,
                    format!("section {} ({}) has no {} block", s.number, s.title, kind.label()),
                ));
            }
        }
    }
    Ok(())
}

/// The label rule a line is, if it is a label.
fn label(text: &str) -> Option<&'static LabelRule> {
    STRUCTURE.labels.iter().find(|r| r.standard == text || r.variants.iter().any(|v| v == text))
}

/// The normalised text of some lines: blank lines dropped (one rendering
/// puts a blank line between every two lines of code), every run of white
/// space one space, fences dropped. Two renderings of one text give the
/// same string.
pub fn normalise<'a>(lines: impl IntoIterator<Item = &'a Line>) -> String {
    lines
        .into_iter()
        .filter(|l| !is_fence(&l.text))
        .map(|l| l.text.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_lose_their_links_and_code_marks() {
        let (n, t) = heading("#### 9.7.8.2. [Logic and Shift Instructions: `or`](#x)[](#x \"Permalink\")").unwrap();
        assert_eq!((n.as_str(), t.as_str()), ("9.7.8.2", "Logic and Shift Instructions: or"));
        assert_eq!(heading("### 9.7.1. Integer Arithmetic Instructions ").unwrap().0, "9.7.1");
        assert_eq!(heading("# Title").unwrap().0, "");
        assert!(heading("not a heading").is_none());
    }

    #[test]
    fn the_structure_table_loads() {
        assert!(!STRUCTURE.labels.is_empty());
        for k in &STRUCTURE.required {
            assert_ne!(k.label(), "?");
        }
    }
}
