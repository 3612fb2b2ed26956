//! CJD024 overlapping-runs: `concurrencyPolicy: Allow` (the default) and evidence that runs
//! overlap — several owned Jobs running at once, or a run that lasted longer than the interval.
//! Allow never waits: the next slot starts a new Job whatever is still running.

use super::common::{durations, interval, plural};
use crate::evidence::{JobState, job_state};
use crate::model::ConcurrencyPolicy;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD024",
    slug: "overlapping-runs",
    severity: Severity::Warning,
    summary: "Under concurrencyPolicy Allow, runs of this CronJob overlap.",
    explanation: "With `concurrencyPolicy: Allow` (the default) the controller starts every slot's \
Job regardless of what is still running. When a run takes longer than the interval, two or more \
run at once: they compete for the same data and resources, and a slow phase gets slower. \
`Forbid` skips a slot while a run is active (the missed slot starts as soon as it ends, if \
`startingDeadlineSeconds` allows); `Replace` deletes the running Job and starts the new one.",
    remediation: "Use `concurrencyPolicy: Forbid` if a run must finish before the next starts (add \
`activeDeadlineSeconds` so a hung run cannot block it forever), or `Replace` if only the newest \
run matters. Otherwise make the runs safe to overlap.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops, uid: u1}
spec:
  schedule: "*/10 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: sync-29394000, namespace: ops, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: sync, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T00:00:00Z", completionTime: "2026-11-20T00:25:00Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops, uid: u1}
spec:
  schedule: "*/10 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: sync-29394000, namespace: ops, ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: sync, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T00:00:00Z", completionTime: "2026-11-20T00:04:00Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    if cj.spec.concurrency_policy != ConcurrencyPolicy::Allow
        || cj.spec.job_template.spec.suspend == Some(true)
    {
        return Vec::new(); // suspended templates pile up for another reason (CJD012)
    }
    let Some(c) = interval(ctx) else {
        return Vec::new();
    };
    let iv = c.typical_seconds;
    let mut running: Vec<&str> = ctx
        .jobs
        .iter()
        .filter(|j| job_state(j) == JobState::Running)
        .map(|j| j.meta.name.as_str())
        .collect();
    // Without the Jobs themselves, status.active is the controller's own list of running Jobs.
    if cj.status.active.len() > running.len() && !ctx.evidence.jobs {
        running = cj.status.active.iter().map(|a| a.name.as_str()).collect();
    }
    let longest = durations(ctx)
        .into_iter()
        .max_by_key(|(d, _)| *d)
        .filter(|(d, _)| *d > iv);
    let message = if running.len() >= 2 {
        format!(
            "{} of this CronJob are running at once ({}): under Allow each slot starts another.",
            plural(running.len(), "Job"),
            running.join(", ")
        )
    } else if let Some((d, j)) = longest {
        let verb = if job_state(j) == JobState::Running {
            "has been running for"
        } else {
            "ran"
        };
        format!(
            "Job {} {verb} {}, longer than the schedule's {} interval: under Allow the next run starts while it is still going.",
            j.meta.name,
            human_duration(d),
            human_duration(iv)
        )
    } else {
        return Vec::new();
    };
    let mut f = Finding::new(&RULE, message)
        .field("spec.concurrencyPolicy")
        .fix("Set concurrencyPolicy to Forbid (one run at a time; add activeDeadlineSeconds) or Replace (only the newest run matters)")
        .patch(serde_json::json!({"spec": {"concurrencyPolicy": "Forbid"}}));
    if let (true, Some((d, j))) = (running.len() >= 2, longest) {
        f = f.evidence(format!(
            "Job {} has run {}, longer than the {} interval",
            j.meta.name,
            human_duration(d),
            human_duration(iv)
        ));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run};

    #[test]
    fn a_run_longer_than_the_interval() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "overlapping-runs");
        assert_eq!(
            f[0].message,
            "Job sync-29394000 ran 25m, longer than the schedule's 10m interval: under Allow the next run starts while it is still going."
        );
        let forbid = RULE
            .fires_on
            .replace("  schedule:", "  concurrencyPolicy: Forbid\n  schedule:");
        assert!(findings(&run(&forbid, RULE.example_now), "overlapping-runs").is_empty());
    }

    #[test]
    fn several_active_jobs_in_the_status() {
        let yaml = RULE.fires_on.split("---").next().unwrap().to_string()
            + "status:\n  active: [{name: sync-29394780, namespace: ops, uid: a}, {name: sync-29394790, namespace: ops, uid: b}]\n";
        let r = run(&yaml, RULE.example_now);
        assert_eq!(
            findings(&r, "overlapping-runs")[0].message,
            "2 Jobs of this CronJob are running at once (sync-29394780, sync-29394790): under Allow each slot starts another."
        );
    }
}
