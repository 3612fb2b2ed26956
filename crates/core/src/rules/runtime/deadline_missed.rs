//! CJD010 deadline-missed: a slot is due (nothing started it since lastScheduleTime) but it is
//! older than `startingDeadlineSeconds`, so the controller skips it. Silently: the upstream
//! `MissSchedule` event sits behind a condition that cannot be true (N2, kubernetes#101148), so
//! no event, no status change — only this replay says it happened.

use super::common::{secs, suggested_starting_deadline};
use crate::evidence::{JobState, job_state};
use crate::replay::Decision;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD010",
    slug: "deadline-missed",
    severity: Severity::Warning,
    summary: "A due slot is older than startingDeadlineSeconds, so the controller skips it without any event.",
    explanation: "When the controller syncs, it only considers slots after `now − \
startingDeadlineSeconds`. A slot that nothing started in time — the controller was down or \
busy, the CronJob was suspended, or a Forbid Job was still running (E16) — falls out of that \
window and is dropped. The code that would record Warning `MissSchedule` can never run (every \
candidate slot is already inside the window; kubernetes#101148, the fix #101266 was closed), so \
**no event will tell you**: `lastScheduleTime` simply stays where it was, and the next regular \
slot runs normally.",
    remediation: "If a late run is still useful, raise `startingDeadlineSeconds` (or remove it); the \
deadline is only worth having when a late run is worse than none. To make up this run now, \
start it by hand: `kubectl create job NAME-catchup --from=cronjob/NAME`.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  startingDeadlineSeconds: 200
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-01T00:00:00Z"}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  startingDeadlineSeconds: 3600
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-01T00:00:00Z"}
"#,
    example_now: "2024-01-05T12:34:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let rep = ctx.replay;
    let cj = ctx.cron_job;
    let (Decision::MissedDeadline, Some(slot), Some(sds)) = (
        rep.decision,
        rep.due_ignoring_deadline,
        cj.spec.starting_deadline_seconds,
    ) else {
        return Vec::new();
    };
    if sds == 0 {
        return Vec::new(); // starting-deadline-too-small says it: 0 means never
    }
    let late = ctx.now.as_second() - slot.as_second();
    let mut f = Finding::new(
        &RULE,
        format!(
            "The {} slot was never started and is now {} late, past startingDeadlineSeconds ({}): the controller skips it, and no event will tell you.",
            ctx.show_time(slot),
            human_duration(late),
            secs(sds)
        ),
    )
    .field("spec.startingDeadlineSeconds")
    .headline(format!(
        "is not running: the {} run was skipped silently — {} late, past startingDeadlineSeconds ({sds}s)",
        ctx.show_time(slot),
        human_duration(late)
    ));
    // Why it is late: a Job that held it back under Forbid and ended after the slot (E16).
    if let Some(j) = ctx.jobs.iter().find(|j| {
        job_state(j) != JobState::Running
            && crate::evidence::job_start(j).is_some_and(|s| s < slot)
            && j.status.completion_time.is_some_and(|c| c > slot)
    }) {
        f = f.evidence(format!(
            "Job {} was still running at the slot and finished at {}",
            j.meta.name,
            ctx.show_time(j.status.completion_time.unwrap_or(slot))
        ));
    }
    if let Some(lst) = cj.status.last_schedule_time {
        f = f.evidence(format!(
            "lastScheduleTime is {}: nothing was started since",
            ctx.show_time(lst)
        ));
    }
    if let Some(next) = rep.next_schedule_times(1).first() {
        f = f.evidence(format!(
            "the next slot, {}, runs normally if the controller is on time",
            ctx.show_time(*next)
        ));
    }
    let suggested = suggested_starting_deadline(ctx);
    f = f.fix(format!(
        "Start the missed run by hand if it matters ({}); if late runs are useful, raise startingDeadlineSeconds{} or remove it",
        crate::text::catchup_command(ctx.name(), ctx.namespace),
        if suggested > sds { format!(" (e.g. to {})", secs(suggested)) } else { String::new() }
    ));
    if suggested > sds {
        f = f.patch(serde_json::json!({"spec": {"startingDeadlineSeconds": suggested}}));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run};

    #[test]
    fn e5_slot_outside_the_window_is_skipped_silently() {
        let r = run(RULE.fires_on, "2024-01-05T12:34:00Z");
        assert_eq!(r.cron_jobs[0].controller.events, Vec::<String>::new());
        let f = findings(&r, "deadline-missed");
        assert_eq!(
            f[0].message,
            "The 2024-01-05 12:00 UTC slot was never started and is now 34m late, past startingDeadlineSeconds (200s (3m20s)): the controller skips it, and no event will tell you."
        );
        assert_eq!(
            r.cron_jobs[0].headline,
            "cj has not run since 2024-01-01 00:00 UTC (4d 12h ago; 108 runs missed): the 2024-01-05 12:00 UTC run was skipped silently — 34m late, past startingDeadlineSeconds (200s)"
        );
        assert!(
            f[0].evidence.contains(
                &"the next slot, 2024-01-05 13:00 UTC, runs normally if the controller is on time"
                    .to_string()
            )
        );
        // E24: suspended 08:30–11:20 with sds=600: the 11:00 slot is 20m late.
        let y = RULE
            .fires_on
            .replace("200", "600")
            .replace("2024-01-01T00:00:00Z", "2024-01-01T08:00:00Z");
        let f = run(&y, "2024-01-01T11:20:00Z");
        assert!(
            findings(&f, "deadline-missed")[0]
                .message
                .starts_with("The 2024-01-01 11:00 UTC slot was never started and is now 20m late")
        );
    }

    #[test]
    fn e16_forbid_job_finished_after_the_slot() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, uid: u1, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  schedule: "*/10 * * * *"
  concurrencyPolicy: Forbid
  startingDeadlineSeconds: 60
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status:
  lastScheduleTime: "2024-01-01T10:00:00Z"
  active: [{name: cj-28401720, namespace: default, uid: j1}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: cj-28401720
  namespace: default
  uid: j1
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: cj, uid: u1, controller: true}]
status:
  startTime: "2024-01-01T10:00:00Z"
  completionTime: "2024-01-01T10:13:00Z"
  conditions: [{type: Complete, status: "True"}]
"#;
        let r = run(yaml, "2024-01-01T10:13:00Z");
        assert_eq!(r.cron_jobs[0].controller.job_name, None);
        let f = findings(&r, "deadline-missed");
        assert!(
            f[0].message
                .starts_with("The 2024-01-01 10:10 UTC slot was never started and is now 3m late"),
            "{}",
            f[0].message
        );
        assert!(f[0].evidence.contains(&"Job cj-28401720 was still running at the slot and finished at 2024-01-01 10:13 UTC".to_string()));
    }

    #[test]
    fn e28_ten_second_deadline() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2024-01-01T10:00:00Z"}
spec:
  schedule: "* * * * *"
  startingDeadlineSeconds: 10
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
"#;
        let r = run(yaml, "2024-01-01T10:01:09Z");
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("cj-28401721")
        );
        assert!(findings(&r, "deadline-missed").is_empty());
        let r = run(yaml, "2024-01-01T10:01:11Z");
        assert_eq!(r.cron_jobs[0].controller.events, Vec::<String>::new()); // no MissSchedule
        assert!(
            findings(&r, "deadline-missed")[0]
                .message
                .contains("now 11s late, past startingDeadlineSeconds (10s)")
        );
    }
}
