//! The code a group's introduction gives its sections: the helper
//! functions that several Semantics blocks call (9.7.18.1's saturation,
//! secondary operation and merge). No Semantics pass reads it, as it
//! stands under no label, so it is read here as C is written:
//! - a statement that opens a `(` it never closes;
//! - a `switch` label written without `case` (`.add:`), or without its
//!   `:` as well (`.max return ...`).
//!
//! - a set of values the introduction's general format names one way
//!   (`.secop = { .add, .min, .max }`) that a section's Syntax names
//!   another (`.op2`).
//!
//! Each finding of one kind in one section has one summary, so that the
//! lines one slip repeats make one root cause; each line's repair is the
//! edit that makes it C.

use super::defaults::grammar_of;
use super::document::{Document, Line, Section};
use super::helpers::code_of;
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The runs of code of a section's introduction: each fenced block before
/// its first labelled block, prose lines apart.
fn runs(s: &Section) -> Vec<Vec<&Line>> {
    let mut out: Vec<Vec<&Line>> = Vec::new();
    let mut run: Vec<&Line> = Vec::new();
    for l in &s.intro {
        if l.code {
            run.push(l);
        } else if !l.text.trim().is_empty() && !run.is_empty() {
            out.push(std::mem::take(&mut run));
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out
}

/// Whether a run is C-like code (a function or a statement), not a
/// template of instructions: it has a `return`, a `switch` or an `if (`.
fn is_pseudocode(run: &[&Line]) -> bool {
    run.iter().any(|l| {
        let c = code_of(&l.text);
        c.contains("return") || c.contains("switch") || c.contains("if (") || c.contains("if(")
    })
}

/// The label at the start of a line in a `switch` body that has no
/// `case`: `.add:` (its colon written) or `.max` followed by a statement.
fn bare_label(code: &str) -> Option<(&str, bool)> {
    let t = code.trim_start();
    let rest = t.strip_prefix('.')?;
    let len = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').count();
    if len == 0 {
        return None;
    }
    let label = &t[..len + 1];
    let after = t[len + 1..].trim_start();
    // A declaration in a case's body (`.s33 t = a + b;`) is no label: a
    // label without its `:` is known by the `return` it runs into.
    if after.starts_with(':') {
        Some((label, true))
    } else if after.starts_with("return") {
        Some((label, false))
    } else {
        None
    }
}

fn section(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for run in runs(s).iter().filter(|r| is_pseudocode(r)) {
        // The depth of braces, and the depth each open `switch` body is at.
        let mut depth = 0usize;
        let mut switches: Vec<usize> = Vec::new();
        for l in run {
            let code = code_of(&l.text);
            let trimmed = code.trim();
            if switches.last() == Some(&depth) {
                if let Some((label, colon)) = bare_label(code) {
                    let mut f = Finding::of_text(
                        format!("text-code-{}-case-{}", s.number, l.number),
                        s.number.clone(),
                        FindingKind::MalformedCode,
                        trimmed.to_string(),
                        format!("a `switch` of the code of {} writes its labels without `case`: not C", s.number),
                        vec![format!(
                            "{}:{}: `{label}` labels a case of the `switch` without the keyword `case`{}; read as \
                             C, it is no label, and the statement after it runs for no value.",
                            s.file,
                            l.number,
                            if colon { "" } else { ", and without its `:`" }
                        )],
                    );
                    let old = if colon { format!("{label}:") } else { label.to_string() };
                    f.repairs = vec![Repair { line: l.number, old, new: format!("case {label}:") }];
                    out.push(f);
                }
            }
            // A loop's header runs over lines at its `;` (`for (i = 0;`).
            let header = trimmed.starts_with("for") || trimmed.starts_with("while");
            if trimmed.ends_with(';') && !header && trimmed.matches('(').count() > trimmed.matches(')').count() {
                out.push(Finding::of_text(
                    format!("text-code-{}-parenthesis-{}", s.number, l.number),
                    s.number.clone(),
                    FindingKind::MalformedCode,
                    trimmed.to_string(),
                    format!("a statement of the code of {} opens a `(` it never closes: not C", s.number),
                    vec![format!(
                        "{}:{}: the statement has {} `(` and {} `)`; where the missing `)` goes is the reader's \
                         guess.",
                        s.file,
                        l.number,
                        trimmed.matches('(').count(),
                        trimmed.matches(')').count()
                    )],
                ));
            }
            for c in code.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        if switches.last() == Some(&depth) {
                            switches.pop();
                        }
                        depth = depth.saturating_sub(1);
                    }
                    _ => {}
                }
            }
            // The body a `switch` opens is the last `{` of its line
            // (`int f(int x) { switch (x) {` opens the function's too).
            if code.contains("switch") && code.trim_end().ends_with('{') {
                switches.push(depth);
            }
        }
    }
    out
}

/// A section's Syntax set whose values a group above it gives under
/// another name, the section using none of that name.
fn renamed_sets(doc: &Document, s: &Section) -> Vec<Finding> {
    let Some(syntax) = s.block(super::document::BlockKind::Syntax) else { return Vec::new() };
    let own = grammar_of(syntax.code()).sets;
    let mut out = Vec::new();
    let mut n = s.number.as_str();
    while let Some((up, _)) = n.rsplit_once('.') {
        n = up;
        let Some(group) = doc.section(up) else { continue };
        let general = grammar_of(group.intro.iter().filter(|l| l.code)).sets;
        for (theirs, values) in &general {
            // Sets of types are shared by value among slots that differ
            // (`.ctype` beside `.atype`): only a set of modifiers is read.
            if values.iter().all(|v| super::captions::type_word(v.trim_start_matches('.')).is_some()) {
                continue;
            }
            // A name of the section's that the general format has too
            // (`.dtype` of `.dtype = .atype = ...`) is no other name.
            let same = own.iter().find(|(name, v)| *v == values && *name != theirs && !general.contains_key(*name));
            let (Some((name, _)), false) = (same, own.contains_key(theirs)) else { continue };
            if out.iter().any(|f: &Finding| f.id.ends_with(&format!("-set-{}", name.trim_start_matches('.')))) {
                continue;
            }
            out.push(Finding::of_text(
                format!("text-code-{}-set-{}", s.number, name.trim_start_matches('.')),
                s.number.clone(),
                FindingKind::Name,
                format!("{name} = {{ {} }}", values.join(", ")),
                format!("the Syntax names `{name}` the set that the general format of {up} names `{theirs}`"),
                vec![format!(
                    "{}:{}: `{name}` and {up}'s `{theirs}` hold the same values ({}); a reader of both is left to \
                     guess that they are one modifier, and which name the prose and the code mean.",
                    s.file,
                    syntax.line,
                    values.join(", ")
                )],
            ));
        }
    }
    out
}

/// A set written over several lines whose values run on from one line to
/// the next with no `,` between them (`.b1, .b10` then `.b2, ...`): read as
/// written, `.b10 .b2` is one value. In a Syntax block or in the general
/// format of an introduction.
fn unseparated(s: &Section) -> Vec<Finding> {
    let syntax = s.block(super::document::BlockKind::Syntax).map(|b| b.code().collect::<Vec<_>>());
    let mut out = Vec::new();
    for run in runs(s).into_iter().chain(syntax) {
        let mut open = false;
        for pair in run.windows(2) {
            let (here, next) = (code_of(&pair[0].text).trim(), code_of(&pair[1].text).trim());
            if super::defaults::opens_definition(here) && !here.contains('}') {
                open = true;
            } else if here.contains('}') {
                open = false;
            }
            let runs_on = next.starts_with('.') && !next.contains('=');
            if open && !here.is_empty() && !here.ends_with([',', '{']) && runs_on {
                let last = here.rsplit([',', '{', ' ']).next().unwrap_or(here);
                let first = next.split([',', ' ']).next().unwrap_or(next);
                let mut f = Finding::of_text(
                    format!("text-code-{}-comma-{}", s.number, pair[0].number),
                    s.number.clone(),
                    FindingKind::MalformedCode,
                    here.to_string(),
                    "a set written over several lines runs one line into the next with no `,`".to_string(),
                    vec![format!(
                        "{}:{}: `{last}` ends its line and `{first}` begins the next with no `,` between them: read \
                         as written they are one value, `{last} {first}`.",
                        s.file, pair[0].number
                    )],
                );
                f.repairs = vec![Repair { line: pair[0].number, old: here.to_string(), new: format!("{here},") }];
                out.push(f);
            }
        }
    }
    out
}

/// The findings of every introduction's code.
pub fn check(doc: &Document) -> Vec<Finding> {
    doc.first_renderings()
        .flat_map(|s| section(s).into_iter().chain(renamed_sets(doc, s)).chain(unseparated(s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(code: &str) -> Vec<Finding> {
        let text = format!(
            "#### 9.7.18.1. Scalar Video Instructions\n\nThe helpers:\n\n```\n{code}\n```\n\nCopy to clipboard\n\n\
             ##### 9.7.18.1.1. Scalar Video Instructions: `vadd`\n\n`vadd`\n\nAdd.\n"
        );
        check(&Document::of_markdown(&text))
    }

    #[test]
    fn a_set_the_general_format_names_otherwise_is_found() {
        let text = "#### 9.7.18.1. Scalar Video Instructions\n\nThe format:\n\n```\nvop.secop d, a;\n\
                    .secop = { .add, .min };\n```\n\n##### 9.7.18.1.1. Scalar Video Instructions: `vadd`\n\n`vadd`\n\n\
                    Add.\n\nSyntax\n\n```\nvadd.op2 d, a;\n.op2   = { .add, .min };\n```\n";
        let f = check(&Document::of_markdown(text));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].summary, "the Syntax names `.op2` the set that the general format of 9.7.18.1 names `.secop`");
        assert!(check(&Document::of_markdown(&text.replace(".op2", ".secop"))).is_empty());
    }

    #[test]
    fn values_of_a_set_with_no_comma_between_lines_are_found() {
        let f = found(".mask  = { .b0,\n           .b1, .b10\n           .b2, .b20 };");
        assert_eq!(f.len(), 1, "{f:?}");
        let r = f[0].repairs.first().unwrap();
        assert_eq!((r.old.as_str(), r.new.as_str()), (".b1, .b10", ".b1, .b10,"));
        assert!(found(".mask  = { .b0,\n           .b1, .b10,\n           .b2, .b20 };").is_empty());
    }

    #[test]
    fn labels_without_case_are_found_and_repaired() {
        let f = found(
            ".s33 optSecOp(Modifier secop, .s33 tmp, .s33 c) {\n    switch ( secop ) {\n        .add:     return \
             tmp + c;\n        .max      return MAX(tmp, c);\n        default:  return tmp;\n    }\n}",
        );
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[0].summary, f[1].summary);
        let edits: Vec<(&str, &str)> =
            f.iter().map(|f| f.repairs.first().map(|r| (r.old.as_str(), r.new.as_str())).unwrap()).collect();
        assert_eq!(edits, [(".add:", "case .add:"), (".max", "case .max:")]);
        assert!(f[1].detail[0].contains("without its `:`"), "{}", f[1].detail[0]);
    }

    #[test]
    fn a_statement_with_an_unclosed_parenthesis_is_found() {
        let f = found(
            ".s33 optMerge( Modifier dsel, .s33 tmp, .s33 c ) {\n    switch ( dsel ) {\n        case .h0:  return \
             ((tmp & 0xffff)        | (0xffff0000 & c);\n        case .h1:  return ((tmp & 0xffff) << 16) | \
             (0x0000ffff & c);\n        default:   return tmp;\n    }\n}",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].fragment.starts_with("case .h0:"), "{}", f[0].fragment);
        // Balanced code, and a template of instructions, are not found;
        // nor a declaration in a case, one in a function whose `switch`
        // opens on its line, or a loop header over two lines.
        assert!(found("int f(int x) {\n    switch (x) {\n        case 1: return g(x);\n    }\n}").is_empty());
        assert!(found(
            "int f(int x) {\n    switch (x) {\n        case .add:\n        .s33 t = x + 1;\n\
                       return t;\n    }\n}"
        )
        .is_empty());
        assert!(found(
            "int f(int x) { switch (x) {\n    case 1: return x;\n    }\n    .s33 t = x;\n\
                       for (i = 0; i < x;\n         i++) { t = t + 1; }\n    return t;\n}"
        )
        .is_empty());
        assert!(found("vop.dtype d, a, b;\n.dtype = { .u32 };").is_empty());
    }
}
