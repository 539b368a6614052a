//! The Semantics block evaluated: a parsed block run over a bit-vector
//! algebra for one variant, its operands the inputs, its destinations the
//! outputs. Run over SMT terms, it gives the formula the document's own
//! text computes, which the third proof holds against the hand-written
//! encoding.
//!
//! Every input is symbolic, so a branch is not taken or skipped: both arms
//! run, each under its condition (the *live* guard), and an assignment
//! keeps the old value where its guard is false. `break` and `continue`
//! narrow the guard until the loop ends. A loop whose condition no input
//! can change is unrolled exactly; any other runs to a bound (the widest
//! operand's width and two more), and an input on which it would still run
//! leaves the outputs undefined, so that the proof fails there rather than
//! cut the loop short.
//!
//! Where the text needs more than C and the dialect (a helper it does not
//! define, a phrase of prose), the reading comes from
//! [`super::readings`]; where there is none, evaluation stops with the
//! place and the reason.

use std::collections::BTreeMap;

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::Out;

use super::arith;
use super::ast::{AssignOp, BinaryOp, Expr, ExprKind, StepOp, Stmt, StmtKind, UnaryOp};
use super::readings;
use super::setting::Setting;
use super::value::{choose, select, Int, Refusal, Truth, Value};

/// A variable: its value (none before it is set) and, where it is an
/// operand or declared, its type.
#[derive(Debug)]
struct Slot<A: Algebra> {
    value: Option<Value<A>>,
    ty: Option<(bool, u32)>,
    operand: bool,
}

// By hand: a derive would ask the algebra itself to be `Clone`.
impl<A: Algebra> Clone for Slot<A> {
    fn clone(&self) -> Self {
        Slot { value: self.value.clone(), ty: self.ty, operand: self.operand }
    }
}

/// The evaluator of one block for one variant.
pub struct Machine<'a, A: Algebra> {
    pub alg: &'a A,
    pub setting: &'a Setting,
    vars: BTreeMap<String, Slot<A>>,
    /// The inputs on which the statement now running runs.
    live: Truth<A>,
    /// The inputs that have left the innermost loop or switch by `break`.
    left: Truth<A>,
    /// The inputs that have skipped the rest of the loop's body by
    /// `continue`.
    skipped: Truth<A>,
    /// The inputs on which a loop was still running at its bound.
    stuck: A::Bool,
    /// Where every lane of a warp runs the block: the lane whose block
    /// this is.
    thread: Option<Thread<A>>,
    /// The state at the top of each pass of the block's first outermost
    /// loop, where [`Machine::trace_first_loop`] asked for it.
    trace: Option<Vec<PassState<A>>>,
    /// How many loops the statement now running is inside.
    depth: u32,
}

/// The state of a loop at the top of one pass, before its condition is
/// tested: each variable that holds a value, the inputs on which the pass
/// runs, and those that have left the loop by `break`. A proof by
/// induction over the loop's passes relates these (`text_proof::lockstep`).
pub struct PassState<A: Algebra> {
    pub vars: BTreeMap<String, Value<A>>,
    pub live: Truth<A>,
    pub left: Truth<A>,
}

/// The lane whose block is read, where every lane of a warp runs it
/// (`[Thread]`): its id, and whether it executes the instruction.
pub struct Thread<A: Algebra> {
    pub lane: Int<A>,
    pub executes: Truth<A>,
}

/// The helpers that ask of a thread whether it executes the instruction:
/// the model's one state per lane is both (active, its guard true).
const THREAD_STATE: &[&str] = &["isActive", "isGuardPredicateTrue"];

type Run<T> = Result<T, Refusal>;

/// Where the evaluation stopped, and why.
pub fn at(e: &Expr, why: impl std::fmt::Display) -> Refusal {
    format!("{}: {why}", e.span.start)
}

impl<'a, A: Algebra> Machine<'a, A> {
    /// A machine with the operands set: `inputs` by name, and each
    /// destination's value before the block runs (arbitrary: a bit the
    /// block never writes is any bit).
    pub fn new(alg: &'a A, setting: &'a Setting, values: &[(String, A::Bv)]) -> Machine<'a, A> {
        let mut vars = BTreeMap::new();
        for o in &setting.operands {
            let range = setting.ranges.iter().find(|(n, _)| *n == o.name).map(|(_, r)| *r);
            let value = values.iter().find(|(n, _)| *n == o.name).map(|(_, v)| {
                let int = Int::of_bits(alg, *v, o.signed);
                Value::Int(match range {
                    // A value the case fixes is that constant.
                    Some((lo, hi)) if lo == hi => Int::constant(alg, lo).stored(alg, o.signed, o.width),
                    Some(r) => Int { range: Some(r), ..int },
                    None => int,
                })
            });
            vars.insert(o.name.clone(), Slot { value, ty: Some((o.signed, o.width)), operand: true });
        }
        let yes = Truth::constant(alg, true);
        let no = Truth::constant(alg, false);
        Machine {
            alg,
            setting,
            vars,
            live: yes,
            left: no,
            skipped: no,
            stuck: alg.bool_constant(false),
            thread: None,
            trace: None,
            depth: 0,
        }
    }

    /// Keep the state at the top of each pass of the first loop the block
    /// runs that no other loop holds ([`Machine::passes`]).
    pub fn trace_first_loop(&mut self) {
        self.trace = Some(Vec::new());
    }

    /// The states kept by [`Machine::trace_first_loop`], one per pass that
    /// began, the last the state the loop left with; empty where nothing
    /// was kept.
    pub fn passes(&self) -> &[PassState<A>] {
        self.trace.as_deref().unwrap_or_default()
    }

    /// Read the block as `thread`'s, where every lane of its warp runs it:
    /// each array of `gathered` already holds what each lane writes into
    /// it, for any lane to read.
    pub fn in_warp(&mut self, thread: Thread<A>, gathered: Vec<(String, Vec<A::Bv>)>) {
        for (name, items) in gathered {
            let items = items.into_iter().map(|bv| Some(Value::Int(Int::of_bits(self.alg, bv, false)))).collect();
            self.vars.insert(name, Slot { value: Some(Value::Array(items)), ty: None, operand: false });
        }
        self.thread = Some(thread);
    }

    /// Run the block's statements.
    pub fn run(&mut self, stmts: &[Stmt]) -> Run<()> {
        stmts.iter().try_for_each(|s| self.stmt(s))
    }

    /// The value of each destination operand, undefined where the text
    /// leaves it so (a division by zero, a loop that does not stop).
    pub fn outputs(&self) -> Run<Vec<Out<A::Bv, A::Bool>>> {
        let alg = self.alg;
        let mut out = Vec::new();
        for o in self.setting.operands.iter().filter(|o| o.output) {
            let value = self.vars.get(&o.name).and_then(|s| s.value.clone());
            let int = match value {
                Some(Value::Int(i)) => i,
                Some(Value::Truth(t)) => t.to_int(alg),
                _ => return Err(format!("the block never sets its destination `{}`", o.name)),
            };
            let stored = int.stored(alg, o.signed, o.width);
            let defined = alg.and(stored.ok, alg.not(self.stuck));
            out.push(Out { value: stored.bits_at(alg, o.width), defined });
        }
        Ok(out)
    }

    // --- Statements ---

    fn stmt(&mut self, s: &Stmt) -> Run<()> {
        if self.live.known == Some(false) {
            return Ok(());
        }
        if let Some(c) = s.comment.as_ref().filter(|_| !self.setting.comments_not_guards) {
            if let Some(q) = readings::comment_guard(&c.text) {
                if !self.setting.writes(&q) {
                    return Ok(());
                }
            }
        }
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e).map(|_| ()),
            StmtKind::Declare { ty, declarators } => {
                let ty = ty.ptx().map(|(letter, bits)| (letter == 's', bits)).or_else(|| ty.c_integer());
                for d in declarators {
                    // The text's own type, an operand's included (`.u32 d`).
                    let slot =
                        self.vars.entry(d.name.clone()).or_insert(Slot { value: None, ty: None, operand: false });
                    slot.ty = ty.or(slot.ty);
                    if d.array.is_some() {
                        return Err(format!("{}: an array declaration", d.pos));
                    }
                    if let Some(init) = &d.init {
                        let v = self.expr(init)?;
                        self.store(&d.name, v)?;
                    }
                }
                Ok(())
            }
            StmtKind::Block(body) => self.run(body),
            StmtKind::If { cond, then, otherwise } => self.branch(cond, then, otherwise.as_deref()),
            StmtKind::Switch { subject, body } => self.switch(subject, body),
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                self.repeat(cond.as_ref(), step.as_ref(), body, false)
            }
            StmtKind::While { cond, body } => self.repeat(Some(cond), None, body, false),
            StmtKind::DoWhile { body, cond } => self.repeat(Some(cond), None, body, true),
            StmtKind::Break => {
                self.left = self.left.or(self.alg, self.live);
                self.live = Truth::constant(self.alg, false);
                Ok(())
            }
            StmtKind::Continue => {
                self.skipped = self.skipped.or(self.alg, self.live);
                self.live = Truth::constant(self.alg, false);
                Ok(())
            }
            StmtKind::Empty => Ok(()),
            StmtKind::Malformed => Err(format!("{}: the statement does not parse", s.span.start)),
            StmtKind::Return(_) | StmtKind::Function { .. } => {
                Err(format!("{}: a helper defined in the block is not evaluated", s.span.start))
            }
            StmtKind::Case(_) | StmtKind::Default => Err(format!("{}: a case label outside a switch", s.span.start)),
        }
    }

    fn branch(&mut self, cond: &Expr, then: &Stmt, otherwise: Option<&Stmt>) -> Run<()> {
        let alg = self.alg;
        let c = self.truth(cond)?;
        match c.known {
            Some(true) => return self.stmt(then),
            Some(false) => return otherwise.map_or(Ok(()), |o| self.stmt(o)),
            None => {}
        }
        let before = self.live;
        self.live = before.and(alg, c);
        self.stmt(then)?;
        self.live = before.and(alg, c.not(alg));
        if let Some(o) = otherwise {
            self.stmt(o)?;
        }
        self.live = self.still(before);
        Ok(())
    }

    /// `before`, less the inputs that have since left by `break` or
    /// `continue`.
    fn still(&self, before: Truth<A>) -> Truth<A> {
        let alg = self.alg;
        before.and(alg, self.left.not(alg)).and(alg, self.skipped.not(alg))
    }

    fn switch(&mut self, subject: &Expr, body: &[Stmt]) -> Run<()> {
        let alg = self.alg;
        let subject = self.expr(subject)?;
        let (before, outer_left) = (self.live, self.left);
        self.left = Truth::constant(alg, false);
        let labels: Vec<&Expr> =
            body.iter().filter_map(|s| if let StmtKind::Case(e) = &s.kind { Some(e) } else { None }).collect();
        let mut any = Truth::constant(alg, false);
        for l in &labels {
            let v = self.expr(l)?;
            any = any.or(alg, self.equal(&subject, &v, l)?);
        }
        let mut matched = Truth::constant(alg, false);
        self.live = Truth::constant(alg, false);
        for s in body {
            let hit = match &s.kind {
                StmtKind::Case(l) => {
                    let v = self.expr(l)?;
                    Some(self.equal(&subject, &v, l)?)
                }
                StmtKind::Default => Some(any.not(alg)),
                _ => None,
            };
            match hit {
                Some(hit) => {
                    if self.setting.cases_end_at_labels {
                        self.left = self.left.or(alg, self.live);
                        matched = Truth::constant(alg, false);
                    }
                    matched = matched.or(alg, hit);
                    self.live = before.and(alg, matched).and(alg, self.left.not(alg));
                }
                None => self.stmt(s)?,
            }
        }
        self.live = before;
        self.left = outer_left;
        Ok(())
    }

    /// Whether two values are equal: qualifiers by name, integers by value.
    fn equal(&self, x: &Value<A>, y: &Value<A>, place: &Expr) -> Run<Truth<A>> {
        match (x, y) {
            (Value::Qualifier(a), Value::Qualifier(b)) => Ok(Truth::constant(self.alg, a == b)),
            (Value::Qualifier(_), _) | (_, Value::Qualifier(_)) => Err(at(place, "a qualifier compared with a number")),
            _ => {
                let (a, b) = (self.int_of((*x).clone(), place)?, self.int_of((*y).clone(), place)?);
                match arith::binary(self.alg, BinaryOp::Eq, a, b).map_err(|e| at(place, e))? {
                    Err(t) => Ok(t),
                    Ok(_) => unreachable!("a comparison gives a truth value"),
                }
            }
        }
    }

    /// A loop: `cond` tested before each pass (after it, for `do`), `step`
    /// after each.
    fn repeat(&mut self, cond: Option<&Expr>, step: Option<&Expr>, body: &Stmt, test_after: bool) -> Run<()> {
        let alg = self.alg;
        let (before, outer_left, outer_skipped) = (self.live, self.left, self.skipped);
        self.left = Truth::constant(alg, false);
        // A counter that only the step changes is stepped on every input,
        // so that it stays a constant (and is forgotten after the loop).
        let counter = step.and_then(Expr::counter).filter(|n| !body.assigns(n)).map(str::to_string);
        let mut looping = before;
        // Only the first outermost loop is kept; a later one, or an inner
        // one, is not.
        let traced = self.depth == 0 && self.trace.as_ref().is_some_and(Vec::is_empty);
        self.depth += 1;
        for pass in 0..=self.setting.loop_bound {
            self.live = looping.and(alg, self.left.not(alg));
            if traced {
                let vars = self.vars.iter().filter_map(|(n, s)| Some((n.clone(), s.value.clone()?))).collect();
                let state = PassState { vars, live: self.live, left: self.left };
                self.trace.as_mut().expect("traced").push(state);
            }
            if let (Some(c), false) = (cond, pass == 0 && test_after) {
                let c = self.truth(c)?;
                self.live = self.live.and(alg, c);
            }
            looping = self.live;
            if looping.known == Some(false) {
                break;
            }
            if pass == self.setting.loop_bound {
                self.stuck = alg.or(self.stuck, alg.and(looping.b, looping.ok));
                break;
            }
            self.skipped = Truth::constant(alg, false);
            self.stmt(body)?;
            self.live = self.still(looping);
            looping = self.live;
            if let Some(s) = step {
                if counter.is_some() {
                    self.live = Truth::constant(alg, true);
                }
                self.expr(s)?;
                self.live = looping;
            }
        }
        self.depth -= 1;
        if let Some(n) = counter {
            if let Some(slot) = self.vars.get_mut(&n) {
                slot.value = None;
            }
        }
        self.live = before;
        self.left = outer_left;
        self.skipped = outer_skipped;
        Ok(())
    }

    // --- Places ---

    /// Store `v` in the variable `name` on the live inputs, converted to its
    /// type if it has one.
    fn store(&mut self, name: &str, v: Value<A>) -> Run<()> {
        let alg = self.alg;
        let slot = self.vars.entry(name.to_string()).or_insert(Slot { value: None, ty: None, operand: false });
        let v = match (slot.ty, v) {
            (Some((signed, width)), Value::Int(i)) => Value::Int(i.stored(alg, signed, width)),
            (Some((signed, width)), Value::Truth(t)) => Value::Int(t.to_int(alg).stored(alg, signed, width)),
            (_, v) => v,
        };
        let merged = match self.live.known {
            Some(true) => v,
            Some(false) => return Ok(()),
            None => merge(alg, self.live, v, slot.value.clone())?,
        };
        slot.value = Some(merged);
        Ok(())
    }

    /// `x[i] = v`: an element of an array, a lane of a packed operand, or a
    /// bit of an integer.
    fn store_index(&mut self, base: &Expr, index: &Expr, v: Value<A>) -> Run<()> {
        let alg = self.alg;
        let ExprKind::Name(name) = &base.kind else { return Err(at(base, "an indexed place that is not a name")) };
        let i = self.int(index)?;
        let slot = self.vars.get(name).cloned();
        let is_array = matches!(slot.as_ref().and_then(|s| s.value.as_ref()), Some(Value::Array(_)))
            || slot.as_ref().is_none_or(|s| s.value.is_none() && !s.operand);
        if is_array {
            let mut items = match slot.and_then(|s| s.value) {
                Some(Value::Array(items)) => items,
                _ => Vec::new(),
            };
            if i.known().is_none() {
                // An element the inputs pick: each element written where
                // the index is its own.
                within(&i, items.len(), index)?;
                for (k, item) in items.iter_mut().enumerate() {
                    let here = self.live.and(alg, index_is(alg, i, k).map_err(|r| at(index, r))?);
                    *item = Some(merge(alg, here, v.clone(), item.take())?);
                }
                self.vars.insert(name.clone(), Slot { value: Some(Value::Array(items)), ty: None, operand: false });
                return Ok(());
            }
            let k = known_index(&i, index)?;
            if items.len() <= k {
                items.resize(k + 1, None);
            }
            let old = items[k].clone();
            items[k] = Some(if self.live.known == Some(true) { v } else { merge(alg, self.live, v, old)? });
            self.vars.insert(name.clone(), Slot { value: Some(Value::Array(items)), ty: None, operand: false });
            return Ok(());
        }
        let slot = slot.expect("a slot");
        let old = match slot.value {
            Some(Value::Int(x)) => x,
            _ => return Err(at(base, format!("`{name}` is indexed before it is set"))),
        };
        let v = self.int_of(v, index)?;
        let (signed, width) = slot.ty.unwrap_or((old.signed, old.width(alg)));
        let new = match (slot.operand, self.setting.lane) {
            (true, Some((lane, _))) => write_lane(alg, old, width, lane, known_index(&i, index)?, v)?,
            _ => write_bit(alg, old, width, i, v),
        };
        self.store(name, Value::Int(Int::of_bits(alg, new.0, signed).and_ok(alg, new.1)))
    }

    fn assign(&mut self, target: &Expr, v: Value<A>) -> Run<()> {
        match &target.kind {
            ExprKind::Name(n) => self.store(n, v),
            // `lane[4:0] = x` sets a new variable to x's low bits.
            ExprKind::Slice { base, first, second, .. } => {
                let ExprKind::Name(n) = &base.kind else { return Err(at(target, "a slice of what is not a name")) };
                let (a, b) = (self.int(first)?.known(), self.int(second)?.known());
                let (Some(a), Some(b)) = (a, b) else {
                    return Err(at(target, "a slice whose bounds the inputs decide"));
                };
                if a.min(b) != 0 || !(0..128).contains(&a.max(b)) || self.vars.get(n).is_some_and(|s| s.value.is_some())
                {
                    return Err(at(target, "a slice written into a value already set, or above bit 0"));
                }
                let x = self.int_of(v, target)?;
                let bits = arith::slice(self.alg, x, a.max(b) as u32, 0).map_err(|r| at(target, r))?;
                self.store(n, Value::Int(bits))
            }
            ExprKind::Paren(t) => self.assign(t, v),
            ExprKind::Index(base, index) => self.store_index(base, index, v),
            _ => Err(at(target, "an assignment to a place the evaluator does not write")),
        }
    }
}

/// The value `new` where `guard` holds, else `old` (unset: undefined).
fn merge<A: Algebra>(alg: &A, guard: Truth<A>, new: Value<A>, old: Option<Value<A>>) -> Run<Value<A>> {
    Ok(match (new, old) {
        (Value::Int(n), None) => Value::Int(n.and_ok(alg, alg.and(guard.b, guard.ok))),
        (Value::Truth(n), None) => Value::Truth(Truth { ok: alg.and(n.ok, alg.and(guard.b, guard.ok)), ..n }),
        (Value::Int(n), Some(Value::Int(o))) => Value::Int(select(alg, guard, n, o)?),
        (Value::Truth(n), Some(Value::Truth(o))) => Value::Truth(Truth {
            b: choose(alg, guard.b, n.b, o.b),
            known: None,
            ok: alg.and(guard.ok, choose(alg, guard.b, n.ok, o.ok)),
        }),
        (Value::Int(n), Some(Value::Truth(o))) => Value::Int(select(alg, guard, n, o.to_int(alg))?),
        (Value::Truth(n), Some(Value::Int(o))) => Value::Int(select(alg, guard, n.to_int(alg), o)?),
        (Value::Qualifier(a), Some(Value::Qualifier(b))) if a == b => Value::Qualifier(a),
        (Value::Qualifier(a), None) => Value::Qualifier(a),
        (Value::Array(n), Some(Value::Array(o))) => {
            let len = n.len().max(o.len());
            let mut items = Vec::new();
            for k in 0..len {
                let (nk, ok) = (n.get(k).cloned().flatten(), o.get(k).cloned().flatten());
                items.push(match nk {
                    Some(v) => Some(merge(alg, guard, v, ok)?),
                    None => ok,
                });
            }
            Value::Array(items)
        }
        (v @ Value::Array(_), None) | (v @ Value::Table(_), None) => v,
        _ => return Err("a variable that holds values of different kinds on different inputs".into()),
    })
}

/// A constant index of an array or a lane.
/// Whether the index `i` is `k`.
fn index_is<A: Algebra>(alg: &A, i: Int<A>, k: usize) -> Result<Truth<A>, Refusal> {
    match arith::binary(alg, BinaryOp::Eq, i, Int::constant(alg, k as i128))? {
        Err(t) => Ok(t),
        Ok(_) => unreachable!("a comparison gives a truth value"),
    }
}

/// Refuse an index whose interval is not inside an array of `len`.
fn within<A: Algebra>(i: &Int<A>, len: usize, place: &Expr) -> Run<()> {
    match i.range {
        Some((lo, hi)) if lo >= 0 && hi < len as i128 => Ok(()),
        _ => Err(at(place, format!("an element index the inputs decide, not always inside the {len} elements"))),
    }
}

fn known_index<A: Algebra>(i: &Int<A>, place: &Expr) -> Run<usize> {
    match i.known() {
        Some(k) if (0..=64).contains(&k) => Ok(k as usize),
        _ => Err(at(place, "an element index that the inputs decide")),
    }
}

/// `old` with bit `i` set to bit 0 of `v`, in a place of `width` bits; the
/// write is undefined where `i` is outside the place.
fn write_bit<A: Algebra>(alg: &A, old: Int<A>, width: u32, i: Int<A>, v: Int<A>) -> (A::Bv, A::Bool) {
    let word = old.bits_at(alg, width);
    let one = alg.constant(width, 1);
    let vbit = alg.extract(0, 0, v.bits_at(alg, 1.max(v.width(alg))));
    let set = alg.is_set(vbit);
    let (mask, inside) = match i.known() {
        Some(k) if (0..i128::from(width)).contains(&k) => (alg.constant(width, 1u128 << k), alg.bool_constant(true)),
        _ => {
            let wi = i.width(alg);
            let bits = i.bits_at(alg, wi);
            let inside = if i.signed || wi > 32 {
                let (lo, hi) = (alg.constant(wi + 1, 0), alg.constant(wi + 1, u128::from(width)));
                let x = i.bits_at(alg, wi + 1);
                alg.and(alg.bvsle(lo, x), alg.bvslt(x, hi))
            } else {
                alg.bvult(bits, alg.constant(wi, u128::from(width)))
            };
            let amount = if wi >= width { alg.extract(width - 1, 0, bits) } else { alg.zero_extend(width - wi, bits) };
            (alg.bvshl(one, amount), inside)
        }
    };
    let cleared = alg.bvand(word, alg.bvnot(mask));
    let word = alg.ite(set, alg.bvor(cleared, mask), cleared);
    (word, alg.and(alg.and(old.ok, alg.and(v.ok, i.ok)), inside))
}

/// `old` with element `k` (of `lane` bits) set to `v`.
fn write_lane<A: Algebra>(alg: &A, old: Int<A>, width: u32, lane: u32, k: usize, v: Int<A>) -> Run<(A::Bv, A::Bool)> {
    let k = k as u32;
    if (k + 1) * lane > width {
        return Err(format!("element {k} of a {width}-bit value of {lane}-bit elements"));
    }
    let word = old.bits_at(alg, width);
    let part = v.bits_at(alg, lane);
    let mut pieces = Vec::new();
    if (k + 1) * lane < width {
        pieces.push(alg.extract(width - 1, (k + 1) * lane, word));
    }
    pieces.push(part);
    if k > 0 {
        pieces.push(alg.extract(k * lane - 1, 0, word));
    }
    let word = pieces.into_iter().reduce(|hi, lo| alg.concat(hi, lo)).expect("a piece");
    Ok((word, alg.and(old.ok, v.ok)))
}

// --- Expressions ---

impl<A: Algebra> Machine<'_, A> {
    /// The value of `e` as an integer (a truth value is 1 or 0).
    pub fn int(&mut self, e: &Expr) -> Run<Int<A>> {
        let v = self.expr(e)?;
        self.int_of(v, e)
    }

    fn int_of(&self, v: Value<A>, place: &Expr) -> Run<Int<A>> {
        match v {
            Value::Int(i) => Ok(i),
            Value::Truth(t) => Ok(t.to_int(self.alg)),
            Value::Qualifier(q) => Err(at(place, format!("the qualifier `{q}` used as a number"))),
            Value::Array(_) | Value::Table(_) => Err(at(place, "an array or a function used as a number")),
        }
    }

    /// The value of `e` as a truth value (an integer is true where it is
    /// not 0; a qualifier, where the variant writes it).
    pub fn truth(&mut self, e: &Expr) -> Run<Truth<A>> {
        let alg = self.alg;
        match self.expr(e)? {
            Value::Truth(t) => Ok(t),
            Value::Int(i) => match arith::binary(alg, BinaryOp::Ne, i, Int::constant(alg, 0)).map_err(|r| at(e, r))? {
                Err(t) => Ok(t),
                Ok(_) => unreachable!("a comparison gives a truth value"),
            },
            Value::Qualifier(q) => Ok(Truth::constant(alg, self.setting.writes(&q))),
            _ => Err(at(e, "an array or a function used as a condition")),
        }
    }

    pub fn expr(&mut self, e: &Expr) -> Run<Value<A>> {
        let alg = self.alg;
        Ok(match &e.kind {
            ExprKind::Int { value, .. } => {
                let v = i128::try_from(*value).map_err(|_| at(e, "a constant wider than 127 bits"))?;
                Value::Int(Int::constant(alg, v))
            }
            ExprKind::Name(n) => self.name(n, e)?,
            ExprKind::Qualifier(q) => self.qualifier(q),
            ExprKind::Member(base, field) => match &base.kind {
                // A register named with its member, 9.7.2's `CC.CF`.
                ExprKind::Name(n) if self.vars.contains_key(&format!("{n}.{field}")) => {
                    self.name(&format!("{n}.{field}"), e)?
                }
                // `shf.dir` is the variant's `.dir`; `shf.l` the qualifier `.l`.
                ExprKind::Name(_) => self.qualifier(field),
                ExprKind::Bracketed(who) if who == "Thread" && field == "laneid" => match &self.thread {
                    Some(t) => Value::Int(t.lane),
                    None => return Err(at(e, "`[Thread]` in a block read for one thread alone")),
                },
                _ => return Err(at(e, "a member of a value")),
            },
            ExprKind::Paren(x) => self.expr(x)?,
            ExprKind::Unary(op, x) => match op {
                UnaryOp::Plus => Value::Int(self.int(x)?),
                UnaryOp::Minus => Value::Int(arith::negate(alg, self.int(x)?)),
                UnaryOp::Complement => Value::Int(arith::complement(alg, self.int(x)?)),
                UnaryOp::Not => Value::Truth(self.truth(x)?.not(alg)),
                UnaryOp::Deref | UnaryOp::AddressOf => return Err(at(e, "memory and addresses")),
            },
            ExprKind::Abs(x) => Value::Int(arith::absolute(alg, self.int(x)?).map_err(|r| at(e, r))?),
            ExprKind::Step { op, prefix, target } => {
                let old = self.int(target)?;
                let by = if *op == StepOp::Increment { BinaryOp::Add } else { BinaryOp::Sub };
                let new = self.accumulate(target, old, by, Int::constant(alg, 1), e)?;
                Value::Int(if *prefix { new } else { old })
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e)?,
            ExprKind::Placeholder { name, lhs, rhs } => self.placeholder(name, lhs, rhs, e)?,
            ExprKind::Conditional(c, t, f) => {
                let c = self.truth(c)?;
                match c.known {
                    Some(true) => self.expr(t)?,
                    Some(false) => self.expr(f)?,
                    None => {
                        let (t, f) = (self.int(t)?, self.int(f)?);
                        Value::Int(select(alg, c, t, f).map_err(|r| at(e, r))?)
                    }
                }
            }
            ExprKind::Assign(AssignOp(op), target, value) => {
                let v = self.expr(value)?;
                let v = match op {
                    None => v,
                    Some(op) => {
                        let old = self.int(target)?;
                        let v = self.int_of(v, value)?;
                        match arith::binary(alg, *op, old, v).map_err(|r| at(e, r))? {
                            Ok(i) => Value::Int(i),
                            Err(t) => Value::Truth(t),
                        }
                    }
                };
                self.assign(target, v.clone())?;
                v
            }
            ExprKind::Call(f, args) => self.call(f, args, e)?,
            ExprKind::Index(base, index) => self.index(base, index, e)?,
            ExprKind::Slice { base, first, second, .. } => {
                let x = self.int(base)?;
                let (a, b) = (self.int(first)?, self.int(second)?);
                let (Some(a), Some(b)) = (a.known(), b.known()) else {
                    return Err(at(e, "a slice whose bounds the inputs decide"));
                };
                // Either order of the bounds reads the same bits.
                let (hi, lo) = (a.max(b), a.min(b));
                if lo < 0 || hi > 127 {
                    return Err(at(e, "a slice outside bits 0..127"));
                }
                let bits = arith::slice(alg, x, hi as u32, lo as u32).map_err(|r| at(e, r))?;
                Value::Int(self.lane_sign(bits, (hi - lo + 1) as u32))
            }
            ExprKind::Comma(l, r) => {
                self.expr(l)?;
                self.expr(r)?
            }
            ExprKind::Prose(words) => readings::prose(self.alg, self.setting, words)
                .ok_or_else(|| at(e, format!("the prose `{}`", words.join(" "))))?,
            ExprKind::Float(text) if self.setting.single_literals_as_bits => {
                let digits = text.strip_suffix(['f', 'F']).ok_or_else(|| at(e, "a double-precision constant"))?;
                let value: f32 = digits.parse().map_err(|_| at(e, "a constant that is no number"))?;
                Value::Int(Int::constant(alg, i128::from(value.to_bits())))
            }
            // `(unsigned __int128)a`: C's conversion, the value modulo
            // 2^width read with the type's signedness.
            ExprKind::Cast(to, x) => {
                let Some((signed, width)) = to.c_integer() else {
                    return Err(at(e, format!("a conversion to `{}`", to.spelled)));
                };
                Value::Int(self.int(x)?.stored(alg, signed, width))
            }
            ExprKind::Float(_) | ExprKind::Bracketed(_) | ExprKind::Malformed => {
                return Err(at(e, "what the evaluator does not read"))
            }
        })
    }

    /// `target = old by amount` on the live inputs: `amount` where the
    /// statement runs and 0 elsewhere is added (or taken away) on every
    /// input, rather than a choice made between two sums, so that a count
    /// stays a sum of bits, as the solver likes it.
    fn accumulate(&mut self, target: &Expr, old: Int<A>, by: BinaryOp, amount: Int<A>, e: &Expr) -> Run<Int<A>> {
        let alg = self.alg;
        let live = self.live;
        let amount = match live.known {
            Some(_) => amount,
            None => select(alg, live, amount, Int::constant(alg, 0)).map_err(|r| at(e, r))?,
        };
        let new = match arith::binary(alg, by, old, amount).map_err(|r| at(e, r))? {
            Ok(i) => i,
            Err(_) => unreachable!("a sum is a number"),
        };
        self.live = Truth::constant(alg, true);
        let stored = self.assign(target, Value::Int(new));
        self.live = live;
        stored?;
        Ok(new)
    }

    /// A slice as wide as an element of a signed packed type is that
    /// element, signed (`iA[0] = a[0:15]` of an `.s16x2`).
    fn lane_sign(&self, bits: Int<A>, width: u32) -> Int<A> {
        match self.setting.lane {
            Some((lane, true)) if lane == width => {
                let mut out = Int::of_bits(self.alg, bits.bits_at(self.alg, width), true);
                out.ok = bits.ok;
                out
            }
            _ => bits,
        }
    }

    fn name(&self, n: &str, e: &Expr) -> Run<Value<A>> {
        if let Some(slot) = self.vars.get(n) {
            return slot.value.clone().ok_or_else(|| at(e, format!("`{n}` is read before it is set")));
        }
        match n {
            "true" => Ok(Value::Truth(Truth::constant(self.alg, true))),
            "false" => Ok(Value::Truth(Truth::constant(self.alg, false))),
            // The placeholder written without its dot (`type == u16x2`).
            _ if self.setting.bound(&format!(".{n}")).is_some() => Ok(self.qualifier(n)),
            _ if readings::is_qualifier_word(self.setting, n) => Ok(Value::Qualifier(format!(".{n}"))),
            _ => Err(at(e, format!("`{n}` is read but never set"))),
        }
    }

    /// `.name`: the qualifier the variant gives a placeholder, or the
    /// qualifier itself.
    fn qualifier(&self, name: &str) -> Value<A> {
        let dotted = format!(".{name}");
        Value::Qualifier(self.setting.bound(&dotted).map_or(dotted, str::to_string))
    }

    /// `l name r`, where `name` is a placeholder of the Syntax used as an
    /// operator (`a CmpOp b`): the operator the variant writes for it. A
    /// comparison orders its operands as their types say; `.lo`, `.ls`,
    /// `.hi` and `.hs` are the unsigned orders, and refuse a signed operand.
    fn placeholder(&mut self, name: &str, l: &Expr, r: &Expr, e: &Expr) -> Run<Value<A>> {
        let alg = self.alg;
        let op = self.setting.bound(&format!(".{name}")).ok_or_else(|| at(e, format!("`{name}` is not given")))?;
        let compare = match op {
            ".and" | ".or" | ".xor" => {
                let (a, b) = (self.truth(l)?, self.truth(r)?);
                return Ok(Value::Truth(match op {
                    ".and" => a.and(alg, b),
                    ".or" => a.or(alg, b),
                    _ => Truth::of(alg.bool_xor(a.b, b.b), alg.and(a.ok, b.ok)),
                }));
            }
            ".eq" | ".ne" => return self.binary(if op == ".eq" { BinaryOp::Eq } else { BinaryOp::Ne }, l, r, e),
            ".lt" | ".lo" => BinaryOp::Lt,
            ".le" | ".ls" => BinaryOp::Le,
            ".gt" | ".hi" => BinaryOp::Gt,
            ".ge" | ".hs" => BinaryOp::Ge,
            other => return Err(at(e, format!("the operator `{other}`"))),
        };
        let (a, b) = (self.int(l)?, self.int(r)?);
        if matches!(op, ".lo" | ".ls" | ".hi" | ".hs") && (a.signed || b.signed) {
            return Err(at(e, format!("`{op}` orders unsigned values, and an operand is signed")));
        }
        match arith::binary(alg, compare, a, b).map_err(|r| at(e, r))? {
            Err(t) => Ok(Value::Truth(t)),
            Ok(_) => unreachable!("a comparison gives a truth value"),
        }
    }

    fn binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr, e: &Expr) -> Run<Value<A>> {
        let alg = self.alg;
        match op {
            BinaryOp::And | BinaryOp::Or => {
                let a = self.truth(l)?;
                // C evaluates the right side only where the left does not decide.
                if a.known == Some(op == BinaryOp::Or) {
                    return Ok(Value::Truth(a));
                }
                let b = self.truth(r)?;
                Ok(Value::Truth(if op == BinaryOp::And { a.and(alg, b) } else { a.or(alg, b) }))
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                let (a, b) = (self.expr(l)?, self.expr(r)?);
                let t = self.equal(&a, &b, e)?;
                Ok(Value::Truth(if op == BinaryOp::Eq { t } else { t.not(alg) }))
            }
            _ => {
                let (a, b) = (self.int(l)?, self.int(r)?);
                Ok(match arith::binary(alg, op, a, b).map_err(|r| at(e, r))? {
                    Ok(i) => Value::Int(i),
                    Err(t) => Value::Truth(t),
                })
            }
        }
    }

    fn index(&mut self, base: &Expr, index: &Expr, e: &Expr) -> Run<Value<A>> {
        let alg = self.alg;
        let b = self.expr(base)?;
        let i = self.int(index)?;
        match b {
            Value::Array(items) if i.known().is_none() => {
                // An element the inputs pick: undefined where the index
                // is outside the array.
                let inside = match within(&i, items.len(), index) {
                    Ok(()) => Truth::constant(alg, true),
                    Err(_) => {
                        let ge = arith::binary(alg, BinaryOp::Ge, i, Int::constant(alg, 0)).map_err(|r| at(e, r))?;
                        let len = Int::constant(alg, items.len() as i128);
                        let lt = arith::binary(alg, BinaryOp::Lt, i, len).map_err(|r| at(e, r))?;
                        match (ge, lt) {
                            (Err(ge), Err(lt)) => ge.and(alg, lt),
                            _ => unreachable!("a comparison gives a truth value"),
                        }
                    }
                };
                let mut chosen: Option<Int<A>> = None;
                for (k, item) in items.iter().enumerate().rev() {
                    let Some(Value::Int(x)) = item else {
                        return Err(at(e, format!("element {k} is read before it is set, or is not a number")));
                    };
                    chosen = Some(match chosen {
                        None => *x,
                        Some(rest) => {
                            select(alg, index_is(alg, i, k).map_err(|r| at(e, r))?, *x, rest).map_err(|r| at(e, r))?
                        }
                    });
                }
                let chosen = chosen.ok_or_else(|| at(e, "an element of an empty array"))?;
                Ok(Value::Int(chosen.and_ok(alg, alg.and(inside.b, inside.ok))))
            }
            Value::Array(items) => {
                let k = known_index(&i, index)?;
                items.get(k).cloned().flatten().ok_or_else(|| at(e, format!("element {k} is read before it is set")))
            }
            Value::Int(x) => Ok(Value::Int(arith::bit(alg, x, i).map_err(|r| at(e, r))?)),
            _ => Err(at(e, "an index of what is neither an array nor an integer")),
        }
    }

    fn call(&mut self, f: &Expr, args: &[Expr], e: &Expr) -> Run<Value<A>> {
        let ExprKind::Name(name) = &f.kind else { return Err(at(e, "a call of what is not a name")) };
        // A placeholder of the Syntax called as a function (9.7.6.1-2's
        // `BoolOp(t, c)`): the operator the variant writes for it.
        if let [l, r] = args {
            if self.setting.bound(&format!(".{name}")).is_some() {
                return self.placeholder(name, l, r, e);
            }
            if self.setting.identity_operators.iter().any(|o| o == name) {
                return self.expr(l);
            }
        }
        let of_thread = matches!(args, [a] if matches!(&a.kind, ExprKind::Name(t) if t == "Thread"));
        if let (true, Some(t)) = (of_thread && THREAD_STATE.contains(&name.as_str()), &self.thread) {
            return Ok(Value::Truth(t.executes));
        }
        if let Some(Slot { value: Some(Value::Table(lut)), .. }) = self.vars.get(name).cloned() {
            let xs = args.iter().map(|a| self.int(a)).collect::<Run<Vec<_>>>()?;
            return readings::table(self.alg, lut, &xs).map_err(|r| at(e, r));
        }
        let mut values = Vec::new();
        for a in args {
            values.push(self.expr(a)?);
        }
        readings::call(self.alg, name, &values)
            .unwrap_or_else(|| Err(format!("`{name}` is not defined")))
            .map_err(|r| at(e, r))
    }
}
