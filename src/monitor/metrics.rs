//! `/metrics`: the series of docs/metrics.md in the Prometheus text format, written by
//! prometheus-client. The per-CronJob series are rendered at scrape time from the current
//! summaries (a collector), so a deleted CronJob's series are gone with its summary and no
//! stale value can linger; the monitor's own health is ordinary counters and gauges.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, RwLock};

use doctor::monitor_view::{Summary, health_str};
use doctor::replay::KubeVersion;
use doctor::report::visible::one_line;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::store::Key;

pub type Summaries = Arc<RwLock<BTreeMap<Key, Summary>>>;

/// The `Content-Type` of what [`Metrics::render`] writes.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

pub struct Metrics {
    registry: Registry,
    pub evaluations: Counter,
    pub evaluation_seconds: Histogram,
    pub last_evaluation: Gauge<f64, AtomicU64>,
    pub ready: Gauge,
    pub watch_restarts: Family<[(&'static str, &'static str); 1], Counter>,
}

impl Metrics {
    /// `kube_version`: the release the monitor replays for (the server's or `--kube-version`),
    /// read at each scrape since the server's is learnt after start.
    pub fn new(
        summaries: Summaries,
        version: &str,
        tzdb: &str,
        kube_version: Arc<RwLock<KubeVersion>>,
    ) -> Self {
        let mut registry = Registry::default();
        let evaluations = Counter::default();
        // 100 µs to ~13 s: one CronJob's diagnosis is usually well under a millisecond.
        let evaluation_seconds = Histogram::new(exponential_buckets(0.0001, 4.0, 9));
        let last_evaluation = Gauge::<f64, AtomicU64>::default();
        let ready = Gauge::default();
        let watch_restarts = Family::default();
        registry.register(
            "cronjob_doctor_ready",
            "1 once the initial lists are synced and every watch is healthy, else 0",
            ready.clone(),
        );
        registry.register(
            "cronjob_doctor_watch_restarts",
            "Watch restarts (relists after 410 Gone, reconnects) per resource",
            watch_restarts.clone(),
        );
        registry.register(
            "cronjob_doctor_evaluations",
            "CronJob diagnoses run",
            evaluations.clone(),
        );
        registry.register(
            "cronjob_doctor_evaluation_duration_seconds",
            "Time of one CronJob's diagnosis",
            evaluation_seconds.clone(),
        );
        registry.register(
            "cronjob_doctor_last_evaluation_timestamp_seconds",
            "When the last diagnosis ran",
            last_evaluation.clone(),
        );
        registry.register_collector(Box::new(CronJobSeries {
            summaries,
            version: version.to_string(),
            tzdb: tzdb.to_string(),
            kube_version,
        }));
        Metrics {
            registry,
            evaluations,
            evaluation_seconds,
            last_evaluation,
            ready,
            watch_restarts,
        }
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut out, &self.registry);
        out
    }
}

/// The per-CronJob series and build info, from the summaries at scrape time.
struct CronJobSeries {
    summaries: Summaries,
    version: String,
    tzdb: String,
    kube_version: Arc<RwLock<KubeVersion>>,
}

impl std::fmt::Debug for CronJobSeries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CronJobSeries")
    }
}

/// A label: its name and value. Values from the cluster (namespace, CronJob name) are made
/// visible as in text output (`one_line`: `\a`, `\e`, `\u{2028}`…): the exposition escapes
/// only `\\`, `"` and newline, and a raw control byte or line separator in a label value
/// reaches whatever shows the series.
type Pair<'a> = (&'static str, Cow<'a, str>);

/// The last run's HELP texts, word for word the meaning in docs/metrics.md (a test checks).
pub const LAST_RUN_START_DELAY_HELP: &str = "Seconds from the most recent scheduled run's slot to its first container start (absent while unknown: not started yet, or its Pods are gone).";
pub const LAST_RUN_ATTEMPTS_HELP: &str = "Times the most recent scheduled run's workload started: retried Pods, restarts in place, replaced Pods (0: not started yet; absent while unknown: its Pods are gone).";

pub const NEXT_RUN_AT_RISK_HELP: &str = "1 when the next slot is predicted to produce no run, per reason (suspended, forbid-active, starting-deadline, dst-gap, run-not-started).";

/// Which timestamp of a summary a series shows.
type TimeOf = fn(&Summary) -> Option<jiff::Timestamp>;

/// One gauge family: `rows` are (labels, value).
fn gauge_family<'a, const N: usize>(
    enc: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    rows: impl Iterator<Item = ([Pair<'a>; N], i64)>,
) -> Result<(), std::fmt::Error> {
    let mut rows = rows.peekable();
    if rows.peek().is_none() {
        return Ok(());
    }
    let mut m = enc.encode_descriptor(name, help, None, MetricType::Gauge)?;
    for (labels, v) in rows {
        m.encode_family(&labels)?.encode_gauge(&v)?;
    }
    Ok(())
}

/// The `namespace` and `cronjob` labels of a CronJob.
fn ids(k: &Key) -> [Pair<'_>; 2] {
    [("namespace", one_line(&k.0)), ("cronjob", one_line(&k.1))]
}

impl Collector for CronJobSeries {
    fn encode(&self, mut enc: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let all = self.summaries.read().unwrap_or_else(|e| e.into_inner());
        let id = ids;
        gauge_family(
            &mut enc,
            "cronjob_doctor_cronjob_status",
            "1 for the CronJob's current health (ok, warning or error); cause: the rule slug the headline names, controller or none.",
            all.iter().map(|(k, s)| {
                let [n, c] = id(k);
                (
                    [
                        n,
                        c,
                        ("status", health_str(s.health).into()),
                        ("cause", s.cause.into()),
                    ],
                    1,
                )
            }),
        )?;
        gauge_family(
            &mut enc,
            "cronjob_doctor_finding",
            "1 for every current finding (rule = slug of docs/rules.md).",
            all.iter().flat_map(|(k, s)| {
                let mut seen: Vec<(&str, &str)> = s.findings.clone();
                // A rule may report twice (two fields); the series exists once.
                seen.sort_unstable();
                seen.dedup();
                seen.into_iter().map(move |(rule, sev)| {
                    let [n, c] = id(k);
                    ([n, c, ("rule", rule.into()), ("severity", sev.into())], 1)
                })
            }),
        )?;
        gauge_family(
            &mut enc,
            "cronjob_doctor_missed_runs",
            "Slots due after status.lastScheduleTime, more than --grace ago, with no Job for them; cause: the rule slug that explains them, controller, unknown or none.",
            all.iter().map(|(k, s)| {
                let [n, c] = id(k);
                (
                    [n, c, ("cause", s.missed_cause.into())],
                    i64::try_from(s.missed_runs).unwrap_or(i64::MAX),
                )
            }),
        )?;
        gauge_family(
            &mut enc,
            "cronjob_doctor_next_run_at_risk",
            NEXT_RUN_AT_RISK_HELP,
            all.iter().flat_map(|(k, s)| {
                s.at_risk.iter().map(move |reason| {
                    let [n, c] = id(k);
                    ([n, c, ("reason", (*reason).into())], 1)
                })
            }),
        )?;
        gauge_family(
            &mut enc,
            "cronjob_doctor_last_run_start_delay_seconds",
            LAST_RUN_START_DELAY_HELP,
            all.iter()
                .filter_map(|(k, s)| s.last_run_start_delay.map(|d| (id(k), d))),
        )?;
        gauge_family(
            &mut enc,
            "cronjob_doctor_last_run_attempts",
            LAST_RUN_ATTEMPTS_HELP,
            all.iter()
                .filter_map(|(k, s)| s.last_run_attempts.map(|n| (id(k), i64::from(n)))),
        )?;
        let times: [(&str, &str, TimeOf); 3] = [
            (
                "cronjob_doctor_next_run_timestamp_seconds",
                "The next slot, as the controller computes it.",
                |s| s.next_run,
            ),
            (
                "cronjob_doctor_last_schedule_timestamp_seconds",
                "status.lastScheduleTime.",
                |s| s.last_schedule,
            ),
            (
                "cronjob_doctor_last_success_timestamp_seconds",
                "Completion time of the newest successful Job.",
                |s| s.last_success,
            ),
        ];
        for (name, help, get) in times {
            gauge_family(
                &mut enc,
                name,
                help,
                all.iter()
                    .filter_map(|(k, s)| get(s).map(|t| (id(k), t.as_second()))),
            )?;
        }
        let kube = *self.kube_version.read().unwrap_or_else(|e| e.into_inner());
        gauge_family(
            &mut enc,
            "cronjob_doctor_build_info",
            "1; the version, the bundled tz database, the Kubernetes release diagnosed and the one whose controller rules are replayed (they differ when the cluster is newer than the newest modelled release).",
            std::iter::once((
                [
                    ("version", self.version.as_str().into()),
                    ("tzdb", self.tzdb.as_str().into()),
                    ("kube_version", kube.to_string().into()),
                    ("rules", kube.rules().to_string().into()),
                ],
                1,
            )),
        )
    }
}

#[cfg(test)]
#[path = "metrics_tests.rs"]
mod tests;
