//! Stopping a run part-way (Ctrl-C): a process-wide flag that the solver
//! back ends check before and after each query, and that interrupts an
//! embedded Z3 query in progress.
//!
//! Once the flag is set, every query ends with
//! [`SolverError::Interrupted`](crate::SolverError::Interrupted), never with
//! a verdict: a query cut short
//! answers "unknown", and that must not be mistaken for the solver's own.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// How often a query in progress looks at the flag: short enough that an
/// interrupt stops the run well within a second.
const POLL: Duration = Duration::from_millis(20);

/// Ask every query, running or to come, to stop.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Whether [`request`] has been called.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Run `query`, a call into this thread's Z3 context, interrupting that
/// context if an interrupt is requested before it returns.
///
/// The z3 crate's context is thread-local and its interrupt handle borrows
/// it, so the handle cannot be kept in a registry for a signal handler to
/// use; a watcher thread scoped to the query holds it instead.
///
/// The query waits for a free slot first ([`crate::slots`]): only so many
/// Z3 checks run at once, however many threads there are.
pub(crate) fn watch_z3<T>(query: impl FnOnce() -> T) -> T {
    let _slot = crate::slots::take();
    let ctx = z3::Context::thread_local();
    let handle = ctx.handle();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Ordering::Acquire) {
                if requested() {
                    handle.interrupt();
                    return;
                }
                std::thread::park_timeout(POLL);
            }
        });
        let result = query();
        done.store(true, Ordering::Release);
        // Wake the watcher now, so that a quick query does not wait out a
        // whole polling period.
        watcher.thread().unpark();
        result
    })
}
