//! The control flow of the Semantics blocks read as C executes it: a
//! `switch` case that does not end in `break` (or `return`, `continue`)
//! falls into the next one, and a variable declared twice in one scope is
//! not C. The cases of a `switch` share its body, so `u32 d = ...;` in two
//! cases declares `d` twice.
//!
//! A statement that follows a jump (`break`, `return`, `continue`,
//! `goto`) in the same body, before the body closes or the next `case`
//! label, is never run: also not what the author meant.
//!
//! A fall-through is a finding with a witness: where the cases name
//! qualifiers (`case shf.l:`), the variant of the case that falls through
//! computes, read as C, what the next case's variant computes; the least
//! input (of a few small values per operand) where the two differ, found
//! by evaluating both concrete models, shows it.

use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::hardware::Model;
use ptx_spec::Variant;

use super::declarations::{parse_block, tokens_of, Token};
use super::document::{BlockKind, Document, Section};
use crate::audit::finding::{Finding, FindingKind, Repair, Severity, WitnessTable};

/// A case of a `switch` that runs into the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FallThrough {
    /// The case's label (`shf.l`) and line, and the next case's label and
    /// line.
    pub label: String,
    pub line: usize,
    pub next: String,
    pub next_line: usize,
    /// The labels of every case of the same `switch` that runs into the
    /// next, this one among them.
    pub siblings: Vec<String>,
}

/// The labels of a `switch` body's cases, each with its line and whether
/// its statements end in a jump, in order. `tokens` start after the
/// body's `{`; the scan stops at its `}`.
fn cases(tokens: &[Token]) -> Vec<(String, usize, bool)> {
    let mut out: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0i32;
    let mut k = 0;
    let mut last: Option<&str> = None;
    while k < tokens.len() {
        let t = tokens[k].text.as_str();
        match t {
            "{" | "(" => depth += 1,
            "}" | ")" if depth == 0 => break,
            "}" | ")" => depth -= 1,
            "case" | "default" if depth == 0 => {
                if let Some(prev) = out.last_mut() {
                    prev.2 = matches!(last, Some("break" | "return" | "continue"));
                }
                let mut label = String::new();
                let line = tokens[k].line;
                k += 1;
                while k < tokens.len() && tokens[k].text != ":" {
                    label.push_str(&tokens[k].text);
                    k += 1;
                }
                out.push((if t == "default" { "default".into() } else { label }, line, true));
                last = None;
                k += 1;
                continue;
            }
            ";" => {}
            _ if depth == 0 => last = Some(t),
            _ => {}
        }
        k += 1;
    }
    out
}

/// Every fall-through of a block's `switch` statements.
pub fn fall_throughs(tokens: &[Token]) -> Vec<FallThrough> {
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if t.text != "switch" {
            continue;
        }
        // Past the `( ... )` to the body's `{`.
        let Some(open) = tokens[k..].iter().position(|x| x.text == "{").map(|p| k + p + 1) else { continue };
        let cs = cases(&tokens[open..]);
        let siblings: Vec<String> = cs.windows(2).filter(|p| !p[0].2).map(|p| p[0].0.clone()).collect();
        for pair in cs.windows(2) {
            if !pair[0].2 {
                out.push(FallThrough {
                    label: pair[0].0.clone(),
                    line: pair[0].1,
                    next: pair[1].0.clone(),
                    next_line: pair[1].1,
                    siblings: siblings.clone(),
                });
            }
        }
    }
    out
}

/// A `switch` on a name with no `default` case: the name and the
/// switch's line.
pub fn without_default(tokens: &[Token]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if t.text != "switch" {
            continue;
        }
        let Some(open) = tokens[k..].iter().position(|x| x.text == "{").map(|p| k + p + 1) else { continue };
        // The switched expression: one name between the parentheses.
        let head: Vec<&str> = tokens[k + 1..open - 1].iter().map(|x| x.text.as_str()).collect();
        let [_, name, _] = head.as_slice() else { continue };
        let cs = cases(&tokens[open..]);
        if !cs.is_empty() && !cs.iter().any(|(label, _, _)| label == "default") {
            out.push((name.trim_start_matches('.').to_string(), t.line));
        }
    }
    out
}

/// A statement no path reaches: its line, and the jump before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreachable {
    pub line: usize,
    pub after: String,
}

/// Every statement that follows a jump in its own body. A jump counts only
/// where it is a statement of the body itself (after `;`, `{`, `}` or a
/// case label's `:`), not the one statement of an `if`, `else` or loop.
pub fn unreachable(tokens: &[Token]) -> Vec<Unreachable> {
    const JUMPS: [&str; 4] = ["break", "return", "continue", "goto"];
    let mut out = Vec::new();
    // Per open body: the jump that ended its last statement, if any.
    let mut jumped: Vec<Option<String>> = vec![None];
    let mut parens = 0i32;
    let mut k = 0;
    while k < tokens.len() {
        let t = tokens[k].text.as_str();
        match t {
            "(" => parens += 1,
            ")" => parens -= 1,
            "{" => jumped.push(None),
            "}" => {
                jumped.pop();
                if jumped.is_empty() {
                    jumped.push(None);
                }
                // The statement the closing body belonged to ends here.
                if let Some(j) = jumped.last_mut() {
                    *j = None;
                }
            }
            "case" | "default" if parens == 0 => {
                // A label is reachable by its own jump: skip to its `:`.
                if let Some(j) = jumped.last_mut() {
                    *j = None;
                }
                while k < tokens.len() && tokens[k].text != ":" {
                    k += 1;
                }
            }
            ";" => {}
            _ if parens == 0 => {
                if let Some(Some(after)) = jumped.last() {
                    out.push(Unreachable { line: tokens[k].line, after: after.clone() });
                    if let Some(j) = jumped.last_mut() {
                        *j = None;
                    }
                }
                let prev = k.checked_sub(1).map(|p| tokens[p].text.as_str());
                if JUMPS.contains(&t) && matches!(prev, None | Some(";" | "{" | "}" | ":")) {
                    // Past the jump's own statement to its `;`.
                    while k < tokens.len() && tokens[k].text != ";" {
                        k += 1;
                    }
                    if let Some(j) = jumped.last_mut() {
                        *j = Some(t.to_string());
                    }
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// The variant of `section` a case label names (`shf.l`: a qualifier), and
/// the variant that differs from it only there for the next label.
fn case_variants(section: &str, label: &str, next: &str) -> Option<(Variant, Variant)> {
    let qualifier = |l: &str| l.rsplit('.').next().map(|q| format!(".{q}"));
    let (from, to) = (qualifier(label)?, qualifier(next)?);
    for v in Variant::all().into_iter().filter(|v| v.section() == section) {
        let m = v.mnemonic();
        let parts: Vec<String> = m.split('.').map(|p| format!(".{p}")).collect();
        if let Some(i) = parts.iter().position(|p| *p == from) {
            let mut other = parts.clone();
            other[i] = to.clone();
            let name: String = other.concat();
            if let Some(w) = Variant::with_mnemonic(&name[1..]).into_iter().next() {
                return Some((v, w));
            }
        }
    }
    None
}

/// The least input, over the values 0 to 3 of each input operand, where
/// two variants of the same operands give different results. A variant
/// with more than 8 inputs (a warp-wide one, each lane's operand an input)
/// is beyond this search: it gets no witness.
fn witness(a: &Variant, b: &Variant) -> Option<WitnessTable> {
    let ops = a.inputs();
    let n = u32::try_from(ops.len()).ok().filter(|n| *n <= 8)?;
    for code in 0..4u32.pow(n) {
        let inputs: Vec<BitVec> =
            ops.iter().enumerate().map(|(i, o)| BitVec::new(o.ty.width(), u128::from((code >> (2 * i)) & 3))).collect();
        let (x, y) = (a.semantics_in(Model::Spec, &Concrete, &inputs), b.semantics_in(Model::Spec, &Concrete, &inputs));
        if x.iter().zip(&y).any(|(p, q)| p.defined && q.defined && p.value != q.value) {
            let rows = a
                .outputs()
                .iter()
                .zip(x.iter().zip(&y))
                .map(|(o, (p, q))| {
                    (o.name.to_string(), vec![p.defined.then_some(p.value), q.defined.then_some(q.value)])
                })
                .collect();
            return Some(WitnessTable {
                variant: a.to_string(),
                inputs: ops.iter().map(|o| o.name.to_string()).zip(inputs).collect(),
                columns: vec!["model".into(), "read as C (falls through)".into()],
                rows,
            });
        }
    }
    None
}

/// The edit that ends a case with `break`: on the last line of code from
/// the case's label to the next case's, a statement or a body closed.
fn break_after(s: &Section, from: usize, next: usize) -> Option<Repair> {
    let b = s.block(BlockKind::Semantics)?;
    let last = b.code().filter(|l| l.number >= from && l.number < next).filter_map(|l| {
        let code = super::helpers::code_of(&l.text).trim_end();
        (code.ends_with(';') || code.ends_with('}')).then_some((l.number, code))
    });
    let (line, code) = last.last()?;
    // The line's code from its last statement on: what the edit replaces.
    let tail = code.rsplit_once(':').map_or(code.trim_start(), |(_, t)| t.trim_start());
    let tail = if tail.is_empty() { code.trim_start() } else { tail };
    Some(Repair { line, old: tail.to_string(), new: format!("{tail} break;") })
}

fn semantics(s: &Section) -> Option<Vec<Token>> {
    let b = s.block(BlockKind::Semantics)?;
    Some(tokens_of(&b.code().collect::<Vec<_>>()))
}

/// A switch on a modifier the Syntax makes optional runs no case for
/// the forms without it.
fn no_defaults(s: &Section, tokens: &[Token], out: &mut Vec<Finding>) {
    let syntax: Vec<String> =
        s.block(BlockKind::Syntax).map(|b| b.code().map(|l| l.text.clone()).collect()).unwrap_or_default();
    for (name, line) in without_default(tokens) {
        let optional = format!("{{.{name}}}");
        let id = format!("text-control-{}-no-default-{}", s.number, name.to_lowercase());
        if !syntax.iter().any(|l| l.contains(&optional)) || out.iter().any(|f: &Finding| f.id == id) {
            continue;
        }
        // A default the text states for the modifier (`.mode` is
        // assumed, or defaults to a value) is the case that runs.
        let dotted = format!(".{name}");
        let stated = s.all_lines().any(|l| {
            let t = l.text.to_lowercase();
            t.contains(&dotted) && (t.contains("default") || t.contains("assumed") || t.contains("omitted"))
        });
        if stated {
            continue;
        }
        let mut f = Finding::of_text(
            id,
            s.number.clone(),
            FindingKind::LiteralReading,
            format!("switch( {name} )"),
            format!(
                "read as C, the `switch` on `{name}` has no `default`: for a form without the optional \
                 `.{name}` (the Syntax's `{optional}`), no case runs"
            ),
            vec![format!(
                "{}:{line}: every case of the `switch` is a value of `.{name}`, which the Syntax writes as \
                 optional; with none written, what the cases assign is never set.",
                s.file
            )],
        );
        f.severity = Severity::High;
        out.push(f);
    }
}

/// The control-flow findings of every Semantics block.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in doc.first_renderings() {
        let Some(tokens) = semantics(s) else { continue };
        for f in fall_throughs(&tokens) {
            let pair = case_variants(&s.number, &f.label, &f.next);
            let witness = pair.as_ref().and_then(|(a, b)| witness(a, b));
            let shown = match (&pair, &witness) {
                (Some((a, b)), Some(_)) => format!(": `{a}` computes what `{b}` does"),
                _ => String::new(),
            };
            let mut detail = vec![format!(
                "{}:{}: the statements of `case {}` end without `break`, so C runs on into `case {}`, whose \
                 statements overwrite the result.",
                s.file, f.line, f.label, f.next
            )];
            // The cases of one switch that all lack their `break` are one
            // defect: one summary, so that they make one root cause.
            let summary = if f.siblings.len() > 1 {
                if !shown.is_empty() {
                    detail.push(format!("Read so, {}.", shown.trim_start_matches(": ")));
                }
                let labels: Vec<String> = f.siblings.iter().map(|l| format!("`case {l}`")).collect();
                format!(
                    "read as C, {} cases of one `switch` ({}) end without `break`, and each falls into the next",
                    labels.len(),
                    labels.join(", ")
                )
            } else {
                format!("read as C, `case {}` has no `break` and falls into `case {}`{shown}", f.label, f.next)
            };
            out.push(Finding {
                id: format!("text-control-{}-fallthrough-{}", s.number, f.label.replace('.', "-")),
                section: s.number.clone(),
                kind: FindingKind::LiteralReading,
                severity: Severity::Low,
                root_cause: String::new(),
                fragment: format!("case {}:", f.label),
                summary,
                detail,
                model_choice: Some("each case alone, as the Description says".into()),
                witness,
                more_witnesses: Vec::new(),
                also_quotes: Vec::new(),
                repairs: break_after(s, f.line, f.next_line).into_iter().collect(),
            });
        }
        no_defaults(s, &tokens, &mut out);
        let line_text = |n: usize| {
            s.block(BlockKind::Semantics)
                .and_then(|b| b.lines.iter().find(|l| l.number == n))
                .map(|l| super::helpers::code_of(&l.text).split_whitespace().collect::<Vec<_>>().join(" "))
        };
        for u in unreachable(&tokens) {
            out.push(Finding::of_text(
                format!("text-control-{}-unreachable-{}", s.number, u.line),
                s.number.clone(),
                FindingKind::MalformedCode,
                line_text(u.line).unwrap_or_default(),
                format!("the statement at line {} follows a `{}` in its body: it never runs", u.line, u.after),
                vec![format!(
                    "{}:{}: no path reaches this statement; the `{}` before it leaves the body.",
                    s.file, u.line, u.after
                )],
            ));
        }
        for (name, first, again) in parse_block(&tokens).declared_twice() {
            out.push(Finding::of_text(
                format!("text-control-{}-redeclared-{name}", s.number),
                s.number.clone(),
                FindingKind::MalformedCode,
                // The second declaration's line: a name alone would be
                // found all over the section.
                line_text(again).unwrap_or_else(|| name.clone()),
                format!("`{name}` is declared twice in one scope (lines {first} and {again}): not C"),
                vec![format!(
                    "{}:{again}: `{name}` is declared again in the scope that declares it at line {first} (the \
                     cases of a `switch` share its body).",
                    s.file
                )],
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::Line;

    fn toks(code: &str) -> Vec<Token> {
        let lines: Vec<Line> =
            code.lines().enumerate().map(|(i, t)| Line { number: i + 1, text: t.into(), code: true }).collect();
        tokens_of(&lines.iter().collect::<Vec<_>>())
    }

    #[test]
    fn a_case_without_break_falls_through() {
        let t = toks("switch (m) {\n case .up: j = 1; break;\n case .down: j = 2;\n case .bfly: j = 3;\n}");
        let f = fall_throughs(&t);
        let down = FallThrough {
            label: ".down".into(),
            line: 3,
            next: ".bfly".into(),
            next_line: 4,
            siblings: vec![".down".into()],
        };
        assert_eq!(f, [down]);
        let none = toks("switch (m) { case .a: if (x) { y = 1; } break; case .b: y = 2; }");
        assert!(fall_throughs(&none).is_empty());
    }

    /// The cases of one switch that all run on are one defect, and each
    /// is repaired by a `break` after its last statement.
    #[test]
    fn the_cases_of_one_switch_share_a_summary_and_each_gets_a_break() {
        let doc = Document::of_markdown(
            "#### 9.7.18.1.1. Video: `vadd`\n\n`vadd`\n\nAdd.\n\nSemantics\n\n```\nswitch ( vop ) {\n    \
             case vadd:     tmp = ta + tb;\n    case vsub:     tmp = ta - tb;\n    case vmax:     tmp = MAX( ta, tb );\n\
             }\n```\n",
        );
        let found: Vec<Finding> = check(&doc).into_iter().filter(|f| f.id.contains("fallthrough")).collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].summary, found[1].summary);
        assert!(
            found[0].summary.contains("2 cases of one `switch` (`case vadd`, `case vsub`)"),
            "{}",
            found[0].summary
        );
        let r = found[0].repairs.first().expect("a break");
        assert_eq!((r.old.as_str(), r.new.as_str()), ("tmp = ta + tb;", "tmp = ta + tb; break;"));
    }

    /// A switch on an optional modifier with no `default` is found, unless
    /// the text states the modifier's default.
    #[test]
    fn a_switch_on_an_optional_modifier_needs_a_default() {
        let doc = |description: &str| {
            Document::of_markdown(&format!(
                "#### 9.7.18.1.3. Video: `vmad`\n\n`vmad`\n\nMad.\n\nSyntax\n\n```\nvmad{{.scale}} d, a;\n\
                 .scale = {{ .shr7, .shr15 }};\n```\n\nDescription\n\n{description}\n\nSemantics\n\n```\n\
                 switch( scale ) {{\n   case .shr7:   r = a >> 7; break;\n   case .shr15:  r = a >> 15; break;\n}}\n\
                 d = r;\n```\n"
            ))
        };
        let ids = |d: &Document| check(d).into_iter().map(|f| f.id).collect::<Vec<_>>();
        assert_eq!(ids(&doc("Scales.")), ["text-control-9.7.18.1.3-no-default-scale"]);
        assert!(ids(&doc("Without `.scale`, no shift: `.scale` is omitted.")).is_empty());
    }

    #[test]
    fn a_declaration_twice_in_one_scope_is_found() {
        let t = toks("switch (m) {\n case a:\n u32 d = 1;\n case b:\n u32 d = 2;\n}");
        assert_eq!(parse_block(&t).declared_twice(), [("d".to_string(), 3, 5)]);
        let apart = toks("if (x) { u32 d = 1; } else { u32 d = 2; }");
        assert!(parse_block(&apart).declared_twice().is_empty());
    }

    #[test]
    fn a_statement_after_a_jump_is_unreachable() {
        let t = toks("switch (m) {\n case a: x = 1; break;\n y = 2;\n case b: return x;\n}\nz = 3;");
        assert_eq!(unreachable(&t), [Unreachable { line: 3, after: "break".into() }]);
        // The one statement of an `if`, a label after a jump, and a body's
        // end are no such thing.
        let fine = toks(
            "if (x) return 1;\ny = 2;\nswitch (m) { case a: break; case b: y = 3; }\nwhile (y) { break; }\nd = y;",
        );
        assert!(unreachable(&fine).is_empty(), "{:?}", unreachable(&fine));
    }

    #[test]
    fn the_witness_separates_the_cases() {
        let (l, r) = case_variants("9.7.8.7", "shf.l", "shf.r").unwrap();
        assert_eq!((l.to_string().as_str(), r.to_string().as_str()), ("shf.l.clamp.b32", "shf.r.clamp.b32"));
        let w = witness(&l, &r).unwrap();
        assert_ne!(w.rows[0].1[0], w.rows[0].1[1]);
        // A warp-wide pair, each lane's operand an input: no witness, and
        // no overflow of the search's count.
        let up = Variant::with_mnemonic("shfl.up.b32").into_iter().next().unwrap();
        let down = Variant::with_mnemonic("shfl.down.b32").into_iter().next().unwrap();
        assert!(up.inputs().len() > 8, "{}", up.inputs().len());
        assert!(witness(&up, &down).is_none());
    }
}
