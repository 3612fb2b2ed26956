//! Every integer field of a CronJob at the edges of i64 goes through the whole diagnosis
//! without a panic (review: `startingDeadlineSeconds: 9223372036854775807` overflowed a `+ 1`,
//! and `-9223372036854775808` an `abs()`). The API server would refuse most of these; a file
//! may still carry them, and the other documents must still be checked.

use doctor::rules::examples::run;

const EDGES: &[&str] = &[
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775806",
    "-9223372036854775807",
    "4611686018427387904",
    "0",
    "-1",
];

fn manifest(spec_line: &str, job_line: &str) -> String {
    format!(
        r#"apiVersion: batch/v1
kind: CronJob
metadata: {{name: x, namespace: ops, creationTimestamp: "2026-11-01T00:00:00Z"}}
spec:
  schedule: "*/5 * * * *"
  concurrencyPolicy: Forbid
  {spec_line}
  jobTemplate: {{spec: {{{job_line} template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c:1}}]}}}}}}}}
status: {{lastScheduleTime: "2026-11-19T00:00:00Z", active: [{{name: x-1, namespace: ops, uid: j}}]}}
"#
    )
}

#[test]
fn integer_fields_at_the_edges_never_panic() {
    for v in EDGES {
        for field in [
            "startingDeadlineSeconds",
            "successfulJobsHistoryLimit",
            "failedJobsHistoryLimit",
        ] {
            let r = run(
                &manifest(&format!("{field}: {v}"), ""),
                "2026-11-20T12:00:00Z",
            );
            assert_eq!(r.cron_jobs.len(), 1, "{field}={v}");
        }
        for field in [
            "activeDeadlineSeconds",
            "backoffLimit",
            "backoffLimitPerIndex",
            "ttlSecondsAfterFinished",
            "parallelism",
            "completions",
        ] {
            let r = run(
                &manifest("", &format!("{field}: {v},")),
                "2026-11-20T12:00:00Z",
            );
            assert_eq!(r.cron_jobs.len(), 1, "{field}={v}");
        }
    }
}
