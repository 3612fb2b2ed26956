//! What "now" means for files (issue: "the same answer on any day"). The data is built
//! relative to the clock the test runs at, so these pass on any date and under `faketime`.

use assert_cmd::Command;
use jiff::{SignedDuration, Timestamp};

fn doctor() -> Command {
    let mut c = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
    c.env("NO_COLOR", "1").env("COLUMNS", "100");
    c
}

/// An hourly CronJob whose last run (and Job) was `ago` before the test's clock.
fn dump(ago: SignedDuration) -> String {
    let last = Timestamp::now()
        .checked_sub(ago)
        .unwrap()
        .round(jiff::Unit::Hour)
        .unwrap();
    let done = last.checked_add(SignedDuration::from_secs(60)).unwrap();
    let minutes = last.as_second() / 60;
    format!(
        r#"apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: CronJob
  metadata: {{name: hourly, namespace: ops, uid: cj-1, creationTimestamp: "2025-01-01T00:00:00Z"}}
  spec:
    schedule: "0 * * * *"
    timeZone: Etc/UTC
    jobTemplate: {{spec: {{activeDeadlineSeconds: 600, template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}}}}}}}
  status: {{lastScheduleTime: "{last}", lastSuccessfulTime: "{done}"}}
- apiVersion: batch/v1
  kind: Job
  metadata:
    name: hourly-{minutes}
    namespace: ops
    uid: job-1
    creationTimestamp: "{last}"
    ownerReferences: [{{apiVersion: batch/v1, kind: CronJob, name: hourly, uid: cj-1, controller: true}}]
  status:
    startTime: "{last}"
    completionTime: "{done}"
    succeeded: 1
    conditions: [{{type: Complete, status: "True"}}]
"#
    )
}

fn run(args: &[&str], input: &str) -> (String, String, i32) {
    let out = doctor().args(args).write_stdin(input).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn an_old_dump_is_said_to_be_old_and_judged_as_of_itself_with_now_dump() {
    let old = dump(SignedDuration::from_hours(24 * 7));
    // At the wall clock a week-old dump of an hourly CronJob is an outage, and the note says
    // the input may simply be old.
    let (out, _, code) = run(&["explain", "-f", "-"], &old);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("note: the newest timestamp in the input is"),
        "{out}"
    );
    assert!(out.contains("add --now dump"), "{out}");
    // As of the dump itself it was healthy.
    let (out, err, code) = run(&["explain", "-f", "-", "--now", "dump"], &old);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("✓ hourly is on schedule"), "{out}");
    assert!(!out.contains("note: the newest timestamp"), "{out}");
}

#[test]
fn a_fresh_dump_gets_no_note() {
    let fresh = dump(SignedDuration::from_mins(30));
    let (out, _, _) = run(&["explain", "-f", "-"], &fresh);
    assert!(!out.contains("note: the newest timestamp"), "{out}");
}

#[test]
fn lint_judges_a_dump_at_the_clock_and_offers_now_dump() {
    // A dump's own times cannot date it during an outage, so lint judges at the clock (an old
    // healthy dump then shows the runs it would have missed by now) and says how to judge it
    // as of itself.
    let old = dump(SignedDuration::from_hours(24 * 400));
    let (out, err, code) = run(&["lint", "-f", "-"], &old);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("not-running"), "{out}");
    assert!(
        err.contains("note: the newest timestamp in the input is"),
        "{err}"
    );
    assert!(err.contains("--now dump"), "{err}");
    // As of the dump, the same input is healthy, on any day.
    let (out, err, code) = run(&["lint", "-f", "-", "--now", "dump"], &old);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("not-running"), "{out}");
}

#[test]
fn now_dump_needs_a_timestamp_and_is_refused_against_a_cluster() {
    let manifest = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: m}\nspec:\n  schedule: \"0 3 * * *\"\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}\n";
    let (_, err, code) = run(&["explain", "-f", "-", "--now", "dump"], manifest);
    assert_eq!(code, 2);
    assert!(
        err.contains("--now dump: the input carries no timestamp"),
        "{err}"
    );
    let (_, err, code) = run(&["explain", "m", "--now", "dump"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--now dump judges -f input"), "{err}");
}
