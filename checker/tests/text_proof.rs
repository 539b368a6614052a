//! The third proof: each variant's Semantics block, read from the user's
//! copy of the document, evaluated over the bit-vector algebra and proven
//! against its SMT encoding. Evaluated concretely, each block must also
//! compute what the emulator computes wherever the model defines a result;
//! a block edited to say something else must be caught with a witness.

mod common;

use std::time::Duration;

use proptest::prelude::*;
use ptx_smt::Backend;
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::Variant;
use ptxcheck::audit::text::document::{self, Document};
use ptxcheck::text_proof::{prove_text, read_block, setting, text_semantics, TextVerdict, DIFFERENCES};

const TIMEOUT: Duration = Duration::from_secs(120);

/// The seeds and the modelled 9.1 sections; the proofs against them go
/// through the run's proof cache, which `prove all --text` reads after.
fn seeds(test: &str) -> Option<Document> {
    common::share_cache_in_process();
    let dir = common::spec_text(test)?;
    let mut paths = vec![dir.clone()];
    paths.extend(common::modelled_new_sections(&dir));
    Some(document::read(&paths).expect("the seeds"))
}

/// Opcodes whose block the evaluator does not read yet: prmt calls
/// `ReadByte`, which the text never defines and no reading supplies.
const NOT_READ_YET: &[&str] = &["prmt"];

/// Whether the evaluator reads `v`'s block: not prmt's, nor slct's with an
/// .f32 `c`, which it compares as a float.
fn read_yet(v: &Variant) -> bool {
    let float_test = v.opcode() == "slct" && v.to_string().ends_with(".f32");
    !NOT_READ_YET.contains(&v.opcode()) && !float_test
}

/// The block's outputs for `variant` on `inputs`, concretely (`None`
/// where the text leaves an output undefined).
fn text_run(doc: &Document, variant: &Variant, inputs: &[u128]) -> Vec<Option<BitVec>> {
    let block = read_block(doc, variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
    let s = setting(variant, &block.readings).unwrap_or_else(|e| panic!("{variant}: {e}"));
    let ins: Vec<BitVec> = variant.inputs().iter().zip(inputs).map(|(o, &x)| BitVec::new(o.ty.width(), x)).collect();
    // The destinations hold all ones before the block runs: a bit it does
    // not write would show.
    let befores: Vec<BitVec> = variant.outputs().iter().map(|o| BitVec::new(o.ty.width(), u128::MAX)).collect();
    let outs =
        text_semantics(&Concrete, variant, &block, &s, &ins, &befores).unwrap_or_else(|e| panic!("{variant}: {e}"));
    outs.into_iter().map(|o| o.defined.then_some(o.value)).collect()
}

#[test]
fn hand_worked_values_from_the_text() {
    let Some(doc) = seeds("hand_worked_values_from_the_text") else { return };
    let run = |name: &str, inputs: &[u128]| -> Option<u128> {
        let v = Variant::from_mnemonic(name).unwrap_or_else(|| panic!("no variant {name}"));
        text_run(&doc, &v, inputs)[0].map(BitVec::unsigned)
    };
    assert_eq!(run("popc.b32", &[0xf0f0]), Some(8));
    // clz as the model reads its loop test: (a & mask) == 0.
    assert_eq!(run("clz.b32", &[0x0000_8000]), Some(16));
    assert_eq!(run("bfind.u32", &[0x0000_8000]), Some(15));
    assert_eq!(run("bfind.shiftamt.u32", &[0x0000_8000]), Some(16));
    assert_eq!(run("brev.b32", &[1]), Some(0x8000_0000));
    assert_eq!(run("mul.hi.u32", &[0xffff_ffff, 0xffff_ffff]), Some(0xffff_fffe));
    assert_eq!(run("bfe.s32", &[0x0000_00f0, 4, 4]), Some(0xffff_ffff));
    // fns: the second set bit at or above bit 0 of 0b1010 is bit 3.
    assert_eq!(run("fns.b32", &[0b1010, 0, 2]), Some(3));
    // A division by zero is undefined in the text.
    assert_eq!(run("div.u32", &[7, 0]), None);
    // shf.l reads each case as ending at the next label: 32 msbs of b:a.
    assert_eq!(run("shf.l.wrap.b32", &[0x8000_0000, 0x0000_0001, 1]), Some(0x0000_0003));
    // shfl, read as every lane's block: lane 3 of a full warp whose lane k
    // holds 0x10 * k takes lane 5's value with .idx (c = 0x1f), lane 1's
    // with .up 2 (c = 0), its own with .up 2 and c = 0x1f (a source lane
    // below the clamp); from an inactive lane, the value no one can
    // predict (here 0xdead).
    let warp = |lane: u128, b: u128, c: u128, inactive: Option<usize>| {
        let mut ins = vec![lane, b, c];
        ins.extend((0..32).map(|k| 0x10 * k));
        ins.extend((0..32).map(|k| u128::from(Some(k) != inactive)));
        ins.extend([0xdead; 32]);
        ins
    };
    assert_eq!(run("shfl.idx.b32", &warp(3, 5, 0x1f, None)), Some(0x50));
    assert_eq!(run("shfl.up.b32", &warp(3, 2, 0, None)), Some(0x10));
    assert_eq!(run("shfl.up.b32", &warp(3, 2, 0x1f, None)), Some(0x30));
    assert_eq!(run("shfl.idx.b32", &warp(3, 5, 0x1f, Some(5))), Some(0xdead));
    // set and setp (9.7.6.1-2): 0 < 0x80000000 unsigned, not signed; `!c`
    // is c's complement; the .f32 destination holds 1.0's bits.
    let outs = |name: &str, inputs: &[u128]| -> Vec<Option<u128>> {
        let v = Variant::from_mnemonic(name).unwrap_or_else(|| panic!("no variant {name}"));
        text_run(&doc, &v, inputs).into_iter().map(|o| o.map(BitVec::unsigned)).collect()
    };
    assert_eq!(outs("setp.lt.u32", &[0, 0x8000_0000]), [Some(1)]);
    assert_eq!(outs("setp.lt.s32", &[0, 0x8000_0000]), [Some(0)]);
    assert_eq!(outs("setp.hs.u16 p|q", &[7, 7]), [Some(1), Some(0)]);
    assert_eq!(outs("setp.lt.and.s32 p|q", &[1, 2, 1]), [Some(1), Some(0)]);
    assert_eq!(outs("setp.lt.and.s32 p|q !c", &[1, 2, 1]), [Some(0), Some(0)]);
    assert_eq!(outs("setp.eq.xor.b64 p|q !c", &[5, 5, 1]), [Some(1), Some(0)]);
    assert_eq!(outs("set.ne.u32.b16", &[1, 2]), [Some(0xffff_ffff)]);
    assert_eq!(outs("set.ne.s32.b16", &[1, 2]), [Some(0xffff_ffff)]);
    assert_eq!(outs("set.ne.f32.b16", &[1, 2]), [Some(0x3f80_0000)]);
    assert_eq!(outs("set.gt.or.f32.s64", &[1, 2, 0]), [Some(0)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Wherever the emulator defines a result, the text computes it too,
    /// for every variant whose block the evaluator reads.
    #[test]
    fn the_text_computes_what_the_emulator_computes(seed in any::<[u128; 8]>()) {
        let Some(doc) = seeds("the_text_computes_what_the_emulator_computes") else { return Ok(()) };
        for v in Variant::all() {
            // Where the model names a difference from the block, the two differ.
            if DIFFERENCES.iter().any(|d| d.concerns(&v)) || !read_yet(&v) {
                continue;
            }
            let inputs: Vec<u128> = v.inputs().iter().zip(seed.iter().cycle()).map(|(_, x)| *x).collect();
            let text = text_run(&doc, &v, &inputs);
            for (k, (model, text)) in v.run(&inputs).into_iter().zip(text).enumerate() {
                if let Some(m) = model {
                    prop_assert_eq!(Some(m), text, "{} output {} on {:x?}", v, k, inputs);
                }
            }
        }
    }
}

/// Every variant's third proof holds, names its difference, or says why the
/// block cannot be read; none differs unexplained, none is stale.
#[test]
fn every_variant_is_proven_against_the_text_or_names_why_not() {
    let Some(doc) = seeds("every_variant_is_proven_against_the_text_or_names_why_not") else { return };
    let mut counts = std::collections::BTreeMap::new();
    for v in Variant::all() {
        let proof = prove_text(&doc, &v, &Backend::Embedded, TIMEOUT);
        assert!(proof.verdict.accounted(), "{v}: {:?}", proof.verdict);
        *counts.entry(proof.verdict.label()).or_insert(0) += 1;
    }
    let counts: Vec<String> = counts.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    // Not read: prmt's 7 and slct's 22 .f32 forms.
    assert_eq!(counts.join(", "), "named difference: 28, not read: 29, proven: 2127");
}

/// setp's block with `q` edited to combine `t` itself is caught, for the
/// forms with a Boolean operator and a `q`.
#[test]
fn an_edited_comparison_block_is_caught() {
    let Some(dir) = common::spec_text("an_edited_comparison_block_is_caught") else { return };
    let mut files = vec![dir.clone()];
    files.extend(common::modelled_new_sections(&dir));
    let edited = std::sync::atomic::AtomicUsize::new(0);
    let copy = common::edited_copy(&files, |text| {
        let new = text.replace("q = BoolOp(!t, c);", "q = BoolOp(t, c);");
        edited.fetch_add(usize::from(new != text), std::sync::atomic::Ordering::Relaxed);
        new
    });
    assert_eq!(edited.into_inner(), 1, "setp's block holds the line once");
    let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
    let proof = |name: &str| prove_text(&doc, &Variant::from_mnemonic(name).unwrap(), &Backend::Embedded, TIMEOUT);
    match proof("setp.lt.and.s32 p|q").verdict {
        TextVerdict::Differs(cex) => assert_ne!(cex.outputs[1].smt, cex.outputs[1].concrete, "q differs"),
        other => panic!("the edited setp block was not caught: {other:?}"),
    }
    // p alone does not read q: still proven.
    assert!(matches!(proof("setp.lt.and.s32").verdict, TextVerdict::Proven { .. }));
}

/// A block edited to compute something else is caught, with a witness on
/// which the edited text and the encoding differ.
#[test]
fn an_edited_block_is_caught() {
    let Some(dir) = common::spec_text("an_edited_block_is_caught") else { return };
    // sad's absolute difference turned around.
    let copy = common::edited_copy(&[dir], |text| text.replace("(a<b) ? b-a : a-b", "(a<b) ? a-b : b-a"));
    let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
    let v = Variant::from_mnemonic("sad.u32").unwrap();
    match prove_text(&doc, &v, &Backend::Embedded, TIMEOUT).verdict {
        TextVerdict::Differs(cex) => {
            let out = &cex.outputs[0];
            assert_ne!(out.smt, out.concrete, "the witness shows the difference");
        }
        other => panic!("the edited sad block was not caught: {other:?}"),
    }
}
