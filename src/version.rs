//! Version strings for `--version` and `kubectl cronjob-doctor version`.

pub const SHORT: &str = env!("CARGO_PKG_VERSION");

pub const LONG: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CRONJOB_DOCTOR_GIT_COMMIT"),
    ")"
);

/// The full report printed by the `version` command.
pub fn report() -> String {
    format!(
        "kubectl-cronjob_doctor {}\ncommit: {}\ntz database: {} (bundled with the binary; the controller may use a different one)\nschedule engine: robfig/cron v3.0.1 semantics\n",
        env!("CARGO_PKG_VERSION"),
        env!("CRONJOB_DOCTOR_GIT_COMMIT"),
        doctor::tzdb_version(),
    )
}
