//! Ctrl-C: any command stops within about a second, with status 130, one
//! line on standard error, and no file written, whole or in part.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// Start ptxcheck with `args`.
fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
        .env("PTXCHECK_NO_CACHE", "1")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Send SIGINT to `child` after `after`, and return its exit status, what
/// it printed on standard error, and how long it took to end.
fn interrupt(child: Child, after: Duration) -> (Option<i32>, String, Duration) {
    std::thread::sleep(after);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let sent = Instant::now();
    let o = child.wait_with_output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned(), sent.elapsed())
}

/// Within about a second, with room for a loaded machine.
const PROMPT: Duration = Duration::from_secs(3);

fn names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

#[test]
fn prove_all_stops_with_status_130() {
    // The embedded Z3 in the middle of its queries: the one that would go
    // on longest is the point.
    let (status, err, took) = interrupt(start(&["prove", "all", "--timeout", "60"]), Duration::from_secs(1));
    assert_eq!(status, Some(130), "{err}");
    assert_eq!(err, "interrupted\n");
    assert!(took < PROMPT, "took {took:?}");
}

#[test]
fn solver_processes_are_stopped_too() {
    // Some solver process is needed; z3's is the one CI always has.
    if Command::new("z3").arg("--version").output().is_err() {
        eprintln!("skipped: no z3 on PATH");
        return;
    }
    let (status, err, took) =
        interrupt(start(&["prove", "all", "--solver", "z3", "--timeout", "60"]), Duration::from_secs(1));
    assert_eq!(status, Some(130), "{err}");
    assert!(took < PROMPT, "took {took:?}");
}

#[test]
fn an_interrupted_report_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    let target = reports.to_str().unwrap();
    let (status, err, took) = interrupt(start(&["report", "--dir", target, "--timeout", "60"]), Duration::from_secs(1));
    assert_eq!(status, Some(130), "{err}");
    assert!(took < PROMPT, "took {took:?}");
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

#[test]
fn an_interrupted_report_leaves_the_old_one_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "old\n").unwrap();
    let target = dir.path().to_str().unwrap();
    let (status, err, _) = interrupt(start(&["report", "--dir", target]), Duration::from_secs(1));
    assert_eq!(status, Some(130), "{err}");
    assert_eq!(names(dir.path()), ["README.md"]);
    assert_eq!(std::fs::read_to_string(dir.path().join("README.md")).unwrap(), "old\n");
}

#[test]
fn every_long_command_stops() {
    let commands: &[&[&str]] = &[&["audit"], &["claims"], &["mutants", "all"], &["exhaustive", "--max-bits", "32"]];
    for args in commands {
        let (status, err, took) = interrupt(start(args), Duration::from_millis(700));
        assert_eq!(status, Some(130), "{args:?}: {err}");
        assert!(err.ends_with("interrupted\n"), "{args:?}: {err}");
        assert!(took < PROMPT, "{args:?} took {took:?}");
    }
}

#[test]
fn the_suite_stopped_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let audit = format!("{}/../reports/ptxcheck.json", env!("CARGO_MANIFEST_DIR"));
    let args = ["vectors", "all", "--output", suite.to_str().unwrap(), "--audit", &audit];
    let (status, err, took) = interrupt(start(&args), Duration::from_millis(1500));
    assert_eq!(status, Some(130), "{err}");
    assert!(took < PROMPT, "took {took:?}");
    let left: Vec<_> =
        std::fs::read_dir(&suite).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}
