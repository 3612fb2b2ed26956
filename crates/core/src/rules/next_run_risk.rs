//! The next slot, predicted: will it produce a run? A warning *before* a run is lost, for the
//! monitor's `cronjob_doctor_next_run_at_risk` series and `explain`'s one line. Pure: the
//! context (snapshot, replay, now) and the findings come in.
//!
//! Fidelity first: a reason is given only when the evidence shows the next slot will produce
//! no run; when it may or may not (a Forbid Job that is running normally, a deadline that ends
//! it before the slot), nothing is said. A wrong warning is worse than none.

use jiff::Timestamp;
use serde::Serialize;

use super::runtime::common::{
    forbid_blocker, job_slot, managed_elsewhere, terminal_condition_waits_for_pods,
};
use super::{Context, Finding};
use crate::evidence::{Active, job_active, job_suspended, pod_problem, stuck_terminating};
use crate::text::human_duration;

/// Why the next slot will produce no run. The names (kebab-case) are the `reason` label of
/// the metric and the JSON's `reason`: a public interface, stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// `spec.suspend` is true: the controller starts no Job.
    Suspended,
    /// Forbid, and the active Job will still be active at the slot (stuck, decided but waiting
    /// for its Pods, suspended, or already blocking slots), with no deadline ending it first.
    ForbidActive,
    /// `startingDeadlineSeconds` is 0, or below how late the controller created the newest
    /// run's Job: a sync that late drops the slot.
    StartingDeadline,
    /// The time the schedule names next does not exist: clocks spring over it.
    DstGap,
    /// The latest run has not started (`run-not-started`): what stops its Pods meets the
    /// next run's too.
    RunNotStarted,
}

impl Reason {
    pub const ALL: [Reason; 5] = [
        Reason::Suspended,
        Reason::ForbidActive,
        Reason::StartingDeadline,
        Reason::DstGap,
        Reason::RunNotStarted,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Suspended => "suspended",
            Reason::ForbidActive => "forbid-active",
            Reason::StartingDeadline => "starting-deadline",
            Reason::DstGap => "dst-gap",
            Reason::RunNotStarted => "run-not-started",
        }
    }
}

/// One reason and the evidence for it, in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Risk {
    pub reason: Reason,
    pub detail: String,
}

/// The prediction for the next slot: at least one reason.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NextRunAtRisk {
    /// The next slot as the controller computes it (`nextScheduleTimes[0]`; while suspended,
    /// the schedule's next time); for `dst-gap` the lost run is the one the schedule names
    /// before it.
    pub slot: Timestamp,
    pub reasons: Vec<Risk>,
}

impl NextRunAtRisk {
    /// "forbid-active: …; run-not-started: …".
    pub fn summary(&self) -> String {
        self.reasons
            .iter()
            .map(|r| format!("{}: {}", r.reason.as_str(), r.detail))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The prediction for `next` (the next slot), or None when nothing shows it will be lost.
pub fn predict(
    ctx: &Context,
    findings: &[Finding],
    next: Option<Timestamp>,
) -> Option<NextRunAtRisk> {
    let mut reasons = Vec::new();
    if ctx.cron_job.spec.suspend {
        // The report lists no next time while suspended; the slot lost is the schedule's.
        let slot = next.or_else(|| ctx.parsed()?.next(ctx.now, ctx.controller_zone))?;
        // Nothing else matters while it is suspended.
        reasons.push(Risk {
            reason: Reason::Suspended,
            detail: "spec.suspend is true: the controller starts no Job".to_string(),
        });
        return Some(NextRunAtRisk { slot, reasons });
    }
    let slot = next?;
    let has = |slug: &str| findings.iter().any(|f| f.slug == slug);
    if let Some(d) = forbid_active(ctx, slot, has("forbid-blocked")) {
        reasons.push(Risk {
            reason: Reason::ForbidActive,
            detail: d,
        });
    }
    if let Some(d) = starting_deadline(ctx) {
        reasons.push(Risk {
            reason: Reason::StartingDeadline,
            detail: d,
        });
    }
    if let Some(d) = dst_gap(ctx, slot) {
        reasons.push(Risk {
            reason: Reason::DstGap,
            detail: d,
        });
    }
    if has(super::run_not_started::RULE.slug) {
        let why = super::run_not_started::short_status(ctx)
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        reasons.push(Risk {
            reason: Reason::RunNotStarted,
            detail: format!(
                "the latest run has not started{why}, and what stops its Pods meets the next run's"
            ),
        });
    }
    (!reasons.is_empty()).then_some(NextRunAtRisk { slot, reasons })
}

/// Forbid: the Job in `status.active` will still be there at `slot`.
fn forbid_active(ctx: &Context, slot: Timestamp, blocked: bool) -> Option<String> {
    let name = forbid_blocker(ctx)?;
    let now = ctx.now;
    let job = ctx.job(name).filter(|j| !j.is_finished());
    let decided = job.and_then(crate::runs::decision);
    let terminating = job
        .map(|j| stuck_terminating(ctx.pods_of(&j.meta.name), now))
        .unwrap_or_default();
    let terminating = terminating
        .first()
        .filter(|_| terminal_condition_waits_for_pods(ctx));
    let suspended = job.is_some_and(|j| {
        matches!(job_active(j), Some(Active::Suspended { .. })) || job_suspended(j).is_some()
    });
    let problem = job.and_then(|j| ctx.pods_of(&j.meta.name).find_map(|p| pod_problem(p, now)));
    let why = if let Some((kind, _)) = decided {
        format!("it is decided ({kind}) and waits for its Pods to end")
    } else if let Some(t) = terminating {
        format!("its pod {} is stuck Terminating", t.pod.meta.name)
    } else if suspended {
        "it is suspended".to_string()
    } else if let Some(p) = problem {
        format!("its pod: {p}")
    } else if blocked {
        "it has blocked the slots since it started".to_string()
    } else {
        // A Job running normally may end before the slot: nothing to say.
        return None;
    };
    // A deadline that fails the Job before the slot lifts the block, unless the Job waits for
    // its Pods anyway, is suspended (the timer stops) or another controller runs it.
    let held =
        decided.is_some() || terminating.is_some() || suspended || managed_elsewhere(ctx).is_some();
    let deadline = job.and_then(|j| {
        let start = j.status.start_time?;
        let ads = j.spec.active_deadline_seconds?;
        Timestamp::from_second(start.as_second().checked_add(ads)?).ok()
    });
    let deadline_words = match deadline {
        Some(_) if held => String::new(),
        Some(end) if end < slot => return None,
        Some(end) => format!(
            "; its activeDeadlineSeconds ends it only at {}",
            ctx.show_time(end)
        ),
        None => String::new(),
    };
    Some(format!(
        "job {name} will still be active at the slot under Forbid: {why}{deadline_words}"
    ))
}

/// `startingDeadlineSeconds` 0, or below the newest scheduled Job's creation lag.
fn starting_deadline(ctx: &Context) -> Option<String> {
    let sds = ctx
        .cron_job
        .spec
        .starting_deadline_seconds
        .filter(|s| *s >= 0)?;
    if sds == 0 {
        return Some("startingDeadlineSeconds is 0: no slot is ever due".to_string());
    }
    let (job, slot) = ctx
        .jobs
        .iter()
        .filter(|j| !j.is_manual())
        .filter_map(|j| Some((*j, job_slot(ctx, j)?)))
        .max_by_key(|(_, s)| *s)?;
    let lag = job.meta.creation_timestamp?.as_second() - slot.as_second();
    (lag > sds).then(|| {
        format!(
            "startingDeadlineSeconds is {sds}s, and the controller created the newest run's Job {} {} after its slot: a sync that late drops the run",
            job.meta.name,
            human_duration(lag)
        )
    })
}

/// The time the schedule names next falls in a clock change's gap: no run for it.
fn dst_gap(ctx: &Context, slot: Timestamp) -> Option<String> {
    let sched = ctx.parsed()?;
    crate::cron::dst::effects(sched, ctx.controller_zone, ctx.now, slot)
        .into_iter()
        .filter(|e| e.forward && e.transition > ctx.now && e.transition <= slot)
        .find_map(|e| {
            let named = e.swallowed.first()?;
            Some(format!(
                "{} ({}) does not exist: clocks go from {} to {}, and the schedule's run for it is skipped",
                named.strftime("%Y-%m-%d %H:%M"),
                ctx.schedule_zone_name(),
                e.clock_from.strftime("%H:%M"),
                e.clock_to.strftime("%H:%M"),
            ))
        })
}

#[cfg(test)]
#[path = "next_run_risk_tests.rs"]
mod tests;
