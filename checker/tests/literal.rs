//! The literal-C audit on a few blocks: it rediscovers the known problems
//! with confirmed witnesses, finds nothing where there is nothing, and
//! catches a deliberately wrong transcription.

mod common;

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::bv::{Algebra, BitVec};
use ptx_spec::catalogue::{defined, Outputs, Variant};
use ptxcheck::audit::finding::{FindingKind, Severity};
use ptxcheck::audit::literal::check::{audit_block_with, audit_blocks, ReadFrom};
use ptxcheck::audit::literal::table::{block, Block, Transcription};
use ptxcheck::audit::literal::{CType, C};
use ptxcheck::audit::text::document;

const TIMEOUT: Duration = Duration::from_secs(30);

fn the_block(opcode: &str) -> Block {
    *block(opcode).unwrap_or_else(|| panic!("no block for {opcode}"))
}

fn bv(width: u32, value: u128) -> BitVec {
    BitVec::new(width, value)
}

/// The seeds, whose blocks the audit reads (the families of
/// `parsed::FROM_TEXT` are read from the text alone).
fn seeds(test: &str) -> Option<document::Document> {
    let seeds = common::spec_text(test)?;
    Some(document::read(&[seeds]).expect("the spec text reads"))
}

#[test]
fn clz_precedence_gives_a_wrong_defined_result() {
    let Some(doc) = seeds("clz_precedence_gives_a_wrong_defined_result") else { return };
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("clz")], Some(&doc)).expect("the audit runs");
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
    let Some(doc) = seeds("bfind_shifts_an_int_one_into_and_past_its_sign_bit") else { return };
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("bfind")], Some(&doc)).expect("the audit runs");
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
    let Some(seeds) = common::spec_text("bitwise_and_has_no_hazard_and_agrees") else { return };
    let doc = document::read(&[seeds]).expect("the spec text reads");
    let blocks = [the_block("and"), the_block("cnot")];
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &blocks, Some(&doc)).expect("runs");
    assert!(audit.findings.is_empty(), "{:?}", audit.findings);
    for b in &audit.blocks {
        assert_eq!(b.hazards_examined, 0, "{}", b.opcode);
        assert!(b.findings.is_empty() && b.unresolved.is_empty(), "{b:?}");
    }
    assert_eq!(audit.blocks.iter().map(|b| b.variants).sum::<usize>(), 4 + 3);
    assert!(audit.blocks.iter().all(|b| b.read_from == ReadFrom::Text));
}

/// A block read from the text is not read without one, and says so; it is
/// neither clean nor unsettled.
#[test]
fn a_block_read_from_the_text_is_not_read_without_one() {
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("shl")], None).expect("runs");
    assert!(audit.findings.is_empty());
    assert_eq!(audit.blocks[0].read_from, ReadFrom::NotRead);
    assert!(audit.blocks[0].unresolved.is_empty());
}

#[test]
fn signed_add_overflows_and_short_results_convert() {
    let Some(seeds) = common::spec_text("signed_add_overflows_and_short_results_convert") else { return };
    let doc = document::read(&[seeds]).expect("the spec text reads");
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("add")], Some(&doc)).expect("runs");
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

/// szext's block, read from the seeds, is not C, and its smallest repair
/// is still read: the repaired text shifts (~0), a negative int, on every input that does not
/// clamp, and shifts a negative .s32 value right.
#[test]
fn szext_is_not_c_and_its_repair_is_read_literally() {
    let Some(seeds) = common::spec_text("szext_is_not_c_and_its_repair_is_read_literally") else { return };
    let doc = document::read(&[seeds]).expect("the spec text reads");
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("szext")], Some(&doc)).expect("runs");
    let ids: Vec<&str> = audit.findings.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        ["literal-szext-left-shift-of-negative", "literal-szext-not-c", "literal-szext-right-shift-of-negative"]
    );
    let not_c = &audit.findings[1];
    assert!(not_c.witness.is_none());
    assert!(not_c.detail.iter().any(|d| d.contains("sign_bit ? mask : 0")), "{:?}", not_c.detail);
    // The least witness of the left shift: b = 0 shifts (~0) by 0, which is
    // undefined all the same.
    let w = audit.findings[0].witness.as_ref().expect("a witness");
    assert!(w.inputs.iter().all(|(_, v)| v.unsigned() == 0), "{w:?}");
    let b = &audit.blocks[0];
    assert!(b.hazards_examined > 0 && b.unresolved.is_empty(), "{b:?}");
}

/// and.b32 transcribed as `a | b`: the audit must catch it.
struct WrongAnd;

impl Transcription for WrongAnd {
    fn literal<A: Algebra>(&self, c: &mut C<A>, _variant: &Variant, inputs: &[A::Bv]) -> Outputs<A> {
        let t = CType::of_width(c.alg().width(inputs[0]), false);
        let (a, b) = (c.operand(inputs[0], t), c.operand(inputs[1], t));
        let r = c.or(a, b);
        let d = c.assign("d = a & b", r, t);
        vec![defined(c.alg(), d.bits)]
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

/// Every loop whose iterations depend on the inputs is proven to stop
/// within the iterations its transcription unrolls, one per variant.
#[test]
fn every_input_dependent_loop_is_proven_to_stop() {
    let Some(doc) = seeds("every_input_dependent_loop_is_proven_to_stop") else { return };
    let audit =
        audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("popc"), the_block("clz"), the_block("bfi")], Some(&doc))
            .expect("runs");
    for b in &audit.blocks {
        assert_eq!(b.loops_bounded, b.variants, "{b:?}");
        assert!(b.unresolved.is_empty(), "{b:?}");
    }
}

/// popc's `while (a != 0)` unrolled 31 times, too few for .b32 and .b64.
struct ShortPopc;

impl Transcription for ShortPopc {
    fn literal<A: Algebra>(&self, c: &mut C<A>, _variant: &Variant, inputs: &[A::Bv]) -> Outputs<A> {
        let alg = c.alg();
        let mut a = c.operand(inputs[0], CType::of_width(alg.width(inputs[0]), false));
        let mut d = c.value(CType::UInt, 0);
        let mut running = alg.bool_constant(true);
        for _ in 0..31 {
            let zero = c.lit("0");
            let test = c.ne(a, zero);
            running = alg.and(running, c.truth(test));
            let low = c.lit("0x1");
            let bit = c.and(a, low);
            let step = c.from_bool(alg.and(running, c.truth(bit)));
            let sum = c.add("d++", d, step);
            d = c.assign("d++", sum, CType::UInt);
            let one = c.lit("1");
            let shifted = c.shr("a >> 1", a, one);
            a = c.select(running, shifted, a);
        }
        let zero = c.lit("0");
        let test = c.ne(a, zero);
        c.loop_ends("while (a != 0)", 31, alg.and(running, c.truth(test)));
        vec![defined(alg, d.bits)]
    }
}

/// A loop cut short is named, with the least input on which it would run
/// on; the audit is then incomplete, never clean.
#[test]
fn a_loop_unrolled_too_few_times_is_caught() {
    let popc = Variant::from_mnemonic("popc.b32").expect("a variant");
    let block = Block { opcode: "popc", ..the_block("popc") };
    let (check, _) = audit_block_with(&Backend::Embedded, TIMEOUT, &block, &ShortPopc).expect("the audit runs");
    assert_eq!(check.loops_bounded, 0, "{check:?}");
    let expected = format!(
        "{popc}: `while (a != 0)` after 31 iterations: still runs at a = 0x80000000, past the passes the C reading unrolls"
    );
    assert!(check.unresolved.contains(&expected), "{:?}", check.unresolved);
}

/// The other reading of an unstated case: with .b32 and .b64 read as signed
/// C types, popc's `a = a >> 1` keeps a negative a negative and the loop
/// never ends; the least input where it runs past its bound is the sign bit
/// alone. The audit's own reading (unsigned) stays clean.
#[test]
fn signed_bit_types_make_popcs_loop_run_forever() {
    let Some(doc) = seeds("signed_bit_types_make_popcs_loop_run_forever") else { return };
    let audit = audit_blocks(&Backend::Embedded, TIMEOUT, &[the_block("popc")], Some(&doc)).expect("runs");
    let ids: Vec<&str> = audit.findings.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["literal-popc-bit-types-signed"]);
    let f = &audit.findings[0];
    assert_eq!(f.kind, FindingKind::LiteralReading);
    assert!(f.summary.contains("`while (a != 0)` never ends"), "{}", f.summary);
    assert!(f.detail.iter().any(|d| d.starts_with("`a >> 1` is implementation-defined")), "{:?}", f.detail);
    let w = f.witness.as_ref().expect("a witness");
    assert_eq!(w.variant, "popc.b32");
    assert_eq!(w.inputs, [("a".to_string(), bv(32, 0x8000_0000))]);
    assert!(audit.blocks[0].unresolved.is_empty(), "{:?}", audit.blocks[0].unresolved);
}
