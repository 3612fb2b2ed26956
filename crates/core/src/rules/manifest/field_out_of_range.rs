//! CJD035 field-out-of-range: a count or a number of seconds the API server refuses. CronJob
//! validation (`ValidateCronJobSpec`) requires `startingDeadlineSeconds` and both history limits
//! to be ≥ 0, and the job template's validation (`validateJobSpec`) the same of `parallelism`,
//! `completions`, `activeDeadlineSeconds`, `backoffLimit`, `backoffLimitPerIndex` and
//! `ttlSecondsAfterFinished`. Fields that are `int32` in Go cannot even be decoded beyond its
//! range. The loader keeps such values (so the replay can say what they would mean); this
//! rule says the object never gets that far.

use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD035",
    slug: "field-out-of-range",
    severity: Severity::Error,
    summary: "A deadline, history limit or Job count is negative (or too large for its type), so the API server rejects the CronJob.",
    explanation: "The API server validates every CronJob before storing it. \
`startingDeadlineSeconds`, `successfulJobsHistoryLimit` and `failedJobsHistoryLimit` must be 0 \
or more, and so must the job template's `parallelism`, `completions`, \
`activeDeadlineSeconds`, `backoffLimit`, `backoffLimitPerIndex` and `ttlSecondsAfterFinished`; \
it answers `spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to \
0`. All but the two deadlines are 32-bit integers in the API: a value beyond 2147483647 fails \
to decode (`json: cannot unmarshal number … of type int32`). Either way the CronJob is never \
created (or never updated), so `kubectl apply` fails and the old version keeps running.",
    remediation: "Use 0 or a positive value (remove the field to get the default).",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/10 * * * *"
  startingDeadlineSeconds: -5
  jobTemplate:
    spec:
      backoffLimit: -1
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
  startingDeadlineSeconds: 0
  jobTemplate:
    spec:
      backoffLimit: 0
      template:
        spec:
          restartPolicy: Never
          containers: [{name: sync, image: sync:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// Go's `int32` and `int64` bounds, as the decoder applies them.
type GoInt = (i64, &'static str);
const INT32: GoInt = (i32::MAX as i64, "int32");
const INT64: GoInt = (i64::MAX, "int64");

/// A checked field: its path, the Go struct the decoder names, its value, its Go type.
type Checked = (&'static str, &'static str, Option<i64>, GoInt);

fn check(ctx: &Context) -> Vec<Finding> {
    let s = &ctx.cron_job.spec;
    let j = &s.job_template.spec;
    // (path, Go struct for the decoder's message, value, Go type)
    let fields: [Checked; 9] = [
        (
            "spec.startingDeadlineSeconds",
            "CronJobSpec",
            s.starting_deadline_seconds,
            INT64,
        ),
        (
            "spec.successfulJobsHistoryLimit",
            "CronJobSpec",
            s.successful_jobs_history_limit,
            INT32,
        ),
        (
            "spec.failedJobsHistoryLimit",
            "CronJobSpec",
            s.failed_jobs_history_limit,
            INT32,
        ),
        (
            "spec.jobTemplate.spec.parallelism",
            "JobSpec",
            j.parallelism,
            INT32,
        ),
        (
            "spec.jobTemplate.spec.completions",
            "JobSpec",
            j.completions,
            INT32,
        ),
        (
            "spec.jobTemplate.spec.activeDeadlineSeconds",
            "JobSpec",
            j.active_deadline_seconds,
            INT64,
        ),
        (
            "spec.jobTemplate.spec.backoffLimit",
            "JobSpec",
            j.backoff_limit,
            INT32,
        ),
        (
            "spec.jobTemplate.spec.backoffLimitPerIndex",
            "JobSpec",
            j.backoff_limit_per_index,
            INT32,
        ),
        (
            "spec.jobTemplate.spec.ttlSecondsAfterFinished",
            "JobSpec",
            j.ttl_seconds_after_finished,
            INT32,
        ),
    ];
    let mut out = Vec::new();
    for (path, go_struct, value, (max, go_type)) in fields {
        let Some(v) = value else { continue };
        let server = if v > max || v < -max - 1 {
            format!(
                "json: cannot unmarshal number {v} into Go struct field {go_struct}.{path} of type {go_type}"
            )
        } else if v < 0 {
            format!("{path}: Invalid value: {v}: must be greater than or equal to 0")
        } else {
            continue;
        };
        let key = path.rsplit('.').next().unwrap_or(path);
        out.push(
            Finding::new(
                &RULE,
                format!("{key} is {v}, which the API server rejects: `{server}`."),
            )
            .field(path)
            .headline(format!(
                "cannot be created: the API server rejects {key}: {v}"
            ))
            .fix(format!(
                "Set {key} to 0 or more{} (or remove it for the default).",
                if max == INT32.0 {
                    " and at most 2147483647"
                } else {
                    ""
                }
            )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn negative_values_quote_the_servers_message() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "field-out-of-range");
        let msgs: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "startingDeadlineSeconds is -5, which the API server rejects: `spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0`.",
                "backoffLimit is -1, which the API server rejects: `spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0`.",
            ]
        );
        assert_eq!(f[0].location.as_ref().unwrap().line, 7);
        assert_eq!(f[1].location.as_ref().unwrap().line, 10);
    }

    #[test]
    fn history_limits_and_int32_overflow() {
        let yaml = RULE
            .fires_on
            .replace(
                "startingDeadlineSeconds: -5",
                "failedJobsHistoryLimit: -1\n  successfulJobsHistoryLimit: 3000000000",
            )
            .replace("backoffLimit: -1", "backoffLimit: 6");
        let r = run(&yaml, RULE.example_now);
        let msgs: Vec<String> = findings(&r, "field-out-of-range")
            .iter()
            .map(|f| f.message.clone())
            .collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs[0].contains("`json: cannot unmarshal number 3000000000 into Go struct field CronJobSpec.spec.successfulJobsHistoryLimit of type int32`"), "{msgs:?}");
        assert!(msgs[1].contains("`spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0`"), "{msgs:?}");
    }
}
