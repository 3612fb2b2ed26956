//! `explain` asks the monitor: the runs a monitor remembers come back into
//! the timeline after their Job, Pods and Events are gone, fetched through the API server's
//! service proxy; no monitor, no permission or a hostile answer is a one-line note, never a
//! failure. The fake API server's clock is frozen (`cli_live_common::NOW`), and so is "now".

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, Instant};

use crate::cli_live_common::{Live, Out, example, run};
use crate::monitor_common::{BACKOFF_EVENT, Scratch, poll, put_backoff_event, start_monitor};
use fake_apiserver::AccessRule;
use serde_json::Value;

const PROXY: &str = "/api/v1/namespaces/cronjob-doctor/services/cronjob-doctor:9090/proxy/runs";

fn oom() -> Live {
    Live::files(&[example("jobs-failing-oomkilled.yaml")], Some("data"))
}

fn explain(live: &Live, extra: &[&str]) -> Out {
    let mut c = live.cmd();
    c.args(["explain", "etl", "-n", "data"]).args(extra);
    run(c)
}

/// The last run's Job and Pod deleted, as a TTL or history limit would.
fn prune_last_run(live: &Live) {
    for (kind, name) in [("Pod", "etl-29919000-k8d2x"), ("Job", "etl-29919000")] {
        assert!(
            live.server.delete_object(kind, "data", name),
            "{kind} {name}"
        );
    }
}

fn monitor_note(out: &Out) -> Vec<&str> {
    out.stdout
        .lines()
        .chain(out.stderr.lines())
        .filter(|l| l.contains("monitor cronjob-doctor/cronjob-doctor:9090"))
        .collect()
}

#[test]
fn explain_shows_the_run_the_monitor_remembers_after_its_job_pods_and_events_are_gone() {
    let live = oom();
    put_backoff_event(&live, "Back-off restarting failed container etl");
    let dir = Scratch::new("explain-monitor");
    let m = start_monitor(&live, &dir.0);
    let runs = "/runs?namespace=data&name=etl";
    poll(
        "the monitor holds the run",
        Duration::from_secs(20),
        || match m.get(runs) {
            Some((200, b)) if b.contains("OOMKilled") && b.contains("BackOff") => Ok(()),
            other => Err(format!("{other:?}")),
        },
    );
    // Events expire, then a TTL or history limit takes the Job and its Pod.
    assert!(live.server.delete_object("Event", "data", BACKOFF_EVENT));
    prune_last_run(&live);
    poll("the run is retained", Duration::from_secs(20), || {
        match m.get(runs) {
            Some((200, b)) if b.contains("\"retained\":true") => Ok(()),
            other => Err(format!("{other:?}")),
        }
    });
    let addr: SocketAddr = m.addr.parse().unwrap();
    live.server
        .set_service_proxy("cronjob-doctor", "cronjob-doctor", 9090, Some(addr));

    let out = explain(&live, &[]);
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("etl-29919000"))
        .unwrap_or_else(|| panic!("no timeline line for the pruned run: {}", out.stdout));
    assert!(line.contains('✗'), "{line}");
    assert!(line.contains("retained by the monitor"), "{line}");
    assert!(line.contains("BackoffLimitExceeded"), "{line}");
    assert!(
        line.contains("pod etl-29919000-k8d2x OOMKilled (exit 137)"),
        "{line}"
    );
    assert!(line.contains("warning BackOff"), "{line}");
    // Nothing of the run is left in the cluster: the timeline line is the monitor's record.
    for kind in ["Job", "Pod", "Event"] {
        assert!(
            !live
                .server
                .objects(kind)
                .iter()
                .any(|o| o["metadata"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("etl-29919000")),
            "{kind}"
        );
    }
    assert!(monitor_note(&out).is_empty(), "{}", out.stdout);
    assert!(
        live.lines()
            .iter()
            .any(|l| l == &format!("GET {PROXY}?name=etl&namespace=data")),
        "{:#?}",
        live.lines()
    );

    let mut c = live.cmd();
    c.args(["explain", "etl", "-n", "data", "-o", "json"]);
    let out = run(c);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let slot = v["cronJobs"][0]["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["job"] == "etl-29919000")
        .unwrap_or_else(|| panic!("{}", out.stdout))
        .clone();
    assert_eq!(slot["time"], "2026-11-20T02:00:00Z");
    assert_eq!(slot["status"], "failed");
    assert_eq!(slot["retained"], true);
    assert!(
        slot["note"]
            .as_str()
            .unwrap()
            .starts_with("retained by the monitor; BackoffLimitExceeded"),
        "{slot}"
    );
    // The runs the snapshot still shows are not marked.
    let marked = v["cronJobs"][0]["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["retained"] == true)
        .count();
    assert_eq!(marked, 1, "{}", out.stdout);

    // The one-run question has the same answer: `--slot` reads the record too.
    let out = explain(&live, &["--slot", "2026-11-20T02:00Z"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    // Lines are wrapped at the terminal's width: compared with single spaces.
    let flat = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "the 2026-11-20 02:00 UTC run failed: BackoffLimitExceeded (retained by the monitor: its Job is no longer in the cluster)"
        ),
        "{}",
        out.stdout
    );
    assert!(
        flat.contains("pod etl-29919000-k8d2x OOMKilled (exit 137)"),
        "{}",
        out.stdout
    );
    let mut c = live.cmd();
    c.args([
        "explain", "etl", "-n", "data", "--slot", "02:00", "-o", "json",
    ]);
    let v: Value = serde_json::from_str(&run(c).stdout).unwrap();
    assert_eq!(v["job"], "etl-29919000", "{v}");
    assert_eq!(v["status"], "failed", "{v}");
    assert_eq!(v["retained"], true, "{v}");

    // Across contexts, each context's monitor is asked the same way.
    let mut c = live.cmd();
    c.args([
        "explain",
        "etl",
        "-n",
        "data",
        "--all-contexts",
        "-o",
        "json",
    ]);
    let out = run(c);
    let v: Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    assert!(v["contexts"].is_array(), "not the fleet document: {v}");
    let timeline = v["cronJobs"][0]["timeline"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let slot = timeline
        .iter()
        .find(|s| s["job"] == "etl-29919000")
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert_eq!(slot["retained"], true, "{slot}");
    drop(m);
}

#[test]
fn without_a_monitor_explain_gives_one_note_and_the_same_exit_code() {
    let live = oom();
    prune_last_run(&live);
    let without = explain(&live, &["--no-monitor"]);
    let with = explain(&live, &[]);
    assert_eq!(with.code, without.code, "{}\n{}", with.stdout, with.stderr);
    let notes = monitor_note(&with);
    assert_eq!(notes.len(), 1, "{}", with.stdout);
    assert!(notes[0].contains("503"), "{}", notes[0]);
    assert!(monitor_note(&without).is_empty());
    // Nothing else changes: the note is the only extra line.
    let extra: Vec<&str> = with
        .stdout
        .lines()
        .filter(|l| !without.stdout.lines().any(|w| w == *l))
        .collect();
    assert_eq!(extra, notes, "{}\n---\n{}", with.stdout, without.stdout);
    // --no-monitor sends nothing to the proxy; the flag's target is checked before any request.
    live.server.clear_requests();
    let bad = explain(&live, &["--monitor", "cronjob-doctor/Bad:9090"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("Service name"), "{}", bad.stderr);
    let bad = explain(&live, &["--monitor", "ops/doctor:70000"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    let mut c = live.cmd();
    c.args(["explain", "-f", "x.yaml", "--monitor", "a/b"]);
    let files = run(c);
    assert_eq!(files.code, 2, "{}", files.stderr);
    assert!(files.stderr.contains("-f reads files"), "{}", files.stderr);
    assert!(live.lines().is_empty(), "{:#?}", live.lines());
    explain(&live, &["--no-monitor"]);
    assert!(!live.lines().iter().any(|l| l.contains("/proxy/")));
}

#[test]
fn no_permission_on_services_proxy_is_a_note() {
    let live = oom();
    live.server
        .add_access_rule(AccessRule::deny("get", "services/proxy"));
    let out = explain(&live, &[]);
    let without = explain(&live, &["--no-monitor"]);
    assert_eq!(out.code, without.code, "{}", out.stderr);
    let notes = monitor_note(&out);
    assert_eq!(notes.len(), 1, "{}", out.stdout);
    assert!(
        notes[0].contains("forbidden: grant get on services/proxy"),
        "{}",
        notes[0]
    );
}

/// A stand-in monitor that answers each connection with `reply` (after `delay`).
fn fake_monitor(reply: Vec<u8>, delay: Duration) -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { return };
            let reply = reply.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf);
                std::thread::sleep(delay);
                let _ = s.write_all(b"HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n");
                let _ = s.write_all(&reply);
            });
        }
    });
    addr
}

#[test]
fn a_hostile_monitor_answer_is_a_note_or_shown_escaped_never_a_panic() {
    let live = oom();
    prune_last_run(&live);
    let baseline = explain(&live, &["--no-monitor"]);
    let hostile_run = serde_json::json!({
        "schemaVersion": 1, "namespace": "data", "cronJob": "etl",
        "runs": [{
            "job": "etl-29919000", "slot": "2026-11-20T02:00:00Z", "outcome": "failed",
            "reason": "Boom\u{1b}[2J\u{7}", "stages": {},
            "failedAttempts": [{"pod": "p\u{202e}x", "reason": "OOMKilled", "message": "m\r\nFAKE LINE", "times": 1}]
        }]
    });
    let cases: Vec<(&str, Vec<u8>, Duration, &str)> = vec![
        ("invalid JSON", b"{\"schemaVersion\": 1, \"runs\": [".to_vec(), Duration::ZERO, "not a runs document"),
        ("huge", vec![b' '; 8 << 20], Duration::ZERO, "larger than 4 MiB"),
        (
            "another CronJob",
            serde_json::to_vec(&serde_json::json!({"schemaVersion": 1, "namespace": "data", "cronJob": "other", "runs": []})).unwrap(),
            Duration::ZERO,
            "another CronJob",
        ),
        ("slow", b"{}".to_vec(), Duration::from_secs(6), "no answer within 2s"),
        ("control characters", serde_json::to_vec(&hostile_run).unwrap(), Duration::ZERO, ""),
    ];
    for (what, reply, delay, note) in cases {
        let addr = fake_monitor(reply, delay);
        live.server
            .set_service_proxy("cronjob-doctor", "cronjob-doctor", 9090, Some(addr));
        let started = Instant::now();
        let out = explain(&live, &[]);
        let took = started.elapsed();
        assert_eq!(
            out.code, baseline.code,
            "{what}: {}\n{}",
            out.stdout, out.stderr
        );
        assert!(!out.stderr.contains("panicked"), "{what}: {}", out.stderr);
        assert!(took < Duration::from_secs(5), "{what}: took {took:?}");
        assert!(
            !out.stdout.contains('\u{1b}')
                && !out.stdout.contains('\u{7}')
                && !out.stdout.contains('\u{202e}'),
            "{what}: a raw control character reached the terminal: {:?}",
            out.stdout
        );
        let notes = monitor_note(&out);
        if note.is_empty() {
            assert!(notes.is_empty(), "{what}: {notes:?}");
            let line = out
                .stdout
                .lines()
                .find(|l| l.contains("etl-29919000"))
                .unwrap_or_else(|| panic!("{what}: {}", out.stdout));
            assert!(
                line.contains("retained by the monitor; Boom\\e[2J\\a"),
                "{what}: {line}"
            );
            assert!(
                !out.stdout.contains("\nFAKE LINE"),
                "{what}: {}",
                out.stdout
            );
        } else {
            assert_eq!(notes.len(), 1, "{what}: {}", out.stdout);
            assert!(notes[0].contains(note), "{what}: {}", notes[0]);
        }
    }
}
