//! fns's literal loop proven against the model's scan in lockstep.
//!
//! Asked as one query, "is there an input where fns's literal result
//! differs from the model's" makes the solver relate the loop's 32-bit
//! `count` to the model's 6-bit `to_skip` across 32 unrolled iterations.
//! Z3 does not settle that within its limit, and splitting the inputs does
//! not help: with base fixed, and even with |offset| fixed, the query stays
//! hard, because the difficulty is the correlation of the two counters, not
//! the number of inputs.
//!
//! So the comparison is proven by induction over the iterations, for each
//! direction of the search. A relation R(i) ties the loop's variables
//! before iteration i to the model's scan after i steps
//! ([`ptx_spec::family::bit_count::Scan`]):
//! - the loop is running exactly while the scan has found nothing and i is
//!   at most the number of positions from base to the end of the word;
//! - while it runs, pos is base + i (upward) or base - i (downward);
//! - d is the answer the model would give from the scan so far;
//! - while it runs, count and to_skip agree up to the positions left:
//!   min(count, 32 - i) = min(to_skip, 32 - i). A count that no remaining
//!   position can bring to 0 is as good as any other such count, which is
//!   why the model may hold it in 6 bits;
//! - no input the loop still runs on has left it by `break`.
//!
//! The loop is the block's own, read from the text: the reading gives its
//! state between passes ([`Transcription::passes`]), and runs one pass from
//! any state it is handed. R(0) is proven of the start, and R(i) => R(i+1)
//! over one pass and one step from *any* state (fresh variables), so that
//! each query holds a single step. By induction R holds of the state after
//! the last pass unrolled, whose terms are the same terms (the term context
//! shares equal terms) as the literal reading's and the model's: the
//! comparison is then asked with "the direction's premise implies R" of
//! them beside it, a fact valid on every input. The induction holds of the
//! real passes only where one pass is a function of the state the reading
//! keeps, so the reading gives states only for a loop of that shape: a
//! `while` whose body stores only whole variables set before it, with no
//! `return` and no loop inside (`follows_state` in `parsed.rs`); any other
//! loop, and a block edited so that R no longer holds, leaves the
//! comparison unsettled, saying why.

use std::collections::BTreeMap;
use std::time::Duration;

use easy_smt::{Context, SExpr};
use ptx_smt::{Backend, SatResult, SolverError, Sym, SymBv, Var};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::{Inputs, Variant};
use ptx_spec::family::bit_count::{fns_scans, FnsMagnitude, Scan};

use super::table::{PassState, Transcription};
use super::{CInt, C};

/// The positions fns's scan reads: pos moves by one inside 0..31.
const POSITIONS: u32 = 32;

/// One proof obligation: unsatisfiable when it holds.
struct Obligation {
    what: String,
    /// Variables beyond the variant's inputs (a fresh state).
    fresh: Vec<Var>,
    query: SExpr,
}

/// Facts about the terms of `reading`'s literal result of `variant` on
/// `ins` that the comparison with the model may assume, each proven here
/// on every input: `Ok(Ok(facts))`, empty for a variant with no lockstep
/// proof; `Ok(Err(reason))` where an obligation is not proven. The reading
/// is run as the comparison runs it (`signed_bit_types`), so that the
/// facts name its terms.
pub fn facts<T: Transcription>(
    backend: &Backend,
    ctx: &mut Context,
    (variant, reading, signed_bit_types): (&Variant, &T, bool),
    vars: &[Var],
    ins: &[SymBv],
    timeout: Duration,
) -> Result<Result<Vec<SExpr>, String>, SolverError> {
    if *variant != Variant::BitCount(BitCount::Fns) {
        return Ok(Ok(Vec::new()));
    }
    let built = {
        let sym = Sym::new(ctx);
        LoopPasses::of(&sym, reading, variant, ins, signed_bit_types).map(|passes| {
            let operands = variant.inputs();
            let named = Inputs::new(&operands, ins);
            let mut obligations = Vec::new();
            let mut facts = Vec::new();
            let scans = fns_scans(&sym, FnsMagnitude::Exact, named.get("mask"), named.get("base"), named.get("offset"));
            for (upward, bits) in [(true, scans.upward), (false, scans.downward)] {
                let (o, fact) = fns_direction(&sym, &named, &passes, upward, bits, scans.skip);
                obligations.extend(o);
                facts.push(fact);
            }
            (obligations, facts)
        })
    };
    let (obligations, facts) = match built {
        Ok(built) => built,
        Err(reason) => return Ok(Err(reason)),
    };
    match prove(backend, ctx, vars, obligations, timeout)? {
        Ok(()) => Ok(Ok(facts)),
        Err(reason) => Ok(Err(reason)),
    }
}

/// Every obligation proven, or why one is not.
fn prove(
    backend: &Backend,
    ctx: &mut Context,
    vars: &[Var],
    obligations: Vec<Obligation>,
    timeout: Duration,
) -> Result<Result<(), String>, SolverError> {
    for o in obligations {
        let all: Vec<Var> = vars.iter().cloned().chain(o.fresh).collect();
        let unproven = match backend.check(ctx, &all, &[o.query], timeout)? {
            SatResult::Unsat => continue,
            SatResult::Sat(_) => "a state breaks it".to_string(),
            SatResult::Unknown(reason) => format!("solver unknown ({reason})"),
        };
        return Ok(Err(format!("lockstep proof, {}: not proven, {unproven}", o.what)));
    }
    Ok(Ok(()))
}

/// The block's loop as the reading runs it: its state before each pass
/// and after the last, a state of fresh variables, and the state one pass
/// takes that one to.
struct LoopPasses<'c> {
    states: Vec<PassState<Sym<'c>>>,
    any: PassState<Sym<'c>>,
    next: PassState<Sym<'c>>,
    fresh: Vec<Var>,
}

impl<'c> LoopPasses<'c> {
    fn of<T: Transcription>(
        sym: &Sym<'c>,
        reading: &T,
        variant: &Variant,
        ins: &[SymBv],
        signed_bit_types: bool,
    ) -> Result<LoopPasses<'c>, String> {
        let context = |sym| if signed_bit_types { C::with_signed_bit_types(sym) } else { C::new(sym) };
        let no_loop = || {
            format!(
                "lockstep proof: {variant}'s block has no loop the induction follows (a `while` whose body stores \
                 only pos, count and d, set before it, with no `return` and no loop inside)"
            )
        };
        let states = reading.passes(&mut context(sym), variant, ins, None).ok_or_else(no_loop)?;
        let first = states.first().ok_or_else(no_loop)?;
        if ["pos", "count", "d"].iter().any(|v| !first.vars.contains_key(*v)) {
            return Err(no_loop());
        }
        let flag = |name: &str| sym.is_set(sym.bit(sym.var(name, 1), 0));
        let mut fresh =
            vec![Var { name: "lockstep_live".into(), width: 1 }, Var { name: "lockstep_left".into(), width: 1 }];
        let mut vars = BTreeMap::new();
        for (name, value) in &first.vars {
            let var = Var { name: format!("lockstep_var_{name}"), width: sym.width(value.bits) };
            vars.insert(name.clone(), CInt { bits: sym.var(&var.name, var.width), ty: value.ty });
            fresh.push(var);
        }
        let any = PassState { live: flag("lockstep_live"), left: flag("lockstep_left"), vars };
        let after = reading.passes(&mut context(sym), variant, ins, Some(any.clone()));
        let next = after.and_then(|s| s.get(1).cloned()).ok_or_else(no_loop)?;
        Ok(LoopPasses { states, any, next, fresh })
    }
}

/// The obligations of one direction, and the fact they prove: the loop
/// against the model's scan of `bits` (bit t is the t-th position from
/// base in that direction), starting with `skip` set bits to pass over.
fn fns_direction<'c>(
    sym: &Sym<'c>,
    ins: &Inputs<SymBv>,
    passes: &LoopPasses<'c>,
    upward: bool,
    bits: SymBv,
    skip: SymBv,
) -> (Vec<Obligation>, SExpr) {
    let alg = sym;
    let (base, offset) = (ins.get("base"), ins.get("offset"));
    let direction = if upward { "offset > 0" } else { "offset < 0" };
    let zero = alg.constant(32, 0);
    let sign = if upward { alg.bvsgt(offset, zero) } else { alg.bvslt(offset, zero) };
    // base > 31 leaves the model undefined: the comparison never asks there.
    let premise = alg.and(sign, alg.bvule(base, alg.constant(32, 31)));
    let none = alg.constant(32, 0xffff_ffff);
    let relation = |i: u32, l: &PassState<Sym<'c>>, m: Scan<Sym<'c>>| -> SExpr {
        let k = |x: u32| alg.constant(32, u128::from(x));
        // `LoopPasses::of` made sure the loop stores these.
        let var = |name: &str| l.vars[name].bits;
        let (pos, reach, answer) = if upward {
            (alg.bvadd(base, k(i)), alg.bvsub(k(POSITIONS), base), alg.bvadd(base, m.at))
        } else {
            (alg.bvsub(base, k(i)), alg.bvadd(base, k(1)), alg.bvsub(base, m.at))
        };
        let implies = |a: SExpr, b: SExpr| alg.or(alg.not(a), b);
        let scanning = alg.and(alg.not(m.found), alg.bvule(k(i), reach));
        // At count's own width: a block may widen it (`|(long long)offset|`).
        let count = var("count");
        let w = alg.width(count).max(6);
        let left = alg.constant(w, u128::from(POSITIONS.saturating_sub(i)));
        let count = alg.zero_extend(w - alg.width(count), count);
        let counts_agree = alg.eq(alg.umin(count, left), alg.umin(alg.zero_extend(w - 6, m.to_skip), left));
        [
            alg.not(alg.bool_xor(l.live, scanning)),
            implies(l.live, alg.not(l.left)),
            implies(l.live, alg.eq(var("pos"), pos)),
            alg.eq(var("d"), alg.ite(m.found, answer, none)),
            implies(l.live, counts_agree),
        ]
        .into_iter()
        .fold(alg.bool_constant(true), |x, y| alg.and(x, y))
    };
    let start = Scan::start(alg, skip);
    let mut obligations = vec![Obligation {
        what: format!("{direction}, the start"),
        fresh: Vec::new(),
        query: alg.and(premise, alg.not(relation(0, &passes.states[0], start))),
    }];
    // One pass from any state: the state's variables are fresh. The scan
    // reads its 32 positions in the first 32 passes; the loop's test ends
    // it in those, so that later passes change nothing.
    let flag = |v: &str| alg.is_set(alg.bit(alg.var(&format!("lockstep_scan_{v}"), 1), 0));
    let word = |v: &str, w: u32| alg.var(&format!("lockstep_scan_{v}"), w);
    let any_scan = Scan { found: flag("found"), at: word("at", 32), to_skip: word("to_skip", 6) };
    let step = |m: Scan<Sym<'c>>, i: u32| if i < POSITIONS { m.step(alg, bits, i) } else { m };
    let scan_vars =
        [("found", 1), ("at", 32), ("to_skip", 6)].map(|(v, width)| Var { name: format!("lockstep_scan_{v}"), width });
    let fresh: Vec<Var> = passes.fresh.iter().cloned().chain(scan_vars).collect();
    let mut m = start;
    let last = passes.states.len() as u32 - 1;
    for i in 0..last {
        let before = relation(i, &passes.any, any_scan);
        let after = relation(i + 1, &passes.next, step(any_scan, i));
        obligations.push(Obligation {
            what: format!("{direction}, pass {i}"),
            fresh: fresh.clone(),
            query: alg.and(alg.and(premise, before), alg.not(after)),
        });
        m = step(m, i);
    }
    let fact = alg.or(alg.not(premise), relation(last, &passes.states[last as usize], m));
    (obligations, fact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::literal::parsed::ParsedReading;
    use crate::audit::text::document;

    /// The obligations of the seeds' `fns.b32` in one direction against
    /// `bits` chosen from the model's scans, proven with the embedded
    /// solver; `None` without the spec text.
    fn prove_direction(upward: bool, wrong_bits: bool) -> Option<Result<(), String>> {
        let seeds = crate::testing::spec_text("lockstep")?;
        let doc = document::read(&[seeds]).unwrap();
        let variant = Variant::from_mnemonic("fns.b32").unwrap();
        let reading = ParsedReading::of(&doc, &[variant]).unwrap();
        let backend = Backend::Embedded;
        let timeout = Duration::from_secs(60);
        let mut ctx = backend.context(timeout).unwrap();
        let vars: Vec<Var> =
            variant.inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
        let obligations = {
            let sym = Sym::new(&ctx);
            let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
            let operands = variant.inputs();
            let named = Inputs::new(&operands, &ins);
            let passes = LoopPasses::of(&sym, &reading, &variant, &ins, false).unwrap();
            let scans = fns_scans(&sym, FnsMagnitude::Exact, ins[0], ins[1], ins[2]);
            let bits = if upward != wrong_bits { scans.upward } else { scans.downward };
            fns_direction(&sym, &named, &passes, upward, bits, scans.skip).0
        };
        Some(prove(&backend, &mut ctx, &vars, obligations, timeout).unwrap())
    }

    #[test]
    fn the_texts_loop_keeps_step_with_the_scan_in_both_directions() {
        let (Some(up), Some(down)) = (prove_direction(true, false), prove_direction(false, false)) else { return };
        assert_eq!(up, Ok(()));
        assert_eq!(down, Ok(()));
    }

    // Against the scan of the other direction the relation breaks at the
    // first pass that reads a bit other than base's: the proof can fail.
    #[test]
    fn the_scan_of_the_other_direction_is_caught() {
        let Some(reason) = prove_direction(true, true) else { return };
        assert_eq!(reason.unwrap_err(), "lockstep proof, offset > 0, pass 1: not proven, a state breaks it");
    }
}
