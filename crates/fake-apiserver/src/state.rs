//! Shared server state and the per-request context the endpoint handlers receive.
//!
//! Locks are `std::sync` and never held across an `.await`: every handler does its store
//! work synchronously, so a read-modify-write is atomic exactly like one etcd transaction.

use crate::access::AccessRule;
use crate::clock::Clock;
use crate::faults::Armed;
use crate::log::RecordedRequest;
use crate::resources::{RESOURCES, ResourceDef};
use crate::status::{self, ApiError};
use crate::store::{Entry, Store};
use bytes::Bytes;
use jiff::Timestamp;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

/// Knobs a test turns while the server runs.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub git_version: String,
    pub clock: Clock,
    pub latency: Duration,
    /// The user named in Forbidden messages and SelfSubjectAccessReview answers.
    pub user: String,
    pub rules: Vec<AccessRule>,
    pub addr: SocketAddr,
    /// Most items one LIST page holds, whatever `limit` asked for (None: `limit` decides).
    pub page_cap: Option<usize>,
    /// How often an idle watch that allows bookmarks gets one.
    pub bookmark_interval: Duration,
    /// On the wire, every occurrence of `.0` in an answer's body or a watch event becomes
    /// `.1` (see [`FakeApiServer::set_wire_rewrite`](crate::FakeApiServer::set_wire_rewrite)).
    pub wire_rewrite: Option<(Vec<u8>, Vec<u8>)>,
    /// Service proxy targets: (namespace, `name:port`) to a loopback address (`proxy.rs`).
    pub service_proxies: BTreeMap<(String, String), SocketAddr>,
}

/// `bytes` with every occurrence of `from` replaced by `to` (no rewrite: as they are).
pub(crate) fn rewrite(bytes: Bytes, rule: Option<&(Vec<u8>, Vec<u8>)>) -> Bytes {
    let Some((from, to)) = rule.filter(|(from, _)| !from.is_empty()) else {
        return bytes;
    };
    if !bytes.windows(from.len()).any(|w| w == from.as_slice()) {
        return bytes;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Bytes::from(out)
}

/// What tests steer about open watches.
pub(crate) struct Watches {
    /// Watch streams open right now.
    pub open: Arc<AtomicUsize>,
    /// Bumped to cut every open watch connection.
    pub drop_all: tokio::sync::watch::Sender<u64>,
    /// This many coming watch starts answer 410 Expired whatever their resourceVersion.
    pub expire_next: AtomicU32,
}

/// Container logs by (namespace, pod, container, previous).
pub(crate) type Logs = HashMap<(String, String, String, bool), String>;

pub(crate) struct Shared {
    pub store: RwLock<Store>,
    pub logs: Mutex<Logs>,
    pub log: Mutex<Vec<RecordedRequest>>,
    pub faults: Mutex<Vec<Armed>>,
    pub cfg: Mutex<Config>,
    /// Writes made to connection streams (see `conn::CountWrites`).
    pub writes: Arc<AtomicU64>,
    pub watches: Watches,
    /// Frozen (true): requests and watch streams wait, as with a stopped (SIGSTOP) process.
    pub frozen: tokio::sync::watch::Sender<bool>,
    /// Down: every connection is closed unanswered, as while the server restarts.
    pub down: AtomicBool,
}

/// A poisoned lock only means another handler panicked; the data is still what it was, and
/// a test server must keep answering so the test can report the real failure.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub fn new(store: Store, cfg: Config) -> Self {
        Shared {
            store: RwLock::new(store),
            logs: Mutex::new(HashMap::new()),
            log: Mutex::new(Vec::new()),
            faults: Mutex::new(Vec::new()),
            cfg: Mutex::new(cfg),
            writes: Arc::new(AtomicU64::new(0)),
            watches: Watches {
                open: Arc::new(AtomicUsize::new(0)),
                drop_all: tokio::sync::watch::channel(0).0,
                expire_next: AtomicU32::new(0),
            },
            frozen: tokio::sync::watch::channel(false).0,
            down: AtomicBool::new(false),
        }
    }
    /// Returns once the server is not frozen.
    pub async fn thawed(&self) {
        let mut rx = self.frozen.subscribe();
        let _ = rx.wait_for(|f| !*f).await;
    }
    pub fn read(&self) -> RwLockReadGuard<'_, Store> {
        self.store.read().unwrap_or_else(|e| e.into_inner())
    }
    pub fn write(&self) -> RwLockWriteGuard<'_, Store> {
        self.store.write().unwrap_or_else(|e| e.into_inner())
    }
    pub fn cfg(&self) -> Config {
        lock(&self.cfg).clone()
    }
}

/// Status code and body of a successful answer.
pub(crate) type Answer = Result<(u16, Bytes), ApiError>;

pub(crate) fn json_answer(code: u16, v: &Value) -> Answer {
    Ok((
        code,
        Bytes::from(serde_json::to_vec(v).expect("Value serialises")),
    ))
}

/// What a handler needs to know about the request it serves.
pub(crate) struct Ctx<'a> {
    pub shared: &'a Shared,
    pub cfg: Config,
    pub now: Timestamp,
    pub query: &'a BTreeMap<String, String>,
    pub content_type: &'a str,
    pub accept: &'a str,
    pub user_agent: &'a str,
    pub body: &'a [u8],
}

impl Ctx<'_> {
    pub fn param(&self, k: &str) -> Option<&str> {
        self.query.get(k).map(String::as_str)
    }

    /// `dryRun=All` (the only value the real server accepts).
    pub fn dry_run(&self) -> Result<bool, ApiError> {
        match self.param("dryRun") {
            None | Some("") => Ok(false),
            Some("All") => Ok(true),
            Some(v) => Err(status::bad_request(&format!(
                "dryRun: Unsupported value: \"{v}\": supported values: \"All\""
            ))),
        }
    }

    /// `fieldManager`, else what the real server derives from the User-Agent prefix.
    pub fn manager(&self) -> Result<String, ApiError> {
        match self.param("fieldManager") {
            Some(m) if m.len() > 128 => Err(status::bad_request(
                "fieldManager: Too long: may not be more than 128 bytes",
            )),
            Some(m) if !m.is_empty() => Ok(m.to_string()),
            _ => Ok(match self.user_agent.split('/').next() {
                Some(p) if !p.is_empty() => p.to_string(),
                _ => "unknown".to_string(),
            }),
        }
    }

    /// The body as an object: JSON, or YAML for `application/apply-patch+yaml`.
    pub fn body_value(&self) -> Result<Value, ApiError> {
        let parsed = serde_json::from_slice(self.body)
            .map_err(|e| e.to_string())
            .or_else(|e| {
                if self.content_type.contains("yaml") {
                    serde_saphyr::from_str(&String::from_utf8_lossy(self.body))
                        .map_err(|e| e.to_string())
                } else {
                    Err(e)
                }
            });
        parsed.map_err(|e| {
            status::bad_request(&format!(
                "the body of the request could not be decoded: {e}"
            ))
        })
    }
}

/// The full object as a GET returns it: stored bytes carry no apiVersion/kind (LIST items
/// don't on the wire either), so they are put back in front.
pub(crate) fn object_bytes(def: &ResourceDef, e: &Entry) -> Bytes {
    let head = format!(
        "{{\"kind\":\"{}\",\"apiVersion\":\"{}\",",
        def.kind,
        def.api_version()
    );
    let mut out = Vec::with_capacity(head.len() + e.bytes.len());
    out.extend_from_slice(head.as_bytes());
    out.extend_from_slice(&e.bytes[1..]);
    Bytes::from(out)
}

/// The stored object as a `Value`, with its apiVersion/kind.
pub(crate) fn object_value(def: &ResourceDef, e: &Entry) -> Value {
    let mut v = e.value();
    v["apiVersion"] = json!(def.api_version());
    v["kind"] = json!(def.kind);
    v
}

pub(crate) fn def(res: usize) -> &'static ResourceDef {
    &RESOURCES[res]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_rewrite_replaces_every_occurrence_and_nothing_else() {
        let rule = (b"MARK".to_vec(), br"\ud800".to_vec());
        let out = rewrite(
            Bytes::from_static(b"{\"a\":\"MARK x MARKMAR\"}"),
            Some(&rule),
        );
        assert_eq!(&out[..], br#"{"a":"\ud800 x \ud800MAR"}"#);
        let same = Bytes::from_static(b"no mark");
        assert_eq!(rewrite(same.clone(), Some(&rule)), same);
        assert_eq!(rewrite(same.clone(), None), same);
        assert_eq!(
            rewrite(same.clone(), Some(&(Vec::new(), b"x".to_vec()))),
            same
        );
    }
}
