//! Generated Jobs: one per past schedule slot, named as the CronJob controller names them,
//! with the statuses, conditions and ownerReferences the Job controller leaves behind.

use super::cronjob::Plan;
use super::{Family, Health, JobInfo, Rng};
use crate::clock::rfc3339;
use crate::patch::fields_v1;
use crate::store::uid_for;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

/// How a run failed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Failure {
    ImagePull,
    OomKilled,
    Error,
    CrashLoop,
}

fn node(rng: &mut Rng) -> String {
    format!(
        "ip-10-0-{}-{}.ec2.internal",
        rng.range(0, 63),
        rng.range(2, 254)
    )
}

/// `n` Jobs, newest first. Never-firing schedules get manually triggered Jobs instead
/// (`kubectl create job --from=cronjob/…`), as people do with them.
pub(crate) fn history(
    rng: &mut Rng,
    fam: &Family,
    plan: &Plan,
    n: usize,
    now: Timestamp,
) -> Vec<JobInfo> {
    let period = plan.period.map(SignedDuration::from_mins);
    let reference = now - plan.idle_for;
    let hung_back = period.map_or(SignedDuration::ZERO, |p| p * 4);
    let newest = match plan.health {
        Health::Hung => plan.slot_at_or_before(reference - hung_back),
        _ => plan.slot_at_or_before(reference),
    };
    let max_secs = period.map_or(1200, |p| (p.as_secs() / 2).clamp(10, 1200));
    let typical = rng.range(5, max_secs);
    let failure = *rng.pick(&[
        Failure::ImagePull,
        Failure::OomKilled,
        Failure::Error,
        Failure::CrashLoop,
    ]);
    let base_image = plan.images[0].clone();
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let (name, scheduled) = match (newest, period) {
            (Some(s0), Some(p)) => {
                let slot = s0 - p * k as i32;
                (format!("{}-{}", fam.name, slot.as_second() / 60), slot)
            }
            _ => {
                let at = reference - SignedDuration::from_hours(rng.range(1, 24 * 30));
                (format!("{}-manual-{}", fam.name, rng.suffix()), at)
            }
        };
        // The controller needs a moment to create the Job, but never starts it in the future.
        let start = (scheduled + SignedDuration::from_secs(rng.range(0, 3))).min(now);
        let took =
            SignedDuration::from_secs((typical + rng.range(-typical / 4, typical / 4)).max(1));
        let (mut end, mut succeeded, mut why) = (Some(start + took), true, None);
        match plan.health {
            Health::Healthy if k > 0 && rng.chance(0.05) => {
                (succeeded, why) = (false, Some(Failure::Error));
            }
            Health::Flaky if rng.chance(0.3) => {
                (succeeded, why) = (
                    false,
                    Some(*rng.pick(&[Failure::Error, Failure::OomKilled])),
                );
            }
            Health::Broken if k < 3 => (succeeded, why) = (false, Some(failure)),
            Health::Hung if k == 0 => end = None,
            _ => {}
        }
        // A pull that never succeeds leaves the Job active, its Pod pending forever.
        if why == Some(Failure::ImagePull) && k == 0 {
            end = None;
        }
        if end.is_some_and(|e| e > now) {
            (end, succeeded, why) = (None, true, None);
        }
        let image = if why == Some(Failure::ImagePull) {
            format!("{}-rc{}", base_image, rng.range(1, 9))
        } else {
            base_image.clone()
        };
        let uid = uid_for(&format!("gen/{}/job/{}/{name}", fam.seed, fam.ns));
        out.push(JobInfo {
            name,
            uid,
            scheduled,
            start,
            end,
            succeeded,
            failure: why,
            image,
            node: node(rng),
        });
    }
    out
}

fn condition(kind: &str, status: &str, reason: &str, message: &str, at: &str) -> Value {
    json!({"type": kind, "status": status, "reason": reason, "message": message,
           "lastProbeTime": at, "lastTransitionTime": at})
}

fn job_status(j: &JobInfo) -> Value {
    let start = rfc3339(j.start);
    let mut st = json!({"startTime": start, "terminating": 0, "uncountedTerminatedPods": {}});
    match (j.end, j.succeeded) {
        (None, _) => {
            st["active"] = json!(1);
            st["ready"] = json!(i32::from(j.failure.is_none()));
        }
        (Some(end), true) => {
            let at = rfc3339(end);
            st["completionTime"] = json!(at);
            st["succeeded"] = json!(1);
            st["ready"] = json!(0);
            st["conditions"] = json!([
                condition(
                    "SuccessCriteriaMet",
                    "True",
                    "CompletionsReached",
                    "Reached expected number of succeeded pods",
                    &at
                ),
                condition(
                    "Complete",
                    "True",
                    "CompletionsReached",
                    "Reached expected number of succeeded pods",
                    &at
                ),
            ]);
        }
        (Some(end), false) => {
            let at = rfc3339(end);
            st["failed"] = json!(1);
            st["ready"] = json!(0);
            st["conditions"] = json!([
                condition(
                    "FailureTarget",
                    "True",
                    "BackoffLimitExceeded",
                    "Job has reached the specified backoff limit",
                    &at
                ),
                condition(
                    "Failed",
                    "True",
                    "BackoffLimitExceeded",
                    "Job has reached the specified backoff limit",
                    &at
                ),
            ]);
        }
    }
    st
}

pub(crate) fn controller_labels(job: &str, uid: &str) -> Value {
    json!({"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": job,
           "controller-uid": uid, "job-name": job})
}

pub(crate) fn owner(kind: &str, name: &str, uid: &str) -> Value {
    let api_version = if kind == "Job" || kind == "CronJob" {
        "batch/v1"
    } else {
        "v1"
    };
    json!([{"apiVersion": api_version, "kind": kind, "name": name, "uid": uid, "controller": true, "blockOwnerDeletion": true}])
}

pub(crate) fn managed(
    spec_owner: &str,
    obj: &Value,
    status_owner: &str,
    status: &Value,
    at: &str,
    api_version: &str,
) -> Value {
    json!([
        {"manager": spec_owner, "operation": "Update", "apiVersion": api_version, "time": at,
         "fieldsType": "FieldsV1", "fieldsV1": fields_v1(obj, false)},
        {"manager": status_owner, "operation": "Update", "apiVersion": api_version, "time": at,
         "fieldsType": "FieldsV1", "fieldsV1": fields_v1(&json!({"status": status}), true), "subresource": "status"},
    ])
}

pub(crate) fn job_object(fam: &Family, plan: &Plan, j: &JobInfo) -> Value {
    let mut labels = controller_labels(&j.name, &j.uid);
    labels["app.kubernetes.io/name"] = json!(fam.name);
    let mut pod_spec = plan.template.clone();
    pod_spec["containers"][0]["image"] = json!(j.image);
    let mut annotations = json!({"batch.kubernetes.io/job-tracking": ""});
    if j.name.contains("-manual-") {
        annotations["cronjob.kubernetes.io/instantiate"] = json!("manual");
    } else {
        annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"] =
            json!(rfc3339(j.scheduled));
    }
    let mut obj = json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": j.name, "namespace": fam.ns, "labels": labels, "annotations": annotations,
                     "ownerReferences": owner("CronJob", &fam.name, &fam.uid)},
        "spec": {
            "parallelism": 1, "completions": 1, "backoffLimit": plan.backoff_limit, "completionMode": "NonIndexed",
            "suspend": false, "podReplacementPolicy": "TerminatingOrFailed", "manualSelector": false,
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": j.uid}},
            "template": {"metadata": {"labels": labels}, "spec": pod_spec},
        },
    });
    crate::patch::merge_patch(&mut obj["spec"], &plan.job_extras);
    let status = job_status(j);
    let at = rfc3339(j.end.unwrap_or(j.start));
    obj["metadata"]["managedFields"] = managed(
        "kube-controller-manager",
        &obj,
        "kube-controller-manager",
        &status,
        &at,
        "batch/v1",
    );
    obj["status"] = status;
    obj["metadata"]["uid"] = json!(j.uid);
    obj["metadata"]["creationTimestamp"] = json!(rfc3339(j.start));
    obj["metadata"]["generation"] = json!(1);
    obj
}
