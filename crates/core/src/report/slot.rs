//! One slot in question (`explain NAME --slot 11:00`): what happened to that one run,
//! whatever it was — never due (suspend, Forbid, a deadline, a DST gap, a controller that did
//! not sync: the replay's own reasons, as the timeline gives them), started late (which
//! stage), ran more than once (which attempts), failed (why), still running, or not started.
//! This is how the question is asked at 3 a.m.

use jiff::Timestamp;
use jiff::civil::Time;
use serde::Serialize;

use super::timeline::{self, SlotStatus};
use super::{Index, Options, gather};
use crate::model::{CronJob, Snapshot};
use crate::runs::{Outcome, RunKind};
use crate::text::human_duration;

/// The slot asked about: an instant, or a wall-clock time meaning its most recent occurrence
/// (at or before now) in the schedule's zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotQuery {
    At(Timestamp),
    Latest(Time),
}

impl SlotQuery {
    /// `2026-11-20T11:00:00Z`, `2026-11-20T11:00Z`, `2026-11-20T11:00` (read as UTC), or
    /// `11:00` / `11:00:30`.
    pub fn parse(s: &str) -> Result<SlotQuery, NotATime> {
        let s = s.trim();
        if let Ok(t) = s.parse::<Timestamp>() {
            return Ok(SlotQuery::At(t));
        }
        if let Ok(dt) = s.parse::<jiff::civil::DateTime>()
            && let Ok(z) = dt.to_zoned(jiff::tz::TimeZone::UTC)
        {
            return Ok(SlotQuery::At(z.timestamp()));
        }
        if let Ok(t) = s.parse::<Time>() {
            return Ok(SlotQuery::Latest(t));
        }
        Err(NotATime(s.to_string()))
    }
}

/// A `--slot` value that is neither an instant nor a time of day (the trimmed text given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a time: give an instant (2026-11-20T11:00:00Z; without an offset it is UTC) or a time of day (11:00: its most recent occurrence in the schedule's zone)"
)]
pub struct NotATime(pub String);

/// What happened to one slot's run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotAnswer {
    pub namespace: String,
    pub name: String,
    /// The instant asked about, resolved.
    pub slot: Timestamp,
    /// Whether the schedule fires at that instant.
    pub is_slot: bool,
    /// The timeline's status for it (`next` for a slot still to come).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<SlotStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
    /// One line: what happened to the run and why ("the 2026-11-20 02:00 UTC run succeeded
    /// on its second attempt: …").
    pub answer: String,
    /// The evidence, one line each: the stages with their times, each attempt.
    pub details: Vec<String>,
    pub start_delay_seconds: Option<i64>,
    pub attempts: Option<u32>,
    /// Whether the run did what a run should (ran, or runs now): false for a run that failed,
    /// was skipped or missed, or has not started.
    pub ok: bool,
    /// The answer comes from the record a monitor kept of the run (its Job is gone:
    /// `retained_slots::answer_slot`); left out (`false`) otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retained: bool,
    /// The zone times are shown in (the schedule's).
    #[serde(skip)]
    pub zone: jiff::tz::TimeZone,
}

/// Answer `query` for `cj` (one CronJob of `snapshot`) at `opts.now`.
pub fn answer(snapshot: &Snapshot, cj: &CronJob, opts: &Options, query: SlotQuery) -> SlotAnswer {
    let index = Index::new(snapshot);
    let g = gather(cj, &index, snapshot.evidence, opts);
    let ctx = g.context(cj, snapshot.evidence, opts);
    let zone = ctx.schedule_zone().clone();
    let show = |t: Timestamp| crate::text::show_time(t, &zone);
    let (slot, shifted) = match query {
        SlotQuery::At(t) => (t, None),
        SlotQuery::Latest(time) => latest(time, opts.now, &zone),
    };
    let mut out = SlotAnswer {
        namespace: g.ns.clone(),
        name: cj.meta.name.clone(),
        slot,
        is_slot: false,
        status: None,
        job: None,
        answer: String::new(),
        details: Vec::new(),
        start_delay_seconds: None,
        attempts: None,
        ok: true,
        retained: false,
        zone: zone.clone(),
    };
    if let Some(note) = shifted {
        out.details.push(note);
    }
    let when = show(slot);
    // The replay stops early for a suspended CronJob (and never reaches the schedule); the
    // slots are the schedule's all the same.
    let own;
    let eff = match ctx.replay.effective() {
        Some(e) => e,
        None => match crate::replay::EffectiveSchedule::for_cron_job(
            cj,
            opts.version,
            opts.controller_zone,
        ) {
            Ok(e) => {
                own = e;
                &own
            }
            Err(_) => {
                out.answer = format!(
                    "no run is scheduled at {when}, nor at any time: the controller cannot use the schedule or its time zone (the findings of `explain` without --slot say why)"
                );
                out.ok = false;
                return out;
            }
        },
    };
    let on_schedule = Timestamp::from_second(slot.as_second() - 1)
        .ok()
        .and_then(|b| eff.next_after(b))
        == Some(slot);
    out.is_slot = on_schedule;
    if !on_schedule {
        let next = eff.next_after(slot);
        let prev = eff.last_slots(slot, 1).last().copied();
        let around = [
            prev.map(|p| format!("the one before was {}", show(p))),
            next.map(|n| {
                format!(
                    "the next {} {}",
                    if n > opts.now { "is" } else { "was" },
                    show(n)
                )
            }),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ");
        out.answer = format!(
            "no run is scheduled at {when}: {}",
            if around.is_empty() {
                "this schedule never fires".to_string()
            } else {
                around
            }
        );
        // A time the schedule names that a DST gap removed is not "on schedule" either:
        // the dst-gap finding, when there is one, says so.
        return out;
    }
    if slot > opts.now {
        out.status = Some(SlotStatus::Next);
        out.answer = format!(
            "the {when} run is not due yet: in {}",
            human_duration((slot - opts.now).get_seconds())
        );
        return out;
    }
    let cron = ctx.cron_job;
    if timeline::never_applied(&ctx) {
        out.ok = false;
        out.answer = format!(
            "the {when} run was no one's to run: this manifest was never applied (no creationTimestamp, no status)"
        );
        return out;
    }
    if let Some(c) = cron.meta.creation_timestamp.filter(|c| slot <= *c) {
        out.answer = format!(
            "the {when} slot came before the CronJob was created ({})",
            show(c)
        );
        return out;
    }
    // The replay stopped before the schedule (suspended, being deleted): no timeline, so
    // the slot's Job is looked up directly and the stop is the reason for a slot without one.
    if ctx.replay.effective().is_none() {
        let Some(job) = timeline::find_job(&ctx, slot) else {
            let ran = cron.status.last_schedule_time.is_some_and(|l| slot <= l);
            out.ok = ran;
            out.answer = if ran {
                format!(
                    "the {when} run was started (status.lastScheduleTime is at or after it), but its Job is not in the input: pruned by history limits or TTL"
                )
            } else {
                format!("the {when} run was not started: {}", stop_reason(&ctx))
            };
            return out;
        };
        return run_answer(out, &ctx, job, slot, opts.now, show);
    }
    // The timeline from this slot to now gives its status and the replay's reason.
    let count = timeline_slots_until(&ctx, opts.now)
        .iter()
        .rev()
        .position(|t| *t <= slot)
        .map_or(timeline::MAX_SLOTS, |i| i + 1);
    let entry = timeline::build(&ctx, count)
        .into_iter()
        .find(|s| s.time == slot && !s.manual);
    let Some(entry) = entry else {
        out.answer = format!(
            "too far back: more than {} slots before now, past what is read",
            timeline::MAX_SLOTS
        );
        return out;
    };
    out.status = Some(entry.status);
    out.job = entry.job.clone();
    let job = entry.job.as_deref().and_then(|name| ctx.job(name));
    let Some(job) = job else {
        // Due now: the controller starts it at its next sync, nothing is wrong yet.
        out.ok = entry.status == SlotStatus::Due;
        out.answer = match entry.status {
            SlotStatus::Due => format!("the {when} run is {}", entry.note),
            _ => format!("the {when} run was not started: {}", entry.note),
        };
        return out;
    };
    run_answer(out, &ctx, job, slot, opts.now, show)
}

/// Why the replay stopped before the schedule, for a slot that got no Job.
fn stop_reason(ctx: &crate::rules::Context) -> &'static str {
    use crate::replay::Decision;
    match ctx.replay.decision {
        Decision::Suspended => "the CronJob is suspended (spec.suspend)",
        Decision::BeingDeleted => "the CronJob is being deleted",
        _ => "the controller cannot use the schedule or its time zone",
    }
}

/// The answer for a slot that has its Job: the run's story.
fn run_answer(
    mut out: SlotAnswer,
    ctx: &crate::rules::Context,
    job: &crate::model::Job,
    slot: Timestamp,
    now: Timestamp,
    show: impl Fn(Timestamp) -> String,
) -> SlotAnswer {
    let when = show(slot);
    out.job = Some(job.meta.name.clone());
    let story = crate::runs::story(
        job,
        Some(slot),
        ctx.pods_of(&job.meta.name),
        ctx.events,
        ctx.evidence,
    );
    out.start_delay_seconds = story.start_delay();
    out.attempts = story.attempt_count;
    out.details = story.stage_lines(&show);
    for a in &story.attempts {
        let index = a.index.map(|x| format!(" [index {x}]")).unwrap_or_default();
        let how = if a.in_place {
            ", restarted in place"
        } else {
            ""
        };
        out.details.push(format!(
            "attempt: pod {}{index}{how}: {}",
            a.pod,
            a.describe()
        ));
    }
    if story.pruned_failures > 0 {
        out.details.push(format!(
            "{} failed pod(s) the Job counted are no longer in the input",
            story.pruned_failures
        ));
    }
    for u in &story.unknown {
        out.details
            .push(format!("{u}: the stages they record are unknown"));
    }
    let late = crate::rules::late_start::lateness(ctx, &story).map(|(d, stage)| match stage {
        Some(l) => format!("{} late: {}", human_duration(d), l.describe()),
        None => format!("{} late", human_duration(d)),
    });
    let nth = |n: u32| match n {
        2 => "second".to_string(),
        3 => "third".to_string(),
        n => format!("{n}th"),
    };
    let first_failure = story
        .failed_attempts()
        .next()
        .map(|a| format!("the first {}", a.describe()));
    let whose = match &story.kind {
        RunKind::Suspended => " (the Job is suspended: whoever suspended it decides when it runs)",
        RunKind::ManagedElsewhere(_) => " (another controller runs this Job: it decides when)",
        _ => "",
    };
    let n = story.attempt_count.unwrap_or(1);
    // Decided but not finished (1.31+): the outcome is known; the CronJob controller keeps the
    // Job active (it blocks Forbid) until its Pods are gone.
    let pending = (!job.is_finished())
        .then(|| crate::runs::decision(job))
        .flatten()
        .map(|(kind, reason)| {
            let reason = if reason.is_empty() { kind } else { reason };
            (
                kind == "FailureTarget",
                format!(
                    "{reason}; the Job ends, and stops counting as active, once its Pods are gone"
                ),
            )
        });
    let (ok, what) = if let Some((failed, why)) = pending {
        if failed {
            (false, format!("failed: {why}"))
        } else {
            (true, format!("succeeded: {why}"))
        }
    } else if let Some(stuck) = &story.stuck {
        (
            false,
            format!(
                "has not started after {}: {}",
                human_duration((now - slot).get_seconds().max(0)),
                stuck.describe()
            ),
        )
    } else if job.is_failed() {
        let reason = crate::evidence::failure_reason(job).unwrap_or("Failed");
        let last = story.attempts.iter().rev().find_map(|a| match &a.outcome {
            Outcome::Failed { .. } | Outcome::Disrupted { .. } => Some(a.describe()),
            _ => None,
        });
        let tries = if n > 1 {
            format!(" after {n} attempts")
        } else {
            String::new()
        };
        (
            false,
            match last {
                Some(l) => format!("failed{tries}: {reason} (the last attempt {l})"),
                None => format!("failed{tries}: {reason}"),
            },
        )
    } else {
        let mut what = if job.is_succeeded() {
            "succeeded".to_string()
        } else if story.kind == RunKind::Suspended {
            // Not running, whatever its age (1.36+ clears startTime on suspension).
            match crate::evidence::job_suspended(job).flatten() {
                Some(at) => format!("is suspended since {}", ctx.show_time(at)),
                None => "is suspended".to_string(),
            }
        } else {
            "is running".to_string()
        };
        if n > 1 {
            let on = if job.is_succeeded() { "on" } else { "in" };
            what.push_str(&match &first_failure {
                Some(f) => format!(" {on} its {} attempt ({f})", nth(n)),
                None => format!(" {on} its {} attempt", nth(n)),
            });
        }
        if let Some(l) = late {
            what.push_str(&format!(", {l}"));
        }
        (true, what)
    };
    out.ok = ok;
    out.answer = format!("the {when} run {what}{whose}");
    out
}

/// The schedule's slots at or before `until` (at most [`timeline::MAX_SLOTS`] of them), oldest first.
fn timeline_slots_until(ctx: &crate::rules::Context, until: Timestamp) -> Vec<Timestamp> {
    let Some(eff) = ctx.replay.effective() else {
        return Vec::new();
    };
    eff.last_slots(until, timeline::MAX_SLOTS)
}

/// The most recent instant at or before `now` whose wall clock in `zone` reads `time`; a time
/// a DST gap skips that day is taken as the instant after the gap, and said so.
fn latest(time: Time, now: Timestamp, zone: &jiff::tz::TimeZone) -> (Timestamp, Option<String>) {
    let today = now.to_zoned(zone.clone()).date();
    for day in [today, today.yesterday().unwrap_or(today)] {
        let Ok(z) = day.to_datetime(time).to_zoned(zone.clone()) else {
            continue;
        };
        if z.timestamp() <= now {
            let note = (z.time() != time).then(|| {
                format!(
                    "{} does not exist on {day} in {} (a DST gap): read as {}",
                    time.strftime("%H:%M"),
                    zone.iana_name().unwrap_or("the schedule's zone"),
                    z.strftime("%H:%M %Z")
                )
            });
            return (z.timestamp(), note);
        }
    }
    (now, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Job the Job controller has decided (FailureTarget, 1.31+) while its Pod never
    /// started is a failed run waiting for its Pods, not a run stuck before starting.
    #[test]
    fn a_decided_job_is_failed_not_stuck() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: ops, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "30 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T11:30:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: report-29919570, namespace: ops, uid: j1, creationTimestamp: "2026-11-20T11:30:01Z", ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: report, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T11:30:01Z", active: 1, conditions: [{type: FailureTarget, status: "True", reason: DeadlineExceeded}]}
---
apiVersion: v1
kind: Pod
metadata: {name: report-29919570-a, namespace: ops, labels: {job-name: report-29919570}}
status:
  phase: Pending
  containerStatuses:
  - {name: c, image: c:1, state: {waiting: {reason: ImagePullBackOff}}}
"#;
        let (snapshot, _) = crate::source::parse_bytes("t.yaml", yaml.as_bytes()).into_snapshot();
        let opts = Options::utc(
            "2026-11-20T12:00:00Z".parse().unwrap(),
            crate::replay::KubeVersion::NEWEST,
            8,
        );
        let q = SlotQuery::Latest(Time::constant(11, 30, 0, 0));
        let a = answer(&snapshot, &snapshot.cron_jobs[0], &opts, q);
        assert!(!a.ok);
        assert_eq!(
            a.answer,
            "the 2026-11-20 11:30 UTC run failed: DeadlineExceeded; the Job ends, and stops counting as active, once its Pods are gone"
        );
        let r = crate::report::build(&snapshot, Vec::new(), &opts);
        assert!(
            !r.cron_jobs[0]
                .findings
                .iter()
                .any(|f| f.slug == "run-not-started"),
            "{:?}",
            r.cron_jobs[0].findings
        );
    }

    #[test]
    fn a_query_is_an_instant_or_a_time_of_day() {
        assert_eq!(
            SlotQuery::parse("2026-11-20T11:00:00Z"),
            Ok(SlotQuery::At("2026-11-20T11:00:00Z".parse().unwrap()))
        );
        assert_eq!(
            SlotQuery::parse("2026-11-20T11:00"),
            Ok(SlotQuery::At("2026-11-20T11:00:00Z".parse().unwrap()))
        );
        assert_eq!(
            SlotQuery::parse("11:00"),
            Ok(SlotQuery::Latest(Time::constant(11, 0, 0, 0)))
        );
        assert!(
            SlotQuery::parse("eleven")
                .unwrap_err()
                .to_string()
                .contains("is not a time")
        );
    }

    #[test]
    fn a_time_of_day_is_its_latest_occurrence_and_a_gap_is_said() {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let utc = jiff::tz::TimeZone::UTC;
        assert_eq!(
            latest(Time::constant(11, 0, 0, 0), now, &utc).0,
            "2026-11-20T11:00:00Z".parse::<Timestamp>().unwrap()
        );
        assert_eq!(
            latest(Time::constant(13, 0, 0, 0), now, &utc).0,
            "2026-11-19T13:00:00Z".parse::<Timestamp>().unwrap()
        );
        let berlin = jiff::tz::TimeZone::get("Europe/Berlin").unwrap();
        let gap_day: Timestamp = "2027-03-28T12:00:00Z".parse().unwrap();
        let (t, note) = latest(Time::constant(2, 30, 0, 0), gap_day, &berlin);
        assert_eq!(t, "2027-03-28T01:30:00Z".parse::<Timestamp>().unwrap());
        assert!(note.unwrap().contains("does not exist on 2027-03-28"));
    }
}
