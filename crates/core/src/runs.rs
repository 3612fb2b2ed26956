//! Every run's story, read from the evidence: when its slot came, when the controller created
//! the Job, when the first Pod was created (or why Pods were refused), when it was scheduled,
//! how long its image took to pull, when its work started — and how many times it started
//! (failed Pods the Job retried, containers restarted in place, Pods replaced after an
//! eviction or a lost node).
//!
//! Pure: the Job, its Pods and the Events about them, and `now`. What the evidence does not
//! hold is unknown (None), never guessed: a pruned Pod, an expired Event. Object timestamps
//! come first (they outlive Events); Events refine a stage where they are present. Times from
//! different clocks (a node's kubelet, the API server) can disagree by seconds: a negative
//! delay is clamped to zero and the story says so.

use jiff::Timestamp;

use crate::model::{ContainerStatus, Event, Job, Pod};
use crate::text::human_duration;

/// The label (and, before 1.28, annotation) that carries an indexed Job's completion index.
const INDEX_KEY: &str = "batch.kubernetes.io/job-completion-index";
/// The Job controller's own `spec.managedBy` value: any other names another controller.
pub const JOB_CONTROLLER: &str = "kubernetes.io/job-controller";

/// What kind of run this is: only scheduled runs the Job controller runs can be late.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunKind {
    Scheduled,
    /// `kubectl create job --from=cronjob/…`: no slot to be late for.
    Manual,
    /// `spec.suspend: true` (or a `Suspended` condition) on the Job: it waits for whoever
    /// resumes it.
    Suspended,
    /// `spec.managedBy` names another controller (Kueue, MultiKueue): it decides when.
    ManagedElsewhere(String),
}

/// The stages of a run, each when the evidence shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stages {
    pub slot: Option<Timestamp>,
    pub job_created: Option<Timestamp>,
    pub first_pod_created: Option<Timestamp>,
    /// The first attempt's `PodScheduled` condition turned True.
    pub scheduled: Option<Timestamp>,
    /// `Pulling` (first) and `Pulled` (last) Events of the first attempt's Pod.
    pub pull_started: Option<Timestamp>,
    pub pulled: Option<Timestamp>,
    /// The first container start of any attempt.
    pub started: Option<Timestamp>,
    pub finished: Option<Timestamp>,
}

/// How one start of the workload ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Running,
    Succeeded,
    /// Its containers failed: the reason (`OOMKilled`, `Error`, …) and exit code.
    Failed {
        reason: String,
        exit_code: Option<i64>,
    },
    /// The Pod was taken away (eviction, preemption, a lost node): the reason said.
    Disrupted {
        reason: String,
    },
    /// A restart we know happened (`restartCount`) but whose reason is no longer recorded.
    Unrecorded,
}

/// One start of the workload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub pod: String,
    /// The completion index (indexed Jobs).
    pub index: Option<i64>,
    /// Started again inside the same Pod (`restartPolicy: OnFailure`), not a new Pod.
    pub in_place: bool,
    pub started: Option<Timestamp>,
    pub ended: Option<Timestamp>,
    pub outcome: Outcome,
    /// The terminated state's message (a container's `terminationMessagePath`, the kubelet's
    /// word on an eviction), else the Pod's: empty when none was written.
    pub message: String,
    /// Starts this entry stands for: 1, or the count of restarts whose reasons are no longer
    /// recorded (`restartCount` is input: one entry, not one per restart, whatever it says).
    pub times: u32,
}

impl Attempt {
    /// "OOMKilled after 8m", "exit code 1 after 3m", "evicted (TerminationByKubelet)".
    pub fn describe(&self) -> String {
        let after = match (self.started, self.ended) {
            (Some(s), Some(e)) => {
                format!(" after {}", human_duration((e - s).get_seconds().max(0)))
            }
            _ => String::new(),
        };
        match &self.outcome {
            Outcome::Running => "still running".into(),
            Outcome::Succeeded => "succeeded".into(),
            Outcome::Failed { reason, exit_code } => {
                let what = match (reason.as_str(), exit_code) {
                    ("" | "Error", Some(c)) => format!("failed with exit code {c}"),
                    ("", None) => "failed".into(),
                    (r, _) => r.to_string(),
                };
                format!("{what}{after}")
            }
            Outcome::Disrupted { reason } => format!("its pod was lost ({reason}){after}"),
            Outcome::Unrecorded if self.times > 1 => {
                format!("failed {} times (reasons no longer recorded)", self.times)
            }
            Outcome::Unrecorded => "failed (reason no longer recorded)".into(),
        }
    }

    fn failed(&self) -> bool {
        !matches!(self.outcome, Outcome::Running | Outcome::Succeeded)
    }
}

/// Why a run whose work has not started is stuck, in the order a run meets them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stuck {
    /// The Job controller's Pod creates are refused (`FailedCreate` on the Job).
    PodsRefused {
        cause: &'static str,
        message: String,
    },
    /// No Pod, and no Event that says why (Events expire, or were not collected).
    NoPods,
    /// The scheduler cannot place the Pod.
    Unschedulable { message: String },
    /// An image cannot be pulled.
    ImagePull {
        image: String,
        reason: String,
        message: String,
    },
    /// An init container keeps failing.
    InitFailing { container: String, reason: String },
    /// A container cannot be created (`CreateContainerConfigError`: a missing Secret, …).
    ContainerWaiting {
        container: String,
        reason: String,
        message: String,
    },
    /// Pending with nothing wrong recorded (volumes attaching, a slow node).
    Pending,
}

impl Stuck {
    /// The phrase after "it has not started after 30m: ".
    pub fn describe(&self) -> String {
        let quote = |m: &str| {
            let m = m.trim();
            if m.is_empty() {
                String::new()
            } else {
                format!(" — {}", first_sentence(m))
            }
        };
        match self {
            Stuck::PodsRefused { cause, message } => {
                format!("its pods are refused ({cause}){}", quote(message))
            }
            Stuck::NoPods => "no pod was created (no Event says why)".into(),
            Stuck::Unschedulable { message } => {
                format!("its pod cannot be scheduled{}", quote(message))
            }
            Stuck::ImagePull {
                image,
                reason,
                message: _,
            } => format!("its pod cannot pull {image} — {reason}"),
            Stuck::InitFailing { container, reason } => {
                format!("init container {container} keeps failing — {reason}")
            }
            Stuck::ContainerWaiting {
                container,
                reason,
                message,
            } => format!(
                "container {container} cannot start — {reason}{}",
                quote(message)
            ),
            Stuck::Pending => "its pod is Pending with no reason recorded".into(),
        }
    }

    /// Short, for a table cell: "unschedulable", "image pull", "pods refused (quota)".
    pub fn short(&self) -> String {
        match self {
            Stuck::PodsRefused { cause, .. } => format!("pods refused ({cause})"),
            Stuck::NoPods => "no pod".into(),
            Stuck::Unschedulable { .. } => "unschedulable".into(),
            Stuck::ImagePull { .. } => "image pull".into(),
            Stuck::InitFailing { .. } => "init container failing".into(),
            Stuck::ContainerWaiting { reason, .. } => reason.clone(),
            Stuck::Pending => "pending".into(),
        }
    }
}

/// One run, as the evidence tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunStory {
    pub job: String,
    pub kind: RunKind,
    pub stages: Stages,
    /// Every known start of the workload, oldest first.
    pub attempts: Vec<Attempt>,
    /// Times the workload started (per completion index: the most any index needed); None
    /// when nothing shows whether it started.
    pub attempt_count: Option<u32>,
    /// Failed Pods the Job counted (`status.failed`) that are no longer in the snapshot.
    pub pruned_failures: u32,
    /// The Job's Pods in the snapshot.
    pub pods: usize,
    /// Set while no container of the run has started and the Job is not finished.
    pub stuck: Option<Stuck>,
    /// A delay came out negative (clocks of different machines) and was taken as zero.
    pub clamped: bool,
    /// Evidence the story could not read ("no Events", "no Pods").
    pub unknown: Vec<&'static str>,
}

/// The stage of a late start that took the time, with how long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LateStage {
    pub stage: Stage,
    pub seconds: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Slot → Job created.
    Controller,
    /// Job created → first Pod created (refused creates, a slow Job controller).
    PodCreation,
    /// Pod created → scheduled.
    Scheduling,
    /// Pulling → Pulled.
    ImagePull,
    /// Scheduled (or pulled) → started: init containers, volumes, the kubelet.
    Starting,
}

impl LateStage {
    pub fn describe(&self) -> String {
        let d = human_duration(self.seconds);
        match self.stage {
            Stage::Controller => format!("the controller created the Job {d} after its slot"),
            Stage::PodCreation => format!("the Job's first pod was created {d} after the Job"),
            Stage::Scheduling => format!("the pod waited {d} to be scheduled"),
            Stage::ImagePull => format!("pulling the image took {d}"),
            Stage::Starting => {
                format!(
                    "the containers started {d} after the pod was placed (init containers, volumes)"
                )
            }
        }
    }

    /// A word for a timeline cell: "controller", "scheduling", "image pull".
    pub fn short(&self) -> &'static str {
        match self.stage {
            Stage::Controller => "controller",
            Stage::PodCreation => "pod creation",
            Stage::Scheduling => "scheduling",
            Stage::ImagePull => "image pull",
            Stage::Starting => "starting",
        }
    }
}

impl RunStory {
    /// Slot to the first container start, in seconds (clamped at zero); None when either is
    /// unknown.
    pub fn start_delay(&self) -> Option<i64> {
        let (slot, started) = (self.stages.slot?, self.stages.started?);
        Some((started - slot).get_seconds().max(0))
    }

    /// Whether lateness means anything for this run (scheduled by the controller, run by the
    /// Job controller, not held suspended).
    pub fn can_be_late(&self) -> bool {
        self.kind == RunKind::Scheduled
    }

    /// Each stage's length where both its ends are known, in run order.
    pub fn stage_delays(&self) -> Vec<LateStage> {
        let s = &self.stages;
        let d = |a: Option<Timestamp>, b: Option<Timestamp>| -> Option<i64> {
            Some((b? - a?).get_seconds().max(0))
        };
        // The pull happens between scheduling and the start: what is left of that span.
        let placed = s.pulled.or(s.scheduled);
        let mut out = Vec::new();
        let mut push = |stage, v: Option<i64>| {
            if let Some(seconds) = v {
                out.push(LateStage { stage, seconds });
            }
        };
        push(Stage::Controller, d(s.slot, s.job_created));
        push(Stage::PodCreation, d(s.job_created, s.first_pod_created));
        push(Stage::Scheduling, d(s.first_pod_created, s.scheduled));
        push(Stage::ImagePull, d(s.pull_started, s.pulled));
        push(Stage::Starting, d(placed, s.started));
        out
    }

    /// The stage that took the most of the delay.
    pub fn slowest_stage(&self) -> Option<LateStage> {
        self.stage_delays()
            .into_iter()
            .max_by_key(|l| l.seconds)
            .filter(|l| l.seconds > 0)
    }

    /// Failed starts (retried Pods, restarts in place, lost Pods), oldest first.
    pub fn failed_attempts(&self) -> impl Iterator<Item = &Attempt> {
        self.attempts.iter().filter(|a| a.failed())
    }

    /// The stages the evidence shows, one line each ("slot …", "Job x created …", "image
    /// pulled … – … (10m58s)"), times as `show` writes them.
    pub fn stage_lines(&self, show: impl Fn(Timestamp) -> String) -> Vec<String> {
        let st = &self.stages;
        let mut out = Vec::new();
        if let Some(slot) = st.slot {
            out.push(format!("slot {}", show(slot)));
        }
        if let Some(c) = st.job_created {
            out.push(format!("Job {} created {}", self.job, show(c)));
        }
        match (st.first_pod_created, self.pods) {
            (Some(p), _) => out.push(format!("first pod created {}", show(p))),
            (None, 0) => out.push("no pod of the Job in the input".into()),
            (None, n) => out.push(format!(
                "{n} pod{} of the Job in the input, with no creationTimestamp",
                if n == 1 { "" } else { "s" }
            )),
        }
        if let Some(x) = st.scheduled {
            out.push(format!("scheduled {}", show(x)));
        }
        if let (Some(a), Some(b)) = (st.pull_started, st.pulled) {
            out.push(format!(
                "image pulled {} – {} ({})",
                show(a),
                show(b),
                human_duration((b - a).get_seconds().max(0))
            ));
        }
        if let Some(x) = st.started {
            out.push(format!("work started {}", show(x)));
        }
        if let Some(x) = st.finished {
            out.push(format!("finished {}", show(x)));
        }
        if self.clamped {
            out.push("a stage ended before it began by these clocks (node and API server disagree): taken as 0s".into());
        }
        out
    }

    /// Whether some unit of work started more than once.
    pub fn ran_more_than_once(&self) -> bool {
        self.attempt_count.is_some_and(|n| n > 1)
    }
}

/// Read the story of `job`. `slot` is the scheduled time the caller worked out (annotation or
/// name); `pods` are the Pods that name the Job (those owned by another Job of the same name,
/// by uid, are left out here); `events` any Events (those about the Job and its Pods are read).
pub fn story<'a>(
    job: &Job,
    slot: Option<Timestamp>,
    pods: impl IntoIterator<Item = &'a Pod>,
    events: &[&Event],
    evidence: crate::model::Evidence,
) -> RunStory {
    let mut pods: Vec<&Pod> = pods.into_iter().filter(|p| owned_by(p, job)).collect();
    pods.sort_by(|a, b| {
        a.meta
            .creation_timestamp
            .cmp(&b.meta.creation_timestamp)
            .then_with(|| a.meta.name.cmp(&b.meta.name))
    });
    let kind = if job.is_manual() {
        RunKind::Manual
    } else if crate::evidence::job_suspended(job).is_some() {
        RunKind::Suspended
    } else if let Some(m) = job
        .spec
        .managed_by
        .as_deref()
        .filter(|m| *m != JOB_CONTROLLER)
    {
        RunKind::ManagedElsewhere(m.to_string())
    } else {
        RunKind::Scheduled
    };
    let mut unknown = Vec::new();
    if !evidence.pods {
        unknown.push("Pods were not read");
    }
    if !evidence.events {
        unknown.push("Events were not read");
    }

    let attempts: Vec<Attempt> = pods.iter().flat_map(|p| attempts_of(p)).collect();
    let mut attempts = attempts;
    attempts.sort_by(|a, b| a.started.cmp(&b.started).then(a.pod.cmp(&b.pod)));
    let first = pods.first().copied();
    let first_started = attempts.iter().filter_map(|a| a.started).min();
    let finished = if job.is_finished() {
        job.status.completion_time.or_else(|| {
            job.status
                .conditions
                .iter()
                .filter(|c| c.status == "True" && (c.type_ == "Complete" || c.type_ == "Failed"))
                .find_map(|c| c.last_transition_time)
        })
    } else {
        None
    };
    let scheduled = first.and_then(|p| {
        p.conditions
            .iter()
            .find(|c| c.type_ == "PodScheduled" && c.status == "True")
            .and_then(|c| c.last_transition_time)
    });
    let pod_events = |p: &Pod, reason: &str| -> Vec<&Event> {
        events
            .iter()
            .copied()
            .filter(|e| {
                e.involved_object.kind == "Pod"
                    && e.involved_object.name == p.meta.name
                    && e.reason == reason
                    && (e.involved_object.uid.is_empty()
                        || p.meta.uid.is_empty()
                        || e.involved_object.uid == p.meta.uid)
            })
            .collect()
    };
    let (pull_started, pulled) = match first {
        Some(p) => {
            let pulling = pod_events(p, "Pulling")
                .iter()
                .filter_map(|e| e.first_timestamp.or(e.last_timestamp))
                .min();
            let pulled = pod_events(p, "Pulled")
                .iter()
                .filter_map(|e| e.last_timestamp.or(e.first_timestamp))
                .max();
            // A cached image says Pulled without Pulling: no pull to time.
            match (pulling, pulled) {
                (Some(a), Some(b)) => (Some(a), Some(b)),
                _ => (None, None),
            }
        }
        None => (None, None),
    };
    let stages = Stages {
        slot,
        job_created: job.meta.creation_timestamp,
        first_pod_created: first.and_then(|p| p.meta.creation_timestamp),
        scheduled,
        pull_started,
        pulled,
        started: first_started,
        finished,
    };
    let clamped = [
        (stages.slot, stages.job_created),
        (stages.job_created, stages.first_pod_created),
        (stages.first_pod_created, stages.scheduled),
        (stages.scheduled, stages.started),
    ]
    .iter()
    .any(|(a, b)| matches!((a, b), (Some(a), Some(b)) if b < a));

    // Since 1.31 the Job controller decides a Job (FailureTarget, SuccessCriteriaMet) before
    // it finishes it (Failed, Complete, once every Pod is gone): a decided run is over, not
    // stuck before starting, although the CronJob controller still counts it active.
    let decided = decision(job).is_some();
    let stuck = if first_started.is_none()
        && !job.is_finished()
        && !decided
        && kind != RunKind::Suspended
    {
        Some(stuck_why(job, &pods, events))
    } else {
        None
    };

    // Failed Pods the Job counted that the snapshot no longer holds (Pod GC, a TTL).
    let failed_pods =
        i64::try_from(pods.iter().filter(|p| p.phase == "Failed").count()).unwrap_or(i64::MAX);
    let pruned_failures =
        u32::try_from((job.status.failed - failed_pods).max(0)).unwrap_or(u32::MAX);
    // Attempts per completion index; a NonIndexed Job with several completions has no index
    // to tell its units apart, so every failed start counts against one unit of work.
    let attempt_count = if attempts.is_empty() && !pods.is_empty() {
        // Its Pods are there and none has started: no start yet (past the pruned ones).
        Some(pruned_failures)
    } else if attempts.is_empty() {
        // No Pod to read: the Job's counters still prove the failed starts (and a success
        // after them); with no failure counted, whether it started is unknown.
        (job.status.failed > 0).then(|| {
            u32::try_from(
                job.status
                    .failed
                    .saturating_add(job.status.succeeded.min(1)),
            )
            .unwrap_or(u32::MAX)
        })
    } else {
        let mut per_index: std::collections::BTreeMap<Option<i64>, u32> = Default::default();
        for a in &attempts {
            let n = per_index.entry(a.index).or_default();
            *n = n.saturating_add(a.times);
        }
        let indexed = attempts.iter().any(|a| a.index.is_some());
        let base = if indexed || job.spec.completions.unwrap_or(1) <= 1 {
            per_index.values().copied().max().unwrap_or(0)
        } else {
            attempts
                .iter()
                .filter(|a| a.failed())
                .fold(1u32, |n, a| n.saturating_add(a.times))
        };
        Some(base.saturating_add(pruned_failures))
    };
    RunStory {
        job: job.meta.name.clone(),
        kind,
        stages,
        attempts,
        attempt_count,
        pruned_failures,
        pods: pods.len(),
        stuck,
        clamped,
        unknown,
    }
}

/// The interim condition of a Job the Job controller has decided but not yet finished
/// (`FailureTarget` or `SuccessCriteriaMet` True, 1.31+), with its reason.
pub fn decision(job: &Job) -> Option<(&str, &str)> {
    job.status
        .conditions
        .iter()
        .find(|c| {
            c.status == "True" && (c.type_ == "FailureTarget" || c.type_ == "SuccessCriteriaMet")
        })
        .map(|c| (c.type_.as_str(), c.reason.as_str()))
}

/// A Pod that names the Job is its Pod unless its controller reference names another object
/// of that name (a Job deleted and created again): the uid decides when both are known.
fn owned_by(p: &Pod, job: &Job) -> bool {
    match p.meta.controller() {
        Some(o) if !o.uid.is_empty() && !job.meta.uid.is_empty() => o.uid == job.meta.uid,
        _ => true,
    }
}

fn index_of(p: &Pod) -> Option<i64> {
    p.meta
        .labels
        .get(INDEX_KEY)
        .or_else(|| p.meta.annotations.get(INDEX_KEY))
        .and_then(|v| v.parse().ok())
}

/// The Pod's starts of the workload: every restart in place, then its current run.
fn attempts_of(p: &Pod) -> Vec<Attempt> {
    let index = index_of(p);
    let mk = |in_place, started, ended, outcome, message: &str| Attempt {
        pod: p.meta.name.clone(),
        index,
        in_place,
        started,
        ended,
        outcome,
        message: if message.is_empty() {
            p.message.clone()
        } else {
            message.to_string()
        },
        times: 1,
    };
    // The container that restarted most stands for the Pod's workload (they restart apart,
    // but the work is the Pod's).
    let Some(main) = p
        .container_statuses
        .iter()
        .max_by_key(|c| (c.restart_count, started_at(c).is_some()))
    else {
        return pod_level_attempt(p, index);
    };
    let mut out = Vec::new();
    let restarts = u32::try_from(main.restart_count.max(0)).unwrap_or(u32::MAX);
    // Only the last termination is recorded; earlier restarts are known by count alone, as one
    // entry that stands for all of them.
    let ls = &main.last_state;
    let recorded = restarts > 0 && ls.state == "terminated";
    let unrecorded = restarts - u32::from(recorded);
    if unrecorded > 0 {
        out.push(Attempt {
            times: unrecorded,
            ..mk(true, None, None, Outcome::Unrecorded, "")
        });
    }
    if recorded {
        out.push(mk(
            true,
            ls.started_at,
            ls.at,
            Outcome::Failed {
                reason: ls.reason.clone(),
                exit_code: ls.exit_code,
            },
            &ls.message,
        ));
    }
    let s = &main.state;
    let current = match s.state.as_str() {
        "running" => Some(mk(false, s.started_at, None, Outcome::Running, "")),
        "terminated" => Some(mk(
            false,
            s.started_at.or(s.at),
            s.at,
            if s.exit_code == Some(0) && s.reason != "OOMKilled" {
                Outcome::Succeeded
            } else {
                Outcome::Failed {
                    reason: s.reason.clone(),
                    exit_code: s.exit_code,
                }
            },
            &s.message,
        )),
        _ => None,
    };
    if let Some(mut a) = current {
        if let Some(reason) = disruption(p) {
            a.outcome = Outcome::Disrupted { reason };
        }
        out.push(a);
    } else if let Some(reason) = disruption(p) {
        // Lost before its containers reported a start: a start only if it ran.
        if p.start_time.is_some() && p.phase == "Failed" {
            out.push(mk(
                false,
                p.start_time,
                None,
                Outcome::Disrupted { reason },
                "",
            ));
        }
    }
    // A Pod's first start is its own; every later one is a restart inside it.
    for (i, a) in out.iter_mut().enumerate() {
        a.in_place = i > 0;
    }
    out
}

/// A Pod with no container statuses (pruned status, a Pod lost early): a start only when the
/// Pod itself says it ran.
fn pod_level_attempt(p: &Pod, index: Option<i64>) -> Vec<Attempt> {
    let outcome = match p.phase.as_str() {
        "Succeeded" => Outcome::Succeeded,
        "Running" => Outcome::Running,
        "Failed" => match disruption(p) {
            Some(reason) => Outcome::Disrupted { reason },
            None => Outcome::Failed {
                reason: if p.reason.is_empty() {
                    "Failed".into()
                } else {
                    p.reason.clone()
                },
                exit_code: None,
            },
        },
        _ => return Vec::new(),
    };
    vec![Attempt {
        pod: p.meta.name.clone(),
        index,
        in_place: false,
        started: p.start_time,
        ended: None,
        outcome,
        message: p.message.clone(),
        times: 1,
    }]
}

fn started_at(c: &ContainerStatus) -> Option<Timestamp> {
    c.state.started_at
}

/// Why a Pod was taken away, when it was: an eviction (`status.reason: Evicted`), the
/// `DisruptionTarget` condition's reason (preemption, taint manager, kubelet, Pod GC after a
/// lost node), or a node that stopped reporting.
fn disruption(p: &Pod) -> Option<String> {
    if let Some(c) = p
        .conditions
        .iter()
        .find(|c| c.type_ == "DisruptionTarget" && c.status == "True")
    {
        return Some(if c.reason.is_empty() {
            "DisruptionTarget".into()
        } else {
            c.reason.clone()
        });
    }
    matches!(
        p.reason.as_str(),
        "Evicted" | "NodeLost" | "Preempting" | "Terminated"
    )
    .then(|| p.reason.clone())
}

/// Why nothing of the run has started yet.
fn stuck_why(job: &Job, pods: &[&Pod], events: &[&Event]) -> Stuck {
    let newest_pod = pods
        .iter()
        .rev()
        .find(|p| p.meta.deletion_timestamp.is_none())
        .or(pods.last());
    let Some(p) = newest_pod else {
        let refused = events
            .iter()
            .filter(|e| {
                e.involved_object.kind == "Job"
                    && e.involved_object.name == job.meta.name
                    && e.reason == "FailedCreate"
            })
            .max_by_key(|e| e.last_timestamp.or(e.first_timestamp));
        return match refused {
            Some(e) => Stuck::PodsRefused {
                cause: refusal_cause(&e.message),
                message: e.message.clone(),
            },
            None => Stuck::NoPods,
        };
    };
    for c in &p.init_container_statuses {
        let s = &c.state;
        let crash = s.state == "waiting" && s.reason == "CrashLoopBackOff";
        let failed = s.state == "terminated" && s.exit_code.is_some_and(|x| x != 0);
        if crash || failed || (c.restart_count > 0 && s.state != "terminated") {
            let reason = if crash || s.reason.is_empty() {
                match c.last_state.exit_code.or(s.exit_code) {
                    Some(code) => format!(
                        "{} (exit code {code})",
                        if crash { "CrashLoopBackOff" } else { "Error" }
                    ),
                    None => "CrashLoopBackOff".into(),
                }
            } else {
                s.reason.clone()
            };
            return Stuck::InitFailing {
                container: c.name.clone(),
                reason,
            };
        }
    }
    for c in p
        .init_container_statuses
        .iter()
        .chain(&p.container_statuses)
    {
        let s = &c.state;
        if s.state != "waiting" {
            continue;
        }
        if crate::evidence::is_image_pull_failure(&s.reason) {
            return Stuck::ImagePull {
                image: c.image.clone(),
                reason: s.reason.clone(),
                message: s.message.clone(),
            };
        }
        if matches!(
            s.reason.as_str(),
            "CreateContainerConfigError" | "CreateContainerError" | "RunContainerError"
        ) {
            return Stuck::ContainerWaiting {
                container: c.name.clone(),
                reason: s.reason.clone(),
                message: s.message.clone(),
            };
        }
    }
    if let Some(c) = p
        .conditions
        .iter()
        .find(|c| c.type_ == "PodScheduled" && c.status == "False")
    {
        let event = events
            .iter()
            .filter(|e| {
                e.involved_object.kind == "Pod"
                    && e.involved_object.name == p.meta.name
                    && e.reason == "FailedScheduling"
            })
            .max_by_key(|e| e.last_timestamp.or(e.first_timestamp));
        let message = if c.message.is_empty() {
            event.map(|e| e.message.clone()).unwrap_or_default()
        } else {
            c.message.clone()
        };
        return Stuck::Unschedulable { message };
    }
    Stuck::Pending
}

/// What refused the Pod create, from the `FailedCreate` message the Job controller records.
pub fn refusal_cause(message: &str) -> &'static str {
    let m = message.to_ascii_lowercase();
    if m.contains("exceeded quota") || m.contains("resourcequota") {
        "quota"
    } else if m.contains("podsecurity") || m.contains("violates podsecurity") {
        "PodSecurity"
    } else if m.contains("admission webhook") || m.contains("denied the request") {
        "admission webhook"
    } else if m.contains("serviceaccount") || m.contains("service account") {
        "service account"
    } else if m.contains("limitrange")
        || m.contains("maximum cpu")
        || m.contains("maximum memory")
        || m.contains("minimum cpu")
        || m.contains("minimum memory")
    {
        "LimitRange"
    } else {
        "refused"
    }
}

/// The first sentence of a long message, whole when short (scheduler messages run on).
fn first_sentence(m: &str) -> String {
    let line = m.lines().next().unwrap_or(m);
    if line.chars().count() <= 160 {
        return line.to_string();
    }
    let cut: String = line.chars().take(157).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Condition, ContainerState, Evidence, ObjectMeta, OwnerReference};

    const ALL: Evidence = Evidence {
        jobs: true,
        pods: true,
        events: true,
    };

    fn t(s: &str) -> Option<Timestamp> {
        Some(s.parse().unwrap())
    }

    fn job(name: &str, created: &str) -> Job {
        let mut j = Job::default();
        j.meta.name = name.into();
        j.meta.uid = "j1".into();
        j.meta.creation_timestamp = t(created);
        j
    }

    fn pod(name: &str, created: &str, owner_uid: &str) -> Pod {
        Pod {
            meta: ObjectMeta {
                name: name.into(),
                creation_timestamp: t(created),
                owner_references: vec![OwnerReference {
                    api_version: "batch/v1".into(),
                    kind: "Job".into(),
                    name: "j".into(),
                    uid: owner_uid.into(),
                    controller: true,
                }],
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn container(state: ContainerState, last: ContainerState, restarts: i64) -> ContainerStatus {
        ContainerStatus {
            name: "c".into(),
            image: "c:1".into(),
            restart_count: restarts,
            state,
            last_state: last,
            ..Default::default()
        }
    }

    fn terminated(reason: &str, code: i64, from: &str, to: &str) -> ContainerState {
        ContainerState {
            state: "terminated".into(),
            reason: reason.into(),
            exit_code: Some(code),
            started_at: t(from),
            at: t(to),
            ..Default::default()
        }
    }

    #[test]
    fn a_start_before_the_pod_by_the_nodes_clock_is_clamped_and_said() {
        let j = job("j", "2026-11-20T11:00:05Z");
        let mut p = pod("p", "2026-11-20T11:00:06Z", "j1");
        p.conditions.push(Condition {
            type_: "PodScheduled".into(),
            status: "True".into(),
            reason: String::new(),
            message: String::new(),
            last_transition_time: t("2026-11-20T11:00:06Z"),
        });
        p.container_statuses.push(container(
            ContainerState {
                state: "running".into(),
                started_at: t("2026-11-20T11:00:02Z"),
                at: t("2026-11-20T11:00:02Z"),
                ..Default::default()
            },
            ContainerState::default(),
            0,
        ));
        let s = story(&j, t("2026-11-20T11:00:00Z"), [&p], &[], ALL);
        assert!(s.clamped);
        assert_eq!(s.start_delay(), Some(2));
        assert!(s.stage_delays().iter().all(|d| d.seconds >= 0));
        assert_eq!(s.attempt_count, Some(1));
    }

    #[test]
    fn an_evicted_pod_and_its_replacement_are_two_attempts() {
        let mut j = job("j", "2026-11-20T02:00:00Z");
        j.status.failed = 1;
        j.status.succeeded = 1;
        j.status.conditions.push(Condition {
            type_: "Complete".into(),
            status: "True".into(),
            reason: String::new(),
            message: String::new(),
            last_transition_time: t("2026-11-20T02:30:00Z"),
        });
        let mut lost = pod("a", "2026-11-20T02:00:01Z", "j1");
        lost.phase = "Failed".into();
        lost.conditions.push(Condition {
            type_: "DisruptionTarget".into(),
            status: "True".into(),
            reason: "DeletionByTaintManager".into(),
            message: String::new(),
            last_transition_time: t("2026-11-20T02:10:00Z"),
        });
        lost.container_statuses.push(container(
            terminated("Error", 137, "2026-11-20T02:00:03Z", "2026-11-20T02:10:00Z"),
            ContainerState::default(),
            0,
        ));
        let mut again = pod("b", "2026-11-20T02:10:02Z", "j1");
        again.phase = "Succeeded".into();
        again.container_statuses.push(container(
            terminated(
                "Completed",
                0,
                "2026-11-20T02:10:05Z",
                "2026-11-20T02:29:00Z",
            ),
            ContainerState::default(),
            0,
        ));
        let s = story(&j, t("2026-11-20T02:00:00Z"), [&again, &lost], &[], ALL);
        assert_eq!(s.attempt_count, Some(2));
        assert_eq!(s.pruned_failures, 0);
        assert_eq!(
            s.attempts[0].describe(),
            "its pod was lost (DeletionByTaintManager) after 9m57s"
        );
        assert_eq!(s.attempts[1].outcome, Outcome::Succeeded);
    }

    #[test]
    fn restarts_in_place_keep_the_last_reason_and_count_the_rest() {
        let j = job("j", "2026-11-20T02:00:00Z");
        let mut p = pod("p", "2026-11-20T02:00:01Z", "j1");
        p.container_statuses.push(container(
            ContainerState {
                state: "running".into(),
                started_at: t("2026-11-20T02:09:00Z"),
                ..Default::default()
            },
            terminated(
                "OOMKilled",
                137,
                "2026-11-20T02:05:00Z",
                "2026-11-20T02:08:00Z",
            ),
            3,
        ));
        let s = story(&j, t("2026-11-20T02:00:00Z"), [&p], &[], ALL);
        assert_eq!(s.attempt_count, Some(4));
        let kinds: Vec<(bool, String)> = s
            .attempts
            .iter()
            .map(|a| (a.in_place, a.describe()))
            .collect();
        assert_eq!(
            kinds,
            [
                (
                    false,
                    "failed 2 times (reasons no longer recorded)".to_string()
                ),
                (true, "OOMKilled after 3m".to_string()),
                (true, "still running".to_string()),
            ]
        );
        // restartCount is input: a huge one is one entry and a saturated count, not billions
        // of entries.
        p.container_statuses[0].restart_count = i64::MAX;
        let s = story(&j, t("2026-11-20T02:00:00Z"), [&p], &[], ALL);
        assert_eq!(s.attempts.len(), 3);
        assert_eq!(s.attempt_count, Some(u32::MAX));
    }

    #[test]
    fn a_pod_of_another_job_with_the_same_name_is_not_an_attempt() {
        let j = job("j", "2026-11-20T02:00:00Z");
        let mut other = pod("p", "2026-11-19T02:00:01Z", "old-uid");
        other.phase = "Failed".into();
        other.container_statuses.push(container(
            terminated("Error", 1, "2026-11-19T02:00:03Z", "2026-11-19T02:01:00Z"),
            ContainerState::default(),
            0,
        ));
        let s = story(&j, t("2026-11-20T02:00:00Z"), [&other], &[], ALL);
        assert!(s.attempts.is_empty());
        assert_eq!(s.pods, 0);
        assert_eq!(s.attempt_count, None);
        assert_eq!(s.stuck, Some(Stuck::NoPods));
    }

    #[test]
    fn a_non_indexed_job_of_several_completions_counts_failed_starts_not_pods() {
        let mut j = job("j", "2026-11-20T02:00:00Z");
        j.spec.completions = Some(3);
        let ok = |n: &str| {
            let mut p = pod(n, "2026-11-20T02:00:01Z", "j1");
            p.phase = "Succeeded".into();
            p.container_statuses.push(container(
                terminated(
                    "Completed",
                    0,
                    "2026-11-20T02:00:03Z",
                    "2026-11-20T02:01:00Z",
                ),
                ContainerState::default(),
                0,
            ));
            p
        };
        let (a, b, c) = (ok("a"), ok("b"), ok("c"));
        let s = story(&j, t("2026-11-20T02:00:00Z"), [&a, &b, &c], &[], ALL);
        assert_eq!(s.attempt_count, Some(1));
        let mut failed = ok("d");
        failed.phase = "Failed".into();
        failed.container_statuses[0].state =
            terminated("Error", 2, "2026-11-20T02:00:03Z", "2026-11-20T02:00:30Z");
        let s = story(
            &j,
            t("2026-11-20T02:00:00Z"),
            [&a, &b, &c, &failed],
            &[],
            ALL,
        );
        assert_eq!(s.attempt_count, Some(2));
    }

    #[test]
    fn refusals_are_named_by_what_refused() {
        assert_eq!(
            refusal_cause("pods \"x\" is forbidden: exceeded quota: compute"),
            "quota"
        );
        assert_eq!(
            refusal_cause("admission webhook \"policy.example\" denied the request: no"),
            "admission webhook"
        );
        assert_eq!(
            refusal_cause(
                "pods \"x\" is forbidden: violates PodSecurity \"restricted:latest\": privileged"
            ),
            "PodSecurity"
        );
        assert_eq!(
            refusal_cause(
                "error looking up service account ops/runner: serviceaccount \"runner\" not found"
            ),
            "service account"
        );
        assert_eq!(refusal_cause("something else"), "refused");
    }
}
