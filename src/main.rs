//! `kubectl-cronjob_doctor`: thin entry point. Parses flags, runs a command, prints errors once,
//! and maps outcomes to exit codes (0 ok, 1 findings / rejected input, 2 could not do the job).

fn main() {
    println!("kubectl-cronjob_doctor {}", env!("CARGO_PKG_VERSION"));
}
