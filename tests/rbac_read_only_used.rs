//! The read-only role in deploy/rbac/ is exactly what the reading commands use: with only its
//! rules enforced by the fake server, `scan`, `explain` and `monitor` read everything without
//! one refusal, and every grant of the role is used by at least one of their requests (`get`
//! on a kind they list counts as used: it shows nothing the `list` does not). A grant nothing
//! asks for (say the events.k8s.io API, which the live path never reads) fails here, as does a
//! request the role would refuse. `tests/rbac.rs` holds the role's rules to a written list;
//! this test holds that list to what the binary really sends.

use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::cli_actions_common;
use crate::cli_actions_common::*;
use fake_apiserver::RecordedRequest;

type Grant = (String, String, String);

/// The role's grants as a set.
fn granted(file: &str) -> BTreeSet<Grant> {
    role_grants(file).into_iter().collect()
}

/// The RBAC grant a resource request needs, as the API server's request-info resolver names
/// it: `/api/v1/…` is the core group, `/apis/G/V/…` group G; a name makes GET a `get`, no name
/// a `list`, `watch=1` a `watch`. Non-resource paths (`/version`, discovery) need no grant from
/// this role (every authenticated user may read them) and give `None`.
fn grant_of(r: &RecordedRequest) -> Option<Grant> {
    let watching = r
        .query
        .get("watch")
        .is_some_and(|w| w == "1" || w == "true");
    grant_for(&r.method, &r.path, watching)
}

fn grant_for(method: &str, path: &str, watching: bool) -> Option<Grant> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (group, rest) = match parts.as_slice() {
        ["api", "v1", rest @ ..] => ("", rest),
        ["apis", group, _version, rest @ ..] => (*group, rest),
        _ => return None,
    };
    let rest = match rest {
        ["namespaces", _ns, rest @ ..] if !rest.is_empty() => rest,
        rest => rest,
    };
    let (resource, named) = match rest {
        [resource] => (resource.to_string(), false),
        [resource, _name] => (resource.to_string(), true),
        [resource, _name, sub] => (format!("{resource}/{sub}"), true),
        // The service proxy: `get` on `services/proxy` whatever path follows.
        [resource, _name, "proxy", ..] => (format!("{resource}/proxy"), true),
        _ => return None,
    };
    let verb = match (method, named, watching) {
        ("GET", _, true) => "watch",
        ("GET", true, false) => "get",
        ("GET", false, false) => "list",
        ("POST", _, _) => "create",
        ("PATCH", _, _) => "patch",
        ("PUT", _, _) => "update",
        ("DELETE", true, _) => "delete",
        ("DELETE", false, _) => "deletecollection",
        _ => return None,
    };
    Some((group.to_owned(), resource, verb.to_owned()))
}

/// The fake server enforcing the role's rules and nothing else.
fn server_with_role(role: &str) -> Live {
    let objects =
        fake_apiserver::load_fixture_file(cli_actions_common::fixture("report.yaml")).unwrap();
    let rules = access_rules_of(role);
    Live::with(objects, "2026-11-20T12:05:00Z", "ops", move |mut b| {
        for r in rules {
            b = b.rule(r);
        }
        b
    })
}

/// Runs `monitor -A` (status lines on stdout, no listener) until it has sent a WATCH for each
/// of its kinds, then stops it. Watches are what `monitor` adds to the one-shot reads.
fn run_monitor_until_watching(l: &Live) {
    let mut cmd =
        std::process::Command::new(assert_cmd::cargo::cargo_bin("kubectl-cronjob_doctor"));
    cmd.env("NO_COLOR", "1")
        .env("HOME", &l.dir)
        .env("KUBECONFIG", &l.kubeconfig)
        .env_remove("KUBERNETES_SERVICE_HOST")
        .env_remove("KUBERNETES_SERVICE_PORT")
        .args(["monitor", "-A", "-o", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().expect("monitor starts");
    let watched = |l: &Live| -> BTreeSet<String> {
        l.server
            .requests()
            .iter()
            .filter_map(grant_of)
            .filter(|(_, _, verb)| verb == "watch")
            .map(|(_, resource, _)| resource)
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while watched(l).len() < 4 && Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("monitor exited early with {status}: {:#?}", l.lines());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        watched(l),
        ["cronjobs", "events", "jobs", "pods"]
            .map(String::from)
            .into(),
        "monitor watches these four kinds: {:#?}",
        l.lines()
    );
}

#[test]
fn the_read_only_role_is_exactly_what_scan_explain_and_monitor_use() {
    let l = server_with_role("read-only.yaml");
    for args in [
        &["scan", "-A"][..],
        &["scan", "-n", "ops", "-o", "json"],
        &["explain", "report", "-n", "ops"],
        &["explain", "report", "-n", "ops", "-o", "json"],
    ] {
        let out = l.run(args);
        assert!(out.code == 0 || out.code == 1, "{args:?}: {out:?}");
        assert!(
            !out.stdout.contains("forbidden") && !out.stderr.contains("forbidden"),
            "{args:?} ran into a refusal: {out:?}"
        );
    }
    run_monitor_until_watching(&l);

    let requests = l.server.requests();
    let refused: Vec<String> = requests
        .iter()
        .filter(|r| r.status == 401 || r.status == 403)
        .map(|r| r.line())
        .collect();
    assert!(refused.is_empty(), "the role refused: {refused:#?}");

    let used: BTreeSet<Grant> = requests.iter().filter_map(grant_of).collect();
    let granted = granted("read-only.yaml");
    // `get` on a kind that is listed shows nothing the `list` does not, and is what people
    // expect next to it (`kubectl get job NAME` while following a diagnosis), so it counts as
    // used when the `list` is. Every other grant must be asked for.
    let unused: Vec<&Grant> = granted
        .iter()
        .filter(|g| !used.contains(*g))
        .filter(|(group, resource, verb)| {
            !(verb == "get" && used.contains(&(group.clone(), resource.clone(), "list".into())))
        })
        .collect();
    assert!(
        unused.is_empty(),
        "read-only.yaml grants what no reading command asks for: {unused:?}\nrequests: {:#?}",
        l.lines()
    );
    let ungranted: Vec<&Grant> = used.difference(&granted).collect();
    assert!(ungranted.is_empty(), "used but not granted: {ungranted:?}");
}

#[test]
fn a_request_maps_to_the_grant_the_api_server_would_check() {
    let g = |group: &str, resource: &str, verb: &str| {
        Some((group.to_owned(), resource.to_owned(), verb.to_owned()))
    };
    assert_eq!(
        grant_for("GET", "/apis/batch/v1/cronjobs", false),
        g("batch", "cronjobs", "list")
    );
    assert_eq!(
        grant_for(
            "GET",
            "/apis/batch/v1/namespaces/ops/cronjobs/report",
            false
        ),
        g("batch", "cronjobs", "get")
    );
    assert_eq!(
        grant_for("GET", "/api/v1/namespaces/ops/events", true),
        g("", "events", "watch")
    );
    assert_eq!(
        grant_for("GET", "/api/v1/namespaces/ops", false),
        g("", "namespaces", "get")
    );
    assert_eq!(
        grant_for(
            "PATCH",
            "/apis/batch/v1/namespaces/ops/cronjobs/report/status",
            false
        ),
        g("batch", "cronjobs/status", "patch")
    );
    assert_eq!(
        grant_for("POST", "/apis/batch/v1/namespaces/ops/jobs", false),
        g("batch", "jobs", "create")
    );
    assert_eq!(
        grant_for(
            "GET",
            "/api/v1/namespaces/cronjob-doctor/services/cronjob-doctor:9090/proxy/runs",
            false
        ),
        g("", "services/proxy", "get")
    );
    assert_eq!(grant_for("GET", "/version", false), None);
    assert_eq!(grant_for("GET", "/apis/batch/v1", false), None);
    assert_eq!(grant_for("GET", "/api/v1", false), None);
}
