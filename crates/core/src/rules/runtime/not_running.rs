//! CJD034 not-running: several slots came due since the last scheduled run (or since creation)
//! and no Job was started for any of them. Whatever the cause — a Forbid-blocking Job, a
//! startingDeadlineSeconds that drops every late sync, or a controller that is not syncing at
//! all — this is an outage, and the report's headline leads with it: since when, how many runs
//! were lost, then the cause another finding names (or, when none does, the controller).

use jiff::Timestamp;

use super::common::{job_slot, plural};
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::human_duration;

/// A slot counts as lost only once it is this far in the past: a healthy controller starts a
/// Job within seconds of its slot, so two minutes leaves room for a busy control plane.
pub const GRACE_SECONDS: i64 = 120;

/// "Several intervals": one missed slot can be a late sync (other rules judge it); two in a
/// row mean a whole interval passed with no run.
pub const MIN_LOST: usize = 2;

/// Slots counted exactly; beyond this the message says "more than".
const COUNT_CAP: usize = 10_000;

/// Rules whose finding can explain why no Job is being started. The cause of an outage is the
/// first finding (in report order) of these rules that carries a headline — [`cause`]; a rule
/// sets a headline only when its finding does stop runs (too-many-missed on 1.21+ only warns
/// and still starts the latest slot, so it has none there). Everything else (failing Jobs,
/// risks) does not stop `lastScheduleTime`, so it cannot be the cause of missed runs.
pub const CAUSES: &[&str] = &[
    "suspended",
    "forbid-blocked",
    "starting-deadline-too-small",
    "too-many-missed",
    "missed-slot-skipped",
    "deadline-missed",
    "clock-skew",
    "controller-warnings",
];

/// The cause when no finding names one.
pub const UNEXPLAINED: &str = "nothing in the input explains it — the controller has not synced this CronJob (kube-controller-manager down or not leading), or the clocks disagree";

/// Added to [`UNEXPLAINED`] when the input holds no Events: a refused Job create (quota,
/// admission webhook) only shows there (`FailedCreate`).
pub const WITHOUT_EVENTS: &str =
    "; with no Events in the input, a refused Job create (quota, admission) is not ruled out";

/// The finding that explains an outage: the first of [`CAUSES`] with a headline.
pub fn cause(findings: &[Finding]) -> Option<&Finding> {
    findings
        .iter()
        .find(|f| CAUSES.contains(&f.slug) && f.headline.is_some())
}

pub static RULE: Rule = Rule {
    id: "CJD034",
    slug: "not-running",
    severity: Severity::Error,
    summary: "Several scheduled runs came due and no Job was started for any of them: the CronJob is not running.",
    explanation: "The controller records every Job it starts in `status.lastScheduleTime`. When \
slots keep coming due after that time (or after creation, for a CronJob that never ran) and no \
Job appears, runs are being lost, whatever the reason: a Job that blocks a `Forbid` CronJob, a \
`startingDeadlineSeconds` that every sync misses, or a controller that is not syncing at all \
(kube-controller-manager down, not leading, or its clock far off). A slot is counted once it is \
more than two minutes old, and two or more lost slots are reported; a suspended CronJob is \
reported by `suspended` instead. When no other finding explains the gap, the cause is outside \
the CronJob: no event is recorded for a sync that never happens.",
    remediation: "Fix the cause the other findings name. When none does, check the controller: \
`kubectl get lease kube-controller-manager -n kube-system` (who leads, and is it renewed?), \
the kube-controller-manager logs, and the control plane's clock.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: heartbeat, namespace: mon, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "*/5 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T11:40:00Z"}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: heartbeat, namespace: mon, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "*/5 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T11:50:00Z"}
"#,
    example_now: "2026-11-20T12:01:00Z",
    check,
};

/// Lost slots: due after `since` and at least [`GRACE_SECONDS`] before now, with the last of
/// them and whether the count was cut at [`COUNT_CAP`].
pub struct Lost {
    pub since: Timestamp,
    /// `lastScheduleTime` or `creation`.
    pub since_what: &'static str,
    pub count: usize,
    pub capped: bool,
    pub last: Timestamp,
}

/// The runs missed so far, or None when fewer than [`MIN_LOST`] (or nothing to count from: a
/// manifest never applied to a cluster has neither lastScheduleTime nor creationTimestamp).
pub fn lost(ctx: &Context) -> Option<Lost> {
    let cj = ctx.cron_job;
    let (since, since_what) = match (cj.status.last_schedule_time, cj.meta.creation_timestamp) {
        (Some(l), _) => (l, "lastScheduleTime"),
        (None, Some(c)) => (c, "creation"),
        (None, None) => return None,
    };
    let until = Timestamp::from_second(ctx.now.as_second().checked_sub(GRACE_SECONDS)?).ok()?;
    if since >= until {
        return None;
    }
    let eff = ctx.replay.effective()?;
    let (mut slots, capped) = eff.slots_in(since, until, COUNT_CAP);
    // A slot whose Job is in the input ran, whatever the status says (a stale status in a
    // dump, or a Job created by a controller whose status write failed).
    let ran: Vec<Timestamp> = ctx.jobs.iter().filter_map(|j| job_slot(ctx, j)).collect();
    slots.retain(|t| !ran.contains(t));
    if slots.len() < MIN_LOST {
        return None;
    }
    Some(Lost {
        since,
        since_what,
        count: slots.len(),
        capped,
        last: *slots.last()?,
    })
}

fn check(ctx: &Context) -> Vec<Finding> {
    if ctx.cron_job.spec.suspend {
        return Vec::new();
    }
    let Some(l) = lost(ctx) else {
        return Vec::new();
    };
    let count = if l.capped {
        format!("more than {}", plural(l.count, "run"))
    } else {
        plural(l.count, "run")
    };
    let ago = human_duration(ctx.now.as_second() - l.since.as_second());
    let since_text = if l.since_what == "creation" {
        format!("it was created at {}", ctx.show_time(l.since))
    } else {
        ctx.show_time(l.since)
    };
    vec![
        Finding::new(
            &RULE,
            format!(
                "No Job was started since {since_text} ({ago} ago): {count} came due without one, the last at {}.",
                ctx.show_time(l.last)
            ),
        )
        .evidence(format!(
            "slots after {} ({}) up to now − {}s",
            ctx.show_time(l.since),
            l.since_what,
            GRACE_SECONDS
        ))
        .fix("Fix the cause the other findings name; when none does, the controller is not syncing this CronJob: check that kube-controller-manager runs and leads (`kubectl get lease kube-controller-manager -n kube-system`), its logs, and the control plane's clock.")
        .headline(format!(
            "has not run since {since_text} ({ago} ago; {count} missed)"
        )),
    ]
}

#[cfg(test)]
mod tests {
    use crate::rules::examples::{findings, run};

    const BASE: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: heartbeat, namespace: mon, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "* * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T07:00:00Z"}
"#;

    #[test]
    fn five_hours_without_an_every_minute_run_is_an_outage_with_no_known_cause() {
        let r = run(BASE, "2026-11-20T12:00:30Z");
        let f = findings(&r, "not-running");
        assert_eq!(f.len(), 1);
        // 07:01 … 11:58 (12:00:30 − 2m = 11:58:30): 298 slots.
        assert!(
            f[0].message.contains("298 runs came due without one"),
            "{}",
            f[0].message
        );
        let cj = &r.cron_jobs[0];
        assert_eq!(cj.health, crate::report::Health::Error);
        assert_eq!(
            cj.headline,
            format!(
                "heartbeat has not run since 2026-11-20 07:00 UTC (5h ago; 298 runs missed): {}{}",
                super::UNEXPLAINED,
                // No Events in this input: a refused create is not ruled out.
                super::WITHOUT_EVENTS
            )
        );
    }

    #[test]
    fn the_grace_keeps_a_sync_a_minute_late_quiet() {
        // Slots 11:59 and 12:00 came due, but only 11:59 is more than 2 minutes old... no,
        // neither is: now − 2m = 11:58:59.
        let yaml = BASE.replace("07:00:00Z", "11:58:00Z");
        let r = run(&yaml, "2026-11-20T12:00:59Z");
        assert!(findings(&r, "not-running").is_empty());
        // Three minutes later two slots are past the grace: reported.
        let r = run(&yaml, "2026-11-20T12:02:30Z");
        assert_eq!(findings(&r, "not-running").len(), 1);
    }

    #[test]
    fn suspended_and_never_applied_cron_jobs_are_not_outages() {
        let suspended = BASE.replace(
            "schedule: \"* * * * *\"",
            "schedule: \"* * * * *\"\n  suspend: true",
        );
        let r = run(&suspended, "2026-11-20T12:00:30Z");
        assert!(findings(&r, "not-running").is_empty());
        // A manifest from git: no creationTimestamp, no status — it never ran in a cluster.
        let manifest = BASE
            .replace(", creationTimestamp: \"2026-11-01T00:00:00Z\"", "")
            .replace("status: {lastScheduleTime: \"2026-11-20T07:00:00Z\"}\n", "");
        let r = run(&manifest, "2026-11-20T12:00:30Z");
        assert!(findings(&r, "not-running").is_empty());
    }

    #[test]
    fn a_cron_job_that_never_ran_counts_from_its_creation() {
        let yaml = BASE.replace("status: {lastScheduleTime: \"2026-11-20T07:00:00Z\"}\n", "");
        let r = run(&yaml, "2026-11-01T00:10:30Z");
        let f = findings(&r, "not-running");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .starts_with("No Job was started since it was created at 2026-11-01 00:00 UTC"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn the_cause_another_finding_names_follows_the_outage_in_the_headline() {
        // A 5-minute schedule with a 5s deadline, last run two days ago (issue: "deadline-tiny"
        // used to read "risks silent skips").
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "*/5 * * * *"
  startingDeadlineSeconds: 5
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-18T12:00:00Z"}
"#;
        let r = run(yaml, "2026-11-20T12:01:00Z");
        let cj = &r.cron_jobs[0];
        assert_eq!(cj.health, crate::report::Health::Error);
        assert!(
            cj.headline.starts_with(
                "sync has not run since 2026-11-18 12:00 UTC (2d ago; 575 runs missed): startingDeadlineSeconds is 5s"
            ),
            "{}",
            cj.headline
        );
    }
}
