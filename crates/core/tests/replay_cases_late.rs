//! Section E.2 of the semantics reference, current controller (1.31): E20–E38 and P10.

use crate::replay_common::*;
use doctor::replay::{CreateOutcome, Decision};

#[test]
fn replay_e20_spring_forward_skips_the_day() {
    let c = cj("30 2 * * *")
        .tz("America/New_York")
        .lst("2021-03-13T07:30:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2021-03-14T12:00:00Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert!(!r.window_miss);
    assert_eq!(r.true_most_recent, None);
    assert_eq!(r.requeue_after_ms, Some(18 * HOUR + 30 * MIN + 100));
    assert_eq!(r.next_schedule_times(1), [t("2021-03-15T06:30:00Z")]);
}

#[test]
fn replay_e21_dst_shortened_first_gap_is_a_window_miss() {
    let c = cj("30 1 * * *")
        .tz("America/New_York")
        .lst("2021-11-06T05:30:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2021-11-09T17:00:00Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert!(r.events.is_empty());
    assert!(r.window_miss);
    assert_eq!(r.gap_seconds, Some(3600));
    assert_eq!(r.true_most_recent, Some(t("2021-11-09T06:30:00Z")));
    assert_eq!(r.requeue_after_ms, Some(13 * HOUR + 30 * MIN + 100));
}

#[test]
fn replay_e22_lord_howe_half_hour_fall_back_skips_a_day() {
    let c = cj("0 2 * * *")
        .tz("Australia/Lord_Howe")
        .lst("2024-04-05T15:00:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2024-04-07T00:00:00Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert_eq!(r.requeue_after_ms, Some(15 * HOUR + 30 * MIN + 100));
    assert_eq!(r.next_schedule_times(1), [t("2024-04-07T15:30:00Z")]);
}

#[test]
fn replay_e23_unsuspend_starts_only_the_latest_slot() {
    let c = cj("0 * * * *").lst("2024-01-01T08:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T11:20:00Z", NEW);
    assert_eq!(r.scheduled_time, Some(t("2024-01-01T11:00:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-28401780"));
    assert_eq!(r.true_missed_count, 3);
    assert_eq!(r.requeue_after_ms, Some(40 * MIN + 100));
}

#[test]
fn replay_e24_unsuspend_with_deadline_runs_nothing() {
    let c = cj("0 * * * *").lst("2024-01-01T08:00:00Z").sds(600).build();
    let r = run(&c, NO_JOBS, "2024-01-01T11:20:00Z", NEW);
    assert_eq!(r.decision, Decision::MissedDeadline);
    assert!(r.events.is_empty());
    assert_eq!(r.requeue_after_ms, Some(40 * MIN + 100));
}

#[test]
fn replay_e25_schedule_edit_then_requeue_fires() {
    let c = cj("*/15 * * * *").lst("2024-01-01T10:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:30:00.1Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401750"));
    assert_eq!(
        r.true_missed_count, 2,
        "10:15 was due too but is not backfilled"
    );
    // Some other event syncs between 10:20 and 10:30: the 10:15 job is created late.
    let r = run(&c, NO_JOBS, "2024-01-01T10:22:00Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401735"));
    assert_eq!(r.requeue_after_ms, Some(8 * MIN + 100));
}

#[test]
fn replay_e26_two_every_slots_in_one_minute_share_a_name() {
    let c = cj("@every 30s")
        .lst("2024-01-01T00:01:00Z")
        .active("cj-28401121", "j1")
        .build();
    let jobs = [job("cj-28401121", "j1").build()];
    let r = run(&c, Some(&jobs), "2024-01-01T00:01:30.1Z", NEW);
    assert_eq!(r.decision, Decision::AlreadyProcessed);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401121"));
    assert_eq!(r.requeue_after_ms, Some(30_000));
    let r = run(&c, Some(&jobs), "2024-01-01T00:02:00.1Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401122"));
    assert_eq!(r.decision, Decision::Create);
}

/// E26: the 00:01:30 slot of `@every 30s` has the name of the 00:01:00 Job (names are in
/// minutes). From 1.37 the finished Job is adopted; 1.29–1.36 fetch it without a namespace
/// (kubernetes#136918), so the sync fails and is retried until the next minute's slot.
#[test]
fn replay_e26_finished_job_of_the_same_minute_is_adopted_from_1_37() {
    let c = cj("@every 30s").lst("2024-01-01T00:01:00Z").build();
    let jobs = [job("cj-28401121", "j1")
        .complete("2024-01-01T00:01:10Z")
        .build()];
    let r = run(&c, Some(&jobs), "2024-01-01T00:01:30.1Z", "1.37");
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(r.create_outcome, Some(CreateOutcome::Adopted));
    assert!(
        r.events.is_empty(),
        "no SuccessfulCreate on adoption: {:?}",
        ev(&r)
    );
    assert_eq!(r.active_after.len(), 1);
    assert_eq!(r.active_after[0].uid, "j1");
    assert_eq!(r.last_schedule_time_after, Some(t("2024-01-01T00:01:30Z")));
    assert_eq!(r.requeue_after_ms, Some(30_000));
    assert_eq!(r.sync_error, None);

    for v in ["1.29", "1.31", "1.36"] {
        let r = run(&c, Some(&jobs), "2024-01-01T00:01:30.1Z", v);
        assert_eq!(r.decision, Decision::Create, "{v}");
        assert_eq!(
            r.create_outcome,
            Some(CreateOutcome::AlreadyExistsGetFailed),
            "{v}"
        );
        assert!(r.events.is_empty(), "{v}: {:?}", ev(&r));
        assert!(r.active_after.is_empty(), "{v}: nothing adopted");
        assert_eq!(
            r.last_schedule_time_after,
            Some(t("2024-01-01T00:01:00Z")),
            "{v}"
        );
        assert_eq!(r.requeue_after_ms, None, "{v}: an error, not a requeue");
        assert!(
            r.sync_error
                .as_deref()
                .is_some_and(|e| e.contains("136918")),
            "{v}: {:?}",
            r.sync_error
        );
    }
}

#[test]
fn replay_e27_zero_deadline_never_runs() {
    let c = cj("* * * * *")
        .created("2024-01-01T10:00:00Z")
        .sds(0)
        .build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:01:00.1Z", NEW);
    assert_eq!(r.decision, Decision::MissedDeadline);
    assert!(r.events.is_empty());
    assert_eq!(r.requeue_after_ms, Some(MIN));
}

#[test]
fn replay_e28_ten_second_deadline() {
    let c = cj("* * * * *")
        .created("2024-01-01T10:00:00Z")
        .sds(10)
        .build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:01:09Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401721"));
    let r = run(&c, NO_JOBS, "2024-01-01T10:01:11Z", NEW);
    assert_eq!(r.decision, Decision::MissedDeadline);
    assert!(
        r.events.is_empty(),
        "MissSchedule is unreachable: {:?}",
        ev(&r)
    );
    assert_eq!(r.requeue_after_ms, Some(49_100));
}

#[test]
fn replay_e29_last_schedule_in_the_future() {
    let c = cj("*/5 * * * *").lst("2024-01-01T10:30:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:00:00Z", NEW);
    assert_eq!(r.decision, Decision::NothingDue);
    assert_eq!(r.requeue_after_ms, Some(35 * MIN + 100));
}

#[test]
fn replay_e30_kolkata_half_hour_offset() {
    let c = cj("0 9 * * *")
        .tz("Asia/Kolkata")
        .created("2024-01-01T00:00:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2024-01-01T03:30:00.2Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28401330"));
    assert_eq!(
        r.scheduled_timestamp_annotation.as_deref(),
        Some("2024-01-01T09:00:00+05:30")
    );
}

#[test]
fn replay_e31_dom_or_dow() {
    let c = cj("0 0 13 * 5").lst("2024-01-05T00:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-13T00:00:00.1Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28418400"));
    assert_eq!(r.requeue_after_ms, Some(144 * HOUR));
}

#[test]
fn replay_e32_31st_of_month() {
    let c = cj("0 0 31 * *").lst("2024-01-31T00:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-05-31T00:00:00.1Z", NEW);
    assert_eq!(r.job_name.as_deref(), Some("cj-28618560"));
    assert_eq!(r.true_missed_count, 2);
    assert_eq!(r.requeue_after_ms, Some(1464 * HOUR));
}

#[test]
fn replay_e33_manual_job_is_invisible() {
    let c = cj("*/5 * * * *")
        .forbid()
        .lst("2024-01-01T10:00:00Z")
        .build();
    let jobs = [job("m1", "m1").manual().build()];
    let r = run(&c, Some(&jobs), "2024-01-01T10:05:00.1Z", NEW);
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(ev(&r), ["Normal/SuccessfulCreate: Created job cj-28401725"]);
    assert_eq!(
        r.active_after
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>(),
        ["cj-28401725"]
    );
    assert_eq!(
        doctor::replay::owned_jobs(&c, &jobs, r.kube_version.features()).len(),
        0
    );
}

#[test]
fn replay_e34_unknown_time_zone() {
    // The controller lacking tzdata is not decidable from a snapshot; an unknown name takes the
    // same path and message format.
    let c = cj("0 0 * * *")
        .tz("Mars/Olympus")
        .lst("2024-01-01T00:00:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2024-01-05T00:00:00Z", NEW);
    assert_eq!(r.decision, Decision::UnknownTimeZone);
    assert_eq!(
        ev(&r),
        [
            r#"Warning/UnknownTimeZone: invalid timeZone: "Mars/Olympus": unknown time zone Mars/Olympus"#
        ]
    );
    assert_eq!(r.requeue_after_ms, None);
}

#[test]
fn replay_e35_missing_active_job() {
    let c = cj("*/5 * * * *")
        .lst("2024-01-01T10:00:00Z")
        .active("cj-28401720", "j1")
        .build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:02:00Z", NEW);
    assert_eq!(
        ev(&r),
        ["Normal/MissingJob: Active job went missing: cj-28401720"]
    );
    assert!(r.active_after.is_empty());
    assert_eq!(r.decision, Decision::NothingDue);
    assert_eq!(r.requeue_after_ms, Some(3 * MIN + 100));
    assert!(r.status_written);
}

#[test]
fn replay_e36_feb_29_after_2096_hangs_the_controller_but_not_us() {
    let c = cj("0 0 29 2 *").lst("2096-02-29T00:00:00Z").build();
    let r = run(&c, NO_JOBS, "2097-01-01T00:00:00Z", NEW);
    assert!(r.controller_hangs);
    assert_eq!(r.decision, Decision::InvalidSchedule);
    assert!(r.events.is_empty());
    assert_eq!(r.requeue_after_ms, None);
    assert!(!r.status_written);
    assert_eq!(r.t1, None, "t1 is Go's zero time");
    assert_eq!(r.t2, Some(t("0004-02-29T00:00:00Z")));
}

#[test]
fn replay_e37_suspended_still_reconciles() {
    let c = cj("0 * * * *")
        .suspend()
        .lst("2024-01-01T00:00:00Z")
        .active("cj-28401720", "j1")
        .build();
    let jobs = [job("cj-28401720", "j1")
        .complete("2024-01-01T00:05:00Z")
        .build()];
    let r = run(&c, Some(&jobs), "2024-01-05T00:00:00Z", NEW);
    assert_eq!(r.decision, Decision::Suspended);
    assert_eq!(reasons(&r), ["SawCompletedJob"]);
    assert!(r.status_written);
    assert_eq!(r.requeue_after_ms, None);
}

#[test]
fn replay_e38_controller_local_zone_without_time_zone() {
    let c = cj("0 0 * * *").lst("2024-01-01T05:00:00Z").build();
    let r = run_in(
        &c,
        NO_JOBS,
        "2024-01-02T05:00:00.1Z",
        NEW,
        &tz("America/New_York"),
    );
    assert_eq!(r.scheduled_time, Some(t("2024-01-02T05:00:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-28402860"));
    assert_eq!(
        r.scheduled_timestamp_annotation.as_deref(),
        Some("2024-01-02T05:00:00Z")
    );
}

#[test]
fn replay_p10_impossible_date_is_invalid_schedule() {
    let c = cj("0 0 30 2 *").lst("2024-01-01T00:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-03-01T00:00:00Z", NEW);
    assert_eq!(r.decision, Decision::InvalidSchedule);
    assert_eq!(
        ev(&r),
        [
            "Warning/InvalidSchedule: invalid schedule: 0 0 30 2 * : time difference between two schedules is less than 1 second"
        ]
    );
    assert_eq!(r.requeue_after_ms, None);
}
