//! The audit of ambiguous passages: readings are compared by the solver, and
//! every witness is confirmed by evaluating the readings concretely.

mod common;

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::bv::BitVec;
use ptxcheck::audit::passages::compare::{check, finding, Agreement, PairVerdict};
use ptxcheck::audit::passages::PASSAGES;

/// The passage `id`; its comparisons go through the run's proof cache, so
/// that a passage two tests check (and `ptxcheck audit` after them) is
/// solved once.
fn passage(id: &str) -> &'static ptxcheck::audit::passages::Passage {
    common::share_cache_in_process();
    PASSAGES.iter().find(|p| p.id == id).unwrap()
}

fn verdict<'a>(r: &'a ptxcheck::audit::passages::compare::PassageResult, a: &str, b: &str, v: &str) -> &'a PairVerdict {
    &r.pairs.iter().find(|p| p.first == a && p.second == b && p.variant == v).unwrap().verdict
}

#[test]
fn szext_repairs_against_the_prose() {
    let r = check(passage("szext-mask-or-zero"), &Backend::Embedded, Duration::from_secs(60));
    assert_eq!(verdict(&r, "colon", "model", "szext.clamp.s32"), &PairVerdict::Agree);
    assert_eq!(verdict(&r, "colon", "colon-after", "szext.wrap.s32"), &PairVerdict::Agree);
    // Dropping the conditional loses sign extension: 1 bit of a = 1 is -1.
    let PairVerdict::Differ { witness } = verdict(&r, "colon", "drop-conditional", "szext.wrap.s32") else {
        panic!("drop-conditional must differ from colon on .s32")
    };
    let ins: Vec<u128> = witness.inputs.iter().map(|(_, v)| v.unsigned()).collect();
    let outs: Vec<Option<BitVec>> = witness.rows[0].1.clone();
    assert_ne!(outs[0], outs[1]);
    // The witness is real: the emulator's szext agrees with the colon column.
    let v = ptx_spec::Variant::from_mnemonic("szext.wrap.s32").unwrap();
    let model = v.run(&ins)[0].unwrap();
    assert_eq!(outs[0].unwrap(), model);
    // .u32 never sign-extends, so dropping the conditional is harmless there.
    assert_eq!(verdict(&r, "colon", "drop-conditional", "szext.wrap.u32"), &PairVerdict::Agree);
    let colon = r.readings.iter().find(|s| s.name == "colon").unwrap();
    assert_eq!(
        (colon.prose, colon.examples, colon.pseudocode),
        (Agreement::Yes, Agreement::Yes, Agreement::NotApplicable)
    );
    let swapped = r.readings.iter().find(|s| s.name == "swapped").unwrap();
    assert_eq!((swapped.prose, swapped.examples), (Agreement::No, Agreement::No));
    let f = finding(&r);
    assert_eq!(f.id, "szext-mask-or-zero");
    assert!(f.witness.is_some());
}

#[test]
fn bfe_sign_bit_sentence() {
    let r = check(passage("bfe-sign-bit"), &Backend::Embedded, Duration::from_secs(60));
    // "beyond" and "reaches" agree: at pos+len-1 = msb both read a's msb.
    assert_eq!(verdict(&r, "field-msb-clamped", "reaches-msb", "bfe.s32"), &PairVerdict::Agree);
    assert_eq!(verdict(&r, "field-msb-clamped", "model", "bfe.s64"), &PairVerdict::Agree);
    assert!(matches!(verdict(&r, "field-msb-clamped", "otherwise-dangling", "bfe.s32"), PairVerdict::Differ { .. }));
    assert!(matches!(verdict(&r, "field-msb-clamped", "start-past-msb", "bfe.s32"), PairVerdict::Differ { .. }));
}

#[test]
fn shfl_source_lane_readings() {
    let r = check(passage("shfl-source-lane"), &Backend::Embedded, Duration::from_secs(60));
    // Going down, an unsigned j cannot wrap below 0, so it changes nothing.
    assert_eq!(verdict(&r, "model", "unsigned-32", "shfl.down.b32 d|p"), &PairVerdict::Agree);
    let PairVerdict::Differ { witness } = verdict(&r, "model", "five-bit", "shfl.up.b32 d|p") else {
        panic!("a 5-bit j wraps below lane 0")
    };
    // p tells them apart: out of range for the model, in range when wrapped.
    let p = witness.rows.iter().find(|(n, _)| n == "p").unwrap();
    assert_eq!(p.1, vec![Some(BitVec::new(1, 0)), Some(BitVec::new(1, 1))]);
}

#[test]
fn every_passage_is_settled() {
    common::share_cache_in_process();
    for p in PASSAGES.iter().filter(|p| !p.variants.iter().any(|v| v.starts_with("shfl") || v.starts_with("fns"))) {
        let r = check(p, &Backend::Embedded, Duration::from_secs(60));
        for q in &r.pairs {
            assert!(
                !matches!(q.verdict, PairVerdict::Unknown { .. }),
                "{}: {} vs {} on {}",
                p.id,
                q.first,
                q.second,
                q.variant
            );
        }
        // Every passage records a real choice: some reading differs from the adopted one.
        assert!(
            r.pairs.iter().any(|q| matches!(q.verdict, PairVerdict::Differ { .. })),
            "{}: all readings agree",
            p.id
        );
    }
}

/// The prose-against-pseudocode pass: a comment inside a Semantics block is
/// prose. bfind's "negate" (9.7.1.16) is not what `a = ~a` does: at the most
/// negative value, -a searches 0x80000000 (31) and ~a 0x7fffffff (30).
#[test]
fn a_comment_that_contradicts_its_block_is_prose_vs_pseudocode() {
    use ptxcheck::audit::finding::FindingKind;
    let r = check(passage("bfind-negate-comment"), &Backend::Embedded, Duration::from_secs(60));
    let f = finding(&r);
    assert_eq!(f.kind, FindingKind::ProseVsPseudocode);
    let w = f.witness.as_ref().expect("a witness");
    assert_eq!((w.variant.as_str(), w.inputs[0].1.unsigned()), ("bfind.s32", 0x8000_0000));
    assert_eq!(w.rows[0].1, [Some(BitVec::new(32, 30)), Some(BitVec::new(32, 31))]);
    // A passage where a prose reading agrees with the block stays an
    // ambiguity (bfe's sentence on the sign bit has such a parse).
    let bfe = finding(&check(passage("bfe-sign-bit"), &Backend::Embedded, Duration::from_secs(60)));
    assert_eq!(bfe.kind, FindingKind::Ambiguity);
}

/// The restriction pass, per width: bfe's start and length "restricted to"
/// 0..255 (9.7.1.19), masked as the block does or clamped, differ at both
/// widths; the 64-bit witness is where ptxas's folding clamps.
#[test]
fn a_stated_restriction_is_read_three_ways_at_each_width() {
    let r = check(passage("bfe-operand-range"), &Backend::Embedded, Duration::from_secs(60));
    for v in ["bfe.u32", "bfe.s32", "bfe.u64", "bfe.s64"] {
        assert!(matches!(verdict(&r, "model", "clamped", v), PairVerdict::Differ { .. }), "{v}");
        assert!(matches!(verdict(&r, "model", "out-of-contract", v), PairVerdict::Differ { .. }), "{v}");
    }
    let v = ptx_spec::Variant::from_mnemonic("bfe.u64").unwrap();
    // ptxas folds bfe.u64 0x40, 0x80000000, 0xffffffff to 0: the field
    // clamped to start at 255, past the msb; masked it starts at 0.
    let masked = v.run(&[0x40, 0x8000_0000, 0xffff_ffff])[0].unwrap();
    assert_eq!(masked.unsigned(), 0x40);
    let clamped = v.run(&[0x40, 255, 255])[0].unwrap();
    assert_eq!(clamped.unsigned(), 0);
}
