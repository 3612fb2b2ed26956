//! CJD011 only-latest-missed-runs: several slots passed since `lastScheduleTime` without a Job
//! and the controller will start only the most recent one (or none, past the deadline). The
//! docs' "missed Jobs are scheduled" suggests a backfill that does not exist (E23).
//! Stays quiet where a more specific rule speaks: suspend (CJD005), Forbid (CJD007), more than
//! 100 missed (CJD008), a window miss or wrong slot (CJD009).

use super::common::{plural, too_many_missed};
use crate::evidence::{JobState, job_start, job_state};
use crate::model::ConcurrencyPolicy;
use crate::replay::Decision;
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD011",
    slug: "only-latest-missed-runs",
    severity: Severity::Warning,
    summary: "Several slots were missed and the controller starts only the latest of them (or none).",
    explanation: "The controller never backfills. When it syncs after several slots passed without a \
Job — it was down, the CronJob was suspended and then resumed, a Forbid Job ran long — it starts \
the **most recent** missed slot only (if `startingDeadlineSeconds` still allows it) and the \
older ones are gone for good. The documentation's \"missed jobs are scheduled immediately\" \
is easy to read as a catch-up of every run; it is one run (E23).",
    remediation: "If every run matters, make each run process everything since the last successful \
one (the CronJob will not replay the gap for you), or start the missed runs by hand with \
`kubectl create job NAME-catchup --from=cronjob/NAME`. To resume a CronJob without even the one \
catch-up run, preview it with `kubectl cronjob-doctor unsuspend`.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-01T08:00:00Z"}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-01T10:00:00Z"}
"#,
    example_now: "2024-01-01T11:20:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let rep = ctx.replay;
    let cj = ctx.cron_job;
    // With startingDeadlineSeconds 0 nothing ever runs: starting-deadline-too-small says it.
    if cj.spec.suspend
        || too_many_missed(ctx)
        || rep.window_miss
        || rep.wrong_slot
        || cj.spec.starting_deadline_seconds == Some(0)
    {
        return Vec::new();
    }
    // A create refused by a Job of the slot's name (AlreadyExists) starts nothing.
    if !(rep.creates_job() || rep.decision == Decision::MissedDeadline) {
        return Vec::new();
    }
    let (Some(eff), Some(base)) = (
        rep.effective(),
        cj.status.last_schedule_time.or(cj.meta.creation_timestamp),
    ) else {
        return Vec::new();
    };
    let (slots, capped) = eff.slots_in(base, ctx.now, 10_000);
    if slots.len() < 2 {
        return Vec::new();
    }
    let count = if capped {
        format!("more than {}", slots.len())
    } else {
        slots.len().to_string()
    };
    let since = if cj.status.last_schedule_time.is_some() {
        "lastScheduleTime"
    } else {
        "creation"
    };
    let oldest = ctx.show_time(slots[0]);
    let message = match (rep.decision, rep.scheduled_time) {
        (Decision::Create, Some(t)) => format!(
            "{count} slots passed since {} ({since}) without a Job; the controller starts only the latest, {}, now — the {} from {oldest} on never run.",
            ctx.show_time(base),
            ctx.show_time(t),
            if capped {
                "older ones".to_string()
            } else {
                plural(slots.len() - 1, "older one")
            },
        ),
        _ => format!(
            "{count} slots passed since {} ({since}) without a Job, from {oldest} on; none of them will run — even the latest is past startingDeadlineSeconds.",
            ctx.show_time(base)
        ),
    };
    let mut f = Finding::new(&RULE, message).fix(format!(
        "If the missed runs matter, start them by hand ({}) or make each run catch up on everything since the last success",
        crate::text::catchup_command(ctx.name(), ctx.namespace)
    ));
    // Context: who changed suspend since the first missed slot, or a Forbid Job that held it.
    if let Some(m) = cj
        .meta
        .suspend_managers
        .iter()
        .filter(|m| m.time.is_some_and(|t| t >= slots[0]))
        .max_by_key(|m| m.time)
    {
        f = f.evidence(format!(
            "spec.suspend was last changed at {} by {} (resumed: the catch-up is one run)",
            ctx.show_time(m.time.unwrap_or(ctx.now)),
            m.manager
        ));
    }
    if cj.spec.concurrency_policy == ConcurrencyPolicy::Forbid
        && let Some(j) = ctx.jobs.iter().find(|j| {
            job_start(j).is_some_and(|s| s < slots[0])
                && (job_state(j) == JobState::Running
                    || j.status.completion_time.is_some_and(|c| c > slots[0]))
        })
    {
        f = f.evidence(format!(
            "Job {} ran past {} under Forbid{}",
            j.meta.name,
            oldest,
            j.status
                .completion_time
                .map(|c| format!(" and finished at {}", ctx.show_time(c)))
                .unwrap_or_default()
        ));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run, run_with};

    /// The latest slot's Job already exists, not in `status.active` (its status write was
    /// lost): 1.29–1.36 cannot adopt it (kubernetes#136918), so nothing is started now and
    /// the finding, which says the latest slot starts, stays quiet; 1.37 adopts it.
    #[test]
    fn quiet_when_the_create_of_the_latest_slot_is_refused() {
        let job = r#"
---
apiVersion: batch/v1
kind: Job
metadata:
  name: cj-28401780
  namespace: default
  uid: j1
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: cj, uid: cj-uid, controller: true}]
status: {succeeded: 1, conditions: [{type: Complete, status: "True"}]}
"#;
        let yaml = RULE
            .fires_on
            .replace("creationTimestamp:", "uid: cj-uid, creationTimestamp:")
            + job;
        let v = |s: &str| s.parse().unwrap();
        let r = run_with(&yaml, RULE.example_now, v("1.36"));
        assert_eq!(
            r.cron_jobs[0].replay.create_outcome,
            Some(crate::replay::CreateOutcome::AlreadyExistsGetFailed)
        );
        assert!(findings(&r, "only-latest-missed-runs").is_empty());
        let r = run_with(&yaml, RULE.example_now, v("1.37"));
        assert_eq!(findings(&r, "only-latest-missed-runs").len(), 1);
    }

    #[test]
    fn e23_resumed_at_1120_runs_only_1100() {
        let r = run(RULE.fires_on, "2024-01-01T11:20:00Z");
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("cj-28401780")
        );
        let f = findings(&r, "only-latest-missed-runs");
        assert_eq!(
            f[0].message,
            "3 slots passed since 2024-01-01 08:00 UTC (lastScheduleTime) without a Job; the controller starts only the latest, 2024-01-01 11:00 UTC, now — the 2 older ones from 2024-01-01 09:00 UTC on never run."
        );
        assert!(f[0].headline.is_none());
    }

    #[test]
    fn e24_with_a_deadline_none_runs() {
        let y = RULE
            .fires_on
            .replace("  schedule:", "  startingDeadlineSeconds: 600\n  schedule:");
        let f = run(&y, "2024-01-01T11:20:00Z");
        assert!(
            findings(&f, "only-latest-missed-runs")[0]
                .message
                .contains("none of them will run")
        );
    }

    #[test]
    fn quiet_for_the_ordinary_single_due_slot_and_while_suspended() {
        assert!(
            findings(
                &run(RULE.quiet_on, "2024-01-01T11:00:00.1Z"),
                "only-latest-missed-runs"
            )
            .is_empty()
        );
        let y = RULE
            .fires_on
            .replace("  schedule:", "  suspend: true\n  schedule:");
        assert!(findings(&run(&y, "2024-01-01T11:20:00Z"), "only-latest-missed-runs").is_empty());
    }
}
