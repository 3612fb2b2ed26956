//! `kubectl-cronjob_doctor`: the entry point. Everything, parsing included, is in the library
//! (`lib.rs`), so tests and fuzz targets drive the same parser the binary uses.

/// The static (musl) Linux builds use mimalloc: musl's own allocator made a large scan several
/// times slower (see `Cargo.toml`).
#[cfg(all(target_os = "linux", target_env = "musl"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    #[cfg(all(target_os = "linux", target_env = "musl"))]
    kubectl_cronjob_doctor::allocator::tune_mimalloc();
    kubectl_cronjob_doctor::run_from_env()
}
