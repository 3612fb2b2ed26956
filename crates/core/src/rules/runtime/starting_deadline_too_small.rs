//! CJD006 starting-deadline-too-small: a `startingDeadlineSeconds` so small that ordinary
//! controller lag skips runs silently. `0` is the extreme: the controller's search window starts
//! at `now`, so `Next(now) > now` and no slot is ever due (E27) — the CronJob never runs.

use super::common::{observed_start_latency, secs, suggested_starting_deadline};
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD006",
    slug: "starting-deadline-too-small",
    severity: Severity::Error,
    summary: "startingDeadlineSeconds is so small that late syncs skip runs silently (0: the CronJob never runs).",
    explanation: "The controller only starts a slot if it syncs less than `startingDeadlineSeconds` after \
it; an older slot is skipped without any event. With `0` the search window starts at the sync \
itself, so no slot is ever due and the CronJob **never runs**, on every controller version. \
Small values fail more quietly: the v2 controller requeues each CronJob for slot + 100 ms, but \
with many CronJobs (5 workers by default), API-server latency, a controller restart or a \
leader election, syncs routinely run seconds to minutes late (kubernetes#86647: a 10 s deadline \
skipped about one daily run in five; kubernetes#128881: runs 3–60+ minutes late at scale). \
Below 10 s that is an error; below a minute it is a risk; and any deadline shorter than the \
start latency already seen on this CronJob's own Jobs is a risk.",
    remediation: "`startingDeadlineSeconds` is for jobs where a late run is worse than no run: set it to \
how late a run may still usefully start (minutes, not seconds), or remove it \
(`{\"spec\":{\"startingDeadlineSeconds\":null}}`) so a late slot still starts. To stop a CronJob, \
use `spec.suspend: true`, not a zero deadline.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cleanup, namespace: shop, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  startingDeadlineSeconds: 0
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cleanup, namespace: shop, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  startingDeadlineSeconds: 300
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T12:00:00Z"}
"#,
    example_now: "2026-11-20T12:10:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let Some(sds) = ctx
        .cron_job
        .spec
        .starting_deadline_seconds
        .filter(|s| *s >= 0)
    else {
        return Vec::new();
    };
    let latency = observed_start_latency(ctx).filter(|(lag, _)| *lag > sds);
    let suggested = suggested_starting_deadline(ctx).max(sds.saturating_add(1));
    let mut f = match sds {
        0 => Finding::new(
            &RULE,
            "startingDeadlineSeconds is 0: the controller looks for slots after now − 0s, so no slot is ever due and this CronJob never runs (no event says so).",
        )
        .headline("never runs: startingDeadlineSeconds is 0")
        .evidence("earliest = now at every sync, and Next(now) is always after now"),
        1..=9 => Finding::new(
            &RULE,
            format!("startingDeadlineSeconds is {sds}: any sync more than {sds}s after a slot skips that run silently, and lag of a few seconds is routine under load, after a restart or a leader election."),
        )
        .headline(format!("risks silent skips: startingDeadlineSeconds is {sds}s — a sync more than {sds}s late drops the run")),
        10..=59 => Finding::new(
            &RULE,
            format!("startingDeadlineSeconds is {sds}: a run is skipped silently whenever the controller syncs more than {sds}s late, which happens under load or after a restart."),
        )
        .severity(Severity::Warning),
        _ => match &latency {
            Some((lag, _)) => Finding::new(
                &RULE,
                format!("startingDeadlineSeconds is {} but this CronJob's Jobs have started up to {} after their slot: a sync that late skips the run silently.", secs(sds), secs(*lag)),
            )
            .severity(Severity::Warning),
            None => return Vec::new(),
        },
    };
    if let Some((_, what)) = latency {
        f = f.evidence(what);
    }
    vec![
        f.field("spec.startingDeadlineSeconds")
            .fix(format!(
                "Raise it to how late a run may still start — {} fits this schedule (half its shortest interval, within 1m–1h) — or remove it so late runs still start",
                secs(suggested)
            ))
            .patch(serde_json::json!({"spec": {"startingDeadlineSeconds": suggested}})),
    ]
}

#[cfg(test)]
mod tests {
    use crate::replay::KubeVersion;
    use crate::rules::Severity;
    use crate::rules::examples::{findings, run, run_with};

    const CJ: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2024-01-01T10:00:00Z"}
spec:
  schedule: "* * * * *"
  startingDeadlineSeconds: SDS
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
"#;

    #[test]
    fn e27_zero_never_runs_on_v2_and_v1() {
        let yaml = CJ.replace("SDS", "0");
        for v in [KubeVersion::NEWEST, KubeVersion::new(20)] {
            let r = run_with(&yaml, "2024-01-01T10:01:00.1Z", v);
            // E27: nothing, ever.
            assert_eq!(r.cron_jobs[0].controller.job_name, None);
            let f = findings(&r, "starting-deadline-too-small");
            assert_eq!(f.len(), 1);
            assert_eq!(f[0].severity, Severity::Error);
            assert_eq!(
                r.cron_jobs[0].headline,
                "cj never runs: startingDeadlineSeconds is 0"
            );
            assert_eq!(
                f[0].command.as_deref(),
                Some(
                    r#"kubectl patch cronjob cj -n default --type merge -p '{"spec":{"startingDeadlineSeconds":60}}'"#
                )
            );
        }
    }

    #[test]
    fn tiny_is_an_error_small_a_warning_minutes_fine() {
        let sev = |sds: &str| {
            let r = run(&CJ.replace("SDS", sds), "2024-01-01T10:01:05Z");
            findings(&r, "starting-deadline-too-small")
                .first()
                .map(|f| f.severity)
        };
        assert_eq!(sev("5"), Some(Severity::Error));
        assert_eq!(sev("9"), Some(Severity::Error));
        assert_eq!(sev("10"), Some(Severity::Warning));
        assert_eq!(sev("59"), Some(Severity::Warning));
        assert_eq!(sev("60"), None);
    }

    #[test]
    fn a_deadline_shorter_than_observed_latency_is_a_risk() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, uid: u1, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  schedule: "0 3 * * *"
  startingDeadlineSeconds: 120
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-05T03:00:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: cj-28407060
  namespace: default
  creationTimestamp: "2024-01-05T03:04:10Z"
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: cj, uid: u1, controller: true}]
status: {succeeded: 1, conditions: [{type: Complete, status: "True"}]}
"#;
        let r = run(yaml, "2024-01-05T12:00:00Z");
        let f = findings(&r, "starting-deadline-too-small");
        assert_eq!(f.len(), 1, "{:?}", r.cron_jobs[0].findings);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].message.contains("up to 250s (4m10s) after their slot"),
            "{}",
            f[0].message
        );
        assert_eq!(
            f[0].evidence,
            ["Job cj-28407060 was created 250s (4m10s) after its 2024-01-05 03:00 UTC slot"]
        );
        assert!(f[0].headline.is_none());
    }
}
