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

/// Set mimalloc's options before the work starts (they override `MIMALLOC_*` variables).
#[cfg(target_os = "linux")]
pub fn tune_mimalloc() {
    use std::ffi::{c_int, c_long};
    unsafe extern "C" {
        // mimalloc.h: void mi_option_set(mi_option_t option, long value);
        fn mi_option_set(option: c_int, value: c_long);
    }
    // mimalloc.h's `mi_option_e` (v2); tools/release/musl-check.sh checks them against the
    // locked mimalloc's header, so a dependency update that moved them cannot tune the wrong
    // options silently.
    const EAGER_COMMIT: c_int = 3;
    const ARENA_EAGER_COMMIT: c_int = 4;
    // SAFETY: mi_option_set takes no pointer; it stores a value mimalloc reads when it next
    // reserves a segment or an arena, and may be called at any time.
    unsafe {
        mi_option_set(EAGER_COMMIT, 0);
        mi_option_set(ARENA_EAGER_COMMIT, 0);
    }
}
