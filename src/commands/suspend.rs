//! `suspend NAME` and `unsuspend NAME`: set `spec.suspend`, after showing what it means. The
//! trap on resume is that the controller does not "catch up" the missed runs: it starts ONE,
//! the latest missed slot, immediately (if startingDeadlineSeconds allows; sometimes the
//! window estimate skips it). `unsuspend` replays that sync first and says which slot, and
//! `--skip-missed` resumes without it.

use doctor::actions::plan::{Skip, display_zone, plan_suspend, plan_unsuspend};
use doctor::actions::preview::describe;
use doctor::actions::suspend::SuspendNote;
use doctor::actions::suspension::suspension;
use doctor::model::CronJob;
use doctor::replay::KubeVersion;
use doctor::text::human_duration;
use jiff::tz::TimeZone;

use super::controller_zone;
use crate::actions::patch::{self, Evaluation, State};
use crate::actions::session::Session;
use crate::actions::who;
use crate::cli::{SuspendArgs, UnsuspendArgs};
use crate::cluster;
use crate::error::{Error, UsageError, exit};
use crate::term::out::bullets;

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

fn schedule(cj: &CronJob) -> String {
    let s = cj.spec.schedule.as_deref().unwrap_or("(none)");
    match &cj.spec.time_zone {
        Some(tz) => format!("\"{s}\" in {tz}"),
        None => format!("\"{s}\""),
    }
}

/// The preview and patch of `suspend` for one reading.
pub fn evaluate_suspend(st: &State, ns: &str, by: &str, reason: Option<&str>) -> Evaluation {
    let cj = &st.cj;
    let name = &cj.meta.name;
    let note = SuspendNote {
        by,
        at: st.now,
        reason,
    };
    let mut preview = Vec::new();
    let patches: Vec<_> = plan_suspend(cj, &note).into_iter().collect();
    if !patches.is_empty() {
        preview.push(format!(
            "Suspend cronjob {ns}/{name} (schedule {}), as {by}{}:",
            schedule(cj),
            reason.map(|r| format!(", reason: {r}")).unwrap_or_default()
        ));
        let mut lines = vec![
            "no Job starts while it is suspended; Jobs already running are not stopped".to_string(),
        ];
        if !cj.status.active.is_empty() {
            let names: Vec<&str> = cj.status.active.iter().map(|a| a.name.as_str()).collect();
            lines.push(format!("({} keep running)", names.join(", ")));
        }
        lines.push(format!(
            "on resume the controller starts at most ONE missed slot, the latest: preview it with `kubectl cronjob-doctor unsuspend {name} -n {ns}`"
        ));
        preview.extend(bullets(&lines));
    }
    let already = suspension(cj)
        .map(|s| format!(" ({})", s.describe(st.now)))
        .unwrap_or_default();
    Evaluation {
        preview,
        patches,
        nothing_to_do: format!(
            "cronjob {ns}/{name} is already suspended{already}: nothing to do, nothing was changed."
        ),
        question: format!("Suspend {name} in {ns} now?"),
        done: "suspended",
    }
}

/// The preview and patches of `unsuspend` for one reading.
pub fn evaluate_unsuspend(
    st: &State,
    ns: &str,
    zone: &TimeZone,
    version: KubeVersion,
    skip_missed: bool,
) -> Evaluation {
    let cj = &st.cj;
    let name = &cj.meta.name;
    let mut preview = Vec::new();
    let plan = plan_unsuspend(cj, st.jobs.as_deref(), st.now, zone, version, skip_missed);
    let mut nothing =
        format!("cronjob {ns}/{name} is not suspended: nothing to do, nothing was changed.");
    if skip_missed {
        nothing.push_str(" (--skip-missed applies only when resuming.)");
    }
    let Some(plan) = plan else {
        return Evaluation {
            preview,
            patches: Vec::new(),
            nothing_to_do: nothing,
            question: String::new(),
            done: "resumed",
        };
    };
    let since = match suspension(cj) {
        Some(s) => format!("{name} was {}", s.describe(st.now)),
        None => format!("{name} is suspended"),
    };
    preview.push(format!("{since}. If you resume it now:"));
    let tz = display_zone(&plan.preview.replay, zone);
    preview.extend(bullets(&describe(&plan.preview, cj, st.now, &tz)));
    if st.jobs.is_none() {
        preview.push(
            "  (Jobs could not be listed (forbidden): the preview assumes none of its Jobs is running)"
                .into(),
        );
    }
    if plan.suggest_skip {
        preview.push(
            "Resume without the catch-up run: add --skip-missed (advances status.lastScheduleTime; needs patch on cronjobs/status)."
                .into(),
        );
    }
    match plan.skip {
        Skip::NotNeeded => preview.push(
            "--skip-missed: no catch-up run would start, so status.lastScheduleTime is left alone."
                .into(),
        ),
        Skip::Applied(slot) => preview.push(format!(
            "--skip-missed: the {} slot ({} ago) will never run.",
            doctor::text::show_time(slot, &tz),
            human_duration(st.now.as_second() - slot.as_second())
        )),
        Skip::NotAsked => {}
    }
    Evaluation {
        preview,
        patches: plan.patches,
        nothing_to_do: nothing,
        question: format!("Resume {name} now?"),
        done: "resumed",
    }
}
