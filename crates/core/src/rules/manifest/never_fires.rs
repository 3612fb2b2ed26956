//! CJD004 never-fires: robfig accepts the schedule but `Next` finds no run within its 5-year
//! search window (30 February, an empty list `,`), or finds one and then none (leap days near
//! 2100). The controller needs two consecutive runs to compute the gap between slots; when one
//! is Go's zero time it records `InvalidSchedule` "… time difference between two schedules is
//! less than 1 second" and never starts a Job — the API server accepts such schedules.

use jiff::{SignedDuration, Timestamp};
use schedule::{STAR_BIT, ScheduleKind, SpecSchedule};

use crate::cron::values;
use crate::replay::ControllerVariant;
use crate::rules::{Context, Finding, Rule, Severity, schedule_memo};
use crate::text::{MONTHS, and_list};

pub static RULE: Rule = Rule {
    id: "CJD004",
    slug: "never-fires",
    severity: Severity::Error,
    summary: "The schedule parses but names no time that exists, so the controller never runs it.",
    explanation: "robfig/cron searches at most five years ahead. A schedule for a date that \
never exists (`0 0 30 2 *`, `59 23 31 2 *`, day 31 in April) or with a field that selects \
nothing (`,`) has no next run; the API server accepts it, and the controller records Warning \
`InvalidSchedule` `invalid schedule: <schedule> : time difference between two schedules is less \
than 1 second` (1.21–1.24: `… schedules less than 1 second`) and never creates a Job. Because \
the controller needs the run *after* the due one too, a schedule whose next-but-one run lies \
beyond the window (`0 0 29 2 *` from 2096 on: 2100 is not a leap year) stops one run early. The \
legacy controller (≤1.20) reported `FailedNeedsStart` instead.",
    remediation: "Pick a date that exists: for \"the last day of the month\" run on day 1 at \
00:00 (`0 0 1 * *`) and process the previous month, or run on days 28–31 and exit early unless \
tomorrow is the 1st. To pause a CronJob use `spec.suspend: true`, not an impossible date.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: month-end, namespace: finance}
spec:
  schedule: "0 0 30 2 *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: close, image: close:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: month-end, namespace: finance}
spec:
  schedule: "0 0 28 2 *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: close, image: close:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

const MAX_DAYS: [u32; 13] = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/// Why no time matches, in words.
pub(super) fn reason(s: &SpecSchedule) -> String {
    let (minute, hour, dom, month, dow) = (
        values(s.minute, 0, 59),
        values(s.hour, 0, 23),
        values(s.dom, 1, 31),
        values(s.month, 1, 12),
        values(s.dow, 0, 6),
    );
    for (v, name) in [(&minute, "minute"), (&hour, "hour"), (&month, "month")] {
        if v.is_empty() {
            return format!("the {name} field selects no value");
        }
    }
    let star = s.dom & STAR_BIT != 0 || s.dow & STAR_BIT != 0;
    if dom.is_empty() && (star || dow.is_empty()) {
        return "the day-of-month field selects no day".into();
    }
    if dow.is_empty() && star {
        return "the day-of-week field selects no day".into();
    }
    if star && dow.len() == 7 {
        let days: Vec<String> = dom.iter().map(u32::to_string).collect();
        let months: Vec<String> = month
            .iter()
            .map(|m| MONTHS[*m as usize].to_string())
            .collect();
        let short = month
            .iter()
            .all(|m| dom.iter().all(|d| *d > MAX_DAYS[*m as usize]));
        if short {
            return format!(
                "day {} never occurs in {}",
                and_list(&days).replace(" and ", " or "),
                and_list(&months).replace(" and ", " or ")
            );
        }
    }
    "no such time exists within robfig's 5-year search window".into()
}

fn event(ctx: &Context, raw: &str) -> String {
    let f = ctx.replay.kube_version.features();
    if f.variant == ControllerVariant::V1Legacy {
        return "Warning FailedNeedsStart Cannot determine if job needs to be started: too many missed start time (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew".into();
    }
    let is = if f.gap_error_has_is { "is " } else { "" };
    format!(
        "Warning InvalidSchedule invalid schedule: {raw} : time difference between two schedules {is}less than 1 second"
    )
}

/// Where the chain of runs from "now" breaks, if it does within ten years.
#[derive(Clone, Copy)]
enum Chain {
    /// No next run at all.
    Never,
    /// The last run before a missing successor.
    EndsAt(Timestamp),
    Unbroken,
}

thread_local! {
    static CHAINS: crate::memo::Map<schedule_memo::Key, schedule_memo::Entry<Chain>> =
        schedule_memo::map();
}

fn chain(sched: &schedule::Schedule, local: &jiff::tz::TimeZone, now: Timestamp) -> Chain {
    let Some(first) = sched.next(now, local) else {
        return Chain::Never;
    };
    // A run whose successor is missing is never started (the gap cannot be computed). Only
    // worth saying while it is near: the leap-day case around 2096.
    let horizon = now + SignedDuration::from_hours(24 * 366 * 10);
    let mut t: Timestamp = first;
    for _ in 0..64 {
        if t > horizon {
            break;
        }
        let Some(next) = sched.next(t, local) else {
            return Chain::EndsAt(t);
        };
        t = next;
    }
    Chain::Unbroken
}

fn check(ctx: &Context) -> Vec<Finding> {
    let (Some(sched), Some(raw)) = (ctx.parsed(), ctx.cron_job.spec.schedule.as_deref()) else {
        return Vec::new();
    };
    let ScheduleKind::Spec(spec) = &sched.kind else {
        return Vec::new();
    };
    // Shared across CronJobs with one schedule (`schedule_memo`).
    let local = ctx.controller_zone;
    match schedule_memo::shared(&CHAINS, ctx, || chain(sched, local, ctx.now)) {
        Chain::Never => {
            let why = reason(spec);
            vec![
                Finding::new(&RULE, format!("{raw:?} never fires: {why}; the controller reports InvalidSchedule and never starts a Job."))
                    .field("spec.schedule")
                    .headline(format!("never runs: {why} ({raw:?} has no next run)"))
                    .evidence(format!(
                        "controller (each sync{}, no requeue): {}",
                        if ctx.cron_job.spec.suspend { " once resumed" } else { "" },
                        event(ctx, raw)
                    ))
                    .fix("Use a date that exists (e.g. \"0 0 1 * *\" for the start of each month), or suspend the CronJob instead of giving it an impossible schedule."),
            ]
        }
        Chain::EndsAt(t) => {
            let when = ctx.show_time(t);
            vec![
                Finding::new(
                    &RULE,
                    format!("{raw:?} runs for the last time before {when}: robfig finds no run within 5 years after {when}, so from then on the controller cannot compute the gap between runs and reports InvalidSchedule (the {when} run itself does not start)."),
                )
                .severity(Severity::Warning)
                .field("spec.schedule")
                .evidence(format!("controller: {}", event(ctx, raw)))
                .fix("Choose a date that recurs at least every 5 years."),
            ]
        }
        Chain::Unbroken => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    fn with_schedule(s: &str) -> String {
        RULE.quiet_on.replace("\"0 0 28 2 *\"", &format!("{s:?}"))
    }

    #[test]
    fn impossible_dates_and_empty_lists() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "never-fires");
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            r#""0 0 30 2 *" never fires: day 30 never occurs in February; the controller reports InvalidSchedule and never starts a Job."#
        );
        // Spec E.1 P10: the exact event text.
        assert_eq!(
            f[0].evidence,
            [
                "controller (each sync, no requeue): Warning InvalidSchedule invalid schedule: 0 0 30 2 * : time difference between two schedules is less than 1 second"
            ]
        );
        let r = run(&with_schedule("59 23 31 2,4 *"), RULE.example_now);
        assert!(
            findings(&r, "never-fires")[0]
                .message
                .contains("day 31 never occurs in February or April")
        );
        let r = run(&with_schedule(", * * * *"), RULE.example_now);
        assert!(
            findings(&r, "never-fires")[0]
                .message
                .contains("the minute field selects no value")
        );
        let r = run(&with_schedule("0 0 , * *"), RULE.example_now);
        assert!(
            findings(&r, "never-fires")[0]
                .message
                .contains("day-of-month field selects no day")
        );
    }

    #[test]
    fn leap_day_is_fine_now_and_stops_near_2100() {
        assert!(
            findings(
                &run(&with_schedule("0 0 29 2 *"), RULE.example_now),
                "never-fires"
            )
            .is_empty()
        );
        // Spec A.6/B.4: after 2096-02-29 the next 29 February (2104) is beyond the window, so
        // t2 is zero when 2096-02-29 is due: the 2092 run is the last one that starts.
        let r = run(&with_schedule("0 0 29 2 *"), "2093-01-01T00:00:00Z");
        let f = findings(&r, "never-fires");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("last time before 2096-02-29 00:00 UTC"),
            "{}",
            f[0].message
        );
    }
}
