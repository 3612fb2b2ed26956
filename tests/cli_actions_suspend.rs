//! `suspend NAME` against the fake API server: exactly one merge patch (spec.suspend and the
//! who/when/why annotations) with a resourceVersion precondition, after a server-side dry
//! run; a concurrent edit is re-read and never overwritten; `explain` shows the annotations.

use std::time::Duration;

use crate::cli_actions_common::*;
use fake_apiserver::Fault;
use serde_json::{Value, json};

const NOW: &str = "2026-11-20T12:05:00Z";
const CJ: &str = "/apis/batch/v1/namespaces/ops/cronjobs/report";

fn rv(live: &Live) -> String {
    live.object("cronjobs", "ops", "report")["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string()
}

fn suspend_body(rv: &str, by: &str, reason: Option<&str>) -> Value {
    json!({"metadata": {"resourceVersion": rv, "annotations": {
        "cronjob-doctor.io/suspended-by": by,
        "cronjob-doctor.io/suspended-at": NOW,
        "cronjob-doctor.io/suspend-reason": reason}},
        "spec": {"suspend": true}})
}

#[test]
fn one_merge_patch_records_who_when_and_why() {
    let live = Live::new("report.yaml", NOW, "ops");
    let rv0 = rv(&live);
    let out = live.run(&["suspend", "report", "--reason", "db migration", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        live.lines(),
        [
            format!("GET {CJ}"),
            format!("PATCH {CJ}?dryRun=All&fieldManager=kubectl-cronjob-doctor"),
            format!("PATCH {CJ}?fieldManager=kubectl-cronjob-doctor"),
        ]
    );
    for w in live.writes() {
        assert_eq!(
            w.content_type.as_deref(),
            Some("application/merge-patch+json")
        );
        assert_eq!(
            w.body,
            Some(suspend_body(&rv0, "tester", Some("db migration")))
        );
    }
    let after = live.object("cronjobs", "ops", "report");
    assert_eq!(after["spec"]["suspend"], true);
    assert_eq!(
        after["metadata"]["managedFields"][0]["manager"],
        "kubectl-cronjob-doctor"
    );
    insta::assert_snapshot!(out.stdout);

    // Three days later, `explain` says who, when and why.
    live.server
        .set_clock("2026-11-23T12:05:00Z".parse().unwrap());
    let explained = live.run(&["explain", "report", "-n", "ops"]);
    assert!(
        explained
            .stdout
            .contains("report is not running: suspended 3d ago by tester"),
        "{explained:?}"
    );
    // The findings column wraps; the words are what matters.
    let words = explained
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("suspended 3d ago (2026-11-20 13:05 CET) by tester, reason: db migration;"),
        "{explained:?}"
    );
}

#[test]
fn by_overrides_the_login_name_and_no_reason_clears_an_old_one() {
    let live = Live::new("report.yaml", NOW, "ops");
    let rv0 = rv(&live);
    let out = live.run(&["suspend", "report", "--by", "oncall-bob", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        live.writes()[1].body,
        Some(suspend_body(&rv0, "oncall-bob", None))
    );
}

#[test]
fn already_suspended_is_left_alone() {
    let live = Live::new("e24-deadline.yaml", "2024-01-01T11:20:00Z", "default");
    let out = live.run(&["suspend", "cj", "--reason", "again", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stdout,
        "cronjob default/cj is already suspended (suspended 2h 50m ago by kubectl-patch): nothing to do, nothing was changed.\n"
    );
    assert!(live.writes().is_empty());
}

#[test]
fn without_a_terminal_and_without_yes_nothing_is_patched() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&["suspend", "report"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("stdin is not a terminal")
            && out.stderr.contains("nothing was changed")
    );
    let w = live.writes();
    assert_eq!(w.len(), 1);
    assert_eq!(
        query(&w[0]),
        ["dryRun=All", "fieldManager=kubectl-cronjob-doctor"]
    );
    assert_eq!(
        live.object("cronjobs", "ops", "report")["spec"].get("suspend"),
        None
    );
}

#[test]
fn dry_run_client_sends_nothing() {
    let live = Live::new("report.yaml", NOW, "ops");
    let rv0 = rv(&live);
    let out = live.run(&["suspend", "report", "--dry-run=client"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(live.writes().is_empty());
    let body = out
        .stdout
        .split("Content-Type: application/merge-patch+json\n")
        .nth(1)
        .unwrap();
    let sent: Value = serde_json::from_str(body).unwrap();
    assert_eq!(sent, suspend_body(&rv0, "tester", None));
    assert!(
        out.stdout
            .contains(&format!("PATCH {CJ}?fieldManager=kubectl-cronjob-doctor\n"))
    );
}

#[test]
fn dry_run_server_sends_only_the_dry_run() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&["suspend", "report", "--dry-run=server"]);
    assert_eq!(out.code, 0, "{out:?}");
    let w = live.writes();
    assert_eq!(w.len(), 1);
    assert_eq!(
        query(&w[0]),
        ["dryRun=All", "fieldManager=kubectl-cronjob-doctor"]
    );
    assert!(
        out.stdout
            .contains("It would read:\n  spec.suspend: false → true\n"),
        "{}",
        out.stdout
    );
    assert_eq!(
        live.object("cronjobs", "ops", "report")["spec"].get("suspend"),
        None
    );
}

/// Someone edits the CronJob between our read and our patch: the server refuses our patch
/// (409), we read again, show what changed, and patch the new version — their edit stays.
#[test]
fn a_concurrent_edit_is_re_read_and_kept() {
    let live = Live::new("report.yaml", NOW, "ops");
    live.server
        .inject(Fault::delay("patch", CJ, Duration::from_millis(500)).once());
    let out = std::thread::scope(|sc| {
        let run = sc.spawn(|| live.run(&["suspend", "report", "--yes"]));
        eventually(|| !live.writes().is_empty());
        let mut cj = live.object("cronjobs", "ops", "report");
        cj["spec"]["schedule"] = json!("0 7 * * *");
        live.server.put_object(cj).unwrap();
        run.join().unwrap()
    });
    assert_eq!(out.code, 0, "{out:?}");
    let w = live.writes();
    assert_eq!(
        w.iter().map(|r| r.status).collect::<Vec<_>>(),
        [409, 200, 200]
    );
    let bumped = rv(&live);
    let sent = |i: usize| w[i].body.as_ref().unwrap()["metadata"]["resourceVersion"].clone();
    assert_ne!(sent(0), sent(1));
    assert_eq!(sent(1), sent(2));
    assert_eq!((bumped.parse::<u64>().unwrap() - 1).to_string(), sent(2));
    let after = live.object("cronjobs", "ops", "report");
    assert_eq!(after["spec"]["schedule"], "0 7 * * *", "their edit is kept");
    assert_eq!(after["spec"]["suspend"], true);
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn endless_conflicts_give_up_after_three_retries() {
    let live = Live::new("report.yaml", NOW, "ops");
    live.server.inject(Fault::status(
        "patch",
        CJ,
        409,
        "Conflict",
        "Operation cannot be fulfilled on cronjobs.batch \"report\": the object has been modified",
    ));
    let out = live.run(&["suspend", "report", "--yes"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("409 Conflict again, 4 times in a row"),
        "{}",
        out.stderr
    );
    let lines = live.lines();
    assert_eq!(lines.len(), 8, "{lines:?}");
    for pair in lines.chunks(2) {
        assert_eq!(pair[0], format!("GET {CJ}"));
        assert_eq!(
            pair[1],
            format!("PATCH {CJ}?dryRun=All&fieldManager=kubectl-cronjob-doctor")
        );
    }
    assert!(
        out.stdout
            .contains("Re-read it: nothing this command looks at changed.")
    );
}
