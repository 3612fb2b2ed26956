//! CJD012 job-template-suspended: `jobTemplate.spec.suspend: true` makes every Job start
//! suspended — no Pods, never finished, so it stays in `status.active` (D.3). Under Forbid the
//! first one blocks the CronJob forever; under Allow they pile up; under Replace each slot
//! deletes the previous one. Quiet when a queueing controller (Kueue) is expected to resume them.

use super::common::policy_name;
use crate::evidence::{JobState, job_state};
use crate::model::ConcurrencyPolicy;
use crate::rules::{Context, Finding, Phase, Rule, Severity};

const KUEUE_LABEL: &str = "kueue.x-k8s.io/queue-name";

pub static RULE: Rule = Rule {
    id: "CJD012",
    slug: "job-template-suspended",
    severity: Severity::Error,
    summary: "jobTemplate.spec.suspend is true, so every Job is created suspended and never runs.",
    explanation: "The controller copies `jobTemplate.spec` into each Job. A Job with `suspend: true` \
creates no Pods and has no Complete/Failed condition, so the CronJob keeps it in \
`status.active`: under `Forbid` the first one blocks every later slot (JobAlreadyActive \
forever), under `Allow` suspended Jobs pile up one per slot, and under `Replace` each slot \
deletes the previous one and creates another that also never runs. This is not the same as \
`spec.suspend` on the CronJob, which stops creating Jobs. Queueing systems such as Kueue set \
Jobs suspended on purpose and resume them on admission; with a Kueue queue label this rule \
stays quiet.",
    remediation: "Remove `suspend` from the job template (or set it to false). Jobs already created \
suspended stay suspended: delete them (under Forbid the controller then starts the latest \
missed slot at once) or resume each with `kubectl patch job NAME --type merge -p \
'{\"spec\":{\"suspend\":false}}'`.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/15 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      suspend: true
      template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/15 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    metadata: {labels: {kueue.x-k8s.io/queue-name: batch}}
    spec:
      suspend: true
      template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let tmpl = &cj.spec.job_template;
    if tmpl.spec.suspend != Some(true) || tmpl.labels.contains_key(KUEUE_LABEL) {
        return Vec::new();
    }
    let consequence = match cj.spec.concurrency_policy {
        ConcurrencyPolicy::Forbid => "under Forbid the first one blocks every later slot forever",
        ConcurrencyPolicy::Replace => {
            "under Replace each slot deletes the previous one and creates another that never runs"
        }
        _ => "under Allow they pile up in status.active, one per slot",
    };
    let stuck: Vec<&str> = cj
        .status
        .active
        .iter()
        .filter(|a| {
            ctx.job(&a.name)
                .is_none_or(|j| j.spec.suspend == Some(true))
        })
        .map(|a| a.name.as_str())
        .collect();
    // Something resumes them after all (a queueing controller without the Kueue label?).
    let resumed = ctx
        .jobs
        .iter()
        .any(|j| job_state(j) == JobState::Succeeded || j.status.start_time.is_some());
    let mut f = Finding::new(
        &RULE,
        format!(
            "jobTemplate.spec.suspend is true: every Job this CronJob creates starts suspended, without Pods, and stays active; {consequence}{}.",
            if stuck.is_empty() { String::new() } else { format!(" ({} in status.active now)", stuck.len()) }
        ),
    )
    .field("spec.jobTemplate.spec.suspend");
    if resumed {
        f = f.severity(Severity::Info).evidence(
            "some of its Jobs did start, so something resumes them (a queueing controller?)",
        );
    } else {
        f = f.headline(format!(
            "is not running: jobTemplate.spec.suspend is true — every Job starts suspended ({})",
            policy_name(&cj.spec.concurrency_policy)
        ));
    }
    f = f.patch(serde_json::json!({"spec": {"jobTemplate": {"spec": {"suspend": false}}}}));
    if !stuck.is_empty() && !resumed {
        f = f.step(
            Phase::Cleanup,
            crate::text::shell_command(
                ["kubectl", "delete", "job"]
                    .into_iter()
                    .chain(stuck.iter().copied())
                    .chain(["-n", ctx.namespace]),
            ),
            "delete the Jobs that were created suspended; under Forbid the latest missed slot then starts at once",
        );
        f = f.evidence(format!(
            "suspended Jobs in status.active: {}",
            stuck.join(", ")
        ));
    }
    vec![
        f.fix("Stop creating suspended Jobs, then delete the ones already stuck (under Forbid the latest missed slot then starts at once)"),
    ]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::Severity;
    use crate::rules::examples::{findings, run};

    #[test]
    fn forbid_with_a_suspended_job_in_active() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops, uid: u1, creationTimestamp: "2026-11-20T00:00:00Z"}
spec:
  schedule: "*/15 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      suspend: true
      template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}
status:
  lastScheduleTime: "2026-11-20T00:15:00Z"
  active: [{name: sync-29394735, namespace: ops, uid: j1}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: sync-29394735
  namespace: ops
  uid: j1
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: sync, uid: u1, controller: true}]
spec: {suspend: true, template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}
status: {conditions: [{type: Suspended, status: "True"}]}
"#;
        let r = run(yaml, "2026-11-20T12:00:00Z");
        let f = findings(&r, "job-template-suspended");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message.ends_with(
                "under Forbid the first one blocks every later slot forever (1 in status.active now)."
            ),
            "{}",
            f[0].message
        );
        assert_eq!(
            f[0].command.as_deref(),
            Some(
                "kubectl patch cronjob sync -n ops --type merge -p '{\"spec\":{\"jobTemplate\":{\"spec\":{\"suspend\":false}}}}'\nkubectl delete job sync-29394735 -n ops"
            )
        );
    }

    #[test]
    fn the_fixture_headline() {
        let r = run(RULE.fires_on, RULE.example_now);
        assert_eq!(
            r.cron_jobs[0].headline,
            "sync is not running: jobTemplate.spec.suspend is true — every Job starts suspended (Forbid)"
        );
    }
}
