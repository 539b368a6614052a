//! C's constraints on the operands of an operator, on any section: `^`,
//! `&`, `|`, `<<`, `>>`, `%` and `~` take integer operands only (C11
//! 6.5.3.3p1, 6.5.5p2, 6.5.7p2, 6.5.10p2 to 6.5.12p2), so a block that
//! applies one to a floating-point value is not C. `d = 2 ^ a;` of a
//! `.f32` `a` reads, in C, as an exclusive or that C refuses, not as the
//! power the section means.
//!
//! A value is floating-point where the section's Syntax gives its
//! instruction floating-point types only (`.f32`, or `.atype` of
//! `{ .f16, .f16x2 }`): its source operands are, and so is a variable the
//! block sets from one of them (`fA[0] = a[0:15]`). A helper's result has
//! no type the text states, and is not read as one.

use std::collections::BTreeSet;

use super::document::{BlockKind, Document, Section};
use super::names::templates;
use super::semantics;
use crate::audit::finding::{Finding, FindingKind, Repair};
use crate::pseudocode::ast::{BinaryOp, Expr, ExprKind, Stmt, UnaryOp};
use crate::pseudocode::print;

/// Whether a type qualifier names a floating-point type: `.f32`, `.bf16`,
/// `.tf32`, `.f16x2`, `.e4m3`.
fn is_floating(qualifier: &str) -> bool {
    let name = qualifier.trim_start_matches('.');
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let scalar = |s: &str| {
        let width = ["f", "bf", "tf"].iter().find_map(|p| s.strip_prefix(p));
        width.is_some_and(digits)
            || s.strip_prefix('e').and_then(|r| r.split_once('m')).is_some_and(|(e, m)| digits(e) && digits(m))
    };
    match name.split_once('x') {
        Some((elem, lanes)) if digits(lanes) => scalar(elem),
        _ => scalar(name),
    }
}

/// The values a Syntax placeholder takes: `.atype = { .f16, .f16x2 }`, or
/// one of several names given one set (`.atype = .btype = { ... }`).
fn values_of(syntax: &str, placeholder: &str) -> Option<Vec<String>> {
    let mut rest = syntax;
    while let Some(at) = rest.find(placeholder) {
        let after = &rest[at + placeholder.len()..];
        let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let tail = after.trim_start();
        if whole && tail.starts_with('=') {
            let set = tail.find('{').map(|open| &tail[open + 1..]).and_then(|s| s.find('}').map(|close| &s[..close]));
            if let Some(set) = set {
                return Some(set.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect());
            }
        }
        rest = after;
    }
    None
}

/// The source operands of a section whose every Syntax form has a
/// floating-point instruction type; empty where one form has another.
fn floating_sources(section: &Section) -> BTreeSet<String> {
    let Some(syntax) = section.block(BlockKind::Syntax) else { return BTreeSet::new() };
    let text: String = syntax.code().map(|l| l.text.split("//").next().unwrap_or("")).collect::<Vec<_>>().join(" ");
    let forms = templates(section);
    let floating = |q: &String| {
        let q = q.trim_matches(['{', '}']);
        match values_of(&text, q) {
            Some(values) => !values.is_empty() && values.iter().all(|v| is_floating(v)),
            None => is_floating(q),
        }
    };
    let all_floating = !forms.is_empty() && forms.iter().all(|t| t.qualifiers.last().is_some_and(floating));
    if !all_floating {
        return BTreeSet::new();
    }
    // An operand a sentence types as a predicate (`Operand `c` has type
    // `.pred``) holds a bit, not a floating-point value.
    let predicates: BTreeSet<String> = [BlockKind::Description, BlockKind::Notes]
        .iter()
        .filter_map(|k| section.block(*k))
        .flat_map(|b| b.lines.iter().filter(|l| !l.code))
        .flat_map(|l| super::names::predicates_typed(&l.text))
        .collect();
    forms
        .iter()
        .flat_map(|t| t.operands.iter().skip(1).flatten().cloned())
        .filter(|o| !predicates.contains(o))
        .collect()
}

/// Whether `e` is a floating-point value: one of `floating`, an element
/// or bits of one, or arithmetic on one.
fn is_floating_value(e: &Expr, floating: &BTreeSet<String>) -> bool {
    match &e.kind {
        ExprKind::Float(_) => true,
        ExprKind::Name(n) => floating.contains(n),
        ExprKind::Paren(x) | ExprKind::Abs(x) | ExprKind::Unary(UnaryOp::Minus | UnaryOp::Plus, x) => {
            is_floating_value(x, floating)
        }
        ExprKind::Index(base, _) | ExprKind::Slice { base, .. } => is_floating_value(base, floating),
        ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div, x, y) => {
            is_floating_value(x, floating) || is_floating_value(y, floating)
        }
        ExprKind::Conditional(_, x, y) => is_floating_value(x, floating) && is_floating_value(y, floating),
        _ => false,
    }
}

/// The name an assignment's target stores into: `d`, `fA` of `fA[0]`.
fn stored_name(target: &Expr) -> Option<&str> {
    match &target.kind {
        ExprKind::Name(n) => Some(n),
        ExprKind::Paren(x) => stored_name(x),
        ExprKind::Index(base, _) | ExprKind::Slice { base, .. } => stored_name(base),
        _ => None,
    }
}

/// The floating-point values of a block: the sources, and every variable
/// set from one (to a fixed point, so that the order of the lines does not
/// matter).
fn floating_values(statements: &[Stmt], sources: BTreeSet<String>) -> BTreeSet<String> {
    let mut floating = sources;
    loop {
        let mut grew = false;
        for s in statements {
            s.walk(&mut |s: &Stmt| {
                for e in s.expressions() {
                    e.walk(&mut |e: &Expr| {
                        if let ExprKind::Assign(_, target, value) = &e.kind {
                            if let Some(n) = stored_name(target) {
                                if !floating.contains(n) && is_floating_value(value, &floating) {
                                    floating.insert(n.to_string());
                                    grew = true;
                                }
                            }
                        }
                    });
                }
            });
        }
        if !grew {
            return floating;
        }
    }
}

/// An operator C allows on integer operands only, applied to a
/// floating-point value: the operator, the expression, and its operand.
struct Misuse {
    symbol: &'static str,
    /// For the finding's id: `xor`.
    word: &'static str,
    what: &'static str,
    rule: &'static str,
    expr: Expr,
    operand: Expr,
}

fn misuses(statements: &[Stmt], floating: &BTreeSet<String>) -> Vec<Misuse> {
    let mut out = Vec::new();
    for s in statements {
        s.walk(&mut |s: &Stmt| {
            for e in s.expressions() {
                e.walk(&mut |e: &Expr| {
                    let (op, operands): (_, Vec<&Expr>) = match &e.kind {
                        ExprKind::Binary(op, x, y) => (Some(*op), vec![x, y]),
                        ExprKind::Unary(UnaryOp::Complement, x) => (None, vec![x]),
                        _ => return,
                    };
                    let (symbol, word, what, rule) = match op {
                        Some(BinaryOp::BitXor) => ("^", "xor", "exclusive or", "6.5.11p2"),
                        Some(BinaryOp::BitAnd) => ("&", "and", "bitwise and", "6.5.10p2"),
                        Some(BinaryOp::BitOr) => ("|", "or", "bitwise or", "6.5.12p2"),
                        Some(BinaryOp::Shl) => ("<<", "shl", "left shift", "6.5.7p2"),
                        Some(BinaryOp::Shr) => (">>", "shr", "right shift", "6.5.7p2"),
                        Some(BinaryOp::Rem) => ("%", "rem", "remainder", "6.5.5p2"),
                        None => ("~", "not", "complement", "6.5.3.3p1"),
                        Some(_) => return,
                    };
                    if let Some(operand) = operands.into_iter().find(|x| is_floating_value(x, floating)) {
                        out.push(Misuse { symbol, word, what, rule, expr: e.clone(), operand: operand.clone() });
                    }
                });
            }
        });
    }
    out
}

/// The operator findings of every Semantics block: one per place, with
/// the repair where the meaning is plain (`2 ^ a`, a power, is
/// `pow(2, a)`).
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for r in semantics::read_once(doc) {
        let s = r.section;
        let sources = floating_sources(s);
        if sources.is_empty() {
            continue;
        }
        let floating = floating_values(&r.parsed.statements, sources);
        let mut taken: Vec<&str> = Vec::new();
        for m in misuses(&r.parsed.statements, &floating) {
            // `xor`, then `xor-2`: in the order written.
            taken.push(m.word);
            let n = taken.iter().filter(|w| **w == m.word).count();
            let suffix = if n == 1 { m.word.to_string() } else { format!("{}-{n}", m.word) };
            let line = m.expr.span.start.line;
            let fragment = print::expr(&m.expr);
            let operand = print::expr(&m.operand);
            let mut f = Finding::of_text(
                format!("text-operator-{}-{suffix}", s.number),
                s.number.clone(),
                FindingKind::LiteralReading,
                fragment.clone(),
                format!(
                    "read as C, `{}` is {} on a floating-point value, which C does not allow: its operands must be \
                     integers (C11 {})",
                    m.symbol, m.what, m.rule
                ),
                vec![format!(
                    "{}:{line}: `{fragment}` applies `{}` to `{operand}`, a floating-point value by the section's \
                     Syntax types; C refuses the program, and no reading of it as C gives the result the section \
                     describes.",
                    s.file, m.symbol
                )],
            );
            // `x ^ y` on floating-point values can only mean a power.
            if m.symbol == "^" {
                if let ExprKind::Binary(_, x, y) = &m.expr.kind {
                    let written = s
                        .block(BlockKind::Semantics)
                        .and_then(|b| b.lines.iter().find(|l| l.number == line))
                        .map(|l| l.text.clone())
                        .unwrap_or_default();
                    if written.contains(&fragment) {
                        let new = format!("pow({}, {})", print::expr(x), print::expr(y));
                        f.repairs = vec![Repair { line, old: fragment.clone(), new }];
                    }
                }
            }
            out.push(f);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::of_markdown(text)
    }

    const EX2: &str =
        "#### 9.7.3.21. ex2\n\nSyntax\n\n```\nex2.approx.atype d, a;\n.atype = { .f16, .f16x2 };\n```\n\n\
                       Semantics\n\n```\nfA[0] = a[0:15];\nd = 2 ^ a;\nd[0] = 2 ^ fA[0];\nx = isNaN(a) ^ 1;\n```\n";

    #[test]
    fn floating_types_by_name_and_by_set() {
        for t in [".f32", ".bf16", ".tf32", ".f16x2", ".e4m3", ".f32x2"] {
            assert!(is_floating(t), "{t}");
        }
        for t in [".u32", ".b16", ".s16x2", ".pred", ".ftz", ".f", ".atype"] {
            assert!(!is_floating(t), "{t}");
        }
        assert_eq!(values_of(".atype = .btype = { .f16, .bf16 }", ".btype").unwrap(), [".f16", ".bf16"]);
        assert_eq!(values_of(".atype = { .f16 }", ".btype"), None);
    }

    /// `2 ^ a` and `2 ^ fA[0]` (set from `a`), each a finding with its
    /// repair; a helper's result is not read as floating-point.
    #[test]
    fn xor_on_a_floating_value_is_found_with_its_power() {
        let found = check(&doc(EX2));
        let fragments: Vec<&str> = found.iter().map(|f| f.fragment.as_str()).collect();
        assert_eq!(fragments, ["2 ^ a", "2 ^ fA[0]"]);
        assert_eq!(found[0].repairs.first().unwrap().new, "pow(2, a)");
        assert_eq!(found[1].repairs.first().unwrap().new, "pow(2, fA[0])");
        assert_eq!(found[0].summary, found[1].summary, "one defect, many places");
        assert_eq!(found[1].id, "text-operator-9.7.3.21-xor-2");
    }

    #[test]
    fn a_source_typed_as_a_predicate_holds_no_floating_point_value() {
        let setp = |description: &str| {
            format!(
                "#### 9.7.7.2. setp\n\nSyntax\n\n```\nsetp.CmpOp.BoolOp.f16 p, a, b, c;\n```\n\n\
                 Description\n\n{description}\n\nSemantics\n\n```\np = t & c;\nq = a & c;\n```\n"
            )
        };
        let fragments = |d: &str| check(&doc(&setp(d))).into_iter().map(|f| f.fragment).collect::<Vec<_>>();
        assert_eq!(fragments("Compare."), ["t & c", "a & c"]);
        assert_eq!(fragments("Operand `c` has type `.pred`."), ["a & c"]);
    }

    /// The same block of an integer instruction is C.
    #[test]
    fn an_integer_section_is_not_read_as_floating_point() {
        assert!(check(&doc(&EX2.replace(".f16, .f16x2", ".u16, .f16x2"))).is_empty());
        assert!(check(&doc(&EX2.replace(".f16, .f16x2", ".b32"))).is_empty());
    }
}
