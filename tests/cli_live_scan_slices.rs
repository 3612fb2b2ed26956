//! `scan -A` on a cluster big enough to be read in slices: namespaces
//! expected to hold many Jobs get namespace-scoped LISTs of their own, read side by side; the
//! others are read by one cluster-wide LIST whose field selector excludes the sliced ones, so
//! every object is read once. Continue tokens, 410 restarts and reduced-evidence notes work
//! per slice.
//!
//! The expected Jobs come from the CronJobs' history limits: four CronJobs keeping 1,000
//! Jobs each make a namespace "big" without loading thousands of objects into the test.

use std::time::Duration;

use crate::cli_live_common::*;
use fake_apiserver::Fault;
use serde_json::{Value, json};

const BIG: [&str; 3] = ["big-a", "big-b", "big-c"];

/// Three big namespaces (4 CronJobs each, 2 Jobs per CronJob, a Pod and an Event per Job),
/// one small one (2 CronJobs with default limits), and one without CronJobs.
fn cluster() -> Vec<Value> {
    let mut objects = Vec::new();
    for ns in BIG {
        for i in 0..4 {
            family(&mut objects, ns, i, Some(1000));
        }
    }
    for i in 0..2 {
        family(&mut objects, "small", i, None);
    }
    objects.push(json!({"apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "loose", "namespace": "nocj", "uid": "loose"}, "status": {}}));
    objects
}

/// CronJob `cj-{i}` of `ns` (`keep`: its successfulJobsHistoryLimit) with an active Job and a
/// finished one, a Pod (waiting on an image pull for even `i`) and an Event.
fn family(objects: &mut Vec<Value>, ns: &str, i: usize, keep: Option<i64>) {
    let name = format!("cj-{i:02}");
    let active = format!("{name}-29919600"); // the 12:00 slot
    let done = format!("{name}-29919540"); // the 11:00 slot
    let mut spec = json!({"schedule": "0 * * * *", "concurrencyPolicy": "Forbid",
            "jobTemplate": {"spec": {"activeDeadlineSeconds": 600,
                "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}}}});
    if let Some(k) = keep {
        spec["successfulJobsHistoryLimit"] = json!(k);
    }
    objects.push(json!({"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": name, "namespace": ns, "uid": format!("{ns}-{i}"), "creationTimestamp": "2026-11-01T00:00:00Z"},
            "spec": spec,
            "status": {"lastScheduleTime": "2026-11-20T12:00:00Z", "lastSuccessfulTime": "2026-11-20T11:00:30Z",
                "active": [{"name": active, "namespace": ns, "uid": format!("{ns}-{active}")}]}}));
    for (job, status) in [
        (
            &active,
            json!({"startTime": "2026-11-20T12:00:01Z", "active": 1}),
        ),
        (
            &done,
            json!({"startTime": "2026-11-20T11:00:01Z", "completionTime": "2026-11-20T11:00:30Z", "succeeded": 1,
                "conditions": [{"type": "Complete", "status": "True", "lastTransitionTime": "2026-11-20T11:00:30Z"}]}),
        ),
    ] {
        objects.push(json!({"apiVersion": "batch/v1", "kind": "Job",
                "metadata": {"name": job, "namespace": ns, "uid": format!("{ns}-{job}"), "creationTimestamp": "2026-11-20T11:00:00Z",
                    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": name, "uid": format!("{ns}-{i}"), "controller": true}]},
                "status": status}));
    }
    let state = if i.is_multiple_of(2) {
        json!({"waiting": {"reason": "ImagePullBackOff"}})
    } else {
        json!({"running": {}})
    };
    objects.push(json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("{active}-x"), "namespace": ns, "labels": {"job-name": active, "batch.kubernetes.io/job-name": active}},
            "status": {"phase": "Running", "containerStatuses": [{"name": "c", "image": "i", "state": state}]}}));
    objects.push(json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": format!("{active}.1"), "namespace": ns},
            "involvedObject": {"kind": "Job", "name": active, "namespace": ns},
            "type": "Normal", "reason": "SuccessfulCreate", "message": format!("Created pod: {active}-x"),
            "lastTimestamp": "2026-11-20T12:00:01Z", "count": 1}));
}

fn scan_json(live: &Live) -> (Value, Out) {
    let mut c = live.cmd();
    c.args(["scan", "-A"]);
    json(c)
}

/// Every CronJob found its own Jobs, Pod and Event.
fn check_diagnosis(v: &Value) {
    let cjs = v["cronJobs"].as_array().unwrap();
    assert_eq!(cjs.len(), 14, "{v}");
    for c in cjs {
        assert_eq!(c["activeJobs"].as_array().unwrap().len(), 1, "{c}");
        assert_eq!(
            c["controller"]["events"],
            json!([]),
            "its Jobs were found: {c}"
        );
        let i: usize = c["name"].as_str().unwrap()[3..].parse().unwrap();
        let timeline = c["timeline"].to_string();
        assert_eq!(
            timeline.contains("ImagePullBackOff"),
            i.is_multiple_of(2),
            "its own Pod: {c}"
        );
    }
    let order: Vec<&str> = cjs
        .iter()
        .map(|c| c["namespace"].as_str().unwrap())
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "namespaces in LIST order");
}

/// The report's notes but the clock's (the fake server's clock is frozen in the past).
fn own_notes(v: &Value) -> Vec<&str> {
    strings(&v["notes"])
        .into_iter()
        .filter(|n| !n.starts_with("the local clock"))
        .collect()
}

#[test]
fn big_namespaces_are_read_in_parallel_slices_and_every_object_once() {
    let live = Live::with(cluster(), None);
    // Two items a page: every list pages. A round trip of 150 ms makes the order in which
    // requests arrive show what was in flight together.
    live.server.set_page_cap(Some(2));
    live.server.set_latency(Duration::from_millis(150));
    live.server.clear_requests();
    let (v, out) = scan_json(&live);
    assert_eq!(out.code, 0, "{}", out.stderr);
    check_diagnosis(&v);
    assert!(own_notes(&v).is_empty(), "{v}");

    let lines = live.lines();
    let exclude = "fieldSelector=metadata.namespace!=big-a,metadata.namespace!=big-b,metadata.namespace!=big-c";
    for (kind, prefix) in [
        ("jobs", "/apis/batch/v1"),
        ("pods", "/api/v1"),
        ("events", "/api/v1"),
    ] {
        // Cluster-wide lists of evidence always exclude the sliced namespaces (the one-item
        // count of the cluster's Jobs that planned them is not evidence).
        let wide: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("GET {prefix}/{kind}?")) && !l.ends_with("?limit=1"))
            .collect();
        assert!(!wide.is_empty(), "{kind}: {lines:#?}");
        assert!(wide.iter().all(|l| l.contains(exclude)), "{wide:#?}");
        for ns in BIG {
            let own = lines
                .iter()
                .filter(|l| l.starts_with(&format!("GET {prefix}/namespaces/{ns}/{kind}?")))
                .count();
            assert!(own > 0, "{ns}/{kind}: {lines:#?}");
        }
    }
    // Each big namespace's 8 Jobs: four pages of two, each requested once (three followed
    // through `continue`), nothing read twice; the small and CronJob-less namespaces in the
    // cluster-wide list (5 Jobs: three pages).
    for ns in BIG {
        let pages: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("GET /apis/batch/v1/namespaces/{ns}/jobs?")))
            .collect();
        assert_eq!(pages.len(), 4, "{pages:#?}");
        assert_eq!(pages.iter().filter(|l| l.contains("continue=")).count(), 3);
        let mut unique = pages.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 4, "no page requested twice: {pages:#?}");
    }
    let wide_jobs = lines
        .iter()
        .filter(|l| l.starts_with("GET /apis/batch/v1/jobs?") && !l.ends_with("?limit=1"))
        .count();
    assert_eq!(wide_jobs, 3, "{lines:#?}");
    assert!(
        !lines.iter().any(|l| l.contains("/namespaces/small/")),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("/namespaces/nocj/")),
        "{lines:#?}"
    );

    // In flight together: the first page of every slice's Job list was requested before the
    // second page of any of them (one after another, a list's second page would come first).
    let jobs: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("/jobs?") && !l.ends_with("?limit=1"))
        .collect();
    let first_continued = jobs.iter().position(|l| l.contains("continue=")).unwrap();
    let firsts = jobs[..first_continued]
        .iter()
        .filter(|l| !l.contains("continue="))
        .count();
    assert_eq!(
        firsts, 4,
        "three slices and the cluster-wide list: {jobs:#?}"
    );
}

#[test]
fn slices_keep_restarts_and_reduced_evidence_notes() {
    let live = Live::with(cluster(), None);
    live.server.set_page_cap(Some(2));
    let (baseline, out) = scan_json(&live);
    assert_eq!(out.code, 0, "{}", out.stderr);
    check_diagnosis(&baseline);

    // An expired continue token in one slice's Job list: that list restarts once, nothing is
    // read twice into the diagnosis, and a note says so.
    live.server
        .inject(Fault::expired_continue("list", "/apis/batch/v1/namespaces/big-b/jobs").once());
    let (v, out) = scan_json(&live);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(v["cronJobs"], baseline["cronJobs"], "the same diagnosis");
    let notes = v["notes"].to_string();
    assert!(
        notes.contains(
            "LIST /apis/batch/v1/namespaces/big-b/jobs: the continue token expired while paging"
        ),
        "{notes}"
    );

    // Events forbidden in one big namespace: a note, the diagnosis goes on everywhere.
    live.server
        .inject(Fault::forbidden("list", "/api/v1/namespaces/big-c/events"));
    let (v, out) = scan_json(&live);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(v["cronJobs"].as_array().unwrap().len(), 14);
    let notes = own_notes(&v);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("Events: forbidden"), "{notes:?}");

    // Jobs failing for another reason than a 403 end the scan with the request.
    live.server.inject(Fault::internal_error(
        "list",
        "/apis/batch/v1/namespaces/big-a/jobs",
    ));
    let mut c = live.cmd();
    c.args(["scan", "-A"]);
    let out = run(c);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("LIST /apis/batch/v1/namespaces/big-a/jobs failed"),
        "{}",
        out.stderr
    );
}

/// `scan -o json` writes each namespace as soon as it is diagnosed; a list failing after some
/// were written must not leave a complete-looking report that is missing CronJobs. Whichever
/// namespace fails, and however far the others got (big-b and big-c fail after the namespaces
/// before them were written): exit 2, the request named on stderr, and stdout either empty or
/// not a JSON document at all.
#[test]
fn a_list_failing_partway_never_leaves_a_complete_looking_json_report() {
    let live = Live::with(cluster(), None);
    live.server.set_page_cap(Some(2));
    let mut partial = 0;
    for ns in BIG {
        live.server.clear_faults();
        let path = format!("/apis/batch/v1/namespaces/{ns}/jobs");
        live.server.inject(Fault::internal_error("list", &path));
        let mut c = live.cmd();
        c.args(["scan", "-A", "-o", "json"]);
        let out = run(c);
        assert_eq!(out.code, 2, "{ns}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("LIST {path} failed")),
            "{ns}: {}",
            out.stderr
        );
        assert!(
            out.stdout.is_empty() || serde_json::from_str::<Value>(&out.stdout).is_err(),
            "{ns}: a failed scan printed a whole document:\n{}",
            out.stdout
        );
        partial += usize::from(out.stdout.contains("\"cronJobs\""));
    }
    assert!(
        partial > 0,
        "no run got far enough to stream anything: the test proves nothing"
    );
}

/// A namespace whose CronJobs' history limits promise a few Jobs but that
/// holds many more (manual runs, orphans, a controller that has not pruned) was read by the
/// cluster-wide slice, one page after another. The API server's counts
/// (`remainingItemCount` of a one-item first page) re-plan it into a slice of its own, and
/// every Job is still read once, with the diagnosis `scan -n` gives namespace by namespace.
#[test]
fn a_namespace_holding_more_jobs_than_its_limits_say_is_counted_and_sliced() {
    let mut objects = cluster();
    family(&mut objects, "heavy", 0, None); // default limits: 3 + 1 + its active Job
    for n in 0..600 {
        objects.push(json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": format!("orphan-{n:03}"), "namespace": "heavy", "uid": format!("orphan-{n}"),
                "creationTimestamp": "2026-11-19T00:00:00Z"},
            "status": {"startTime": "2026-11-19T00:00:01Z", "completionTime": "2026-11-19T00:00:30Z", "succeeded": 1}}));
    }
    let live = Live::with(objects, None);
    live.server.clear_requests();
    let (v, out) = scan_json(&live);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines = live.lines();

    // Counted: the cluster while the CronJobs were read, then the namespaces the estimate
    // left to the cluster-wide slice (not the big ones, sliced already).
    let counts: Vec<&String> = lines.iter().filter(|l| l.ends_with("?limit=1")).collect();
    let mut sorted = counts.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "GET /apis/batch/v1/jobs?limit=1",
            "GET /apis/batch/v1/namespaces/heavy/jobs?limit=1",
            "GET /apis/batch/v1/namespaces/small/jobs?limit=1",
        ],
        "{lines:#?}"
    );
    // Re-planned: heavy's 602 Jobs are two namespace-scoped pages, each requested once…
    let heavy: Vec<&String> = lines
        .iter()
        .filter(|l| {
            l.starts_with("GET /apis/batch/v1/namespaces/heavy/jobs?") && !l.ends_with("?limit=1")
        })
        .collect();
    assert_eq!(heavy.len(), 2, "{lines:#?}");
    assert_eq!(heavy.iter().filter(|l| l.contains("continue=")).count(), 1);
    // …and the cluster-wide slice leaves heavy out: no Job is read twice.
    let wide: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("GET /apis/batch/v1/jobs?") && !l.ends_with("?limit=1"))
        .collect();
    assert!(!wide.is_empty(), "{lines:#?}");
    let exclude = "fieldSelector=metadata.namespace!=big-a,metadata.namespace!=big-b,\
                   metadata.namespace!=big-c,metadata.namespace!=heavy";
    assert!(wide.iter().all(|l| l.contains(exclude)), "{wide:#?}");
    for kind in ["pods", "events"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("GET /api/v1/namespaces/heavy/{kind}?"))),
            "heavy's other lists are its slice's: {lines:#?}"
        );
    }

    // The same diagnosis as namespace by namespace (`scan -n` never slices).
    let mut one_by_one = Vec::new();
    for ns in ["big-a", "big-b", "big-c", "heavy", "small"] {
        let mut c = live.cmd();
        c.args(["scan", "-n", ns]);
        let (v, out) = json(c);
        assert_eq!(out.code, 0, "{ns}: {}", out.stderr);
        one_by_one.extend(v["cronJobs"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(v["cronJobs"], Value::Array(one_by_one));
    assert_eq!(v["cronJobs"].as_array().unwrap().len(), 15);
}
