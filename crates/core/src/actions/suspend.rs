//! `suspend` / `unsuspend`: the merge patches, with the resourceVersion precondition inside the
//! body (the API server rejects a patch whose `metadata.resourceVersion` is stale with 409), and
//! only the fields we mean to change.

use jiff::Timestamp;
use serde_json::{Map, Value, json};

use super::{SUSPEND_REASON, SUSPENDED_AT, SUSPENDED_BY};

/// One write the IO layer sends: a JSON merge patch, to the object or its `status`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedPatch {
    /// `Some("status")` for the status subresource.
    pub subresource: Option<&'static str>,
    pub body: Value,
    /// What it changes, in words, for the preview.
    pub describe: String,
}

impl PlannedPatch {
    /// The same patch with another resourceVersion precondition: after one write of a
    /// sequence succeeds, the next must name the version that write produced.
    pub fn with_resource_version(&self, resource_version: &str) -> PlannedPatch {
        let mut p = self.clone();
        p.body["metadata"]["resourceVersion"] = json!(resource_version);
        p
    }
}

/// Who suspends and why, recorded in annotations.
pub struct SuspendNote<'a> {
    pub by: &'a str,
    pub at: Timestamp,
    pub reason: Option<&'a str>,
}

/// `spec.suspend: true` plus the who/when/why annotations.
pub fn suspend_patch(resource_version: &str, note: &SuspendNote) -> PlannedPatch {
    let mut annotations = Map::new();
    annotations.insert(SUSPENDED_BY.into(), json!(note.by));
    annotations.insert(SUSPENDED_AT.into(), json!(note.at.to_string()));
    match note.reason {
        Some(r) => annotations.insert(SUSPEND_REASON.into(), json!(r)),
        None => annotations.insert(SUSPEND_REASON.into(), Value::Null),
    };
    PlannedPatch {
        subresource: None,
        body: json!({
            "metadata": {"resourceVersion": resource_version, "annotations": annotations},
            "spec": {"suspend": true},
        }),
        describe: "set spec.suspend to true (and record who, when and why in annotations)".into(),
    }
}

/// `spec.suspend: false`, removing our suspend annotations where they exist.
pub fn unsuspend_patch(resource_version: &str, existing_annotations: &[&str]) -> PlannedPatch {
    let mut annotations = Map::new();
    for key in [SUSPENDED_BY, SUSPENDED_AT, SUSPEND_REASON] {
        if existing_annotations.contains(&key) {
            annotations.insert(key.into(), Value::Null);
        }
    }
    let describe = if annotations.is_empty() {
        "set spec.suspend to false".to_string()
    } else {
        "set spec.suspend to false (and remove the suspend annotations)".to_string()
    };
    let mut metadata = json!({"resourceVersion": resource_version});
    if !annotations.is_empty() {
        metadata["annotations"] = Value::Object(annotations);
    }
    PlannedPatch {
        subresource: None,
        body: json!({"metadata": metadata, "spec": {"suspend": false}}),
        describe,
    }
}

/// Resume without the catch-up run: mark the most recent missed slot as already scheduled by
/// moving `status.lastScheduleTime` to it (status subresource, needs `patch` on
/// `cronjobs/status`). The controller's "already processed" check then skips it, and the next
/// regular slot runs as usual. Sent before the spec patch, while the CronJob is still suspended.
pub fn skip_missed_patch(resource_version: &str, slot: Timestamp) -> PlannedPatch {
    PlannedPatch {
        subresource: Some("status"),
        body: json!({
            "metadata": {"resourceVersion": resource_version},
            "status": {"lastScheduleTime": slot.to_string()},
        }),
        describe: format!("set status.lastScheduleTime to {slot} (the missed slot counts as done)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suspend_changes_only_suspend_and_our_annotations() {
        let p = suspend_patch(
            "41",
            &SuspendNote {
                by: "alice",
                at: "2026-11-20T12:00:00Z".parse().unwrap(),
                reason: Some("db migration"),
            },
        );
        assert_eq!(p.subresource, None);
        assert_eq!(
            p.body,
            json!({
                "metadata": {"resourceVersion": "41", "annotations": {
                    "cronjob-doctor.io/suspended-by": "alice",
                    "cronjob-doctor.io/suspended-at": "2026-11-20T12:00:00Z",
                    "cronjob-doctor.io/suspend-reason": "db migration"
                }},
                "spec": {"suspend": true}
            })
        );
    }

    #[test]
    fn unsuspend_removes_only_annotations_that_exist() {
        let p = unsuspend_patch("42", &[SUSPENDED_BY]);
        assert_eq!(
            p.body,
            json!({"metadata": {"resourceVersion": "42", "annotations": {"cronjob-doctor.io/suspended-by": null}}, "spec": {"suspend": false}})
        );
        let p = unsuspend_patch("42", &[]);
        assert_eq!(
            p.body,
            json!({"metadata": {"resourceVersion": "42"}, "spec": {"suspend": false}})
        );
    }

    #[test]
    fn the_precondition_can_be_moved_to_a_newer_version() {
        let p = unsuspend_patch("42", &[]).with_resource_version("43");
        assert_eq!(
            p.body,
            json!({"metadata": {"resourceVersion": "43"}, "spec": {"suspend": false}})
        );
    }

    #[test]
    fn skip_missed_targets_the_status_subresource() {
        let p = skip_missed_patch("42", "2026-11-20T06:00:00Z".parse().unwrap());
        assert_eq!(p.subresource, Some("status"));
        assert_eq!(p.body["status"]["lastScheduleTime"], "2026-11-20T06:00:00Z");
        assert_eq!(p.body["metadata"]["resourceVersion"], "42");
    }
}
