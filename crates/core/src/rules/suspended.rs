//! CJD005 suspended: `spec.suspend: true` — the controller starts nothing, and on resume it
//! starts at most ONE missed slot (the latest), immediately, unless startingDeadlineSeconds
//! excludes it.

use super::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD005",
    slug: "suspended",
    severity: Severity::Error,
    summary: "The CronJob is suspended: the controller starts no Job until it is resumed.",
    explanation: "With `spec.suspend: true` every sync stops before looking at the schedule. \
Missed slots are not queued: when the CronJob is resumed, the controller starts only the most \
recent missed slot, immediately (if `startingDeadlineSeconds` allows it), and none of the older \
ones. `kubectl cronjob-doctor unsuspend` previews exactly which slot that is.",
    remediation: "Resume it with `kubectl patch cronjob NAME --type merge -p '{\"spec\":{\"suspend\":false}}'` \
(or `kubectl cronjob-doctor unsuspend NAME` to preview the catch-up run first). If the suspension \
is intended, silence this finding with the annotation `cronjob-doctor.io/ignore: suspended`.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report-daily, namespace: finance}
spec:
  schedule: "0 6 * * *"
  suspend: true
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: report, image: report:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report-daily, namespace: finance}
spec:
  schedule: "0 6 * * *"
  suspend: false
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: report, image: report:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    if !cj.spec.suspend {
        return Vec::new();
    }
    // Who suspended it, when and why: the annotations `suspend` records while they are
    // current, else the managedFields entry that last set the field.
    let mut head = "is not running: suspended".to_string();
    let mut message = format!(
        "{} is suspended: no Job starts until spec.suspend is false.",
        ctx.name()
    );
    if let Some(known) = crate::actions::suspension::suspension(cj) {
        let by = known
            .by
            .as_deref()
            .map(|b| format!(" by {b}"))
            .unwrap_or_default();
        let reason = known
            .reason
            .as_deref()
            .map(|r| format!(", reason: {r}"))
            .unwrap_or_default();
        let (ago, when) = match known.at {
            Some(t) => (
                format!(" {}", known.ago(ctx.now).unwrap_or_default()),
                format!(" ({})", ctx.show_time(t)),
            ),
            None => (String::new(), String::new()),
        };
        head = format!("is not running: suspended{ago}{by}");
        message = format!(
            "{} was suspended{ago}{when}{by}{reason}; no Job starts until spec.suspend is false.",
            ctx.name()
        );
    }
    let mut f = Finding::new(&RULE, message)
        .field("spec.suspend")
        .headline(head)
        .fix(format!(
            "Resume it (preview the one catch-up run first with `{}`)",
            crate::text::unsuspend_command(ctx.name(), ctx.namespace)
        ))
        .patch(serde_json::json!({"spec": {"suspend": false}}))
        .patch_note(format!(
            "resumes it; to see the one catch-up run it starts and confirm first, run `{}` instead",
            crate::text::unsuspend_command(ctx.name(), ctx.namespace)
        ));
    if let Some(t) = ctx.replay.true_most_recent {
        f = f.evidence(format!(
            "on resume the controller would start the {} slot immediately{}",
            ctx.show_time(t),
            match ctx.cron_job.spec.starting_deadline_seconds {
                Some(s) => format!(" if it is less than {s}s old"),
                None => String::new(),
            }
        ));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::examples::{findings, run};

    #[test]
    fn says_who_and_when_from_managed_fields() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata:
  name: report-daily
  namespace: finance
  managedFields:
  - manager: kubectl-patch
    operation: Update
    time: "2026-11-17T10:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:suspend": {}}}
spec:
  schedule: "0 6 * * *"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: r, image: r}]}}}}
"#;
        let r = run(yaml, "2026-11-20T12:00:00Z");
        let f = findings(&r, "suspended");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.contains("suspended 3d 2h ago"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("kubectl-patch"));
        assert_eq!(
            r.cron_jobs[0].headline,
            "report-daily is not running: suspended 3d 2h ago by kubectl-patch"
        );
    }

    #[test]
    fn says_who_and_why_from_the_suspend_annotations() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata:
  name: report-daily
  namespace: finance
  annotations:
    cronjob-doctor.io/suspended-by: alice
    cronjob-doctor.io/suspended-at: "2026-11-17T10:00:00Z"
    cronjob-doctor.io/suspend-reason: db migration
  managedFields:
  - manager: kubectl-cronjob-doctor
    operation: Update
    time: "2026-11-17T10:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:suspend": {}}}
spec:
  schedule: "0 6 * * *"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: r, image: r}]}}}}
"#;
        let r = run(yaml, "2026-11-20T12:00:00Z");
        let f = findings(&r, "suspended");
        assert_eq!(
            f[0].message,
            "report-daily was suspended 3d 2h ago (2026-11-17 10:00 UTC) by alice, reason: db migration; no Job starts until spec.suspend is false."
        );
        assert_eq!(
            r.cron_jobs[0].headline,
            "report-daily is not running: suspended 3d 2h ago by alice"
        );
    }
}
