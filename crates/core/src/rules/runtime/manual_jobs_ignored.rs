//! CJD032 manual-jobs-ignored: Jobs made with `kubectl create job --from=cronjob/…` carry an
//! ownerReference without `controller: true`, so the CronJob controller never sees them (D.5):
//! they don't block Forbid, Replace doesn't delete them, history limits don't prune them and
//! they don't move lastSuccessfulTime (#110430, #100927, #118276, #126384).

use super::common::plural;
use crate::evidence::{JobState, job_state};
use crate::model::ConcurrencyPolicy;
use crate::rules::{Context, Finding, Phase, Rule, Severity};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD032",
    slug: "manual-jobs-ignored",
    severity: Severity::Info,
    summary: "Jobs started by hand from this CronJob are invisible to its controller.",
    explanation: "`kubectl create job NAME --from=cronjob/X` copies the job template and adds an \
ownerReference to the CronJob **without** `controller: true` (kubernetes#91053) and the \
annotation `cronjob.kubernetes.io/instantiate: manual`. The CronJob controller only counts Jobs \
it controls, so a manual Job does not block `Forbid` (a scheduled run can start alongside it), \
is not deleted by `Replace`, is never pruned by `successfulJobsHistoryLimit` / \
`failedJobsHistoryLimit` (kubernetes#110430, #100927), and its success does not update \
`status.lastSuccessfulTime` (#118276). The garbage collector still deletes it with the CronJob.",
    remediation: "Delete manual Jobs when you are done with them, or give the job template a \
`ttlSecondsAfterFinished` (manual Jobs copy it, so they clean up after themselves). Before a \
manual run under Forbid, check that no scheduled run is due while it runs.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops, uid: u1}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: backup-now
  namespace: ops
  creationTimestamp: "2026-11-20T02:50:00Z"
  annotations: {cronjob.kubernetes.io/instantiate: manual}
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: backup, uid: u1}]
status: {startTime: "2026-11-20T02:50:00Z", active: 1}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops, uid: u1}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    example_now: "2026-11-20T02:55:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    if ctx.manual_jobs.is_empty() {
        return Vec::new();
    }
    let cj = ctx.cron_job;
    let names: Vec<&str> = ctx
        .manual_jobs
        .iter()
        .map(|j| j.meta.name.as_str())
        .collect();
    let running: Vec<&str> = ctx
        .manual_jobs
        .iter()
        .filter(|j| job_state(j) == JobState::Running)
        .map(|j| j.meta.name.as_str())
        .collect();
    let finished: Vec<&str> = ctx
        .manual_jobs
        .iter()
        .filter(|j| job_state(j) != JobState::Running)
        .map(|j| j.meta.name.as_str())
        .collect();
    let mut message = format!(
        "{} started by hand ({}) {} invisible to the controller: not counted by Forbid or Replace, never pruned by the history limits, not in lastSuccessfulTime.",
        plural(names.len(), "Job"),
        names.join(", "),
        if names.len() == 1 { "is" } else { "are" }
    );
    if cj.spec.concurrency_policy == ConcurrencyPolicy::Forbid
        && !running.is_empty()
        && cj.status.active.is_empty()
    {
        let next = ctx
            .replay
            .next_schedule_times(1)
            .first()
            .map(|t| format!(" at {}", ctx.show_time(*t)))
            .unwrap_or_default();
        message = format!(
            "{} (started by hand) is running, and Forbid does not see it: the scheduled run{next} can start alongside it.",
            running.join(", ")
        );
    }
    let mut f = Finding::new(&RULE, message);
    if let Some(oldest) = ctx
        .manual_jobs
        .iter()
        .filter_map(|j| j.meta.creation_timestamp)
        .min()
    {
        f = f.evidence(format!(
            "oldest manual Job created {} ago ({})",
            human_duration(ctx.now.as_second() - oldest.as_second()),
            ctx.show_time(oldest)
        ));
    }
    let ttl = cj
        .spec
        .job_template
        .spec
        .ttl_seconds_after_finished
        .is_some();
    f = f.fix(if ttl {
        "Nothing to fix; the template's ttlSecondsAfterFinished also cleans up manual Jobs. Under Forbid, avoid manual runs close to a slot"
    } else {
        "Delete finished manual Jobs, or set ttlSecondsAfterFinished in the job template (manual Jobs copy it)"
    });
    if !finished.is_empty() && !ttl {
        f = f.step(
            Phase::Cleanup,
            crate::text::shell_command(
                ["kubectl", "delete", "job"]
                    .into_iter()
                    .chain(finished.iter().copied())
                    .chain(["-n", ctx.namespace]),
            ),
            "delete the finished manual Jobs: the controller never cleans them up",
        );
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run};

    #[test]
    fn e33_running_manual_job_under_forbid() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "manual-jobs-ignored");
        assert_eq!(
            f[0].message,
            "backup-now (started by hand) is running, and Forbid does not see it: the scheduled run at 2026-11-20 03:00 UTC can start alongside it."
        );
        assert!(f[0].command.is_none());
        // The controller ignores it: no UnexpectedJob, nothing in active.
        assert!(r.cron_jobs[0].replay.events.is_empty());
    }

    #[test]
    fn finished_manual_jobs_get_a_delete_command() {
        let y = RULE.fires_on.replace(
            "status: {startTime: \"2026-11-20T02:50:00Z\", active: 1}",
            "status: {succeeded: 1, conditions: [{type: Complete, status: \"True\"}]}",
        );
        let r = run(&y, RULE.example_now);
        let f = findings(&r, "manual-jobs-ignored");
        assert!(
            f[0].message
                .starts_with("1 Job started by hand (backup-now) is invisible"),
            "{}",
            f[0].message
        );
        assert_eq!(
            f[0].command.as_deref(),
            Some("kubectl delete job backup-now -n ops")
        );
    }
}
