use super::*;

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn run(job: &str, slot: &str, outcome: RunOutcome) -> RetainedRun {
    RetainedRun {
        job: job.into(),
        slot: Some(t(slot)),
        manual: false,
        outcome,
        reason: String::new(),
        message: String::new(),
        stages: RetainedStages {
            job_created: Some(t(slot)),
            ..Default::default()
        },
        attempts: Some(1),
        failed_attempts: Vec::new(),
        warnings: Vec::new(),
        retained: false,
    }
}

#[test]
fn cap_cuts_at_a_character_boundary() {
    assert_eq!(cap("abc", 3), "abc");
    assert_eq!(cap("abcdef", 4), "a…");
    let s = "é".repeat(200);
    let c = cap(&s, MAX_TEXT);
    assert!(c.len() <= MAX_TEXT && c.ends_with('…'), "{}", c.len());
    assert_eq!(cap("ab", 0), "…");
}

#[test]
fn floor_is_the_history_limits_or_ten() {
    let mut cj = CronJob::default();
    assert_eq!(floor(&cj), 10);
    cj.spec.successful_jobs_history_limit = Some(20);
    cj.spec.failed_jobs_history_limit = Some(5);
    assert_eq!(floor(&cj), 25);
    cj.spec.successful_jobs_history_limit = Some(i64::MAX);
    assert_eq!(floor(&cj), MAX_RUNS);
    cj.spec.successful_jobs_history_limit = Some(-3);
    cj.spec.failed_jobs_history_limit = Some(-3);
    assert_eq!(floor(&cj), 10);
}

#[test]
fn a_run_whose_job_is_gone_is_kept_and_marked_retained() {
    let now = t("2026-11-20T12:00:00Z");
    let mut kept = Vec::new();
    let mut failed = run("backup-1", "2026-11-20T03:00:00Z", RunOutcome::Failed);
    failed.failed_attempts.push(FailedAttempt {
        pod: "backup-1-x".into(),
        reason: "OOMKilled".into(),
        message: "out of memory".into(),
        exit_code: Some(137),
        ended: Some(t("2026-11-20T03:05:00Z")),
        times: 1,
    });
    failed.warnings.push(RetainedEvent {
        object: "Pod/backup-1-x".into(),
        reason: "BackOff".into(),
        message: "Back-off restarting failed container".into(),
        count: 3,
        last_seen: Some(t("2026-11-20T03:06:00Z")),
    });
    remember(&mut kept, vec![failed.clone()], now, 10);
    assert_eq!(kept, vec![failed.clone()]);
    // The Pod and its Events go first: the Job alone is seen, and the record keeps the rest.
    let mut bare = run("backup-1", "2026-11-20T03:00:00Z", RunOutcome::Failed);
    bare.attempts = None;
    remember(&mut kept, vec![bare], now, 10);
    assert_eq!(kept, vec![failed.clone()]);
    // Then the Job.
    remember(&mut kept, Vec::new(), now, 10);
    assert_eq!(kept.len(), 1);
    assert!(kept[0].retained);
    assert_eq!(kept[0].failed_attempts, failed.failed_attempts);
    assert_eq!(kept[0].warnings, failed.warnings);
}

#[test]
fn a_job_created_again_under_its_name_is_another_run() {
    let now = t("2026-11-20T12:00:00Z");
    let mut kept = Vec::new();
    remember(
        &mut kept,
        vec![run("b-1", "2026-11-20T03:00:00Z", RunOutcome::Failed)],
        now,
        10,
    );
    let mut again = run("b-1", "2026-11-20T03:00:00Z", RunOutcome::Succeeded);
    again.stages.job_created = Some(t("2026-11-20T04:00:00Z"));
    remember(&mut kept, vec![again], now, 10);
    assert_eq!(kept.len(), 2);
    assert_eq!(
        kept.iter().map(|r| r.retained).collect::<Vec<_>>(),
        [false, true],
        "same slot: the newer Job first, both kept"
    );
}

#[test]
fn eviction_keeps_the_floor_and_seven_days_within_the_cap() {
    let now = t("2026-11-20T12:00:00Z");
    let daily: Vec<RetainedRun> = (0..30)
        .map(|d| {
            let at = now - jiff::SignedDuration::from_hours(24 * d + 9);
            run(&format!("d-{d}"), &at.to_string(), RunOutcome::Succeeded)
        })
        .collect();
    let mut kept = Vec::new();
    remember(&mut kept, daily.clone(), now, 10);
    assert_eq!(kept.len(), 10, "floor beats 7 days for a daily CronJob");
    assert_eq!(kept[0].job, "d-0");
    let mut kept = Vec::new();
    remember(&mut kept, daily, now, 3);
    assert_eq!(kept.len(), 7, "7 days beat a floor of 3");

    // Every 10 minutes for a week: the cap holds, failures outlive uneventful successes.
    let many: Vec<RetainedRun> = (0..1000)
        .map(|i| {
            let at = now - jiff::SignedDuration::from_mins(10 * i);
            let o = if i % 100 == 0 {
                RunOutcome::Failed
            } else {
                RunOutcome::Succeeded
            };
            run(&format!("m-{i}"), &at.to_string(), o)
        })
        .collect();
    let mut kept = Vec::new();
    remember(&mut kept, many, now, 10);
    assert_eq!(kept.len(), MAX_RUNS);
    let failed = kept
        .iter()
        .filter(|r| r.outcome == RunOutcome::Failed)
        .count();
    assert_eq!(failed, 10, "all ten failures of the week are kept");
    assert!(
        kept.windows(2).all(|w| w[0].at() >= w[1].at()),
        "newest first"
    );
}

#[test]
fn records_round_trip_through_json() {
    let r = run("b-1", "2026-11-20T03:00:00Z", RunOutcome::Running);
    let j = serde_json::to_string(&r).unwrap();
    assert_eq!(serde_json::from_str::<RetainedRun>(&j).unwrap(), r);
    assert!(j.contains("\"outcome\":\"running\""), "{j}");
}

/// The per-CronJob bound of docs/monitor.md is read from these sizes (64-bit targets).
#[test]
#[cfg(target_pointer_width = "64")]
fn record_sizes_stay_what_the_docs_say() {
    use std::mem::size_of;
    assert_eq!(
        [
            size_of::<RetainedRun>(),
            size_of::<FailedAttempt>(),
            size_of::<RetainedEvent>()
        ],
        [328, 120, 104]
    );
}
