//! RFC 7386 JSON merge patches: applying one to a JSON document, merging rule fragments into
//! one patch without setting a field twice, and applying a patch to the CronJob model so the
//! fix plan can be replayed before it is shown.
//!
//! The model keeps only the fields the diagnosis reads, so [`apply_to_cron_job`] accepts only
//! the fields a rule ever patches and refuses anything else: a change we cannot replay is a
//! change we cannot vouch for.

use serde_json::{Map, Value};

use crate::model::{ConcurrencyPolicy, CronJob};

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

/// Apply a merge patch to the CronJob model. Errors name the first field the model cannot
/// take (unknown to the replay, or of the wrong type).
pub fn apply_to_cron_job(cj: &CronJob, patch: &Value) -> Result<CronJob, PatchError> {
    if !patch.is_object() {
        return Err(PatchError::NotAnObject);
    }
    let mut out = cj.clone();
    for (path, v) in leaves(patch) {
        let bad = || PatchError::BadValue {
            path: path.clone(),
            value: v.clone(),
        };
        let spec = &mut out.spec;
        let tpl = &mut spec.job_template.spec;
        match path.as_str() {
            "spec.schedule" => spec.schedule = opt_string(&v).ok_or_else(bad)?,
            "spec.timeZone" => spec.time_zone = opt_string(&v).ok_or_else(bad)?,
            "spec.startingDeadlineSeconds" => {
                spec.starting_deadline_seconds = opt_int(&v).ok_or_else(bad)?
            }
            "spec.successfulJobsHistoryLimit" => {
                spec.successful_jobs_history_limit = opt_int(&v).ok_or_else(bad)?
            }
            "spec.failedJobsHistoryLimit" => {
                spec.failed_jobs_history_limit = opt_int(&v).ok_or_else(bad)?
            }
            "spec.suspend" => {
                spec.suspend = opt_bool(&v).ok_or_else(bad)?.unwrap_or(false);
            }
            "spec.concurrencyPolicy" => {
                spec.concurrency_policy = match opt_string(&v).ok_or_else(bad)?.as_deref() {
                    None | Some("Allow") => ConcurrencyPolicy::Allow,
                    Some("Forbid") => ConcurrencyPolicy::Forbid,
                    Some("Replace") => ConcurrencyPolicy::Replace,
                    Some(other) => ConcurrencyPolicy::Other(other.to_string()),
                }
            }
            "spec.jobTemplate.spec.activeDeadlineSeconds" => {
                tpl.active_deadline_seconds = opt_int(&v).ok_or_else(bad)?
            }
            "spec.jobTemplate.spec.backoffLimit" => {
                tpl.backoff_limit = opt_int(&v).ok_or_else(bad)?
            }
            "spec.jobTemplate.spec.ttlSecondsAfterFinished" => {
                tpl.ttl_seconds_after_finished = opt_int(&v).ok_or_else(bad)?
            }
            "spec.jobTemplate.spec.suspend" => tpl.suspend = opt_bool(&v).ok_or_else(bad)?,
            "spec.jobTemplate.spec.template.spec.restartPolicy" => {
                tpl.restart_policy = opt_string(&v).ok_or_else(bad)?
            }
            _ => return Err(PatchError::Unchecked { path }),
        }
    }
    Ok(out)
}

/// The model's current value of a field [`apply_to_cron_job`] can change (None: unset or a
/// field it does not know).
pub fn value_in_cron_job(cj: &CronJob, path: &str) -> Option<Value> {
    let spec = &cj.spec;
    let tpl = &spec.job_template.spec;
    let int = |v: Option<i64>| v.map(Value::from);
    match path {
        "spec.schedule" => spec.schedule.clone().map(Value::from),
        "spec.timeZone" => spec.time_zone.clone().map(Value::from),
        "spec.startingDeadlineSeconds" => int(spec.starting_deadline_seconds),
        "spec.successfulJobsHistoryLimit" => int(spec.successful_jobs_history_limit),
        "spec.failedJobsHistoryLimit" => int(spec.failed_jobs_history_limit),
        "spec.suspend" => Some(Value::from(spec.suspend)),
        "spec.concurrencyPolicy" => Some(Value::from(match &spec.concurrency_policy {
            ConcurrencyPolicy::Allow => "Allow",
            ConcurrencyPolicy::Forbid => "Forbid",
            ConcurrencyPolicy::Replace => "Replace",
            ConcurrencyPolicy::Other(o) => o.as_str(),
        })),
        "spec.jobTemplate.spec.activeDeadlineSeconds" => int(tpl.active_deadline_seconds),
        "spec.jobTemplate.spec.backoffLimit" => int(tpl.backoff_limit),
        "spec.jobTemplate.spec.ttlSecondsAfterFinished" => int(tpl.ttl_seconds_after_finished),
        "spec.jobTemplate.spec.suspend" => tpl.suspend.map(Value::from),
        "spec.jobTemplate.spec.template.spec.restartPolicy" => {
            tpl.restart_policy.clone().map(Value::from)
        }
        _ => None,
    }
}

/// `Some(None)` for null (remove), `Some(Some(s))` for a string, None for anything else.
fn opt_string(v: &Value) -> Option<Option<String>> {
    match v {
        Value::Null => Some(None),
        Value::String(s) => Some(Some(s.clone())),
        _ => None,
    }
}

fn opt_int(v: &Value) -> Option<Option<i64>> {
    match v {
        Value::Null => Some(None),
        Value::Number(n) => n.as_i64().map(Some),
        _ => None,
    }
}

fn opt_bool(v: &Value) -> Option<Option<bool>> {
    match v {
        Value::Null => Some(None),
        Value::Bool(b) => Some(Some(*b)),
        _ => None,
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
}
