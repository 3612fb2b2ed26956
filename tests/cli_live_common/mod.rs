//! Shared by the `cli_live_*` tests: a fake API server loaded with fixtures, a kubeconfig
//! pointing at it, and the built binary run against it with a clean environment.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use fake_apiserver::{Clock, FakeApiServer, load_fixture_file, load_fixture_str};
use serde_json::Value;

/// The instant every example is written for (`--now 2026-11-20T12:00:00Z`).
pub const NOW: &str = "2026-11-20T12:00:00Z";

pub struct Live {
    pub server: FakeApiServer,
    pub dir: PathBuf,
    pub kubeconfig: PathBuf,
}

pub use crate::support::root;

pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

pub fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/live").join(name)
}

pub use crate::support::{field_of_each, scratch, strings};

/// `ops/backup` of `forbid-blocked-by-hung-job.yaml` served, kubectl's namespace `ops`:
/// the CronJob the failure, configuration and hostile-server tests ask about.
pub fn forbid() -> Live {
    Live::files(&[example("forbid-blocked-by-hung-job.yaml")], Some("ops"))
}

/// A Warning Event about CronJob `ops/<cron_job>` whose message holds `LONE-SURROGATE`, the
/// marker a test's wire rewrite turns into a lone UTF-16 surrogate escape.
pub fn lone_surrogate_event(cron_job: &str) -> Value {
    serde_json::json!({"apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "odd.1", "namespace": "ops"},
        "involvedObject": {"kind": "CronJob", "name": cron_job, "namespace": "ops"},
        "type": "Warning", "reason": "Odd", "message": "LONE-SURROGATE in a message",
        "lastTimestamp": "2026-11-20T11:00:00Z", "count": 1})
}

/// `explain backup` against `live`, with `args`.
pub fn explain(live: &Live, args: &[&str]) -> Out {
    let mut c = live.cmd();
    c.args(["explain", "backup"]).args(args);
    run(c)
}

/// Every object in the fixture files `paths`.
pub fn load_files(paths: &[PathBuf]) -> Vec<Value> {
    paths
        .iter()
        .flat_map(|p| load_fixture_file(p).expect("fixture loads"))
        .collect()
}

impl Live {
    /// A server holding `objects`, its clock frozen at [`NOW`], default namespace `ns`.
    pub fn with(objects: Vec<Value>, ns: Option<&str>) -> Live {
        Self::start(objects, ns, false)
    }

    /// As [`Live::with`], served over HTTPS; the kubeconfig carries the server's CA.
    pub fn with_tls(objects: Vec<Value>, ns: Option<&str>) -> Live {
        Self::start(objects, ns, true)
    }

    fn start(objects: Vec<Value>, ns: Option<&str>, tls: bool) -> Live {
        let now = NOW.parse().unwrap();
        let mut builder = FakeApiServer::builder()
            .clock(Clock::Fixed(now))
            .objects(objects);
        if tls {
            builder = builder.tls();
        }
        let server = builder.start_blocking().expect("fake-apiserver starts");
        let dir = scratch("kc");
        let kubeconfig = server.write_kubeconfig(&dir, ns);
        Live {
            server,
            dir,
            kubeconfig,
        }
    }

    pub fn files(paths: &[PathBuf], ns: Option<&str>) -> Live {
        Self::with(load_files(paths), ns)
    }

    pub fn yaml(text: &str, ns: Option<&str>) -> Live {
        Self::with(load_fixture_str(text).expect("fixture loads"), ns)
    }

    /// The binary, talking to this server through `KUBECONFIG` only.
    pub fn cmd(&self) -> Command {
        let mut c = doctor();
        c.env("KUBECONFIG", &self.kubeconfig);
        c
    }

    /// `METHOD path?query` of every request so far.
    pub fn lines(&self) -> Vec<String> {
        self.server.request_lines()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An empty directory for HOME, one per test process.
fn empty_home() -> &'static Path {
    static HOME: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    HOME.get_or_init(|| scratch("home"))
}

/// The binary with a clean environment: no colour, fixed width, no kubeconfig of the
/// machine running the tests (HOME points at an empty directory).
pub fn doctor() -> Command {
    let mut c = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
    c.env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .env("HOME", empty_home())
        .env_remove("KUBECONFIG")
        .env_remove("KUBERNETES_SERVICE_HOST")
        .env_remove("KUBERNETES_SERVICE_PORT");
    c
}

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(mut c: Command) -> Out {
    let o = c.output().unwrap();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

pub fn json(mut c: Command) -> (Value, Out) {
    c.args(["-o", "json"]);
    let out = run(c);
    let v: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            out.stdout, out.stderr
        )
    });
    (v, out)
}

/// The first line of text output (the headline, after the mark).
pub fn headline(text: &str) -> String {
    text.lines()
        .find(|l| l.starts_with(['✗', '!', '✓']))
        .unwrap_or_default()
        .to_string()
}

/// Text with every run of whitespace (line wraps included) as one space, for checks that
/// must not depend on where the terminal width breaks a line.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
