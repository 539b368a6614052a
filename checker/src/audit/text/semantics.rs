//! The Semantics blocks read as code: each block of the document parsed by
//! [`crate::pseudocode`], with the placeholders its section's Syntax
//! defines, and every place where it is not the dialect a malformed-code
//! finding at its line and column.

use super::document::{BlockKind, Document, Section};
use super::helpers::code_of;
use crate::audit::finding::{Finding, FindingKind, Repair, Severity};
use crate::pseudocode::{self, Diagnostic, Parsed, SourceLine, Vocabulary};

/// One Semantics block of the document, read.
pub struct Read<'d> {
    pub section: &'d Section,
    /// The line of its label.
    pub line: usize,
    pub parsed: Parsed,
}

/// The placeholders a section's Syntax block names (`.CmpOp = { ... }`).
pub fn vocabulary(section: &Section) -> Vocabulary {
    let syntax = section.block(BlockKind::Syntax);
    Vocabulary::of_syntax(syntax.into_iter().flat_map(|b| b.code()).map(|l| l.text.as_str()))
}

/// A line that heads the block with the form it describes (`alloca.type
/// ptr, size, immAlign:`): the instruction's name, its operands and a
/// colon, a caption of the code below, not a statement.
fn names_its_form(section: &Section, text: &str) -> bool {
    let t = code_of(text).trim();
    t.ends_with(':')
        && section.opcodes().iter().any(|op| t.strip_prefix(op).is_some_and(|rest| rest.starts_with(['.', ' '])))
}

/// Every Semantics block of the document, in document order.
pub fn read(doc: &Document) -> Vec<Read<'_>> {
    doc.sections
        .iter()
        .flat_map(|section| {
            let vocabulary = vocabulary(section);
            section.blocks.iter().filter(|b| b.kind == BlockKind::Semantics).map(move |b| {
                let lines: Vec<SourceLine<'_>> = b
                    .code()
                    .filter(|l| !names_its_form(section, &l.text))
                    .map(|l| SourceLine { number: l.number, text: l.text.as_str() })
                    .collect();
                Read { section, line: b.line, parsed: pseudocode::parse(&lines, &vocabulary) }
            })
        })
        .collect()
}

/// The first Semantics block of each section, in document order: a
/// section the text renders twice is read once.
pub fn read_once(doc: &Document) -> Vec<Read<'_>> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for r in read(doc) {
        if !seen.contains(&r.section.number.as_str()) {
            seen.push(&r.section.number);
            out.push(r);
        }
    }
    out
}

/// Every place where a Semantics block is not the dialect, as a
/// malformed-code finding: one per fragment and block (a hyphenated name
/// assigned at two places is one finding), each place named in its detail.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for r in read(doc) {
        let Some(block) = r.section.block(BlockKind::Semantics) else { continue };
        for d in &r.parsed.diagnostics {
            let line = block.lines.iter().find(|l| l.number == d.pos.line).map_or("", |l| l.text.as_str());
            let statement = code_of(line).trim().to_string();
            let id = format!("text-parse-{}-{}", r.section.number, subject(d));
            let place = format!("{}:{}: {}", r.section.file, d.pos, d.message);
            let repair = repair(d, line);
            if let Some(f) = out.iter_mut().find(|f| f.id == id) {
                f.detail.insert(f.detail.len() - 1, place);
                // One edit a line: a second place on a line the edits
                // already touch leaves the finding without a fix.
                match repair {
                    Some(r) if !f.repairs.is_empty() && f.repairs.iter().all(|x| x.line != r.line) => f.repairs.push(r),
                    _ => f.repairs.clear(),
                }
                continue;
            }
            out.push(Finding {
                id,
                section: r.section.number.clone(),
                kind: FindingKind::MalformedCode,
                severity: Severity::Low,
                root_cause: String::new(),
                fragment: statement,
                summary: format!("the Semantics block does not parse: {}", d.message),
                detail: vec![
                    place,
                    "Read by the pseudocode parser (`ptxcheck pseudocode`): the statement is skipped, and the \
                     rest of the block is still read."
                        .into(),
                ],
                model_choice: None,
                witness: None,
                more_witnesses: Vec::new(),
                also_quotes: Vec::new(),
                repairs: repair.into_iter().collect(),
            });
        }
    }
    out
}

/// The smallest edit that makes a statement parse, where it is plain: the
/// missing `;` after its last token, and between two operands of a
/// condition whose other operators are all one (`a && !b(c) !d(e)`) that
/// operator. None where the operator could be either.
fn repair(d: &Diagnostic, text: &str) -> Option<Repair> {
    let at = d.pos.column.checked_sub(1)?;
    let insert = match d.code {
        "no-semicolon" => {
            let end = at + d.fragment.len();
            (text.get(at..end)? == d.fragment).then_some((end, ";".to_string()))?
        }
        "no-operator" => {
            let code = code_of(text);
            let ands = code.matches("&&").count();
            let ors = code.matches("||").count();
            let op = match (ands, ors) {
                (0, 0) => return None,
                (_, 0) => "&&",
                (0, _) => "||",
                _ => return None,
            };
            text.is_char_boundary(at).then(|| (at, format!("{op} ")))?
        }
        _ => return None,
    };
    let (i, what) = insert;
    let old = text.trim_end().to_string();
    let new = format!("{}{what}{}", &text[..i], &text[i..]).trim_end().to_string();
    (i <= old.len()).then_some(Repair { line: d.pos.line, old, new })
}

/// What a diagnostic's finding is named after, so that an edit elsewhere
/// in the block leaves the name alone: what is wrong (`no-colon`), and the
/// name or constant it is at, where it is at one
/// (`hyphenated-name-sum-overflow`). A missing `;` is after whatever ends
/// the statement, which names no defect of its own: the block's missing
/// semicolons are one finding, each place in its detail, whatever an edit
/// of a statement leaves at its end.
fn subject(d: &Diagnostic) -> String {
    let wordlike = d.fragment.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !d.fragment.is_empty() && wordlike && d.code != "no-semicolon" {
        format!("{}-{}", d.code, d.fragment.to_ascii_lowercase().replace('_', "-"))
    } else {
        d.code.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn repairs(semantics: &str) -> Vec<(String, String)> {
        let text = format!(
            "#### 9.7.3.11. Floating Point Instructions: `min`\n\nSyntax\n\n```\nmin.f32 d, a, b;\n```\n\n\
             Semantics\n\n```\n{semantics}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().flat_map(|f| f.repairs).map(|r| (r.old, r.new)).collect()
    }

    #[test]
    fn a_missing_semicolon_and_a_missing_operator_are_written_in() {
        assert_eq!(
            repairs("d = f(a, b)\nif (a) {\n  d = f(d, c)\n}"),
            [("d = f(a, b)".into(), "d = f(a, b);".into()), ("  d = f(d, c)".into(), "  d = f(d, c);".into())]
        );
        assert_eq!(
            repairs("if (.x && !p(c) !q(d)) {\n  d = a;\n}"),
            [("if (.x && !p(c) !q(d)) {".to_string(), "if (.x && !p(c) && !q(d)) {".to_string())]
        );
        // Either operator could be meant: no edit.
        assert!(repairs("if (.x && !p(c) || r !q(d)) {\n  d = a;\n}").is_empty());
    }

    #[test]
    fn a_line_that_names_the_form_heads_the_block() {
        let found = |caption: &str| {
            let text = format!(
                "#### 9.7.3.11. Floating Point Instructions: `min`\n\nSemantics\n\n```\n{caption}\n\nd = a;\n```\n"
            );
            let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
            check(&doc).len()
        };
        // The section's own form, as a caption: no statement. Another
        // instruction's is read, and does not parse.
        assert_eq!(found("min.f32 d, a, b:"), 0);
        assert_eq!(found("max.f32 d, a, b:"), 1);
    }
}
