//! CJD015 concurrency-policy-invalid: `spec.concurrencyPolicy` must be exactly `Allow`,
//! `Forbid` or `Replace` (an empty string is defaulted to Allow first). Anything else, a
//! lower-case `forbid` included, is rejected by the API server.

use super::common::{go_quote, not_supported};
use crate::model::ConcurrencyPolicy;
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD015",
    slug: "concurrency-policy-invalid",
    severity: Severity::Error,
    summary: "spec.concurrencyPolicy is not Allow, Forbid or Replace, so the API server rejects the CronJob.",
    explanation: "CronJob validation accepts exactly `Allow` (the default), `Forbid` and \
`Replace`, case-sensitively, and answers anything else with `spec.concurrencyPolicy: \
Unsupported value: \"<value>\": supported values: \"Allow\", \"Forbid\", \"Replace\"`. The \
CronJob is never created.",
    remediation: "Write one of `Allow` (runs may overlap), `Forbid` (skip a run while the \
previous one is active) or `Replace` (delete the active run and start the new one).",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/10 * * * *"
  concurrencyPolicy: forbid
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
  concurrencyPolicy: Forbid
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

const VALID: [&str; 3] = ["Allow", "Forbid", "Replace"];

fn check(ctx: &Context) -> Vec<Finding> {
    let ConcurrencyPolicy::Other(value) = &ctx.cron_job.spec.concurrency_policy else {
        return Vec::new();
    };
    if value.is_empty() {
        return Vec::new(); // defaulted to Allow before validation
    }
    let api = not_supported("spec.concurrencyPolicy", value, &VALID);
    let meant = VALID
        .into_iter()
        .find(|v| v.eq_ignore_ascii_case(value.trim()));
    let f = Finding::new(
        &RULE,
        format!(
            "concurrencyPolicy {} is not a supported value: `{api}`.",
            go_quote(value)
        ),
    )
    .field("spec.concurrencyPolicy")
    .headline(format!(
        "cannot be created: the API server rejects concurrencyPolicy {}",
        go_quote(value)
    ))
    .fix(match meant {
        Some(v) => format!("Write concurrencyPolicy: {v} (values are case-sensitive)."),
        None => "Write Allow, Forbid or Replace.".into(),
    });
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn lower_case_is_rejected_with_the_upstream_message() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "concurrency-policy-invalid");
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            r#"concurrencyPolicy "forbid" is not a supported value: `spec.concurrencyPolicy: Unsupported value: "forbid": supported values: "Allow", "Forbid", "Replace"`."#
        );
        assert!(f[0].remediation.contains("concurrencyPolicy: Forbid"));
        assert_eq!(
            r.cron_jobs[0].headline,
            r#"sync cannot be created: the API server rejects concurrencyPolicy "forbid""#
        );
    }
}
