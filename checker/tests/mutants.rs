//! The mutation self-test on a few variants of each shape (the CI runs it
//! on all of them with `ptxcheck mutants`).

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::catalogue::Variant;
use ptxcheck::mutants::{self, Fate, Side};

#[test]
fn every_non_equivalent_mutant_is_killed() {
    for name in ["cnot.b32", "and.pred", "shf.r.clamp.b32", "shr.s16", "shl.b64"] {
        let v = Variant::from_mnemonic(name).unwrap();
        let results = mutants::run(&v, &Backend::Embedded, Duration::from_secs(60)).unwrap();
        assert_eq!(results.len(), mutants::count(&v), "{name}");
        let killed = results.iter().filter(|m| m.fate == Fate::Killed).count();
        assert!(killed > 0, "{name}: nothing killed");
        for side in [Side::Smt, Side::Concrete] {
            assert!(results.iter().any(|m| m.side == side && m.fate == Fate::Killed), "{name} {side:?}");
        }
        for m in &results {
            assert!(matches!(m.fate, Fate::Killed | Fate::Equivalent), "{name}: {} survived: {:?}", m.fault, m.fate);
        }
    }
}

/// The indexed operators are faulted too: an extract's window moved by one
/// bit, zero and sign extension swapped. On mul24 (bits 0..23 extended from
/// bit 23) every such fault that changes the function is killed.
#[test]
fn indexed_operator_faults_are_made_and_killed() {
    let v = Variant::from_mnemonic("mul24.lo.s32").unwrap();
    let results = mutants::run(&v, &Backend::Embedded, Duration::from_secs(60)).unwrap();
    for kind in ["extract window one bit", "sign_extend -> zero_extend"] {
        let made: Vec<_> = results.iter().filter(|m| m.fault.starts_with(kind)).collect();
        assert!(!made.is_empty(), "no `{kind}` fault in mul24.lo.s32");
        assert!(made.iter().any(|m| m.fate == Fate::Killed), "no `{kind}` fault killed");
        for m in made {
            assert!(matches!(m.fate, Fate::Killed | Fate::Equivalent), "{} survived: {:?}", m.fault, m.fate);
        }
    }
}

/// A variant whose proof is split only to spare a slower solver (bfi.b64)
/// keeps its mutants with the embedded Z3, which proves each whole; fns's
/// split is needed by every solver, and a solver process would need
/// bfi.b64's split too, so those are skipped, saying why.
#[test]
fn split_variants_keep_their_mutants_only_where_the_embedded_solver_proves_them_whole() {
    let bfi = Variant::from_mnemonic("bfi.b64").unwrap();
    let fns = Variant::from_mnemonic("fns.b32").unwrap();
    let z3 = Backend::from_name("z3").unwrap();
    assert_eq!(mutants::skipped(&bfi, &Backend::Embedded), None);
    let why = mutants::skipped(&bfi, &z3).expect("a solver process would need the split");
    assert!(why.contains("split into 9 cases") && why.contains("proves them whole"), "{why}");
    let why = mutants::skipped(&fns, &Backend::Embedded).expect("fns's split is needed by every solver");
    assert!(why.contains("split into 66 cases") && !why.contains("whole"), "{why}");
}
