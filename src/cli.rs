//! Command-line definitions. The doc comments are the help text users see, so they are
//! written for someone whose CronJob did not run five minutes ago.

use clap::{Args, Parser, Subcommand, ValueEnum};

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
    /// Print the version, git commit and time-zone database in use.
    Version,
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
    /// Evaluate at this instant instead of now (RFC 3339, e.g. 2026-11-20T12:00:00Z).
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// The controller's local time zone, used for schedules without spec.timeZone
    /// (kube-controller-manager's TZ; containerised control planes use UTC).
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    pub controller_time_zone: String,
    /// Replay the controller of this Kubernetes version (e.g. 1.20, 1.27, 1.31). Default: newest.
    #[arg(long, value_name = "VERSION")]
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
    /// Only explain the CronJob with this name (default: every CronJob in the input).
    pub name: Option<String>,
    /// Read manifests from a file, a directory (recursively, *.yaml|*.yml|*.json) or `-` (stdin).
    #[arg(short = 'f', long = "file", value_name = "PATH", required = true)]
    pub files: Vec<String>,
    /// Only CronJobs in this namespace (objects without a namespace count as `default`).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
    /// How many past slots the timeline shows.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub timeline: usize,
    #[command(flatten)]
    pub replay: ReplayArgs,
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
    /// Lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    /// Output format: one line per finding, JSON, or SARIF 2.1.0 for code scanning.
    #[arg(short = 'o', long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
    #[command(flatten)]
    pub replay: ReplayArgs,
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
    /// How many fire times to show.
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
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
}
