//! One CronJob's diagnosis, reduced to what the monitor keeps between changes: its health
//! and headline (the status line), its findings (the `finding` series), the numbers of the
//! other series, and when to look again if nothing in the cluster changes. Pure: the
//! snapshot and "now" come in, nothing is read from outside.

use doctor::model::{Job, Snapshot};
use doctor::report::{self, CronJobReport, Health, Options};
use jiff::Timestamp;

/// Missed slots counted at most (the series says "this many or more").
const MISSED_CAP: usize = 10_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub health: Health,
    pub headline: String,
    /// (rule slug, severity) of every current finding.
    pub findings: Vec<(&'static str, &'static str)>,
    pub next_run: Option<Timestamp>,
    pub last_schedule: Option<Timestamp>,
    pub last_success: Option<Timestamp>,
    pub missed_runs: usize,
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

/// Diagnose the one CronJob of `snapshot` (a [`super::store::Store::subset`]) as `scan` does.
pub fn evaluate(snapshot: &Snapshot, opts: &Options, grace_secs: i64) -> Option<Summary> {
    let r = report::build(snapshot, Vec::new(), opts).cron_jobs.pop()?;
    Some(summarize(&r, snapshot, opts.now, grace_secs))
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
                    let ran: Vec<i64> = s
                        .jobs
                        .iter()
                        .filter_map(|j| job_slot(&cj.meta.name, j))
                        .collect();
                    slots
                        .iter()
                        .filter(|t| !ran.contains(&t.as_second()))
                        .count()
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
    Summary {
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
        recheck_at,
    }
}

/// The slot (unix seconds) a Job ran for: the scheduled-timestamp annotation, else the name
/// the controller gives (`<cronjob>-<unix minutes>`, or unix seconds before 1.21).
fn job_slot(cron_job: &str, j: &Job) -> Option<i64> {
    if let Some(t) = j
        .meta
        .annotations
        .get("batch.kubernetes.io/cronjob-scheduled-timestamp")
        .and_then(|v| v.parse::<Timestamp>().ok())
    {
        return Some(t.as_second());
    }
    let d = j.meta.name.strip_prefix(cron_job)?.strip_prefix('-')?;
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = d.parse().ok()?;
    if d.len() >= 10 {
        Some(n)
    } else {
        n.checked_mul(60)
    }
}

#[cfg(test)]
#[path = "evaluate_tests.rs"]
mod tests;
