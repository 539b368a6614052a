//! The command line as a user meets it: outputs (golden files under
//! `tests/snapshots/`, regenerated with `INSTA_UPDATE=always`), exit
//! statuses, and one-line errors for bad input.

mod common;

use common::{ptxcheck, ptxcheck_with_cache, stderr, stdout};
use std::process::Command;

/// Times differ from run to run; the golden files hold a placeholder.
fn redacted(settings: &mut insta::Settings) {
    settings.add_filter(r"\d+\.\d{3} s", "T s");
}

#[test]
fn eval_integer_examples() {
    let cases = [
        ("bfe.s32 d, 0xf0, 4, 4", "d = 0xffffffff\n"),
        ("bfe.u32 d, 0xf0, 4, 4", "d = 0x0000000f\n"),
        ("bmsk.wrap.b32 rd, 1, 2", "rd = 0x00000006\n"),
        ("szext.wrap.u32 rd, 0xffffffff, 0", "rd = 0x00000000\n"),
        ("fns.b32 d, 0xaaaaaaaa, 2, -1", "d = 0x00000001\n"),
        ("mul.wide.s16 d, -1, -1", "d = 0x00000001\n"),
        ("add.sat.s32 d, 0x7fffffff, 1", "d = 0x7fffffff\n"),
        ("div.u32 d, 7, 0", "d = unspecified\n"),
        ("rem.s32 d, -7, 2", "d = unspecified\n"),
        ("dp4a.u32.s32 d, 0xff, 0xff, 0", "d = 0xffffff01\n"),
    ];
    for (text, expected) in cases {
        let o = ptxcheck(&["eval", text]);
        assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), expected), "{text}");
    }
    let o = ptxcheck(&["eval", "div.s16 d, 1, 0", "--format", "json"]);
    assert_eq!(stdout(&o), "{\"d\":null}\n");
}

#[test]
fn eval_prints_the_issue_examples() {
    let o = ptxcheck(&["eval", "shf.l.wrap.b32 d, 0x80000001, 0x80000001, 1"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "d = 0x00000003\n"));
    let o = ptxcheck(&["eval", "shf.l.wrap.b32 d, 0x80000001, 0x80000001, 1", "--format", "json"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "{\"d\":\"0x00000003\"}\n"));
}

#[test]
fn eval_prints_predicates_and_skips_the_sink() {
    let o = ptxcheck(&["eval", "lop3.or.b32 r1|p1, 0xf0, 0xcc, 0xaa, 0x80, 0"]);
    assert_eq!(stdout(&o), "r1 = 0x00000080\np1 = 1\n");
    let o = ptxcheck(&["eval", "lop3.and.b32 _|p, 0xf0, 0x0f, 0xaa, 0x80, true", "--format", "json"]);
    assert_eq!(stdout(&o), "{\"p\":0}\n");
    let o = ptxcheck(&["eval", "not.pred p, 0"]);
    assert_eq!(stdout(&o), "p = 1\n");
    let o = ptxcheck(&["eval", "shr.s16 d, -32768, 100;"]);
    assert_eq!(stdout(&o), "d = 0xffff\n");
    let o = ptxcheck(&["eval", "shl.b64 d, 1, 63"]);
    assert_eq!(stdout(&o), "d = 0x8000000000000000\n");
}

#[test]
fn bad_instructions_get_one_line_errors_and_status_2() {
    let cases = [
        ("frob.b32 d, 1, 2", "unknown opcode `frob`"),
        ("shf.l.b32 d, 1, 2, 3", "`shf.l.b32` is not a legal variant of shf"),
        ("cnot.pred p, 1", "`cnot.pred` is not a legal variant of cnot"),
        ("and.b32 d, 1", "and.b32 takes 3 operands (d, a, b), found 2"),
        ("shl.b16 d, 0x10000, 1", "immediate `0x10000` out of range for a"),
        ("shl.b16 d, 1, 0x100000000", "immediate `0x100000000` out of range for b"),
        ("lop3.b32 d, 1, 2, 3, 256", "immediate `256` out of range for immLut"),
        ("lop3.b32 d, 1, 2, 3, -1", "immediate `-1` out of range for immLut"),
        ("and.b32 d, x, 1", "operand a is the register `x`"),
        ("and.pred p, 2, 1", "immediate `2` out of range for a"),
        ("and.b32 d, 1.5, 1", "bad operand `1.5` for a"),
        ("@p and.b32 d, 1, 2", "unexpected `@p`"),
        ("", "empty instruction"),
    ];
    for (text, expected) in cases {
        let o = ptxcheck(&["eval", text]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{text}: {err}");
        assert!(err.starts_with("error: ") && err.contains(expected), "{text}: {err}");
        assert_eq!(err.lines().count(), 1, "{text}: {err}");
        assert!(stdout(&o).is_empty(), "{text}");
    }
}

/// Clap's own errors (an unknown flag, a value of the wrong kind) are cut to
/// one line too, with what the user typed escaped; help stays whole.
#[test]
fn argument_errors_are_one_line_and_status_2() {
    let cases: [&[&str]; 4] = [
        &["prove", "--bogus"],
        &["prove", "--timeout", "abc", "all"],
        &["eval", "add.u32 d, 1, 2", "--jobs", "2"],
        &["frobnicate"],
    ];
    for args in cases {
        let o = ptxcheck(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.ends_with("(see --help)\n"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let o = ptxcheck(&["prove", "--timeout", "\x1b[31m"]);
    assert!(!stderr(&o).contains('\x1b'), "{}", stderr(&o));
    let o = ptxcheck(&["prove", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("Usage: ptxcheck prove"));
}

#[test]
fn prove_one_instruction_golden() {
    let o = ptxcheck(&["prove", "shf", "--jobs", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut settings = insta::Settings::clone_current();
    redacted(&mut settings);
    // The solver's version is the system's; keep it out of the golden file.
    settings.add_filter(r"solver z3 [0-9.]+ \(embedded\)", "solver z3 (embedded)");
    settings.bind(|| insta::assert_snapshot!("prove_shf", stdout(&o)));
}

#[test]
fn prove_all_as_json() {
    let o = ptxcheck(&["prove", "all", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2184);
    assert!(results.iter().all(|r| r["verdict"] == "proven"));
    assert_eq!(v["summary"]["proven"], 2184);
    let fns = results.iter().find(|r| r["variant"] == "fns.b32").unwrap();
    // fns is proven by induction over its steps: one comparison.
    assert_eq!(fns["cases"], 1);
    // Every assumption the model makes is used by some proof, and listed.
    let mut ids: Vec<&str> = v["assumptions"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap()).collect();
    let mut all: Vec<&str> = ptx_spec::assumption::ALL.iter().map(|a| a.id).collect();
    ids.sort();
    all.sort();
    assert_eq!(ids, all);
}

#[test]
fn prove_selects_one_variant() {
    let o = ptxcheck(&["prove", "shf.l.wrap.b32"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("1 variants: 1 proven, 0 counterexample, 0 unknown, 0 timeout"));
}

/// The first shfl example of 9.7.9.5, one step, with lane 4 switched off.
#[test]
fn eval_shfl_prints_a_lane_table() {
    let o = ptxcheck(&["eval", "shfl.up.b32 Ry|p, Rx, 0x1, 0x0", "--lanes", "Rx=0..31", "--active", "0xffffffef"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("eval_shfl_up", stdout(&o));
}

#[test]
fn eval_shfl_as_json() {
    let o = ptxcheck(&["eval", "shfl.idx.b32 d, a, 5, 0x1807", "--lanes", "a=100..131", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let lanes = v["lanes"].as_array().unwrap();
    assert_eq!(lanes.len(), 32);
    // Segments of 8 lanes: lane 13 reads lane 8 + 5 = 13, lane 20 reads 21.
    assert_eq!((lanes[13]["source_lane"].as_u64(), lanes[13]["outputs"]["d"].as_str()), (Some(13), Some("0x00000071")));
    assert_eq!((lanes[20]["source_lane"].as_u64(), lanes[20]["outputs"]["d"].as_str()), (Some(21), Some("0x00000079")));
    assert!(v["deprecation"].as_str().unwrap().contains("PTX 6.0"));
}

#[test]
fn eval_runs_any_instruction_over_lanes() {
    let o = ptxcheck(&["eval", "div.u16 q, a, b", "--lanes", "a=100", "--lanes", "b=0..31", "--active", "0x7"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("│ 0    │ 0x0064 │ 0x0000 │ unspecified │"), "{text}");
    assert!(text.contains("│ 2    │ 0x0064 │ 0x0002 │ 0x0032      │"), "{text}");
    assert!(text.contains("│ 3    │ 0x0064 │ 0x0003 │ -           │"), "{text}");
}

#[test]
fn bad_lane_values_exit_2() {
    let shfl = "shfl.up.b32 d, a, 1, 0";
    let cases: &[(&[&str], &str)] = &[
        (&["eval", shfl], "error: operand a is the register `a`: give an immediate, or its value in every lane with --lanes 'a=...'\n"),
        (&["eval", shfl, "--lanes", "a=0..30"], "error: bad --lanes `a=0..30`: a range gives one value per lane, so it must span 32 values, not 31\n"),
        (&["eval", shfl, "--lanes", "a=1,2"], "error: bad --lanes `a=1,2`: a list gives one value per lane, so it needs 32 values, not 2\n"),
        (&["eval", shfl, "--lanes", "a"], "error: bad --lanes `a`: expected NAME=VALUES\n"),
        (&["eval", shfl, "--lanes", "a=1", "--lanes", "z=1"], "error: --lanes gives `z`, which the instruction does not read (it reads: a)\n"),
        (&["eval", shfl, "--lanes", "a=0x1ffffffff"], "error: bad --lanes `a=0x1ffffffff`: immediate `0x1ffffffff` out of range for a (32-bit: 0..=0xffffffff or -2147483648..=-1)\n"),
        (&["eval", shfl, "--lanes", "a=1", "--active", "0x1ffffffff"], "error: bad --active `0x1ffffffff`: expected a 32-bit lane mask such as 0xffffffff\n"),
    ];
    for (args, expected) in cases {
        let o = ptxcheck(args);
        assert_eq!((o.status.code(), stderr(&o).as_str(), stdout(&o).as_str()), (Some(2), *expected, ""), "{args:?}");
    }
}

#[test]
fn prove_shfl_proves_all_eight_forms_and_notes_the_deprecation() {
    let o = ptxcheck(&["prove", "shfl"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("8 variants: 8 proven, 0 counterexample, 0 unknown, 0 timeout"), "{text}");
    assert!(text.contains("│ shfl.idx.b32 d|p  │ proven"), "{text}");
    assert!(text.contains(
        "shfl (9.7.9.5): deprecated in PTX 6.0 in favour of shfl.sync; not supported from PTX 6.4 for sm_70 and above"
    ));
}

#[test]
fn claims_find_the_lop3_labels_recipe_shf_notes_and_three_malformed_examples() {
    let o = ptxcheck(&["claims", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "refuted claims exit 1: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let claims = v["claims"].as_array().unwrap();
    let with = |verdict: &str| -> Vec<&str> {
        claims.iter().filter(|c| c["verdict"] == verdict).map(|c| c["id"].as_str().unwrap()).collect()
    };
    // Each malformed example fails both against its Syntax block and
    // against the catalogue.
    assert_eq!(
        with("refuted"),
        [
            // min.s16x2.relu: the Syntax block puts .relu first.
            "9.7.1.12/example-syntax-3",
            "9.7.1.12/example-catalogue-3",
            // bfe.b32: bfe has no .b32 type.
            "9.7.1.19/example-syntax-1",
            "9.7.1.19/example-catalogue-1",
            // `or.b32 mask mask,0x00010001`: a comma missing.
            "9.7.8.2/example-syntax-1",
            "9.7.8.2/example-catalogue-1",
            // The immLut recipe, computed on 32-bit values, leaves 0..255.
            "9.7.8.6/lop3-recipe-width",
            // The table labels Oper 1 and Oper 2 are not their immLut values.
            "9.7.8.6/lop3-table-label-1",
            "9.7.8.6/lop3-table-label-2",
            // The Notes' rotate, read in clamp mode, and their distance of
            // 32, read in wrap mode.
            "9.7.8.7/shf-rotate-note-clamp",
            "9.7.8.7/shf-note-distance-wrap",
        ]
    );
    assert_eq!(with("unknown"), Vec::<&str>::new());
    assert_eq!(
        with("not checkable"),
        [
            // Speed, and statements that the spec defines nothing (modelled as assumptions).
            "9.7.1.5/mul24-hi-efficiency",
            "9.7.1.6/mad24-hi-efficiency",
            "9.7.1.8/div-by-zero",
            "9.7.1.9/rem-negative",
            "9.7.1.17/fns-base-undefined",
            "9.7.9.5/shfl-deprecated",
            "9.7.9.5/shfl-divergent",
            // add.f32 lies outside the catalogue.
            "9.7.9.5/example-syntax-2",
            "9.7.9.5/example-catalogue-2",
            "9.7.9.5/example-syntax-13",
            "9.7.9.5/example-catalogue-13",
            // The member mask's meaning, the wait, undefined cases, sm_6x.
            "9.7.9.6/shfl-sync-membermask",
            "9.7.9.6/shfl-sync-wait",
            "9.7.9.6/shfl-sync-undefined-source",
            "9.7.9.6/shfl-sync-executing-outside",
            "9.7.9.6/shfl-sync-sm6x",
        ]
    );
    for id in
        ["9.7.9.5/shfl-inclusive-scan", "9.7.9.5/shfl-reverse-scan", "9.7.9.5/shfl-butterfly", "9.7.8.7/shf-128-left"]
    {
        assert!(with("holds").contains(&id), "{id}");
    }
    assert_eq!(v["summary"]["claims"].as_u64(), Some(claims.len() as u64));
}

#[test]
fn one_claim_in_full() {
    let o = ptxcheck(&["claims", "--id", "9.7.8.6/lop3-table-label-1"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("claim_lop3_label_1", stdout(&o));
    let o = ptxcheck(&["claims", "--id", "9.7.1.17/fns-example-4"]);
    assert_eq!(o.status.code(), Some(0));
    let o = ptxcheck(&["claims", "--id", "nope"]);
    assert_eq!(
        (o.status.code(), stderr(&o).as_str()),
        (Some(2), "error: unknown claim `nope` (`ptxcheck claims` lists them)\n")
    );
}

#[test]
fn run_executes_a_program_file() {
    let dir = std::env::temp_dir().join(format!("ptxcheck-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("scan.ptx");
    std::fs::write(&file, ptxcheck::audit::claims::shfl_scan()).unwrap();
    let path = file.to_str().unwrap();
    let o = ptxcheck(&["run", path, "--set", "Rx=1", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["registers"]["Rx"][31], "0x00000020");
    assert_eq!(v["registers"]["Rx"][0], "0x00000001");
    let o = ptxcheck(&["run", path]);
    assert_eq!(stderr(&o), "error: register `Rx` is read before it is written: give its value with --set Rx=...\n");
    std::fs::write(&file, "add.u32 x, y, 1;\nfoo.u32 z, x;\n").unwrap();
    let o = ptxcheck(&["run", path, "--set", "y=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with(&format!("error: {path}:2:1: unknown opcode `foo`")), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_usage_exits_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["prove", "frob"], "unknown instruction or variant `frob`"),
        (&["prove", "all", "--solver", "yikes"], "unknown solver `yikes`"),
        (&["prove", "all", "--timeout", "0"], "--timeout must be a positive number"),
        (&["prove", "all", "--jobs", "0"], "--jobs must be at least 1"),
        (&["prove"], "required"),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    for (args, expected) in cases {
        let o = ptxcheck(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn a_missing_solver_binary_is_a_clear_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
        .env("PTXCHECK_NO_CACHE", "1")
        .args(["prove", "shf", "--solver", "cvc5"])
        .env("PATH", "")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: solver `cvc5` not found on PATH (install Debian's `cvc5` package, or pick another with --solver)\n"
    );
}

#[test]
fn mutants_of_one_variant() {
    let o = ptxcheck(&["mutants", "cnot.b16"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("mutants_cnot_b16", stdout(&o));
}

#[test]
fn list_golden() {
    let o = ptxcheck(&["list"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("list", stdout(&o));
}

#[test]
fn audit_one_finding_in_full() {
    let Some(seeds) = common::spec_text("audit_one_finding_in_full") else { return };
    let seeds = seeds.to_str().unwrap();
    for (id, name) in [("szext-mask-or-zero", "audit_szext"), ("literal-clz-wrong-result", "audit_literal_clz")] {
        // clz's block is read from the text.
        let o = ptxcheck(&["audit", "--id", id, "--text", seeds]);
        assert_eq!(o.status.code(), Some(0), "{id}: {}", stderr(&o));
        insta::assert_snapshot!(name, stdout(&o));
    }
}

/// `audit --id` runs only the check behind the finding; what it computes is
/// what the committed report holds (the report is regenerated by
/// `ptxcheck report`, and CI checks it is current).
#[test]
fn audit_of_one_finding_matches_the_committed_report() {
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../reports/ptxcheck.json")).unwrap(),
    )
    .unwrap();
    let findings = report["audit"]["findings"].as_array().unwrap();
    let Some(seeds) = common::spec_text("audit_of_one_finding_matches_the_committed_report") else { return };
    let seeds = seeds.to_str().unwrap();
    for id in
        ["bfe-sign-bit", "9.7.8.6/lop3-table-label-1", "literal-bfind-shift-into-sign-bit-1-shl-i", "shfl-source-lane"]
    {
        // bfind's block is read from the text.
        let o = ptxcheck(&["audit", "--id", id, "--format", "json", "--text", seeds]);
        assert_eq!(o.status.code(), Some(0), "{id}: {}", stderr(&o));
        let computed: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let mut committed =
            findings.iter().find(|f| f["id"] == id).unwrap_or_else(|| panic!("{id} not in the report")).clone();
        // The units of the text a finding rests on are the report's, made
        // with the text (`report --text`); `audit` reads no text.
        committed.as_object_mut().unwrap().remove("units");
        assert_eq!(computed, committed, "{id}");
    }
}

#[test]
fn audit_of_an_unknown_finding_is_a_one_line_error() {
    let o = ptxcheck(&["audit", "--id", "no-such-finding"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "error: unknown finding `no-such-finding` (`ptxcheck audit` lists them)\n");
    assert!(stdout(&o).is_empty());
}

/// The widest line of `text`, in terminal columns.
fn widest(text: &str) -> usize {
    text.lines().map(unicode_width::UnicodeWidthStr::width).max().unwrap_or(0)
}

/// With --width, every line fits; into a pipe without it, tables keep
/// their full width, as the golden files hold them.
#[test]
fn tables_fit_the_width_asked_for() {
    let runs: &[&[&str]] = &[
        &["list"],
        &["prove", "shf", "--jobs", "1"],
        &["prove", "shfl.up.b32", "bfe.s32", "lop3.b32", "--jobs", "1"],
        &["claims"],
        &["eval", "shfl.up.b32 Ry|p, Rx, 0x1, 0x0", "--lanes", "Rx=0..31", "--active", "0xffffffef"],
    ];
    // The widths change how the answers print, not the queries: the first
    // run of each command solves them, the others read them from its cache.
    let cache = tempfile::tempdir().unwrap();
    let ptxcheck = |args: &[&str]| ptxcheck_with_cache(cache.path(), args);
    for args in runs {
        let natural = ptxcheck(args);
        for width in [80, 60] {
            let w = width.to_string();
            let fitted = ptxcheck(&[*args, &["--width", &w][..]].concat());
            assert_eq!(fitted.status.code(), natural.status.code(), "{args:?} --width {w}");
            let text = stdout(&fitted);
            assert!(widest(&text) <= width, "{args:?} --width {w}:\n{text}");
        }
        assert!(widest(&stdout(&natural)) > 80, "{args:?}: a pipe gets the full width");
        // Enough room changes nothing (but the times).
        let untimed = |o: &std::process::Output| stdout(o).replace(|c: char| c.is_ascii_digit(), "#");
        let roomy = ptxcheck(&[*args, &["--width", "1000"][..]].concat());
        assert_eq!(untimed(&roomy), untimed(&natural), "{args:?}");
    }
    let o = ptxcheck(&["list", "--width", "10"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A predicate prints as 1/0 in every output of eval and run.
#[test]
fn predicates_print_as_1_and_0_everywhere() {
    let o = ptxcheck(&["eval", "shfl.up.b32 d|p, a, 1, 0", "--lanes", "a=0..31"]);
    let text = stdout(&o);
    assert!(text.contains("│ 0    │ 0x00000000 │ 0x00000001 │ 0x00000000 │ 0           │ 0x00000000 │ 0 │"), "{text}");
    assert!(!text.contains("true") && !text.contains("false"), "{text}");
    let o = ptxcheck(&["eval", "shfl.up.b32 d|p, a, 1, 0", "--lanes", "a=0..31", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!((v["lanes"][0]["outputs"]["p"].as_u64(), v["lanes"][1]["outputs"]["p"].as_u64()), (Some(0), Some(1)));
    let o = ptxcheck(&["eval", "lop3.or.b32 d|p, 0xf0, 0xcc, 0xaa, 0x80, 0", "--format", "json"]);
    assert_eq!(stdout(&o), "{\"d\":\"0x00000080\",\"p\":1}\n");
}

/// An unsettled audit says so last, and exits 1; a tiny time limit leaves
/// every comparison of one passage unsettled.
#[test]
fn an_unsettled_audit_says_why_it_exits_1() {
    // Uncached: an answer another test left in the run's cache would settle it.
    let o = common::ptxcheck_uncached(&["audit", "--id", "szext-mask-or-zero", "--timeout", "0.001"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("\nUnresolved (the solver did not settle these: neither findings nor clean):\n"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.ends_with("unresolved (listed above): the audit is incomplete, exit status 1."), "{last}");
}

/// Reports made with a spec text are never checked, or rewritten, without
/// one: a one-line error says how to pass it, before anything is proven.
#[test]
fn report_without_the_text_its_reports_were_made_with_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    let committed = concat!(env!("CARGO_MANIFEST_DIR"), "/../reports/ptxcheck.json");
    std::fs::copy(committed, tmp.path().join("ptxcheck.json")).unwrap();
    let dir = tmp.path().to_str().unwrap();
    for args in [vec!["report", "--check", "--dir", dir], vec!["report", "--dir", dir]] {
        let start = std::time::Instant::now();
        let o = ptxcheck(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("was made with a spec text: pass it with --text PATH"), "{err}");
        assert!(err.contains("PTXCHECK_SPEC_TEXT") && err.contains("--no-text"), "{err}");
        assert!(start.elapsed().as_secs() < 5, "nothing is proven first");
        assert!(stdout(&o).is_empty());
    }
    // Nothing was written.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    // --text and --no-text together are bad usage.
    let o = ptxcheck(&["report", "--check", "--dir", dir, "--no-text", "--text", "x"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `exhaustive --simd` runs the path asked for and says so; a path this
/// processor lacks is refused in one line, naming the widest it has.
#[test]
fn exhaustive_runs_the_vector_path_asked_for() {
    use ptx_spec::program::Isa;
    let o = ptxcheck(&["exhaustive", "not.b16", "--simd", "baseline"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let how = if Isa::best() == Isa::Baseline { "the widest this processor has" } else { "asked for" };
    assert!(stdout(&o).contains(&format!("vector instructions: baseline ({how})")), "{}", stdout(&o));
    for isa in Isa::ALL.into_iter().filter(|i| !i.supported()) {
        let o = ptxcheck(&["exhaustive", "not.b16", "--simd", isa.name()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("the widest it has is {}", Isa::best().name())), "{err}");
        assert!(stdout(&o).is_empty(), "nothing half-written: {}", stdout(&o));
    }
}

/// `text` on the 9.1 floating-point chapter, which ptxcheck has no model
/// of: its findings and their root causes with the edits judged on a copy,
/// as a user reads them (the dictionary CI installs; without it the
/// spelling findings go), and nothing of the seeds, whose sections it
/// lacks, in either form.
#[test]
fn text_on_a_chapter_without_a_model() {
    let Some(seeds) = common::spec_text("text_on_a_chapter_without_a_model") else { return };
    let chapter = seeds.join("../ptx-9.1/no-model");
    let o = ptxcheck(&["text", chapter.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    if out.contains("note: no dictionary") {
        common::skip("text_on_a_chapter_without_a_model: no dictionary");
        return;
    }
    assert!(!out.contains("seed"), "{out}");
    let json = ptxcheck(&["text", chapter.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    for seeds_only in ["root_causes", "sections_missing"] {
        assert_eq!(v[seeds_only].as_array().map(Vec::len), Some(0), "{seeds_only}");
    }
    assert_eq!(v["unchecked"], 0);
    insta::assert_snapshot!("text_no_model", out);
}
