//! The Semantics blocks read as code: each block of the document parsed by
//! [`crate::pseudocode`], with the placeholders its section's Syntax
//! defines, and every place where it is not the dialect a malformed-code
//! finding at its line and column.

use super::document::{BlockKind, Document, Section};
use crate::pseudocode::{self, Parsed, SourceLine, Vocabulary};

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
