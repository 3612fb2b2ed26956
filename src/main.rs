//! `kubectl-cronjob_doctor`: the entry point. Everything, parsing included, is in the library
//! (`lib.rs`), so tests and fuzz targets drive the same parser the binary uses.

fn main() -> std::process::ExitCode {
    kubectl_cronjob_doctor::run_from_env()
}
