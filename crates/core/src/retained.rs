//! Runs remembered: a compact record of each of a CronJob's recent runs, kept by the monitor
//! after the evidence is gone (TTL and history limits prune Jobs and their Pods, Events expire
//! after about an hour). Each record holds the slot, the Job, its outcome, the stages and
//! attempts of its story ([`crate::runs::story`]), the reason and message of every failed
//! attempt, and the Warning events about the run.
//!
//! Pure: [`observe`] reads the records off what a diagnosis sees now, [`remember`] merges them
//! into what was kept and evicts. The monitor owns the keeping (`src/monitor`); nothing here
//! reads a clock or does IO.
//!
//! Bounded: at most [`MAX_RUNS`] records per CronJob, each with at most [`MAX_FAILED`] failed
//! attempts and [`MAX_WARNINGS`] warnings, every string cut to [`MAX_TEXT`] bytes (names to
//! [`MAX_NAME`]). docs/monitor.md states what that costs per CronJob.

pub mod packed;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::evidence::{JobState, failure_reason, job_state};
use crate::model::CronJob;
use crate::rules::Context;
use crate::runs::{Outcome, RunKind, RunStory};

/// Runs kept at least, whatever their age (unless the CronJob's history limits keep more).
pub const MIN_RUNS: usize = 10;
/// Records younger than this are kept beyond [`MIN_RUNS`], up to [`MAX_RUNS`].
pub const MIN_AGE_SECONDS: i64 = 7 * 24 * 3600;
/// Records per CronJob at most: a CronJob that runs more than this often in 7 days keeps its
/// newest runs, its uneventful successes evicted first.
pub const MAX_RUNS: usize = 64;
/// Failed attempts per run at most (the newest).
pub const MAX_FAILED: usize = 4;
/// Warning events per run at most (the newest).
pub const MAX_WARNINGS: usize = 4;
/// Messages and reasons are cut to this many bytes (at a character boundary, `…` added).
pub const MAX_TEXT: usize = 256;
/// Names (Job, Pod, involved object) are cut to this many bytes: a valid name is never
/// longer (DNS-1123 subdomain), so only a hostile one is cut.
pub const MAX_NAME: usize = 253;

/// How a run ended, as far as the record knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunOutcome {
    Succeeded,
    Failed,
    Running,
}

/// The stages of the run story, each when the evidence showed it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RetainedStages {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_created: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_pod_created: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduled: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_started: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pulled: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished: Option<Timestamp>,
}

/// One failed start of the workload: its Pod, the terminated state's reason, message and
/// exit code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FailedAttempt {
    pub pod: String,
    pub reason: String,
    #[serde(default)]
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Timestamp>,
    /// Starts this entry stands for (restarts whose reasons were no longer recorded).
    #[serde(default = "one")]
    pub times: u32,
}

fn one() -> u32 {
    1
}

/// A Warning event about the run's Job or one of its Pods.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetainedEvent {
    /// `Job/<name>` or `Pod/<name>`.
    pub object: String,
    pub reason: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub count: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<Timestamp>,
}

/// One run, as the monitor saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetainedRun {
    pub job: String,
    /// The scheduled time (annotation or Job name); absent for a manual run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub manual: bool,
    pub outcome: RunOutcome,
    /// The Job's Failed condition reason (`BackoffLimitExceeded`, `DeadlineExceeded`) and
    /// message.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default)]
    pub stages: RetainedStages,
    /// Times the workload started; absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_attempts: Vec<FailedAttempt>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<RetainedEvent>,
    /// The Job is no longer in the cluster (deleted, pruned by a history limit or TTL): this
    /// record is all that is left of the run.
    #[serde(default)]
    pub retained: bool,
}

impl RetainedRun {
    /// When the run was: its slot, else its Job's creation.
    pub fn at(&self) -> Option<Timestamp> {
        self.slot.or(self.stages.job_created)
    }

    /// Nothing worth keeping beyond the floor: succeeded at the first start, no warning.
    fn uneventful(&self) -> bool {
        self.outcome == RunOutcome::Succeeded
            && self.failed_attempts.is_empty()
            && self.warnings.is_empty()
            && self.attempts.is_none_or(|n| n <= 1)
    }
}

/// `s` cut to at most `max` bytes at a character boundary, `…` appended when cut.
pub fn cap(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// Runs kept at least for `cj`: its history limits together (defaults 3 and 1), or
/// [`MIN_RUNS`], whichever is more, never above [`MAX_RUNS`].
pub fn floor(cj: &CronJob) -> usize {
    let limit = |v: Option<i64>, d: i64| usize::try_from(v.unwrap_or(d).max(0)).unwrap_or(0);
    let limits = limit(cj.spec.successful_jobs_history_limit, 3)
        .saturating_add(limit(cj.spec.failed_jobs_history_limit, 1));
    limits.clamp(MIN_RUNS, MAX_RUNS)
}

/// The records of the runs `ctx` shows now, newest first (its Jobs, owned and manual).
pub fn observe(ctx: &Context) -> Vec<RetainedRun> {
    crate::rules::run_stories(ctx)
        .iter()
        .map(|(job, story)| record(ctx, job, story))
        .collect()
}

fn record(ctx: &Context, job: &crate::model::Job, story: &RunStory) -> RetainedRun {
    let (outcome, reason, message) = match job_state(job) {
        JobState::Succeeded => (RunOutcome::Succeeded, "", ""),
        JobState::Failed => {
            let c = job
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == "Failed" && c.status == "True");
            (
                RunOutcome::Failed,
                failure_reason(job).unwrap_or(""),
                c.map_or("", |c| c.message.as_str()),
            )
        }
        JobState::Running => (RunOutcome::Running, "", ""),
    };
    let s = &story.stages;
    let mut failed: Vec<FailedAttempt> = story
        .attempts
        .iter()
        .filter_map(|a| {
            let (reason, exit_code) = match &a.outcome {
                Outcome::Failed { reason, exit_code } => (reason.as_str(), *exit_code),
                Outcome::Disrupted { reason } => (reason.as_str(), None),
                Outcome::Unrecorded => ("", None),
                Outcome::Running | Outcome::Succeeded => return None,
            };
            Some(FailedAttempt {
                pod: cap(&a.pod, MAX_NAME),
                reason: cap(reason, MAX_TEXT),
                message: cap(&a.message, MAX_TEXT),
                exit_code,
                ended: a.ended,
                times: a.times,
            })
        })
        .collect();
    keep_newest(&mut failed, MAX_FAILED, |f| f.ended);
    let pods: Vec<&str> = ctx
        .pods_of(&job.meta.name)
        .map(|p| p.meta.name.as_str())
        .collect();
    let mut warnings: Vec<RetainedEvent> = ctx
        .events
        .iter()
        .filter(|e| e.type_ == "Warning")
        .filter_map(|e| {
            let o = &e.involved_object;
            let ours = match o.kind.as_str() {
                "Job" => o.name == job.meta.name,
                "Pod" => pods.contains(&o.name.as_str()),
                _ => false,
            };
            ours.then(|| RetainedEvent {
                object: cap(&format!("{}/{}", o.kind, o.name), MAX_NAME + 4),
                reason: cap(&e.reason, MAX_TEXT),
                message: cap(&e.message, MAX_TEXT),
                count: e.count,
                last_seen: e.last_timestamp.or(e.first_timestamp),
            })
        })
        .collect();
    keep_newest(&mut warnings, MAX_WARNINGS, |w| w.last_seen);
    RetainedRun {
        job: cap(&job.meta.name, MAX_NAME),
        slot: s.slot,
        manual: story.kind == RunKind::Manual,
        outcome,
        reason: cap(reason, MAX_TEXT),
        message: cap(message, MAX_TEXT),
        stages: RetainedStages {
            job_created: s.job_created.or(job.meta.creation_timestamp),
            first_pod_created: s.first_pod_created,
            scheduled: s.scheduled,
            pull_started: s.pull_started,
            pulled: s.pulled,
            started: s.started,
            finished: s.finished,
        },
        attempts: story.attempt_count,
        failed_attempts: failed,
        warnings,
        retained: false,
    }
}

/// Keep the `max` newest of `v` by `at` (unknown times count as oldest), in time order.
fn keep_newest<T>(v: &mut Vec<T>, max: usize, at: impl Fn(&T) -> Option<Timestamp>) {
    v.sort_by_key(|x| at(x));
    if v.len() > max {
        v.drain(..v.len() - max);
    }
}

/// Merge the runs seen now (`seen`, from [`observe`]) into `kept`, the records of one
/// CronJob; a kept run whose Job is not seen any more is marked retained. Then evict: the
/// newest `floor` records stay, and those younger than [`MIN_AGE_SECONDS`] at `now`, up to
/// [`MAX_RUNS`] (uneventful successes go first, then the oldest). `kept` ends newest first.
pub fn remember(kept: &mut Vec<RetainedRun>, seen: Vec<RetainedRun>, now: Timestamp, floor: usize) {
    for k in kept.iter_mut() {
        k.retained = true;
    }
    for new in seen {
        match kept.iter_mut().find(|k| same_run(k, &new)) {
            Some(old) => *old = merge(old, new),
            None => kept.push(new),
        }
    }
    // Newest first, unknown times last; then the newest Job, then its name: a stable order.
    kept.sort_by(|a, b| {
        b.at()
            .cmp(&a.at())
            .then_with(|| b.stages.job_created.cmp(&a.stages.job_created))
            .then_with(|| b.job.cmp(&a.job))
    });
    let young = |r: &RetainedRun| {
        r.at()
            .is_some_and(|t| now.as_second().saturating_sub(t.as_second()) <= MIN_AGE_SECONDS)
    };
    let floor = floor.min(MAX_RUNS);
    let mut i = floor;
    while i < kept.len() {
        if young(&kept[i]) {
            i += 1;
        } else {
            kept.remove(i);
        }
    }
    while kept.len() > MAX_RUNS {
        let victim = (floor..kept.len())
            .rev()
            .find(|&i| kept[i].uneventful())
            .unwrap_or(kept.len() - 1);
        kept.remove(victim);
    }
}

/// The same run: the same Job name and, when both know it, the same creation time (a Job
/// deleted and created again under its name is another run).
fn same_run(a: &RetainedRun, b: &RetainedRun) -> bool {
    a.job == b.job
        && match (a.stages.job_created, b.stages.job_created) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        }
}

/// What is seen now, completed by what was kept: the Pods and Events of a run go before its
/// Job does (a Pod deleted by hand, Events expired), and the record keeps what they told.
fn merge(old: &RetainedRun, new: RetainedRun) -> RetainedRun {
    let o = &old.stages;
    let n = new.stages;
    let stages = RetainedStages {
        job_created: n.job_created.or(o.job_created),
        first_pod_created: n.first_pod_created.or(o.first_pod_created),
        scheduled: n.scheduled.or(o.scheduled),
        pull_started: n.pull_started.or(o.pull_started),
        pulled: n.pulled.or(o.pulled),
        started: n.started.or(o.started),
        finished: n.finished.or(o.finished),
    };
    let attempts = match (old.attempts, new.attempts) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => b.or(a),
    };
    let mut failed = old.failed_attempts.clone();
    for f in new.failed_attempts {
        match failed
            .iter_mut()
            .find(|x| x.pod == f.pod && (x.ended == f.ended || x.ended.is_none()))
        {
            Some(x) => *x = f,
            None => failed.push(f),
        }
    }
    keep_newest(&mut failed, MAX_FAILED, |f| f.ended);
    let mut warnings = old.warnings.clone();
    for w in new.warnings {
        match warnings
            .iter_mut()
            .find(|x| x.object == w.object && x.reason == w.reason)
        {
            Some(x) => *x = w,
            None => warnings.push(w),
        }
    }
    keep_newest(&mut warnings, MAX_WARNINGS, |w| w.last_seen);
    RetainedRun {
        slot: new.slot.or(old.slot),
        stages,
        attempts,
        failed_attempts: failed,
        warnings,
        retained: false,
        ..new
    }
}

/// What the monitor's `/runs?namespace=NS&name=NAME` answers (docs/json.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunsDocument {
    pub schema_version: u32,
    pub namespace: String,
    pub cron_job: String,
    pub runs: Vec<RetainedRun>,
}

/// The `schemaVersion` of [`RunsDocument`].
pub const RUNS_SCHEMA_VERSION: u32 = 1;

#[cfg(test)]
#[path = "retained_tests.rs"]
mod tests;
