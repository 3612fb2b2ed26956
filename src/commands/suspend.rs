//! `suspend NAME` and `unsuspend NAME`: set `spec.suspend`, after showing what it means. The
//! trap on resume is that the controller does not "catch up" the missed runs: it starts ONE,
//! the latest missed slot, immediately (if startingDeadlineSeconds allows; sometimes the
//! window estimate skips it). `unsuspend` replays that sync first and says which slot, and
//! `--skip-missed` resumes without it.

use doctor::actions::suspend_preview::{evaluate_suspend, evaluate_unsuspend};
use doctor::replay::KubeVersion;

use super::controller_zone;
use crate::actions::patch;
use crate::actions::session::Session;
use crate::actions::who;
use crate::cli::{SuspendArgs, UnsuspendArgs};
use crate::cluster;
use crate::error::{Error, UsageError, exit};

/// The CronJob name, checked before any request (see `doctor::names`).
fn valid_name(name: &str) -> Result<(), Error> {
    doctor::names::cron_job_name(name)
        .map_err(|e| UsageError::NothingSent(Box::new(UsageError::InvalidName(e))).into())
}

pub fn run_suspend(a: &SuspendArgs) -> Result<i32, Error> {
    valid_name(&a.name)?;
    let rt = cluster::runtime()?;
    let done = rt.block_on(async {
        let s = Session::connect(
            &a.action.kube,
            a.action.namespace.as_deref(),
            a.action.dry_run,
        )
        .await?;
        let by = who(a.by.as_deref(), s.context());
        let ns = s.ns.clone();
        patch::run(&s, &a.name, &a.action, false, |st| {
            evaluate_suspend(st, &ns, &by, a.reason.as_deref())
        })
        .await
    })?;
    Ok(exit_code(done))
}

/// Every way the patch loop ends without an error is a success.
fn exit_code(done: patch::Done) -> i32 {
    match done {
        patch::Done::Applied | patch::Done::NothingToDo | patch::Done::DryRun => exit::OK,
    }
}

pub fn run_unsuspend(a: &UnsuspendArgs) -> Result<i32, Error> {
    // Flags are checked before any request, so a typo never waits on the network.
    valid_name(&a.name)?;
    let zone = controller_zone(&a.controller_time_zone)?;
    let rt = cluster::runtime()?;
    let done = rt.block_on(async {
        let s = Session::connect(
            &a.action.kube,
            a.action.namespace.as_deref(),
            a.action.dry_run,
        )
        .await?;
        let (version, note) = cluster::server_version(&s.api)
            .await
            .map_err(|e| s.failure("GET /version", &e))?;
        if let Some(n) = note {
            crate::term::out::Out::STDOUT.line(format!("note: {n}"));
        }
        let version = version.unwrap_or(KubeVersion::NEWEST);
        let ns = s.ns.clone();
        patch::run(&s, &a.name, &a.action, true, |st| {
            evaluate_unsuspend(st, &ns, &zone, version, a.skip_missed)
        })
        .await
    })?;
    Ok(exit_code(done))
}
