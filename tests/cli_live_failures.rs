//! The live path when the cluster is less than cooperative: missing permissions, typos,
//! throttling, server errors, dropped connections, nobody listening, slow answers.

use std::time::{Duration, Instant};

use crate::cli_live_common::*;
use fake_apiserver::{AccessRule, Fault};

#[test]
fn forbidden_events_still_diagnose_with_a_note() {
    let live = forbid();
    live.server
        .add_access_rule(AccessRule::deny("list", "events"));
    let out = explain(&live, &[]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        flat(&out.stdout).contains("Forbid is blocked by job backup-29914740"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("note: Events: forbidden (events is forbidden: User \"fake-user\" cannot list resource \"events\""),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(
        "diagnosis from status and Jobs only — grant get/list on events, see deploy/rbac/"
    ));
    let (v, _) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup"]);
        c
    });
    assert!(
        v["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("Events: forbidden"),
        "{}",
        v["notes"]
    );
    assert_eq!(v["cronJobs"][0]["controller"]["decision"], "forbid-blocked");
}

#[test]
fn forbidden_pods_and_jobs_reduce_the_evidence_but_not_the_headline() {
    let live = forbid();
    live.server
        .add_access_rule(AccessRule::deny("list", "pods"));
    let out = explain(&live, &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains("note: Pods: forbidden"),
        "{}",
        out.stdout
    );
    assert!(
        flat(&out.stdout).contains("Forbid is blocked by job backup-29914740"),
        "{}",
        out.stdout
    );
    live.server
        .set_access_rules(vec![AccessRule::deny("list", "jobs")]);
    let out = explain(&live, &[]);
    assert!(
        out.stdout.contains("note: Jobs: forbidden"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("Forbid is blocked"), "{}", out.stdout);
    // scan: the same notes, once, above the table.
    live.server.set_access_rules(vec![
        AccessRule::deny("list", "events"),
        AccessRule::deny("list", "pods"),
    ]);
    let mut c = live.cmd();
    c.args(["scan", "-A"]);
    let out = run(c);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let notes: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("note: "))
        .collect();
    assert!(
        notes[0].starts_with("note: Pods: forbidden")
            && notes[1].starts_with("note: Events: forbidden"),
        "{notes:?}"
    );
}

#[test]
fn a_typo_suggests_the_closest_names_and_exits_2() {
    let live = forbid();
    let mut c = live.cmd();
    c.args(["explain", "bakup"]);
    let out = run(c);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr.trim(),
        "error: no CronJob named \"bakup\" in namespace ops; did you mean backup? (context fake)"
    );
    assert!(out.stdout.is_empty());
    let lines = live.lines();
    assert_eq!(lines[1], "GET /apis/batch/v1/namespaces/ops/cronjobs/bakup");
    assert_eq!(
        lines[2],
        "GET /apis/batch/v1/namespaces/ops/cronjobs?limit=500"
    );
}

#[test]
fn an_unreachable_server_gets_one_paragraph_saying_what_was_tried() {
    // A port nobody listens on: bind one, note it, close it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = scratch("unreachable");
    let kc = dir.join("config");
    let ctx = fake_apiserver::KubeContext {
        name: "prod",
        server: &format!("http://127.0.0.1:{port}"),
        namespace: None,
        token: "t",
        ca_pem: None,
    };
    fake_apiserver::write_kubeconfig_file(&kc, &[ctx], "prod").unwrap();
    let mut c = doctor();
    c.env("KUBECONFIG", &kc).args(["explain", "backup"]);
    let started = Instant::now();
    let out = run(c);
    assert!(started.elapsed() < Duration::from_secs(10), "fails fast");
    assert_eq!(out.code, 2);
    let e = out.stderr.trim();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with(&format!("error: GET /version failed for context prod (http://127.0.0.1:{port}/, from KUBECONFIG=")), "{e}");
    assert!(e.to_lowercase().contains("connection refused"), "{e}");
    assert!(
        e.contains("kubectl --context prod get --raw /version"),
        "{e}"
    );
    // No kubeconfig at all, not in a cluster: say so.
    let mut c = doctor();
    c.args(["scan", "-A"]);
    let out = run(c);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a cluster"), "{}", out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_credentials_are_named_as_such() {
    let live = forbid();
    live.server.inject(Fault::status(
        "*",
        "**",
        401,
        "Unauthorized",
        "Unauthorized",
    ));
    let out = explain(&live, &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("401 Unauthorized"), "{}", out.stderr);
    assert!(
        out.stderr.contains("The server rejected the credentials"),
        "{}",
        out.stderr
    );
}

#[test]
fn throttling_is_retried_after_the_servers_delay_visibly() {
    let live = forbid();
    live.server
        .inject(Fault::too_many_requests("list", "/apis/batch/v1/namespaces/ops/jobs", 1).times(2));
    let started = Instant::now();
    let out = explain(&live, &[]);
    let took = started.elapsed();
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.contains("Forbid is blocked"), "{}", out.stdout);
    assert!(
        took >= Duration::from_secs(2),
        "Retry-After honoured twice: {took:?}"
    );
    let notices: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(notices.len(), 2, "{}", out.stderr);
    assert!(
        notices[0].starts_with("retrying GET /apis/batch/v1/namespaces/ops/jobs in 1s (attempt 2 of 3): 429 Too Many Requests"),
        "{}",
        notices[0]
    );
    assert!(notices[1].contains("(attempt 3 of 3)"));
    let jobs = live
        .lines()
        .iter()
        .filter(|l| l.starts_with("GET /apis/batch/v1/namespaces/ops/jobs"))
        .count();
    assert_eq!(jobs, 3);
    // JSON output: the same retries, silently.
    live.server
        .inject(Fault::too_many_requests("list", "/apis/batch/v1/namespaces/ops/jobs", 1).once());
    let (_, out) = json({
        let mut c = live.cmd();
        c.args(["explain", "backup"]);
        c
    });
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
fn server_errors_give_up_after_three_attempts() {
    let live = forbid();
    live.server.inject(Fault::internal_error(
        "list",
        "/apis/batch/v1/namespaces/ops/jobs",
    ));
    let started = Instant::now();
    let out = explain(&live, &[]);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(out.code, 2);
    let jobs = live
        .lines()
        .iter()
        .filter(|l| l.starts_with("GET /apis/batch/v1/namespaces/ops/jobs"))
        .count();
    assert_eq!(jobs, 3);
    let last = out.stderr.lines().last().unwrap();
    assert!(
        last.starts_with("error: LIST /apis/batch/v1/namespaces/ops/jobs failed for context fake"),
        "{last}"
    );
    assert!(
        last.contains("500 Internal Server Error") && last.contains("(gave up after 3 attempts)"),
        "{last}"
    );
}

#[test]
fn a_dropped_connection_is_retried() {
    let live = forbid();
    live.server.inject(
        Fault::drop_connection("get", "/apis/batch/v1/namespaces/ops/cronjobs/backup").once(),
    );
    let out = explain(&live, &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("retrying GET /apis/batch/v1/namespaces/ops/cronjobs/backup"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_slow_server_hits_the_request_timeout() {
    let live = forbid();
    live.server
        .inject(Fault::delay("get", "/version", Duration::from_secs(5)));
    let started = Instant::now();
    let out = explain(&live, &["--request-timeout", "1s"]);
    assert!(started.elapsed() < Duration::from_secs(4));
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("no answer within --request-timeout 1s"),
        "{}",
        out.stderr
    );
}

#[test]
fn explain_without_a_name_or_files_says_what_it_needs() {
    let out = run({
        let mut c = doctor();
        c.arg("explain");
        c
    });
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("explain needs the NAME of a CronJob"),
        "{}",
        out.stderr
    );
}

/// Every way a request for evidence can fail, for (explain, scan) on Pods and Events.
fn evidence_faults(path: &str) -> Vec<(&'static str, Fault)> {
    vec![
        ("500", Fault::internal_error("list", path)),
        ("429", Fault::too_many_requests("list", path, 0)),
        ("404", Fault::not_found("list", path)),
        ("dropped", Fault::drop_connection("list", path)),
    ]
}

#[test]
fn failing_pods_or_events_become_a_note_in_explain() {
    for (what, title) in [("pods", "Pods"), ("events", "Events")] {
        for (fault, f) in evidence_faults(&format!("**/{what}")) {
            let live = forbid();
            live.server.inject(f);
            let out = explain(&live, &[]);
            assert_eq!(out.code, 1, "{what} {fault}: {out:?}", out = out.stderr);
            assert!(
                flat(&out.stdout).contains("Forbid is blocked by job backup-29914740"),
                "{what} {fault}: {}",
                out.stdout
            );
            let note = format!("note: {title}: could not be read (");
            assert!(out.stdout.contains(&note), "{what} {fault}: {}", out.stdout);
            assert!(
                !out.stdout.contains("ServiceError"),
                "no client-internal names: {}",
                out.stdout
            );
        }
    }
}

#[test]
fn failing_pods_or_events_become_a_note_in_scan() {
    for (what, title) in [("pods", "Pods"), ("events", "Events")] {
        for (fault, f) in evidence_faults(&format!("**/{what}")) {
            let live = forbid();
            live.server.inject(f);
            let mut c = live.cmd();
            c.args(["scan", "-A"]);
            let out = run(c);
            assert_eq!(out.code, 1, "{what} {fault}: {}", out.stderr);
            let note = format!("note: {title}: could not be read (");
            assert!(
                out.stdout.lines().any(|l| l.starts_with(&note)),
                "{what} {fault}: {}",
                out.stdout
            );
            assert!(out.stdout.contains("backup"), "{}", out.stdout);
            // The JSON report: the same note, and the evidence flag says what is missing.
            let (v, _) = json({
                let mut c = live.cmd();
                c.args(["scan", "-A"]);
                c
            });
            assert!(
                v["notes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|n| n.as_str().unwrap().starts_with(&note["note: ".len()..])),
                "{}",
                v["notes"]
            );
        }
    }
}

#[test]
fn a_failing_version_becomes_a_note() {
    let live = forbid();
    live.server.inject(Fault::internal_error("get", "/version"));
    let out = explain(&live, &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("note: could not read the server version (500"),
        "{}",
        out.stdout
    );
    let mut c = live.cmd();
    c.args(["scan", "-A"]);
    let out = run(c);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("note: could not read the server version (500"),
        "{}",
        out.stdout
    );
}

#[test]
fn jobs_stay_required_in_scan() {
    let live = forbid();
    live.server
        .inject(Fault::internal_error("list", "/apis/batch/v1/jobs"));
    let mut c = live.cmd();
    c.args(["scan", "-A"]);
    let out = run(c);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("LIST /apis/batch/v1/jobs failed"),
        "{}",
        out.stderr
    );
}

#[test]
fn credentials_in_the_server_url_are_never_printed() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // `' ( ) ,` are legal in a password, and used to end the prose scan's idea of a URL.
    for (tag, password, secret) in [
        ("plain", "SECRET", "SECRET"),
        ("punctuated", "p,(x)'!S3cr", "S3cr"),
    ] {
        let dir = std::env::temp_dir().join(format!("cjd-userinfo-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kc = dir.join("config");
        let server = format!("http://admin:{password}@127.0.0.1:{port}");
        let ctx = fake_apiserver::KubeContext {
            name: "prod",
            server: &server,
            namespace: None,
            token: "TOKEN-SECRET",
            ca_pem: None,
        };
        fake_apiserver::write_kubeconfig_file(&kc, &[ctx], "prod").unwrap();
        for args in [
            &["explain", "backup"][..],
            &["explain", "backup", "-o", "json"],
            &["scan", "-A"],
            &["suspend", "backup", "--dry-run=server"],
            &["unsuspend", "backup", "--yes"],
            &["trigger", "backup", "--dry-run=server"],
        ] {
            let mut c = doctor();
            c.env("KUBECONFIG", &kc).args(args);
            let out = run(c);
            assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
            for text in [&out.stdout, &out.stderr] {
                assert!(!text.contains(secret), "{tag} {args:?}: {text}");
                assert!(!text.contains("(x)'"), "{tag} {args:?}: {text}");
            }
            assert!(
                out.stderr
                    .contains(&format!("http://REDACTED@127.0.0.1:{port}/")),
                "{tag} {args:?}: {}",
                out.stderr
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A kubeconfig whose one context `fake` reaches `live`'s server with credentials from the
/// exec plugin `script` (a shell script written next to it); returns its path.
fn exec_kubeconfig(live: &Live, script: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let plugin = live.dir.join("plugin.sh");
    std::fs::write(&plugin, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let kc = live.dir.join("exec-kubeconfig");
    std::fs::write(
        &kc,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: fake\nclusters:\n- name: fake\n  cluster:\n    server: {}\ncontexts:\n- name: fake\n  context:\n    cluster: fake\n    user: sso\n    namespace: ops\nusers:\n- name: sso\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {}\n      args: [\"--cluster\", \"prod\"]\n      env:\n      - name: PLUGIN_SECRET\n        value: env-s3cr3t-value\n      interactiveMode: IfAvailable\n",
            live.server.url(),
            plugin.display()
        ),
    )
    .unwrap();
    kc
}

const TOKEN: &str = "s3cr3t-TOKEN-abc123";

/// No piece of the token (nor of the plugin's secret environment) in what the tool printed.
fn assert_no_secret(out: &Out) {
    for part in [
        "s3cr3t",
        "TOKEN-abc",
        "abc123",
        "env-s3cr3t-value",
        "Output {",
    ] {
        assert!(
            !out.stdout.contains(part) && !out.stderr.contains(part),
            "{part:?} printed:\n{}\n{}",
            out.stdout,
            out.stderr
        );
    }
}

#[test]
fn an_exec_plugins_credential_is_used_and_its_output_never_printed() {
    let live = forbid();
    // A plugin that answers: the tool works with its token (the guard passed stdout on).
    let kc = exec_kubeconfig(
        &live,
        &format!(
            r#"printf '{{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{{"token":"{TOKEN}"}}}}'"#
        ),
    );
    let mut c = doctor();
    c.env("KUBECONFIG", &kc)
        .args(["explain", "backup", "--now", NOW]);
    let out = run(c);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        headline(&out.stdout).contains("Forbid is blocked"),
        "{}",
        out.stdout
    );
    assert!(
        live.server
            .requests()
            .iter()
            .all(|r| r.bearer_token() == Some(TOKEN))
    );

    // Cut mid-write, a proxy banner, and a failure that wrote its credential to stdout and a
    // message with a terminal escape to stderr: none of stdout is printed, stderr is escaped.
    let cut = format!(
        r#"printf '{{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{{"token":"{TOKEN}",'"#
    );
    let banner = format!(r#"printf 'Proxy login {TOKEN}\n'"#);
    let failed = format!(
        r#"printf '{{"status":{{"token":"{TOKEN}"}}}}'; printf 'login expired \033[31mred\n' >&2; exit 3"#
    );
    for (script, says) in [
        (&cut, "ends in the middle of a JSON document"),
        (&banner, "is not JSON"),
        (&failed, "failed with exit code 3"),
    ] {
        let kc = exec_kubeconfig(&live, script);
        for args in [&["explain", "backup"][..], &["scan", "-A"]] {
            let mut c = doctor();
            c.env("KUBECONFIG", &kc).args(args).args(["--now", NOW]);
            let out = run(c);
            assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
            assert_no_secret(&out);
            assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
            assert!(
                out.stderr.contains("plugin.sh --cluster prod`"),
                "{}",
                out.stderr
            );
            if script == &failed {
                assert!(
                    out.stderr.contains(r"login expired \e[31mred"),
                    "{}",
                    out.stderr
                );
                assert!(!out.stderr.contains('\u{1b}'), "{}", out.stderr);
            } else {
                assert!(out.stderr.contains("not shown"), "{}", out.stderr);
            }
        }
    }
}

#[test]
fn an_exec_plugin_that_never_answers_costs_the_context_timeout_and_is_named() {
    let live = forbid();
    let pid_file = live.dir.join("sleeper.pid");
    // The plugin waits on a child of its own, as a login helper would: the whole process
    // group goes at the deadline, not only the shell.
    let kc = exec_kubeconfig(
        &live,
        &format!("sleep 600 & echo $! > {}; wait", pid_file.display()),
    );
    let mut c = doctor();
    c.env("KUBECONFIG", &kc)
        .args([
            "scan",
            "-A",
            "--all-contexts",
            "--context-timeout",
            "3s",
            "--now",
            NOW,
        ])
        .timeout(Duration::from_secs(60));
    let started = Instant::now();
    let out = run(c);
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(30),
        "took {took:?}: {}",
        out.stderr
    );
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr
            .contains("plugin.sh --cluster prod` did not answer within 2."),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("run it by hand"), "{}", out.stderr);
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid = pid.trim();
    // Killed with its group (a zombie at most until init reaps it).
    let alive =
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "));
    assert!(!alive, "the plugin's child {pid} still runs");
}
