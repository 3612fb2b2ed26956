//! One plan per invocation (issue 22, "flags resolved once into one plan"). The flags of
//! `explain`, `scan` and `lint`, with the project's config, are resolved once at the start of
//! the command into typed choices: where the CronJobs come from (files, one cluster, a fleet),
//! which ones, the instant, the controller's zone, the version, the output. Everything a flag
//! can get wrong is checked here, before anything is read, in the order the errors have
//! always come in (see `resolve`). What only a cluster can say — its clock, its version — is
//! settled once, right after connecting ([`Plan::settle_live`]).
//!
//! Below the command the stages (read → report → render) take the plan, never the parsed
//! flags: no stage re-derives the instant, the zone, the version or the colour.

mod resolve;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Duration;

use doctor::replay::KubeVersion;
use doctor::report::Options;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::cli::KubeArgs;
use crate::cluster::monitor_runs::MonitorService;

pub use resolve::{explain, lint, scan, version};

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
        let version = match self.version {
            Version::Given(v) => v,
            Version::Default => {
                notes.extend(server_version.1);
                server_version.0.unwrap_or(KubeVersion::NEWEST)
            }
        };
        notes.extend(version.beyond_modelled_note());
        let now = match self.instant.given() {
            Some(t) => t,
            None => {
                notes.extend(server_now.1);
                server_now.0
            }
        };
        (Settled { now, version }, notes)
    }
}
