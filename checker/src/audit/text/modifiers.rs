//! Modifiers the Semantics block never reads. Where a section's Syntax lets
//! an instruction carry a modifier that changes its result (`.sat`, `.ftz`,
//! `.relu`), and its prose says what that modifier does, a Semantics block
//! that never mentions it computes every form as if the modifier were
//! absent: followed as written, `add.sat` wraps where the Notes clamp. One
//! finding per section, naming the modifiers the block leaves out.

use super::document::{BlockKind, Document, Section};
use super::helpers::{code_of, is_ident_char};
use crate::audit::finding::{Finding, FindingKind, Severity};

/// The modifiers that change a result in the normal range, as the Syntax
/// writes them. `.ftz` is not asked for: it changes subnormals only, which
/// the chapters state once for every instruction, as a rule apart from
/// the blocks.
const MODIFIERS: [&str; 6] = [".sat", ".satfinite", ".relu", ".oob", ".NaN", ".xorsign"];

/// Whether `text` writes `word` whole: not as the start of a longer name
/// (`.sat` in `.satfinite`), nor, for a bare name, the end of one.
fn writes(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        // A qualifier may follow its opcode (`add.sat`); a name may not
        // follow another name or a dot.
        let free = word.starts_with('.') || !before.is_some_and(|c| is_ident_char(c) || c == '.');
        free && !after.is_some_and(is_ident_char)
    })
}

/// Whether a block's code reads the modifier: `.sat`, or `sat` as a name
/// (`if (sat)`); `.NaN` only with its dot, as a bare `NaN` is a value.
fn reads(code: &str, modifier: &str) -> bool {
    writes(code, modifier) || (modifier != ".NaN" && writes(code, &modifier[1..]))
}

fn section(s: &Section) -> Vec<Finding> {
    let (Some(syntax), Some(semantics)) = (s.block(BlockKind::Syntax), s.block(BlockKind::Semantics)) else {
        return Vec::new();
    };
    let templates: String =
        syntax.code().map(|l| l.text.split_whitespace().next().unwrap_or_default()).collect::<Vec<_>>().join(" ");
    let code: String = semantics.code().map(|l| code_of(&l.text)).collect::<Vec<_>>().join("\n");
    let prose: Vec<&super::document::Line> = [BlockKind::Description, BlockKind::Notes]
        .iter()
        .filter_map(|k| s.block(*k))
        .flat_map(|b| b.lines.iter().filter(|l| !l.code))
        .collect();
    let mut left: Vec<(&str, String)> = Vec::new();
    for m in MODIFIERS {
        if !writes(&templates, m) || reads(&code, m) {
            continue;
        }
        // The prose must say what it does: a line that writes it.
        if let Some(l) = prose.iter().find(|l| writes(&l.text, m)) {
            left.push((m, format!("{}:{}: \"{}\"", s.file, l.number, l.text.trim())));
        }
    }
    if left.is_empty() {
        return Vec::new();
    }
    let names: Vec<String> = left.iter().map(|(m, _)| format!("`{m}`")).collect();
    let mut detail: Vec<String> = left.iter().map(|(_, at)| at.clone()).collect();
    detail.push(format!(
        "{}:{}: the Semantics block reads none of {}; followed as written, each form computes as if it were absent.",
        s.file,
        semantics.line,
        names.join(", ")
    ));
    let mut f = Finding::of_text(
        format!("text-modifiers-{}", s.number),
        s.number.clone(),
        FindingKind::ProseVsPseudocode,
        left[0].0.to_string(),
        format!(
            "the Syntax allows {} and the prose says what {} does, but the Semantics block never reads {}",
            names.join(", "),
            if names.len() == 1 { "it" } else { "each" },
            if names.len() == 1 { "it" } else { "them" }
        ),
        detail,
    );
    f.severity = Severity::High;
    vec![f]
}

/// Every section whose block leaves out a modifier its prose gives an
/// effect.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(syntax: &str, semantics: &str, notes: &str) -> Vec<String> {
        let text = format!(
            "#### 9.7.4.1. Half Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nSemantics\n\n```\n{semantics}\n```\n\nNotes\n\n{notes}\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().map(|f| f.summary).collect()
    }

    #[test]
    fn a_modifier_the_block_never_reads_is_a_finding() {
        let syntax = "add{.rnd}{.ftz}{.sat}.f16 d, a, b;\nmin{.NaN}.f16 d, a, b;";
        let notes = "`add.sat.f16` clamps the result to [0.0, 1.0].\n\n`.ftz` flushes subnormals. `.NaN` gives NaN.";
        assert_eq!(
            found(syntax, "d = a + b;\nif (isNaN(a)) d = NaN;", notes),
            ["the Syntax allows `.sat`, `.NaN` and the prose says what each does, but the Semantics block never \
              reads them"]
        );
        assert_eq!(
            found(syntax, "d = a + b;\nif (.sat) d = clamp(d);\nif (ftz) d = d;\nif (.NaN) d = NaN;", notes),
            Vec::<String>::new()
        );
        // A modifier the prose never names is not asked for.
        assert!(found("add{.sat}.f16 d, a, b;", "d = a + b;", "Adds.").is_empty());
    }
}
