//! What the controller will do when a CronJob is resumed, computed by replaying its next sync
//! with `suspend: false` at "now" — not guessed. The trap it exposes: the docs suggest missed
//! Jobs are "scheduled immediately", but the controller starts only ONE, the latest missed slot,
//! and only if startingDeadlineSeconds allows; the window estimate may even skip it.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::model::{CronJob, Job};
use crate::replay::{Decision, KubeVersion, MissedSchedules, Replay, ReplayInput, replay};
use crate::text::{human_duration, show_time};

/// What resuming now leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatchUp {
    /// One Job starts at once, for this slot; `older` missed slots never run.
    Runs {
        slot: Timestamp,
        job_name: String,
        older: u64,
    },
    /// The latest missed slot is older than startingDeadlineSeconds: no catch-up.
    TooLate {
        slot: Timestamp,
        deadline_seconds: i64,
    },
    /// The controller's window estimate does not find the missed slot (uneven schedule).
    SkippedByEstimate { slot: Timestamp },
    /// Forbid with a Job still active: the catch-up waits for it.
    Blocked { active: Vec<String> },
    /// Nothing was missed (or `--skip-missed` marked it done).
    NothingMissed,
    /// The schedule or time zone stops the controller before it looks at slots.
    CannotSchedule { why: String },
}

#[derive(Clone, Debug)]
pub struct UnsuspendPreview {
    pub catch_up: CatchUp,
    /// The controller records TooManyMissedTimes in that sync.
    pub too_many_missed: bool,
    /// The first regular run after the catch-up (or after now).
    pub next_regular: Option<Timestamp>,
    /// With `skip_missed`: the slot lastScheduleTime is moved to.
    pub skip_to: Option<Timestamp>,
    pub replay: Replay,
}

/// Replay the sync that follows `spec.suspend: false` at `now`. With `skip_missed`, first move
/// lastScheduleTime to the most recent slot at or before now, as `unsuspend --skip-missed` does.
pub fn preview_unsuspend(
    cj: &CronJob,
    jobs: Option<&[Job]>,
    now: Timestamp,
    controller_zone: &TimeZone,
    version: KubeVersion,
    skip_missed: bool,
) -> UnsuspendPreview {
    let mut resumed = cj.clone();
    resumed.spec.suspend = false;
    let input = |c: &CronJob| {
        replay(&ReplayInput {
            cron_job: c,
            jobs,
            now,
            controller_zone,
            version,
        })
    };
    let mut skip_to = None;
    if skip_missed {
        let probe = input(&resumed);
        if let Some(slot) = probe
            .effective()
            .and_then(|e| e.last_slots(now, 1).pop())
            .filter(|slot| resumed.status.last_schedule_time.is_none_or(|l| l < *slot))
        {
            resumed.status.last_schedule_time = Some(slot);
            skip_to = Some(slot);
        }
    }
    let r = input(&resumed);
    let catch_up = match r.decision {
        Decision::Create => CatchUp::Runs {
            slot: r.scheduled_time.unwrap_or(now),
            job_name: r.job_name.clone().unwrap_or_default(),
            older: r.true_missed_count.saturating_sub(1),
        },
        Decision::MissedDeadline => CatchUp::TooLate {
            slot: r.due_ignoring_deadline.unwrap_or(now),
            deadline_seconds: cj.spec.starting_deadline_seconds.unwrap_or_default(),
        },
        Decision::ForbidBlocked => CatchUp::Blocked {
            active: r.active_after.iter().map(|a| a.name.clone()).collect(),
        },
        Decision::NothingDue if r.window_miss => CatchUp::SkippedByEstimate {
            slot: r.true_most_recent.unwrap_or(now),
        },
        Decision::NothingDue | Decision::AlreadyProcessed => CatchUp::NothingMissed,
        d => CatchUp::CannotSchedule {
            why: serde_json::to_value(d)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
        },
    };
    let next_regular = r.next_schedule_times(1).first().copied();
    UnsuspendPreview {
        catch_up,
        too_many_missed: r.missed_schedules == MissedSchedules::Many
            && r.events.iter().any(|e| e.reason == "TooManyMissedTimes"),
        next_regular,
        skip_to,
        replay: r,
    }
}

/// The preview as bullet lines, in the schedule's zone.
pub fn describe(p: &UnsuspendPreview, cj: &CronJob, now: Timestamp, tz: &TimeZone) -> Vec<String> {
    let mut out = Vec::new();
    let sds = cj.spec.starting_deadline_seconds;
    match &p.catch_up {
        CatchUp::Runs { slot, job_name, older } => {
            out.push(format!(
                "the controller starts ONE catch-up run immediately, for the slot {} (Job {job_name}, {} late)",
                show_time(*slot, tz),
                human_duration(now.as_second() - slot.as_second())
            ));
            let why = match sds {
                None => "startingDeadlineSeconds is unset, so any missed slot qualifies".to_string(),
                Some(s) => format!("it is within startingDeadlineSeconds ({s}s)"),
            };
            if *older > 0 {
                out.push(format!("({why}; the {older} older missed slot{} never run)", if *older == 1 { "" } else { "s" }));
            } else {
                out.push(format!("({why})"));
            }
        }
        CatchUp::TooLate { slot, deadline_seconds } => out.push(format!(
            "no catch-up run: the latest missed slot, {}, is older than startingDeadlineSeconds ({deadline_seconds}s)",
            show_time(*slot, tz)
        )),
        CatchUp::SkippedByEstimate { slot } => out.push(format!(
            "no catch-up run, silently: the controller's estimate misses the {} slot on this uneven schedule",
            show_time(*slot, tz)
        )),
        CatchUp::Blocked { active } => out.push(format!(
            "no run yet: concurrencyPolicy Forbid and {} still active",
            active.join(", ")
        )),
        CatchUp::NothingMissed => match p.skip_to {
            Some(s) => out.push(format!(
                "no catch-up run: status.lastScheduleTime is first moved to {}, so the controller treats it as done",
                show_time(s, tz)
            )),
            None => out.push("no catch-up run: no slot was missed".to_string()),
        },
        CatchUp::CannotSchedule { why } => out.push(format!("nothing will run: the controller stops at {why}")),
    }
    if p.too_many_missed {
        out.push(
            "the controller also records Warning TooManyMissedTimes (more than 100 missed slots)"
                .into(),
        );
    }
    match p.next_regular {
        Some(t) => out.push(format!(
            "then the regular schedule: next run {}",
            show_time(t, tz)
        )),
        None => out.push("then no further run: the schedule never fires again".into()),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cj(yaml: &str) -> CronJob {
        crate::source::parse_text("t.yaml", yaml)
            .cron_jobs
            .remove(0)
    }

    const SUSPENDED: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}
status: {lastScheduleTime: "2024-01-01T08:00:00Z"}
"#;

    fn now() -> Timestamp {
        "2024-01-01T11:20:00Z".parse().unwrap()
    }

    /// Spec E23: resumed at 11:20 → one Job for 11:00 at once; 09:00 and 10:00 never run.
    #[test]
    fn resume_starts_only_the_latest_missed_slot() {
        let p = preview_unsuspend(
            &cj(SUSPENDED),
            None,
            now(),
            &TimeZone::UTC,
            KubeVersion::NEWEST,
            false,
        );
        assert_eq!(
            p.catch_up,
            CatchUp::Runs {
                slot: "2024-01-01T11:00:00Z".parse().unwrap(),
                job_name: "cj-28401780".into(),
                older: 2
            }
        );
        assert_eq!(
            p.next_regular,
            Some("2024-01-01T12:00:00Z".parse().unwrap())
        );
        let lines = describe(&p, &cj(SUSPENDED), now(), &TimeZone::UTC);
        assert!(lines[0].starts_with(
            "the controller starts ONE catch-up run immediately, for the slot 2024-01-01 11:00 UTC"
        ));
        assert!(lines[1].contains("the 2 older missed slots never run"));
    }

    /// Spec E24: with startingDeadlineSeconds 600 the 11:00 slot is too old at 11:20.
    #[test]
    fn deadline_prevents_the_catch_up() {
        let c = cj(&SUSPENDED.replace(
            "  suspend: true",
            "  suspend: true\n  startingDeadlineSeconds: 600",
        ));
        let p = preview_unsuspend(&c, None, now(), &TimeZone::UTC, KubeVersion::NEWEST, false);
        assert_eq!(
            p.catch_up,
            CatchUp::TooLate {
                slot: "2024-01-01T11:00:00Z".parse().unwrap(),
                deadline_seconds: 600
            }
        );
    }

    #[test]
    fn skip_missed_marks_the_latest_slot_done() {
        let p = preview_unsuspend(
            &cj(SUSPENDED),
            None,
            now(),
            &TimeZone::UTC,
            KubeVersion::NEWEST,
            true,
        );
        assert_eq!(p.skip_to, Some("2024-01-01T11:00:00Z".parse().unwrap()));
        assert_eq!(p.catch_up, CatchUp::NothingMissed);
        assert_eq!(
            p.next_regular,
            Some("2024-01-01T12:00:00Z".parse().unwrap())
        );
    }

    /// Spec E12: a weekday schedule resumed on Sunday: the estimate misses Friday.
    #[test]
    fn uneven_schedule_estimate_skips_the_catch_up() {
        let c = cj(&SUSPENDED
            .replace("0 * * * *", "0 9 * * 1-5")
            .replace("2024-01-01T08:00:00Z", "2024-01-01T09:00:00Z"));
        let p = preview_unsuspend(
            &c,
            None,
            "2024-01-07T12:00:00Z".parse().unwrap(),
            &TimeZone::UTC,
            KubeVersion::NEWEST,
            false,
        );
        assert_eq!(
            p.catch_up,
            CatchUp::SkippedByEstimate {
                slot: "2024-01-05T09:00:00Z".parse().unwrap()
            }
        );
    }

    /// Spec E4: 108 missed hourly slots → the latest runs, with TooManyMissedTimes.
    #[test]
    fn too_many_missed_is_announced() {
        let c = cj(&SUSPENDED.replace("2024-01-01T08:00:00Z", "2024-01-01T00:00:00Z"));
        let p = preview_unsuspend(
            &c,
            None,
            "2024-01-05T12:34:00Z".parse().unwrap(),
            &TimeZone::UTC,
            KubeVersion::NEWEST,
            false,
        );
        assert!(p.too_many_missed);
        assert!(
            matches!(p.catch_up, CatchUp::Runs { ref job_name, .. } if job_name == "cj-28407600")
        );
    }
}
