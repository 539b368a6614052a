//! The literal C reading of a Semantics block as the document writes it:
//! the parsed statements (`crate::pseudocode`) walked with C's meaning,
//! over the C semantics of [`super::C`]. Each operation records its
//! hazards under the block's own text of it (`a << b`), so a vendor edit
//! to a block is read, not only noticed.
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
//! - an optional placeholder of the Syntax read as a value (prmt's
//!   `! mode`) is whether the variant writes one;
//! - `x = y = v` stores y, then x from y (C11 6.5.16p3), and an array
//!   declared with its length (`.u32 ctl[4];`) is that many variables;
//! - a store into a slice (`tmp[15:8] = v`, not C) replaces those bits of
//!   the variable and keeps the others;
//! - `min(x, y)` and `max(x, y)` are the usual functions on the arguments'
//!   common type;
//! - `bitwidth of type` is the width of the variant's `.type`, an `int`;
//! - a helper that no text defines but its section's Description describes
//!   (dp4a's `extractAndSignOrZeroExt_4`) is read as the Description says,
//!   as the pseudocode evaluator reads it; so is prmt's `ReadByte`, whose
//!   byte under a mode is the byte of `tmp` its value is stored into
//!   (assumption prmt-byte-select), and whose result `tmp` is read as `d`,
//!   which the block never assigns;
//! - where every lane of a warp runs the block (shfl), `[Thread].laneid`
//!   is the lane, `isActive(Thread)` whether it executes, a gathered array
//!   (`SourceA`) holds each lane's write, and a result read from an element
//!   no lane wrote, or of a lane that does not execute, is undefined;
//! - the block's own `return;` ends it where it runs, and `x = undefined;`
//!   leaves x with no value there;
//! - a result never stored is undefined.
//!
//! Where a block names the variant a line is for only in its comment
//! (`d = t<2n-1..n>;  // for .hi variant`), every such line runs as code
//! and only the last one counts: that is the order pass's finding
//! (`text-order-...-overwritten-d`). The reading reads each such comment as
//! the guard its root cause's fix writes (`if (.hi)`), as it reads a block
//! that does not parse as its fix edits it, and names that root cause
//! among the block's repairs.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Mutex, OnceLock};

use ptx_spec::bv::{Algebra, Concrete};
use ptx_spec::catalogue::prmt::Mode;
use ptx_spec::catalogue::shfl::WARP;
use ptx_spec::catalogue::{Out, Outputs, Type, Variant};

use crate::audit::errata;
use crate::audit::text::document::Document;
use crate::pseudocode::ast::{AssignOp, BinaryOp, Declarator, Expr, ExprKind, Span, Stmt, StmtKind, TypeName, UnaryOp};
use crate::pseudocode::print;
use crate::pseudocode::readings::{comment_guard, is_float, looked_up, phrase, Phrase, GATHERED};
use crate::pseudocode::setting::Setting;
use crate::text_proof::{operand_has_own_type, read_block_as_written, setting_with_floats};

use super::table::{Block, NotC, PassState, Transcription};
use super::{CInt, CType, C};

/// Whether a statement is one whose comment names the variant it is for.
fn guarded_by_comment(s: &Stmt) -> bool {
    s.comment.as_ref().is_some_and(|k| comment_guard(&k.text).is_some())
}

/// A result the block builds in a variable of its own and never stores
/// (section, result, variable): read as that variable's value, as the
/// model reads it. 9.7.9.7 fills `tmp` byte by byte and never assigns `d`
/// (assumption prmt-byte-select; the fix of `prmt-readbyte-undefined`
/// writes `d = tmp;`).
const RESULT_BUILT_IN: &[(&str, &str, &str)] = &[("9.7.9.7", "d", "tmp")];

/// One variant's block as the reading takes it.
struct Read {
    variant: Variant,
    statements: Vec<Stmt>,
    /// The parsed lines (number, text): where a fragment's text is read.
    lines: Vec<(usize, String)>,
    setting: Setting,
    /// The optional placeholders of the variant's Syntax line (prmt's
    /// `.mode`): one the block reads as a value is whether the variant
    /// writes it.
    optional: Vec<String>,
}

/// The literal reading of the blocks of some variants, parsed from a
/// document.
pub struct ParsedReading {
    reads: Vec<Read>,
    /// The root causes whose fixes a block needed before it parsed: where
    /// there are none, the text's block parses as written.
    repaired_by: Vec<&'static str>,
    /// Whether a block calls a placeholder of its Syntax as a function
    /// (`BoolOp(t, c)`), which C has no definition of.
    calls_placeholder: bool,
    /// Whether a block tests a condition written in words (`if (BoolOp
    /// specified)`).
    tests_in_words: bool,
}

impl ParsedReading {
    /// The blocks of `variants` in `doc`. Each is read once on concrete
    /// inputs here, so that a block the reading cannot follow is refused
    /// with its place and reason, before any audit runs on it.
    pub fn of(doc: &Document, variants: &[Variant]) -> Result<ParsedReading, String> {
        let mut reads = Vec::new();
        let mut repaired_by = Vec::new();
        let mut calls_placeholder = false;
        let mut in_words = false;
        for v in variants {
            let block = read_block_as_written(doc, v).map_err(|e| format!("{v}: {e}"))?;
            let setting = setting_with_floats(v, &block.readings).map_err(|e| format!("{v}: {e}"))?;
            let mut fixes = block.fixes.clone();
            if block.parsed.statements.iter().any(guarded_by_comment) {
                fixes.extend(errata::of(&format!("text-order-{}-overwritten-d", v.section())).map(|rc| rc.id.as_str()));
            }
            repaired_by.extend(fixes.iter().filter(|f| !repaired_by.contains(*f)).copied().collect::<Vec<_>>());
            calls_placeholder |= block.parsed.statements.iter().any(|s| calls_a_placeholder(s, &setting));
            in_words |= block.parsed.statements.iter().any(tests_in_words);
            let optional = crate::audit::syntax::block(v.section())
                .map(|b| crate::audit::syntax::optional_placeholders(b, v.mnemonic().split(' ').next().unwrap_or("")))
                .unwrap_or_default();
            reads.push(Read {
                variant: *v,
                statements: block.parsed.statements,
                lines: block.lines,
                setting,
                optional,
            });
        }
        let reading = ParsedReading { reads, repaired_by, calls_placeholder, tests_in_words: in_words };
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

    /// The table says why the block is not C; the text decides whether it
    /// still is not: a block that parses as written (its fix in the text),
    /// calls no placeholder of its Syntax and tests no condition written
    /// in words is C.
    fn not_c(&self, block: &Block) -> Option<NotC> {
        block.not_c.filter(|_| !self.repaired_by.is_empty() || self.calls_placeholder || self.tests_in_words)
    }

    fn passes<A: Algebra>(
        &self,
        c: &mut C<A>,
        variant: &Variant,
        inputs: &[A::Bv],
        from: Option<PassState<A>>,
    ) -> Option<Vec<PassState<A>>> {
        let r = self.read(variant);
        let mut reader = Reader::new(r, c, inputs);
        reader.probe = Some(Probe { from, states: Vec::new(), done: false });
        reader.block(c, &r.statements).ok()?;
        reader.probe.filter(|p| p.done).map(|p| p.states)
    }

    fn names(&self, variant: &Variant, qualifier: &str) -> bool {
        let bare = qualifier.trim_start_matches('.');
        let mut named = false;
        for s in &self.read(variant).statements {
            s.walk(&mut |s| {
                for e in s.expressions() {
                    e.walk(&mut |e| {
                        named |= matches!(&e.kind, ExprKind::Name(n) | ExprKind::Qualifier(n)
                            if n.trim_start_matches('.') == bare)
                    });
                }
            });
        }
        named
    }
}

type Run<T> = Result<T, String>;

/// Where the reading stopped, and why.
fn at(span: Span, why: impl std::fmt::Display) -> String {
    format!("line {}: {why}", span.start)
}

/// The C integer type a cast names (`unsigned`, `long long`, `uint32_t`),
/// as the LP64 model of this module has it.
fn c_type(to: &TypeName) -> Option<CType> {
    if matches!(to.spelled.as_str(), "_Bool" | "bool") {
        return Some(CType::Bool);
    }
    to.c_integer().map(|(signed, width)| CType::of_width(width, signed))
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
    /// Its value where no input decides it (a loop index, `n = 32`).
    known: Option<i128>,
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
    /// Whether `live` is every input: no branch or loop that an input
    /// decides encloses the statement now running.
    certain: bool,
    /// The helpers the block defines (`u32 min(u32 x, u32 y) { ... }`),
    /// by name: a call runs the definition, as C calls it.
    functions: BTreeMap<String, &'r Stmt>,
    /// In a helper's body: the value it returns, and on which inputs it
    /// has returned.
    returned: Option<(CInt<A>, A::Bool)>,
    /// The functions the block takes from a truth table (lop3's
    /// `F = GetFunctionFromTable(immLut)`), by name: the table.
    tables: BTreeMap<String, CInt<A>>,
    /// The counters of the loops now running (`i` of `for (...; i--)`,
    /// which only the step changes), each with the value it holds
    /// wherever the statement now running runs: in a loop's k-th pass,
    /// its start plus k steps, whichever inputs left the loop before.
    /// Read as that constant, `1<<i` and `a[i]` are the transcription's
    /// shift and bit of a constant, not of a sum over the earlier passes.
    pinned: BTreeMap<String, i128>,
    /// In a store into a byte of a variable (`tmp[15:8] = ...`): which
    /// byte, for a helper whose value depends on it (prmt's `ReadByte`).
    byte_stored: Option<u32>,
    /// Where every lane of a warp runs the block (shfl): this lane.
    warp: Option<Warp<A>>,
    /// The inputs on which the block's own `return;` ran, and whether it
    /// has one.
    ended: A::Bool,
    any_return: bool,
    /// The variables stored from an element of an array no lane stored
    /// into: where they hold no value.
    unheld: BTreeMap<String, A::Bool>,
    /// While an expression reads an element of a gathered array at an
    /// index an input decides: where that element holds a value.
    element_held: Option<A::Bool>,
    /// Where the states between a loop's passes are asked for.
    probe: Option<Probe<A>>,
}

/// The states between the passes of the first loop an input decides
/// ([`Transcription::passes`]): from its start, or one pass from `from`.
struct Probe<A: Algebra> {
    from: Option<PassState<A>>,
    states: Vec<PassState<A>>,
    done: bool,
}

/// The lane whose block is read, where every lane of a warp runs it
/// (`[Thread]`, the reading `shfl-every-lane-runs-the-block`).
struct Warp<A: Algebra> {
    /// `[Thread].laneid`, an `int`.
    lane: CInt<A>,
    /// Whether this lane executes the instruction (`isActive(Thread) &&
    /// isGuardPredicateTrue(Thread)`: the model's one state per lane).
    executes: A::Bool,
    /// The arrays every lane fills before any lane reads them
    /// ([`GATHERED`]), each element as its lane writes it: held where that
    /// lane executes.
    arrays: Vec<String>,
    /// Where the block's wait for other threads ends with defined results.
    waits_end: A::Bool,
    /// Each lane's state, and for shfl.sync its agreement with this
    /// lane's membermask: the Description's reading of the wait.
    active: Vec<A::Bv>,
    agrees: Vec<A::Bv>,
}

impl<'r, 'a, A: Algebra> Reader<'r, 'a, A> {
    fn new(read: &'r Read, c: &mut C<'a, A>, inputs: &[A::Bv]) -> Reader<'r, 'a, A> {
        let alg = c.alg();
        let mut vars = BTreeMap::new();
        let yes = alg.bool_constant(true);
        // A source the variant negates (9.7.6.1-2's `!c`) is its
        // complement wherever the block names it (the reading
        // `compare-not-c`).
        // An immediate narrower than any C type but `_Bool` (lop3's 8-bit
        // `immLut`) is an integer constant: an `int`.
        for (o, bits) in read.variant.inputs().iter().zip(inputs) {
            let w = o.ty.width();
            let bits = if o.negated { alg.bvnot(*bits) } else { *bits };
            let value = if w > 1 && w < 16 {
                c.operand(alg.zero_extend(32 - w, bits), CType::Int)
            } else {
                c.operand(bits, operand_type(c, read, o.name, w))
            };
            vars.insert(o.name.to_string(), Var { value, set: yes, ty: Some(value.ty), known: None });
        }
        // A destination that is also a source (9.7.2's carry flag, which
        // the text updates under the block, not in it) is the block's input.
        for o in block_outputs(&read.variant) {
            let ty = operand_type(c, read, o.name, o.ty.width());
            let value = c.value(ty, 0);
            vars.insert(o.name.to_string(), Var { value, set: alg.bool_constant(false), ty: Some(ty), known: None });
        }
        let functions = read
            .statements
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Function { name, .. } => Some((name.clone(), s)),
                _ => None,
            })
            .collect();
        let warp = read.variant.is_warp_wide().then(|| warp(c, read, inputs, &mut vars));
        let no = alg.bool_constant(false);
        Reader {
            read,
            alg,
            vars,
            live: yes,
            left: no,
            certain: true,
            functions,
            returned: None,
            tables: BTreeMap::new(),
            pinned: BTreeMap::new(),
            byte_stored: None,
            warp,
            ended: no,
            any_return: false,
            unheld: BTreeMap::new(),
            element_held: None,
            probe: None,
        }
    }

    fn run(mut self, c: &mut C<'a, A>) -> Run<Outputs<A>> {
        let statements = &self.read.statements;
        self.block(c, statements)?;
        let section = self.read.variant.section();
        Ok(block_outputs(&self.read.variant)
            .iter()
            .map(|o| {
                let built = RESULT_BUILT_IN.iter().find(|(s, out, _)| *s == section && *out == o.name);
                let v = match built {
                    Some((_, _, name))
                        if !statements.iter().any(|s| s.assigns(o.name)) && self.vars.contains_key(*name) =>
                    {
                        let v = &self.vars[*name];
                        let ty = self.vars[o.name].value.ty;
                        return Out { value: c.convert(v.value, ty).bits, defined: v.set };
                    }
                    _ => &self.vars[o.name],
                };
                let mut defined = v.set;
                if let Some(no) = self.unheld.get(o.name) {
                    defined = self.alg.and(defined, self.alg.not(*no));
                }
                // A lane that does not execute, or whose wait does not
                // end, writes nothing.
                if let Some(w) = &self.warp {
                    defined = self.alg.and(defined, self.alg.and(w.executes, w.waits_end));
                }
                Out { value: v.value.bits, defined }
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
        self.fragment(e.span, || print::expr(e))
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
            // An input the block's `return` ended runs nothing more, though
            // a branch or loop that encloses it restores what it entered on.
            if self.any_return {
                self.live = self.alg.and(self.live, self.alg.not(self.ended));
            }
        }
        Ok(())
    }

    /// A declaration: each variable of the declared type, holding its
    /// initial value where it has one.
    fn declare(&mut self, c: &mut C<'a, A>, s: &Stmt, ty: &TypeName, declarators: &[Declarator]) -> Run<()> {
        let alg = self.alg;
        let declared = declared_type(c, ty).ok_or_else(|| at(s.span, format!("`{}` is not a C type", ty.spelled)))?;
        let fragment = self.stmt_fragment(s);
        for d in declarators {
            // A gathered array (shfl's `SourceA`) holds what every lane
            // writes; declaring it keeps that.
            if d.array.is_some() && self.warp.as_ref().is_some_and(|w| w.arrays.contains(&d.name)) {
                continue;
            }
            // `.u32 ctl[4];`: each element a variable of the type, none set.
            if let Some(length) = &d.array {
                let n = self.constant(length).filter(|n| (1..=4096).contains(n));
                let n = n.ok_or_else(|| at(s.span, "an array whose length is no constant from 1 to 4096"))?;
                if d.init.is_some() {
                    return Err(at(s.span, "an array declared with a value (not read yet)"));
                }
                for k in 0..n {
                    let value = c.value(declared, 0);
                    let element = Var { value, set: alg.bool_constant(false), ty: Some(declared), known: None };
                    self.vars.insert(format!("{}[{k}]", d.name), element);
                }
                continue;
            }
            let zero = c.value(declared, 0);
            let old = self.vars.get(&d.name).map(|v| (v.value, v.set));
            let (value, set) = old.unwrap_or((zero, alg.bool_constant(false)));
            self.vars.insert(d.name.clone(), Var { value, set, ty: Some(declared), known: None });
            if let Some(init) = &d.init {
                let live = self.live;
                let known = self.constant(init);
                c.guarded(live, |c| -> Run<()> {
                    let x = self.int(c, init)?;
                    self.store(c, &d.name, x, fragment);
                    Ok(())
                })?;
                self.know(&d.name, known);
            }
        }
        Ok(())
    }

    fn stmt(&mut self, c: &mut C<'a, A>, s: &Stmt) -> Run<()> {
        let alg = self.alg;
        // `// for .hi variant`: the line is for the variants that write
        // `.hi` (the module's note).
        if let Some(q) = s.comment.as_ref().and_then(|k| comment_guard(&k.text)) {
            if !self.read.setting.writes(&q) {
                return Ok(());
            }
        }
        match &s.kind {
            StmtKind::Empty => Ok(()),
            StmtKind::Block(b) => self.block(c, b),
            StmtKind::Expr(e) => {
                let live = self.live;
                let fragment = self.stmt_fragment(s);
                c.guarded(live, |c| self.effect(c, e, fragment))
            }
            StmtKind::Declare { ty, declarators } => self.declare(c, s, ty, declarators),
            StmtKind::If { cond, then, otherwise } => {
                // A condition no input decides picks its arm: the other is
                // never reached, and its operations meet no rule.
                if let Some(k) = self.constant(cond) {
                    return match (k != 0, otherwise) {
                        (true, _) => self.stmt(c, then),
                        (false, Some(o)) => self.stmt(c, o),
                        (false, None) => Ok(()),
                    };
                }
                let certain = std::mem::replace(&mut self.certain, false);
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
                self.certain = certain;
                Ok(())
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(init) = init {
                    self.stmt(c, init)?;
                }
                self.each_pass(c, s, cond.as_ref(), step.as_ref(), body)
            }
            StmtKind::While { cond, body } => self.each_pass(c, s, Some(cond), None, body),
            StmtKind::Switch { subject, body } => self.switch(c, subject, body),
            StmtKind::Break => {
                self.left = alg.or(self.left, self.live);
                self.live = alg.bool_constant(false);
                Ok(())
            }
            StmtKind::Case(_) | StmtKind::Default => Err(at(s.span, "a label outside a switch")),
            // A helper's definition runs where it is called.
            StmtKind::Function { .. } => Ok(()),
            StmtKind::Return(value) => {
                let Some((so_far, done)) = self.returned else {
                    // The block's own `return;`: where it runs, the block
                    // ends, and what it has not stored it never stores.
                    if value.is_some() {
                        return Err(at(s.span, "a `return` of a value outside a helper"));
                    }
                    self.ended = alg.or(self.ended, self.live);
                    self.any_return = true;
                    self.live = alg.bool_constant(false);
                    return Ok(());
                };
                let live = self.live;
                let value = match value {
                    Some(e) => c.guarded(live, |c| self.int(c, e))?,
                    None => so_far,
                };
                let value = if value.ty == so_far.ty { value } else { c.convert(value, so_far.ty) };
                let bits = alg.ite(live, value.bits, so_far.bits);
                self.returned = Some((CInt { bits, ty: so_far.ty }, alg.or(done, live)));
                self.live = alg.bool_constant(false);
                Ok(())
            }
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
            // Each lane's store into a gathered array is already in it.
            ExprKind::Assign(_, target, _) if self.gathered(target).is_some() => Ok(()),
            ExprKind::Call(f, args) if matches!(&f.kind, ExprKind::Name(n) if n == "wait_for_specified_threads") => {
                self.wait_for(c, e, args)
            }
            ExprKind::Assign(op, target, value) => {
                // `x = y = v`: y is stored first, and x takes y's value as
                // stored (C11 6.5.16p3).
                if let ExprKind::Assign(_, inner, _) = &value.without_parens().kind {
                    self.effect(c, value, fragment)?;
                    let outer = Expr::new(ExprKind::Assign(*op, target.clone(), inner.clone()), e.span);
                    return self.effect(c, &outer, fragment);
                }
                if let ExprKind::Index(base, index) = &target.without_parens().kind {
                    return self.store_element(c, *op, target, base, index, value, fragment);
                }
                if let ExprKind::Slice { base, first, second, .. } = &target.without_parens().kind {
                    return self.store_slice(c, *op, target, (base, first, second), value);
                }
                let name = self.target(target)?;
                if op.0.is_none() && self.is_undefined(value) {
                    let (alg, live) = (self.alg, self.live);
                    if let Some(v) = self.vars.get_mut(&name) {
                        v.set = alg.and(v.set, alg.not(live));
                        v.known = None;
                    }
                    return Ok(());
                }
                if op.0.is_none() {
                    if let Some(table) = self.table(c, value)? {
                        self.tables.insert(name, table);
                        return Ok(());
                    }
                    if let Some(elements) = self.extracted(c, value)? {
                        for (k, x) in elements.into_iter().enumerate() {
                            self.store(c, &format!("{name}[{k}]"), x, fragment);
                        }
                        return Ok(());
                    }
                }
                let known = match op.0 {
                    None => self.constant(value),
                    Some(_) => self.constant(&Expr::new(
                        ExprKind::Binary(op.0.expect("some"), target.clone(), value.clone()),
                        e.span,
                    )),
                };
                let outer = self.element_held.take();
                let x = self.assigned(c, *op, target, value);
                let held = std::mem::replace(&mut self.element_held, outer);
                let x = x?;
                self.store(c, &name, x, fragment);
                self.know(&name, known);
                // A value read from an element no lane stored is none.
                let (alg, live) = (self.alg, self.live);
                let before = self.unheld.get(&name).copied().unwrap_or(alg.bool_constant(false));
                let now = held.map_or(alg.bool_constant(false), |h| alg.not(h));
                let unheld = alg.or(alg.and(live, now), alg.and(alg.not(live), before));
                self.unheld.insert(name, unheld);
                Ok(())
            }
            ExprKind::Step { op, target, .. } => {
                // `i++` and `i--`, for their effect.
                let name = self.target(target)?;
                let binary = step_op(*op);
                let one = Expr::new(ExprKind::Int { text: "1".into(), value: 1 }, e.span);
                let known = self.constant(&Expr::new(ExprKind::Binary(binary, target.clone(), Box::new(one)), e.span));
                // Where the statement runs the step is 1, elsewhere 0: one
                // sum on every path rather than a choice between `i + 1`
                // and `i`. The same value and the same C rules met (`i + 0`
                // overflows nothing), and a count kept under a test (popc's
                // `if (a & 0x1) d++;`) is a sum the solver settles, where
                // the chain of choices left popc.b64 unsettled in 60 s.
                // A pinned counter's own bits: stored on every path, the
                // sum must keep the value of the passes that left.
                let old = match self.vars.get(&name) {
                    Some(v) => v.value,
                    None => self.int(c, target)?,
                };
                let live = self.live;
                let step = c.from_bool(live);
                let x = self.binary(c, binary, old, step, fragment, e.span)?;
                let set = self.vars.get(&name).map_or(self.alg.bool_constant(false), |v| v.set);
                self.live = self.alg.bool_constant(true);
                self.store(c, &name, x, fragment);
                self.live = live;
                if let Some(var) = self.vars.get_mut(&name) {
                    var.set = self.alg.or(set, live);
                }
                self.know(&name, known);
                Ok(())
            }
            _ => Err(at(e.span, "an expression statement that assigns nothing")),
        }
    }

    /// The value `target op= value` stores, before its conversion. The
    /// operator of a compound assignment is named by the whole statement
    /// (`d += Va[i] * Vb[i]`), as it reads: the right side is its operand.
    fn assigned(&mut self, c: &mut C<'a, A>, op: AssignOp, target: &Expr, value: &Expr) -> Run<CInt<A>> {
        let x = self.int(c, value)?;
        match op.0 {
            None => Ok(x),
            Some(op) => {
                let old = self.int(c, target)?;
                let whole = Span { start: target.span.start, end: value.span.end };
                let fragment = self.fragment(whole, || self.expr_fragment(value).to_string());
                self.binary(c, op, old, x, fragment, value.span)
            }
        }
    }

    /// `GetFunctionFromTable(immLut)`, which no text defines: the truth
    /// table its function looks up, read as lop3's Description says
    /// (9.7.8.6); `None` where `value` is no such call.
    fn table(&mut self, c: &mut C<'a, A>, value: &Expr) -> Run<Option<CInt<A>>> {
        match &value.without_parens().kind {
            ExprKind::Call(f, args) if matches!(&f.kind, ExprKind::Name(n) if n == "GetFunctionFromTable") => {
                let [lut] = &args[..] else { return Err(at(value.span, "the helper takes one table")) };
                self.int(c, lut).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// `F(a, b, c)` of a function taken from a truth table: bit i of the
    /// result is bit k of the table, k the bits a[i], b[i], c[i] read as a
    /// number with a[i] highest (so that F(0xF0, 0xCC, 0xAA) is the table
    /// itself), as the pseudocode evaluator reads it; the operands and the
    /// result of their common type (C's usual arithmetic conversions).
    fn table_function(&mut self, c: &mut C<'a, A>, lut: CInt<A>, args: &[Expr], span: Span) -> Run<CInt<A>> {
        let alg = self.alg;
        let [x, y, z] = args else { return Err(at(span, "a table's function takes three operands")) };
        let (x, y, z) = (self.int(c, x)?, self.int(c, y)?, self.int(c, z)?);
        let ty = c.or(c.or(x, y), z).ty;
        let words = [c.convert(x, ty).bits, c.convert(y, ty).bits, c.convert(z, ty).bits];
        let entries: Vec<A::Bv> = (0..8).map(|k| alg.extract(k, k, lut.bits)).collect();
        let out = looked_up(alg, &entries, words);
        Ok(c.operand(out, ty))
    }

    /// `Va = extractAndSignOrZeroExt_4(a, .atype)`: a helper the block
    /// calls and never defines, which fills an array, read as its section's
    /// Description says (9.7.1.23-24: the four bytes or two half-words of a
    /// word, lowest first, each extended to an `int` as the type's sign
    /// says). The same reading as the pseudocode evaluator's
    /// (`pseudocode::readings::call`); `None` where `value` is no such call.
    fn extracted(&mut self, c: &mut C<'a, A>, value: &Expr) -> Run<Option<Vec<CInt<A>>>> {
        let ExprKind::Call(f, args) = &value.without_parens().kind else { return Ok(None) };
        let parts: u32 = match &f.kind {
            ExprKind::Name(n) if n == "extractAndSignOrZeroExt_4" => 4,
            ExprKind::Name(n) if n == "extractAndSignOrZeroExt_2" => 2,
            _ => return Ok(None),
        };
        let [word, ty] = &args[..] else { return Err(at(value.span, "the helper takes a word and its type")) };
        let signed = match self.modifier_of(ty) {
            Some(q) => q == ".s32",
            None => return Err(at(ty.span, "the helper's type is no modifier")),
        };
        let x = self.int(c, word)?;
        let (alg, size) = (self.alg, x.ty.width() / parts);
        Ok(Some(
            (0..parts)
                .map(|k| {
                    let part = alg.extract(size * k + size - 1, size * k, x.bits);
                    c.operand(alg.extend(signed, 32 - size, part), CType::Int)
                })
                .collect(),
        ))
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
                    known: None,
                }
            }
            None => Var { value: stored, set: live, ty: Some(ty), known: None },
        };
        self.vars.insert(name.to_string(), var);
    }

    /// The value of `e` where no input decides it: integers, the
    /// variables that hold one, and modifiers compared.
    fn constant(&self, e: &Expr) -> Option<i128> {
        use BinaryOp::*;
        match &e.kind {
            ExprKind::Int { value, .. } => i128::try_from(*value).ok(),
            ExprKind::Name(n) if !self.vars.contains_key(n) && (n == "true" || n == "false") => {
                Some(i128::from(n == "true"))
            }
            ExprKind::Name(_) if self.optional_written(e).is_some() => self.optional_written(e).map(i128::from),
            ExprKind::Name(n) => self.pinned.get(n).copied().or_else(|| self.vars.get(n).and_then(|v| v.known)),
            ExprKind::Paren(x) => self.constant(x),
            ExprKind::Unary(UnaryOp::Minus, x) => self.constant(x).map(|v| -v),
            ExprKind::Unary(UnaryOp::Not, x) => self.constant(x).map(|v| i128::from(v == 0)),
            ExprKind::Conditional(test, then, otherwise) => {
                self.constant(if self.constant(test)? != 0 { then } else { otherwise })
            }
            // set (9.7.6.1): whether a type is a floating-point one.
            ExprKind::Call(f, args) if matches!(&f.kind, ExprKind::Name(n) if n == "isFloat") => {
                let [x] = &args[..] else { return None };
                Some(i128::from(is_float(self.modifier_of(x)?)))
            }
            ExprKind::Qualifier(_) => self.optional_written(e).map(i128::from),
            ExprKind::Prose(words) => match phrase(&self.read.setting, words)? {
                Phrase::Number(n) => Some(n),
                Phrase::Truth(t) => Some(i128::from(t)),
            },
            ExprKind::Binary(op @ (Eq | Ne), x, y) if self.modifier_of(x).is_some() => {
                let same = self.modifier_of(x)? == self.modifier_of(y)?;
                Some(i128::from(same == (*op == Eq)))
            }
            ExprKind::Binary(And, x, y) => match self.constant(x)? {
                0 => Some(0),
                _ => self.constant(y).map(|b| i128::from(b != 0)),
            },
            ExprKind::Binary(Or, x, y) => match self.constant(x)? {
                0 => self.constant(y).map(|b| i128::from(b != 0)),
                _ => Some(1),
            },
            ExprKind::Binary(op, x, y) => {
                let (a, b) = (self.constant(x)?, self.constant(y)?);
                Some(match op {
                    Add => a.checked_add(b)?,
                    Sub => a.checked_sub(b)?,
                    Mul => a.checked_mul(b)?,
                    Lt => i128::from(a < b),
                    Le => i128::from(a <= b),
                    Gt => i128::from(a > b),
                    Ge => i128::from(a >= b),
                    Eq => i128::from(a == b),
                    Ne => i128::from(a != b),
                    BitAnd => a & b,
                    BitOr => a | b,
                    BitXor => a ^ b,
                    // Where C's rules could apply, the C layer decides.
                    _ => return None,
                })
            }
            _ => None,
        }
    }

    /// The qualifier `e` names, where it names one.
    fn modifier_of(&self, e: &Expr) -> Option<&'r str> {
        let read: &'r Read = self.read;
        match &e.kind {
            ExprKind::Paren(x) => self.modifier_of(x),
            ExprKind::Qualifier(q) => Some(modifier(&read.setting, q)),
            ExprKind::Name(n) if !self.vars.contains_key(n) => named_modifier(&read.setting, n),
            ExprKind::Member(base, field) if matches!(&base.kind, ExprKind::Name(n) if n == read.variant.opcode()) => {
                Some(modifier(&read.setting, field))
            }
            _ => None,
        }
    }

    /// Record that `name` now holds `known`, where every input runs here.
    fn know(&mut self, name: &str, known: Option<i128>) {
        let certain = self.certain;
        if let Some(v) = self.vars.get_mut(name) {
            v.known = known.filter(|_| certain);
        }
    }

    /// A loop's passes: each one its condition decides without an input
    /// runs as it is; from the first an input decides on, each runs where
    /// the condition holds, up to the bound of the setting, and where the
    /// condition still holds after them the loop is recorded as running on
    /// (the audit proves it never does).
    fn each_pass(
        &mut self,
        c: &mut C<'a, A>,
        s: &Stmt,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Run<()> {
        let alg = self.alg;
        let Some(cond) = cond else { return Err(at(s.span, "a loop with no condition")) };
        let outer_left = std::mem::replace(&mut self.left, alg.bool_constant(false));
        let (entry, certain) = (self.live, self.certain);
        let step_fragment = step.map(|e| self.expr_fragment(e));
        // The counter, where only the step changes it and it starts at a
        // constant: pinned to its value in each pass (`pinned`).
        let counter = step.and_then(|e| Some((e.counter()?.to_string(), stepped(e)?)));
        let counter = counter.filter(|(n, _)| !body.assigns(n));
        let outer_pin = counter.as_ref().map(|(n, _)| (n.clone(), self.pinned.get(n).copied()));
        let run_step = |me: &mut Self, c: &mut C<'a, A>| -> Run<()> {
            let next = counter.as_ref().map(|(n, next)| (n.clone(), me.constant(next)));
            if let (Some(e), Some(f)) = (step, step_fragment) {
                let live = me.live;
                c.guarded(live, |c| me.effect(c, e, f))?;
            }
            match next {
                Some((n, Some(k))) => me.pinned.insert(n, k),
                Some((n, None)) => me.pinned.remove(&n),
                None => None,
            };
            Ok(())
        };
        if let Some((n, _)) = &counter {
            if let Some(k) = self.constant(&Expr::new(ExprKind::Name(n.clone()), s.span)) {
                self.pinned.insert(n.clone(), k);
            }
        }
        let mut passes = 0;
        let mut decided = true;
        while let Some(k) = self.constant(cond) {
            if k == 0 {
                break;
            }
            passes += 1;
            if passes > 4096 {
                return Err(at(s.span, "a loop that runs more than 4096 times on every input"));
            }
            self.stmt(c, body)?;
            run_step(self, c)?;
        }
        if self.constant(cond).is_none() {
            // An input decides from here on.
            decided = false;
            self.certain = false;
            let mut bound = self.read.setting.loop_bound;
            // Only a loop whose state is what `record` keeps: no step, and
            // a body that stores only variables set before it, with no
            // `return` and no loop inside.
            let probing = self.probe.as_ref().is_some_and(|p| !p.done)
                && step.is_none()
                && follows_state(body, |n| self.vars.contains_key(n));
            if let Some(from) = self.probe.as_mut().filter(|_| probing).and_then(|p| p.from.take()) {
                self.resume(from);
                bound = 1;
            }
            let head = intern(format!("{} ({})", loop_word(s), self.expr_fragment(cond)));
            for _ in 0..bound {
                if probing {
                    self.record(body);
                }
                let live = self.live;
                let test = c.guarded(live, |c| self.int(c, cond))?;
                let t = c.truth(test);
                self.live = alg.and(live, t);
                self.stmt(c, body)?;
                run_step(self, c)?;
            }
            if probing {
                self.record(body);
                if let Some(p) = self.probe.as_mut() {
                    p.done = true;
                }
            }
            let live = self.live;
            let test = c.guarded(live, |c| self.int(c, cond))?;
            let again = c.truth(test);
            c.guarded(live, |c| c.loop_ends(head, bound, again));
        }
        if let Some((n, pin)) = outer_pin {
            match pin {
                Some(k) => self.pinned.insert(n, k),
                None => self.pinned.remove(&n),
            };
        }
        // Where some inputs left early (an input decided, or a `break`
        // ran), what the loop stored differs between them.
        if !decided || contains_break(body) {
            for (name, v) in self.vars.iter_mut() {
                if body.assigns(name) || counter.as_ref().is_some_and(|(n, _)| n == name) {
                    v.known = None;
                }
            }
        }
        self.left = outer_left;
        self.live = entry;
        self.certain = certain;
        Ok(())
    }

    /// `undefined` where the block has no variable of that name: stored,
    /// it leaves its target with no value (a fix's notation, not C).
    fn is_undefined(&self, e: &Expr) -> bool {
        matches!(&e.without_parens().kind, ExprKind::Name(n) if n == "undefined" && !self.vars.contains_key(n))
    }

    /// Record the state before a pass of the loop whose `body` is probed.
    fn record(&mut self, body: &Stmt) {
        let vars = self.vars.iter().filter(|(n, _)| body.assigns(n)).map(|(n, v)| (n.clone(), v.value)).collect();
        let state = PassState { live: self.live, left: self.left, vars };
        if let Some(p) = self.probe.as_mut() {
            p.states.push(state);
        }
    }

    /// Take up a loop from `state`, wherever it came from.
    fn resume(&mut self, state: PassState<A>) {
        self.live = state.live;
        self.left = state.left;
        for (name, value) in state.vars {
            if let Some(v) = self.vars.get_mut(&name) {
                v.value = value;
                v.known = None;
            }
        }
    }

    /// The C type of a lane of the packed operand `name`, where it is one.
    fn lane_type(&self, name: &str) -> Option<(u32, CType)> {
        let (w, signed) = self.read.setting.lane?;
        let packed = self.read.setting.operands.iter().any(|o| o.name == name && o.width == 2 * w);
        packed.then(|| (w, CType::of_width(w, signed)))
    }

    /// The lane type, where `base[lo:hi]` is exactly one lane of a packed
    /// operand: a lane of a packed register is a value of the lane type.
    fn lane_of(&self, base: &Expr, hi: u32, lo: u32) -> Option<CType> {
        let ExprKind::Name(n) = &base.without_parens().kind else { return None };
        let (w, ty) = self.lane_type(n)?;
        (hi - lo + 1 == w && lo.is_multiple_of(w)).then_some(ty)
    }

    /// `x[i]`: element `i` of an array the block fills, lane `i` of a
    /// packed operand, or else bit `i` of `x`.
    fn element(&mut self, c: &mut C<'a, A>, e: &Expr, base: &Expr, index: &Expr) -> Run<CInt<A>> {
        let fragment = self.expr_fragment(e);
        let ExprKind::Name(name) = &base.without_parens().kind else {
            return Err(at(e.span, "an element of an expression"));
        };
        let k = self.constant(index);
        if let Some(v) = k.and_then(|k| self.vars.get(&format!("{name}[{k}]"))) {
            return Ok(v.value);
        }
        if k.is_none() && self.gathered(e).is_some() {
            // An element of a gathered array at an index an input decides:
            // C's element (out of range where the index is), held where
            // the element it is holds a value.
            let alg = self.alg;
            let (values, held): (Vec<CInt<A>>, Vec<A::Bool>) =
                (0..WARP).map(|k| &self.vars[&format!("{name}[{k}]")]).map(|v| (v.value, v.set)).unzip();
            let j = self.int(c, index)?;
            let j = c.promote(j);
            let value = c.index(fragment, &values, j);
            let here = (1..WARP).fold(held[0], |rest, k| {
                let here = alg.eq(j.bits, alg.constant(j.ty.width(), k as u128));
                alg.or(alg.and(here, held[k]), alg.and(alg.not(here), rest))
            });
            self.element_held = Some(self.element_held.map_or(here, |h| alg.and(h, here)));
            return Ok(value);
        }
        let Some(x) = self.vars.get(name).map(|v| v.value) else {
            return Err(at(e.span, format!("`{name}[...]` is read and never set")));
        };
        match (k, self.lane_type(name)) {
            (Some(k), Some((w, ty))) if k >= 0 && (k as u32 + 1) * w <= x.ty.width() => {
                let lo = k as u32 * w;
                Ok(c.operand(self.alg.extract(lo + w - 1, lo, x.bits), ty))
            }
            _ => {
                let i = self.int(c, index)?;
                Ok(c.bit(fragment, x, i))
            }
        }
    }

    /// `x[i] op= v`: a lane of a packed destination, an element of an
    /// array the block fills (`iA[0]`), or a bit of a variable.
    #[allow(clippy::too_many_arguments)]
    fn store_element(
        &mut self,
        c: &mut C<'a, A>,
        op: AssignOp,
        target: &Expr,
        base: &Expr,
        index: &Expr,
        value: &Expr,
        fragment: &'static str,
    ) -> Run<()> {
        let alg = self.alg;
        let ExprKind::Name(name) = &base.without_parens().kind else {
            return Err(at(target.span, "an element of an expression"));
        };
        let k = self.constant(index);
        let x = self.assigned(c, op, target, value)?;
        let live = self.live;
        match (k, self.lane_type(name), self.vars.get(name).map(|v| (v.value, v.set))) {
            (Some(k), Some((w, ty)), Some((old, set))) if k >= 0 && (k as u32 + 1) * w <= old.ty.width() => {
                let lane = c.assign(fragment, x, ty);
                let lo = k as u32 * w;
                let bits = spliced(alg, old.bits, lo, lane.bits);
                let var = self.vars.get_mut(name).expect("looked up above");
                var.value = CInt { bits: alg.ite(live, bits, old.bits), ty: old.ty };
                var.set = alg.or(set, live);
                var.known = None;
            }
            (_, None, Some((old, set))) => {
                let i = self.int(c, index)?;
                let new = c.set_bit(fragment, old, i, x);
                let var = self.vars.get_mut(name).expect("looked up above");
                var.value = CInt { bits: alg.ite(live, new.bits, old.bits), ty: old.ty };
                var.set = alg.or(set, live);
                var.known = None;
            }
            (Some(k), _, None) => self.store(c, &format!("{name}[{k}]"), x, fragment),
            _ => return Err(at(target.span, "an element whose index an input decides")),
        }
        Ok(())
    }

    /// `tmp[15:8] = v`, the dialect's store into bits 15..8 of a
    /// variable (not C): the low bits of v replace those bits, the others
    /// kept. A variable not yet stored into takes the type of a value of
    /// the slice's width, as a slice read is (`lane[4:0]`: an `int`), its
    /// other bits 0, and is set where the store runs.
    fn store_slice(
        &mut self,
        c: &mut C<'a, A>,
        op: AssignOp,
        target: &Expr,
        (base, first, second): (&Expr, &Expr, &Expr),
        value: &Expr,
    ) -> Run<()> {
        let alg = self.alg;
        let ExprKind::Name(name) = &base.without_parens().kind else {
            return Err(at(target.span, "a slice of an expression"));
        };
        let (Some(x), Some(y)) = (self.constant(first), self.constant(second)) else {
            return Err(at(target.span, "a slice whose bounds an input decides"));
        };
        let (hi, lo) = (x.max(y), x.min(y));
        if lo < 0 || hi >= 128 || op.0.is_some() {
            return Err(at(target.span, "a store into a slice outside 128 bits, or by a compound assignment"));
        }
        let (hi, lo) = (hi as u32, lo as u32);
        let byte = (lo % 8 == 0 && hi == lo + 7).then_some(lo / 8);
        let outer = std::mem::replace(&mut self.byte_stored, byte);
        let v = self.assigned(c, op, target, value);
        self.byte_stored = outer;
        let v = v?;
        let old = match self.vars.get(name) {
            Some(var) => (var.value, var.set),
            None => (c.value(CType::holding(hi + 1), 0), alg.bool_constant(false)),
        };
        let ((old, set), width) = (old, old.0.ty.width());
        if hi >= width {
            return Err(at(target.span, format!("bits {hi}..{lo} of the {width}-bit `{name}`")));
        }
        let need = hi - lo + 1;
        let field = match v.ty.width() {
            w if w >= need => alg.extract(hi - lo, 0, v.bits),
            w => alg.extend(v.ty.is_signed(), need - w, v.bits),
        };
        let bits = spliced(alg, old.bits, lo, field);
        let live = self.live;
        self.vars.insert(
            name.clone(),
            Var {
                value: CInt { bits: alg.ite(live, bits, old.bits), ty: old.ty },
                set: alg.or(set, live),
                ty: Some(old.ty),
                known: None,
            },
        );
        Ok(())
    }

    /// An expression that must be an integer. An optional qualifier read
    /// as a value (`if (.shiftamt && ...)`) is whether the variant writes
    /// it: 1 or 0.
    fn int(&mut self, c: &mut C<'a, A>, e: &Expr) -> Run<CInt<A>> {
        if let Some(written) = self.optional_written(e) {
            return Ok(c.int(i128::from(written)));
        }
        match self.value(c, e)? {
            Val::Int(x) => Ok(x),
            Val::Modifier(q) => Err(at(e.span, format!("the modifier `{q}` where a value is read"))),
        }
    }

    /// Where `e` is an optional qualifier (`.shiftamt`, no placeholder's
    /// value) or an optional placeholder of the Syntax (prmt's `mode`,
    /// `! mode`), not a variable: whether the variant writes it.
    fn optional_written(&self, e: &Expr) -> Option<bool> {
        let setting = &self.read.setting;
        let e = e.without_parens();
        let (q, bare) = match &e.kind {
            ExprKind::Qualifier(q) => (q, false),
            ExprKind::Name(n) if !self.vars.contains_key(n) => (n, true),
            _ => return None,
        };
        let dotted = format!(".{q}");
        if self.read.optional.contains(&dotted) {
            return Some(setting.bound(&dotted).is_some());
        }
        (!bare && setting.bound(&dotted).is_none_or(|v| v == dotted)).then(|| setting.writes(&dotted))
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
            ExprKind::Name(n) if self.is_float(n) => {
                return Err(at(e.span, format!("`{n}` is a float, read where only its comparison with 0 is read")))
            }
            ExprKind::Name(n) => match self.vars.get(n) {
                Some(v) => match self.pinned.get(n) {
                    Some(k) => c.value(v.value.ty, *k),
                    None => v.value,
                },
                None if n == "true" || n == "false" => c.int(i128::from(n == "true")),
                None if limit(n).is_some() => {
                    let (ty, value) = limit(n).expect("just seen");
                    c.value(ty, value)
                }
                None => match named_modifier(setting, n) {
                    Some(q) => return Ok(Val::Modifier(q)),
                    None => return Err(at(e.span, format!("`{n}` is read and never set"))),
                },
            },
            ExprKind::Index(base, index) => self.element(c, e, base, index)?,
            ExprKind::Slice { base, first, second, .. } => {
                let fragment = self.expr_fragment(e);
                let (Some(x), Some(y)) = (self.constant(first), self.constant(second)) else {
                    return Err(at(e.span, "a slice whose bounds an input decides"));
                };
                let (hi, lo) = (x.max(y), x.min(y));
                if lo < 0 || hi >= 128 {
                    return Err(at(e.span, "a slice outside 128 bits"));
                }
                let t = self.int(c, base)?;
                match self.lane_of(base, hi as u32, lo as u32) {
                    Some(ty) => c.operand(alg.extract(hi as u32, lo as u32, t.bits), ty),
                    None => c.slice(fragment, t, hi as u32, lo as u32),
                }
            }
            ExprKind::Qualifier(q) => return Ok(Val::Modifier(modifier(setting, q))),
            ExprKind::Member(base, field) if matches!(&base.kind, ExprKind::Bracketed(t) if t == "Thread") => {
                match (&self.warp, field.as_str()) {
                    (Some(w), "laneid") => w.lane,
                    _ => return Err(at(e.span, format!("`[Thread].{field}` in a block read for one thread"))),
                }
            }
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
                    UnaryOp::Deref | UnaryOp::AddressOf => {
                        return Err(at(e.span, "memory and addresses, which the reading does not model"));
                    }
                }
            }
            ExprKind::Abs(x) => {
                let fragment = self.expr_fragment(e);
                let x = self.int(c, x)?;
                c.abs(fragment, x)
            }
            ExprKind::Binary(op, x, y) => self.binary_expr(c, e, *op, x, y)?,
            ExprKind::Conditional(test, then, otherwise) => return self.conditional(c, test, then, otherwise),
            ExprKind::Call(f, args) => self.called(c, e, f, args)?,
            ExprKind::Placeholder { name, lhs, rhs } => self.placeholder(c, e, name, lhs, rhs)?,
            ExprKind::Float(text) if setting.single_literals_as_bits => {
                let bits =
                    single_bits(text).ok_or_else(|| at(e.span, format!("`{text}` is no single-precision constant")))?;
                c.value(CType::UInt, bits)
            }
            ExprKind::Prose(words) if self.subnormal(words).is_some() => {
                let test = self.subnormal(words).expect("just seen");
                c.from_bool(test)
            }
            ExprKind::Prose(_) => match self.constant(e) {
                Some(width) => c.int(width),
                None => return Err(at(e.span, "prose the literal reading does not read as a value")),
            },
            // `(unsigned)a`: C's conversion, which a signed type that
            // cannot hold the value leaves implementation-defined.
            ExprKind::Cast(to, x) => {
                let ty = c_type(to).ok_or_else(|| at(e.span, format!("`({})` is no C type", to.spelled)))?;
                let fragment = self.expr_fragment(e);
                let x = self.int(c, x)?;
                c.assign(fragment, x, ty)
            }
            _ => return Err(at(e.span, "an expression the literal reading does not follow yet")),
        }))
    }

    /// The value of a call: a helper the block defines, else one C has
    /// (`sizeof`) or the block's dialect names (`min`, `max`).
    fn called(&mut self, c: &mut C<'a, A>, e: &Expr, f: &Expr, args: &[Expr]) -> Run<CInt<A>> {
        let alg = self.alg;
        let name = match &f.kind {
            ExprKind::Name(n) => n.as_str(),
            _ => return Err(at(e.span, "a call of an expression")),
        };
        // Whether this lane executes: the model's one state per lane is
        // both (active, and its guard true).
        if let (Some(w), "isActive" | "isGuardPredicateTrue", [t]) = (&self.warp, name, args) {
            if matches!(&t.kind, ExprKind::Name(n) if n == "Thread") {
                return Ok(c.from_bool(w.executes));
            }
        }
        if name == "ReadByte" && self.functions.get(name).is_none_or(|f| defined_by_comment(f)) {
            return self.read_byte(c, e, args);
        }
        if let Some(f) = self.functions.get(name).copied() {
            return self.call(c, f, args, e.span);
        }
        if let Some(lut) = self.tables.get(name).copied() {
            return self.table_function(c, lut, args, e.span);
        }
        // A placeholder of the Syntax called as a function (9.7.6.1-2's
        // `BoolOp(t, c)`): the operator the variant writes for it, or, in
        // a form that writes none, its first argument (the reading
        // `compare-no-boolop`). Not C: `ParsedReading::not_c` says so.
        if let [x, y] = args {
            if self.read.setting.bound(&format!(".{name}")).is_some() {
                return self.placeholder(c, e, name, x, y);
            }
            if self.read.setting.identity_operators.iter().any(|o| o == name) {
                return self.int(c, x);
            }
        }
        if let ("isFloat", [_]) = (name, args) {
            let float = self.constant(e).ok_or_else(|| at(e.span, "`isFloat` of what is no type"))?;
            return Ok(c.int(float));
        }
        Ok(match (name, args) {
            // C11 6.5.3.4: the size in bytes of its operand's type, a
            // size_t (unsigned long on LP64); the operand is not evaluated,
            // so it meets no rule.
            ("sizeof", [x]) => {
                let ty = c.guarded(alg.bool_constant(false), |c| self.int(c, x))?.ty;
                c.value(CType::ULongLong, i128::from(ty.width() / 8))
            }
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
        })
    }

    /// The gathered array `target` is an element of, where it is one.
    fn gathered(&self, target: &Expr) -> Option<&str> {
        let ExprKind::Index(base, _) = &target.without_parens().kind else { return None };
        let ExprKind::Name(n) = &base.without_parens().kind else { return None };
        self.warp.as_ref()?.arrays.iter().find(|a| *a == n).map(String::as_str)
    }

    /// `wait_for_specified_threads(membermask)`, which 9.7.9.6's block
    /// calls and never defines, read as its Description says (assumptions
    /// shfl-sync-membermask, shfl-sync-mask-agreement): the block ends
    /// with defined results where this lane is in the mask and every
    /// member that executes gives the same mask, and a lane outside the
    /// mask gives no value to read.
    fn wait_for(&mut self, c: &mut C<'a, A>, e: &Expr, args: &[Expr]) -> Run<()> {
        let alg = self.alg;
        let [mask] = args else { return Err(at(e.span, "the wait takes one mask")) };
        let mask = self.int(c, mask)?;
        let mask = c.convert(mask, CType::UInt).bits;
        let Some(warp) = self.warp.as_mut() else { return Err(at(e.span, "a wait in a block of one thread")) };
        let me = alg.extract(4, 0, warp.lane.bits);
        if warp.agrees.len() != WARP {
            return Err(at(e.span, "a wait where the lanes' masks are not inputs"));
        }
        let ends = alg.and(
            ptx_spec::family::shfl::member(alg, mask, me),
            ptx_spec::family::shfl::masks_agree(alg, me, mask, &warp.active, &warp.agrees),
        );
        warp.waits_end = alg.and(warp.waits_end, ends);
        for array in warp.arrays.clone() {
            for k in 0..WARP {
                if let Some(v) = self.vars.get_mut(&format!("{array}[{k}]")) {
                    let member = ptx_spec::family::shfl::member(alg, mask, alg.constant(5, k as u128));
                    v.set = alg.and(v.set, member);
                }
            }
        }
        Ok(())
    }

    /// `ReadByte(mode, ctl, x)`, which 9.7.9.7's block calls and never
    /// defines (or defines by a comment alone), read as the section's
    /// Description and the model read it (assumption prmt-byte-select):
    /// in the generic form, byte `ctl & 7` of the 64-bit x, or that byte's
    /// sign in all 8 bits where `ctl & 8` is set; under a mode, the byte
    /// the mode's table gives for `ctl & 3` at the target byte, which is
    /// the byte of the variable the value is stored into (`tmp[15:8]`: 1).
    fn read_byte(&mut self, c: &mut C<'a, A>, e: &Expr, args: &[Expr]) -> Run<CInt<A>> {
        let alg = self.alg;
        let [mode, ctl, x] = args else { return Err(at(e.span, "ReadByte takes a mode, a selector and a source")) };
        let mode = match self.optional_written(mode) {
            Some(false) => None,
            _ => {
                let q = self.modifier_of(mode).ok_or_else(|| at(mode.span, "ReadByte's mode is no modifier"))?;
                let m = Mode::ALL.into_iter().find(|m| q.strip_prefix('.') == Some(m.name()));
                Some(m.ok_or_else(|| at(mode.span, format!("`{q}` is no mode of prmt")))?)
            }
        };
        let Some(position) = self.byte_stored else {
            return Err(at(e.span, "ReadByte's value is stored into no byte, and under a mode the byte decides it"));
        };
        let (ctl, x) = (self.int(c, ctl)?, self.int(c, x)?);
        let selector = c.convert(ctl, CType::UInt).bits;
        // Under a mode, the table's row is ctl's two low bits (the fix of
        // `prmt-readbyte-undefined` keeps the target byte above them).
        let selector = match mode {
            Some(_) => alg.bvand(selector, alg.constant(32, 3)),
            None => selector,
        };
        let wide = c.convert(x, CType::ULongLong).bits;
        let byte = ptx_smt::encode::prmt::read_byte(alg, mode, selector, position, wide);
        Ok(c.operand(alg.zero_extend(24, byte), CType::UInt))
    }

    /// A call of a helper the block defines (C11 6.5.2.2): each argument
    /// converted to its parameter's type as by assignment, the body run in
    /// a scope of the parameters alone, and the value returned converted to
    /// the declared return type.
    fn call(&mut self, c: &mut C<'a, A>, f: &'r Stmt, args: &[Expr], span: Span) -> Run<CInt<A>> {
        let StmtKind::Function { name, returns, params, body } = &f.kind else {
            return Err(at(span, "a call of a statement that is no helper"));
        };
        if params.len() != args.len() {
            return Err(at(span, format!("`{name}` takes {} arguments, called with {}", params.len(), args.len())));
        }
        let typed = |c: &C<'a, A>, spelled: Option<&TypeName>| {
            spelled
                .and_then(|t| declared_type(c, t))
                .ok_or_else(|| at(f.span, format!("`{name}`: a parameter or result without a C type (not read yet)")))
        };
        let result = typed(c, returns.as_ref())?;
        let mut bound = BTreeMap::new();
        for (p, arg) in params.iter().zip(args) {
            let ty = typed(c, p.ty.as_ref())?;
            let x = self.int(c, arg)?;
            let fragment = self.expr_fragment(arg);
            let value = c.assign(fragment, x, ty);
            let known = self.constant(arg);
            bound.insert(p.name.clone(), Var { value, set: self.alg.bool_constant(true), ty: Some(ty), known });
        }
        let caller = std::mem::replace(&mut self.vars, bound);
        let pinned = std::mem::take(&mut self.pinned);
        let (live, left, certain) = (self.live, self.left, self.certain);
        let outer = self.returned.replace((c.value(result, 0), self.alg.bool_constant(false)));
        let ran = self.block(c, body);
        let (value, _) = std::mem::replace(&mut self.returned, outer).expect("set above");
        self.vars = caller;
        self.pinned = pinned;
        (self.live, self.left, self.certain) = (live, left, certain);
        ran.map(|()| value)
    }

    /// `test ? then : otherwise`. A test no input decides picks its arm, as
    /// an `if` does: the other is never evaluated, and meets no rule.
    fn conditional(&mut self, c: &mut C<'a, A>, test: &Expr, then: &Expr, otherwise: &Expr) -> Run<Val<'r, A>> {
        if let Some(k) = self.constant(test) {
            return self.value(c, if k != 0 { then } else { otherwise });
        }
        let t = self.int(c, test)?;
        let chosen = c.truth(t);
        let a = c.guarded(chosen, |c| self.int(c, then))?;
        let b = c.guarded(self.alg.not(chosen), |c| self.int(c, otherwise))?;
        Ok(Val::Int(c.select(chosen, a, b)))
    }

    /// `a CmpOp b`, `(d != 0) BoolOp q`: the operator the variant writes
    /// for the placeholder, as C writes it. A comparison (`.lt`, or `.lo`
    /// on unsigned values) is C's on the operands' types; a Boolean
    /// operator is C's `&&` or `||` (each operand a truth value, the right
    /// one evaluated where the left does not decide), or `!=` of the two
    /// truths for `.xor`.
    fn placeholder(&mut self, c: &mut C<'a, A>, e: &Expr, name: &str, x: &Expr, y: &Expr) -> Run<CInt<A>> {
        let alg = self.alg;
        let op =
            self.read.setting.bound(&format!(".{name}")).ok_or_else(|| at(e.span, format!("`{name}` is not given")))?;
        let compare = match op {
            ".and" | ".or" | ".xor" => {
                let a = self.int(c, x)?;
                let t = c.truth(a);
                let runs = match op {
                    ".and" => t,
                    ".or" => alg.not(t),
                    _ => alg.bool_constant(true),
                };
                let b = c.guarded(runs, |c| self.int(c, y))?;
                let tb = c.truth(b);
                return Ok(c.from_bool(match op {
                    ".and" => alg.and(t, tb),
                    ".or" => alg.or(t, tb),
                    _ => alg.bool_xor(t, tb),
                }));
            }
            ".eq" => BinaryOp::Eq,
            ".ne" => BinaryOp::Ne,
            ".lt" | ".lo" => BinaryOp::Lt,
            ".le" | ".ls" => BinaryOp::Le,
            ".gt" | ".hi" => BinaryOp::Gt,
            ".ge" | ".hs" => BinaryOp::Ge,
            other => return Err(at(e.span, format!("the operator `{other}`"))),
        };
        let (a, b) = (self.int(c, x)?, self.int(c, y)?);
        let fragment = self.expr_fragment(e);
        self.binary(c, compare, a, b, fragment, e.span)
    }

    /// `x op y`: `&&` and `||` evaluate `y` only where C does, a float
    /// operand is compared with 0 as C does, and the other operators are
    /// C's on the operands' types.
    fn binary_expr(&mut self, c: &mut C<'a, A>, e: &Expr, op: BinaryOp, x: &Expr, y: &Expr) -> Run<CInt<A>> {
        let alg = self.alg;
        let fragment = self.expr_fragment(e);
        Ok(match op {
            BinaryOp::And | BinaryOp::Or => {
                let a = self.int(c, x)?;
                let t = c.truth(a);
                let runs = if op == BinaryOp::And { t } else { alg.not(t) };
                let b = c.guarded(runs, |c| self.int(c, y))?;
                let tb = c.truth(b);
                let r = if op == BinaryOp::And { alg.and(t, tb) } else { alg.or(t, tb) };
                c.from_bool(r)
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                if let Some(test) = self.float_against_zero(c, op, x, y) {
                    return Ok(test);
                }
                let (a, b) = (self.value(c, x)?, self.value(c, y)?);
                let same = self.equal(c, a, b, e.span)?;
                c.from_bool(if op == BinaryOp::Eq { same } else { alg.not(same) })
            }
            _ => match self.float_against_zero(c, op, x, y) {
                Some(test) => test,
                None => {
                    let (a, b) = (self.int(c, x)?, self.int(c, y)?);
                    self.binary(c, op, a, b, fragment, e.span)?
                }
            },
        })
    }

    /// Whether `name` is an operand the block compares as a float.
    fn is_float(&self, name: &str) -> bool {
        self.read.setting.operands.iter().any(|o| o.name == name && o.float)
    }

    /// The bits of `name`, where it is a single-precision operand the block
    /// compares as a float.
    fn single(&self, name: &str) -> Option<A::Bv> {
        let bits = self.vars.get(name).filter(|_| self.is_float(name))?.value.bits;
        (self.alg.width(bits) == 32).then_some(bits)
    }

    /// The prose `c is subnormal`, of an operand the block compares as a
    /// float: a zero exponent and a nonzero fraction (IEEE 754's
    /// single-precision subnormal).
    fn subnormal(&self, words: &[String]) -> Option<A::Bool> {
        let [name, is, subnormal] = words else { return None };
        if is != "is" || subnormal != "subnormal" {
            return None;
        }
        let alg = self.alg;
        let bits = self.single(name)?;
        let exponent = alg.extract(30, 23, bits);
        let fraction = alg.extract(22, 0, bits);
        Some(alg.and(alg.is_zero(exponent), alg.not(alg.is_zero(fraction))))
    }

    /// `c >= 0`, the other orders, `==` and `!=`, of a single-precision
    /// operand and the constant 0: C's comparison, which converts 0 to
    /// `float` and compares as IEEE 754 does under C's Annex F (a NaN is
    /// unordered, so every order and `==` are false; -0 equals 0). `None`
    /// where `x op y` is not that.
    fn float_against_zero(&self, c: &C<'a, A>, op: BinaryOp, x: &Expr, y: &Expr) -> Option<CInt<A>> {
        let alg = self.alg;
        let float_name = |e: &Expr| match &e.without_parens().kind {
            ExprKind::Name(n) if self.is_float(n) => Some(n.clone()),
            _ => None,
        };
        // The order as `float op 0`.
        let (name, op) = match (float_name(x), float_name(y)) {
            (Some(n), None) if self.constant(y) == Some(0) => (n, op),
            (None, Some(n)) if self.constant(x) == Some(0) => {
                let mirrored = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    other => other,
                };
                (n, mirrored)
            }
            _ => return None,
        };
        let bits = self.single(&name)?;
        let magnitude = alg.extract(30, 0, bits);
        let negative = alg.eq(alg.extract(31, 31, bits), alg.constant(1, 1));
        let zero = alg.is_zero(magnitude);
        let infinity = alg.constant(31, 0x7f80_0000);
        let nan = alg.bvugt(magnitude, infinity);
        let (zero_counts, sign_wanted) = match op {
            BinaryOp::Ge => (true, false),
            BinaryOp::Gt => (false, false),
            BinaryOp::Le => (true, true),
            BinaryOp::Lt => (false, true),
            // A NaN's magnitude is not 0: it is unequal, as IEEE says.
            BinaryOp::Eq => return Some(c.from_bool(zero)),
            BinaryOp::Ne => return Some(c.from_bool(alg.not(zero))),
            _ => return None,
        };
        let signed_right = if sign_wanted { negative } else { alg.not(negative) };
        let holds = if zero_counts { alg.or(zero, signed_right) } else { alg.and(alg.not(zero), signed_right) };
        Some(c.from_bool(alg.and(alg.not(nan), holds)))
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

/// The bits of a single-precision constant (`1.0f`), where a destination
/// holds it as bits (set's reading `set-f32-one`).
fn single_bits(text: &str) -> Option<i128> {
    let value: f32 = text.strip_suffix(['f', 'F'])?.parse().ok()?;
    Some(i128::from(value.to_bits()))
}

/// Whether `s` calls a placeholder of the Syntax as a function: one the
/// variant binds, or one it leaves out whose call a reading takes as its
/// first argument.
fn calls_a_placeholder(s: &Stmt, setting: &Setting) -> bool {
    let mut found = false;
    s.walk(&mut |s| {
        for e in s.expressions() {
            e.walk(&mut |e| {
                if let ExprKind::Call(f, _) = &e.kind {
                    if let ExprKind::Name(n) = &f.kind {
                        found |= setting.bound(&format!(".{n}")).is_some() || setting.identity_operators.contains(n);
                    }
                }
            });
        }
    });
    found
}

/// Whether `s` tests a condition written in words (`if (BoolOp
/// specified)`): a value named in words (`n = bitwidth of type`) reads as
/// its words say, a test in words does not say what it tests.
fn tests_in_words(s: &Stmt) -> bool {
    let mut found = false;
    s.walk(&mut |s| {
        let cond = match &s.kind {
            StmtKind::If { cond, .. } | StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => Some(cond),
            StmtKind::For { cond, .. } => cond.as_ref(),
            _ => None,
        };
        if let Some(cond) = cond {
            cond.walk(&mut |e| found |= matches!(e.kind, ExprKind::Prose(_)));
        }
    });
    found
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

/// The qualifier a name the block reads as a value names: a placeholder
/// the variant binds (`type` under `.s32` is `.s32`), or a type or a
/// qualifier itself (`u16x2`); `None` for any other name.
fn named_modifier<'s>(setting: &'s Setting, name: &str) -> Option<&'s str> {
    let dotted = format!(".{name}");
    if let Some(bound) = setting.bound(&dotted) {
        return Some(bound);
    }
    let known = Type::ALL.into_iter().any(|t| t.to_string() == dotted) || setting.written.contains(&dotted);
    known.then(|| intern(dotted))
}

/// Whether a helper the block defines has no code, only a comment
/// (`ReadByte(mode, ctl, x) { // ... }`): the comment says what it
/// computes, which C does not read.
fn defined_by_comment(f: &Stmt) -> bool {
    matches!(&f.kind, StmtKind::Function { body, .. } if body.iter().all(|s| matches!(s.kind, StmtKind::Empty)))
}

/// This lane of the warp, and what the lanes give the block where every
/// lane runs it (shfl's model inputs: the lane id, each lane's `a` and
/// state, for shfl.sync each lane's agreement): its own `a`, and each
/// gathered array ([`GATHERED`], `SourceA`), element k lane k's `a`,
/// held where lane k executes, as the third proof reads the block.
fn warp<A: Algebra>(c: &mut C<'_, A>, read: &Read, inputs: &[A::Bv], vars: &mut BTreeMap<String, Var<A>>) -> Warp<A> {
    let alg = c.alg();
    let names = read.variant.inputs();
    let get = |name: &str| names.iter().position(|o| o.name == name).map(|k| inputs[k]);
    let per_lane = |base: &str| -> Vec<A::Bv> { (0..WARP).filter_map(|k| get(&format!("{base}{k}"))).collect() };
    let lane_bits = get("lane").expect("a warp-wide variant has a lane id");
    let lane = c.operand(alg.zero_extend(32 - alg.width(lane_bits), lane_bits), CType::Int);
    let of_lane = |values: &[A::Bv]| {
        (1..values.len())
            .fold(values[0], |rest, k| alg.ite(alg.eq(lane.bits, alg.constant(32, k as u128)), values[k], rest))
    };
    let active = per_lane("active");
    let executes = alg.is_set(of_lane(&active));
    let mut arrays = Vec::new();
    for (_, array, operand) in GATHERED.iter().filter(|(s, _, _)| *s == read.variant.section()) {
        let written = per_lane(operand);
        let ty = operand_type(c, read, operand, alg.width(written[0]));
        let own = c.operand(of_lane(&written), ty);
        vars.insert(operand.to_string(), Var { value: own, set: alg.bool_constant(true), ty: Some(ty), known: None });
        for (k, bits) in written.iter().enumerate() {
            let value = c.operand(*bits, ty);
            let held = alg.is_set(active[k]);
            vars.insert(format!("{array}[{k}]"), Var { value, set: held, ty: Some(ty), known: None });
        }
        arrays.push(array.to_string());
    }
    let agrees = per_lane("agrees");
    Warp { lane, executes, arrays, waits_end: alg.bool_constant(true), active, agrees }
}

/// `old` with its bits from `lo` up replaced by `field`, as wide.
fn spliced<A: Algebra>(alg: &A, old: A::Bv, lo: u32, field: A::Bv) -> A::Bv {
    let (width, hi) = (alg.width(old), lo + alg.width(field) - 1);
    let mut bits = field;
    if lo > 0 {
        bits = alg.concat(bits, alg.extract(lo - 1, 0, old));
    }
    if hi + 1 < width {
        bits = alg.concat(alg.extract(width - 1, hi + 1, old), bits);
    }
    bits
}

/// The word a loop's head begins with.
fn loop_word(s: &Stmt) -> &'static str {
    match s.kind {
        StmtKind::For { .. } => "for",
        StmtKind::DoWhile { .. } => "do ... while",
        _ => "while",
    }
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
/// A limit of `<limits.h>` (C11 5.2.4.2.1) on an LP64 target: its type
/// and value.
fn limit(name: &str) -> Option<(CType, i128)> {
    Some(match name {
        "SHRT_MAX" => (CType::Int, i128::from(i16::MAX)),
        "SHRT_MIN" => (CType::Int, i128::from(i16::MIN)),
        "USHRT_MAX" => (CType::Int, i128::from(u16::MAX)),
        "INT_MAX" => (CType::Int, i128::from(i32::MAX)),
        "INT_MIN" => (CType::Int, i128::from(i32::MIN)),
        "UINT_MAX" => (CType::UInt, i128::from(u32::MAX)),
        "LONG_MAX" | "LLONG_MAX" => (CType::LongLong, i128::from(i64::MAX)),
        "LONG_MIN" | "LLONG_MIN" => (CType::LongLong, i128::from(i64::MIN)),
        "ULONG_MAX" | "ULLONG_MAX" => (CType::ULongLong, i128::from(u64::MAX)),
        _ => return None,
    })
}

fn declared_type<A: Algebra>(c: &C<'_, A>, ty: &TypeName) -> Option<CType> {
    let name = ty.spelled.strip_prefix('.').unwrap_or(&ty.spelled);
    if let Some(t) = Type::ALL.into_iter().find(|t| t.to_string() == format!(".{name}")) {
        return Some(c.of_ptx(t));
    }
    c_type(ty)
}

/// The operator of `i++` (`+`) or `i--` (`-`).
fn step_op(op: crate::pseudocode::ast::StepOp) -> BinaryOp {
    match op {
        crate::pseudocode::ast::StepOp::Increment => BinaryOp::Add,
        crate::pseudocode::ast::StepOp::Decrement => BinaryOp::Sub,
    }
}

/// The value a loop's step stores in its counter, as an expression of the
/// counter (`i++` stores `i + 1`; `i -= 2`, `i - 2`); `None` for any other
/// step.
fn stepped(step: &Expr) -> Option<Expr> {
    let span = step.span;
    let (op, target, by) = match &step.kind {
        ExprKind::Step { op, target, .. } => {
            (step_op(*op), target.clone(), Box::new(Expr::new(ExprKind::Int { text: "1".into(), value: 1 }, span)))
        }
        ExprKind::Assign(AssignOp(Some(op)), target, by) => (*op, target.clone(), by.clone()),
        _ => return None,
    };
    Some(Expr::new(ExprKind::Binary(op, target, by), span))
}

/// Whether a `break` is written anywhere in `body`.
/// Whether a loop's state between passes is its live and left inputs
/// and the values of the variables its `body` stores: the body stores only
/// whole variables that `exists` (no element, slice or new variable),
/// holds no `return` and no loop.
fn follows_state(body: &Stmt, exists: impl Fn(&str) -> bool) -> bool {
    let mut plain = true;
    body.walk(&mut |s| {
        plain &= !matches!(
            s.kind,
            StmtKind::Return(_) | StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
        ) || std::ptr::eq(s, body);
        for e in s.expressions() {
            e.walk(&mut |x| {
                if let ExprKind::Assign(_, target, _) | ExprKind::Step { target, .. } = &x.kind {
                    plain &= matches!(&target.without_parens().kind, ExprKind::Name(n) if exists(n));
                }
            });
        }
    });
    plain
}

fn contains_break(body: &Stmt) -> bool {
    let mut found = false;
    body.walk(&mut |s| found |= matches!(s.kind, StmtKind::Break));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
