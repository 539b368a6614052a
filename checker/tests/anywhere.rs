//! The installed tool outside the repository: each command that an
//! emulator author or a spec auditor runs in their own folder works there,
//! with nothing read from a path relative to the repository; and input
//! files with nothing in them are a one-line error.

mod common;

use std::path::Path;
use std::process::Output;

use common::{stderr, stdout};

/// ptxcheck run in `dir`.
fn in_dir(dir: &Path, args: &[&str]) -> Output {
    common::command().args(args).current_dir(dir).output().expect("ptxcheck runs")
}

#[test]
fn the_suite_is_written_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let o = in_dir(dir.path(), &["vectors", "add.u32", "bfe.u64", "--output", "suite"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let written: Vec<String> = std::fs::read_dir(dir.path().join("suite"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(written.iter().any(|f| f.ends_with(".jsonl")), "{written:?}");
    // The probes of the readings came from the built-in report: bfe.u64's
    // operand range has two.
    let jsonl = written.iter().find(|f| f.ends_with(".jsonl")).unwrap();
    let text = std::fs::read_to_string(dir.path().join("suite").join(jsonl)).unwrap();
    assert!(text.contains("\"kind\":\"reading\""), "no vector is a probe of the readings");
}

#[test]
fn every_other_command_runs_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["eval", "div.u32 d, 7, 0", "--model", "sm_90"][..],
        &["list", "--model", "sm_90"],
        &["prove", "add.u32"],
        &["hw", "emit", "modules"],
    ] {
        let o = in_dir(dir.path(), args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
    assert!(dir.path().join("modules").join("ptxcheck_hw.ptx").is_file());
}

#[test]
fn a_results_file_with_no_results_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.txt"), "# a header, and no result\n").unwrap();
    std::fs::write(dir.path().join("empty.jsonl"), "").unwrap();
    for args in [&["hw", "compare", "empty.txt"][..], &["conform", "empty.jsonl"]] {
        let o = in_dir(dir.path(), args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("no results"), "{args:?}: {err}");
    }
}
