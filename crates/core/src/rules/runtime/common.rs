//! Helpers shared by the runtime rules: the schedule's cadence, the slot a Job was created for,
//! observed start latency, suggested values, and the "does another rule already say this"
//! predicates that keep two rules from reporting one situation twice.

use jiff::Timestamp;

use crate::cron::cadence::{Cadence, cadence};
use crate::model::{ConcurrencyPolicy, Job};
use crate::replay::ControllerVariant;
use crate::rules::{Context, schedule_memo};
use crate::text::human_duration;

/// The scheduled-time annotation the controller sets on the Jobs it creates (≥1.28).
pub use crate::model::SCHEDULED_ANNOTATION;

thread_local! {
    static INTERVALS: crate::memo::Map<schedule_memo::Key, schedule_memo::Entry<Option<Cadence>>> =
        schedule_memo::map();
}

/// Gaps between the next 32 runs (the engine's own fire times, in the controller's zone);
/// shared across CronJobs with one schedule (`schedule_memo`).
pub fn interval(ctx: &Context) -> Option<Cadence> {
    let sched = ctx.parsed()?;
    schedule_memo::shared(&INTERVALS, ctx, || {
        cadence(sched, ctx.controller_zone, ctx.now, 32)
    })
}

/// `Allow` / `Forbid` / `Replace` as written in the manifest.
pub fn policy_name(p: &ConcurrencyPolicy) -> &str {
    match p {
        ConcurrencyPolicy::Allow => "Allow",
        ConcurrencyPolicy::Forbid => "Forbid",
        ConcurrencyPolicy::Replace => "Replace",
        ConcurrencyPolicy::Other(s) => s,
    }
}

/// `1 slot` / `3 slots`.
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Seconds as `300s (5m)`, or `45s`.
pub fn secs(n: i64) -> String {
    if n.unsigned_abs() < 60 {
        format!("{n}s")
    } else {
        format!("{n}s ({})", human_duration(n))
    }
}

/// `Fri 2024-01-05 09:00 UTC`: a time with its weekday, for schedules where the day matters.
pub fn show_day(ctx: &Context, t: Timestamp) -> String {
    format!(
        "{} {}",
        t.to_zoned(ctx.schedule_zone().clone()).strftime("%a"),
        ctx.show_time(t)
    )
}

/// The slot an owned Job was created for: the scheduled-timestamp annotation, else the name
/// suffix (`<name>-<unix minutes>`, v1: unix seconds), checked against the schedule so that a
/// schedule edited since then yields None rather than a wrong slot.
pub fn job_slot(ctx: &Context, job: &Job) -> Option<Timestamp> {
    if let Some(t) = job
        .meta
        .annotations
        .get(SCHEDULED_ANNOTATION)
        .and_then(|v| v.parse::<Timestamp>().ok())
    {
        return Some(t);
    }
    let suffix = job.meta.name.strip_prefix(ctx.name())?.strip_prefix('-')?;
    if suffix.is_empty() || !suffix.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = suffix.parse().ok()?;
    // Unix minutes are 8 digits until ~2160; unix seconds (v1 names) are 10.
    let (start, width) = if suffix.len() >= 10 {
        (n, 1)
    } else {
        (n.checked_mul(60)?, 60)
    };
    let start_ts = Timestamp::from_second(start).ok()?;
    let Some(eff) = ctx.replay.effective() else {
        return Some(start_ts);
    };
    let slot = eff.next_after(Timestamp::from_second(start - 1).ok()?)?;
    (slot.as_second() < start + width).then_some(slot)
}

/// The largest observed delay between a slot and the creation of its Job (from owned Jobs'
/// creationTimestamps and `SuccessfulCreate` events): (seconds, what shows it).
pub fn observed_start_latency(ctx: &Context) -> Option<(i64, String)> {
    let mut best: Option<(i64, String)> = None;
    let mut consider = |lag: i64, what: String| {
        if best.as_ref().is_none_or(|(b, _)| lag > *b) {
            best = Some((lag, what));
        }
    };
    for j in ctx.jobs {
        if let (Some(slot), Some(created)) = (job_slot(ctx, j), j.meta.creation_timestamp) {
            let lag = created.as_second() - slot.as_second();
            if lag >= 0 {
                consider(
                    lag,
                    format!(
                        "Job {} was created {} after its {} slot",
                        j.meta.name,
                        secs(lag),
                        ctx.show_time(slot)
                    ),
                );
            }
        }
    }
    for e in ctx.events.iter().filter(|e| e.reason == "SuccessfulCreate") {
        let Some(name) = e.message.strip_prefix("Created job ") else {
            continue;
        };
        let job = Job {
            meta: crate::model::ObjectMeta {
                name: name.trim().to_string(),
                ..Default::default()
            },
            ..Default::default()
        };
        if let (Some(slot), Some(at)) =
            (job_slot(ctx, &job), e.first_timestamp.or(e.last_timestamp))
        {
            let lag = at.as_second() - slot.as_second();
            if lag >= 0 {
                consider(
                    lag,
                    format!(
                        "SuccessfulCreate for {name} was recorded {} after its {} slot",
                        secs(lag),
                        ctx.show_time(slot)
                    ),
                );
            }
        }
    }
    best
}

/// A startingDeadlineSeconds worth suggesting: half the shortest interval, between 1 minute
/// (comfortably above routine controller lag) and 1 hour. It always keeps the controller's
/// missed-count estimate far below its 100-slot limit.
pub fn suggested_starting_deadline(ctx: &Context) -> i64 {
    interval(ctx)
        .map(|c| (c.min_seconds / 2).clamp(60, 3600))
        .unwrap_or(300)
}

/// True when CJD008 (too-many-missed) speaks for this sync: the v2 `TooManyMissedTimes` event,
/// or the v1 hard stop (`FailedNeedsStart … too many missed start time`) on a schedule that fires.
pub fn too_many_missed(ctx: &Context) -> bool {
    let rep = ctx.replay;
    if ctx.variant == ControllerVariant::V1Legacy {
        rep.t1.is_some()
            && rep
                .events
                .iter()
                .any(|e| e.reason == "FailedNeedsStart" && e.message.contains("too many missed"))
    } else {
        rep.events.iter().any(|e| e.reason == "TooManyMissedTimes")
    }
}

/// Durations (seconds) of the owned Jobs: finished ones measured to completion, running ones to
/// now, with the Job's name.
pub fn durations<'a>(ctx: &Context<'a>) -> Vec<(i64, &'a Job)> {
    ctx.jobs
        .iter()
        .filter_map(|j| crate::evidence::job_duration(j, ctx.now).map(|d| (d, *j)))
        .collect()
}

/// A whole minute (down, or up) once the value is above two minutes.
fn round_minutes(v: i64, up: bool) -> i64 {
    if v < 120 {
        v
    } else if up {
        (v + 59) / 60 * 60
    } else {
        v / 60 * 60
    }
}

/// The merge-patch fragment that sets the job template's activeDeadlineSeconds.
pub fn active_deadline_patch(seconds: i64) -> serde_json::Value {
    serde_json::json!({"spec": {"jobTemplate": {"spec": {"activeDeadlineSeconds": seconds}}}})
}

/// An activeDeadlineSeconds worth suggesting, with the reasoning: 90% of the typical interval
/// (a hung run ends before the next slot), or 3× the longest successful run when that is
/// smaller (a hang is caught sooner), but never below 1.5× the longest run.
pub fn suggested_active_deadline(ctx: &Context) -> Option<(i64, String)> {
    let iv = interval(ctx)?.typical_seconds;
    let cap = iv * 9 / 10;
    let longest = ctx
        .jobs
        .iter()
        .filter(|j| crate::evidence::job_state(j) == crate::evidence::JobState::Succeeded)
        .filter_map(|j| crate::evidence::job_duration(j, ctx.now))
        .max();
    let ivs = human_duration(iv);
    Some(match longest {
        None => (
            round_minutes(cap, false).max(1),
            format!(
                "90% of the schedule's typical interval ({ivs}); no successful run in the input to measure"
            ),
        ),
        Some(d) => {
            let three = round_minutes((d * 3).max(60), true);
            let ds = human_duration(d);
            if three <= cap {
                (
                    three,
                    format!(
                        "3 × the longest successful run seen ({ds}), below 90% of the interval ({ivs})"
                    ),
                )
            } else if cap * 2 >= d * 3 {
                (
                    round_minutes(cap, false),
                    format!(
                        "90% of the typical interval ({ivs}), which still leaves room for the longest run seen ({ds})"
                    ),
                )
            } else {
                (
                    three,
                    format!(
                        "3 × the longest run seen ({ds}); runs already take most of the {ivs} interval"
                    ),
                )
            }
        }
    })
}

/// The story of one of this CronJob's runs (`runs::story`), its slot as [`job_slot`] finds it.
pub fn story(ctx: &Context, job: &Job) -> crate::runs::RunStory {
    crate::runs::story(
        job,
        job_slot(ctx, job),
        ctx.pods_of(&job.meta.name),
        ctx.events,
        ctx.evidence,
    )
}

/// Every run's story, newest first ([`runs_newest_first`]), read once per CronJob.
pub fn stories<'c, 'a>(ctx: &'c Context<'a>) -> &'c [(&'a Job, crate::runs::RunStory)] {
    ctx.runs.get_or_init(|| {
        runs_newest_first(ctx)
            .into_iter()
            .map(|j| (j, story(ctx, j)))
            .collect()
    })
}

/// This CronJob's Jobs (owned, then manual) newest first, by slot, else creation time.
pub fn runs_newest_first<'a>(ctx: &Context<'a>) -> Vec<&'a Job> {
    let mut jobs: Vec<(&Job, Option<Timestamp>)> = ctx
        .jobs
        .iter()
        .chain(ctx.manual_jobs)
        .map(|j| (*j, job_slot(ctx, j).or(j.meta.creation_timestamp)))
        .collect();
    jobs.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| b.0.meta.name.cmp(&a.0.meta.name))
    });
    jobs.into_iter().map(|(j, _)| j).collect()
}

/// A slot as the on-call engineer says it: `11:00` on the day of `now` (in the schedule's
/// zone), else `2026-11-19 11:00`.
pub fn slot_words(ctx: &Context, t: Timestamp) -> String {
    let tz = ctx.schedule_zone();
    let (at, today) = (t.to_zoned(tz.clone()), ctx.now.to_zoned(tz.clone()));
    if at.date() == today.date() {
        at.strftime("%H:%M").to_string()
    } else {
        at.strftime("%Y-%m-%d %H:%M").to_string()
    }
}

/// A share of the schedule's typical interval, at least `floor` seconds: how late or how long
/// stuck a run may be before it is worth saying (None: the schedule has no interval, and
/// `floor` alone applies).
pub fn threshold(ctx: &Context, floor: i64, percent: i64) -> i64 {
    interval(ctx).map_or(floor, |c| floor.max(c.typical_seconds * percent / 100))
}

/// Whether the replayed release's Job controller adds `Failed` / `Complete` only once every
/// Pod of the Job is terminal, after `FailureTarget` / `SuccessCriteriaMet` (kubernetes#125510,
/// 1.31: on whenever JobPodReplacementPolicy (beta, on by default since 1.29) or JobManagedBy
/// is on; always from 1.34, where JobPodReplacementPolicy is GA). Before, a Job hitting its
/// deadline or backoff limit was Failed at once, whatever its Pods were doing.
pub fn terminal_condition_waits_for_pods(ctx: &Context) -> bool {
    ctx.replay
        .kube_version
        .features()
        .terminal_condition_waits_for_pods
}

/// The controller named by `spec.managedBy` when it is not the Job controller and the field is
/// honoured: the job template's value from 1.32 (JobManagedBy beta, on by default; GA 1.35 —
/// with the gate off the API server drops the field when a Job is created, so the built-in
/// controller runs it), or the value a Job of this CronJob carries (the API server kept it, so
/// the gate was on).
pub fn managed_elsewhere<'a>(ctx: &Context<'a>) -> Option<&'a str> {
    let honoured = ctx.replay.kube_version.features().job_managed_by_honoured;
    let other = |m: &Option<String>| -> bool {
        m.as_deref()
            .is_some_and(|m| m != crate::runs::JOB_CONTROLLER)
    };
    let template = &ctx.cron_job.spec.job_template.spec.managed_by;
    if other(template) && honoured {
        return template.as_deref();
    }
    ctx.jobs
        .iter()
        .find(|j| other(&j.spec.managed_by))
        .and_then(|j| j.spec.managed_by.as_deref())
}

/// The Job that holds a Forbid CronJob's `status.active` after this sync's reconciliation (a
/// finished Job leaves the list before the Forbid check, E15), by name; the Job this sync
/// creates is not a blocker. Without Job evidence, `status.active` as written.
pub fn forbid_blocker<'a>(ctx: &Context<'a>) -> Option<&'a str> {
    if ctx.cron_job.spec.concurrency_policy != ConcurrencyPolicy::Forbid {
        return None;
    }
    if ctx.evidence.jobs {
        let created = (ctx.replay.decision == crate::replay::Decision::Create)
            .then_some(ctx.replay.job_name.as_deref())
            .flatten();
        ctx.replay
            .active_after
            .iter()
            .map(|a| a.name.as_str())
            .find(|n| Some(*n) != created)
    } else {
        ctx.cron_job.status.active.first().map(|a| a.name.as_str())
    }
}

/// Why a deadline cannot end the Job blocking a Forbid CronJob: the Job controller has
/// already decided it (`FailureTarget` / `SuccessCriteriaMet`) and waits for its Pods, or
/// (1.31+) one of its Pods is stuck Terminating, which a deadline would leave the Job waiting
/// for all the same.
pub fn deadline_cannot_end_blocker(ctx: &Context) -> bool {
    let Some(job) = forbid_blocker(ctx).and_then(|n| ctx.job(n)) else {
        return false;
    };
    if job.is_finished() {
        return false;
    }
    crate::runs::decision(job).is_some()
        || (terminal_condition_waits_for_pods(ctx)
            && !crate::evidence::stuck_terminating(ctx.pods_of(&job.meta.name), ctx.now).is_empty())
}
