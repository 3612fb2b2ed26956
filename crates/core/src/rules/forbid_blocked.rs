//! CJD007 forbid-blocked: `concurrencyPolicy: Forbid` and a Job that never finishes. Every
//! slot while it is active produces `JobAlreadyActive` and `lastScheduleTime` stops moving.
//! The Job is traced to its Pods so the headline says *why* it hangs.

use super::runtime::common::{
    active_deadline_patch, forbid_blocker, managed_elsewhere, suggested_active_deadline,
    terminal_condition_waits_for_pods,
};
use super::{Context, Finding, Phase, Rule, Severity};
use crate::evidence::{
    Active, Terminating, job_active, pod_problem, pod_problem_line, stuck_terminating,
};
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

/// "failed (DeadlineExceeded)" / "succeeded (CompletionsReached)" for a decided Job.
fn decided_words(kind: &str, reason: &str) -> String {
    let verb = if kind == "FailureTarget" {
        "failed"
    } else {
        "succeeded"
    };
    if reason.is_empty() {
        format!("{verb} ({kind})")
    } else {
        format!("{verb} ({reason})")
    }
}

/// "pod p, stuck Terminating for 3d on node n (not reporting)".
fn terminating_words(t: &Terminating, now: jiff::Timestamp) -> String {
    let node = match (t.pod.node_name.as_str(), t.node_lost) {
        ("", _) => " (on no node)".to_string(),
        (n, true) => format!(" on node {n}, which stopped reporting"),
        (n, false) => format!(" on node {n}"),
    };
    format!(
        "pod {}, stuck Terminating for {}{node}",
        t.pod.meta.name,
        human_duration(now.as_second() - t.since.as_second())
    )
}

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let Some(blocker) = forbid_blocker(ctx) else {
        return Vec::new();
    };
    let job = ctx.job(blocker);
    let active = job.and_then(job_active);
    // Since when: the Job's start, else its creation (said so when it is suspended), else the
    // lastScheduleTime.
    let since = match active {
        Some(Active::Started(s) | Active::Created(s)) => Some(s),
        Some(Active::Suspended { created, .. }) => created,
        None => None,
    }
    .or(cj.status.last_schedule_time);
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
    // Decided but not finished (1.31+): it failed or succeeded already and waits for its Pods.
    let decided = job
        .filter(|j| !j.is_finished())
        .and_then(crate::runs::decision);
    let stuck: Vec<Terminating> = job
        .map(|j| stuck_terminating(ctx.pods_of(&j.meta.name), ctx.now))
        .unwrap_or_default();
    let pods_hold =
        decided.is_some() || (!stuck.is_empty() && terminal_condition_waits_for_pods(ctx));
    let suspended = matches!(active, Some(Active::Suspended { .. }))
        || job.is_some_and(|j| crate::evidence::job_suspended(j).is_some());
    let managed = managed_elsewhere(ctx);
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
    // A deadline would not end this Job: it is decided and waits for its Pods, its Pods are
    // stuck Terminating (1.31+), it is suspended (the timer stops), or another controller
    // runs it.
    let no_deadline = cj.spec.job_template.spec.active_deadline_seconds.is_none()
        && !pods_hold
        && !suspended
        && managed.is_none();
    let mut head = format!("is not running: Forbid is blocked by job {blocker}");
    if let Some((kind, reason)) = decided {
        head.push_str(&format!(", which {}", decided_words(kind, reason)));
        match stuck.first() {
            Some(t) => head.push_str(&format!(
                " but still counts as active: its {}",
                terminating_words(t, ctx.now)
            )),
            None => head.push_str(" but still counts as active until its Pods are gone"),
        }
    } else if suspended {
        match active {
            Some(Active::Suspended { since: Some(s), .. }) => head.push_str(&format!(
                ", suspended for {}",
                human_duration(ctx.now.as_second() - s.as_second())
            )),
            _ => head.push_str(", which is suspended"),
        }
    } else {
        if let Some(a) = &age {
            head.push_str(&format!(", active for {a}"));
        }
        if let Some(p) = &short_problem {
            head.push_str(&format!(" (its pod: {p})"));
        } else if no_deadline {
            head.push_str(", no activeDeadlineSeconds");
        }
    }
    let slots = format!(
        "{}{skipped} slot{}",
        if capped { "more than " } else { "" },
        if skipped == 1 && !capped { "" } else { "s" }
    );
    let mut message = match (active, since) {
        (Some(Active::Suspended { since: at, created }), _) => {
            let mut m = format!("Job {blocker} is suspended");
            if let Some(at) = at {
                m.push_str(&format!(
                    " (since {}, its Suspended condition)",
                    ctx.show_time(at)
                ));
            }
            m.push_str(": it does not run, yet it counts as active");
            if let Some(c) = created {
                m.push_str(&format!(
                    "; with concurrencyPolicy Forbid every run since it was created ({}) was skipped ({slots})",
                    ctx.show_time(c)
                ));
            }
            if ctx
                .replay
                .kube_version
                .features()
                .suspended_job_start_time_cleared
            {
                m.push_str(". It has no startTime: the Job controller clears it while a Job is suspended (1.36+), so whether it ran before is not recorded.");
            } else {
                m.push_str(". It has no startTime: it has never started.");
            }
            m
        }
        (_, Some(s)) => format!(
            "Job {blocker} has been active since {}; with concurrencyPolicy Forbid every run since then was skipped ({slots}).",
            ctx.show_time(s),
        ),
        (_, None) => format!(
            "Job {blocker} is active; with concurrencyPolicy Forbid the due slot is skipped."
        ),
    };
    if let Some((kind, reason)) = decided {
        let at = job
            .and_then(|j| {
                j.status
                    .conditions
                    .iter()
                    .find(|c| c.type_ == kind && c.status == "True")
            })
            .and_then(|c| c.last_transition_time)
            .map(|t| format!(" at {}", ctx.show_time(t)))
            .unwrap_or_default();
        message.push_str(&format!(
            " It {}{at} ({kind}), but the Job controller adds {} — and the CronJob controller lets the Job go — only once all its Pods are terminal (1.31+)",
            decided_words(kind, reason),
            if kind == "FailureTarget" { "Failed" } else { "Complete" }
        ));
        match (stuck.is_empty(), job.and_then(|j| j.status.terminating)) {
            (false, _) => message.push_str(&format!(
                ": {}.",
                stuck
                    .iter()
                    .map(|t| terminating_words(t, ctx.now))
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
            (true, Some(n)) if n > 0 => message.push_str(&format!(
                "; status.terminating says {n} Pod{} still being deleted.",
                if n == 1 { " is" } else { "s are" }
            )),
            _ => message.push('.'),
        }
    } else if pods_hold {
        message.push_str(&format!(
            " Its {}: even a deadline would leave the Job waiting for it (1.31+).",
            terminating_words(&stuck[0], ctx.now)
        ));
    }
    if let Some(m) = managed {
        message.push_str(&format!(
            " Its Jobs are managed by {m} (spec.managedBy): the built-in Job controller does not run them, so {m} decides when one ends."
        ));
    }
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
    let fix = if pods_hold {
        let why = if decided.is_some() {
            "the Job has already ended its work"
        } else {
            "after a deadline the Job would wait for its Pods all the same"
        };
        if stuck.is_empty() {
            format!(
                "Find the Pods Job {blocker} waits for and remove them; it then finishes and leaves status.active ({then}). activeDeadlineSeconds would not help: {why}"
            )
        } else {
            format!(
                "Remove the Pod{} stuck Terminating ({}): confirm the node is gone, then force-delete (or remove the finalizer that holds it); the Job then finishes and leaves status.active ({then}). activeDeadlineSeconds would not help: {why}",
                if stuck.len() == 1 { "" } else { "s" },
                stuck
                    .iter()
                    .map(|t| t.pod.meta.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    } else if suspended {
        format!("Resume the suspended Job (spec.suspend: false) or delete it ({then})")
    } else {
        format!(
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
        )
    };
    let mut f = Finding::new(&RULE, message)
        .field("spec.concurrencyPolicy")
        .headline(head)
        .fix(fix);
    if pods_hold {
        f = pod_steps(f, ctx, blocker, &stuck, &then);
    } else {
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
            crate::text::shell_command(["kubectl", "delete", "job", blocker, "-n", ctx.namespace]),
            if suspended {
                format!(
                    "the Job is suspended and blocks every slot: delete it (or resume it); {then}"
                )
            } else {
                format!("stop the hung Job once its cause is fixed; {then}")
            },
        );
    }
    if let Some(p) = problem {
        f = f.evidence(p);
    } else if job.is_none() && ctx.evidence.jobs {
        f = f.evidence(format!(
            "Job {blocker} is listed in status.active but is not in the input"
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

/// The steps for a Job its Pods hold: check each stuck Pod's node, then force-delete the Pod
/// (a finalizer must be removed by hand); with no stuck Pod in the input, list the Job's Pods.
fn pod_steps(
    mut f: Finding,
    ctx: &Context,
    job: &str,
    stuck: &[Terminating],
    then: &str,
) -> Finding {
    if stuck.is_empty() {
        return f.step(
            Phase::Cause,
            crate::text::shell_command([
                "kubectl",
                "get",
                "pods",
                "-n",
                ctx.namespace,
                "-l",
                &format!("batch.kubernetes.io/job-name={job}"),
            ]),
            format!("find the Pods Job {job} waits for (Terminating or still running): the Job finishes once they are terminal"),
        );
    }
    let mut nodes: Vec<&str> = Vec::new();
    for t in stuck {
        let node = t.pod.node_name.as_str();
        if !node.is_empty() && !nodes.contains(&node) {
            nodes.push(node);
            f = f.step(
                Phase::Cause,
                crate::text::shell_command(["kubectl", "get", "node", node]),
                format!(
                    "node {node}{}: confirm it is gone (NotReady, or no such node) before force-deleting its pods — a pod force-deleted on a node that is still running keeps running there",
                    if t.node_lost { " stopped reporting" } else { "" }
                ),
            );
        }
    }
    for t in stuck {
        let name = &t.pod.meta.name;
        f = f.step(
            Phase::Cleanup,
            crate::text::shell_command([
                "kubectl",
                "delete",
                "pod",
                name,
                "-n",
                ctx.namespace,
                "--grace-period=0",
                "--force",
            ]),
            format!(
                "{}: once its node is confirmed gone, force-delete it; if it stays, a finalizer holds it (kubectl get pod {name} -n {} -o jsonpath='{{.metadata.finalizers}}'): remove that finalizer. The Job then finishes; {then}",
                terminating_words(t, ctx.now),
                ctx.namespace
            ),
        );
    }
    f
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
