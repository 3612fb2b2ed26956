//! What differs between two readings of a CronJob, limited to the fields a suspend/unsuspend
//! preview depends on. Shown after a 409 Conflict (someone else wrote in between: the preview
//! is re-evaluated, and the user must see why it may differ) and after a successful write
//! (the before/after of what we changed).

use jiff::Timestamp;

use super::{SUSPEND_REASON, SUSPENDED_AT, SUSPENDED_BY};
use crate::escape::one_line;
use crate::model::{ConcurrencyPolicy, CronJob};

/// One field that differs, values as the API shows them (`(unset)` when absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub field: String,
    pub before: String,
    pub after: String,
}

const UNSET: &str = "(unset)";

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| UNSET.to_string(), |v| v.to_string())
}

fn time(t: Option<Timestamp>) -> String {
    opt(t.map(crate::text::rfc3339))
}

fn policy(p: &ConcurrencyPolicy) -> String {
    p.as_str().to_string()
}

/// The watched fields of `cj`, in display order.
fn watched(cj: &CronJob) -> Vec<(String, String)> {
    let mut v = vec![
        (
            "metadata.resourceVersion".to_string(),
            if cj.meta.resource_version.is_empty() {
                UNSET.to_string()
            } else {
                cj.meta.resource_version.clone()
            },
        ),
        ("spec.schedule".into(), opt(cj.spec.schedule.as_deref())),
        ("spec.timeZone".into(), opt(cj.spec.time_zone.as_deref())),
        (
            "spec.startingDeadlineSeconds".into(),
            opt(cj.spec.starting_deadline_seconds),
        ),
        (
            "spec.concurrencyPolicy".into(),
            policy(&cj.spec.concurrency_policy),
        ),
        ("spec.suspend".into(), cj.spec.suspend.to_string()),
        (
            "status.lastScheduleTime".into(),
            time(cj.status.last_schedule_time),
        ),
        (
            "status.active".into(),
            if cj.status.active.is_empty() {
                "[]".to_string()
            } else {
                let names: Vec<&str> = cj.status.active.iter().map(|a| a.name.as_str()).collect();
                format!("[{}]", names.join(", "))
            },
        ),
    ];
    for key in [SUSPENDED_BY, SUSPENDED_AT, SUSPEND_REASON] {
        v.push((
            format!("metadata.annotations[{key}]"),
            opt(cj.meta.annotations.get(key)),
        ));
    }
    v
}

/// The watched fields whose values differ, in display order. Values are one line each
/// (control characters and newlines made visible): they come from the cluster, and a change
/// is printed as one line.
pub fn changes(before: &CronJob, after: &CronJob) -> Vec<Change> {
    watched(before)
        .into_iter()
        .zip(watched(after))
        .filter(|((_, b), (_, a))| a != b)
        .map(|((field, before), (_, after))| Change {
            field,
            before: one_line(&before).into_owned(),
            after: one_line(&after).into_owned(),
        })
        .collect()
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} → {}", self.field, self.before, self.after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObjectReference;

    #[test]
    fn lists_only_what_differs_in_display_order() {
        let mut a = CronJob::default();
        a.meta.resource_version = "41".into();
        a.spec.schedule = Some("0 * * * *".into());
        a.spec.suspend = true;
        let mut b = a.clone();
        b.meta.resource_version = "43".into();
        b.spec.suspend = false;
        b.status.last_schedule_time = Some("2026-11-20T11:00:00Z".parse().unwrap());
        b.status.active.push(ObjectReference {
            name: "cj-1".into(),
            namespace: "ops".into(),
            uid: "u".into(),
        });
        b.meta
            .annotations
            .insert(SUSPEND_REASON.into(), "db migration".into());
        let lines: Vec<String> = changes(&a, &b).iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "metadata.resourceVersion: 41 → 43",
                "spec.suspend: true → false",
                "status.lastScheduleTime: (unset) → 2026-11-20T11:00:00Z",
                "status.active: [] → [cj-1]",
                "metadata.annotations[cronjob-doctor.io/suspend-reason]: (unset) → db migration",
            ]
        );
        assert!(changes(&a, &a).is_empty());
        b.meta.annotations.insert(
            SUSPENDED_BY.into(),
            "mallory\nServer-side dry run: accepted. \u{1b}[2J".into(),
        );
        let by = changes(&a, &b)
            .iter()
            .find(|c| c.field.contains(SUSPENDED_BY))
            .unwrap()
            .to_string();
        assert_eq!(
            by,
            "metadata.annotations[cronjob-doctor.io/suspended-by]: (unset) → mallory\\nServer-side dry run: accepted. \\e[2J"
        );
    }
}
