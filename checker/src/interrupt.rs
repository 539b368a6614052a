//! Ctrl-C: the run stops within about a second, with exit status 130 and
//! no partial file.
//!
//! The handler sets the solvers' interrupt flag ([`ptx_smt::interrupt`]),
//! which interrupts the embedded Z3 queries in progress and turns every
//! query after it into an error, and kills this process's children (solver
//! processes, ptxas), whose queries then fail. The run then ends through its
//! ordinary error path ([`Error::Interrupted`]), which drops, and so
//! removes, its temporary files. A run that has not ended after a grace
//! period (a computation that does not look at the flag) is ended by the
//! handler, once no file is being written.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// The exit status of an interrupted run.
pub use crate::error::INTERRUPTED_STATUS as STATUS;

/// Held while temporary files exist (`crate::output`), so that an interrupt
/// that has to end the process itself waits until none is left behind.
static WRITING: Mutex<()> = Mutex::new(());

/// Hold while writing files that an interrupt must not leave half-written.
pub fn writing() -> MutexGuard<'static, ()> {
    WRITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether a write is in progress: the lock, if none is.
fn try_idle() -> Option<MutexGuard<'static, ()>> {
    match WRITING.try_lock() {
        Ok(guard) => Some(guard),
        Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => None,
    }
}

/// How long the run has to end by itself.
const GRACE: Duration = Duration::from_millis(800);

/// How long, past the grace period, a file being written may take to be
/// finished or removed before the process ends regardless.
const WRITE_GRACE: Duration = Duration::from_secs(5);

/// Take over Ctrl-C (SIGINT) for the rest of the run.
pub fn install() {
    // Without the handler Ctrl-C still ends the run, by the signal itself:
    // failing to install it is no reason not to run.
    let _ = ctrlc::set_handler(|| {
        ptx_smt::interrupt::request();
        // Children are killed again each round: a query that had just
        // passed its check may start one after the first round.
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline {
            kill_children();
            thread::sleep(Duration::from_millis(50));
        }
        let deadline = Instant::now() + WRITE_GRACE;
        let _idle = loop {
            match try_idle() {
                Some(guard) => break Some(guard),
                None if Instant::now() >= deadline => break None,
                None => thread::sleep(Duration::from_millis(10)),
            }
        };
        kill_children();
        report();
        // SAFETY: `_exit` only ends the process. Unlike `exit` it runs no
        // atexit handlers or C++ static destructors, which could race with a
        // thread still inside libz3.
        unsafe { libc::_exit(STATUS.into()) }
    });
}

/// Whether the run was interrupted.
pub fn requested() -> bool {
    ptx_smt::interrupt::requested()
}

/// `Err(Interrupted)` once the run was interrupted: whatever it computed
/// since is no verdict.
pub fn check() -> Result<()> {
    if requested() {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}

/// Say, once, that the run was interrupted.
pub fn report() {
    static REPORTED: AtomicBool = AtomicBool::new(false);
    if !REPORTED.swap(true, Ordering::SeqCst) {
        eprintln!("{}", Error::Interrupted);
    }
}

/// Kill every child process of this one.
///
/// easy-smt owns the solver processes and does not give out their ids, so
/// they are found as the processes whose parent this one is.
fn kill_children() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::{getpid, Pid};
    let me = getpid().as_raw();
    let Ok(entries) = std::fs::read_dir("/proc") else { return };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // `pid (command) state ppid ...`: the command may hold spaces and
        // parentheses, so the fields are counted from the last `)`.
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok());
        if ppid == Some(me) {
            // The id is used at once: it could name another process only if
            // the child were reaped and its id reused in between.
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}
