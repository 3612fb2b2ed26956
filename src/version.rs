//! Version strings for `--version` and `kubectl cronjob-doctor version`. A leaf: `cli` may
//! use it and still import nothing that imports anything of ours.

pub const SHORT: &str = env!("CARGO_PKG_VERSION");

pub const LONG: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CRONJOB_DOCTOR_GIT_COMMIT"),
    ")"
);
