//! What the user typed cannot work: a flag's value, a name the API server would refuse, flags
//! that contradict each other. Each variant holds what was typed and, where something else
//! said why, that typed cause as its source; the message says what to type instead.

use doctor::names::InvalidName;
use doctor::replay::VersionParseError;

use crate::cli::ranges::FlagError;

use super::cluster::Nowhere;

/// A usage error: exit 2 before (or instead of) any work.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// A namespace or object name the API server would refuse.
    #[error(transparent)]
    InvalidName(#[from] InvalidName),
    /// `--job-name` names a Job the API server would refuse.
    #[error("--job-name: {0}")]
    JobName(#[source] InvalidName),
    /// Said before a write: the error, and that no request left.
    #[error("{0}; nothing was sent")]
    NothingSent(#[source] Box<UsageError>),

    #[error("--request-timeout {value:?}: {source}")]
    RequestTimeout { value: String, source: FlagError },
    #[error("--timeout {value:?}: {source}")]
    WaitTimeout { value: String, source: FlagError },
    #[error("--kube-version {value:?}: {source}")]
    KubeVersion {
        value: String,
        source: VersionParseError,
    },
    #[error("--listen {addr}: {source}")]
    Listen {
        addr: std::net::SocketAddr,
        source: std::io::Error,
    },
    #[error("--controller-time-zone {name:?}: {source}")]
    ControllerZone {
        name: String,
        source: schedule::LocationError,
    },
    #[error(
        "--controller-time-zone Local names no zone from here: give the kube-controller-manager's zone (usually UTC)"
    )]
    ControllerZoneLocal,
    #[error(transparent)]
    Monitor(#[from] BadMonitorService),
    #[error("--slot {0}")]
    Slot(#[source] doctor::report::slot::NotATime),

    /// `flag` was given `value`, a valid RFC 3339 time past `last`, the last one a timestamp
    /// holds.
    #[error(
        "{flag} {value:?} is out of range: this tool computes times up to {last} (a valid RFC 3339 time, but past the last one it can represent)"
    )]
    InstantBeyondRange {
        flag: String,
        value: String,
        last: jiff::Timestamp,
    },
    #[error(
        "{flag} {value:?} is not an RFC 3339 instant (for example 2026-11-20T12:00:00Z): {source}"
    )]
    NotAnInstant {
        flag: String,
        value: String,
        source: jiff::Error,
    },
    /// A `--now` past `latest` (`commands::plan::flags::LATEST_NOW`); `last` is the last time
    /// computed.
    #[error(
        "{flag} {value:?} is out of range: the replay looks up to 20 years ahead and computes times only up to {last}, so {flag} must be at most {latest}"
    )]
    NowBeyondRange {
        flag: String,
        value: String,
        last: jiff::Timestamp,
        latest: jiff::Timestamp,
    },
    #[error(
        "--now dump judges -f input as of its newest timestamp; read from a cluster, \"now\" is the API server's clock (give an RFC 3339 instant to override it)"
    )]
    NowDumpLive,
    #[error(
        "--now dump: the input carries no timestamp (no status, creationTimestamp or events) to date it by; give an RFC 3339 instant"
    )]
    NowDumpUndated,

    #[error("--context was given {0} times: only scan and explain read several contexts")]
    SeveralContexts(usize),
    #[error(
        "--cluster and --user override one context's choice; with several --context flags each context uses its own"
    )]
    FleetClusterUser,
    #[error("-o sarif describes files; read several contexts with -o text or -o json")]
    FleetSarif,
    #[error(
        "--monitor asks a monitor in the cluster for a CronJob's runs; -f reads files: give one or the other"
    )]
    MonitorWithFiles,
    #[error("--slot answers for one run of one CronJob: give one context")]
    SlotFleet,
    #[error(
        "-f reads files and --all-contexts or several --context flags read clusters: give one or the other"
    )]
    FilesFleet,
    #[error("explain needs the NAME of a CronJob to look for in several contexts")]
    FleetNeedsName,
    #[error(
        "explain needs the NAME of a CronJob to read from the cluster (or -f PATH to read files)"
    )]
    LiveNeedsName,
    #[error("--slot answers for one run: -o text or -o json (SARIF reports findings)")]
    SlotSarif,
    #[error("--slot: no CronJob in the input")]
    SlotNoCronJob,
    #[error("--slot answers for one CronJob; the input has {0}: name one (explain NAME -f …)")]
    SlotSeveral(usize),
    /// `--wait` with a dry run (`flag` is the `--dry-run=…` given).
    #[error("--wait follows a Job that {dry_run} does not create: drop one of them")]
    WaitDryRun { dry_run: &'static str },
    #[error("completion {0:?} takes no further arguments")]
    CompletionArgs(Vec<String>),

    /// No CronJob NAME in the input (files): the closest names, or all when few.
    #[error("{}", not_found(name, namespace.as_deref(), names))]
    NotFound {
        name: String,
        namespace: Option<String>,
        names: Vec<String>,
    },
    /// No CronJob NAME in the context's namespace, nor found elsewhere; `context` as shown.
    #[error(
        "{} (context {context})",
        not_found(name, Some(namespace), names).replacen(" in the input", "", 1)
    )]
    NotInNamespace {
        name: String,
        namespace: String,
        names: Vec<String>,
        context: String,
    },
    /// Not in the context's namespace, but in `found` (shown, never empty).
    #[error(
        "no CronJob {name:?} in namespace {namespace} (context {context}); found in {}: kubectl cronjob-doctor explain {name} -n {}",
        found.join(", "),
        found[0]
    )]
    FoundElsewhere {
        name: String,
        namespace: String,
        context: String,
        found: Vec<String>,
    },
    /// Not found in any context read (and every context could be read).
    #[error(transparent)]
    Nowhere(Nowhere),
}

/// A `--monitor` value that names no Service (the parts as text output shows them).
#[derive(Debug, thiserror::Error)]
pub enum BadMonitorService {
    #[error(
        "--monitor {given:?}: expected NAMESPACE/SERVICE[:PORT] (e.g. cronjob-doctor/cronjob-doctor:9090)"
    )]
    Shape { given: String },
    #[error("--monitor: invalid port {port:?}: a number from 1 to 65535")]
    Port { port: String },
    #[error("--monitor: {0}")]
    Name(#[from] doctor::names::InvalidName),
}

/// "no CronJob named X … did you mean Y?" with the closest names by edit distance.
pub fn not_found(name: &str, namespace: Option<&str>, names: &[String]) -> String {
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .map(|n| (strsim::levenshtein(name, n), n))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    let close: Vec<&str> = scored
        .iter()
        .filter(|(d, n)| *d <= (n.len().max(name.len()) / 3).max(2))
        .take(3)
        .map(|(_, n)| n.as_str())
        .collect();
    // Names come from the input: shown, never sent (a name may carry an escape sequence).
    let shown = |s: &str| doctor::report::visible::one_line(s).into_owned();
    let place = namespace
        .map(|ns| format!(" in namespace {}", shown(ns)))
        .unwrap_or_default();
    let mut msg = format!("no CronJob named {name:?}{place} in the input");
    let list = |ns: &[&str]| ns.iter().map(|n| shown(n)).collect::<Vec<_>>().join(", ");
    if !close.is_empty() {
        msg.push_str(&format!("; did you mean {}?", list(&close)));
    } else if !names.is_empty() && names.len() <= 10 {
        let all: Vec<&str> = names.iter().map(String::as_str).collect();
        msg.push_str(&format!(" (found: {})", list(&all)));
    }
    msg
}
