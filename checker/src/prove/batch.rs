//! Small variants proven together: one query asks whether any of them has
//! an input on which its two sides differ.
//!
//! Each variant's sides are built over inputs of their own (`a!k` for the
//! k-th variant of a batch), and the query is the disjunction of their
//! differences. `unsat` shows that no variant of the batch has a differing
//! input: each is proven, as by a query of its own. Any other answer
//! proves nothing, and every variant of the batch is then proven alone
//! ([`prove_in`]), so that a counterexample, a time-out or an unknown is
//! the one its own query gives.
//!
//! Why: a query on a variant of a few dozen terms (set, setp, and, add...)
//! costs the solver about a millisecond and a half whatever its size,
//! reading the query in and setting up its tactics; 1,890 forms of set and
//! setp one by one cost more than all the other variants' queries
//! together. Only small variants go into a batch: a large one proven in a
//! batch would keep the others from other cores (docs/performance.md).

use std::time::Instant;

use easy_smt::{Context, ContextBuilder, SExpr, SExprData};
use ptx_smt::{encode, Backend, SatResult, SolverError, Sym, SymBv, SymOutputs, Var};
use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

use super::{differ, lockstep, prove_against_in, prove_in, Duration, Encodings, ProofResult, Sides, Verdict};

/// The most variants in one query.
const MOST: usize = 32;

/// A variant goes into a batch where its two sides together have at most
/// this many distinct terms (set.eq.and.u32.b32 has about 50, and.b32
/// 12; lop3.b32, sad.s64 and the shuffles have thousands).
const SMALL: usize = 400;

/// The jobs that prove `variants`: each a batch of small variants of one
/// opcode in a row, or a single variant. Every variant is in one job, in
/// its order. Only an opcode with more forms than a batch holds is batched
/// (set's 1,134 and setp's 756, slct's 33): its forms are alike, and
/// together they would pay the cost of a query hundreds of times. The
/// arithmetic ones are left alone: Z3 settles `neg.s64` at once, and the
/// disjunction of neg's three forms in 150 ms.
pub fn jobs(model: Model, variants: &[Variant], backend: &Backend) -> Vec<Vec<Variant>> {
    use rayon::prelude::*;
    let mut forms: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for v in variants {
        *forms.entry(v.opcode()).or_default() += 1;
    }
    let small: Vec<bool> =
        variants.par_iter().map(|v| forms[v.opcode()] > MOST && batchable(model, v, backend)).collect();
    let mut jobs: Vec<(bool, Vec<Variant>)> = Vec::new();
    for (v, small) in variants.iter().zip(small) {
        match jobs.last_mut() {
            Some((true, last)) if small && last.len() < MOST && last[0].opcode() == v.opcode() => last.push(*v),
            _ => jobs.push((small, vec![*v])),
        }
    }
    jobs.into_iter().map(|(_, job)| job).collect()
}

/// Whether `variant` may be proven in a batch: one comparison (not split
/// into cases, not by induction) of two small sides.
fn batchable(model: Model, variant: &Variant, backend: &Backend) -> bool {
    if lockstep::applies(model, variant, backend) {
        return false;
    }
    let Ok(ctx) = ContextBuilder::new().build() else { return false };
    let e = Encodings::build_split_in(
        model,
        variant,
        &ctx,
        |sym, ins| encode::encode_in(model, variant, sym, ins),
        |sym, ins| variant.proof_cases(sym, ins),
    );
    e.cases.is_empty() && terms(&ctx, e.smt.iter().chain(&e.concrete).flat_map(|o| [o.value.term, o.defined])) <= SMALL
}

/// The number of distinct terms under `roots`.
fn terms(ctx: &Context, roots: impl IntoIterator<Item = SExpr>) -> usize {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<SExpr> = roots.into_iter().collect();
    while let Some(e) = stack.pop() {
        if seen.insert(e) {
            if let SExprData::List(items) = ctx.get(e) {
                stack.extend(items.iter().copied());
            }
        }
    }
    seen.len()
}

/// Prove the variants of one job: together where it is a batch and the
/// batch's query is unsat, else each alone.
pub fn prove_job(model: Model, job: &[Variant], backend: &Backend, timeout: Duration) -> Vec<ProofResult> {
    if let [one] = job {
        return vec![prove_in(model, one, backend, timeout)];
    }
    prove_job_against(model, job, backend, timeout, |v, sym, ins| encode::encode_in(model, v, sym, ins))
}

/// [`prove_job`] with the SMT encodings `smt` (a test plants a wrong one).
fn prove_job_against(
    model: Model,
    job: &[Variant],
    backend: &Backend,
    timeout: Duration,
    smt: impl Fn(&Variant, &Sym, &[SymBv]) -> SymOutputs + Sync,
) -> Vec<ProofResult> {
    let start = Instant::now();
    if let Ok(SatResult::Unsat) = together(model, job, backend, timeout, &smt) {
        // The query's time, shared equally.
        let each = start.elapsed() / job.len() as u32;
        return job
            .iter()
            .map(|v| ProofResult {
                time: each,
                batch: job.len(),
                ..ProofResult::of(model, v, Verdict::Proven, 1, start)
            })
            .collect();
    }
    job.iter().map(|v| prove_against_in(model, v, backend, timeout, |sym, ins| smt(v, sym, ins))).collect()
}

/// The batch's query: does any of `job` have an input on which its sides
/// differ?
fn together(
    model: Model,
    job: &[Variant],
    backend: &Backend,
    timeout: Duration,
    smt: &impl Fn(&Variant, &Sym, &[SymBv]) -> SymOutputs,
) -> Result<SatResult, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let mut vars: Vec<Var> = Vec::new();
    let mut goals: Vec<SExpr> = Vec::new();
    for (k, variant) in job.iter().enumerate() {
        let sym = Sym::new(&ctx);
        let own: Vec<Var> =
            variant.inputs().iter().map(|o| Var { name: format!("{}!{k}", o.name), width: o.ty.width() }).collect();
        let ins: Vec<SymBv> = own.iter().map(|v| sym.var(&v.name, v.width)).collect();
        let (smt, concrete) = (smt(variant, &sym, &ins), variant.semantics_in(model, &sym, &ins));
        let names: Vec<String> = variant.outputs().iter().map(|o| o.name.to_string()).collect();
        let sides = Sides { vars: &own, constraint: None, output_names: &names, smt: &smt, concrete: &concrete };
        goals.push(differ(&ctx, &sides));
        vars.extend(own);
    }
    let any = ctx.or_many(goals);
    backend.check(&mut ctx, &vars, &[any], timeout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_spec::bv::Algebra;

    fn named(names: &[&str]) -> Vec<Variant> {
        names.iter().map(|n| Variant::from_mnemonic(n).unwrap_or_else(|| panic!("no variant {n}"))).collect()
    }

    #[test]
    fn the_forms_of_a_large_opcode_go_in_batches_in_their_order() {
        let all = Variant::all();
        let jobs = jobs(Model::Spec, &all, &Backend::Embedded);
        // Every variant once, in its order.
        assert_eq!(jobs.iter().flatten().copied().collect::<Vec<_>>(), all);
        for job in &jobs {
            assert!(job.len() <= MOST && job.iter().all(|v| v.opcode() == job[0].opcode()), "{job:?}");
        }
        let batched = |op: &str| jobs.iter().filter(|j| j.len() > 1).flatten().filter(|v| v.opcode() == op).count();
        assert_eq!(batched("set"), all.iter().filter(|v| v.opcode() == "set").count());
        assert_eq!(batched("setp"), all.iter().filter(|v| v.opcode() == "setp").count());
        // The arithmetic ones, and fns (by induction), each alone.
        for op in ["neg", "add", "lop3", "fns", "shfl"] {
            assert_eq!(batched(op), 0, "{op}");
        }
        // A run of a few forms is not batched.
        let few = named(&["set.eq.u32.u32", "set.lt.u32.s32"]);
        assert_eq!(super::jobs(Model::Spec, &few, &Backend::Embedded).len(), 2);
    }

    #[test]
    fn a_batch_proves_each_form_and_a_wrong_one_is_caught_alone() {
        let forms: Vec<Variant> = Variant::all().into_iter().filter(|v| v.opcode() == "setp").take(8).collect();
        let timeout = Duration::from_secs(60);
        let results = prove_job(Model::Spec, &forms, &Backend::Embedded, timeout);
        assert!(results.iter().all(|r| r.verdict.is_proven() && r.batch == forms.len()), "{results:?}");
        assert_eq!(results.iter().map(|r| r.variant).collect::<Vec<_>>(), forms);
        // The third form's encoding with its first output flipped: the batch
        // is not unsat, and each form is proven alone, the third refuted.
        let wrong = forms[2];
        let smt = |v: &Variant, sym: &Sym, ins: &[SymBv]| {
            let mut outs = encode::encode_in(Model::Spec, v, sym, ins);
            if *v == wrong {
                outs[0].value = sym.bvnot(outs[0].value);
            }
            outs
        };
        let results = prove_job_against(Model::Spec, &forms, &Backend::Embedded, timeout, smt);
        for (k, r) in results.iter().enumerate() {
            assert_eq!(r.batch, 1);
            assert_eq!(matches!(r.verdict, Verdict::Counterexample(_)), k == 2, "{}: {:?}", r.variant, r.verdict);
            assert_eq!(r.verdict.is_proven(), k != 2);
        }
    }
}
