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
//!   why the model may hold it in 6 bits.
//!
//! R(0) is proven of the start, and R(i) => R(i+1) over one iteration and
//! one step from *any* state (fresh variables), so that each query holds a
//! single step. By induction R(32) holds of the unrolled terms, which are
//! the same terms (the term context shares equal terms) as the literal
//! transcription's and the model's: the comparison is then asked with
//! "the direction's premise implies R(32)" beside it, a fact valid on
//! every input. Each fact is sound whatever terms it names; it only helps
//! where they are the comparison's own.

use std::time::Duration;

use easy_smt::{Context, SExpr};
use ptx_smt::{Backend, SatResult, SolverError, Sym, SymBv, Var};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::{Inputs, Variant};
use ptx_spec::family::bit_count::{fns_scans, FnsMagnitude, Scan};

use super::blocks::{FnsLoop, FnsOperands};
use super::{CInt, C};

/// The iterations fns's loop can run: pos moves by one inside 0..31.
const ITERATIONS: u32 = 32;

/// One proof obligation: unsatisfiable when it holds.
struct Obligation {
    what: String,
    /// Variables beyond the variant's inputs (a fresh state).
    fresh: Vec<Var>,
    query: SExpr,
}

/// Facts about `ins`'s terms that the literal comparison of `variant` may
/// assume, each proven here on every input: `Ok(Ok(facts))`, empty for a
/// variant with no lockstep proof; `Ok(Err(reason))` where an obligation is
/// not proven.
pub fn facts(
    backend: &Backend,
    ctx: &mut Context,
    variant: &Variant,
    vars: &[Var],
    ins: &[SymBv],
    timeout: Duration,
) -> Result<Result<Vec<SExpr>, String>, SolverError> {
    if *variant != Variant::BitCount(BitCount::Fns) {
        return Ok(Ok(Vec::new()));
    }
    let (obligations, facts) = {
        let sym = Sym::new(ctx);
        let operands = variant.inputs();
        let named = Inputs::new(&operands, ins);
        let mut obligations = Vec::new();
        let mut facts = Vec::new();
        let scans = fns_scans(&sym, FnsMagnitude::Exact, named.get("mask"), named.get("base"), named.get("offset"));
        for (upward, bits) in [(true, scans.upward), (false, scans.downward)] {
            let (o, fact) = fns_direction(&sym, &named, upward, bits, scans.skip);
            obligations.extend(o);
            facts.push(fact);
        }
        (obligations, facts)
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

/// The obligations of one direction, and the fact they prove: the loop
/// against the model's scan of `bits` (bit t is the t-th position from
/// base in that direction), starting with `skip` set bits to pass over.
fn fns_direction(sym: &Sym, ins: &Inputs<SymBv>, upward: bool, bits: SymBv, skip: SymBv) -> (Vec<Obligation>, SExpr) {
    let alg = sym;
    let (base, offset) = (ins.get("base"), ins.get("offset"));
    let direction = if upward { "offset > 0" } else { "offset < 0" };
    let zero = alg.constant(32, 0);
    let sign = if upward { alg.bvsgt(offset, zero) } else { alg.bvslt(offset, zero) };
    // base > 31 leaves the model undefined: the comparison never asks there.
    let premise = alg.and(sign, alg.bvule(base, alg.constant(32, 31)));
    let none = alg.constant(32, 0xffff_ffff);
    let relation = |i: u32, l: FnsLoop<Sym>, m: Scan<Sym>| -> SExpr {
        let k = |x: u32| alg.constant(32, u128::from(x));
        let (pos, reach, answer) = if upward {
            (alg.bvadd(base, k(i)), alg.bvsub(k(32), base), alg.bvadd(base, m.at))
        } else {
            (alg.bvsub(base, k(i)), alg.bvadd(base, k(1)), alg.bvsub(base, m.at))
        };
        let implies = |a: SExpr, b: SExpr| alg.or(alg.not(a), b);
        let scanning = alg.and(alg.not(m.found), alg.bvule(k(i), reach));
        let left = k(ITERATIONS - i);
        let counts_agree = alg.eq(alg.umin(l.count.bits, left), alg.umin(alg.zero_extend(26, m.to_skip), left));
        [
            alg.not(alg.bool_xor(l.running, scanning)),
            implies(l.running, alg.eq(l.pos.bits, pos)),
            alg.eq(l.d.bits, alg.ite(m.found, answer, none)),
            implies(l.running, counts_agree),
        ]
        .into_iter()
        .fold(alg.bool_constant(true), |x, y| alg.and(x, y))
    };
    let c = &mut C::new(alg);
    let operands = FnsOperands::read(c, ins);
    let mask = operands.mask;
    let (start, inc) = FnsLoop::start(c, operands);
    let first = Scan::start(alg, skip);
    let mut obligations = vec![Obligation {
        what: format!("{direction}, the start"),
        fresh: Vec::new(),
        query: alg.and(premise, alg.not(relation(0, start, first))),
    }];
    // One iteration from any state: the state's variables are fresh.
    let name = |v: &str| format!("lockstep_{v}");
    let flag = |v: &str| alg.is_set(alg.bit(alg.var(&name(v), 1), 0));
    let word = |v: &str, w: u32| alg.var(&name(v), w);
    let any_loop = FnsLoop {
        running: flag("running"),
        pos: CInt { bits: word("pos", 32), ty: start.pos.ty },
        count: CInt { bits: word("count", 32), ty: start.count.ty },
        d: CInt { bits: word("d", 32), ty: start.d.ty },
    };
    let any_scan = Scan { found: flag("found"), at: word("at", 32), to_skip: word("to_skip", 6) };
    let fresh: Vec<Var> =
        [("running", 1), ("pos", 32), ("count", 32), ("d", 32), ("found", 1), ("at", 32), ("to_skip", 6)]
            .into_iter()
            .map(|(v, width)| Var { name: name(v), width })
            .collect();
    let (mut l, mut m) = (start, first);
    for i in 0..ITERATIONS {
        let before = relation(i, any_loop, any_scan);
        let after = relation(i + 1, any_loop.iteration(c, mask, inc), any_scan.step(alg, bits, i));
        obligations.push(Obligation {
            what: format!("{direction}, iteration {i}"),
            fresh: fresh.clone(),
            query: alg.and(alg.and(premise, before), alg.not(after)),
        });
        l = l.iteration(c, mask, inc);
        m = m.step(alg, bits, i);
    }
    let fact = alg.or(alg.not(premise), relation(ITERATIONS, l, m));
    (obligations, fact)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obligations of `fns.b32` in one direction against `bits` chosen
    /// from the model's scans, proven with the embedded solver.
    fn prove_direction(upward: bool, wrong_bits: bool) -> Result<(), String> {
        let backend = Backend::Embedded;
        let timeout = Duration::from_secs(60);
        let variant = Variant::from_mnemonic("fns.b32").unwrap();
        let mut ctx = backend.context(timeout).unwrap();
        let vars: Vec<Var> =
            variant.inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
        let obligations = {
            let sym = Sym::new(&ctx);
            let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
            let operands = variant.inputs();
            let named = Inputs::new(&operands, &ins);
            let scans = fns_scans(&sym, FnsMagnitude::Exact, ins[0], ins[1], ins[2]);
            let bits = if upward != wrong_bits { scans.upward } else { scans.downward };
            fns_direction(&sym, &named, upward, bits, scans.skip).0
        };
        prove(&backend, &mut ctx, &vars, obligations, timeout).unwrap()
    }

    #[test]
    fn the_loop_keeps_step_with_the_scan_in_both_directions() {
        assert_eq!(prove_direction(true, false), Ok(()));
        assert_eq!(prove_direction(false, false), Ok(()));
    }

    // Against the scan of the other direction the relation breaks at the
    // first iteration that reads a bit other than base's: the proof can fail.
    #[test]
    fn the_scan_of_the_other_direction_is_caught() {
        let reason = prove_direction(true, true).unwrap_err();
        assert_eq!(reason, "lockstep proof, offset > 0, iteration 1: not proven, a state breaks it");
    }
}
