//! `trigger`: the Job `kubectl create job NAME --from=cronjob/X` would create (spec D.5), with a
//! name that fits. The CronJob is taken as the API returns it (JSON), because the Job must carry
//! the whole template, not just the fields the diagnosis keeps.

use serde_json::{Map, Value, json};

/// The longest Job name that still works: the controller-set `job-name` Pod label is limited
/// to 63 characters.
pub const MAX_JOB_NAME: usize = 63;

/// `<cronjob>-manual-<suffix>`, shortening the CronJob part so the whole fits in 63.
pub fn manual_job_name(cron_job: &str, suffix: &str) -> String {
    let tail = format!("-manual-{suffix}");
    let room = MAX_JOB_NAME.saturating_sub(tail.len());
    let mut head: String = cron_job.chars().take(room).collect();
    // A DNS label may not end with '-' (or '.') where we cut it.
    while head.ends_with('-') || head.ends_with('.') {
        head.pop();
    }
    format!("{head}{tail}")
}

/// Why a plan cannot be built from this object.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("the CronJob has no metadata")]
    NoMetadata,
    #[error("the CronJob has no name or uid (read it from the cluster, not a file)")]
    NoNameOrUid,
    #[error("cronjob {name} has no spec.jobTemplate")]
    NoJobTemplate { name: String },
    #[error("cronjob {name} has no spec.jobTemplate.spec")]
    NoJobTemplateSpec { name: String },
    /// The API server copies a Job's name into its Pods' `job-name` labels, which hold at most
    /// 63 characters, unless the template sets `manualSelector` (then it adds no label).
    #[error(
        "job name {name:?} has {len} characters: the API server refuses a Job name over {MAX_JOB_NAME} (it becomes the job-name label of its Pods) unless the Job template sets manualSelector: true"
    )]
    JobNameTooLong { name: String, len: usize },
}

fn obj<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Map<String, Value>> {
    let mut cur = v;
    for p in path {
        cur = cur.get(*p)?;
    }
    cur.as_object()
}

/// The Job object, exactly as `kubectl create job --from=cronjob/…` builds it: template spec,
/// template labels, annotations starting from `cronjob.kubernetes.io/instantiate: manual` with
/// the template's copied over it, and an ownerReference to the CronJob WITHOUT `controller`
/// (so the CronJob controller ignores it: not in active, never pruned, no Forbid effect).
pub fn plan_job(cron_job: &Value, job_name: &str) -> Result<Value, PlanError> {
    let meta = obj(cron_job, &["metadata"]).ok_or(PlanError::NoMetadata)?;
    let name = meta.get("name").and_then(Value::as_str).unwrap_or_default();
    let uid = meta.get("uid").and_then(Value::as_str).unwrap_or_default();
    if name.is_empty() || uid.is_empty() {
        return Err(PlanError::NoNameOrUid);
    }
    let template = obj(cron_job, &["spec", "jobTemplate"])
        .ok_or_else(|| PlanError::NoJobTemplate { name: name.into() })?;
    let spec = template
        .get("spec")
        .cloned()
        .ok_or_else(|| PlanError::NoJobTemplateSpec { name: name.into() })?;
    let manual_selector = spec.get("manualSelector").and_then(Value::as_bool) == Some(true);
    if job_name.len() > MAX_JOB_NAME && !manual_selector {
        return Err(PlanError::JobNameTooLong {
            name: job_name.into(),
            len: job_name.len(),
        });
    }
    let tmeta = template.get("metadata").and_then(Value::as_object);
    let mut annotations = Map::new();
    annotations.insert("cronjob.kubernetes.io/instantiate".into(), json!("manual"));
    if let Some(a) = tmeta
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object)
    {
        for (k, v) in a {
            annotations.insert(k.clone(), v.clone());
        }
    }
    let labels = tmeta
        .and_then(|m| m.get("labels"))
        .cloned()
        .unwrap_or_else(|| json!({}));
    let mut metadata = json!({
        "name": job_name,
        "annotations": annotations,
        "labels": labels,
        "ownerReferences": [{
            "apiVersion": "batch/v1",
            "kind": "CronJob",
            "name": name,
            "uid": uid,
        }],
    });
    if let Some(ns) = meta.get("namespace") {
        metadata["namespace"] = ns.clone();
    }
    if labels_empty(&metadata) {
        metadata.as_object_mut().map(|m| m.remove("labels"));
    }
    Ok(json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata, "spec": spec}))
}

fn labels_empty(meta: &Value) -> bool {
    meta.get("labels")
        .and_then(Value::as_object)
        .is_some_and(Map::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cron_job() -> Value {
        json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "backup", "namespace": "ops", "uid": "cj-uid", "resourceVersion": "7"},
            "spec": {
                "schedule": "0 3 * * *",
                "jobTemplate": {
                    "metadata": {"labels": {"app": "backup"}, "annotations": {"team": "ops", "cronjob.kubernetes.io/instantiate": "template-wins"}},
                    "spec": {"backoffLimit": 2, "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "b", "image": "b:1"}]}}}
                }
            }
        })
    }

    /// A name of 63 characters is the longest the API server takes for a Job whose Pods get
    /// the generated `job-name` label; with `manualSelector: true` it generates none.
    #[test]
    fn a_job_name_over_63_characters_is_refused_unless_the_template_selects_manually() {
        let fits = "b".repeat(MAX_JOB_NAME);
        assert!(plan_job(&cron_job(), &fits).is_ok());
        let long = "b".repeat(MAX_JOB_NAME + 1);
        let err = plan_job(&cron_job(), &long).unwrap_err();
        assert_eq!(
            err,
            PlanError::JobNameTooLong {
                name: long.clone(),
                len: 64
            }
        );
        assert!(err.to_string().contains("has 64 characters"), "{err}");
        let mut manual = cron_job();
        manual["spec"]["jobTemplate"]["spec"]["manualSelector"] = json!(true);
        assert!(plan_job(&manual, &long).is_ok());
        manual["spec"]["jobTemplate"]["spec"]["manualSelector"] = json!(false);
        assert!(plan_job(&manual, &long).is_err());
    }

    #[test]
    fn job_is_built_like_kubectl_create_job_from() {
        let job = plan_job(&cron_job(), "backup-manual-x7k2p").unwrap();
        assert_eq!(
            job,
            json!({
                "apiVersion": "batch/v1", "kind": "Job",
                "metadata": {
                    "name": "backup-manual-x7k2p", "namespace": "ops",
                    // kubectl copies template annotations over its own: the template wins.
                    "annotations": {"cronjob.kubernetes.io/instantiate": "template-wins", "team": "ops"},
                    "labels": {"app": "backup"},
                    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": "backup", "uid": "cj-uid"}]
                },
                "spec": {"backoffLimit": 2, "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "b", "image": "b:1"}]}}}
            })
        );
        assert!(
            job["metadata"]["ownerReferences"][0]
                .get("controller")
                .is_none()
        );
    }

    #[test]
    fn names_fit_in_63_characters() {
        assert_eq!(manual_job_name("backup", "x7k2p"), "backup-manual-x7k2p");
        let long = "a".repeat(52);
        let n = manual_job_name(&long, "x7k2p");
        assert_eq!(n.len(), 63);
        assert!(n.ends_with("-manual-x7k2p"));
        let dashy = format!("{}-b", "a".repeat(49));
        assert!(!manual_job_name(&dashy, "x7k2p").contains("--"));
    }

    #[test]
    fn objects_read_from_files_cannot_be_triggered() {
        let mut cj = cron_job();
        cj["metadata"].as_object_mut().unwrap().remove("uid");
        assert!(plan_job(&cj, "x").is_err());
    }
}
