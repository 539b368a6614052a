//! How many embedded Z3 checks run at once: at most one per core, and at
//! most [`MOST`].
//!
//! Z3 working side by side in one process (reading a query's SMT-LIB text
//! in, and checking it) slows down far more than its share of the cores
//! explains. Measured with `prove all
//! --no-cache` on 2 cores: 5.3 s wall with 2 threads, 4.5-5.7 s with 8 to
//! 12, then 53-58 s (and ten times the CPU time) with 16; on a 16-core
//! machine 4.6 s with 8 threads and 34.9 s with 16. The profile is Z3's own
//! search code, with no lock in sight: the checks do more work, not wait
//! more. Bounding the checks alone is not enough (48 s with 16 threads on 2
//! cores): the reading in must be bounded too. So however many threads a
//! command runs (`--jobs`), only this many of them are in Z3 at a time,
//! reading a query in or checking it; the others wait for a slot.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::{Condvar, Mutex, OnceLock};

/// The most checks at once on any machine: the most measured to keep its
/// speed on both machines above.
pub const MOST: usize = 8;

struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

fn slots() -> &'static Slots {
    static SLOTS: OnceLock<Slots> = OnceLock::new();
    SLOTS.get_or_init(|| Slots { free: Mutex::new(limit()), freed: Condvar::new() })
}

/// The number of checks that may run at once on this machine.
pub fn limit() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MOST)
}

thread_local! {
    /// How many slots this thread holds: a thread that holds one may take
    /// it again (a parse within a check) without waiting on itself.
    static HELD: Cell<usize> = const { Cell::new(0) };
}

/// A slot held: the thread may work in Z3 until it is dropped. It stays on
/// the thread that took it, as Z3's objects do.
pub(crate) struct Slot(PhantomData<*const ()>);

/// Wait for a free slot and take it (at once where this thread holds one).
pub(crate) fn take() -> Slot {
    if HELD.get() == 0 {
        let s = slots();
        let mut free = s.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = s.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
    }
    HELD.set(HELD.get() + 1);
    Slot(PhantomData)
}

impl Drop for Slot {
    fn drop(&mut self) {
        HELD.set(HELD.get() - 1);
        if HELD.get() == 0 {
            let s = slots();
            *s.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            s.freed.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_thread_takes_its_own_slot_again_without_waiting() {
        let outer = take();
        let inner = take();
        drop(inner);
        drop(outer);
        assert_eq!(HELD.get(), 0);
    }

    #[test]
    fn no_more_than_the_limit_hold_a_slot_at_once() {
        let inside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 * MOST {
                scope.spawn(|| {
                    let _slot = take();
                    let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    inside.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        let most = most.load(Ordering::SeqCst);
        assert!(most >= 1 && most <= limit(), "{most} at once, limit {}", limit());
    }
}
