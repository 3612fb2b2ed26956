//! Shared by `tests/prometheus_scrape.rs`, `tests/monitor_readme.rs`, `tests/explain_monitor.rs`,
//! `tests/monitor.rs` (the free port, the BackOff event) and `tests/e2e_kind.rs`: child
//! processes that are killed when a test fails, plain HTTP/1.0 over loopback, polling with
//! deadlines, the monitor started against a fake API server on a free port, and the Warning
//! event of a remembered run.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli_live_common::Live;

/// A free loopback port (bound, then released for the child to take; a lost race is
/// retried by the callers).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A scratch directory removed when dropped (config, TSDB, logs).
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        Scratch(crate::support::scratch(tag))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process whose stderr goes to a log file; killed when dropped (a failed
/// assertion must not leave a Prometheus running).
pub struct Process {
    pub child: Child,
    log: PathBuf,
    pub addr: String,
}

impl Process {
    pub fn spawn(mut cmd: Command, log: PathBuf, addr: String) -> Process {
        let file = std::fs::File::create(&log).unwrap();
        cmd.stdout(Stdio::null()).stderr(Stdio::from(file));
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        Process { child, log, addr }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The last lines of the log, for failure messages.
    pub fn log_tail(&self) -> String {
        let log = self.log();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    pub fn get(&self, path: &str) -> Option<(u16, String)> {
        http_get(&self.addr, path)
    }

    /// SIGTERM, then the exit code once it is gone (at most 15 s).
    pub fn terminate(mut self) -> Option<i32> {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                return st.code();
            }
            assert!(
                Instant::now() < deadline,
                "no exit within 15 s of SIGTERM: {}",
                self.log_tail()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET path` as HTTP/1.0, so neither server answers chunked: (status, body), or None
/// while nothing listens.
pub fn http_get(addr: &str, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").ok()?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).ok()?;
    let (head, body) = raw.split_once("\r\n\r\n")?;
    let code = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((code, body.to_string()))
}

/// Call `check` every 100 ms until it returns `Ok`, for at most `within`; the panic
/// message carries the last reason it gave.
pub fn poll<T>(what: &str, within: Duration, mut check: impl FnMut() -> Result<T, String>) -> T {
    let deadline = Instant::now() + within;
    loop {
        match check() {
            Ok(v) => return v,
            Err(why) if Instant::now() >= deadline => {
                panic!("{what}: not within {within:?}; last: {why}")
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// The monitor on a free port, ready (`/readyz` 200) with its first series; a port taken
/// between our probe and its bind is retried with another.
pub fn start_monitor(live: &Live, dir: &Path) -> Process {
    for attempt in 0..3 {
        let addr = format!("127.0.0.1:{}", free_port());
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"));
        cmd.env("NO_COLOR", "1")
            .env("HOME", dir)
            .env("KUBECONFIG", &live.kubeconfig)
            .env_remove("KUBERNETES_SERVICE_HOST")
            .args(["monitor", "-A", "--listen", &addr]);
        let mut m = Process::spawn(cmd, dir.join(format!("monitor-{attempt}.log")), addr);
        let ready = poll("the monitor is ready", Duration::from_secs(30), || {
            if m.exited() {
                return Ok(false);
            }
            match (m.get("/readyz"), m.get("/metrics")) {
                (Some((200, _)), Some((200, body)))
                    if body.contains("cronjob_doctor_cronjob_status{") =>
                {
                    Ok(true)
                }
                other => Err(format!("{other:?}")),
            }
        });
        if ready {
            return m;
        }
        assert!(
            m.log().contains("--listen"),
            "the monitor exited: {}",
            m.log_tail()
        );
    }
    panic!("no free port for the monitor in 3 attempts");
}

/// The name of the Event [`put_backoff_event`] files.
pub const BACKOFF_EVENT: &str = "etl-29919000-k8d2x.backoff";

/// The kubelet's Warning about the failed run of `examples/jobs-failing-oomkilled.yaml`
/// (`data/etl`, Job `etl-29919000`): its Pod's BackOff, three times, saying `message`.
pub fn put_backoff_event(live: &Live, message: &str) {
    live.server
        .put_object(serde_json::json!({
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": BACKOFF_EVENT, "namespace": "data"},
            "involvedObject": {"kind": "Pod", "name": "etl-29919000-k8d2x", "namespace": "data"},
            "type": "Warning",
            "reason": "BackOff",
            "message": message,
            "count": 3,
            "firstTimestamp": "2026-11-20T02:01:00Z",
            "lastTimestamp": "2026-11-20T02:03:00Z",
            "source": {"component": "kubelet"}
        }))
        .unwrap();
}
