//! The literal C reading of a Semantics block as the document writes it:
//! the parsed statements (`crate::pseudocode`) walked with C's meaning,
//! over the same C semantics ([`super::C`]) the hand transcriptions of
//! [`super::blocks`] use. Each operation records its hazards under the
//! block's own text of it (`a << b`), so a vendor edit to a block is read,
//! not only noticed.
//!
//! C's meaning, where the dialect and C part:
//! - a `switch` runs on from its matching label to a `break` or its end
//!   (the fall-through of C11 6.8.4.2), labels included;
//! - a variable the block does not declare takes the type of the first
//!   value stored in it, as an `auto` declaration would; an operand has
//!   its PTX type's C type (`.u32` is `unsigned int`);
//! - a modifier is a value: `.mode` (or `shf.dir`) is the qualifier the
//!   variant writes for it, `.clamp` (or `shf.l`) that qualifier itself,
//!   and two of them compare equal when they are the same qualifier;
//! - `min(x, y)` and `max(x, y)` are the usual functions on the arguments'
//!   common type;
//! - a result never stored is undefined.
//!
//! The reading runs beside the transcriptions until every family has
//! switched; a test compares the two, hazard by hazard, on every variant
//! of the families that have.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Mutex, OnceLock};

use ptx_spec::bv::{Algebra, Concrete};
use ptx_spec::catalogue::{Out, Outputs, Type, Variant};

use crate::audit::text::document::Document;
use crate::pseudocode::ast::{AssignOp, BinaryOp, Expr, ExprKind, Span, Stmt, StmtKind, UnaryOp};
use crate::pseudocode::print;
use crate::pseudocode::setting::Setting;
use crate::text_proof::{operand_has_own_type, read_block, setting};

use super::blocks::Transcription;
use super::{CInt, CType, C};

/// One variant's block as the reading takes it.
struct Read {
    variant: Variant,
    statements: Vec<Stmt>,
    /// The parsed lines (number, text): where a fragment's text is read.
    lines: Vec<(usize, String)>,
    setting: Setting,
}

/// The literal reading of the blocks of some variants, parsed from a
/// document.
pub struct ParsedReading {
    reads: Vec<Read>,
}

impl ParsedReading {
    /// The blocks of `variants` in `doc`. Each is read once on concrete
    /// inputs here, so that a block the reading cannot follow is refused
    /// with its place and reason, before any audit runs on it.
    pub fn of(doc: &Document, variants: &[Variant]) -> Result<ParsedReading, String> {
        let mut reads = Vec::new();
        for v in variants {
            let block = read_block(doc, v).map_err(|e| format!("{v}: {e}"))?;
            let setting = setting(v, &block.readings).map_err(|e| format!("{v}: {e}"))?;
            reads.push(Read { variant: *v, statements: block.parsed.statements, lines: block.lines, setting });
        }
        let reading = ParsedReading { reads };
        for r in &reading.reads {
            let alg = Concrete;
            let mut c = C::new(&alg);
            let inputs: Vec<_> = r.variant.inputs().iter().map(|o| alg.constant(o.ty.width(), 0)).collect();
            Reader::new(r, &mut c, &inputs).run(&mut c).map_err(|e| format!("{}: {e}", r.variant))?;
        }
        Ok(reading)
    }

    fn read(&self, variant: &Variant) -> &Read {
        self.reads.iter().find(|r| r.variant == *variant).unwrap_or_else(|| panic!("{variant} was not read"))
    }

    /// The outputs of `variant` as the block computes them read as C, or
    /// where the reading stops and why.
    pub fn try_literal<A: Algebra>(&self, c: &mut C<A>, variant: &Variant, inputs: &[A::Bv]) -> Run<Outputs<A>> {
        let r = self.read(variant);
        Reader::new(r, c, inputs).run(c)
    }
}

impl Transcription for ParsedReading {
    fn literal<A: Algebra>(&self, c: &mut C<A>, variant: &Variant, inputs: &[A::Bv]) -> Outputs<A> {
        // `of` read every variant already: what stops the reading is the
        // text, not the inputs.
        self.try_literal(c, variant, inputs).unwrap_or_else(|e| panic!("{variant}: {e}"))
    }
}

type Run<T> = Result<T, String>;

/// Where the reading stopped, and why.
fn at(span: Span, why: impl std::fmt::Display) -> String {
    format!("line {}: {why}", span.start)
}

/// The fragments of the text a hazard names, kept for the life of the
/// program: hazards name fixed text, and a block's fragments are few.
fn intern(text: String) -> &'static str {
    static SEEN: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut seen = SEEN.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = seen.get(text.as_str()) {
        return known;
    }
    let text: &'static str = Box::leak(text.into_boxed_str());
    seen.insert(text);
    text
}

/// A value of the block: a C integer, or a modifier (`.clamp`).
enum Val<'q, A: Algebra> {
    Int(CInt<A>),
    Modifier(&'q str),
}

// By hand: a derive would ask the algebra itself to be `Copy`.
impl<A: Algebra> Clone for Val<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for Val<'_, A> {}

/// A variable: its value where the block has stored one (`set` says
/// where), and its declared type, if any.
struct Var<A: Algebra> {
    value: CInt<A>,
    set: A::Bool,
    ty: Option<CType>,
}

/// The walk of one block for one variant.
struct Reader<'r, 'a, A: Algebra> {
    read: &'r Read,
    alg: &'a A,
    vars: BTreeMap<String, Var<A>>,
    /// The inputs on which the statement now running runs.
    live: A::Bool,
    /// The inputs that have left the innermost loop or switch by `break`.
    left: A::Bool,
    /// How deep in switches the statement now running is.
    switches: u32,
}

impl<'r, 'a, A: Algebra> Reader<'r, 'a, A> {
    fn new(read: &'r Read, c: &mut C<'a, A>, inputs: &[A::Bv]) -> Reader<'r, 'a, A> {
        let alg = c.alg();
        let mut vars = BTreeMap::new();
        let yes = alg.bool_constant(true);
        for (o, bits) in read.variant.inputs().iter().zip(inputs) {
            let ty = operand_type(c, read, o.name, o.ty.width());
            vars.insert(o.name.to_string(), Var { value: c.operand(*bits, ty), set: yes, ty: Some(ty) });
        }
        // A destination that is also a source (9.7.2's carry flag, which
        // the text updates under the block, not in it) is the block's input.
        for o in block_outputs(&read.variant) {
            let ty = operand_type(c, read, o.name, o.ty.width());
            let value = c.value(ty, 0);
            vars.insert(o.name.to_string(), Var { value, set: alg.bool_constant(false), ty: Some(ty) });
        }
        Reader { read, alg, vars, live: yes, left: alg.bool_constant(false), switches: 0 }
    }

    fn run(mut self, c: &mut C<'a, A>) -> Run<Outputs<A>> {
        let statements = &self.read.statements;
        self.block(c, statements)?;
        Ok(block_outputs(&self.read.variant)
            .iter()
            .map(|o| {
                let v = &self.vars[o.name];
                Out { value: v.value.bits, defined: v.set }
            })
            .collect())
    }

    /// The block's own text at `span` (on one line), else the expression
    /// printed.
    fn fragment(&self, span: Span, printed: impl FnOnce() -> String) -> &'static str {
        let text = (span.start.line == span.end.line)
            .then(|| self.read.lines.iter().find(|(n, _)| *n == span.start.line))
            .flatten()
            .map(|(_, t)| {
                t.chars().skip(span.start.column - 1).take(span.end.column.saturating_sub(span.start.column)).collect()
            })
            .filter(|t: &String| !t.trim().is_empty());
        intern(abbreviated(&text.unwrap_or_else(printed)))
    }

    fn expr_fragment(&self, e: &Expr) -> &'static str {
        self.fragment(e.span, || {
            let mut s = String::new();
            print::expr_at(&mut s, e, 0);
            s
        })
    }

    fn stmt_fragment(&self, s: &Stmt) -> &'static str {
        let f = self.fragment(s.span, || {
            let mut out = String::new();
            print::stmt(&mut out, s, 0);
            out
        });
        intern(f.trim_end_matches(';').trim_end().to_string())
    }

    fn block(&mut self, c: &mut C<'a, A>, statements: &[Stmt]) -> Run<()> {
        for s in statements {
            self.stmt(c, s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, c: &mut C<'a, A>, s: &Stmt) -> Run<()> {
        let alg = self.alg;
        match &s.kind {
            StmtKind::Empty => Ok(()),
            StmtKind::Block(b) => self.block(c, b),
            StmtKind::Expr(e) => {
                let live = self.live;
                let fragment = self.stmt_fragment(s);
                c.guarded(live, |c| self.effect(c, e, fragment))
            }
            StmtKind::Declare { ty, declarators } => {
                let declared = declared_type(c, &ty.spelled)
                    .ok_or_else(|| at(s.span, format!("`{}` is not a C type", ty.spelled)))?;
                let fragment = self.stmt_fragment(s);
                for d in declarators {
                    if d.array.is_some() {
                        return Err(at(s.span, "an array declaration (not read yet)"));
                    }
                    let zero = c.value(declared, 0);
                    let old = self.vars.get(&d.name).map(|v| (v.value, v.set));
                    let (value, set) = old.unwrap_or((zero, alg.bool_constant(false)));
                    self.vars.insert(d.name.clone(), Var { value, set, ty: Some(declared) });
                    if let Some(init) = &d.init {
                        let live = self.live;
                        c.guarded(live, |c| -> Run<()> {
                            let x = self.int(c, init)?;
                            self.store(c, &d.name, x, fragment);
                            Ok(())
                        })?;
                    }
                }
                Ok(())
            }
            StmtKind::If { cond, then, otherwise } => {
                let live = self.live;
                let test = c.guarded(live, |c| self.int(c, cond))?;
                let t = c.truth(test);
                self.live = alg.and(live, t);
                self.stmt(c, then)?;
                self.live = alg.and(live, alg.not(t));
                if let Some(o) = otherwise {
                    self.stmt(c, o)?;
                }
                self.live = alg.and(live, alg.not(self.left));
                Ok(())
            }
            StmtKind::Switch { subject, body } => self.switch(c, subject, body),
            StmtKind::Break => {
                self.left = alg.or(self.left, self.live);
                self.live = alg.bool_constant(false);
                Ok(())
            }
            StmtKind::Case(_) | StmtKind::Default => Err(at(s.span, "a label outside a switch")),
            _ => Err(at(s.span, "a statement the literal reading does not follow yet")),
        }
    }

    /// C11 6.8.4.2: control enters at the matching label (else `default`)
    /// and runs on, past later labels, to a `break` or the end.
    fn switch(&mut self, c: &mut C<'a, A>, subject: &Expr, body: &[Stmt]) -> Run<()> {
        let alg = self.alg;
        let live = self.live;
        let value = c.guarded(live, |c| self.value(c, subject))?;
        let mut matches = Vec::new();
        for s in body {
            if let StmtKind::Case(label) = &s.kind {
                let l = c.guarded(live, |c| self.value(c, label))?;
                matches.push(self.equal(c, value, l, label.span)?);
            }
        }
        let none = matches.iter().fold(alg.bool_constant(true), |acc, m| alg.and(acc, alg.not(*m)));
        let outer_left = std::mem::replace(&mut self.left, alg.bool_constant(false));
        self.switches += 1;
        self.live = alg.bool_constant(false);
        let mut k = 0;
        for s in body {
            let enters = match &s.kind {
                StmtKind::Case(_) => {
                    k += 1;
                    Some(matches[k - 1])
                }
                StmtKind::Default => Some(none),
                _ => None,
            };
            match enters {
                Some(m) => {
                    let entering = alg.and(alg.and(live, m), alg.not(self.left));
                    self.live = alg.or(self.live, entering);
                }
                None => self.stmt(c, s)?,
            }
        }
        self.switches -= 1;
        self.left = outer_left;
        self.live = alg.and(live, alg.not(self.left));
        Ok(())
    }

    /// Whether two values are equal: two modifiers when they are the same
    /// qualifier, two integers as C's `==`.
    fn equal(&self, c: &mut C<'a, A>, x: Val<'_, A>, y: Val<'_, A>, span: Span) -> Run<A::Bool> {
        match (x, y) {
            (Val::Modifier(p), Val::Modifier(q)) => Ok(self.alg.bool_constant(p == q)),
            (Val::Int(a), Val::Int(b)) => {
                let e = c.eq(a, b);
                Ok(c.truth(e))
            }
            _ => Err(at(span, "a modifier compared with an integer")),
        }
    }

    /// An expression evaluated for its effect (an assignment).
    fn effect(&mut self, c: &mut C<'a, A>, e: &Expr, fragment: &'static str) -> Run<()> {
        match &e.kind {
            ExprKind::Paren(inner) => self.effect(c, inner, fragment),
            ExprKind::Assign(op, target, value) => {
                let name = self.target(target)?;
                let x = self.assigned(c, *op, target, value)?;
                self.store(c, &name, x, fragment);
                Ok(())
            }
            _ => Err(at(e.span, "an expression statement that assigns nothing")),
        }
    }

    /// The value `target op= value` stores, before its conversion.
    fn assigned(&mut self, c: &mut C<'a, A>, op: AssignOp, target: &Expr, value: &Expr) -> Run<CInt<A>> {
        let x = self.int(c, value)?;
        match op.0 {
            None => Ok(x),
            Some(op) => {
                let old = self.int(c, target)?;
                let fragment = self.expr_fragment(value);
                self.binary(c, op, old, x, fragment, value.span)
            }
        }
    }

    /// The variable an assignment stores into.
    fn target(&self, e: &Expr) -> Run<String> {
        match &e.kind {
            ExprKind::Name(n) => Ok(n.clone()),
            ExprKind::Paren(inner) => self.target(inner),
            _ => Err(at(e.span, "an assignment to something other than a variable (not read yet)")),
        }
    }

    /// Store `x` into `name` where the statement runs: converted to its
    /// type (C11 6.5.16.1), or, where it has none yet, giving it `x`'s.
    fn store(&mut self, c: &mut C<'a, A>, name: &str, x: CInt<A>, fragment: &'static str) {
        let alg = self.alg;
        let live = self.live;
        let ty = self.vars.get(name).and_then(|v| v.ty).unwrap_or(x.ty);
        let stored = c.assign(fragment, x, ty);
        let var = match self.vars.get(name) {
            Some(old) => {
                let old_value = if old.value.ty == ty { old.value } else { c.convert(old.value, ty) };
                Var {
                    value: CInt { bits: alg.ite(live, stored.bits, old_value.bits), ty },
                    set: alg.or(old.set, live),
                    ty: Some(ty),
                }
            }
            None => Var { value: stored, set: live, ty: Some(ty) },
        };
        self.vars.insert(name.to_string(), var);
    }

    /// An expression that must be an integer.
    fn int(&mut self, c: &mut C<'a, A>, e: &Expr) -> Run<CInt<A>> {
        match self.value(c, e)? {
            Val::Int(x) => Ok(x),
            Val::Modifier(q) => Err(at(e.span, format!("the modifier `{q}` where a value is read"))),
        }
    }

    fn value(&mut self, c: &mut C<'a, A>, e: &Expr) -> Run<Val<'r, A>> {
        let alg = self.alg;
        let read: &'r Read = self.read;
        let setting = &read.setting;
        Ok(Val::Int(match &e.kind {
            ExprKind::Int { text, .. } => {
                if super::parse_literal(text).is_none() {
                    return Err(at(e.span, format!("`{text}` is not a C integer literal")));
                }
                c.lit(text)
            }
            ExprKind::Name(n) => match self.vars.get(n) {
                Some(v) => v.value,
                None => return Err(at(e.span, format!("`{n}` is read and never set"))),
            },
            ExprKind::Qualifier(q) => return Ok(Val::Modifier(modifier(setting, q))),
            ExprKind::Member(base, field) => {
                let joined = match &base.kind {
                    ExprKind::Name(n) => format!("{n}.{field}"),
                    _ => return Err(at(e.span, "a member of an expression")),
                };
                if let Some(v) = self.vars.get(&joined) {
                    v.value
                } else if matches!(&base.kind, ExprKind::Name(n) if n == self.read.variant.opcode()) {
                    return Ok(Val::Modifier(modifier(setting, field)));
                } else {
                    return Err(at(e.span, format!("`{joined}` is neither an operand nor a modifier")));
                }
            }
            ExprKind::Paren(inner) => return self.value(c, inner),
            ExprKind::Unary(op, x) => {
                let fragment = self.expr_fragment(e);
                let x = self.int(c, x)?;
                match op {
                    UnaryOp::Plus => c.promote(x),
                    UnaryOp::Minus => c.neg(fragment, x),
                    UnaryOp::Not => c.lnot(x),
                    UnaryOp::Complement => c.not(x),
                }
            }
            ExprKind::Abs(x) => {
                let fragment = self.expr_fragment(e);
                let x = self.int(c, x)?;
                c.abs(fragment, x)
            }
            ExprKind::Binary(op, x, y) => {
                let fragment = self.expr_fragment(e);
                match op {
                    BinaryOp::And | BinaryOp::Or => {
                        let a = self.int(c, x)?;
                        let t = c.truth(a);
                        let runs = if *op == BinaryOp::And { t } else { alg.not(t) };
                        let b = c.guarded(runs, |c| self.int(c, y))?;
                        let tb = c.truth(b);
                        let r = if *op == BinaryOp::And { alg.and(t, tb) } else { alg.or(t, tb) };
                        c.from_bool(r)
                    }
                    BinaryOp::Eq | BinaryOp::Ne => {
                        let (a, b) = (self.value(c, x)?, self.value(c, y)?);
                        let same = self.equal(c, a, b, e.span)?;
                        c.from_bool(if *op == BinaryOp::Eq { same } else { alg.not(same) })
                    }
                    _ => {
                        let (a, b) = (self.int(c, x)?, self.int(c, y)?);
                        self.binary(c, *op, a, b, fragment, e.span)?
                    }
                }
            }
            ExprKind::Conditional(test, then, otherwise) => {
                let t = self.int(c, test)?;
                let chosen = c.truth(t);
                let a = c.guarded(chosen, |c| self.int(c, then))?;
                let b = c.guarded(alg.not(chosen), |c| self.int(c, otherwise))?;
                c.select(chosen, a, b)
            }
            ExprKind::Call(f, args) => {
                let name = match &f.kind {
                    ExprKind::Name(n) => n.as_str(),
                    _ => return Err(at(e.span, "a call of an expression")),
                };
                match (name, args.as_slice()) {
                    ("min" | "max", [x, y]) => {
                        let (a, b) = (self.int(c, x)?, self.int(c, y)?);
                        if name == "min" {
                            c.min(a, b)
                        } else {
                            let less = c.lt(a, b);
                            let less = c.truth(less);
                            c.select(less, b, a)
                        }
                    }
                    _ => return Err(at(e.span, format!("`{name}` is not a function C or the block defines"))),
                }
            }
            _ => return Err(at(e.span, "an expression the literal reading does not follow yet")),
        }))
    }

    /// `a op b` for an arithmetic, shift, bitwise or relational operator.
    fn binary(
        &mut self,
        c: &mut C<'a, A>,
        op: BinaryOp,
        a: CInt<A>,
        b: CInt<A>,
        fragment: &'static str,
        span: Span,
    ) -> Run<CInt<A>> {
        Ok(match op {
            BinaryOp::Add => c.add(fragment, a, b),
            BinaryOp::Sub => c.sub(fragment, a, b),
            BinaryOp::Mul => c.mul(fragment, a, b),
            BinaryOp::Div => c.div(fragment, a, b),
            BinaryOp::Rem => c.rem(fragment, a, b),
            BinaryOp::Shl => c.shl(fragment, a, b),
            BinaryOp::Shr => c.shr(fragment, a, b),
            BinaryOp::BitAnd => c.and(a, b),
            BinaryOp::BitOr => c.or(a, b),
            BinaryOp::BitXor => c.xor(a, b),
            BinaryOp::Lt => c.lt(a, b),
            BinaryOp::Le => c.le(a, b),
            BinaryOp::Gt => c.gt(a, b),
            BinaryOp::Ge => c.ge(a, b),
            BinaryOp::Eq => c.eq(a, b),
            BinaryOp::Ne => c.ne(a, b),
            BinaryOp::And | BinaryOp::Or => return Err(at(span, "`&&` or `||` as a compound assignment")),
        })
    }
}

/// The outputs the block computes, in order: the destinations that are
/// not also sources.
fn block_outputs(variant: &Variant) -> Vec<ptx_spec::catalogue::Operand> {
    let inputs = variant.inputs();
    variant.outputs().into_iter().filter(|o| !inputs.iter().any(|i| i.name == o.name)).collect()
}

/// A long fragment as a finding names it: each outermost parenthesised
/// group that is not a call's arguments written `(...)`, and runs of
/// spaces one space (`c + ((a<b) ? b-a : a-b)` is `c + (...)`).
fn abbreviated(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= 20 {
        return text;
    }
    let mut out = String::new();
    let mut depth = 0;
    let mut prev: Option<char> = None;
    for ch in text.chars() {
        match ch {
            '(' if depth > 0 => depth += 1,
            '(' if !prev.is_some_and(|p| p.is_alphanumeric() || p == '_') => {
                depth = 1;
                out.push_str("(...)");
            }
            ')' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(ch),
        }
        prev = Some(ch);
    }
    out
}

/// The qualifier a modifier names: the one the variant writes for a
/// placeholder (`mode` under `.shf.wrap` is `.wrap`), else itself.
fn modifier<'s>(setting: &'s Setting, name: &str) -> &'s str {
    let placeholder = format!(".{name}");
    if let Some(bound) = setting.bound(&placeholder) {
        return bound;
    }
    setting.written.iter().find(|q| **q == placeholder).map_or_else(|| intern(placeholder), String::as_str)
}

/// The C type of an operand: its PTX type's (a `.bN` operand of the
/// instruction's type as the reading in force takes bit types), a
/// predicate `_Bool`.
fn operand_type<A: Algebra>(c: &C<'_, A>, read: &Read, name: &str, width: u32) -> CType {
    if width == 1 {
        return CType::Bool;
    }
    let op = read.setting.operands.iter().find(|o| o.name == name);
    let signed = op.is_some_and(|o| o.signed);
    let bit_type = read.setting.bound(".type").and_then(|t| Type::ALL.into_iter().find(|x| x.to_string() == t));
    match bit_type {
        Some(t @ (Type::B16 | Type::B32 | Type::B64))
            if t.width() == width && !operand_has_own_type(read.variant.opcode(), name) =>
        {
            c.of_ptx(t)
        }
        _ => CType::of_width(width, signed),
    }
}

/// The C type a declaration names: a PTX type's (`u32`, `.s64`) or C's.
fn declared_type<A: Algebra>(c: &C<'_, A>, spelled: &str) -> Option<CType> {
    let name = spelled.strip_prefix('.').unwrap_or(spelled);
    if let Some(t) = Type::ALL.into_iter().find(|t| t.to_string() == format!(".{name}")) {
        return Some(c.of_ptx(t));
    }
    Some(match name {
        "int" | "signed" | "signed int" => CType::Int,
        "unsigned" | "unsigned int" => CType::UInt,
        "short" => CType::Short,
        "unsigned short" => CType::UShort,
        "long long" | "long" => CType::LongLong,
        "unsigned long long" | "unsigned long" => CType::ULongLong,
        "bool" | "_Bool" => CType::Bool,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::audit::finding::Finding;
    use crate::audit::literal::blocks::block;
    use crate::audit::literal::check::audit_block_with;
    use crate::audit::text::document;
    use ptx_smt::Backend;

    /// The opcodes whose blocks the reading of the document covers, each
    /// compared with its transcription finding by finding.
    const COMPARED: &[&str] = &[
        "sub", "sad", "div", "rem", "abs", "neg", "add.cc", "addc", "sub.cc", "subc", "selp", "and", "or", "xor",
        "not", "cnot", "shf", "shl", "shr",
    ];

    /// Where the text and the transcription differ (`docs/audit.md`, "The
    /// literal reading of the text"): the opcode, and the finding only the
    /// text gives. shf's switch has no `break`, so read as C case `shf.l`
    /// runs on into case `shf.r`: shf.l gives shf.r's result, and meets
    /// shf.r's shifts too, so a hazard's first witness may be a shf.l
    /// variant. The transcription ends each case at the next label.
    const TEXT_ONLY: &[(&str, &str)] = &[("shf", "literal-shf-wrong-result")];

    /// The seeds and the 9.1 sections with a model beside them, as CI
    /// reads them.
    fn doc(test: &str) -> Option<Document> {
        let seeds = crate::testing::spec_text(test)?;
        let mut paths = vec![seeds.clone()];
        let new = seeds.join("../ptx-9.1/new-sections");
        if let Ok(dir) = std::fs::read_dir(&new) {
            let mut more: Vec<_> = dir
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let name = p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                    ["972", "976", "9796", "9797"].iter().any(|k| name.starts_with(k))
                })
                .collect();
            more.sort();
            paths.extend(more);
        }
        Some(document::read(&paths).expect("the spec text reads"))
    }

    /// What a finding says, its fragment's spaces aside (the transcription
    /// writes `u32 d` where the text has `u32  d = ...`).
    fn said(f: &Finding) -> (String, String, String, Option<Vec<String>>) {
        let inputs = f.witness.as_ref().map(|w| {
            let mut all: Vec<String> = w.inputs.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            all.extend(w.rows.iter().map(|r| format!("{r:?}")));
            all.insert(0, w.variant.clone());
            all
        });
        (f.id.clone(), format!("{:?}", f.kind), format!("{:?}", f.severity), inputs)
    }

    /// An edit of a block is read: xor written with a shift meets C's
    /// rule on shifts by the width, which no transcription of xor holds.
    #[test]
    fn an_edited_block_is_read_as_edited() {
        let Some(seeds) = crate::testing::spec_text("an_edited_block_is_read_as_edited") else { return };
        let copy = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(&seeds).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap().replace("d = a ^ b;", "d = a << b;");
            std::fs::write(copy.path().join(path.file_name().unwrap()), text).unwrap();
        }
        let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
        let b = block("xor").unwrap();
        let reading = ParsedReading::of(&doc, &b.variants()).unwrap();
        let (_, findings) = audit_block_with(&Backend::Embedded, Duration::from_secs(60), b, &reading).unwrap();
        let ids: Vec<&str> = findings.iter().map(|f| f.id.as_str()).collect();
        assert!(ids.contains(&"literal-xor-shift-past-width"), "{ids:?}");
        let (_, by_hand) = audit_block_with(&Backend::Embedded, Duration::from_secs(60), b, b).unwrap();
        assert!(by_hand.iter().all(|f| !f.id.contains("shift")), "the transcription reads the text it was made from");
    }

    #[test]
    fn long_fragments_are_abbreviated_as_the_transcriptions_write_them() {
        assert_eq!(abbreviated("c + ((a<b) ? b-a : a-b)"), "c + (...)");
        assert_eq!(abbreviated("a >> (32-n)"), "a >> (32-n)");
        assert_eq!(abbreviated("u32  d = (b << n)      | (a >> (32-n))"), "u32 d = (...) | (...)");
        assert_eq!(
            abbreviated("d = BoolOp(t, c) ? 0xffffffff : 0x00000000"),
            "d = BoolOp(t, c) ? 0xffffffff : 0x00000000"
        );
    }

    #[test]
    fn the_parsed_blocks_give_the_transcriptions_findings() {
        let Some(doc) = doc("the_parsed_blocks_give_the_transcriptions_findings") else { return };
        for opcode in COMPARED {
            let b = block(opcode).expect("a transcribed block");
            let reading = ParsedReading::of(&doc, &b.variants()).unwrap_or_else(|e| panic!("{opcode}: {e}"));
            let timeout = Duration::from_secs(60);
            let (_, by_hand) = audit_block_with(&Backend::Embedded, timeout, b, b).unwrap();
            let (_, parsed) = audit_block_with(&Backend::Embedded, timeout, b, &reading).unwrap();
            let by_hand: Vec<_> = by_hand.iter().map(said).collect();
            let mut parsed: Vec<_> = parsed.iter().map(said).collect();
            let Some((_, only)) = TEXT_ONLY.iter().find(|(op, _)| op == opcode) else {
                assert_eq!(parsed, by_hand, "{opcode}");
                continue;
            };
            let k = parsed.iter().position(|f| f.0 == *only).unwrap_or_else(|| panic!("{opcode}: no {only}"));
            parsed.remove(k);
            let without_witness = |all: &[(String, String, String, Option<Vec<String>>)]| {
                all.iter().map(|f| (f.0.clone(), f.1.clone(), f.2.clone())).collect::<Vec<_>>()
            };
            assert_eq!(without_witness(&parsed), without_witness(&by_hand), "{opcode}");
        }
    }
}
