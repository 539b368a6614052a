//! fns's third proof by induction over the passes of the text's loop.
//!
//! fns's block walks from base one position per pass, counting set bits
//! down to the one it stops at. With base and offset fixed, each of the
//! 2,277 cases the block was split into relates the text's walk to the
//! encoding's walk over the 32 bits of mask, and the solver took up to
//! 1.5 s on one (547 s for all). Here the two walks are related pass by
//! pass instead, as the first proof relates the encoding to the model
//! (`prove::lockstep`), for each sign of offset with base and offset left
//! open.
//!
//! The evaluator keeps the text's state at the top of each pass of its loop
//! (`pos`, `count`, `d`, the inputs still in the loop and those that have
//! left by `break`). A relation R(t) ties that state at pass t to the
//! encoding's walk after t steps:
//! - pos is base + t (offset > 0) or base - t;
//! - the counts are equal, or both are at least 32 - t: with at most 32 - t
//!   positions left, neither reaches 0 and finds a bit (the encoding holds a
//!   count of 32 or more as 32, in 6 bits);
//! - the answers so far are equal;
//! - the text's pass runs exactly where the walk has not stopped, and no
//!   input that has left by `break` runs;
//! - every value the text holds is defined.
//!
//! R(1) is proven of the terms themselves (one pass, a small query). Then
//! R(t) => R(t+1) for each later pass, from *any* state: the terms of pass
//! t+1 are read with each term of pass t's state replaced by a fresh
//! variable. Put the state's own terms back for those variables and the
//! terms of pass t+1 come back exactly, so each step holds of the real
//! state, whatever else the evaluator folded into it; by induction R(32)
//! holds of the unrolled terms. The comparison is then asked once, with
//! "the premise implies R(32)" as its constraint: a fact valid on every
//! input, so no input is left out and the proof stays complete.
//!
//! Where the text does not have this shape (another loop, other names, a
//! relation not proven at some pass), [`prove`] answers `None`, and the
//! variant's cases decide, as before.

use std::collections::HashMap;
use std::time::Duration;

use easy_smt::{Context, SExpr, SExprData};
use ptx_smt::encode::bit_count::{FnsWalk, FnsWalks};
use ptx_smt::{Backend, SatResult, SolverError, Sym, SymBv, Var};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::Variant;

use super::{against_encoding, evaluate, operands, CaseOutcome, Pass, ReadBlock};
use crate::pseudocode::setting::Setting;

/// The steps of the encoding's walk, and the text's pass at which its
/// position has left 0..31 on every input.
const STEPS: u32 = 32;

/// Whether `variant`'s third proof goes by induction: fns.
pub(super) fn applies(variant: &Variant) -> bool {
    *variant == Variant::BitCount(BitCount::Fns)
}

/// The two directions the induction proves: offset > 0 (`up`) and < 0,
/// each with base in 0..31, as the bounds the evaluator is told.
pub(super) const DIRECTIONS: [(bool, (i128, i128)); 2] =
    [(true, (1, i32::MAX as i128)), (false, (i32::MIN as i128, -1))];

/// The last value of base the induction covers: above it the model leaves
/// fns undefined, and the cases compare it.
pub(super) const LAST_BASE: i128 = 31;

/// fns's block against its encoding on the inputs of one direction:
/// `Ok(Some(outcome))` with the comparison, `Ok(None)` where the text does
/// not have the shape the relation reads or an obligation is not proven
/// (no verdict: the cases decide).
pub(super) fn prove(
    variant: &Variant,
    block: &ReadBlock<'_>,
    setting: &Setting,
    up: bool,
    backend: &Backend,
    timeout: Duration,
) -> Result<Option<CaseOutcome>, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let sym = Sym::new(&ctx);
    let (vars, ins, befores) = operands(&sym, variant);
    let (mask, base, offset) = (ins[0], ins[1], ins[2]);
    let offsets = DIRECTIONS.iter().find(|(u, _)| *u == up).expect("a direction").1;
    let mut known = setting.clone();
    known.ranges = vec![("base".into(), (0, LAST_BASE)), ("offset".into(), offsets)];
    let Ok((text, passes)) = evaluate(&sym, variant, block, &known, &ins, &befores, true) else {
        return Ok(None);
    };
    // The loop runs to its bound (an input that has stopped keeps its pos,
    // so no pass is known to be the last), and has stopped on every input
    // by pass 33, where pos has left 0..31.
    let last = passes.len() - 1;
    if last <= STEPS as usize {
        return Ok(None);
    }
    let walks = FnsWalks::of(&sym, mask, base, offset);
    let bits = if up { walks.upward } else { walks.downward };
    let relation = Relation { sym: &sym, base, up };
    let zero = sym.constant(32, 0);
    let sign = if up { sym.bvsgt(offset, zero) } else { sym.bvslt(offset, zero) };
    let premise = sym.and(sign, sym.bvule(base, sym.constant(32, LAST_BASE as u128)));

    let step = |w, t| walk_step(&sym, w, bits, base, up, t);
    // The walk's real terms, step by step (the encoding's own: the context
    // shares equal terms).
    let mut walk = vec![FnsWalk::start(&sym, walks.count)];
    for t in 0..last as u32 {
        let next = step(walk[t as usize], t);
        walk.push(next);
    }
    let mut obligations = Vec::new();
    let Some(first) = relation.holds(1, &passes[1], walk[1]) else { return Ok(None) };
    obligations.push(sym.and(premise, sym.not(first)));
    let mut fresh_vars = Vec::new();
    for t in 1..last as u32 {
        let (any_text, replaced, text_vars) = fresh_pass(&sym, t, &passes[t as usize], &passes[t as usize + 1]);
        let any_walk = fresh_walk(&sym, t);
        let next = substitute_pass(&ctx, &passes[t as usize + 1], &replaced);
        let (Some(before), Some(after)) =
            (relation.holds(t, &any_text, any_walk.0), relation.holds(t + 1, &next, step(any_walk.0, t)))
        else {
            return Ok(None);
        };
        obligations.push(sym.and(sym.and(premise, before), sym.not(after)));
        fresh_vars.extend(text_vars);
        fresh_vars.extend(any_walk.1);
    }
    let Some(at_last) = relation.holds(last as u32, &passes[last], walk[last]) else { return Ok(None) };
    let fact = sym.or(sym.not(premise), at_last);
    // The comparison's inputs: the direction's, with the fact.
    let constraint = sym.and(premise, fact);
    let all: Vec<Var> = vars.iter().cloned().chain(fresh_vars).collect();
    for o in obligations {
        if backend.check(&mut ctx, &all, &[o], timeout)? != SatResult::Unsat {
            return Ok(None);
        }
    }

    // The comparison, with the fact: as the case of these inputs compares.
    Ok(Some(against_encoding(backend, &mut ctx, variant, &vars, &ins, &text, Some(constraint), timeout)?))
}

/// Step t of the encoding's walk; past its 32 steps, the walk has stopped.
fn walk_step<'a>(sym: &Sym<'a>, w: FnsWalk<Sym<'a>>, bits: SymBv, base: SymBv, up: bool, t: u32) -> FnsWalk<Sym<'a>> {
    if t < STEPS {
        w.step(sym, bits, base, up, t)
    } else {
        FnsWalk { done: sym.bool_constant(true), ..w }
    }
}

/// R(t), between the text's state at the top of pass t and the encoding's
/// walk after t steps.
struct Relation<'a> {
    sym: &'a Sym<'a>,
    base: SymBv,
    up: bool,
}

/// The width every integer of the relation is compared at.
const WIDE: u32 = 64;

impl Relation<'_> {
    /// `x` as an integer of [`WIDE`] bits, read as signed or not.
    fn wide(&self, (bv, signed): (SymBv, bool)) -> SymBv {
        let sym = self.sym;
        match bv.width {
            w if w == WIDE => bv,
            w if w < WIDE && signed => sym.sign_extend(WIDE - w, bv),
            w if w < WIDE => sym.zero_extend(WIDE - w, bv),
            _ => sym.extract(WIDE - 1, 0, bv),
        }
    }

    fn constant(&self, v: i128) -> SymBv {
        self.sym.constant(WIDE, v as u128)
    }

    /// R(t) of `text` and `walk`; `None` where the text's state lacks one
    /// of the variables the relation reads.
    fn holds(&self, t: u32, text: &Pass<Sym<'_>>, walk: FnsWalk<Sym<'_>>) -> Option<SExpr> {
        let sym = self.sym;
        let int = |name: &str| text.ints.get(name).copied();
        let ((pos, pos_signed, pos_ok), (count, count_signed, count_ok), (d, d_signed, d_ok)) =
            (int("pos")?, int("count")?, int("d")?);
        let pos = self.wide((pos, pos_signed));
        let count = self.wide((count, count_signed));
        let d = self.wide((d, d_signed));
        let step = self.constant(i128::from(t));
        let base = self.wide((self.base, false));
        let at = if self.up { sym.bvadd(base, step) } else { sym.bvsub(base, step) };
        let left_to_visit = self.constant((i128::from(STEPS) - i128::from(t)).max(0));
        let walk_count = self.wide((walk.count, false));
        let counts = sym.or(
            sym.eq(count, walk_count),
            sym.and(sym.bvsge(count, left_to_visit), sym.bvuge(walk_count, left_to_visit)),
        );
        let (live, live_ok) = text.live;
        let (left, left_ok) = text.left;
        let parts = [
            // An input that has stopped keeps the pos it stopped at.
            sym.or(sym.not(live), sym.eq(pos, at)),
            counts,
            sym.eq(sym.extract(31, 0, d), walk.d),
            sym.not(sym.bool_xor(live, sym.not(walk.done))),
            sym.not(sym.and(live, left)),
            pos_ok,
            count_ok,
            d_ok,
            live_ok,
            left_ok,
        ];
        Some(parts.into_iter().fold(sym.bool_constant(true), |x, y| sym.and(x, y)))
    }
}

/// The text's state at pass t as fresh variables, one per term of `pass`
/// that the pass changes; with the map from each replaced term to its
/// variable, and the variables. A term kept is the same in the state
/// before and after (`inc`, a function of the inputs alone), or an atom (a
/// constant, or an input the query quantifies over anyway).
fn fresh_pass<'a>(
    sym: &Sym<'a>,
    t: u32,
    pass: &Pass<Sym<'a>>,
    next: &Pass<Sym<'a>>,
) -> (Pass<Sym<'a>>, HashMap<SExpr, SExpr>, Vec<Var>) {
    let ctx = sym.ctx();
    // Every term of the next pass's state: a term found there unchanged is
    // not state the pass changes.
    let kept: std::collections::HashSet<SExpr> = next
        .ints
        .values()
        .flat_map(|(bv, _, ok)| [bv.term, *ok])
        .chain([next.live.0, next.live.1, next.left.0, next.left.1])
        .collect();
    let mut replaced = HashMap::new();
    let mut vars = Vec::new();
    let mut bool_var = |term: SExpr, name: String, replaced: &mut HashMap<SExpr, SExpr>| -> SExpr {
        if is_atom(ctx, term) || kept.contains(&term) {
            return term;
        }
        *replaced.entry(term).or_insert_with(|| {
            vars.push(Var { name: name.clone(), width: 1 });
            sym.is_set(sym.bit(sym.var(&name, 1), 0))
        })
    };
    let name = |what: &str| format!("text_pass{t}_{what}");
    let mut ints = std::collections::BTreeMap::new();
    let mut words = Vec::new();
    for (var, (bv, signed, ok)) in &pass.ints {
        let ok = bool_var(*ok, name(&format!("{var}_ok")), &mut replaced);
        ints.insert(var.clone(), (*bv, *signed, ok));
        words.push(var.clone());
    }
    let live =
        (bool_var(pass.live.0, name("live"), &mut replaced), bool_var(pass.live.1, name("live_ok"), &mut replaced));
    let left =
        (bool_var(pass.left.0, name("left"), &mut replaced), bool_var(pass.left.1, name("left_ok"), &mut replaced));
    for var in words {
        let entry = ints.get_mut(&var).expect("kept above");
        if is_atom(ctx, entry.0.term) || kept.contains(&entry.0.term) {
            continue;
        }
        let fresh = *replaced.entry(entry.0.term).or_insert_with(|| {
            let n = name(&var);
            vars.push(Var { name: n.clone(), width: entry.0.width });
            sym.var(&n, entry.0.width).term
        });
        entry.0 = SymBv { term: fresh, width: entry.0.width };
    }
    (Pass { ints, live, left }, replaced, vars)
}

/// The walk's state after t steps as fresh variables, and the variables.
fn fresh_walk<'a>(sym: &Sym<'a>, t: u32) -> (FnsWalk<Sym<'a>>, Vec<Var>) {
    let name = |what: &str| format!("walk_step{t}_{what}");
    let walk = FnsWalk {
        count: sym.var(&name("count"), 6),
        d: sym.var(&name("d"), 32),
        done: sym.is_set(sym.bit(sym.var(&name("done"), 1), 0)),
    };
    let vars = [("count", 6), ("d", 32), ("done", 1)].map(|(v, w)| Var { name: name(v), width: w }).to_vec();
    (walk, vars)
}

/// `pass` with every term of `replaced` replaced by its variable.
fn substitute_pass<'a>(ctx: &Context, pass: &Pass<Sym<'a>>, replaced: &HashMap<SExpr, SExpr>) -> Pass<Sym<'a>> {
    let mut memo = HashMap::new();
    let mut sub = |term: SExpr| substitute(ctx, term, replaced, &mut memo);
    let ints = pass
        .ints
        .iter()
        .map(|(n, (bv, signed, ok))| (n.clone(), (SymBv { term: sub(bv.term), width: bv.width }, *signed, sub(*ok))))
        .collect();
    let live = (sub(pass.live.0), sub(pass.live.1));
    let left = (sub(pass.left.0), sub(pass.left.1));
    Pass { ints, live, left }
}

/// `term` with each subterm that `replaced` maps replaced, outermost first.
fn substitute(ctx: &Context, term: SExpr, replaced: &HashMap<SExpr, SExpr>, memo: &mut HashMap<SExpr, SExpr>) -> SExpr {
    if let Some(v) = replaced.get(&term) {
        return *v;
    }
    if let Some(v) = memo.get(&term) {
        return *v;
    }
    let out = match ctx.get(term) {
        SExprData::List(items) => {
            let items: Vec<SExpr> = items.to_vec();
            let new: Vec<SExpr> = items.iter().map(|&x| substitute(ctx, x, replaced, memo)).collect();
            if new == items {
                term
            } else {
                ctx.list(new)
            }
        }
        _ => term,
    };
    memo.insert(term, out);
    out
}

/// Whether `term` is an atom: a constant, an input, `true`.
fn is_atom(ctx: &Context, term: SExpr) -> bool {
    !matches!(ctx.get(term), SExprData::List(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document;
    use crate::prove::Comparison;
    use crate::text_proof::{read_block, setting};

    const TIMEOUT: Duration = Duration::from_secs(60);

    fn fns() -> Variant {
        Variant::BitCount(BitCount::Fns)
    }

    /// Each direction's induction over the text `dir` (with fns's Count
    /// line replaced by `count_line` where given): `Some(equivalent)`, or
    /// `None` where it does not go through.
    fn induction(dir: &std::path::Path, count_line: Option<&str>) -> Vec<Option<bool>> {
        let copy = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let mut text = std::fs::read_to_string(&path).unwrap();
            if let Some(line) = count_line {
                text = text.replace("count = |offset| - 1;", line);
            }
            std::fs::write(copy.path().join(path.file_name().unwrap()), text).unwrap();
        }
        let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
        let block = read_block(&doc, &fns()).unwrap();
        let s = setting(&fns(), &block.readings).unwrap();
        DIRECTIONS
            .iter()
            .map(|(up, _)| {
                let outcome = prove(&fns(), &block, &s, *up, &Backend::Embedded, TIMEOUT).unwrap();
                outcome.map(|(comparison, _)| matches!(comparison, Comparison::Equivalent))
            })
            .collect()
    }

    /// Both directions go by induction, and the text agrees with the
    /// encoding in each.
    #[test]
    fn fns_text_is_proven_by_induction() {
        let Some(seeds) = crate::testing::spec_text("fns_text_is_proven_by_induction") else { return };
        assert_eq!(induction(&seeds, None), [Some(true), Some(true)]);
    }

    /// A count one too small breaks the relation in each direction: the
    /// induction gives no verdict, and the variant's cases decide (they
    /// find mask=1, base=0, offset=-2, where the edited text answers 0 and
    /// the encoding 0xffffffff, in about 90 s on 2 cores).
    #[test]
    fn an_edited_count_breaks_the_induction() {
        let Some(seeds) = crate::testing::spec_text("an_edited_count_breaks_the_induction") else { return };
        assert_eq!(induction(&seeds, Some("count = |offset| - 2;")), [None, None]);
    }
}
