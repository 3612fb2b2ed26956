//! The HTTP endpoints on `--listen`: `/metrics`, `/healthz`, `/readyz`, `/report` (the
//! `scan -o json` document of the current state, built by the same per-CronJob diagnosis,
//! with each CronJob's remembered runs) and `/runs` (one CronJob's remembered runs, what
//! `explain` asks through the API server's service proxy).

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use doctor::model::Snapshot;
use doctor::report::{self, CronJobReport, Options};
use doctor::retained::{RUNS_SCHEMA_VERSION, RunsDocument};
use jiff::Timestamp;
use tokio::sync::mpsc;

use super::store::Key;
use super::{Shared, lock, metrics};
use crate::cluster::http::Api;
use crate::cluster::{self, diagnose};

/// `/report`s in progress at once (built and sent); the permits of `Shared::report_gate`.
pub const MAX_REPORTS: usize = 2;
/// How long a `/report` waits for a turn before it is answered 503.
pub const REPORT_WAIT: Duration = Duration::from_secs(10);
/// How long one `/report` may take, built and sent; a reader slower than that is cut off.
pub const REPORT_DEADLINE: Duration = Duration::from_secs(60);
/// Chunks (of up to 64 KiB) of a `/report` built ahead of what the client has taken.
const REPORT_CHUNKS_AHEAD: usize = 2;
/// A clock sample younger than this is used as it is (the `Date` header counts whole seconds).
pub const CLOCK_MAX_AGE: Duration = Duration::from_secs(1);
/// How long `/report` waits for the API server's clock before it uses the last offset.
pub const CLOCK_READ_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Clone)]
struct AppState {
    shared: Arc<Shared>,
    api: Api,
    /// When `/report` last read the server's clock; held while one read is under way, so
    /// concurrent reports share it.
    clock_read: Arc<tokio::sync::Mutex<Option<Instant>>>,
}

pub fn router(shared: Arc<Shared>, api: Api) -> Router {
    Router::new()
        .route("/metrics", get(metrics_handler))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(readyz))
        .route("/report", get(report_handler))
        .route("/runs", get(runs_handler))
        .with_state(AppState {
            shared,
            api,
            clock_read: Arc::default(),
        })
}

async fn metrics_handler(State(s): State<AppState>, headers: HeaderMap) -> Response {
    // `cronjob_doctor_ready` as of now: readiness moves with time (a quiet watch), not only
    // when an update wakes the engine.
    let _ = s.shared.ready();
    let body = s.shared.metrics.render();
    if accepts_gzip(&headers)
        && let Some(gz) = gzip(body.as_bytes())
    {
        return (
            [
                (header::CONTENT_TYPE, metrics::CONTENT_TYPE),
                (header::CONTENT_ENCODING, "gzip"),
                (header::VARY, "Accept-Encoding"),
            ],
            gz,
        )
            .into_response();
    }
    (
        [
            (header::CONTENT_TYPE, metrics::CONTENT_TYPE),
            (header::VARY, "Accept-Encoding"),
        ],
        body,
    )
        .into_response()
}

/// Whether `Accept-Encoding` takes gzip (or `*`) with a q-value above 0.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|part| {
            let mut params = part.split(';');
            let coding = params.next().unwrap_or("").trim();
            let q = params
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok());
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && q.is_some_and(|q| q > 0.0)
        })
}

/// gzip at the fastest level: the exposition is repetitive text (about a tenth of its size
/// even so), and the scrape should cost the monitor little CPU.
fn gzip(text: &[u8]) -> Option<Vec<u8>> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(text.len() / 8),
        flate2::Compression::fast(),
    );
    enc.write_all(text).ok()?;
    enc.finish().ok()
}

async fn readyz(State(s): State<AppState>) -> Response {
    let Err(why) = s.shared.ready() else {
        return (StatusCode::OK, "ready\n").into_response();
    };
    let why = why.join("; ");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        format!("not ready: {}\n", doctor::report::visible::one_line(&why)),
    )
        .into_response()
}

/// `/runs?namespace=NS&name=NAME`: the remembered runs of one CronJob ([`RunsDocument`]).
/// Both names are validated as the API server validates them: 400 otherwise; 404 for a
/// CronJob the monitor does not know.
async fn runs_handler(State(s): State<AppState>, uri: axum::http::Uri) -> Response {
    let pairs =
        crate::cluster::request::query_pairs(uri.path_and_query().map_or("", |p| p.as_str()));
    let get = |k: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let (Some(ns), Some(name)) = (get("namespace"), get("name")) else {
        return (
            StatusCode::BAD_REQUEST,
            "/runs needs ?namespace=NS&name=NAME\n",
        )
            .into_response();
    };
    if let Err(e) = doctor::names::namespace(ns).and(doctor::names::cron_job_name(name)) {
        let msg = format!("invalid name: {e}\n");
        return (
            StatusCode::BAD_REQUEST,
            doctor::report::visible::one_line(&msg).into_owned(),
        )
            .into_response();
    }
    let k: Key = (Arc::from(ns), name.to_string());
    let known = lock(&s.shared.store).cron_job_keys().any(|c| *c == k);
    if !known {
        return (StatusCode::NOT_FOUND, "no such CronJob in the monitor\n").into_response();
    }
    let doc = RunsDocument {
        schema_version: RUNS_SCHEMA_VERSION,
        namespace: ns.to_string(),
        cron_job: name.to_string(),
        runs: s.shared.runs_of(&k),
    };
    match serde_json::to_vec(&doc) {
        Ok(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// A turn of `Shared::report_gate`, handed back when dropped (it moves to the thread that
/// builds and sends the report).
struct Turn(Arc<Shared>);

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.report_gate.add_permits(1);
    }
}

async fn report_handler(State(s): State<AppState>) -> Response {
    // At most MAX_REPORTS at a time, each streamed as it is built: its memory is the few
    // chunks not yet sent, whatever the store's size and however slowly the client reads.
    let turn = match tokio::time::timeout(REPORT_WAIT, s.shared.report_gate.acquire()).await {
        Ok(Ok(permit)) => {
            permit.forget();
            Turn(s.shared.clone())
        }
        Ok(Err(_)) => {
            return (StatusCode::SERVICE_UNAVAILABLE, "shutting down\n").into_response();
        }
        Err(_) => {
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "10")],
                "too many /report requests in progress; try again later\n",
            )
                .into_response();
        }
    };
    refresh_clock(&s).await;
    let now = s.shared.clock.now();
    let shared = s.shared.clone();
    let (tx, rx) = mpsc::channel(REPORT_CHUNKS_AHEAD);
    let complete = Arc::new(AtomicBool::new(false));
    let done = complete.clone();
    let mut out = ChunkSender {
        tx,
        handle: tokio::runtime::Handle::current(),
        deadline: tokio::time::Instant::now() + REPORT_DEADLINE,
        gone: Arc::new(AtomicBool::new(false)),
    };
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        // Complete before the sender is dropped (which ends the body).
        if write_document(&shared, now, &mut out).is_ok() {
            done.store(true, Ordering::Release);
        }
        drop(out);
    });
    // The body ends with an error (the connection is cut, no last chunk) unless the whole
    // document was written: a client never takes a cut report for a whole one.
    let body = futures::stream::unfold(Some(rx), move |rx| {
        let complete = complete.clone();
        async move {
            let mut rx = rx?;
            match rx.recv().await {
                Some(chunk) => Some((Ok(chunk), Some(rx))),
                None if complete.load(Ordering::Acquire) => None,
                None => Some((Err(io::Error::other("the report was cut short")), None)),
            }
        }
    });
    (
        [(header::CONTENT_TYPE, "application/json")],
        Body::from_stream(body),
    )
        .into_response()
}

/// "Now" fresh from the server's Date header, as `scan` reads it: without it "now" would be
/// the offset of up to a minute ago (the clock refresh), and a server whose clock is set apart
/// from real time (the tests' fake server) would give a different "now" than `scan`. One GET
/// `/version` at most every [`CLOCK_MAX_AGE`] whatever the number of reports (they share it),
/// and waited for at most [`CLOCK_READ_TIMEOUT`]: a server that hangs does not hold a report
/// up, the last known offset is used. The version stays the one read at start.
async fn refresh_clock(s: &AppState) {
    let mut last = s.clock_read.lock().await;
    if last.is_some_and(|t| t.elapsed() < CLOCK_MAX_AGE) {
        return;
    }
    *last = Some(Instant::now());
    let read = tokio::time::timeout(CLOCK_READ_TIMEOUT, crate::cluster::server_version(&s.api));
    if let Ok(Ok(_)) = read.await
        && let Some(sample) = s.api.clock()
    {
        s.shared.clock.observe(sample);
    }
}

/// The writer of a streamed `/report`: each write is a chunk for the response body, waited
/// for (room in the channel) no later than the report's deadline. Fails once the client is
/// gone or too slow, and says so in `gone` so the CronJobs left are not built for nothing.
struct ChunkSender {
    tx: mpsc::Sender<Bytes>,
    handle: tokio::runtime::Handle,
    deadline: tokio::time::Instant,
    gone: Arc<AtomicBool>,
}

impl Write for ChunkSender {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let chunk = Bytes::copy_from_slice(buf);
        let sent = self
            .handle
            .block_on(tokio::time::timeout_at(self.deadline, self.tx.send(chunk)));
        match sent {
            Ok(Ok(())) => Ok(buf.len()),
            Ok(Err(_)) => {
                self.gone.store(true, Ordering::Relaxed);
                Err(io::ErrorKind::BrokenPipe.into())
            }
            Err(_) => {
                self.gone.store(true, Ordering::Relaxed);
                Err(io::ErrorKind::TimedOut.into())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The `scan -o json` document of the store at `now`: CronJobs in LIST order (`ns/name`
/// bytes), each diagnosed from its own snapshot, with `scan`'s notes. As one string, for the
/// tests; `/report` streams it.
#[cfg(test)]
pub fn document(shared: &Shared, now: Timestamp) -> String {
    document_with(shared, now, |k| lock(&shared.store).subset(k))
}

/// [`document`], each CronJob's snapshot cut by `cut`.
#[cfg(test)]
fn document_with(
    shared: &Shared,
    now: Timestamp,
    cut: impl Fn(&Key) -> Option<Snapshot>,
) -> String {
    let mut out = Vec::new();
    let _ = write_document_with(shared, now, cut, &mut out, &AtomicBool::new(false));
    String::from_utf8(out).unwrap_or_default()
}

fn write_document(shared: &Shared, now: Timestamp, out: &mut ChunkSender) -> io::Result<()> {
    let gone = out.gone.clone();
    write_document_with(shared, now, |k| lock(&shared.store).subset(k), out, &gone)
}

/// [`document`] written to `out` as it is built, one CronJob's report at a time (the whole
/// document never exists at once: it is megabytes at scale). The store is locked only to read
/// the keys and, in `cut`, one CronJob at a time: building 10,000 reports takes seconds, and
/// holding the lock that long would hold up the engine (every change, every timer) behind a
/// `/report`. Each CronJob is diagnosed from a consistent snapshot of itself, as in `scan`,
/// whose lists are not one instant either. Stops building once `gone` is set.
fn write_document_with(
    shared: &Shared,
    now: Timestamp,
    cut: impl Fn(&Key) -> Option<Snapshot>,
    out: impl Write,
    gone: &AtomicBool,
) -> io::Result<()> {
    let opts = shared.options(now, 8);
    let mut notes = lock(&shared.notes).clone();
    notes.extend(opts.version.beyond_modelled_note());
    let (mut keys, no_events) = {
        let store = lock(&shared.store);
        let keys: Vec<Key> = store.cron_job_keys().cloned().collect();
        let no_events =
            store.evidence.events && store.event_count() == 0 && store.cron_job_count() > 0;
        (keys, no_events)
    };
    keys.sort_by(|a, b| {
        let ns = |k: &Key| k.0.bytes().chain([b'/']).collect::<Vec<u8>>();
        ns(a).cmp(&ns(b)).then_with(|| a.1.cmp(&b.1))
    });
    if no_events {
        notes.push(cluster::no_events_note("CronJobs, Jobs or Pods"));
    }
    let header = diagnose::frame(notes, &opts);
    let reports = Reports {
        keys: keys.iter(),
        cut,
        runs: |k: &Key| shared.runs_of(k),
        opts: &opts,
        gone,
    };
    report::stream::write_json_each(&header, reports, |_| {}, out)
}

/// The CronJobs' reports, built one at a time as the writer asks. `len` counts the keys left:
/// a CronJob deleted since the keys were read is skipped (the JSON array is written the same
/// whatever the announced length).
struct Reports<'a, F, R> {
    keys: std::slice::Iter<'a, Key>,
    cut: F,
    /// Each CronJob's remembered runs, set as its report's `runs`.
    runs: R,
    opts: &'a Options<'a>,
    gone: &'a AtomicBool,
}

impl<F: Fn(&Key) -> Option<Snapshot>, R: Fn(&Key) -> Vec<doctor::retained::RetainedRun>> Iterator
    for Reports<'_, F, R>
{
    type Item = CronJobReport;

    fn next(&mut self) -> Option<CronJobReport> {
        loop {
            if self.gone.load(Ordering::Relaxed) {
                return None;
            }
            let k = self.keys.next()?;
            if let Some(snap) = (self.cut)(k)
                && let Some(r) = report::build(&snap, Vec::new(), self.opts)
                    .cron_jobs
                    .into_iter()
                    .next()
            {
                return Some(CronJobReport {
                    runs: Some((self.runs)(k)),
                    ..r
                });
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.keys.len()))
    }
}

impl<F: Fn(&Key) -> Option<Snapshot>, R: Fn(&Key) -> Vec<doctor::retained::RetainedRun>>
    ExactSizeIterator for Reports<'_, F, R>
{
    fn len(&self) -> usize {
        self.keys.len()
    }
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
