//! The tree written back as text, in one canonical layout: parentheses
//! where the tree has them and where C's precedence needs them, four
//! spaces a level. Parsing what this prints gives the same tree again
//! (tested), so a finding can quote a statement as the parser read it.

use std::fmt::{self, Write};

use super::ast::*;

/// How tightly an expression binds, at its top.
fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Comma(..) => PREC_COMMA,
        ExprKind::Assign(..) => PREC_ASSIGN,
        ExprKind::Conditional(..) => PREC_CONDITIONAL,
        ExprKind::Placeholder { .. } => PREC_PLACEHOLDER,
        ExprKind::Binary(op, ..) => op.precedence(),
        // Prose runs on word after word: it must not be the callee or the
        // right operand of anything that binds tighter than `*`.
        ExprKind::Prose(_) => PREC_MULTIPLICATIVE,
        ExprKind::Unary(..) | ExprKind::Cast(..) | ExprKind::Step { prefix: true, .. } => PREC_UNARY,
        ExprKind::Call(..)
        | ExprKind::Index(..)
        | ExprKind::Slice { .. }
        | ExprKind::Member(..)
        | ExprKind::Step { prefix: false, .. } => PREC_POSTFIX,
        _ => PREC_PRIMARY,
    }
}

/// `e` written on its own.
pub fn expr(e: &Expr) -> String {
    let mut out = String::new();
    expr_at(&mut out, e, 0);
    out
}

/// `e` written where the grammar asks for precedence `min` or tighter.
pub fn expr_at(out: &mut String, e: &Expr, min: u8) {
    if precedence(e) < min {
        out.push('(');
        expr_at(out, e, PREC_COMMA);
        out.push(')');
        return;
    }
    match &e.kind {
        ExprKind::Int { text, .. } => out.push_str(text),
        ExprKind::Float(text) | ExprKind::Name(text) => out.push_str(text),
        ExprKind::Qualifier(q) => {
            out.push('.');
            out.push_str(q);
        }
        ExprKind::Bracketed(n) => {
            let _ = write!(out, "[{n}]");
        }
        ExprKind::Member(base, field) => {
            expr_at(out, base, PREC_POSTFIX);
            let _ = write!(out, ".{field}");
        }
        ExprKind::Paren(inner) => {
            out.push('(');
            expr_at(out, inner, PREC_COMMA);
            out.push(')');
        }
        ExprKind::Unary(op, operand) => {
            out.push_str(op.symbol());
            let mut inner = String::new();
            expr_at(&mut inner, operand, PREC_UNARY);
            // `- -a`, not `--a`, which is a decrement.
            if inner.starts_with(['-', '+']) {
                out.push(' ');
            }
            out.push_str(&inner);
        }
        ExprKind::Abs(inner) => {
            let mut text = String::new();
            expr_at(&mut text, inner, PREC_BIT_OR + 1);
            // `| |a| |`, not `||a||`, which holds two `||`.
            let (open, close) =
                (if text.starts_with('|') { "| " } else { "|" }, if text.ends_with('|') { " |" } else { "|" });
            let _ = write!(out, "{open}{text}{close}");
        }
        ExprKind::Step { op, prefix, target } => {
            let symbol = if *op == StepOp::Increment { "++" } else { "--" };
            if *prefix {
                out.push_str(symbol);
                let mut inner = String::new();
                expr_at(&mut inner, target, PREC_UNARY);
                if inner.starts_with(['-', '+']) {
                    out.push(' ');
                }
                out.push_str(&inner);
            } else {
                expr_at(out, target, PREC_POSTFIX);
                out.push_str(symbol);
            }
        }
        ExprKind::Binary(op, l, r) => {
            expr_at(out, l, op.precedence());
            let _ = write!(out, " {} ", op.symbol());
            expr_at(out, r, op.precedence() + 1);
        }
        ExprKind::Placeholder { name, lhs, rhs } => {
            expr_at(out, lhs, PREC_PLACEHOLDER);
            let _ = write!(out, " {name} ");
            expr_at(out, rhs, PREC_PLACEHOLDER + 1);
        }
        ExprKind::Conditional(c, t, f) => {
            expr_at(out, c, PREC_PLACEHOLDER);
            out.push_str(" ? ");
            expr_at(out, t, PREC_COMMA);
            out.push_str(" : ");
            expr_at(out, f, PREC_CONDITIONAL);
        }
        ExprKind::Assign(op, target, value) => {
            expr_at(out, target, PREC_UNARY);
            let _ = write!(out, " {} ", op.symbol());
            expr_at(out, value, PREC_ASSIGN);
        }
        ExprKind::Call(f, args) => {
            expr_at(out, f, PREC_POSTFIX);
            out.push('(');
            for (k, a) in args.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                expr_at(out, a, PREC_ASSIGN);
            }
            out.push(')');
        }
        ExprKind::Index(base, index) => {
            expr_at(out, base, PREC_POSTFIX);
            out.push('[');
            expr_at(out, index, PREC_COMMA);
            out.push(']');
        }
        ExprKind::Slice { base, first, second, notation } => slice(out, base, first, second, *notation),
        ExprKind::Cast(ty, operand) => {
            let _ = write!(out, "({})", ty.spelled);
            expr_at(out, operand, PREC_UNARY);
        }
        ExprKind::Comma(l, r) => {
            expr_at(out, l, PREC_COMMA);
            out.push_str(", ");
            expr_at(out, r, PREC_ASSIGN);
        }
        ExprKind::Prose(words) => out.push_str(&words.join(" ")),
        ExprKind::Malformed => out.push_str("/* malformed */"),
    }
}

/// `x[first:second]` or `x<first..second>`, bounds as written.
fn slice(out: &mut String, base: &Expr, first: &Expr, second: &Expr, notation: SliceNotation) {
    expr_at(out, base, PREC_POSTFIX);
    match notation {
        SliceNotation::Brackets => {
            out.push('[');
            expr_at(out, first, PREC_COMMA);
            out.push(':');
            expr_at(out, second, PREC_COMMA);
            out.push(']');
        }
        SliceNotation::Angles => {
            out.push('<');
            expr_at(out, first, PREC_ADDITIVE);
            out.push_str("..");
            expr_at(out, second, PREC_ADDITIVE);
            // `> >`, not `>>`, which is a shift.
            if out.ends_with('>') {
                out.push(' ');
            }
            out.push('>');
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        expr_at(&mut out, self, PREC_COMMA);
        f.write_str(&out)
    }
}

fn indent(out: &mut String, level: usize) {
    out.push_str(&"    ".repeat(level));
}

/// A declaration without its `;`: `.u32 d = 0, e`.
fn declaration(out: &mut String, ty: &TypeName, declarators: &[Declarator]) {
    out.push_str(&ty.spelled);
    out.push(' ');
    for (k, d) in declarators.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(&d.name);
        if let Some(size) = &d.array {
            let _ = write!(out, "[{size}]");
        }
        if let Some(init) = &d.init {
            out.push_str(" = ");
            expr_at(out, init, PREC_ASSIGN);
        }
    }
}

/// A statement at `level`, ending with a line break.
pub fn stmt(out: &mut String, s: &Stmt, level: usize) {
    indent(out, level);
    stmt_inline(out, s, level);
    if let Some(c) = &s.comment {
        let _ = write!(out, "  // {}", c.text);
    }
    out.push('\n');
}

/// A statement's text from its first character, at `level` for the lines
/// after its first, without the final line break.
fn stmt_inline(out: &mut String, s: &Stmt, level: usize) {
    match &s.kind {
        StmtKind::Expr(e) => {
            let _ = write!(out, "{e};");
        }
        StmtKind::Declare { ty, declarators } => {
            declaration(out, ty, declarators);
            out.push(';');
        }
        StmtKind::Block(body) => braced(out, body, level),
        StmtKind::If { cond, then, otherwise } => {
            let _ = write!(out, "if ({cond})");
            body(out, then, level);
            if let Some(o) = otherwise {
                if matches!(then.kind, StmtKind::Block(_)) {
                    out.push(' ');
                } else {
                    out.push('\n');
                    indent(out, level);
                }
                out.push_str("else");
                // `else if`: the chain stays at one level.
                if matches!(o.kind, StmtKind::If { .. }) {
                    out.push(' ');
                    stmt_inline(out, o, level);
                } else {
                    body(out, o, level);
                }
            }
        }
        StmtKind::Switch { subject, body: b } => {
            let _ = writeln!(out, "switch ({subject}) {{");
            // The labels one level in, their statements two.
            for s in b {
                let label = matches!(s.kind, StmtKind::Case(_) | StmtKind::Default);
                stmt(out, s, level + if label { 1 } else { 2 });
            }
            indent(out, level);
            out.push('}');
        }
        StmtKind::Case(label) => {
            let _ = write!(out, "case {label}:");
        }
        StmtKind::Default => out.push_str("default:"),
        StmtKind::For { init, cond, step, body: b } => {
            out.push_str("for (");
            match init.as_deref().map(|i| &i.kind) {
                Some(StmtKind::Declare { ty, declarators }) => declaration(out, ty, declarators),
                Some(StmtKind::Expr(e)) => {
                    let _ = write!(out, "{e}");
                }
                _ => {}
            }
            out.push(';');
            if let Some(c) = cond {
                let _ = write!(out, " {c}");
            }
            out.push(';');
            if let Some(st) = step {
                let _ = write!(out, " {st}");
            }
            out.push(')');
            body(out, b, level);
        }
        StmtKind::While { cond, body: b } => {
            let _ = write!(out, "while ({cond})");
            body(out, b, level);
        }
        StmtKind::DoWhile { body: b, cond } => {
            out.push_str("do");
            body(out, b, level);
            let _ = write!(out, " while ({cond});");
        }
        StmtKind::Break => out.push_str("break;"),
        StmtKind::Continue => out.push_str("continue;"),
        StmtKind::Return(None) => out.push_str("return;"),
        StmtKind::Return(Some(e)) => {
            let _ = write!(out, "return {e};");
        }
        StmtKind::Function { name, returns, params, body: b } => {
            let params: Vec<String> = params
                .iter()
                .map(|p| p.ty.as_ref().map_or(p.name.clone(), |t| format!("{} {}", t.spelled, p.name)))
                .collect();
            match returns {
                Some(t) => {
                    let _ = write!(out, "{} {name}({}) ", t.spelled, params.join(", "));
                }
                None => {
                    let _ = write!(out, "def {name} ({}) ", params.join(", "));
                }
            }
            braced(out, b, level);
        }
        StmtKind::Empty => out.push(';'),
        StmtKind::Malformed => out.push_str("/* malformed */"),
    }
}

/// The body of an `if`, `else` or loop: a braced block on the same line,
/// any other statement on the next line, one level in.
fn body(out: &mut String, s: &Stmt, level: usize) {
    if matches!(s.kind, StmtKind::Block(_)) {
        out.push(' ');
        stmt_inline(out, s, level);
        return;
    }
    out.push('\n');
    indent(out, level + 1);
    stmt_inline(out, s, level + 1);
}

fn braced(out: &mut String, stmts: &[Stmt], level: usize) {
    out.push_str("{\n");
    for s in stmts {
        stmt(out, s, level + 1);
    }
    indent(out, level);
    out.push('}');
}

/// A block's statements, one per line.
pub fn block(stmts: &[Stmt]) -> String {
    let mut out = String::new();
    for s in stmts {
        stmt(&mut out, s, 0);
    }
    out
}

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        stmt_inline(&mut out, self, 0);
        f.write_str(&out)
    }
}
