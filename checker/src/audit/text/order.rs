//! The order of a Semantics block's writes and reads, as a program runs it.
//!
//! - **Overwritten assignments.** Two plain assignments to one variable on
//!   unconditional lines of one statement list, with no read of it between
//!   them: read as code, the first never counts. mul's block assigns `d`
//!   on three such lines, the variant each is for named only in its
//!   comment (`// for .hi variant`); the model reads the comments as
//!   guards, a program does not.
//! - **A destination written before a source is read.** The block writes a
//!   destination operand and then reads a source operand of the same
//!   width. PTX lets the two be one register (`bfe.u32 r1, r1, 8, 8`);
//!   read as a program over registers, the write then changes what the
//!   later read sees, unless the text says that every source is read
//!   before any destination is written.
//!
//! The first is found in the parsed block alone, on any section; the
//! second where the section is modelled, whose variants say which operands
//! are registers of one width. Where the section is modelled, each comes
//! with a witness: the block evaluated as the third proof evaluates it,
//! once as the model reads it and once as a program does (the comments not
//! read as guards; the destination and the source one variable), on the
//! first of a fixed list of inputs where the two differ. A write before a
//! read that no listed input shows to matter is not reported; one whose
//! block cannot be evaluated is, without a witness.

use std::collections::BTreeSet;

use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::{OperandType, Role};
use ptx_spec::hardware::Model;
use ptx_spec::Variant;

use super::document::{BlockKind, Document, Section};
use super::semantics;
use crate::audit::finding::{Finding, FindingKind, Repair, WitnessTable};
use crate::pseudocode::ast::{AssignOp, Expr, ExprKind, Stmt, StmtKind};
use crate::text_proof::{read_block, setting, text_semantics, ReadBlock};

/// How many variants of a section are tried for a witness.
const VARIANTS_TRIED: usize = 8;

/// A plain assignment whose value no statement reads before the next one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overwritten {
    pub name: String,
    /// The lines of the assignments, in order: every one but the last is
    /// overwritten.
    pub lines: Vec<usize>,
    /// Whether the first is made under a condition (the arm of an `if`),
    /// and the statement after that `if` assigns the name on every path.
    pub conditional: bool,
    /// Where the first is the arm of an `if` with no `else`, and the
    /// statement that overwrites it is an `if` too: the line of that
    /// second `if`, which `else` would join to the first.
    pub join_at: Option<usize>,
}

/// The names an expression reads: every name it holds, but the target of
/// a plain assignment (`d` of `d = e`; `d[i] = e` reads `d`'s other bits).
fn reads(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Assign(AssignOp(None), target, value) => {
            if !matches!(target.kind, ExprKind::Name(_)) {
                reads(target, out);
            }
            reads(value, out);
        }
        _ => e.walk(&mut |x| {
            if let ExprKind::Name(n) = &x.kind {
                out.push(n.clone());
            }
        }),
    }
}

/// Every name a statement reads but the array of an element it stores
/// whole (`d` of `d[i] = e`), the statements inside it included: what an
/// assignment to one element leaves of the others is not a read of them.
fn reads_of_values(s: &Stmt) -> Vec<String> {
    let mut out = Vec::new();
    s.walk(&mut |x| {
        for e in x.expressions() {
            match &e.kind {
                ExprKind::Assign(AssignOp(None), target, value) if matches!(target.kind, ExprKind::Index(..)) => {
                    if let ExprKind::Index(_, index) = &target.kind {
                        reads(index, &mut out);
                    }
                    reads(value, &mut out);
                }
                _ => reads(e, &mut out),
            }
        }
    });
    out
}

/// Every name a statement reads, the statements inside it included.
fn reads_of(s: &Stmt) -> Vec<String> {
    let mut out = Vec::new();
    s.walk(&mut |x| x.expressions().into_iter().for_each(|e| reads(e, &mut out)));
    out
}

/// Every name a statement writes, the statements inside it included: the
/// base of every assignment's target and of every `++`/`--`, and every
/// declared name with an initialiser.
fn writes_of(s: &Stmt) -> Vec<String> {
    let mut out = Vec::new();
    let base = |mut e: &Expr| loop {
        match &e.kind {
            ExprKind::Name(n) => return Some(n.clone()),
            ExprKind::Index(x, _) | ExprKind::Paren(x) => e = x,
            ExprKind::Slice { base, .. } => e = base,
            _ => return None,
        }
    };
    s.walk(&mut |x| {
        if let StmtKind::Declare { declarators, .. } = &x.kind {
            out.extend(declarators.iter().filter(|d| d.init.is_some()).map(|d| d.name.clone()));
        }
        for e in x.expressions() {
            e.walk(&mut |y| match &y.kind {
                ExprKind::Assign(_, target, _) | ExprKind::Step { target, .. } => out.extend(base(target)),
                _ => {}
            });
        }
    });
    out
}

/// What a plain assignment stores into: a whole variable (`d` of
/// `d = t<n-1..0>;`), or one element whose index is a name or a number
/// (`d[i]` of `d[i] = NaN;`), written as the block writes it.
fn plain_assignment(s: &Stmt) -> Option<String> {
    let StmtKind::Expr(Expr { kind: ExprKind::Assign(AssignOp(None), target, _), .. }) = &s.kind else { return None };
    match &target.kind {
        ExprKind::Name(n) => Some(n.clone()),
        ExprKind::Index(base, index) => match (&base.kind, &index.kind) {
            (ExprKind::Name(b), ExprKind::Name(i)) => Some(format!("{b}[{i}]")),
            (ExprKind::Name(b), ExprKind::Int { text, .. }) => Some(format!("{b}[{text}]")),
            _ => None,
        },
        _ => None,
    }
}

/// The variable an assignment's target (`d[i]`) belongs to (`d`): what
/// a read or another write of it touches.
fn variable(target: &str) -> &str {
    target.split('[').next().unwrap_or(target)
}

/// Where a statement assigns `name` on every path through it, and reads
/// it nowhere: a plain assignment, or an `if` with an `else` each of whose
/// arms does. Its line.
fn assigns_on_every_path(s: &Stmt, name: &str) -> Option<usize> {
    if reads_of_values(s).iter().any(|n| n == variable(name)) {
        return None;
    }
    let arm = |b: &Stmt| match &b.kind {
        StmtKind::Block(body) => body.iter().any(|x| assigns_on_every_path(x, name).is_some()),
        _ => assigns_on_every_path(b, name).is_some(),
    };
    match &s.kind {
        _ if plain_assignment(s).is_some_and(|n| n == name) => Some(s.span.start.line),
        StmtKind::If { then, otherwise: Some(o), .. } if arm(then) && arm(o) => Some(s.span.start.line),
        _ => None,
    }
}

/// The plain assignments in an `if`'s arms that nothing after them in
/// their arm reads or writes: what the statement after the `if` sees,
/// where the arm ran. Each name with its line, and whether the `if` has
/// no `else` (its assignment is the arm's alone).
fn left_by_arms(s: &Stmt) -> Vec<(String, usize, bool)> {
    let StmtKind::If { then, otherwise, .. } = &s.kind else { return Vec::new() };
    let mut out = Vec::new();
    let mut arms = vec![then.as_ref()];
    arms.extend(otherwise.as_deref());
    for arm in arms {
        let body = match &arm.kind {
            StmtKind::Block(body) => body.as_slice(),
            _ => std::slice::from_ref(arm),
        };
        // An arm that may jump (`{ d = undefined; return; }`) need not run
        // on into the statement after the `if`.
        let mut jumps = false;
        arm.walk(&mut |x| {
            jumps |= matches!(x.kind, StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue);
        });
        if jumps {
            continue;
        }
        for (k, x) in body.iter().enumerate() {
            let Some(name) = plain_assignment(x) else { continue };
            let var = variable(&name);
            let later = &body[k + 1..];
            if later
                .iter()
                .all(|y| !reads_of_values(y).iter().any(|n| n == var) && !writes_of(y).iter().any(|n| n == var))
            {
                out.push((name.clone(), x.span.start.line, otherwise.is_none()));
            }
        }
    }
    out
}

/// The overwritten assignments of one statement list and of every list
/// inside it. A `case` label, a `default` or a jump ends what the list
/// runs in a row. A plain assignment in an arm of an `if` is overwritten
/// too where the statement after the `if` assigns the name on every path
/// before any read (half-precision min's `if (isNaN(a) && isNaN(b)) d =
/// NaN;`, followed by an `if`-`else` chain that sets `d` in each arm).
pub fn overwritten(stmts: &[Stmt]) -> Vec<Overwritten> {
    /// Assignments to one name in a row, none read yet.
    struct Row {
        name: String,
        lines: Vec<usize>,
        /// The first made in an arm of an `if`: whether that `if` has no
        /// `else`.
        arm: Option<bool>,
        join_at: Option<usize>,
    }
    fn flush(rows: Vec<Row>, out: &mut Vec<Overwritten>) {
        for r in rows.into_iter().filter(|r| r.lines.len() > 1) {
            out.push(Overwritten { name: r.name, lines: r.lines, conditional: r.arm.is_some(), join_at: r.join_at });
        }
    }
    let mut out: Vec<Overwritten> = Vec::new();
    let mut pending: Vec<Row> = Vec::new();
    for s in stmts {
        match &s.kind {
            StmtKind::Case(_) | StmtKind::Default | StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) => {
                flush(std::mem::take(&mut pending), &mut out);
                continue;
            }
            _ => {}
        }
        let read = reads_of_values(s);
        // A name this statement reads was not overwritten.
        let (kept, done): (Vec<_>, Vec<_>) =
            pending.drain(..).partition(|r| !read.iter().any(|n| n == variable(&r.name)));
        pending = kept;
        flush(done, &mut out);
        if let Some(name) = plain_assignment(s) {
            // Another element of the same array ends its rows.
            let var = variable(&name).to_string();
            let (kept, done): (Vec<_>, Vec<_>) =
                pending.drain(..).partition(|r| r.name == name || variable(&r.name) != var);
            pending = kept;
            flush(done, &mut out);
            match pending.iter_mut().find(|r| r.name == name) {
                Some(r) => r.lines.push(s.span.start.line),
                None => pending.push(Row { name, lines: vec![s.span.start.line], arm: None, join_at: None }),
            }
        } else {
            // A statement that sets a name on every path ends the row of an
            // arm's assignment before it, which never counts. A name written
            // some other way (in one branch, a slice) ends any row: what is
            // read after may be either write.
            let written = writes_of(s);
            let mut done = Vec::new();
            for mut r in std::mem::take(&mut pending) {
                match assigns_on_every_path(s, &r.name) {
                    Some(line) if r.arm.is_some() => {
                        r.lines.push(line);
                        let is_if = matches!(s.kind, StmtKind::If { .. });
                        r.join_at = (r.arm == Some(true) && is_if).then_some(line);
                        done.push(r);
                    }
                    _ if written.iter().any(|n| n == variable(&r.name)) => done.push(r),
                    _ => pending.push(r),
                }
            }
            flush(done, &mut out);
            // What the arms of an `if` that does not set a name on every
            // path leave of it for the statements after.
            for (name, line, no_else) in left_by_arms(s) {
                if assigns_on_every_path(s, &name).is_none() && !pending.iter().any(|r| r.name == name) {
                    pending.push(Row { name, lines: vec![line], arm: Some(no_else), join_at: None });
                }
            }
        }
        for inner in nested_lists(s) {
            out.extend(overwritten(inner));
        }
    }
    flush(pending, &mut out);
    out
}

/// The statement lists directly inside a statement.
fn nested_lists(s: &Stmt) -> Vec<&[Stmt]> {
    fn one(b: &Stmt) -> Vec<&[Stmt]> {
        match &b.kind {
            StmtKind::Block(body) => vec![body.as_slice()],
            _ => nested_lists(b),
        }
    }
    match &s.kind {
        StmtKind::Block(body) | StmtKind::Switch { body, .. } | StmtKind::Function { body, .. } => vec![body],
        StmtKind::If { then, otherwise, .. } => {
            let mut v = one(then);
            if let Some(o) = otherwise {
                v.extend(one(o));
            }
            v
        }
        StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => one(body),
        _ => Vec::new(),
    }
}

/// A statement with the arms it lies in: per `if` and `switch` around it,
/// the statement's number in walk order and the arm (for an `if`, 0 then
/// and 1 else; for a `switch`, the case).
type Placed<'a> = (&'a Stmt, Vec<(usize, usize)>);

/// Every statement of `stmts` in walk order (a compound statement before
/// the ones inside it), each with its arms.
fn placed<'a>(stmts: &'a [Stmt], arms: &[(usize, usize)], out: &mut Vec<Placed<'a>>) {
    for s in stmts {
        let me = out.len();
        out.push((s, arms.to_vec()));
        let within = |arm: usize| {
            let mut a = arms.to_vec();
            a.push((me, arm));
            a
        };
        match &s.kind {
            StmtKind::If { then, otherwise, .. } => {
                placed(std::slice::from_ref(then), &within(0), out);
                if let Some(o) = otherwise {
                    placed(std::slice::from_ref(o), &within(1), out);
                }
            }
            StmtKind::Switch { body, .. } => {
                let mut case = 0;
                for b in body {
                    if matches!(b.kind, StmtKind::Case(_) | StmtKind::Default) {
                        case += 1;
                    }
                    placed(std::slice::from_ref(b), &within(case), out);
                }
            }
            StmtKind::Block(body) | StmtKind::Function { body, .. } => placed(body, arms, out),
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    placed(std::slice::from_ref(i), arms, out);
                }
                placed(std::slice::from_ref(body), arms, out);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                placed(std::slice::from_ref(body), arms, out)
            }
            _ => {}
        }
    }
}

/// Whether two statements lie in different arms of one `if` or `switch`:
/// no run reaches both.
fn exclusive(a: &[(usize, usize)], b: &[(usize, usize)]) -> bool {
    a.iter().any(|(k, x)| b.iter().any(|(l, y)| k == l && x != y))
}

/// The names a statement's own expressions (not those of the statements
/// inside it) read or write.
fn own(s: &Stmt, f: fn(&Stmt) -> Vec<String>) -> Vec<String> {
    let shallow = match &s.kind {
        StmtKind::Expr(_) | StmtKind::Declare { .. } | StmtKind::Return(_) => s.clone(),
        _ => match s.expressions().first() {
            Some(e) => Stmt { kind: StmtKind::Expr((*e).clone()), span: s.span, comment: None },
            None => return Vec::new(),
        },
    };
    f(&shallow)
}

/// Where the block may write `dest` before it reads `source` on one run:
/// a write followed in written order by a read that no `if` or `switch`
/// keeps apart from it, or a write and a read in one loop, whose next pass
/// reads what this one wrote. The line of the first such write.
pub fn writes_before_reading(stmts: &[Stmt], dest: &str, source: &str) -> Option<usize> {
    let mut all: Vec<Placed> = Vec::new();
    placed(stmts, &[], &mut all);
    let writes: Vec<usize> = (0..all.len()).filter(|&k| own(all[k].0, writes_of).iter().any(|n| n == dest)).collect();
    let reads: Vec<usize> = (0..all.len()).filter(|&k| own(all[k].0, reads_of).iter().any(|n| n == source)).collect();
    let together = |w: usize, r: usize| !exclusive(&all[w].1, &all[r].1);
    let in_loop = |w: usize, r: usize| {
        (0..all.len()).any(|l| {
            let looped =
                matches!(all[l].0.kind, StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. });
            let mut inner: Vec<*const Stmt> = Vec::new();
            all[l].0.walk(&mut |x| inner.push(x));
            looped && inner.contains(&(all[w].0 as *const Stmt)) && inner.contains(&(all[r].0 as *const Stmt))
        })
    };
    writes
        .iter()
        .find(|&&w| reads.iter().any(|&r| together(w, r) && (r > w || in_loop(w, r))))
        .map(|&w| all[w].0.span.start.line)
}

/// Whether the text says, in the section or its chapter's introduction,
/// that every source operand is read before any destination is written.
fn states_sources_read_first(doc: &Document, section: &Section) -> bool {
    let chapter = section.number.rsplit_once('.').map(|(c, _)| c.to_string());
    doc.sections.iter().filter(|s| s.number == section.number || Some(&s.number) == chapter.as_ref()).any(|s| {
        s.all_lines().any(|l| {
            let t = l.text.to_ascii_lowercase();
            t.contains("source operands are read before")
        })
    })
}

/// The values each input is tried at, for an operand `width` bits wide.
fn values(width: u32) -> Vec<u128> {
    let mask = ptx_spec::bv::mask(width);
    let top = 1u128 << (width - 1);
    let mut v = vec![1, 2, 0, 8, 0xff00, top, mask, 0x1234_5678_9abc_def0, top - 1, 3];
    for x in &mut v {
        *x &= mask;
    }
    v
}

/// The inputs tried, in order: the listed values in pairs over the first
/// two operands, the others a mix of the two indices, so that the
/// operands differ.
fn trials(variant: &Variant) -> Vec<Vec<BitVec>> {
    let ops = variant.inputs();
    let n = values(8).len();
    (0..n * n)
        .map(|k| {
            ops.iter()
                .enumerate()
                .map(|(i, o)| {
                    let w = o.ty.width();
                    let index = match i {
                        0 => k % n,
                        1 => k / n,
                        _ => (k * (i + 1) + k / n) % n,
                    };
                    BitVec::new(w, values(w)[index])
                })
                .collect()
        })
        .collect()
}

/// A variant's block, read as the third proof reads it, and what the
/// evaluator is told; `as_code`: the comments not read as guards.
struct Prepared<'d> {
    variant: Variant,
    block: ReadBlock<'d>,
    setting: crate::pseudocode::setting::Setting,
}

impl<'d> Prepared<'d> {
    fn new(doc: &'d Document, variant: Variant, as_code: bool) -> Option<Prepared<'d>> {
        let block = read_block(doc, &variant).ok()?;
        let mut setting = setting(&variant, &block.readings).ok()?;
        setting.comments_not_guards = as_code;
        Some(Prepared { variant, block, setting })
    }

    /// The block's destination outputs over concrete values.
    fn run(&self, inputs: &[BitVec], befores: &[BitVec]) -> Option<Vec<Option<BitVec>>> {
        let outs = text_semantics(&Concrete, &self.variant, &self.block, &self.setting, inputs, befores).ok()?;
        Some(outs.iter().map(|o| o.defined.then_some(o.value)).collect())
    }
}

/// The variants of a section the witness search tries, and the names of
/// their destination outputs.
fn tried(section: &str) -> Vec<Variant> {
    let mut out: Vec<Variant> =
        Variant::sampled().into_iter().filter(|v| v.section() == section && !v.is_warp_wide()).collect();
    out.truncate(VARIANTS_TRIED);
    out
}

/// The destination outputs' names (the block's outputs, the carry flag
/// aside).
fn destinations(variant: &Variant) -> Vec<String> {
    variant.outputs().iter().filter(|o| o.role == Role::Dest).map(|o| o.name.to_string()).collect()
}

/// A witness table of the block's destinations under two readings.
fn table(variant: &Variant, inputs: &[BitVec], columns: [&str; 2], sides: [Vec<Option<BitVec>>; 2]) -> WitnessTable {
    let names = destinations(variant);
    WitnessTable {
        variant: variant.to_string(),
        inputs: variant.inputs().iter().map(|o| o.name.to_string()).zip(inputs.iter().copied()).collect(),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows: names.into_iter().enumerate().map(|(k, n)| (n, vec![sides[0][k], sides[1][k]])).collect(),
    }
}

/// Two sides that both define some destination and differ there.
fn differ(a: &[Option<BitVec>], b: &[Option<BitVec>]) -> bool {
    a.iter().zip(b).any(|(x, y)| matches!((x, y), (Some(x), Some(y)) if x != y))
}

/// Where the block read as code gives a destination another value than the
/// model: the first variant and input of the lists.
fn overwritten_witness(doc: &Document, section: &str) -> Option<WitnessTable> {
    for v in tried(section) {
        let Some(code) = Prepared::new(doc, v, true) else { continue };
        let befores: Vec<BitVec> = v.outputs().iter().map(|o| BitVec::new(o.ty.width(), 0)).collect();
        for inputs in trials(&v) {
            let Some(as_code) = code.run(&inputs, &befores) else { break };
            let model: Vec<Option<BitVec>> = v
                .semantics_in(Model::Spec, &Concrete, &inputs)
                .iter()
                .zip(v.outputs())
                .filter(|(_, o)| o.role == Role::Dest)
                .map(|(out, _)| out.defined.then_some(out.value))
                .collect();
            if differ(&model, &as_code) {
                return Some(table(&v, &inputs, ["model", "read as code"], [model, as_code]));
            }
        }
    }
    None
}

/// What evaluating a block with a destination and a source as one
/// register showed.
enum Aliasing {
    /// The first variant and input of the lists where a destination changes.
    Differs(WitnessTable),
    /// Every tried variant was evaluated on every listed input, and none
    /// changes.
    Same,
    /// No variant of the section could be evaluated.
    NotEvaluated,
}

/// Whether `dest` and `source` as one register change a destination.
fn alias_witness(doc: &Document, section: &Section, dest: &str, source: &str) -> Aliasing {
    let mut evaluated = false;
    for v in tried(&section.number) {
        let ins = v.inputs();
        let outs = v.outputs();
        let (Some(s), Some(d)) = (ins.iter().position(|o| o.name == source), outs.iter().position(|o| o.name == dest))
        else {
            continue;
        };
        if ins[s].ty != outs[d].ty || ins[s].role != Role::Src {
            continue;
        }
        let (Some(apart), Some(mut one)) = (Prepared::new(doc, v, false), Prepared::new(doc, v, false)) else {
            continue;
        };
        // The source is the destination's register: one variable, renamed
        // after the section's readings are applied.
        one.block.parsed.statements.iter_mut().for_each(|s| s.rename(source, dest));
        for inputs in trials(&v) {
            let mut befores: Vec<BitVec> = outs.iter().map(|o| BitVec::new(o.ty.width(), 0)).collect();
            befores[d] = inputs[s];
            let (Some(x), Some(y)) = (apart.run(&inputs, &befores), one.run(&inputs, &befores)) else { break };
            evaluated = true;
            if differ(&x, &y) {
                let shared = format!("`{dest}` the same register as `{source}`");
                return Aliasing::Differs(table(&v, &inputs, ["model", &shared], [x, y]));
            }
        }
    }
    if evaluated {
        Aliasing::Same
    } else {
        Aliasing::NotEvaluated
    }
}

/// The destination and source operands a block may write and read as one
/// register: those of one width, from the section's modelled variants.
/// A section with no model has none: without evaluating the block, a write
/// and a read in exclusive branches, or in disjoint elements of a packed
/// value, cannot be told from one that changes the result.
fn register_pairs(section: &Section) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for v in tried(&section.number) {
        let ops = v.operands();
        for d in ops.iter().filter(|o| o.role == Role::Dest && o.ty != OperandType::Pred) {
            for s in ops.iter().filter(|o| o.role == Role::Src && o.ty == d.ty) {
                let pair = (d.name.to_string(), s.name.to_string());
                if !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
    }
    out
}

/// The finding of assignments that overwrite one another, where its lines
/// are code to be read so.
fn overwritten_finding(
    doc: &Document,
    s: &Section,
    o: &Overwritten,
    code: &dyn Fn(usize) -> String,
) -> Option<Finding> {
    // Lines whose comments name operand forms (`// register`,
    // `// named variable a`) list a load's addressing modes, the
    // document's way of giving one line per form; lines for the
    // variants a qualifier picks (`// for .hi variant`) are read as
    // code, as the Syntax makes the variant a qualifier.
    // Lines with no comments at all are plain code: the first
    // assignment is lost (cvt.pack's two clamps of `ta`).
    let bare = !has_comments(s, &o.lines);
    if !o.conditional && !comments_name_variants(s, &o.lines) && !bare {
        return None;
    }
    let lines: Vec<String> = o.lines.iter().map(usize::to_string).collect();
    let last = *o.lines.last().expect("two lines or more");
    let slug: String =
        o.name.to_ascii_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let (summary, why) = if o.conditional {
        (
            format!(
                "read as code, `{}` assigned under a condition on line {} is assigned again on every path by \
                     the statement on line {} before any read: the first assignment never counts",
                o.name, o.lines[0], last
            ),
            format!(
                "{}:{}: where the condition holds, `{}` is assigned and then assigned again on every path \
                     of the statement after, which reads it nowhere; the `else` that would keep the two apart \
                     is not written.",
                s.file, o.lines[0], o.name
            ),
        )
    } else {
        (
            format!(
                "read as code, `{}` is assigned on {} unconditional lines in a row ({}) and only the last, \
                     `{}`, counts",
                o.name,
                o.lines.len(),
                lines.join(", "),
                code(last)
            ),
            format!(
                "{}:{}: no statement reads `{}` between these assignments, so each overwrites the one \
                     before; where a comment names the variant a line is for, only the comment says so, and the \
                     model reads it as a guard.",
                s.file, o.lines[0], o.name
            ),
        )
    };
    let mut f = Finding::of_text(
        format!("text-order-{}-overwritten-{}", s.number, slug.trim_matches('-')),
        s.number.clone(),
        FindingKind::LiteralReading,
        code(o.lines[0]),
        summary,
        vec![why],
    );
    if o.conditional {
        // `else` joins the second `if` to the first: the arms then
        // exclude each other, as the chain means.
        f.repairs =
            o.join_at.map(|line| Repair { line, old: "if (".into(), new: "else if (".into() }).into_iter().collect();
    } else if bare {
        f.repairs = refined(s, o);
    } else {
        f.model_choice = Some("each line for the variant its comment names".into());
        f.witness = overwritten_witness(doc, &s.number);
        f.repairs = chained(s, &o.lines);
    }
    Some(f)
}

/// The order findings of every Semantics block.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in semantics::read_once(doc) {
        let s = r.section;
        let code = |line: usize| {
            s.block(BlockKind::Semantics)
                .and_then(|b| b.lines.iter().find(|l| l.number == line))
                .map(|l| super::helpers::code_of(&l.text).split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_default()
        };
        for o in overwritten(&r.parsed.statements) {
            out.extend(overwritten_finding(doc, s, &o, &code));
        }
        if states_sources_read_first(doc, s) {
            continue;
        }
        for (dest, source) in register_pairs(s) {
            let Some(line) = writes_before_reading(&r.parsed.statements, &dest, &source) else { continue };
            let (witness, shown) = match alias_witness(doc, s, &dest, &source) {
                Aliasing::Same => continue,
                Aliasing::Differs(w) => {
                    let shown = format!(
                        "an emulator that runs the block on its registers gives `{} {dest}` the value of `{source}` \
                         it has already overwritten",
                        w.variant
                    );
                    (Some(w), shown)
                }
                Aliasing::NotEvaluated => {
                    (None, "no form of the section could be evaluated to show what the write changes".to_string())
                }
            };
            let mut f = Finding::of_text(
                format!("text-order-{}-{dest}-before-{source}", s.number),
                s.number.clone(),
                FindingKind::LiteralReading,
                code(line),
                format!(
                    "the block writes `{dest}` before it last reads `{source}`: where the two are one register, as \
                     PTX allows, the block read as a program gives another result"
                ),
                vec![format!(
                    "{}:{line}: the text never says that the sources are read before the destination is written; \
                     {shown}.",
                    s.file
                )],
            );
            f.model_choice = Some("every source read before any destination is written".into());
            f.witness = witness;
            out.push(f);
        }
    }
    out
}

/// Whether any of the lines has a comment.
fn has_comments(s: &Section, lines: &[usize]) -> bool {
    s.block(BlockKind::Semantics)
        .is_some_and(|b| b.lines.iter().any(|l| lines.contains(&l.number) && l.text.contains("//")))
}

/// The words of a line of code that name variables: not a call's name,
/// nor a qualifier the Syntax writes (`convertType` of `.convertType`).
fn variables(code: &str, syntax: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        let len = rest[at..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len() - at);
        let word = &rest[at..at + len];
        let called = rest[at + len..].trim_start().starts_with('(');
        let dotted = format!(".{word}");
        let qualifier = syntax
            .match_indices(&dotted)
            .any(|(i, _)| !syntax[i + dotted.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'));
        if !called && !qualifier {
            out.insert(word.to_string());
        }
        rest = &rest[at + len..];
    }
    out
}

/// The fix of two plain lines in a row that assign one name from the same
/// variable (`ta = a < MIN ? MIN : a;` then `ta = a > MAX ? MAX : a;`): the
/// second reads the name in place of that variable, so that it refines
/// the first as a chain of steps does. None where the lines share no
/// variable, or more than one.
fn refined(s: &Section, o: &Overwritten) -> Vec<Repair> {
    let (Some(b), [first, second]) = (s.block(BlockKind::Semantics), o.lines.as_slice()) else { return Vec::new() };
    let syntax: String =
        s.block(BlockKind::Syntax).map(|b| b.code().map(|l| format!("{}\n", l.text)).collect()).unwrap_or_default();
    let line = |n: usize| b.lines.iter().find(|l| l.number == n).map(|l| l.text.as_str());
    let (Some(one), Some(two)) = (line(*first), line(*second)) else { return Vec::new() };
    let right = |t: &str| t.split_once('=').map(|(_, r)| r.to_string());
    let (Some(r1), Some(r2)) = (right(one), right(two)) else { return Vec::new() };
    let (v1, v2) = (variables(&r1, &syntax), variables(&r2, &syntax));
    let shared: Vec<&String> = v1.intersection(&v2).collect();
    let [var] = shared.as_slice() else { return Vec::new() };
    if v2.contains(&o.name) || o.name.contains('[') {
        return Vec::new();
    }
    let new_right = super::rename(&r2, var, &o.name);
    vec![Repair { line: *second, old: r2.trim().to_string(), new: new_right.trim().to_string() }]
}

/// Whether a comment of the lines names a qualifier (`.hi`) or a variant.
fn comments_name_variants(s: &Section, lines: &[usize]) -> bool {
    let Some(b) = s.block(BlockKind::Semantics) else { return false };
    b.lines
        .iter()
        .filter(|l| lines.contains(&l.number))
        .filter_map(|l| l.text.split_once("//"))
        .any(|(_, c)| c.contains("variant") || c.split_whitespace().any(|w| w.starts_with('.') && w.len() > 1))
}

/// The fix of lines that assign one name in a row, each for the variant
/// its comment names: an `if` chain on what the comments name (the
/// qualifier a comment writes, else its words), so that the lines exclude
/// each other as the comments mean. None where a line has no comment.
fn chained(s: &Section, lines: &[usize]) -> Vec<Repair> {
    let Some(b) = s.block(BlockKind::Semantics) else { return Vec::new() };
    let mut out = Vec::new();
    for (i, n) in lines.iter().enumerate() {
        let Some(l) = b.lines.iter().find(|l| l.number == *n) else { return Vec::new() };
        let Some((code, comment)) = l.text.split_once("//") else { return Vec::new() };
        let comment = comment.trim();
        let named = comment.split_whitespace().find(|w| w.starts_with('.') && w.len() > 1);
        let words = comment.trim_start_matches("for ").trim_end_matches(" variant");
        let condition = named.unwrap_or(words);
        if condition.is_empty() {
            return Vec::new();
        }
        let old = l.text.trim().to_string();
        let keyword = if i == 0 { "if" } else { "else if" };
        out.push(Repair { line: *n, old, new: format!("{keyword} ({condition}) {}", code.trim()) });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pseudocode::{parse, SourceLine, Vocabulary};

    fn statements(code: &str) -> Vec<Stmt> {
        let lines: Vec<String> = code.lines().map(str::to_string).collect();
        let source: Vec<SourceLine<'_>> =
            lines.iter().enumerate().map(|(i, t)| SourceLine { number: i + 1, text: t }).collect();
        let parsed = parse(&source, &Vocabulary::default());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        parsed.statements
    }

    #[test]
    fn assignments_in_a_row_are_overwritten() {
        let found = overwritten(&statements("t = a * b;\nd = t;\nd = t + 1;\nd = t + 2;"));
        assert_eq!(found, [Overwritten { name: "d".into(), lines: vec![2, 3, 4], conditional: false, join_at: None }]);
        // A read between them, a guard, and a case label each keep both.
        assert!(overwritten(&statements("d = a;\nd = d + 1;")).is_empty());
        assert!(overwritten(&statements("d = a;\nif (c) d = b;")).is_empty());
        let cases = "switch (m) {\ncase 1: d = a; break;\ncase 2: d = b; break;\n}";
        assert!(overwritten(&statements(cases)).is_empty());
    }

    #[test]
    fn lines_for_a_loads_addressing_modes_name_no_variant() {
        let doc = Document::made(
            "#### 9.7.9.10. Data Movement and Conversion Instructions: `ldu`\n\nSemantics\n\n```\n\
             d = a;   // named variable a\nd = *a;  // register\nd = t;   // for .hi variant\n```\n",
        );
        let s = &doc.sections[0];
        let lines: Vec<usize> =
            s.block(BlockKind::Semantics).map_or(Vec::new(), |b| b.code().map(|l| l.number).collect());
        assert_eq!(lines.len(), 3);
        assert!(!comments_name_variants(s, &lines[..2]));
        assert!(comments_name_variants(s, &lines[2..]));
        assert_eq!(chained(s, &lines[2..])[0].new, "if (.hi) d = t;");
    }

    #[test]
    fn plain_lines_that_overwrite_are_found_and_chained() {
        let doc = Document::made(
            "#### 9.7.9.22. Data Movement and Conversion Instructions: `cvt.pack`\n\nSyntax\n\n```\n\
             cvt.pack.sat.convertType.abType d, a, b;\n```\n\nSemantics\n\n```\n\
             ta = a < MIN(convertType) ? MIN(convertType) : a;\nta = a > MAX(convertType) ? MAX(convertType) : a;\n\
             d = ta;\n```\n",
        );
        let found = check(&doc);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].summary.starts_with("read as code, `ta` is assigned on 2"), "{}", found[0].summary);
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(
            fix,
            [("a > MAX(convertType) ? MAX(convertType) : a;", "ta > MAX(convertType) ? MAX(convertType) : ta;")]
        );
    }

    #[test]
    fn an_arms_assignment_that_the_next_statement_always_overwrites_is_found() {
        // Half-precision min (9.7.4.7): the first `if` has no `else`.
        let min = "if (isNaN(a) && isNaN(b)) d = NaN;\nif (n && isNaN(a)) d = NaN;\nelse if (isNaN(a)) d = b;\n\
                   else d = a;\nif (x && !isNaN(d)) setSignBit(d, x);";
        let found = overwritten(&statements(min));
        assert_eq!(found, [Overwritten { name: "d".into(), lines: vec![1, 2], conditional: true, join_at: Some(2) }]);
        // Element by element, in a loop's body.
        let packed = "for (i = 0; i < 2; i++) {\n  if (isNaN(fA[i])) d[i] = NaN;\n  if (n) d[i] = fA[i];\n  \
                      else d[i] = fB[i];\n}";
        assert_eq!(overwritten(&statements(packed))[0].name, "d[i]");
        // With the `else` written, or a read between, or a path that does
        // not assign, or another element, nothing is overwritten.
        for kept in [
            "if (isNaN(a)) d = NaN;\nelse if (n) d = a;\nelse d = b;",
            "if (c) d = a;\nif (isNaN(d)) d = b;\nelse d = a;",
            "if (c) d = a;\nif (n) d = b;",
            "if (c) d[0] = a;\nif (n) d[1] = b;\nelse d[1] = a;",
            "if (b > 31) { d = u; return; }\nif (n) d = b;\nelse d = a;",
        ] {
            assert!(overwritten(&statements(kept)).is_empty(), "{kept}");
        }
    }

    #[test]
    fn a_write_before_the_last_read_is_found() {
        let bfe = statements("d = 0;\nfor (i = 0; i < 8; i++) {\n  d[i] = a[i];\n}");
        assert_eq!(writes_before_reading(&bfe, "d", "a"), Some(1));
        let popc = statements("d = 0;\nwhile (a != 0) {\n  if (a & 1) d++;\n  a = a >> 1;\n}");
        assert_eq!(writes_before_reading(&popc, "d", "a"), Some(1));
        assert_eq!(writes_before_reading(&statements("t = a + b;\nd = t;"), "d", "a"), None);
        // Exclusive arms never run together.
        let arms = statements("if (m) {\n  d = b;\n} else {\n  d = a;\n}");
        assert_eq!(writes_before_reading(&arms, "d", "a"), None);
        let cases = statements("switch (m) {\ncase 1: d = b; break;\ncase 2: d = a; break;\n}");
        assert_eq!(writes_before_reading(&cases, "d", "a"), None);
        // In a loop, the next pass reads what this one wrote.
        let acc = statements("t = 0;\nfor (i = 0; i < 4; i++) {\n  t = t + a;\n  d = t;\n}");
        assert_eq!(writes_before_reading(&acc, "d", "a"), Some(4));
    }

    #[test]
    fn a_source_renamed_is_the_destination() {
        let mut s = statements("d[i] = a[pos+i] + ab + a;");
        s.iter_mut().for_each(|x| x.rename("a", "d"));
        let mut names = Vec::new();
        s[0].expressions()[0].walk(&mut |e| {
            if let ExprKind::Name(n) = &e.kind {
                names.push(n.clone());
            }
        });
        assert_eq!(names, ["d", "i", "d", "pos", "i", "ab", "d"]);
    }
}
