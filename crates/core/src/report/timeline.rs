//! The last N slots of the schedule against the Jobs that really ran, and why a slot without a
//! Job got none. Built only from what the snapshot holds: Job names (`<name>-<unix minutes>`),
//! the scheduled-timestamp annotation, status and the replay — never from Events alone, because
//! Events expire after about an hour.

use jiff::Timestamp;
use serde::Serialize;

use crate::evidence::{JobState, failure_reason, job_duration, job_state, pod_problem};
use crate::model::{ConcurrencyPolicy, Job};
use crate::replay::{ControllerVariant, CreateOutcome, Decision};
use crate::rules::Context;
use crate::text::human_duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SlotStatus {
    Succeeded,
    Failed,
    Running,
    /// The controller decided not to start it (suspend, Forbid, deadline).
    Skipped,
    /// It never ran and the controller will not go back for it.
    Missed,
    /// Due now: the controller starts it at its next sync.
    Due,
    /// We cannot tell (no Job evidence, or the Job was pruned).
    Unknown,
    /// The next slot.
    Next,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Slot {
    pub time: Timestamp,
    pub status: SlotStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<i64>,
    /// Why, in a few words ("JobAlreadyActive (Forbid)", "pod x ImagePullBackOff").
    pub note: String,
    /// A Job made by hand (`kubectl create job --from`), not a scheduled slot.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub manual: bool,
    /// A run's slot to its first container start, in seconds: `Some(None)` (null) when the
    /// evidence does not show it (a pruned Pod, a run not started, a manual run); left out
    /// for a slot without a run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_delay_seconds: Option<Option<i64>>,
    /// A run's starts of its workload (retries, restarts, replaced Pods; per completion index
    /// for indexed Jobs): null when unknown, left out for a slot without a run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<Option<u32>>,
    /// Told by the record a monitor kept (`explain` asked it): the run's Job is no longer in
    /// the cluster ([`super::retained_slots`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retained: bool,
}

/// The job name the controller gives slot `t` (v1 used unix seconds).
fn job_name_for(ctx: &Context, t: Timestamp) -> String {
    let n = if ctx.variant == ControllerVariant::V1Legacy {
        t.as_second()
    } else {
        t.as_second().div_euclid(60)
    };
    format!("{}-{n}", ctx.name())
}

/// The owned Job the controller created for slot `t` (by name, or the scheduled-timestamp
/// annotation).
pub(crate) fn find_job<'a>(ctx: &Context<'a>, t: Timestamp) -> Option<&'a Job> {
    let name = job_name_for(ctx, t);
    ctx.jobs.iter().copied().find(|j| {
        j.meta.name == name
            || j.meta
                .annotations
                .get(crate::model::SCHEDULED_ANNOTATION)
                .and_then(|v| v.parse::<jiff::Timestamp>().ok())
                == Some(t)
    })
}

fn job_slot(ctx: &Context, t: Timestamp, j: &Job, manual: bool) -> Slot {
    let (status, mut note) = match job_state(j) {
        JobState::Succeeded => (SlotStatus::Succeeded, String::new()),
        JobState::Failed => (
            SlotStatus::Failed,
            failure_reason(j).unwrap_or("failed").to_string(),
        ),
        // Decided but not finished (1.31+): the CronJob controller still counts it active,
        // so it stays "running", and the note says how it ended.
        JobState::Running => (
            SlotStatus::Running,
            crate::runs::decision(j)
                .map(|(kind, reason)| {
                    let verb = if kind == "FailureTarget" {
                        "failed"
                    } else {
                        "succeeded"
                    };
                    let reason = if reason.is_empty() { kind } else { reason };
                    format!("{verb} ({reason}), active until its pods are gone")
                })
                .unwrap_or_default(),
        ),
    };
    if status != SlotStatus::Succeeded
        && let Some((pod, problem)) = ctx
            .pods_of(&j.meta.name)
            .find_map(|p| pod_problem(p, ctx.now).map(|pr| (p, pr)))
    {
        {
            if !note.is_empty() {
                note.push_str("; ");
            }
            note.push_str(&format!("pod {} {problem}", pod.meta.name));
        }
    }
    let story = crate::runs::story(
        j,
        (!manual).then_some(t),
        ctx.pods_of(&j.meta.name),
        ctx.events,
        ctx.evidence,
    );
    // How the run went where that matters: late (and which stage), more than one attempt.
    let mut told = Vec::new();
    // Runs whose start someone else decides are said so, and never called late.
    match &story.kind {
        crate::runs::RunKind::Suspended => {
            told.push(match crate::evidence::job_suspended(j).flatten() {
                Some(at) => format!("Job suspended since {}", ctx.show_time(at)),
                None => "Job suspended (spec.suspend)".to_string(),
            })
        }
        crate::runs::RunKind::ManagedElsewhere(by) => told.push(format!("Job managed by {by}")),
        _ => {}
    }
    if let Some((delay, stage)) = crate::rules::late_start::lateness(ctx, &story) {
        told.push(match stage {
            Some(s) => format!("late {}: {}", human_duration(delay), s.short()),
            None => format!("late {}", human_duration(delay)),
        });
    }
    if let Some(n) = story.attempt_count.filter(|&n| n > 1) {
        let mut reasons: Vec<(String, usize)> = Vec::new();
        for a in story.failed_attempts() {
            let r = match &a.outcome {
                crate::runs::Outcome::Failed { reason, exit_code } => {
                    match (reason.as_str(), exit_code) {
                        ("" | "Error", Some(c)) => format!("exit {c}"),
                        ("", None) => "failed".into(),
                        (r, _) => r.to_string(),
                    }
                }
                crate::runs::Outcome::Disrupted { reason } => reason.clone(),
                _ => "unrecorded".into(),
            };
            let times = usize::try_from(a.times).unwrap_or(usize::MAX);
            match reasons.iter_mut().find(|(x, _)| *x == r) {
                Some((_, k)) => *k = k.saturating_add(times),
                None => reasons.push((r, times)),
            }
        }
        let why = reasons
            .iter()
            .map(|(r, k)| format!("{k} {r}"))
            .collect::<Vec<_>>()
            .join(", ");
        told.push(if why.is_empty() {
            format!("{n} attempts")
        } else {
            format!("{n} attempts ({why})")
        });
    }
    if !told.is_empty() {
        let told = told.join("; ");
        note = if note.is_empty() {
            told
        } else {
            format!("{told}; {note}")
        };
    }
    if manual {
        note = if note.is_empty() {
            "manual run".into()
        } else {
            format!("manual run; {note}")
        };
    }
    Slot {
        time: t,
        status,
        job: Some(j.meta.name.clone()),
        duration_seconds: job_duration(j, ctx.now),
        note,
        manual,
        start_delay_seconds: Some(story.start_delay()),
        attempts: Some(story.attempt_count),
        retained: false,
    }
}

/// Why slot `t`, which has no Job in the snapshot, got none.
fn empty_slot(ctx: &Context, t: Timestamp, due: Option<Timestamp>) -> Slot {
    let cj = ctx.cron_job;
    let rep = ctx.replay;
    let lst = cj.status.last_schedule_time;
    let mk = |status, note: String| Slot {
        time: t,
        status,
        job: None,
        duration_seconds: None,
        note,
        manual: false,
        start_delay_seconds: None,
        attempts: None,
        retained: false,
    };
    if lst == Some(t) {
        let note = if ctx.evidence.jobs {
            "started (lastScheduleTime); its Job is no longer in the input (history limit or TTL)"
        } else {
            "started (lastScheduleTime); no Jobs in the input to say how it went"
        };
        return mk(SlotStatus::Unknown, note.into());
    }
    if lst.is_some_and(|l| t < l) {
        let note = if ctx.evidence.jobs {
            "no Job found: pruned by history limits or TTL, or never run"
        } else {
            "no Jobs in the input"
        };
        return mk(SlotStatus::Unknown, note.into());
    }
    if Some(t) == due && rep.decision == Decision::NothingDue && rep.window_miss {
        return mk(
            SlotStatus::Missed,
            "missed: the controller's estimate skips it on this uneven schedule".into(),
        );
    }
    if Some(t) == due {
        return match rep.decision {
            // A Job of the slot's name that is not this CronJob's (another owner, or, from
            // 1.37, one left by a deleted CronJob of the same name) takes the name: the create
            // is refused and nothing of this CronJob runs for the slot.
            Decision::Create => match rep.create_outcome {
                Some(
                    CreateOutcome::AlreadyExistsGetFailed
                    | CreateOutcome::AlreadyExistsError
                    | CreateOutcome::AlreadyExistsNotOwned
                    | CreateOutcome::FailedCreate,
                ) => mk(
                    SlotStatus::Missed,
                    "missed: a Job of the slot's name exists and is not this CronJob's; the controller's create is refused (AlreadyExists)".into(),
                ),
                _ => mk(
                    SlotStatus::Due,
                    "due: the controller starts it at its next sync".into(),
                ),
            },
            Decision::ForbidBlocked => mk(
                SlotStatus::Skipped,
                format!(
                    "skipped: JobAlreadyActive (Forbid; {} active)",
                    cj.status
                        .active
                        .iter()
                        .map(|a| a.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            Decision::MissedDeadline => mk(
                SlotStatus::Missed,
                format!(
                    "missed: more than startingDeadlineSeconds ({}s) late; skipped silently",
                    cj.spec.starting_deadline_seconds.unwrap_or_default()
                ),
            ),
            Decision::Suspended => mk(SlotStatus::Skipped, "skipped: suspended".into()),
            Decision::AlreadyProcessed => mk(
                SlotStatus::Unknown,
                "already processed (job in active or lastScheduleTime)".into(),
            ),
            _ => mk(
                SlotStatus::Missed,
                format!("not started: {}", decision_words(rep.decision)),
            ),
        };
    }
    if cj.spec.suspend {
        return mk(
            SlotStatus::Skipped,
            "skipped: suspended (missed slots are never backfilled)".into(),
        );
    }
    if let Some(sds) = cj
        .spec
        .starting_deadline_seconds
        .filter(|s| ctx.now.as_second() - t.as_second() > *s)
    {
        return mk(
            SlotStatus::Missed,
            format!("missed: more than startingDeadlineSeconds ({sds}s) ago"),
        );
    }
    if rep.window_miss && rep.true_most_recent == Some(t) {
        return mk(
            SlotStatus::Missed,
            "missed: the controller's estimate skips it on this uneven schedule".into(),
        );
    }
    if cj.spec.concurrency_policy == ConcurrencyPolicy::Forbid
        && let Some(blocker) = ctx.jobs.iter().find(|j| {
            crate::evidence::job_start(j).is_some_and(|s| s < t)
                && (job_state(j) == JobState::Running
                    || j.status.completion_time.is_some_and(|c| c > t))
        })
    {
        return mk(
            SlotStatus::Skipped,
            format!(
                "skipped: JobAlreadyActive (Forbid; {} was running)",
                blocker.meta.name
            ),
        );
    }
    mk(
        SlotStatus::Missed,
        "missed: only the latest missed slot ever runs".into(),
    )
}

fn decision_words(d: Decision) -> &'static str {
    match d {
        Decision::BeingDeleted => "the CronJob is being deleted",
        Decision::UnknownTimeZone => "unknown time zone",
        Decision::Suspended => "suspended",
        Decision::UnparseableSchedule => "unparseable schedule",
        Decision::InvalidSchedule => "invalid schedule",
        Decision::NothingDue => "the controller found no due slot",
        Decision::MissedDeadline => "past startingDeadlineSeconds",
        Decision::AlreadyProcessed => "already processed",
        Decision::ForbidBlocked => "Forbid with an active job",
        Decision::Create => "due",
    }
}

/// The note on the next slot of a CronJob that has never been in a cluster.
pub const NEVER_APPLIED: &str =
    "next, once applied — never ran in a cluster (no creationTimestamp or status in the input)";

/// No creationTimestamp and no lastScheduleTime: a manifest, not an object read back from a
/// cluster (or one the API server would refuse, so it never got either).
pub fn never_applied(ctx: &Context) -> bool {
    let cj = ctx.cron_job;
    cj.meta.creation_timestamp.is_none() && cj.status.last_schedule_time.is_none()
}

/// The most past slots a timeline holds. The CLI's `--timeline` range ends here too; the
/// clamp below keeps any other caller from asking for an unbounded walk or allocation.
pub const MAX_SLOTS: usize = 1000;

/// The last `count` slots up to now (at most [`MAX_SLOTS`]), manual runs among them, and the
/// next slot.
pub fn build(ctx: &Context, count: usize) -> Vec<Slot> {
    let count = count.min(MAX_SLOTS);
    if count == 0 {
        return Vec::new();
    }
    let created = ctx.cron_job.meta.creation_timestamp;
    // A manifest that was never applied (no creationTimestamp, no status) has no past: its
    // slots were not missed, they were never anyone's to run.
    let never_applied = never_applied(ctx);
    let slots: Vec<Timestamp> = if never_applied {
        Vec::new()
    } else {
        ctx.replay
            .last_slots(count)
            .into_iter()
            .filter(|t| created.is_none_or(|c| *t > c))
            .collect()
    };
    // The slot the controller acts on now: the one it picked, else the true most recent.
    let due = ctx
        .replay
        .scheduled_time
        .or(ctx.replay.due_ignoring_deadline)
        .or(ctx.replay.true_most_recent);
    let mut out: Vec<Slot> = slots
        .iter()
        .map(|t| match find_job(ctx, *t) {
            Some(j) => job_slot(ctx, *t, j, false),
            None => empty_slot(ctx, *t, due),
        })
        .collect();
    if let Some(first) = slots.first() {
        for j in ctx.manual_jobs {
            if let Some(start) = j.meta.creation_timestamp.filter(|c| c >= first) {
                out.push(job_slot(ctx, start, j, true));
            }
        }
    }
    if let Some(next) = ctx.replay.next_schedule_times(1).first() {
        let cj = ctx.cron_job;
        let note = if cj.spec.suspend {
            "next — will not run while suspended".to_string()
        } else if cj.spec.concurrency_policy == ConcurrencyPolicy::Forbid
            && !cj.status.active.is_empty()
        {
            format!(
                "next — will be skipped too unless {} ends",
                cj.status
                    .active
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else if never_applied {
            NEVER_APPLIED.to_string()
        } else {
            "next".to_string()
        };
        out.push(Slot {
            time: *next,
            status: SlotStatus::Next,
            job: None,
            duration_seconds: None,
            note,
            manual: false,
            start_delay_seconds: None,
            attempts: None,
            retained: false,
        });
    }
    out.sort_by_key(|s| s.time);
    out
}
