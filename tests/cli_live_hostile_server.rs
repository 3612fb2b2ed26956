//! A server that does not play fair: messages carrying terminal escapes, a `Retry-After` of
//! 2^64-1 seconds, a kubeconfig whose YAML error would quote a token. Nothing panics, nothing
//! sleeps for ever, no control character and no credential reaches the terminal.

use std::time::{Duration, Instant};

use crate::cli_live_common::*;
use fake_apiserver::Fault;

const CRONJOB: &str = "/apis/batch/v1/namespaces/ops/cronjobs/backup";
/// A status message that would retitle the terminal and clear it.
const HOSTILE: &str = "no\u{1b}]0;pwned\u{7} way\u{1b}[2J";

fn assert_no_controls(text: &str) {
    assert!(
        !text.contains(['\u{1b}', '\u{7}', '\r']),
        "raw control character in {text:?}"
    );
}

#[test]
fn a_servers_error_message_cannot_drive_the_terminal() {
    let live = forbid();
    live.server
        .inject(Fault::status("get", CRONJOB, 422, "Invalid", HOSTILE));
    let out = explain(&live, &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_no_controls(&out.stderr);
    assert!(
        out.stderr.contains("no\\e]0;pwned\\a way\\e[2J"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_retry_notice_cannot_drive_the_terminal() {
    let live = forbid();
    live.server
        .inject(Fault::status("get", CRONJOB, 503, "ServiceUnavailable", HOSTILE).once());
    let out = explain(&live, &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_no_controls(&out.stderr);
    assert!(
        out.stderr.contains(&format!("retrying GET {CRONJOB}"))
            && out.stderr.contains("no\\e]0;pwned\\a way\\e[2J"),
        "{}",
        out.stderr
    );
}

/// 2^64-1 seconds used to panic (`overflow when adding duration to instant`), and with
/// `--request-timeout 0` to sleep for ever.
#[test]
fn a_huge_retry_after_gives_up_at_once_with_a_reason() {
    for timeout in ["30s", "0"] {
        let live = forbid();
        live.server
            .inject(Fault::too_many_requests("get", CRONJOB, u64::MAX));
        let started = Instant::now();
        let out = explain(&live, &["--request-timeout", timeout]);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{timeout}: {:?}",
            started.elapsed()
        );
        assert_eq!(out.code, 2, "{timeout}: {}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
        assert!(
            out.stderr.contains("429 Too Many Requests")
                && out.stderr.contains("the server asked to retry in ")
                && out
                    .stderr
                    .contains(", longer than the 30s this tool waits between attempts"),
            "{timeout}: {}",
            out.stderr
        );
        let gets = live
            .lines()
            .iter()
            .filter(|l| l.starts_with(&format!("GET {CRONJOB}")))
            .count();
        assert_eq!(gets, 1, "{timeout}: no retry");
    }
}

#[test]
fn a_retry_after_within_the_cap_is_still_honoured() {
    let live = forbid();
    live.server
        .inject(Fault::too_many_requests("get", CRONJOB, 1).once());
    let started = Instant::now();
    let out = explain(&live, &["--request-timeout", "0"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert!(
        out.stderr
            .contains(&format!("retrying GET {CRONJOB} in 1s (attempt 2 of 3)")),
        "{}",
        out.stderr
    );
}

#[test]
fn a_kubeconfig_yaml_error_does_not_quote_the_file() {
    let dir = scratch("bad-kc");
    let kc = dir.join("config");
    std::fs::write(
        &kc,
        "apiVersion: v1\nusers:\n- name: u\n  user:\n    token: TOKEN-SECRET\n   oops: [\n",
    )
    .unwrap();
    let mut c = doctor();
    c.env("KUBECONFIG", &kc).args(["explain", "backup"]);
    let out = run(c);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(!out.stderr.contains("TOKEN-SECRET"), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.starts_with(&format!(
            "error: cannot parse kubeconfig {}: ",
            kc.display()
        )),
        "{}",
        out.stderr
    );
}

/// End to end for `scan` and `explain` (the monitor's test is in
/// tests/monitor.rs): a lone UTF-16 surrogate escape in a CronJob's annotation and in an
/// Event's message is read as U+FFFD, the objects are named in a note, and the diagnosis
/// goes on (it used to end with exit 2, "could not be reached").
#[test]
fn a_lone_surrogate_escape_is_read_as_go_reads_it_and_its_object_named() {
    let live = forbid();
    live.server
        .set_wire_rewrite(Some(("LONE-SURROGATE", r"\ud800")));
    let mut cj = live.server.object("CronJob", "ops", "backup").unwrap();
    cj["metadata"]["annotations"] = serde_json::json!({"note": "a LONE-SURROGATE b"});
    live.server.put_object(cj).unwrap();
    live.server
        .put_object(lone_surrogate_event("backup"))
        .unwrap();
    let mut c = live.cmd();
    c.args(["scan", "-A"]);
    let out = run(c);
    assert_eq!(out.code, 1, "findings, not a failure: {}", out.stderr);
    for who in ["ops/backup", "ops/odd.1"] {
        assert!(
            out.stderr
                .lines()
                .any(|l| l.contains(who) && l.contains("lone UTF-16 surrogate escape")),
            "{who}: {}",
            out.stderr
        );
    }
    let out = explain(&live, &["-n", "ops"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.contains("forbid-blocked"), "{}", out.stdout);
    assert!(
        out.stderr.lines().any(|l| l.starts_with(
            "note: GET /apis/batch/v1/namespaces/ops/cronjobs/backup: ops/backup holds a string with a lone UTF-16 surrogate escape"
        )),
        "{}",
        out.stderr
    );
}
