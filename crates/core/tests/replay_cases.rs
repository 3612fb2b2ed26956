//! Section E.2 of the semantics reference, current controller (1.31): E1–E19.
//! Expected job names, events and requeue delays are the spec table's (computed with the real
//! robfig library); a disagreement here means the replay is wrong.

use crate::replay_common;
use crate::replay_common::*;
use doctor::replay::{CreateOutcome, Decision, MissedSchedules};

#[test]
fn replay_e01_first_slot_after_creation_is_created() {
    let c = cj("*/5 * * * *").created("2024-01-01T10:02:30Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:05:00.1Z", NEW);
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401725"));
    assert_eq!(r.scheduled_time, Some(t("2024-01-01T10:05:00Z")));
    assert_eq!(
        r.scheduled_timestamp_annotation.as_deref(),
        Some("2024-01-01T10:05:00Z")
    );
    assert_eq!(ev(&r), ["Normal/SuccessfulCreate: Created job cj-28401725"]);
    assert_eq!(r.last_schedule_time_after, Some(t("2024-01-01T10:05:00Z")));
    assert_eq!(r.requeue_after_ms, Some(5 * MIN));
    assert_eq!(r.create_outcome, Some(CreateOutcome::Created));
    assert_eq!(r.active_after.len(), 1);
    assert!(r.status_written);
}

#[test]
fn replay_e02_before_first_slot_requeues_to_slot_plus_100ms() {
    let c = cj("*/5 * * * *").created("2024-01-01T10:02:30Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:02:31Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert!(r.events.is_empty());
    assert_eq!(r.requeue_after_ms, Some(2 * MIN + 29_100));
    assert!(!r.window_miss);
}

#[test]
fn replay_e03_first_slot_is_strictly_after_creation() {
    let c = cj("* * * * *").created("2024-01-01T10:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:00:00.5Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert_eq!(r.requeue_after_ms, Some(59_600));
}

fn e04() -> replay_common::Cj {
    cj("0 * * * *")
        .created("2023-12-01T00:00:00Z")
        .lst("2024-01-01T00:00:00Z")
}

#[test]
fn replay_e04_many_missed_creates_latest_with_warning() {
    let r = run(&e04().build(), NO_JOBS, "2024-01-05T12:34:00Z", NEW);
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(r.job_name.as_deref(), Some("cj-28407600"));
    assert_eq!(
        ev(&r),
        [
            "Warning/TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew",
            "Normal/SuccessfulCreate: Created job cj-28407600",
        ]
    );
    assert_eq!(r.missed_schedules, MissedSchedules::Many);
    assert_eq!(r.missed_estimate, Some(108));
    assert_eq!(r.gap_seconds, Some(3600));
    assert_eq!(r.requeue_after_ms, Some(26 * MIN + 100));
}

#[test]
fn replay_e05_deadline_excludes_the_slot_silently() {
    let r = run(
        &e04().sds(200).build(),
        NO_JOBS,
        "2024-01-05T12:34:00Z",
        NEW,
    );
    assert_eq!(r.decision, Decision::MissedDeadline);
    assert!(r.events.is_empty());
    assert_eq!(r.due_ignoring_deadline, Some(t("2024-01-05T12:00:00Z")));
    assert_eq!(r.requeue_after_ms, Some(26 * MIN + 100));
    assert!(!r.status_written);
}

#[test]
fn replay_e06_deadline_window_avoids_the_warning() {
    let r = run(
        &e04().sds(3600).build(),
        NO_JOBS,
        "2024-01-05T12:34:00Z",
        NEW,
    );
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(r.job_name.as_deref(), Some("cj-28407600"));
    assert_eq!(reasons(&r), ["SuccessfulCreate"]);
    assert_eq!(r.missed_schedules, MissedSchedules::None);
}

#[test]
fn replay_e07_hundred_missed_is_few() {
    let c = cj("* * * * *").lst("2024-01-01T10:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T11:40:59Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401820"));
    assert_eq!(r.missed_estimate, Some(100));
    assert_eq!(r.missed_schedules, MissedSchedules::Few);
    assert_eq!(reasons(&r), ["SuccessfulCreate"]);
    assert_eq!(r.requeue_after_ms, Some(1_100));
    assert_eq!(r.true_missed_count, 100);
}

#[test]
fn replay_e08_hundred_and_one_missed_is_many() {
    let c = cj("* * * * *").lst("2024-01-01T10:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T11:41:00.5Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401821"));
    assert_eq!(r.missed_estimate, Some(101));
    assert_eq!(reasons(&r), ["TooManyMissedTimes", "SuccessfulCreate"]);
    assert_eq!(r.requeue_after_ms, Some(59_600));
}

#[test]
fn replay_e09_every_is_anchored_at_creation() {
    let c = cj("@every 1h").created("2024-01-01T10:00:30Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T11:00:31Z", NEW);
    assert_eq!(r.scheduled_time, Some(t("2024-01-01T11:00:30Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-28401780"));
    assert_eq!(r.requeue_after_ms, Some(59 * MIN + 59_100));
}

#[test]
fn replay_e10_every_90s_many_missed() {
    let c = cj("@every 90s").lst("2024-01-01T00:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T05:00:10Z", NEW);
    assert_eq!(r.scheduled_time, Some(t("2024-01-01T05:00:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-28401420"));
    assert_eq!(reasons(&r), ["TooManyMissedTimes", "SuccessfulCreate"]);
    assert_eq!(r.requeue_after_ms, Some(MIN + 20_100));
}

#[test]
fn replay_e11_non_uniform_schedule_finds_the_real_slot() {
    let c = cj("30 6-16/4 * * 1-5").lst("2023-06-16T10:30:00Z").build();
    let r = run(&c, NO_JOBS, "2023-06-19T14:31:00Z", NEW);
    assert_eq!(r.scheduled_time, Some(t("2023-06-19T14:30:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-28119750"));
    assert_eq!(r.missed_schedules, MissedSchedules::Few);
    assert_eq!(r.requeue_after_ms, Some(15 * HOUR + 59 * MIN + 100));
    assert!(!r.wrong_slot);
}

#[test]
fn replay_e12_weekday_schedule_resumed_at_weekend_is_a_window_miss() {
    let c = cj("0 9 * * 1-5").lst("2024-01-01T09:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-07T12:00:00Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert!(r.events.is_empty());
    assert!(r.window_miss);
    assert_eq!(r.true_most_recent, Some(t("2024-01-05T09:00:00Z")));
    assert_eq!(r.true_missed_count, 4);
    assert_eq!(r.requeue_after_ms, Some(21 * HOUR + 100));
}

#[test]
fn replay_e13_window_miss_with_many_emits_nothing() {
    let c = cj("0,1 0 * * *").lst("2023-12-31T00:01:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-03T12:00:00Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert!(r.events.is_empty());
    assert!(r.window_miss);
    assert_eq!(r.missed_estimate, Some(3601));
    assert_eq!(r.missed_schedules, MissedSchedules::Many);
    assert_eq!(r.requeue_after_ms, Some(12 * HOUR + 100));
    let r = run(&c, NO_JOBS, "2024-01-04T00:00:00.1Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28405440"));
    assert_eq!(reasons(&r), ["TooManyMissedTimes", "SuccessfulCreate"]);
}

fn e14() -> replay_common::Cj {
    cj("*/10 * * * *")
        .forbid()
        .lst("2024-01-01T10:00:00Z")
        .active("cj-28401720", "j1")
}

#[test]
fn replay_e14_forbid_with_active_job() {
    let jobs = [job("cj-28401720", "j1").build()];
    let r = run(&e14().build(), Some(&jobs), "2024-01-01T10:10:00.1Z", NEW);
    assert_eq!(r.decision, Decision::ForbidBlocked);
    assert_eq!(
        ev(&r),
        [
            "Normal/JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid"
        ]
    );
    assert_eq!(r.last_schedule_time_after, Some(t("2024-01-01T10:00:00Z")));
    assert_eq!(r.requeue_after_ms, Some(10 * MIN));
}

#[test]
fn replay_e15_finished_job_unblocks_a_late_start() {
    let jobs = [job("cj-28401720", "j1")
        .complete("2024-01-01T10:13:00Z")
        .build()];
    let r = run(&e14().build(), Some(&jobs), "2024-01-01T10:13:00Z", NEW);
    assert_eq!(
        ev(&r),
        [
            "Normal/SawCompletedJob: Saw completed job: cj-28401720, condition: Complete",
            "Normal/SuccessfulCreate: Created job cj-28401730",
        ]
    );
    assert_eq!(r.last_schedule_time_after, Some(t("2024-01-01T10:10:00Z")));
    assert_eq!(
        r.last_successful_time_after,
        Some(t("2024-01-01T10:13:00Z"))
    );
    assert_eq!(r.requeue_after_ms, Some(7 * MIN + 100));
}

#[test]
fn replay_e16_finished_job_but_deadline_passed() {
    let jobs = [job("cj-28401720", "j1")
        .complete("2024-01-01T10:13:00Z")
        .build()];
    let r = run(
        &e14().sds(60).build(),
        Some(&jobs),
        "2024-01-01T10:13:00Z",
        NEW,
    );
    assert_eq!(r.decision, Decision::MissedDeadline);
    assert_eq!(reasons(&r), ["SawCompletedJob"]);
    assert!(r.active_after.is_empty());
    assert_eq!(r.requeue_after_ms, Some(7 * MIN + 100));
}

#[test]
fn replay_e17_replace_deletes_then_creates() {
    let c = cj("*/5 * * * *")
        .replace()
        .lst("2024-01-01T10:00:00Z")
        .active("cj-28401720", "j1")
        .build();
    let jobs = [job("cj-28401720", "j1").build()];
    let r = run(&c, Some(&jobs), "2024-01-01T10:05:00.1Z", NEW);
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(
        ev(&r),
        [
            "Normal/SuccessfulDelete: Deleted job cj-28401720",
            "Normal/SuccessfulCreate: Created job cj-28401725"
        ]
    );
    assert_eq!(
        r.active_after
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>(),
        ["cj-28401725"]
    );
    assert_eq!(r.requeue_after_ms, Some(5 * MIN));
}

#[test]
fn replay_e18_time_zone_annotation_and_name() {
    let c = cj("0 9 * * *")
        .name("report")
        .tz("America/New_York")
        .lst("2024-01-01T14:00:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2024-01-02T14:00:00.5Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("report-28403400"));
    assert_eq!(
        r.scheduled_timestamp_annotation.as_deref(),
        Some("2024-01-02T09:00:00-05:00")
    );
    assert_eq!(
        r.effective_schedule.as_deref(),
        Some("TZ=America/New_York 0 9 * * *")
    );
    assert_eq!(r.requeue_after_ms, Some(23 * HOUR + 59 * MIN + 59_600));
}

#[test]
fn replay_e19_dst_fall_back_runs_twice() {
    let c = cj("30 1 * * *")
        .tz("America/New_York")
        .lst("2021-11-06T05:30:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2021-11-07T05:30:00.2Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-27271050"));
    assert_eq!(
        r.scheduled_timestamp_annotation.as_deref(),
        Some("2021-11-07T01:30:00-04:00")
    );
    assert_eq!(r.requeue_after_ms, Some(59 * MIN + 59_900));
    let c = cj("30 1 * * *")
        .tz("America/New_York")
        .lst("2021-11-07T05:30:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2021-11-07T06:30:00.1Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-27271110"));
    assert_eq!(
        r.scheduled_timestamp_annotation.as_deref(),
        Some("2021-11-07T01:30:00-05:00")
    );
}
