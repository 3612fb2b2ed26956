//! CJD037 run-not-started: the most recent due run has its Job, but none of its work has
//! started, and it has been stuck before starting for longer than a healthy start takes: its
//! Pods are refused, cannot be scheduled, cannot pull their image, or an init container keeps
//! failing. The run is lost as surely as a skipped one, so it leads the headline.

use super::common::{slot_words, stories, threshold};
use crate::rules::{Context, Finding, Phase, Rule, Severity};
use crate::runs::{RunKind, RunStory, Stuck};
use crate::text::{human_duration, shell_command};

/// Stuck this long (at least) before it is said: scheduling and a cold image pull take a
/// minute or two on a healthy cluster; five minutes is past any of that.
pub const FLOOR_SECONDS: i64 = 300;
/// …or this share of the schedule's typical interval, when that is longer: a daily job that
/// starts 20 minutes late is late, not lost.
pub const PERCENT_OF_INTERVAL: i64 = 10;

pub static RULE: Rule = Rule {
    id: "CJD037",
    slug: "run-not-started",
    severity: Severity::Error,
    summary: "The most recent run has a Job, but none of its work has started.",
    explanation: "The controller did its part — it created the Job for the slot — but the run is \
stuck before any container started: the Job's Pods are refused (`FailedCreate`: a quota, an \
admission webhook, PodSecurity, a missing service account), the scheduler cannot place the Pod \
(`Unschedulable`), its image cannot be pulled (`ErrImagePull`, `ImagePullBackOff`), an init \
container keeps failing, or a container cannot be created (a missing Secret or ConfigMap). \
Nothing of the run has happened, and the CronJob's status does not say so: `lastScheduleTime` \
moved on when the Job was created. Reported for the most recent due slot once it has been stuck \
for more than 5 minutes, or 10% of the schedule's interval when that is longer (a daily job \
waits 2h24m).",
    remediation: "Fix what stops the Pod, named in the finding: free or add capacity (or lower \
the Pod's requests) for an unschedulable Pod, correct the image or its pull secret, raise the \
quota or change what the admission policy refuses, fix the init container. The Job then starts \
by itself; a Job that is stuck for good can be deleted so the next slot runs clean.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: ops, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T11:00:00Z", active: [{name: report-29919540, namespace: ops}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: report-29919540, namespace: ops, uid: j1, creationTimestamp: "2026-11-20T11:00:01Z", ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: report, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T11:00:01Z", active: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: report-29919540-abcde, namespace: ops, creationTimestamp: "2026-11-20T11:00:02Z", labels: {job-name: report-29919540}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: report-29919540, uid: j1, controller: true}]}
status:
  phase: Pending
  conditions:
  - {type: PodScheduled, status: "False", reason: Unschedulable, message: "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", lastTransitionTime: "2026-11-20T11:00:02Z"}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: ops, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T11:00:00Z", active: [{name: report-29919540, namespace: ops}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: report-29919540, namespace: ops, uid: j1, creationTimestamp: "2026-11-20T11:00:01Z", ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: report, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T11:00:01Z", active: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: report-29919540-abcde, namespace: ops, creationTimestamp: "2026-11-20T11:00:02Z", labels: {job-name: report-29919540}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: report-29919540, uid: j1, controller: true}]}
status:
  phase: Running
  conditions:
  - {type: PodScheduled, status: "True", lastTransitionTime: "2026-11-20T11:00:02Z"}
  containerStatuses:
  - {name: c, image: c:1, ready: true, restartCount: 0, state: {running: {startedAt: "2026-11-20T11:00:09Z"}}}
"#,
    example_now: "2026-11-20T11:30:00Z",
    check,
};

/// The most recent due run when it is stuck past the threshold: its Job, story, slot and how
/// long it has waited.
fn stuck_run<'a>(
    ctx: &Context<'a>,
) -> Option<(&'a crate::model::Job, RunStory, jiff::Timestamp, i64)> {
    // The newest run the schedule made (manual runs are not a slot's run).
    let (job, s) = stories(ctx).iter().find(|(j, _)| !j.is_manual())?;
    let (job, s) = (*job, s.clone());
    let slot = s.stages.slot?;
    if s.stuck.is_none() || s.kind != RunKind::Scheduled {
        return None;
    }
    // The most recent due run: no later slot has come due (then Forbid, or the missed slots,
    // are the story, and other rules tell it).
    if let Some(eff) = ctx.replay.effective()
        && eff.next_after(slot).is_some_and(|n| n <= ctx.now)
    {
        return None;
    }
    let waited = (ctx.now - slot).get_seconds();
    (waited > threshold(ctx, FLOOR_SECONDS, PERCENT_OF_INTERVAL)).then_some((job, s, slot, waited))
}

/// A table cell's words: "not started 30m: unschedulable".
pub fn short_status(ctx: &Context) -> Option<String> {
    let (_, s, _, waited) = stuck_run(ctx)?;
    Some(format!(
        "not started {}: {}",
        human_duration(waited),
        s.stuck.as_ref()?.short()
    ))
}

fn check(ctx: &Context) -> Vec<Finding> {
    let Some((job, s, slot, waited)) = stuck_run(ctx) else {
        return Vec::new();
    };
    let Some(stuck) = &s.stuck else {
        return Vec::new();
    };
    let at = slot_words(ctx, slot);
    let cause = stuck.describe();
    let mut f = Finding::new(
        &RULE,
        format!(
            "The {at} run (Job {}) has not started after {}: {}",
            job.meta.name,
            human_duration(waited),
            crate::text::sentence(&cause)
        ),
    )
    .headline(format!(
        "has not started its {at} run after {}: {cause}",
        human_duration(waited)
    ));
    for line in stage_lines(ctx, &s) {
        f = f.evidence(line);
    }
    if let Some(m) = detail(stuck) {
        f = f.evidence(m);
    }
    for u in &s.unknown {
        f = f.evidence(format!("{u}: the stages they record are unknown"));
    }
    // The plan leads with the cause, as the Forbid plan does for a Pod that cannot start.
    let look = match (
        stuck,
        s.attempts.first().map(|a| a.pod.as_str()).or_else(|| {
            ctx.pods_of(&job.meta.name)
                .next()
                .map(|p| p.meta.name.as_str())
        }),
    ) {
        (Stuck::PodsRefused { cause: "quota", .. }, _) => {
            shell_command(["kubectl", "describe", "resourcequota", "-n", ctx.namespace])
        }
        (_, Some(pod)) => shell_command(["kubectl", "describe", "pod", pod, "-n", ctx.namespace]),
        (_, None) => shell_command([
            "kubectl",
            "describe",
            "job",
            &job.meta.name,
            "-n",
            ctx.namespace,
        ]),
    };
    vec![
        f.step(Phase::Cause, look, format!("the {at} run: {cause}"))
            .fix(fix_for(ctx, stuck, &job.meta.name, &s)),
    ]
}

/// The stages the evidence shows, one line each, in the schedule's zone.
pub(super) fn stage_lines(ctx: &Context, s: &RunStory) -> Vec<String> {
    s.stage_lines(|t| ctx.show_time(t))
}

/// The full message behind a shortened cause.
fn detail(stuck: &Stuck) -> Option<String> {
    match stuck {
        Stuck::ImagePull { message, .. } if !message.is_empty() => {
            Some(format!("kubelet: {message}"))
        }
        Stuck::PodsRefused { message, .. } if message.chars().count() > 160 => {
            Some(format!("FailedCreate: {message}"))
        }
        Stuck::Unschedulable { message } if message.chars().count() > 160 => {
            Some(format!("scheduler: {message}"))
        }
        _ => None,
    }
}

fn fix_for(ctx: &Context, stuck: &Stuck, job: &str, s: &crate::runs::RunStory) -> String {
    let ns = ctx.namespace;
    let pod = s
        .attempts
        .first()
        .map(|a| a.pod.clone())
        .or_else(|| ctx.pods_of(job).next().map(|p| p.meta.name.clone()));
    let describe_pod = pod
        .as_deref()
        .map(|p| shell_command(["kubectl", "describe", "pod", p, "-n", ns]));
    let describe_job = shell_command(["kubectl", "describe", "job", job, "-n", ns]);
    let look = describe_pod.clone().unwrap_or_else(|| describe_job.clone());
    match stuck {
        Stuck::PodsRefused { cause: "quota", .. } => format!(
            "The namespace's ResourceQuota refuses the Pod: raise it or lower the Pod's requests ({}); {describe_job} shows the refusal",
            shell_command(["kubectl", "describe", "resourcequota", "-n", ns])
        ),
        Stuck::PodsRefused { cause, .. } => format!(
            "Change what the {cause} refuses in the job template (the message names it), or the policy; {describe_job} shows the refusal"
        ),
        Stuck::NoPods => format!(
            "Find out why the Job has no Pod: {describe_job} (its Events expire after an hour; the Job controller's FailedCreate names a quota or an admission refusal)"
        ),
        Stuck::Unschedulable { .. } => format!(
            "Make room for the Pod: add capacity or free it, or lower the Pod's resources.requests, or relax its nodeSelector, affinity or tolerations (the scheduler's message says which); {look}"
        ),
        Stuck::ImagePull { image, .. } => format!(
            "Fix the image reference {image} or its pull secret (imagePullSecrets), then the Job starts by itself; {look}"
        ),
        Stuck::InitFailing { container, .. } => {
            let logs = pod.as_deref().map_or_else(
                || describe_job.clone(),
                |p| shell_command(["kubectl", "logs", p, "-n", ns, "-c", container]),
            );
            format!("Fix init container {container}: {logs}")
        }
        Stuck::ContainerWaiting { .. } => {
            format!(
                "Create what the container needs (the message names the Secret or ConfigMap); {look}"
            )
        }
        Stuck::Pending => format!("Look at what the Pod waits for (volumes, the node): {look}"),
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run};

    #[test]
    fn an_unschedulable_pod_leads_with_the_schedulers_words() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "run-not-started");
        assert_eq!(
            f[0].message,
            "The 11:00 run (Job report-29919540) has not started after 30m: its pod cannot be scheduled — 0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        );
        assert_eq!(
            r.cron_jobs[0].headline,
            "report has not started its 11:00 run after 30m: its pod cannot be scheduled — 0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        );
        assert!(
            f[0].remediation.starts_with("Make room for the Pod"),
            "{}",
            f[0].remediation
        );
        assert_eq!(r.cron_jobs[0].status, "not started 30m: unschedulable");
    }

    #[test]
    fn quiet_until_the_threshold_and_once_a_later_slot_is_due() {
        // Hourly: 10% of the interval (6m) is more than the 5m floor. At 6m a slow start, not
        // yet a stuck one.
        assert!(
            findings(
                &run(RULE.fires_on, "2026-11-20T11:06:00Z"),
                "run-not-started"
            )
            .is_empty()
        );
        assert_eq!(
            findings(
                &run(RULE.fires_on, "2026-11-20T11:06:01Z"),
                "run-not-started"
            )
            .len(),
            1
        );
        // 12:00 came due with no Job: the 11:00 run is no longer the most recent one.
        assert!(
            findings(
                &run(RULE.fires_on, "2026-11-20T12:01:00Z"),
                "run-not-started"
            )
            .is_empty()
        );
    }

    #[test]
    fn refused_pods_name_the_quota_from_the_jobs_event() {
        let y = RULE
            .fires_on
            .split("\n---\napiVersion: v1\nkind: Pod")
            .next()
            .unwrap()
            .to_string()
            + r#"
---
apiVersion: v1
kind: Event
metadata: {name: e1, namespace: ops}
involvedObject: {kind: Job, name: report-29919540, namespace: ops}
reason: FailedCreate
type: Warning
message: 'Error creating: pods "report-29919540-x" is forbidden: exceeded quota: compute, requested: limits.memory=4Gi, used: limits.memory=8Gi, limited: limits.memory=10Gi'
firstTimestamp: "2026-11-20T11:00:01Z"
lastTimestamp: "2026-11-20T11:25:00Z"
count: 14
"#;
        let r = run(&y, RULE.example_now);
        let f = findings(&r, "run-not-started");
        assert!(f[0].message.contains("its pods are refused (quota) — Error creating: pods \"report-29919540-x\" is forbidden: exceeded quota: compute"), "{}", f[0].message);
        assert!(
            f[0].remediation
                .contains("kubectl describe resourcequota -n ops"),
            "{}",
            f[0].remediation
        );
        // Without the Event: no pod, and no word on why.
        let bare = RULE
            .fires_on
            .split("\n---\napiVersion: v1\nkind: Pod")
            .next()
            .unwrap();
        let r = run(bare, RULE.example_now);
        let f = findings(&r, "run-not-started");
        assert!(
            f[0].message
                .ends_with("no pod was created (no Event says why)."),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn image_pull_and_init_containers() {
        let pull = RULE.fires_on.replace(
            "  conditions:\n  - {type: PodScheduled, status: \"False\", reason: Unschedulable, message: \"0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\", lastTransitionTime: \"2026-11-20T11:00:02Z\"}",
            "  conditions:\n  - {type: PodScheduled, status: \"True\", lastTransitionTime: \"2026-11-20T11:00:02Z\"}\n  containerStatuses:\n  - {name: c, image: registry.example/c:1, ready: false, restartCount: 0, state: {waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image \"registry.example/c:1\"'}}}",
        );
        assert_ne!(pull, RULE.fires_on);
        let r = run(&pull, RULE.example_now);
        let f = findings(&r, "run-not-started");
        assert!(
            f[0].message
                .ends_with("its pod cannot pull registry.example/c:1 — ImagePullBackOff."),
            "{}",
            f[0].message
        );
        let init = pull.replace(
            "  containerStatuses:\n",
            "  initContainerStatuses:\n  - {name: migrate, image: m:1, restartCount: 4, state: {waiting: {reason: CrashLoopBackOff}}, lastState: {terminated: {exitCode: 1, reason: Error}}}\n  containerStatuses:\n",
        ).replace("{waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image \"registry.example/c:1\"'}}", "{waiting: {reason: PodInitializing}}");
        let r = run(&init, RULE.example_now);
        let f = findings(&r, "run-not-started");
        assert!(
            f[0].message.ends_with(
                "init container migrate keeps failing — CrashLoopBackOff (exit code 1)."
            ),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_suspended_manual_or_elsewhere_managed_job_is_not_a_stuck_run() {
        for (from, to, label) in [
            (
                "status: {startTime: \"2026-11-20T11:00:01Z\", active: 1}",
                "spec: {suspend: true}\nstatus: {active: 0}",
                "Job suspended (spec.suspend)",
            ),
            (
                "status: {startTime: \"2026-11-20T11:00:01Z\", active: 1}",
                "spec: {managedBy: kueue.x-k8s.io/multikueue}\nstatus: {active: 1}",
                "Job managed by kueue.x-k8s.io/multikueue",
            ),
        ] {
            let y = RULE.fires_on.replace(from, to);
            assert_ne!(y, RULE.fires_on);
            let r = run(&y, RULE.example_now);
            assert!(findings(&r, "run-not-started").is_empty(), "{to}");
            // The timeline says whose run it is, and never "late".
            let slot = r.cron_jobs[0]
                .timeline
                .iter()
                .find(|s| s.job.as_deref() == Some("report-29919540"))
                .unwrap();
            assert!(slot.note.starts_with(label), "{}", slot.note);
            assert!(!slot.note.contains("late"), "{}", slot.note);
        }
    }
}
