//! The proof cache: a second run answers from it with the same verdicts,
//! `--no-cache` neither reads nor writes it, a corrupt entry is ignored,
//! only evidence is kept, and two processes can share it.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{ptxcheck_with_cache as ptxcheck, stdout};

/// Every entry file under `dir`.
fn entries(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(subdirs) = std::fs::read_dir(dir) else { return out };
    for sub in subdirs.flatten() {
        for e in std::fs::read_dir(sub.path()).into_iter().flatten().flatten() {
            out.push(e.path());
        }
    }
    out.sort();
    out
}

/// The verdict column of a prove table, without the times.
fn verdicts(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .filter(|l| {
            l.contains("proven") || l.contains("counterexample") || l.contains("unknown") || l.contains("timeout")
        })
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_second_run_answers_from_the_cache_with_the_same_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let first = ptxcheck(dir.path(), &["prove", "shf", "bfe.u32", "fns"]);
    assert!(first.status.success(), "{}", stdout(&first));
    let written = entries(dir.path());
    assert!(!written.is_empty(), "nothing was cached");
    let second = ptxcheck(dir.path(), &["prove", "shf", "bfe.u32", "fns"]);
    assert!(second.status.success());
    assert_eq!(verdicts(&first), verdicts(&second));
    // Answered from the cache: nothing new to write.
    assert_eq!(written, entries(dir.path()));
}

#[test]
fn no_cache_neither_reads_nor_writes() {
    let dir = tempfile::tempdir().unwrap();
    let o = ptxcheck(dir.path(), &["prove", "and.b32", "--no-cache"]);
    assert!(o.status.success());
    assert!(entries(dir.path()).is_empty());
    let o = Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
        .args(["prove", "and.b32"])
        .env("PTXCHECK_CACHE_DIR", dir.path())
        .env("PTXCHECK_NO_CACHE", "1")
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn a_corrupt_entry_is_ignored_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    assert!(ptxcheck(dir.path(), &["prove", "and.b32"]).status.success());
    let written = entries(dir.path());
    assert!(!written.is_empty());
    let good: Vec<String> = written.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    // Garbage, a truncated entry, and an `unsat` whose checksum is wrong.
    for (i, p) in written.iter().enumerate() {
        let bad = match i % 3 {
            0 => "not an entry\n".to_string(),
            1 => good[i][..good[i].len() / 2].to_string(),
            _ => good[i].replacen("sat\n", "unsat\n", 1),
        };
        std::fs::write(p, bad).unwrap();
    }
    let o = ptxcheck(dir.path(), &["prove", "and.b32"]);
    assert!(o.status.success(), "{}", stdout(&o));
    let again: Vec<String> = written.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    assert_eq!(good, again, "each corrupt entry is replaced by the fresh answer");
}

#[test]
fn a_cached_counterexample_is_the_same_counterexample() {
    // The audit's witnesses come from satisfiable queries: each one cached
    // must give the same findings.
    let dir = tempfile::tempdir().unwrap();
    let args = ["audit", "--id", "szext-mask-or-zero"];
    let first = ptxcheck(dir.path(), &args);
    let second = ptxcheck(dir.path(), &args);
    assert_eq!(first.status.code(), second.status.code());
    assert_eq!(stdout(&first), stdout(&second));
    let sat = entries(dir.path()).iter().filter(|p| std::fs::read_to_string(p).unwrap().contains("\nsat\n")).count();
    assert!(sat > 0, "no model was cached");
}

#[test]
fn a_timeout_is_never_cached() {
    let dir = tempfile::tempdir().unwrap();
    // fns's cases do not finish in a millisecond.
    let o = ptxcheck(dir.path(), &["prove", "fns", "--timeout", "0.001"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    for p in entries(dir.path()) {
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains("\nunsat\n") || text.contains("\nsat\n"), "{}: {text}", p.display());
    }
    // So a run with time enough proves it.
    let o = ptxcheck(dir.path(), &["prove", "fns"]);
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn two_processes_share_one_cache() {
    let dir = tempfile::tempdir().unwrap();
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
            .args(["prove", "shf", "lop3", "--jobs", "1"])
            .env("PTXCHECK_CACHE_DIR", dir.path())
            .env_remove("PTXCHECK_NO_CACHE")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success() && b.status.success());
    assert_eq!(verdicts(&a), verdicts(&b));
    // Every entry is whole: a third run reads them all back.
    let c = ptxcheck(dir.path(), &["prove", "shf", "lop3"]);
    assert!(c.status.success());
    assert_eq!(verdicts(&a), verdicts(&c));
    for p in entries(dir.path()) {
        assert!(std::fs::read_to_string(&p).unwrap().lines().last().unwrap().starts_with("end "));
    }
}
