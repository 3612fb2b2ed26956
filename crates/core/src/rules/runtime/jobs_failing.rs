//! CJD020 jobs-failing: the CronJob runs, but its most recent finished Jobs failed. Reads the
//! Failed condition's reason (BackoffLimitExceeded, DeadlineExceeded, …) and the Pods (OOMKilled,
//! CrashLoopBackOff, exit codes) so the finding says *why*, not only *that*.

use crate::evidence::{JobState, failure_reason, job_start, job_state, pod_problem};
use crate::model::Job;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD020",
    slug: "jobs-failing",
    severity: Severity::Error,
    summary: "The CronJob's most recent Jobs failed.",
    explanation: "The schedule works — Jobs are created — but they end with a `Failed` condition: \
`BackoffLimitExceeded` (every retry's Pod failed), `DeadlineExceeded` (it ran longer than \
`activeDeadlineSeconds`), or a pod-failure-policy reason. With the default \
`failedJobsHistoryLimit: 1` only the newest failed Job is kept, so older failures may already be \
gone; `status.lastSuccessfulTime` tells how long ago a run last succeeded (on 1.22–1.29 it is \
also moved by failed Jobs, so it can look newer than the real last success).",
    remediation: "Read the failed Pods' logs (`kubectl logs job/NAME --all-containers`) and events \
(`kubectl describe job NAME`). OOMKilled: raise the container's memory limit. DeadlineExceeded: \
the run is slower than `activeDeadlineSeconds` allows. Keep more failures for diagnosis with \
`failedJobsHistoryLimit`.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 3 * * *"
  failedJobsHistoryLimit: 3
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T03:00:00Z", lastSuccessfulTime: "2026-11-18T03:04:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: backup-29389860, namespace: ops, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: backup, uid: u1, controller: true}]}
status: {startTime: "2026-11-19T03:00:00Z", failed: 7, conditions: [{type: Failed, status: "True", reason: BackoffLimitExceeded}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: backup-29391300, namespace: ops, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: backup, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T03:00:00Z", failed: 7, conditions: [{type: Failed, status: "True", reason: BackoffLimitExceeded}]}
---
apiVersion: v1
kind: Pod
metadata: {name: backup-29391300-x1, namespace: ops, labels: {job-name: backup-29391300}}
status:
  phase: Failed
  containerStatuses:
  - name: c
    image: c:1
    state: {terminated: {reason: OOMKilled, exitCode: 137}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 3 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T03:00:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: backup-29389860, namespace: ops, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: backup, uid: u1, controller: true}]}
status: {startTime: "2026-11-19T03:00:00Z", failed: 7, conditions: [{type: Failed, status: "True", reason: BackoffLimitExceeded}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: backup-29391300, namespace: ops, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: backup, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T03:00:00Z", completionTime: "2026-11-20T03:04:00Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// Why one Job failed: its condition reason and the first Pod problem.
fn why(ctx: &Context, j: &Job) -> (String, Option<String>) {
    let reason = failure_reason(j).unwrap_or("Failed").to_string();
    let pod = ctx
        .pods_of(&j.meta.name)
        .find_map(|p| pod_problem(p, ctx.now).map(|pr| format!("pod {}: {pr}", p.meta.name)));
    (reason, pod)
}

fn check(ctx: &Context) -> Vec<Finding> {
    let mut finished: Vec<&Job> = ctx
        .jobs
        .iter()
        .copied()
        .filter(|j| job_state(j) != JobState::Running)
        .collect();
    finished.sort_by(|a, b| {
        job_start(b)
            .cmp(&job_start(a))
            .then_with(|| b.meta.name.cmp(&a.meta.name))
    });
    let streak: Vec<&Job> = finished
        .iter()
        .copied()
        .take_while(|j| job_state(j) == JobState::Failed)
        .collect();
    if streak.is_empty() {
        return Vec::new();
    }
    let mut reasons: Vec<String> = Vec::new();
    let mut pod_problem_text = None;
    for j in &streak {
        let (r, p) = why(ctx, j);
        if !reasons.contains(&r) {
            reasons.push(r);
        }
        pod_problem_text = pod_problem_text.or(p);
    }
    let cause = match &pod_problem_text {
        Some(p) => format!("{}; {p}", reasons.join(", ")),
        None => reasons.join(", "),
    };
    let names = streak
        .iter()
        .map(|j| j.meta.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let all_seen = streak.len() == finished.len();
    let mut f = if streak.len() >= 2 {
        Finding::new(
            &RULE,
            format!(
                "The last {} finished Jobs failed{} ({cause}): {names}.",
                streak.len(),
                if all_seen {
                    " — every finished Job in the input"
                } else {
                    ""
                }
            ),
        )
        .headline(format!(
            "runs but fails: last {} Jobs failed ({cause})",
            streak.len()
        ))
    } else {
        Finding::new(
            &RULE,
            format!("The last finished Job, {names}, failed ({cause})."),
        )
        .severity(Severity::Warning)
    };
    let cj = ctx.cron_job;
    if let Some(ok) = cj.status.last_successful_time {
        // 1.22–1.29 set it from any finished Job outside active, failed ones included (#123380).
        let caveat = if (22..=29).contains(&ctx.replay.kube_version.minor) {
            "; on this release failed Jobs also move it"
        } else {
            ""
        };
        f = f.evidence(format!(
            "last success {} ago ({}, status.lastSuccessfulTime{caveat})",
            human_duration(ctx.now.as_second() - ok.as_second()),
            ctx.show_time(ok)
        ));
    } else if !finished.iter().any(|j| job_state(j) == JobState::Succeeded) {
        f = f.evidence("no successful run recorded (status.lastSuccessfulTime is unset)");
    }
    if streak.len() == 1 && cj.spec.failed_jobs_history_limit.unwrap_or(1) <= 1 {
        f = f.evidence(
            "failedJobsHistoryLimit keeps only 1 failed Job: earlier failures may have been pruned",
        );
    }
    let newest = &streak[0].meta.name;
    let logs = crate::text::shell_command([
        "kubectl",
        "logs",
        &format!("job/{newest}"),
        "-n",
        ctx.namespace,
        "--all-containers",
    ]);
    let describe = crate::text::shell_command(["kubectl", "describe", "job", newest]);
    vec![f.fix(format!(
        "Find the cause in the failed Pods: {logs} (and {describe}); OOMKilled needs a higher memory limit, DeadlineExceeded a longer activeDeadlineSeconds or a faster run",
    ))]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::Severity;
    use crate::rules::examples::{findings, run};

    #[test]
    fn two_failures_with_oomkilled_pod_make_the_headline() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "jobs-failing");
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(
            f[0].message,
            "The last 2 finished Jobs failed — every finished Job in the input (BackoffLimitExceeded; pod backup-29391300-x1: container c terminated: OOMKilled (exit code 137)): backup-29391300, backup-29389860."
        );
        assert_eq!(
            r.cron_jobs[0].headline,
            "backup runs but fails: last 2 Jobs failed (BackoffLimitExceeded; pod backup-29391300-x1: container c terminated: OOMKilled (exit code 137))"
        );
        assert!(f[0].evidence.contains(
            &"last success 2d 8h ago (2026-11-18 03:04 UTC, status.lastSuccessfulTime)".to_string()
        ));
    }

    #[test]
    fn one_failure_is_a_warning_and_a_success_after_it_is_quiet() {
        let y = RULE.fires_on.replace("startTime: \"2026-11-19T03:00:00Z\", failed: 7, conditions: [{type: Failed, status: \"True\", reason: BackoffLimitExceeded}]", "startTime: \"2026-11-19T03:00:00Z\", succeeded: 1, conditions: [{type: Complete, status: \"True\"}]");
        assert_ne!(y, RULE.fires_on);
        let r = run(&y, RULE.example_now);
        let f = findings(&r, "jobs-failing");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].headline.is_none());
        assert!(findings(&run(RULE.quiet_on, RULE.example_now), "jobs-failing").is_empty());
    }
}
