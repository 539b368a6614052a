//! The Semantics blocks read as code: each block of the document parsed by
//! [`crate::pseudocode`], with the placeholders its section's Syntax
//! defines, and every place where it is not the dialect a malformed-code
//! finding at its line and column.

use super::document::{BlockKind, Document, Section};
use super::helpers::code_of;
use crate::audit::finding::{Finding, FindingKind, Severity};
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

/// Every Semantics block of the document, in document order.
pub fn read(doc: &Document) -> Vec<Read<'_>> {
    doc.sections
        .iter()
        .flat_map(|section| {
            let vocabulary = vocabulary(section);
            section.blocks.iter().filter(|b| b.kind == BlockKind::Semantics).map(move |b| {
                let lines: Vec<SourceLine<'_>> =
                    b.code().map(|l| SourceLine { number: l.number, text: l.text.as_str() }).collect();
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
            if let Some(f) = out.iter_mut().find(|f| f.id == id) {
                f.detail.insert(f.detail.len() - 1, place);
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
                repairs: Vec::new(),
            });
        }
    }
    out
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
