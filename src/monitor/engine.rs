//! The monitor's loop: apply the watchers' updates to the store, re-diagnose the CronJobs
//! they touch, and wake on the earliest CronJob timer. Nothing runs on a fixed period: an
//! idle cluster costs one wake-up per CronJob slot.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};

use super::store::Key;
use super::timers::Timers;
use super::{Shared, lines, lock};
use crate::cli::MonitorFormat;
use crate::cluster::evidence_note;
use crate::cluster::watch::{Change, Stream, Update};
use doctor::monitor_view::{Summary, evaluate_observed};
use doctor::retained;
use doctor::retained::packed::PackedRun;

/// Batches at least this big are diagnosed on every core.
const PARALLEL_FROM: usize = 64;

/// Where status lines go (no `--listen`), and in which format.
#[derive(Clone, Copy)]
pub enum Output {
    Silent,
    Lines(MonitorFormat),
}

/// Per-stream state: synced once, failing now, or read without permission.
#[derive(Default)]
struct Watches {
    synced: HashSet<Stream>,
    /// Streams between a relist's start and its end: the store holds old and new objects
    /// side by side, so change-driven diagnoses wait for the end (one batch, not one per page).
    relisting: HashSet<Stream>,
    /// Failing streams: what failed, and how often the stream had heard from the server
    /// then (see [`Change::Failed`]).
    failing: HashMap<Stream, (String, u64)>,
    /// Streams answered with 403: their evidence is left out, with a note.
    forbidden: HashMap<Stream, String>,
}

impl Watches {
    fn all_synced(&self) -> bool {
        Stream::ALL.iter().all(|s| self.synced.contains(s))
    }

    /// Why `/readyz` says no as far as the lists go (empty: all listed). Failing and quiet
    /// watches are [`Shared::readiness`]'s: whether they are over is known at the HTTP layer,
    /// not from the updates that reach the engine.
    fn not_ready(&self) -> Vec<String> {
        let mut why: Vec<String> = Stream::ALL
            .iter()
            .filter(|s| !self.synced.contains(s))
            .map(|s| format!("{} not listed yet", s.resource()))
            .collect();
        why.dedup();
        why
    }

    /// The failing streams, in stream order.
    fn failing(&self) -> Vec<(Stream, String, u64)> {
        let mut out: Vec<_> = self
            .failing
            .iter()
            .map(|(s, (m, at))| (*s, m.clone(), *at))
            .collect();
        out.sort();
        out
    }

    /// The streams that should be hearing from the server: listed and readable.
    fn watched(&self) -> Vec<Stream> {
        Stream::ALL
            .into_iter()
            .filter(|s| self.synced.contains(s) && !self.forbidden.contains_key(s))
            .collect()
    }
}

/// [`run`] on a thread of its own, with a runtime of its own; the returned future ends when
/// the engine does. Everything the monitor keeps for days (the store's objects, summaries,
/// remembered runs) is allocated by the engine, and one thread means one allocator heap: on
/// tokio's workers, with `block_in_place` moving the engine to a new blocking thread for each
/// diagnosis, the long-lived objects were spread over the heaps of threads that came and went,
/// and under churn (Jobs made and deleted continuously) mimalloc kept growing the pages they
/// pinned, where glibc's allocator stayed flat (BENCHMARKS.md, "monitor at scale"). A
/// diagnosis also no longer takes a tokio worker from the endpoints.
pub async fn run_on_own_thread(
    shared: Arc<Shared>,
    rx: mpsc::Receiver<Update>,
    output: Output,
    shutdown: watch::Receiver<bool>,
) {
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<Option<String>>();
    let own = shared.clone();
    let spawned = std::thread::Builder::new()
        .name("engine".into())
        .spawn(move || {
            let failed = match tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
            {
                Ok(rt) => {
                    rt.block_on(run(own, rx, output, shutdown));
                    None
                }
                Err(e) => Some(format!("its runtime could not start: {e}")),
            };
            let _ = done_tx.send(failed);
        });
    let failed = match spawned {
        // The sender dropped unsent: the engine panicked.
        Ok(_) => done_rx
            .await
            .unwrap_or_else(|_| Some("it stopped on an internal error".into())),
        Err(e) => Some(format!("its thread could not start: {e}")),
    };
    // Never ready then, and says why (`/readyz`, `cronjob_doctor_ready`), as for any fault.
    if let Some(why) = failed {
        *lock(&shared.not_ready) = vec![format!("the engine is not running: {why}")];
        let _ = shared.ready();
    }
}

pub async fn run(
    shared: Arc<Shared>,
    mut rx: mpsc::Receiver<Update>,
    output: Output,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut w = Watches::default();
    let mut timers = Timers::default();
    let mut touched: BTreeSet<Key> = BTreeSet::new();
    let mut everything = false;
    let mut started = false;
    let mut purging = false;
    loop {
        let wake = timers.next().map(|t| {
            let ms = t.as_millisecond() - shared.clock.now().as_millisecond();
            // Half a second late at most (the clock is whole seconds): never early.
            tokio::time::Instant::now() + Duration::from_millis(ms.max(0) as u64 + 500)
        });
        tokio::select! {
            biased;
            _ = shutdown.changed() => return,
            u = rx.recv() => {
                let Some(u) = u else { return };
                // Before the first diagnosis every CronJob is diagnosed anyway: which ones a
                // change touches need not be worked out.
                let track = started;
                everything |= handle(&shared, &mut w, &mut touched, track, u);
                // Take everything already waiting: one batch of diagnoses per burst.
                while let Ok(u) = rx.try_recv() {
                    everything |= handle(&shared, &mut w, &mut touched, track, u);
                }
            }
            _ = sleep_until(wake) => {}
        }
        {
            let mut notes: Vec<(Stream, String)> =
                w.forbidden.iter().map(|(s, n)| (*s, n.clone())).collect();
            notes.sort();
            notes.dedup_by(|a, b| a.1 == b.1);
            *lock(&shared.notes) = notes.into_iter().map(|(_, n)| n).collect();
        }
        if w.all_synced() {
            if !started || everything {
                everything = false;
                touched.extend(lock(&shared.store).cron_job_keys().cloned());
            }
            let now = shared.clock.now();
            let mut batch: BTreeSet<Key> = timers.pop_due(now).into_iter().collect();
            if w.relisting.is_empty() {
                batch.append(&mut touched);
                started = true;
            }
            if !batch.is_empty() {
                // On the engine's own thread (`run_on_own_thread`): blocking it blocks nothing else.
                diagnose(&shared, &mut timers, batch, output);
            }
        }
        // Ready once every CronJob has been diagnosed at least once: a scrape never sees
        // half of the first evaluation.
        if started && !purging {
            // After the first sync, not before: purging each freed page at once made the
            // first sync, which frees as much as it keeps, slower (`allocator::purge_at_once`).
            crate::allocator::purge_at_once();
            crate::allocator::collect();
            // A permit is kept if nobody waits yet.
            shared.first_sync.notify_one();
            purging = true;
        }
        let mut why = w.not_ready();
        if why.is_empty() && !started {
            why.push("the first diagnosis is not done yet".into());
        }
        *lock(&shared.not_ready) = why;
        *lock(&shared.failing) = w.failing();
        *lock(&shared.watched) = w.watched();
        let _ = shared.ready();
    }
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Apply one update; true when every CronJob must be diagnosed again (evidence changed).
fn handle(
    shared: &Shared,
    w: &mut Watches,
    touched: &mut BTreeSet<Key>,
    track: bool,
    u: Update,
) -> bool {
    let mut store = lock(&shared.store);
    let s = u.stream;
    if !matches!(u.change, Change::Failed { .. }) {
        w.failing.remove(&s);
    }
    match u.change {
        Change::Relist => {
            store.relist(s);
            w.relisting.insert(s);
        }
        Change::Listed(o) | Change::Applied(o) if !track => store.insert(s, o),
        Change::Listed(o) | Change::Applied(o) => touched.extend(store.upsert(s, o)),
        Change::Deleted(o) => touched.extend(store.remove(s, &o)),
        Change::Synced => {
            touched.extend(store.relisted(s));
            w.synced.insert(s);
            w.relisting.remove(&s);
            if w.forbidden.remove(&s).is_some() {
                set_evidence(&mut store, w);
                return true;
            }
        }
        Change::Failed {
            code,
            message,
            heard,
        } => {
            shared
                .metrics
                .watch_restarts
                .get_or_create(&[("resource", s.resource())])
                .inc();
            // No permission on evidence (Jobs, Pods, Events): diagnose without it, with the
            // note `scan` gives, and keep retrying in case the grant comes.
            if code == Some(403) && s != Stream::CronJobs {
                let first = !w.forbidden.contains_key(&s);
                w.forbidden
                    .insert(s, evidence_note(s.resource(), "watch forbidden"));
                w.synced.insert(s);
                // Its relist cannot end: nothing waits for it.
                w.relisting.remove(&s);
                if first {
                    eprintln!(
                        "warning: {}",
                        doctor::report::visible::one_line(&w.forbidden[&s])
                    );
                    set_evidence(&mut store, w);
                    return true;
                }
                return false;
            }
            // A new failure, or one after the stream heard from the server again, is said;
            // the retries of the same one are not.
            let again = w.failing.get(&s).is_none_or(|(_, at)| heard > *at);
            w.failing.insert(s, (message.clone(), heard));
            if again {
                eprintln!(
                    "warning: watch of {} failed, retrying with backoff: {}",
                    s.describe(),
                    doctor::report::visible::one_line(&message)
                );
            }
        }
    }
    false
}

fn set_evidence(store: &mut super::store::Store, w: &Watches) {
    store.evidence.jobs = !w.forbidden.contains_key(&Stream::Jobs);
    store.evidence.pods = !w.forbidden.contains_key(&Stream::Pods)
        && !w.forbidden.contains_key(&Stream::PodsNewLabel);
    store.evidence.events = !w.forbidden.contains_key(&Stream::Events);
}

/// Diagnose `keys` at the server's "now", update summaries, timers and metrics, print lines.
fn diagnose(shared: &Shared, timers: &mut Timers, keys: BTreeSet<Key>, output: Output) {
    let now = shared.clock.now();
    // Timeline 0, not read: `evaluate` builds the few slots the last run's series need.
    let opts = shared.options(now, 0);
    let store = lock(&shared.store);
    let store = &*store;
    let keys: Vec<Key> = keys.into_iter().collect();
    // One CronJob: None when it is gone; its summary and the runs seen now with how many
    // to keep at least (None: no report), and the time taken.
    // The runs come packed from each worker: at the first sync all 10,000 CronJobs' records
    // wait here at once, and unpacked they made the monitor's peak (and so, with an allocator
    // that keeps what it had, its steady) memory tens of MiB higher.
    type Seen = (Summary, Vec<PackedRun>, usize);
    let one = |k: &Key| -> Option<(Option<Seen>, Duration)> {
        let snap = store.subset(k)?;
        let t0 = Instant::now();
        let floor = retained::floor(&snap.cron_jobs[0]);
        let s = evaluate_observed(&snap, &opts, shared.settings.grace_secs)
            .map(|(s, r)| (s, retained::packed::pack_all(r), floor));
        Some((s, t0.elapsed()))
    };
    // A big batch (the first sync, a change of evidence) on every core, as `scan` does.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let results: Vec<Option<(Option<Seen>, Duration)>> =
        if keys.len() >= PARALLEL_FROM && threads > 1 {
            let per = keys.len().div_ceil(threads);
            std::thread::scope(|sc| {
                let parts: Vec<_> = keys
                    .chunks(per)
                    .map(|c| sc.spawn(move || c.iter().map(one).collect::<Vec<_>>()))
                    .collect();
                parts
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_default())
                    .collect()
            })
        } else {
            keys.iter().map(one).collect()
        };
    let mut out = String::new();
    let m = &shared.metrics;
    for (k, result) in keys.into_iter().zip(results) {
        let Some((summary, took)) = result else {
            timers.set(&k, None);
            lock(&shared.runs).remove(&k);
            let old = shared
                .summaries
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&k);
            if old.is_some() {
                line(&mut out, output, now, &k, None);
            }
            continue;
        };
        m.evaluations.inc();
        m.evaluation_seconds.observe(took.as_secs_f64());
        let Some((summary, seen, floor)) = summary else {
            continue;
        };
        {
            // Kept packed (most runs are uneventful: see `retained::packed`), merged unpacked.
            let mut all = lock(&shared.runs);
            let kept = all.entry(k.clone()).or_default();
            let mut runs = retained::packed::unpack_all(kept);
            retained::remember(&mut runs, retained::packed::unpack_all(&seen), now, floor);
            *kept = retained::packed::pack_all(runs);
        }
        timers.set(&k, summary.recheck_at);
        let mut all = shared.summaries.write().unwrap_or_else(|e| e.into_inner());
        if lines::changed(all.get(&k), &summary) {
            line(&mut out, output, now, &k, Some(&summary));
        }
        all.insert(k, summary);
    }
    m.last_evaluation
        .set(jiff::Timestamp::now().as_millisecond() as f64 / 1000.0);
    if !out.is_empty() {
        // Printed on a thread of its own, whole lines only: a stdout nobody reads holds up
        // neither the engine nor SIGTERM (lines::print).
        lines::print(out);
    }
}

fn line(out: &mut String, output: Output, now: jiff::Timestamp, k: &Key, s: Option<&Summary>) {
    match output {
        Output::Silent => {}
        Output::Lines(MonitorFormat::Text) => out.push_str(&lines::text(now, k, s)),
        Output::Lines(MonitorFormat::Json) => out.push_str(&lines::json(now, k, s)),
    }
    if !matches!(output, Output::Silent) {
        out.push('\n');
    }
}
