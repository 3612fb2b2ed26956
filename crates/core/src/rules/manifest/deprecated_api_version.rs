//! CJD017 deprecated-api-version: CronJobs written as `batch/v1beta1` (removed in Kubernetes
//! 1.25) or `batch/v2alpha1` (an alpha API, off by default, removed in 1.21). `kubectl apply`
//! on a current cluster fails before validation even starts. The migration is the apiVersion
//! line; the defaults that differ are spelled out so the switch changes nothing by surprise.

use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD017",
    slug: "deprecated-api-version",
    severity: Severity::Error,
    summary: "The CronJob uses a removed API version (batch/v1beta1 or batch/v2alpha1); current clusters only serve batch/v1.",
    explanation: "CronJob has been `batch/v1` since Kubernetes 1.21. `batch/v1beta1` was deprecated \
then and is no longer served from 1.25; `batch/v2alpha1` was an alpha API that had to be enabled \
explicitly and was removed in 1.21. Applying such a manifest fails with `no matches for kind \
\"CronJob\" in version \"batch/v1beta1\"`. The fields are the same in `batch/v1`, and \
`batch/v1beta1` had the same defaults (concurrencyPolicy Allow, suspend false, 3 successful and \
1 failed Job kept). `batch/v2alpha1` did not default the history limits, so it kept every \
finished Job; `batch/v1` keeps 3 and 1 unless you set them. Deleting a CronJob through \
`batch/v1` also deletes its Jobs by default (the old versions orphaned them).",
    remediation: "Change `apiVersion` to `batch/v1`; nothing else needs to change. Coming from \
`batch/v2alpha1`, set `successfulJobsHistoryLimit`/`failedJobsHistoryLimit` if you relied on \
keeping every finished Job.",
    fires_on: r#"
apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: cleanup, namespace: ops}
spec:
  schedule: "0 4 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: cleanup, image: cleanup:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cleanup, namespace: ops}
spec:
  schedule: "0 4 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: cleanup, image: cleanup:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let v = ctx.replay.kube_version;
    let (message, served) = match cj.api_version.as_str() {
        "batch/v1beta1" => (
            "apiVersion batch/v1beta1 is no longer served since Kubernetes 1.25 (deprecated since 1.21): applying it fails with `no matches for kind \"CronJob\" in version \"batch/v1beta1\"`.".to_string(),
            v.minor < 25,
        ),
        "batch/v2alpha1" => (
            "apiVersion batch/v2alpha1 was an alpha API (enabled only on request) and was removed in Kubernetes 1.21: applying it fails with `no matches for kind \"CronJob\" in version \"batch/v2alpha1\"`.".to_string(),
            false,
        ),
        _ => return Vec::new(),
    };
    let mut fix = "Change apiVersion to batch/v1 (same fields".to_string();
    fix.push_str(if cj.api_version == "batch/v2alpha1" {
        "; batch/v1 keeps only 3 successful and 1 failed Job unless you set the history limits)."
    } else {
        " and defaults)."
    });
    let mut f = Finding::new(&RULE, message).field("apiVersion").fix(fix);
    if served {
        f = f.severity(Severity::Warning).evidence(format!(
            "Kubernetes {v} still serves batch/v1beta1; the upgrade to 1.25 removes it"
        ));
    } else {
        f = f.headline(format!(
            "cannot be created: apiVersion {} is not served (use batch/v1)",
            cj.api_version
        ));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run, run_with};
    use super::RULE;
    use crate::replay::KubeVersion;
    use crate::rules::Severity;

    #[test]
    fn removed_versions_by_release() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "deprecated-api-version");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message
                .contains("no longer served since Kubernetes 1.25")
        );
        let old = run_with(RULE.fires_on, RULE.example_now, KubeVersion::new(24));
        assert_eq!(
            findings(&old, "deprecated-api-version")[0].severity,
            Severity::Warning
        );
        let alpha = RULE.fires_on.replace("batch/v1beta1", "batch/v2alpha1");
        let f = run(&alpha, RULE.example_now);
        assert!(
            findings(&f, "deprecated-api-version")[0]
                .remediation
                .contains("history limits")
        );
    }
}
