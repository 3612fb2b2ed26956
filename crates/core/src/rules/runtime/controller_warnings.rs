//! CJD033 controller-warnings: Warning events on the CronJob (cronjob-controller) and on its Jobs
//! (job-controller), grouped by reason with a count, the latest message and what it means.
//! Reasons another rule explains are left to it: too-many-missed (CJD008), job failures
//! (CJD020), and schedule / time-zone errors the replay reproduces from the spec (the manifest
//! rules own those). An UnknownTimeZone the replay does *not* reproduce is the controller's own
//! tz database lacking the zone (E34) — an error.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::event_reasons::meaning;
use crate::model::Event;
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD033",
    slug: "controller-warnings",
    severity: Severity::Warning,
    summary: "The controllers recorded Warning events for this CronJob or its Jobs.",
    explanation: "Warning events are the controllers' own account of what went wrong: \
`FailedCreate` (a Job or its Pods could not be created: quota, admission webhook, RBAC), \
`UnexpectedJob` (a Job it controls is running but not in `status.active`, e.g. one started by a \
tool that sets `controller: true`), `FailedDelete` / `FailedGet` (Replace or history cleanup \
could not remove a Job), `UnknownTimeZone` (the controller's tz database cannot load \
`spec.timeZone`: no Job, no requeue), and schedule errors. Events expire (one hour by \
default), so an empty list proves nothing; reasons that a more specific finding explains are \
not repeated here.",
    remediation: "Act on the latest message of each reason (see the evidence lines); `kubectl get \
events --field-selector involvedObject.name=NAME` lists them.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: finance}
spec:
  schedule: "0 6 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
---
apiVersion: v1
kind: Event
metadata: {name: report.1, namespace: finance}
involvedObject: {kind: CronJob, name: report, namespace: finance}
type: Warning
reason: FailedCreate
message: 'Error creating job: jobs.batch "report-29393640" is forbidden: exceeded quota: jobs, requested: count/jobs.batch=1, used: count/jobs.batch=10, limited: count/jobs.batch=10'
count: 4
lastTimestamp: "2026-11-20T06:00:03Z"
source: {component: cronjob-controller}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: finance}
spec:
  schedule: "0 6 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
---
apiVersion: v1
kind: Event
metadata: {name: report.1, namespace: finance}
involvedObject: {kind: CronJob, name: report, namespace: finance}
type: Normal
reason: SuccessfulCreate
message: Created job report-29393640
lastTimestamp: "2026-11-20T06:00:00Z"
source: {component: cronjob-controller}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// Reasons the schedule/time-zone rules explain when the replay reproduces them from the spec.
const SPEC_REASONS: &[&str] = &[
    "UnparseableSchedule",
    "UnParseableCronJobSchedule",
    "InvalidSchedule",
    "UnsupportedSchedule",
    "UnknownTimeZone",
    "FailedNeedsStart",
];

/// (reason, about a Job rather than the CronJob) and (total count, latest event).
type Key<'a> = (&'a str, bool);
type Group<'a> = (i64, &'a Event);

fn check(ctx: &Context) -> Vec<Finding> {
    if !ctx.evidence.events {
        return Vec::new();
    }
    let cj_name = ctx.name();
    let too_many = super::common::too_many_missed(ctx);
    let failing = !(super::jobs_failing::RULE.check)(ctx).is_empty();
    // (reason, on a Job?) → (count, latest event)
    let mut groups: BTreeMap<Key, Group> = BTreeMap::new();
    for e in ctx.events.iter().copied().filter(|e| e.type_ == "Warning") {
        let on_job = match e.involved_object.kind.as_str() {
            "CronJob" => false,
            "Job" => true,
            "" if e.involved_object.name == cj_name => false,
            "" if ctx
                .jobs
                .iter()
                .any(|j| j.meta.name == e.involved_object.name) =>
            {
                true
            }
            _ => continue, // Pod events: the Pod tracing of other rules reads Pods directly
        };
        let r = e.reason.as_str();
        let replayed = ctx.replay.events.iter().any(|x| x.reason == r);
        if (too_many && matches!(r, "TooManyMissedTimes" | "FailedNeedsStart"))
            || (failing
                && matches!(
                    r,
                    "BackoffLimitExceeded" | "DeadlineExceeded" | "PodFailurePolicy"
                ))
            || (replayed && SPEC_REASONS.contains(&r))
        {
            continue;
        }
        let at = |e: &Event| {
            e.last_timestamp
                .or(e.first_timestamp)
                .unwrap_or(Timestamp::UNIX_EPOCH)
        };
        let g = groups.entry((r, on_job)).or_insert((0, e));
        g.0 += e.count.max(1);
        if at(e) >= at(g.1) {
            g.1 = e;
        }
    }
    if groups.is_empty() {
        return Vec::new();
    }
    let mut list: Vec<(Key, Group)> = groups.into_iter().collect();
    list.sort_by_key(|(_, (_, e))| std::cmp::Reverse(e.last_timestamp.or(e.first_timestamp)));
    let summary = list
        .iter()
        .map(|((r, on_job), (n, e))| {
            let when = e
                .last_timestamp
                .or(e.first_timestamp)
                .map(|t| format!("{}: ", ctx.show_time(t)))
                .unwrap_or_default();
            let on = if *on_job {
                format!(" on Job {}", e.involved_object.name)
            } else {
                String::new()
            };
            format!(
                "{r} ×{n}{on} (latest {when}\"{}\")",
                e.message.replace('\n', " ")
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    // An UnknownTimeZone for the current spec.timeZone that this tool loads fine: the
    // controller's own tz database lacks the zone (E34). For another zone it is history.
    let tz_unknown_here = ctx.cron_job.spec.time_zone.as_deref().is_some_and(|tz| {
        list.iter().any(|((r, _), (_, e))| {
            *r == "UnknownTimeZone" && e.message.contains(&format!("\"{tz}\""))
        })
    });
    let mut f = Finding::new(&RULE, format!("Warning events: {summary}."));
    for ((r, on_job), _) in &list {
        f = f.evidence(format!("{r}: {}", meaning(r, *on_job)));
    }
    // FailedCreate on the CronJob: the controller tries, the API server refuses the Job
    // (quota, admission webhook, policy), and lastScheduleTime stays put — that is why
    // it does not run, so it can be the headline's cause.
    // Only while it lasts: a FailedCreate older than lastScheduleTime was followed by a Job.
    let last_scheduled = ctx.cron_job.status.last_schedule_time;
    if let Some((_, (_, e))) = list.iter().find(|((r, on_job), (_, e))| {
        *r == "FailedCreate"
            && !*on_job
            && last_scheduled.is_none_or(|l| e.last_timestamp.or(e.first_timestamp) > Some(l))
    }) {
        f = f.headline(format!(
            "is not running: the controller cannot create its Jobs (FailedCreate: \"{}\")",
            e.message.replace('\n', " ")
        ));
    }
    if tz_unknown_here {
        f = f
            .severity(Severity::Error)
            .field("spec.timeZone")
            .evidence("this tool loads the zone, so the controller's own tz database lacks it (no tzdata in the kube-controller-manager image?)");
    }
    vec![f.fix(
        "Act on the latest message of each reason; the evidence lines say what each one means",
    )]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::Severity;
    use crate::rules::examples::{findings, run};

    #[test]
    fn groups_by_reason_with_count_and_latest_message() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "controller-warnings");
        assert!(f[0].message.starts_with("Warning events: FailedCreate ×4 (latest 2026-11-20 06:00:03 UTC: \"Error creating job: jobs.batch"), "{}", f[0].message);
        assert_eq!(
            f[0].evidence,
            [
                "FailedCreate: the Job could not be created; the controller retries with back-off and lastScheduleTime does not advance"
            ]
        );
    }

    #[test]
    fn e34_unknown_time_zone_only_the_controller_sees_is_an_error() {
        let y = RULE
            .fires_on
            .replace("  schedule: \"0 6 * * *\"", "  schedule: \"0 6 * * *\"\n  timeZone: Europe/Berlin")
            .replace("reason: FailedCreate", "reason: UnknownTimeZone")
            .replace("'Error creating job: jobs.batch \"report-29393640\" is forbidden: exceeded quota: jobs, requested: count/jobs.batch=1, used: count/jobs.batch=10, limited: count/jobs.batch=10'", "'invalid timeZone: \"Europe/Berlin\": unknown time zone Europe/Berlin'");
        let r = run(&y, RULE.example_now);
        let f = findings(&r, "controller-warnings");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message.contains("UnknownTimeZone ×4"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn without_event_evidence_it_stays_quiet() {
        let y = RULE.fires_on.split("---").next().unwrap();
        assert!(findings(&run(y, RULE.example_now), "controller-warnings").is_empty());
    }

    #[test]
    fn a_failed_create_followed_by_a_run_is_not_the_headline() {
        // FailedCreate at 06:00:03, then a Job for 07:00: it ran since.
        let yaml = RULE
            .fires_on
            .replace(
                "metadata: {name: report, namespace: finance}\nspec:",
                "metadata: {name: report, namespace: finance}\nstatus: {lastScheduleTime: \"2026-11-20T07:00:00Z\"}\nspec:",
            );
        assert!(yaml.contains("lastScheduleTime"), "{yaml}");
        let r = run(&yaml, RULE.example_now);
        assert_eq!(findings(&r, "controller-warnings").len(), 1);
        assert!(
            !r.cron_jobs[0].headline.contains("cannot create its Jobs"),
            "{}",
            r.cron_jobs[0].headline
        );
        let r = run(RULE.fires_on, RULE.example_now);
        assert!(
            r.cron_jobs[0].headline.contains("cannot create its Jobs"),
            "{}",
            r.cron_jobs[0].headline
        );
    }
}
