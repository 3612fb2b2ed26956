//! The live reading of an object must equal the file loader's reading of the same JSON, minus
//! what the live path deliberately drops (Job specs, unneeded labels and annotations).

use doctor::model::ConcurrencyPolicy;
use doctor::source::convert::*;
use doctor::source::wire;

const CRONJOB: &str = r#"{
  "apiVersion": "batch/v1", "kind": "CronJob",
  "metadata": {
    "name": "backup", "namespace": "ops", "uid": "cj-1", "resourceVersion": "42",
    "creationTimestamp": "2026-11-01T00:00:00Z",
    "labels": {"team": "infra"},
    "annotations": {"cronjob-doctor.io/ignore": "no-time-zone",
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"huge\": true}"},
    "managedFields": [
      {"manager": "kubectl-patch", "operation": "Update", "time": "2026-11-17T09:00:00Z",
       "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:suspend": {}}}},
      {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status",
       "fieldsV1": {"f:status": {"f:active": {}}}}
    ]
  },
  "spec": {
    "schedule": "0 3 * * *", "timeZone": "Europe/Berlin", "concurrencyPolicy": "Forbid",
    "suspend": true, "startingDeadlineSeconds": 200, "successfulJobsHistoryLimit": 3,
    "failedJobsHistoryLimit": 1,
    "jobTemplate": {
      "metadata": {"labels": {"app": "backup"}},
      "spec": {
        "backoffLimit": 6, "activeDeadlineSeconds": 3600, "podFailurePolicy": {"rules": []},
        "template": {"metadata": {}, "spec": {
          "restartPolicy": "Never",
          "containers": [{"name": "backup", "image": "registry.example/backup:2.0",
                          "env": [{"name": "X", "value": "1"}], "resources": {}}]
        }}
      }
    }
  },
  "status": {
    "active": [{"kind": "Job", "name": "backup-29914740", "namespace": "ops", "uid": "job-1"}],
    "lastScheduleTime": "2026-11-17T03:00:00Z", "lastSuccessfulTime": "2026-11-15T03:04:05Z"
  }
}"#;

const JOB: &str = r#"{
  "metadata": {
    "name": "backup-29914740", "namespace": "ops", "uid": "job-1", "resourceVersion": "7",
    "creationTimestamp": "2026-11-17T03:00:00Z",
    "labels": {"controller-uid": "job-1", "job-name": "backup-29914740"},
    "annotations": {"batch.kubernetes.io/cronjob-scheduled-timestamp": "2026-11-17T03:00:00Z",
                    "other": "dropped"},
    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": "backup",
                         "uid": "cj-1", "controller": true, "blockOwnerDeletion": true}]
  },
  "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}]}}},
  "status": {"startTime": "2026-11-17T03:00:05Z", "active": 1, "failed": 2,
             "conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
                             "message": "Job has reached the specified backoff limit",
                             "lastTransitionTime": "2026-11-17T03:10:00Z"}]}
}"#;

const POD: &str = r#"{
  "metadata": {
    "name": "backup-29914740-x7k2p", "namespace": "ops", "uid": "pod-1",
    "deletionTimestamp": "2026-11-18T00:00:00Z",
    "labels": {"batch.kubernetes.io/job-name": "backup-29914740", "job-name": "backup-29914740",
               "controller-uid": "job-1"},
    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "backup-29914740",
                         "uid": "job-1", "controller": true}]
  },
  "spec": {"nodeName": "node-7", "containers": [{"name": "backup", "image": "x"}]},
  "status": {
    "phase": "Pending", "startTime": "2026-11-17T03:00:06Z",
    "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                    "message": "0/3 nodes are available"}],
    "initContainerStatuses": [{"name": "init", "image": "busybox", "ready": true, "restartCount": 0,
      "state": {"terminated": {"exitCode": 0, "reason": "Completed",
                               "startedAt": "2026-11-17T03:00:07Z", "finishedAt": "2026-11-17T03:00:08Z"}}}],
    "containerStatuses": [{"name": "backup", "image": "registry.example/backup:2.0", "ready": false,
      "restartCount": 4,
      "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 5m0s"}},
      "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled",
                                   "finishedAt": "2026-11-17T03:05:00Z"}}}]
  }
}"#;

const EVENTS: [&str; 2] = [
    r#"{"metadata": {"name": "backup.1", "namespace": "ops", "labels": {"x": "y"}},
        "involvedObject": {"kind": "CronJob", "name": "backup", "namespace": "ops", "uid": "cj-1"},
        "type": "Warning", "reason": "JobAlreadyActive", "message": "Not starting job because prior execution is running and concurrency policy is Forbid",
        "count": 3, "firstTimestamp": "2026-11-18T03:00:00Z", "lastTimestamp": "2026-11-20T03:00:00Z",
        "source": {"component": "cronjob-controller"}}"#,
    r#"{"metadata": {"name": "backup.2", "namespace": "ops"},
        "involvedObject": {"kind": "Pod", "name": "backup-29914740-x7k2p", "namespace": "ops"},
        "type": "Normal", "reason": "Pulling", "message": "Pulling image",
        "eventTime": "2026-11-17T03:00:06.123456Z",
        "series": {"count": 9, "lastObservedTime": "2026-11-17T04:00:00.000001Z"},
        "reportingComponent": "kubelet", "firstTimestamp": null, "lastTimestamp": null}"#,
];

fn loaded(json: &str) -> doctor::source::Loaded {
    let l = doctor::source::parse_text("t.json", json);
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    l
}

#[test]
fn cron_job_reads_like_the_file_loader() {
    let live = cron_job(serde_json::from_str::<wire::CronJob>(CRONJOB).unwrap());
    let mut file = loaded(CRONJOB).cron_jobs.remove(0);
    file.origin = None;
    // Dropped on purpose: kubectl's copy of the whole manifest.
    file.meta
        .annotations
        .remove("kubectl.kubernetes.io/last-applied-configuration");
    assert_eq!(live, file);
    assert_eq!(live.meta.suspend_managers.len(), 1);
    assert_eq!(live.meta.suspend_managers[0].manager, "kubectl-patch");
    assert!(live.spec.job_template.spec.has_pod_failure_policy);
}

#[test]
fn job_keeps_status_owners_and_the_annotations_that_matter() {
    let live = job(serde_json::from_str::<wire::Job>(JOB).unwrap());
    let mut file = loaded(&format!(
        r#"{{"apiVersion":"batch/v1","kind":"Job",{}"#,
        &JOB[1..]
    ))
    .jobs
    .remove(0);
    file.origin = None;
    file.spec = Default::default();
    file.meta.labels.clear();
    file.meta.annotations.remove("other");
    assert_eq!(live, file);
    assert!(live.is_failed());
}

#[test]
fn pod_keeps_its_job_link_and_container_states() {
    let live = pod(serde_json::from_str::<wire::Pod>(POD).unwrap());
    let mut file = loaded(&format!(
        r#"{{"apiVersion":"v1","kind":"Pod",{}"#,
        &POD[1..]
    ))
    .pods
    .remove(0);
    file.meta.labels.remove("controller-uid");
    assert_eq!(live, file);
    assert_eq!(live.job_name(), Some("backup-29914740"));
    assert_eq!(live.container_statuses[0].last_state.reason, "OOMKilled");
}

#[test]
fn events_read_like_the_file_loader_including_series() {
    for e in EVENTS {
        let live = event(serde_json::from_str::<wire::Event>(e).unwrap());
        let mut file = loaded(&format!(
            r#"{{"apiVersion":"v1","kind":"Event",{}"#,
            &e.trim()[1..]
        ))
        .events
        .remove(0);
        file.meta.labels.clear();
        assert_eq!(live, file);
    }
}

#[test]
fn absent_and_null_fields_are_defaults() {
    let cj = cron_job::<wire::CronJobAnnotations, wire::All>(
        serde_json::from_str(
            r#"{"metadata":{"name":"x","labels":null},"spec":{"schedule":"* * * * *"}}"#,
        )
        .unwrap(),
    );
    assert_eq!(cj.spec.concurrency_policy, ConcurrencyPolicy::Allow);
    assert!(!cj.spec.job_template.has_pod_template);
    let cj = cron_job::<wire::CronJobAnnotations, wire::All>(
        serde_json::from_str(r#"{"spec":{"concurrencyPolicy":"Sometimes"}}"#).unwrap(),
    );
    assert_eq!(
        cj.spec.concurrency_policy,
        ConcurrencyPolicy::Other("Sometimes".into())
    );
    let body = r#"{"kind":"JobList","metadata":{"continue":"abc"},"items":null}"#;
    let list: wire::List<wire::Job> = serde_json::from_str(body).unwrap();
    assert!(list.items.is_empty());
    assert_eq!(
        crate::cluster::list::peek_continue(body.as_bytes()).unwrap(),
        Some("abc".into())
    );
}

/// Converted vectors own exactly their items: collecting in place would keep the wire items'
/// (bigger) buffer behind each Pod's statuses for as long as the Pod waits to be diagnosed.
#[test]
fn converted_vectors_hold_no_wire_sized_buffers() {
    let live = pod(serde_json::from_str::<wire::Pod>(POD).unwrap());
    for (len, cap) in [
        (
            live.container_statuses.len(),
            live.container_statuses.capacity(),
        ),
        (live.conditions.len(), live.conditions.capacity()),
        (
            live.meta.owner_references.len(),
            live.meta.owner_references.capacity(),
        ),
    ] {
        assert!(len > 0);
        assert_eq!(cap, len);
    }
    let j = job(serde_json::from_str::<wire::Job>(JOB).unwrap());
    assert!(!j.status.conditions.is_empty());
    assert_eq!(j.status.conditions.capacity(), j.status.conditions.len());
}
