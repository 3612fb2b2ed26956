//! WATCH (`GET <collection>?watch=true`): a chunked stream of JSON lines
//! `{"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{…}}`, one per change after the
//! requested resourceVersion, replayed from the store's history and then followed live.
//!
//! The semantics are the real API server's (watch cache), as kube-runtime's watcher expects them:
//! - `resourceVersion=N`: every change after N; N older than the retained history answers
//!   200 with one ERROR event carrying a 410 `Expired` Status (what the watch cache sends,
//!   and what makes a watcher relist); unset or `0`: synthetic ADDED events for the current
//!   objects first, then changes.
//! - `sendInitialEvents` (either value) needs `resourceVersionMatch=NotOlderThan`, which is
//!   refused without it; `true` (streaming lists) also needs `allowWatchBookmarks=true`, and
//!   its initial ADDED events end with a BOOKMARK annotated `k8s.io/initial-events-end: "true"`.
//! - With selectors, an object that stops matching is sent as DELETED and one that starts
//!   matching as ADDED.
//! - `allowWatchBookmarks=true`: a BOOKMARK (only `metadata.resourceVersion` set) every
//!   bookmark interval, carrying the version the stream has caught up to.
//! - `timeoutSeconds` ends the stream cleanly (final chunk), as the server's timeout does.
//!
//! Each stream is a task feeding a small channel; a client that stops reading falls behind,
//! and once the history it needs is compacted it gets the 410 ERROR and the stream ends.

use crate::clock::http_date;
use crate::handler::ConnKill;
use crate::read::{metadata_only, selectors, whole_object};
use crate::resources::{RESOURCES, Target};
use crate::selector::{FieldSelector, LabelSelector};
use crate::state::{Ctx, Shared, def, lock};
use crate::status::{self, ApiError};
use crate::store::{ChangeKind, Entry, Store, make_entry};
use axum::body::Body;
use axum::response::Response;
use bytes::Bytes;
use serde_json::json;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Lines queued per stream before the task waits for the client to read.
const QUEUE: usize = 64;

type Line = Result<Bytes, std::io::Error>;

/// The receiving end of a stream's channel, as the response body.
struct Lines(mpsc::Receiver<Line>);

impl futures_core::Stream for Lines {
    type Item = Line;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Line>> {
        self.0.poll_recv(cx)
    }
}

/// What one watch asked for, owned so its task can outlive the request handler.
struct Spec {
    res: usize,
    namespace: Option<String>,
    labels: LabelSelector,
    fields: FieldSelector,
    metadata_only: bool,
    bookmarks: bool,
    deadline: Option<Instant>,
    /// An injected early end ([`crate::FaultAction::EndWatch`]): the stream ends then,
    /// sending nothing more, even what it has not sent yet.
    end_at: Option<Instant>,
    /// The server's wire rewrite when the watch opened.
    wire_rewrite: Option<(Vec<u8>, Vec<u8>)>,
}

impl Spec {
    fn in_scope(&self, key: &str) -> bool {
        self.namespace.as_ref().is_none_or(|ns| {
            key.strip_prefix(ns.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        })
    }
    fn matches(&self, e: &Entry) -> bool {
        self.labels.matches(&e.labels) && self.fields.matches(&e.fields)
    }
    fn event(&self, kind: &str, e: &Entry) -> Bytes {
        let line = event_line(kind, &whole_object(self.res, e, self.metadata_only));
        crate::state::rewrite(line, self.wire_rewrite.as_ref())
    }
    /// A BOOKMARK: an object of the watched kind with only a resourceVersion (and, ending
    /// the initial events of a streaming list, the annotation that says so).
    fn bookmark(&self, rv: u64, initial_end: bool) -> Bytes {
        let d = def(self.res);
        let (kind, api_version) = if self.metadata_only {
            (
                "PartialObjectMetadata".to_string(),
                "meta.k8s.io/v1".to_string(),
            )
        } else {
            (d.kind.to_string(), d.api_version())
        };
        let mut metadata = json!({"resourceVersion": rv.to_string()});
        if initial_end {
            metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        let obj = json!({"kind": kind, "apiVersion": api_version, "metadata": metadata});
        event_line("BOOKMARK", &Bytes::from(obj.to_string()))
    }
}

fn event_line(kind: &str, object: &[u8]) -> Bytes {
    let head = format!("{{\"type\":\"{kind}\",\"object\":");
    let mut out = Vec::with_capacity(head.len() + object.len() + 2);
    out.extend_from_slice(head.as_bytes());
    out.extend_from_slice(object);
    out.extend_from_slice(b"}\n");
    Bytes::from(out)
}

/// The ERROR event a watch from a compacted resourceVersion gets.
fn expired_line(requested: u64, oldest: u64) -> Bytes {
    let e = status::status(
        410,
        "Expired",
        &format!("too old resource version: {requested} ({oldest})"),
        json!({}),
    );
    event_line("ERROR", &serde_json::to_vec(&e.body).expect("serialises"))
}

fn truthy(v: Option<&str>) -> bool {
    matches!(v, Some("true" | "1"))
}

fn invalid_options(field: &str, detail: &str) -> ApiError {
    let msg = format!("ListOptions.meta.k8s.io \"\" is invalid: {field}: {detail}");
    status::status(422, "Invalid", &msg, json!({}))
}

/// Counts a stream as open for as long as its task lives.
struct OpenGuard(Arc<AtomicUsize>);

impl OpenGuard {
    fn new(open: &Arc<AtomicUsize>) -> Self {
        open.fetch_add(1, Ordering::SeqCst);
        OpenGuard(open.clone())
    }
}

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Where a stream starts: the changes after `from`, after `initial` ADDED events.
struct Start {
    from: u64,
    initial: Vec<Bytes>,
}

/// Everything to send from `pos` on, and the new position; Err: `pos` was compacted away.
fn catch_up(store: &Store, spec: &Spec, pos: u64) -> Result<(Vec<Bytes>, u64), Bytes> {
    if pos < store.compacted() {
        return Err(expired_line(pos, store.compacted()));
    }
    let storage = RESOURCES[spec.res].storage;
    let mut lines = Vec::new();
    for c in store.changes_after(pos) {
        if c.storage != storage || !spec.in_scope(&c.key) {
            continue;
        }
        let was = c.previous.as_ref().is_some_and(|p| spec.matches(p));
        let is = spec.matches(&c.object);
        let line = match (c.kind, was, is) {
            (ChangeKind::Deleted, true, _) => spec.event("DELETED", &c.object),
            (ChangeKind::Deleted, false, _) => continue,
            (_, true, true) => spec.event("MODIFIED", &c.object),
            (_, false, true) => spec.event("ADDED", &c.object),
            // Stopped matching the selector: gone from this watch's point of view. The real
            // watch cache sends the last state this watch could see (the previous one, which
            // matched), stamped with the change's resourceVersion.
            (_, true, false) => match &c.previous {
                Some(p) => spec.event("DELETED", &restamped(spec.res, p, c.rv)),
                None => continue,
            },
            (_, false, false) => continue,
        };
        lines.push(line);
    }
    // Never step back: a watch from a version the store has not reached yet waits for it.
    Ok((lines, pos.max(store.rv())))
}

/// `e` with its resourceVersion replaced by `rv`.
fn restamped(res: usize, e: &Entry, rv: u64) -> Entry {
    let mut v = e.value();
    v["metadata"]["resourceVersion"] = json!(rv.to_string());
    make_entry(def(res), v).1
}

/// Answers a WATCH request: validates it, then hands the stream to a task of its own.
pub(crate) fn open(
    ctx: &Ctx<'_>,
    shared: Arc<Shared>,
    t: &Target,
    kill: Option<ConnKill>,
    end_after: Option<Duration>,
) -> Result<Response, ApiError> {
    let (labels, fields) = selectors(ctx, t)?;
    let requested = match ctx.param("resourceVersion").unwrap_or_default() {
        "" => None,
        rv => Some(
            rv.parse::<u64>()
                .map_err(|_| status::bad_request(&format!("invalid resource version: {rv:?}")))?,
        ),
    };
    let bookmarks = truthy(ctx.param("allowWatchBookmarks"));
    // The real validation (validateWatchOptions): resourceVersionMatch goes with
    // sendInitialEvents, either way, and only as NotOlderThan; initial events need bookmarks.
    let rv_match = ctx.param("resourceVersionMatch").unwrap_or_default();
    let send_initial = match ctx.param("sendInitialEvents") {
        Some(v @ ("true" | "false")) => {
            if rv_match != "NotOlderThan" {
                return Err(invalid_options(
                    "resourceVersionMatch",
                    "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                ));
            }
            if v == "true" && !bookmarks {
                return Err(invalid_options(
                    "allowWatchBookmarks",
                    "Forbidden: allowWatchBookmarks must be set to true when sendInitialEvents is set",
                ));
            }
            v == "true"
        }
        Some(other) => {
            return Err(status::bad_request(&format!(
                "sendInitialEvents: invalid value {other:?}"
            )));
        }
        None if !rv_match.is_empty() => {
            return Err(invalid_options(
                "resourceVersionMatch",
                "Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            ));
        }
        // Unset or "0": the current state first ("get state and start at most recent").
        None => requested.is_none_or(|rv| rv == 0),
    };
    let timeout =
        match ctx.param("timeoutSeconds") {
            None | Some("") => None,
            Some(s) => Some(s.parse::<u64>().map_err(|_| {
                status::bad_request(&format!("timeoutSeconds: invalid value {s:?}"))
            })?),
        };
    let spec = Spec {
        res: t.res,
        namespace: t.namespace.clone(),
        labels,
        fields,
        metadata_only: metadata_only(ctx),
        bookmarks,
        deadline: timeout.map(|s| Instant::now() + Duration::from_secs(s)),
        end_at: end_after.map(|d| Instant::now() + d),
        wire_rewrite: ctx.cfg.wire_rewrite.clone(),
    };
    let expire = shared
        .watches
        .expire_next
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok();

    let (tx, rx) = mpsc::channel(QUEUE);
    // Read the start under one lock: the initial objects and the position after them are
    // one consistent state, so no change falls between them.
    let start = {
        let store = shared.read();
        if expire {
            Err(expired_line(requested.unwrap_or(0), store.rv()))
        } else if send_initial {
            let storage = RESOURCES[t.res].storage;
            let mut initial: Vec<Bytes> = store
                .range(storage, t.namespace.as_deref(), None)
                .filter(|(_, e)| spec.matches(e))
                .map(|(_, e)| spec.event("ADDED", e))
                .collect();
            if ctx.param("sendInitialEvents") == Some("true") {
                initial.push(spec.bookmark(store.rv(), true));
            }
            Ok(Start {
                from: store.rv(),
                initial,
            })
        } else {
            // "0" (any version) without initial events starts at the newest, like unset.
            let from = requested
                .filter(|rv| *rv != 0)
                .unwrap_or_else(|| store.rv());
            Ok(Start {
                from,
                initial: Vec::new(),
            })
        }
    };
    let bookmark_interval = ctx.cfg.bookmark_interval;
    tokio::spawn(stream(
        shared.clone(),
        spec,
        start,
        tx,
        kill,
        bookmark_interval,
    ));

    let now = lock(&shared.cfg).clock.now();
    Ok(Response::builder()
        .status(200)
        .header("content-type", "application/json")
        .header("date", http_date(now))
        .header("cache-control", "no-cache, private")
        .body(Body::from_stream(Lines(rx)))
        .expect("valid response parts"))
}

async fn stream(
    shared: Arc<Shared>,
    spec: Spec,
    start: Result<Start, Bytes>,
    tx: mpsc::Sender<Line>,
    kill: Option<ConnKill>,
    bookmark_interval: Duration,
) {
    let _open = OpenGuard::new(&shared.watches.open);
    let Start { mut from, initial } = match start {
        Ok(s) => s,
        Err(expired) => {
            let _ = tx.send(Ok(expired)).await;
            return;
        }
    };
    let mut changes = shared.read().subscribe();
    let mut drops = shared.watches.drop_all.subscribe();
    let mut pending = initial;
    let period = bookmark_interval.max(Duration::from_millis(1));
    let mut ticks = tokio::time::interval_at(Instant::now() + period, period);
    let mut bookmark_due = false;
    let mut frozen = shared.frozen.subscribe();
    loop {
        // Frozen: nothing is sent (no catch-up, no bookmark) until thawed.
        tokio::select! {
            _ = frozen.wait_for(|f| !*f) => {}
            _ = tx.closed() => return,
        }
        if spec.end_at.is_some_and(|end| Instant::now() >= end) {
            return;
        }
        let caught_up = {
            let store = shared.read();
            changes.mark_unchanged();
            catch_up(&store, &spec, from).map(|(lines, pos)| {
                from = pos;
                pending.extend(lines);
                if std::mem::take(&mut bookmark_due) {
                    pending.push(spec.bookmark(pos, false));
                }
            })
        };
        let expired = caught_up.is_err();
        if let Err(line) = caught_up {
            pending.push(line);
        }
        for line in pending.drain(..) {
            if tx.send(Ok(line)).await.is_err() {
                return;
            }
        }
        if expired {
            return;
        }
        let deadline = match (spec.deadline, spec.end_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        tokio::select! {
            _ = frozen.wait_for(|f| *f) => {}
            r = changes.changed() => if r.is_err() { return },
            _ = ticks.tick(), if spec.bookmarks => bookmark_due = true,
            _ = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d).await,
                    None => std::future::pending().await,
                }
            } => return,
            _ = drops.changed() => {
                // Cut the connection: the client sees a broken stream, not a clean end.
                let _ = tx.try_send(Err(std::io::Error::other("watch dropped by the test")));
                if let Some(k) = kill {
                    k.0.notify_one();
                }
                return;
            }
            _ = tx.closed() => return,
        }
    }
}
