//! What each watch stream hears from the API server, seen at the HTTP layer under kube's
//! watcher. kube's `watcher` reports objects and errors, but not the rest of a stream's life:
//! it swallows bookmarks, and re-watches silently when a stream ends. So the monitor could
//! neither tell a quiet stream from a dead one (a frozen server kept `/readyz` at 200 for
//! minutes) nor a recovered stream from a failing one (readiness latched at 503 until a real
//! change), and a server that ended every watch right after its headers was re-watched at
//! once, again and again (docs/monitor.md, "Faults").
//!
//! Each stream's kube client is wrapped ([`client_for`]) in a service that notes, per stream:
//! - *heard*: body data (an event, a bookmark, a list page) of a 2xx answer;
//! - *answered*: whether the latest request got an HTTP answer at all (any status), which
//!   tells a server that is back from one that is still unreachable ([`WatchBackoff`]);
//! - a watch that ended cleanly without a byte: the next watch of that stream waits, with
//!   kube's default backoff, as after an error.
//!
//! - lone UTF-16 surrogate escapes (`"\ud800"`) in 2xx bodies, rewritten to `\ufffd` as they
//!   arrive (`surrogates::Replacer`), before kube parses them: one in any string of a LIST
//!   page or a WATCH event failed the whole page, and the monitor was never ready
//!   (docs/monitor.md, "Faults"). The objects holding one are named on stderr, once each.
//!
//! The watch loop stays kube's; this only observes, repairs that one thing and, for empty
//! watches, delays.

use std::collections::HashSet;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use kube::client::Body;
use kube::runtime::utils::Backoff;
use kube::runtime::watcher::DefaultBackoff;

use super::surrogates::{Replacer, holder};
use super::watch::Stream;

/// Most objects named in lone-surrogate notes: a server full of them is not a reason to
/// write without end.
const LONE_NOTES: usize = 1000;

/// What one stream has heard.
struct Line {
    /// Milliseconds since [`Liveness::epoch`] of the last data heard (0: never).
    heard_ms: AtomicU64,
    /// How many times data was heard: a failure noted at count N is over once it is past N.
    heard: AtomicU64,
    /// Whether the latest request of the stream got an HTTP answer (any status).
    answered: AtomicBool,
    /// Backoff for watches that end without a byte, and the wait owed by the next watch.
    empty: Mutex<(DefaultBackoff, Option<Duration>)>,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            heard_ms: AtomicU64::new(0),
            heard: AtomicU64::new(0),
            answered: AtomicBool::new(true),
            empty: Mutex::new((DefaultBackoff::default(), None)),
        }
    }
}

/// What every stream has heard, shared by the watchers' clients, their backoffs and
/// readiness.
pub struct Liveness {
    epoch: Instant,
    lines: [Line; 5],
    /// Objects named already for holding a lone surrogate escape (stream, `namespace/name`).
    lone_noted: Mutex<HashSet<(Stream, String)>>,
}

impl Default for Liveness {
    fn default() -> Self {
        Liveness {
            epoch: Instant::now(),
            lines: Default::default(),
            lone_noted: Mutex::new(HashSet::new()),
        }
    }
}

/// Lock a mutex whatever a panicking holder left (a backoff state is never half-written).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn index(s: Stream) -> usize {
    Stream::ALL.iter().position(|x| *x == s).unwrap_or(0)
}

impl Liveness {
    fn line(&self, s: Stream) -> &Line {
        &self.lines[index(s)]
    }

    /// How many times `s` has heard from the server so far.
    pub fn heard(&self, s: Stream) -> u64 {
        self.line(s).heard.load(Ordering::SeqCst)
    }

    /// How long `s` has heard nothing (since the monitor started, if never).
    pub fn silent_for(&self, s: Stream) -> Duration {
        let ms = self.line(s).heard_ms.load(Ordering::SeqCst);
        self.epoch
            .elapsed()
            .saturating_sub(Duration::from_millis(ms))
    }

    /// Whether the latest request of `s` got an HTTP answer.
    pub fn answered(&self, s: Stream) -> bool {
        self.line(s).answered.load(Ordering::SeqCst)
    }

    pub fn note_heard(&self, s: Stream) {
        let l = self.line(s);
        let ms = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        l.heard_ms.store(ms.max(1), Ordering::SeqCst);
        l.heard.fetch_add(1, Ordering::SeqCst);
    }

    pub fn note_answered(&self, s: Stream, answered: bool) {
        self.line(s).answered.store(answered, Ordering::SeqCst);
    }

    /// A watch of `s` ended cleanly, having delivered data or not. An empty one makes the
    /// next watch wait (kube's default backoff: 0.8 s doubling to 30 s, reset after 2 min
    /// without one); one that delivered resets the backoff.
    pub fn note_watch_ended(&self, s: Stream, delivered: bool) {
        let mut e = lock(&self.line(s).empty);
        if delivered {
            e.0.reset();
            e.1 = None;
        } else {
            e.1 = e.0.next();
        }
    }

    /// Objects `who` of stream `s` held a lone surrogate escape, read as U+FFFD: said on
    /// stderr once per object (and at most [`LONE_NOTES`] objects).
    fn note_lone(&self, s: Stream, watch: bool, who: Vec<String>) {
        let mut noted = lock(&self.lone_noted);
        let new: Vec<String> = who
            .into_iter()
            .filter(|w| noted.len() < LONE_NOTES && noted.insert((s, w.clone())))
            .collect();
        if new.is_empty() {
            return;
        }
        let s_ = if new.len() == 1 { "s" } else { "" };
        let note = format!(
            "note: {} {}: {} hold{s_} a string with a lone UTF-16 surrogate escape (not Unicode; the API server reads it as U+FFFD, and so does this tool)",
            s.describe(),
            if watch { "WATCH" } else { "LIST" },
            new.join(", ")
        );
        eprintln!("{}", doctor::report::visible::one_line(&note));
    }

    /// The wait owed before the next watch of `s`, taken.
    fn before_watch(&self, s: Stream) -> Option<Duration> {
        lock(&self.line(s).empty).1.take()
    }
}

/// Longest wait between a stream's attempts while the server does not answer at all
/// (connection refused, reset or cut): how soon a server back from a restart is seen.
/// Attempts that get no answer cost a server nothing; kube's 30 s cap is for servers that
/// answer with errors, and still applies to them.
pub const UNANSWERED_RETRY_CAP: Duration = Duration::from_secs(5);

/// kube's default backoff for a stream's errors (0.8 s doubling to 30 s), at most
/// [`UNANSWERED_RETRY_CAP`] while the server does not answer, and started afresh when it
/// answers again. Without these, a server back from a restart waited out the backoff built
/// up while it was down, and then the next step up: its first answer (410 for a watch from a
/// forgotten version) is an error too, so the re-list came late (docs/monitor.md, "Faults").
pub struct WatchBackoff {
    inner: DefaultBackoff,
    live: Arc<Liveness>,
    stream: Stream,
    /// The failure the previous delay was for got no HTTP answer.
    unanswered: bool,
}

impl WatchBackoff {
    pub fn new(live: Arc<Liveness>, stream: Stream) -> Self {
        WatchBackoff {
            inner: DefaultBackoff::default(),
            live,
            stream,
            unanswered: false,
        }
    }
}

impl Iterator for WatchBackoff {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        let answered = self.live.answered(self.stream);
        if answered && self.unanswered {
            self.inner.reset();
        }
        self.unanswered = !answered;
        let next = self.inner.next();
        if answered {
            next
        } else {
            next.map(|d| d.min(UNANSWERED_RETRY_CAP))
        }
    }
}

impl Backoff for WatchBackoff {
    fn reset(&mut self) {
        self.inner.reset();
    }
}

/// `client` as seen by stream `s`: every request and answer noted in `live`, and a watch
/// after an empty one delayed. Errors and answers pass through unchanged (kube's own client
/// unwraps its errors again on the way out).
pub fn client_for(client: &kube::Client, live: Arc<Liveness>, s: Stream) -> kube::Client {
    let inner = client.clone();
    let svc = tower::service_fn(move |req: http::Request<Body>| {
        let inner = inner.clone();
        let live = live.clone();
        async move {
            let watch = req
                .uri()
                .query()
                .is_some_and(|q| q.split('&').any(|p| p == "watch=true" || p == "watch=1"));
            if watch && let Some(wait) = live.before_watch(s) {
                tokio::time::sleep(wait).await;
            }
            match inner.send(req).await {
                Ok(res) => {
                    live.note_answered(s, true);
                    let ok = res.status().is_success();
                    Ok(res.map(|body| Observed {
                        inner: body,
                        live,
                        stream: s,
                        ok,
                        watch,
                        delivered: false,
                        ended: false,
                        fix: Replacer::default(),
                        inner_done: false,
                    }))
                }
                Err(e) => {
                    live.note_answered(s, false);
                    Err(e)
                }
            }
        }
    });
    kube::Client::new(svc, client.default_namespace())
}

/// An answer's body, noting the data it brings, with lone surrogate escapes replaced.
struct Observed {
    inner: Body,
    live: Arc<Liveness>,
    stream: Stream,
    /// A 2xx answer: an error's body is no sign of a working stream (and is passed on as
    /// it is: kube reads a Status from it).
    ok: bool,
    watch: bool,
    delivered: bool,
    ended: bool,
    fix: Replacer,
    /// The inner body has ended (it is not polled again).
    inner_done: bool,
}

impl Observed {
    /// `out` as rewritten, with the offsets where escapes were replaced: name their objects.
    fn repaired(&self, out: Bytes, lone: &[usize]) -> Bytes {
        if !lone.is_empty() {
            // A few per piece: a piece full of them must not cost a search each.
            let mut who: Vec<String> = lone
                .iter()
                .take(16)
                .map(|&at| holder(&out, at).unwrap_or_else(|| "an object".into()))
                .collect();
            who.dedup();
            self.live.note_lone(self.stream, self.watch, who);
        }
        out
    }
}

impl HttpBody for Observed {
    type Data = Bytes;
    type Error = kube::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, kube::Error>>> {
        let this = &mut *self;
        loop {
            if !this.inner_done {
                match Pin::new(&mut this.inner).poll_frame(cx) {
                    Poll::Ready(Some(Ok(frame))) if this.ok => {
                        let data = match frame.into_data() {
                            Ok(data) => data,
                            Err(other) => return Poll::Ready(Some(Ok(other))),
                        };
                        if data.is_empty() {
                            continue;
                        }
                        this.delivered = true;
                        this.live.note_heard(this.stream);
                        let (out, lone) = this.fix.piece(data);
                        let out = this.repaired(out, &lone);
                        if out.is_empty() {
                            continue; // all of it held back: read on
                        }
                        return Poll::Ready(Some(Ok(Frame::data(out))));
                    }
                    Poll::Ready(None) => this.inner_done = true,
                    other => return other,
                }
            }
            // The end: what was held back first, then the end itself.
            let (out, lone) = this.fix.finish();
            let out = this.repaired(out, &lone);
            if !out.is_empty() {
                return Poll::Ready(Some(Ok(Frame::data(out))));
            }
            // A clean end. A broken one is an error kube's watcher reports, and its
            // backoff applies.
            if this.watch && this.ok && !this.ended {
                this.ended = true;
                this.live.note_watch_ended(this.stream, this.delivered);
            }
            return Poll::Ready(None);
        }
    }

    fn is_end_stream(&self) -> bool {
        !self.fix.holding() && (self.inner_done || self.inner.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        // Replacements keep the length (six bytes for six).
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_over_once_the_stream_hears_again_and_silence_is_measured() {
        let live = Liveness::default();
        let at = live.heard(Stream::Jobs);
        live.note_heard(Stream::Jobs);
        assert!(live.heard(Stream::Jobs) > at);
        assert_eq!(live.heard(Stream::Events), 0, "streams are apart");
        assert!(live.silent_for(Stream::Jobs) < Duration::from_secs(1));
    }

    #[test]
    fn empty_watches_owe_a_growing_wait_that_data_clears() {
        let live = Liveness::default();
        assert_eq!(live.before_watch(Stream::Pods), None);
        live.note_watch_ended(Stream::Pods, false);
        let first = live.before_watch(Stream::Pods).expect("a wait");
        assert_eq!(live.before_watch(Stream::Pods), None, "taken once");
        // 0.8 s with up to 100% jitter; the steps after it are longer.
        assert!(first >= Duration::from_millis(800), "{first:?}");
        live.note_watch_ended(Stream::Pods, false);
        live.note_watch_ended(Stream::Pods, false);
        let third = live.before_watch(Stream::Pods).unwrap();
        assert!(third >= Duration::from_millis(3200), "{third:?}");
        live.note_watch_ended(Stream::Pods, true);
        assert_eq!(live.before_watch(Stream::Pods), None);
        live.note_watch_ended(Stream::Pods, false);
        assert!(live.before_watch(Stream::Pods).unwrap() < Duration::from_millis(3200));
    }

    #[test]
    fn the_backoff_starts_afresh_when_the_server_answers_again() {
        let live = Arc::new(Liveness::default());
        let mut b = WatchBackoff::new(live.clone(), Stream::CronJobs);
        live.note_answered(Stream::CronJobs, false);
        let grown: Vec<Duration> = (0..5).map(|_| b.next().unwrap()).collect();
        assert!(grown[2] >= Duration::from_millis(3_200), "{grown:?}");
        assert_eq!(grown[4], UNANSWERED_RETRY_CAP, "capped while unanswered");
        // Back: its first answer is an error (410), and the wait for it is the first step.
        live.note_answered(Stream::CronJobs, true);
        assert!(b.next().unwrap() < Duration::from_millis(1700));
        // Answering with errors (500 on every watch start) grows it as before.
        let again: Vec<Duration> = (0..4).map(|_| b.next().unwrap()).collect();
        assert!(again[3] >= Duration::from_millis(6_400), "{again:?}");
    }
}
