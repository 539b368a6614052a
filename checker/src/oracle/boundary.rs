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
use ptx_smt::solver::{Backend, SatResult, SolverError, Var};
use ptx_smt::term::{display_bounded, Sym, SymBv};
use ptx_spec::bv::{mask, Algebra, BitVec};
use ptx_spec::catalogue::Variant;
use ptx_spec::vendor::Model;
use rayon::prelude::*;

use super::fold::Instance;
use crate::prove::minimise;

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

/// The time limit of each query. They take milliseconds; this only stops
/// a pathological one holding up a hardware run.
pub const TIMEOUT: Duration = Duration::from_secs(30);

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

/// Goals per task: the tasks of one variant share nothing but its terms,
/// which each task builds again in a context of its own.
const CHUNK: usize = 8;

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
    let mut tasks = Vec::new();
    for v in variants.iter().filter(|v| !v.is_warp_wide()) {
        let ctx = backend.context(timeout)?;
        let n = goals(&ctx, v).1.len();
        tasks.extend((0..n).step_by(CHUNK).map(|first| (*v, first..n.min(first + CHUNK))));
    }
    let done: Vec<Vec<Option<Boundary>>> = pool.install(|| {
        tasks
            .par_iter()
            .map(|(variant, range)| solve(variant, range.clone(), backend, timeout))
            .collect::<Result<_, _>>()
    })?;
    let all: Vec<Option<Boundary>> = done.into_iter().flatten().collect();
    let open = all.iter().filter(|b| b.is_none()).count();
    Ok(Search { found: all.into_iter().flatten().collect(), open })
}

/// Goals `range` of `variant`: the boundary each gives, `None` where the
/// solver leaves it open (a goal that cannot hold gives nothing).
fn solve(
    variant: &Variant,
    range: std::ops::Range<usize>,
    backend: &Backend,
    timeout: Duration,
) -> Result<Vec<Option<Boundary>>, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let (vars, goals) = goals(&ctx, variant);
    let mut out = Vec::new();
    for g in goals.into_iter().skip(range.start).take(range.len()) {
        let found = least(&mut ctx, &vars, variant, &g, g.unsigned, backend, timeout)?;
        let wraps = matches!(&found, Some(Some(b)) if b.input[g.operand] == mask(vars[g.operand].width) >> 1);
        let mut here = vec![found];
        if wraps {
            here.push(least(&mut ctx, &vars, variant, &g, g.signed, backend, timeout)?);
        }
        for found in here.into_iter().flatten() {
            let dense = found.as_ref().and_then(|b| dense(&ctx, &vars, g.condition, b));
            out.push(found);
            out.extend(dense.map(Some));
        }
    }
    Ok(out)
}

/// The least input meeting `goal` (one of `g`'s), confirmed: `None` where
/// there is none, `Some(None)` where the solver leaves it open.
fn least(
    ctx: &mut Context,
    vars: &[Var],
    variant: &Variant,
    g: &Goal,
    goal: SExpr,
    backend: &Backend,
    timeout: Duration,
) -> Result<Option<Option<Boundary>>, SolverError> {
    let (c, j) = (g.condition, g.operand);
    let model = match backend.check(ctx, vars, &[goal], timeout)? {
        SatResult::Sat(model) => model,
        SatResult::Unsat => return Ok(None),
        SatResult::Unknown(_) => return Ok(Some(None)),
    };
    let least = minimise(backend, ctx, vars, goal, model, timeout, true)?;
    let input: Vec<u128> = vars.iter().map(|v| least.get(&v.name).map_or(0, |b| b.unsigned())).collect();
    // Confirmed on the condition itself, evaluated on both sides.
    match step(ctx, vars, c, &input, j) {
        (Ok(before), Ok(after)) if before != after => {}
        (before, after) => {
            return Err(SolverError::Rejected {
                solver: backend.to_string(),
                message: format!(
                    "{variant}: its boundary of {} along {} at {input:x?} does not hold when evaluated ({before:?}, {after:?})",
                    display_bounded(ctx, c, 200),
                    vars[j].name
                ),
            })
        }
    }
    Ok(Some(Some(Boundary { variant: *variant, condition: display_bounded(ctx, c, 160), operand: j, input })))
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

/// The boundaries' inputs as instances (origin `case boundary on b:
/// after`), once each.
pub fn instances(boundaries: &[Boundary]) -> Vec<Instance> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for b in boundaries {
        let name = b.variant.inputs()[b.operand].name;
        for (inputs, place) in b.inputs() {
            if seen.insert((b.variant, inputs.clone())) {
                out.push(Instance {
                    variant: b.variant,
                    inputs,
                    origin: format!("case boundary on {name}: {place}"),
                    readings: None,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(names: &[&str]) -> Search {
        let variants: Vec<Variant> = names.iter().map(|n| Variant::from_mnemonic(n).unwrap()).collect();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        search(&variants, &Backend::Embedded, Duration::from_secs(30), &pool).unwrap()
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
