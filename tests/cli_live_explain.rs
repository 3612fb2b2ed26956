//! `explain NAME` against a fake API server: every example gives the diagnosis `explain -f`
//! gives on the same objects, read with the requests we expect; the server's clock and
//! version drive the replay unless flags say otherwise.

use crate::cli_live_common::*;
use serde_json::Value;

/// The CronJobs of an example file: (namespace, name).
fn cron_jobs_of(path: &std::path::Path) -> Vec<(String, String)> {
    fake_apiserver::load_fixture_file(path)
        .unwrap()
        .into_iter()
        .filter(|o| o["kind"] == "CronJob")
        .map(|o| {
            let ns = o["metadata"]["namespace"]
                .as_str()
                .unwrap_or("default")
                .to_string();
            (ns, o["metadata"]["name"].as_str().unwrap().to_string())
        })
        .collect()
}

/// What the server stores (it fills in uid, resourceVersion, creationTimestamp like a real
/// one), as typed lists `explain -f` reads like `kubectl get cronjob,job,pod,event -o json`
/// (an empty `JobList` is evidence of no Jobs).
fn dump(live: &Live) -> std::path::PathBuf {
    let mut text = String::new();
    for (kind, list, api) in [
        ("cronjobs", "CronJobList", "batch/v1"),
        ("jobs", "JobList", "batch/v1"),
        ("pods", "PodList", "v1"),
        ("events", "EventList", "v1"),
    ] {
        let items = live.server.objects(kind);
        text.push_str(
            &serde_json::json!({"apiVersion": api, "kind": list, "items": items}).to_string(),
        );
        text.push('\n');
    }
    let path = live.dir.join("dump.json");
    std::fs::write(&path, text).unwrap();
    path
}

/// Per CronJob, the parts of the report that must not depend on where the objects came from.
fn comparable(mut cj: Value) -> Value {
    let o = cj.as_object_mut().unwrap();
    o.remove("source");
    for f in o["findings"].as_array_mut().unwrap() {
        f.as_object_mut().unwrap().remove("location");
    }
    cj
}

/// Examples whose manifest the API server would refuse to create: a live object of that
/// shape gets the existing-object diagnosis instead of "cannot be created".
const CREATE_TIME_ONLY: &[(&str, &str)] = &[
    (
        "name-too-long.yaml",
        "CronJob names over 52 characters are rejected on create",
    ),
    (
        "unknown-time-zone.yaml",
        "an unknown spec.timeZone is rejected on create",
    ),
    (
        "tz-prefix-in-schedule.yaml",
        "a CRON_TZ= prefix is rejected on create from 1.29 (an existing object keeps it)",
    ),
];

#[test]
fn every_example_explains_the_same_live_as_from_its_file() {
    let mut examples: Vec<_> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    examples.sort();
    assert!(examples.len() >= 14);
    for path in examples {
        let live = Live::files(std::slice::from_ref(&path), None);
        let dumped = dump(&live);
        for (ns, name) in cron_jobs_of(&path) {
            let label = format!("{} {ns}/{name}", path.display());
            // Text: the same headline as `explain -f` on the example itself.
            let text = run({
                let mut c = live.cmd();
                c.args(["explain", &name, "-n", &ns]);
                c
            });
            let offline = run({
                let mut c = doctor();
                c.args(["explain", &name, "-n", &ns, "--now", NOW, "-f"])
                    .arg(&path);
                c
            });
            let file_name = path.file_name().unwrap().to_str().unwrap();
            if let Some((_, why)) = CREATE_TIME_ONLY.iter().find(|(f, _)| *f == file_name) {
                // The manifest would be rejected on create; an object that exists is judged
                // as existing (the core's `is_live`), so the headline differs on purpose.
                assert!(
                    headline(&offline.stdout).contains("cannot be created"),
                    "{label}: {why}"
                );
                assert!(
                    !headline(&text.stdout).contains("cannot be created"),
                    "{label}: {why}"
                );
            } else {
                assert_eq!(
                    headline(&text.stdout),
                    headline(&offline.stdout),
                    "{label}\n{}{}",
                    text.stdout,
                    text.stderr
                );
                assert_eq!(text.code, offline.code, "{label}");
            }
            // JSON: the whole diagnosis equals `explain -f` on the objects as the server holds them.
            let (live_json, _) = json({
                let mut c = live.cmd();
                c.args(["explain", &name, "-n", &ns]);
                c
            });
            let (file_json, _) = json({
                let mut c = doctor();
                c.args([
                    "explain",
                    &name,
                    "-n",
                    &ns,
                    "--now",
                    NOW,
                    "--kube-version",
                    "1.31.2",
                    "-f",
                ])
                .arg(&dumped);
                c
            });
            assert_eq!(
                live_json["now"], NOW,
                "{label}: now comes from the server's Date header"
            );
            assert_eq!(
                live_json["kubeVersion"], "1.31.2",
                "{label}: version from /version"
            );
            let a = comparable(live_json["cronJobs"][0].clone());
            let b = comparable(file_json["cronJobs"][0].clone());
            assert_eq!(a, b, "{label}");
        }
    }
}

#[test]
fn explain_reads_the_cronjob_its_jobs_their_pods_and_the_events_about_them() {
    let live = Live::files(&[example("forbid-blocked-by-hung-job.yaml")], Some("ops"));
    let out = run({
        let mut c = live.cmd();
        c.args(["explain", "backup"]);
        c
    });
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        flat(&out.stdout).contains("Forbid is blocked by job backup-29914740"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("ImagePullBackOff"), "{}", out.stdout);
    let lines = live.lines();
    assert_eq!(
        lines[..5],
        [
            "GET /version",
            "GET /apis/batch/v1/namespaces/ops/cronjobs/backup",
            "GET /apis/batch/v1/namespaces/ops/jobs?limit=500",
            "GET /api/v1/namespaces/ops/pods?labelSelector=job-name in (backup-29911860,backup-29914740)&limit=500",
            "GET /api/v1/namespaces/ops/pods?labelSelector=batch.kubernetes.io/job-name in (backup-29911860,backup-29914740),!job-name&limit=500",
        ],
        "{lines:#?}"
    );
    // Last, once the CronJob's reads are done, the monitor is asked for its remembered runs
    // (docs/monitor.md, "explain asks the monitor"); none is mapped here.
    assert_eq!(
        lines.last().map(String::as_str),
        Some(
            "GET /api/v1/namespaces/cronjob-doctor/services/cronjob-doctor:9090/proxy/runs?name=backup&namespace=ops"
        ),
        "{lines:#?}"
    );
    // One field selector per object (CronJob, 2 Jobs, 1 Pod), in any order.
    let mut events: Vec<&str> = lines[5..lines.len() - 1]
        .iter()
        .map(String::as_str)
        .collect();
    events.sort();
    assert_eq!(
        events,
        [
            "GET /api/v1/namespaces/ops/events?fieldSelector=involvedObject.name=backup&limit=500",
            "GET /api/v1/namespaces/ops/events?fieldSelector=involvedObject.name=backup-29911860&limit=500",
            "GET /api/v1/namespaces/ops/events?fieldSelector=involvedObject.name=backup-29914740&limit=500",
            "GET /api/v1/namespaces/ops/events?fieldSelector=involvedObject.name=backup-29914740-x7k2p&limit=500",
        ]
    );
    // No Events in this fixture: the diagnosis says it stands without them.
    assert!(
        out.stdout.contains("note: No Events about backup"),
        "{}",
        out.stdout
    );
}

/// Live evidence: the hung Job's Pod and its reason, and Warning events, read from the server
/// give the same diagnosis as the same objects read from the file.
#[test]
fn pod_reasons_and_events_come_through_live() {
    let path = fixture("pod-reasons.yaml");
    let live = Live::files(std::slice::from_ref(&path), Some("batch"));
    for (name, reason, code) in [
        (
            "pull",
            "cannot pull registry.example/app:1 — ImagePullBackOff",
            1,
        ),
        ("crash", "CrashLoopBackOff (last exit: OOMKilled)", 1),
        ("pending", "Unschedulable: 0/3 nodes are available", 1),
        ("zombie", "stuck Terminating on node node-7", 1),
        // Its Jobs cannot be created (the controller's Warning events say why): two runs missed
        // since lastScheduleTime, an outage (exit 1) whose cause is the quota.
        ("quota", "exceeded quota: jobs", 1),
    ] {
        let text = run({
            let mut c = live.cmd();
            c.args(["explain", name]);
            c
        });
        assert_eq!(text.code, code, "{name}: {}{}", text.stdout, text.stderr);
        assert!(
            text.stdout.contains(reason),
            "{name}: {reason:?} in\n{}",
            text.stdout
        );
        let (a, _) = json({
            let mut c = live.cmd();
            c.args(["explain", name]);
            c
        });
        let (b, _) = json({
            let mut c = doctor();
            c.args([
                "explain",
                name,
                "-n",
                "batch",
                "--now",
                NOW,
                "--kube-version",
                "1.31.2",
                "-f",
            ])
            .arg(&path);
            c
        });
        assert_eq!(
            comparable(a["cronJobs"][0].clone()),
            comparable(b["cronJobs"][0].clone()),
            "{name}"
        );
    }
    // The crash Pod's BackOff event was asked for by name and is part of the evidence.
    assert!(
        live.lines()
            .iter()
            .any(|l| l.contains("fieldSelector=involvedObject.name=crash-29916180-abcde"))
    );
}

/// `explain NAME` without `-n` that finds nothing in the context's namespace looks across
/// namespaces and says where the CronJob is, with the command to run.
#[test]
fn a_cronjob_in_another_namespace_is_pointed_to() {
    let live = Live::files(
        &[example("forbid-blocked-by-hung-job.yaml")],
        Some("default"),
    );
    let mut c = live.cmd();
    c.args(["explain", "backup"]);
    let out = run(c);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert_eq!(
        out.stderr.trim(),
        "error: no CronJob \"backup\" in namespace default (context fake); found in ops: kubectl cronjob-doctor explain backup -n ops"
    );
    assert!(out.stdout.is_empty());
    assert!(
        live.lines().iter().any(
            |l| l == "GET /apis/batch/v1/cronjobs?fieldSelector=metadata.name=backup&limit=500"
        ),
        "{:#?}",
        live.lines()
    );

    // With -n the user chose the namespace: no look-around, the usual message.
    let before = live.lines().len();
    let mut c = live.cmd();
    c.args(["explain", "backup", "-n", "default"]);
    let out = run(c);
    assert_eq!(out.code, 2);
    assert!(!out.stderr.contains("found in"), "{}", out.stderr);
    assert!(
        live.lines()[before..]
            .iter()
            .all(|l| !l.starts_with("GET /apis/batch/v1/cronjobs?")),
        "{:#?}",
        live.lines()
    );

    // Not allowed to list across namespaces: the usual message, no error about the LIST.
    live.server.set_access_rules(vec![
        fake_apiserver::AccessRule::allow("list", "cronjobs").in_namespace("default"),
        fake_apiserver::AccessRule::deny("list", "cronjobs"),
    ]);
    let mut c = live.cmd();
    c.args(["explain", "backup"]);
    let out = run(c);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .starts_with("error: no CronJob named \"backup\" in namespace default")
            && !out.stderr.contains("found in")
            && !out.stderr.contains("forbidden"),
        "{}",
        out.stderr
    );
}

#[test]
fn every_namespace_holding_the_name_is_listed() {
    let yaml = |ns: &str| {
        format!(
            "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: backup, namespace: {ns}}}\nspec:\n  schedule: \"0 3 * * *\"\n  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: i}}]}}}}}}}}\n"
        )
    };
    let live = Live::yaml(
        &format!("{}---\n{}---\n{}", yaml("prod"), yaml("ops"), yaml("a-ops")),
        Some("default"),
    );
    let mut c = live.cmd();
    c.args(["explain", "backup"]);
    let out = run(c);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .trim()
            .ends_with("found in a-ops, ops, prod: kubectl cronjob-doctor explain backup -n a-ops"),
        "{}",
        out.stderr
    );
}

/// Names and namespaces are checked before anything is sent.
#[test]
fn invalid_names_and_namespaces_are_refused_before_any_request() {
    let live = Live::files(&[example("forbid-blocked-by-hung-job.yaml")], Some("ops"));
    for args in [
        &["explain", "backup#"][..],
        &["explain", "a/../b"],
        &["explain", ""],
        &["explain", "backup", "-n", "ops/../kube-system"],
        &["explain", "backup", "-n", "%2F"],
        &["scan", "-n", "ops?x="],
        &["scan", "-n", ""],
    ] {
        let mut c = live.cmd();
        c.args(args);
        let out = run(c);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("error: invalid CronJob name")
                || out.stderr.contains("error: invalid namespace"),
            "{args:?}: {}",
            out.stderr
        );
    }
    assert!(live.lines().is_empty(), "{:#?}", live.lines());
}

/// `explain NAME --slot TIME` from the cluster answers as it does from the example's file,
/// at the server's clock (no --now: the fake server's clock stands at the examples' instant).
#[test]
fn one_slot_from_the_cluster_is_the_slot_from_the_file() {
    for (file, ns, name, slot, ok) in [
        (
            "run-not-started-unschedulable.yaml",
            "analytics",
            "report",
            "11:30",
            false,
        ),
        (
            "ran-twice-oomkilled-retry.yaml",
            "billing",
            "charges",
            "02:00",
            true,
        ),
        (
            "forbid-blocked-by-hung-job.yaml",
            "ops",
            "backup",
            "2026-11-20T03:00:00Z",
            false,
        ),
    ] {
        let path = example(file);
        let live = Live::files(std::slice::from_ref(&path), None);
        let (v, out) = json({
            let mut c = live.cmd();
            c.args(["explain", name, "-n", ns, "--slot", slot]);
            c
        });
        assert_eq!(out.code, if ok { 0 } else { 1 }, "{file}: {}", out.stderr);
        let (mut offline, _) = json({
            let mut c = doctor();
            c.args([
                "explain", name, "-n", ns, "--now", NOW, "--slot", slot, "-f",
            ])
            .arg(&path);
            c
        });
        // The example files hold no Events; the cluster's (empty) Event list is evidence.
        offline["details"]
            .as_array_mut()
            .unwrap()
            .retain(|d| !d.as_str().unwrap().starts_with("Events were not read"));
        assert_eq!(v, offline, "{file}");
        assert_eq!(v["ok"], ok, "{file}");
    }
}

/// The slot's Job exists (created, then the status write was lost) and is not in
/// `status.active`. The API server's version picks the controller: 1.36 cannot adopt it
/// (kubernetes#136918: the GET is sent without a namespace), 1.37 adopts it (#136920), and a
/// release newer than the newest modelled one is replayed with 1.37's rules and says so.
#[test]
fn the_servers_version_decides_adoption_and_a_newer_one_is_named() {
    let live = Live::yaml(
        r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops, uid: cj-uid, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "*/5 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
status: {lastScheduleTime: "2026-11-20T11:55:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: sync-29919600
  namespace: ops
  uid: job-uid
  creationTimestamp: "2026-11-20T12:00:00Z"
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: sync, uid: cj-uid, controller: true}]
spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}
status: {active: 1, startTime: "2026-11-20T12:00:00Z"}
"#,
        Some("ops"),
    );
    let explain = |version: &str| {
        live.server.set_version(version);
        let (v, out) = json({
            let mut c = live.cmd();
            c.args(["explain", "sync"]);
            c
        });
        let text = run({
            let mut c = live.cmd();
            c.args(["explain", "sync"]);
            c
        });
        (v, out, text)
    };
    let (v, out, text) = explain("v1.36.4");
    assert_eq!(v["kubeVersion"], "1.36.4", "{}", out.stderr);
    let replay = &v["cronJobs"][0]["replay"];
    assert_eq!(
        replay["create_outcome"], "already-exists-get-failed",
        "{replay:#}"
    );
    assert!(
        flat(&text.stdout)
            .contains("job sync-29919600 already exists and this release cannot adopt it"),
        "{}",
        text.stdout
    );
    assert!(
        v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| !n.as_str().unwrap().contains("newer than"))
    );

    let (v, _, text) = explain("v1.37.2");
    assert_eq!(v["cronJobs"][0]["replay"]["create_outcome"], "adopted");
    assert!(
        flat(&text.stdout).contains("adopts the existing job sync-29919600"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("(Kubernetes v1.37.2 rules,"),
        "{}",
        text.stdout
    );

    let (v, _, text) = explain("v1.39.0");
    assert_eq!(v["kubeVersion"], "1.39.0");
    assert_eq!(v["cronJobs"][0]["replay"]["create_outcome"], "adopted");
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes.iter().any(
            |n| n.contains("v1.39.0 is newer than the newest release this tool models (v1.37)")
        ),
        "{notes:?}"
    );
    assert!(
        text.stdout
            .contains("Kubernetes v1.39.0, replayed with the v1.37 rules"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("note: Kubernetes v1.39.0 is newer"),
        "{}",
        text.stdout
    );
    // --kube-version wins over the server and is named the same way.
    let out = run({
        let mut c = live.cmd();
        c.args(["explain", "sync", "--kube-version", "1.40"]);
        c
    });
    assert!(
        out.stdout
            .contains("Kubernetes v1.40, replayed with the v1.37 rules"),
        "{}",
        out.stdout
    );
}

/// A Job's `status.terminating` comes through the cluster reader: a Job
/// already failed (FailureTarget) whose Pods the server does not return says how many of them
/// are still being deleted, and the plan looks for them instead of proposing a deadline.
#[test]
fn a_decided_jobs_status_terminating_comes_through_live() {
    let text = std::fs::read_to_string(example("forbid-blocked-by-terminating-pod.yaml")).unwrap();
    let without_pod = &text[..text.rfind("---\napiVersion: v1\nkind: Pod").unwrap()];
    let live = Live::yaml(
        &without_pod.replace("terminating: 1", "terminating: 3"),
        Some("ops"),
    );
    let out = run({
        let mut c = live.cmd();
        c.args(["explain", "report", "--now", "2026-11-20T12:00:00Z"]);
        c
    });
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let text = flat(&out.stdout);
    assert!(
        text.contains("status.terminating says 3 Pods are still being deleted"),
        "{}",
        out.stdout
    );
    assert!(
        text.contains("kubectl get pods -n ops -l batch.kubernetes.io/job-name=report-29916120"),
        "{}",
        out.stdout
    );
    assert!(!text.contains("activeDeadlineSeconds\":"), "{}", out.stdout);
}

/// The project's config file applies to a live `explain` as to `scan`: its rule severities
/// (a rule turned off is gone, headline included); `--no-config` ignores it.
#[test]
fn a_live_explain_takes_the_config_files_severities() {
    let live = Live::files(&[example("forbid-blocked-by-hung-job.yaml")], Some("ops"));
    let dir = scratch("explain-config");
    std::fs::write(
        dir.join(".cronjob-doctor.yaml"),
        "rules:\n  forbid-blocked: off\n",
    )
    .unwrap();
    let slugs = |extra: &[&str]| -> Vec<String> {
        let (v, _) = json({
            let mut c = live.cmd();
            c.current_dir(&dir).args(["explain", "backup"]).args(extra);
            c
        });
        v["cronJobs"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["slug"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(!slugs(&[]).contains(&"forbid-blocked".to_string()));
    assert!(slugs(&["--no-config"]).contains(&"forbid-blocked".to_string()));
}
