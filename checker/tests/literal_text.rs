//! The literal C reading of the text's own Semantics blocks: every variant
//! of every block read, values worked by hand, an edit of a block read as
//! edited, and blocks with their proposed fixes read again.

mod common;

use std::time::Duration;

use ptx_smt::Backend;
use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::catalogue::Variant;
use ptxcheck::audit::errata;
use ptxcheck::audit::finding::Finding;
use ptxcheck::audit::literal::check::audit_block_with;
use ptxcheck::audit::literal::parsed::ParsedReading;
use ptxcheck::audit::literal::table::{block, Transcription, BLOCKS};
use ptxcheck::audit::literal::C;
use ptxcheck::audit::text::document::{self, Document};

const TIMEOUT: Duration = Duration::from_secs(60);

/// The seeds and the 9.1 sections with a model beside them, as CI reads
/// them.
fn doc(test: &str) -> Option<Document> {
    let seeds = common::spec_text(test)?;
    let mut paths = vec![seeds.clone()];
    paths.extend(common::modelled_new_sections(&seeds));
    Some(document::read(&paths).expect("the spec text reads"))
}

/// The seeds with `edit` applied, read.
fn edited_seeds(test: &str, edit: impl Fn(&str) -> String) -> Option<Document> {
    let seeds = common::spec_text(test)?;
    let copy = common::edited_copy(&[seeds], |text| edit(text));
    Some(document::read(&[copy.path().to_path_buf()]).unwrap())
}

fn ids(findings: &[Finding]) -> Vec<String> {
    findings.iter().map(|f| f.id.clone()).collect()
}

/// The ids of the literal audit's findings on `opcode`'s block as `doc`
/// writes it.
fn literal_findings(opcode: &str, doc: &Document) -> Vec<String> {
    let b = block(opcode).unwrap();
    let reading = ParsedReading::of(doc, &b.variants()).unwrap();
    ids(&audit_block_with(&Backend::Embedded, TIMEOUT, b, &reading).unwrap().1)
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

/// Every block of the text reads every variant on concrete inputs, and
/// gives one value of the right width per output the block computes:
/// every destination that is not also a source.
#[test]
fn every_block_reads_every_variant() {
    let Some(doc) = doc("every_block_reads_every_variant") else { return };
    for b in BLOCKS {
        let reading = ParsedReading::of(&doc, &b.variants()).unwrap_or_else(|e| panic!("{}: {e}", b.opcode));
        for v in b.variants() {
            let sources = v.inputs();
            let computed = v.outputs().into_iter().filter(|o| !sources.iter().any(|i| i.name == o.name));
            let expected: Vec<u32> = computed.map(|o| o.ty.width()).collect();
            for fill in [0u128, u128::MAX, 0x8000_0001] {
                let ins: Vec<BitVec> = sources.iter().map(|o| BitVec::new(o.ty.width(), fill)).collect();
                let mut c = C::new(&Concrete);
                let widths: Vec<u32> = reading.literal(&mut c, &v, &ins).iter().map(|o| o.value.width()).collect();
                assert_eq!(widths, expected, "{v}");
            }
        }
    }
}

/// Values of the text's blocks read as C, worked by hand.
#[test]
fn literal_readings_on_hand_worked_inputs() {
    let Some(doc) = doc("literal_readings_on_hand_worked_inputs") else { return };
    let run = |name: &str, inputs: &[u128]| -> (Vec<Option<u128>>, Vec<String>) {
        let v = Variant::from_mnemonic(name).expect("a variant");
        let reading = ParsedReading::of(&doc, &[v]).unwrap();
        let ins: Vec<BitVec> = v.inputs().iter().zip(inputs).map(|(o, &x)| BitVec::new(o.ty.width(), x)).collect();
        let (outs, rules, _) = run(&reading, &v, &ins, false);
        (outs.iter().map(|o| o.map(|b| b.unsigned())).collect(), rules)
    };
    let none: Vec<String> = Vec::new();
    // clz: `a&mask == 0` is `a & (mask == 0)`, so the loop never runs.
    assert_eq!(run("clz.b32", &[0]), (vec![Some(0)], none.clone()));
    assert_eq!(run("clz.b64", &[1]), (vec![Some(0)], none.clone()));
    // bfind.u32 starts at 1<<31, an int shifted into its sign bit.
    let (_, rules) = run("bfind.u32", &[1]);
    assert!(rules.iter().any(|r| r == "shift-into-sign-bit"), "{rules:?}");
    // popc counts.
    assert_eq!(run("popc.b32", &[0xf0f0]), (vec![Some(8)], none.clone()));
    // mul.wide.u32 multiplies in 32 bits.
    assert_eq!(run("mul.wide.u32", &[0x1_0000, 0x1_0000]).0, [Some(0)]);
    // shf.l.wrap.b32 with n = 0 shifts a by 32.
    let (_, rules) = run("shf.l.wrap.b32", &[1, 2, 0]);
    assert!(rules.iter().any(|r| r == "shift-past-width"), "{rules:?}");
    // fns: the second set bit above bit 3 of 0xaaaaaaaa, and the first
    // below bit 2; the example's `fns.b32 d, 0xaaaaaaaa, 2, -1` gives 1.
    assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 3, 2]), (vec![Some(5)], none.clone()));
    assert_eq!(run("fns.b32", &[0xaaaa_aaaa, 2, 0xffff_ffff]), (vec![Some(1)], none.clone()));
    // offset = -2^31: |offset| does not fit an int.
    let (_, rules) = run("fns.b32", &[0, 0, 0x8000_0000]);
    assert!(rules.iter().any(|r| r == "signed-overflow"), "{rules:?}");
    // bfe.s32 of 0x80 at 4, 4 bits: 0x8 sign-extended.
    assert_eq!(run("bfe.s32", &[0x80, 4, 4]).0, [Some(0xffff_fff8)]);
    // bfi.b32 puts 0xf at bit 4.
    assert_eq!(run("bfi.b32", &[0xf, 0, 4, 4]).0, [Some(0xf0)]);
}

/// An edit of a block is read: xor written with a shift meets C's rule on
/// shifts by the width, which the text as written does not.
#[test]
fn an_edited_block_is_read_as_edited() {
    let test = "an_edited_block_is_read_as_edited";
    let Some(doc) = edited_seeds(test, |text| text.replace("d = a ^ b;", "d = a << b;")) else { return };
    let Some(seeds) = edited_seeds(test, str::to_string) else { return };
    let b = block("xor").unwrap();
    let audit = |doc: &Document| {
        let reading = ParsedReading::of(doc, &b.variants()).unwrap();
        ids(&audit_block_with(&Backend::Embedded, TIMEOUT, b, &reading).unwrap().1)
    };
    assert!(audit(&doc).contains(&"literal-xor-shift-past-width".to_string()), "{:?}", audit(&doc));
    assert!(audit(&seeds).iter().all(|f| !f.contains("shift")), "{:?}", audit(&seeds));
}

/// fns's `break` removed: the loop runs on past the bit it finds, and
/// its result is the last set bit in its direction, which the comparison
/// with the model finds with a witness.
#[test]
fn a_removed_break_is_read_as_removed() {
    // The first `break;` after fns's `d = pos;`, in the file that has it.
    let Some(doc) = edited_seeds("a_removed_break_is_read_as_removed", |text| {
        let Some(at) = text.find("d = pos;") else { return text.to_string() };
        let cut = at + text[at..].find("break;").expect("fns's break");
        format!("{}{}", &text[..cut], &text[cut + "break;".len()..])
    }) else {
        return;
    };
    let b = block("fns").unwrap();
    let reading = ParsedReading::of(&doc, &b.variants()).unwrap();
    let (check, findings) = audit_block_with(&Backend::Embedded, TIMEOUT, b, &reading).unwrap();
    let wrong = findings.iter().find(|f| f.id == "literal-fns-wrong-result").expect("a wrong result");
    let w = wrong.witness.as_ref().expect("a witness");
    let (literal, model) = (&w.rows[0].1[0], &w.rows[0].1[1]);
    assert!(literal.is_some() && model.is_some() && literal != model, "{:?}", w.rows);
    assert!(check.findings.contains(&"literal-fns-wrong-result".to_string()));
}

/// szext's block with its colon written and its sign bit taken from an
/// `(unsigned)` cast: it parses as written, so it is C, and the cast's
/// shift of a non-negative value is defined. As the seeds write it, it is
/// not C.
#[test]
fn a_repaired_block_read_from_the_text_is_c() {
    let test = "a_repaired_block_read_from_the_text_is_c";
    let Some(doc) = edited_seeds(test, |text| {
        text.replace("sign_bit ? mask | 0", "sign_bit ? mask : 0")
            .replace("sign_bit = (a >> sign_pos) & 1;", "sign_bit = ((unsigned)a >> sign_pos) & 1;")
    }) else {
        return;
    };
    let Some(seeds) = edited_seeds(test, str::to_string) else { return };
    let audit = |doc: &Document| literal_findings("szext", doc);
    assert_eq!(audit(&doc), ["literal-szext-left-shift-of-negative"]);
    assert!(audit(&seeds).contains(&"literal-szext-not-c".to_string()), "{:?}", audit(&seeds));
}

/// lop3's block tests whether `.BoolOp` is given in words: it is not C
/// while it does, and its fix, a test of the modifier with C's logical
/// operators, is.
#[test]
fn a_block_that_writes_words_for_a_condition_is_not_c() {
    let test = "a_block_that_writes_words_for_a_condition_is_not_c";
    let Some(doc) = edited_seeds(test, |text| {
        text.replace("if (BoolOp specified) {", "if (.BoolOp == .and || .BoolOp == .or) {")
            .replace("p = (d != 0) BoolOp q;", "p = (.BoolOp == .and) ? ((d != 0) && q) : ((d != 0) || q);")
    }) else {
        return;
    };
    let Some(seeds) = edited_seeds(test, str::to_string) else { return };
    assert_eq!(literal_findings("lop3", &doc), Vec::<String>::new());
    assert_eq!(literal_findings("lop3", &seeds), ["literal-lop3-not-c"]);
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
/// defined by its comment, `d = tmp;`, `tmp[15:8]`; the block's `mode` is
/// read as the qualifier `.mode`, its dot-less spelling), read as C:
/// the model's result on every input of every variant, and no rule met but
/// the sign of the `.b32` operands that the introduction's fix states.
#[test]
fn prmts_block_with_its_fixes_gives_the_models_result() {
    let Some(seeds) = common::spec_text("prmts_block_with_its_fixes_gives_the_models_result") else { return };
    let prmt = common::modelled_new_sections(&seeds).into_iter().filter(|p| p.to_string_lossy().contains("prmt"));
    let files: Vec<std::path::PathBuf> = prmt.collect();
    // Later root causes first, as one fix may rewrite a line another's
    // edit names.
    let edits: Vec<_> = errata::all()
        .iter()
        .rev()
        .flat_map(|rc| &rc.edits)
        .filter(|e| e.unit.starts_with("9.7.9.7/semantics/"))
        .collect();
    assert!(edits.len() >= 6, "prmt's fixes: {}", edits.len());
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

/// The shuffles read from the text against the model on concrete inputs,
/// every form: each lane's result and whether it has one (a lane that does
/// not execute, a source lane that gives nothing, a wait that does not
/// end), and no C rule met. The audit finds nothing on these blocks, so
/// the findings alone would not tell a reading that defines no result
/// from one that agrees.
///
/// Again with the fix of `shfl-guard-off-writes`, whose `return;` ends the
/// block for a lane that does not execute.
#[test]
fn the_shuffles_read_from_the_text_give_each_lane_the_models_result() {
    let Some(doc) = doc("the_shuffles_read_from_the_text_give_each_lane_the_models_result") else { return };
    each_lane_as_modelled(&doc);
    let seeds = common::spec_text("the_shuffles_read_from_the_text_give_each_lane_the_models_result").unwrap();
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
    each_lane_as_modelled(&edited);
}

fn each_lane_as_modelled(doc: &Document) {
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
            let model: Vec<Option<BitVec>> =
                v.semantics(&Concrete, &inputs).into_iter().map(|o| o.defined.then_some(o.value)).collect();
            assert_eq!(text, (model, Vec::new(), 0), "{v} on {inputs:?}");
            if text.0[0].is_some() {
                defined += 1;
            } else {
                undefined += 1;
            }
        }
    }
    assert!(defined > 1000 && undefined > 300, "{defined} results, {undefined} without one");
}
