//! Output files: checked before any work (folder, kind of target), written
//! whole under a unique temporary name, never over anything but a regular
//! file.

mod common;

use common::{ptxcheck, ptxcheck_with_cache, stderr, stdout};
use std::time::{Duration, Instant};

fn one_line_error(o: &std::process::Output, status: i32, start: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(status), "{err}");
    assert!(err.starts_with(start), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_folder_or_a_device_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let o = ptxcheck(&["smtlib", "and.b32", "--output", folder]);
    one_line_error(&o, 3, &format!("error: refusing to replace {folder}: a folder, not a regular file"));
    for device in ["/dev/null", "/dev/full"] {
        let o = ptxcheck(&["smtlib", "and.b32", "--output", device]);
        one_line_error(&o, 3, &format!("error: refusing to replace {device}: a character device"));
        let meta = std::fs::metadata(device).unwrap();
        assert!(std::os::unix::fs::FileTypeExt::is_char_device(&meta.file_type()), "{device} is still a device");
    }
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let o = ptxcheck(&["smtlib", "and.b32", "--output", link.to_str().unwrap()]);
    one_line_error(&o, 3, "error: refusing to replace ");
    assert!(stderr(&o).contains("a symbolic link to a character device"), "{}", stderr(&o));
}

#[test]
fn a_report_into_a_folder_it_cannot_use_fails_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // A report file's name taken by a folder.
    std::fs::create_dir(dir.path().join("findings.md")).unwrap();
    let start = Instant::now();
    let o = ptxcheck(&["report", "--dir", dir.path().to_str().unwrap()]);
    one_line_error(&o, 3, "error: refusing to replace ");
    assert!(start.elapsed() < Duration::from_secs(5), "checked before the proofs: {:?}", start.elapsed());
    // hw emit, whose folder is a file.
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let o = ptxcheck(&["hw", "emit", file.to_str().unwrap()]);
    one_line_error(&o, 3, "error: cannot write to ");
}

#[test]
fn a_folder_without_write_permission_fails_before_computing() {
    // Root writes into any folder whatever its permissions, so there is
    // nothing to check then.
    if nix::unistd::geteuid().is_root() {
        eprintln!("skipped: running as root, which permissions do not stop");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    let start = Instant::now();
    let o = ptxcheck(&["report", "--dir", locked.to_str().unwrap()]);
    one_line_error(&o, 3, "error: cannot write to ");
    assert!(start.elapsed() < Duration::from_secs(5), "checked before the proofs: {:?}", start.elapsed());
    let o = ptxcheck(&["smtlib", "all", "--output", locked.join("x.smt2").to_str().unwrap()]);
    one_line_error(&o, 3, "error: cannot write ");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn writers_in_parallel_never_collide() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("all.smt2");
    let path = file.to_str().unwrap().to_string();
    let expected = common::stdout(&ptxcheck(&["smtlib", "all"]));
    let writers: Vec<_> = (0..4)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || ptxcheck(&["smtlib", "all", "--output", &path]).status.code())
        })
        .collect();
    for w in writers {
        assert_eq!(w.join().unwrap(), Some(0));
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["all.smt2"], "no temporary file left");
}

/// At 80 columns, and at the narrowest width (40), no table breaks a value:
/// every hex value of a finding's witness (from its JSON) stands whole on
/// one line, and no line is wider; a witness too wide for its columns turns
/// to one reading per row.
#[test]
fn witness_tables_at_80_columns_break_no_value() {
    let cases =
        ["dot-element-order", "bfe-sign-bit", "szext-mask-or-zero", "shfl-source-lane", "div-rounding-direction"];
    // The widths change how a finding prints, not its queries: the first run
    // for a finding solves them, the others read them from its cache.
    let cache = tempfile::tempdir().unwrap();
    let ptxcheck = |args: &[&str]| ptxcheck_with_cache(cache.path(), args);
    for (id, width) in cases.iter().flat_map(|id| [(*id, 80), (*id, 40)]) {
        let text = ptxcheck(&["audit", "--id", id, "--width", &width.to_string()]);
        let json = ptxcheck(&["audit", "--id", id, "--format", "json"]);
        assert_eq!(text.status.code(), Some(0), "{id}: {}", stderr(&text));
        let (out, v): (String, serde_json::Value) = (stdout(&text), serde_json::from_str(&stdout(&json)).unwrap());
        // A finding's id heads its output whole, however narrow the width.
        let table = |l: &&str| width == 80 || l.starts_with(['│', '┌', '├', '└']);
        assert!(out.lines().filter(table).all(|l| l.chars().count() <= width), "{id} at {width}:\n{out}");
        let witness = v["witness"].to_string();
        let values: Vec<&str> = witness.split('"').filter(|s| s.starts_with("0x")).collect();
        assert!(!values.is_empty(), "{id}: a witness with values");
        for value in values {
            assert!(out.lines().any(|l| l.contains(value)), "{id} at {width}: {value} is broken:\n{out}");
        }
    }
}
