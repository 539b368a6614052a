//! The mutation self-test: does `prove` catch a wrong encoding?
//!
//! Each encoding (the SMT encoding and the concrete semantics, as terms) is
//! faulted in turn at every site of its term graph: an operator swapped for
//! a related one, a constant changed by one, a mask dropped, two operands
//! or branches swapped, a negation dropped, an extract's window moved, an
//! extension's kind swapped. Each mutant is proven against the other,
//! unmutated encoding. A mutant is killed by a confirmed counterexample; one
//! that survives must be an equivalent mutant: equal to the other encoding,
//! which the variant's proof makes equal to the original it was made from.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use easy_smt::{Context, SExpr, SExprData};
use ptx_smt::eval::Evaluator;
use ptx_smt::{encode, Backend, SolverError, SymBv, SymOutputs, Var};
use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::{Out, Variant};
use rayon::prelude::*;
use serde::Serialize;

use crate::prove::{compare, Comparison, Encodings, Sides};

/// Which encoding a mutant was made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Smt,
    Concrete,
}

/// What became of a mutant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "fate", rename_all = "lowercase")]
pub enum Fate {
    /// A confirmed counterexample separates it from the other encoding.
    Killed,
    /// The solver proves it equal to the original: the fault changes nothing.
    Equivalent,
    /// Survived without a proof of equivalence: a hole in the self-test.
    Survived { reason: String },
}

#[derive(Clone, Debug, Serialize)]
pub struct Mutant {
    pub variant: String,
    /// The variant's family (`Variant::family`).
    pub family: &'static str,
    pub side: Side,
    pub fault: String,
    #[serde(flatten)]
    pub fate: Fate,
}

/// A fault at one site: `site` is replaced by `replacement` everywhere it
/// occurs in the term graph.
struct Fault {
    site: SExpr,
    replacement: SExpr,
    description: String,
}

/// Operators and the related operators they are swapped for.
const SWAPS: &[(&str, &[&str])] = &[
    ("bvand", &["bvor"]),
    ("bvor", &["bvand", "bvxor"]),
    ("bvxor", &["bvor"]),
    ("bvadd", &["bvsub"]),
    ("bvsub", &["bvadd"]),
    ("bvmul", &["bvadd"]),
    ("bvshl", &["bvlshr"]),
    ("bvlshr", &["bvshl", "bvashr"]),
    ("bvashr", &["bvlshr"]),
    ("bvudiv", &["bvsdiv"]),
    ("bvsdiv", &["bvudiv"]),
    ("bvurem", &["bvsrem"]),
    ("bvsrem", &["bvurem"]),
    ("bvult", &["bvule", "bvslt"]),
    ("bvule", &["bvult"]),
    ("bvugt", &["bvuge"]),
    ("bvuge", &["bvugt"]),
    ("bvslt", &["bvsle", "bvult"]),
    ("bvsle", &["bvslt"]),
    ("and", &["or"]),
    ("or", &["and"]),
    ("=", &["distinct"]),
];

/// Binary operators whose operands can be swapped to a different function.
const NON_COMMUTATIVE: &[&str] = &[
    "bvsub", "bvshl", "bvlshr", "bvashr", "bvudiv", "bvsdiv", "bvurem", "bvsrem", "bvult", "bvule", "bvugt", "bvuge",
    "bvslt", "bvsle", "concat",
];

/// Unary operators that can be dropped.
const DROPPABLE: &[&str] = &["bvnot", "bvneg", "not"];

/// Long enough to tell apart the per-bit sites of an unrolled loop.
fn describe(ctx: &Context, e: SExpr) -> String {
    ptx_smt::term::display_bounded(ctx, e, 160)
}

/// Every fault of the term graph under `roots`, a term over `vars`.
fn faults(ctx: &Context, vars: &[Var], roots: &[SExpr]) -> Vec<Fault> {
    // Sorts are not stored with the terms: an operand's width is that of its
    // value with every input 0.
    let zeros = vars.iter().map(|v| (v.name.clone(), BitVec::new(v.width, 0))).collect();
    let mut widths = Evaluator::new(ctx, zeros);
    let mut seen = HashSet::new();
    let mut stack: Vec<SExpr> = roots.to_vec();
    let mut order = Vec::new();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        order.push(e);
        if let SExprData::List(items) = ctx.get(e) {
            stack.extend(items.iter().rev().copied());
        }
    }
    let mut out = Vec::new();
    for e in order {
        let Some(items) = ctx.get_list(e) else { continue };
        let items = items.to_vec();
        if let Some(fault) = indexed_fault(ctx, e, &items, &mut widths) {
            out.push(fault);
            continue;
        }
        let Some(head) = ctx.get_atom(items[0]).map(str::to_string) else { continue };
        let args = &items[1..];
        let rebuild = |new_head: Option<&str>, new_args: Vec<SExpr>| {
            let mut v = vec![new_head.map_or(items[0], |h| ctx.atom(h))];
            v.extend(new_args);
            ctx.list(v)
        };
        for (op, to) in SWAPS {
            if *op == head {
                for t in *to {
                    out.push(Fault {
                        site: e,
                        replacement: rebuild(Some(t), args.to_vec()),
                        description: format!("{head} -> {t} in {}", describe(ctx, e)),
                    });
                }
            }
        }
        if args.len() == 2 && NON_COMMUTATIVE.contains(&head.as_str()) {
            out.push(Fault {
                site: e,
                replacement: rebuild(None, vec![args[1], args[0]]),
                description: format!("swap operands of {}", describe(ctx, e)),
            });
        }
        if head == "ite" && args.len() == 3 {
            out.push(Fault {
                site: e,
                replacement: rebuild(None, vec![args[0], args[2], args[1]]),
                description: format!("swap branches of {}", describe(ctx, e)),
            });
        }
        if head == "bvand" && args.len() == 2 {
            for (keep, dropped) in [(0, 1), (1, 0)] {
                out.push(Fault {
                    site: e,
                    replacement: args[keep],
                    description: format!("drop mask {} in {}", describe(ctx, args[dropped]), describe(ctx, e)),
                });
            }
        }
        if DROPPABLE.contains(&head.as_str()) && args.len() == 1 {
            out.push(Fault {
                site: e,
                replacement: args[0],
                description: format!("drop {head} in {}", describe(ctx, e)),
            });
        }
        // Constants by one, each occurrence on its own.
        for (i, &arg) in args.iter().enumerate() {
            let Some(value) = ctx.get_atom(arg).and_then(BitVec::parse_smtlib) else { continue };
            for (delta, sign) in [(1u128, "+1"), (u128::MAX, "-1")] {
                let changed = BitVec::new(value.width(), value.unsigned().wrapping_add(delta));
                let mut new_args = args.to_vec();
                new_args[i] = ctx.atom(changed.smtlib());
                out.push(Fault {
                    site: e,
                    replacement: rebuild(None, new_args),
                    description: format!("constant {} {sign} in {}", value.smtlib(), describe(ctx, e)),
                });
            }
        }
    }
    out
}

/// The fault of an indexed operator's application `e` (`items`): an
/// extract's window moved one bit down, which keeps its width and stays
/// inside its operand (at bit 0 it moves one bit up, inside the operand
/// only if the operand is wider; a window that fills its operand is left
/// alone), and zero extension swapped for sign extension and back.
fn indexed_fault(ctx: &Context, e: SExpr, items: &[SExpr], widths: &mut Evaluator) -> Option<Fault> {
    let op = ctx.get_list(items[0])?;
    let atoms: Vec<&str> = op.iter().map(|&a| ctx.get_atom(a)).collect::<Option<_>>()?;
    let rebuild_op = |new_op: Vec<String>| {
        let mut v = vec![ctx.list(new_op.iter().map(|a| ctx.atom(a)).collect())];
        v.extend(&items[1..]);
        ctx.list(v)
    };
    match atoms[..] {
        ["_", "extract", hi, lo] => {
            let (hi, lo): (u32, u32) = (hi.parse().ok()?, lo.parse().ok()?);
            let operand = widths.eval_bv(*items.get(1)?).ok()?.width();
            let (new_hi, new_lo, direction) = if lo > 0 {
                (hi - 1, lo - 1, "down")
            } else if hi + 1 < operand {
                (hi + 1, lo + 1, "up")
            } else {
                return None;
            };
            Some(Fault {
                site: e,
                replacement: rebuild_op(vec!["_".into(), "extract".into(), new_hi.to_string(), new_lo.to_string()]),
                description: format!("extract window one bit {direction} in {}", describe(ctx, e)),
            })
        }
        ["_", extend @ ("zero_extend" | "sign_extend"), k] => {
            let other = if extend == "zero_extend" { "sign_extend" } else { "zero_extend" };
            Some(Fault {
                site: e,
                replacement: rebuild_op(vec!["_".into(), other.into(), k.into()]),
                description: format!("{extend} -> {other} in {}", describe(ctx, e)),
            })
        }
        _ => None,
    }
}

/// `root` with `site` replaced by `replacement`.
fn substitute(ctx: &Context, root: SExpr, site: SExpr, replacement: SExpr, memo: &mut HashMap<SExpr, SExpr>) -> SExpr {
    if root == site {
        return replacement;
    }
    if let Some(&done) = memo.get(&root) {
        return done;
    }
    let result = match ctx.get_list(root) {
        None => root,
        Some(items) => {
            let items = items.to_vec();
            let new: Vec<SExpr> = items.iter().map(|&i| substitute(ctx, i, site, replacement, memo)).collect();
            if new == items {
                root
            } else {
                ctx.list(new)
            }
        }
    };
    memo.insert(root, result);
    result
}

fn mutate(ctx: &Context, outputs: &SymOutputs, fault: &Fault) -> SymOutputs {
    let mut memo = HashMap::new();
    outputs
        .iter()
        .map(|o| Out {
            value: SymBv {
                term: substitute(ctx, o.value.term, fault.site, fault.replacement, &mut memo),
                width: o.value.width,
            },
            defined: substitute(ctx, o.defined, fault.site, fault.replacement, &mut memo),
        })
        .collect()
}

/// How many faults each side of `variant` has (without running them).
pub fn count(variant: &Variant) -> usize {
    let ctx = easy_smt::ContextBuilder::new().build().expect("a context without a solver");
    let e = Encodings::build(variant, &ctx, |sym, ins| encode::encode(variant, sym, ins));
    faults(&ctx, &e.vars, &roots(&e.smt)).len() + faults(&ctx, &e.vars, &roots(&e.concrete)).len()
}

/// The terms of all outputs, values and definedness.
fn roots(outputs: &SymOutputs) -> Vec<SExpr> {
    outputs.iter().flat_map(|o| [o.value.term, o.defined]).collect()
}

/// Why a variant's mutants are not run with `backend`, if they are not. A
/// mutant is proven in one query, so a variant whose proof is split is
/// skipped, unless the split only spares a slower solver than the embedded
/// Z3 and the mutants run with that.
pub fn skipped(variant: &Variant, backend: &Backend) -> Option<String> {
    let ctx = easy_smt::ContextBuilder::new().build().expect("a context without a solver");
    let e = Encodings::build(variant, &ctx, |sym, ins| encode::encode(variant, sym, ins));
    (!e.cases.is_empty() && crate::prove::needs_split(variant, backend)).then(|| {
        let only = if variant.whole_in_z3() { " (the embedded solver proves them whole)" } else { "" };
        format!("its proof is split into {} cases, which each mutant would need again{only}", e.cases.len())
    })
}

/// Run every mutant of both encodings of `variant`.
///
/// Concrete evaluation first: every mutant runs on the conformance suite's
/// vectors ([`crate::vectors::generate`], its default size, without the
/// audit's witnesses), each output compared with the other encoding's as
/// `prove` compares them. A mutant that differs on some vector is killed by
/// that concrete counterexample, without the solver; only the mutants no
/// vector tells apart (the equivalent ones, and any the suite misses) go to
/// the solver, in parallel. Most mutants die on the first few vectors, and a
/// killed mutant costs the solver a query and the minimisation of its
/// witness.
pub fn run(variant: &Variant, backend: &Backend, timeout: Duration) -> Result<Vec<Mutant>, SolverError> {
    let screened = screen(variant)?;
    // A mutant proven equal to the other encoding is equal to its own
    // original when the two originals are equal: the variant's own proof,
    // made once here instead of once per equivalent mutant.
    let originals_agree = !screened.iter().all(|m| m.killed) && originals_agree(variant, backend, timeout)?;
    screened
        .into_par_iter()
        .map(|m| {
            let fate = if m.killed { Fate::Killed } else { solve(variant, backend, timeout, &m, originals_agree)? };
            Ok(Mutant { variant: variant.to_string(), family: variant.family(), side: m.side, fault: m.fault, fate })
        })
        .collect()
}

/// One mutant after the concrete pass: which encoding, its index among that
/// encoding's faults, its fault, and whether a vector killed it.
struct Screened {
    side: Side,
    index: usize,
    fault: String,
    killed: bool,
}

/// Whether the unmutated encodings of `variant` are proven equal on every
/// input (no constraint).
fn originals_agree(variant: &Variant, backend: &Backend, timeout: Duration) -> Result<bool, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let Encodings { vars, output_names, smt, concrete, .. } =
        Encodings::build(variant, &ctx, |sym, ins| encode::encode(variant, sym, ins));
    let proof = Sides { vars: &vars, constraint: None, output_names: &output_names, smt: &smt, concrete: &concrete };
    Ok(matches!(compare(backend, &mut ctx, &proof, timeout)?, Comparison::Equivalent))
}

/// The solver's verdict on a mutant no vector killed. The mutant is built
/// again in a fresh context, so that the terms of thousands of mutants
/// never pile up in one.
fn solve(
    variant: &Variant,
    backend: &Backend,
    timeout: Duration,
    m: &Screened,
    originals_agree: bool,
) -> Result<Fate, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let Encodings { vars, output_names: names, smt, concrete, .. } =
        Encodings::build(variant, &ctx, |sym, ins| encode::encode(variant, sym, ins));
    let (original, other) = match m.side {
        Side::Smt => (&smt, &concrete),
        Side::Concrete => (&concrete, &smt),
    };
    let fault =
        faults(&ctx, &vars, &roots(original)).into_iter().nth(m.index).expect("the fault the concrete pass numbered");
    debug_assert_eq!(fault.description, m.fault, "faults are listed in the same order in every context");
    let mutant = mutate(&ctx, original, &fault);
    let against_other = Sides { vars: &vars, constraint: None, output_names: &names, smt: &mutant, concrete: other };
    Ok(match compare(backend, &mut ctx, &against_other, timeout)? {
        Comparison::Differ(_) => Fate::Killed,
        Comparison::Equivalent => {
            // Equal to the other encoding; equal to the original through
            // the variant's proof, or else compared with it directly.
            let equal = originals_agree || {
                let against_original =
                    Sides { vars: &vars, constraint: None, output_names: &names, smt: &mutant, concrete: original };
                matches!(compare(backend, &mut ctx, &against_original, timeout)?, Comparison::Equivalent)
            };
            if equal {
                Fate::Equivalent
            } else {
                Fate::Survived { reason: "not proven equal to the original".into() }
            }
        }
        Comparison::Unconfirmed(_) => Fate::Survived { reason: "counterexample not confirmed concretely".into() },
        Comparison::Unknown(reason) => Fate::Survived { reason: format!("solver unknown: {reason}") },
    })
}

/// Every mutant of `variant`, in the order `all` lists them, each marked
/// killed where some vector of the suite tells it from the other encoding.
fn screen(variant: &Variant) -> Result<Vec<Screened>, SolverError> {
    let ctx = easy_smt::ContextBuilder::new()
        .build()
        .map_err(|e| SolverError::Rejected { solver: "evaluator".into(), message: format!("no term context: {e}") })?;
    let (encodings, all) = all(variant, &ctx);
    let vectors = crate::vectors::generate(variant, &[], crate::vectors::Size::default());
    let killed = killed_on(&ctx, &encodings.vars, &all, &vectors, |ev, _, (side, _, mutant)| {
        let other = match side {
            Side::Smt => &encodings.concrete,
            Side::Concrete => &encodings.smt,
        };
        // A mutant the evaluator cannot compute (ill-sorted) is left to the
        // solver.
        matches!((outputs(ev, mutant), outputs(ev, other)), (Some(m), Some(o)) if m != o)
    })?;
    // Indices within each side, as `solve` finds the fault again.
    let mut counters = [0usize; 2];
    Ok(all
        .into_iter()
        .enumerate()
        .map(|(k, (side, fault, _))| {
            let slot = &mut counters[usize::from(side == Side::Concrete)];
            let index = *slot;
            *slot += 1;
            Screened { side, index, fault, killed: killed[k] }
        })
        .collect())
}

/// Which mutants of `all` (terms over `vars`) fail on some vector: each
/// runs on the vectors in turn until `fails` says it fails on one. One
/// evaluator per vector serves every mutant, so that the subterms they share
/// with the originals are computed once.
pub(crate) fn killed_on(
    ctx: &Context,
    vars: &[Var],
    all: &[(Side, String, SymOutputs)],
    vectors: &[impl std::borrow::Borrow<crate::vectors::Vector>],
    mut fails: impl FnMut(&mut Evaluator, &crate::vectors::Vector, &(Side, String, SymOutputs)) -> bool,
) -> Result<Vec<bool>, SolverError> {
    let mut killed = vec![false; all.len()];
    for vector in vectors {
        if killed.iter().all(|&k| k) {
            break;
        }
        crate::interrupt::check().map_err(|_| SolverError::Interrupted)?;
        let vector = vector.borrow();
        let env =
            vars.iter().zip(&vector.inputs).map(|(var, &x)| (var.name.clone(), BitVec::new(var.width, x))).collect();
        let mut ev = Evaluator::new(ctx, env);
        for (k, mutant) in all.iter().enumerate() {
            if !killed[k] && fails(&mut ev, vector, mutant) {
                killed[k] = true;
            }
        }
    }
    Ok(killed)
}

/// Each output's value where it is defined, `None` inside where it is not;
/// `None` for all if a term cannot be evaluated.
fn outputs(ev: &mut Evaluator, outs: &SymOutputs) -> Option<Vec<Option<BitVec>>> {
    outs.iter()
        .map(|o| match ev.eval_bool(o.defined).ok()? {
            true => ev.eval_bv(o.value.term).ok().map(Some),
            false => Some(None),
        })
        .collect()
}

/// Every mutant of both encodings of `variant`, built in `ctx`: which side
/// it was made from, its fault, and its outputs; with the encodings.
pub(crate) fn all(variant: &Variant, ctx: &Context) -> (Encodings, Vec<(Side, String, SymOutputs)>) {
    let e = Encodings::build(variant, ctx, |sym, ins| encode::encode(variant, sym, ins));
    let mut out = Vec::new();
    for (side, original) in [(Side::Smt, &e.smt), (Side::Concrete, &e.concrete)] {
        for fault in faults(ctx, &e.vars, &roots(original)) {
            out.push((side, fault.description.clone(), mutate(ctx, original, &fault)));
        }
    }
    (e, out)
}
