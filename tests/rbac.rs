//! `deploy/rbac/` grants exactly what the plugin needs: the read-only role reads CronJobs, Jobs,
//! Pods and Events and nothing else; the operator role adds only the writes its commands make.
//! A rule added "to make it work" fails here and has to be argued for in this file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Object {
    api_version: String,
    kind: String,
    metadata: Metadata,
    rules: Option<Vec<Rule>>,
    role_ref: Option<RoleRef>,
    subjects: Option<Vec<Subject>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Metadata {
    name: String,
    #[serde(default)]
    labels: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Rule {
    api_groups: Vec<String>,
    resources: Vec<String>,
    verbs: Vec<String>,
    #[serde(default)]
    resource_names: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RoleRef {
    api_group: String,
    kind: String,
    name: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Subject {
    api_group: Option<String>,
    kind: String,
    name: String,
}

type Grant = (&'static str, &'static str, &'static str);

/// (apiGroup, resource, verb): what every cluster-reading command needs.
/// Events are read through the core API only (`tests/rbac_read_only_used.rs` holds this list
/// to the requests the binary sends), so events.k8s.io gets nothing.
const READ: [Grant; 8] = [
    ("batch", "cronjobs", "get"),
    ("batch", "cronjobs", "list"),
    ("batch", "jobs", "get"),
    ("batch", "jobs", "list"),
    ("", "pods", "get"),
    ("", "pods", "list"),
    ("", "events", "get"),
    ("", "events", "list"),
];

/// `monitor` follows what it reads with watches (deploy/monitor/ binds the read-only role):
/// the kinds of `src/cluster/watch.rs`, whose Events are core `v1` ones, so events.k8s.io gets
/// no watch. The operator commands never watch, so the operator role goes without.
const WATCH: [Grant; 4] = [
    ("batch", "cronjobs", "watch"),
    ("batch", "jobs", "watch"),
    ("", "pods", "watch"),
    ("", "events", "watch"),
];

/// `explain NAME` asks the monitor for the runs it remembers through the API server's service
/// proxy (src/cluster/monitor_runs.rs): `get` on `services/proxy`, and only on the Service
/// port deploy/monitor/ installs ([`MONITOR_PROXY_NAMES`]). Both roles run `explain`.
const ASK_MONITOR: [Grant; 1] = [("", "services/proxy", "get")];
/// The RBAC name of a proxied Service port is `NAME:PORT`: deploy/monitor/service.yaml's.
const MONITOR_PROXY_NAMES: [&str; 1] = ["cronjob-doctor:9090"];

const OPERATOR_EXTRA: [Grant; 4] = [
    ("batch", "jobs", "create"),           // trigger: a Job from the template
    ("batch", "cronjobs", "patch"),        // suspend / unsuspend
    ("batch", "cronjobs/status", "patch"), // unsuspend --skip-missed
    ("authorization.k8s.io", "selfsubjectaccessreviews", "create"), // "may I?" before acting
];

fn path(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy/rbac")
        .join(file)
}

fn parse(text: &str, what: &str) -> Vec<Object> {
    serde_saphyr::from_multiple(text).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// The live ClusterRole of a file, and the example binding hidden in its comments.
fn load(file: &str) -> (Object, Object) {
    let text = std::fs::read_to_string(path(file)).unwrap();
    let live = parse(&text, file);
    assert_eq!(
        live.len(),
        1,
        "{file}: exactly one live object, the ClusterRole (the binding stays an example)"
    );
    let role = live.into_iter().next().unwrap();

    let marker = "# Example binding";
    let (_, tail) = text
        .split_once(marker)
        .unwrap_or_else(|| panic!("{file}: no {marker:?} block"));
    let example: String = tail
        .lines()
        .skip(1)
        .map(|l| {
            l.strip_prefix("# ")
                .or_else(|| l.strip_prefix('#'))
                .unwrap_or_else(|| {
                    panic!("{file}: {l:?} after the example marker is not a comment")
                })
        })
        .filter(|l| l.trim() != "---")
        .map(|l| format!("{l}\n"))
        .collect();
    let mut binding = parse(&example, &format!("{file} (commented example)"));
    assert_eq!(binding.len(), 1, "{file}: one example binding");
    (role, binding.remove(0))
}

fn grants(role: &Object) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    for r in role.rules.as_ref().expect("rules") {
        // Only the service proxy is narrowed to names: the monitor's own Service port.
        if r.resources == ["services/proxy"] {
            assert_eq!(r.resource_names, MONITOR_PROXY_NAMES, "{r:?}");
        } else {
            assert!(r.resource_names.is_empty(), "{r:?}");
        }
        for g in &r.api_groups {
            for res in &r.resources {
                for v in &r.verbs {
                    assert!(
                        ![g, res, v].iter().any(|s| s.contains('*')),
                        "no wildcards: {r:?}"
                    );
                    out.insert((g.clone(), res.clone(), v.clone()));
                }
            }
        }
    }
    out
}

fn owned(gs: &[Grant]) -> BTreeSet<(String, String, String)> {
    gs.iter()
        .map(|(g, r, v)| (g.to_string(), r.to_string(), v.to_string()))
        .collect()
}

fn check_role(file: &str, name: &str, expected: &BTreeSet<(String, String, String)>) {
    let (role, binding) = load(file);
    assert_eq!(role.api_version, "rbac.authorization.k8s.io/v1");
    assert_eq!(role.kind, "ClusterRole");
    assert_eq!(role.metadata.name, name);
    assert_eq!(
        role.metadata
            .labels
            .get("app.kubernetes.io/name")
            .map(String::as_str),
        Some("kubectl-cronjob-doctor")
    );
    assert!(role.role_ref.is_none() && role.subjects.is_none());
    let got = grants(&role);
    let missing: Vec<_> = expected.difference(&got).collect();
    let extra: Vec<_> = got.difference(expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{file}: missing {missing:?}, extra {extra:?}"
    );

    assert_eq!(binding.api_version, "rbac.authorization.k8s.io/v1");
    assert_eq!(binding.kind, "ClusterRoleBinding");
    let role_ref = binding.role_ref.as_ref().expect("roleRef");
    assert_eq!(
        (
            role_ref.api_group.as_str(),
            role_ref.kind.as_str(),
            role_ref.name.as_str()
        ),
        ("rbac.authorization.k8s.io", "ClusterRole", name),
        "{file}: the example binds this file's role"
    );
    let subjects = binding.subjects.as_ref().expect("subjects");
    assert!(
        !subjects.is_empty()
            && subjects
                .iter()
                .all(|s| !s.name.is_empty() && !s.kind.is_empty())
    );
    assert!(
        subjects
            .iter()
            .all(|s| s.api_group.as_deref() == Some("rbac.authorization.k8s.io"))
    );
}

#[test]
fn read_only_role_reads_cronjobs_jobs_pods_events_and_nothing_else() {
    let mut expected = owned(&READ);
    expected.extend(owned(&WATCH));
    expected.extend(owned(&ASK_MONITOR));
    check_role("read-only.yaml", "cronjob-doctor-read-only", &expected);
}

#[test]
fn operator_role_adds_only_the_writes_of_the_operator_commands() {
    let mut expected = owned(&READ);
    expected.extend(owned(&ASK_MONITOR));
    expected.extend(owned(&OPERATOR_EXTRA));
    check_role("operator.yaml", "cronjob-doctor-operator", &expected);
}

#[test]
fn the_roles_are_documented_where_users_look() {
    let rbac_readme = std::fs::read_to_string(path("README.md")).unwrap();
    for needle in [
        "read-only.yaml",
        "operator.yaml",
        "cronjob-doctor-read-only",
        "cronjob-doctor-operator",
        "403",
        "services/proxy",
    ] {
        assert!(
            rbac_readme.contains(needle),
            "deploy/rbac/README.md should mention {needle}"
        );
    }
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(
        readme.contains("deploy/rbac"),
        "README.md should point at deploy/rbac/"
    );
}

/// The name the roles grant the proxy on is the Service deploy/monitor/ installs, at its port.
#[test]
fn the_proxy_grant_names_the_monitors_service_port() {
    let svc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/monitor/service.yaml"),
    )
    .unwrap();
    let (name, port) = MONITOR_PROXY_NAMES[0].split_once(':').unwrap();
    assert!(svc.contains(&format!("  name: {name}\n")), "{svc}");
    assert!(svc.contains(&format!("port: {port}\n")), "{svc}");
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/monitor.md"))
            .unwrap();
    assert!(
        docs.contains("services/proxy"),
        "docs/monitor.md names the grant"
    );
}
