//! `monitor`: the same diagnosis as `scan`, kept current. kube's watchers (`cluster::watch`)
//! feed a [`store::Store`]; every change re-diagnoses only the CronJobs it touches, and a
//! timer per CronJob (its next slot's due time plus `--grace`) catches the run that never
//! happens, which no cluster event announces. The results are served as Prometheus metrics,
//! the `scan -o json` document (`/report`), readiness, or status lines on stdout.

pub mod engine;
pub mod lines;
pub mod listen;
pub mod metrics;
pub mod packed;
pub mod server;
pub mod store;
pub mod timers;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use doctor::replay::KubeVersion;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::cluster::http::{ClockSample, humantime};
use crate::cluster::liveness::Liveness;
use crate::cluster::watch::Stream;
use doctor::retained::RetainedRun;
use doctor::retained::packed::PackedRun;
use metrics::{Metrics, Summaries};
use store::{Key, Store};

/// How every CronJob is judged.
pub struct Settings {
    pub controller_zone_name: String,
    pub controller_zone: TimeZone,
    /// `--kube-version`, else the server's (set once `/version` answered). Shared with the
    /// build-info metric, which shows it next to the release whose rules are replayed.
    pub version: Arc<RwLock<KubeVersion>>,
    pub grace_secs: i64,
    /// `--stale-after`: a watch that has heard nothing from the API server (no event, no
    /// bookmark, no list) for longer makes the monitor not ready.
    pub stale_after: std::time::Duration,
}

/// "Now" on the API server's clock: our clock plus the offset seen in its last `Date` header.
#[derive(Default)]
pub struct ServerClock {
    offset_ms: AtomicI64,
}

impl ServerClock {
    pub fn observe(&self, s: ClockSample) {
        let off = s.server.as_millisecond() - s.local.as_millisecond();
        self.offset_ms.store(off, Ordering::Relaxed);
    }

    /// The server's "now", in whole seconds like its `Date` header.
    pub fn now(&self) -> Timestamp {
        Self::at(Timestamp::now(), self.offset_ms.load(Ordering::Relaxed))
    }

    fn at(local: Timestamp, offset_ms: i64) -> Timestamp {
        let ms = local.as_millisecond().saturating_add(offset_ms);
        Timestamp::from_second(ms.div_euclid(1000)).unwrap_or(local)
    }
}

/// What the engine, the HTTP handlers and the command share.
pub struct Shared {
    pub settings: Settings,
    pub clock: ServerClock,
    pub store: Mutex<Store>,
    pub summaries: Summaries,
    pub metrics: Metrics,
    /// What each watch stream hears from the API server (fed under kube's watchers).
    pub liveness: Arc<Liveness>,
    /// Why the monitor is not ready as the engine sees it (lists not synced, the first
    /// diagnosis not done, the server not reached); [`Shared::readiness`] adds the watches.
    pub not_ready: Mutex<Vec<String>>,
    /// Failing watches: the stream, what failed, and how often it had heard from the server
    /// then ([`Liveness::heard`]); a failure is over once its stream hears again.
    pub failing: Mutex<Vec<(Stream, String, u64)>>,
    /// The streams expected to hear from the server: synced and readable (not 403).
    pub watched: Mutex<Vec<Stream>>,
    /// Reduced-evidence notes (a 403 on Pods or Events), as `scan` gives them.
    pub notes: Mutex<Vec<String>>,
    /// At most [`server::MAX_REPORTS`] `/report`s are built and sent at a time: each takes
    /// seconds of CPU at scale, so concurrent callers (a loop, a mis-set probe) would
    /// otherwise multiply it. The others wait their turn in the queue of these permits, for
    /// at most [`server::REPORT_WAIT`].
    pub report_gate: tokio::sync::Semaphore,
    /// Each CronJob's remembered runs (`doctor::retained`), newest first: kept after their
    /// Jobs, Pods and Events are gone, dropped with the CronJob. Bounded per CronJob
    /// (docs/monitor.md, "Runs remembered").
    pub runs: Mutex<HashMap<Key, Vec<PackedRun>>>,
    /// Told once, when the first diagnosis of every CronJob is done (the engine's thread to
    /// the tokio side: `commands::monitor` then has each worker return its free pages).
    pub first_sync: tokio::sync::Notify,
}

impl Shared {
    pub fn new(settings: Settings) -> Arc<Shared> {
        let summaries: Summaries = Arc::new(RwLock::new(BTreeMap::new()));
        let metrics = Metrics::new(
            summaries.clone(),
            crate::version::SHORT,
            doctor::tzdb_version(),
            settings.version.clone(),
        );
        Arc::new(Shared {
            settings,
            clock: ServerClock::default(),
            store: Mutex::new(Store::new()),
            summaries,
            metrics,
            liveness: Arc::new(Liveness::default()),
            not_ready: Mutex::new(vec!["the initial lists are not synced yet".into()]),
            failing: Mutex::new(Vec::new()),
            watched: Mutex::new(Vec::new()),
            notes: Mutex::new(Vec::new()),
            report_gate: tokio::sync::Semaphore::new(server::MAX_REPORTS),
            runs: Mutex::new(HashMap::new()),
            first_sync: tokio::sync::Notify::new(),
        })
    }

    /// Why the monitor is not ready now (empty: ready): what the engine says, the watches
    /// that failed and have not heard from the server since, and the watches that have heard
    /// nothing for longer than `--stale-after`. Worked out on each call, so the answer moves
    /// with time even when no update wakes the engine (a frozen server sends none).
    pub fn readiness(&self) -> Vec<String> {
        let mut why = lock(&self.not_ready).clone();
        let live = &self.liveness;
        for (s, message, at) in lock(&self.failing).iter() {
            if live.heard(*s) <= *at {
                why.push(format!("watch of {} failing: {message}", s.describe()));
            }
        }
        let bound = self.settings.stale_after;
        for s in lock(&self.watched).iter() {
            let quiet = live.silent_for(*s);
            if quiet > bound {
                why.push(format!(
                    "nothing heard from the API server on the watch of {} for {} (--stale-after {})",
                    s.describe(),
                    humantime(quiet),
                    humantime(bound)
                ));
            }
        }
        why.dedup();
        why
    }

    /// [`Shared::readiness`], also set as `cronjob_doctor_ready`.
    pub fn ready(&self) -> Result<(), Vec<String>> {
        let why = self.readiness();
        self.metrics.ready.set(i64::from(why.is_empty()));
        if why.is_empty() { Ok(()) } else { Err(why) }
    }

    /// The remembered runs of CronJob `k`, newest first (empty: none, or no such CronJob).
    pub fn runs_of(&self, k: &Key) -> Vec<RetainedRun> {
        lock(&self.runs)
            .get(k)
            .map(|p| doctor::retained::packed::unpack_all(p))
            .unwrap_or_default()
    }

    pub fn version(&self) -> KubeVersion {
        *self
            .settings
            .version
            .read()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The core's options at `now`: the controller's zone, the server's version as last
    /// read, `timeline` past slots a CronJob, no severity overrides.
    pub fn options(&self, now: Timestamp, timeline: usize) -> doctor::report::Options<'_> {
        let st = &self.settings;
        doctor::report::Options {
            now,
            controller_zone_name: &st.controller_zone_name,
            controller_zone: &st.controller_zone,
            version: self.version(),
            timeline,
            severities: doctor::config::NO_OVERRIDES,
        }
    }
}

/// Lock a mutex, whatever a panicking holder left behind (the data is still consistent for
/// our readers: every writer completes its update before it can panic).
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_now_is_local_plus_offset_in_whole_seconds() {
        let local: Timestamp = "2026-01-01T00:00:00.900Z".parse().unwrap();
        assert_eq!(
            ServerClock::at(local, 3_600_000).to_string(),
            "2026-01-01T01:00:00Z"
        );
        assert_eq!(
            ServerClock::at(local, -1_000).to_string(),
            "2025-12-31T23:59:59Z"
        );
    }
}
