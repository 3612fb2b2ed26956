//! CJD021 active-deadline-missing: no `jobTemplate.spec.activeDeadlineSeconds`, so nothing ever
//! ends a hung Job (D.4). Under Forbid that stops the CronJob for good (warning); under Allow
//! hung Jobs pile up and under Replace each slot kills the previous run (info).
//!
//! Stays quiet while a Forbid CronJob is blocked by a Job a deadline cannot end: one the Job
//! controller has already decided (`FailureTarget` / `SuccessCriteriaMet`) and that waits for
//! its Pods, or — from 1.31, where `Failed` waits for every Pod to be terminal
//! (kubernetes#125510) — one with a Pod stuck Terminating. Its fix would not unblock the
//! CronJob; `forbid-blocked` names the Pod and the fix. Before 1.31 a deadline failed such a Job
//! at once, so the rule speaks as usual there.
//!
//! Reworded, as info and with no patch, when the Jobs are managed by another controller
//! (`spec.managedBy` other than `kubernetes.io/job-controller`, honoured from 1.32, where
//! JobManagedBy is on by default; before, the API server drops the field and the Job controller
//! runs the Jobs, so the rule speaks as usual): the built-in Job controller does not enforce a
//! deadline on them, so that controller is named instead of the deadline being blamed.

use super::common::{
    active_deadline_patch, deadline_cannot_end_blocker, managed_elsewhere, policy_name, secs,
    suggested_active_deadline,
};
use crate::model::ConcurrencyPolicy;
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD021",
    slug: "active-deadline-missing",
    severity: Severity::Warning,
    summary: "The job template has no activeDeadlineSeconds, so nothing ends a hung Job.",
    explanation: "A Job ends only with a Complete or Failed condition. A Pod stuck Pending \
(unschedulable, quota) or in ImagePullBackOff with `restartPolicy: Never` (it never fails, \
so `backoffLimit` never trips) keeps its Job running forever. `activeDeadlineSeconds` — \
counted from the Job's start, and stronger than `backoffLimit` — is the only thing that fails \
such a Job. (A Pod stuck Terminating on a lost node is different from 1.31: the Job controller \
adds `Failed` only once every Pod is terminal, so a deadline leaves the Job active until the \
Pod is gone; `forbid-blocked` then points at the Pod.) Under `Forbid` the hung Job blocks \
every later slot (JobAlreadyActive, kubernetes#58748, #107827); under `Allow` hung Jobs pile \
up one per slot; under `Replace` each slot deletes the previous run, so a hang costs one \
interval but a slow run never finishes. Jobs managed by another controller (`spec.managedBy`, honoured from 1.32) get an info naming \
that controller instead: the built-in Job controller does not enforce their deadline.",
    remediation: "Set `jobTemplate.spec.activeDeadlineSeconds` above the normal run time and, under \
Forbid, below the schedule's interval, so a hung run fails before the next slot.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {activeDeadlineSeconds: 3600, template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    if cj.spec.job_template.spec.active_deadline_seconds.is_some()
        || deadline_cannot_end_blocker(ctx)
    {
        return Vec::new();
    }
    if let Some(m) = managed_elsewhere(ctx) {
        if matches!(cj.spec.concurrency_policy, ConcurrencyPolicy::Other(_)) {
            return Vec::new();
        }
        return vec![
            Finding::new(
                &RULE,
                format!(
                    "No activeDeadlineSeconds, but the Jobs are managed by {m} (spec.managedBy): the built-in Job controller does not run them, so {m}, not a deadline, decides when a hung Job ends."
                ),
            )
            .severity(Severity::Info)
            .field("spec.jobTemplate.spec.managedBy")
            .fix(format!(
                "Check how {m} ends a hung Job; activeDeadlineSeconds helps only if {m} honours it"
            )),
        ];
    }
    let (severity, message) = match cj.spec.concurrency_policy {
        ConcurrencyPolicy::Forbid => (
            Severity::Warning,
            "No activeDeadlineSeconds under concurrencyPolicy Forbid: a hung Job blocks this CronJob forever.",
        ),
        ConcurrencyPolicy::Allow => (
            Severity::Info,
            "No activeDeadlineSeconds: nothing stops a hung Job, and under concurrencyPolicy Allow hung Jobs pile up one per slot.",
        ),
        ConcurrencyPolicy::Replace => (
            Severity::Info,
            "No activeDeadlineSeconds: under concurrencyPolicy Replace a hung Job runs until the next slot deletes it, and a slow run is killed the same way.",
        ),
        ConcurrencyPolicy::Other(_) => return Vec::new(),
    };
    let mut f = Finding::new(&RULE, message)
        .severity(severity)
        .field("spec.jobTemplate.spec.activeDeadlineSeconds");
    match suggested_active_deadline(ctx) {
        Some((value, why)) => {
            f = f
                .evidence(format!("suggested {}: {why}", secs(value)))
                .fix(format!(
                    "Set activeDeadlineSeconds to {} ({why}) so a hung run fails on its own{}",
                    secs(value),
                    if cj.spec.concurrency_policy == ConcurrencyPolicy::Forbid {
                        " before it can block the next slot"
                    } else {
                        ""
                    }
                ))
                .patch(active_deadline_patch(value));
        }
        None => {
            f = f.fix(format!(
                "Set activeDeadlineSeconds above the normal run time (and below the interval under {})",
                policy_name(&cj.spec.concurrency_policy)
            ));
        }
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::Severity;
    use crate::rules::examples::{findings, run};

    #[test]
    fn forbid_warns_with_a_deadline_from_the_interval() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "active-deadline-missing");
        assert_eq!(f[0].severity, Severity::Warning);
        // 90% of a day, no runs to measure.
        assert_eq!(
            f[0].command.as_deref(),
            Some(
                r#"kubectl patch cronjob backup -n ops --type merge -p '{"spec":{"jobTemplate":{"spec":{"activeDeadlineSeconds":77760}}}}'"#
            )
        );
        let allow = RULE.fires_on.replace("  concurrencyPolicy: Forbid\n", "");
        assert_eq!(
            findings(&run(&allow, RULE.example_now), "active-deadline-missing")[0].severity,
            Severity::Info
        );
    }

    #[test]
    fn a_measured_run_time_tightens_the_suggestion() {
        let yaml = r#"
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
metadata: {name: backup-29391300, namespace: ops, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: backup, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T03:00:00Z", completionTime: "2026-11-20T03:04:12Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}
"#;
        let f = run(yaml, RULE.example_now);
        let f = findings(&f, "active-deadline-missing");
        // 3 × 4m12s = 756s, rounded up to 780s.
        assert!(
            f[0].command
                .as_deref()
                .unwrap()
                .contains(r#""activeDeadlineSeconds":780"#),
            "{:?}",
            f[0].command
        );
        assert_eq!(
            f[0].evidence,
            [
                "suggested 780s (13m): 3 × the longest successful run seen (4m12s), below 90% of the interval (1d)"
            ]
        );
    }
}
