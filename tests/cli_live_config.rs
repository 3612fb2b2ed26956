//! What the live path takes from the cluster's configuration: the server's clock as "now",
//! its version as the controller to replay (flags win), and kubeconfig contexts, users and
//! merged files chosen like kubectl chooses them.

use crate::cli_live_common::*;

#[test]
fn now_is_the_servers_clock_and_skew_is_reported() {
    let live = forbid();
    live.server
        .set_clock("2026-11-20T15:30:00Z".parse().unwrap());
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup"]);
        c
    });
    assert_eq!(v["now"], "2026-11-20T15:30:00Z");
    let text = explain(&live, &[]);
    assert!(
        text.stdout
            .contains("Controller replay at 2026-11-20 15:30 UTC"),
        "{}",
        text.stdout
    );
    // An explicit --now wins.
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup", "--now", "2026-11-20T12:00:00Z"]);
        c
    });
    assert_eq!(v["now"], "2026-11-20T12:00:00Z");
    // A server an hour ahead of this machine: a note, and the server's time is used.
    live.server
        .set_clock_skew(jiff::SignedDuration::from_hours(1));
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup"]);
        c
    });
    let note = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n.as_str().unwrap().contains("local clock"));
    assert!(
        note.unwrap()
            .as_str()
            .unwrap()
            .starts_with("the local clock is 1h behind the API server's"),
        "{}",
        v["notes"]
    );
}

#[test]
fn the_server_version_selects_the_replay_and_a_flag_wins() {
    let live = forbid();
    live.server.set_version("v1.20.15");
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup"]);
        c
    });
    assert_eq!(v["kubeVersion"], "1.20.15");
    assert_eq!(v["cronJobs"][0]["replay"]["variant"], "v1-legacy");
    live.server.set_version("v1.28.4-gke.1000");
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup"]);
        c
    });
    assert_eq!(v["cronJobs"][0]["replay"]["variant"], "v2-1.28");
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup", "--kube-version", "1.31"]);
        c
    });
    assert_eq!(v["kubeVersion"], "1.31");
    assert_eq!(v["cronJobs"][0]["replay"]["variant"], "v2-1.29+");
}

#[test]
fn contexts_users_and_merged_kubeconfigs_work_like_kubectl() {
    let live = forbid();
    let kc = live.server.write_kubeconfig_contexts(
        &live.dir,
        &[("dev", Some("finance")), ("prod", Some("ops"))],
        "dev",
    );
    // --context picks prod: its namespace and its token.
    live.server.clear_requests();
    let mut c = doctor();
    c.env("KUBECONFIG", &kc)
        .args(["explain", "backup", "--context", "prod"]);
    let out = run(c);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let reqs = live.server.requests();
    assert!(
        reqs.iter()
            .all(|r| r.bearer_token() == Some("fake-token-prod")),
        "{reqs:?}"
    );
    // --user overrides the context's user; --kubeconfig overrides KUBECONFIG.
    live.server.clear_requests();
    let mut c = doctor();
    c.env("KUBECONFIG", "/nonexistent")
        .args([
            "explain",
            "backup",
            "-n",
            "ops",
            "--user",
            "prod",
            "--kubeconfig",
        ])
        .arg(&kc);
    let out = run(c);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        live.server
            .requests()
            .iter()
            .all(|r| r.bearer_token() == Some("fake-token-prod"))
    );
    // KUBECONFIG with several files: merged, first current-context wins, missing files skipped.
    let second = live.dir.join("second");
    std::fs::create_dir_all(&second).unwrap();
    let other =
        live.server
            .write_kubeconfig_contexts(&second, &[("staging", Some("ops"))], "staging");
    let joined =
        std::env::join_paths([other.clone(), live.dir.join("missing"), kc.clone()]).unwrap();
    live.server.clear_requests();
    let mut c = doctor();
    c.env("KUBECONFIG", &joined)
        .args(["explain", "backup", "--context", "prod"]);
    let out = run(c);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        live.server
            .requests()
            .iter()
            .all(|r| r.bearer_token() == Some("fake-token-prod"))
    );
    live.server.clear_requests();
    let mut c = doctor();
    c.env("KUBECONFIG", &joined).args(["explain", "backup"]);
    assert_eq!(run(c).code, 1);
    assert!(
        live.server
            .requests()
            .iter()
            .all(|r| r.bearer_token() == Some("fake-token-staging"))
    );
    // An unknown context is a clear error.
    let mut c = doctor();
    c.env("KUBECONFIG", &kc)
        .args(["explain", "backup", "--context", "nope"]);
    let out = run(c);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("cannot use context \"nope\""),
        "{}",
        out.stderr
    );
}

/// A static token with a control character (pasted into the kubeconfig) is an input error
/// naming the context, for one context as for a fleet: kube's client would panic on it
/// (exit 101 with a backtrace), and the token itself is never printed.
#[test]
fn a_token_no_header_can_carry_is_an_input_error_not_a_panic() {
    let dir = scratch("hostile-token");
    let path = dir.join("config");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \"https://127.0.0.1:1\"}\nusers:\n- name: u\n  user: {token: \"s3cr3t\\u0001tail\"}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n",
    )
    .unwrap();
    let mut outs = Vec::new();
    for args in [
        &["scan"][..],
        &["explain", "backup", "-n", "ops"],
        &["suspend", "backup", "-n", "ops", "--dry-run=server"],
        &["monitor", "-A"],
    ] {
        let mut c = assert_cmd::Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
        c.args(args).arg("--kubeconfig").arg(&path);
        outs.push((args, run(c)));
    }
    // Removed before any assertion, so a failure leaves nothing behind either.
    let _ = std::fs::remove_dir_all(&dir);
    for (args, out) in outs {
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("context x")
                && out
                    .stderr
                    .contains("token holds characters an HTTP header cannot carry"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
        assert!(!out.stderr.contains("s3cr3t"), "the token is never printed");
    }
}
