//! Reading Jobs and Pods the way an on-call engineer would: is this Job done, why is it still
//! running, what is wrong with its Pod. Shared by rules and the timeline.

use jiff::Timestamp;

use crate::model::{ContainerStatus, Job, Pod};
use crate::text::{human_duration, show_time};

/// Where a Job stands, from its conditions (the only thing the CronJob controller reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobState {
    Succeeded,
    Failed,
    /// No Complete/Failed condition: the controller keeps it in `status.active`.
    Running,
}

pub fn job_state(j: &Job) -> JobState {
    if j.is_succeeded() {
        JobState::Succeeded
    } else if j.is_failed() {
        JobState::Failed
    } else {
        JobState::Running
    }
}

/// The reason on the Failed condition (`BackoffLimitExceeded`, `DeadlineExceeded`, …).
pub fn failure_reason(j: &Job) -> Option<&str> {
    j.status
        .conditions
        .iter()
        .find(|c| c.type_ == "Failed" && c.status == "True")
        .map(|c| c.reason.as_str())
        .filter(|r| !r.is_empty())
}

/// When the Job started (status.startTime, else creation).
pub fn job_start(j: &Job) -> Option<Timestamp> {
    j.status.start_time.or(j.meta.creation_timestamp)
}

/// Whether the Job is suspended (`spec.suspend: true`, or a `Suspended` condition True), with
/// the time its `Suspended` condition says it was suspended (None when it does not say).
pub fn job_suspended(j: &Job) -> Option<Option<Timestamp>> {
    let cond = j
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Suspended" && c.status == "True");
    (j.spec.suspend == Some(true) || cond.is_some())
        .then(|| cond.and_then(|c| c.last_transition_time))
}

/// Since when a Job counts as running, as far as its status tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Active {
    /// `status.startTime`.
    Started(Timestamp),
    /// Suspended with no `status.startTime` (never started, or 1.36+, where the Job controller
    /// clears it on suspension, kubernetes#135104): not running; `since` is the `Suspended`
    /// condition's time, `created` the Job's creation.
    Suspended {
        since: Option<Timestamp>,
        created: Option<Timestamp>,
    },
    /// No startTime and not suspended: created, not yet started by the Job controller.
    Created(Timestamp),
}

/// Since when `j` counts as running; a suspended Job without startTime is said suspended,
/// never taken as running since its creation.
pub fn job_active(j: &Job) -> Option<Active> {
    if let Some(s) = j.status.start_time {
        return Some(Active::Started(s));
    }
    if let Some(since) = job_suspended(j) {
        return Some(Active::Suspended {
            since,
            created: j.meta.creation_timestamp,
        });
    }
    j.meta.creation_timestamp.map(Active::Created)
}

/// How long it ran (finished) or has been running (unfinished, measured to `now`). None for a
/// suspended Job without startTime: it is not running, whatever its age.
pub fn job_duration(j: &Job, now: Timestamp) -> Option<i64> {
    if matches!(job_active(j), Some(Active::Suspended { .. })) && !j.is_finished() {
        return None;
    }
    let start = job_start(j)?;
    let end = match job_state(j) {
        JobState::Running => now,
        _ => j.status.completion_time.or_else(|| {
            j.status
                .conditions
                .iter()
                .filter(|c| c.status == "True" && (c.type_ == "Failed" || c.type_ == "Complete"))
                .find_map(|c| c.last_transition_time)
        })?,
    };
    Some((end.as_second() - start.as_second()).max(0))
}

/// A Pod whose deletion has not completed: a deletionTimestamp more than a minute old, and
/// not terminal (a Pod in phase Succeeded or Failed no longer holds its Job, whatever holds
/// the object).
#[derive(Clone, Copy, Debug)]
pub struct Terminating<'a> {
    pub pod: &'a Pod,
    /// `metadata.deletionTimestamp` (the request's time plus the grace period).
    pub since: Timestamp,
    /// Its node stopped reporting: Ready condition `Unknown` or reason `NodeLost`, or phase
    /// `Unknown`.
    pub node_lost: bool,
}

/// The Pods among `pods` stuck Terminating at `now`, oldest deletion first.
pub fn stuck_terminating<'a>(
    pods: impl IntoIterator<Item = &'a Pod>,
    now: Timestamp,
) -> Vec<Terminating<'a>> {
    let mut out: Vec<Terminating<'a>> = pods
        .into_iter()
        .filter(|p| !matches!(p.phase.as_str(), "Succeeded" | "Failed"))
        .filter_map(|p| {
            let since = p
                .meta
                .deletion_timestamp
                .filter(|d| now.as_second() - d.as_second() > 60)?;
            let node_lost = p.phase == "Unknown"
                || p.reason == "NodeLost"
                || p.conditions.iter().any(|c| {
                    c.type_ == "Ready" && (c.status == "Unknown" || c.reason == "NodeLost")
                });
            Some(Terminating {
                pod: p,
                since,
                node_lost,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        a.since
            .cmp(&b.since)
            .then(a.pod.meta.name.cmp(&b.pod.meta.name))
    });
    out
}

/// A waiting reason that means the image cannot be pulled (`ErrImagePull`,
/// `ImagePullBackOff`, `InvalidImageName`).
pub fn is_image_pull_failure(reason: &str) -> bool {
    reason.contains("ImagePull") || reason == "InvalidImageName"
}

fn container_problem(c: &ContainerStatus) -> Option<String> {
    let s = &c.state;
    if s.state == "waiting"
        && !s.reason.is_empty()
        && s.reason != "ContainerCreating"
        && s.reason != "PodInitializing"
    {
        let mut text = format!("container {} {}", c.name, s.reason);
        if is_image_pull_failure(&s.reason) {
            text = format!("cannot pull {} — {}", c.image, s.reason);
        }
        if c.last_state.reason == "OOMKilled" {
            text.push_str(" (last exit: OOMKilled)");
        } else if let Some(code) = c
            .last_state
            .exit_code
            .filter(|_| c.last_state.state == "terminated")
        {
            text.push_str(&format!(" (last exit code {code})"));
        }
        return Some(text);
    }
    if s.state == "terminated" && (s.reason == "OOMKilled" || s.exit_code.is_some_and(|c| c != 0)) {
        return Some(format!(
            "container {} terminated: {}{}",
            c.name,
            if s.reason.is_empty() {
                "Error"
            } else {
                &s.reason
            },
            s.exit_code
                .map(|c| format!(" (exit code {c})"))
                .unwrap_or_default()
        ));
    }
    None
}

/// Why a Pod is not making progress, in one phrase, or None when nothing looks wrong.
pub fn pod_problem(p: &Pod, now: Timestamp) -> Option<String> {
    if let Some(del) = p
        .meta
        .deletion_timestamp
        .filter(|d| now.as_second() - d.as_second() > 60)
    {
        let node = if p.node_name.is_empty() {
            String::new()
        } else {
            format!(" on node {}", p.node_name)
        };
        return Some(format!(
            "stuck Terminating{node} for {} (a lost node or a finalizer)",
            human_duration(now.as_second() - del.as_second())
        ));
    }
    for c in p
        .init_container_statuses
        .iter()
        .chain(&p.container_statuses)
    {
        if let Some(t) = container_problem(c) {
            return Some(t);
        }
    }
    if let Some(c) = p
        .conditions
        .iter()
        .find(|c| c.type_ == "PodScheduled" && c.status == "False")
    {
        let reason = if c.reason.is_empty() {
            "Unschedulable"
        } else {
            &c.reason
        };
        let msg = if c.message.is_empty() {
            String::new()
        } else {
            format!(": {}", c.message)
        };
        return Some(format!("{reason}{msg}"));
    }
    if p.phase == "Failed" && !p.reason.is_empty() {
        return Some(format!("pod failed: {}", p.reason));
    }
    None
}

/// Like [`pod_problem`], prefixed with the pod name and the time the problem is visible since.
pub fn pod_problem_line(p: &Pod, now: Timestamp, tz: &jiff::tz::TimeZone) -> Option<String> {
    let problem = pod_problem(p, now)?;
    let since = p
        .start_time
        .or(p.meta.creation_timestamp)
        .map(|t| format!(" (pod started {})", show_time(t, tz)));
    Some(format!(
        "pod {}: {problem}{}",
        p.meta.name,
        since.unwrap_or_default()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Condition, ContainerState, ObjectMeta};

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn image_pull_backoff_names_the_image() {
        let p = Pod {
            phase: "Pending".into(),
            container_statuses: vec![ContainerStatus {
                name: "backup".into(),
                image: "registry.example/backup:2.0".into(),
                state: ContainerState {
                    state: "waiting".into(),
                    reason: "ImagePullBackOff".into(),
                    ..Default::default()
                },
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(
            pod_problem(&p, ts("2026-11-20T12:00:00Z")).as_deref(),
            Some("cannot pull registry.example/backup:2.0 — ImagePullBackOff")
        );
    }

    #[test]
    fn unschedulable_and_terminating() {
        let p = Pod {
            phase: "Pending".into(),
            conditions: vec![Condition {
                type_: "PodScheduled".into(),
                status: "False".into(),
                reason: "Unschedulable".into(),
                message: "0/3 nodes are available: 3 Insufficient memory.".into(),
                last_transition_time: None,
            }],
            ..Default::default()
        };
        assert!(
            pod_problem(&p, ts("2026-11-20T12:00:00Z"))
                .unwrap()
                .starts_with("Unschedulable: 0/3 nodes")
        );
        let p = Pod {
            meta: ObjectMeta {
                deletion_timestamp: Some(ts("2026-11-20T00:00:00Z")),
                ..Default::default()
            },
            node_name: "node-7".into(),
            ..Default::default()
        };
        assert_eq!(
            pod_problem(&p, ts("2026-11-20T12:00:00Z")).as_deref(),
            Some("stuck Terminating on node node-7 for 12h (a lost node or a finalizer)")
        );
        assert_eq!(
            pod_problem(&Pod::default(), ts("2026-11-20T12:00:00Z")),
            None
        );
    }
}
