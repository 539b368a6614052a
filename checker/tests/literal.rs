//! The literal-C audit on a few blocks: it rediscovers the known problems
//! with confirmed witnesses, finds nothing where there is nothing, and
//! catches a deliberately wrong transcription.

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::bv::{Algebra, BitVec};
use ptx_spec::catalogue::{defined, Outputs, Variant};
use ptxcheck::audit::finding::{FindingKind, Severity};
use ptxcheck::audit::literal::blocks::{block, Block, Transcription};
use ptxcheck::audit::literal::check::{audit_block_with, audit_blocks};
use ptxcheck::audit::literal::{CType, C};

const TIMEOUT: Duration = Duration::from_secs(30);

fn the_block(opcode: &str) -> Block {
    *block(opcode).unwrap_or_else(|| panic!("no block for {opcode}"))
}

fn bv(width: u32, value: u128) -> BitVec {
    BitVec::new(width, value)
}

#[test]
fn clz_precedence_gives_a_wrong_defined_result() {
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("clz")]).expect("the audit runs");
    let ids: Vec<&str> = audit.findings.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["literal-clz-wrong-result"]);
    let f = &audit.findings[0];
    assert_eq!((f.kind, f.severity, f.section.as_str()), (FindingKind::LiteralReading, Severity::High, "9.7.1.15"));
    assert_eq!(f.fragment, "a&mask == 0");
    let w = f.witness.as_ref().expect("a witness");
    assert_eq!(w.variant, "clz.b32");
    assert_eq!(w.columns, ["literal C", "model"]);
    // The minimised witness: a = 0 has 32 leading zeros; the C loop never runs.
    assert_eq!(w.inputs, [("a".to_string(), bv(32, 0))]);
    assert_eq!(w.rows, [("d".to_string(), vec![Some(bv(32, 0)), Some(bv(32, 32))])]);
    assert!(f.detail.iter().any(|d| d.contains("clz.b32, clz.b64")), "{:?}", f.detail);
    assert_eq!(audit.blocks[0].findings, ["literal-clz-wrong-result"]);
    assert!(audit.blocks[0].unresolved.is_empty());
}

#[test]
fn bfind_shifts_an_int_one_into_and_past_its_sign_bit() {
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("bfind")]).expect("the audit runs");
    let into_sign =
        audit.findings.iter().find(|f| f.id == "literal-bfind-shift-into-sign-bit-1-shl-i").expect("the 1<<31 finding");
    assert_eq!((into_sign.kind, into_sign.severity), (FindingKind::Undefined, Severity::Medium));
    assert!(into_sign.summary.contains("undefined"));
    let w = into_sign.witness.as_ref().expect("a witness");
    // The loop starts at i = 31 for bfind.u32: every input reaches 1<<31.
    assert_eq!(w.variant, "bfind.u32");
    assert_eq!(w.inputs, [("a".to_string(), bv(32, 0))]);
    assert_eq!(w.rows, [("d".to_string(), vec![None, Some(bv(32, 0xffff_ffff))])]);
    let past = audit.findings.iter().find(|f| f.id == "literal-bfind-shift-past-width-1-shl-i").expect("1<<32..63");
    assert!(past.detail.iter().any(|d| d.contains("bfind.u64")), "{:?}", past.detail);
    assert!(past.model_choice.as_deref().is_some_and(|m| m.contains("bfind-shift-width")));
    // The findings come in id order within the section.
    let ids: Vec<&String> = audit.findings.iter().map(|f| &f.id).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted);
}

#[test]
fn bitwise_and_has_no_hazard_and_agrees() {
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("and"), the_block("cnot")]).expect("runs");
    assert!(audit.findings.is_empty(), "{:?}", audit.findings);
    for b in &audit.blocks {
        assert_eq!(b.hazards_examined, 0, "{}", b.opcode);
        assert!(b.findings.is_empty() && b.unresolved.is_empty(), "{b:?}");
    }
    assert_eq!(audit.blocks.iter().map(|b| b.variants).sum::<usize>(), 4 + 3);
}

#[test]
fn signed_add_overflows_and_short_results_convert() {
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("add")]).expect("runs");
    let overflow = audit.findings.iter().find(|f| f.id == "literal-add-signed-overflow").expect("overflow");
    assert_eq!(overflow.severity, Severity::Medium);
    assert!(overflow.detail.iter().any(|d| d.contains("add.s32, add.s64, add.sat.s32")), "{:?}", overflow.detail);
    let w = overflow.witness.as_ref().expect("a witness");
    let sum = w.inputs.iter().map(|(_, v)| v.signed()).sum::<i128>();
    assert!(sum > i128::from(i32::MAX) || sum < i128::from(i32::MIN), "{w:?}");
    // short + short is an int: no overflow, but storing it back into a
    // short is implementation-defined.
    let convert =
        audit.findings.iter().find(|f| f.id.starts_with("literal-add-conversion-out-of-range")).expect("conv");
    assert_eq!(convert.severity, Severity::Low);
    assert!(convert.summary.contains("implementation-defined"));
}

#[test]
fn szext_is_reported_as_not_c_without_a_witness() {
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("szext")]).expect("runs");
    let ids: Vec<&str> = audit.findings.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["literal-szext-not-c"]);
    assert!(audit.findings[0].witness.is_none());
    assert_eq!(audit.blocks[0].hazards_examined, 0);
}

/// and.b32 transcribed as `a | b`: the audit must catch it.
struct WrongAnd;

impl Transcription for WrongAnd {
    fn literal<A: Algebra>(&self, c: &mut C<A>, _variant: &Variant, inputs: &[A::Bv]) -> Option<Outputs<A>> {
        let t = CType::of_width(c.alg().width(inputs[0]), false);
        let (a, b) = (c.operand(inputs[0], t), c.operand(inputs[1], t));
        let r = c.or(a, b);
        let d = c.assign("d = a & b", r, t);
        Some(vec![defined(c.alg(), d.bits)])
    }
}

#[test]
fn a_wrong_transcription_is_caught_with_a_witness() {
    let (check, findings) =
        audit_block_with(&Backend::Embedded, TIMEOUT, &the_block("and"), &WrongAnd).expect("the audit runs");
    assert_eq!(check.findings, ["literal-and-wrong-result"]);
    let w = findings[0].witness.as_ref().expect("a witness");
    // and.pred comes first: a = 0, b = 1 gives 0 | 1 = 1 against 0 & 1 = 0.
    assert_eq!(w.variant, "and.pred");
    assert_eq!(w.inputs, [("a".to_string(), bv(1, 0)), ("b".to_string(), bv(1, 1))]);
    assert_eq!(w.rows, [("d".to_string(), vec![Some(bv(1, 1)), Some(bv(1, 0))])]);
}
