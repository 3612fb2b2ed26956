//! `FakeApiServer`: the running server and the knobs tests turn while it runs (version,
//! clock, latency, access rules, faults), its request log, and direct access to its objects.

use crate::access::AccessRule;
use crate::builder::Builder;
use crate::clock::Clock;
use crate::error::ObjectError;
use crate::faults::Fault;
use crate::kubeconfig::{KubeContext, write_kubeconfig_file};
use crate::log::RecordedRequest;
use crate::resources;
use crate::state::{Shared, lock, object_value};
use jiff::{SignedDuration, Timestamp};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::watch;

/// A fake Kubernetes API server on `http://127.0.0.1:PORT` (`https://` when built with
/// [`Builder::tls`]). Stops on [`shutdown`](Self::shutdown) or drop.
pub struct FakeApiServer {
    pub(crate) shared: Arc<Shared>,
    pub(crate) addr: SocketAddr,
    /// The CA clients must trust, when serving TLS.
    pub(crate) ca_pem: Option<String>,
    pub(crate) stop: watch::Sender<bool>,
    pub(crate) thread: Option<std::thread::JoinHandle<()>>,
}

fn res_of(kind: &str) -> usize {
    resources::lookup(kind).unwrap_or_else(|| panic!("fake-apiserver does not serve {kind:?}"))
}

impl FakeApiServer {
    /// Options that must be set before objects load (clock, version, port, rules).
    pub fn builder() -> Builder {
        Builder::new()
    }

    /// Starts with `objects` on the current tokio runtime. Panics on objects it cannot serve.
    pub async fn start(objects: impl IntoIterator<Item = Value>) -> FakeApiServer {
        let objects: Vec<Value> = objects.into_iter().collect();
        Self::builder()
            .objects(objects)
            .start()
            .await
            .expect("fake-apiserver start")
    }

    /// Starts with `objects` on its own thread and runtime. Panics on objects it cannot serve.
    pub fn start_blocking(objects: impl IntoIterator<Item = Value>) -> FakeApiServer {
        let objects: Vec<Value> = objects.into_iter().collect();
        Self::builder()
            .objects(objects)
            .start_blocking()
            .expect("fake-apiserver start")
    }

    pub fn url(&self) -> String {
        let scheme = if self.ca_pem.is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}", self.addr)
    }

    /// The CA certificate (PEM) that signed the server's certificate; None for plain HTTP.
    pub fn ca_pem(&self) -> Option<&str> {
        self.ca_pem.as_deref()
    }

    /// Writes the server has made to its connections so far (to the TLS layer when serving
    /// TLS, handshakes not counted). Each response goes out in one write unless the socket
    /// buffer fills, so small answers cost exactly one each.
    pub fn write_calls(&self) -> u64 {
        self.shared
            .writes
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Writes `dir/kubeconfig`: one context `fake` (cluster, user with token `fake-token`),
    /// default namespace `namespace` if given.
    pub fn write_kubeconfig(&self, dir: impl AsRef<Path>, namespace: Option<&str>) -> PathBuf {
        let url = self.url();
        let ctx = KubeContext {
            name: "fake",
            server: &url,
            namespace,
            token: "fake-token",
            ca_pem: self.ca_pem(),
        };
        let path = dir.as_ref().join("kubeconfig");
        write_kubeconfig_file(&path, &[ctx], "fake").expect("write kubeconfig");
        path
    }

    /// Writes `dir/kubeconfig` with one context per `(name, namespace)`, all pointing here;
    /// context `name` authenticates with token `fake-token-<name>`, so the request log shows
    /// which context a `--context` flag selected.
    pub fn write_kubeconfig_contexts(
        &self,
        dir: impl AsRef<Path>,
        contexts: &[(&str, Option<&str>)],
        current: &str,
    ) -> PathBuf {
        let url = self.url();
        let tokens: Vec<String> = contexts
            .iter()
            .map(|(n, _)| format!("fake-token-{n}"))
            .collect();
        let ctxs: Vec<KubeContext<'_>> = contexts
            .iter()
            .zip(&tokens)
            .map(|((name, namespace), token)| KubeContext {
                name,
                server: &url,
                namespace: *namespace,
                token,
                ca_pem: self.ca_pem(),
            })
            .collect();
        let path = dir.as_ref().join("kubeconfig");
        write_kubeconfig_file(&path, &ctxs, current).expect("write kubeconfig");
        path
    }

    pub fn set_version(&self, git_version: &str) {
        lock(&self.shared.cfg).git_version = git_version.to_string();
    }
    /// Freezes the server clock at `now` (Date headers, new creationTimestamps, managedFields).
    pub fn set_clock(&self, now: Timestamp) {
        lock(&self.shared.cfg).clock = Clock::Fixed(now);
    }
    /// Runs the server clock `skew` ahead of (negative: behind) the machine's.
    pub fn set_clock_skew(&self, skew: SignedDuration) {
        lock(&self.shared.cfg).clock = Clock::Offset(skew);
    }
    /// Starts the server clock at `from`, advancing `rate` seconds per real second (1.0:
    /// real speed), for clients that must see time pass (see [`Clock::running_at_rate`]).
    pub fn set_clock_running(&self, from: Timestamp, rate: f64) {
        lock(&self.shared.cfg).clock = Clock::running_at_rate(from, rate);
    }
    /// Moves the server clock by `by`, whatever kind it is (a frozen clock jumps; a running
    /// one keeps running from the moved instant).
    pub fn advance_clock(&self, by: SignedDuration) {
        let mut cfg = lock(&self.shared.cfg);
        cfg.clock = cfg.clock.advanced(by);
    }
    pub fn now(&self) -> Timestamp {
        lock(&self.shared.cfg).clock.now()
    }
    /// Added before every answer (on top of any injected delay).
    pub fn set_latency(&self, latency: Duration) {
        lock(&self.shared.cfg).latency = latency;
    }
    /// At most `n` items per LIST page from now on (None: as `limit` asks).
    /// From now on, every occurrence of `from` in an answer's body (GET, LIST) and in a watch
    /// event (of watches opened from now on) is sent as `to`: text the store cannot hold
    /// (it keeps objects as valid JSON of valid Unicode), such as the lone UTF-16 surrogate
    /// escape `\ud800` that Go's encoder never writes but a real API server passes through
    /// from what a client stored. `None`: answers as stored.
    pub fn set_wire_rewrite(&self, rule: Option<(&str, &str)>) {
        lock(&self.shared.cfg).wire_rewrite =
            rule.map(|(from, to)| (from.as_bytes().to_vec(), to.as_bytes().to_vec()));
    }
    /// Maps (or with `None` unmaps) the service proxy of `namespace/name:port` to a loopback
    /// address, as [`Builder::service_proxy`](crate::Builder::service_proxy).
    pub fn set_service_proxy(
        &self,
        namespace: &str,
        name: &str,
        port: u16,
        to: Option<SocketAddr>,
    ) {
        let key = crate::proxy::key(namespace, name, port);
        let mut cfg = lock(&self.shared.cfg);
        match to {
            Some(addr) => cfg.service_proxies.insert(key, addr),
            None => cfg.service_proxies.remove(&key),
        };
    }
    pub fn set_page_cap(&self, n: Option<usize>) {
        lock(&self.shared.cfg).page_cap = n.map(|n| n.max(1));
    }
    pub fn set_user(&self, user: &str) {
        lock(&self.shared.cfg).user = user.to_string();
    }
    /// Replaces the access rules (empty: everything allowed).
    pub fn set_access_rules(&self, rules: Vec<AccessRule>) {
        lock(&self.shared.cfg).rules = rules;
    }
    pub fn add_access_rule(&self, rule: AccessRule) {
        lock(&self.shared.cfg).rules.push(rule);
    }

    /// Bookmark interval for watches opened from now on.
    pub fn set_bookmark_interval(&self, every: Duration) {
        lock(&self.shared.cfg).bookmark_interval = every;
    }
    /// How many changes WATCH can replay from now on (older ones are compacted at once).
    pub fn set_watch_history(&self, changes: usize) {
        self.shared.write().set_history_cap(changes);
    }
    /// Forgets the change history, as an etcd compaction does: a watch from any
    /// resourceVersion before the current one gets 410 Expired (open watches that are
    /// caught up carry on, as on a real server).
    pub fn compact_watch_history(&self) {
        self.shared.write().compact();
    }
    /// The store's current resourceVersion (what a LIST now reports).
    pub fn resource_version(&self) -> u64 {
        self.shared.read().rv()
    }
    /// Watch streams open right now.
    pub fn open_watches(&self) -> usize {
        self.shared.watches.open.load(Ordering::SeqCst)
    }
    /// Cuts every open watch connection mid-stream, as a network blip or an API server
    /// restart does; clients must re-watch from the last resourceVersion they saw.
    pub fn drop_watches(&self) {
        self.shared.watches.drop_all.send_modify(|n| *n += 1);
    }
    /// The next `n` watch starts get a 410 Expired ERROR event whatever their
    /// resourceVersion, so a client is made to relist.
    pub fn expire_next_watches(&self, n: u32) {
        self.shared.watches.expire_next.store(n, Ordering::SeqCst);
    }
    /// The next watch start fails with 500 before any event (a failing watch request; a
    /// client should back off and retry). Same as injecting [`Fault::internal_error`] for
    /// the `watch` verb, once.
    pub fn fail_next_watch(&self) {
        self.inject(Fault::internal_error("watch", "**").once());
    }

    /// Freezes the server as a stopped process (SIGSTOP) is frozen: connections are still
    /// accepted, but no request is answered and open watches send nothing (no event, no
    /// bookmark) until [`thaw`](Self::thaw).
    pub fn freeze(&self) {
        self.shared.frozen.send_replace(true);
    }
    /// Ends a [`freeze`](Self::freeze): waiting requests are answered, watches go on.
    pub fn thaw(&self) {
        self.shared.frozen.send_replace(false);
    }
    /// Takes the server down (true), as while it restarts: open connections are cut and new
    /// ones closed unanswered; false brings it back. Combine with
    /// [`compact_watch_history`](Self::compact_watch_history) for a server that restarts
    /// with its watch history gone.
    pub fn set_down(&self, down: bool) {
        self.shared.down.store(down, Ordering::SeqCst);
        if down {
            self.drop_watches();
        }
    }

    pub fn inject(&self, fault: Fault) {
        lock(&self.shared.faults).push(fault.into());
    }
    pub fn clear_faults(&self) {
        lock(&self.shared.faults).clear();
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.log).clone()
    }
    /// [`RecordedRequest::line`] of every request so far.
    pub fn request_lines(&self) -> Vec<String> {
        lock(&self.shared.log)
            .iter()
            .map(RecordedRequest::line)
            .collect()
    }
    pub fn clear_requests(&self) {
        lock(&self.shared.log).clear();
    }

    /// One object as GET would return it. `kind` is a plural, singular, Kind or short name;
    /// `namespace` is `""` for cluster-scoped kinds.
    pub fn object(&self, kind: &str, namespace: &str, name: &str) -> Option<Value> {
        let res = res_of(kind);
        self.shared
            .read()
            .get(res, namespace, name)
            .map(|e| object_value(&resources::RESOURCES[res], e))
    }

    /// All objects of a kind, in LIST order.
    pub fn objects(&self, kind: &str) -> Vec<Value> {
        let res = res_of(kind);
        let store = self.shared.read();
        store
            .range(res, None, None)
            .map(|(_, e)| object_value(&resources::RESOURCES[res], e))
            .collect()
    }

    /// Creates or replaces an object behind the API's back, as a controller would: it gets
    /// a fresh resourceVersion (and uid/creationTimestamp if missing), and open watches see
    /// it ADDED or MODIFIED.
    pub fn put_object(&self, mut obj: Value) -> Result<(), ObjectError> {
        if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            m.remove("resourceVersion");
        }
        let now = self.now();
        self.shared.write().ingest(obj, now).map(|_| ())
    }

    /// Deletes an object behind the API's back (open watches see DELETED); whether it existed.
    pub fn delete_object(&self, kind: &str, namespace: &str, name: &str) -> bool {
        self.shared
            .write()
            .delete(res_of(kind), namespace, name)
            .is_some()
    }

    /// `(resource, objects, JSON bytes)` for every non-empty table, for benchmark reports.
    pub fn stats(&self) -> Vec<(&'static str, usize, usize)> {
        let store = self.shared.read();
        resources::RESOURCES
            .iter()
            .enumerate()
            .filter(|(i, d)| d.storage == *i)
            .map(|(i, d)| {
                let t = store.table(i);
                (d.plural, t.len(), t.values().map(|e| e.bytes.len()).sum())
            })
            .filter(|(_, n, _)| *n > 0)
            .collect()
    }

    /// What `GET …/pods/{pod}/log?container={container}` returns (`previous`: with
    /// `previous=true`, the last terminated instance's log).
    pub fn set_pod_log(
        &self,
        namespace: &str,
        pod: &str,
        container: &str,
        previous: bool,
        text: &str,
    ) {
        let key = (
            namespace.to_string(),
            pod.to_string(),
            container.to_string(),
            previous,
        );
        lock(&self.shared.logs).insert(key, text.to_string());
    }

    /// Number of stored objects of a kind.
    pub fn count(&self, kind: &str) -> usize {
        self.shared.read().table(res_of(kind)).len()
    }

    /// Stops accepting, closes open connections, and (blocking servers) joins the thread.
    pub fn shutdown(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        let _ = self.stop.send(true);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for FakeApiServer {
    fn drop(&mut self) {
        self.stop_now();
    }
}
