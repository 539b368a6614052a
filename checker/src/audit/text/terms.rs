//! Terms written two ways: a name the document sets in code (`laneid`) and
//! writes elsewhere in prose as two words that join to it ("lane id"). A
//! reader cannot tell whether "lane id" is the register `%laneid` reads or
//! something else, and a search for the term misses the other spelling.
//! One finding per section that writes the two words; the fix writes the
//! name as the document's code does.

use std::collections::{BTreeMap, BTreeSet};

use super::document::{BlockKind, Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// A name shorter than this is too often an operand or a mnemonic that
/// joins two common words by chance (`addc`: "add c").
const SHORTEST: usize = 6;

/// The names the document writes in code in its prose: lower-case words of
/// letters only, and not an instruction's (`copysign`, whose section says
/// "Copy sign of one input", a verb and its object).
fn code_names(doc: &Document) -> BTreeMap<String, String> {
    // Instructions: those the sections are of, and those any line of code
    // writes (a chapter read in part names instructions it has no section
    // of: `activemask`).
    let mut opcodes: BTreeSet<&str> = doc.sections.iter().flat_map(|s| s.opcodes()).collect();
    for s in &doc.sections {
        for l in
            s.blocks.iter().filter(|b| matches!(b.kind, BlockKind::Syntax | BlockKind::Examples)).flat_map(|b| b.code())
        {
            let body = crate::ptx::parse::without_guard(l.text.trim());
            opcodes.extend(body.split(['.', ' ', ';']).next().filter(|w| !w.is_empty()));
        }
    }
    let mut out = BTreeMap::new();
    for s in &doc.sections {
        for l in s.all_lines().filter(|l| !l.code) {
            for span in l.text.split('`').skip(1).step_by(2) {
                let name = span.trim_start_matches('%');
                if name.len() >= SHORTEST && name.chars().all(|c| c.is_ascii_lowercase()) && !opcodes.contains(name) {
                    // The name as the code writes it (`%laneid`), for the fix.
                    out.entry(name.to_string()).or_insert_with(|| span.to_string());
                }
            }
        }
    }
    out
}

/// The first place of a line's prose, outside code spans, where two words
/// in a row join to `name`: the two words' byte range in the line.
fn split_at(l: &Line, name: &str) -> Option<(usize, usize)> {
    for plain in l.text.split('`').step_by(2) {
        // `plain` is a piece of the line: its offset in it.
        let base = plain.as_ptr() as usize - l.text.as_ptr() as usize;
        let words: Vec<(usize, &str)> = plain
            .split_inclusive(|c: char| !c.is_ascii_alphabetic())
            .scan(0, |at, w| {
                let start = *at;
                *at += w.len();
                Some((start, w.trim_end_matches(|c: char| !c.is_ascii_alphabetic())))
            })
            .filter(|(_, w)| !w.is_empty())
            .collect();
        for pair in words.windows(2) {
            let ((a_at, a), (b_at, b)) = (pair[0], pair[1]);
            let between = &plain[a_at + a.len()..b_at];
            let joined = format!("{a}{b}").to_lowercase();
            if between == " " && a.len() >= 2 && b.len() >= 2 && joined == name {
                return Some((base + a_at, base + b_at + b.len()));
            }
        }
    }
    None
}

fn section(s: &Section, names: &BTreeMap<String, String>) -> Vec<Finding> {
    let mut out = Vec::new();
    for name in names.keys() {
        let Some((l, (start, end))) = s.all_lines().filter(|l| !l.code).find_map(|l| split_at(l, name).map(|w| (l, w)))
        else {
            continue;
        };
        let words = &l.text[start..end];
        let mut f = Finding::of_text(
            format!("text-terms-{}-{name}", s.number),
            s.number.clone(),
            FindingKind::Name,
            words.to_string(),
            format!("the document writes `{name}` in code and as two words, \"{}\"", words.to_lowercase()),
            vec![format!("At {}:{}.", s.file, l.number)],
        );
        f.repairs = vec![Repair::at(l.number, &l.text, start, end, &format!("`{}`", names[name]))];
        out.push(f);
    }
    out
}

/// Every section that writes a code name of the document as two words.
pub fn check(doc: &Document) -> Vec<Finding> {
    let names = code_names(doc);
    super::each_section(doc, |s| section(s, &names))
}

#[cfg(test)]
mod tests {
    use super::super::document::{parse_any, Document};
    use super::check;

    fn found(first: &str, second: &str) -> Vec<(String, String, String)> {
        let text = format!(
            "#### 9.7.13.9. Parallel Synchronization and Communication Instructions: `vote.sync`\n\n\
             Description\n\n{first}\n\n#### 9.7.13.10. Parallel Synchronization and Communication \
             Instructions: `copysign`\n\nDescription\n\n{second}\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().flat_map(|f| f.repairs.into_iter().map(move |r| (f.id.clone(), r.old, r.new))).collect()
    }

    #[test]
    fn a_code_name_written_as_two_words_is_a_finding() {
        assert_eq!(
            found("The bit position is the thread's `laneid`.", "It copies the bit at the thread's lane id."),
            [("text-terms-9.7.13.10-laneid".to_string(), "lane id".to_string(), "`laneid`".to_string())]
        );
        // Words that join to a short name, or two words split by a comma,
        // or a name written only in code: none.
        assert!(found("It reads `addc` and `laneid`.", "Then add c, lane, id.").is_empty());
        assert!(found("It reads `laneid`.", "It reads `laneid` too.").is_empty());
        // The edit mends the two words, not a word they begin.
        assert_eq!(
            found("It reads `%warpid`.", "The warp identifier is not the warp id."),
            [("text-terms-9.7.13.10-warpid".to_string(), "the warp id".to_string(), "the `%warpid`".to_string())]
        );
        // An instruction's name is a verb and its object in prose.
        assert!(found("It reads `copysign`.", "Copy sign of one input.").is_empty());
    }

    #[test]
    fn an_instruction_only_code_writes_is_no_term() {
        // `activemask` has no section here, but an example writes it.
        let text = "#### 9.7.13.9. Parallel Synchronization and Communication Instructions: `vote.sync`\n\n\
                    Description\n\nIt reads `activemask`, the active mask.\n\nExamples\n\n```\n\
                    activemask.b32 %r1;\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        assert!(check(&doc).is_empty());
    }
}
