//! `trigger NAME` against the fake API server: the exact requests of each path (permission
//! check, server-side dry run, create), the preview it shows before acting, and `--wait`.

use crate::cli_actions_common::*;
use fake_apiserver::AccessRule;
use serde_json::{Value, json};

const NOW: &str = "2026-11-20T12:05:00Z";
const JOBS: &str = "/apis/batch/v1/namespaces/ops/jobs";
const SSAR: &str = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

/// What `kubectl create job NAME --from=cronjob/CJ` would send, from the stored CronJob.
fn planned(live: &Live, cj: &str, job: &str) -> Value {
    doctor::actions::trigger::plan_job(&live.object("cronjobs", "ops", cj), job).unwrap()
}

fn ssar_body() -> Value {
    json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
           "spec": {"resourceAttributes": {"namespace": "ops", "verb": "create", "group": "batch", "resource": "jobs"}}})
}

#[test]
fn creates_the_job_after_access_review_and_dry_run() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&[
        "trigger",
        "report",
        "--job-name",
        "report-manual-abcde",
        "--yes",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        live.lines(),
        [
            "GET /apis/batch/v1/namespaces/ops/cronjobs/report",
            "GET /apis/batch/v1/namespaces/ops/jobs?limit=500",
            &format!("POST {SSAR}"),
            &format!("POST {JOBS}?dryRun=All&fieldManager=kubectl-cronjob-doctor"),
            &format!("POST {JOBS}?fieldManager=kubectl-cronjob-doctor"),
        ]
    );
    let w = live.writes();
    let job = planned(&live, "report", "report-manual-abcde");
    assert_eq!(w[0].body, Some(ssar_body()));
    for r in &w[1..] {
        assert_eq!(r.content_type.as_deref(), Some("application/json"));
        assert_eq!(
            r.body.as_ref(),
            Some(&job),
            "the Job is plan_job's, unchanged"
        );
    }
    let created = live.object("jobs", "ops", "report-manual-abcde");
    assert_eq!(
        created["metadata"]["annotations"]["cronjob.kubernetes.io/instantiate"],
        "manual"
    );
    assert_eq!(
        created["metadata"]["managedFields"][0]["manager"],
        "kubectl-cronjob-doctor"
    );
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn the_default_name_is_cronjob_manual_and_five_random_characters() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&["trigger", "report", "--yes"]);
    assert_eq!(out.code, 0, "{out:?}");
    let w = live.writes();
    let name = w[2].body.as_ref().unwrap()["metadata"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let suffix = name.strip_prefix("report-manual-").unwrap();
    assert_eq!(suffix.len(), 5, "{name}");
    assert!(
        suffix
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    );
    assert_eq!(w[1].body, w[2].body, "the dry run tested the very same Job");
    assert_eq!(w[2].body.as_ref(), Some(&planned(&live, "report", &name)));
}

/// kubernetes#126384: with Forbid, a manual Job does not wait for the running scheduled one
/// and does not block the next; the preview says so, and lists what is running.
#[test]
fn forbid_with_a_running_job_is_explained_before_acting() {
    let live = Live::new("backup-forbid.yaml", NOW, "ops");
    let out = live.run(&[
        "trigger",
        "backup",
        "--job-name",
        "backup-manual-t1",
        "--yes",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains(
        "concurrencyPolicy Forbid: the manual run will not block the schedule, and a running scheduled Job means two run at once"
    ));
    assert!(
        out.stdout
            .contains("(running now: backup-29919600 (started 4m59s ago))")
    );
    insta::assert_snapshot!(out.stdout);
    assert_eq!(live.writes().len(), 3);
}

#[test]
fn without_permission_nothing_is_created() {
    let objects = fake_apiserver::load_fixture_file(fixture("report.yaml")).unwrap();
    let live = Live::with(objects, NOW, "ops", |b| {
        b.rule(AccessRule::deny("create", "jobs").in_namespace("ops"))
    });
    let out = live.run(&[
        "trigger",
        "report",
        "--job-name",
        "report-manual-x",
        "--yes",
    ]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("you may not create jobs in namespace ops")
            && out.stderr.contains("nothing was created")
            && out.stderr.contains("deploy/rbac/operator.yaml"),
        "{}",
        out.stderr
    );
    let w = live.writes();
    assert_eq!(w.len(), 1, "only the SelfSubjectAccessReview");
    assert_eq!(w[0].path, SSAR);
    assert_eq!(w[0].body, Some(ssar_body()));
    assert_eq!(live.server.count("jobs"), 0);
}

#[test]
fn without_a_terminal_and_without_yes_nothing_is_created() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&["trigger", "report", "--job-name", "report-manual-x"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("stdin is not a terminal"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("nothing was created") && out.stderr.contains("--yes"));
    let w = live.writes();
    assert_eq!(w.len(), 2, "access review and dry run only");
    assert_eq!(
        query(&w[1]),
        ["dryRun=All", "fieldManager=kubectl-cronjob-doctor"]
    );
    assert_eq!(live.server.count("jobs"), 0);
}

#[test]
fn dry_run_client_sends_nothing_and_prints_the_job() {
    let live = Live::new("backup-forbid.yaml", NOW, "ops");
    let out = live.run(&[
        "trigger",
        "backup",
        "--job-name",
        "backup-manual-t2",
        "--dry-run=client",
        "-o",
        "json",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(live.writes().is_empty(), "{:?}", live.lines());
    let printed: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(printed, planned(&live, "backup", "backup-manual-t2"));
    assert!(out.stderr.contains("--dry-run=client: nothing was sent"));
    assert!(
        out.stderr.contains("concurrencyPolicy Forbid"),
        "the preview goes to stderr"
    );
}

/// A `--job-name` the API server would refuse (over 63 characters, the Pods' `job-name`
/// label) is said before anything is written, even with `--dry-run=client`.
#[test]
fn a_job_name_the_api_server_refuses_is_said_before_any_write() {
    let live = Live::new("report.yaml", NOW, "ops");
    let long = format!("report-manual-{}", "x".repeat(50));
    for dry_run in ["--dry-run=client", "--dry-run=server", "--yes"] {
        let out = live.run(&["trigger", "report", "--job-name", &long, dry_run]);
        assert_eq!(out.code, 2, "{out:?}");
        assert!(
            out.stderr.contains("has 64 characters") && out.stderr.contains("manualSelector"),
            "{}",
            out.stderr
        );
        assert!(live.writes().is_empty(), "{:?}", live.lines());
    }
}

#[test]
fn dry_run_client_prints_yaml_by_default() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&[
        "trigger",
        "report",
        "--job-name",
        "report-manual-y",
        "--dry-run=client",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    let yaml = out.stdout.split("The Job would be:\n").nth(1).unwrap();
    let printed: Value = serde_saphyr::from_str(yaml).unwrap();
    assert_eq!(printed, planned(&live, "report", "report-manual-y"));
}

#[test]
fn dry_run_server_sends_only_the_dry_run() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&[
        "trigger",
        "report",
        "--job-name",
        "report-manual-z",
        "--dry-run=server",
        "-o",
        "json",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    let w = live.writes();
    assert_eq!(w.len(), 1, "{:?}", live.lines());
    assert_eq!(w[0].method, "POST");
    assert_eq!(w[0].path, JOBS);
    assert_eq!(
        query(&w[0]),
        ["dryRun=All", "fieldManager=kubectl-cronjob-doctor"]
    );
    assert_eq!(
        w[0].body.as_ref(),
        Some(&planned(&live, "report", "report-manual-z"))
    );
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(answer["metadata"]["name"], "report-manual-z");
    assert_eq!(live.server.count("jobs"), 0);
}

#[test]
fn dry_run_and_wait_do_not_mix() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&["trigger", "report", "--dry-run=server", "--wait"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(live.lines().is_empty());
}

/// Runs `trigger … --wait` while another thread plays the Job controller: once the create
/// arrives it stores `pod` and then the finished `status`.
fn wait_for(job: &str, pod: Value, status: Value) -> (Out, Vec<String>) {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = std::thread::scope(|sc| {
        let run =
            sc.spawn(|| live.run(&["trigger", "report", "--job-name", job, "--yes", "--wait"]));
        eventually(|| live.server.count("jobs") == 1);
        live.server.put_object(pod).unwrap();
        let mut j = live.object("jobs", "ops", job);
        j["status"] = status;
        live.server.put_object(j).unwrap();
        run.join().unwrap()
    });
    (out, live.lines())
}

fn pod(job: &str, phase: &str, container_state: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": format!("{job}-p1"), "namespace": "ops",
                        "labels": {"batch.kubernetes.io/job-name": job, "job-name": job}},
           "spec": {"containers": [{"name": "report", "image": "registry.example/report:1.4"}]},
           "status": {"phase": phase, "containerStatuses": [{"name": "report", "image": "registry.example/report:1.4", "ready": false, "restartCount": 0, "state": container_state}]}})
}

#[test]
fn wait_follows_the_job_to_completion() {
    let job = "report-manual-w1";
    let (out, lines) = wait_for(
        job,
        pod(
            job,
            "Succeeded",
            json!({"terminated": {"exitCode": 0, "reason": "Completed"}}),
        ),
        json!({"startTime": NOW, "completionTime": "2026-11-20T12:06:30Z", "succeeded": 1,
               "conditions": [{"type": "Complete", "status": "True"}]}),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(&format!("  pod {job}-p1: Succeeded\n")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with(&format!(
            "job {job} completed after 1m30s (1 Pod succeeded)\n"
        )),
        "{}",
        out.stdout
    );
    let polls: Vec<&String> = lines.iter().skip(5).collect();
    assert!(!polls.is_empty());
    for pair in polls.chunks(2) {
        assert_eq!(pair[0], &format!("GET {JOBS}/{job}"));
        assert_eq!(
            pair[1],
            &format!(
                "GET /api/v1/namespaces/ops/pods?labelSelector=batch.kubernetes.io/job-name={job}&limit=500"
            )
        );
    }
}

#[test]
fn wait_reports_a_failed_job_with_its_pods_reason() {
    let job = "report-manual-w2";
    let (out, _) = wait_for(
        job,
        pod(
            job,
            "Failed",
            json!({"terminated": {"exitCode": 137, "reason": "OOMKilled"}}),
        ),
        json!({"startTime": NOW, "failed": 1,
               "conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
                               "message": "Job has reached the specified backoff limit",
                               "lastTransitionTime": "2026-11-20T12:07:00Z"}]}),
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout.contains(&format!(
            "  pod {job}-p1: Failed — container report terminated: OOMKilled (exit code 137)\n"
        )),
        "{}",
        out.stdout
    );
    assert!(out.stdout.ends_with(&format!(
        "job {job} failed after 2m: BackoffLimitExceeded (Job has reached the specified backoff limit)\n"
    )), "{}", out.stdout);
}

#[test]
fn wait_gives_up_after_the_timeout() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&[
        "trigger",
        "report",
        "--job-name",
        "report-manual-w3",
        "--yes",
        "--wait",
        "--timeout",
        "1s",
    ]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout
            .contains("job report-manual-w3 is still running after 1s: stopped waiting"),
        "{}",
        out.stdout
    );
}

/// `--timeout` of `--wait` goes to the 168h clap accepts: it used to be read again with the
/// 24h limit of `--request-timeout`, so `--timeout 48h` failed after clap had let it through.
#[test]
fn a_wait_timeout_over_a_day_is_accepted() {
    let live = Live::new("report.yaml", NOW, "ops");
    let out = live.run(&["trigger", "report", "--wait", "--timeout", "48h"]);
    // Without a terminal and without --yes it stops at the question: well past the flags.
    assert_eq!(out.code, 2, "{out:?}");
    assert!(!out.stderr.contains("--timeout"), "{out:?}");
    assert!(out.stderr.contains("stdin is not a terminal"), "{out:?}");
    assert!(!live.lines().is_empty(), "requests were made: {out:?}");
}
