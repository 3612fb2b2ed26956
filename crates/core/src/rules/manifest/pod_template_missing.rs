//! CJD014 pod-template-missing: no `spec.jobTemplate.spec.template` (usually a pod spec nested
//! at the wrong level, e.g. `jobTemplate.spec.spec` or `jobTemplate.spec.containers`), or a
//! template without containers. Pod validation then rejects the job template, and the CronJob.

use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD014",
    slug: "pod-template-missing",
    severity: Severity::Error,
    summary: "The job template has no pod template or no containers, so the API server rejects the CronJob.",
    explanation: "A CronJob nests three specs: `spec.jobTemplate.spec` is a Job spec whose \
`template.spec` is the Pod spec with `containers` and `restartPolicy`. A pod spec written one \
level off (`jobTemplate.spec.spec`, `jobTemplate.spec.containers`, `jobTemplate.template`) is an \
unknown field: the API server drops it (or rejects it under strict field validation) and then \
finds a Pod template without containers (`spec.jobTemplate.spec.template.spec.containers: \
Required value`) and without a valid restartPolicy. The CronJob is never created.",
    remediation: "Nest it as `spec.jobTemplate.spec.template.spec.containers` (and \
`…template.spec.restartPolicy: Never`). `kubectl create cronjob NAME --image=IMAGE \
--schedule='0 3 * * *' --dry-run=client -o yaml` prints the correct skeleton.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      spec:
        restartPolicy: Never
        containers: [{name: backup, image: backup:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: backup:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let jt = &ctx.cron_job.spec.job_template;
    let (message, field, head) = if !jt.has_pod_template {
        (
            "spec.jobTemplate.spec.template is missing, so the Job has no Pod to run: the API server rejects the CronJob (`spec.jobTemplate.spec.template.spec.containers: Required value`).",
            "spec.jobTemplate.spec",
            "cannot be created: the job template has no pod template (spec.jobTemplate.spec.template)",
        )
    } else if jt.spec.containers.is_empty() {
        (
            "The pod template has no containers: the API server rejects the CronJob (`spec.jobTemplate.spec.template.spec.containers: Required value`).",
            "spec.jobTemplate.spec.template.spec.containers",
            "cannot be created: the pod template has no containers",
        )
    } else {
        return Vec::new();
    };
    vec![
        Finding::new(&RULE, message)
            .field(field)
            .headline(head)
            .fix("Put the pod spec at spec.jobTemplate.spec.template.spec (containers and restartPolicy: Never or OnFailure)."),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn wrongly_nested_pod_spec_is_missing() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "pod-template-missing");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .starts_with("spec.jobTemplate.spec.template is missing")
        );
        // restart-policy-invalid stays quiet: the missing template is the decisive problem.
        assert!(findings(&r, "restart-policy-invalid").is_empty());
        let empty = RULE.quiet_on.replace(
            "containers: [{name: backup, image: backup:1}]",
            "containers: []",
        );
        let r = run(&empty, RULE.example_now);
        assert!(
            findings(&r, "pod-template-missing")[0]
                .message
                .starts_with("The pod template has no containers")
        );
    }
}
