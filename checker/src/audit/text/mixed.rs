//! Tests that read two placeholders where one is meant. A Semantics block
//! that asks `dtype == .f16x2 || stype == .bf16x2` tests one choice (the
//! packed half-precision type, in its two formats) on two names: as
//! written, every form whose `.stype` is `.bf16x2` passes, whatever its
//! `.dtype`. Two values are one choice in two formats where one is the
//! other with one letter before it (`.f16` and `.bf16`); a disjunction
//! that tests them on two of the Syntax's sets is a finding, with the form
//! that the two readings part on: the test as written, and the test of the
//! first name alone. The edit makes the second name the first's, the name
//! the test starts with.

use super::defaults::{grammar, Grammar};
use super::document::{BlockKind, Document, Section};
use super::semantics;
use crate::audit::finding::{Finding, FindingKind, Repair};
use crate::pseudocode::ast::{BinaryOp, Expr, ExprKind, Span};

/// One test of a disjunction: the set's name as the block writes it, the
/// set's name with its dot, the value with its dot, and where it stands.
struct Test {
    written: String,
    set: String,
    value: String,
    span: Span,
}

/// `dtype == .f16x2` (either way round), where `dtype` names a set of the
/// Syntax.
fn test(e: &Expr, g: &Grammar) -> Option<Test> {
    let bare = e.without_parens();
    let ExprKind::Binary(BinaryOp::Eq, l, r) = &bare.kind else { return None };
    let name = |e: &Expr| match &e.without_parens().kind {
        ExprKind::Name(n) => Some((n.clone(), format!(".{n}"))),
        ExprKind::Qualifier(q) => Some((format!(".{q}"), format!(".{q}"))),
        _ => None,
    };
    let value = |e: &Expr| match &e.without_parens().kind {
        ExprKind::Qualifier(q) => Some(format!(".{q}")),
        _ => None,
    };
    for (a, b) in [(l, r), (r, l)] {
        let named = name(a).filter(|(_, set)| g.sets.contains_key(set));
        if let (Some((written, set)), Some(value)) = (named, value(b).filter(|v| !g.sets.contains_key(v))) {
            return Some(Test { written, set, value, span: e.span });
        }
    }
    None
}

/// The terms of a chain of `||`, outermost first.
fn disjuncts<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Or, l, r) => {
            disjuncts(l, out);
            disjuncts(r, out);
        }
        ExprKind::Paren(inner) if matches!(inner.kind, ExprKind::Binary(BinaryOp::Or, ..)) => disjuncts(inner, out),
        _ => out.push(e),
    }
}

/// Whether two values are one choice in two formats: `.f16` and `.bf16`.
fn one_choice(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_start_matches('.'), b.trim_start_matches('.'));
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    long.len() == short.len() + 1 && long.ends_with(short) && short.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// The code the span covers on its line.
fn spanned(line: &str, span: Span) -> Option<&str> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let at = |column: usize| chars.get(column.checked_sub(1)?).map(|(i, _)| *i).or(Some(line.len()));
    (span.start.line == span.end.line).then_some(())?;
    line.get(at(span.start.column)?..at(span.end.column)?)
}

fn section(s: &Section, parsed: &crate::pseudocode::Parsed) -> Vec<Finding> {
    let (Some(g), Some(block)) = (grammar(s), s.block(BlockKind::Semantics)) else { return Vec::new() };
    let examples: Vec<String> = s
        .block(BlockKind::Examples)
        .map(|b| b.code().map(|l| l.text.split("//").next().unwrap_or_default().trim().to_string()).collect())
        .unwrap_or_default();
    let mut chains: Vec<(Span, Vec<Test>)> = Vec::new();
    for st in &parsed.statements {
        st.walk(&mut |st| {
            for e in st.expressions() {
                e.walk(&mut |e| {
                    if !matches!(e.kind, ExprKind::Binary(BinaryOp::Or, ..)) {
                        return;
                    }
                    // The outermost chain only.
                    let inside = |(span, _): &(Span, Vec<Test>)| span.start <= e.span.start && e.span.end <= span.end;
                    if chains.iter().any(inside) {
                        return;
                    }
                    let mut terms = Vec::new();
                    disjuncts(e, &mut terms);
                    let tests: Vec<Test> = terms.iter().filter_map(|t| test(t, &g)).collect();
                    if tests.len() == terms.len() {
                        chains.push((e.span, tests));
                    }
                });
            }
        });
    }
    let mut out = Vec::new();
    for (span, tests) in chains {
        let first = &tests[0];
        let Some(other) = tests.iter().find(|t| t.set != first.set && one_choice(&t.value, &first.value)) else {
            continue;
        };
        let Some(line) = block.lines.iter().find(|l| l.number == span.start.line) else { continue };
        // A form the readings part on: the second name takes its value, the
        // first a value of its set that no test names, preferably one
        // an example writes beside the second's.
        let named: Vec<&str> = tests.iter().map(|t| t.value.as_str()).collect();
        let candidates: Vec<&String> = g.sets[&first.set].iter().filter(|v| !named.contains(&v.as_str())).collect();
        let writes = |ex: &str, q: &str| {
            ex.split_whitespace().next().is_some_and(|m| m.split('.').any(|w| format!(".{w}") == q))
        };
        let example = candidates
            .iter()
            .find_map(|v| examples.iter().find(|ex| writes(ex, v) && writes(ex, &other.value)).map(|ex| (*v, ex)));
        let Some(value) = example.map(|(v, _)| v).or(candidates.first().copied()) else { continue };
        let mut detail = vec![format!(
            "{}:{}: `{}` tests `{}` for `{}` and `{}` for `{}`: one choice in two formats, on two names.",
            s.file,
            line.number,
            line.text.trim(),
            first.set,
            first.value,
            other.set,
            other.value
        )];
        detail.push(format!(
            "With `{}` = `{value}` and `{}` = `{}`{}, the test as written holds, and the same test of the \
             first name alone (`{} == {}`) does not.",
            first.set,
            other.set,
            other.value,
            example.map_or(String::new(), |(_, ex)| format!(" (the example `{ex}`)")),
            first.written,
            other.value
        ));
        let mut f = Finding::of_text(
            format!("text-mixed-{}-{}", s.number, line.number),
            s.number.clone(),
            FindingKind::LiteralReading,
            line.text.trim().to_string(),
            format!(
                "the test reads `{}` for `{}` and `{}` for `{}`, one choice in two formats on two names: a form \
                 whose `{}` is `{}` passes it whatever its `{}`",
                first.set, first.value, other.set, other.value, other.set, other.value, first.set
            ),
            detail,
        );
        if let Some(old) = spanned(&line.text, other.span) {
            let new = old.replacen(&other.written, &first.written, 1);
            f.repairs = vec![Repair { line: line.number, old: old.to_string(), new }];
        }
        out.push(f);
    }
    out
}

/// Every disjunction of a Semantics block that tests one choice in two
/// formats on two names.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for r in semantics::read_once(doc) {
        out.extend(section(r.section, &r.parsed));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn run(semantics: &str) -> Vec<Finding> {
        let text = format!(
            "#### 9.7.7.1. Half Precision Comparison Instructions: `set`\n\n`set`\n\nCompare.\n\n\
             Syntax\n\n```\nset.CmpOp.dtype.stype d, a, b;\n.dtype = {{ .f16x2, .bf16x2, .u32, .s32 }};\n\
             .stype = {{ .f16x2, .bf16x2, .u32 }};\n```\n\nDescription\n\nCompares.\n\n\
             Semantics\n\n```\n{semantics}\n```\n\nExamples\n\n```\nset.eq.u32.bf16x2 d, a, b;\nset.eq.s32.bf16x2 d, a, b;\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
    }

    #[test]
    fn one_choice_tested_on_two_names_is_found() {
        let found =
            run("if (stype == .f16x2 || stype == .bf16x2) {\n    if (dtype == .f16x2 || stype == .bf16x2) d = 1;\n}");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].id, "text-mixed-9.7.7.1-23");
        assert!(found[0].detail[1].contains("`.dtype` = `.u32`"), "{}", found[0].detail[1]);
        assert!(found[0].detail[1].contains("set.eq.u32.bf16x2"), "{}", found[0].detail[1]);
        let repair = found[0].repairs.first().expect("an edit");
        assert_eq!((repair.old.as_str(), repair.new.as_str()), ("stype == .bf16x2", "dtype == .bf16x2"));
    }

    #[test]
    fn one_name_two_choices_or_two_types_are_not_found() {
        for semantics in [
            "if (dtype == .f16x2 || dtype == .bf16x2) d = 1;",
            "if (dtype == .u32 || stype == .s32) d = 1;",
            "if (dtype == .f16x2 || stype == .u32) d = 1;",
            "if (dtype == .f16x2 || a == b) d = 1;",
        ] {
            assert!(run(semantics).is_empty(), "{semantics}");
        }
        assert!(one_choice(".f16", ".bf16") && one_choice(".bf16x2", ".f16x2"));
        assert!(!one_choice(".u16x2", ".s16x2") && !one_choice(".f16", ".f16") && !one_choice(".f16", ".f16x2"));
    }
}
