//! `unsuspend NAME` against the fake API server: the replayed preview of what resuming does
//! (the scenario suite: catch-up, deadline, too many missed, the window estimate), the exact
//! patches, and `--skip-missed` sending the status patch first.

use std::time::Duration;

use crate::cli_actions_common::*;
use fake_apiserver::{AccessRule, Fault};
use serde_json::json;

const CJ: &str = "/apis/batch/v1/namespaces/default/cronjobs/cj";
const READS: [&str; 3] = [
    "GET /version",
    "GET /apis/batch/v1/namespaces/default/cronjobs/cj",
    "GET /apis/batch/v1/namespaces/default/jobs?limit=500",
];

fn rv(live: &Live) -> String {
    live.object("cronjobs", "default", "cj")["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The preview alone (`--dry-run=client` sends nothing), for the scenario suite.
fn preview(fixture: &str, now: &str, extra: &[&str]) -> String {
    let live = Live::new(fixture, now, "default");
    let mut args = vec!["unsuspend", "cj", "--dry-run=client"];
    args.extend_from_slice(extra);
    let out = live.run(&args);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(live.lines(), READS, "reads only");
    out.stdout
}

/// Spec E23 (the ux.md sketch): ONE catch-up run for 11:00, 09:00 and 10:00 never run.
#[test]
fn preview_catch_up_e23() {
    let text = preview("e23-resume.yaml", "2024-01-01T11:20:00Z", &[]);
    assert!(text.contains("for the slot 2024-01-01 11:00 UTC (Job cj-28401780, 20m late)"));
    insta::assert_snapshot!(text);
}

/// Spec E24: startingDeadlineSeconds 600 excludes the 11:00 slot at 11:20.
#[test]
fn preview_no_catch_up_because_of_the_deadline_e24() {
    let text = preview("e24-deadline.yaml", "2024-01-01T11:20:00Z", &[]);
    assert!(text.contains("no catch-up run: the latest missed slot, 2024-01-01 11:00 UTC, is older than startingDeadlineSeconds (600s)"));
    assert!(!text.contains("--skip-missed"), "nothing to skip: {text}");
    insta::assert_snapshot!(text);
}

/// Spec E4: 108 missed slots: the latest runs, and TooManyMissedTimes is recorded.
#[test]
fn preview_too_many_missed_e4() {
    let text = preview("e4-too-many-missed.yaml", "2024-01-05T12:34:00Z", &[]);
    assert!(text.contains("TooManyMissedTimes"));
    assert!(text.contains("Job cj-28407600"));
    insta::assert_snapshot!(text);
}

/// Spec E12: a weekday schedule resumed on Sunday: the estimate misses Friday 09:00.
#[test]
fn preview_skipped_by_the_estimate_e12() {
    let text = preview("e12-weekday.yaml", "2024-01-07T12:00:00Z", &[]);
    assert!(text.contains("the controller's estimate misses the 2024-01-05 09:00 UTC slot"));
    insta::assert_snapshot!(text);
}

#[test]
fn preview_with_skip_missed() {
    let text = preview(
        "e23-resume.yaml",
        "2024-01-01T11:20:00Z",
        &["--skip-missed"],
    );
    insta::assert_snapshot!(text);
}

#[test]
fn resumes_with_one_merge_patch_and_a_precondition() {
    let live = Live::new("e24-deadline.yaml", "2024-01-01T11:20:00Z", "default");
    let before = rv(&live);
    let out = live.run(&["unsuspend", "cj", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    let mut expected: Vec<String> = READS.iter().map(|s| s.to_string()).collect();
    expected.push(format!(
        "PATCH {CJ}?dryRun=All&fieldManager=kubectl-cronjob-doctor"
    ));
    expected.push(format!("PATCH {CJ}?fieldManager=kubectl-cronjob-doctor"));
    assert_eq!(live.lines(), expected);
    for w in live.writes() {
        assert_eq!(
            w.content_type.as_deref(),
            Some("application/merge-patch+json")
        );
        assert_eq!(
            w.body,
            Some(json!({"metadata": {"resourceVersion": before}, "spec": {"suspend": false}}))
        );
    }
    let after = live.object("cronjobs", "default", "cj");
    assert_eq!(after["spec"]["suspend"], false);
    insta::assert_snapshot!(out.stdout);
}

/// The status patch goes first, while the CronJob is still suspended; the spec patch then
/// names the resourceVersion the status patch produced.
#[test]
fn skip_missed_sends_the_status_patch_first() {
    let live = Live::new("e23-resume.yaml", "2024-01-01T11:20:00Z", "default");
    let rv0 = rv(&live);
    let out = live.run(&["unsuspend", "cj", "--skip-missed", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    let w = live.writes();
    let lines: Vec<String> = w.iter().map(|r| r.line()).collect();
    assert_eq!(
        lines,
        [
            format!("PATCH {CJ}/status?dryRun=All&fieldManager=kubectl-cronjob-doctor"),
            format!("PATCH {CJ}?dryRun=All&fieldManager=kubectl-cronjob-doctor"),
            format!("PATCH {CJ}/status?fieldManager=kubectl-cronjob-doctor"),
            format!("PATCH {CJ}?fieldManager=kubectl-cronjob-doctor"),
        ]
    );
    let status = json!({"metadata": {"resourceVersion": rv0}, "status": {"lastScheduleTime": "2024-01-01T11:00:00Z"}});
    let resume = |rv: &str| {
        json!({"metadata": {"resourceVersion": rv, "annotations": {
            "cronjob-doctor.io/suspended-by": null, "cronjob-doctor.io/suspended-at": null,
            "cronjob-doctor.io/suspend-reason": null}}, "spec": {"suspend": false}})
    };
    assert_eq!(w[0].body, Some(status.clone()));
    assert_eq!(w[1].body, Some(resume(&rv0)));
    assert_eq!(w[2].body, Some(status));
    let rv1 = (rv0.parse::<u64>().unwrap() + 1).to_string();
    assert_eq!(
        w[3].body,
        Some(resume(&rv1)),
        "the precondition follows the status write"
    );
    let after = live.object("cronjobs", "default", "cj");
    assert_eq!(after["spec"]["suspend"], false);
    assert_eq!(after["status"]["lastScheduleTime"], "2024-01-01T11:00:00Z");
    assert!(
        after["metadata"]["annotations"]
            .get("cronjob-doctor.io/suspended-by")
            .is_none()
    );
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn skip_missed_needs_patch_on_the_status_subresource() {
    let objects = fake_apiserver::load_fixture_file(fixture("e23-resume.yaml")).unwrap();
    let live = Live::with(objects, "2024-01-01T11:20:00Z", "default", |b| {
        b.rule(AccessRule::deny("patch", "cronjobs/status"))
    });
    let out = live.run(&["unsuspend", "cj", "--skip-missed", "--yes"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("PATCH cronjobs/cj/status (server-side dry run) was refused")
            && out.stderr.contains("patch on cronjobs/status")
            && out.stderr.contains("deploy/rbac/operator.yaml"),
        "{}",
        out.stderr
    );
    assert_eq!(live.writes().len(), 1, "stopped at the first dry run");
    assert_eq!(
        live.object("cronjobs", "default", "cj")["spec"]["suspend"],
        true
    );
}

#[test]
fn not_suspended_means_nothing_to_do() {
    let live = Live::new("e23-resume.yaml", "2024-01-01T11:20:00Z", "default");
    let mut cj = live.object("cronjobs", "default", "cj");
    cj["spec"]["suspend"] = json!(false);
    live.server.put_object(cj).unwrap();
    let out = live.run(&["unsuspend", "cj", "--skip-missed", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stdout,
        "cronjob default/cj is not suspended: nothing to do, nothing was changed. (--skip-missed applies only when resuming.)\n"
    );
    assert!(live.writes().is_empty());
}

/// A write lands between our status patch and our spec patch: the spec patch gets 409, the
/// command reads again, sees lastScheduleTime already moved (no second status patch), and
/// resumes with the new resourceVersion.
#[test]
fn a_conflict_after_the_status_patch_is_re_evaluated() {
    let live = Live::new("e23-resume.yaml", "2024-01-01T11:20:00Z", "default");
    // The second PATCH of the spec (after its dry run) is held while another writer bumps
    // the object; the status path does not match the fault.
    live.server.inject(
        Fault::delay("patch", CJ, Duration::from_millis(500))
            .after(1)
            .once(),
    );
    let out = std::thread::scope(|sc| {
        let run = sc.spawn(|| live.run(&["unsuspend", "cj", "--skip-missed", "--yes"]));
        eventually(|| live.writes().len() >= 4);
        let mut cj = live.object("cronjobs", "default", "cj");
        cj["metadata"]["labels"] = json!({"touched-by": "someone-else"});
        live.server.put_object(cj).unwrap();
        run.join().unwrap()
    });
    assert_eq!(out.code, 0, "{out:?}");
    let w = live.writes();
    let statuses: Vec<u16> = w.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [200, 200, 200, 409, 200, 200],
        "{:?}",
        live.lines()
    );
    assert!(
        w[4].path.ends_with("/cj") && w[5].path.ends_with("/cj"),
        "no second status patch"
    );
    let bumped = rv(&live);
    let sent = w[5].body.as_ref().unwrap()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap();
    assert_eq!((bumped.parse::<u64>().unwrap() - 1).to_string(), sent);
    insta::assert_snapshot!(out.stdout);
}
