//! Differential tests of the trusted core: every operation of the algebra,
//! computed concretely, against the solver's evaluation of the symbolic term
//! and against the term evaluator, at widths 1 to 128, on edge values and on
//! random values.

use std::collections::HashMap;
use std::time::Duration;

use easy_smt::{Context, ContextBuilder, SExpr};
use proptest::prelude::*;
use ptx_smt::eval::{Evaluator, Value};
use ptx_smt::{Backend, SatResult, Sym};
use ptx_spec::bv::{mask, Algebra, BitVec, Concrete};

const WIDTHS: [u32; 6] = [1, 8, 16, 32, 64, 128];

/// A result of either sort.
enum Res<A: Algebra> {
    Bv(A::Bv),
    Bool(A::Bool),
}

/// Every operation, by name, applied to `a` and `b` (and `c` for ite).
const OPS: &[&str] = &[
    "bvadd",
    "bvsub",
    "bvmul",
    "bvudiv",
    "bvurem",
    "bvsdiv",
    "bvsrem",
    "bvneg",
    "bvnot",
    "bvand",
    "bvor",
    "bvxor",
    "bvshl",
    "bvlshr",
    "bvashr",
    "extract-top",
    "extract-bottom",
    "extract-mid",
    "concat",
    "zero_extend",
    "sign_extend",
    "eq",
    "bvult",
    "bvule",
    "bvslt",
    "bvsle",
    "ite",
    "and",
    "or",
    "not",
];

fn apply<A: Algebra>(alg: &A, op: &str, a: A::Bv, b: A::Bv) -> Res<A> {
    let w = alg.width(a);
    let half = |x: A::Bv| if w > 64 { alg.extract(63, 0, x) } else { x };
    match op {
        "bvadd" => Res::Bv(alg.bvadd(a, b)),
        "bvsub" => Res::Bv(alg.bvsub(a, b)),
        "bvmul" => Res::Bv(alg.bvmul(a, b)),
        "bvudiv" => Res::Bv(alg.bvudiv(a, b)),
        "bvurem" => Res::Bv(alg.bvurem(a, b)),
        "bvsdiv" => Res::Bv(alg.bvsdiv(a, b)),
        "bvsrem" => Res::Bv(alg.bvsrem(a, b)),
        "bvneg" => Res::Bv(alg.bvneg(a)),
        "bvnot" => Res::Bv(alg.bvnot(a)),
        "bvand" => Res::Bv(alg.bvand(a, b)),
        "bvor" => Res::Bv(alg.bvor(a, b)),
        "bvxor" => Res::Bv(alg.bvxor(a, b)),
        "bvshl" => Res::Bv(alg.bvshl(a, b)),
        "bvlshr" => Res::Bv(alg.bvlshr(a, b)),
        "bvashr" => Res::Bv(alg.bvashr(a, b)),
        "extract-top" => Res::Bv(alg.extract(w - 1, w - 1, a)),
        "extract-bottom" => Res::Bv(alg.extract(0, 0, a)),
        "extract-mid" => Res::Bv(alg.extract(w - 1, w / 2, a)),
        "concat" => Res::Bv(alg.concat(half(a), half(b))),
        "zero_extend" => Res::Bv(alg.zero_extend((128 - w).min(7), a)),
        "sign_extend" => Res::Bv(alg.sign_extend((128 - w).min(9), a)),
        "eq" => Res::Bool(alg.eq(a, b)),
        "bvult" => Res::Bool(alg.bvult(a, b)),
        "bvule" => Res::Bool(alg.bvule(a, b)),
        "bvslt" => Res::Bool(alg.bvslt(a, b)),
        "bvsle" => Res::Bool(alg.bvsle(a, b)),
        "ite" => Res::Bv(alg.ite(alg.bvult(b, a), a, b)),
        "and" => Res::Bool(alg.and(alg.bvult(a, b), alg.bvslt(a, b))),
        "or" => Res::Bool(alg.or(alg.eq(a, b), alg.bvsle(b, a))),
        "not" => Res::Bool(alg.not(alg.bvule(a, b))),
        _ => unreachable!("{op}"),
    }
}

/// Edge values at width `w`: 0, 1, all ones, sign bit alone, the shift
/// amounts w-1, w and w+1, and a huge amount.
fn edges(w: u32) -> Vec<u128> {
    let mut v = vec![0, 1, mask(w), 1u128 << (w - 1), u128::from(w - 1), u128::from(w), u128::from(w) + 1];
    v.push(mask(w) - 1);
    v.push(0x5555_5555_5555_5555_5555_5555_5555_5555);
    v.into_iter().map(|x| x & mask(w)).collect()
}

/// One check: the symbolic term and the value it must have.
struct Case {
    label: String,
    term: SExpr,
    expected: Value,
}

fn cases(ctx: &Context, pairs: &[(u32, u128, u128)]) -> Vec<Case> {
    let sym = Sym::new(ctx);
    let mut out = Vec::new();
    for &(w, a, b) in pairs {
        let (ca, cb) = (BitVec::new(w, a), BitVec::new(w, b));
        let (sa, sb) = (sym.literal(ca), sym.literal(cb));
        for op in OPS {
            let label = format!("{op} {ca:?} {cb:?}");
            let (term, expected) = match (apply(&Concrete, op, ca, cb), apply(&sym, op, sa, sb)) {
                (Res::Bv(c), Res::Bv(s)) => {
                    assert_eq!(c.width(), s.width, "{label}: widths differ");
                    (s.term, Value::Bv(c))
                }
                (Res::Bool(c), Res::Bool(s)) => (s, Value::Bool(c)),
                _ => panic!("{label}: sorts differ"),
            };
            out.push(Case { label, term, expected });
        }
    }
    out
}

fn literal(ctx: &Context, v: Value) -> SExpr {
    match v {
        Value::Bv(b) => ctx.atom(b.smtlib()),
        Value::Bool(b) => {
            if b {
                ctx.true_()
            } else {
                ctx.false_()
            }
        }
    }
}

/// The solver must find every term equal to its concrete value, and the
/// evaluator must compute the same value.
fn check_all(pairs: &[(u32, u128, u128)]) {
    let backend = Backend::Embedded;
    let timeout = Duration::from_secs(60);
    let mut ctx = ContextBuilder::new().build().unwrap();
    let cases = cases(&ctx, pairs);
    let mut evaluator = Evaluator::new(&ctx, HashMap::new());
    for case in &cases {
        assert_eq!(evaluator.eval(case.term).unwrap(), case.expected, "evaluator: {}", case.label);
    }
    let eqs: Vec<SExpr> = cases.iter().map(|c| ctx.eq(c.term, literal(&ctx, c.expected))).collect();
    let all = ctx.not(ctx.and_many(eqs.clone()));
    match backend.check(&mut ctx, &[], &[all], timeout).unwrap() {
        SatResult::Unsat => {}
        other => {
            // Find the culprit for the message.
            for (case, &eq) in cases.iter().zip(&eqs) {
                let negated = ctx.not(eq);
                let r = backend.check(&mut ctx, &[], &[negated], timeout).unwrap();
                assert_eq!(r, SatResult::Unsat, "solver disagrees with concrete: {}", case.label);
            }
            panic!("batch answered {other:?} but no single case failed");
        }
    }
    // And the check is two-sided: a wrong value is refuted.
    let wrong = &cases[0];
    let bad = match wrong.expected {
        Value::Bv(b) => Value::Bv(Concrete.bvadd(b, Concrete.constant_like(b, 1))),
        Value::Bool(b) => Value::Bool(!b),
    };
    let eq = ctx.eq(wrong.term, literal(&ctx, bad));
    assert_eq!(backend.check(&mut ctx, &[], &[eq], timeout).unwrap(), SatResult::Unsat, "{}", wrong.label);
}

#[test]
fn every_operation_on_edge_values_at_every_width() {
    for w in WIDTHS {
        let e = edges(w);
        let pairs: Vec<(u32, u128, u128)> = e.iter().flat_map(|&a| e.iter().map(move |&b| (w, a, b))).collect();
        check_all(&pairs);
    }
}

#[test]
fn shifts_by_huge_amounts() {
    // Amounts far above the width, including ones whose low bits look small.
    let pairs = [
        (32, 0x8000_0001, 0x1_0000_0001u128 & mask(32)),
        (32, 0x8000_0001, 0xffff_fff0),
        (64, 1u128 << 63, 1u128 << 40),
        (128, 1u128 << 127, 1u128 << 100),
        (16, 0x8001, 0x8000),
    ];
    check_all(&pairs);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn every_operation_on_random_values(values in prop::collection::vec((any::<u128>(), any::<u128>()), 6)) {
        let pairs: Vec<(u32, u128, u128)> = WIDTHS.iter().zip(&values).map(|(&w, &(a, b))| (w, a & mask(w), b & mask(w))).collect();
        check_all(&pairs);
    }
}

/// A term graph with heavy sharing (an unrolled loop that reads its previous
/// step twice) reaches the solver as linear text with the same meaning.
#[test]
fn shared_subterms_are_sent_once() {
    let mut ctx = ContextBuilder::new().build().unwrap();
    let (term, expected) = {
        let sym = Sym::new(&ctx);
        let c = Concrete;
        let (mut s, mut k) = (sym.constant(64, 3), c.constant(64, 3));
        for i in 0..64u128 {
            let step = sym.constant(64, i * 0x9e37_79b9);
            s = sym.ite(sym.bvult(s, step), sym.bvadd(s, step), sym.bvxor(s, step));
            let kstep = c.constant(64, i * 0x9e37_79b9);
            k = if c.bvult(k, kstep) { c.bvadd(k, kstep) } else { c.bvxor(k, kstep) };
        }
        (s.term, k)
    };
    let text = ctx.display(ptx_smt::solver::with_lets(&ctx, term)).to_string();
    assert!(text.len() < 20_000, "{} characters", text.len());
    let wrong = ctx.not(ctx.eq(term, ctx.atom(expected.smtlib())));
    let r = Backend::Embedded.check(&mut ctx, &[], &[wrong], Duration::from_secs(60)).unwrap();
    assert_eq!(r, SatResult::Unsat);
}
