//! Every solver process ptxcheck knows, where installed: it proves, it finds
//! the same confirmed, minimised counterexample as the embedded solver (so
//! its `get-value` answers are read right), and a missing one is a one-line
//! error. Each absent solver is skipped with a message.

use std::process::Command;
use std::time::Duration;

use ptx_smt::solver::PROCESS_SOLVERS;
use ptx_smt::{Backend, Sym, SymBv, SymOutputs};
use ptx_spec::bv::{Algebra, BitVec};
use ptx_spec::catalogue::{defined, Variant};
use ptxcheck::prove::{prove, prove_against, Verdict};

const TIMEOUT: Duration = Duration::from_secs(60);

/// The installed solver processes.
fn installed() -> Vec<Backend> {
    PROCESS_SOLVERS
        .iter()
        .map(|s| Backend::Process(s.clone()))
        .filter(|b| match b.check_available() {
            Ok(()) => true,
            Err(e) => {
                println!("skipped: {e}");
                false
            }
        })
        .collect()
}

#[test]
fn the_solvers_are_named_on_the_command_line() {
    assert_eq!(Backend::names(), ["embedded", "z3", "cvc5", "yices", "bitwuzla"]);
    for name in Backend::names() {
        assert!(Backend::from_name(name).is_ok(), "{name}");
    }
}

#[test]
fn each_solver_proves_a_sample() {
    for backend in installed() {
        for name in ["add.s32", "div.s32", "bfe.s32", "lop3.or.b32", "shfl.idx.b32 d|p"] {
            let v = Variant::from_mnemonic(name).unwrap();
            let r = prove(&v, &backend, TIMEOUT);
            assert_eq!(r.verdict, Verdict::Proven, "{name} with {backend}");
        }
    }
}

/// shf.l read with `a >> n` where the spec has `a >> (32-n)`.
fn wrong_shf_l(sym: &Sym, ins: &[SymBv]) -> SymOutputs {
    let (a, b, c) = (ins[0], ins[1], ins[2]);
    let n = sym.umin(c, sym.constant(32, 32));
    vec![defined(sym, sym.bvor(sym.bvshl(b, n), sym.bvlshr(a, n)))]
}

#[test]
fn each_solver_finds_the_same_minimal_counterexample() {
    let v = Variant::from_mnemonic("shf.l.clamp.b32").unwrap();
    for backend in installed() {
        let r = prove_against(&v, &backend, TIMEOUT, wrong_shf_l);
        let Verdict::Counterexample(cex) = r.verdict else {
            panic!("{backend}: expected a counterexample, got {:?}", r.verdict)
        };
        let inputs: Vec<(String, u128)> = cex.inputs.iter().map(|(n, v)| (n.clone(), v.unsigned())).collect();
        assert_eq!(inputs, vec![("a".into(), 1), ("b".into(), 0), ("c".into(), 0)], "{backend}");
        assert_eq!(cex.outputs[0].smt, Some(BitVec::new(32, 1)), "{backend}");
    }
}

#[test]
fn a_missing_solver_is_a_one_line_error() {
    for s in PROCESS_SOLVERS {
        let o = Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
            .env("PTXCHECK_NO_CACHE", "1")
            .args(["prove", "and.b32", "--solver", s.name])
            .env("PATH", "")
            .output()
            .unwrap();
        let stderr = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", s.name);
        assert_eq!(
            stderr,
            format!(
                "error: solver `{}` not found on PATH (install {}, or pick another with --solver)\n",
                s.name, s.install
            )
        );
    }
}
