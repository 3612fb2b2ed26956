//! `kubectl-cronjob_doctor`: the entry point. Everything, parsing included, is in the library
//! (`lib.rs`), so tests and fuzz targets drive the same parser the binary uses.

/// Linux builds use mimalloc: the system allocators made a large scan slower (see
/// `Cargo.toml`, `allocator` and BENCHMARKS.md).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's options are set before anything is allocated: the one arena it ever reserves is
/// reserved by the first allocation, which Rust's runtime makes before `main` (the main
/// thread's handle), and set any later an option reached only the arenas still to come, none:
/// the scan then peaked higher. So they are set from the executable's initialisers
/// (ELF `.init_array`, which the loader runs before the runtime starts), as the `ctor` crate
/// does; `tune_mimalloc` only stores two numbers and allocates nothing.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static TUNE_ALLOCATOR: extern "C" fn() = {
    extern "C" fn tune() {
        kubectl_cronjob_doctor::allocator::tune_mimalloc();
    }
    tune
};

fn main() -> std::process::ExitCode {
    kubectl_cronjob_doctor::run_from_env()
}
