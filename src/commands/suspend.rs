//! `suspend NAME` and `unsuspend NAME`: set `spec.suspend`, after showing what it means. The
//! trap on resume is that the controller does not "catch up" the missed runs: it starts ONE,
//! the latest missed slot, immediately (if startingDeadlineSeconds allows; sometimes the
//! window estimate skips it). `unsuspend` replays that sync first and says which slot, and
//! `--skip-missed` resumes without it.

use doctor::actions::suspend_preview::{evaluate_suspend, evaluate_unsuspend};

use super::plan;
use crate::actions::patch;
use crate::actions::session::Session;
use crate::actions::who;
use crate::cli::{SuspendArgs, UnsuspendArgs};
use crate::cluster;
use crate::error::{Error, exit};

pub fn run_suspend(a: &SuspendArgs) -> Result<i32, Error> {
    // Flags are checked before any request, so a typo never waits on the network.
    let p = plan::suspend(a)?;
    let (name, how) = (&p.action.name, &p.action.how);
    let rt = cluster::runtime()?;
    let done = rt.block_on(async {
        let s = Session::connect(&how.kube, how.namespace.as_deref(), how.dry_run).await?;
        let by = who(p.by.as_deref(), s.context());
        let ns = s.ns.clone();
        patch::run(&s, name, how, false, |st| {
            evaluate_suspend(st, &ns, &by, p.reason.as_deref())
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
    let p = plan::unsuspend(a)?;
    let (name, how) = (&p.action.name, &p.action.how);
    let rt = cluster::runtime()?;
    let done = rt.block_on(async {
        let s = Session::connect(&how.kube, how.namespace.as_deref(), how.dry_run).await?;
        let server = cluster::server_version(&s.api)
            .await
            .map_err(|e| s.failure("GET /version", &e))?;
        let (version, note) = p.version.settle(server);
        if let Some(n) = note {
            crate::term::out::Out::STDOUT.line(format!("note: {n}"));
        }
        let ns = s.ns.clone();
        patch::run(&s, name, how, true, |st| {
            evaluate_unsuspend(st, &ns, &p.zone.tz, version, p.skip_missed)
        })
        .await
    })?;
    Ok(exit_code(done))
}
