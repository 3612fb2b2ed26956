//! The numbers behind the per-CronJob series, from hand-built snapshots at a fixed "now".

use crate::model::{Condition, CronJob, Evidence, Job, ObjectMeta, Snapshot};
use crate::replay::KubeVersion;
use crate::report::{Health, Options};
use jiff::Timestamp;

use super::*;

const NOW: &str = "2026-11-20T12:00:00Z";

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// Every 5 minutes; last scheduled 11:40, so 11:45, 11:50 and 11:55 are more than the
/// 2-minute grace overdue at 12:00 (12:00 itself is not yet).
fn every_five() -> CronJob {
    let mut cj = CronJob {
        api_version: "batch/v1".into(),
        meta: ObjectMeta {
            name: "backup".into(),
            namespace: "ops".into(),
            creation_timestamp: Some(ts("2026-11-01T00:00:00Z")),
            ..Default::default()
        },
        ..Default::default()
    };
    cj.spec.schedule = Some("*/5 * * * *".into());
    cj.spec.job_template.has_pod_template = true;
    cj.status.last_schedule_time = Some(ts("2026-11-20T11:40:00Z"));
    cj
}

fn snapshot(cj: CronJob, jobs: Vec<Job>) -> Snapshot {
    Snapshot {
        cron_jobs: vec![cj],
        jobs,
        evidence: Evidence {
            jobs: true,
            pods: true,
            events: true,
        },
        ..Default::default()
    }
}

fn run(s: &Snapshot, grace: i64) -> Summary {
    run_at(s, grace, NOW)
}

fn run_at(s: &Snapshot, grace: i64, now: &str) -> Summary {
    // No timeline asked for: `evaluate` builds the slots the last run needs itself.
    let opts = Options::utc(ts(now), KubeVersion::NEWEST, 0);
    evaluate(s, &opts, grace).unwrap()
}

fn succeeded(name: &str, done: &str) -> Job {
    let mut j = Job::default();
    j.meta.name = name.into();
    j.meta.namespace = "ops".into();
    j.status.completion_time = Some(ts(done));
    j.status.conditions.push(Condition {
        type_: "Complete".into(),
        status: "True".into(),
        reason: String::new(),
        message: String::new(),
        last_transition_time: None,
    });
    j
}

#[test]
fn missed_runs_are_the_overdue_slots_without_a_job() {
    let s = run(&snapshot(every_five(), Vec::new()), 120);
    assert_eq!(s.missed_runs, 3);
    assert_eq!(s.health, Health::Error, "{:?}", s.findings);
    assert!(s.findings.iter().any(|(slug, _)| *slug == "not-running"));
    // The 11:45 slot's Job exists (unix minutes in its name): that slot ran.
    let minutes = ts("2026-11-20T11:45:00Z").as_second() / 60;
    let ran = succeeded(&format!("backup-{minutes}"), "2026-11-20T11:46:00Z");
    let s = run(&snapshot(every_five(), vec![ran]), 120);
    assert_eq!(s.missed_runs, 2);
    // A longer grace: 11:55 is not overdue yet.
    let s = run(&snapshot(every_five(), Vec::new()), 400);
    assert_eq!(s.missed_runs, 2);
}

#[test]
fn a_suspended_cron_job_misses_nothing() {
    let mut cj = every_five();
    cj.spec.suspend = true;
    assert_eq!(run(&snapshot(cj, Vec::new()), 120).missed_runs, 0);
}

#[test]
fn the_timer_is_the_next_slot_after_the_grace_window_plus_grace() {
    let s = run(&snapshot(every_five(), Vec::new()), 120);
    // now − grace = 11:58; the next slot 12:00 is checked at 12:02.
    assert_eq!(s.recheck_at, Some(ts("2026-11-20T12:02:00Z")));
    assert_eq!(s.next_run, Some(ts("2026-11-20T12:05:00Z")));
    assert_eq!(s.last_schedule, Some(ts("2026-11-20T11:40:00Z")));
}

#[test]
fn last_success_comes_from_the_jobs_too() {
    let mut cj = every_five();
    cj.status.last_successful_time = Some(ts("2026-11-20T10:00:00Z"));
    let j = succeeded("backup-manual", "2026-11-20T11:30:00Z");
    let s = run(&snapshot(cj.clone(), vec![j]), 120);
    assert_eq!(s.last_success, Some(ts("2026-11-20T11:30:00Z")));
    let s = run(&snapshot(cj, Vec::new()), 120);
    assert_eq!(s.last_success, Some(ts("2026-11-20T10:00:00Z")));
}

#[test]
fn an_invalid_schedule_is_an_error_summary_without_timer() {
    let mut cj = every_five();
    cj.spec.schedule = Some("61 * * * *".into());
    let s = run(&snapshot(cj, Vec::new()), 120);
    assert_eq!(s.health, Health::Error);
    assert_eq!((s.recheck_at, s.missed_runs), (None, 0));
}

#[test]
fn a_slot_whose_job_carries_the_controllers_name_ran_even_off_the_minute() {
    // `@every 90s` slots fall at :30 half the time; the controller names their Jobs by the
    // slot's unix minute (floor), so 11:55:30's Job is `backup-<11:55 in minutes>`.
    let mut cj = every_five();
    cj.spec.schedule = Some("@every 90s".into());
    cj.status.last_schedule_time = Some(ts("2026-11-20T11:52:30Z"));
    let jobs = [
        "2026-11-20T11:54:00Z",
        "2026-11-20T11:55:30Z",
        "2026-11-20T11:57:00Z",
    ]
    .iter()
    .map(|t| {
        let minutes = ts(t).as_second().div_euclid(60);
        succeeded(&format!("backup-{minutes}"), t)
    })
    .collect();
    assert_eq!(run(&snapshot(cj.clone(), jobs), 120).missed_runs, 0);
    assert_eq!(run(&snapshot(cj, Vec::new()), 120).missed_runs, 3);
}

#[test]
fn the_scheduled_timestamp_annotation_in_the_cron_jobs_zone_names_its_slot() {
    let mut cj = every_five();
    cj.spec.time_zone = Some("America/New_York".into());
    let mut j = succeeded("backup-by-hand-looking", "2026-11-20T11:46:00Z");
    j.meta.annotations.insert(
        "batch.kubernetes.io/cronjob-scheduled-timestamp".into(),
        "2026-11-20T06:45:00-05:00".into(),
    );
    assert_eq!(run(&snapshot(cj, vec![j]), 120).missed_runs, 2);
}

/// The snapshot of a manifest (the rules' examples are written as YAML).
fn parsed(yaml: &str) -> Snapshot {
    crate::source::parse_text("example.yaml", yaml)
        .into_snapshot()
        .0
}

/// `(last_run_start_delay, last_run_attempts)` at `now`.
fn last_run_at(yaml: &str, now: &str) -> (Option<i64>, Option<u32>) {
    let s = run_at(&parsed(yaml), 120, now);
    (s.last_run_start_delay, s.last_run_attempts)
}

/// `run-not-started`'s examples: an hourly CronJob whose 11:00 run's Pod is Unschedulable
/// (`fires_on`), or whose container started at 11:00:09 (`quiet_on`).
use crate::rules::run_not_started::RULE;

#[test]
fn the_last_runs_start_delay_and_attempts_are_its_storys() {
    assert_eq!(
        last_run_at(RULE.quiet_on, RULE.example_now),
        (Some(9), Some(1))
    );
    // Restarted in place once: two starts; the delay is to the first.
    let restarted = RULE.quiet_on.replace(
        r#"restartCount: 0, state: {running: {startedAt: "2026-11-20T11:00:09Z"}}"#,
        r#"restartCount: 1, lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-11-20T11:00:09Z", finishedAt: "2026-11-20T11:05:00Z"}}, state: {running: {startedAt: "2026-11-20T11:05:10Z"}}"#,
    );
    assert_ne!(restarted, RULE.quiet_on);
    assert_eq!(
        last_run_at(&restarted, RULE.example_now),
        (Some(9), Some(2))
    );
}

#[test]
fn a_stuck_run_has_no_start_delay_and_no_start_yet() {
    let s = run_at(&parsed(RULE.fires_on), 120, RULE.example_now);
    assert!(
        s.findings.contains(&("run-not-started", "error")),
        "{:?}",
        s.findings
    );
    assert_eq!(
        (s.last_run_start_delay, s.last_run_attempts),
        (None, Some(0))
    );
}

#[test]
fn a_finished_run_whose_pods_are_gone_is_unknown_not_zero() {
    let without_pod = RULE
        .quiet_on
        .split("\n---\napiVersion: v1\nkind: Pod")
        .next()
        .unwrap()
        .replace(
            r#"status: {startTime: "2026-11-20T11:00:01Z", active: 1}"#,
            r#"status: {startTime: "2026-11-20T11:00:01Z", completionTime: "2026-11-20T11:10:00Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}"#,
        );
    assert!(without_pod.contains("succeeded: 1"));
    assert_eq!(last_run_at(&without_pod, RULE.example_now), (None, None));
}

#[test]
fn the_last_run_is_the_newest_scheduled_run_of_the_last_two_slots() {
    // 12:00 came due and its Job is not there yet: 11:00's run is still the last.
    assert_eq!(
        last_run_at(RULE.quiet_on, "2026-11-20T12:00:30Z"),
        (Some(9), Some(1))
    );
    // Two slots on, neither with a Job: no last run to tell of (`missed_runs` tells it).
    assert_eq!(
        last_run_at(RULE.quiet_on, "2026-11-20T13:00:30Z"),
        (None, None)
    );
    // A manual run made after it (`kubectl create job --from`: no controller reference) is
    // in the timeline, and is not the schedule's run.
    let manual = format!(
        "{}{}",
        RULE.quiet_on,
        r#"---
apiVersion: batch/v1
kind: Job
metadata: {name: report-by-hand, namespace: ops, uid: j2, creationTimestamp: "2026-11-20T11:20:00Z", annotations: {cronjob.kubernetes.io/instantiate: manual}, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: report, uid: u1}]}
status: {startTime: "2026-11-20T11:20:00Z", active: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: report-by-hand-x, namespace: ops, creationTimestamp: "2026-11-20T11:20:01Z", labels: {job-name: report-by-hand}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: report-by-hand, uid: j2, controller: true}]}
status:
  phase: Running
  containerStatuses:
  - {name: c, image: c:1, ready: true, restartCount: 3, state: {running: {startedAt: "2026-11-20T11:25:00Z"}}}
"#
    );
    // (Its four starts are the manual run's, not the scheduled one's.)
    assert_eq!(last_run_at(&manual, RULE.example_now), (Some(9), Some(1)));
}

/// The cause labels: an outage nothing explains is the controller's; a lost slot no finding
/// explains yet is unknown; a suspended CronJob's cause is `suspended`, and its next run is
/// predicted lost.
#[test]
fn causes_and_the_prediction_come_from_the_core() {
    let s = run(&snapshot(every_five(), Vec::new()), 120);
    assert_eq!((s.cause, s.missed_cause), ("controller", "controller"));
    assert!(s.at_risk.is_empty(), "{:?}", s.at_risk);
    // Last scheduled 11:50: 11:55 alone is lost, too few for not-running.
    let mut cj = every_five();
    cj.status.last_schedule_time = Some(ts("2026-11-20T11:50:00Z"));
    let s = run(&snapshot(cj, Vec::new()), 120);
    assert_eq!(s.missed_runs, 1);
    assert_eq!(s.missed_cause, "unknown");
    let mut cj = every_five();
    cj.spec.suspend = true;
    let s = run(&snapshot(cj, Vec::new()), 120);
    assert_eq!((s.missed_runs, s.missed_cause), (0, "none"));
    assert_eq!(s.cause, "suspended", "{:?}", s.findings);
    assert_eq!(s.at_risk, ["suspended"]);
}
