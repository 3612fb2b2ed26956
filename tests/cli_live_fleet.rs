//! A fleet of clusters in one report: `scan` and `explain` with several
//! `--context` flags or `--all-contexts`, against several fake API servers at once — one
//! healthy, one with its own clock, one down (a closed port), one slow (latency far above the
//! per-context timeout). Timing bounds are loose: they tell "about the slowest context" from
//! "the sum of the contexts", nothing finer.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::cli_live_common::*;
use fake_apiserver::{Clock, FakeApiServer, KubeContext, kubeconfig_yaml};
use serde_json::Value;

/// The servers of one test and a kubeconfig with a context per server.
struct Fleet {
    _servers: Vec<FakeApiServer>,
    dir: PathBuf,
    kubeconfig: PathBuf,
}

impl Drop for Fleet {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A context to put in the kubeconfig: a running server or a closed port.
enum Member {
    Up(FakeApiServer),
    Down,
}

fn server(files: &[&str], now: &str) -> FakeApiServer {
    let paths: Vec<PathBuf> = files.iter().map(|f| example(f)).collect();
    FakeApiServer::builder()
        .clock(Clock::Fixed(now.parse().unwrap()))
        .objects(load_files(&paths))
        .start_blocking()
        .expect("fake-apiserver starts")
}

/// prod: a hung Forbid CronJob and a healthy one; staging: the same healthy one and one that
/// never fires, its clock an hour ahead of prod's.
fn prod() -> Member {
    Member::Up(server(
        &["forbid-blocked-by-hung-job.yaml", "healthy.yaml"],
        NOW,
    ))
}

fn staging() -> Member {
    Member::Up(staging_server())
}

fn staging_server() -> FakeApiServer {
    server(
        &["healthy.yaml", "never-fires.yaml"],
        "2026-11-20T13:00:00Z",
    )
}

/// A kubeconfig context over plain HTTP.
fn context<'a>(
    name: &'a str,
    server: &'a str,
    namespace: Option<&'a str>,
    token: &'a str,
) -> KubeContext<'a> {
    KubeContext {
        name,
        server,
        namespace,
        token,
        ca_pem: None,
    }
}

/// The usual fleet: two clusters up (with different clocks) and one down.
fn prod_staging_dead() -> Fleet {
    fleet(vec![
        ("prod", prod()),
        ("staging", staging()),
        ("dead", Member::Down),
    ])
}

/// A server that answers every request only after `latency`.
fn slow(latency: Duration) -> Member {
    Member::Up(
        FakeApiServer::builder()
            .clock(Clock::Fixed(NOW.parse().unwrap()))
            .objects(load_files(&[example("healthy.yaml")]))
            .latency(latency)
            .start_blocking()
            .expect("fake-apiserver starts"),
    )
}

/// A port nothing listens on: bound, then released.
fn closed_port_url() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    format!("http://127.0.0.1:{port}")
}

fn fleet(members: Vec<(&str, Member)>) -> Fleet {
    let mut servers = Vec::new();
    let mut urls = Vec::new();
    for (_, m) in &members {
        urls.push(match m {
            Member::Up(s) => s.url(),
            Member::Down => closed_port_url(),
        });
    }
    let tokens: Vec<String> = (0..members.len()).map(|i| format!("token-{i}")).collect();
    let contexts: Vec<KubeContext<'_>> = members
        .iter()
        .zip(&urls)
        .zip(&tokens)
        .map(|(((name, _), url), token)| context(name, url, None, token))
        .collect();
    let kubeconfig = kubeconfig_yaml(&contexts, members[0].0);
    for (_, m) in members {
        if let Member::Up(s) = m {
            servers.push(s);
        }
    }
    Fleet::with_kubeconfig(servers, &kubeconfig)
}

impl Fleet {
    /// `servers` and the kubeconfig `yaml` (its contexts point at them, or anywhere), in a
    /// directory of their own.
    fn with_kubeconfig(servers: Vec<FakeApiServer>, yaml: &str) -> Fleet {
        let dir = scratch("fleet");
        let kubeconfig = dir.join("kubeconfig");
        std::fs::write(&kubeconfig, yaml).unwrap();
        Fleet {
            _servers: servers,
            dir,
            kubeconfig,
        }
    }
}

impl Fleet {
    fn cmd(&self, args: &[&str]) -> assert_cmd::Command {
        let mut c = doctor();
        c.env("KUBECONFIG", &self.kubeconfig).args(args);
        c
    }

    fn run(&self, args: &[&str]) -> Out {
        run(self.cmd(args))
    }

    fn json(&self, args: &[&str]) -> (Value, Out) {
        json(self.cmd(args))
    }
}

/// The table with the elapsed time of the footer made stable.
fn stable(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("(scanned in ") {
            Some(i) => format!("{}(scanned in X.Xs)", &l[..i]),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_table_has_a_context_column_worst_first_across_clusters_and_a_dead_cluster_is_said() {
    let f = prod_staging_dead();
    let out = f.run(&[
        "scan",
        "-A",
        "--context",
        "prod",
        "--context",
        "staging",
        "--context",
        "dead",
        "--context-timeout",
        "10s",
        "--now",
        NOW,
    ]);
    // A context could not be read: exit 2, and the others are still reported.
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    let err_lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(err_lines.len(), 1, "{}", out.stderr);
    assert!(
        err_lines[0].starts_with("error: context dead: ") && err_lines[0].contains("127.0.0.1"),
        "{}",
        out.stderr
    );
    let lines: Vec<&str> = out.stdout.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("CONTEXT")).unwrap();
    assert!(
        lines[header].starts_with("CONTEXT  NAMESPACE  NAME"),
        "{}",
        lines[header]
    );
    let rows = &lines[header + 1..lines.len() - 1];
    assert_eq!(rows.len(), 4, "{}", out.stdout);
    // Worst first across clusters: the errors (prod's hung backup, staging's never-firing
    // one), then the two healthy copies; among equals, the contexts in the order asked.
    assert!(
        rows[0].starts_with("prod") && rows[0].contains("backup"),
        "{}",
        out.stdout
    );
    assert!(
        rows[1].starts_with("staging") && rows[1].contains("leap-cleanup"),
        "{}",
        out.stdout
    );
    assert!(
        rows[2].starts_with("prod") && rows[2].contains("invoices"),
        "{}",
        out.stdout
    );
    assert!(
        rows[3].starts_with("staging") && rows[3].contains("invoices"),
        "{}",
        out.stdout
    );
    assert!(
        lines.last().unwrap().starts_with(
            "2 of 4 CronJobs in 2 contexts need attention; 1 of 3 contexts could not be read"
        ),
        "{}",
        out.stdout
    );
    insta::assert_snapshot!(stable(&out.stdout));
    // Without --now each row is judged by its own cluster's clock: staging's is an hour ahead.
    let out = f.run(&[
        "scan",
        "-n",
        "finance",
        "--context",
        "prod",
        "--context",
        "staging",
    ]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let row = |ctx: &str| {
        out.stdout
            .lines()
            .find(|l| l.starts_with(ctx) && l.contains("invoices"))
            .unwrap_or_else(|| panic!("{ctx} in {}", out.stdout))
            .to_string()
    };
    assert!(
        row("prod").contains("6h ago") && row("prod").contains("in 18h"),
        "{}",
        out.stdout
    );
    assert!(
        row("staging").contains("7h ago") && row("staging").contains("in 17h"),
        "{}",
        out.stdout
    );
}

#[test]
fn json_carries_the_context_of_every_cronjob_and_an_error_per_dead_cluster() {
    let f = fleet(vec![
        ("prod", prod()),
        ("dead", Member::Down),
        ("staging", staging()),
    ]);
    let (v, out) = f.json(&["scan", "-A", "--all-contexts", "--context-timeout", "10s"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr in JSON mode: {}",
        out.stderr
    );
    assert_eq!(v["schemaVersion"], 1);
    let cjs = v["cronJobs"].as_array().unwrap();
    let keys: Vec<(&str, &str)> = cjs
        .iter()
        .map(|c| (c["context"].as_str().unwrap(), c["name"].as_str().unwrap()))
        .collect();
    // Kubeconfig order, then namespace/name (LIST order) inside each context.
    assert_eq!(
        keys,
        [
            ("prod", "invoices"),
            ("prod", "backup"),
            ("staging", "invoices"),
            ("staging", "leap-cleanup")
        ]
    );
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{v}");
    assert_eq!(errors[0]["context"], "dead");
    let msg = errors[0]["message"].as_str().unwrap();
    assert!(!msg.is_empty() && !msg.contains('\n'), "{msg}");
    // Each cluster's own clock and version; the frame's are the first readable context's.
    let contexts = v["contexts"].as_array().unwrap();
    assert_eq!(contexts.len(), 3);
    assert_eq!(contexts[0]["now"], NOW);
    assert_eq!(contexts[2]["now"], "2026-11-20T13:00:00Z");
    assert_eq!(contexts[1]["error"], msg);
    assert_eq!(contexts[0]["cronJobs"], 2);
    assert_eq!(v["now"], NOW);
    // Skew is per cluster: the local clock is days from both fixed clocks, and each note names
    // its context and that cluster's time.
    let notes: Vec<&str> = strings(&v["notes"]);
    let skew = |ctx: &str, at: &str| {
        notes
            .iter()
            .any(|n| n.starts_with(&format!("context {ctx}: the local clock is")) && n.contains(at))
    };
    assert!(skew("prod", NOW), "{notes:?}");
    assert!(skew("staging", "2026-11-20T13:00:00Z"), "{notes:?}");
    // Without any failure: the usual exit code (1: prod's backup is an error).
    let (v, out) = f.json(&["scan", "-A", "--context", "prod", "--context", "staging"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(v["errors"], serde_json::json!([]));
    let (v, out) = f.json(&[
        "scan",
        "-n",
        "finance",
        "--context",
        "prod",
        "--context",
        "staging",
    ]);
    assert_eq!(out.code, 0, "a healthy fleet exits 0: {}", out.stderr);
    assert_eq!(v["contexts"][1]["namespace"], "finance");
    assert_eq!(v["cronJobs"].as_array().unwrap().len(), 2);
}

#[test]
fn a_dead_and_a_slow_cluster_cost_their_timeout_not_the_sum() {
    let f = fleet(vec![
        ("prod", prod()),
        ("slow-a", slow(Duration::from_secs(60))),
        ("slow-b", slow(Duration::from_secs(60))),
        ("dead", Member::Down),
    ]);
    let started = Instant::now();
    let (v, out) = f.json(&["scan", "-A", "--all-contexts", "--context-timeout", "3s"]);
    let took = started.elapsed();
    assert_eq!(out.code, 2, "{}", out.stderr);
    let failed: Vec<&str> = field_of_each(&v["errors"], "context");
    assert_eq!(failed, ["slow-a", "slow-b", "dead"]);
    for e in v["errors"].as_array().unwrap().iter().take(2) {
        let m = e["message"].as_str().unwrap();
        // The entry names the context; the message does not say it again.
        assert!(
            m.starts_with("no complete answer within 3s (--context-timeout)"),
            "{m}"
        );
    }
    // prod was still read in full.
    assert_eq!(v["contexts"][0]["cronJobs"], 2);
    // Two slow clusters read one after the other would take 6s: side by side about 3s.
    assert!(took >= Duration::from_secs(3), "{took:?}");
    assert!(took < Duration::from_millis(5500), "{took:?}");
}

#[test]
fn explain_finds_the_cronjob_in_every_context_that_has_it() {
    let f = prod_staging_dead();
    // invoices is in finance in both clusters: each copy diagnosed, headed by its context.
    let out = f.run(&[
        "explain",
        "invoices",
        "-n",
        "finance",
        "--all-contexts",
        "--context-timeout",
        "10s",
    ]);
    assert_eq!(
        out.code, 2,
        "dead could not be read: {}{}",
        out.stdout, out.stderr
    );
    assert!(
        out.stderr.contains("error: context dead: "),
        "{}",
        out.stderr
    );
    let prod_at = out.stdout.find("=== context prod ===").expect(&out.stdout);
    let staging_at = out
        .stdout
        .find("=== context staging ===")
        .expect(&out.stdout);
    assert!(prod_at < staging_at);
    // Each copy replayed at its own cluster's clock.
    let (prod_text, staging_text) = out.stdout[prod_at..].split_at(staging_at - prod_at);
    assert!(
        prod_text.contains("Controller replay at 2026-11-20 12:00 UTC"),
        "{prod_text}"
    );
    assert!(
        staging_text.contains("Controller replay at 2026-11-20 13:00 UTC"),
        "{staging_text}"
    );
    assert!(
        staging_text.contains("✓ invoices is on schedule"),
        "{staging_text}"
    );
    // JSON: one entry per copy, with its context; the dead one in errors.
    let (v, out) = f.json(&["explain", "invoices", "-n", "finance", "--all-contexts"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let found: Vec<&str> = field_of_each(&v["cronJobs"], "context");
    assert_eq!(found, ["prod", "staging"]);
    assert_eq!(v["errors"][0]["context"], "dead");
    // Only in one of the readable contexts: that one, and a note for the other.
    let out = f.run(&[
        "explain",
        "backup",
        "-n",
        "ops",
        "--context",
        "prod",
        "--context",
        "staging",
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("=== context prod ==="),
        "{}",
        out.stdout
    );
    assert!(
        !out.stdout.contains("=== context staging ==="),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("note: no CronJob backup in context staging (namespace ops)"),
        "{}",
        out.stdout
    );
    // Nowhere: a clear error naming every context searched, and where else it is.
    let out = f.run(&[
        "explain",
        "backup",
        "--context",
        "prod",
        "--context",
        "staging",
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    let err = flat(&out.stderr);
    assert!(
        err.contains("no CronJob \"backup\" in context prod (namespace default), context staging (namespace default)"),
        "{err}"
    );
    assert!(err.contains("found in context prod namespace ops"), "{err}");
    // JSON: the document (where it was looked for), and why it is an error on stderr.
    let (v, out) = f.json(&[
        "explain",
        "backup",
        "--context",
        "prod",
        "--context",
        "staging",
    ]);
    assert_eq!(out.code, 2);
    assert_eq!(v["cronJobs"], serde_json::json!([]));
    assert_eq!(v["errors"], serde_json::json!([]));
    let err = flat(&out.stderr);
    assert!(
        err.starts_with("error: no CronJob \"backup\" in context prod"),
        "{err}"
    );
    assert!(err.contains("found in context prod namespace ops"), "{err}");
}

#[test]
fn fleet_flags_are_checked_before_any_cluster_is_contacted() {
    let f = fleet(vec![("prod", prod()), ("staging", staging())]);
    let out = f.run(&["scan", "--all-contexts", "--context", "prod"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--context"), "{}", out.stderr);
    for bad in ["0", "500ms", "2h", "soon"] {
        let out = f.run(&["scan", "--all-contexts", "--context-timeout", bad]);
        assert_eq!(out.code, 2, "{bad}");
        assert!(out.stderr.contains("--context-timeout"), "{}", out.stderr);
    }
    let help = f.run(&["scan", "--help"]).stdout;
    assert!(flat(&help).contains("from 1s to 1h"), "{help}");
    assert!(flat(&help).contains("--all-contexts"), "{help}");
    let out = f.run(&["explain", "--all-contexts", "-f", "x.yaml"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("give one or the other"),
        "{}",
        out.stderr
    );
    let out = f.run(&["explain", "invoices", "--all-contexts", "-o", "sarif"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("-o sarif"), "{}", out.stderr);
    let out = f.run(&[
        "scan",
        "--context",
        "prod",
        "--context",
        "staging",
        "--cluster",
        "prod",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--cluster and --user"),
        "{}",
        out.stderr
    );
    // Commands that act on one cluster refuse several contexts.
    let out = f.run(&[
        "trigger",
        "backup",
        "--context",
        "prod",
        "--context",
        "staging",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("only scan and explain read several contexts"),
        "{}",
        out.stderr
    );
    // One --context is an ordinary scan: no CONTEXT column, no `context` in the JSON.
    let (v, out) = f.json(&["scan", "-n", "finance", "--context", "staging"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(v["cronJobs"][0].get("context").is_none(), "{v}");
    assert!(v.get("contexts").is_none(), "{v}");
}

#[test]
fn a_hostile_context_name_is_shown_never_sent_to_the_terminal() {
    let evil = "evil\u{1b}]0;PWNED\u{7}\u{1b}[2J";
    let f = fleet(vec![("staging", staging()), (evil, Member::Down)]);
    let out = f.run(&[
        "scan",
        "-n",
        "finance",
        "--all-contexts",
        "--context-timeout",
        "10s",
    ]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    for text in [&out.stdout, &out.stderr] {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
    }
    assert!(
        out.stderr
            .contains("error: context evil\\e]0;PWNED\\a\\e[2J: "),
        "{}",
        out.stderr
    );
    // JSON carries the name as it is (escaped by JSON itself).
    let (v, _) = f.json(&[
        "scan",
        "-n",
        "finance",
        "--all-contexts",
        "--context-timeout",
        "10s",
    ]);
    assert_eq!(v["errors"][0]["context"], evil);
    let out = f.run(&[
        "explain",
        "nope",
        "--all-contexts",
        "--context-timeout",
        "10s",
    ]);
    assert_eq!(out.code, 2);
    assert!(!out.stderr.contains('\u{1b}'), "{:?}", out.stderr);
}

#[test]
fn a_context_with_a_token_no_header_can_carry_does_not_end_the_report() {
    // A token with a control character cannot be an HTTP header (the kube client would panic
    // on it while it is built; connect refuses it first). In a fleet that is one context's
    // error, the others are read.
    let s = staging_server();
    let url = s.url();
    let ctx = |name, token| context(name, &url, None, token);
    let yaml = kubeconfig_yaml(&[ctx("good", "t"), ctx("bad", "t\u{1}x")], "good");
    let f = Fleet::with_kubeconfig(vec![s], &yaml);
    let (v, out) = f.json(&["scan", "-n", "finance", "--all-contexts"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(v["cronJobs"][0]["context"], "good");
    assert_eq!(v["errors"][0]["context"], "bad");
    assert!(
        v["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("token holds characters an HTTP header cannot carry"),
        "{v}"
    );
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[test]
fn no_credential_of_any_context_is_printed_and_a_bad_kubeconfig_namespace_names_its_context() {
    // dead: a server URL with a password in it, on a closed port; badns: a namespace in the
    // kubeconfig that no request may carry. Every context has a token. Whatever goes wrong,
    // no token and no password reaches stdout, stderr or the JSON.
    let s = staging_server();
    let url = s.url();
    let dead = closed_port_url().replace("http://", "http://admin:PW-S3cret@");
    let yaml = kubeconfig_yaml(
        &[
            context("good", &url, Some("finance"), "TOKEN-GOOD-SECRET"),
            context("dead", &dead, None, "TOKEN-DEAD-SECRET"),
            context("badns", &url, Some("Bad/NS\u{1b}[2J"), "TOKEN-BADNS-SECRET"),
        ],
        "good",
    );
    let f = Fleet::with_kubeconfig(vec![s], &yaml);
    let outs = [
        f.run(&["scan", "--all-contexts", "--context-timeout", "10s"]),
        f.run(&[
            "scan",
            "--all-contexts",
            "--context-timeout",
            "10s",
            "-o",
            "json",
        ]),
        f.run(&[
            "explain",
            "invoices",
            "--all-contexts",
            "--context-timeout",
            "10s",
        ]),
        f.run(&[
            "explain",
            "invoices",
            "--all-contexts",
            "--context-timeout",
            "10s",
            "-o",
            "json",
        ]),
        f.run(&["scan", "--context", "dead"]),
        f.run(&["scan", "--context", "badns"]),
    ];
    for out in &outs {
        assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
        for text in [&out.stdout, &out.stderr] {
            for secret in ["SECRET", "PW-S3cret", "\u{1b}"] {
                assert!(!text.contains(secret), "{secret:?} in {text}");
            }
        }
    }
    let v: Value = serde_json::from_str(&outs[1].stdout).unwrap();
    assert_eq!(v["cronJobs"][0]["context"], "good");
    let failed: Vec<&str> = field_of_each(&v["errors"], "context");
    assert_eq!(failed, ["dead", "badns"]);
    let dead_msg = v["errors"][0]["message"].as_str().unwrap();
    assert!(
        dead_msg.contains("http://REDACTED@127.0.0.1:"),
        "{dead_msg}"
    );
    let badns_msg = v["errors"][1]["message"].as_str().unwrap();
    assert!(
        badns_msg.starts_with("the namespace of context badns (from KUBECONFIG="),
        "{badns_msg}"
    );
    assert!(
        flat(&outs[5].stderr).contains("error: the namespace of context badns (from KUBECONFIG="),
        "{}",
        outs[5].stderr
    );
}

#[test]
fn a_context_name_with_a_line_break_cannot_forge_a_line_of_a_single_cluster_error() {
    let evil = "prod\nerror: forged";
    let f = fleet(vec![(evil, staging())]);
    let out = f.run(&["explain", "nope", "-n", "finance", "--context", evil]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("(context prod\\nerror: forged)"),
        "{}",
        out.stderr
    );
    // In a fleet too: its notes (a skewed clock) and errors name it on one line.
    let f = fleet(vec![(evil, staging()), ("dead", Member::Down)]);
    let out = f.run(&["scan", "-n", "finance", "--all-contexts"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stdout.contains("note: context prod\\nerror: forged: "),
        "{}",
        out.stdout
    );
    for text in [&out.stdout, &out.stderr] {
        assert!(
            !text.lines().any(|l| l.starts_with("error: forged")),
            "{text}"
        );
    }
}
