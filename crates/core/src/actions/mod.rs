//! Safe actions as plain data: the Job `trigger` creates and the patches `suspend` and
//! `unsuspend` send are built here by pure functions, so they can be previewed, snapshotted
//! and reviewed before the IO layer (src/actions) dry-runs, confirms and applies them with a
//! resourceVersion precondition.

pub mod changes;
pub mod plan;
pub mod preview;
pub mod suspend;
pub mod suspend_preview;
pub mod suspension;
pub mod trigger;
pub mod trigger_preview;

/// The field manager every write of ours declares (visible in managedFields).
pub const FIELD_MANAGER: &str = "kubectl-cronjob-doctor";

/// Annotations `suspend` records so a later `explain` can say who paused it, when and why.
pub const SUSPENDED_BY: &str = "cronjob-doctor.io/suspended-by";
pub const SUSPENDED_AT: &str = "cronjob-doctor.io/suspended-at";
pub const SUSPEND_REASON: &str = "cronjob-doctor.io/suspend-reason";

/// Preview lines as bullets; a line in parentheses continues the bullet above it.
pub fn bullets(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            if l.starts_with('(') {
                format!("    {l}")
            } else {
                format!("  • {l}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parenthesised_lines_continue_the_bullet() {
        let b = bullets(&["one run".into(), "(because)".into(), "next".into()]);
        assert_eq!(b, ["  • one run", "    (because)", "  • next"]);
    }
}
