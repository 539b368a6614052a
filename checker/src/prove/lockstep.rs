//! fns's proof by induction over the steps of its walk.
//!
//! fns's encoding walks from base one position per step, 32 steps in each
//! direction; the model finds the (|offset|)-th set bit with a scan of the
//! same bits ([`ptx_spec::family::bit_count::Scan`]). Asked whole, the
//! solver must relate the two 6-bit counters across 32 unrolled steps, so
//! the proof was split into 66 cases (one per base and sign of offset), the
//! largest part of `prove all`'s time.
//!
//! Here the two are related step by step instead. A relation R(t) ties the
//! walk's state before step t to the scan's state after t steps:
//! - the walk's count and the scan's set bits to skip are equal;
//! - the walk's d is what the model answers from the scan so far (base +/-
//!   the index found, or 0xffffffff);
//! - the walk has stopped once the scan has found its bit;
//! - a walk stopped with nothing found has left the word: step t's position
//!   is out of range (so that, as the scan reads only 0s past the end, it
//!   finds nothing more either).
//!
//! R(0) is proven of the start, and R(t) => R(t+1) over one step from *any*
//! state (fresh variables), each a small query. By induction R(32) holds of
//! the unrolled terms, which are the encoding's and the model's own (the
//! term context shares equal terms). The comparison is then asked once,
//! with "the direction's premise implies R(32)" for both directions as its
//! constraint: a fact valid on every input, so the constraint leaves no
//! input out, and the proof stays complete.
//!
//! Where an obligation is not proven (an encoding changed so that R no
//! longer fits), the proof falls back to the variant's cases.

use std::time::Duration;

use easy_smt::{Context, SExpr};
use ptx_smt::encode::bit_count::{FnsWalk, FnsWalks};
use ptx_smt::{encode, Backend, SatResult, SolverError, Sym, SymBv, Var};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::Variant;
use ptx_spec::family::bit_count::{fns_scans, FnsMagnitude, Scan};
use ptx_spec::hardware::Model;

use super::{prove_case, Encodings, Verdict};

/// The steps of each walk: pos moves by one inside 0..31.
const STEPS: u32 = 32;

/// Whether `variant`'s proof is by induction: fns in the spec's model, with
/// the embedded Z3 (a solver process keeps the cases, whose times are
/// measured; the sm_90 model changes fns's concrete side).
pub(super) fn applies(model: Model, variant: &Variant, backend: &Backend) -> bool {
    model == Model::Spec && *variant == Variant::BitCount(BitCount::Fns) && *backend == Backend::Embedded
}

/// One proof obligation: unsatisfiable when it holds.
struct Obligation {
    what: String,
    query: SExpr,
}

/// fns's encoding proven against its model by induction: `Ok(Ok(v))` with
/// the comparison's verdict, `Ok(Err(what))` where an obligation is not
/// proven (not a verdict on the variant: its cases decide it).
pub(super) fn prove(
    variant: &Variant,
    backend: &Backend,
    timeout: Duration,
) -> Result<Result<Verdict, String>, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let smt = |sym: &Sym, ins: &[SymBv]| encode::encode_in(Model::Spec, variant, sym, ins);
    let encodings = Encodings::build_split_in(Model::Spec, variant, &ctx, smt, |_, _| Vec::new());
    let (obligations, fact, fresh) = obligations(&ctx, &encodings.vars);
    let all: Vec<Var> = encodings.vars.iter().cloned().chain(fresh).collect();
    for o in obligations {
        if backend.check(&mut ctx, &all, &[o.query], timeout)? != SatResult::Unsat {
            return Ok(Err(format!("the induction's {} is not proven", o.what)));
        }
    }
    Ok(Ok(prove_case(Model::Spec, variant, backend, &mut ctx, &encodings, Some(fact), timeout)?))
}

/// The obligations of both directions, the fact they prove, and the fresh
/// state variables the steps are asked over.
fn obligations(ctx: &Context, vars: &[Var]) -> (Vec<Obligation>, SExpr, Vec<Var>) {
    let sym = Sym::new(ctx);
    let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
    let [mask, base, offset] = [0, 1, 2].map(|k| ins[k]);
    let walks = FnsWalks::of(&sym, mask, base, offset);
    let scans = fns_scans(&sym, FnsMagnitude::Exact, mask, base, offset);
    let fresh = State::fresh(&sym);
    let mut obligations = Vec::new();
    let mut facts = Vec::new();
    for (up, walked, scanned) in [(true, walks.upward, scans.upward), (false, walks.downward, scans.downward)] {
        let d = Direction { sym: &sym, base, offset, up, walked, scanned };
        let start = (FnsWalk::start(&sym, walks.count), Scan::start(&sym, scans.skip));
        let (o, fact) = d.obligations(start, &fresh);
        obligations.extend(o);
        facts.push(fact);
    }
    let vars = fresh.vars();
    (obligations, sym.and(facts[0], facts[1]), vars)
}

/// A state of both sides from fresh variables: "any state".
struct State<'a> {
    walk: FnsWalk<Sym<'a>>,
    scan: Scan<Sym<'a>>,
}

/// The fresh variables' names and widths.
const FRESH: [(&str, u32); 6] = [("count", 6), ("d", 32), ("done", 1), ("found", 1), ("at", 32), ("to_skip", 6)];

impl<'a> State<'a> {
    fn name(v: &str) -> String {
        format!("lockstep_{v}")
    }

    fn fresh(sym: &Sym<'a>) -> State<'a> {
        let word = |v: &str, w: u32| sym.var(&Self::name(v), w);
        let flag = |v: &str| sym.is_set(sym.bit(word(v, 1), 0));
        State {
            walk: FnsWalk { count: word("count", 6), d: word("d", 32), done: flag("done") },
            scan: Scan { found: flag("found"), at: word("at", 32), to_skip: word("to_skip", 6) },
        }
    }

    fn vars(&self) -> Vec<Var> {
        FRESH.iter().map(|(v, width)| Var { name: Self::name(v), width: *width }).collect()
    }
}

/// One direction of the walk: upward for offset > 0, downward for < 0.
struct Direction<'a> {
    sym: &'a Sym<'a>,
    base: SymBv,
    offset: SymBv,
    up: bool,
    /// The bits the walk reads (bit t: the t-th position from base) ...
    walked: SymBv,
    /// ... and the same bits as the model's scan computes them.
    scanned: SymBv,
}

impl<'a> Direction<'a> {
    /// The inputs this direction answers for: offset of its sign, and base
    /// in range (base > 31 leaves the model undefined: never compared).
    fn premise(&self) -> SExpr {
        let sym = self.sym;
        let zero = sym.constant(32, 0);
        let sign = if self.up { sym.bvsgt(self.offset, zero) } else { sym.bvslt(self.offset, zero) };
        sym.and(sign, sym.bvule(self.base, sym.constant(32, 31)))
    }

    /// R(t): the walk before step t against the scan after t steps.
    fn relation(&self, t: u32, w: FnsWalk<Sym<'a>>, m: Scan<Sym<'a>>) -> SExpr {
        let sym = self.sym;
        let answer = if self.up { sym.bvadd(self.base, m.at) } else { sym.bvsub(self.base, m.at) };
        let none = sym.constant(32, 0xffff_ffff);
        let out_of_range =
            if t < STEPS { sym.not(FnsWalk::in_range(sym, self.base, self.up, t)) } else { sym.bool_constant(true) };
        let implies = |a: SExpr, b: SExpr| sym.or(sym.not(a), b);
        [
            sym.eq(w.count, m.to_skip),
            sym.eq(w.d, sym.ite(m.found, answer, none)),
            implies(m.found, w.done),
            implies(sym.and(w.done, sym.not(m.found)), out_of_range),
        ]
        .into_iter()
        .fold(sym.bool_constant(true), |x, y| sym.and(x, y))
    }

    /// The start and one step from any state, as obligations, and the fact
    /// they prove of the unrolled terms.
    fn obligations(&self, start: (FnsWalk<Sym<'a>>, Scan<Sym<'a>>), any: &State<'a>) -> (Vec<Obligation>, SExpr) {
        let sym = self.sym;
        let premise = self.premise();
        let direction = if self.up { "offset > 0" } else { "offset < 0" };
        let (mut w, mut m) = start;
        let mut obligations = vec![Obligation {
            what: format!("{direction}, the start"),
            query: sym.and(premise, sym.not(self.relation(0, w, m))),
        }];
        for t in 0..STEPS {
            let before = self.relation(t, any.walk, any.scan);
            let after = self.relation(
                t + 1,
                any.walk.step(sym, self.walked, self.base, self.up, t),
                any.scan.step(sym, self.scanned, t),
            );
            obligations.push(Obligation {
                what: format!("{direction}, step {t}"),
                query: sym.and(sym.and(premise, before), sym.not(after)),
            });
            w = w.step(sym, self.walked, self.base, self.up, t);
            m = m.step(sym, self.scanned, t);
        }
        (obligations, sym.or(sym.not(premise), self.relation(STEPS, w, m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fns() -> Variant {
        Variant::BitCount(BitCount::Fns)
    }

    const TIMEOUT: Duration = Duration::from_secs(60);

    /// The proof goes by induction, not by the cases it falls back to.
    #[test]
    fn fns_is_proven_by_induction() {
        assert_eq!(prove(&fns(), &Backend::Embedded, TIMEOUT).unwrap(), Ok(Verdict::Proven));
    }

    /// The first obligation of one direction that a state breaks, with the
    /// walk reading the bits of the direction `walked_up` and the scan
    /// those of `scanned_up`.
    fn first_broken(walked_up: bool, scanned_up: bool) -> Option<String> {
        let backend = Backend::Embedded;
        let mut ctx = backend.context(TIMEOUT).unwrap();
        let vars: Vec<Var> =
            fns().inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
        let (obligations, fresh) = {
            let sym = Sym::new(&ctx);
            let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
            let walks = FnsWalks::of(&sym, ins[0], ins[1], ins[2]);
            let scans = fns_scans(&sym, FnsMagnitude::Exact, ins[0], ins[1], ins[2]);
            let pick = |up: bool, a: SymBv, b: SymBv| if up { a } else { b };
            let d = Direction {
                sym: &sym,
                base: ins[1],
                offset: ins[2],
                up: true,
                walked: pick(walked_up, walks.upward, walks.downward),
                scanned: pick(scanned_up, scans.upward, scans.downward),
            };
            let any = State::fresh(&sym);
            let start = (FnsWalk::start(&sym, walks.count), Scan::start(&sym, scans.skip));
            (d.obligations(start, &any).0, any.vars())
        };
        let all: Vec<Var> = vars.into_iter().chain(fresh).collect();
        obligations
            .into_iter()
            .find(|o| backend.check(&mut ctx, &all, &[o.query], TIMEOUT).unwrap() != SatResult::Unsat)
            .map(|o| o.what)
    }

    #[test]
    fn the_walk_keeps_step_with_the_scan() {
        assert_eq!(first_broken(true, true), None);
    }

    // Either side reading the other direction's bits breaks the relation at
    // the first step that reads a bit other than base's: the proof can fail.
    #[test]
    fn a_side_reading_the_wrong_bits_is_caught() {
        assert_eq!(first_broken(true, false).as_deref(), Some("offset > 0, step 1"));
        assert_eq!(first_broken(false, true).as_deref(), Some("offset > 0, step 1"));
    }
}
