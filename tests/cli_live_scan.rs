//! `scan` against a fake API server: one snapshot of four paged LISTs, a table worst first,
//! `--only-problems`, the report JSON, and paging through many objects.

use crate::cli_live_common::*;
use serde_json::{Value, json};

fn example_paths() -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
}

fn all_examples() -> Live {
    Live::files(&example_paths(), None)
}

fn scan(live: &Live, args: &[&str]) -> Out {
    let mut c = live.cmd();
    c.arg("scan").args(args);
    run(c)
}

#[test]
fn scan_all_namespaces_lists_worst_first_with_every_column() {
    let live = all_examples();
    let out = scan(&live, &["-A"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("NAMESPACE"))
        .expect("a header");
    let cols: Vec<&str> = lines[header]
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cols,
        [
            "NAMESPACE",
            "NAME",
            "SCHEDULE",
            "TIMEZONE",
            "SUSPEND",
            "ACTIVE",
            "LAST SCHEDULE",
            "LAST SUCCESS",
            "NEXT",
            "STATUS",
            "FINDINGS"
        ]
    );
    let rows = &lines[header + 1..lines.len() - 1];
    assert_eq!(rows.len(), 19, "{}", out.stdout);
    // Worst first: every ✗ before every !, every ! before every ✓; namespace/name inside.
    let rank = |r: &&str| {
        if r.contains(" ✗ ") {
            0
        } else if r.contains(" ! ") {
            1
        } else {
            2
        }
    };
    let ranks: Vec<u8> = rows.iter().map(rank).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{}", out.stdout);
    let errors: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| rank(r) == 0)
        .map(|r| {
            let mut w = r.split_whitespace();
            (w.next().unwrap(), w.next().unwrap())
        })
        .collect();
    let mut sorted = errors.clone();
    sorted.sort();
    assert_eq!(errors, sorted);
    let backup = rows
        .iter()
        .find(|r| r.starts_with("ops") && r.contains(" backup "))
        .unwrap();
    for cell in [
        "0 3 * * *",
        "False",
        "3d ago",
        "in 15h",
        "✗ no run for 3d 9h (3 missed): Forbid is blocked by job backup-29914740",
        "forbid-blocked",
    ] {
        assert!(backup.contains(cell), "{cell:?} in {backup:?}");
    }
    // A run stuck before starting, said short in its cell.
    let stuck = rows
        .iter()
        .find(|r| r.starts_with("analytics") && r.contains(" report "))
        .unwrap();
    assert!(
        stuck.contains("✗ not started 30m: unschedulable") && stuck.contains("run-not-started"),
        "{stuck}"
    );
    let late = rows.iter().find(|r| r.contains(" thumbnails ")).unwrap();
    assert!(late.contains("! late 11m3s: image pull"), "{late}");
    let twice = rows.iter().find(|r| r.contains(" charges ")).unwrap();
    assert!(
        twice.contains("! 2 attempts (first: OOMKilled after 8m)"),
        "{twice}"
    );
    let suspended = rows.iter().find(|r| r.contains("report-daily")).unwrap();
    assert!(
        suspended.contains("True") && suspended.contains("suspended"),
        "{suspended}"
    );
    let footer = lines.last().unwrap();
    assert!(
        footer.starts_with("18 of 19 CronJobs need attention (scanned in "),
        "{footer}"
    );
}

#[test]
fn only_problems_hides_healthy_cronjobs_and_wide_adds_columns() {
    let live = all_examples();
    let out = scan(&live, &["-A", "--only-problems"]);
    assert!(!out.stdout.contains(" ✓ "), "{}", out.stdout);
    assert!(!out.stdout.contains("invoices"), "{}", out.stdout);
    assert!(
        out.stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("18 of 19 CronJobs need attention")
    );
    let wide = scan(&live, &["-A", "-o", "wide"]);
    let header = wide
        .stdout
        .lines()
        .find(|l| l.starts_with("NAMESPACE"))
        .unwrap();
    assert!(
        header.contains("CONCURRENCY") && header.contains("TOP FINDING"),
        "{header}"
    );
    let backup = wide
        .stdout
        .lines()
        .find(|r| r.starts_with("ops") && r.contains(" backup "))
        .unwrap();
    assert!(
        backup.contains("Forbid") && backup.contains("active-deadline-missing"),
        "{backup}"
    );
}

#[test]
fn scan_json_is_the_report_contract() {
    let live = all_examples();
    let (v, out) = json({
        let mut c = live.cmd();
        c.args(["scan", "-A"]);
        c
    });
    assert_eq!(out.code, 1);
    assert_eq!(v["schemaVersion"], 1);
    assert_eq!(v["now"], NOW);
    assert_eq!(v["kubeVersion"], "1.31.2");
    let cjs = v["cronJobs"].as_array().unwrap();
    assert_eq!(cjs.len(), 19);
    // Namespace/name order (LIST order), not worst first: JSON is for machines.
    let keys: Vec<(String, String)> = cjs
        .iter()
        .map(|c| {
            (
                format!("{}/", c["namespace"].as_str().unwrap()),
                c["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert_eq!(cjs.iter().filter(|c| c["health"] == "error").count(), 12);
    for cj in cjs {
        for key in [
            "namespace",
            "name",
            "headline",
            "health",
            "controller",
            "findings",
            "timeline",
            "nextScheduleTimes",
        ] {
            assert!(cj.get(key).is_some(), "{key} missing in {cj}");
        }
    }
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr in JSON mode: {}",
        out.stderr
    );
    // The same headline as explain NAME for each CronJob.
    let backup = cjs.iter().find(|c| c["name"] == "backup").unwrap();
    let (e, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup", "-n", "ops"]);
        c
    });
    assert_eq!(backup["headline"], e["cronJobs"][0]["headline"]);
}

/// HTTPS end to end: the plugin trusts the server through the kubeconfig's
/// certificate-authority-data alone, reads the same lists, and reports what it reports over
/// plain HTTP. Without that CA the same server is refused (the certificate really is checked).
#[test]
fn scan_over_tls_trusts_the_kubeconfigs_ca() {
    let tls = Live::with_tls(load_files(&example_paths()), None);
    assert!(tls.server.url().starts_with("https://"));
    let kubeconfig = std::fs::read_to_string(&tls.kubeconfig).unwrap();
    assert!(kubeconfig.contains("certificate-authority-data:"));
    let scan_json = |live: &Live| {
        json({
            let mut c = live.cmd();
            c.args(["scan", "-A"]);
            c
        })
    };
    let (over_tls, out) = scan_json(&tls);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let (over_http, _) = scan_json(&all_examples());
    assert_eq!(over_tls["cronJobs"].as_array().unwrap().len(), 19);
    assert_eq!(over_tls, over_http);
    assert!(
        tls.lines()
            .contains(&"GET /apis/batch/v1/jobs?limit=500".to_string()),
        "{:?}",
        tls.lines()
    );

    let untrusted = tls.dir.join("no-ca");
    std::fs::write(
        &untrusted,
        kubeconfig
            .lines()
            .filter(|l| !l.contains("certificate-authority-data"))
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    tls.server.clear_requests();
    let mut c = doctor();
    c.env("KUBECONFIG", &untrusted).args(["scan", "-A"]);
    let out = run(c);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(tls.lines().is_empty(), "no request got through");
}

#[test]
fn scan_reads_four_paged_lists_once() {
    let live = all_examples();
    live.server.clear_requests();
    let out = scan(&live, &["-A"]);
    assert_eq!(out.code, 1);
    let mut lines = live.lines();
    lines.sort();
    assert_eq!(
        lines,
        [
            "GET /api/v1/events?limit=500",
            "GET /api/v1/pods?labelSelector=batch.kubernetes.io/job-name,!job-name&limit=500",
            "GET /api/v1/pods?labelSelector=job-name&limit=500",
            "GET /apis/batch/v1/cronjobs?limit=2000",
            // The cluster's Jobs counted (one item) to plan the slices.
            "GET /apis/batch/v1/jobs?limit=1",
            "GET /apis/batch/v1/jobs?limit=500",
            "GET /version",
        ]
    );
}

#[test]
fn scan_one_namespace_uses_the_contexts_namespace() {
    let mut paths: Vec<_> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let live = Live::files(&paths, Some("ops"));
    let out = scan(&live, &[]);
    let header = out.stdout.lines().find(|l| l.starts_with("NAME")).unwrap();
    assert!(!header.contains("NAMESPACE"), "{header}");
    assert!(out.stdout.contains("backup"), "{}", out.stdout);
    assert!(!out.stdout.contains("invoices"), "{}", out.stdout);
    assert!(
        out.stdout
            .lines()
            .last()
            .unwrap()
            .contains("CronJobs in namespace ops need attention"),
        "{}",
        out.stdout
    );
    assert!(
        live.lines()
            .iter()
            .any(|l| l == "GET /apis/batch/v1/namespaces/ops/cronjobs?limit=2000")
    );
    let other = scan(&live, &["-n", "finance"]);
    assert!(
        other.stdout.contains("invoices") && !other.stdout.contains(" backup "),
        "{}",
        other.stdout
    );
}

/// 1,200 CronJobs with a Job and a Pod each, over namespaces whose key order differs from
/// their string order (`a-b/` sorts before `a/`), one of them big: three pages of 500 per list
/// (the CronJob list asks for 2,000 a page and gets 500, as a server may answer with fewer),
/// followed through `continue`, and every CronJob diagnosed with its own Job and Pod even
/// though the namespaces are cut apart while the lists are still arriving.
#[test]
fn scan_pages_through_large_lists() {
    const NS: [&str; 5] = ["a", "a-b", "b", "kube-x", "z"];
    let mut objects: Vec<Value> = Vec::new();
    for i in 0..1200 {
        // Most in `a` (1,050 CronJobs × 1,050 Jobs: diagnosed in chunks across the workers),
        // the rest spread over all five.
        let ns = if i % 8 == 0 {
            NS[(i / 8) % NS.len()]
        } else {
            "a"
        };
        let name = format!("cj-{i:04}");
        let job = format!("{name}-29919600"); // the 12:00 slot, in minutes
        objects.push(json!({"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": name, "namespace": ns, "uid": format!("uid-{i}"), "creationTimestamp": "2026-11-01T00:00:00Z"},
            "spec": {"schedule": "0 * * * *", "concurrencyPolicy": "Forbid", "jobTemplate": {"spec": {"activeDeadlineSeconds": 600,
                "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}}}},
            "status": {"lastScheduleTime": "2026-11-20T12:00:00Z", "active": [{"name": job, "namespace": ns, "uid": format!("job-{i}")}]}}));
        objects.push(json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": job, "namespace": ns, "uid": format!("job-{i}"), "creationTimestamp": "2026-11-20T12:00:00Z",
                "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": name, "uid": format!("uid-{i}"), "controller": true}]},
            "status": {"startTime": "2026-11-20T12:00:01Z", "active": 1}}));
        let state = if i % 100 == 7 {
            json!({"waiting": {"reason": "ImagePullBackOff"}})
        } else {
            json!({"running": {}})
        };
        objects.push(json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("{job}-x"), "namespace": ns, "labels": {"job-name": job, "batch.kubernetes.io/job-name": job}},
            "status": {"phase": "Running", "containerStatuses": [{"name": "c", "image": "i", "state": state}]}}));
    }
    let live = Live::with(objects, None);
    live.server.set_page_cap(Some(500));
    let (v, out) = json({
        let mut c = live.cmd();
        c.args(["scan", "-A"]);
        c
    });
    assert_eq!(out.code, 0, "{}", out.stderr);
    let cjs = v["cronJobs"].as_array().unwrap();
    assert_eq!(cjs.len(), 1200);
    for c in cjs {
        assert_eq!(c["activeJobs"].as_array().unwrap().len(), 1, "{c}");
        assert_eq!(
            c["controller"]["events"],
            json!([]),
            "the Job was found: no MissingJob/UnexpectedJob in {c}"
        );
        let i: usize = c["name"].as_str().unwrap()[3..].parse().unwrap();
        let timeline = c["timeline"].to_string();
        assert_eq!(
            timeline.contains("ImagePullBackOff"),
            i % 100 == 7,
            "its own Pod: {c}"
        );
    }
    let namespaces: Vec<&str> = cjs
        .iter()
        .map(|c| c["namespace"].as_str().unwrap())
        .collect();
    let firsts: Vec<&str> = namespaces.iter().copied().fold(Vec::new(), |mut v, n| {
        if v.last() != Some(&n) {
            v.push(n);
        }
        v
    });
    assert_eq!(firsts, ["a-b", "a", "b", "kube-x", "z"], "LIST (key) order");
    let lines = live.lines();
    // Query keys are sorted in the log: `continue=…&labelSelector=…&limit=500`.
    let pages = |prefix: &str, has: &str| {
        lines
            .iter()
            .filter(|l| l.starts_with(prefix) && l.contains(has))
            .count()
    };
    assert_eq!(pages("GET /apis/batch/v1/cronjobs?", ""), 3);
    assert_eq!(pages("GET /apis/batch/v1/jobs?", "limit=500"), 3);
    assert_eq!(pages("GET /api/v1/pods?", "labelSelector=job-name&"), 3);
    assert_eq!(pages("GET /api/v1/pods?", "!job-name"), 1);
    let continued: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("GET /apis/batch/v1/cronjobs?") && l.contains("continue="))
        .collect();
    assert_eq!(continued.len(), 2);
    assert!(continued.iter().all(|l| l.contains("limit=2000")));
}

/// A continue token that expires mid-list (410 Expired, etcd compacted the snapshot): the
/// list starts again from the first page, once, as client-go's pager does; every CronJob is
/// diagnosed exactly once and a note says the list was restarted. A second expiry is an error.
#[test]
fn an_expired_continue_token_restarts_the_list_once() {
    use fake_apiserver::Fault;
    let live = all_examples();
    let (baseline, _) = json({
        let mut c = live.cmd();
        c.args(["scan", "-A"]);
        c
    });
    // Two items a page: every list pages, and the CronJob list has a later page to expire.
    live.server.set_page_cap(Some(2));
    live.server
        .inject(Fault::expired_continue("list", "/apis/batch/v1/cronjobs").once());
    let before = live.lines().len();
    let (v, out) = json({
        let mut c = live.cmd();
        c.args(["scan", "-A"]);
        c
    });
    assert_eq!(out.code, 1, "{}", out.stderr);
    let names = |v: &Value| -> Vec<String> {
        v["cronJobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("{}/{}", c["namespace"], c["name"]))
            .collect()
    };
    assert_eq!(names(&v), names(&baseline), "each CronJob once, same order");
    assert_eq!(
        v["cronJobs"], baseline["cronJobs"],
        "the same diagnosis as without the expiry"
    );
    let notes: Vec<&str> = strings(&v["notes"]);
    assert!(
        notes.iter().any(|n| n.starts_with(
            "LIST /apis/batch/v1/cronjobs: the continue token expired while paging (410 Gone: The provided continue parameter is too old"
        ) && n.contains("restarted from the beginning once")),
        "{notes:?}"
    );
    // In the log: a first page, a continued page that expired, then a first page again.
    let cron_jobs: Vec<String> = live.lines()[before..]
        .iter()
        .filter(|l| l.starts_with("GET /apis/batch/v1/cronjobs?"))
        .cloned()
        .collect();
    let firsts = cron_jobs
        .iter()
        .filter(|l| !l.contains("continue="))
        .count();
    assert_eq!(firsts, 2, "{cron_jobs:#?}");
    assert!(cron_jobs[1].contains("continue="), "{cron_jobs:#?}");

    // Expiring again after the restart: the scan gives up with the request that failed.
    live.server
        .inject(Fault::expired_continue("list", "/apis/batch/v1/cronjobs").times(2));
    let out = scan(&live, &["-A"]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains("LIST /apis/batch/v1/cronjobs failed") && out.stderr.contains("410"),
        "{}",
        out.stderr
    );
}

/// A controller that creates Jobs late is late for every CronJob: the scan says so once, as
/// one cause, next to each CronJob's own late-start finding; a run late for its own reasons
/// (an image pull) is not counted in it.
#[test]
fn a_lagging_controller_is_one_cause_said_once() {
    let lag = std::fs::read_to_string(example("late-start-controller-lag.yaml")).unwrap();
    let pull = std::fs::read_to_string(example("late-start-image-pull.yaml")).unwrap();
    let text = format!("{lag}\n---\n{}\n---\n{pull}", lag.replace("sync", "sync-b"));
    let live = Live::yaml(&text, None);
    let note = "note: the controller created the newest Job of 2 CronJobs minutes after their slots (crm/sync 7m12s, crm/sync-b 7m12s): one cause, kube-controller-manager";
    let out = scan(&live, &["-A"]);
    assert_eq!(out.stdout.matches(note).count(), 1, "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("late-start").count(),
        3,
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("late 11m3s: image pull"),
        "{}",
        out.stdout
    );
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["scan", "-A"]);
        c
    });
    let notes: Vec<&str> = strings(&v["notes"]);
    assert_eq!(
        notes
            .iter()
            .filter(|n| n.starts_with(&note["note: ".len()..]))
            .count(),
        1,
        "{notes:?}"
    );
    // One lagging CronJob is that CronJob's finding alone.
    let live = Live::yaml(&format!("{lag}\n---\n{pull}"), None);
    let out = scan(&live, &["-A"]);
    assert!(!out.stdout.contains("one cause"), "{}", out.stdout);
}
