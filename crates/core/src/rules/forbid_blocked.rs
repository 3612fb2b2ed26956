//! CJD007 forbid-blocked: `concurrencyPolicy: Forbid` and a Job that never finishes. Every
//! slot while it is active produces `JobAlreadyActive` and `lastScheduleTime` stops moving.
//! The Job is traced to its Pods so the headline says *why* it hangs.

use super::runtime::common::{active_deadline_patch, suggested_active_deadline};
use super::{Context, Finding, Phase, Rule, Severity};
use crate::evidence::{job_start, pod_problem, pod_problem_line};
use crate::model::ConcurrencyPolicy;
use crate::replay::Decision;
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD007",
    slug: "forbid-blocked",
    severity: Severity::Error,
    summary: "With concurrencyPolicy Forbid, an active Job blocks every later slot.",
    explanation: "Under `Forbid` the controller skips a slot whenever `status.active` is not \
empty (event `JobAlreadyActive`) and does not advance `lastScheduleTime`. A Job that never \
reaches Complete or Failed — a Pod in ImagePullBackOff with `restartPolicy: Never`, an \
unschedulable Pod, a Pod stuck Terminating on a lost node, a suspended Job — therefore stops the \
CronJob for good. Manual Jobs (`kubectl create job --from`) are not in `status.active` and never \
block.",
    remediation: "Delete the hung Job; with no `startingDeadlineSeconds` (or a large one) the \
controller then starts the most recent missed slot at once. Then set \
`jobTemplate.spec.activeDeadlineSeconds` so a hung Job fails by itself.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops, uid: cj-1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: registry.example/backup:2.0}]
status:
  lastScheduleTime: "2026-11-17T03:00:00Z"
  active: [{name: backup-29914740, namespace: ops, uid: job-1}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: backup-29914740
  namespace: ops
  uid: job-1
  creationTimestamp: "2026-11-17T03:00:00Z"
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: backup, uid: cj-1, controller: true}]
spec: {template: {spec: {restartPolicy: Never, containers: [{name: backup, image: registry.example/backup:2.0}]}}}
status: {startTime: "2026-11-17T03:00:00Z", active: 1}
---
apiVersion: v1
kind: Pod
metadata:
  name: backup-29914740-x7k2p
  namespace: ops
  labels: {job-name: backup-29914740}
  creationTimestamp: "2026-11-17T03:00:00Z"
status:
  phase: Pending
  startTime: "2026-11-17T03:00:00Z"
  containerStatuses:
  - name: backup
    image: registry.example/backup:2.0
    ready: false
    restartCount: 0
    state: {waiting: {reason: ImagePullBackOff, message: "Back-off pulling image"}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops, uid: cj-1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: registry.example/backup:2.0}]
status:
  lastScheduleTime: "2026-11-20T03:00:00Z"
  active: [{name: backup-29919060, namespace: ops, uid: job-2}]
"#,
    example_now: "2026-11-20T03:05:00Z",
    check,
};

/// What to change for a Pod problem, in a few words (the problem text comes from
/// `evidence::pod_problem`).
fn cause_advice(problem: &str) -> &'static str {
    if problem.starts_with("cannot pull") {
        "fix the image reference or its pull secret in the job template first (the next run pulls the same image)"
    } else if problem.contains("OOMKilled") {
        "raise the container's memory limit in the job template first"
    } else if problem.contains("CrashLoopBackOff") || problem.contains("exit code") {
        "read its logs (kubectl logs) and fix the crash first"
    } else if problem.starts_with("stuck Terminating") {
        "check the node and the Pod's finalizers first"
    } else {
        "make it schedulable first (resources, node selectors, taints, quotas)"
    }
}

/// The name of the blocking Job (status.active entries carry more, but the name is all we show).
struct ObjectName<'a> {
    name: &'a str,
}

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    if cj.spec.concurrency_policy != ConcurrencyPolicy::Forbid {
        return Vec::new();
    }
    // What is still active after this sync's reconciliation (a finished Job leaves the list
    // before the Forbid check, E15); without Job evidence, status.active as written.
    let active: Vec<&str> = if ctx.evidence.jobs {
        let created = (ctx.replay.decision == Decision::Create)
            .then_some(ctx.replay.job_name.as_deref())
            .flatten();
        ctx.replay
            .active_after
            .iter()
            .map(|a| a.name.as_str())
            .filter(|n| Some(*n) != created)
            .collect()
    } else {
        cj.status.active.iter().map(|a| a.name.as_str()).collect()
    };
    let Some(blocker) = active.first().map(|name| ObjectName { name }) else {
        return Vec::new();
    };
    let job = ctx.job(blocker.name);
    // Since when: the Job's start, else the slot encoded in its name, else lastScheduleTime.
    let since = job.and_then(job_start).or(cj.status.last_schedule_time);
    let (skipped, capped) = match (ctx.replay.effective(), since) {
        (Some(s), Some(from)) => {
            let (slots, capped) = s.slots_in(from, ctx.now, 10_000);
            (slots.len(), capped)
        }
        _ => (0, false),
    };
    if skipped == 0 && ctx.replay.decision != Decision::ForbidBlocked {
        return Vec::new(); // an ordinary run in progress
    }
    let age = since.map(|s| human_duration(ctx.now.as_second() - s.as_second()));
    let problem = job.and_then(|j| {
        ctx.pods_of(&j.meta.name)
            .find_map(|p| pod_problem_line(p, ctx.now, ctx.schedule_zone()))
    });
    let short_problem = job.and_then(|j| {
        ctx.pods_of(&j.meta.name)
            .find_map(|p| pod_problem(p, ctx.now))
    });
    let problem_pod = job.and_then(|j| {
        ctx.pods_of(&j.meta.name)
            .find(|p| pod_problem(p, ctx.now).is_some())
    });
    let no_deadline = cj.spec.job_template.spec.active_deadline_seconds.is_none();
    let mut head = format!("is not running: Forbid is blocked by job {}", blocker.name);
    if let Some(a) = &age {
        head.push_str(&format!(", active for {a}"));
    }
    if let Some(p) = &short_problem {
        head.push_str(&format!(" (its pod: {p})"));
    } else if no_deadline {
        head.push_str(", no activeDeadlineSeconds");
    }
    let mut message = match since {
        Some(s) => format!(
            "Job {} has been active since {}; with concurrencyPolicy Forbid every run since then was skipped ({}{skipped} slot{}).",
            blocker.name,
            ctx.show_time(s),
            if capped { "more than " } else { "" },
            if skipped == 1 && !capped { "" } else { "s" }
        ),
        None => format!(
            "Job {} is active; with concurrencyPolicy Forbid the due slot is skipped.",
            blocker.name
        ),
    };
    if cj.status.active.len() > 1 {
        message.push_str(&format!(
            " {} Jobs are active in all.",
            cj.status.active.len()
        ));
    }
    // What happens once it is gone: the replay's due slot runs at once if the deadline allows.
    let catch_up = ctx.replay.true_most_recent.filter(|t| {
        cj.spec
            .starting_deadline_seconds
            .is_none_or(|sds| ctx.now.as_second() - t.as_second() <= sds)
    });
    let then = match catch_up {
        Some(t) => format!(
            "the controller then starts the missed {} run immediately",
            ctx.show_time(t)
        ),
        None => "the next regular slot then runs".to_string(),
    };
    let mut f = Finding::new(&RULE, message)
        .field("spec.concurrencyPolicy")
        .headline(head)
        .fix(format!(
            "{}top the hung job ({then}){}",
            if short_problem.is_some() {
                "Fix what its Pod shows first, or the next run hangs the same way; then s"
            } else {
                "S"
            },
            if no_deadline {
                "; and set activeDeadlineSeconds so it cannot happen again"
            } else {
                ""
            }
        ));
    // Cause first: the Pod evidence (image, OOMKilled, crash loop, unschedulable) is what
    // makes the next run hang again, so it leads; then the deadline, then the Job itself.
    if let (Some(pod), Some(p)) = (problem_pod, &short_problem) {
        f = f.step(
            Phase::Cause,
            crate::text::shell_command([
                "kubectl",
                "describe",
                "pod",
                &pod.meta.name,
                "-n",
                ctx.namespace,
            ]),
            format!("pod {}: {p} — {}", pod.meta.name, cause_advice(p)),
        );
    }
    if no_deadline && let Some((value, _)) = suggested_active_deadline(ctx) {
        f = f.patch(active_deadline_patch(value));
    }
    f = f.step(
        Phase::Cleanup,
        crate::text::shell_command([
            "kubectl",
            "delete",
            "job",
            blocker.name,
            "-n",
            ctx.namespace,
        ]),
        format!("stop the hung Job once its cause is fixed; {then}"),
    );
    if let Some(p) = problem {
        f = f.evidence(p);
    } else if job.is_none() && ctx.evidence.jobs {
        f = f.evidence(format!(
            "Job {} is listed in status.active but is not in the input",
            blocker.name
        ));
    }
    let already_active = ctx
        .events
        .iter()
        .filter(|e| e.reason == "JobAlreadyActive")
        .map(|e| e.count.max(1))
        .sum::<i64>();
    if already_active > 0 {
        f = f.evidence(format!(
            "{already_active} JobAlreadyActive event(s) recorded"
        ));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn traces_the_hung_job_to_its_pod() {
        let r = run(RULE.fires_on, "2026-11-20T12:00:00Z");
        let f = findings(&r, "forbid-blocked");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.contains("skipped (3 slots)"),
            "{}",
            f[0].message
        );
        assert!(r.cron_jobs[0].headline.starts_with(
            "backup has not run since 2026-11-17 03:00 UTC (3d 9h ago; 3 runs missed): Forbid is blocked by job backup-29914740, active for 3d 9h (its pod: cannot pull registry.example/backup:2.0 — ImagePullBackOff)"
        ), "{}", r.cron_jobs[0].headline);
        // Cause first (the Pod cannot pull its image), then the deadline, then the Job.
        let plan = &r.cron_jobs[0].fix;
        let cmds: Vec<&str> = plan.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(cmds.len(), 3, "{cmds:?}");
        assert_eq!(cmds[0], "kubectl describe pod backup-29914740-x7k2p -n ops");
        assert!(plan.commands[0].reason.contains("fix the image reference"));
        assert!(cmds[1].starts_with("kubectl patch cronjob backup -n ops --type merge"));
        assert_eq!(cmds[2], "kubectl delete job backup-29914740 -n ops");
        // Deleting the Job does not fix a broken image: the plan says so.
        assert!(plan.remaining.contains(&"forbid-blocked"), "{plan:?}");
        // One activeDeadlineSeconds, the suggested one, not a second contradicting value.
        let ads =
            plan.patch.as_ref().unwrap()["spec"]["jobTemplate"]["spec"]["activeDeadlineSeconds"]
                .clone();
        assert!(ads.is_i64(), "{plan:?}");
        assert!(
            f[0].command
                .as_deref()
                .unwrap()
                .contains(&format!("\"activeDeadlineSeconds\":{ads}"))
        );
        assert!(
            f[0].remediation
                .contains("starts the missed 2026-11-20 03:00 UTC run immediately")
        );
    }
}

#[cfg(test)]
mod reconciled {
    use super::super::examples::{findings, run};

    /// E15: the active Job finished; the controller drops it from active first, then starts
    /// the 10:10 slot late. Nothing is blocked.
    #[test]
    fn a_finished_job_in_active_does_not_block() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, uid: u1, creationTimestamp: "2024-01-01T09:00:00Z"}
spec:
  schedule: "*/10 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}
status:
  lastScheduleTime: "2024-01-01T10:00:00Z"
  active: [{name: cj-28401720, namespace: default, uid: j1}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: cj-28401720
  namespace: default
  uid: j1
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: cj, uid: u1, controller: true}]
status:
  startTime: "2024-01-01T10:00:01Z"
  completionTime: "2024-01-01T10:13:00Z"
  conditions: [{type: Complete, status: "True"}]
"#;
        let r = run(yaml, "2024-01-01T10:13:00Z");
        assert!(
            findings(&r, "forbid-blocked").is_empty(),
            "{:?}",
            findings(&r, "forbid-blocked")
        );
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("cj-28401730")
        );
    }
}
