//! `version`: the version, the commit, the time-zone database and the schedule engine.

use crate::error::exit;
use crate::term::emit;

pub fn run() -> i32 {
    emit(&report());
    exit::OK
}

/// The full report printed by the `version` command.
pub fn report() -> String {
    format!(
        "kubectl-cronjob_doctor {}\ncommit: {}\ntz database: {} (bundled with the binary; the controller may use a different one)\nschedule engine: robfig/cron v3.0.1 semantics\n",
        env!("CARGO_PKG_VERSION"),
        env!("CRONJOB_DOCTOR_GIT_COMMIT"),
        doctor::tzdb_version(),
    )
}
