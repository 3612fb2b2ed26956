//! `trigger --wait`: follow the Job until it finishes, showing each Pod's phase and, when
//! something is wrong, why (the reasons `explain` gives: image pulls, OOM kills, scheduling).
//! Polling, not watching: one GET and one small LIST every two seconds is cheap, survives
//! proxies that cut long requests, and needs no `watch` permission.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::session::Session;
use crate::cluster::http::{ApiError, humantime};
use crate::error::{ClusterError, Error};
use crate::term::out::Out;
use doctor::evidence::{failure_reason, job_duration, pod_problem};
use doctor::model::{Job, Pod};
use doctor::text::human_duration;
use jiff::Timestamp;

/// Between two looks at the Job.
pub const POLL: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Complete,
    Failed,
    TimedOut,
}

/// One line per Pod state: `pod x: Running`, `pod x: Failed — container c terminated: OOMKilled`.
pub fn pod_line(p: &Pod, now: Timestamp) -> String {
    let phase = if p.phase.is_empty() {
        "Pending"
    } else {
        &p.phase
    };
    match pod_problem(p, now) {
        Some(why) => format!("pod {}: {phase} — {why}", p.meta.name),
        None => format!("pod {}: {phase}", p.meta.name),
    }
}

/// The last line: how the Job ended.
pub fn job_line(j: &Job, now: Timestamp) -> Option<(Outcome, String)> {
    let took = job_duration(j, now)
        .map(|d| format!(" after {}", human_duration(d)))
        .unwrap_or_default();
    if j.is_succeeded() {
        return Some((
            Outcome::Complete,
            format!(
                "job {} completed{took} ({} Pod{} succeeded)",
                j.meta.name,
                j.status.succeeded,
                if j.status.succeeded == 1 { "" } else { "s" }
            ),
        ));
    }
    if j.is_failed() {
        let cond = j
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Failed" && c.status == "True");
        let reason = failure_reason(j).unwrap_or("Failed");
        let msg = cond
            .map(|c| c.message.as_str())
            .filter(|m| !m.is_empty())
            .map(|m| format!(" ({m})"))
            .unwrap_or_default();
        return Some((
            Outcome::Failed,
            format!("job {} failed{took}: {reason}{msg}", j.meta.name),
        ));
    }
    None
}

/// Follow `job` until it finishes or `timeout` passes (None: no limit).
pub async fn follow(
    s: &Session,
    job: &str,
    timeout: Option<Duration>,
    out: Out,
) -> Result<Outcome, Error> {
    let started = Instant::now();
    let path = s.path("jobs", job);
    let mut shown: BTreeMap<String, String> = BTreeMap::new();
    let mut pods_forbidden = false;
    out.line(format!(
        "Waiting for job {job} to finish{}…",
        timeout
            .map(|t| format!(" (at most {})", humantime(t)))
            .unwrap_or_default()
    ));
    loop {
        let j = match s.job(job).await {
            Ok(j) => j,
            Err(ApiError::Status { code: 404, .. }) => {
                return Err(ClusterError::JobGone {
                    job: job.to_string(),
                    namespace: s.ns.clone(),
                }
                .into());
            }
            Err(e) => return Err(s.failure(&format!("GET {path} (while waiting)"), &e)),
        };
        let now = crate::cluster::server_now(&s.api).0;
        if !pods_forbidden {
            match s.pods_of(job).await {
                Ok(pods) => {
                    for p in &pods {
                        let line = pod_line(p, now);
                        if shown.get(&p.meta.name) != Some(&line) {
                            out.line(format!("  {line}"));
                            shown.insert(p.meta.name.clone(), line);
                        }
                    }
                }
                Err(ApiError::Status { code: 403, .. }) => {
                    pods_forbidden = true;
                    out.line("  (Pods: forbidden — following the Job's status only; grant list on pods, see deploy/rbac/)");
                }
                Err(e) => return Err(s.failure("LIST pods (while waiting)", &e)),
            }
        }
        if let Some((outcome, line)) = job_line(&j, now) {
            out.line(line);
            return Ok(outcome);
        }
        let left = timeout.map(|t| t.saturating_sub(started.elapsed()));
        if left.is_some_and(|l| l.is_zero()) {
            out.line(format!(
                "job {job} is still running after {}: stopped waiting (the Job goes on; follow it with `kubectl get job {job} -n {} -w`)",
                humantime(timeout.unwrap_or_default()),
                s.ns
            ));
            return Ok(Outcome::TimedOut);
        }
        tokio::time::sleep(left.map_or(POLL, |l| l.min(POLL))).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doctor::model::Condition;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn finished_jobs_say_how_they_ended() {
        let mut j = Job::default();
        j.meta.name = "b-manual-x".into();
        j.status.start_time = Some(ts("2026-11-20T12:00:00Z"));
        assert_eq!(job_line(&j, ts("2026-11-20T12:01:00Z")), None);
        j.status.conditions.push(Condition {
            type_: "Failed".into(),
            status: "True".into(),
            reason: "BackoffLimitExceeded".into(),
            message: "Job has reached the specified backoff limit".into(),
            last_transition_time: Some(ts("2026-11-20T12:02:00Z")),
        });
        let (o, line) = job_line(&j, ts("2026-11-20T12:03:00Z")).unwrap();
        assert_eq!(o, Outcome::Failed);
        assert_eq!(
            line,
            "job b-manual-x failed after 2m: BackoffLimitExceeded (Job has reached the specified backoff limit)"
        );
    }

    #[test]
    fn pods_show_phase_and_problem() {
        let mut p = Pod::default();
        p.meta.name = "b-1".into();
        assert_eq!(pod_line(&p, ts("2026-11-20T12:00:00Z")), "pod b-1: Pending");
        p.phase = "Running".into();
        assert_eq!(pod_line(&p, ts("2026-11-20T12:00:00Z")), "pod b-1: Running");
    }
}
