//! CJD022 active-deadline-too-large: `activeDeadlineSeconds` longer than the schedule's typical
//! interval. Under Forbid a slow or hung run still blocks the next slot before the deadline ends
//! it; under Allow it overlaps the next run. (Replace deletes the run at the next slot anyway.)
//!
//! Quiet when the Jobs are managed by another controller (`spec.managedBy` other than
//! `kubernetes.io/job-controller`, honoured from 1.32, JobManagedBy on by default; GA 1.35):
//! the built-in Job controller does not enforce the deadline then, so its size against the
//! interval says nothing; `active-deadline-missing` names that controller when no deadline is
//! set. Before 1.32 the API server drops the field and the rule speaks as usual.

use super::common::{
    active_deadline_patch, interval, managed_elsewhere, secs, suggested_active_deadline,
};
use crate::model::ConcurrencyPolicy;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD022",
    slug: "active-deadline-too-large",
    severity: Severity::Warning,
    summary: "activeDeadlineSeconds is longer than the schedule's interval.",
    explanation: "`activeDeadlineSeconds` bounds how long a Job may run. When it is longer than the \
time between two slots it cannot protect the next slot: under `Forbid` a run that hangs or \
crawls still holds `status.active` when the next slot comes (JobAlreadyActive, the slot is \
skipped or started late), and under `Allow` the next run starts while it is still going. \
The interval is the schedule's typical gap between runs. Quiet when the Jobs are managed by another controller (`spec.managedBy`, honoured from \
1.32): the built-in Job controller does not enforce their deadline.",
    remediation: "Lower `activeDeadlineSeconds` below the interval (and above the normal run time), \
or, if runs really take longer than the interval, run the schedule less often.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "0 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {activeDeadlineSeconds: 7200, template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "0 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {activeDeadlineSeconds: 3000, template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let (Some(ads), Some(c)) = (
        cj.spec.job_template.spec.active_deadline_seconds,
        interval(ctx),
    ) else {
        return Vec::new();
    };
    let iv = c.typical_seconds;
    if ads <= iv || managed_elsewhere(ctx).is_some() {
        return Vec::new();
    }
    let consequence = match cj.spec.concurrency_policy {
        ConcurrencyPolicy::Forbid => "under Forbid a slow or hung run still blocks the next slot",
        ConcurrencyPolicy::Allow => "under Allow a slow run overlaps the next one",
        _ => return Vec::new(),
    };
    let mut f = Finding::new(
        &RULE,
        format!(
            "activeDeadlineSeconds is {}, longer than the schedule's {} interval: {consequence}.",
            secs(ads),
            human_duration(iv)
        ),
    )
    .field("spec.jobTemplate.spec.activeDeadlineSeconds")
    .fix("Lower activeDeadlineSeconds below the interval, above the normal run time");
    if let Some((value, why)) = suggested_active_deadline(ctx).filter(|(v, _)| *v < ads) {
        f = f
            .evidence(format!("suggested {}: {why}", secs(value)))
            .patch(active_deadline_patch(value));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run};

    #[test]
    fn says_both_numbers() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "active-deadline-too-large");
        assert_eq!(
            f[0].message,
            "activeDeadlineSeconds is 7200s (2h), longer than the schedule's 1h interval: under Forbid a slow or hung run still blocks the next slot."
        );
        assert!(
            f[0].command
                .as_deref()
                .unwrap()
                .contains(r#""activeDeadlineSeconds":3240"#)
        );
        let replace = RULE.fires_on.replace("Forbid", "Replace");
        assert!(
            findings(
                &run(&replace, RULE.example_now),
                "active-deadline-too-large"
            )
            .is_empty()
        );
    }
}
