//! Bounds on --timeout and --jobs: every solver command rejects a value out
//! of range with one line and status 2, before any work.

mod common;

use common::{ptxcheck, stderr, stdout};

#[test]
fn timeouts_out_of_range_are_one_line_usage_errors() {
    for value in ["1e20", "1e300", "nan", "inf", "-1", "0", "86401"] {
        for command in [&["prove", "shf"][..], &["claims"], &["audit"], &["mutants", "and"], &["report", "--check"]] {
            let mut args = command.to_vec();
            args.extend(["--timeout", value]);
            let o = ptxcheck(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.starts_with("error: --timeout must be a positive number of seconds, at most 86400"),
                "{args:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.len() < 120, "{args:?}: {err}");
            assert!(stdout(&o).is_empty(), "{args:?}");
        }
    }
}

#[test]
fn jobs_out_of_range_are_one_line_usage_errors() {
    for value in ["0", "1025", "100000"] {
        for command in [&["prove", "shf"][..], &["claims"], &["exhaustive"], &["report", "--check"]] {
            let mut args = command.to_vec();
            args.extend(["--jobs", value]);
            let o = ptxcheck(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err, format!("error: --jobs must be at least 1 and at most 1024, got {value}\n"), "{args:?}");
        }
    }
}

#[test]
fn bounds_themselves_are_accepted() {
    let o = ptxcheck(&["prove", "and.b32", "--timeout", "86400", "--jobs", "1024"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = ptxcheck(&["prove", "and.b32", "--timeout", "0.5", "--jobs", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn help_states_the_bounds() {
    let help = stdout(&ptxcheck(&["prove", "--help"]));
    assert!(help.contains("at most 86400"), "{help}");
    assert!(help.contains("at most 1024"), "{help}");
}
