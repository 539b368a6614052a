//! The wording pass over the document: spelling against a real dictionary
//! (Debian's `wamerican`) and a glossary of PTX terms; structure (labels
//! and headings against what they head, a group's list of instructions
//! against its subsections); and code spans and examples that are
//! malformed (unbalanced brackets, stray punctuation, a missing `;`).
//!
//! Each defect is a [`Finding`]; its id says where it is (`text-spelling-
//! 9.7.8.2-biwise`), so the root-cause table can claim it like any other.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::document::{paragraphs, Block, BlockKind, Content, Document, Line, Section, STRUCTURE};
use crate::audit::claims::section_key;
use crate::audit::finding::{Finding, FindingKind, Repair};

/// Where the dictionary is, unless `PTXCHECK_DICTIONARY` names another
/// word list (one word a line).
pub const DICTIONARY: &str = "/usr/share/dict/american-english";

/// The word list in use: `PTXCHECK_DICTIONARY`, else [`DICTIONARY`].
pub fn dictionary_path() -> PathBuf {
    std::env::var_os("PTXCHECK_DICTIONARY").map_or_else(|| PathBuf::from(DICTIONARY), PathBuf::from)
}

/// The words of a word list, or why there is none.
pub fn load_dictionary(path: &Path) -> Result<HashSet<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!("no dictionary at {} ({e}): spelling not checked (install Debian's `wamerican`)", path.display())
    })?;
    Ok(text.lines().map(|w| w.trim().to_string()).filter(|w| !w.is_empty()).collect())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GlossaryFile {
    terms: Vec<String>,
}

pub const GLOSSARY_FILE: (&str, &str) = ("checker/text/glossary.toml", include_str!("../../../text/glossary.toml"));

/// The PTX terms no dictionary has: the catalogue's opcodes, qualifiers
/// and operand names, the glossary file's terms, and every identifier the
/// document writes in code (its own code spans and blocks).
pub fn glossary(doc: &Document) -> HashSet<String> {
    let file: GlossaryFile =
        toml::from_str(GLOSSARY_FILE.1).unwrap_or_else(|e| panic!("the built-in {}: {e}", GLOSSARY_FILE.0));
    let mut out: HashSet<String> = file.terms.into_iter().collect();
    for v in ptx_spec::Variant::all() {
        for part in v.mnemonic().split('.') {
            out.insert(part.to_string());
        }
        for o in v.operands() {
            out.insert(o.name.to_string());
        }
    }
    for s in &doc.sections {
        // Identifiers of code, not the words of its comments: those are
        // spelled like prose.
        let mut open = false;
        for l in s.all_lines() {
            let code: Vec<String> = if l.code {
                super::units::split_comment(&l.text, &mut open)
                    .into_iter()
                    .filter_map(|(comment, text)| (!comment).then_some(text))
                    .collect()
            } else {
                // A link's text names another part of the document (`[mbarrier
                // instructions](#...)`, `[mbarrier.test_wait](#...)`): its
                // words are the document's, whether or not that part is here.
                let mut named = spans(&l.text);
                named.extend(link_texts(&l.text));
                named
            };
            for c in code {
                for w in c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_')) {
                    if !w.is_empty() {
                        out.insert(w.to_string());
                    }
                }
            }
        }
    }
    out
}

/// The texts of a line's links into the document (`[text](...#anchor)`).
fn link_texts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(close) = rest.find("](") {
        let target = &rest[close + 2..];
        let opened = rest[..close].rfind('[');
        if let (Some(open), true) = (opened, target.split(')').next().is_some_and(|t| t.contains('#'))) {
            out.push(rest[open + 1..close].replace(['`', '*', '\\'], ""));
        }
        rest = target;
    }
    out
}

/// The code spans of a line (text between backticks).
fn spans(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// A line's prose: code spans and link targets removed.
fn prose(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
            out.push(' ');
        }
    }
    // `[text](target)`: the target is no prose.
    let mut cleaned = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find("](") {
        cleaned.push_str(&rest[..at]);
        rest = rest[at..].find(')').map_or("", |end| &rest[at + end + 1..]);
    }
    cleaned.push_str(rest);
    cleaned
}

fn finding(id: String, section: &Section, kind: FindingKind, fragment: String, summary: String, at: &Line) -> Finding {
    let detail = vec![format!("At {}:{}.", section.file, at.number)];
    Finding::of_text(id, section.number.clone(), kind, fragment, summary, detail)
}

/// The word with its first letter in capitals.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The finding with the edit that removes it.
fn repaired(mut f: Finding, line: usize, old: &str, new: &str) -> Finding {
    f.repairs = vec![Repair { line, old: old.to_string(), new: new.to_string() }];
    f
}

/// A word of the text is spelled right if the dictionary has it as
/// written, in lower case, or capitalised, or as the plural or possessive
/// of a word it has, or the glossary has it.
fn known(word: &str, dict: &HashSet<String>, glossary: &HashSet<String>) -> bool {
    let lower = word.to_lowercase();
    let capital = capitalised(&lower);
    let stem = lower.strip_suffix("'s").unwrap_or(&lower);
    let known = |w: &str| dict.contains(w) || glossary.contains(w);
    // A plural the list leaves out (`radians`); the possessive `'s` is the
    // stem above, so that `lsb's` is read as `lsb`, not as a plural.
    // The plural of a term written in capitals (`NaNs` of `NaN`).
    let singular = [lower.strip_suffix("es"), lower.strip_suffix('s'), word.strip_suffix('s')];
    // The past of a verb the list leaves out (`deallocated` of a term).
    let past = [lower.strip_suffix('d').filter(|w| w.ends_with('e')), lower.strip_suffix("ed")];
    // The participle of a verb the list has only in its base
    // (`repurposing` of `repurpose`).
    // A stem that keeps its `e` before `-ing` is no such form (`textureing`
    // is `texturing` misspelled), save `ee`, `ye` and `oe` (`seeing`).
    let kept_e = |w: &str| w.ends_with('e') && !["ee", "ye", "oe"].iter().any(|e| w.ends_with(e));
    let participle = lower.strip_suffix("ing").filter(|w| !kept_e(w)).map(|w| [w.to_string(), format!("{w}e")]);
    // An adverb the list leaves out, of an adjective it has
    // in `-ic` (`deterministically` of `deterministic`).
    let adjective = lower.strip_suffix("ally").filter(|w| w.ends_with("ic"));
    // A verb's base the list leaves out where it has its other forms
    // (`decrement` of `decrements` and `decremented`).
    let inflected = [format!("{lower}s"), format!("{lower}ed")].iter().all(|w| dict.contains(w));
    [word, &lower, &capital, stem].iter().any(|w| known(w))
        || inflected
        || singular.iter().chain(&past).flatten().any(|w| w.len() > 1 && known(w))
        || participle.iter().flatten().any(|w| w.len() > 2 && known(w))
        || adjective.is_some_and(|w| dict.contains(w))
        || american(&lower).iter().any(|w| known(w))
}

/// The American spellings of a British one the dictionary may list
/// (`behaviour` as `behavior`, `normalise` as `normalize`): the document
/// is written in American English, and a British spelling is a variant,
/// not a misspelling.
fn american(lower: &str) -> Vec<String> {
    const ENDINGS: [(&str, &str); 8] = [
        ("our", "or"),
        ("ours", "ors"),
        ("ise", "ize"),
        ("ised", "ized"),
        ("ises", "izes"),
        ("ising", "izing"),
        ("isation", "ization"),
        ("tre", "ter"),
    ];
    let mut out: Vec<String> = ENDINGS
        .iter()
        .filter_map(|(gb, us)| lower.strip_suffix(gb).filter(|stem| stem.len() >= 3).map(|stem| format!("{stem}{us}")))
        .collect();
    // `behaviours` and `behavioural` keep `our` inside the word.
    if let Some(at) = lower.find("our") {
        if at > 2 {
            out.push(format!("{}or{}", &lower[..at], &lower[at + 3..]));
        }
    }
    out
}

/// An abbreviation: two or more capitals and no small letter, with an
/// optional plural or possessive (`CTA`, `SIMD`, `ABI's`). A dictionary
/// cannot judge it, and the document writes many.
fn is_abbreviation(word: &str) -> bool {
    let base = word.strip_suffix("'s").or_else(|| word.strip_suffix('s')).unwrap_or(word);
    base.chars().filter(char::is_ascii_uppercase).count() >= 2 && base.chars().all(|c| c.is_ascii_uppercase())
}

/// A word with its emphasis marks inside it taken out: `*grad*ient` is the
/// word `gradient`, its first letters set in italics.
fn emphasis_joined(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let inside = i > 0 && chars[i - 1].is_alphanumeric() && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
        if !(c == '*' && inside) {
            out.push(c);
        }
    }
    out
}

/// The ordinal of a variable: `ith`, `nth`, `kth` (`the *i*th level`).
fn is_ordinal(word: &str) -> bool {
    let w = word.to_lowercase();
    w.len() == 3 && w.ends_with("th") && w.starts_with(|c: char| c.is_ascii_lowercase())
}

/// A word that no list has, written in at least this many sections, is a
/// term of the document (`Inf`, `LSB`): a misspelling is rarely repeated
/// across sections, a term is.
const TERM_SECTIONS: usize = 3;

/// A word the dictionary lacks, at one line of a section.
struct Unknown<'a> {
    section: &'a Section,
    word: String,
    line: Line,
}

/// Every word of the document that neither the dictionary nor the
/// glossary has, once per section and word, in the document's order.
fn unknown_words<'a>(doc: &'a Document, dict: &HashSet<String>, glossary: &HashSet<String>) -> Vec<Unknown<'a>> {
    let mut out = Vec::new();
    for s in &doc.sections {
        let heading = Line { number: s.line, text: s.title.clone(), code: false };
        // Prose (table cells too), and the comments of code: a Semantics
        // block's and an example's comments are words a reader reads.
        let mut open = false;
        let comments: Vec<Line> = s
            .all_lines()
            .filter(|l| l.code)
            .flat_map(|l| {
                super::units::split_comment(&l.text, &mut open)
                    .into_iter()
                    .filter(|(comment, _)| *comment)
                    .map(|(_, text)| Line { number: l.number, text, code: true })
                    .collect::<Vec<_>>()
            })
            .collect();
        let lines = std::iter::once(&heading).chain(s.all_lines().filter(|l| !l.code)).chain(comments.iter());
        let mut seen = HashSet::new();
        for l in lines {
            let text = emphasis_joined(&prose(&l.text)).replace(['\u{2019}', '\u{2018}'], "'");
            let text = hyphens_joined(&without_qualifiers(&text), dict);
            for raw in text.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
                let word = raw.trim_matches('\'');
                if word.len() < 2
                    || is_ordinal(word)
                    || word.chars().any(char::is_numeric)
                    || is_abbreviation(word)
                    || known(word, dict, glossary)
                    || !seen.insert(word.to_lowercase())
                {
                    continue;
                }
                out.push(Unknown { section: s, word: word.to_string(), line: l.clone() });
            }
        }
    }
    out
}

/// The text without the qualifiers and instruction names written outside
/// code marks (a table's `.acc::prec`, a heading's
/// `tensormap.cp_fenceproxy`): a word run onto a dot, a `::` or a `_` is
/// code, not prose.
fn without_qualifiers(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            let dotted = w.split('.').filter(|p| !p.is_empty()).count() > 1 && w.contains('_');
            let code = w.starts_with('.') && w[1..].starts_with(|c: char| c.is_ascii_alphabetic())
                || w.contains("::")
                || dotted;
            if code {
                ""
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text with a word written with a hyphen after its prefix written
/// whole, where the dictionary has it so (`uni-directional` is
/// `unidirectional`): its prefix alone is no word.
fn hyphens_joined(text: &str, dict: &HashSet<String>) -> String {
    text.split(' ')
        .map(|w| {
            let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
            let whole: String = bare.chars().filter(|c| *c != '-').collect();
            if bare.contains('-') && dict.contains(&whole.to_lowercase()) {
                w.replace(bare, &whole)
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the document writes the word elsewhere, where a form it uses is
/// the same word: hyphenated (`bit-size` for `bitsize`), or in American
/// spelling (`behavior` for `behaviour`).
fn other_spelling(word: &str, doc_words: &HashSet<String>) -> Option<String> {
    let lower = word.to_lowercase();
    let hyphenated = (1..lower.len())
        .filter(|i| lower.is_char_boundary(*i))
        .map(|i| format!("{}-{}", &lower[..i], &lower[i..]))
        .find(|w| doc_words.contains(w));
    hyphenated.or_else(|| {
        let american = lower.replacen("our", "or", 1);
        (american != lower && doc_words.contains(&american)).then_some(american)
    })
}

/// The words of the document's prose, in lower case, hyphenated words
/// whole.
fn document_words(doc: &Document) -> HashSet<String> {
    let mut out = HashSet::new();
    for l in doc.sections.iter().flat_map(Section::all_lines).filter(|l| !l.code) {
        for w in prose(&l.text).split(|c: char| !(c.is_alphanumeric() || c == '-')) {
            out.insert(w.trim_matches('-').to_lowercase());
        }
    }
    out
}

/// Misspelled words: one finding per section and word. A word no list has
/// that the document writes in [`TERM_SECTIONS`] sections or more is one of
/// its terms, not a misspelling.
pub fn spelling(doc: &Document, dict: &HashSet<String>) -> Vec<Finding> {
    let glossary = glossary(doc);
    let unknown = unknown_words(doc, dict, &glossary);
    let mut sections: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for u in &unknown {
        *sections.entry(u.word.to_lowercase()).or_default() += 1;
    }
    let doc_words = document_words(doc);
    let mut out = Vec::new();
    for Unknown { section: s, word, line: l } in unknown {
        if sections[&word.to_lowercase()] >= TERM_SECTIONS {
            continue;
        }
        let id = format!("text-spelling-{}-{}", s.number, word.to_lowercase());
        let context = l.text.split_whitespace().collect::<Vec<_>>();
        let fragment = context
            .iter()
            .position(|w| w.contains(word.as_str()))
            .map(|i| context[i..(i + 2).min(context.len())].join(" "))
            .unwrap_or_else(|| word.clone());
        let near = near_words(&word, dict);
        let written = near.iter().filter(|w| doc_words.contains(*w)).cloned().collect::<Vec<_>>();
        let other = other_spelling(&word, &doc_words).or_else(|| match written.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        });
        let nearest = match near.as_slice() {
            [one] if other.is_none() => Some(one.clone()),
            _ => None,
        };
        let split = (other.is_none() && near.is_empty()).then(|| run_together(&word, dict, &doc_words)).flatten();
        let elsewhere = match (&other, &nearest) {
            (Some(w), _) if near.len() > 1 && near.contains(w) => format!(
                "; of the dictionary words a letter away ({}), the document writes `{w}` elsewhere",
                near.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
            ),
            (Some(w), _) => format!("; the document writes `{w}` elsewhere"),
            (None, Some(w)) => format!("; the one dictionary word a letter away is `{w}`"),
            (None, None) => match &split {
                Some(w) => format!("; it reads as `{w}`, two words the document writes, run together"),
                None => String::new(),
            },
        };
        // The nearest word is named, not written in: a word the dictionary
        // lacks may be a term of the field (`unary` is a letter from
        // `unwary`).
        let summary = format!("`{word}` is in neither the dictionary nor the PTX glossary{elsewhere}");
        let f = finding(id, s, FindingKind::Spelling, fragment, summary, &l);
        out.push(match other {
            // Written as the word was: `Behaviour` becomes `Behavior`.
            Some(w) if word.starts_with(char::is_uppercase) => repaired(f, l.number, &word, &capitalised(&w)),
            Some(w) => repaired(f, l.number, &word, &w),
            None => match split {
                Some(w) => repaired(f, l.number, &word, &w),
                None => f,
            },
        });
    }
    out
}

/// Two words of three letters or more, each in the dictionary and in the
/// document's prose, that the word is when split in one place only
/// (`grad mode` for `gradmode`).
fn run_together(word: &str, dict: &HashSet<String>, doc_words: &HashSet<String>) -> Option<String> {
    if !word.is_ascii() {
        return None;
    }
    let lower = word.to_lowercase();
    let known = |w: &str| dict.contains(w) && doc_words.contains(w);
    let splits: Vec<String> = (3..lower.len().saturating_sub(2))
        .filter(|i| lower.is_char_boundary(*i) && known(&lower[..*i]) && known(&lower[*i..]))
        .map(|i| format!("{} {}", &word[..i], &word[i..]))
        .collect();
    match splits.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The words of the dictionary a letter away from a misspelling of five
/// letters or more, with its first letter, in order (`determined` for
/// `determinted`; `moniker` and `monitor` for `moniter`).
fn near_words(word: &str, dict: &HashSet<String>) -> Vec<String> {
    let lower = word.to_lowercase();
    let Some(first) = lower.chars().next() else { return Vec::new() };
    if lower.chars().count() < 5 {
        return Vec::new();
    }
    let mut near: Vec<String> = dict
        .iter()
        .filter(|w| {
            w.starts_with(first)
                && w.len().abs_diff(lower.len()) <= 1
                && w.chars().all(|c| c.is_ascii_lowercase())
                && (super::directives::distance(w, &lower) == 1 || transposed(w, &lower))
        })
        .cloned()
        .collect();
    near.sort();
    near
}

/// Whether two words differ by two letters side by side in the other order
/// (`instrucitons`, `instructions`): one slip of the fingers, though two
/// edits apart.
pub(super) fn transposed(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let differ: Vec<usize> = (0..a.len().min(b.len())).filter(|&i| a[i] != b[i]).collect();
    a.len() == b.len() && matches!(differ[..], [i, j] if j == i + 1 && a[i] == b[j] && a[j] == b[i])
}

/// Labels and headings against their content, and each group's list of
/// instructions against its subsections.
pub fn structure(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &doc.sections {
        for b in &s.blocks {
            out.extend(label_content(s, b));
        }
        out.extend(heading(doc, s));
    }
    // The groups the table names, and any other whose introduction lists
    // its instructions, each in code (9.7.12's `bra`, `call`, ...).
    let mut groups: Vec<&Section> = STRUCTURE.introductions.iter().filter_map(|g| doc.section(g)).collect();
    for s in doc.first_renderings() {
        let prefix = format!("{}.", s.number);
        let has_subsections = doc.sections.iter().any(|t| t.number.starts_with(&prefix));
        let items = group_list(s);
        let in_code = items.len() > 1
            && items.iter().all(|(l, _)| {
                let t = l.text.trim();
                t.strip_prefix("* ").or_else(|| t.strip_prefix("- ")).is_some_and(|i| i.starts_with('`'))
            });
        if has_subsections && in_code && !groups.iter().any(|g| g.number == s.number) {
            groups.push(s);
        }
    }
    for s in groups {
        out.extend(introduction(doc, s));
    }
    out
}

/// A paragraph of one word without a stop: a heading within a block
/// (`Errata` under `PTX ISA Notes`).
fn is_sub_label(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && !t.contains(char::is_whitespace) && t.chars().all(|c| c.is_alphabetic())
}

fn label_content(s: &Section, b: &Block) -> Vec<Finding> {
    let Some(rule) = STRUCTURE.labels.iter().find(|r| r.block == b.kind) else { return Vec::new() };
    let at = Line { number: b.line, text: b.label.clone(), code: false };
    let key = b.kind.key();
    let mut out = Vec::new();
    let code: Vec<&Line> = b.code().filter(|l| !l.text.trim().is_empty()).collect();
    // A rule stated in words with its code in spans (9.7.12.2's Semantics:
    // "If `{!}p` then instruction") holds code all the same.
    let spanned = b.lines.iter().any(|l| !l.code && l.text.matches('`').count() >= 2);
    if rule.content == Content::Code && code.is_empty() && !spanned {
        out.push(finding(
            format!("text-label-{}-{key}", s.number),
            s,
            FindingKind::Structure,
            b.label.clone(),
            format!("the block labelled `{}` holds no code", b.label),
            &at,
        ));
    }
    if !rule.mentions.is_empty() {
        let paragraphs = b.paragraphs();
        let said = |p: &Vec<&Line>| p.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join(" ").to_lowercase();
        for (i, p) in paragraphs.iter().enumerate() {
            // A lead-in (`Supported on following architectures:`) is read
            // with the list it introduces.
            let mut text = said(p);
            // So is a heading of a word within the block (`Errata`).
            if text.trim_end().ends_with(':') || is_sub_label(&text) {
                text += &paragraphs.get(i + 1).map(said).unwrap_or_default();
            }
            // A paragraph that speaks of an instruction form the paragraph
            // before it names (`mad.f64`, whose rounding modifier that one
            // dates) goes on with what that one says.
            let before = i.checked_sub(1).map(|k| said(&paragraphs[k])).unwrap_or_default();
            let dated = rule.mentions.iter().any(|m| before.contains(&m.to_lowercase()));
            if dated && spans(&text).iter().any(|c| c.contains('.') && spans(&before).contains(c)) {
                continue;
            }
            if !rule.mentions.iter().any(|m| text.contains(&m.to_lowercase())) {
                out.push(finding(
                    format!("text-label-{}-{key}-{}", s.number, p[0].number),
                    s,
                    FindingKind::Structure,
                    shorten(&p[0].text),
                    format!("a paragraph under `{}` names none of: {}", b.label, rule.mentions.join(", ")),
                    p[0],
                ));
            }
        }
    }
    // A variant label (`Example`, singular) over a block of several
    // instructions says less than it heads.
    if b.label != rule.standard && b.kind == BlockKind::Examples {
        let count = instructions(b).len();
        if count > 1 {
            let f = finding(
                format!("text-label-{}-{key}-count", s.number),
                s,
                FindingKind::Structure,
                b.label.clone(),
                format!(
                    "labelled `{}` (one), heads {count} example instructions; the other sections say `{}`",
                    b.label, rule.standard
                ),
                &at,
            );
            out.push(repaired(f, b.line, &b.label, &rule.standard));
        }
    }
    out
}

/// The example instructions of a block: code lines without their comments
/// and guards that are not empty.
fn instructions(b: &Block) -> Vec<(&Line, String)> {
    b.code()
        .filter_map(|l| {
            let text = l.text.split("//").next().unwrap_or("").trim();
            (!text.is_empty()).then(|| (l, text.to_string()))
        })
        .collect()
}

/// A title's words: lower case, hyphens read as spaces.
fn words_of(t: &str) -> Vec<String> {
    t.to_lowercase().replace('-', " ").split_whitespace().map(str::to_string).collect()
}

/// Two titles with the same words, written with other hyphens, spacing or
/// case.
fn same_words(a: &str, b: &str) -> bool {
    words_of(a) == words_of(b)
}

/// The section's heading against its group's title and its Syntax block.
fn heading(doc: &Document, s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some((group, _)) = s.title.rsplit_once(": ") else { return out };
    let at = Line { number: s.line, text: s.title.clone(), code: false };
    if let Some(parent) = s.number.rsplit_once('.').and_then(|(p, _)| doc.section(p)) {
        // "Floating Point" for "Floating-Point" is the same name: hyphens,
        // spacing and case change no word of it. A parent that is itself
        // an instruction of the group (9.7.13.15, `...: mbarrier`, over
        // `...: mbarrier.init`) names the group before its colon.
        let parent_group = parent.title.rsplit_once(": ").map_or(parent.title.as_str(), |(g, _)| g);
        if !same_words(&parent.title, group) && !same_words(parent_group, group) {
            let f = finding(
                format!("text-heading-{}-group", s.number),
                s,
                FindingKind::Structure,
                group.to_string(),
                format!("the heading names the group `{group}`, section {} is `{}`", parent.number, parent.title),
                &at,
            );
            out.push(repaired(f, s.line, group, &parent.title));
        }
    }
    let Some(opcode) = s.opcode() else { return out };
    // The instruction's name, alone in code under the heading.
    if let Some(l) = s.intro.iter().find(|l| !l.code && !l.text.trim().is_empty()) {
        let t = l.text.trim();
        let name = t.strip_prefix('`').and_then(|t| t.strip_suffix('`')).filter(|n| !n.contains('`'));
        if let Some(name) = name.filter(|n| *n != opcode) {
            out.push(finding(
                format!("text-heading-{}-name", s.number),
                s,
                FindingKind::Structure,
                t.to_string(),
                format!("the heading names `{opcode}`, the line under it `{name}`"),
                l,
            ));
        }
    }
    if let Some(b) = s.block(BlockKind::Syntax) {
        // The templates: no comment, and no set of values (`.type = {...}`,
        // ` vop = { vadd, vsub };`), whose names a template's placeholder
        // stands for.
        let is_set = |t: &str| t.split_once('=').is_some_and(|(_, v)| v.trim_start().starts_with('{'));
        let lines: Vec<&str> = b
            .code()
            .map(|l| l.text.trim())
            .filter(|t| !t.starts_with('.') && !t.starts_with("//") && !t.is_empty() && !is_set(t))
            .collect();
        let sets: Vec<(&str, Vec<&str>)> = b
            .code()
            .map(|l| l.text.trim())
            .filter(|t| is_set(t))
            .filter_map(|t| {
                let (name, values) = t.split_once('=')?;
                let values = values.trim().trim_end_matches(';').trim().strip_prefix('{')?.strip_suffix('}')?;
                Some((name.trim(), values.split(',').map(str::trim).collect()))
            })
            .collect();
        // An instruction with no operands ends at its `;` (`exit;`); the
        // grouping braces of 9.7.12.1 are written around what they group.
        let name_of = |t: &&str| match t.split(['.', ' ', '{', ';']).next().unwrap_or("") {
            "" if t.starts_with('{') && t.ends_with('}') => "{}".to_string(),
            name => name.to_string(),
        };
        let mut written: BTreeSet<String> = lines.iter().map(name_of).filter(|n| !n.is_empty()).collect();
        // A placeholder opcode (`vop`) writes every name of its set.
        for (name, values) in &sets {
            if written.remove(*name) {
                written.extend(values.iter().map(|v| v.to_string()));
            }
        }
        // A name with a dot (9.7.2's `add.cc`) is written whole before the
        // line's next qualifier or operands, or its `;` where it has none
        // (`cp.async.bulk.commit_group;`), its braced options aside
        // (`mad{.hi,.lo}.cc.type` writes `mad.cc`).
        let written_whole = |name: &str| {
            lines.iter().any(|t| {
                let plain: String =
                    t.split('{').map(|part| part.split_once('}').map_or(part, |(_, rest)| rest)).collect();
                plain.strip_prefix(name).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', ' ', ';']))
            })
        };
        let unwritten: Vec<&str> =
            s.opcodes().into_iter().filter(|o| !written.contains(*o) && !written_whole(o)).collect();
        if let (false, Some(first)) = (written.is_empty(), unwritten.first()) {
            let named: Vec<String> = unwritten.iter().map(|o| format!("`{o}`")).collect();
            // A dotted name whose every qualifier the lines write, in other
            // places (`match.sync` of `match.any.sync.type`): the lines as
            // written say how.
            let parts: Vec<&str> = first.split('.').collect();
            let spread: Vec<String> = lines
                .iter()
                .filter_map(|t| t.split_whitespace().next())
                .filter(|m| parts.len() > 1 && m.split('.').next() == Some(parts[0]))
                .filter(|m| parts[1..].iter().all(|p| m.split(['.', '{', '}']).any(|q| q == *p)))
                .map(|m| format!("`{m}`"))
                .collect();
            let how = if spread.is_empty() {
                written.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
            } else {
                format!("{}, with its qualifiers in other places", spread.join(", "))
            };
            out.push(finding(
                format!("text-heading-{}-opcode", s.number),
                s,
                FindingKind::Structure,
                first.to_string(),
                format!("the heading names {}, the Syntax block writes {how}", named.join(", ")),
                &at,
            ));
        }
    }
    out
}

/// The sentence that stands before a group's list, whose first item is on
/// line `first`.
fn lead_sentence(s: &Section, first: usize) -> String {
    let before: Vec<&Line> = s.intro.iter().take_while(|l| l.number < first).collect();
    let lead = paragraphs(&before.into_iter().cloned().collect::<Vec<_>>())
        .last()
        .map(|p| p.iter().map(|l| l.text.trim()).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    lead.rsplit(". ").next().unwrap_or(&lead).to_string()
}

/// The items of a group's list of instructions, with their lines.
fn group_list(s: &Section) -> Vec<(&Line, String)> {
    s.intro
        .iter()
        .filter(|l| !l.code)
        .filter_map(|l| {
            let t = l.text.trim();
            let item = t.strip_prefix("* ").or_else(|| t.strip_prefix("- "))?;
            // An item may name several instructions, each in code
            // (9.7.2's `add.cc`, `addc`).
            let spans: Vec<String> = item.split('`').skip(1).step_by(2).map(str::to_string).collect();
            let names = if spans.len() > 1 { spans } else { vec![item.trim().trim_matches('`').to_string()] };
            Some(names.into_iter().map(move |n| (l, n)))
        })
        .flatten()
        .collect()
}

/// Whether a unit of a group's introduction is read by the structure pass:
/// an item of its list of instructions, or the sentence that introduces the
/// list.
pub fn in_group_list(doc: &Document, unit: &super::units::Unit) -> bool {
    let Some(s) = doc.section(&unit.section) else { return false };
    let items = group_list(s);
    let Some(&(first, _)) = items.first() else { return false };
    match unit.kind {
        super::units::UnitKind::ListItem => items.iter().any(|(l, _)| l.number == unit.line),
        super::units::UnitKind::Sentence => {
            super::units::collapse(&lead_sentence(s, first.number)) == unit.text && unit.line < first.number
        }
        _ => false,
    }
}

/// The fix of a list that leaves out an instruction: an item for it, written
/// as the item of the instruction its section follows (`* \`bra\`` then
/// `* \`brx.idx\``), or before the first item where it is the first. As
/// (line, the item's text, the text with the new item).
fn missing_item(items: &[(&Line, String)], defined: &[&str], name: &str) -> Option<(usize, String, String)> {
    let at = defined.iter().position(|d| d == &name)?;
    // The item of the nearest section before, else after, that the list
    // names, on a line of its own or beside others (`prefetch`, `prefetchu`).
    let item = |n: &str| items.iter().find(|(_, i)| i == n);
    let before = defined[..at].iter().rev().find_map(|d| item(d).map(|i| (i, d)));
    let ((line, _), after) = match before {
        Some((i, _)) => (i, true),
        None => (defined[at + 1..].iter().find_map(|d| item(d))?, false),
    };
    // The new item is written as an item of one name is, its indent kept
    // (an item of a nested list).
    let (template, one) = items.iter().find(|(l, _)| l.text.matches('`').count() == 2)?;
    let old = line.text.trim_end().to_string();
    let added = template.text.trim_end().replacen(&format!("`{one}`"), &format!("`{name}`"), 1);
    let new = if after { format!("{old}\n{added}") } else { format!("{added}\n{old}") };
    Some((line.number, old, new))
}

/// A group's introduction: the list of its instructions against its
/// subsections, and the sentence before the list against the group's
/// title.
fn introduction(doc: &Document, s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let items = group_list(s);
    let Some(&(first, _)) = items.first() else { return out };
    let prefix = format!("{}.", s.number);
    let mut subsections: Vec<&Section> = Vec::new();
    for sub in doc.sections.iter().filter(|t| t.number.starts_with(&prefix)) {
        if !subsections.iter().any(|t| t.number == sub.number) && !sub.number[prefix.len()..].contains('.') {
            subsections.push(sub);
        }
    }
    subsections.sort_by_key(|t| section_key(&t.number));
    let listed: Vec<&str> = items.iter().map(|(_, n)| n.as_str()).collect();
    let defined: Vec<&str> = subsections.iter().flat_map(|t| t.opcodes()).collect();
    // A list may name what a group below a subsection defines (9.7.18's
    // `vadd`, of 9.7.18.1.1 under 9.7.18.1).
    let below: Vec<&str> =
        doc.sections.iter().filter(|t| t.number.starts_with(&prefix)).flat_map(|t| t.opcodes()).collect();
    for name in &defined {
        // A section of one form of a listed instruction (9.7.3's
        // `rcp.approx.ftz.f64`, of `rcp`: its qualifiers end in a type) is
        // listed with it; `vote.sync`, of `vote`, is an instruction of its own.
        let form_of = |n: &&str| {
            name.strip_prefix(*n).is_some_and(|rest| {
                rest.starts_with('.')
                    && rest.rsplit('.').next().is_some_and(|q| super::captions::type_word(q).is_some())
            })
        };
        if !listed.contains(name) && !listed.iter().any(form_of) {
            let f = finding(
                format!("text-list-{}-missing-{name}", s.number),
                s,
                FindingKind::Structure,
                format!("`{name}`"),
                format!("section {} defines `{name}`, its list of instructions does not name it", s.number),
                first,
            );
            out.push(match missing_item(&items, &defined, name) {
                Some((line, old, new)) => repaired(f, line, &old, &new),
                None => f,
            });
        }
    }
    let extra: Vec<&(&Line, String)> = items.iter().filter(|(_, n)| !below.contains(&n.as_str())).collect();
    // A list most of whose items the text holds no section for is of a
    // chapter given in part: `partial_lists` says so once, in place of a
    // finding per item.
    let partial = is_partial(extra.len(), items.len());
    for (l, name) in extra.into_iter().filter(|_| !partial) {
        out.push(finding(
            format!("text-list-{}-extra-{name}", s.number),
            s,
            FindingKind::Structure,
            format!("`{name}`"),
            format!("the list of section {} names `{name}`, no subsection defines it", s.number),
            l,
        ));
    }
    // The order: the listed names both sides have, against the sections'.
    let common_listed: Vec<&str> = listed.iter().copied().filter(|n| defined.contains(n)).collect();
    let common_defined: Vec<&str> = defined.iter().copied().filter(|n| listed.contains(n)).collect();
    // A list whose items name several instructions each (9.7.18.2's
    // "`vadd2`, `vadd4`") groups them by operation, not by section.
    let grouped = items.windows(2).any(|p| p[0].0.number == p[1].0.number);
    let first_differs = (0..common_listed.len()).find(|&i| common_listed[i] != common_defined[i]);
    if let (Some(i), false) = (first_differs, grouped) {
        let (said, is) = (common_listed[i], common_defined[i]);
        let line = items.iter().find(|(_, n)| n == said).map_or(first, |(l, _)| *l);
        let sub = subsections.iter().find(|t| t.opcodes().contains(&is)).map_or("?", |t| t.number.as_str());
        out.push(finding(
            format!("text-list-{}-order", s.number),
            s,
            FindingKind::Structure,
            format!("`{said}`, `{is}`"),
            format!("the list puts `{said}` where the sections put `{is}` ({sub})"),
            line,
        ));
    }
    // The sentence that introduces the list names the group by its title:
    // the words it gives the instructions (`The logical shift instructions
    // are:`) are a run of the title's, hyphens and case aside. A shorter
    // name (`The comparison instructions` of Half Precision Comparison) is
    // the same group; one that leaves a word out of the middle
    // (`extended-precision arithmetic` of Extended-Precision Integer
    // Arithmetic) or adds one is another.
    let sentence = lead_sentence(s, first.number);
    let title: Vec<String> = words_of(&s.title);
    let lower = sentence.to_lowercase();
    let named: Vec<String> = lower
        .split_once(" instructions")
        .map(|(before, _)| words_of(before.rsplit_once("the ").map_or(before, |(_, n)| n)))
        .unwrap_or_default()
        .into_iter()
        .filter(|w| !matches!(w.as_str(), "following" | "ptx" | "these" | "this"))
        .collect();
    let run = named.is_empty() || title.windows(named.len()).any(|w| w == named.as_slice());
    if !run {
        out.push(finding(
            format!("text-list-{}-title", s.number),
            s,
            FindingKind::Structure,
            shorten(&sentence),
            format!("the list is introduced as `{}`, the section is `{}`", shorten(&sentence), s.title),
            first,
        ));
    }
    out
}

/// Whether a list of `items` instructions, `extra` of them with no section
/// in the text, is of a chapter given in part: most of a list of some
/// length (a short list that names one instruction too many is a finding).
fn is_partial(extra: usize, items: usize) -> bool {
    items >= 4 && extra * 2 > items
}

/// The groups whose list of instructions names more instructions that the
/// text holds no section for than it names with one: the text is part of
/// the chapter. Each with the count of its list's items the text has no
/// section for, and the list's length.
pub fn partial_groups(doc: &Document) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for s in doc.first_renderings() {
        let items = group_list(s);
        let prefix = format!("{}.", s.number);
        let below: Vec<&str> =
            doc.sections.iter().filter(|t| t.number.starts_with(&prefix)).flat_map(|t| t.opcodes()).collect();
        let extra = items.iter().filter(|(_, n)| !below.contains(&n.as_str())).count();
        if is_partial(extra, items.len()) {
            out.push((s.number.clone(), extra, items.len()));
        }
    }
    out
}

/// [`partial_groups`], one line each for the output's header: such a
/// list is not checked for items no subsection defines.
pub fn partial_lists(doc: &Document) -> Vec<String> {
    partial_groups(doc)
        .into_iter()
        .map(|(group, extra, items)| {
            format!(
                "{group}'s list names {extra} of its {items} instructions with no section in the text: read as part \
                 of the chapter, the list is not checked for instructions no subsection defines"
            )
        })
        .collect()
}

/// Bit slices written two ways in one section: the Semantics block's
/// `t<63..32>` and an example comment's `(r4*r6).[63:32]` (9.7.2.6). A
/// reader must guess that the two mean the same bits.
fn slice_notation(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &doc.sections {
        let (Some(semantics), Some(examples)) = (s.block(BlockKind::Semantics), s.block(BlockKind::Examples)) else {
            continue;
        };
        let in_block = semantics.code().find_map(|l| angle_slice(&l.text));
        let in_comment =
            examples.code().find_map(|l| l.text.split_once("//").and_then(|(_, c)| colon_slice(c)).map(|x| (l, x)));
        if let (Some(block), Some((line, comment))) = (in_block, in_comment) {
            out.push(finding(
                format!("text-notation-{}-slices", s.number),
                s,
                FindingKind::Structure,
                comment.clone(),
                format!(
                    "the Semantics block writes a bit slice as `{block}`, the examples' comments as `{comment}`: two \
                     notations for one thing, neither defined"
                ),
                line,
            ));
        }
    }
    out
}

/// The first `t<hi..lo>` slice of a line, as written.
fn angle_slice(text: &str) -> Option<String> {
    let start = text.find('<')?;
    let end = start + text[start..].find('>')?;
    let inner = &text[start + 1..end];
    let (hi, lo) = inner.split_once("..")?;
    let bound = |b: &str| !b.is_empty() && b.chars().all(|c| c.is_ascii_alphanumeric() || "+-*".contains(c));
    let name = text[..start].rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    (bound(hi) && bound(lo)).then(|| text[name..=end].to_string())
}

/// The first `[hi:lo]` slice of a comment, numbers on both sides.
fn colon_slice(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(start) = rest.find('[') {
        let after = &rest[start + 1..];
        if let Some(end) = after.find(']') {
            if let Some((hi, lo)) = after[..end].split_once(':') {
                let number = |b: &str| !b.is_empty() && b.chars().all(|c| c.is_ascii_digit());
                if number(hi.trim()) && number(lo.trim()) {
                    return Some(format!("[{}]", &after[..end]));
                }
            }
        }
        rest = after;
    }
    None
}

fn shorten(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() <= 60 {
        t.to_string()
    } else {
        format!("{}...", t.chars().take(57).collect::<String>())
    }
}

/// Brackets of a text that do not pair up: the first one that is unmatched.
fn unbalanced(text: &str) -> Option<char> {
    let mut stack: Vec<char> = Vec::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if stack.pop() != Some(open) {
                    return Some(c);
                }
            }
            _ => {}
        }
    }
    stack.pop()
}

/// The fix of a block that leaves one `{` open to its end (a function's
/// body cut short with `...`): a line after the last that closes it,
/// indented as the line that opens it. As (the last line, its text, the
/// text with the new line). None where any other bracket does not pair.
fn closed_at_end(code: &[&Line]) -> Option<(usize, String, String)> {
    let mut open: Vec<(char, usize)> = Vec::new();
    for (i, l) in code.iter().enumerate() {
        for c in l.text.split("//").next().unwrap_or("").chars() {
            match c {
                '(' | '[' | '{' => open.push((c, i)),
                ')' | ']' | '}' => {
                    let want = match c {
                        ')' => '(',
                        ']' => '[',
                        _ => '{',
                    };
                    if open.pop().map(|(o, _)| o) != Some(want) {
                        return None;
                    }
                }
                _ => {}
            }
        }
    }
    let [('{', at)] = open[..] else { return None };
    let indent: String = code[at].text.chars().take_while(|c| c.is_whitespace()).collect();
    let last = code.iter().rev().find(|l| !l.text.trim().is_empty())?;
    let old = last.text.trim_end().to_string();
    Some((last.number, old.clone(), format!("{old}\n{indent}}}")))
}

/// A Syntax template whose mnemonic writes a qualifier with no name: a dot
/// before a closing brace (`{.abs.}`) or two dots in a row. No form can
/// write it, so the line's forms are not what its examples write
/// (`.min.abs.NaN.f32`); the fix drops the stray dot.
fn empty_qualifier(s: &Section, l: &Line, text: &str) -> Option<Finding> {
    let mnemonic = text.split_whitespace().next().filter(|m| !m.contains("..."))?;
    let stray = [".}", ".."].into_iter().find(|p| mnemonic.contains(p))?;
    let mended = mnemonic.replacen(stray, &stray[1..], 1);
    let f = finding(
        format!("text-code-{}-syntax-empty-qualifier-{}", s.number, l.number),
        s,
        FindingKind::MalformedCode,
        mnemonic.to_string(),
        format!("the Syntax line `{mnemonic}` writes a qualifier with no name (`{stray}`): no form can write it"),
        l,
    );
    Some(repaired(f, l.number, mnemonic, &mended))
}

/// A set's values written without their dot (`const` in `{ const, .global
/// }`), where the set's other values have theirs: the example writes
/// `.const`, and read as written the set holds a value no form can write.
/// A line the set runs on over (`within`) is read the same, its values
/// after its indent (txq's `.addr_mode_0, addr_mode_1, addr_mode_2 };`).
/// The fix writes the dots.
fn undotted_value(s: &Section, l: &Line, within: bool) -> Option<Finding> {
    let code = l.text.split("//").next().unwrap_or_default();
    let first = if within {
        code.len() - code.trim_start().len()
    } else if super::defaults::opens_definition(code) {
        code.find('{')? + 1
    } else {
        return None;
    };
    let mut at = first;
    let mut items: Vec<(usize, &str)> = Vec::new();
    for item in code[first..].split([',', '}']) {
        let trimmed = item.trim_start();
        items.push((at + item.len() - trimmed.len(), trimmed.trim_end()));
        at += item.len() + 1;
    }
    // A value inside braces of its own is a sub-qualifier's
    // (`.async.shared::{cta, cluster}`), written without a dot.
    let nested = |at: usize| code[first..at].matches('{').count() > code[first..at].matches('}').count();
    items.retain(|(at, _)| !nested(*at));
    let dotted = items.iter().filter(|(_, v)| v.starts_with('.')).count();
    // `none` is the absence of a qualifier (`.vec = { none, .v2, .v4 }`),
    // no value that lost its dot.
    let bare: Vec<(usize, &str)> = items
        .iter()
        .copied()
        .filter(|(_, v)| {
            v.starts_with(|c: char| c.is_ascii_alphabetic())
                && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && *v != "none"
        })
        .collect();
    // A line the set runs on over has the set's other values on lines of
    // their own: one dotted value on it shows the convention.
    if bare.is_empty() || dotted < if within { 1 } else { 2 } {
        return None;
    }
    let (start, value) = bare[0];
    let end = bare.last().map_or(start, |(at, v)| at + v.len());
    let mut mended = code[start..end].to_string();
    for (at, _) in bare.iter().rev() {
        mended.insert(at - start, '.');
    }
    let values: Vec<String> = bare.iter().map(|(_, v)| format!("`{v}`")).collect();
    let (them, their) = if bare.len() == 1 { ("value", "its dot") } else { ("values", "their dots") };
    let mut f = finding(
        format!("text-code-{}-syntax-undotted-{value}", s.number),
        s,
        FindingKind::MalformedCode,
        value.to_string(),
        format!(
            "the Syntax writes the {them} {} without {their}, where the set's other values have theirs",
            super::and_list(&values)
        ),
        l,
    );
    f.repairs = vec![Repair::at(l.number, &l.text, start, end, &mended)];
    Some(f)
}

/// A line of a Syntax block in words: two plain words in a row
/// (`.asel defaults to .h10`), which no template writes.
fn is_note(text: &str) -> bool {
    let plain = |w: &str| w.len() > 1 && w.chars().all(|c| c.is_ascii_lowercase());
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).any(|p| plain(p[0]) && plain(p[1]))
}

/// A Syntax line that defines a qualifier set, `.name = { ... }`, or the
/// values of an operand, `cp-size = { 4, 8, 16 }`: neither is a statement.
fn is_definition(text: &str) -> bool {
    let operand = text.split_once('{').and_then(|(head, _)| head.trim_end().strip_suffix('=')).is_some_and(|name| {
        let name = name.trim();
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c))
    });
    (super::defaults::opens_definition(text) || operand) && text.trim_end().ends_with('}')
}

/// Whether a code line is a statement that PTX ends with `;`. Not a
/// label alone (`L1:`), a brace that opens or closes a block (`{`, `}`, a
/// header's `... {`), a block written on one line (`{ instructionList }`),
/// an elision (`...`, a definition whose body is elided), a header whose
/// body's `{` opens the next line (`.func dispatch (.reg .u32 fptr)`), or
/// a line an operand list runs on from (`,`, `(`).
fn is_statement(text: &str, next: Option<&str>) -> bool {
    let t = text.trim();
    // A label, its colon spaced or not (`loopStart :`).
    let label = t
        .strip_suffix(':')
        .map(str::trim_end)
        .is_some_and(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%')));
    let block = t.starts_with('{') && t.ends_with('}');
    let opens = t.ends_with('{') || t.starts_with('}');
    let header = next.is_some_and(|n| n.trim_start().starts_with('{'));
    // A line of dots alone (`..`) elides code, as `...` does.
    let elision = !t.is_empty() && t.chars().all(|c| c == '.');
    !(label || block || opens || header || elision || t.ends_with("...") || t.ends_with([',', '(']))
}

/// A half-open interval in the notation of mathematics: `[a, a + size)`,
/// `(0.0, 1.0]`, whose brackets pair once the closing one is read as the
/// one that opens it.
fn half_open(span: &str) -> bool {
    let closed = match (span.chars().next(), span.chars().last()) {
        (Some('['), Some(')')) => format!("{}]", &span[..span.len() - 1]),
        (Some('('), Some(']')) => format!("{})", &span[..span.len() - 1]),
        _ => return false,
    };
    unbalanced(&closed).is_none()
}

/// Malformed code: example and syntax lines without their `;`, brackets
/// that do not pair in a code span or a code block, a code span left open,
/// and code spans that begin or end with punctuation that is not code.
pub fn code(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &doc.sections {
        for b in &s.blocks {
            if matches!(b.kind, BlockKind::Examples | BlockKind::Syntax) {
                let lines = instructions(b);
                // A Syntax block that ends none of its forms with `;` writes
                // them as templates: its convention, not a slip per line.
                let templates =
                    b.kind == BlockKind::Syntax && !lines.iter().any(|(_, t)| t.ends_with(';') && !is_definition(t));
                // The lines of a set written over several lines, from its
                // `= {` to its `}`.
                let mut in_set = false;
                for (n, (l, text)) in lines.iter().enumerate() {
                    let (l, text) = (*l, text.clone());
                    let was_in_set = in_set;
                    if b.kind == BlockKind::Syntax {
                        if super::defaults::opens_definition(&text) && !text.contains('}') {
                            in_set = true;
                        } else if text.contains('}') {
                            in_set = false;
                        }
                    }
                    // A set's definition (`.type = { .f16, .f16x2 }`) is
                    // grammar, not an instruction: its `;` is typography;
                    // so are the lines a set runs on over, and a note in
                    // words (`.asel defaults to .h10`).
                    let definition =
                        b.kind == BlockKind::Syntax && (is_definition(&text) || was_in_set || in_set || is_note(&text));
                    let next = lines.get(n + 1).map(|(_, t)| t.as_str());
                    // A mnemonic alone whose operands the next line, indented
                    // under it, writes and ends.
                    let continued = !text.contains(char::is_whitespace)
                        && lines.get(n + 1).is_some_and(|(l, _)| l.text.starts_with(char::is_whitespace));
                    if !(templates || definition || continued || text.ends_with(';') || !is_statement(&text, next)) {
                        let f = finding(
                            format!("text-code-{}-{}-terminator-{}", s.number, b.kind.key(), n + 1),
                            s,
                            FindingKind::MalformedCode,
                            shorten(&text),
                            format!("the {} line `{}` does not end with `;`", b.kind.label(), shorten(&text)),
                            l,
                        );
                        out.push(repaired(f, l.number, &text, &format!("{text};")));
                    }
                    if b.kind == BlockKind::Syntax {
                        let unnamed = (!definition).then(|| empty_qualifier(s, l, &text));
                        out.extend(undotted_value(s, l, was_in_set).into_iter().chain(unnamed.flatten()));
                    }
                }
            }
            let code: Vec<&Line> = b.code().collect();
            if !code.is_empty() {
                let text: String =
                    code.iter().map(|l| l.text.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
                if let Some(c) = unbalanced(&text) {
                    let f = finding(
                        format!("text-code-{}-{}-brackets", s.number, b.kind.key()),
                        s,
                        FindingKind::MalformedCode,
                        c.to_string(),
                        format!("the code of the {} block has an unmatched `{c}`", b.kind.label()),
                        code[0],
                    );
                    out.push(match closed_at_end(&code) {
                        Some((line, old, new)) => repaired(f, line, &old, &new),
                        None => f,
                    });
                }
            }
        }
        out.extend(bare_operands(s));
        out.extend(spans_of(s));
    }
    out
}

/// The code spans of a section's prose: one opened and never closed, one
/// whose brackets do not pair, one with punctuation at its edge.
fn spans_of(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in paragraphs(&s.all_lines().cloned().collect::<Vec<_>>()) {
        let ticks: usize = p.iter().map(|l| l.text.matches('`').count()).sum();
        if ticks % 2 == 1 {
            let l = p.iter().find(|l| l.text.contains('`')).unwrap_or(&p[0]);
            out.push(finding(
                format!("text-code-{}-span-open-{}", s.number, l.number),
                s,
                FindingKind::MalformedCode,
                shorten(&l.text),
                "a code span is opened and never closed".to_string(),
                l,
            ));
        }
        // A code span may run onto the next line of its paragraph.
        let joined = p.iter().map(|l| l.text.trim()).collect::<Vec<_>>().join(" ");
        if ticks.is_multiple_of(2) {
            for span in spans(&joined) {
                let l = p.iter().copied().find(|l| l.text.contains(span.as_str())).unwrap_or(p[0]);
                let bad_bracket = unbalanced(&span).filter(|_| !half_open(&span));
                // Code never ends in a full stop: one there is the
                // sentence's, inside the marks.
                // An ellipsis elides the rest of a name (`.mbarrier::...`).
                let stray = span.starts_with([',', ';', ' '])
                    || span.ends_with([',', ' '])
                    || (span.len() > 1 && span.ends_with('.') && !span.ends_with("..."));
                if bad_bracket.is_some() || stray {
                    let slug: String = span.chars().filter(|c| c.is_alphanumeric()).take(20).collect();
                    let mut f = finding(
                        format!("text-code-{}-span-{}", s.number, slug.to_lowercase()),
                        s,
                        FindingKind::MalformedCode,
                        format!("`{span}`"),
                        match bad_bracket {
                            Some(c) => format!("the code span `{span}` has an unmatched `{c}`"),
                            None => format!("the code span `{span}` holds punctuation or space at its edge"),
                        },
                        l,
                    );
                    // The fix takes the punctuation out of the marks.
                    let quoted = format!("`{span}`");
                    if bad_bracket.is_none() && l.text.contains(&quoted) {
                        let inner = span.trim_start_matches([',', ';', ' ']);
                        let lead = &span[..span.len() - inner.len()];
                        let inner = inner.trim_end_matches([',', ' ', '.']);
                        let tail = &span[lead.len() + inner.len()..];
                        let new = format!("{}`{inner}`{}", lead.trim(), tail.trim());
                        f.repairs = vec![Repair { line: l.number, old: quoted, new }];
                    } else if let Some(inner) = closed_inside(&span).filter(|_| l.text.contains(&quoted)) {
                        // A closing bracket of the sentence's inside the
                        // marks (`1` (`True)`): the marks end before it.
                        let new = format!("`{inner}`{}", &span[inner.len()..]);
                        f.repairs = vec![Repair { line: l.number, old: quoted, new }];
                    }
                    out.push(f);
                }
            }
        }
    }
    out
}

/// A span that ends in closing brackets (and a stop) of the sentence
/// around it: the span without them, where that is balanced code.
fn closed_inside(span: &str) -> Option<&str> {
    let mut inner = span;
    while unbalanced(inner).is_some_and(|_| !half_open(inner)) || inner.ends_with(['.', ',']) {
        inner = inner.strip_suffix([')', ']', '}', '.', ','])?;
    }
    (!inner.trim().is_empty() && inner.len() < span.len()).then_some(inner)
}

/// The words after which the document names an operand, which it marks
/// as code everywhere else (`operand \`b\``).
const OPERAND_WORDS: [&str; 4] = ["operand", "operands", "input", "inputs"];

/// An operand of the section's instruction named in prose without its code
/// marks, after "operand" or "input".
fn bare_operands(s: &Section) -> Vec<Finding> {
    let names: BTreeSet<&str> = ptx_spec::Variant::all()
        .iter()
        .filter(|v| v.section() == s.number)
        .flat_map(|v| v.operands().into_iter().map(|o| o.name))
        .collect();
    let mut out = Vec::new();
    for l in s.all_lines().filter(|l| !l.code) {
        let text = prose(&l.text);
        let words: Vec<&str> = text.split_whitespace().collect();
        for pair in words.windows(2) {
            let name = pair[1].trim_end_matches(['.', ',', ';', ':']);
            if OPERAND_WORDS.contains(&pair[0].to_lowercase().as_str()) && names.contains(name) {
                out.push(finding(
                    format!("text-code-{}-bare-operand-{}-{name}", s.number, pair[0].to_lowercase()),
                    s,
                    FindingKind::MalformedCode,
                    format!("{} {name}", pair[0]),
                    format!("the operand `{name}` is named as plain text (`{} {name}`), not as code", pair[0]),
                    l,
                ));
            }
        }
    }
    out
}

/// The edit that sets each span of a line in code marks: one edit from
/// the first span's start to the last one's end. The spans are in order
/// and do not overlap.
pub(super) fn in_code_marks(l: &Line, spans: &[(usize, usize)]) -> Repair {
    let (first, last) = (spans[0].0, spans[spans.len() - 1].1);
    let mut mended = l.text[first..last].to_string();
    for (start, end) in spans.iter().rev() {
        mended.insert(end - first, '`');
        mended.insert(start - first, '`');
    }
    Repair::at(l.number, &l.text, first, last, &mended)
}

/// A finding's id with no line number, so that an edit elsewhere keeps
/// it: the first of a section's lines takes the id, a later one `-2`,
/// `-3`.
fn nth_id(seen: &mut HashSet<String>, id: String) -> String {
    let mut n = 1;
    let mut out = id.clone();
    while !seen.insert(out.clone()) {
        n += 1;
        out = format!("{id}-{n}");
    }
    out
}

/// The dotted words the document writes in code, in its blocks or its
/// code spans: `.surfref`, `.u64`, `.shared::cta`.
fn dotted_code_words(doc: &Document) -> HashSet<String> {
    let mut out = HashSet::new();
    for s in &doc.sections {
        for l in s.all_lines() {
            let code = if l.code { l.text.clone() } else { super::retyped::spans(&l.text).join(" ") };
            for part in code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '.')) {
                for (k, piece) in part.split('.').enumerate() {
                    if k > 0 && piece.starts_with(|c: char| c.is_ascii_alphabetic()) {
                        out.insert(format!(".{piece}"));
                    }
                }
            }
        }
    }
    out
}

/// A qualifier or directive written in prose without code marks (`Operand
/// `a` is a .surfref variable`), where the document writes it in code: a
/// word that begins with a dot after a space. One finding per line; the
/// fix sets each in code.
fn bare_qualifiers(doc: &Document) -> Vec<Finding> {
    let known = dotted_code_words(doc);
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for s in &doc.sections {
        // A line of the word alone is a term its list defines (`.sat`, then
        // `:   limits result ...`), set as the rendering sets terms.
        for l in s.all_lines().filter(|l| !l.code && l.text.split_whitespace().nth(1).is_some()) {
            let plain = super::punctuation::prose_only(&l.text);
            let bytes = plain.as_bytes();
            let mut hits: Vec<(usize, usize)> = Vec::new();
            for (at, _) in plain.match_indices('.') {
                let opens = at == 0 || matches!(bytes[at - 1], b' ' | b'(' | b'/');
                let len = plain[at + 1..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(plain.len() - at - 1);
                let word = plain[at..at + 1 + len].trim_end_matches(':');
                if opens
                    && word.len() > 2
                    && word[1..].starts_with(|c: char| c.is_ascii_alphabetic())
                    && known.contains(word)
                {
                    hits.push((at, at + word.len()));
                }
            }
            let Some(&(first, end)) = hits.first() else { continue };
            let word = &l.text[first..end];
            let mut f = finding(
                nth_id(
                    &mut seen,
                    format!(
                        "text-code-{}-bare-{}",
                        s.number,
                        word.trim_start_matches('.').replace("::", "-").to_lowercase()
                    ),
                ),
                s,
                FindingKind::Grammar,
                word.to_string(),
                format!("`{word}` is written in prose without code marks, where the document writes it in code"),
                l,
            );
            f.repairs = vec![in_code_marks(l, &hits)];
            out.push(f);
        }
    }
    out
}

/// An instruction's name written in prose outside code marks (`istypep
/// requires`, `by using atom.exch`), where the document sets every
/// instruction in code. Only names no dictionary has are read: `and`,
/// `min` or `set` written plain are as likely English words. One finding
/// per line; the fix sets each name in code.
fn bare_instructions(doc: &Document, dict: &HashSet<String>) -> Vec<Finding> {
    let mut names: Vec<&str> = doc.sections.iter().flat_map(|s| s.opcodes()).collect();
    names.retain(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_'));
    // Every instruction, English words among them: one joined by `and` or
    // `or` to a name found is an instruction too (`mul and add`).
    let every = names.clone();
    // The first word of a dotted name is the instruction (`cp.async` in
    // `cp.async.bulk`); a dictionary word (`cp` is none, `set` is one)
    // written plain may be English.
    let unenglish = |n: &str| {
        let head = n.split('.').next().unwrap_or(n);
        !dict.contains(head) && !dict.contains(&head.to_lowercase()) && head.len() > 2
    };
    names.retain(|n| unenglish(n));
    names.sort();
    names.dedup();
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for s in &doc.sections {
        for l in s.all_lines().filter(|l| !l.code) {
            let plain = super::punctuation::prose_only(&l.text);
            let mut hits: Vec<(usize, &str)> = Vec::new();
            for word in plain.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == ':')) {
                let start = word.as_ptr() as usize - plain.as_ptr() as usize;
                let word = word.trim_end_matches(['.', ':']);
                // A function of the notation (`sqrt(a)`), not the instruction.
                if plain[start + word.len()..].starts_with('(') {
                    continue;
                }
                // The word, or the word with qualifiers after it.
                let named = names
                    .iter()
                    .any(|n| word == *n || word.strip_prefix(n).is_some_and(|r| r.starts_with('.') && r.len() > 1));
                if named {
                    hits.push((start, word));
                }
            }
            // The instruction joined to one found: `separate mul and add
            // instructions`.
            let words: Vec<(usize, &str)> = plain
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(|w| (w.as_ptr() as usize - plain.as_ptr() as usize, w))
                .collect();
            for k in 0..words.len().saturating_sub(2) {
                let joined = ["and", "or"].contains(&words[k + 1].1) && every.contains(&words[k + 2].1);
                let found = |at: usize| hits.iter().any(|(h, _)| *h == at);
                if joined && found(words[k].0) && !found(words[k + 2].0) {
                    hits.push(words[k + 2]);
                }
            }
            hits.sort();
            let Some(&(_, word)) = hits.first() else { continue };
            let mut f = finding(
                nth_id(&mut seen, format!("text-code-{}-bare-{}", s.number, word.to_lowercase())),
                s,
                FindingKind::Grammar,
                word.to_string(),
                format!("the instruction `{word}` is written in prose without code marks, where the document sets instructions in code"),
                l,
            );
            let spans: Vec<(usize, usize)> = hits.iter().map(|(at, w)| (*at, at + w.len())).collect();
            f.repairs = vec![in_code_marks(l, &spans)];
            out.push(f);
        }
    }
    out
}

/// Every wording finding of the document, each once (a section rendered
/// twice gives its defects once), and a note where spelling was skipped.
pub fn check(doc: &Document, dictionary: Result<&HashSet<String>, &str>) -> (Vec<Finding>, Option<String>) {
    let mut all = Vec::new();
    let note = match dictionary {
        Ok(dict) => {
            all.extend(spelling(doc, dict));
            all.extend(bare_instructions(doc, dict));
            all.extend(bare_qualifiers(doc));
            None
        }
        Err(why) => Some(why.to_string()),
    };
    all.extend(structure(doc));
    all.extend(code(doc));
    all.extend(slice_notation(doc));
    let mut seen: HashSet<String> = HashSet::new();
    all.retain(|f| seen.insert(f.id.clone()));
    (all, note)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::super::document::{parse_any, Document};
    use super::{angle_slice, colon_slice, spelling};

    /// A document of sections whose descriptions are the given sentences.
    fn doc(descriptions: &[&str]) -> Document {
        let text: String = descriptions
            .iter()
            .enumerate()
            .map(|(i, d)| {
                format!("#### 9.7.1.{}. Integer Arithmetic Instructions: `add`\n\nDescription\n\n{d}\n\n", i + 1)
            })
            .collect();
        Document { sections: parse_any("made.md", text.as_bytes()).unwrap() }
    }

    /// The heading's instruction against its Syntax: one with no operands
    /// (`exit;`) and the grouping braces (`{ instructionList }`) write the
    /// name the heading gives; another name is a finding.
    #[test]
    fn the_heading_names_what_the_syntax_writes() {
        let found = |name: &str, syntax: &str| {
            let text = format!(
                "#### 9.7.12.7. Control Flow Instructions: `{name}`\n\n`{name}`\n\nEnd.\n\nSyntax\n\n```\n{syntax}\n```\n"
            );
            let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
            super::heading(&doc, &doc.sections[0]).into_iter().map(|f| f.summary).collect::<Vec<_>>()
        };
        assert!(found("exit", "exit;").is_empty());
        assert!(found("{}", "{ instructionList }").is_empty());
        assert!(found("ret", "ret{.uni};").is_empty());
        assert_eq!(found("trap", "brkpt;"), ["the heading names `trap`, the Syntax block writes `brkpt`"]);
        // A heading of several instructions, which the Syntax writes as a
        // placeholder with its set, under a comment.
        let video = "// the scalar form\nvop.dtype d, a;\n vop = { vadd, vsub };\n.dtype = { .u32 };";
        assert!(found("vadd`, `vsub", video).is_empty());
        assert_eq!(found("vadd`, `vmin", video), ["the heading names `vmin`, the Syntax block writes `vadd`, `vsub`"]);
    }

    /// A group's list may name the instructions of the sections below its
    /// subsections, and of a section that defines several.
    #[test]
    fn a_list_names_what_any_section_below_defines() {
        let text = "### 9.7.18. Video Instructions\n\nThe video instructions are:\n\n* `vadd`, `vadd2`\n* `vmad`\n\n\
                    #### 9.7.18.1. Scalar Video Instructions\n\nThe scalar ones.\n\n\
                    ##### 9.7.18.1.1. Scalar Video Instructions: vadd, vsub\n\n`vadd`, `vsub`\n\nAdd.\n\n\
                    ##### 9.7.18.1.2. Scalar Video Instructions: vmad\n\n`vmad`\n\nMad.\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found: Vec<String> = super::introduction(&doc, &doc.sections[0]).into_iter().map(|f| f.summary).collect();
        assert_eq!(found, ["the list of section 9.7.18 names `vadd2`, no subsection defines it"]);
    }

    /// A heading's group against its chapter's title: another word is a
    /// finding, another hyphen is not.
    #[test]
    fn the_heading_names_its_chapter() {
        let found = |chapter: &str, group: &str| {
            let text = format!("### 9.7.4. {chapter}\n\nIntro.\n\n#### 9.7.4.1. {group}: `add`\n\n`add`\n\nEnd.\n");
            let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
            super::heading(&doc, &doc.sections[1]).into_iter().map(|f| f.summary).collect::<Vec<_>>()
        };
        assert!(found("Half Precision Floating-Point Instructions", "Half Precision Floating Point Instructions")
            .is_empty());
        assert_eq!(
            found("Extended-Precision Integer Arithmetic Instructions", "Extended-Precision Arithmetic Instructions"),
            ["the heading names the group `Extended-Precision Arithmetic Instructions`, section 9.7.4 is \
                 `Extended-Precision Integer Arithmetic Instructions`"]
        );
        // A parent that is an instruction of the group names the group
        // before its colon.
        assert!(found("Parallel Synchronization Instructions: mbarrier", "Parallel Synchronization Instructions")
            .is_empty());
        assert_eq!(found("Sync Instructions: mbarrier", "Parallel Instructions").len(), 1);
    }

    /// A Syntax or example line without its `;` is a finding; a line that
    /// defines a qualifier set is grammar and needs none.
    /// A heading's name the Syntax never writes; where the lines write its
    /// every qualifier in other places, the summary shows them as written.
    #[test]
    fn a_heading_name_the_syntax_does_not_write_is_found() {
        let summary = |name: &str, syntax: &str| {
            let text = format!(
                "#### 9.7.13.10. Parallel Synchronization and Communication Instructions: `{name}`\n\n\
                 `{name}`\n\nMatch.\n\nSyntax\n\n```\n{syntax}\n```\n"
            );
            let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
            super::structure(&doc).into_iter().find(|f| f.id.ends_with("-opcode")).map(|f| f.summary)
        };
        assert_eq!(
            summary("match.sync", "match.any.sync.type d, a, m;\nmatch.all.sync.type d[|p], a, m;").as_deref(),
            Some(
                "the heading names `match.sync`, the Syntax block writes `match.any.sync.type`, \
                 `match.all.sync.type`, with its qualifiers in other places"
            )
        );
        assert_eq!(
            summary("vote", "bar.sync.b32 d, a;").as_deref(),
            Some("the heading names `vote`, the Syntax block writes `bar`")
        );
        assert_eq!(summary("vote.sync", "vote.sync.mode.pred d, a, m;"), None);
        // A name with no operands, written whole before its `;`.
        assert_eq!(summary("cp.async.bulk.commit_group", "cp.async.bulk.commit_group;"), None);
    }

    #[test]
    fn a_syntax_qualifier_with_no_name_is_malformed() {
        let text = "#### 9.7.13.12. Parallel Synchronization and Communication Instructions: `redux.sync`\n\n\
                    `redux.sync`\n\nReduce.\n\nSyntax\n\n```\nredux.sync.op{.abs.}{.NaN}.f32 dst, src, m;\n\
                    redux.sync.op.b32 dst, src, m;\n.op = { .min, .max }\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found: Vec<(String, String, String)> = super::code(&doc)
            .into_iter()
            .flat_map(|f| f.repairs.into_iter().map(move |r| (f.id.clone(), r.old, r.new)))
            .collect();
        assert_eq!(
            found,
            [(
                "text-code-9.7.13.12-syntax-empty-qualifier-10".to_string(),
                "redux.sync.op{.abs.}{.NaN}.f32".to_string(),
                "redux.sync.op{.abs}{.NaN}.f32".to_string()
            )]
        );
    }

    #[test]
    fn a_set_value_without_its_dot_is_malformed() {
        let found = |set: &str| -> Vec<(String, String)> {
            let text = format!(
                "#### 9.7.9.19. Data Movement and Conversion Instructions: `isspacep`\n\n`isspacep`\n\nQuery.\n\n\
                 Syntax\n\n```\nisspacep.space p, a;\n{set}\n```\n"
            );
            let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
            super::code(&doc).into_iter().flat_map(|f| f.repairs).map(|r| (r.old, r.new)).collect()
        };
        assert_eq!(
            found(".space = { const, .global, .shared{::cta, ::cluster} };"),
            [("const".to_string(), ".const".to_string())]
        );
        // A set of plain words throughout, or one value with its dot: none.
        assert!(found(".mode = { up, down };").is_empty());
        // Sub-qualifiers in braces of their own are written without dots.
        assert!(found(".proxykind = { .alias, .async, .async.global, .async.shared::{cta, cluster} };").is_empty());
        assert!(found(".space = { const, .global };").is_empty());
        // A line the set runs on over: every value without its dot, in one
        // edit.
        assert_eq!(
            found(".squery = { .force_unnormalized_coords, .filter_mode,\n           .addr_mode_0, addr_mode_1, addr_mode_2 };"),
            [("addr_mode_1, addr_mode_2".to_string(), ".addr_mode_1, .addr_mode_2".to_string())]
        );
    }

    #[test]
    fn a_qualifier_written_in_prose_without_code_marks_is_found() {
        let text = "#### 9.7.11.2. Surface Instructions: `sust`\n\n`sust`\n\nStore.\n\nSyntax\n\n```\n\
                    sust.b.2d.clamp [a, b], c;\n.clamp = { .trap, .zero };\n```\n\nDescription\n\nOperand `a` \
                    is a .surfref variable or `.u64` register, and .trap traps.\n\n.zero\n:   stores nothing.\n\n\
                    Stores `.surfref` and the .surface. It ends. Then .other.\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found: Vec<(String, String)> =
            super::bare_qualifiers(&doc).into_iter().flat_map(|f| f.repairs).map(|r| (r.old, r.new)).collect();
        assert_eq!(
            found,
            [(
                ".surfref variable or `.u64` register, and .trap".to_string(),
                "`.surfref` variable or `.u64` register, and `.trap`".to_string()
            )]
        );
    }

    #[test]
    fn an_instruction_written_in_prose_without_code_marks_is_found() {
        let text = "#### 9.7.10.6. Texture Instructions: `istypep`\n\n`istypep`\n\nQuery.\n\nTarget ISA Notes\n\n\
                    istypep requires `sm_30` or higher, as `istypep` does’; or use istypep.texref and min, or istypep(a); or istypep and min.\n\n\
                    #### 9.7.1.10. Integer Arithmetic Instructions: `min`\n\n`min`\n\nMinimum.\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let dict: HashSet<String> =
            ["requires", "or", "higher", "as", "does", "use", "and", "min"].iter().map(|w| w.to_string()).collect();
        let found: Vec<(String, String)> =
            super::bare_instructions(&doc, &dict).into_iter().flat_map(|f| f.repairs).map(|r| (r.old, r.new)).collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.starts_with("`istypep` requires"), "{found:?}");
        assert!(found[0].1.ends_with("or `istypep` and `min`"), "{found:?}");
    }

    #[test]
    fn an_instruction_line_ends_with_its_terminator() {
        let text = "#### 9.7.4.9. Half Precision Floating Point Instructions: `tanh`\n\n`tanh`\n\nSyntax\n\n```\n\
                    tanh.approx.type d, a;\n.type = { .f16, .f16x2 }\ntanh.approx.f16 e, b\ncp-size = { 4, 8 }\n```\n\n\
                    Examples\n\n```\ntanh.approx.f16 h1, h0\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let ids: Vec<String> = super::code(&doc).into_iter().map(|f| f.id).collect();
        assert_eq!(ids, ["text-code-9.7.4.9-syntax-terminator-3", "text-code-9.7.4.9-examples-terminator-1"]);
        // A Syntax block that ends none of its forms with `;`, and a
        // mnemonic whose operands the next line writes, indented.
        let templates = text
            .replace("tanh.approx.type d, a;", "tanh.approx.type\n    d, a")
            .replace("Examples\n\n```\ntanh.approx.f16 h1, h0", "Examples\n\n```\ntanh.approx.f16 h1, h0;");
        let doc = Document { sections: parse_any("made.md", templates.as_bytes()).unwrap() };
        assert!(super::code(&doc).is_empty(), "{:?}", super::code(&doc));
        // Labels, braces, elisions, a header before its body's `{` and a
        // block on one line are no statements; a guarded instruction is.
        let program = "#### 9.7.12.4. Control Flow Instructions: `brx.idx`\n\n`brx.idx`\n\nSyntax\n\n```\n\
                       { instructionList }\n```\n\nExamples\n\n```\n.func foo () {\n    ...\nL1 :\n    bra L1;\n}\n\
                       .func (.reg .u32 rv) bar (.reg .u32 a) ...\n.func dispatch (.reg .u32 fptr)\n{\n\
                       @!p div.f32 ratio,x,y\n@q bra L23;\n}\n```\n";
        let doc = Document { sections: parse_any("made.md", program.as_bytes()).unwrap() };
        let ids: Vec<String> = super::code(&doc).into_iter().map(|f| f.id).collect();
        assert_eq!(ids, ["text-code-9.7.12.4-examples-terminator-9"]);
        // A mnemonic whose operands the next line, indented, writes; a
        // half-open interval in a code span.
        let continued =
            "#### 9.7.9.18. Data Movement and Conversion Instructions: `createpolicy`\n\n`createpolicy`\n\n\
                         Syntax\n\n```\ncreatepolicy.range.b64\n      cache-policy, [a];\n```\n\nDescription\n\n\
                         The range `[a, a + size)` and `(0.0, 1.0]` and `[a, b))`.\n";
        let doc = Document { sections: parse_any("made.md", continued.as_bytes()).unwrap() };
        let summaries: Vec<String> = super::code(&doc).into_iter().map(|f| f.summary).collect();
        assert_eq!(summaries, ["the code span `[a, b))` has an unmatched `)`"]);
    }

    #[test]
    fn a_paragraph_under_the_version_notes_names_a_version_or_goes_on_with_one_that_does() {
        let notes = |paragraphs: &str| {
            let text = format!(
                "#### 9.7.3.7. Floating-Point Instructions: `mad`\n\n`mad`\n\nPTX ISA Notes\n\n{paragraphs}\n\n\
                 Target ISA Notes\n\nAll targets.\n"
            );
            let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
            let found = super::structure(&doc);
            found.into_iter().filter(|f| f.id.contains("ptx-isa-notes")).map(|f| f.fragment).collect::<Vec<_>>()
        };
        // A paragraph on the form the one before dates, and a heading of
        // one word over a paragraph that names a version, are read with them.
        let kept = "In PTX ISA versions 1.4 and later, a rounding modifier is required for `mad.f64`.\n\n\
                    Legacy `mad.f64` instructions map to `mad.rn.f64`.\n\nErrata\n\n\
                    For PTX ISA version 3.1, ptxas warns.";
        assert!(notes(kept).is_empty(), "{:?}", notes(kept));
        // A paragraph that names no version and goes on with none is found.
        let stray = "Introduced in PTX ISA version 1.0.\n\nLegacy `mad.f64` instructions map to `mad.rn.f64`.";
        assert_eq!(notes(stray), ["Legacy `mad.f64` instructions map to `mad.rn.f64`."]);
    }

    #[test]
    fn a_body_left_open_at_the_end_is_closed_by_its_fix() {
        let text = "#### 9.7.12.5. Control Flow Instructions: `call`\n\n`call`\n\nExamples\n\n```\n\
                    .func dispatch (.reg .u32 fptr)\n  {\n      call %fptr, (x, y), Fproto;\n...\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found: Vec<_> = super::code(&doc).into_iter().filter(|f| f.id.ends_with("brackets")).collect();
        assert_eq!(found.len(), 1);
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("...", "...\n  }")]);
        // A `}` with no `{` is no body cut short: no fix.
        let text = text.replace("  {\n", "  }\n");
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found: Vec<_> = super::code(&doc).into_iter().filter(|f| f.id.ends_with("brackets")).collect();
        assert!(found[0].repairs.is_empty());
    }

    /// The words each spelling finding names, with its section.
    fn misspelled(descriptions: &[&str]) -> Vec<(String, String)> {
        let dict: HashSet<String> = [
            "integer",
            "arithmetic",
            "instructions",
            "add",
            "the",
            "sum",
            "is",
            "a",
            "behavior",
            "bit",
            "size",
            "radian",
            "unidirectional",
            "decrements",
            "decremented",
            "repurpose",
        ]
        .iter()
        .map(|w| w.to_string())
        .collect();
        let found = spelling(&doc(descriptions), &dict);
        found.iter().map(|f| (f.section.clone(), f.summary.split('`').nth(1).unwrap_or("").to_string())).collect()
    }

    #[test]
    fn any_group_that_lists_its_instructions_in_code_is_read() {
        let section = |n: &str, name: &str| {
            format!("#### {n}. Control Flow Instructions: `{name}`\n\n`{name}`\n\nBranch.\n\nSyntax\n\n```\n{name} tgt;\n```\n\n")
        };
        let text = "#### 9.7.12. Control Flow Instructions\n\nThe following PTX instructions are available:\n\n\
                    * `bra`\n* `call`\n\n"
            .to_string()
            + &section("9.7.12.1", "bra")
            + &section("9.7.12.2", "brx.idx")
            + &section("9.7.12.3", "call");
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found: Vec<crate::audit::finding::Finding> =
            super::structure(&doc).into_iter().filter(|f| f.id.starts_with("text-list")).collect();
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["text-list-9.7.12-missing-brx.idx"]);
        // The fix adds its item after the item of the section before it.
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("* `bra`", "* `bra`\n* `brx.idx`")]);
        // A section of one form (its qualifiers end in a type) is listed
        // with its instruction; an instruction named after another is not.
        let text = "#### 9.7.12. Control Flow Instructions\n\nThe following PTX instructions are available:\n\n\
                    * `vote`\n* `rcp`\n\n"
            .to_string()
            + &section("9.7.12.1", "vote")
            + &section("9.7.12.2", "vote.sync")
            + &section("9.7.12.3", "rcp")
            + &section("9.7.12.4", "rcp.approx.ftz.f64");
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let ids: Vec<String> =
            super::structure(&doc).into_iter().filter(|f| f.id.starts_with("text-list")).map(|f| f.id).collect();
        assert_eq!(ids, ["text-list-9.7.12-missing-vote.sync"]);
    }

    #[test]
    fn british_spellings_are_variants() {
        let dict: HashSet<String> =
            ["behavior", "behavioral", "normalize", "center", "color", "for"].iter().map(|w| w.to_string()).collect();
        let none = HashSet::new();
        for w in ["behaviour", "Behaviour", "behavioural", "normalise", "centre", "colour"] {
            assert!(super::known(w, &dict, &none), "{w}");
        }
        assert!(!super::known("moniter", &dict, &none) && !super::known("four", &dict, &none));
    }

    /// The plural of a term in capitals and the adverb of a listed
    /// adjective are words; a misspelt stem is not.
    #[test]
    fn plurals_of_terms_and_adverbs_of_adjectives_are_words() {
        let dict: HashSet<String> = ["deterministic", "strict", "part"].iter().map(|w| w.to_string()).collect();
        let glossary: HashSet<String> = ["NaN", "deallocate"].iter().map(|w| w.to_string()).collect();
        for w in ["NaNs", "deterministically", "deallocated"] {
            assert!(super::known(w, &dict, &glossary), "{w}");
        }
        for w in ["determinsitically", "NaNss", "ly", "strictly", "truely", "partally"] {
            assert!(!super::known(w, &dict, &glossary), "{w}");
        }
    }

    #[test]
    fn abbreviations_plurals_and_terms_of_the_document_are_not_misspellings() {
        // `CTA` and `SIMD's` are abbreviations, `radians` the plural of a
        // word the list has; `Frob` is written in three sections.
        let found = misspelled(&["the CTA sum is Frob radians", "the SIMD's sum is Frob", "the sum is Frob"]);
        assert_eq!(found, Vec::<(String, String)>::new());
        // Written in two sections only, `Frob` is a misspelling in each.
        let found = misspelled(&["the sum is Frob", "the sum is Frob", "the sum is a bit"]);
        assert_eq!(found, [("9.7.1.1".into(), "Frob".into()), ("9.7.1.2".into(), "Frob".into())]);
        // A link's text into the document names a part of it: its words
        // are terms, in the link and out of it.
        let found = misspelled(&["the sum is [Frob sum](#frob)", "the Frob sum", "the [Grob](https://x.y/z) sum"]);
        assert_eq!(found, [("9.7.1.3".into(), "Grob".into())]);
        // A prefix before its hyphen where the list writes the word whole,
        // a verb's base where the list has its other forms, a qualifier
        // written outside code marks: none is a misspelling. A prefix the
        // list does not join is.
        let found = misspelled(&[
            "the uni-directional sum",
            "the Decrement sum",
            "the .acc::prec sum tensormap.cp_fenceproxy",
            "a uni-sum",
            "a repurposing sum",
            "a textureing sum",
        ]);
        assert_eq!(found, [("9.7.1.4".into(), "uni".into()), ("9.7.1.6".into(), "textureing".into())]);
    }

    #[test]
    fn a_misspelling_a_letter_from_one_word_names_it() {
        let dict: HashSet<String> = ["determined", "monitor", "moniker"].iter().map(|w| w.to_string()).collect();
        assert_eq!(super::near_words("determinted", &dict), ["determined"]);
        assert_eq!(super::near_words("moniter", &dict), ["moniker", "monitor"]);
        assert_eq!(super::near_words("Determinted", &dict), ["determined"]);
        // Two letters side by side in the other order are one slip.
        let dict: HashSet<String> = ["instructions"].iter().map(|w| w.to_string()).collect();
        assert_eq!(super::near_words("instrucitons", &dict), ["instructions"]);
        assert!(super::near_words("instrcuitons", &dict).is_empty());
        // Of two, the one the document writes elsewhere is its spelling,
        // and the fix writes it.
        let d = doc(&["the moniter is", "the monitor is"]);
        let dict: HashSet<String> = ["the", "is", "monitor", "moniker", "integer", "arithmetic", "instructions"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let found = spelling(&d, &dict);
        assert_eq!(
            found[0].summary,
            "`moniter` is in neither the dictionary nor the PTX glossary; of the dictionary words a letter away \
             (`moniker`, `monitor`), the document writes `monitor` elsewhere"
        );
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("moniter", "monitor")]);
    }

    #[test]
    fn a_misspelling_names_the_documents_own_spelling_of_the_word() {
        let dict: HashSet<String> =
            ["the", "is", "a", "type", "bit", "size", "behavior"].iter().map(|w| w.to_string()).collect();
        let d = doc(&["the bitsize is a type", "the behaviour is a bit-size type", "the behavior is"]);
        let summaries: Vec<String> = spelling(&d, &dict).into_iter().map(|f| f.summary).collect();
        assert_eq!(
            summaries,
            ["`bitsize` is in neither the dictionary nor the PTX glossary; the document writes `bit-size` elsewhere",]
        );
        // `behaviour` beside `behavior` is a British variant, which no
        // reader misreads: no finding (`american`).
        // Two words the document writes, run together, split where only
        // one split gives two (`grad mode`; `gr admode` has no words).
        let dict: HashSet<String> =
            ["in", "the", "grad", "mode", "base", "is", "at"].iter().map(|w| w.to_string()).collect();
        let d = doc(&["in base mode, the mode is", "in gradmode, the grad is", "the basement is at"]);
        let found = spelling(&d, &dict);
        let said: Vec<(&str, Vec<(&str, &str)>)> = found
            .iter()
            .map(|f| (f.summary.as_str(), f.repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect()))
            .collect();
        assert_eq!(
            said,
            [
                (
                    "`gradmode` is in neither the dictionary nor the PTX glossary; it reads as `grad mode`, two \
                     words the document writes, run together",
                    vec![("gradmode", "grad mode")]
                ),
                ("`basement` is in neither the dictionary nor the PTX glossary", vec![])
            ]
        );
    }

    #[test]
    fn slices_are_found_in_either_notation() {
        assert_eq!(angle_slice("d = t<63..32> + c + CC.CF;").as_deref(), Some("t<63..32>"));
        assert_eq!(angle_slice("d = t<2n-1..n> + c;").as_deref(), Some("t<2n-1..n>"));
        assert_eq!(angle_slice("if (a < b) d = a;"), None);
        assert_eq!(colon_slice(" r1=(r4*r6).[63:32], no carry-out").as_deref(), Some("[63:32]"));
        assert_eq!(colon_slice(" d[i] = a[i]"), None);
        assert_eq!(colon_slice(" a[0:15] then [x:y]").as_deref(), Some("[0:15]"));
    }

    #[test]
    fn the_fix_of_a_stray_mark_takes_it_out_of_the_code_span() {
        let d = doc(&[
            "Compiles with `.target map_f64_to_f32.` and more.",
            "Uses ` x` and `y,` here.",
            "Either `1` (`True)` or `0` (`False).` Then (`(a)`, `b(`).",
        ]);
        let fixes: Vec<(String, String)> =
            super::code(&d).into_iter().flat_map(|f| f.repairs).map(|r| (r.old, r.new)).collect();
        assert_eq!(
            fixes,
            [
                ("`.target map_f64_to_f32.`".to_string(), "`.target map_f64_to_f32`.".to_string()),
                ("` x`".to_string(), "`x`".to_string()),
                ("`y,`".to_string(), "`y`,".to_string()),
                // A bracket of the sentence's: the marks end before it. One
                // that opens inside has no such fix.
                ("`True)`".to_string(), "`True`)".to_string()),
                ("`False).`".to_string(), "`False`).".to_string()),
            ]
        );
    }
}
