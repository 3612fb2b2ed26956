//! Give the memory freed after the initial sync back to the operating system.
//!
//! The first sync is the monitor's peak: every page of every LIST is parsed, converted and
//! packed, and 10,000 CronJobs are diagnosed at once on every core. Once that is over, most of
//! those bytes are free again, but glibc's allocator keeps freed memory in its arenas (one per
//! thread that allocated, up to 8 × cores) and returns the top of the heap only; what it keeps
//! still counts as the process's RSS, which is what a memory limit and a dashboard see.
//! `malloc_trim(0)` walks every arena and releases its free pages (`madvise(DONTNEED)`).
//!
//! Only for glibc: the container image's static (musl) binary allocates with mimalloc, which
//! returns freed pages itself 25 ms after they are freed (`crate::allocator`); elsewhere this
//! does nothing.

/// Keep big blocks (over 128 KiB) out of the heap for good: glibc serves them with their own
/// `mmap` and unmaps them when freed, but after the first such block is freed it raises that
/// threshold (up to 32 MiB), so every later `/metrics` body (a few MB at 10,000 CronJobs) and
/// `/report` document lands in an arena and stays in the RSS after it is freed: the idle
/// monitor grew ~16 MiB that way in the benchmark. Setting the threshold turns the raising
/// off. Idempotent; does nothing off glibc.
pub fn keep_big_blocks_out_of_the_heap() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            // glibc, <malloc.h>: int mallopt(int param, int value); M_MMAP_THRESHOLD is -3.
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        const M_MMAP_THRESHOLD: std::ffi::c_int = -3;
        // SAFETY: mallopt takes no pointer; it only sets a parameter under the arena lock.
        unsafe { mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 1 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

/// Release the allocator's free pages; true when glibc says some memory was released.
pub fn release_free_memory() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            // glibc, <malloc.h>: int malloc_trim(size_t pad).
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: malloc_trim takes no pointer and may be called from any thread at any time;
        // it only takes the arenas' locks.
        unsafe { malloc_trim(0) == 1 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Freed blocks below a live one stay in the arena until trimmed: the trim must find
    /// and release them (on glibc), and what is still live must be untouched.
    #[test]
    fn freed_memory_below_live_blocks_is_released_and_live_data_kept() {
        let freed: Vec<Vec<u8>> = (0..20_000).map(|i| vec![(i % 251) as u8; 1000]).collect();
        let live: Vec<Vec<u8>> = (0..1_000).map(|i| vec![(i % 13) as u8; 100]).collect();
        drop(freed);
        let released = release_free_memory();
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(released, "20 MB of free blocks and nothing released");
        }
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(
                keep_big_blocks_out_of_the_heap(),
                "glibc refused the threshold"
            );
        }
        assert!(
            live.iter()
                .enumerate()
                .all(|(i, v)| v.len() == 100 && v.iter().all(|b| *b == (i % 13) as u8))
        );
    }
}
