//! The vendor commands: `hw compare` on a hand-made results file, `hw emit`
//! building with g++, and `vendor syntax`/`fold` where ptxas is installed
//! (they print a skip message otherwise).

use std::process::{Command, Output};

fn ptxcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxcheck")).args(args).env("PTXCHECK_NO_CACHE", "1").output().expect("the binary runs")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).to_string(), String::from_utf8_lossy(&o.stderr).to_string())
}

fn repo(path: &str) -> String {
    format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn hw_compare_reports_the_wrong_value() {
    let o = ptxcheck(&["hw", "compare", &format!("{}/tests/data/hw-results.txt", env!("CARGO_MANIFEST_DIR"))]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("line 5: inst add.u32 0x00000005 0x00000007 -> hardware 0x0000000d, model 0x0000000c: disagree"),
        "{out}"
    );
    assert!(out.contains("5 results: 3 agree, 1 disagree, 1 hardware picks"), "{out}");
}

#[test]
fn hw_compare_rejects_a_malformed_file_in_one_line() {
    let dir = std::env::temp_dir().join(format!("ptxcheck-hw-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("results.txt");
    std::fs::write(&file, "inst add.u32 0x1 -> 0x2\n").unwrap();
    let o = ptxcheck(&["hw", "compare", file.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(err.trim(), "error: results line 1: wrong number of inputs: `inst add.u32 0x1 -> 0x2`");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn hw_emit_writes_a_program_that_builds() {
    let dir = std::env::temp_dir().join(format!("ptxcheck-hw-emit-{}", std::process::id()));
    let o =
        ptxcheck(&["hw", "emit", dir.to_str().unwrap(), "--samples", "1", "--audit", &repo("reports/ptxcheck.json")]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    for f in ["ptxcheck_hw.ptx", "ptxcheck_hw_shfl.ptx", "ptxcheck_hw_tables.h", "ptxcheck_hw.cpp", "Makefile"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    if Command::new("g++").arg("--version").output().is_ok() {
        let b = Command::new("g++")
            .args(["-O0", "-std=c++17", "-o", "ptxcheck_hw", "ptxcheck_hw.cpp", "-ldl"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    } else {
        eprintln!("skipping the host build: g++ not found");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `vendor CMD`, or says why not.
fn vendor_or_skip(args: &[&str]) -> Option<Output> {
    let o = ptxcheck(args);
    if o.status.code() == Some(2) && text(&o).1.contains("not found") {
        eprintln!("skipping `ptxcheck {}`: {}", args.join(" "), text(&o).1.trim());
        return None;
    }
    Some(o)
}

#[test]
fn vendor_syntax_matches_the_committed_report() {
    let Some(o) = vendor_or_skip(&["vendor", "syntax", "--check", "--dir", &repo("reports")]) else { return };
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("variants: 187 of 187 accepted"), "{out}");
    assert!(out.contains("bfe.b32  d,a,start,len;"), "{out}");
}

#[test]
fn vendor_fold_matches_the_committed_report() {
    let Some(o) = vendor_or_skip(&["vendor", "fold", "--check", "--dir", &repo("reports")]) else { return };
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("sub.sat.s32"), "{out}");
}

#[test]
fn a_missing_ptxas_is_one_line_and_status_2() {
    let o = ptxcheck(&["vendor", "syntax", "--ptxas", "/nonexistent/ptxas"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o).1, "error: ptxas at /nonexistent/ptxas cannot be run: no such file\n");
}
