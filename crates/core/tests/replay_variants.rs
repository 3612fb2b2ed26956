//! Release variants: the legacy v1 controller, the pre-#118724 linear estimate (1.21–1.27),
//! the 1.28 hot loop, and the per-release message texts.

use crate::replay_common;
use crate::replay_common::*;
use doctor::replay::{
    ControllerVariant, CreateOutcome, Decision, KubeVersion, TimeZoneSupport,
    UnsupportedScheduleEvent,
};

const TAIL: &str = "Set or decrease .spec.startingDeadlineSeconds or check clock skew";

#[test]
fn replay_version_parsing_and_mapping() {
    let v: KubeVersion = "1.31".parse().unwrap();
    assert_eq!(
        (v.minor, v.patch, v.variant()),
        (31, None, ControllerVariant::V2_1_29Plus)
    );
    let v: KubeVersion = "v1.27.3".parse().unwrap();
    assert_eq!(
        (v.minor, v.patch, v.variant()),
        (27, Some(3), ControllerVariant::V2_1_25To1_27)
    );
    assert_eq!(
        "1.20".parse::<KubeVersion>().unwrap().variant(),
        ControllerVariant::V1Legacy
    );
    assert_eq!(
        "1.21".parse::<KubeVersion>().unwrap().variant(),
        ControllerVariant::V2_1_21To1_24
    );
    assert_eq!(
        "v1.28.2-gke.1157000"
            .parse::<KubeVersion>()
            .unwrap()
            .variant(),
        ControllerVariant::V2_1_28
    );
    assert_eq!(
        "v1.30.1+k3s1".parse::<KubeVersion>().unwrap().to_string(),
        "1.30.1"
    );
    // Patch releases never change the variant (backport releases unverified).
    assert_eq!(
        "1.27.16".parse::<KubeVersion>().unwrap().variant(),
        ControllerVariant::V2_1_25To1_27
    );
    assert!("2.0".parse::<KubeVersion>().is_err());
    assert!("latest".parse::<KubeVersion>().is_err());
    assert!("1.2.3.4".parse::<KubeVersion>().is_err());
    assert_eq!(
        KubeVersion::default().variant(),
        ControllerVariant::V2_1_29Plus
    );
    for v in ControllerVariant::ALL {
        assert_eq!(v.as_str().parse::<ControllerVariant>().unwrap(), v);
        assert_eq!(v.representative_version().variant(), v);
    }
}

#[test]
fn replay_time_zone_support_per_release() {
    let f = |s: &str| s.parse::<KubeVersion>().unwrap().features();
    assert_eq!(f("1.23").time_zone, TimeZoneSupport::Absent);
    assert_eq!(f("1.24").time_zone, TimeZoneSupport::AlphaOffByDefault);
    assert_eq!(f("1.25").time_zone, TimeZoneSupport::Beta);
    assert_eq!(f("1.27").time_zone, TimeZoneSupport::Ga);
    assert_eq!(
        f("1.22").unsupported_schedule_event,
        UnsupportedScheduleEvent::Never
    );
    assert_eq!(
        f("1.23").unsupported_schedule_event,
        UnsupportedScheduleEvent::AfterParse
    );
    assert_eq!(
        f("1.24").unsupported_schedule_event,
        UnsupportedScheduleEvent::BeforeParse
    );
    assert!(!f("1.27").scheduled_timestamp_annotation && f("1.28").scheduled_timestamp_annotation);
    // 1.24: the field is gated off by default, so it is ignored (even when invalid).
    let c = cj("0 9 * * *")
        .tz("Mars/Olympus")
        .lst("2024-01-01T09:00:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2024-01-02T09:00:00.1Z", "1.24");
    assert!(r.time_zone_ignored);
    assert_eq!(r.effective_schedule.as_deref(), Some("0 9 * * *"));
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(r.scheduled_timestamp_annotation, None);
}

fn e04() -> replay_common::Cj {
    cj("0 * * * *")
        .created("2023-12-01T00:00:00Z")
        .lst("2024-01-01T00:00:00Z")
}

#[test]
fn replay_e04_v1_hard_stops_with_failed_needs_start() {
    let r = run(&e04().build(), NO_JOBS, "2024-01-05T12:34:00Z", "1.20");
    assert_eq!(r.decision, Decision::InvalidSchedule);
    assert_eq!(
        ev(&r),
        [format!(
            "Warning/FailedNeedsStart: Cannot determine if job needs to be started: too many missed start time (> 100). {TAIL}"
        )]
    );
    assert_eq!(r.job_name, None);
    assert_eq!(r.requeue_after_ms, None);
    assert_eq!(r.polling_interval_ms, Some(10_000));
    assert!(r.status_written, "v1 writes status on every pass");
}

#[test]
fn replay_e04_pre_fix_message_has_the_count() {
    for v in ["1.21", "1.24", "1.25", "1.27"] {
        let r = run(&e04().build(), NO_JOBS, "2024-01-05T12:34:00Z", v);
        assert_eq!(r.job_name.as_deref(), Some("cj-28407600"), "{v}");
        assert_eq!(
            r.events[0].message,
            format!("too many missed start times: 108. {TAIL}"),
            "{v}"
        );
    }
    let r = run(&e04().build(), NO_JOBS, "2024-01-05T12:34:00Z", "1.28");
    assert_eq!(
        r.events[0].message,
        format!("too many missed start times. {TAIL}")
    );
}

#[test]
fn replay_e01_e08_v1_names_in_seconds_and_the_101st_slot() {
    let c = cj("*/5 * * * *").created("2024-01-01T10:02:30Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:05:00.1Z", "1.20");
    assert_eq!(r.job_name.as_deref(), Some("cj-1704103500"));
    assert_eq!(reasons(&r), ["SuccessfulCreate"]);
    let c = cj("* * * * *").lst("2024-01-01T10:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T11:41:00Z", "1.20");
    assert_eq!(reasons(&r), ["FailedNeedsStart"]);
    let r = run(&c, NO_JOBS, "2024-01-01T11:40:00Z", "1.20");
    assert_eq!(r.job_name.as_deref(), Some("cj-1704109200"));
}

#[test]
fn replay_e11_pre_fix_picks_an_earlier_slot() {
    let c = cj("30 6-16/4 * * 1-5").lst("2023-06-16T10:30:00Z").build();
    for v in ["1.24", "1.27"] {
        let r = run(&c, NO_JOBS, "2023-06-19T14:31:00Z", v);
        assert_eq!(r.scheduled_time, Some(t("2023-06-19T06:30:00Z")), "{v}");
        assert_eq!(r.job_name.as_deref(), Some("cj-28119270"));
        assert!(r.wrong_slot);
        assert_eq!(r.true_most_recent, Some(t("2023-06-19T14:30:00Z")));
    }
    let r = run(&c, NO_JOBS, "2023-06-19T14:31:00Z", "1.20");
    assert_eq!(r.job_name.as_deref(), Some("cj-1687185000"));
    assert_eq!(r.missed_estimate, Some(4));
}

#[test]
fn replay_e12_pre_fix_creates_a_job_for_a_non_slot() {
    let c = cj("0 9 * * 1-5").lst("2024-01-01T09:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-07T12:00:00Z", "1.27");
    assert_eq!(r.decision, Decision::Create);
    assert_eq!(r.scheduled_time, Some(t("2024-01-07T09:00:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-28410300"));
    assert!(r.wrong_slot);
    let r = run(&c, NO_JOBS, "2024-01-07T12:00:00Z", "1.20");
    assert_eq!(r.scheduled_time, Some(t("2024-01-05T09:00:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-1704445200"));
}

#[test]
fn replay_e12_on_1_28_is_a_hot_loop() {
    let c = cj("0 9 * * 1-5").lst("2024-01-01T09:00:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-07T12:00:00Z", "1.28");
    assert_eq!(r.decision, Decision::NothingDue);
    assert!(r.window_miss);
    assert_eq!(r.requeue_base, Some(t("2024-01-01T09:00:00Z")));
    // Next(earliest) = Tue 09:00 is 5d3h in the past: immediate requeue, again and again.
    assert_eq!(r.requeue_after_ms, Some(-(5 * 24 * HOUR + 3 * HOUR) + 100));
    let r = run(&c, NO_JOBS, "2024-01-07T12:00:00Z", "1.29");
    assert_eq!(r.requeue_after_ms, Some(21 * HOUR + 100));
}

#[test]
fn replay_e13_pre_fix_bogus_slot_with_count() {
    let c = cj("0,1 0 * * *").lst("2023-12-31T00:01:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-03T12:00:00Z", "1.27");
    assert_eq!(r.scheduled_time, Some(t("2024-01-03T12:00:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-28404720"));
    assert_eq!(
        r.events[0].message,
        format!("too many missed start times: 3601. {TAIL}")
    );
}

#[test]
fn replay_e21_pre_fix_and_v1() {
    let c = cj("30 1 * * *")
        .tz("America/New_York")
        .lst("2021-11-06T05:30:00Z")
        .build();
    let r = run(&c, NO_JOBS, "2021-11-09T17:00:00Z", "1.27");
    assert_eq!(r.scheduled_time, Some(t("2021-11-09T16:30:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-27274590"));
    assert!(r.wrong_slot);
    // v1 has no timeZone: with the controller in New York the Local schedule is the same.
    let r = run_in(
        &c,
        NO_JOBS,
        "2021-11-09T17:00:00Z",
        "1.20",
        &tz("America/New_York"),
    );
    assert_eq!(r.scheduled_time, Some(t("2021-11-09T06:30:00Z")));
    assert_eq!(r.job_name.as_deref(), Some("cj-1636439400"));
}

#[test]
fn replay_e29_on_1_21_to_1_24_requeues_from_now() {
    let c = cj("*/5 * * * *").lst("2024-01-01T10:30:00Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T10:00:00Z", "1.24");
    assert_eq!(r.decision, Decision::NothingDue);
    assert_eq!(r.requeue_after_ms, Some(5 * MIN + 100));
    let r = run(&c, NO_JOBS, "2024-01-01T10:00:00Z", "1.27");
    assert_eq!(r.requeue_after_ms, Some(35 * MIN + 100));
}

#[test]
fn replay_e09_every_drifts_on_1_21_to_1_24() {
    let c = cj("@every 1h").created("2024-01-01T10:00:30Z").build();
    let r = run(&c, NO_JOBS, "2024-01-01T11:00:31Z", "1.22");
    assert_eq!(r.job_name.as_deref(), Some("cj-28401780"));
    assert_eq!(r.requeue_after_ms, Some(HOUR + 100));
}

#[test]
fn replay_gap_error_texts() {
    let c = cj("0 0 30 2 *").lst("2024-01-01T00:00:00Z").build();
    let msg = |v: &str| {
        run(&c, NO_JOBS, "2024-03-01T00:00:00Z", v).events[0]
            .message
            .clone()
    };
    assert_eq!(
        msg("1.24"),
        "invalid schedule: 0 0 30 2 * : time difference between two schedules less than 1 second"
    );
    assert_eq!(
        msg("1.27"),
        "invalid schedule: 0 0 30 2 * : time difference between two schedules is less than 1 second"
    );
    let r = run(&c, NO_JOBS, "2024-03-01T00:00:00Z", "1.20");
    assert_eq!(reasons(&r), ["FailedNeedsStart"]);
    assert_eq!(r.decision, Decision::InvalidSchedule);
}

#[test]
fn replay_saw_completed_texts_and_v1_silent_forbid() {
    let c = cj("*/10 * * * *")
        .forbid()
        .lst("2024-01-01T10:00:00Z")
        .active("cj-28401720", "j1");
    let done = [job("cj-28401720", "j1")
        .complete("2024-01-01T10:13:00Z")
        .build()];
    let first = |v: &str| {
        run(&c.0.clone(), Some(&done), "2024-01-01T10:13:00Z", v).events[0]
            .message
            .clone()
    };
    assert_eq!(
        first("1.30"),
        "Saw completed job: cj-28401720, status: Complete"
    );
    assert_eq!(
        first("1.31"),
        "Saw completed job: cj-28401720, condition: Complete"
    );
    assert_eq!(first("1.20"), "Saw completed job: cj-28401720");
    let running = [job("cj-28401720", "j1").build()];
    let r = run(&c.build(), Some(&running), "2024-01-01T10:10:00.1Z", "1.20");
    assert_eq!(r.decision, Decision::ForbidBlocked);
    assert!(r.events.is_empty());
}

#[test]
fn replay_already_exists_per_release() {
    let c = cj("*/5 * * * *").lst("2024-01-01T10:00:00Z").build();
    let jobs = [job("cj-28401725", "j9")
        .complete("2024-01-01T10:06:00Z")
        .build()];
    let r = run(&c, Some(&jobs), "2024-01-01T10:05:00.1Z", "1.28");
    assert_eq!(r.create_outcome, Some(CreateOutcome::AlreadyExistsError));
    assert_eq!(
        r.sync_error.as_deref(),
        Some(r#"jobs.batch "cj-28401725" already exists"#)
    );
    assert_eq!(r.requeue_after_ms, None);
    assert!(r.events.is_empty());
    // 1.29 wrote adoption (#120649) but fetched the Job without a namespace: it failed until
    // 1.37 (#136920), for an owned Job and a foreign one alike.
    let foreign = [job("cj-28401725", "j9").owner_uid("other").build()];
    for v in ["1.29", "1.36", "1.36.9"] {
        for js in [&jobs[..], &foreign[..]] {
            let r = run(&c, Some(js), "2024-01-01T10:05:00.1Z", v);
            assert_eq!(
                r.create_outcome,
                Some(CreateOutcome::AlreadyExistsGetFailed),
                "{v}"
            );
            assert_eq!(r.requeue_after_ms, None, "{v}");
            assert!(r.active_after.is_empty(), "{v}");
            assert_eq!(
                r.last_schedule_time_after,
                Some(t("2024-01-01T10:00:00Z")),
                "{v}"
            );
            // No create event; the unfinished foreign Job is an UnexpectedJob (by name).
            assert!(
                !reasons(&r).iter().any(|e| e.contains("Create")),
                "{v}: {:?}",
                ev(&r)
            );
        }
    }
    let r = run(&c, Some(&jobs), "2024-01-01T10:05:00.1Z", "1.37");
    assert_eq!(r.create_outcome, Some(CreateOutcome::Adopted));
    assert_eq!(r.sync_error, None);
    assert_eq!(r.last_schedule_time_after, Some(t("2024-01-01T10:05:00Z")));
    let r = run(&c, Some(&foreign), "2024-01-01T10:05:00.1Z", "1.37");
    assert_eq!(r.create_outcome, Some(CreateOutcome::AlreadyExistsNotOwned));
    assert_eq!(r.requeue_after_ms, None);
    assert_eq!(r.sync_error, None);
    // v1 names are in seconds; any create error is a FailedCreate event.
    let v1_jobs = [job("cj-1704103500", "j9")
        .complete("2024-01-01T10:06:00Z")
        .build()];
    let r = run(&c, Some(&v1_jobs), "2024-01-01T10:05:00.1Z", "1.20");
    assert_eq!(
        ev(&r),
        [r#"Warning/FailedCreate: Error creating job: jobs.batch "cj-1704103500" already exists"#]
    );
    assert_eq!(r.create_outcome, Some(CreateOutcome::FailedCreate));
}

#[test]
fn replay_last_successful_time_rules() {
    let c = cj("0 * * * *")
        .suspend()
        .lst("2024-01-01T00:00:00Z")
        .build();
    let failed = [job("cj-1", "j1").failed().build()];
    let mut with_time = failed.clone();
    with_time[0].status.completion_time = Some(t("2024-01-01T00:10:00Z"));
    let at = "2024-01-01T01:00:00Z";
    assert_eq!(
        run(&c, Some(&with_time), at, "1.29").last_successful_time_after,
        Some(t("2024-01-01T00:10:00Z"))
    );
    assert_eq!(
        run(&c, Some(&with_time), at, "1.30").last_successful_time_after,
        None
    );
    // Same pass (≥1.31): the job leaving active also sets lastSuccessfulTime.
    let c = cj("0 * * * *")
        .suspend()
        .lst("2024-01-01T00:00:00Z")
        .active("cj-1", "j1")
        .build();
    let ok = [job("cj-1", "j1").complete("2024-01-01T00:20:00Z").build()];
    assert_eq!(
        run(&c, Some(&ok), at, "1.30").last_successful_time_after,
        None
    );
    assert_eq!(
        run(&c, Some(&ok), at, "1.31").last_successful_time_after,
        Some(t("2024-01-01T00:20:00Z"))
    );
}

#[test]
fn replay_linear_estimate_is_utc_located_on_1_25_to_1_27() {
    // Controller in New York, no timeZone. The linear estimate comes back in UTC, so the
    // post-create requeue evaluates the Local schedule in UTC: next sync at UTC midnight.
    let c = cj("0 0 * * *").lst("2024-01-01T05:00:00Z").build();
    let ny = tz("America/New_York");
    let r = run_in(&c, NO_JOBS, "2024-01-03T05:00:00.1Z", "1.27", &ny);
    assert_eq!(r.scheduled_time, Some(t("2024-01-03T05:00:00Z")));
    assert_eq!(r.requeue_after_ms, Some(19 * HOUR));
    let r = run_in(&c, NO_JOBS, "2024-01-03T05:00:00.1Z", "1.31", &ny);
    assert_eq!(r.requeue_after_ms, Some(24 * HOUR));
}

#[test]
fn replay_v1_ownership_is_by_uid() {
    let c = cj("*/5 * * * *").lst("2024-01-01T10:00:00Z").build();
    let stray = [job("other", "j7").owner_uid("uid-of-a-deleted-cj").build()];
    let r = run(&c, Some(&stray), "2024-01-01T10:02:00Z", "1.31");
    assert_eq!(
        reasons(&r),
        ["UnexpectedJob"],
        "v2 matches the controller ref by name only"
    );
    let r = run(&c, Some(&stray), "2024-01-01T10:02:00Z", "1.20");
    assert!(r.events.is_empty());
}

/// #133313 (1.37): the controller reference must name a CronJob of this name and UID. A Job
/// left by a deleted CronJob of the same name, or controlled by another kind with that name,
/// is no longer reconciled: no `UnexpectedJob`, not pruned, not counted for
/// `lastSuccessfulTime`.
#[test]
fn replay_ownership_by_uid_and_kind_from_1_37() {
    let c = cj("*/5 * * * *")
        .lst("2024-01-01T10:00:00Z")
        .history(0, 0)
        .build();
    let stray = [job("other", "j7").owner_uid("uid-of-a-deleted-cj").build()];
    let other_kind = [job("other", "j8").owner_kind("Workflow").build()];
    let finished_stray = [job("old", "j6")
        .owner_uid("uid-of-a-deleted-cj")
        .complete("2024-01-01T09:59:00Z")
        .build()];
    for js in [&stray[..], &other_kind[..]] {
        let r = run(&c, Some(js), "2024-01-01T10:02:00Z", "1.36");
        assert_eq!(reasons(&r), ["UnexpectedJob"], "1.36: by name");
        let r = run(&c, Some(js), "2024-01-01T10:02:00Z", "1.37");
        assert!(r.events.is_empty(), "1.37: {:?}", ev(&r));
    }
    // History limit 0: 1.36 prunes the finished stray and takes its completion; 1.37 leaves it.
    let r = run(&c, Some(&finished_stray), "2024-01-01T10:02:00Z", "1.36");
    assert_eq!(reasons(&r), ["SuccessfulDelete"]);
    assert_eq!(
        r.last_successful_time_after,
        Some(t("2024-01-01T09:59:00Z"))
    );
    let r = run(&c, Some(&finished_stray), "2024-01-01T10:02:00Z", "1.37");
    assert!(r.events.is_empty(), "1.37: {:?}", ev(&r));
    assert_eq!(r.last_successful_time_after, None);
    // Our own Job still counts at 1.37.
    let own = [job("mine", "j5").complete("2024-01-01T09:59:00Z").build()];
    let r = run(&c, Some(&own), "2024-01-01T10:02:00Z", "1.37");
    assert_eq!(reasons(&r), ["SuccessfulDelete"]);
}
