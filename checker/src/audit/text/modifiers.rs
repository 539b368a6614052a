//! Modifiers the Semantics block never reads. Where a section's Syntax lets
//! an instruction carry a modifier that changes its result (`.sat`, `.ftz`,
//! `.relu`), and its prose says what that modifier does, a Semantics block
//! that never mentions it computes every form as if the modifier were
//! absent: followed as written, `add.sat` wraps where the Notes clamp. One
//! finding per section, naming the modifiers the block leaves out.
//!
//! An operand may carry a modifier too: `{!}c` lets a form write `!c`. A
//! block that never negates `c`, in a section whose prose never writes
//! `!c`, computes the form with `!c` as the form with `c`.

use super::document::{BlockKind, Document, Section};
use super::helpers::{code_of, is_ident_char};
use crate::audit::finding::{Finding, FindingKind, Repair, Severity};

/// The modifiers that change a result in the normal range, as the Syntax
/// writes them: a rounding mode (`.rnd`, whose prose names its values) picks
/// the result of an inexact operation. `.ftz` is not asked for: it changes
/// subnormals only, which the chapters state once for every instruction, as
/// a rule apart from the blocks.
const MODIFIERS: [&str; 7] = [".sat", ".satfinite", ".relu", ".oob", ".NaN", ".xorsign", ".rnd"];

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
    let grammar = super::defaults::grammar(s);
    // A sentence that says what the block leaves to the prose (`the
    // Semantics block shows the result without `.sat``) answers for it.
    let scoped = |m: &str| prose.iter().any(|l| l.text.contains(SCOPE) && writes(&l.text, m));
    let mut left: Vec<(&str, String)> = Vec::new();
    for m in MODIFIERS {
        if !writes(&templates, m) || reads(&code, m) || scoped(m) {
            continue;
        }
        // The prose must say what it does: a line that writes it, or one of
        // its values for a set (`.rn` of `.rnd`).
        let values = grammar.as_ref().and_then(|g| g.sets.get(m)).cloned().unwrap_or_default();
        if let Some(l) = prose.iter().find(|l| writes(&l.text, m) || values.iter().any(|v| writes(&l.text, v))) {
            left.push((m, format!("{}:{}: \"{}\"", s.file, l.number, l.text.trim())));
        }
    }
    if left.is_empty() {
        return Vec::new();
    }
    let names: Vec<String> = left.iter().map(|(m, _)| format!("`{m}`")).collect();
    let listed = super::and_list(&names);
    let mut detail: Vec<String> = left.iter().map(|(_, at)| at.clone()).collect();
    detail.push(format!(
        "{}:{}: the Semantics block reads none of {listed}; followed as written, each form computes as if it were absent.",
        s.file,
        semantics.line,
    ));
    let mut f = Finding::of_text(
        format!("text-modifiers-{}", s.number),
        s.number.clone(),
        FindingKind::ProseVsPseudocode,
        left[0].0.to_string(),
        format!(
            "the Syntax allows {listed}, and the prose says what {} does, but the Semantics block never reads {}",
            if names.len() == 1 { "it" } else { "each" },
            if names.len() == 1 { "it" } else { "them" }
        ),
        detail,
    );
    f.severity = Severity::High;
    // The fix: the Description's first paragraph ends by saying that the
    // block leaves the modifiers to the prose.
    let sentence = format!(
        "The {SCOPE} the result without {listed}, which {} to it as this section says.",
        if names.len() == 1 { "applies" } else { "apply" }
    );
    f.repairs = super::ending_description(s, &sentence).into_iter().collect();
    vec![f]
}

/// The words of a sentence that says what a Semantics block leaves out.
const SCOPE: &str = "Semantics block shows";

/// The operands a Syntax block lets a form negate: `c` of `{!}c`.
fn negated_operands(syntax: &super::document::Block) -> Vec<String> {
    let mut out = Vec::new();
    for l in syntax.code() {
        for (at, _) in l.text.match_indices("{!}") {
            let name: String = l.text[at + 3..].chars().take_while(|c| is_ident_char(*c)).collect();
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// Whether `code` negates `name`: `!c`, `! c`, `!(c)`, `~c`.
fn negates(code: &str, name: &str) -> bool {
    code.match_indices(['!', '~']).any(|(at, _)| {
        let rest = code[at + 1..].trim_start_matches(|c: char| c == '(' || c.is_whitespace());
        rest.strip_prefix(name).is_some_and(|after| !after.starts_with(is_ident_char))
    })
}

/// A section whose Syntax lets a form negate an operand that neither its
/// block nor its prose ever negates.
fn negation(s: &Section) -> Vec<Finding> {
    let (Some(syntax), Some(semantics)) = (s.block(BlockKind::Syntax), s.block(BlockKind::Semantics)) else {
        return Vec::new();
    };
    let code: String = semantics.code().map(|l| code_of(&l.text)).collect::<Vec<_>>().join("\n");
    let prose: Vec<&super::document::Line> = s
        .blocks
        .iter()
        .filter(|b| b.kind != BlockKind::Syntax)
        .flat_map(|b| b.lines.iter().filter(|l| !l.code))
        .collect();
    let mut out = Vec::new();
    for name in negated_operands(syntax) {
        let written = format!("`!{name}`");
        if !writes(&code, &name) || negates(&code, &name) || prose.iter().any(|l| l.text.contains(&written)) {
            continue;
        }
        let line = syntax.code().find(|l| l.text.contains(&format!("{{!}}{name}"))).map_or(syntax.line, |l| l.number);
        let mut f = Finding::of_text(
            format!("text-negation-{}-{name}", s.number),
            s.number.clone(),
            FindingKind::LiteralReading,
            format!("{{!}}{name}"),
            format!(
                "the Syntax lets a form write `!{name}`, but the Semantics block reads `{name}` and never its \
                 complement, and no sentence says what `!{name}` does"
            ),
            vec![
                format!("{}:{line}: the Syntax writes `{{!}}{name}`.", s.file),
                format!(
                    "{}:{}: the Semantics block reads `{name}` as written. Followed as written, a form that writes \
                     `!{name}` gets the result of the form that writes `{name}`: with `{name}` true, `!{name}` stands \
                     for false, and the block computes with true.",
                    s.file, semantics.line
                ),
            ],
        );
        // The fix: the paragraph that names the operand ends with what its
        // complement stands for.
        let named = format!("`{name}`");
        let paragraph = s
            .blocks
            .iter()
            .filter(|b| b.kind == BlockKind::Description)
            .flat_map(|b| b.paragraphs())
            .find(|p| p.iter().any(|l| l.text.contains(&named)));
        if let Some(last) = paragraph.and_then(|p| p.last().copied()) {
            let old = last.text.trim_end().to_string();
            let new = format!(
                "{old} Where `{name}` is written `!{name}`, the Semantics block reads its complement for `{name}`."
            );
            f.repairs = vec![Repair { line: last.number, old, new }];
        }
        out.push(f);
    }
    out
}

/// Every section whose block leaves out a modifier its prose gives an
/// effect, or an operand's negation.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out = super::each_section(doc, section);
    out.extend(super::each_section(doc, negation));
    out
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
            ["the Syntax allows `.sat` and `.NaN`, and the prose says what each does, but the Semantics block never \
              reads them"]
        );
        assert_eq!(
            found(syntax, "d = a + b;\nif (.sat) d = clamp(d);\nif (ftz) d = d;\nif (.NaN) d = NaN;", notes),
            Vec::<String>::new()
        );
        // A modifier the prose never names is not asked for.
        assert!(found("add{.sat}.f16 d, a, b;", "d = a + b;", "Adds.").is_empty());
        // A rounding set, by the values the prose names.
        let rnd = "add{.rnd}.f32 d, a, b;\n.rnd = { .rn, .rz };";
        assert_eq!(
            found(rnd, "d = a + b;", "`.rn`\n:   rounds to nearest even"),
            ["the Syntax allows `.rnd`, and the prose says what it does, but the Semantics block never reads it"]
        );
        assert!(found(rnd, "d = round(a + b, rnd);", "`.rn`\n:   rounds to nearest even").is_empty());
        // A sentence that leaves the modifier to the prose answers for it:
        // the fix the pass proposes.
        let scoped = "`.rn`\n:   rounds to nearest even\n\nThe Semantics block shows the result without `.rnd`.";
        assert!(found(rnd, "d = a + b;", scoped).is_empty());
    }

    #[test]
    fn a_negation_the_block_never_reads_is_a_finding() {
        let syntax = "set.and.u32 d, a, b, {!}c;";
        let text = |semantics: &str, notes: &str| {
            format!(
                "#### 9.7.6.1. Comparison and Selection Instructions: `set`\n\n`set`\n\nCompare.\n\n\
                 Syntax\n\n```\n{syntax}\n```\n\nDescription\n\nCompares `a` and `b`, and operand `c` has\ntype \
                 `.pred`.\n\nSemantics\n\n```\n{semantics}\n```\n\nNotes\n\n{notes}\n"
            )
        };
        let run = |semantics: &str, notes: &str| {
            let doc = Document { sections: parse_any("made.md", text(semantics, notes).as_bytes()).unwrap() };
            check(&doc)
        };
        let found = run("t = (a == b);\nd = t & c;", "None.");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].id, "text-negation-9.7.6.1-c");
        let repair = found[0].repairs.first().expect("an edit");
        assert_eq!(repair.old, "type `.pred`.");
        assert!(repair.new.ends_with("reads its complement for `c`."), "{}", repair.new);
        // Read negated in the block, or stated in the prose: no finding.
        for (semantics, notes) in
            [("d = t & !c;", "None."), ("d = t & ~(c);", "None."), ("d = t & c;", "Where `!c` is written, ...")]
        {
            assert!(run(semantics, notes).is_empty(), "{semantics} {notes}");
        }
        // A block that never reads `c`, or negates another name, is not this.
        assert!(run("d = t;", "None.").is_empty());
        assert_eq!(run("d = t & !cc & c;", "None.").len(), 1);
    }
}
