//! Bounded per-thread memos of pure answers shared across CronJobs (DST effects per schedule
//! and zone in `cron::dst`, upcoming activations in `replay::slot_memo`, runs of slots after an
//! instant in `replay::slot_runs`).
//!
//! Each user owns its `thread_local!` map; this module holds the one lookup they share and
//! the one switch that bypasses all of them, so a test comparing shared and unshared work
//! covers every memo at once. Per thread, so nothing is locked and nothing outlives the
//! thread's work; bounded, so a pathological cluster cannot grow it without end.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::Hash;
use std::thread::LocalKey;

/// Entries kept per memo and thread before it starts afresh, for small entries (a few
/// hundred distinct schedules is the usual cluster; this bounds a pathological one). A memo
/// of big entries passes a smaller bound to [`get_or`].
pub(crate) const CAPACITY: usize = 4096;

/// One memo: its key, and an entry holding the answer with whatever the key only names
/// (a zone by its name) so a hit can be checked against the real thing.
pub(crate) type Map<K, E> = RefCell<HashMap<K, E>>;

thread_local! {
    static BYPASS: Cell<bool> = const { Cell::new(false) };
}

/// Run `f` with every memo bypassed on this thread (every answer computed afresh): the tests
/// compare both paths.
pub fn bypassed<R>(f: impl FnOnce() -> R) -> R {
    let before = BYPASS.with(|b| b.replace(true));
    let r = f();
    BYPASS.with(|b| b.set(before));
    r
}

/// Whether the memos are bypassed on this thread (for a memo that keeps its own store).
pub(crate) fn bypassing() -> bool {
    BYPASS.with(Cell::get)
}

/// The entry for `key` in `memo` if there is one and `valid` accepts it, else `compute()`'s,
/// kept for next time (unless bypassed); at `capacity` entries the memo starts afresh.
pub(crate) fn get_or<K: Hash + Eq + 'static, E: Clone + 'static>(
    memo: &'static LocalKey<Map<K, E>>,
    capacity: usize,
    key: K,
    valid: impl Fn(&E) -> bool,
    compute: impl FnOnce() -> E,
) -> E {
    if bypassing() {
        return compute();
    }
    let hit = memo.with(|m| m.borrow().get(&key).filter(|e| valid(e)).cloned());
    if let Some(e) = hit {
        return e;
    }
    let e = compute();
    memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= capacity {
            m.clear();
        }
        m.insert(key, e.clone());
    });
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static SQUARES: Map<u32, u64> = RefCell::new(HashMap::new());
    }

    #[test]
    fn answers_are_kept_bounded_checked_and_bypassable() {
        let calls = Cell::new(0);
        let square = |k: u32, valid: &dyn Fn(&u64) -> bool| {
            get_or(&SQUARES, CAPACITY, k, valid, || {
                calls.set(calls.get() + 1);
                u64::from(k) * u64::from(k)
            })
        };
        assert_eq!(square(3, &|_| true), 9);
        assert_eq!(square(3, &|_| true), 9);
        assert_eq!(calls.get(), 1, "the second answer came from the memo");
        assert_eq!(square(3, &|_| false), 9);
        assert_eq!(
            calls.get(),
            2,
            "an entry the check rejects is computed again"
        );
        assert_eq!(bypassed(|| square(3, &|_| true)), 9);
        assert_eq!(calls.get(), 3, "bypassed: computed");
        for k in 0..(CAPACITY as u32 + 10) {
            square(k, &|_| true);
        }
        assert!(SQUARES.with(|m| m.borrow().len()) <= CAPACITY);
    }
}
