//! CJD001 schedule-missing: no `spec.schedule` (or an empty one). The API server rejects the
//! object (`spec.schedule: Required value`), so it never exists and nothing ever runs. A
//! common cause is a schedule written one level too deep (under `jobTemplate`) or a Helm value
//! that rendered to nothing.

use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD001",
    slug: "schedule-missing",
    severity: Severity::Error,
    summary: "spec.schedule is missing or empty, so the API server rejects the CronJob.",
    explanation: "`spec.schedule` is required: CronJob validation answers \
`spec.schedule: Required value` when it is absent or the empty string, and the object is never \
created. A schedule placed under `spec.jobTemplate` or at the top level is not read as the \
schedule (it is an unknown field, dropped or rejected by strict validation), and a templating \
value that renders to nothing has the same effect.",
    remediation: "Add `spec.schedule` with five fields — minute, hour, day-of-month, month, \
day-of-week — for example `\"0 3 * * *\"` (03:00 every day), or a descriptor such as `@daily`. \
Quote it in YAML.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: finance}
spec:
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
metadata: {name: report, namespace: finance}
spec:
  schedule: "0 6 * * *"
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
    let what = match ctx.cron_job.spec.schedule.as_deref() {
        None => "missing",
        Some("") => "empty",
        Some(_) => return Vec::new(),
    };
    vec![
        Finding::new(
            &RULE,
            format!("spec.schedule is {what}: the API server rejects the CronJob with `spec.schedule: Required value`."),
        )
        .field("spec.schedule")
        .headline(format!("never runs: spec.schedule is {what} (the API server rejects the CronJob)"))
        .fix("Add spec.schedule with five fields (minute hour day-of-month month day-of-week), e.g. \"0 3 * * *\" for 03:00 every day."),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn missing_and_empty_are_rejected_but_blank_is_a_parse_error() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "schedule-missing");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.contains("`spec.schedule: Required value`"),
            "{}",
            f[0].message
        );
        assert_eq!(
            r.cron_jobs[0].headline,
            "report never runs: spec.schedule is missing (the API server rejects the CronJob)"
        );
        let empty = RULE.quiet_on.replace("\"0 6 * * *\"", "\"\"");
        assert!(
            findings(&run(&empty, RULE.example_now), "schedule-missing")[0]
                .message
                .starts_with("spec.schedule is empty")
        );
        // " " is not empty: robfig rejects it instead (invalid-schedule).
        let blank = RULE.quiet_on.replace("\"0 6 * * *\"", "\" \"");
        assert!(findings(&run(&blank, RULE.example_now), "schedule-missing").is_empty());
    }
}
