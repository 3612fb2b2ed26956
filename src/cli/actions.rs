//! The flags of the actions (`trigger`, `suspend`, `unsuspend`): where the CronJob is, how
//! sure the user is, how dry the run.

use clap::{Args, ValueEnum};

use super::KubeArgs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DryRun {
    /// Act: a server-side dry run first, then (after confirmation) the real request.
    None,
    /// Print the exact requests that would be sent; send nothing.
    Client,
    /// Send the requests with dryRun=All: validated and authorized, nothing is changed.
    Server,
}

impl DryRun {
    pub fn flag(self) -> &'static str {
        match self {
            DryRun::None => "--dry-run=none",
            DryRun::Client => "--dry-run=client",
            DryRun::Server => "--dry-run=server",
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct ActionArgs {
    /// Namespace of the CronJob (default: the context's, else `default`).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
    /// Act without asking. Required when stdin is not a terminal (scripts, CI); without it
    /// nothing is changed there.
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// Only show (`client`) or only test on the server (`server`) what would be done.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = DryRun::None)]
    pub dry_run: DryRun,
    #[command(flatten)]
    pub kube: KubeArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ObjectFormat {
    Yaml,
    Json,
}

#[derive(Debug, Args)]
pub struct TriggerArgs {
    /// The CronJob to run now.
    pub name: String,
    /// Name of the Job (default: <cronjob>-manual-<5 random characters>, the CronJob part
    /// shortened so the whole fits in 63 characters).
    #[arg(long, value_name = "NAME")]
    pub job_name: Option<String>,
    /// Print the Job as YAML or JSON: the created one, or with --dry-run the one that would be
    /// created. The preview then goes to stderr.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT")]
    pub output: Option<ObjectFormat>,
    /// Follow the Job until it finishes, showing its Pods' phase and failure reasons. Exit 0
    /// when it completes, 1 when it fails or --timeout passes first.
    #[arg(long)]
    pub wait: bool,
    /// With --wait: stop waiting after this long (30s, 10m, 1h; 0 for no limit; at most 168h).
    /// The Job itself goes on.
    #[arg(long, value_name = "DURATION", default_value = "30m", value_parser = super::ranges::wait_timeout)]
    pub timeout: String,
    #[command(flatten)]
    pub action: ActionArgs,
}

#[derive(Debug, Args)]
pub struct SuspendArgs {
    /// The CronJob to suspend.
    pub name: String,
    /// Why: recorded in the annotation cronjob-doctor.io/suspend-reason, which `explain` and
    /// `scan` show ("suspended 3d ago by alice, reason: …").
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// Who suspends it, recorded in cronjob-doctor.io/suspended-by (default: $USER, else the
    /// kubeconfig context's name).
    #[arg(long, value_name = "NAME")]
    pub by: Option<String>,
    #[command(flatten)]
    pub action: ActionArgs,
}

#[derive(Debug, Args)]
pub struct UnsuspendArgs {
    /// The CronJob to resume.
    pub name: String,
    /// Resume without the immediate catch-up run for a slot missed while suspended. First
    /// moves status.lastScheduleTime to that slot (a merge patch on the status subresource,
    /// while the CronJob is still suspended: needs `patch` on `cronjobs/status`), so the
    /// controller counts it as done; then sets spec.suspend to false. The next regular slot
    /// runs as usual. Sent only when a catch-up run would otherwise start.
    #[arg(long)]
    pub skip_missed: bool,
    /// The controller's local time zone, for schedules without spec.timeZone
    /// (kube-controller-manager's TZ; containerised control planes use UTC).
    #[arg(long, value_name = "TZ", default_value = "UTC")]
    pub controller_time_zone: String,
    #[command(flatten)]
    pub action: ActionArgs,
}
