//! `ptxcheck smtlib`: the exported SMT-LIB2 loads into real solvers, its
//! functions compute what the concrete semantics computes, and the command
//! line behaves (golden file for a small variant, one-line errors, files
//! written whole or not at all).

use std::io::Write as _;
use std::process::{Command, Stdio};

mod common;

use common::{ptxcheck, stderr, stdout};

use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::Variant;
use ptxcheck::smtlib::export_name;

/// The solver processes the export is loaded into: program and arguments
/// for an SMT-LIB2 script on standard input with push/pop.
const SOLVERS: &[(&str, &[&str])] =
    &[("z3", &["-smt2", "-in"]), ("cvc5", &["--quiet", "--lang=smt2", "--incremental"])];

/// `script` run by `program`: its output lines, or `None` (with a message)
/// when the program is not installed.
fn run_solver(program: &str, args: &[&str], script: &str) -> Option<Vec<String>> {
    let child = Command::new(program).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            common::skip(&format!("{program}: cannot run it ({e})"));
            return None;
        }
    };
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Some(String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect())
}

#[test]
fn the_whole_export_loads_into_each_solver() {
    let o = ptxcheck(&["smtlib", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let script = format!("{}(check-sat)\n", stdout(&o));
    assert_eq!(script.matches("(define-fun |").count(), 2641);
    for (program, args) in SOLVERS {
        let start = std::time::Instant::now();
        let Some(lines) = run_solver(program, args, &script) else { continue };
        assert_eq!(lines, ["sat"], "{program}");
        println!("{program} loaded the export in {:.2?}", start.elapsed());
    }
}

#[test]
fn function_names_are_unique_and_quotable() {
    let names: Vec<String> = Variant::all().iter().map(export_name).collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    assert!(names.iter().all(|n| !n.contains(['|', '\\', ' '])), "{names:?}");
    assert!(names.contains(&"shfl.up.b32.d_p".to_string()));
}

/// A small deterministic generator of test inputs (xorshift).
struct Inputs(u64);

impl Inputs {
    fn next(&mut self) -> u128 {
        let mut word = || {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        };
        (u128::from(word()) << 64) | u128::from(word())
    }
}

/// For every variant, on edge and random inputs, each exported function
/// applied to the inputs equals the concrete semantics' output (sat), and
/// differs from it in no way (the negation is unsat); an output the
/// concrete semantics leaves undefined has its `.defined` function false.
#[test]
fn exported_functions_compute_the_concrete_semantics() {
    // set's and setp's covering sample: their 1,890 forms would take
    // minutes of solver time, where the sample's 108 hold every operator at
    // every type and every Boolean form at every destination.
    let variants = Variant::sampled();
    let o = ptxcheck(&["smtlib", "all"]);
    let export = stdout(&o);
    let mut script = export.clone();
    let mut expected = Vec::new();
    let mut inputs = Inputs(0x9e37_79b9_7f4a_7c15);
    for v in &variants {
        let widths: Vec<u32> = v.inputs().iter().map(|o| o.ty.width()).collect();
        let mut cases: Vec<Vec<u128>> = vec![vec![0; widths.len()], vec![u128::MAX; widths.len()]];
        cases.extend((0..4).map(|_| widths.iter().map(|_| inputs.next()).collect()));
        for case in cases {
            let args: Vec<String> =
                widths.iter().zip(&case).map(|(&w, &x)| BitVec::new(w, x & mask(w)).smtlib()).collect();
            let args = args.join(" ");
            for (operand, value) in v.outputs().iter().zip(v.run(&case)) {
                let f = format!("{}.{}", export_name(v), operand.name);
                let claim = match value {
                    Some(value) => {
                        let defined = if export.contains(&format!("(define-fun |{f}.defined| ")) {
                            format!("(|{f}.defined| {args})")
                        } else {
                            "true".to_string()
                        };
                        format!("(and {defined} (= (|{f}| {args}) {}))", value.smtlib())
                    }
                    None => format!("(not (|{f}.defined| {args}))"),
                };
                let _ = std::fmt::Write::write_fmt(
                    &mut script,
                    format_args!(
                        "(push 1)(assert {claim})(check-sat)(pop 1)(push 1)(assert (not {claim}))(check-sat)(pop 1)\n"
                    ),
                );
                expected.push(format!("{v}: {claim}: sat"));
                expected.push(format!("{v}: {claim}: unsat"));
            }
        }
    }
    for (program, args) in SOLVERS {
        let Some(lines) = run_solver(program, args, &script) else { continue };
        assert_eq!(lines.len(), expected.len(), "{program}: {lines:?}");
        for (line, expected) in lines.iter().zip(&expected) {
            assert!(expected.ends_with(&format!(": {line}")), "{program}: expected {expected}, got {line}");
        }
    }
}

fn mask(width: u32) -> u128 {
    if width == 128 {
        u128::MAX
    } else {
        (1 << width) - 1
    }
}

#[test]
fn one_variant_golden() {
    let o = ptxcheck(&["smtlib", "and.b32"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("smtlib_and_b32", stdout(&o));
}

#[test]
fn bad_names_get_one_line_errors() {
    let o = ptxcheck(&["smtlib", "bfe.s8"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: unknown instruction or variant `bfe.s8`"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
    assert_eq!(ptxcheck(&["smtlib"]).status.code(), Some(2));
}

#[test]
fn output_files_are_written_whole_or_not_at_all() {
    let dir = std::env::temp_dir().join(format!("ptxcheck-smtlib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bfe.smt2");
    let o = ptxcheck(&["smtlib", "bfe", "--output", file.to_str().unwrap()]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout(&ptxcheck(&["smtlib", "bfe"])));
    // A bad name leaves the earlier file as it was.
    let o = ptxcheck(&["smtlib", "frob", "--output", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(std::fs::read_to_string(&file).unwrap().contains("|bfe.s64.d|"));
    // A directory that does not exist: a one-line error, nothing written.
    let missing = dir.join("no/such/dir/out.smt2");
    let o = ptxcheck(&["smtlib", "and.b32", "--output", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: cannot write "), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only bfe.smt2");
    std::fs::remove_dir_all(&dir).unwrap();
}
