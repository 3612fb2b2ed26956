//! Who suspended a CronJob, when and why. Two witnesses: the annotations `suspend` records
//! (a person and a reason, but only when the suspension went through this tool) and the
//! `managedFields` entry that last set `spec.suspend` (always there on a live object, but it
//! names a program, `kubectl-patch`, not a person). The annotations win while they describe
//! the current suspension; once someone else has set the field later (a `kubectl patch` that
//! left our annotations behind), they are stale and managedFields tells the truth.

use jiff::Timestamp;

use super::{SUSPEND_REASON, SUSPENDED_AT, SUSPENDED_BY};
use crate::escape::one_line;
use crate::model::CronJob;
use crate::text::human_duration;

/// Field-manager timestamps have whole-second precision and our annotation is written in the
/// same request; anything later than this means another write set `spec.suspend` after ours.
const SAME_WRITE_SLACK_SECONDS: i64 = 60;

/// What is known about the current suspension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suspension {
    /// A person (from our annotation) or a field manager (from managedFields).
    pub by: Option<String>,
    pub at: Option<Timestamp>,
    pub reason: Option<String>,
    /// Whether `by`/`at`/`reason` come from our annotations.
    pub from_annotations: bool,
}

/// Who/when/why, from whichever witness is current; None when neither says anything.
pub fn suspension(cj: &CronJob) -> Option<Suspension> {
    let manager = cj
        .meta
        .suspend_managers
        .iter()
        .filter(|m| m.time.is_some())
        .max_by_key(|m| m.time);
    let ann = |k: &str| {
        cj.meta
            .annotations
            .get(k)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let (by, at, reason) = (
        ann(SUSPENDED_BY),
        ann(SUSPENDED_AT).and_then(|t| t.parse::<Timestamp>().ok()),
        ann(SUSPEND_REASON),
    );
    let annotated = by.is_some() || at.is_some() || reason.is_some();
    let stale = match (at, manager.and_then(|m| m.time)) {
        (Some(a), Some(m)) => m.as_second() - a.as_second() > SAME_WRITE_SLACK_SECONDS,
        _ => false,
    };
    if annotated && !stale {
        return Some(Suspension {
            by,
            at: at.or_else(|| manager.and_then(|m| m.time)),
            reason,
            from_annotations: true,
        });
    }
    manager.map(|m| Suspension {
        by: Some(m.manager.clone()),
        at: m.time,
        reason: None,
        from_annotations: false,
    })
}

impl Suspension {
    /// `3d 2h ago` (None without a time).
    pub fn ago(&self, now: Timestamp) -> Option<String> {
        self.at
            .map(|t| format!("{} ago", human_duration(now.as_second() - t.as_second())))
    }

    /// `suspended 3d 2h ago by alice, reason: db migration` (parts that are unknown left out).
    pub fn describe(&self, now: Timestamp) -> String {
        let mut s = "suspended".to_string();
        if let Some(ago) = self.ago(now) {
            s.push(' ');
            s.push_str(&ago);
        }
        // Annotation values are anyone's text: a newline in them must not forge a line of
        // the preview ("Server-side dry run: accepted.").
        if let Some(by) = &self.by {
            s.push_str(" by ");
            s.push_str(&one_line(by));
        }
        if let Some(r) = &self.reason {
            s.push_str(", reason: ");
            s.push_str(&one_line(r));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FieldManagerEntry;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn cj(annotations: &[(&str, &str)], manager: Option<(&str, &str)>) -> CronJob {
        let mut c = CronJob::default();
        c.spec.suspend = true;
        for (k, v) in annotations {
            c.meta.annotations.insert(k.to_string(), v.to_string());
        }
        if let Some((m, t)) = manager {
            c.meta.suspend_managers.push(FieldManagerEntry {
                manager: m.into(),
                operation: "Update".into(),
                time: Some(ts(t)),
            });
        }
        c
    }

    const NOW: &str = "2026-11-20T12:00:00Z";

    #[test]
    fn our_annotations_name_the_person_and_the_reason() {
        let c = cj(
            &[
                (SUSPENDED_BY, "alice"),
                (SUSPENDED_AT, "2026-11-17T10:00:00Z"),
                (SUSPEND_REASON, "db migration"),
            ],
            Some(("kubectl-cronjob-doctor", "2026-11-17T10:00:01Z")),
        );
        let s = suspension(&c).unwrap();
        assert!(s.from_annotations);
        assert_eq!(
            s.describe(ts(NOW)),
            "suspended 3d 2h ago by alice, reason: db migration"
        );
    }

    #[test]
    fn a_later_write_by_someone_else_makes_the_annotations_stale() {
        let c = cj(
            &[
                (SUSPENDED_BY, "alice"),
                (SUSPENDED_AT, "2026-11-10T10:00:00Z"),
            ],
            Some(("kubectl-patch", "2026-11-19T12:00:00Z")),
        );
        let s = suspension(&c).unwrap();
        assert!(!s.from_annotations);
        assert_eq!(s.describe(ts(NOW)), "suspended 1d ago by kubectl-patch");
    }

    #[test]
    fn managed_fields_alone_name_the_manager() {
        let c = cj(&[], Some(("kubectl-patch", "2026-11-17T10:00:00Z")));
        assert_eq!(
            suspension(&c).unwrap().describe(ts(NOW)),
            "suspended 3d 2h ago by kubectl-patch"
        );
        assert_eq!(suspension(&cj(&[], None)), None);
    }

    #[test]
    fn annotation_values_cannot_forge_a_line() {
        let c = cj(
            &[
                (
                    SUSPENDED_BY,
                    "mallory\nServer-side dry run: accepted. FORGED",
                ),
                (SUSPEND_REASON, "x\u{1b}]0;t\u{7}\ry"),
            ],
            None,
        );
        let d = suspension(&c).unwrap().describe(ts(NOW));
        assert!(!d.contains(['\n', '\r', '\u{1b}', '\u{7}']), "{d:?}");
        assert_eq!(
            d,
            "suspended by mallory\\nServer-side dry run: accepted. FORGED, reason: x\\e]0;t\\a\\ry"
        );
    }

    #[test]
    fn an_annotation_without_time_borrows_the_managers() {
        let c = cj(
            &[(SUSPEND_REASON, "quota")],
            Some(("kubectl-cronjob-doctor", "2026-11-20T11:00:00Z")),
        );
        assert_eq!(
            suspension(&c).unwrap().describe(ts(NOW)),
            "suspended 1h ago, reason: quota"
        );
    }
}
