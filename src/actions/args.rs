//! Flags every action shares: where the CronJob is, how sure the user is, how dry the run.

use clap::{Args, ValueEnum};

use crate::cli::KubeArgs;

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

#[derive(Debug, Args)]
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
