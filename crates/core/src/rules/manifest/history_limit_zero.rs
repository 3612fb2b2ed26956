//! CJD031 history-limit-zero: `failedJobsHistoryLimit: 0` (or the successful one) makes the
//! controller delete every finished Job of that kind — with its Pods and their logs — on the
//! next sync (history cleanup, spec B.9). A failure then leaves no trace to debug.

use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD031",
    slug: "history-limit-zero",
    severity: Severity::Warning,
    summary: "A history limit of 0 deletes finished Jobs (and their Pods and logs) immediately.",
    explanation: "On every sync the controller keeps the newest `successfulJobsHistoryLimit` \
(default 3) Complete Jobs and `failedJobsHistoryLimit` (default 1) Failed Jobs it owns and \
deletes the rest, in the background, Pods included. With a limit of 0 a finished Job is deleted \
as soon as the controller sees it finish: after a failure there are no Pods, no logs, no exit \
codes and no Job conditions left to look at. With `failedJobsHistoryLimit: 0` this is the \
evidence of failures; with `successfulJobsHistoryLimit: 0` it is only the proof of success.",
    remediation: "Keep at least one failed Job (`failedJobsHistoryLimit: 1`, the default). Use \
`ttlSecondsAfterFinished` on the job template if finished Jobs must go away after a while \
rather than at once.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/10 * * * *"
  successfulJobsHistoryLimit: 0
  failedJobsHistoryLimit: 0
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: sync, image: sync:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/10 * * * *"
  successfulJobsHistoryLimit: 1
  failedJobsHistoryLimit: 1
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: sync, image: sync:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let spec = &ctx.cron_job.spec;
    let failed = spec.failed_jobs_history_limit == Some(0);
    let succeeded = spec.successful_jobs_history_limit == Some(0);
    let f = match (failed, succeeded) {
        (false, false) => return Vec::new(),
        (true, both) => Finding::new(
            &RULE,
            format!(
                "failedJobsHistoryLimit is 0{}: a failed Job is deleted, with its Pods and logs, as soon as the controller sees it fail, so nothing is left to debug.",
                if both { " (and successfulJobsHistoryLimit too)" } else { "" }
            ),
        )
        .field("spec.failedJobsHistoryLimit")
        .fix("Keep at least the last failed Job: failedJobsHistoryLimit: 1 (the default).")
        .patch(serde_json::json!({"spec": {"failedJobsHistoryLimit": 1}})),
        (false, true) => Finding::new(
            &RULE,
            "successfulJobsHistoryLimit is 0: a Job that succeeds is deleted, with its Pods and logs, as soon as the controller sees it complete (failed Jobs are still kept).",
        )
        .severity(Severity::Info)
        .field("spec.successfulJobsHistoryLimit")
        .fix("Keep the last successful Job if you want to see what it did: successfulJobsHistoryLimit: 1.")
        .patch(serde_json::json!({"spec": {"successfulJobsHistoryLimit": 1}})),
    };
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;
    use crate::rules::Severity;

    #[test]
    fn failed_limit_is_a_warning_successful_only_info() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "history-limit-zero");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].message
                .starts_with("failedJobsHistoryLimit is 0 (and successfulJobsHistoryLimit too)")
        );
        let only_success = RULE
            .fires_on
            .replace("failedJobsHistoryLimit: 0", "failedJobsHistoryLimit: 2");
        let r = run(&only_success, RULE.example_now);
        assert_eq!(
            findings(&r, "history-limit-zero")[0].severity,
            Severity::Info
        );
    }
}
