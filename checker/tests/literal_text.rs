//! The literal C reading of the text's own Semantics blocks against the
//! hand transcriptions, finding by finding, on every variant of each block
//! the reading follows: the families switch to the text one at a time, and
//! this is what each switch rests on.

mod common;

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::Variant;
use ptxcheck::audit::errata;
use ptxcheck::audit::finding::Finding;
use ptxcheck::audit::literal::table::{block, Transcription};
use ptxcheck::audit::literal::check::audit_block_with;
use ptxcheck::audit::literal::parsed::{ParsedReading, FROM_TEXT};
use ptxcheck::audit::literal::C;
use ptxcheck::audit::text::document::{self, Document};

const TIMEOUT: Duration = Duration::from_secs(60);

/// Where the text and the transcription differ (`docs/audit.md`, the
/// literal reading of the text): the opcode, and the finding only the text
/// gives. shf's switch has no `break`, so read as C case `shf.l` runs on
/// into case `shf.r`: shf.l gives shf.r's result, and meets shf.r's shifts
/// too, so a hazard's first witness may be a shf.l variant. The
/// transcription ends each case at the next label.
const TEXT_ONLY: &[(&str, &str)] = &[("shf", "literal-shf-wrong-result")];

/// The seeds and the 9.1 sections with a model beside them, as CI reads
/// them.
fn doc(test: &str) -> Option<Document> {
    let seeds = common::spec_text(test)?;
    let mut paths = vec![seeds.clone()];
    paths.extend(common::modelled_new_sections(&seeds));
    Some(document::read(&paths).expect("the spec text reads"))
}

type Said = (String, String, String, Option<Vec<String>>);

/// What a finding says: its id, kind, severity and witness (variant,
/// inputs, and each output under each column), with the variants where
/// its rule is reached.
fn said(f: &Finding) -> Said {
    let inputs = f.witness.as_ref().map(|w| {
        let mut all = vec![w.variant.clone()];
        all.extend(w.inputs.iter().map(|(n, v)| format!("{n} = {v}")));
        all.extend(w.rows.iter().map(|r| format!("{r:?}")));
        all.extend(f.detail.iter().filter(|d| d.starts_with("Reachable")).cloned());
        all
    });
    (f.id.clone(), format!("{:?}", f.kind), format!("{:?}", f.severity), inputs)
}

/// Where the text names per line what the transcription names once for
/// the block: a transcribed finding, and the text's findings it is (the
/// same rule, kind and severity). The transcriptions name a rule's hazard
/// under one fragment for all the variants' lines (`d = t...`), and
/// under the statement (`t = a * b`, `+ CC.CF`); the text names each
/// under its own expression (`d = t<31..0>`, `a * b`,
/// `t<31..0> + c + CC.CF`).
const RENAMED: &[(&str, &[&str])] = &[
    (
        "literal-mul-conversion-out-of-range",
        &[
            "literal-mul-conversion-out-of-range-d-t-2n-minus-1-n",
            "literal-mul-conversion-out-of-range-d-t-n-minus-1-0",
        ],
    ),
    (
        "literal-mad-conversion-out-of-range",
        &[
            "literal-mad-conversion-out-of-range-d-t-2n-minus-1-n-plus-c",
            "literal-mad-conversion-out-of-range-d-t-n-minus-1-0-plus-c",
        ],
    ),
    ("literal-mad-signed-overflow-t-a-times-b", &["literal-mad-signed-overflow-a-times-b"]),
    (
        "literal-mul24-conversion-out-of-range",
        &["literal-mul24-conversion-out-of-range-d-t-47-16", "literal-mul24-conversion-out-of-range-d-t-31-0"],
    ),
    (
        "literal-mad24-conversion-out-of-range",
        &[
            "literal-mad24-conversion-out-of-range-d-t-47-16-plus-c",
            "literal-mad24-conversion-out-of-range-d-t-31-0-plus-c",
        ],
    ),
    (
        "literal-mad.cc-conversion-out-of-range",
        &[
            "literal-mad.cc-conversion-out-of-range-d-t-63-32-plus-c",
            "literal-mad.cc-conversion-out-of-range-d-t-31-0-plus-c",
        ],
    ),
    ("literal-mad.cc-signed-overflow-t-a-times-b", &["literal-mad.cc-signed-overflow-a-times-b"]),
    (
        "literal-madc-conversion-out-of-range",
        &[
            "literal-madc-conversion-out-of-range-d-t-63-32-plus-c-plus-cc-cf",
            "literal-madc-conversion-out-of-range-d-t-31-0-plus-c-plus-cc-cf",
        ],
    ),
    ("literal-madc-signed-overflow-t-a-times-b", &["literal-madc-signed-overflow-a-times-b"]),
    (
        "literal-madc-signed-overflow-plus-cc-cf",
        &[
            "literal-madc-signed-overflow-t-63-32-plus-c-plus-cc-cf",
            "literal-madc-signed-overflow-t-31-0-plus-c-plus-cc-cf",
        ],
    ),
];

/// One block read from the text against its transcription, finding by
/// finding, with the differences the tables above explain.
fn compare(doc: &Document, opcode: &str) {
    let b = block(opcode).expect("a transcribed block");
    let reading = ParsedReading::of(doc, &b.variants()).unwrap_or_else(|e| panic!("{opcode}: {e}"));
    let (check, by_hand) = audit_block_with(&Backend::Embedded, TIMEOUT, b, b).unwrap();
    let (text_check, parsed) = audit_block_with(&Backend::Embedded, TIMEOUT, b, &reading).unwrap();
    assert_eq!(text_check.unresolved, check.unresolved, "{opcode}: what the solver left open");
    let only = TEXT_ONLY.iter().find(|(op, _)| *op == opcode).map(|(_, f)| *f);
    // The transcription's findings under the text's names, each with the
    // witness to compare where the name is the same.
    let mut want: Vec<(Said, bool)> = Vec::new();
    for f in &by_hand {
        match RENAMED.iter().find(|(id, _)| *id == f.id) {
            Some((_, names)) => want.extend(names.iter().map(|n| ((n.to_string(), said(f).1, said(f).2, None), false))),
            None => want.push((said(f), only.is_none())),
        }
    }
    want.sort_by(|x, y| x.0 .0.cmp(&y.0 .0));
    let got: Vec<&Finding> = parsed.iter().filter(|f| Some(f.id.as_str()) != only).collect();
    assert!(only.is_none_or(|o| parsed.iter().any(|f| f.id == o)), "{opcode}: no {only:?}");
    let ids = |all: &[String]| all.join(", ");
    let (w, g): (Vec<String>, Vec<String>) =
        (want.iter().map(|x| x.0 .0.clone()).collect(), got.iter().map(|f| f.id.clone()).collect());
    assert_eq!(ids(&g), ids(&w), "{opcode}");
    for ((expected, witnessed), f) in want.iter().zip(&got) {
        let s = said(f);
        assert_eq!((&s.1, &s.2), (&expected.1, &expected.2), "{opcode}: {}", f.id);
        if *witnessed {
            assert_eq!(witness_as_transcribed(&s, expected), expected.3, "{opcode}: {}", f.id);
        }
    }
}

/// The text's witness with its table cut to the outputs the transcription
/// computes: the carry flag, which the prose under a 9.7.2 block writes,
/// is a row of the text's table (never stored by the block) and not of
/// the transcription's.
fn witness_as_transcribed(text: &Said, transcribed: &Said) -> Option<Vec<String>> {
    let (Some(t), Some(h)) = (&text.3, &transcribed.3) else { return text.3.clone() };
    let kept: Vec<String> =
        t.iter().filter(|line| !line.starts_with("(\"CC.CF\"") || h.contains(*line)).cloned().collect();
    Some(kept)
}

#[test]
fn the_parsed_blocks_give_the_transcriptions_findings() {
    let Some(doc) = doc("the_parsed_blocks_give_the_transcriptions_findings") else { return };
    for opcode in FROM_TEXT {
        compare(&doc, opcode);
    }
}

/// What a reading gives on concrete inputs: each output, and the C rules
/// that apply there, in order.
fn run<T: Transcription>(
    reading: &T,
    variant: &Variant,
    inputs: &[BitVec],
    signed: bool,
) -> (Vec<Option<BitVec>>, Vec<String>, usize) {
    let alg = Concrete;
    let mut c = if signed { C::with_signed_bit_types(&alg) } else { C::new(&alg) };
    let outs = reading.literal(&mut c, variant, inputs).into_iter().map(|o| o.defined.then_some(o.value)).collect();
    let running = c.loops().iter().filter(|l| l.still_running).count();
    let mut rules: Vec<String> = c.hazards().iter().filter(|h| h.when).map(|h| h.rule.slug().to_string()).collect();
    rules.sort();
    rules.dedup();
    (outs, rules, running)
}

/// An edit of a block is read: xor written with a shift meets C's rule on
/// shifts by the width, which no transcription of xor holds.
#[test]
fn an_edited_block_is_read_as_edited() {
    let Some(seeds) = common::spec_text("an_edited_block_is_read_as_edited") else { return };
    let copy = common::edited_copy(&[seeds], |text| text.replace("d = a ^ b;", "d = a << b;"));
    let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
    let b = block("xor").unwrap();
    let reading = ParsedReading::of(&doc, &b.variants()).unwrap();
    let (_, findings) = audit_block_with(&Backend::Embedded, TIMEOUT, b, &reading).unwrap();
    let ids: Vec<&str> = findings.iter().map(|f| f.id.as_str()).collect();
    assert!(ids.contains(&"literal-xor-shift-past-width"), "{ids:?}");
    let (_, by_hand) = audit_block_with(&Backend::Embedded, TIMEOUT, b, b).unwrap();
    assert!(by_hand.iter().all(|f| !f.id.contains("shift")), "the transcription reads the text it was made from");
}

/// szext's block with its colon written and its sign bit taken from an
/// `(unsigned)` cast: it parses as written, so it is C (the table's not-C
/// word is the transcription's alone), and the cast's shift of a
/// non-negative value is defined.
#[test]
fn a_repaired_block_read_from_the_text_is_c() {
    let Some(seeds) = common::spec_text("a_repaired_block_read_from_the_text_is_c") else { return };
    let copy = common::edited_copy(&[seeds], |text| {
        text.replace("sign_bit ? mask | 0", "sign_bit ? mask : 0")
            .replace("sign_bit = (a >> sign_pos) & 1;", "sign_bit = ((unsigned)a >> sign_pos) & 1;")
    });
    let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
    let b = block("szext").unwrap();
    let ids = |findings: &[Finding]| findings.iter().map(|f| f.id.clone()).collect::<Vec<_>>();
    let reading = ParsedReading::of(&doc, &b.variants()).unwrap();
    let (_, parsed) = audit_block_with(&Backend::Embedded, TIMEOUT, b, &reading).unwrap();
    assert_eq!(ids(&parsed), ["literal-szext-left-shift-of-negative"]);
    let (_, by_hand) = audit_block_with(&Backend::Embedded, TIMEOUT, b, b).unwrap();
    assert!(ids(&by_hand).contains(&"literal-szext-not-c".to_string()), "{:?}", ids(&by_hand));
}

/// slct's `.f32` `c` compared with 0 as C does, written either way round
/// and with either order: a NaN is unordered (every order false), -0
/// equals 0, and a negative subnormal is below 0, C having no `.ftz`.
#[test]
fn slcts_float_test_is_cs_comparison_in_every_order() {
    let Some(seeds) = common::spec_text("slcts_float_test_is_cs_comparison_in_every_order") else { return };
    let variant = Variant::from_mnemonic("slct.b32.f32").expect("a variant");
    let (a, b) = (BitVec::new(32, 0xa), BitVec::new(32, 0xb));
    // c, and whether `c >= 0` holds.
    let cases = [
        (0x7fc0_0000, false),
        (0xffc0_0000, false),
        (0x7f80_0001, false),
        (0x0000_0000, true),
        (0x7f80_0000, true),
        (0x8000_0000, true),
        (0x8000_0001, false),
        (0x0000_0001, true),
        (0xff80_0000, false),
    ];
    let blocks = [
        ("d = (c >= 0) ? a : b;", true),
        ("d = (0 <= c) ? a : b;", true),
        ("d = (c < 0) ? b : a;", false),
        ("d = (0 > c) ? b : a;", false),
        ("d = (c > 0 || c == 0) ? a : b;", true),
        ("d = (c <= 0 && c != 0) ? b : a;", false),
    ];
    for (block, ordered) in blocks {
        let mut files = vec![seeds.clone()];
        files.extend(common::modelled_new_sections(&seeds));
        let copy = common::edited_copy(&files, |text| text.replace("d = (c >= 0) ? a : b;", block));
        let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
        let reading = ParsedReading::of(&doc, &[variant]).unwrap_or_else(|e| panic!("{block}: {e}"));
        for (c, at_least_zero) in cases {
            let nan = c & 0x7fff_ffff > 0x7f80_0000;
            // A test written as `c < 0` picks a for a NaN, which no order holds for.
            let picks_a = if nan { !ordered } else { at_least_zero };
            let (outs, _, _) = run(&reading, &variant, &[a, b, BitVec::new(32, c)], false);
            assert_eq!(outs[0], Some(if picks_a { a } else { b }), "{block} with c = {c:#010x}");
        }
    }
}

/// A loop's counter is read in each pass as the constant it holds there,
/// and after the loop as what each input left it at: bfind's loop edited
/// to leave by `break` with `i` read after it, where a stale constant
/// would give every input the same `d`.
#[test]
fn a_counter_after_its_loop_holds_where_each_input_left() {
    let Some(seeds) = common::spec_text("a_counter_after_its_loop_holds_where_each_input_left") else { return };
    let copy = common::edited_copy(&[seeds], |text| {
        text.replace("if (a & (1<<i))  { d = i; break; }", "if (a & (1<<i)) break;")
            .replace("if (.shiftamt && d != 0xffffffff)  { d = msb - d; }", "d = (i >= 0) ? i : 99;")
    });
    let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
    let b = block("bfind").unwrap();
    let reading = ParsedReading::of(&doc, &b.variants()).unwrap();
    let variant = Variant::from_mnemonic("bfind.u32").expect("a variant");
    for (a, d) in [(0x10, 4), (0, 99), (0x7fff_ffff, 30), (1, 0)] {
        let (outs, _, _) = run(&reading, &variant, &[BitVec::new(32, a)], false);
        assert_eq!(outs, [Some(BitVec::new(32, d))], "bfind.u32 of {a:#x}");
    }
}

/// prmt's block with every proposed fix that edits it (a 64-bit tmp64,
/// `ctl` declared and filled with the target byte under a mode, ReadByte
/// defined by its comment, `d = tmp;`, `tmp[15:8]`, `.mode`), read as C:
/// the model's result on every input of every variant, and no rule met but
/// the sign of the `.b32` operands that the introduction's fix states.
#[test]
fn prmts_block_with_its_fixes_gives_the_models_result() {
    let Some(seeds) = common::spec_text("prmts_block_with_its_fixes_gives_the_models_result") else { return };
    let prmt = common::modelled_new_sections(&seeds).into_iter().filter(|p| p.to_string_lossy().contains("prmt"));
    let files: Vec<std::path::PathBuf> = prmt.collect();
    // Later root causes first: the spelling fix's `ReadByte( .mode,`
    // would hide the line ReadByte's fix replaces.
    let edits: Vec<_> = errata::all()
        .iter()
        .rev()
        .flat_map(|rc| &rc.edits)
        .filter(|e| e.unit.starts_with("9.7.9.7/semantics/"))
        .collect();
    assert!(edits.len() >= 8, "prmt's fixes: {}", edits.len());
    let copy = common::edited_copy(&files, |text| {
        edits.iter().fold(text.to_string(), |t, e| {
            assert!(t.contains(&e.old), "{}: `{}`", e.unit, e.old);
            t.replacen(&e.old, &e.new, 1)
        })
    });
    let doc = document::read(&[copy.path().to_path_buf()]).unwrap();
    let b = block("prmt").unwrap();
    let reading = ParsedReading::of(&doc, &b.variants()).unwrap();
    let (check, findings) = audit_block_with(&Backend::Embedded, TIMEOUT, b, &reading).unwrap();
    assert!(check.unresolved.is_empty(), "{:?}", check.unresolved);
    let ids: Vec<&str> = findings.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        ["literal-prmt-bit-types-signed"],
        "{:?}",
        findings.iter().map(|f| (&f.summary, &f.witness)).collect::<Vec<_>>()
    );
}

/// The shuffles read from the text against their transcriptions on
/// concrete inputs, every form: each lane's result and whether it has one
/// (a lane that does not execute, a source lane that gives nothing, a
/// wait that does not end), and the C rules met. Both audits find nothing
/// on these blocks, so the findings alone would not tell a reading that
/// defines no result from one that agrees.
///
/// Again with the fix of `shfl-guard-off-writes`, whose `return;` ends the
/// block for a lane that does not execute.
#[test]
fn the_shuffles_read_from_the_text_give_each_lane_the_transcriptions_result() {
    let Some(doc) = doc("the_shuffles_read_from_the_text_give_each_lane_the_transcriptions_result") else { return };
    each_lane_as_transcribed(&doc);
    let seeds = common::spec_text("the_shuffles_read_from_the_text_give_each_lane_the_transcriptions_result").unwrap();
    let mut files = vec![seeds.clone()];
    files.extend(common::modelled_new_sections(&seeds).into_iter().filter(|p| p.to_string_lossy().contains("shfl")));
    let fix = errata::all().iter().find(|rc| rc.id == "shfl-guard-off-writes").expect("the root cause");
    // The same edit in each block, one block to a file.
    let edit = &fix.edits[0];
    assert!(fix.edits.iter().all(|e| (&e.old, &e.new) == (&edit.old, &edit.new)));
    let copy = common::edited_copy(&files, |text| text.replacen(&edit.old, &edit.new, 1));
    let edited = document::read(&[copy.path().to_path_buf()]).unwrap();
    let returns = ["9.7.9.5", "9.7.9.6"]
        .iter()
        .filter_map(|n| edited.section(n)?.block(document::BlockKind::Semantics))
        .flat_map(|b| b.code())
        .filter(|l| l.text.contains("return;"))
        .count();
    assert_eq!(returns, 2, "the fix is in both blocks");
    each_lane_as_transcribed(&edited);
}

fn each_lane_as_transcribed(doc: &Document) {
    let variants: Vec<Variant> = Variant::all().into_iter().filter(|v| v.opcode().starts_with("shfl")).collect();
    assert_eq!(variants.iter().filter(|v| v.opcode() == "shfl.sync").count(), 8);
    let reading = ParsedReading::of(doc, &variants).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut defined, mut undefined) = (0, 0);
    for v in &variants {
        let b = block(v.opcode()).unwrap();
        for round in 0..200 {
            let inputs: Vec<BitVec> = v
                .inputs()
                .iter()
                .map(|o| {
                    let w = o.ty.width();
                    let r = next();
                    // Small lane offsets and clamps, and most lanes active
                    // and agreeing, in most rounds.
                    let x = match (o.name, round % 4) {
                        ("b", 0..=2) => r % 40,
                        ("c", 0..=2) => (r % 32) | ((r >> 8) % 32) << 8,
                        ("membermask", 0..=1) => u64::from(u32::MAX),
                        (n, 0..=2) if n.starts_with("active") || n.starts_with("agrees") => u64::from(r % 8 != 0),
                        _ => r,
                    };
                    BitVec::new(w, u128::from(x) & ((1u128 << w) - 1))
                })
                .collect();
            let text = run(&reading, v, &inputs, false);
            assert_eq!(text, run(b, v, &inputs, false), "{v} on {inputs:?}");
            if text.0[0].is_some() {
                defined += 1;
            } else {
                undefined += 1;
            }
        }
    }
    assert!(defined > 1000 && undefined > 300, "{defined} results, {undefined} without one");
}
