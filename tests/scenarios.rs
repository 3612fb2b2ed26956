//! The scenario suite: real user reports (each fixture is named after its upstream issue) run
//! through the binary as a user would, checking the controller decision, its events, the
//! requeue and the findings. Expected values are derived from the behavioural spec
//! (shared/reference/kubernetes-cronjob-semantics.md, sections B and E), not from our output.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::{field_of_each, fix_replay, strings};

struct Expect<'a> {
    file: &'a str,
    now: &'a str,
    kube_version: Option<&'a str>,
    decision: &'a str,
    job_name: Option<&'a str>,
    events: &'a [&'a str],
    requeue_ms: Option<i64>,
    slugs: &'a [&'a str],
    headline_contains: Option<&'a str>,
}

fn check(e: &Expect) {
    let mut cmd = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1");
    cmd.args([
        "explain",
        "-f",
        &format!("tests/fixtures/scenarios/{}", e.file),
        "--now",
        e.now,
        "-o",
        "json",
    ]);
    if let Some(v) = e.kube_version {
        cmd.args(["--kube-version", v]);
    }
    let out = cmd.output().unwrap();
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|err| panic!("{}: {err}", e.file));
    assert!(
        v["errors"].as_array().unwrap().is_empty(),
        "{}: {}",
        e.file,
        v["errors"]
    );
    let cj = &v["cronJobs"][0];
    let c = &cj["controller"];
    assert_eq!(c["decision"], e.decision, "{}: decision", e.file);
    assert_eq!(c["jobName"].as_str(), e.job_name, "{}: job name", e.file);
    let events: Vec<&str> = strings(&c["events"]);
    assert_eq!(events, e.events, "{}: events", e.file);
    if let Some(ms) = e.requeue_ms {
        assert_eq!(c["requeueAfterMs"], ms, "{}: requeue", e.file);
    }
    let slugs: Vec<&str> = field_of_each(&cj["findings"], "slug");
    for s in e.slugs {
        assert!(
            slugs.contains(s),
            "{}: expected finding {s}, got {slugs:?}",
            e.file
        );
    }
    if let Some(h) = e.headline_contains {
        assert!(
            cj["headline"].as_str().unwrap().contains(h),
            "{}: headline {}",
            e.file,
            cj["headline"]
        );
    }
    // The scenario's fix plan, pasted, leaves a CronJob that replays clean of what it claims.
    fix_replay::verify(
        &format!("tests/fixtures/scenarios/{}", e.file),
        e.now,
        e.kube_version,
    );
}

#[test]
fn kubernetes_121594_second_run_in_the_repeated_hour() {
    // 02:00 CET on the fall-back night is a second match (spec A.6, E19): a second Job.
    check(&Expect {
        file: "kubernetes-121594-dst-double-run.yaml",
        now: "2026-10-25T01:00:00.5Z",
        kube_version: None,
        decision: "create",
        job_name: Some("nightly-29881500"),
        events: &["SuccessfulCreate"],
        requeue_ms: Some(24 * 3600 * 1000 - 500 + 100),
        // The next repeated hour (2027-10-31) is beyond the rules' 12-month horizon; the
        // spring gap of 2027-03-28 is within it.
        slugs: &["dst-gap"],
        headline_contains: None,
    });
}

#[test]
fn kubernetes_86647_sync_later_than_the_deadline_skips_silently() {
    // earliest = now − 10 s lies after the 01:00 slot: nothing, no event (spec B.3 N2, E28).
    check(&Expect {
        file: "kubernetes-86647-tiny-deadline.yaml",
        now: "2026-11-20T01:00:15Z",
        kube_version: None,
        decision: "missed-deadline",
        job_name: None,
        events: &[],
        // The requeue ignores the deadline: Next(01:00 slot) + 100 ms − now.
        requeue_ms: Some(24 * 3600 * 1000 - 15_000 + 100),
        slugs: &["starting-deadline-too-small", "deadline-missed"],
        headline_contains: None,
    });
}

#[test]
fn kubernetes_42649_more_than_100_missed_starts_per_release() {
    // 120 missed slots. v2: warning, the latest slot still runs (spec B.5, E8) …
    check(&Expect {
        file: "kubernetes-42649-too-many-missed.yaml",
        now: "2026-11-20T12:00:00Z",
        kube_version: None,
        decision: "create",
        job_name: Some("heartbeat-29919600"),
        events: &["TooManyMissedTimes", "SuccessfulCreate"],
        requeue_ms: Some(60_100),
        slugs: &["too-many-missed"],
        headline_contains: None,
    });
    // … the legacy controller stops for good (spec C.1, E4).
    check(&Expect {
        file: "kubernetes-42649-too-many-missed.yaml",
        now: "2026-11-20T12:00:00Z",
        kube_version: Some("1.20"),
        decision: "invalid-schedule",
        job_name: None,
        events: &["FailedNeedsStart"],
        requeue_ms: None,
        slugs: &["too-many-missed"],
        headline_contains: None,
    });
}

#[test]
fn kube_downscaler_112_deadline_zero_never_runs() {
    // earliest = now, Next(now) > now: never due (spec E27).
    check(&Expect {
        file: "kube-downscaler-112-deadline-zero.yaml",
        now: "2026-11-20T12:00:00Z",
        kube_version: None,
        decision: "missed-deadline",
        job_name: None,
        events: &[],
        requeue_ms: Some(3_600_100),
        slugs: &["starting-deadline-too-small"],
        headline_contains: Some("never runs"),
    });
}

#[test]
fn kubernetes_104012_every_requeue_per_release() {
    // Spec E9: the 11:00:30 slot; 1.29+ requeues from it (59m59.1s) …
    check(&Expect {
        file: "kubernetes-104012-every-drift.yaml",
        now: "2024-01-01T11:00:31Z",
        kube_version: None,
        decision: "create",
        job_name: Some("poller-28401780"),
        events: &["SuccessfulCreate"],
        requeue_ms: Some(3_599_100),
        slugs: &["every-schedule"],
        headline_contains: None,
    });
    // … 1.21–1.24 requeued Next(now) + 100 ms: the phase drifts by a second.
    check(&Expect {
        file: "kubernetes-104012-every-drift.yaml",
        now: "2024-01-01T11:00:31Z",
        kube_version: Some("1.24"),
        decision: "create",
        job_name: Some("poller-28401780"),
        events: &["SuccessfulCreate"],
        requeue_ms: Some(3_600_100),
        slugs: &["every-schedule"],
        headline_contains: None,
    });
}

#[test]
fn kubernetes_126384_manual_job_does_not_block_forbid() {
    check(&Expect {
        file: "kubernetes-126384-manual-job-forbid.yaml",
        now: "2026-11-20T12:00:00.2Z",
        kube_version: None,
        decision: "create",
        job_name: Some("backup-29919600"),
        events: &["SuccessfulCreate"],
        requeue_ms: None,
        slugs: &["manual-jobs-ignored"],
        headline_contains: None,
    });
}

#[test]
fn open_infra_104_pod_stuck_terminating_blocks_forbid() {
    check(&Expect {
        file: "open-infra-104-pod-stuck-terminating.yaml",
        now: "2026-11-20T12:00:00Z",
        kube_version: None,
        decision: "forbid-blocked",
        job_name: Some("sync-29919600"),
        events: &["JobAlreadyActive"],
        requeue_ms: Some(3_600_100),
        slugs: &["forbid-blocked"],
        headline_contains: Some("stuck Terminating on node node-7"),
    });
}

#[test]
fn schedule_traps_from_the_field() {
    for file in [
        "rke2-docs-38-every-minute-of-the-hour.yaml",
        "kubewarden-1758-step-60.yaml",
    ] {
        let mut cmd = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
        let out = cmd
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "lint",
                "-f",
                &format!("tests/fixtures/scenarios/{file}"),
                "--now",
                "2026-11-20T12:00:00Z",
            ])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("suspicious-schedule"), "{file}: {text}");
        assert_eq!(out.status.code(), Some(1), "{file}");
    }
}

#[test]
fn zalando_3227_schedule_that_never_matches() {
    // Next returns the zero time: the gap error → InvalidSchedule, no requeue (spec P10).
    check(&Expect {
        file: "zalando-3227-never-matches.yaml",
        now: "2026-11-20T12:00:00Z",
        kube_version: None,
        decision: "invalid-schedule",
        job_name: None,
        events: &["InvalidSchedule"],
        requeue_ms: None,
        slugs: &["never-fires"],
        headline_contains: Some("never runs"),
    });
}

#[test]
fn kubernetes_116252_tz_prefix_warns_every_sync() {
    // 03:00 Berlin = 02:00Z in November; UnsupportedSchedule precedes the create (spec B.6).
    check(&Expect {
        file: "kubernetes-116252-tz-prefix.yaml",
        now: "2026-11-20T02:00:00.5Z",
        kube_version: None,
        decision: "create",
        job_name: Some("legacy-tz-29919000"),
        events: &["UnsupportedSchedule", "SuccessfulCreate"],
        requeue_ms: None,
        slugs: &["tz-in-schedule"],
        headline_contains: None,
    });
}

#[test]
fn spec_e12_weekday_schedule_resumed_on_sunday() {
    check(&Expect {
        file: "spec-e12-weekday-resume.yaml",
        now: "2024-01-07T12:00:00Z",
        kube_version: None,
        decision: "nothing-due",
        job_name: None,
        events: &[],
        requeue_ms: Some(21 * 3600 * 1000 + 100),
        slugs: &["missed-slot-skipped"],
        headline_contains: None,
    });
}
