//! Shared by the `cli_actions_*` tests: a fake API server with its clock frozen, a kubeconfig
//! pointing at it, the binary run with a clean environment and stdin that is NOT a terminal
//! (an empty pipe: the tests never wait on a prompt), and helpers to read the request log.

use std::path::PathBuf;

use assert_cmd::Command;
use fake_apiserver::{Clock, FakeApiServer, RecordedRequest, load_fixture_file};
use serde_json::Value;

use crate::support::{root, scratch};

pub struct Live {
    pub server: FakeApiServer,
    pub dir: PathBuf,
    pub kubeconfig: PathBuf,
}

pub fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/actions").join(name)
}

impl Live {
    /// A server holding the objects of `tests/fixtures/actions/<name>`, its clock frozen at
    /// `now`, the kubeconfig's namespace `ns`.
    pub fn new(name: &str, now: &str, ns: &str) -> Live {
        let objects = load_fixture_file(fixture(name)).expect("fixture loads");
        Self::with(objects, now, ns, |b| b)
    }

    pub fn with(
        objects: Vec<Value>,
        now: &str,
        ns: &str,
        configure: impl FnOnce(fake_apiserver::Builder) -> fake_apiserver::Builder,
    ) -> Live {
        let server = configure(
            FakeApiServer::builder()
                .clock(Clock::Fixed(now.parse().unwrap()))
                .objects(objects),
        )
        .start_blocking()
        .expect("fake-apiserver starts");
        let dir = scratch("kc");
        let kubeconfig = server.write_kubeconfig(&dir, Some(ns));
        Live {
            server,
            dir,
            kubeconfig,
        }
    }

    /// The binary with `args`, talking to this server; `USER` is fixed so "who" is stable.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
        c.env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .env("HOME", scratch("home"))
            .env("USER", "tester")
            .env("KUBECONFIG", &self.kubeconfig)
            .env_remove("KUBERNETES_SERVICE_HOST")
            .env_remove("KUBERNETES_SERVICE_PORT")
            .write_stdin("")
            .args(args);
        c
    }

    pub fn run(&self, args: &[&str]) -> Out {
        run(self.cmd(args))
    }

    /// `METHOD path?query` of every request so far.
    pub fn lines(&self) -> Vec<String> {
        self.server.request_lines()
    }

    /// Every request that is not a GET.
    pub fn writes(&self) -> Vec<RecordedRequest> {
        self.server
            .requests()
            .into_iter()
            .filter(|r| r.method != "GET")
            .collect()
    }

    pub fn object(&self, kind: &str, ns: &str, name: &str) -> Value {
        self.server
            .object(kind, ns, name)
            .unwrap_or_else(|| panic!("no {kind} {ns}/{name}"))
    }
}

pub use crate::cli_live_common::{Out, run};

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Query parameters as `k=v` pairs, sorted (what the server decoded).
pub fn query(r: &RecordedRequest) -> Vec<String> {
    r.query.iter().map(|(k, v)| format!("{k}={v}")).collect()
}

/// Poll `cond` every 10 ms for up to 20 s (for threads that act while the binary runs).
pub fn eventually(mut cond: impl FnMut() -> bool) {
    for _ in 0..2000 {
        if cond() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("condition not met within 20 s");
}

/// What the ClusterRole in `deploy/rbac/<file>` grants, as (apiGroup, resource, verb), in
/// the file's order.
pub fn role_grants(file: &str) -> Vec<(String, String, String)> {
    let path = root().join("deploy/rbac").join(file);
    let docs: Vec<Value> =
        serde_saphyr::from_multiple(&std::fs::read_to_string(path).unwrap()).unwrap();
    let role = docs.iter().find(|d| d["kind"] == "ClusterRole").unwrap();
    let mut out = Vec::new();
    for r in role["rules"].as_array().unwrap() {
        for group in r["apiGroups"].as_array().unwrap() {
            for resource in r["resources"].as_array().unwrap() {
                for verb in r["verbs"].as_array().unwrap() {
                    out.push((
                        group.as_str().unwrap().to_owned(),
                        resource.as_str().unwrap().to_owned(),
                        verb.as_str().unwrap().to_owned(),
                    ));
                }
            }
        }
    }
    out
}

/// The role's grants as the fake server's access rules, then "deny everything else": the
/// server enforces exactly that role.
pub fn access_rules_of(file: &str) -> Vec<fake_apiserver::AccessRule> {
    use fake_apiserver::AccessRule;
    let mut rules: Vec<AccessRule> = role_grants(file)
        .into_iter()
        .map(|(group, resource, verb)| AccessRule::allow(&verb, &resource).in_group(&group))
        .collect();
    rules.push(AccessRule::deny("*", "*"));
    rules
}
