//! The Semantics blocks of the sections with no model, read as C for what
//! C says of them without one. Where a section has a model, the literal
//! reading (`crate::audit::literal`) runs its block on every input and
//! finds these with values; here there are no values, only the order of
//! the statements:
//!
//! - a destination operand of the Syntax (`d`, the document's name for
//!   it) that no statement stores: the block never gives the
//!   instruction's result;
//! - a variable of the block read before any statement stores it, in the
//!   order the block runs: its value is indeterminate there (C11
//!   6.7.9p10), and reading it is undefined (C11 6.3.2.1p2). An operand is
//!   a register, which holds a value before the block runs;
//! - an integer constant shifted by a constant at least the width of its
//!   type (C11 6.5.7p3), or a signed one shifted left into or past its
//!   sign bit (6.5.7p4), undefined on every input.
//!
//! Only blocks that parse are read. A store under a condition counts as a
//! store from there on (the reading asks whether any path stores it, so
//! that a branch the text leaves to its modifiers is no false alarm), and
//! a helper the block defines is read on its own, its parameters set.
//! Fall-through, overwritten results and integer operators on
//! floating-point values are the passes `control`, `order` and
//! `operators`, which read every section.

use std::collections::BTreeSet;

use super::document::{Document, Section};
use super::names::templates;
use super::semantics;
use crate::audit::finding::{Finding, FindingKind, Severity};
use crate::audit::literal::parse_literal;
use crate::audit::literal::table::BLOCKS;
use crate::pseudocode::ast::{BinaryOp, Expr, ExprKind, Stmt, StmtKind};
use crate::pseudocode::print;

/// Whether the audit reads `section`'s block with a model.
fn modelled(section: &str) -> bool {
    BLOCKS.iter().any(|b| b.section == section)
}

/// The names an expression reads, in the order C evaluates a store (the
/// value, then the target's index): the target of a plain store to a
/// name, and the array of a store to one of its elements or bits, are not
/// read. A called function's name is not a value.
fn reads(e: &Expr, out: &mut Vec<(String, usize)>) {
    match &e.kind {
        ExprKind::Assign(op, target, value) => {
            reads(value, out);
            match &target.without_parens().kind {
                ExprKind::Name(n) if op.0.is_some() => out.push((n.clone(), target.span.start.line)),
                ExprKind::Name(_) => {}
                // `x[i] += v` reads x[i]; `x[i] = v` reads only i.
                ExprKind::Index(base, index) => {
                    if op.0.is_some() {
                        reads(base, out);
                    }
                    reads(index, out);
                }
                // A member or bits stored: not a read of the variable.
                ExprKind::Slice { .. } | ExprKind::Member(..) => {}
                _ => reads(target, out),
            }
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| reads(a, out)),
        ExprKind::Name(n) => out.push((n.clone(), e.span.start.line)),
        kind => kind.children().for_each(|x| reads(x, out)),
    }
}

/// The names a statement stores, the statements inside it included.
fn stores(s: &Stmt) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    s.walk(&mut |x| {
        if let StmtKind::Declare { declarators, .. } = &x.kind {
            out.extend(declarators.iter().filter(|d| d.init.is_some() || d.array.is_some()).map(|d| d.name.clone()));
        }
        for e in x.expressions() {
            e.walk(&mut |y| {
                let target = match &y.kind {
                    ExprKind::Assign(_, target, _) => target,
                    ExprKind::Step { target, .. } => target,
                    _ => return,
                };
                if let Some(n) = stored_name(target) {
                    out.insert(n.to_string());
                }
            });
        }
    });
    out
}

/// The variable a store's target names: `d`, `fA` of `fA[0]`.
fn stored_name(target: &Expr) -> Option<&str> {
    match &target.kind {
        ExprKind::Name(n) => Some(n),
        ExprKind::Paren(x) | ExprKind::Index(x, _) | ExprKind::Member(x, _) => stored_name(x),
        ExprKind::Slice { base, .. } => stored_name(base),
        _ => None,
    }
}

/// A variable read before any statement stores it: its name and line.
#[derive(Debug, PartialEq, Eq)]
struct Unset {
    name: String,
    line: usize,
}

/// The walk of one body in the order it runs.
struct Walk<'v> {
    /// The names the body stores somewhere: the only ones asked about (a
    /// name it never stores is an operand, a constant or a helper, which
    /// other passes read).
    variables: &'v BTreeSet<String>,
    set: BTreeSet<String>,
    found: Vec<Unset>,
}

impl Walk<'_> {
    fn expr(&mut self, e: &Expr) {
        let mut names = Vec::new();
        reads(e, &mut names);
        for (name, line) in names {
            if self.variables.contains(&name) && !self.set.contains(&name) && !self.found.iter().any(|u| u.name == name)
            {
                self.found.push(Unset { name, line });
            }
        }
        let mut stored = BTreeSet::new();
        e.walk(&mut |y| {
            if let ExprKind::Assign(_, target, _) | ExprKind::Step { target, .. } = &y.kind {
                if let Some(n) = stored_name(target) {
                    stored.insert(n.to_string());
                }
            }
        });
        self.set.extend(stored);
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(body) => body.iter().for_each(|x| self.stmt(x)),
            StmtKind::Switch { subject, body } => {
                self.expr(subject);
                body.iter().for_each(|x| self.stmt(x));
            }
            // A helper is read on its own ([`unset`]).
            StmtKind::Function { .. } => {}
            StmtKind::Declare { declarators, .. } => {
                for d in declarators {
                    if let Some(init) = &d.init {
                        self.expr(init);
                        self.set.insert(d.name.clone());
                    }
                    if d.array.is_some() {
                        self.set.insert(d.name.clone());
                    }
                }
            }
            StmtKind::If { cond, then, otherwise } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(o) = otherwise {
                    self.stmt(o);
                }
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.stmt(body);
                if let Some(x) = step {
                    self.expr(x);
                }
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.stmt(body);
                self.expr(cond);
            }
            _ => s.expressions().into_iter().for_each(|e| self.expr(e)),
        }
    }
}

/// The variables `statements` read before storing them: the block's own
/// body, and each helper it defines, whose parameters are set.
fn unset(statements: &[Stmt], operands: &BTreeSet<String>) -> Vec<Unset> {
    // A name a helper stores is the helper's own.
    let own = statements.iter().filter(|s| !matches!(s.kind, StmtKind::Function { .. }));
    let variables: BTreeSet<String> = own.flat_map(stores).filter(|n| !operands.contains(n)).collect();
    let mut walk = Walk { variables: &variables, set: BTreeSet::new(), found: Vec::new() };
    for s in statements {
        walk.stmt(s);
    }
    let mut found = walk.found;
    for s in statements {
        if let StmtKind::Function { params, body, .. } = &s.kind {
            let variables: BTreeSet<String> = body.iter().flat_map(stores).collect();
            let set = params.iter().map(|p| p.name.clone()).collect();
            let mut walk = Walk { variables: &variables, set, found: Vec::new() };
            body.iter().for_each(|x| walk.stmt(x));
            for u in walk.found {
                if !found.iter().any(|f| f.name == u.name) {
                    found.push(u);
                }
            }
        }
    }
    found
}

/// The state outside the operands that the document's Semantics blocks
/// store, with what it is: a store to it is the instruction's effect.
const MACHINE_STATE: &[(&str, &str)] = &[
    ("pc", "the program counter, which a branch stores (bra, brx.idx)"),
    ("CC", "the condition-code register, whose carry flag the extended-precision instructions store (`CC.CF`)"),
];

/// The variables the block's own body stores and nothing reads: names
/// no operand of the Syntax writes, whose value the block loses (st's
/// `d = a`, copied from ld, where st has no `d`). Each with the line of
/// its first store.
fn lost(statements: &[Stmt], operands: &[String]) -> Vec<Unset> {
    let mut read = Vec::new();
    for s in statements {
        s.walk(&mut |x| x.expressions().into_iter().for_each(|e| reads(e, &mut read)));
    }
    let mut out: Vec<Unset> = Vec::new();
    for s in statements.iter().filter(|s| !matches!(s.kind, StmtKind::Function { .. })) {
        s.walk(&mut |x| {
            for e in x.expressions() {
                e.walk(&mut |y| {
                    let ExprKind::Assign(_, target, _) = &y.kind else { return };
                    let Some(name) = stored_name(target) else { return };
                    let known = operands.iter().any(|o| o == name)
                        || read.iter().any(|(r, _)| r == name)
                        || MACHINE_STATE.iter().any(|(n, _)| *n == name);
                    if !known && !out.iter().any(|u| u.name == name) {
                        out.push(Unset { name: name.to_string(), line: target.span.start.line });
                    }
                });
            }
        });
    }
    out
}

/// An integer constant shifted by a constant at least its type's width,
/// or a signed one shifted into its sign bit: the expression and why.
fn constant_shifts(statements: &[Stmt]) -> Vec<(Expr, String)> {
    let mut out = Vec::new();
    for s in statements {
        s.walk(&mut |s| {
            for e in s.expressions() {
                e.walk(&mut |e| {
                    let ExprKind::Binary(op @ (BinaryOp::Shl | BinaryOp::Shr), x, y) = &e.kind else { return };
                    let (ExprKind::Int { text, .. }, ExprKind::Int { value: by, .. }) =
                        (&x.without_parens().kind, &y.without_parens().kind)
                    else {
                        return;
                    };
                    let Some((value, ty)) = parse_literal(text) else { return };
                    let symbol = if *op == BinaryOp::Shl { "<<" } else { ">>" };
                    let (name, width) = (ty.name(), ty.width());
                    if *by >= u128::from(width) {
                        let why = format!(
                            "`{text}` is {} {name}, {width} bits wide: `{symbol}` by {by} is past its width",
                            article(name)
                        );
                        out.push((e.clone(), why));
                    } else if *op == BinaryOp::Shl && ty.is_signed() && value != 0 {
                        // C11 6.5.7p4: the result must fit the signed type.
                        let bits = 128 - value.leading_zeros();
                        if bits + *by as u32 > width - 1 {
                            let why = format!(
                                "`{text}` is {} {name}: `{symbol}` by {by} shifts a bit into or past its sign bit",
                                article(name)
                            );
                            out.push((e.clone(), why));
                        }
                    }
                });
            }
        });
    }
    out
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The destination operand of a section's Syntax, where the document's
/// convention names it: `d`, the first operand of a form. Not every
/// instruction has one (`bra tgt`'s first operand is a source), so an
/// operand named otherwise is not read as one.
fn destinations(section: &Section) -> Vec<String> {
    let first = templates(section).into_iter().filter_map(|t| t.operands.into_iter().next());
    let named_d = first.flatten().any(|name| name.trim_matches(['{', '}', '[', ']']) == "d");
    if named_d {
        vec!["d".to_string()]
    } else {
        Vec::new()
    }
}

/// Whether a line of code assigns `name` (`d = ...`, `d[7:0] = ...`,
/// `d.x = ...`), not compares it.
fn assigns(line: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        if before.is_some_and(|c| ident(c) || c == '.') {
            return false;
        }
        let mut rest = &line[at + name.len()..];
        if rest.starts_with(ident) {
            return false;
        }
        if line[..at].trim_end().ends_with("++") || line[..at].trim_end().ends_with("--") {
            return true;
        }
        while let Some(inner) = rest.strip_prefix('[') {
            rest = inner.split_once(']').map_or("", |(_, r)| r);
        }
        if let Some(field) = rest.strip_prefix('.') {
            rest = field.trim_start_matches(ident);
        }
        let rest = rest.trim_start();
        let compound = ["+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", "++", "--"];
        (rest.starts_with('=') && !rest.starts_with("==")) || compound.iter().any(|op| rest.starts_with(op))
    })
}

/// The finding where no store of the block is to a destination.
fn never_stored(s: &Section, dests: &[String], stored: impl Fn(&String) -> bool, how: &str) -> Option<Finding> {
    if dests.is_empty() || dests.iter().any(stored) {
        return None;
    }
    let names = dests.join("`, `");
    let mut f = Finding::of_text(
        format!("text-flow-{}-result-never-stored", s.number),
        s.number.clone(),
        FindingKind::LiteralReading,
        dests[0].clone(),
        format!("read as C, the Semantics block never stores the destination `{names}`: it gives no result"),
        vec![format!(
            "{}: no statement of the block assigns `{names}`, the destination of the Syntax{how}; read as a \
             program, the instruction's result is never computed.",
            s.file
        )],
    );
    f.severity = Severity::High;
    Some(f)
}

/// The Semantics blocks of the sections with no model: the sections of
/// those read, and of those not read because they do not parse (their
/// malformed-code findings say where).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Reading {
    pub read: Vec<String>,
    pub unparsed: Vec<String>,
}

/// Which blocks of sections with no model this pass reads.
pub fn reading(doc: &Document) -> Reading {
    let mut out = Reading::default();
    for r in semantics::read_once(doc) {
        if modelled(&r.section.number) || r.parsed.statements.is_empty() {
            continue;
        }
        let to = if r.parsed.diagnostics.is_empty() { &mut out.read } else { &mut out.unparsed };
        to.push(r.section.number.clone());
    }
    out
}

/// The findings of every Semantics block of a section with no model that
/// parses.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in semantics::read_once(doc) {
        let s = r.section;
        if modelled(&s.number) || r.parsed.statements.is_empty() {
            continue;
        }
        if !r.parsed.diagnostics.is_empty() {
            // A block that does not parse is read line by line for its
            // stores: a line that assigns the destination (`d = ...`,
            // `d[i] = ...`) is one.
            let lines: Vec<&str> = s
                .block(super::document::BlockKind::Semantics)
                .map(|b| b.code().map(|l| super::helpers::code_of(&l.text)).collect())
                .unwrap_or_default();
            let stored = |d: &String| lines.iter().any(|l| assigns(l, d));
            out.extend(never_stored(s, &destinations(s), stored, " (the block does not parse: read line by line)"));
            continue;
        }
        let statements = &r.parsed.statements;
        let stored: BTreeSet<String> = statements.iter().flat_map(stores).collect();
        out.extend(never_stored(s, &destinations(s), |d| stored.contains(d), ""));
        let operands: BTreeSet<String> =
            templates(s).into_iter().flat_map(|t| t.operands.into_iter().flatten()).collect();
        for u in unset(statements, &operands) {
            let mut f = Finding::of_text(
                format!("text-flow-{}-read-before-set-{}", s.number, u.name.to_lowercase()),
                s.number.clone(),
                FindingKind::LiteralReading,
                u.name.clone(),
                format!(
                    "read as C, `{}` is read before any statement sets it: its value is indeterminate there (C11 \
                     6.7.9p10)",
                    u.name
                ),
                vec![format!(
                    "{}:{}: `{}` is read here, and stored only later in the block; C reads an indeterminate value \
                     (undefined, C11 6.3.2.1p2).",
                    s.file, u.line, u.name
                )],
            );
            f.severity = Severity::Medium;
            out.push(f);
        }
        let words = super::names::operand_words(s);
        for u in lost(statements, &words).into_iter().filter(|_| !words.is_empty()) {
            let mut f = Finding::of_text(
                format!("text-flow-{}-stored-and-lost-{}", s.number, u.name.to_lowercase()),
                s.number.clone(),
                FindingKind::LiteralReading,
                u.name.clone(),
                format!(
                    "read as C, the Semantics block stores `{}`, which is no operand of the Syntax and which no \
                     statement reads: the value is lost",
                    u.name
                ),
                vec![format!(
                    "{}:{}: `{}` is stored here; the Syntax's operands are {}, and nothing after reads it, so the \
                     store gives the instruction nothing.",
                    s.file,
                    u.line,
                    u.name,
                    words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
                )],
            );
            f.severity = Severity::Medium;
            out.push(f);
        }
        for (k, (e, why)) in constant_shifts(statements).into_iter().enumerate() {
            let suffix = if k == 0 { String::new() } else { format!("-{}", k + 1) };
            let mut f = Finding::of_text(
                format!("text-flow-{}-shift-past-width{suffix}", s.number),
                s.number.clone(),
                FindingKind::LiteralReading,
                print::expr(&e),
                "read as C, a constant is shifted by its width or more, or into its sign bit, which is undefined (C11 \
                 6.5.7p3-4)"
                    .to_string(),
                vec![format!("{}:{}: {why}.", s.file, e.span.start.line)],
            );
            f.severity = Severity::Medium;
            out.push(f);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_stores_its_destination_by_any_assignment() {
        for line in ["d = a;", "d[7:0] = a;", "d[i][j] = a;", "d.x = a;", "d |= a;", "d += 1;", "d++;", "++d;"] {
            assert!(assigns(line, "d"), "{line}");
        }
        for line in ["dd = a;", "x = d;", "if (d == a) x = 1;", "d <= a;", "sd = d;"] {
            assert!(!assigns(line, "d"), "{line}");
        }
    }

    fn doc(text: &str) -> Document {
        Document::of_markdown(text)
    }

    fn section(semantics: &str) -> String {
        format!(
            "#### 9.7.99.1. fop\n\nDescription\n\nOperates.\n\nSyntax\n\n```\nfop.f32 d, a, b;\n```\n\nSemantics\n\n```\n{semantics}\n```\n"
        )
    }

    fn ids(semantics: &str) -> Vec<String> {
        check(&doc(&section(semantics))).into_iter().map(|f| f.id).collect()
    }

    #[test]
    fn a_block_that_stores_its_result_from_set_values_is_c() {
        assert!(ids("t = a + b;\nd = t;").is_empty());
        // A store on one path counts from there on.
        assert!(ids("if (.sat) { t = a; } else { t = b; }\nd = t;").is_empty());
        assert!(ids("if (.abs) t = |a|;\nd = t;").is_empty());
        // A helper's parameters are set.
        assert_eq!(ids("def f(z, x) { z = x; return z; }\nd = f(d, a);"), Vec::<String>::new());
        // `d.x` stores d, and `t.x` stores t without reading it.
        assert!(ids("d.x = a;").is_empty());
        assert!(ids("t.x = a;\nd = t.x;").is_empty());
        // A name a helper stores is the helper's own.
        assert!(ids("def f(z) { y = z; return y; }\nd = f(a);").is_empty());
    }

    #[test]
    fn a_variable_read_before_its_store_is_found_with_its_line() {
        let found = check(&doc(&section("d = t + a;\nt = b;")));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].id, "text-flow-9.7.99.1-read-before-set-t");
        assert!(found[0].detail[0].contains("f.md:"), "{:?}", found[0].detail);
        // `x += 1` reads x; a loop's body reads before its own store.
        assert_eq!(ids("x += 1;\nd = x;"), ["text-flow-9.7.99.1-read-before-set-x"]);
        assert_eq!(ids("while (a) { d = s; s = b; }"), ["text-flow-9.7.99.1-read-before-set-s"]);
        // A `switch`'s subject is read before its cases run.
        assert_eq!(ids("switch (m) { case 1: m = a; }\nd = m;"), ["text-flow-9.7.99.1-read-before-set-m"]);
        assert_eq!(ids("x[0] = a;\nx[1] += b;\nd = x[1];"), Vec::<String>::new());
        // A helper's own body is read with its parameters set.
        assert_eq!(ids("def f(z) { y = w; w = z; return y; }\nd = f(a);"), ["text-flow-9.7.99.1-read-before-set-w"]);
    }

    #[test]
    fn a_result_never_stored_and_a_constant_shifted_past_its_width_are_found() {
        assert_eq!(
            ids("t = a + b;"),
            ["text-flow-9.7.99.1-result-never-stored", "text-flow-9.7.99.1-stored-and-lost-t"]
        );
        let found = check(&doc(&section("d = a * (1 << 32);")));
        assert_eq!(found.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["text-flow-9.7.99.1-shift-past-width"]);
        assert!(found[0].detail[0].contains("an int, 32 bits wide"), "{:?}", found[0].detail);
        assert!(ids("d = a * (1 << 30) * (1u << 31) * (1ULL << 40);").is_empty());
        assert_eq!(ids("d = a * (1 << 31);"), ["text-flow-9.7.99.1-shift-past-width"]);
    }

    /// A store to a name that is no operand and that nothing reads is lost:
    /// st's `d = a`, where st's operands are `a` and `b`.
    #[test]
    fn a_store_nothing_reads_to_no_operand_is_lost() {
        let text = section("d = a;\n*a = b;").replace("fop.f32 d, a, b;", "st.b32 [a], b;");
        let found = check(&doc(&text));
        assert_eq!(found.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["text-flow-9.7.99.1-stored-and-lost-d"]);
        assert!(found[0].detail[0].contains("`a`, `b`"), "{:?}", found[0].detail);
        // A temporary read later, an operand stored, a helper's own: none.
        assert!(ids("t = a + b;\nd = t;").is_empty());
        assert!(ids("def f(z) { y = z; return y; }\nd = f(a);").is_empty());
    }

    /// A first operand that is not `d` is no destination: `bra tgt`.
    #[test]
    fn a_branch_has_no_destination() {
        let text = section("if (p) { pc = tgt; }").replace("fop.f32 d, a, b;", "@p bra tgt;");
        assert!(check(&doc(&text)).is_empty());
    }

    /// A section the audit models is the literal reading's, with values.
    #[test]
    fn a_modelled_section_is_left_to_the_literal_reading() {
        assert!(modelled("9.7.1.1") && modelled("9.7.6.2") && !modelled("9.7.3.3"));
    }

    /// An operand is a register, which holds a value before the block
    /// runs: a destination passed to a helper before it is stored is read,
    /// not indeterminate.
    #[test]
    fn an_operand_is_set_before_the_block() {
        assert!(ids("d = f(d, a);\ndef f(z, x) { return x; }").is_empty());
    }
}
