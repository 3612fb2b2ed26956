//! One CronJob's diagnosis, reduced to what the monitor keeps between changes: its health
//! and headline (the status line), its findings (the `finding` series), the numbers of the
//! other series, and when to look again if nothing in the cluster changes. Pure: the
//! snapshot and "now" come in, nothing is read from outside. The monitor (`src/monitor`)
//! keeps the summaries and turns them into series and lines.

use std::collections::HashSet;

use crate::model::{Job, Snapshot};
use crate::report::{self, CronJobReport, Health, Options, Slot};
use crate::retained::RetainedRun;
use jiff::Timestamp;

/// Missed slots counted at most (the series says "this many or more").
const MISSED_CAP: usize = 10_000;

/// The timeline slots each diagnosis builds, for the last run's series. The last run is the
/// most recent due slot's (the one `run-not-started` and `late-start` judge); the slot before
/// it covers the time between a slot coming due and its Job appearing (the controller's sync,
/// or a slot the controller missed, which `missed_runs` tells), so the previous run's numbers
/// do not vanish then. Older runs, behind more missed or skipped slots, are no longer "the
/// last run" worth alerting on. Two slots keep the cost to at most two run stories per
/// diagnosis (scan's default timeline builds eight).
pub const LAST_RUN_SLOTS: usize = 2;

/// The scheduled-time annotation the controller sets on the Jobs it creates (1.28+).
use crate::model::SCHEDULED_ANNOTATION;

#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub health: Health,
    pub headline: String,
    /// (rule slug, severity) of every current finding.
    pub findings: Vec<(&'static str, &'static str)>,
    /// The cause of the status, as the headline tells it ([`report::cause::of_status`]):
    /// a rule slug, `controller` or `none`.
    pub cause: &'static str,
    /// The cause of [`Summary::missed_runs`] ([`report::cause::of_missed`]): a rule
    /// slug, `controller`, `unknown`, or `none` when nothing was missed.
    pub missed_cause: &'static str,
    /// Why the next slot is predicted to produce no run (`crate::rules::next_run_risk`),
    /// the reasons' names; empty when nothing shows it.
    pub at_risk: Vec<&'static str>,
    pub next_run: Option<Timestamp>,
    pub last_schedule: Option<Timestamp>,
    pub last_success: Option<Timestamp>,
    pub missed_runs: usize,
    /// The last scheduled run's slot to its first container start, in seconds; None when
    /// there is no such run among [`LAST_RUN_SLOTS`] or it is unknown (not started, its Pod
    /// pruned).
    pub last_run_start_delay: Option<i64>,
    /// Times the last scheduled run's workload started; None when there is no such run or it
    /// is unknown.
    pub last_run_attempts: Option<u32>,
    /// The next slot's due time plus the grace: a run that never happens produces no cluster
    /// event, so this is when the monitor looks again on its own.
    pub recheck_at: Option<Timestamp>,
}

pub fn health_str(h: Health) -> &'static str {
    match h {
        Health::Ok => "ok",
        Health::Warning => "warning",
        Health::Error => "error",
    }
}

/// Diagnose the one CronJob of `snapshot` (the monitor's store cuts it: `Store::subset`) as
/// `scan` does.
/// Without the fix plan: no series or status line shows it (`/report` builds its own
/// reports, plans included), and verifying a plan re-runs the rules on patched copies, a
/// good part of the first sync's CPU (BENCHMARKS.md, "monitor at scale").
/// `opts.timeline` is not used: the summary needs [`LAST_RUN_SLOTS`], whoever calls.
#[cfg(test)]
pub fn evaluate(snapshot: &Snapshot, opts: &Options, grace_secs: i64) -> Option<Summary> {
    evaluate_observed(snapshot, opts, grace_secs).map(|(s, _)| s)
}

/// [`evaluate`], with the records of the runs the snapshot shows now (`retained::observe`,
/// from the run stories the rules read anyway), for the monitor to remember.
pub fn evaluate_observed(
    snapshot: &Snapshot,
    opts: &Options,
    grace_secs: i64,
) -> Option<(Summary, Vec<RetainedRun>)> {
    let opts = Options {
        timeline: LAST_RUN_SLOTS,
        ..*opts
    };
    let mut r = report::cron_job_reports_observed(snapshot, &opts).next()?;
    let runs = r.runs.take().unwrap_or_default();
    Some((summarize(&r, snapshot, opts.now, grace_secs), runs))
}

/// The newest slot of the timeline with a run the schedule made (a manual run has no slot to
/// be late for, and is not the schedule's last run).
fn last_run(timeline: &[Slot]) -> Option<&Slot> {
    timeline.iter().rev().find(|s| s.job.is_some() && !s.manual)
}

fn summarize(r: &CronJobReport, s: &Snapshot, now: Timestamp, grace: i64) -> Summary {
    let cj = &s.cron_jobs[0];
    let cutoff = Timestamp::from_second(now.as_second().saturating_sub(grace)).ok();
    let eff = r.replay.effective();
    let missed_runs = match (eff, cutoff, cj.spec.suspend) {
        // A suspended CronJob is due no run: nothing is missed while it is.
        (Some(eff), Some(until), false) => {
            match cj.status.last_schedule_time.or(cj.meta.creation_timestamp) {
                Some(since) if since < until => {
                    let (slots, _) = eff.slots_in(since, until, MISSED_CAP);
                    let ran = Ran::new(&cj.meta.name, &s.jobs);
                    slots.iter().filter(|t| !ran.has(**t)).count()
                }
                _ => 0,
            }
        }
        _ => 0,
    };
    let recheck_at = match (eff, cutoff) {
        (Some(eff), Some(after)) => eff
            .next_after(after)
            .and_then(|t| Timestamp::from_second(t.as_second().checked_add(grace)?).ok()),
        _ => None,
    };
    let last_success = s
        .jobs
        .iter()
        .filter(|j| j.is_succeeded())
        .filter_map(|j| j.status.completion_time)
        .chain(cj.status.last_successful_time)
        .max();
    let last_run = last_run(&r.timeline);
    Summary {
        cause: report::cause::of_status(&r.findings),
        missed_cause: report::cause::of_missed(&r.findings, missed_runs),
        at_risk: r
            .next_run_at_risk
            .iter()
            .flat_map(|p| &p.reasons)
            .map(|x| x.reason.as_str())
            .collect(),
        health: r.health,
        headline: r.headline.clone(),
        findings: r
            .findings
            .iter()
            .map(|f| (f.slug, f.severity.as_str()))
            .collect(),
        next_run: r.next_schedule_times.first().copied(),
        last_schedule: cj.status.last_schedule_time,
        last_success,
        missed_runs,
        last_run_start_delay: last_run.and_then(|s| s.start_delay_seconds.flatten()),
        last_run_attempts: last_run.and_then(|s| s.attempts.flatten()),
        recheck_at,
    }
}

/// The Jobs that show a slot ran. The controller names a slot's Job `<cronjob>-<unix
/// minutes>` (v1: unix seconds) and, from 1.28, annotates it with the slot in the CronJob's
/// zone: a slot ran when a Job of its name or of its annotation exists. Matching the slot's
/// *name* (not parsing a name back into one instant) is the controller's own inverse: an
/// `@every 90s` slot at :30 has a Job named after its minute, and two slots that share a
/// minute share a Job (the second one's create is an AlreadyExists the controller adopts).
///
/// Not `not-running`'s (CJD034) count, on purpose: that rule reports an outage only from two
/// lost slots on, past a fixed two minutes; this series counts every slot past `--grace`.
struct Ran {
    /// The numbers after `<cronjob>-` in the Jobs' names.
    suffixes: HashSet<i64>,
    annotated: HashSet<i64>,
}

impl Ran {
    fn new(cron_job: &str, jobs: &[Job]) -> Self {
        let suffix = |j: &Job| {
            let d = j.meta.name.strip_prefix(cron_job)?.strip_prefix('-')?;
            // Digits only: `parse` would also take a sign.
            d.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| d.parse().ok())?
        };
        Ran {
            suffixes: jobs.iter().filter_map(suffix).collect(),
            annotated: jobs
                .iter()
                .filter_map(|j| j.meta.annotations.get(SCHEDULED_ANNOTATION))
                .filter_map(|v| v.parse::<Timestamp>().ok())
                .map(|t| t.as_second())
                .collect(),
        }
    }

    fn has(&self, slot: Timestamp) -> bool {
        let secs = slot.as_second();
        self.annotated.contains(&secs)
            || self.suffixes.contains(&secs.div_euclid(60))
            || self.suffixes.contains(&secs)
    }
}

#[cfg(test)]
#[path = "monitor_view_tests.rs"]
mod tests;
