//! What the command-line tests share: running the binary and reading what
//! it printed.

// Each test file uses its own part of this.
#![allow(dead_code)]

use std::process::{Command, Output};

pub fn ptxcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxcheck")).args(args).output().expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
