//! The prediction on small snapshots at fixed instants: each reason where the evidence shows
//! the slot is lost, and silence where it does not.

use super::*;
use crate::report::{self, Options};

fn predicted(yaml: &str, now: &str) -> Option<NextRunAtRisk> {
    let (s, errors) = crate::source::parse_bytes("t.yaml", yaml.as_bytes()).into_snapshot();
    assert!(errors.is_empty(), "{errors:?}");
    let opts = Options::utc(now.parse().unwrap(), crate::replay::KubeVersion::NEWEST, 2);
    let mut r = report::build(&s, Vec::new(), &opts);
    assert_eq!(r.cron_jobs.len(), 1);
    r.cron_jobs.remove(0).next_run_at_risk
}

fn reasons(p: &Option<NextRunAtRisk>) -> Vec<&'static str> {
    p.iter()
        .flat_map(|p| &p.reasons)
        .map(|r| r.reason.as_str())
        .collect()
}

/// The examples read, compiled in: this crate does no IO, tests included (a test of the
/// architecture reads every file of it).
fn example(name: &str) -> String {
    match name {
        "forbid-blocked-by-hung-job.yaml" => {
            include_str!("../../../../examples/forbid-blocked-by-hung-job.yaml")
        }
        "suspended.yaml" => include_str!("../../../../examples/suspended.yaml"),
        "healthy.yaml" => include_str!("../../../../examples/healthy.yaml"),
        "last-runs.yaml" => include_str!("../../../../tests/fixtures/live/last-runs.yaml"),
        other => panic!("no example {other}"),
    }
    .to_string()
}

/// A Forbid CronJob at 03:00 daily whose 2026-11-20 run's Job is active; `job_spec` and
/// `pod_status` complete it.
fn forbid(job_spec: &str, pod_status: &str) -> String {
    format!(
        r#"
apiVersion: batch/v1
kind: CronJob
metadata: {{name: backup, namespace: ops, uid: cj-1, creationTimestamp: "2026-11-01T00:00:00Z"}}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}}}}}}}
status:
  lastScheduleTime: "2026-11-20T03:00:00Z"
  active: [{{name: backup-29919060, namespace: ops, uid: job-1}}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: backup-29919060
  namespace: ops
  uid: job-1
  creationTimestamp: "2026-11-20T03:00:01Z"
  labels: {{job-name: backup-29919060}}
  ownerReferences: [{{apiVersion: batch/v1, kind: CronJob, name: backup, uid: cj-1, controller: true}}]
spec: {{{job_spec}template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}}}}}
status: {{startTime: "2026-11-20T03:00:01Z", active: 1}}
---
apiVersion: v1
kind: Pod
metadata:
  name: backup-29919060-abcde
  namespace: ops
  labels: {{job-name: backup-29919060}}
  creationTimestamp: "2026-11-20T03:00:02Z"
  ownerReferences: [{{apiVersion: batch/v1, kind: Job, name: backup-29919060, uid: job-1, controller: true}}]
spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}
status:
{pod_status}
"#
    )
}

const PULL_FAILS: &str = r#"  phase: Pending
  startTime: "2026-11-20T03:00:02Z"
  containerStatuses:
  - {name: c, image: "c:1", ready: false, restartCount: 0, state: {waiting: {reason: ImagePullBackOff, message: "Back-off pulling image"}}}"#;

const RUNNING: &str = r#"  phase: Running
  startTime: "2026-11-20T03:00:02Z"
  containerStatuses:
  - {name: c, image: "c:1", ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T03:00:05Z"}}}"#;

#[test]
fn a_forbid_job_blocking_slots_already_blocks_the_next() {
    let p = predicted(
        &example("forbid-blocked-by-hung-job.yaml"),
        "2026-11-20T12:00:00Z",
    );
    assert_eq!(reasons(&p), ["forbid-active"]);
    let p = p.unwrap();
    assert_eq!(p.slot.to_string(), "2026-11-21T03:00:00Z");
    assert!(
        p.reasons[0].detail.contains("backup-29914740"),
        "{}",
        p.summary()
    );
}

#[test]
fn a_stuck_forbid_job_with_no_deadline_before_the_slot_blocks_the_next() {
    // Its Pod has not started either: the next run's would meet the same image.
    let p = predicted(&forbid("", PULL_FAILS), "2026-11-20T12:00:00Z");
    assert_eq!(reasons(&p), ["forbid-active", "run-not-started"], "{p:?}");
    assert!(p.unwrap().reasons[0].detail.contains("cannot pull"));
    // Its deadline ends it only after the slot (3 days): still lost, and said so.
    let p = predicted(
        &forbid("activeDeadlineSeconds: 259200, ", PULL_FAILS),
        "2026-11-20T12:00:00Z",
    );
    assert_eq!(reasons(&p), ["forbid-active", "run-not-started"], "{p:?}");
    assert!(
        p.unwrap().reasons[0]
            .detail
            .contains("activeDeadlineSeconds ends it only at 2026-11-23 03:00")
    );
}

#[test]
fn a_stuck_forbid_job_that_its_deadline_ends_before_the_slot_does_not_block_the_next() {
    // 12 hours: it fails at 15:00:01, twelve hours before the next slot, which Forbid then
    // runs; only its image, the same for the next run, still stands in the way.
    let p = predicted(
        &forbid("activeDeadlineSeconds: 43200, ", PULL_FAILS),
        "2026-11-20T12:00:00Z",
    );
    assert_eq!(reasons(&p), ["run-not-started"], "{p:?}");
}

#[test]
fn a_forbid_job_running_normally_predicts_nothing() {
    // Running for 20 minutes, nothing wrong with its Pod: it may well end before 03:00.
    assert_eq!(
        predicted(&forbid("", RUNNING), "2026-11-20T03:20:00Z"),
        None
    );
}

#[test]
fn a_suspended_cron_job_runs_no_next_slot() {
    let p = predicted(&example("suspended.yaml"), "2026-11-20T12:00:00Z");
    assert_eq!(reasons(&p), ["suspended"], "{p:?}");
}

#[test]
fn a_healthy_cron_job_predicts_nothing() {
    assert_eq!(
        predicted(&example("healthy.yaml"), "2026-11-20T12:00:00Z"),
        None
    );
}

fn deadline(sds: i64, created: &str) -> String {
    format!(
        r#"
apiVersion: batch/v1
kind: CronJob
metadata: {{name: sync, namespace: ops, uid: cj-2, creationTimestamp: "2026-11-01T00:00:00Z"}}
spec:
  schedule: "0 * * * *"
  startingDeadlineSeconds: {sds}
  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}}}}}}}
status: {{lastScheduleTime: "2026-11-20T11:00:00Z", lastSuccessfulTime: "2026-11-20T11:05:00Z"}}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: sync-29919540
  namespace: ops
  uid: job-2
  creationTimestamp: "{created}"
  ownerReferences: [{{apiVersion: batch/v1, kind: CronJob, name: sync, uid: cj-2, controller: true}}]
spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}}}}}
status: {{startTime: "{created}", completionTime: "2026-11-20T11:05:00Z", succeeded: 1, conditions: [{{type: Complete, status: "True"}}]}}
"#
    )
}

#[test]
fn a_starting_deadline_below_the_controllers_observed_lag_drops_the_next_slot() {
    // The 11:00 run's Job was created 3 minutes late; a 2-minute deadline drops such a sync.
    let p = predicted(
        &deadline(120, "2026-11-20T11:03:00Z"),
        "2026-11-20T11:30:00Z",
    );
    assert_eq!(reasons(&p), ["starting-deadline"], "{p:?}");
    assert!(p.unwrap().reasons[0].detail.contains("3m"));
    // Created 5 s late: a 2-minute deadline is not in danger.
    assert_eq!(
        predicted(
            &deadline(120, "2026-11-20T11:00:05Z"),
            "2026-11-20T11:30:00Z"
        ),
        None
    );
}

fn named(schedule: &str, zone: &str) -> String {
    format!(
        r#"
apiVersion: batch/v1
kind: CronJob
metadata: {{name: nightly, namespace: ops, uid: cj-3, creationTimestamp: "2026-11-01T00:00:00Z"}}
spec:
  schedule: "{schedule}"
  timeZone: {zone}
  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}}}}}}}
"#
    )
}

#[test]
fn the_next_named_time_in_a_dst_gap_is_a_lost_run() {
    // Europe/Berlin springs from 02:00 to 03:00 on 2027-03-28: 02:30 does not exist.
    let yaml = named("30 2 * * *", "Europe/Berlin");
    let p = predicted(&yaml, "2027-03-27T12:00:00Z");
    assert_eq!(reasons(&p), ["dst-gap"], "{p:?}");
    assert!(
        p.unwrap().reasons[0].detail.contains("2027-03-28 02:30"),
        "the named time"
    );
    // A week before, the next 02:30 exists.
    assert_eq!(predicted(&yaml, "2027-03-20T12:00:00Z"), None);
    // 03:30 is not in the gap.
    assert_eq!(
        predicted(
            &named("30 3 * * *", "Europe/Berlin"),
            "2027-03-27T12:00:00Z"
        ),
        None
    );
}

#[test]
fn a_run_not_started_puts_the_next_at_risk() {
    let all = example("last-runs.yaml");
    let (s, _) = crate::source::parse_bytes("t.yaml", all.as_bytes()).into_snapshot();
    let opts = Options::utc(
        "2026-11-20T12:00:00Z".parse().unwrap(),
        crate::replay::KubeVersion::NEWEST,
        2,
    );
    let r = report::build(&s, Vec::new(), &opts);
    let by = |n: &str| {
        reasons(
            &r.cron_jobs
                .iter()
                .find(|c| c.name == n)
                .unwrap()
                .next_run_at_risk,
        )
    };
    assert_eq!(by("report"), ["run-not-started"]);
    // Retried, running again: nothing shows its next run is lost.
    assert!(by("retried").is_empty());
}

#[test]
fn reason_names_are_stable_kebab_case() {
    let names: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(
        names,
        [
            "suspended",
            "forbid-active",
            "starting-deadline",
            "dst-gap",
            "run-not-started"
        ]
    );
    for r in Reason::ALL {
        assert_eq!(
            serde_json::to_value(r).unwrap(),
            serde_json::json!(r.as_str())
        );
    }
}
