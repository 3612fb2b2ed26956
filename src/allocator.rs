//! The allocator of the static Linux builds (musl: krew's Linux archives and the monitor's
//! image): mimalloc, tuned for a bounded peak. Other builds keep the system allocator and this
//! module is empty.
//!
//! musl's own allocator made `scan -A` at 10,000 CronJobs take 6.7-7.2 s and 12-13 s of CPU,
//! half of it in the kernel, where the glibc build takes 2.2 s and 3.5 s (BENCHMARKS.md, "The
//! static Linux build"). mimalloc as it comes takes ~3 s of CPU but peaks at ~230 MB: it keeps
//! freed pages 10 ms before returning them and commits its arenas up front on Linux. Returning
//! them after 25 ms and committing arena memory as it is used: 2.0 s, 3.2-3.4 s of CPU and
//! 131-135 MB; returning them at once: ~107 MB but 4 s, with twice the system time.

/// Set mimalloc's options before the work starts (they override `MIMALLOC_*` variables).
#[cfg(all(target_os = "linux", target_env = "musl"))]
pub fn tune_mimalloc() {
    use std::ffi::{c_int, c_long};
    unsafe extern "C" {
        // mimalloc.h: void mi_option_set(mi_option_t option, long value);
        fn mi_option_set(option: c_int, value: c_long);
    }
    // mimalloc.h's `mi_option_e`: these positions are the same in v2 and v3 (retired options
    // keep their slots so that the numbering never moves); tools/release/musl-check.sh checks
    // them against the locked mimalloc's header.
    const ARENA_EAGER_COMMIT: c_int = 4;
    const PURGE_DELAY: c_int = 15;
    // SAFETY: mi_option_set takes no pointer; it stores a value mimalloc reads when it next
    // reserves an arena or purges, and may be called at any time.
    unsafe {
        mi_option_set(ARENA_EAGER_COMMIT, 0);
        mi_option_set(PURGE_DELAY, 25);
    }
}
