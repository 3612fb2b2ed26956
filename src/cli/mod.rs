//! Command-line definitions. The doc comments are the help text users see, so they are
//! written for someone whose CronJob did not run five minutes ago.
//!
//! This module holds every clap type and imports nothing of ours but the version strings
//! (`crate::version`, a leaf): whatever a flag means is decided by the commands that read it
//! (`tests/architecture.rs` keeps it so).

pub mod actions;
pub mod completion;
pub mod ranges;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use actions::{ActionArgs, DryRun, ObjectFormat, SuspendArgs, TriggerArgs, UnsuspendArgs};
pub use completion::CompletionArgs;

/// Why didn't my CronJob run? Replays the Kubernetes CronJob controller's own schedule math
/// and tells you, with the fix to paste.
#[derive(Debug, Parser)]
#[command(
    name = "kubectl-cronjob_doctor",
    bin_name = "kubectl cronjob-doctor",
    version = crate::version::SHORT,
    long_version = crate::version::LONG,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Diagnose CronJobs: the headline, findings, controller replay, timeline and fix.
    ///
    /// Live: `explain NAME [-n NS]` reads the CronJob, its Jobs, their Pods and the Events
    /// about them from the cluster, and replays the controller at the API server's clock.
    /// Offline: `explain -f cronjob.yaml` (or a `kubectl get cronjob,job,pod,event -o yaml`
    /// dump; Jobs, Pods and Events in the input are used as evidence).
    Explain(ExplainArgs),
    /// Lint CronJob manifests for CI. Exit 0: nothing at or above --fail-on; 1: something is;
    /// 2: input could not be read.
    Lint(LintArgs),
    /// Show when a schedule really fires, with Kubernetes semantics (robfig/cron v3.0.1).
    Next(NextArgs),
    /// Print the catalogue of findings (rules) this tool can report.
    Rules(RulesArgs),
    /// Diagnose every CronJob of a namespace (or all, -A) in one table, worst first.
    ///
    /// Exit 0: nothing at error level; 1: some CronJob has an error-level finding; 2: the
    /// cluster could not be read.
    Scan(ScanArgs),
    /// Run a CronJob now: create a Job from its template, like `kubectl create job
    /// --from=cronjob/NAME`, after a preview of what that Job is to the controller.
    ///
    /// Shows first: the concurrency policy and the running Jobs (a manual Job is invisible to
    /// the controller: Forbid does not stop it and it does not block the schedule; Replace
    /// does not delete it), that history limits never prune it, and whether you may create
    /// Jobs (SelfSubjectAccessReview). Then a server-side dry run, confirmation (or --yes),
    /// and the create, with fieldManager kubectl-cronjob-doctor. Exit 0: done (with --wait:
    /// the Job completed); 1: --wait saw it fail or time out; 2: not done (denied, declined,
    /// no terminal without --yes, API error).
    Trigger(TriggerArgs),
    /// Suspend a CronJob (spec.suspend: true), recording who, when and why.
    ///
    /// Sends one JSON merge patch (spec.suspend and the cronjob-doctor.io/suspended-by, -at,
    /// -reason annotations) with the resourceVersion it read as a precondition, after a
    /// server-side dry run and confirmation. On a 409 Conflict it reads the CronJob again,
    /// shows what changed and asks again. Exit 0: done or already suspended; 2: not done.
    Suspend(SuspendArgs),
    /// Resume a CronJob, after a replay of what the controller does next.
    ///
    /// Before asking it shows: whether ONE catch-up run starts at once and for which slot
    /// (older missed slots never run; startingDeadlineSeconds may prevent it; the controller's
    /// estimate may skip it on uneven schedules), TooManyMissedTimes, and the next regular
    /// run. --skip-missed resumes without the catch-up run. Sends only merge patches with a
    /// resourceVersion precondition, re-reading on 409. Exit 0: done or not suspended; 2: not
    /// done.
    Unsuspend(UnsuspendArgs),
    /// Print the version, git commit and time-zone database in use.
    Version,
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish), or the helper
    /// that makes `kubectl cronjob-doctor <TAB>` complete through kubectl.
    Completion(CompletionArgs),
    /// Print the manual page (roff): `kubectl cronjob-doctor man | man -l -`.
    Man,
    /// Watch every CronJob and say the moment one stops running: continuous `scan`.
    ///
    /// Keeps CronJobs, Jobs, Pods and Events in memory through watches, re-diagnoses a
    /// CronJob when one of its objects changes and at each slot's due time plus --grace (a
    /// run that never happens produces no event). With --listen: /metrics (Prometheus, see
    /// docs/metrics.md), /healthz, /readyz and /report (the `scan -o json` document).
    /// Without: one line per change of a CronJob's status on stdout. Runs until SIGINT or
    /// SIGTERM (exit 0); an unreachable API server is retried, never fatal.
    Monitor(MonitorArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Options shared by everything that replays the controller.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Evaluate at this instant instead of now: RFC 3339 (e.g. 2026-11-20T12:00:00Z), or
    /// `dump` to judge -f input as of its newest timestamp (when the dump was taken).
    /// Default: from a cluster, the API server's clock; from files, the wall clock (a note
    /// says when the input's newest timestamp is over an hour older: an old dump wants `dump`).
    #[arg(long, value_name = "RFC3339|dump")]
    pub now: Option<String>,
    /// The controller's local time zone, used for schedules without spec.timeZone
    /// (kube-controller-manager's TZ; containerised control planes use UTC).
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    pub controller_time_zone: String,
    /// Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest.
    #[arg(long, value_name = "VERSION", value_parser = ranges::kube_version)]
    pub kube_version: Option<String>,
    /// When to use colour in text output. NO_COLOR is respected with `auto`.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The CronJob to explain. Required without -f (read from the cluster); with -f, only
    /// this one (default: every CronJob in the input).
    pub name: Option<String>,
    /// Read manifests from a file, a directory (recursively, *.yaml|*.yml|*.json) or `-` (stdin)
    /// instead of the cluster.
    #[arg(short = 'f', long = "file", value_name = "PATH")]
    pub files: Vec<String>,
    /// Namespace of the CronJob (default: the context's, else `default`). With -f: only
    /// CronJobs in this namespace (objects without a namespace count as `default`).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
    /// How many past slots the timeline shows: 0 (no timeline) to 1000.
    #[arg(long, default_value_t = 8, value_name = "N", value_parser = ranges::timeline(), allow_negative_numbers = true)]
    pub timeline: usize,
    /// Answer for one run only: what happened to the run of this slot (never due and why,
    /// late and which stage, several attempts, failed, running, not started). An instant
    /// (2026-11-20T11:00:00Z; without an offset, UTC) or a time of day (11:00: its most
    /// recent occurrence in the schedule's zone). Exit code 1 when that run did not run well.
    #[arg(long, value_name = "TIME")]
    pub slot: Option<String>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// The config file's rule severities apply (files and cluster alike).
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub kube: KubeArgs,
    #[command(flatten)]
    pub fleet: FleetArgs,
    #[command(flatten)]
    pub monitor: AskMonitorArgs,
}

/// Where `explain NAME` asks a monitor for the runs it remembers.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Monitor")]
pub struct AskMonitorArgs {
    /// The monitor to ask for the CronJob's remembered runs (runs whose Job, Pods and Events
    /// are gone), through the API server's service proxy: NAMESPACE/SERVICE[:PORT]. Default:
    /// the Service of deploy/monitor/, cronjob-doctor/cronjob-doctor:9090. Needs get on
    /// services/proxy; waits at most 2s; without an answer, a one-line note.
    #[arg(long, value_name = "NS/SERVICE[:PORT]", conflicts_with = "no_monitor")]
    pub monitor: Option<String>,
    /// Do not ask a monitor: the timeline shows only what the cluster still holds.
    #[arg(long)]
    pub no_monitor: bool,
}

/// Limits on reading files (`-f`).
#[derive(Debug, Args)]
pub struct InputArgs {
    /// The largest file (or stdin) read with -f: bytes, or with Ki/Mi/Gi (or K/M/G), from 1Ki
    /// to 64Gi. A larger input is an error instead of an out-of-memory kill.
    #[arg(long, value_name = "SIZE", default_value = "256Mi", value_parser = ranges::parse_size)]
    pub max_input_size: u64,
}

/// The project's settings file (`.cronjob-doctor.yaml`, see docs/config.md).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Project config")]
pub struct ConfigArgs {
    /// The config file. Default: `.cronjob-doctor.yaml` in the current directory or the
    /// nearest parent that has one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<String>,
    /// Ignore any config file.
    #[arg(long)]
    pub no_config: bool,
    /// The settings read (set by the shell after parsing; empty without a file).
    #[arg(skip)]
    pub settings: doctor::config::Config,
    /// The file they were read from.
    #[arg(skip)]
    pub file: Option<std::path::PathBuf>,
}

/// How to reach the cluster: kubectl's flags, with kubectl's defaults.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Cluster")]
pub struct KubeArgs {
    /// Path to the kubeconfig file. Default: $KUBECONFIG (several files are merged), else
    /// ~/.kube/config, else the in-cluster service account.
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<std::path::PathBuf>,
    /// The kubeconfig context to use (default: current-context). `scan` and `explain` take
    /// it more than once to read several clusters into one report.
    #[arg(long, value_name = "NAME", action = clap::ArgAction::Append)]
    pub context: Vec<String>,
    /// The kubeconfig cluster to use (default: the context's).
    #[arg(long, value_name = "NAME")]
    pub cluster: Option<String>,
    /// The kubeconfig user to use (default: the context's).
    #[arg(long, value_name = "NAME")]
    pub user: Option<String>,
    /// Give up on a request (retries included) after this long: 30s, 1m, a number of
    /// seconds, or 0 for no limit. At most 24h.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = ranges::request_timeout)]
    pub request_timeout: String,
    /// When an exec credential plugin must have answered by (a fleet context's deadline);
    /// None: `cluster::exec_plugin::DEFAULT_BOUND` from connecting. Not a flag.
    #[arg(skip)]
    pub exec_plugin_deadline: Option<std::time::Instant>,
}

/// Several clusters in one report (`scan`, `explain`): which contexts, and how long each may
/// take. Contexts are read side by side, a few at a time.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Cluster")]
pub struct FleetArgs {
    /// Read every context of the kubeconfig (each with its own credentials, namespace and
    /// clock) and report them together; a context that cannot be read is reported, and the
    /// exit code is 2.
    #[arg(long, conflicts_with_all = ["context", "cluster", "user"])]
    pub all_contexts: bool,
    /// With several contexts: give up on one context after this long (connecting, reading
    /// and retries included), so a dead cluster costs at most this: 30s, 1m, or a number of
    /// seconds, from 1s to 1h.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = ranges::context_timeout)]
    pub context_timeout: std::time::Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    /// One row per CronJob.
    Table,
    /// The table plus concurrency policy, findings and the top finding's message.
    Wide,
    /// The report as JSON (the `explain -o json` format, every CronJob).
    Json,
}

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Namespace to scan (default: the context's, else `default`).
    #[arg(short = 'n', long, conflicts_with = "all_namespaces")]
    pub namespace: Option<String>,
    /// Scan every namespace.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Only list CronJobs with a warning or an error.
    #[arg(long)]
    pub only_problems: bool,
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = ScanFormat::Table)]
    pub output: ScanFormat,
    /// How many past slots each CronJob's timeline holds (JSON output): 0 to 1000.
    #[arg(long, default_value_t = 8, value_name = "N", value_parser = ranges::timeline(), allow_negative_numbers = true)]
    pub timeline: usize,
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// The config file's rule severities apply.
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub kube: KubeArgs,
    #[command(flatten)]
    pub fleet: FleetArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Manifests to lint: files, directories (recursively, *.yaml|*.yml|*.json) or `-` (stdin).
    #[arg(short = 'f', long = "file", value_name = "PATH", required = true)]
    pub files: Vec<String>,
    /// Lowest severity that makes the exit code 1 (default: the config's failOn, else warning).
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    /// Output format: one line per finding, JSON, or SARIF 2.1.0 for code scanning.
    #[arg(short = 'o', long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
    /// Report only findings that are not in this baseline (written by --write-baseline); the
    /// exit code counts those alone, and baseline entries that no longer occur are listed.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<String>,
    /// Record today's findings (at or above --fail-on) in FILE as the baseline, and exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<String>,
    /// Print the effective settings (config file and flags) as YAML and exit.
    #[arg(long)]
    pub print_config: bool,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub replay: ReplayArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NextFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct NextArgs {
    /// A CronJob schedule, exactly as in spec.schedule (quote it: '0 3 * * *').
    pub schedule: String,
    /// Like spec.timeZone: evaluate in this IANA zone (adds `TZ=<zone> ` unless the schedule
    /// already contains TZ).
    #[arg(long, value_name = "TZ")]
    pub time_zone: Option<String>,
    /// Start after this instant (RFC 3339). Default: now.
    #[arg(long, value_name = "RFC3339")]
    pub from: Option<String>,
    /// How many fire times to show: 1 to 1000.
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = ranges::count(), allow_negative_numbers = true)]
    pub count: u32,
    /// The controller's local zone, used when the schedule has no zone.
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    pub controller_time_zone: String,
    #[arg(short = 'o', long, value_enum, default_value_t = NextFormat::Text)]
    pub output: NextFormat,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[arg(short = 'o', long, value_enum, default_value_t = RulesFormat::Text)]
    pub output: RulesFormat,
    /// The severities shown are the config file's, where it overrides a rule.
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MonitorFormat {
    /// `TIME NAMESPACE/NAME STATUS: HEADLINE`.
    Text,
    /// One JSON object per line.
    Json,
}

#[derive(Debug, Args)]
pub struct MonitorArgs {
    /// Namespace to watch (default: the context's, else `default`).
    #[arg(short = 'n', long, conflicts_with = "all_namespaces")]
    pub namespace: Option<String>,
    /// Watch every namespace.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Serve /metrics, /healthz, /readyz and /report on this address (e.g. 0.0.0.0:9090);
    /// status lines are then printed only if -o is given.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<std::net::SocketAddr>,
    /// How long after a slot's due time a missing run counts as missed: 0 to 24h.
    #[arg(long, value_name = "DURATION", default_value = "2m", value_parser = ranges::grace)]
    pub grace: std::time::Duration,
    /// Not ready (/readyz 503) when a watch has heard nothing from the API server (no
    /// event, no bookmark) for this long: 1s to 1h. Servers bookmark every minute or so.
    #[arg(long, value_name = "DURATION", default_value = "3m", value_parser = ranges::stale_after)]
    pub stale_after: std::time::Duration,
    /// Format of the status lines on stdout [default: text]. With --listen, giving -o
    /// prints them too.
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<MonitorFormat>,
    /// The controller's local time zone, used for schedules without spec.timeZone.
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    pub controller_time_zone: String,
    /// Replay the controller of this Kubernetes version. Default: the server's.
    #[arg(long, value_name = "VERSION", value_parser = ranges::kube_version)]
    pub kube_version: Option<String>,
    #[command(flatten)]
    pub kube: KubeArgs,
}
