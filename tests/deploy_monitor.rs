//! `deploy/monitor/` and the `Dockerfile` hold together: every manifest parses; the monitor
//! runs non-root with a read-only root filesystem and no capabilities; its probes and scrape
//! path are the monitor's endpoints; the Service selects the Deployment's pods and the
//! ServiceMonitor the Service and its port; the binding names the ServiceAccount the pods run
//! as and the read-only role, which can watch; the PrometheusRule is exactly the rule file;
//! and the image's entry point is the binary Cargo builds. (Docker is not run here.)

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the monitor serves (docs/metrics.md).
const HEALTHZ: &str = "/healthz";
const READYZ: &str = "/readyz";
const METRICS: &str = "/metrics";
const ARGS: [&str; 4] = ["monitor", "-A", "--listen", "0.0.0.0:9090"];
const USER: i64 = 65532;

use crate::support::{root, scratch};

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn yaml(rel: &str) -> Value {
    let docs: Vec<Value> = serde_saphyr::from_multiple(&read(rel))
        .unwrap_or_else(|e| panic!("{rel} does not parse: {e}"));
    assert_eq!(docs.len(), 1, "{rel}: one object per file");
    docs.into_iter().next().unwrap()
}

fn manifest_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("deploy/monitor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

/// Every object of deploy/monitor by kind (the kustomization aside).
fn objects() -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for f in manifest_files() {
        let rel = f
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let v = yaml(&rel);
        let kind = v["kind"]
            .as_str()
            .unwrap_or_else(|| panic!("{rel}: kind"))
            .to_string();
        assert!(
            out.insert(kind.clone(), v).is_none(),
            "{rel}: a second {kind}"
        );
    }
    out
}

fn pod_spec(objs: &BTreeMap<String, Value>) -> &Value {
    &objs["Deployment"]["spec"]["template"]["spec"]
}

fn container(objs: &BTreeMap<String, Value>) -> &Value {
    let cs = pod_spec(objs)["containers"].as_array().unwrap();
    assert_eq!(cs.len(), 1, "one container");
    &cs[0]
}

#[test]
fn every_manifest_parses_and_the_kustomization_lists_them_all() {
    let objs = objects();
    let kinds: Vec<&str> = objs.keys().map(String::as_str).collect();
    assert_eq!(
        kinds,
        [
            "ClusterRoleBinding",
            "Deployment",
            "Kustomization",
            "Namespace",
            "PrometheusRule",
            "Service",
            "ServiceAccount",
            "ServiceMonitor"
        ]
    );
    let listed: Vec<String> = objs["Kustomization"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    for f in manifest_files() {
        let name = f.file_name().unwrap().to_str().unwrap().to_string();
        if name != "kustomization.yaml" {
            assert!(listed.contains(&name), "kustomization.yaml misses {name}");
        }
    }
    for r in &listed {
        assert!(
            root().join("deploy/monitor").join(r).exists(),
            "{r} listed but missing"
        );
    }
    // The role comes from deploy/rbac as a base of its own (kustomize loads no file from
    // outside a kustomization's directory), and that base is just the read-only role.
    assert!(listed.iter().any(|r| r == "../rbac"));
    assert_eq!(
        yaml("deploy/rbac/kustomization.yaml")["resources"],
        json!(["read-only.yaml"])
    );
    // Everything namespaced lives in the monitor's namespace.
    let ns = objs["Namespace"]["metadata"]["name"].as_str().unwrap();
    for (kind, v) in &objs {
        if !matches!(
            kind.as_str(),
            "Namespace" | "ClusterRoleBinding" | "Kustomization"
        ) {
            assert_eq!(v["metadata"]["namespace"], ns, "{kind}");
        }
    }
}

#[test]
fn the_monitor_runs_locked_down() {
    let objs = objects();
    let pod = pod_spec(&objs);
    let c = container(&objs);
    assert_eq!(objs["Deployment"]["apiVersion"], "apps/v1");
    assert_eq!(objs["Deployment"]["spec"]["replicas"], 1);
    assert_eq!(c["args"], json!(ARGS));
    assert!(
        c.get("command").is_none(),
        "the image's entry point runs the binary"
    );
    for (what, sc) in [
        ("pod", &pod["securityContext"]),
        ("container", &c["securityContext"]),
    ] {
        assert_eq!(sc["runAsNonRoot"], true, "{what}");
        assert_eq!(sc["runAsUser"], USER, "{what}");
        assert_eq!(sc["seccompProfile"]["type"], "RuntimeDefault", "{what}");
    }
    let sc = &c["securityContext"];
    assert_eq!(sc["readOnlyRootFilesystem"], true);
    assert_eq!(sc["allowPrivilegeEscalation"], false);
    assert_eq!(sc["capabilities"]["drop"], json!(["ALL"]));
    assert!(sc["capabilities"].get("add").is_none());
    assert!(sc.get("privileged").is_none_or(|p| p == false));
    assert!(pod.get("hostNetwork").is_none() && pod.get("volumes").is_none());
    for kind in ["requests", "limits"] {
        for res in ["cpu", "memory"] {
            assert!(
                c["resources"][kind][res].is_string(),
                "resources.{kind}.{res} is set"
            );
        }
    }
    // What the benchmark measured at 10,000 CronJobs (tools/bench/monitor-notes.md): the
    // request covers the steady state, the limit the peak with room to spare.
    const STEADY_MIB: u64 = 258;
    const PEAK_MIB: u64 = 270;
    let mib = |kind: &str| -> u64 {
        let q = c["resources"][kind]["memory"].as_str().unwrap();
        match (q.strip_suffix("Mi"), q.strip_suffix("Gi")) {
            (Some(n), _) => n.parse().unwrap(),
            (_, Some(n)) => n.parse::<u64>().unwrap() * 1024,
            _ => panic!("memory {q:?}: write it in Mi or Gi"),
        }
    };
    let (request, limit) = (mib("requests"), mib("limits"));
    assert!(
        request >= STEADY_MIB,
        "request {request}Mi under the steady state"
    );
    assert!(
        limit >= PEAK_MIB * 3 / 2,
        "limit {limit}Mi: under 1.5 × the peak"
    );
    assert!(request <= limit);
    // The restricted Pod Security Standard is enforced on the namespace, so a regression
    // above is refused by the cluster too.
    assert_eq!(
        objs["Namespace"]["metadata"]["labels"]["pod-security.kubernetes.io/enforce"],
        "restricted"
    );
}

/// The Deployment's (and the image's) command line is one the binary accepts: parsed, it
/// goes on to read the kubeconfig (absent here) and fails there, not with a usage error.
#[test]
fn the_binary_accepts_the_deployments_args() {
    let dir = scratch("deploy-args");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .args(ARGS)
        .env("HOME", &dir)
        .env("KUBECONFIG", dir.join("absent"))
        .env("NO_COLOR", "1")
        .env_remove("KUBERNETES_SERVICE_HOST")
        .env_remove("KUBERNETES_SERVICE_PORT")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        !stderr.contains("Usage:") && !stderr.contains("--help"),
        "a usage error: {stderr}"
    );
    assert!(stderr.contains("kubeconfig"), "{stderr}");
}

#[test]
fn probes_and_scrapes_hit_the_monitors_endpoints_on_the_named_port() {
    let objs = objects();
    let c = container(&objs);
    let ports = c["ports"].as_array().unwrap();
    assert_eq!(ports.len(), 1);
    assert_eq!(
        (&ports[0]["name"], &ports[0]["containerPort"]),
        (&json!("metrics"), &json!(9090))
    );
    assert!(
        ARGS[3].ends_with(":9090"),
        "the container listens where its port says"
    );
    assert_eq!(
        c["livenessProbe"]["httpGet"],
        json!({"path": HEALTHZ, "port": "metrics"})
    );
    assert_eq!(
        c["readinessProbe"]["httpGet"],
        json!({"path": READYZ, "port": "metrics"})
    );
    // docs/metrics.md ties readiness to /readyz; the issue names all three endpoints.
    assert!(read("docs/metrics.md").contains(READYZ));

    let svc = &objs["Service"];
    let sm = &objs["ServiceMonitor"];
    assert_eq!(sm["apiVersion"], "monitoring.coreos.com/v1");
    let endpoints = sm["spec"]["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 1);
    assert_eq!(
        endpoints[0]["port"], "metrics",
        "a port name of the Service"
    );
    assert_eq!(endpoints[0]["path"], METRICS);
    let svc_ports = svc["spec"]["ports"].as_array().unwrap();
    assert!(
        svc_ports
            .iter()
            .any(|p| p["name"] == "metrics" && p["targetPort"] == "metrics"),
        "{svc_ports:?}"
    );
}

fn matches(selector: &Value, labels: &Value) -> bool {
    let sel = selector.as_object().unwrap();
    !sel.is_empty() && sel.iter().all(|(k, v)| &labels[k] == v)
}

#[test]
fn labels_and_selectors_line_up() {
    let objs = objects();
    let dep = &objs["Deployment"];
    let pod_labels = &dep["spec"]["template"]["metadata"]["labels"];
    assert!(matches(&dep["spec"]["selector"]["matchLabels"], pod_labels));
    let svc = &objs["Service"];
    assert!(
        matches(&svc["spec"]["selector"], pod_labels),
        "the Service selects the monitor's pods"
    );
    let sm = &objs["ServiceMonitor"];
    assert!(
        matches(
            &sm["spec"]["selector"]["matchLabels"],
            &svc["metadata"]["labels"]
        ),
        "the ServiceMonitor selects the Service"
    );
    assert_eq!(
        sm["spec"]["namespaceSelector"]["matchNames"],
        json!([svc["metadata"]["namespace"]])
    );
    // prometheus-operator names the scrape job after the Service; the MonitorDown alert
    // and the runbooks name it and the Deployment.
    let rules = read("deploy/prometheus/cronjob-doctor.rules.yaml");
    let svc_name = svc["metadata"]["name"].as_str().unwrap();
    assert!(rules.contains(&format!("up{{job=\"{svc_name}\"}}")));
    let runbook_target = format!(
        "deploy/{} -n {}",
        dep["metadata"]["name"].as_str().unwrap(),
        dep["metadata"]["namespace"].as_str().unwrap()
    );
    assert!(
        rules.contains(&runbook_target),
        "runbooks say {runbook_target}"
    );
}

#[test]
fn the_service_account_is_bound_to_the_read_only_role_which_can_watch() {
    let objs = objects();
    let sa = &objs["ServiceAccount"];
    assert_eq!(
        pod_spec(&objs)["serviceAccountName"],
        sa["metadata"]["name"]
    );
    let binding = &objs["ClusterRoleBinding"];
    assert_eq!(
        binding["subjects"],
        json!([{"kind": "ServiceAccount", "name": sa["metadata"]["name"],
                "namespace": sa["metadata"]["namespace"]}])
    );
    let role = yaml("deploy/rbac/read-only.yaml");
    assert_eq!(
        binding["roleRef"],
        json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
               "name": role["metadata"]["name"]})
    );
    let needed = [
        ("batch", "cronjobs"),
        ("batch", "jobs"),
        ("", "pods"),
        ("", "events"),
    ];
    for (group, resource) in needed {
        for verb in ["get", "list", "watch"] {
            let granted = role["rules"].as_array().unwrap().iter().any(|r| {
                r["apiGroups"].as_array().unwrap().contains(&json!(group))
                    && r["resources"]
                        .as_array()
                        .unwrap()
                        .contains(&json!(resource))
                    && r["verbs"].as_array().unwrap().contains(&json!(verb))
            });
            assert!(granted, "the monitor cannot {verb} {resource} in {group:?}");
        }
    }
}

#[test]
fn the_prometheus_rule_is_exactly_the_rule_file() {
    let objs = objects();
    let pr = &objs["PrometheusRule"];
    assert_eq!(pr["apiVersion"], "monitoring.coreos.com/v1");
    let rules: Value =
        serde_saphyr::from_str(&read("deploy/prometheus/cronjob-doctor.rules.yaml")).unwrap();
    assert!(
        pr["spec"]["groups"] == rules["groups"] && pr["spec"].as_object().unwrap().len() == 1,
        "deploy/monitor/prometheusrule.yaml differs from deploy/prometheus/cronjob-doctor.rules.yaml: \
         run deploy/monitor/sync-prometheusrule.sh"
    );
    assert_eq!(
        rules.as_object().unwrap().len(),
        1,
        "the rule file holds groups only"
    );
}

/// The instructions of the Dockerfile's last stage.
fn final_stage(dockerfile: &str) -> Vec<(String, String)> {
    let mut joined = String::new();
    for line in dockerfile.lines() {
        let t = line.trim();
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        match t.strip_suffix('\\') {
            Some(head) => joined.push_str(head),
            None => {
                joined.push_str(t);
                joined.push('\n');
            }
        }
    }
    let instructions: Vec<(String, String)> = joined
        .lines()
        .map(|l| {
            let (op, rest) = l.split_once(' ').unwrap_or((l, ""));
            (op.to_ascii_uppercase(), rest.trim().to_string())
        })
        .collect();
    let start = instructions
        .iter()
        .rposition(|(op, _)| op == "FROM")
        .expect("a FROM");
    instructions[start..].to_vec()
}

fn json_form(args: &str) -> Vec<String> {
    serde_json::from_str(args).unwrap_or_else(|e| panic!("exec (JSON) form expected: {args}: {e}"))
}

#[test]
fn the_image_runs_the_static_binary_as_non_root() {
    let dockerfile = read("Dockerfile");
    let stage = final_stage(&dockerfile);
    let get = |op: &str| {
        stage
            .iter()
            .filter(|(o, _)| o == op)
            .map(|(_, a)| a.clone())
            .next_back()
            .unwrap_or_else(|| panic!("final stage has no {op}"))
    };
    let base = get("FROM");
    assert!(
        base == "scratch" || base.starts_with("gcr.io/distroless/static"),
        "final image {base}"
    );
    let user = get("USER");
    let uid: i64 = user
        .split(':')
        .next()
        .unwrap()
        .parse()
        .expect("numeric user");
    assert_eq!(uid, USER, "the Deployment's runAsUser");
    assert!(uid != 0);

    // The entry point is the binary Cargo builds under that name.
    let bin = Path::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .trim_end_matches(".exe")
        .to_string();
    let entry = json_form(&get("ENTRYPOINT"));
    assert_eq!(entry, [format!("/{bin}")]);
    let copy = get("COPY");
    assert!(copy.ends_with(&format!("/{bin} /{bin}")), "COPY {copy}");
    assert!(dockerfile.contains(&format!("--bin {bin}")));
    assert!(dockerfile.contains("--locked"));
    assert_eq!(
        json_form(&get("CMD")),
        ARGS,
        "same as the Deployment's args"
    );
    assert!(get("EXPOSE").starts_with("9090"));

    // The build stage is Alpine (musl: static by default) and its toolchain can build every
    // locked dependency.
    let build_from = dockerfile
        .lines()
        .find(|l| l.starts_with("FROM rust:"))
        .expect("a rust build stage");
    let version = build_from
        .trim_start_matches("FROM rust:")
        .split('-')
        .next()
        .unwrap()
        .to_string();
    assert!(build_from.contains("-alpine"), "{build_from}");
    let needed = newest_rust_version_required();
    assert!(
        semver_of(&version) >= semver_of(&needed),
        "the image builds with Rust {version}, a dependency needs {needed}"
    );
}

/// The same bound for people building from source: Cargo.toml's `rust-version` and the
/// README's install table promise a toolchain that can build every locked dependency.
#[test]
fn the_declared_minimum_rust_builds_every_locked_dependency() {
    let needed = newest_rust_version_required();
    let cargo_toml = read("Cargo.toml");
    let declared = cargo_toml
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("Cargo.toml declares rust-version")
        .trim_matches('"')
        .to_string();
    assert!(
        semver_of(&declared) >= semver_of(&needed),
        "Cargo.toml says rust-version {declared}, a locked dependency needs {needed}"
    );
    assert!(
        read("README.md").contains(&format!("(Rust ≥ {declared})")),
        "the README's install table names Rust ≥ {declared}"
    );
}

fn semver_of(v: &str) -> (u64, u64, u64) {
    let mut it = v.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    (
        it.next().unwrap_or(0),
        it.next().unwrap_or(0),
        it.next().unwrap_or(0),
    )
}

/// The highest `rust-version` in the locked build graph, from `cargo metadata`. Offline
/// first (nothing to download once every platform's crates were fetched); a fresh clone has
/// only this platform's crates, which is all a build needs, so cargo then downloads the
/// others' manifests as `cargo build` would have; with no network either, this platform's
/// graph is what can be checked, and the test says so.
fn newest_rust_version_required() -> String {
    let metadata = |extra: &[&str]| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        // Without libfaketime: the suite also runs under `faketime`, and cargo asks rustc
        // (which hangs under libfaketime) for the host. Nothing here depends on the clock.
        std::process::Command::new(cargo)
            .env_remove("LD_PRELOAD")
            .args(["metadata", "--format-version", "1", "--locked"])
            .args(extra)
            .current_dir(root())
            .output()
            .expect("cargo metadata runs")
    };
    let mut out = metadata(&["--offline"]);
    if !out.status.success() {
        out = metadata(&[]);
    }
    if !out.status.success() {
        let host = host_triple();
        eprintln!(
            "note: cargo metadata could not read every platform's crates (offline?): {host}'s only: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        out = metadata(&["--offline", "--filter-platform", &host]);
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["rust_version"].as_str())
        .max_by_key(|v| semver_of(v))
        .unwrap()
        .to_string()
}

/// The platform rustc builds for by default (`rustc -vV`'s host line).
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = std::process::Command::new(rustc)
        .env_remove("LD_PRELOAD")
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names its host")
        .to_string()
}

#[test]
fn kustomize_builds_the_directory_when_kubectl_is_installed() {
    let Ok(out) = std::process::Command::new("kubectl")
        .args(["kustomize", "deploy/monitor"])
        .current_dir(root())
        .output()
    else {
        eprintln!("kubectl not installed: kustomize build not checked");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let built: Vec<Value> = serde_saphyr::from_multiple(&String::from_utf8_lossy(&out.stdout))
        .expect("kustomize output parses");
    let mut kinds: Vec<&str> = built.iter().map(|o| o["kind"].as_str().unwrap()).collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            "ClusterRole",
            "ClusterRoleBinding",
            "Deployment",
            "Namespace",
            "PrometheusRule",
            "Service",
            "ServiceAccount",
            "ServiceMonitor"
        ]
    );
}
