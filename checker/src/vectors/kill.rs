//! The suite's strength: the mutants of `ptxcheck mutants` (every fault of
//! both encodings of a variant) run as implementations on the suite's
//! vectors, each evaluated concretely from its terms (`ptx_smt::eval`), no
//! solver. A mutant is killed when, on some vector, an output the spec
//! defines differs from the expected value (or the mutant leaves it
//! undefined): what `conform` would report as a failure.
//!
//! A mutant no vector kills is then put to the solver: either it equals its
//! original wherever the spec defines the output (an equivalent mutant, for
//! a conformance suite: it can pick values only where any value passes), or
//! the solver gives an input that tells them apart, which the suite missed.

use std::time::Duration;

use easy_smt::Context;
use ptx_smt::eval::Evaluator;
use ptx_smt::{Backend, SolverError, SymBv, SymOutputs};
use ptx_spec::catalogue::{Out, Variant};

use super::Vector;
use crate::mutants::{self, Side};
use crate::prove::{compare_cases, Comparison, Sides};
use rayon::prelude::*;

/// A mutant the suite does not kill and the solver does not prove
/// equivalent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missed {
    pub side: Side,
    pub fault: String,
    /// Why: the input the solver found that the suite lacks, or why the
    /// solver did not settle it.
    pub reason: String,
}

/// One variant's mutants against the suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kills {
    pub mutants: usize,
    pub killed: usize,
    /// Equal to the original wherever the spec defines the output.
    pub equivalent: usize,
    /// Told apart from the original by the solver on an input the suite
    /// lacks.
    pub missed: Vec<Missed>,
    /// Neither killed nor settled by the solver (a timeout, a solver's input
    /// that does not check out): counted neither way.
    pub unsettled: Vec<Missed>,
}

impl Kills {
    /// Killed of the non-equivalent mutants (1 when there are none).
    pub fn rate(&self) -> f64 {
        let live = self.killed + self.missed.len();
        if live == 0 {
            1.0
        } else {
            self.killed as f64 / live as f64
        }
    }
}

/// Whether the mutant fails on `vector`: an output the spec defines is
/// undefined or different.
fn fails(ev: &mut Evaluator, mutant: &SymOutputs, vector: &Vector) -> bool {
    mutant.iter().zip(&vector.spec).any(|(o, e)| match e {
        None => false,
        Some(e) => match ev.eval_bool(o.defined) {
            Ok(true) => ev.eval_bv(o.value.term).map_or(true, |v| v.unsigned() != *e),
            // Undefined, or a term the evaluator cannot compute (an
            // ill-sorted mutant): not what the spec asks for.
            _ => true,
        },
    })
}

/// The mutant as an implementation seen only where the spec defines the
/// output: defined as the original, its value the mutant's where the mutant
/// defines it and the complement of the original's where it does not (so
/// that leaving a defined output undefined counts as a difference).
fn on_defined(ctx: &Context, original: &SymOutputs, mutant: &SymOutputs) -> SymOutputs {
    original
        .iter()
        .zip(mutant)
        .map(|(o, m)| Out {
            value: SymBv { term: ctx.ite(m.defined, m.value.term, ctx.bvnot(o.value.term)), width: o.value.width },
            defined: o.defined,
        })
        .collect()
}

/// Run every mutant of `variant` on `vectors` (the variant's own); settle
/// the survivors with `backend`, each query limited to `timeout`.
pub fn kill(
    variant: &Variant,
    vectors: &[&Vector],
    backend: &Backend,
    timeout: Duration,
) -> Result<Kills, SolverError> {
    let ctx = backend.context(timeout)?;
    let (encodings, all) = mutants::all(variant, &ctx);
    let killed = mutants::killed_on(&ctx, &encodings.vars, &all, vectors, |ev, vector, (_, _, mutant)| {
        fails(ev, mutant, vector)
    })?;
    let survivors: Vec<usize> = (0..all.len()).filter(|&k| !killed[k]).collect();
    // The survivors go to the solver in parallel, each rebuilt in a context
    // of its own.
    let settled: Vec<Result<Settled, SolverError>> =
        survivors.par_iter().map(|&k| settle(variant, backend, timeout, k)).collect();
    let mut kills = Kills { mutants: all.len(), killed: all.len() - survivors.len(), ..Kills::default() };
    for s in settled {
        match s? {
            Settled::Equivalent => kills.equivalent += 1,
            Settled::Missed(m) => kills.missed.push(m),
            Settled::Unsettled(m) => kills.unsettled.push(m),
        }
    }
    Ok(kills)
}

/// What the solver makes of a mutant no vector killed.
enum Settled {
    Equivalent,
    Missed(Missed),
    Unsettled(Missed),
}

/// The solver's verdict on mutant `k` of `variant` (in [`mutants::all`]'s
/// order): equal to its original wherever the spec defines the output, or
/// told apart on an input the suite lacks.
fn settle(variant: &Variant, backend: &Backend, timeout: Duration, k: usize) -> Result<Settled, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let (encodings, mut all) = mutants::all(variant, &ctx);
    let (side, fault, mutant) = all.swap_remove(k);
    let original = match side {
        Side::Smt => &encodings.smt,
        Side::Concrete => &encodings.concrete,
    };
    let seen = on_defined(&ctx, original, &mutant);
    let sides = Sides {
        vars: &encodings.vars,
        constraint: None,
        output_names: &encodings.output_names,
        smt: &seen,
        concrete: original,
    };
    // Where the variant's proof is split (fns), so is this comparison.
    Ok(match compare_cases(backend, &mut ctx, &sides, &encodings.cases, timeout)? {
        Comparison::Equivalent => Settled::Equivalent,
        Comparison::Differ(cex) => {
            let inputs: Vec<String> = cex.inputs.iter().map(|(n, v)| format!("{n}={:#x}", v.unsigned())).collect();
            Settled::Missed(Missed { side, fault, reason: format!("no vector has an input like {}", inputs.join(" ")) })
        }
        Comparison::Unconfirmed(_) => Settled::Unsettled(Missed {
            side,
            fault,
            reason: "not settled: the solver's input did not check out".into(),
        }),
        Comparison::Unknown(why) => {
            Settled::Unsettled(Missed { side, fault, reason: format!("not settled: solver {why}") })
        }
    })
}
