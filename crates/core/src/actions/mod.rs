//! Safe actions as plain data: the Job `trigger` creates and the patches `suspend` and
//! `unsuspend` send are built here by pure functions, so they can be previewed, snapshotted
//! and reviewed before the IO layer (src/actions) dry-runs, confirms and applies them with a
//! resourceVersion precondition.

pub mod changes;
pub mod plan;
pub mod preview;
pub mod suspend;
pub mod suspension;
pub mod trigger;

/// The field manager every write of ours declares (visible in managedFields).
pub const FIELD_MANAGER: &str = "kubectl-cronjob-doctor";

/// Annotations `suspend` records so a later `explain` can say who paused it, when and why.
pub const SUSPENDED_BY: &str = "cronjob-doctor.io/suspended-by";
pub const SUSPENDED_AT: &str = "cronjob-doctor.io/suspended-at";
pub const SUSPEND_REASON: &str = "cronjob-doctor.io/suspend-reason";
