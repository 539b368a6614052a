//! What the command-line tests share: running the binary and reading what
//! it printed.

// Each test file uses its own part of this.
#![allow(dead_code)]

use std::process::{Command, Output};

/// `ptxcheck args`, solving every query: a test's verdicts never depend on
/// what an earlier run left in the proof cache (a cached proof would answer
/// a query a test expects to time out).
pub fn ptxcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
        .args(args)
        .env("PTXCHECK_NO_CACHE", "1")
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
