//! Gate order, parse failures, reconciliation details, history cleanup order, slot helpers
//! and the JSON shape of `Replay`.

use crate::replay_common;
use crate::replay_common::*;
use doctor::replay::{Decision, EffectiveSchedule, KubeVersion};

const NOW: &str = "2024-01-01T10:05:00.1Z";

fn base() -> replay_common::Cj {
    cj("*/5 * * * *").lst("2024-01-01T10:00:00Z")
}

#[test]
fn replay_deletion_beats_everything_but_reconciliation_still_runs() {
    let c = base()
        .deleting()
        .suspend()
        .tz("Mars/Olympus")
        .active("gone", "g1")
        .build();
    let r = run(&c, NO_JOBS, NOW, NEW);
    assert_eq!(r.decision, Decision::BeingDeleted);
    assert_eq!(ev(&r), ["Normal/MissingJob: Active job went missing: gone"]);
    assert_eq!(r.requeue_after_ms, None);
}

#[test]
fn replay_unknown_time_zone_is_reported_before_suspend() {
    let c = base().suspend().tz("Mars/Olympus").build();
    assert_eq!(
        run(&c, NO_JOBS, NOW, NEW).decision,
        Decision::UnknownTimeZone
    );
}

#[test]
fn replay_suspend_is_reported_before_a_bad_schedule() {
    let c = cj("0 0 * * 7").suspend().build();
    let r = run(&c, NO_JOBS, NOW, NEW);
    assert_eq!(r.decision, Decision::Suspended);
    assert!(r.events.is_empty());
    assert!(!r.status_written);
}

#[test]
fn replay_unparseable_schedule_event() {
    let r = run(&cj("0 0 * * 7").build(), NO_JOBS, NOW, NEW);
    assert_eq!(r.decision, Decision::UnparseableSchedule);
    assert_eq!(
        ev(&r),
        [
            r#"Warning/UnparseableSchedule: unparseable schedule: "0 0 * * 7" : end of range (7) above maximum (6): 7"#
        ]
    );
    assert_eq!(r.requeue_after_ms, None);
    let mut c = cj("x").build();
    c.spec.schedule = None;
    let r = run(&c, NO_JOBS, NOW, NEW);
    assert_eq!(
        r.events[0].message,
        r#"unparseable schedule: "" : empty spec string"#
    );
    let r = run(&cj("0 0 * * 7").build(), NO_JOBS, NOW, "1.20");
    assert_eq!(
        ev(&r),
        [
            "Warning/FailedNeedsStart: Cannot determine if job needs to be started: unparseable schedule: 0 0 * * 7 : end of range (7) above maximum (6): 7"
        ]
    );
}

#[test]
fn replay_tz_in_schedule_wins_over_time_zone_and_warns() {
    let c = cj("CRON_TZ=UTC 0 * * * *")
        .tz("America/New_York")
        .lst("2024-01-01T09:00:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:00:00.1Z", NEW);
    assert_eq!(reasons(&r), ["UnsupportedSchedule", "SuccessfulCreate"]);
    assert_eq!(
        r.events[0].message,
        r#"CRON_TZ or TZ used in schedule "CRON_TZ=UTC 0 * * * *" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"#
    );
    assert_eq!(
        r.effective_schedule.as_deref(),
        Some("CRON_TZ=UTC 0 * * * *")
    );
    // The annotation still follows spec.timeZone.
    assert_eq!(
        r.scheduled_timestamp_annotation.as_deref(),
        Some("2024-01-01T05:00:00-05:00")
    );
}

#[test]
fn replay_unsupported_schedule_placement_per_release() {
    let c = cj("TZ=Nowhere/Land * * * * *").build();
    let r = run(&c, NO_JOBS, NOW, NEW);
    assert_eq!(reasons(&r), ["UnsupportedSchedule", "UnparseableSchedule"]);
    let r = run(&c, NO_JOBS, NOW, "1.23");
    assert_eq!(
        reasons(&r),
        ["UnparseableSchedule"],
        "1.23 warns only after a successful parse"
    );
    let r = run(&c, NO_JOBS, NOW, "1.22");
    assert_eq!(reasons(&r), ["UnparseableSchedule"]);
    let ok = cj("TZ=UTC */5 * * * *").lst("2024-01-01T10:00:00Z").build();
    assert_eq!(
        reasons(&run(&ok, NO_JOBS, NOW, "1.23")),
        ["UnsupportedSchedule", "SuccessfulCreate"]
    );
    assert_eq!(
        reasons(&run(&ok, NO_JOBS, NOW, "1.22")),
        ["SuccessfulCreate"]
    );
}

#[test]
fn replay_robfig_panic_is_distinct() {
    let r = run(&cj("TZ=UTC").build(), NO_JOBS, NOW, NEW);
    assert_eq!(r.decision, Decision::UnparseableSchedule);
    assert!(r.controller_panic.is_some());
    assert_eq!(
        reasons(&r),
        ["UnsupportedSchedule"],
        "no UnparseableSchedule: the worker panics"
    );
}

#[test]
fn replay_unexpected_job_and_no_job_evidence() {
    let jobs = [job("stray", "s1").build()];
    let r = run(&base().build(), Some(&jobs), NOW, NEW);
    assert_eq!(reasons(&r), ["UnexpectedJob", "SuccessfulCreate"]);
    assert_eq!(
        r.events[0].message,
        "Saw a job that the controller did not create or forgot: stray"
    );
    // Without job evidence the active list is trusted as is: Forbid still blocks.
    let c = base().forbid().active("cj-28401720", "j1").build();
    let r = run(&c, None, NOW, NEW);
    assert_eq!(r.decision, Decision::ForbidBlocked);
    assert!(r.notes.iter().any(|n| n.contains("no job evidence")));
}

#[test]
fn replay_history_cleanup_order_changed_in_1_29() {
    let c = base().history(0, 1).active("cj-28401720", "j1").build();
    let jobs = [job("cj-28401720", "j1")
        .complete("2024-01-01T10:03:00Z")
        .started("2024-01-01T10:00:01Z")
        .build()];
    let r = run(&c, Some(&jobs), NOW, NEW);
    assert_eq!(
        reasons(&r),
        ["SuccessfulDelete", "SuccessfulCreate"],
        "cleanup first removes it from active"
    );
    let r = run(&c, Some(&jobs), NOW, "1.28");
    assert_eq!(
        reasons(&r),
        ["SawCompletedJob", "SuccessfulCreate", "SuccessfulDelete"]
    );
}

#[test]
fn replay_history_cleanup_deletes_oldest_first() {
    let jobs = [
        job("c", "3").complete("2024-01-01T09:00:00Z").build(),
        job("a", "1")
            .complete("2024-01-01T09:00:00Z")
            .started("2024-01-01T08:00:00Z")
            .build(),
        job("b", "2")
            .complete("2024-01-01T09:00:00Z")
            .started("2024-01-01T07:00:00Z")
            .build(),
    ];
    let c = base().history(1, 1).build();
    let r = run(&c, Some(&jobs), "2024-01-01T10:01:00Z", NEW);
    assert_eq!(
        ev(&r),
        [
            "Normal/SuccessfulDelete: Deleted job b",
            "Normal/SuccessfulDelete: Deleted job a"
        ]
    );
}

#[test]
fn replay_slot_helpers() {
    let c = base().build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:02:00Z", NEW);
    assert_eq!(
        r.next_schedule_times(3),
        [
            t("2024-01-01T10:05:00Z"),
            t("2024-01-01T10:10:00Z"),
            t("2024-01-01T10:15:00Z")
        ]
    );
    assert_eq!(
        r.last_slots(3),
        [
            t("2024-01-01T09:50:00Z"),
            t("2024-01-01T09:55:00Z"),
            t("2024-01-01T10:00:00Z")
        ]
    );
    let eff =
        EffectiveSchedule::for_cron_job(&c, KubeVersion::NEWEST, &jiff::tz::TimeZone::UTC).unwrap();
    let (slots, cut) = eff.slots_in(t("2024-01-01T10:00:00Z"), t("2024-01-01T11:00:00Z"), 5);
    assert_eq!(slots.len(), 5);
    assert!(cut);
    assert_eq!(
        eff.last_slots(t("2024-01-01T10:00:00Z"), 1),
        [t("2024-01-01T10:00:00Z")]
    );
    let never = EffectiveSchedule::for_cron_job(
        &cj("0 0 30 2 *").build(),
        KubeVersion::NEWEST,
        &jiff::tz::TimeZone::UTC,
    )
    .unwrap();
    assert!(never.next_times(t("2024-01-01T00:00:00Z"), 3).is_empty());
    assert!(never.last_slots(t("2024-01-01T00:00:00Z"), 3).is_empty());
}

#[test]
fn replay_json_shape() {
    let c = base().build();
    let r = run(&c, NO_JOBS, NOW, NEW);
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["decision"], "create");
    assert_eq!(v["variant"], "v2-1.29+");
    assert_eq!(v["kube_version"], "1.31");
    assert_eq!(v["job_name"], "cj-28401725");
    assert_eq!(v["scheduled_time"], "2024-01-01T10:05:00Z");
    assert_eq!(v["events"][0]["type"], "Normal");
    assert_eq!(v["events"][0]["reason"], "SuccessfulCreate");
    assert_eq!(v["requeue_after_ms"], 300_000);
    assert_eq!(v["missed_schedules"], "none");
    assert_eq!(v["create_outcome"], "created");
    assert_eq!(v["active_after"][0]["name"], "cj-28401725");
    assert!(v["window"].is_null());
    let r = run(
        &cj("* * * * *").lst("2024-01-01T10:00:00Z").build(),
        NO_JOBS,
        NOW,
        NEW,
    );
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["window"][1], "2024-01-01T10:05:00.1Z");
    assert_eq!(v["missed_schedules"], "few");
    for key in [
        "earliest",
        "t1",
        "t2",
        "gap_seconds",
        "missed_estimate",
        "window_miss",
        "true_most_recent",
        "true_missed_count",
        "last_schedule_time_after",
        "notes",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
}

#[test]
fn replay_bounded_work_for_long_gaps_and_manifests() {
    // Ten years of minutes since lastScheduleTime: the exact count is capped, the most recent
    // slot is still found, and the whole replay stays fast.
    let c = cj("* * * * *").lst("2014-01-01T00:00:00Z").build();
    let started = std::time::Instant::now();
    let r = run(&c, NO_JOBS, "2024-01-01T10:05:30Z", NEW);
    assert!(r.true_missed_count_capped);
    assert_eq!(r.true_missed_count, 10_000);
    assert_eq!(r.true_most_recent, Some(t("2024-01-01T10:05:00Z")));
    assert_eq!(r.scheduled_time, Some(t("2024-01-01T10:05:00Z")));
    assert_eq!(reasons(&r), ["TooManyMissedTimes", "SuccessfulCreate"]);
    // A manifest without creationTimestamp or status: replayed as created at now.
    let mut m = cj("*/5 * * * *").build();
    m.meta.creation_timestamp = None;
    let r = run(&m, None, "2024-01-01T10:02:00Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert_eq!(r.requeue_after_ms, Some(3 * MIN + 100));
    assert!(
        started.elapsed().as_secs() < 20,
        "took {:?}",
        started.elapsed()
    );
}

/// `@every` is anchored at lastScheduleTime (else creation), not at the clock: E9's chain.
#[test]
fn replay_every_slots_follow_the_anchor_not_the_clock() {
    let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2024-01-01T08:00:30Z"}
spec:
  schedule: "@every 1h"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}
status:
  lastScheduleTime: "2024-01-01T10:00:30Z"
"#;
    let loaded = doctor::source::parse_text("t.yaml", yaml);
    let cj = &loaded.cron_jobs[0];
    let now: jiff::Timestamp = "2024-01-01T10:20:00Z".parse().unwrap();
    let r = doctor::replay::replay(&doctor::replay::ReplayInput::new(cj, None, now));
    let next: Vec<String> = r
        .next_schedule_times(2)
        .iter()
        .map(|t| t.to_string())
        .collect();
    assert_eq!(next, ["2024-01-01T11:00:30Z", "2024-01-01T12:00:30Z"]);
    let last: Vec<String> = r.last_slots(2).iter().map(|t| t.to_string()).collect();
    assert_eq!(last, ["2024-01-01T09:00:30Z", "2024-01-01T10:00:30Z"]);
}
