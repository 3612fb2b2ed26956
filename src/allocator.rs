//! The allocator of the Linux builds (glibc and the static musl ones: krew's Linux archives and
//! the monitor's image): mimalloc's v2 line, tuned for a bounded peak. macOS and Windows keep
//! the system allocator and this module is empty there.
//!
//! Why (the figures are in BENCHMARKS.md, "scan -A at scale" and "The static Linux build"):
//! musl's own allocator made a large `scan -A` several times slower, much of it in the kernel,
//! and glibc's spent a large share of the scan's CPU in malloc and free, at the same peak.
//! mimalloc's v3 line was faster still but peaked far higher whatever its options (objects are
//! parsed on one thread and freed on another, which v3 keeps pages for); v2 as it comes peaks
//! higher too, because it commits whole segments and arenas up front. Committing both as they
//! are used keeps the peak at the glibc build's.

// mimalloc.h's `mi_option_e` (v2); tools/release/musl-check.sh checks them against the locked
// mimalloc's header, so a dependency update that moved them cannot tune the wrong options
// silently.
#[cfg(target_os = "linux")]
use std::ffi::{c_int, c_long};

#[cfg(target_os = "linux")]
const EAGER_COMMIT: c_int = 3;
#[cfg(target_os = "linux")]
const ARENA_EAGER_COMMIT: c_int = 4;
#[cfg(target_os = "linux")]
const PURGE_DELAY: c_int = 15;

#[cfg(target_os = "linux")]
fn set(option: c_int, value: c_long) {
    unsafe extern "C" {
        // mimalloc.h: void mi_option_set(mi_option_t option, long value);
        fn mi_option_set(option: c_int, value: c_long);
    }
    // SAFETY: mi_option_set takes no pointer; it stores a value mimalloc reads when it next
    // reserves a segment or an arena, or decides when to purge, and may be called at any time.
    unsafe { mi_option_set(option, value) }
}

/// Set mimalloc's options before the work starts (they override `MIMALLOC_*` variables).
#[cfg(target_os = "linux")]
pub fn tune_mimalloc() {
    set(EAGER_COMMIT, 0);
    set(ARENA_EAGER_COMMIT, 0);
}

/// For a process that runs for days (`monitor`): pages freed are returned to the system at
/// once instead of after mimalloc's default 10 ms. The delay is counted only when the thread
/// that freed them allocates again, so after the first sync the tokio workers that parsed the
/// initial lists went idle holding their freed pages for good (docs/monitor.md, "How it
/// works"; BENCHMARKS.md, "monitor at scale"). The monitor sets it once its first sync is
/// done: purging each page as the first sync frees it made the monitor ready later. The
/// short commands keep the default: they exit soon and a purge costs a system call.
#[cfg(target_os = "linux")]
pub fn purge_at_once() {
    set(PURGE_DELAY, 0);
}

/// Nothing to tune with the system allocator.
#[cfg(not(target_os = "linux"))]
pub fn purge_at_once() {}

/// Return what the calling thread's heap holds free to the system now (mimalloc's
/// `mi_collect(true)`): a thread that freed much and then went idle would otherwise keep it.
#[cfg(target_os = "linux")]
pub fn collect() {
    unsafe extern "C" {
        // mimalloc.h: void mi_collect(bool force);
        fn mi_collect(force: bool);
    }
    // SAFETY: mi_collect takes no pointer and only works on the calling thread's own heap and
    // the segments it owns; it may be called at any time.
    unsafe { mi_collect(true) }
}

/// Nothing to collect with the system allocator.
#[cfg(not(target_os = "linux"))]
pub fn collect() {}
