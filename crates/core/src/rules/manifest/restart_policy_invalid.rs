//! CJD013 restart-policy-invalid: Job validation accepts only `OnFailure` and `Never` for the
//! pod template's restartPolicy. An absent field is defaulted to the pod default `Always`
//! first, so it fails the same way. The CronJob's own validation runs the job template
//! through Job validation, so the CronJob itself is rejected.

use super::common::{go_quote, not_supported};
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD013",
    slug: "restart-policy-invalid",
    severity: Severity::Error,
    summary: "The job template's restartPolicy is not Never or OnFailure, so the API server rejects the CronJob.",
    explanation: "A Job's Pods must end, so Job validation (which also validates a CronJob's \
`jobTemplate`) accepts only `restartPolicy: OnFailure` or `Never`. An absent restartPolicy is \
defaulted to the Pod default `Always` before validation, so both are rejected with \
`spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \
\"Never\"`; any other value gets `Unsupported value`. The CronJob is never created.",
    remediation: "Set `spec.jobTemplate.spec.template.spec.restartPolicy` to `Never` (every \
retry is a new Pod, and the failed Pods and their logs stay for inspection; `backoffLimit` \
counts Pods) or `OnFailure` (the container restarts in place in the same Pod).",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cleanup, namespace: ops}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: cleanup, image: cleanup:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cleanup, namespace: ops}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: cleanup, image: cleanup:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

const PATH: &str = "spec.jobTemplate.spec.template.spec.restartPolicy";

/// The Job validation error for this restartPolicy, or None when it is accepted.
pub(super) fn api_error(policy: Option<&str>) -> Option<String> {
    match policy {
        Some("OnFailure" | "Never") => None,
        None | Some("" | "Always") => Some(format!(
            "{PATH}: Required value: valid values: \"OnFailure\", \"Never\""
        )),
        Some(other) => Some(not_supported(PATH, other, &["OnFailure", "Never"])),
    }
}

fn check(ctx: &Context) -> Vec<Finding> {
    let jt = &ctx.cron_job.spec.job_template;
    if !jt.has_pod_template {
        return Vec::new(); // pod-template-missing reports the bigger problem
    }
    let policy = jt.spec.restart_policy.as_deref();
    let Some(api) = api_error(policy) else {
        return Vec::new();
    };
    let (what, head) = match policy {
        None | Some("") => (
            "is not set (one written at another level, e.g. under `template` instead of `template.spec`, is ignored), so it defaults to Always, which".to_string(),
            "restartPolicy defaults to Always, which Jobs reject".to_string(),
        ),
        Some("Always") => (
            "is Always, which".to_string(),
            "restartPolicy Always, which Jobs reject".to_string(),
        ),
        Some(p) => (
            format!("is {}, which", go_quote(p)),
            format!("restartPolicy {} is not Never or OnFailure", go_quote(p)),
        ),
    };
    let case_fix = policy.and_then(|p| {
        ["OnFailure", "Never"]
            .into_iter()
            .find(|v| v.eq_ignore_ascii_case(p) && *v != p)
    });
    let fix = match case_fix {
        Some(v) => format!("Write restartPolicy: {v} (values are case-sensitive)."),
        None => "Set restartPolicy: Never (a new Pod per retry; failed Pods keep their logs) or OnFailure (restart in place).".into(),
    };
    vec![
        Finding::new(
            &RULE,
            format!("The pod template's restartPolicy {what} Job validation rejects: `{api}`."),
        )
        .field(PATH)
        .headline(format!("cannot be created: {head}"))
        .fix(fix),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::{RULE, api_error};

    #[test]
    fn messages_match_job_validation() {
        // pkg/apis/batch/validation/validation.go: field.Required(…, fmt.Sprintf("valid values: %q, %q", …)).
        assert_eq!(
            api_error(None).unwrap(),
            r#"spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never""#
        );
        assert_eq!(api_error(Some("Always")), api_error(None));
        assert_eq!(
            api_error(Some("never")).unwrap(),
            r#"spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "never": supported values: "OnFailure", "Never""#
        );
        assert_eq!(api_error(Some("Never")), None);
    }

    #[test]
    fn absent_policy_fires_with_the_default() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "restart-policy-invalid");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.starts_with(
                "The pod template's restartPolicy is not set (one written at another level"
            ),
            "{}",
            f[0].message
        );
        let lower = RULE.quiet_on.replace("OnFailure", "onFailure");
        let r = run(&lower, RULE.example_now);
        assert!(
            findings(&r, "restart-policy-invalid")[0]
                .remediation
                .contains("restartPolicy: OnFailure")
        );
    }
}
