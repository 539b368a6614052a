//! The conformance suite: a correct implementation, written here apart from
//! the model, passes it; the same implementation with bugs planted as real
//! simulators have had them fails it on every bug; bad results files are one
//! line; the PTX modules assemble where ptxas is installed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ptxcheck, stderr, stdout};
use ptxcheck::vectors::{conform, files};
use serde_json::Value;

fn repo(path: &str) -> String {
    format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxcheck-vectors-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The variants the implementation below covers, one per planted bug.
const VARIANTS: [&str; 7] =
    ["mad.hi.s32", "bfe.u32", "shf.l.wrap.b32", "mul24.hi.u32", "shr.s32", "bfind.shiftamt.u32", "add.sat.s32"];

/// The bugs, each modelled on one a simulator has shipped with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    /// mad.hi.s32 takes the high half of the unsigned product.
    MadHiUnsigned,
    /// bfe.u32 shifts by the position modulo 32 (C's `>>` on x86), so a
    /// position of 32 or more reads from the bottom again.
    BfePositionWraps,
    /// shf.l.wrap computes `a >> (32 - n)` with the amount modulo 32, so
    /// n = 0 ors in all of `a`.
    ShfByZero,
    /// mul24.hi.u32 returns bits 63..32 of the product instead of 47..16.
    Mul24HiBits,
    /// shr.s32 by 32 or more shifts by the amount modulo 32.
    ShrSignedWraps,
    /// bfind.shiftamt returns the bit position, not the shift amount.
    BfindShiftAmount,
    /// add.sat.s32 clamps positive overflow only.
    AddSatNegative,
}

const BUGS: [Bug; 7] = [
    Bug::MadHiUnsigned,
    Bug::BfePositionWraps,
    Bug::ShfByZero,
    Bug::Mul24HiBits,
    Bug::ShrSignedWraps,
    Bug::BfindShiftAmount,
    Bug::AddSatNegative,
];

impl Bug {
    fn variant(self) -> &'static str {
        VARIANTS[BUGS.iter().position(|b| *b == self).unwrap()]
    }
}

/// An emulator's 32-bit integer instructions, written from the spec with
/// native Rust arithmetic; `bugs` plants faults.
fn implementation(variant: &str, x: &[u128], bugs: &[Bug]) -> u32 {
    let bug = |b: Bug| bugs.contains(&b);
    let (a, b, c) = (x[0] as u32, x.get(1).map_or(0, |&v| v as u32), x.get(2).map_or(0, |&v| v as u32));
    match variant {
        "mad.hi.s32" => {
            let hi = if bug(Bug::MadHiUnsigned) {
                ((u64::from(a) * u64::from(b)) >> 32) as u32
            } else {
                ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
            };
            hi.wrapping_add(c)
        }
        "bfe.u32" => {
            let (pos, len) = (b & 0xff, c & 0xff);
            let pos = if bug(Bug::BfePositionWraps) { pos & 31 } else { pos };
            if len == 0 || pos >= 32 {
                0
            } else {
                let field = a >> pos;
                if len >= 32 {
                    field
                } else {
                    field & ((1u32 << len) - 1)
                }
            }
        }
        "shf.l.wrap.b32" => {
            let n = c & 31;
            if bug(Bug::ShfByZero) {
                (b << n) | (a >> ((32 - n) & 31))
            } else if n == 0 {
                b
            } else {
                (b << n) | (a >> (32 - n))
            }
        }
        "mul24.hi.u32" => {
            let product = u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff);
            if bug(Bug::Mul24HiBits) {
                (product >> 32) as u32
            } else {
                (product >> 16) as u32
            }
        }
        "shr.s32" => {
            let n = if bug(Bug::ShrSignedWraps) { b & 31 } else { b.min(31) };
            ((a as i32) >> n) as u32
        }
        "bfind.shiftamt.u32" => match a {
            0 => u32::MAX,
            _ if bug(Bug::BfindShiftAmount) => 31 - a.leading_zeros(),
            _ => a.leading_zeros(),
        },
        "add.sat.s32" => {
            let sum = i64::from(a as i32) + i64::from(b as i32);
            let high = sum.min(i64::from(i32::MAX));
            (if bug(Bug::AddSatNegative) { high as i32 } else { high.max(i64::from(i32::MIN)) as i32 }) as u32
        }
        _ => panic!("not implemented: {variant}"),
    }
}

/// The suite for [`VARIANTS`], written by `ptxcheck vectors`.
fn suite(dir: &Path) -> String {
    let mut args = vec!["vectors"];
    args.extend(VARIANTS);
    let audit = repo("reports/ptxcheck.json");
    args.extend(["--output", dir.to_str().unwrap(), "--audit", &audit]);
    let o = ptxcheck(&args);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    std::fs::read_to_string(dir.join("vectors.jsonl")).unwrap()
}

/// The suite's lines with the implementation's `actual` added.
fn results(suite: &str, bugs: &[Bug]) -> String {
    let mut out = String::new();
    for line in suite.lines() {
        let mut json: Value = serde_json::from_str(line).unwrap();
        let variant = json["variant"].as_str().unwrap().to_string();
        let inputs: Vec<u128> = json["inputs"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| u128::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap())
            .collect();
        json["actual"] = Value::String(format!("{:#010x}", implementation(&variant, &inputs, bugs)));
        out.push_str(&json.to_string());
        out.push('\n');
    }
    out
}

#[test]
fn the_suite_passes_a_correct_implementation_and_catches_every_planted_bug() {
    let dir = scratch("bugs");
    let suite = suite(&dir);
    let correct = dir.join("correct.jsonl");
    std::fs::write(&correct, results(&suite, &[])).unwrap();
    let o = ptxcheck(&["conform", correct.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains(" 0 failed against the spec, 0 failed against sm_90 only"), "{}", stdout(&o));

    // Each bug alone fails its variant, and only its variant.
    for bug in BUGS {
        let text = results(&suite, &[bug]);
        let tallies = conform::compare(&files::read_jsonl(Path::new("r.jsonl"), &text).unwrap());
        let failing: Vec<String> =
            tallies.iter().filter(|(_, t)| t.failed_spec > 0).map(|(v, _)| v.to_string()).collect();
        assert_eq!(failing, [bug.variant()], "{bug:?}");
    }

    // All together, through the command: exit 1, each variant in the
    // failures table with its least failing input.
    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, results(&suite, &BUGS)).unwrap();
    let o = ptxcheck(&["conform", broken.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    for v in VARIANTS {
        assert!(out.lines().any(|l| l.contains(&format!("│ {v} ")) && l.contains("│ spec ")), "{v}:\n{out}");
    }
    // The least inputs that show three of the bugs: bfe from position 32,
    // shf by 0 (the audit's witness), shr by 32.
    assert!(out.contains("a=0x00000001 b=0x00000020 c=0x0000007f"), "bfe.u32 at position 32:\n{out}");
    assert!(out.contains("a=0x00000001 b=0x00000000 c=0x00000000"), "shf.l.wrap.b32 by 0:\n{out}");
    assert!(out.contains("a=0x00000001 b=0x00000020 "), "shr.s32 by 32:\n{out}");
    assert!(out.contains("finding shf-shift-by-32"), "{out}");
    assert!(out.contains("results fail against the spec model: exit status 1."), "{out}");
    // An amount taken modulo the width is one group: at its multiples.
    let o = ptxcheck(&["conform", broken.to_str().unwrap(), "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let shf = json["variants"].as_array().unwrap().iter().find(|v| v["variant"] == "shf.l.wrap.b32").unwrap();
    let groups = shf["groups"]["spec"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{groups:#?}");
    assert!(groups[0]["condition"].as_str().unwrap().starts_with("c mod 32 = 0"), "{groups:#?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_csv_form_is_read_like_the_json_lines() {
    let dir = scratch("csv");
    let suite = suite(&dir);
    let csv_text = std::fs::read_to_string(dir.join("vectors.csv")).unwrap();
    // Fill in the actual column from the JSON Lines, line for line, with
    // the shr bug planted.
    let mut out = String::new();
    let mut lines = csv_text.lines();
    out.push_str(lines.next().unwrap());
    out.push('\n');
    for (row, json) in lines.zip(results(&suite, &[Bug::ShrSignedWraps]).lines()) {
        let json: Value = serde_json::from_str(json).unwrap();
        out.push_str(&format!("{row}{}\n", json["actual"].as_str().unwrap()));
    }
    let file = dir.join("results.csv");
    std::fs::write(&file, out).unwrap();
    let o = ptxcheck(&["conform", file.to_str().unwrap(), "--model", "sm_90"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("results fail against the sm_90 model"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_results_files_are_one_line_with_file_and_line() {
    let dir = scratch("bad");
    let good = r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x2"},"actual":"0x3"}"#;
    let cases: [(&str, String, &str); 6] = [
        ("json", format!("{good}\n{{\"variant\""), "r.jsonl:2: not JSON"),
        ("variant", r#"{"variant":"add.u7","inputs":{},"actual":"0"}"#.into(), "r.jsonl:1: unknown variant `add.u7`"),
        (
            "width",
            r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x2"},"actual":"0x10000"}"#.into(),
            "r.jsonl:1: actual `0x10000` is wider than 16 bits",
        ),
        (
            "hex",
            r#"{"variant":"add.u16","inputs":{"a":"12z","b":"0x2"},"actual":"0x3"}"#.into(),
            "r.jsonl:1: inputs.a `12z` is not a hex value",
        ),
        (
            "missing",
            r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x2"}}"#.into(),
            "r.jsonl:1: no `actual` (or `outcome`)",
        ),
        (
            "operand",
            r#"{"variant":"add.u16","inputs":{"a":"0x1","b":"0x2","z":"0x0"},"actual":"0x3"}"#.into(),
            "r.jsonl:1: inputs has no operand `z`",
        ),
    ];
    for (name, text, expected) in cases {
        let file = dir.join("r.jsonl");
        std::fs::write(&file, text).unwrap();
        let o = ptxcheck(&["conform", file.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        let expected = format!("error: {}{expected}", dir.display().to_string() + "/");
        assert!(err.starts_with(&expected), "{name}: {err} (expected {expected})");
        assert!(stdout(&o).is_empty(), "{name}: nothing printed before the error");
    }
    let csv = dir.join("r.csv");
    std::fs::write(&csv, "variant,inputs,actual\nadd.u16,a=0x1 b=0x2,\n").unwrap();
    let o = ptxcheck(&["conform", csv.to_str().unwrap()]);
    assert_eq!(stderr(&o), format!("error: {}:2: no `actual` (or `outcome`)\n", csv.display()));
    let o = ptxcheck(&["conform", dir.join("absent.jsonl").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn conform_on_the_gpu_without_a_driver_is_one_line() {
    let dir = scratch("gpu");
    let o =
        ptxcheck(&["vectors", "add.u32", "--output", dir.to_str().unwrap(), "--audit", &repo("reports/ptxcheck.json")]);
    assert_eq!(o.status.code(), Some(0));
    let o = ptxcheck(&["conform", "--gpu", dir.to_str().unwrap()]);
    if o.status.code() == Some(2) {
        assert!(stderr(&o).starts_with("error: no CUDA driver found (libcuda.so.1)"), "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1);
    } else {
        assert!(stdout(&o).contains("the device counted 0 mismatches"), "{}", stdout(&o));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Every family's modules through ptxas, where it is installed (lop3's with
/// a kernel per truth table); a skip message otherwise.
#[test]
fn the_self_checking_modules_assemble() {
    let dir = scratch("ptx");
    let audit = repo("reports/ptxcheck.json");
    let mut args = vec!["vectors", "--output", dir.to_str().unwrap(), "--audit", &audit, "--samples", "16"];
    let families = [
        "add.s16x2",
        "add.cc.u32",
        "mul.wide.s32",
        "mad.hi.sat.s32",
        "mul24.hi.s32",
        "sad.u64",
        "div.s64",
        "rem.u16",
        "min.relu.s32",
        "popc.b64",
        "clz.b32",
        "bfind.shiftamt.s64",
        "fns.b32",
        "brev.b64",
        "bfe.s64",
        "bfi.b64",
        "szext.clamp.s32",
        "bmsk.wrap.b32",
        "dp4a.s32.u32",
        "dp2a.lo.u32.s32",
        "lop3.b32",
        "shf.r.clamp.b32",
        "shl.b16",
        "shr.s64",
        "not.pred",
        "cnot.b16",
        "and.pred",
        "xor.b64",
    ];
    let known: Vec<&str> =
        families.iter().copied().filter(|v| ptx_spec::catalogue::Variant::from_mnemonic(v).is_some()).collect();
    assert!(known.len() >= 20, "{known:?}");
    args.extend(known.iter().copied());
    let o = ptxcheck(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let Ok(ptxas) = ptxcheck::oracle::ptxas::find_ptxas(None) else {
        common::skip("the assembly of the suite's modules: ptxas not found");
        return;
    };
    for v in known {
        let path = dir.join(format!("{v}.ptx"));
        let module = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{v}.ptx written"));
        let target = module.lines().find_map(|l| l.strip_prefix(".target ")).expect("a .target line");
        let b = Command::new(&ptxas.path)
            .arg(format!("-arch={target}"))
            .arg(&path)
            .arg("-o")
            .arg(dir.join("out.cubin"))
            .output()
            .expect("ptxas runs");
        assert!(b.status.success(), "{v}: {}", String::from_utf8_lossy(&b.stderr));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A hand-made results file: a wrong sum, division by zero answered with
/// all ones (the H100's pick) and with 0 (a pick the spec allows, failing
/// sm_90 only), lop3 with its outputs by name, and fns's most negative
/// offset answered as the H100 does (failing the spec, passing sm_90).
#[test]
fn conform_on_a_hand_made_results_file() {
    let file = format!("{}/tests/data/conform-results.jsonl", env!("CARGO_MANIFEST_DIR"));
    let o = ptxcheck(&["conform", &file, "--width", "120"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("conform_hand_made", stdout(&o));
    // Against sm_90 the fns result passes, and div.u32's 0 and div.s32's 0
    // (a = 9 >= 0: all ones on the H100) fail.
    let o = ptxcheck(&["conform", &file, "--model", "sm_90"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).ends_with("3 results fail against the sm_90 model: exit status 1.\n"), "{}", stdout(&o));
}

/// Results that are no value: a crash where the spec defines the value
/// fails; a trap where the spec leaves it open is the implementation's
/// pick, but fails against sm_90 where the H100 gives a value; a variant
/// answered `unimplemented` throughout is said so and never passes.
#[test]
fn conform_scores_crashes_traps_and_unimplemented_variants() {
    let file = format!("{}/tests/data/conform-events.jsonl", env!("CARGO_MANIFEST_DIR"));
    let o = ptxcheck(&["conform", &file, "--width", "200"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let div = out.lines().find(|l| l.starts_with("│ div.s32      │ spec  │")).unwrap_or_else(|| panic!("{out}"));
    for cell in ["│ 1 of 1   │ every input │", "│ a=0x80000000 b=0xffffffff ", "│ crash: SIGFPE "] {
        assert!(div.contains(cell), "{cell}: {div}");
    }
    assert!(out.contains("unimplemented: 1 variant answers `unimplemented` to every result: `mad24.lo.s32`"), "{out}");
    assert!(out.contains("│ mad24.lo.s32 │ 2       │ 0      │ 2             │"), "{out}");
    assert!(out.contains("6 results: 1 passed, 3 failed against the spec, 1 failed against sm_90 only"), "{out}");
    assert!(out.contains("5 gave no value (1"), "{out}");
    assert!(out.contains("not run: 2179 of the 2184 variants have no result:"), "{out}");
    assert!(out.ends_with("3 results fail against the spec model: exit status 1.\n"), "{out}");
    // Against sm_90, div.u32 by zero is all ones: its trap fails too.
    let o = ptxcheck(&["conform", &file, "--model", "sm_90"]);
    assert!(stdout(&o).ends_with("4 results fail against the sm_90 model: exit status 1.\n"), "{}", stdout(&o));
}

/// bfe.u64 as an emulator had it, with either of two bugs: the position
/// taken modulo 64, and the mask `(1 << len) - 1` made in 32 bits, so that
/// a length of 32 or more wraps.
fn bfe_u64(x: &[u128], position_wraps: bool, short_mask: bool) -> u64 {
    let (a, pos, len) = (x[0] as u64, x[1] as u32 & 0xff, x[2] as u32 & 0xff);
    let pos = if position_wraps { pos % 64 } else { pos };
    if pos >= 64 {
        return 0;
    }
    let mask = match (short_mask, len) {
        (true, _) => 1u32.wrapping_shl(len % 32).wrapping_sub(1) as u64,
        (false, 64..) => u64::MAX,
        (false, _) => (1u64 << len) - 1,
    };
    (a >> pos) & mask
}

/// The groups of failures against the spec of the one variant in `file`,
/// but for the group of sm_90's values (`where sm_90 and the spec differ`).
fn spec_groups(file: &Path) -> Vec<Value> {
    let o = ptxcheck(&["conform", file.to_str().unwrap(), "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    let groups = json["variants"][0]["groups"]["spec"].as_array().unwrap().clone();
    groups.into_iter().filter(|g| !g["condition"].as_str().unwrap().starts_with("where ")).collect()
}

/// A hex string of a JSON field as a number.
fn number(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// Two bugs in one variant are two groups, each with its own least failing
/// input that shows that bug alone; one bug is one group.
#[test]
fn conform_groups_the_failures_of_two_bugs_in_one_variant_apart() {
    let dir = scratch("groups");
    let audit = repo("reports/ptxcheck.json");
    let o = ptxcheck(&["vectors", "bfe.u64", "--output", dir.to_str().unwrap(), "--audit", &audit]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let suite = std::fs::read_to_string(dir.join("vectors.jsonl")).unwrap();
    let write = |name: &str, position_wraps: bool, short_mask: bool| {
        let mut out = String::new();
        for line in suite.lines() {
            let mut json: Value = serde_json::from_str(line).unwrap();
            let x: Vec<u128> = json["inputs"].as_object().unwrap().values().map(|v| number(v) as u128).collect();
            json["actual"] = Value::String(format!("{:#018x}", bfe_u64(&x, position_wraps, short_mask)));
            out.push_str(&json.to_string());
            out.push('\n');
        }
        let file = dir.join(name);
        std::fs::write(&file, out).unwrap();
        file
    };
    let correct = write("correct.jsonl", false, false);
    assert_eq!(ptxcheck(&["conform", correct.to_str().unwrap()]).status.code(), Some(0));

    // The position modulo 64: one group, every failure at a position of
    // 64 or more.
    let one = spec_groups(&write("one.jsonl", true, false));
    assert_eq!(one.len(), 1, "{one:#?}");
    assert!(one[0]["condition"].as_str().unwrap().contains("b[7:0] >= 64"), "{one:#?}");
    assert!(number(&one[0]["least_input"]["inputs"]["b"]) & 0xff >= 64, "{one:#?}");

    // Both: a group for each, the larger first; each least input shows its
    // own bug and not the other's.
    let two = spec_groups(&write("two.jsonl", true, true));
    assert_eq!(two.len(), 2, "{two:#?}");
    let (short, wraps) = (&two[0], &two[1]);
    assert!(short["condition"].as_str().unwrap().contains("c[7:0] >= 32"), "{two:#?}");
    assert!(wraps["condition"].as_str().unwrap().contains("b[7:0] >= 64"), "{two:#?}");
    let least = |g: &Value, name: &str| number(&g["least_input"]["inputs"][name]) & 0xff;
    assert!(least(short, "c") >= 32 && least(short, "b") < 64, "{short:#}");
    assert!(least(wraps, "b") >= 64, "{wraps:#}");
    assert_eq!(short["kind"], "value");
    assert!(short["size"].as_u64().unwrap() > wraps["size"].as_u64().unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

/// `--exec` runs the example adapter over a suite: a crash on a defined
/// input fails, a crash where the spec leaves the value open is a pick, a
/// variant the adapter lacks is unimplemented, no vector is missed, and
/// `--save` writes results that conform reads back the same.
#[test]
fn conform_exec_survives_a_crashing_adapter_and_misses_no_vector() {
    let dir = scratch("exec");
    let adapter = dir.join("adapter");
    let cc = Command::new("cc")
        .args(["-O0", "-o", adapter.to_str().unwrap(), &repo("examples/adapter.c")])
        .output()
        .expect("a C compiler (cc), which Rust's linking needs too");
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
    let suite = dir.join("suite");
    let audit = repo("reports/ptxcheck.json");
    let mut args = vec!["vectors", "add.u32", "div.s32", "div.u32", "bfe.u32", "mad24.lo.s32"];
    args.extend(["--samples", "200", "--output", suite.to_str().unwrap(), "--audit", &audit]);
    assert_eq!(ptxcheck(&args).status.code(), Some(0));
    let vectors = std::fs::read_to_string(suite.join("vectors.jsonl")).unwrap().lines().count();
    let saved = dir.join("results.jsonl");
    let run = |extra: &[&str]| {
        let mut args = vec!["conform", suite.to_str().unwrap(), "--exec", adapter.to_str().unwrap()];
        args.extend(["--save", saved.to_str().unwrap(), "--batch", "100"]);
        args.extend(extra);
        ptxcheck(&args)
    };
    let o = run(&["--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let json: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["results"].as_u64(), Some(vectors as u64), "every vector answered once");
    assert_eq!(std::fs::read_to_string(&saved).unwrap().lines().count(), vectors);
    let variant = |name: &str| json["variants"].as_array().unwrap().iter().find(|v| v["variant"] == name).unwrap();
    // div.s32: the crash at -2^31 / -1, where the spec defines the value,
    // is its one group against the spec; the crashes by zero are picks.
    let div = variant("div.s32");
    let groups = div["groups"]["spec"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{div:#}");
    assert_eq!(groups[0]["kind"], "crash");
    assert_eq!(groups[0]["condition"], "a = -2^31, b = -1");
    assert_eq!(groups[0]["least_input"]["outcome"], "crash: SIGFPE");
    assert!(div["no_value_picks"].as_u64().unwrap() > 0, "{div:#}");
    // div.u32's trap by zero is a pick against the spec, a failure
    // against sm_90.
    let divu = variant("div.u32");
    assert_eq!(divu["failed_spec"], 0);
    assert_eq!(divu["groups"]["sm_90"][0]["condition"], "b = 0");
    // bfe.u32's one bug: one group.
    let bfe = variant("bfe.u32")["groups"]["spec"].as_array().unwrap();
    assert_eq!(bfe.len(), 1, "{bfe:#?}");
    assert!(bfe[0]["condition"].as_str().unwrap().contains("c[7:0] >= 32"), "{bfe:#?}");
    assert_eq!(json["unimplemented"], serde_json::json!(["mad24.lo.s32"]));
    assert_eq!(json["not_run"]["count"], 0);
    assert_eq!(variant("add.u32")["passed"], variant("add.u32")["results"]);

    // The saved results read back give the same verdicts.
    let again = ptxcheck(&["conform", saved.to_str().unwrap(), "--suite", suite.to_str().unwrap(), "--format", "json"]);
    let back: Value = serde_json::from_str(&stdout(&again)).unwrap();
    for key in ["results", "passed", "failed_spec", "failed_sm_90_only", "no_value", "unimplemented", "not_run"] {
        assert_eq!(back[key], json[key], "{key}");
    }

    // Results for part of the suite: the rest is listed as not run, and a
    // variant covered in part says how much.
    let text = std::fs::read_to_string(&saved).unwrap();
    let add: Vec<&str> = text.lines().filter(|l| l.contains(r#""variant":"add.u32""#)).collect();
    let part = dir.join("part.jsonl");
    std::fs::write(&part, add[..10].join("\n") + "\n").unwrap();
    let o = ptxcheck(&["conform", part.to_str().unwrap(), "--suite", suite.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains(&format!("in part: 1 variant has results for part of its vectors: `add.u32` 10 of {}", add.len())),
        "{out}"
    );
    assert!(
        out.contains("not run: 4 of the 5 variants have no result: `mad24.lo.s32`, `div.u32`, `div.s32`, `bfe.u32`"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A command that never answers: each batch's vector times out, a fresh
/// process takes the next, and the run ends.
#[test]
fn conform_exec_records_a_timeout_and_goes_on() {
    let dir = scratch("timeout");
    let suite = dir.join("vectors.jsonl");
    let line = r#"{"variant":"add.u32","inputs":{"a":"0x1","b":"0x2"}}"#;
    std::fs::write(&suite, format!("{line}\n{line}\n")).unwrap();
    let o = ptxcheck(&["conform", suite.to_str().unwrap(), "--exec", "sleep 20", "--batch-timeout", "0.3"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.contains("timeout: no answer within 0.3"), "{out}");
    assert!(out.contains("2 results: 0 passed, 2 failed against the spec"), "{out}");
    let o = ptxcheck(&["conform", suite.to_str().unwrap(), "--exec", "'unclosed"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).trim(), "error: --exec `'unclosed`: not a command line (an unclosed quote?), or empty");
    let o = ptxcheck(&["conform", suite.to_str().unwrap(), "--exec", "echo hello"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --exec: the answer to `add.u32 a=0x00000001 b=0x00000002` is not outputs or an outcome: \
         actual `hello` is not a hex value\n"
    );
    let o = ptxcheck(&["conform", suite.to_str().unwrap(), "--exec", "no-such-command-here"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot run `no-such-command-here`"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}
