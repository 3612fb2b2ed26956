//! CJD008 too-many-missed: the controller's missed-start estimate is above 100. On v2 (1.21+)
//! that is only a `TooManyMissedTimes` Warning and the latest slot still runs; on the legacy v1
//! controller (≤1.20) it is a hard stop: `FailedNeedsStart` every 10 s and no Job, forever (C.1).

use super::common::{secs, suggested_starting_deadline, too_many_missed};
use crate::replay::{ControllerVariant, Decision};
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD008",
    slug: "too-many-missed",
    severity: Severity::Warning,
    summary: "The controller counts more than 100 missed start times since the last scheduled run.",
    explanation: "The controller estimates how many slots passed since `lastScheduleTime` (or creation, \
or `now − startingDeadlineSeconds` if later) as `elapsed / first gap + 1`. Above 100, the v2 \
controller (Kubernetes 1.21+) records Warning `TooManyMissedTimes` (`too many missed start \
times. Set or decrease .spec.startingDeadlineSeconds or check clock skew`; 1.21–1.27 include the \
count) and still starts only the latest slot — the older ones never run. The legacy controller \
(≤1.20) instead gives up: every 10 s it records `FailedNeedsStart` (`Cannot determine if job \
needs to be started: too many missed start time (> 100). …`) and creates **no Job**, forever, \
because nothing moves `lastScheduleTime` (kubernetes#42649, #45825).",
    remediation: "Set `startingDeadlineSeconds` so the controller never looks back more than a few \
intervals (the estimate then stays far below 100; on v1 the next poll starts the latest slot \
inside the deadline). If `lastScheduleTime` is far in the past without a reason (no suspend, no \
outage), check the clocks of the control plane.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: heartbeat, namespace: mon, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "* * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T07:00:00Z"}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: heartbeat, namespace: mon, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "* * * * *"
  startingDeadlineSeconds: 60
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T07:00:00Z"}
"#,
    example_now: "2026-11-20T12:00:30Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    if !too_many_missed(ctx) {
        return Vec::new();
    }
    let rep = ctx.replay;
    let cj = ctx.cron_job;
    let v1 = ctx.variant == ControllerVariant::V1Legacy;
    let Some(earliest) = rep.earliest else {
        return Vec::new();
    };
    let since = if cj.status.last_schedule_time == Some(earliest) {
        "lastScheduleTime"
    } else if cj.meta.creation_timestamp == Some(earliest) {
        "creation"
    } else {
        "now − startingDeadlineSeconds"
    };
    let exact = if rep.true_missed_count_capped {
        format!("more than {}", rep.true_missed_count)
    } else {
        rep.true_missed_count.to_string()
    };
    let event = rep
        .events
        .iter()
        .find(|e| e.reason == "TooManyMissedTimes" || e.reason == "FailedNeedsStart")
        .map(|e| format!("Warning {} \"{}\"", e.reason, e.message))
        .unwrap_or_default();
    let suggested = suggested_starting_deadline(ctx);
    let verb = match cj.spec.starting_deadline_seconds {
        Some(s) => format!("Lower startingDeadlineSeconds from {s}s"),
        None => "Set startingDeadlineSeconds".to_string(),
    };
    let fix = format!(
        "{verb} to {} (half the shortest interval, within 1m–1h): the controller then looks back only that far{}",
        secs(suggested),
        if v1 {
            ", and its next poll starts the latest slot inside that window"
        } else {
            ""
        }
    );
    let mut f = if v1 {
        Finding::new(
            &RULE,
            format!(
                "More than 100 start times were missed since {} ({since}): this legacy (≤1.20) controller gives up — it records {event} every 10s and creates no Job, and it stays that way until startingDeadlineSeconds is set.",
                ctx.show_time(earliest)
            ),
        )
        .severity(Severity::Error)
        .headline(format!(
            "is not running: more than 100 missed start times since {} — the v1 controller gives up (FailedNeedsStart, no Job)",
            ctx.show_time(earliest)
        ))
    } else {
        let latest = rep
            .scheduled_time
            .map(|t| ctx.show_time(t))
            .unwrap_or_default();
        let outcome = match rep.decision {
            Decision::Create if !rep.creates_job() => format!(
                "it picks only the latest slot, {latest}, but a Job of that name already exists and the create is refused"
            ),
            Decision::Create => {
                format!("it still starts the latest slot, {latest}; the older ones never run")
            }
            Decision::ForbidBlocked => {
                format!("it picks only the latest slot, {latest}, which Forbid then holds back")
            }
            _ => format!("it picks only the latest slot, {latest}"),
        };
        Finding::new(
            &RULE,
            format!(
                "The controller estimates {} missed start times since {} ({since}; exact count {exact}) and records {event}; {outcome}.",
                rep.missed_estimate.unwrap_or_default(),
                ctx.show_time(earliest)
            ),
        )
    };
    if let (Some(t1), Some(gap), Some(n)) = (rep.t1, rep.gap_seconds, rep.missed_estimate) {
        f = f.evidence(format!(
            "estimate: n = (now − {}) / {gap}s + 1 = {n} (> 100)",
            ctx.show_time(t1)
        ));
    }
    vec![
        f.field("spec.startingDeadlineSeconds")
            .fix(fix)
            .patch(serde_json::json!({"spec": {"startingDeadlineSeconds": suggested}})),
    ]
}

#[cfg(test)]
mod tests {
    use crate::replay::KubeVersion;
    use crate::rules::Severity;
    use crate::rules::examples::{findings, run, run_with};

    fn e4(sds: &str) -> String {
        format!(
            r#"
apiVersion: batch/v1
kind: CronJob
metadata: {{name: cj, namespace: default, creationTimestamp: "2023-12-01T00:00:00Z"}}
spec:
  schedule: "0 * * * *"
  {sds}
  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: c}}]}}}}}}}}
status: {{lastScheduleTime: "2024-01-01T00:00:00Z"}}
"#
        )
    }

    #[test]
    fn e4_v2_warns_and_still_runs_the_latest() {
        let r = run(&e4(""), "2024-01-05T12:34:00Z");
        let f = findings(&r, "too-many-missed");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].headline.is_none());
        assert_eq!(
            f[0].message,
            "The controller estimates 108 missed start times since 2024-01-01 00:00 UTC (lastScheduleTime; exact count 108) and records Warning TooManyMissedTimes \"too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew\"; it still starts the latest slot, 2024-01-05 12:00 UTC; the older ones never run."
        );
        assert_eq!(
            f[0].command.as_deref(),
            Some(
                r#"kubectl patch cronjob cj -n default --type merge -p '{"spec":{"startingDeadlineSeconds":1800}}'"#
            )
        );
        // 1.21–1.27 put the count in the event text.
        let r = run_with(&e4(""), "2024-01-05T12:34:00Z", KubeVersion::new(27));
        let f = findings(&r, "too-many-missed");
        assert!(
            f[0].message
                .contains("\"too many missed start times: 108. Set or decrease"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn e4_v1_is_a_hard_stop() {
        let r = run_with(&e4(""), "2024-01-05T12:34:00Z", KubeVersion::new(20));
        let f = findings(&r, "too-many-missed");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Error);
        assert!(f[0].message.contains("Warning FailedNeedsStart \"Cannot determine if job needs to be started: too many missed start time (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew\""), "{}", f[0].message);
        assert_eq!(
            r.cron_jobs[0].headline,
            "cj has not run since 2024-01-01 00:00 UTC (4d 12h ago; 108 runs missed): more than 100 missed start times since 2024-01-01 00:00 UTC — the v1 controller gives up (FailedNeedsStart, no Job)"
        );
    }

    #[test]
    fn e5_e6_a_deadline_keeps_it_quiet() {
        for sds in [
            "startingDeadlineSeconds: 200",
            "startingDeadlineSeconds: 3600",
        ] {
            let r = run(&e4(sds), "2024-01-05T12:34:00Z");
            assert!(findings(&r, "too-many-missed").is_empty(), "{sds}");
        }
    }

    #[test]
    fn e7_e8_the_101st_missed_slot_trips_it() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "* * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-01T10:00:00Z"}
"#;
        assert!(findings(&run(yaml, "2024-01-01T11:40:59Z"), "too-many-missed").is_empty()); // n = 100
        let r = run(yaml, "2024-01-01T11:41:00.5Z");
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("cj-28401821")
        );
        let f = findings(&r, "too-many-missed");
        assert!(
            f[0].message
                .starts_with("The controller estimates 101 missed start times"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("exact count 101"));
        // v1: 100 unmet at 11:40:00 still creates a job; 101 at 11:41:00 stops it.
        let v1 = KubeVersion::new(20);
        assert!(
            findings(
                &run_with(yaml, "2024-01-01T11:40:00Z", v1),
                "too-many-missed"
            )
            .is_empty()
        );
        let f = run_with(yaml, "2024-01-01T11:41:00Z", v1);
        assert_eq!(findings(&f, "too-many-missed")[0].severity, Severity::Error);
    }

    #[test]
    fn e13_window_miss_with_many_is_not_reported_here() {
        // n = 3601 "many", but no slot is found and no event is recorded (CJD009 explains it).
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "0,1 0 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2023-12-31T00:01:00Z"}
"#;
        let r = run(yaml, "2024-01-03T12:00:00Z");
        assert_eq!(r.cron_jobs[0].replay.missed_estimate, Some(3601));
        assert!(findings(&r, "too-many-missed").is_empty());
    }
}
