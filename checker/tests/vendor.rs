//! The vendor commands: `hw compare` on a hand-made results file and on the
//! committed H100 run, `hw emit`'s modules through ptxas, `hw run` without a
//! driver, and `vendor syntax`/`fold` where ptxas is installed
//! (they print a skip message otherwise).

mod common;

use std::process::{Command, Output};

use common::ptxcheck;

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
fn hw_emit_writes_modules_that_assemble() {
    let dir = std::env::temp_dir().join(format!("ptxcheck-hw-emit-{}", std::process::id()));
    let o =
        ptxcheck(&["hw", "emit", dir.to_str().unwrap(), "--samples", "1", "--audit", &repo("reports/ptxcheck.json")]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    assert!(text(&o).1.starts_with("case boundaries of the model: "), "{:?}", text(&o));
    // Each module through ptxas, where the wheel is installed, for the
    // target its header names.
    let ptxas = ptxcheck::oracle::ptxas::find_ptxas(None).ok();
    for f in ["ptxcheck_hw.ptx", "ptxcheck_hw_shfl.ptx", "ptxcheck_sweep.ptx"] {
        let path = dir.join(f);
        let module = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{f} written"));
        let target = module.lines().find_map(|l| l.strip_prefix(".target ")).expect("a .target line").to_string();
        let Some(tool) = &ptxas else {
            common::skip(&format!("ptxas on {f}: ptxas not found"));
            continue;
        };
        let mut ptxas = Command::new(&tool.path);
        ptxas.arg(format!("-arch={target}")).arg(&path).arg("-o").arg(dir.join("out.cubin"));
        let b = ptxas.output().expect("ptxas runs");
        assert!(b.status.success(), "{f}: {}", String::from_utf8_lossy(&b.stderr));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Without a CUDA driver, `hw run` and `hw sweep` say so in one line
/// (status 2); with one, they run.
#[test]
fn hw_run_without_a_driver_is_one_line() {
    for args in [&["hw", "run", "--samples", "0"][..], &["hw", "sweep", "add.u16"][..]] {
        let mut all = args.to_vec();
        let audit = repo("reports/ptxcheck.json");
        all.extend(["--audit", &audit]);
        let o = ptxcheck(&all);
        let (out, err) = text(&o);
        if o.status.code() == Some(2) {
            assert_eq!(
                err,
                "error: no CUDA driver found (libcuda.so.1): `hw run`, `hw sweep` and `conform --gpu` need an NVIDIA GPU and its driver\n"
            );
        } else {
            assert!(out.contains("NVIDIA"), "a run names its device: {out}{err}");
        }
    }
}

#[test]
fn the_committed_h100_run_has_the_device_and_every_result() {
    let o = ptxcheck(&["hw", "compare", &repo("reports/vendor/h100-run.txt")]);
    let (out, _) = text(&o);
    let head = std::fs::read_to_string(repo("reports/vendor/h100-run.txt")).unwrap();
    assert!(head.lines().nth(1).unwrap().starts_with("# device: NVIDIA H100"), "{head:.200}");
    assert!(out.contains("8643 results: 7702 agree, 5 disagree, 936 hardware picks"), "{out}");
    assert!(out.contains("hardware picks: inst rem.s32: 12 results"), "{out}");
    assert_eq!(o.status.code(), Some(1), "disagreements exit 1");
}

/// Runs `vendor CMD`, or says why not.
fn vendor_or_skip(args: &[&str]) -> Option<Output> {
    let o = ptxcheck(args);
    if o.status.code() == Some(2) && text(&o).1.contains("not found") {
        common::skip(&format!("`ptxcheck {}`: {}", args.join(" "), text(&o).1.trim()));
        return None;
    }
    Some(o)
}

#[test]
fn vendor_syntax_matches_the_committed_report() {
    let Some(o) = vendor_or_skip(&["vendor", "syntax", "--check", "--dir", &repo("reports")]) else { return };
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("variants: 2184 of 2184 accepted"), "{out}");
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

/// ptxas's miscompilations: the committed record's column for the pinned
/// ptxas is what that ptxas folds now, and every reproducer assembles.
#[test]
fn vendor_defects_match_the_committed_record() {
    let Some(o) = vendor_or_skip(&["vendor", "defects", "--format", "json", "--dir", &repo("reports")]) else {
        return;
    };
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    let now: serde_json::Value = serde_json::from_str(&out).unwrap();
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo("reports/vendor/ptxas-defects.json")).unwrap()).unwrap();
    let release = now["ptxas"][0]["release"].clone();
    let k = committed["ptxas"].as_array().unwrap().iter().position(|t| t["release"] == release).expect("pinned ptxas");
    let column = |v: &serde_json::Value, k: usize| -> Vec<serde_json::Value> {
        v["defects"].as_array().unwrap().iter().map(|d| d["by_ptxas"][k].clone()).collect()
    };
    assert_eq!(column(&now, 0), column(&committed, k));
    assert!(!column(&now, 0).is_empty(), "sub.sat.s32's folding is a defect of the pinned ptxas");
}
