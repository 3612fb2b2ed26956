//! CJD038 late-start: the most recent run's work started well after its slot. The finding
//! names the stage that took the time — the controller creating the Job, the Pod waiting
//! for the scheduler, the image pull, the containers starting — from the run's story.

use super::common::{slot_words, stories, threshold};
use super::run_not_started::stage_lines;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::runs::{RunKind, Stage};
use crate::text::human_duration;

/// Late by at least this much before it is said: a healthy start (the controller's sync, the
/// scheduler, a warm image) takes seconds; two minutes is past any of that.
pub const FLOOR_SECONDS: i64 = 120;
/// …or this share of the schedule's typical interval, when that is longer.
pub const PERCENT_OF_INTERVAL: i64 = 5;

pub static RULE: Rule = Rule {
    id: "CJD038",
    slug: "late-start",
    severity: Severity::Warning,
    summary: "The most recent run started well after its slot; the stage that took the time is named.",
    explanation: "A run's start is the sum of its stages: the controller creates the Job (its \
`creationTimestamp` against the slot, from the `batch.kubernetes.io/cronjob-scheduled-timestamp` \
annotation or the Job name's minutes), the Job controller creates the Pod, the scheduler places \
it (`PodScheduled`), the kubelet pulls the image (`Pulling`/`Pulled` Events) and starts the \
containers (`startedAt`). Reported when the most recent run's first container started more than \
2 minutes after its slot, or 5% of the schedule's interval when that is longer. A controller \
that creates Jobs minutes late is overloaded or not leading, and is late for every CronJob; a \
slow pull or a long wait for the scheduler is this workload's. Events expire after an hour: \
older runs are timed from object timestamps alone, and the pull is then not told apart from the \
start.",
    remediation: "Work on the named stage. Controller: look at kube-controller-manager (its \
CPU, leader election, `--concurrent-cron-job-syncs`). Scheduling: capacity, the Pod's \
requests, affinity and taints. Image pull: a smaller image, a registry mirror or pre-pulled \
images, `imagePullPolicy: IfNotPresent` for pinned tags. Starting: init containers and volumes. \
Work that must finish by a time needs its schedule moved earlier by the usual delay.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: ops, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T11:00:00Z", lastSuccessfulTime: "2026-11-20T11:09:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: report-29919540, namespace: ops, uid: j1, creationTimestamp: "2026-11-20T11:07:12Z", ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: report, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T11:07:12Z", completionTime: "2026-11-20T11:09:00Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: report-29919540-abcde, namespace: ops, uid: p1, creationTimestamp: "2026-11-20T11:07:13Z", labels: {job-name: report-29919540}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: report-29919540, uid: j1, controller: true}]}
status:
  phase: Succeeded
  conditions:
  - {type: PodScheduled, status: "True", lastTransitionTime: "2026-11-20T11:07:13Z"}
  containerStatuses:
  - {name: c, image: c:1, ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2026-11-20T11:07:16Z", finishedAt: "2026-11-20T11:08:58Z"}}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: ops, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T11:00:00Z", lastSuccessfulTime: "2026-11-20T11:02:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: report-29919540, namespace: ops, uid: j1, creationTimestamp: "2026-11-20T11:00:01Z", ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: report, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T11:00:01Z", completionTime: "2026-11-20T11:02:00Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: report-29919540-abcde, namespace: ops, uid: p1, creationTimestamp: "2026-11-20T11:00:02Z", labels: {job-name: report-29919540}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: report-29919540, uid: j1, controller: true}]}
status:
  phase: Succeeded
  conditions:
  - {type: PodScheduled, status: "True", lastTransitionTime: "2026-11-20T11:00:02Z"}
  containerStatuses:
  - {name: c, image: c:1, ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2026-11-20T11:00:05Z", finishedAt: "2026-11-20T11:01:58Z"}}}
"#,
    example_now: "2026-11-20T11:30:00Z",
    check,
};

/// How late `story`'s work started when that is late enough to say (this rule's threshold),
/// with the stage that took the most of it; None for runs that cannot be late.
pub fn lateness(
    ctx: &Context,
    story: &crate::runs::RunStory,
) -> Option<(i64, Option<crate::runs::LateStage>)> {
    if story.kind != RunKind::Scheduled {
        return None;
    }
    let delay = story.start_delay()?;
    (delay > threshold(ctx, FLOOR_SECONDS, PERCENT_OF_INTERVAL))
        .then(|| (delay, story.slowest_stage()))
}

/// The newest scheduled run whose work has started (a run still stuck is run-not-started's).
fn newest_started<'c, 'a>(
    ctx: &'c Context<'a>,
) -> Option<(&'a crate::model::Job, &'c crate::runs::RunStory)> {
    stories(ctx)
        .iter()
        .filter(|(j, _)| !j.is_manual())
        .find(|(_, s)| s.stages.started.is_some())
        .map(|(j, s)| (*j, s))
}

/// How long after its slot the controller created the newest started run's Job, when the
/// run is late and that is the stage that took the most time.
pub fn controller_lag(ctx: &Context) -> Option<i64> {
    let (_, s) = newest_started(ctx)?;
    let (_, stage) = lateness(ctx, s)?;
    stage
        .filter(|l| l.stage == Stage::Controller)
        .map(|l| l.seconds)
}

/// A scan's one word on a lagging controller: when it created the newest Job of several
/// CronJobs late (`lagging`: `namespace/name` and the lag), that is one cause — the
/// controller — not one finding per CronJob with no link between them.
pub fn lagging_controller_note(lagging: &[(String, i64)]) -> Option<String> {
    if lagging.len() < 2 {
        return None;
    }
    let mut sorted = lagging.to_vec();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let shown: Vec<String> = sorted
        .iter()
        .take(5)
        .map(|(n, s)| format!("{n} {}", human_duration(*s)))
        .collect();
    let more = if sorted.len() > 5 {
        format!(", and {} more", sorted.len() - 5)
    } else {
        String::new()
    };
    Some(format!(
        "the controller created the newest Job of {} CronJobs minutes after their slots ({}{more}): one cause, kube-controller-manager — overloaded, throttled or not leading (its CPU, leader election, --concurrent-cron-job-syncs)",
        sorted.len(),
        shown.join(", ")
    ))
}

/// A table cell's words: "late 11m3s: image pull".
pub fn short_status(ctx: &Context) -> Option<String> {
    let (_, s) = newest_started(ctx)?;
    let (delay, stage) = lateness(ctx, s)?;
    Some(match stage {
        Some(l) => format!("late {}: {}", human_duration(delay), l.short()),
        None => format!("late {}", human_duration(delay)),
    })
}

fn check(ctx: &Context) -> Vec<Finding> {
    let Some((job, s)) = newest_started(ctx) else {
        return Vec::new();
    };
    if s.kind != RunKind::Scheduled {
        return Vec::new();
    }
    let (Some(delay), Some(slot)) = (s.start_delay(), s.stages.slot) else {
        return Vec::new();
    };
    if delay <= threshold(ctx, FLOOR_SECONDS, PERCENT_OF_INTERVAL) {
        return Vec::new();
    }
    let at = slot_words(ctx, slot);
    let slowest = s.slowest_stage();
    let why = match &slowest {
        Some(l) => l.describe(),
        None => "the evidence does not show which stage took the time".to_string(),
    };
    let mut f = Finding::new(
        &RULE,
        format!(
            "The {at} run (Job {}) started {} after its slot: {}",
            job.meta.name,
            human_duration(delay),
            crate::text::sentence(&why)
        ),
    )
    .headline(format!(
        "started its {at} run {} late: {why}",
        human_duration(delay)
    ));
    for line in stage_lines(ctx, s) {
        f = f.evidence(line);
    }
    // A lagging controller shows on every run it created, Pods or not: the earlier Jobs'
    // creation times against their slots.
    if slowest
        .as_ref()
        .is_some_and(|l| l.stage == Stage::Controller)
    {
        for (_, o) in stories(ctx)
            .iter()
            .filter(|(j, _)| !j.is_manual() && j.meta.name != job.meta.name)
            .take(5)
        {
            if let (Some(slot), Some(created)) = (o.stages.slot, o.stages.job_created) {
                f = f.evidence(format!(
                    "the {} run's Job was created {} after its slot",
                    slot_words(ctx, slot),
                    human_duration((created - slot).get_seconds().max(0))
                ));
            }
        }
    }
    if s.stages.pulled.is_none() && s.stages.scheduled.is_some() && !ctx.evidence.events {
        f = f.evidence("no Events in the input: the image pull is not told apart from the start");
    }
    let fix = match slowest.map(|l| l.stage) {
        Some(Stage::Controller) => "The controller is slow to create Jobs: look at kube-controller-manager (CPU, leader election, --concurrent-cron-job-syncs); it is late for every CronJob, not this one".to_string(),
        Some(Stage::PodCreation) => format!(
            "The Job's Pod was created late: look for refused creates (quota, admission) in {}",
            crate::text::shell_command(["kubectl", "describe", "job", &job.meta.name, "-n", ctx.namespace])
        ),
        Some(Stage::Scheduling) => "The Pod waited for a node: add capacity, lower its requests, or relax its affinity, nodeSelector or tolerations".to_string(),
        Some(Stage::ImagePull) => "The image pull is slow: a smaller image, a registry mirror or pre-pulled images, and imagePullPolicy: IfNotPresent for a pinned tag".to_string(),
        Some(Stage::Starting) | None => format!(
            "Look at what the Pod waits for before its containers run (init containers, volumes): {}",
            crate::text::shell_command(["kubectl", "describe", "job", &job.meta.name, "-n", ctx.namespace])
        ),
    };
    vec![f.fix(fix)]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run};

    #[test]
    fn a_late_controller_is_named_as_the_stage() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "late-start");
        assert_eq!(
            f[0].message,
            "The 11:00 run (Job report-29919540) started 7m16s after its slot: the controller created the Job 7m12s after its slot."
        );
        assert!(f[0].remediation.contains("kube-controller-manager"));
        assert_eq!(
            r.cron_jobs[0].headline,
            "report started its 11:00 run 7m16s late: the controller created the Job 7m12s after its slot"
        );
        assert_eq!(r.cron_jobs[0].status, "late 7m16s: controller");
    }

    #[test]
    fn the_slowest_stage_is_named_pull_or_scheduling() {
        // Created on time; the pod waited 9m for a node.
        let sched = RULE
            .fires_on
            .replace("creationTimestamp: \"2026-11-20T11:07:12Z\"", "creationTimestamp: \"2026-11-20T11:00:01Z\"")
            .replace("creationTimestamp: \"2026-11-20T11:07:13Z\"", "creationTimestamp: \"2026-11-20T11:00:02Z\"")
            .replace("{type: PodScheduled, status: \"True\", lastTransitionTime: \"2026-11-20T11:07:13Z\"}", "{type: PodScheduled, status: \"True\", lastTransitionTime: \"2026-11-20T11:09:02Z\"}")
            .replace("startedAt: \"2026-11-20T11:07:16Z\"", "startedAt: \"2026-11-20T11:09:05Z\"");
        let r = run(&sched, RULE.example_now);
        let f = findings(&r, "late-start");
        assert_eq!(
            f[0].message,
            "The 11:00 run (Job report-29919540) started 9m5s after its slot: the pod waited 9m to be scheduled."
        );
        // Scheduled at once; the image took 10m58s (Pulling/Pulled Events).
        let pull = sched
            .replace(
                "lastTransitionTime: \"2026-11-20T11:09:02Z\"",
                "lastTransitionTime: \"2026-11-20T11:00:02Z\"",
            )
            .replace(
                "startedAt: \"2026-11-20T11:09:05Z\"",
                "startedAt: \"2026-11-20T11:11:02Z\"",
            )
            + r#"
---
apiVersion: v1
kind: Event
metadata: {name: e1, namespace: ops}
involvedObject: {kind: Pod, name: report-29919540-abcde, namespace: ops, uid: p1}
reason: Pulling
type: Normal
message: Pulling image "c:1"
firstTimestamp: "2026-11-20T11:00:03Z"
lastTimestamp: "2026-11-20T11:00:03Z"
---
apiVersion: v1
kind: Event
metadata: {name: e2, namespace: ops}
involvedObject: {kind: Pod, name: report-29919540-abcde, namespace: ops, uid: p1}
reason: Pulled
type: Normal
message: Successfully pulled image "c:1" in 10m58s
firstTimestamp: "2026-11-20T11:11:01Z"
lastTimestamp: "2026-11-20T11:11:01Z"
"#;
        let r = run(&pull, RULE.example_now);
        let f = findings(&r, "late-start");
        assert_eq!(
            f[0].message,
            "The 11:00 run (Job report-29919540) started 11m2s after its slot: pulling the image took 10m58s."
        );
    }

    #[test]
    fn quiet_under_the_threshold_for_manual_runs_and_across_skewed_clocks() {
        // 1m59s late: within the floor.
        let y = RULE
            .fires_on
            .replace("2026-11-20T11:07:16Z", "2026-11-20T11:01:59Z")
            .replace("2026-11-20T11:07:12Z", "2026-11-20T11:00:01Z")
            .replace("2026-11-20T11:07:13Z", "2026-11-20T11:00:02Z");
        assert!(findings(&run(&y, RULE.example_now), "late-start").is_empty());
        let manual = RULE.fires_on.replace(
            "metadata: {name: report-29919540, namespace: ops, uid: j1,",
            "metadata: {name: report-manual-x, namespace: ops, uid: j1, annotations: {cronjob.kubernetes.io/instantiate: manual},",
        ).replace("job-name: report-29919540", "job-name: report-manual-x").replace("name: report-29919540, uid: j1", "name: report-manual-x, uid: j1");
        assert!(findings(&run(&manual, RULE.example_now), "late-start").is_empty());
        // The node's clock is behind the API server's: the start "precedes" the pod; no
        // negative delay, and the evidence says the clocks disagree.
        let skew = RULE.fires_on.replace(
            "startedAt: \"2026-11-20T11:07:16Z\"",
            "startedAt: \"2026-11-20T11:07:10Z\"",
        );
        let r = run(&skew, RULE.example_now);
        let f = findings(&r, "late-start");
        assert!(
            f[0].message.contains("started 7m10s after its slot"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].evidence.iter().any(|e| e.contains("clocks")),
            "{:?}",
            f[0].evidence
        );
    }

    #[test]
    fn several_lagging_cronjobs_are_one_note_worst_first() {
        use super::lagging_controller_note;
        assert_eq!(lagging_controller_note(&[("a/x".into(), 400)]), None);
        let many: Vec<(String, i64)> = (0..7).map(|i| (format!("ns/cj{i}"), 300 + i)).collect();
        let note = lagging_controller_note(&many).unwrap();
        assert!(
            note.starts_with("the controller created the newest Job of 7 CronJobs minutes after their slots (ns/cj6 5m6s, ns/cj5 5m5s, ns/cj4 5m4s, ns/cj3 5m3s, ns/cj2 5m2s, and 2 more): one cause"),
            "{note}"
        );
    }
}
