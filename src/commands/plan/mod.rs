//! One plan per invocation. The flags of every command that replays or acts (`explain`,
//! `scan`, `lint` with the project's config; `next`, `monitor`, `trigger`, `suspend`,
//! `unsuspend`) are resolved once at the start of the command into typed choices: where the
//! CronJobs come from (files, one cluster, a fleet), which ones, the instant, the controller's
//! zone, the version, the output, how long to wait.
//! Everything a flag can get wrong is checked here, before anything is read or sent, in the
//! order the errors have always come in (see `resolve`). What only a cluster can say — its
//! clock, its version — is settled once, right after connecting ([`Plan::settle_live`], or
//! [`Version::settle`] and [`Instant::settle`] for the commands that need one of the two).
//!
//! Below the command the stages (read → report → render) take the plan, never the parsed
//! flags: no stage re-derives the instant, the zone, the version or the colour.

mod flags;
mod resolve;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Duration;

use doctor::replay::KubeVersion;
use doctor::report::Options;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::cli::{ActionArgs, KubeArgs, NextFormat, ObjectFormat};
use crate::cluster::monitor_runs::MonitorService;

pub use flags::check_now;
pub use resolve::{explain, lint, monitor, next, scan, suspend, trigger, unsuspend, version};

/// What a command was asked, resolved. `F` is the command's output format.
pub struct Plan<F> {
    pub source: Source,
    pub select: Select,
    pub instant: Instant,
    pub zone: Zone,
    pub version: Version,
    pub output: Output<F>,
    /// Past slots each CronJob's timeline holds (0 where the output never shows one).
    pub timeline: usize,
    /// The project config's settings: the rule severities; for `lint` also its excludes and
    /// skips (`project::resolve` keeps only the severities for the other commands).
    pub settings: doctor::config::Config,
    /// The directory the settings' path globs are relative to; None without a config file.
    pub config_dir: Option<PathBuf>,
}

/// Where the CronJobs are read from.
#[derive(Debug)]
pub enum Source {
    /// `-f PATH…`.
    Files(Files),
    /// One cluster: the kubeconfig's current context, or the one `--context` named.
    Cluster(KubeArgs),
    /// Several contexts read side by side (`--context A --context B`, `--all-contexts`).
    Fleet(Fleet),
}

/// The contexts of a fleet, each read as one cluster within its own deadline.
#[derive(Debug)]
pub struct Fleet {
    /// The connection flags every context shares (`cluster::fleet::for_context`).
    pub kube: KubeArgs,
    pub contexts: Vec<String>,
    pub context_timeout: Duration,
}

/// `-f PATH…` and the limit on reading them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Files {
    pub paths: Vec<String>,
    pub max_input_size: u64,
}

/// Which CronJobs: a name (required from a cluster), a namespace (`-n`), or all (`-A`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Select {
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub all_namespaces: bool,
}

/// The instant to judge at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instant {
    /// No `--now`: a cluster's clock (each cluster's own), or the wall clock for files.
    Clock,
    /// `--now INSTANT`.
    At(Timestamp),
    /// `--now dump` (files only): the input's newest timestamp.
    Dump,
}

impl Instant {
    /// The instant given on the command line, if one was.
    pub fn given(self) -> Option<Timestamp> {
        match self {
            Instant::At(t) => Some(t),
            _ => None,
        }
    }

    /// "Now" of a live command: the instant given, else the server's clock with its note (a
    /// skewed or missing clock).
    pub fn settle(self, server_now: (Timestamp, Option<String>)) -> (Timestamp, Option<String>) {
        match self.given() {
            Some(t) => (t, None),
            None => server_now,
        }
    }
}

/// The Kubernetes version whose controller is replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `--kube-version` (or, for `lint`, the config's `kubeVersion`).
    Given(KubeVersion),
    /// None given: a cluster's own (`GET /version`), the newest for files.
    Default,
}

impl Version {
    pub fn given(self) -> Option<KubeVersion> {
        match self {
            Version::Given(v) => Some(v),
            Version::Default => None,
        }
    }

    /// The version replayed before the server has answered: the one given, else the newest.
    pub fn or_newest(self) -> KubeVersion {
        self.given().unwrap_or(KubeVersion::NEWEST)
    }

    /// The version of a live replay: the one given wins over the server's; the server's
    /// comes with its note (a version it did not say, or one not understood), and one it did
    /// not say is the newest.
    pub fn settle(
        self,
        server_version: (Option<KubeVersion>, Option<String>),
    ) -> (KubeVersion, Option<String>) {
        match self {
            Version::Given(v) => (v, None),
            Version::Default => (
                server_version.0.unwrap_or(KubeVersion::NEWEST),
                server_version.1,
            ),
        }
    }
}

/// `--controller-time-zone`, as typed (reports show it) and loaded.
#[derive(Debug, Clone)]
pub struct Zone {
    pub name: String,
    pub tz: TimeZone,
}

/// How the result is shown: the format, and for text the colour and width, decided once.
#[derive(Debug, Clone, Copy)]
pub struct Output<F> {
    pub format: F,
    /// Colour on stdout (`--color`, NO_COLOR, a terminal).
    pub color: bool,
    /// Colour of the input errors on stderr (the same choice, for stderr).
    pub errors_color: bool,
    /// Columns to wrap text at.
    pub width: usize,
}

/// The instant and version a report is made at, once known: from the flags, else from the
/// input (files) or the server (each cluster).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settled {
    pub now: Timestamp,
    pub version: KubeVersion,
}

/// What `explain` adds to the plan: one slot's question, the monitor to ask.
pub struct ExplainPlan {
    pub plan: Plan<crate::cli::ReportFormat>,
    pub slot: Option<doctor::report::slot::SlotQuery>,
    /// The monitor to ask for remembered runs (one cluster, or each context of a fleet at
    /// the same Service); None: `--no-monitor`, or files.
    pub monitor: Option<MonitorService>,
}

/// What `scan` adds to the plan.
pub struct ScanPlan {
    pub plan: Plan<crate::cli::ScanFormat>,
    pub only_problems: bool,
}

impl<F> Plan<F> {
    /// The report's options at `at`.
    pub fn options(&self, at: Settled) -> Options<'_> {
        Options {
            now: at.now,
            controller_zone_name: &self.zone.name,
            controller_zone: &self.zone.tz,
            version: at.version,
            timeline: self.timeline,
            severities: &self.settings.rules,
        }
    }

    /// The version and "now" of a live replay: a flag wins over the server; what is taken
    /// from the server comes with its notes (an unknown version, a skewed or missing clock),
    /// version first.
    pub fn settle_live(
        &self,
        server_version: (Option<KubeVersion>, Option<String>),
        server_now: (Timestamp, Option<String>),
    ) -> (Settled, Vec<String>) {
        let mut notes = Vec::new();
        let (version, note) = self.version.settle(server_version);
        notes.extend(note);
        notes.extend(version.beyond_modelled_note());
        let (now, note) = self.instant.settle(server_now);
        notes.extend(note);
        (Settled { now, version }, notes)
    }
}

/// `next SCHEDULE`: the schedule as typed, from when, how many, shown how.
pub struct NextPlan {
    pub schedule: String,
    /// `--time-zone`: the schedule's own zone, like spec.timeZone.
    pub time_zone: Option<String>,
    /// `--from`, else the wall clock (`Instant::Clock`).
    pub from: Instant,
    pub count: usize,
    pub zone: Zone,
    pub output: Output<NextFormat>,
}

/// `monitor`: what to watch, how to judge it, where to say it.
pub struct MonitorPlan {
    pub kube: KubeArgs,
    /// The namespace (`-n`, checked after connecting, as for one cluster's `scan`) or all.
    pub select: Select,
    pub zone: Zone,
    /// `--kube-version`, else the server's, taken once it answers ([`Version::settle`]).
    pub version: Version,
    /// `--listen`: the address of the HTTP endpoints, bound after connecting.
    pub listen: Option<std::net::SocketAddr>,
    /// The status lines on stdout: always without `--listen`; with it only when `-o` asks.
    pub lines: crate::monitor::engine::Output,
    pub grace: Duration,
    pub stale_after: Duration,
}

/// The CronJob an action changes or runs, its name checked before any request, and how:
/// the connection, `-n`, `--dry-run`, `--yes` (`Session::connect`, `actions::patch`).
pub struct Action {
    pub name: String,
    pub how: ActionArgs,
}

/// `suspend NAME`.
pub struct SuspendPlan {
    pub action: Action,
    pub by: Option<String>,
    pub reason: Option<String>,
}

/// `unsuspend NAME`: the controller's sync it previews is replayed in `zone` at the server's
/// version (`Version::Default`: there is no flag for it).
pub struct UnsuspendPlan {
    pub action: Action,
    pub zone: Zone,
    pub version: Version,
    pub skip_missed: bool,
}

/// `trigger NAME`.
pub struct TriggerPlan {
    pub action: Action,
    /// `--job-name`, else `<cronjob>-manual-<5 random characters>`, checked.
    pub job_name: String,
    /// The server's clock (no flag sets it), for the preview.
    pub instant: Instant,
    /// The format the Job is printed in (a dry run's, or with `-o` the one created): `-o`,
    /// else YAML.
    pub format: ObjectFormat,
    /// `-o` was given: the Job created is printed, and the preview goes to stderr.
    pub print_created: bool,
    pub wait: Wait,
}

/// Whether `trigger` follows the Job it created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    No,
    /// `--wait`, for at most this long (`--timeout`; None: no limit).
    Follow(Option<Duration>),
}
