//! RFC 7386 JSON merge patches: applying one to a JSON document, merging rule fragments into
//! one patch without setting a field twice, and applying a patch to the CronJob model so the
//! fix plan can be replayed before it is shown.
//!
//! The model keeps only the fields the diagnosis reads, so [`apply_to_cron_job`] accepts only
//! the fields a rule ever patches and refuses anything else: a change we cannot replay is a
//! change we cannot vouch for. Those fields are one list (`CHECKED`, a policy: what the replay
//! can vouch for), shared by [`apply_to_cron_job`] and [`value_in_cron_job`]. A patch's value
//! is read by the CronJob reader every other source uses (`source::wire::CronJob`, then
//! `source::convert`), so a field's JSON name and type are written only there; the list says
//! which paths may change and where the model keeps each.

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::model::{ConcurrencyPolicy, CronJob};
use crate::source::{convert, wire};

/// RFC 7386 `MergePatch(target, patch)`: objects merge key by key, `null` removes a key, any
/// other value (arrays included) replaces the target's whole.
pub fn apply(target: &Value, patch: &Value) -> Value {
    let Value::Object(p) = patch else {
        return patch.clone();
    };
    let mut out = match target {
        Value::Object(t) => t.clone(),
        _ => Map::new(),
    };
    for (k, v) in p {
        if v.is_null() {
            out.remove(k);
        } else {
            let merged = apply(out.get(k).unwrap_or(&Value::Null), v);
            out.insert(k.clone(), merged);
        }
    }
    Value::Object(out)
}

/// One patch that does what `first` then `second` do, for patches built against the same
/// document: objects combine key by key, anything else in `second` (a `null` included) wins.
pub fn compose(first: &Value, second: &Value) -> Value {
    match (first, second) {
        (Value::Object(a), Value::Object(b)) => {
            let mut out = a.clone();
            for (k, v) in b {
                let merged = match out.get(k) {
                    Some(old) => compose(old, v),
                    None => v.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Value::Object(out)
        }
        (_, b) => b.clone(),
    }
}

/// The leaves of a patch: every dotted path whose value is not an object (`null` included),
/// in document order.
pub fn leaves(patch: &Value) -> Vec<(String, Value)> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<(String, Value)>) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                for (k, child) in m {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&path, child, out);
                }
            }
            other => out.push((prefix.to_string(), other.clone())),
        }
    }
    let mut out = Vec::new();
    walk("", patch, &mut out);
    out
}

/// Why `fragment` cannot join `merged`: the first field both set to different values, or where
/// one sets a field and the other something under it. None when they agree or do not overlap.
pub fn conflict(merged: &Value, fragment: &Value) -> Option<String> {
    let have = leaves(merged);
    for (path, value) in leaves(fragment) {
        for (p, v) in &have {
            if *p == path && *v != value {
                return Some(path);
            }
            let nested = p.starts_with(&format!("{path}.")) || path.starts_with(&format!("{p}."));
            if nested {
                return Some(path.min(p.clone()));
            }
        }
    }
    None
}

/// Set a dotted path inside a patch object (creating the objects on the way).
pub fn set(patch: &mut Value, path: &str, value: Value) {
    let mut cur = patch;
    let mut parts = path.split('.').peekable();
    while let Some(k) = parts.next() {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let Value::Object(m) = cur else { return };
        if parts.peek().is_none() {
            m.insert(k.to_string(), value);
            return;
        }
        cur = m
            .entry(k.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

/// Why a merge patch cannot be applied to the CronJob model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PatchError {
    #[error("the patch is not a JSON object")]
    NotAnObject,
    /// The field is one the model keeps, but the value is not of its type.
    #[error("{path}: {value} is not a valid value")]
    BadValue { path: String, value: Value },
    /// A field the model does not keep, so the replay cannot check the change.
    #[error("{path}: a change the replay cannot check")]
    Unchecked { path: String },
}

/// One field the replay can check: its path in a patch, and where the model keeps it.
struct Checked {
    path: &'static str,
    /// Move the field from `from` (the patch's value, read as a CronJob) into `to`.
    take: fn(to: &mut CronJob, from: CronJob),
    /// The model's value of the field as a patch writes it (None: unset).
    value: fn(&CronJob) -> Option<Value>,
}

/// `CHECKED` from `"path" => place` pairs, each place (`spec.job_template.spec.suspend`)
/// written once for both directions.
macro_rules! checked_fields {
    ($($path:literal => $($place:ident).+,)*) => {
        const CHECKED: &[Checked] = &[$(Checked {
            path: $path,
            take: |to, from| to.$($place).+ = from.$($place).+,
            value: |cj| PatchValue::patch_value(&cj.$($place).+),
        },)*];
    };
}

// The fields a rule's patch sets and the model keeps, so the replay can check a change of
// them. Their JSON types are the wire reader's (`wire::CronJobSpec`, `wire::JobSpec`,
// `wire::PodTemplateSpec`).
checked_fields! {
    "spec.schedule" => spec.schedule,
    "spec.timeZone" => spec.time_zone,
    "spec.startingDeadlineSeconds" => spec.starting_deadline_seconds,
    "spec.successfulJobsHistoryLimit" => spec.successful_jobs_history_limit,
    "spec.failedJobsHistoryLimit" => spec.failed_jobs_history_limit,
    "spec.suspend" => spec.suspend,
    "spec.concurrencyPolicy" => spec.concurrency_policy,
    "spec.jobTemplate.spec.activeDeadlineSeconds" => spec.job_template.spec.active_deadline_seconds,
    "spec.jobTemplate.spec.backoffLimit" => spec.job_template.spec.backoff_limit,
    "spec.jobTemplate.spec.ttlSecondsAfterFinished" => spec.job_template.spec.ttl_seconds_after_finished,
    "spec.jobTemplate.spec.suspend" => spec.job_template.spec.suspend,
    "spec.jobTemplate.spec.template.spec.restartPolicy" => spec.job_template.spec.restart_policy,
}

fn checked(path: &str) -> Option<&'static Checked> {
    CHECKED.iter().find(|c| c.path == path)
}

/// `value` at `path` read as the CronJob reader reads it: a document holding only that value,
/// through `wire::CronJob` and `convert`. None when the value is not of the field's type
/// (`wire::lenient` defaults only the manifest reader's soft errors; serde_json's fail).
fn read_value(path: &str, value: &Value) -> Option<CronJob> {
    let mut doc = Value::Object(Map::new());
    set(&mut doc, path, value.clone());
    let read = wire::CronJob::<wire::NoKeys, wire::NoKeys>::deserialize(&doc).ok()?;
    Some(convert::cron_job(read))
}

/// Apply a merge patch to the CronJob model. Errors name the first field the model cannot
/// take (unknown to the replay, or of the wrong type).
pub fn apply_to_cron_job(cj: &CronJob, patch: &Value) -> Result<CronJob, PatchError> {
    if !patch.is_object() {
        return Err(PatchError::NotAnObject);
    }
    let mut out = cj.clone();
    for (path, value) in leaves(patch) {
        let Some(field) = checked(&path) else {
            return Err(PatchError::Unchecked { path });
        };
        let Some(read) = read_value(&path, &value) else {
            return Err(PatchError::BadValue { path, value });
        };
        (field.take)(&mut out, read);
    }
    Ok(out)
}

/// The model's current value of a field [`apply_to_cron_job`] can change (None: unset or a
/// field it does not know).
pub fn value_in_cron_job(cj: &CronJob, path: &str) -> Option<Value> {
    checked(path).and_then(|field| (field.value)(cj))
}

/// A model field's value as a patch writes it: its JSON value, None when unset. Per model type
/// (the JSON types are the wire reader's: a string, an integer, a boolean).
trait PatchValue {
    fn patch_value(&self) -> Option<Value>;
}

impl<T: Clone + Into<Value>> PatchValue for Option<T> {
    fn patch_value(&self) -> Option<Value> {
        self.clone().map(Into::into)
    }
}

/// `spec.suspend`: the model reads absent as false.
impl PatchValue for bool {
    fn patch_value(&self) -> Option<Value> {
        Some(Value::Bool(*self))
    }
}

/// `spec.concurrencyPolicy`: the model reads absent as Allow.
impl PatchValue for ConcurrencyPolicy {
    fn patch_value(&self) -> Option<Value> {
        Some(Value::from(self.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn apply_follows_rfc_7386() {
        // The RFC's own example (section 3).
        let target = json!({"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"},
            "tags": ["example", "sample"], "content": "This will be unchanged"});
        let patch = json!({"title": "Hello!", "phoneNumber": "+01-123-456-7890",
            "author": {"familyName": null}, "tags": ["example"]});
        assert_eq!(
            apply(&target, &patch),
            json!({"title": "Hello!", "author": {"givenName": "John"}, "tags": ["example"],
                "content": "This will be unchanged", "phoneNumber": "+01-123-456-7890"})
        );
        // A non-object patch replaces the target; an object patch onto a scalar starts afresh.
        assert_eq!(apply(&json!({"a": 1}), &json!([1])), json!([1]));
        assert_eq!(
            apply(&json!("x"), &json!({"a": null, "b": 1})),
            json!({"b": 1})
        );
    }

    #[test]
    fn compose_keeps_nulls_and_lets_the_second_win() {
        let a = json!({"spec": {"schedule": "0 1 * * *", "timeZone": "UTC"}});
        let b = json!({"spec": {"schedule": "0 0 * * *", "startingDeadlineSeconds": null}});
        assert_eq!(
            compose(&a, &b),
            json!({"spec": {"schedule": "0 0 * * *", "timeZone": "UTC", "startingDeadlineSeconds": null}})
        );
        // Composing then applying equals applying one after the other.
        let doc = json!({"spec": {"schedule": "x", "startingDeadlineSeconds": 5}});
        assert_eq!(apply(&doc, &compose(&a, &b)), apply(&apply(&doc, &a), &b));
    }

    #[test]
    fn leaves_are_dotted_paths_including_nulls() {
        let p = json!({"spec": {"schedule": "0 1 * * *", "jobTemplate": {"spec": {"backoffLimit": 1}},
            "timeZone": null}});
        let l: Vec<String> = leaves(&p).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            l,
            [
                "spec.jobTemplate.spec.backoffLimit",
                "spec.schedule",
                "spec.timeZone"
            ]
        );
    }

    #[test]
    fn conflicts_are_different_values_for_one_field_or_nested_fields() {
        let merged = json!({"spec": {"schedule": "0 1 * * *", "timeZone": "UTC"}});
        assert_eq!(
            conflict(&merged, &json!({"spec": {"schedule": "0 1 * * *"}})),
            None
        );
        assert_eq!(
            conflict(&merged, &json!({"spec": {"suspend": false}})),
            None
        );
        assert_eq!(
            conflict(&merged, &json!({"spec": {"schedule": "0 0 * * *"}})).as_deref(),
            Some("spec.schedule")
        );
        assert_eq!(
            conflict(&merged, &json!({"spec": {"timeZone": {"x": 1}}})).as_deref(),
            Some("spec.timeZone")
        );
    }

    #[test]
    fn set_builds_the_path() {
        let mut p = json!({"spec": {"suspend": false}});
        set(
            &mut p,
            "spec.jobTemplate.spec.activeDeadlineSeconds",
            json!(780),
        );
        assert_eq!(
            p,
            json!({"spec": {"suspend": false, "jobTemplate": {"spec": {"activeDeadlineSeconds": 780}}}})
        );
    }

    #[test]
    fn model_takes_known_fields_and_refuses_the_rest() {
        let cj = CronJob {
            spec: crate::model::CronJobSpec {
                schedule: Some("CRON_TZ=UTC 0 1 * * *".into()),
                suspend: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let out = apply_to_cron_job(
            &cj,
            &json!({"spec": {"schedule": "0 1 * * *", "timeZone": "UTC", "suspend": null,
                "concurrencyPolicy": "Forbid",
                "jobTemplate": {"spec": {"activeDeadlineSeconds": 780}}}}),
        )
        .unwrap();
        assert_eq!(out.spec.schedule.as_deref(), Some("0 1 * * *"));
        assert_eq!(out.spec.time_zone.as_deref(), Some("UTC"));
        assert!(!out.spec.suspend);
        assert_eq!(out.spec.concurrency_policy, ConcurrencyPolicy::Forbid);
        assert_eq!(
            out.spec.job_template.spec.active_deadline_seconds,
            Some(780)
        );
        let err = apply_to_cron_job(&cj, &json!({"metadata": {"name": "x"}}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("metadata.name"), "{err}");
        let err = apply_to_cron_job(&cj, &json!({"spec": {"suspend": "no"}}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("spec.suspend"), "{err}");
    }
    /// Each checked path with a value of its type and one of another type.
    fn samples() -> Vec<(&'static str, Value, Value)> {
        vec![
            ("spec.schedule", json!("0 1 * * *"), json!(5)),
            ("spec.timeZone", json!("Europe/Paris"), json!(true)),
            ("spec.startingDeadlineSeconds", json!(200), json!("200")),
            ("spec.successfulJobsHistoryLimit", json!(0), json!(1.5)),
            ("spec.failedJobsHistoryLimit", json!(7), json!(u64::MAX)),
            ("spec.suspend", json!(true), json!("no")),
            (
                "spec.concurrencyPolicy",
                json!("Sometimes"),
                json!(["Forbid"]),
            ),
            (
                "spec.jobTemplate.spec.activeDeadlineSeconds",
                json!(780),
                json!(false),
            ),
            ("spec.jobTemplate.spec.backoffLimit", json!(-1), json!("6")),
            (
                "spec.jobTemplate.spec.ttlSecondsAfterFinished",
                json!(86400),
                json!(3.0),
            ),
            ("spec.jobTemplate.spec.suspend", json!(false), json!(0)),
            (
                "spec.jobTemplate.spec.template.spec.restartPolicy",
                json!("Never"),
                json!({}),
            ),
        ]
    }

    fn patch_of(path: &str, value: &Value) -> Value {
        let mut patch = json!({});
        set(&mut patch, path, value.clone());
        patch
    }

    #[test]
    fn every_checked_path_round_trips_and_refuses_another_type() {
        let paths: Vec<&str> = samples().iter().map(|s| s.0).collect();
        assert_eq!(paths, CHECKED.iter().map(|c| c.path).collect::<Vec<_>>());
        let cj = CronJob::default();
        for (path, good, wrong) in samples() {
            // A misspelt path would be skipped by the reader, leaving the model unchanged.
            let set = apply_to_cron_job(&cj, &patch_of(path, &good)).unwrap();
            assert_eq!(value_in_cron_job(&set, path), Some(good.clone()), "{path}");
            assert_ne!(set, cj, "{path}");
            // null removes the field: the model's reading of an absent one.
            let removed = apply_to_cron_job(&set, &patch_of(path, &Value::Null)).unwrap();
            assert_eq!(removed, cj, "{path}");
            // A wrong type is refused, never read as absent (serde_json's errors are not the
            // manifest reader's soft ones).
            let err = apply_to_cron_job(&set, &patch_of(path, &wrong)).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("{path}: {wrong} is not a valid value"),
                "{path}"
            );
            assert_eq!(
                err,
                PatchError::BadValue {
                    path: path.to_string(),
                    value: wrong
                }
            );
        }
    }

    #[test]
    fn a_patch_value_reads_as_the_same_field_of_a_manifest() {
        for (path, good, _) in samples() {
            let mut doc = json!({"apiVersion": "batch/v1", "kind": "CronJob",
                "metadata": {"name": "backup"}});
            set(&mut doc, path, good.clone());
            let loaded = crate::source::parse_text("cj.json", &doc.to_string());
            assert_eq!(loaded.errors, [], "{path}");
            let patched = apply_to_cron_job(&CronJob::default(), &patch_of(path, &good)).unwrap();
            assert_eq!(
                value_in_cron_job(&patched, path),
                value_in_cron_job(&loaded.cron_jobs[0], path),
                "{path}"
            );
        }
    }

    #[test]
    fn paths_the_replay_cannot_check_are_refused_by_name() {
        let cj = CronJob::default();
        for path in [
            "metadata.name",
            "spec.jobTemplate.spec.parallelism",
            "spec.schedule.minute",
            "status.lastScheduleTime",
        ] {
            let err = apply_to_cron_job(&cj, &patch_of(path, &json!(1))).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("{path}: a change the replay cannot check")
            );
            assert_eq!(value_in_cron_job(&cj, path), None);
        }
        assert_eq!(
            apply_to_cron_job(&cj, &json!([])).unwrap_err().to_string(),
            "the patch is not a JSON object"
        );
        // The first leaf the model cannot take names the error, in document order.
        let err = apply_to_cron_job(
            &cj,
            &json!({"metadata": {"name": "x"}, "spec": {"suspend": "no"}}),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "metadata.name: a change the replay cannot check"
        );
    }
}
