//! The model's case boundaries, found by the solver, as inputs for the
//! hardware.
//!
//! A vendor that puts a limit one off (saturating at MAX - 1, clamping a
//! length at the width + 1) agrees with the model almost everywhere, and a
//! uniform sample almost never lands on the one input that shows it. So for
//! every condition the model's encoding branches on (each `ite`'s test, and
//! each output's definedness) and every operand, the solver is asked for
//! an input at which the condition changes when that operand steps up by
//! one; the least such input is taken, so the set is the same on every run.
//! Each is confirmed by evaluating the condition concretely on both sides
//! of the step. The hardware (and ptxas's constant folder) gets the two
//! values of that operand on either side of the step, the others held.
//!
//! Both models are searched (sm_90's rules add boundaries of their own);
//! the variants that act on the whole warp are left to their own grid.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use easy_smt::{Context, SExpr, SExprData};
use ptx_smt::encode::encode_in;
use ptx_smt::eval::{EvalError, Evaluator};
use ptx_smt::solver::{Backend, Goals, SatResult, SolverError, Var};
use ptx_smt::term::{display_bounded, Sym, SymBv};
use ptx_spec::bv::{mask, Algebra, BitVec};
use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;
use rayon::prelude::*;

use super::fold::Instance;
use crate::prove::{least_in, minimise};

/// One boundary: where `condition` changes as `operand` steps from its
/// value in `input` to one more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boundary {
    pub variant: Variant,
    /// The condition, as SMT-LIB text (cut short where it is long).
    pub condition: String,
    /// The operand that steps, by its position in [`Variant::inputs`].
    pub operand: usize,
    /// The last input before the step (the least one, in operand order).
    pub input: Vec<u128>,
}

impl Boundary {
    /// The inputs the hardware gets, each with where it lies: the operand
    /// two below, one below (the last value before the condition changes),
    /// at and one past the first value after it, where each is in range.
    pub fn inputs(&self) -> Vec<(Vec<u128>, &'static str)> {
        let top = mask(self.variant.inputs()[self.operand].ty.width());
        let x = self.input[self.operand];
        let mut out = Vec::new();
        for (step, place) in [(-1i128, "2 before"), (0, "before"), (1, "after"), (2, "2 after")] {
            let v = x as i128 + step;
            if (0..=top as i128).contains(&v) {
                let mut input = self.input.clone();
                input[self.operand] = v as u128;
                out.push((input, place));
            }
        }
        out
    }
}

/// Every condition the encodings of `variant` in either model branch on:
/// each `ite`'s test and each output's definedness that is not a constant,
/// once each, in the order first met.
fn conditions(ctx: &Context, sym: &Sym, variant: &Variant, ins: &[SymBv]) -> Vec<SExpr> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let mut visited = HashSet::new();
    for model in Model::ALL {
        let outputs = encode_in(model, variant, sym, ins);
        let mut stack: Vec<SExpr> = Vec::new();
        for o in outputs.iter().rev() {
            stack.push(o.value.term);
            stack.push(o.defined);
            if ctx.get_atom(o.defined).is_none() && seen.insert(o.defined) {
                found.push(o.defined);
            }
        }
        while let Some(e) = stack.pop() {
            if !visited.insert(e) {
                continue;
            }
            if let SExprData::List(items) = ctx.get(e) {
                if items.len() == 4 && ctx.get_atom(items[0]) == Some("ite") {
                    let c = items[1];
                    if ctx.get_atom(c).is_none() && seen.insert(c) {
                        found.push(c);
                    }
                }
                stack.extend(items.iter().rev());
            }
        }
    }
    found
}

/// `e` with the atom `name` replaced by `by` everywhere.
fn substitute(ctx: &Context, e: SExpr, name: &str, by: SExpr, memo: &mut HashMap<SExpr, SExpr>) -> SExpr {
    if let Some(&done) = memo.get(&e) {
        return done;
    }
    let out = match ctx.get(e) {
        SExprData::Atom(a) if a == name => by,
        SExprData::List(items) => {
            let items = items.to_vec();
            let new: Vec<SExpr> = items.iter().map(|&i| substitute(ctx, i, name, by, memo)).collect();
            if new == items {
                e
            } else {
                ctx.list(new)
            }
        }
        _ => e,
    };
    memo.insert(e, out);
    out
}

/// A search's goal: `condition` changes as operand `operand` steps up by
/// one (`goal`, over the variant's inputs).
struct Goal {
    condition: SExpr,
    operand: usize,
    /// The step read unsigned: from any value but the top one.
    unsigned: SExpr,
    /// The step read signed: from any value but the signed maximum. Asked
    /// only where the unsigned step's least input is that maximum, where
    /// the step wraps from the largest signed value to the smallest (a
    /// saturating add's lower limit lies elsewhere).
    signed: SExpr,
}

/// The variant's inputs as solver variables, and every goal, in `ctx`.
fn goals(ctx: &Context, variant: &Variant) -> (Vec<Var>, Vec<Goal>) {
    let vars: Vec<Var> =
        variant.inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
    let sym = Sym::new(ctx);
    let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
    let mut goals = Vec::new();
    for c in conditions(ctx, &sym, variant, &ins) {
        for (j, (v, &x)) in vars.iter().zip(&ins).enumerate() {
            let stepped = sym.bvadd(x, sym.constant(v.width, 1));
            let c_next = substitute(ctx, c, &v.name, stepped.term, &mut HashMap::new());
            if c_next == c {
                continue; // the condition does not read this operand
            }
            let changes = sym.not(ctx.eq(c, c_next));
            let below = |top: u128| sym.and(sym.not(sym.eq(x, sym.constant(v.width, top))), changes);
            goals.push(Goal {
                condition: c,
                operand: j,
                unsigned: below(mask(v.width)),
                signed: below(mask(v.width) >> 1),
            });
        }
    }
    (vars, goals)
}

/// The time limit of each query. Most take milliseconds; this only stops
/// a pathological one holding up a hardware run. `madc.hi.cc.s64`'s least
/// input on `a` took over 30 s on two loaded cores, and a search left open
/// changes what a fold record holds, so the limit leaves room for it.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    /// The boundaries, variant by variant in the order given, each
    /// variant's in the order its conditions are first met.
    pub found: Vec<Boundary>,
    /// Goals the solver left open within the time limit (no input comes of
    /// them; they are not a verdict on anything).
    pub open: usize,
}

/// Goals per task at most. A task's goals share one solver, which
/// bit-blasts the terms they share once (one operand's goals share its
/// stepped terms): `fns.b32`'s 391 goals took 16 s alone, 4.4 s in 16s,
/// 8.6 s in 32s.
const CHUNK: usize = 16;

/// Whether `goal` holds a multiplier. Such a goal gets a solver of its
/// own: `mad.hi.sat.s32`'s goals took 2.5 s one per solver, 19 s two or
/// more to one, each check paying for every multiplier in it.
fn multiplies(ctx: &Context, goal: SExpr) -> bool {
    let mut stack = vec![goal];
    let mut seen = HashSet::new();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match ctx.get(e) {
            SExprData::Atom("bvmul") => return true,
            SExprData::List(items) => stack.extend(items.iter().copied()),
            _ => {}
        }
    }
    false
}

/// The boundaries of `variants` (those acting on the whole warp are left
/// out): per condition and operand, the least input at which the condition
/// changes as the operand steps up by one, each confirmed by concrete
/// evaluation. The goals are spread over `pool`.
pub fn search(
    variants: &[Variant],
    backend: &Backend,
    timeout: Duration,
    pool: &rayon::ThreadPool,
) -> Result<Search, SolverError> {
    // Each task: the variant's place in `variants`, the variant, its goals.
    let mut tasks: Vec<(usize, Variant, Vec<usize>)> = Vec::new();
    for (n, v) in variants.iter().enumerate().filter(|(_, v)| !v.is_warp_wide()) {
        let ctx = backend.context(timeout)?;
        let goals = goals(&ctx, v).1;
        for j in 0..v.inputs().len() {
            let (alone, shared): (Vec<usize>, Vec<usize>) =
                (0..goals.len()).filter(|&i| goals[i].operand == j).partition(|&i| multiplies(&ctx, goals[i].unsigned));
            tasks.extend(alone.into_iter().map(|i| (n, *v, vec![i])));
            tasks.extend(shared.chunks(CHUNK).map(|c| (n, *v, c.to_vec())));
        }
    }
    let done: Vec<Solved> = pool.install(|| {
        tasks
            .par_iter()
            .map(|(_, variant, indices)| ptx_smt::solver::in_own_context(|| solve(variant, indices, backend, timeout)))
            .collect::<Result<_, _>>()
    })?;
    // Back in the order of the goals, variant by variant.
    let mut all: Vec<(usize, usize, Vec<Option<Boundary>>)> = Vec::new();
    for ((n, _, _), results) in tasks.iter().zip(done) {
        all.extend(results.into_iter().map(|(i, found)| (*n, i, found)));
    }
    all.sort_by_key(|(n, i, _)| (*n, *i));
    let all: Vec<Option<Boundary>> = all.into_iter().flat_map(|(_, _, found)| found).collect();
    let open = all.iter().filter(|b| b.is_none()).count();
    Ok(Search { found: all.into_iter().flatten().collect(), open })
}

/// Each goal's index, with the boundaries it gives: `None` where the solver
/// leaves one open (a goal that cannot hold gives nothing).
type Solved = Vec<(usize, Vec<Option<Boundary>>)>;

/// Goals `indices` of `variant`, solved.
fn solve(variant: &Variant, indices: &[usize], backend: &Backend, timeout: Duration) -> Result<Solved, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let (vars, all) = goals(&ctx, variant);
    let goals: Vec<&Goal> = indices.iter().map(|&i| &all[i]).collect();
    // Goal 2k is goals[k]'s unsigned step, 2k + 1 its signed one.
    let terms: Vec<SExpr> = goals.iter().flat_map(|g| [g.unsigned, g.signed]).collect();
    let shared = backend.goals(&ctx, &vars, &terms, timeout)?;
    let search = Least { backend, shared: shared.as_ref(), vars: &vars, variant, timeout };
    let mut out = Vec::new();
    for (k, (&i, g)) in indices.iter().zip(&goals).enumerate() {
        let found = search.least(&mut ctx, g, 2 * k, g.unsigned)?;
        let wraps = matches!(&found, Some(Some(b)) if b.input[g.operand] == mask(vars[g.operand].width) >> 1);
        let mut here = vec![found];
        if wraps {
            here.push(search.least(&mut ctx, g, 2 * k + 1, g.signed)?);
        }
        let mut mine = Vec::new();
        for found in here.into_iter().flatten() {
            let dense = found.as_ref().and_then(|b| dense(&ctx, &vars, g.condition, b));
            mine.push(found);
            mine.extend(dense.map(Some));
        }
        out.push((i, mine));
    }
    Ok(out)
}

/// How one task finds least inputs: in the goals' shared solver where the
/// back end keeps one, else a query and a minimisation of their own each.
struct Least<'a> {
    backend: &'a Backend,
    shared: Option<&'a Goals<'a>>,
    vars: &'a [Var],
    variant: &'a Variant,
    timeout: Duration,
}

impl Least<'_> {
    /// The least input meeting `goal` (one of `g`'s, number `index` in the
    /// shared solver), confirmed: `None` where there is none, `Some(None)`
    /// where the solver leaves it open.
    fn least(
        &self,
        ctx: &mut Context,
        g: &Goal,
        index: usize,
        goal: SExpr,
    ) -> Result<Option<Option<Boundary>>, SolverError> {
        let (vars, backend, timeout) = (self.vars, self.backend, self.timeout);
        let least = match self.shared {
            Some(shared) => {
                // The least input depends on the goal alone: the cache holds
                // it (or that there is none) under the goal's text.
                let cached = ptx_smt::cache::current().and_then(|cache| {
                    let text = format!("least input\n{}", ptx_smt::solver::script(ctx, vars, &[goal]));
                    Some((cache, ptx_smt::cache::Cache::key(&backend.identity()?, &text)))
                });
                let hit = cached.as_ref().and_then(|(cache, key)| cache.get(key, ctx, vars, &[goal]));
                let answer = match hit {
                    Some(hit) => hit,
                    None => {
                        let kept = shared.goal(index);
                        let answer = match kept.check(&[])? {
                            SatResult::Sat(model) => {
                                SatResult::Sat(least_in(backend, ctx, vars, kept, model, timeout)?)
                            }
                            other => other,
                        };
                        if let Some((cache, key)) = &cached {
                            cache.put(key, ctx, vars, &[goal], &answer);
                        }
                        answer
                    }
                };
                match answer {
                    SatResult::Sat(least) => least,
                    SatResult::Unsat => return Ok(None),
                    SatResult::Unknown(_) => return Ok(Some(None)),
                }
            }
            None => {
                let model = match backend.check(ctx, vars, &[goal], timeout)? {
                    SatResult::Sat(model) => model,
                    SatResult::Unsat => return Ok(None),
                    SatResult::Unknown(_) => return Ok(Some(None)),
                };
                minimise(backend, ctx, vars, goal, model, timeout, true)?
            }
        };
        let (c, j) = (g.condition, g.operand);
        let input: Vec<u128> = vars.iter().map(|v| least.get(&v.name).map_or(0, |b| b.unsigned())).collect();
        // Confirmed on the condition itself, evaluated on both sides.
        match step(ctx, vars, c, &input, j) {
            (Ok(before), Ok(after)) if before != after => {}
            (before, after) => {
                return Err(SolverError::Rejected {
                    solver: backend.to_string(),
                    message: format!(
                        "{}: its boundary of {} along {} at {input:x?} does not hold when evaluated ({before:?}, {after:?})",
                        self.variant,
                        display_bounded(ctx, c, 200),
                        vars[j].name
                    ),
                })
            }
        }
        Ok(Some(Some(Boundary { variant: *self.variant, condition: display_bounded(ctx, c, 160), operand: j, input })))
    }
}

/// The boundary with every other operand all ones, where the condition
/// still changes there (evaluated concretely). The least input holds the
/// others at 0, where many results are 0 whatever the rule: a shift that
/// wraps its amount at 32 shifts 0 to 0.
fn dense(ctx: &Context, vars: &[Var], condition: SExpr, b: &Boundary) -> Option<Boundary> {
    let mut input: Vec<u128> = vars.iter().map(|v| mask(v.width)).collect();
    input[b.operand] = b.input[b.operand];
    let (Ok(before), Ok(after)) = step(ctx, vars, condition, &input, b.operand) else { return None };
    (input != b.input && before != after).then(|| Boundary { input, ..b.clone() })
}

/// `condition` evaluated concretely at `input` and with operand `j` one
/// more.
fn step(
    ctx: &Context,
    vars: &[Var],
    condition: SExpr,
    input: &[u128],
    j: usize,
) -> (Result<bool, EvalError>, Result<bool, EvalError>) {
    let at = |values: &[u128]| {
        let env = vars.iter().zip(values).map(|(v, &x)| (v.name.clone(), BitVec::new(v.width, x))).collect();
        Evaluator::new(ctx, env).eval_bool(condition)
    };
    let mut next = input.to_vec();
    next[j] += 1;
    (at(input), at(&next))
}

/// How an instance of a case boundary names its origin, before the operand.
pub const ORIGIN: &str = "case boundary on";

/// The boundaries' inputs as instances (origin `case boundary on b:
/// after`), once each.
pub fn instances(boundaries: &[Boundary]) -> Vec<Instance> {
    let mut out = Vec::new();
    for b in boundaries {
        let name = b.variant.inputs()[b.operand].name;
        for (inputs, place) in b.inputs() {
            out.push(Instance {
                variant: b.variant,
                inputs,
                origin: format!("{ORIGIN} {name}: {place}"),
                readings: None,
            });
        }
    }
    once_each(&mut out);
    out
}

/// `all` with each input of a variant kept once, where it first comes,
/// under the least of its origins. An input at the boundaries of two
/// operands is named by the same one whichever search found it first, so
/// a record does not change with the order the searches end in, or with
/// a search left open whose inputs an earlier record stands in for.
pub fn once_each(all: &mut Vec<Instance>) {
    let mut least: HashMap<(Variant, Vec<u128>), String> = HashMap::new();
    for i in all.iter() {
        least
            .entry((i.variant, i.inputs.clone()))
            .and_modify(|o| {
                if i.origin < *o {
                    o.clone_from(&i.origin);
                }
            })
            .or_insert_with(|| i.origin.clone());
    }
    all.retain_mut(|i| match least.remove(&(i.variant, i.inputs.clone())) {
        Some(origin) => {
            i.origin = origin;
            true
        }
        None => false,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input at two operands' boundaries keeps one name in either order.
    #[test]
    fn an_input_on_two_boundaries_is_named_the_same_in_either_order() {
        let v = Variant::from_mnemonic("madc.hi.cc.s64").unwrap();
        let at = |origin: &str, inputs: &[u128]| Instance {
            variant: v,
            inputs: inputs.to_vec(),
            origin: origin.into(),
            readings: None,
        };
        let a = at("case boundary on a: after", &[1, 1 << 63, 0, 1]);
        let b = at("case boundary on b: after", &[1, 1 << 63, 0, 1]);
        let other = at("case boundary on c: before", &[0, 0, 0, 0]);
        let mut one = vec![b.clone(), other.clone(), a.clone()];
        let mut two = vec![a.clone(), other.clone(), b];
        once_each(&mut one);
        once_each(&mut two);
        let names = |all: &[Instance]| all.iter().map(|i| (i.origin.clone(), i.inputs.clone())).collect::<Vec<_>>();
        let want = names(&[a, other]);
        assert_eq!(names(&one), want, "kept where it first comes, named by the least origin");
        assert_eq!(names(&two), want);
    }

    fn found(names: &[&str]) -> Search {
        found_by(names, &Backend::Embedded)
    }

    fn found_by(names: &[&str], backend: &Backend) -> Search {
        let variants: Vec<Variant> = names.iter().map(|n| Variant::from_mnemonic(n).unwrap()).collect();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        search(&variants, backend, Duration::from_secs(30), &pool).unwrap()
    }

    /// The embedded solver keeps a task's goals in one solver, each behind
    /// a literal, its pins assumed; a solver process gets every query whole.
    /// Both give the same boundaries, in the same order: on goals that share
    /// their terms (bfind), and on multipliers, which get a solver each
    /// (skipped, loudly, where z3 is not installed).
    #[test]
    fn shared_and_separate_solvers_find_the_same_boundaries() {
        let z3 = Backend::from_name("z3").unwrap();
        if let Err(e) = z3.check_available() {
            eprintln!("skipping the search with a solver process: {e}");
            return;
        }
        let names = ["bfind.u32", "mad.hi.sat.s32", "shr.s16"];
        let (shared, separate) = (found(&names), found_by(&names, &z3));
        assert_eq!(shared.open, 0);
        assert!(shared.found.len() > 40, "{}", shared.found.len());
        assert_eq!(shared, separate);
    }

    fn has(s: &Search, variant: &str, operand: &str, input: &[u128]) -> bool {
        s.found.iter().any(|b| {
            b.variant.to_string() == variant && b.variant.inputs()[b.operand].name == operand && b.input == input
        })
    }

    /// The limits worked by hand from 9.7.1.1 and 9.7.8.6.
    #[test]
    fn saturation_and_shift_limits_are_found() {
        let s = found(&["add.sat.s32", "shl.b32"]);
        assert_eq!(s.open, 0);
        // a + b = MAXINT at a = 0, b = MAXINT: one more saturates.
        assert!(has(&s, "add.sat.s32", "a", &[0, 0x7fff_ffff]));
        // a + b = MININT - 1 at a = MININT, b = -1 saturates; one more is
        // MININT (the signed step: the unsigned one's least input wraps
        // from MAXINT to MININT).
        assert!(has(&s, "add.sat.s32", "a", &[0x7fff_ffff, 0x8000_0000]));
        assert!(has(&s, "add.sat.s32", "a", &[0x8000_0000, 0xffff_ffff]));
        // The model clamps amounts above 32; the least input holds a at 0,
        // the dense one at all ones.
        assert!(has(&s, "shl.b32", "b", &[0, 0x20]));
        assert!(has(&s, "shl.b32", "b", &[0xffff_ffff, 0x20]));
    }

    /// Emulators with a limit one off agree with the model on almost every
    /// input; the boundary inputs catch each.
    #[test]
    fn a_limit_one_off_is_caught_on_the_boundary_inputs() {
        let s = found(&["add.sat.s32", "shl.b32"]);
        let caught = |name: &str, wrong: &dyn Fn(&[u128]) -> u128| {
            let v = Variant::from_mnemonic(name).unwrap();
            instances(&s.found)
                .iter()
                .filter(|i| i.variant == v)
                .any(|i| v.run(&i.inputs)[0].map(|d| d.unsigned()) != Some(wrong(&i.inputs)))
        };
        // The shift amount taken mod 32, as Rust's wrapping_shl does.
        assert!(caught("shl.b32", &|i| u128::from((i[0] as u32).wrapping_shl(i[1] as u32))));
        // Saturation at MAXINT - 1.
        let sat = |i: &[u128], top: i64| {
            let sum = i64::from(i[0] as u32 as i32) + i64::from(i[1] as u32 as i32);
            u128::from(sum.clamp(i64::from(i32::MIN), top) as i32 as u32)
        };
        assert!(caught("add.sat.s32", &|i| sat(i, i64::from(i32::MAX) - 1)));
        // The right rule is caught nowhere: the test can tell them apart.
        assert!(!caught("add.sat.s32", &|i| sat(i, i64::from(i32::MAX))));
    }

    #[test]
    fn the_inputs_straddle_the_step_within_range() {
        let shl = Variant::from_mnemonic("shl.b32").unwrap();
        let b = Boundary { variant: shl, condition: String::new(), operand: 1, input: vec![5, 0x20] };
        assert_eq!(
            b.inputs(),
            vec![
                (vec![5, 0x1f], "2 before"),
                (vec![5, 0x20], "before"),
                (vec![5, 0x21], "after"),
                (vec![5, 0x22], "2 after")
            ]
        );
        let top = Boundary { input: vec![5, 0xffff_fffe], ..b.clone() };
        assert_eq!(top.inputs().len(), 3);
        let bottom = Boundary { input: vec![5, 0], ..b };
        assert_eq!(bottom.inputs()[0], (vec![5, 0], "before"));
    }

    #[test]
    fn the_search_gives_the_same_inputs_every_time() {
        let first = found(&["bfe.u32", "div.s64"]);
        assert!(!first.found.is_empty());
        assert_eq!(first, found(&["bfe.u32", "div.s64"]));
    }
}
