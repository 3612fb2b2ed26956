//! `monitor`: the same diagnosis as `scan`, kept current. kube's watchers (`cluster::watch`)
//! feed a [`store::Store`]; every change re-diagnoses only the CronJobs it touches, and a
//! timer per CronJob (its next slot's due time plus `--grace`) catches the run that never
//! happens, which no cluster event announces. The results are served as Prometheus metrics,
//! the `scan -o json` document (`/report`), readiness, or status lines on stdout.

pub mod engine;
pub mod evaluate;
pub mod lines;
pub mod listen;
pub mod metrics;
pub mod packed;
pub mod server;
pub mod store;
pub mod timers;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use doctor::replay::KubeVersion;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::cluster::http::ClockSample;
use metrics::{Metrics, Summaries};
use store::Store;

/// How every CronJob is judged.
pub struct Settings {
    pub controller_zone_name: String,
    pub controller_zone: TimeZone,
    /// `--kube-version`, else the server's (set once `/version` answered).
    pub version: RwLock<KubeVersion>,
    pub grace_secs: i64,
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
    pub ready: AtomicBool,
    /// Why the monitor is not ready, for `/readyz`'s body.
    pub not_ready: Mutex<Vec<String>>,
    /// Reduced-evidence notes (a 403 on Pods or Events), as `scan` gives them.
    pub notes: Mutex<Vec<String>>,
    /// At most [`server::MAX_REPORTS`] `/report`s are built and sent at a time: each takes
    /// seconds of CPU at scale, so concurrent callers (a loop, a mis-set probe) would
    /// otherwise multiply it. The others wait their turn in the queue of these permits, for
    /// at most [`server::REPORT_WAIT`].
    pub report_gate: tokio::sync::Semaphore,
}

impl Shared {
    pub fn new(settings: Settings) -> Arc<Shared> {
        let summaries: Summaries = Arc::new(RwLock::new(BTreeMap::new()));
        let metrics = Metrics::new(
            summaries.clone(),
            crate::version::SHORT,
            doctor::tzdb_version(),
        );
        Arc::new(Shared {
            settings,
            clock: ServerClock::default(),
            store: Mutex::new(Store::new()),
            summaries,
            metrics,
            ready: AtomicBool::new(false),
            not_ready: Mutex::new(vec!["the initial lists are not synced yet".into()]),
            notes: Mutex::new(Vec::new()),
            report_gate: tokio::sync::Semaphore::new(server::MAX_REPORTS),
        })
    }

    pub fn version(&self) -> KubeVersion {
        *self
            .settings
            .version
            .read()
            .unwrap_or_else(|e| e.into_inner())
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
