//! CJD009 missed-slot-skipped: the controller's due-slot *estimate* is sized from the first gap
//! after `lastScheduleTime`; on an uneven schedule (weekdays, `0,1 0 * * *`, DST days) it can miss
//! the real latest slot (1.28+: nothing runs, no event — E12, E13, E21) or, before the #118724
//! fix, pick a time that is not the latest slot or not a slot at all (E11, E12 pre-fix).
//! Live: what this sync does. Static: a concrete scenario where it would happen (see
//! `scenario`).

use super::common::{plural, show_day};
use super::scenario::{Scenario, find};
use crate::replay::Decision;
use crate::rules::{Context, Finding, Phase, Rule, Severity};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD009",
    slug: "missed-slot-skipped",
    severity: Severity::Warning,
    summary: "On this uneven schedule the controller's due-slot estimate skips (or mis-picks) a missed run.",
    explanation: "After missed slots (downtime, suspend, a Forbid block) the controller does not walk \
every slot since `lastScheduleTime`: it takes the gap between the first two slots after it, \
estimates how many gaps fit until now, and scans only the last one or two gaps before now. For a \
uniform schedule that is exact. For an uneven one — weekdays only, `0,1 0 * * *`, a DST day \
where a 01:30 job runs twice one hour apart — the real latest slot can lie before that window: \
the 1.28+ controller then starts **nothing and records no event** until the next regular slot \
(E12, E13, E21). Kubernetes 1.21–1.27 before the #118724 backports instead extrapolated \
linearly and could start a Job for an older slot or for a time the schedule never names. \
This rule reports what the current sync does, or else one concrete scenario, computed with the \
controller's own arithmetic, in which a catch-up run is skipped after at most a week idle and for \
at least a quarter of the gap that follows it (so a DST day's 23 h / 25 h gaps, which only skip \
within one hour a year, are not reported; a 01:30 job that runs twice on the fall-back night is).",
    remediation: "If the skipped run matters, start it by hand \
(`kubectl create job NAME-catchup --from=cronjob/NAME`). To avoid it: keep the CronJob from \
missing slots (no long suspends or Forbid blocks: set activeDeadlineSeconds), make each run \
catch up on everything since the last successful run, or split an uneven schedule into \
uniform CronJobs.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: finance, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "0 9 * * 1-5"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2024-01-01T09:00:00Z"}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: finance, creationTimestamp: "2023-12-01T00:00:00Z"}
spec:
  schedule: "0 9 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2024-01-01T09:00:00Z"}
"#,
    example_now: "2024-01-07T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let rep = ctx.replay;
    let catchup = crate::text::catchup_command(ctx.name(), ctx.namespace);
    if rep.window_miss
        && let Some(slot) = rep.true_most_recent
    {
        let mut f = Finding::new(
            &RULE,
            format!(
                "The {} slot is due but the controller will not start it: it sizes its search from the first gap after {} ({}) and scans only {}, which holds no slot; no event records the skip.",
                show_day(ctx, slot),
                rep.earliest.map(|e| show_day(ctx, e)).unwrap_or_default(),
                human_duration(rep.gap_seconds.unwrap_or_default()),
                window_text(ctx),
            ),
        )
        .headline(format!(
            "is not running: the {} catch-up run is skipped silently (the controller's estimate misses it on this uneven schedule)",
            show_day(ctx, slot)
        ));
        f = arithmetic(ctx, f).evidence(format!(
            "{} missed since then; the next regular run is {}",
            plural(rep.true_missed_count as usize, "slot"),
            next_run(ctx)
        ));
        if rep.requeue_after_ms.is_some_and(|ms| ms < 0) {
            // 1.28 requeues from `recent ?? earliest`: Next(earliest) is already past.
            f = f.evidence("this release requeues it for a time already past: the controller re-syncs it in a tight loop until the next slot");
        }
        return vec![
            f.fix(
                "Start the skipped run by hand if it matters; the next regular slot runs normally",
            )
            .step(
                Phase::CatchUp,
                catchup,
                "start the skipped run by hand if it matters",
            ),
        ];
    }
    if rep.wrong_slot
        && let Some(picked) = rep.scheduled_time
    {
        let real = rep
            .true_most_recent
            .map(|t| show_day(ctx, t))
            .unwrap_or_else(|| "none".into());
        let is_slot = super::scenario::is_slot(ctx, picked);
        let what = if is_slot {
            "an older slot"
        } else {
            "a time that is not a slot of this schedule"
        };
        let act = match (rep.decision, &rep.job_name) {
            (Decision::Create, Some(j)) => {
                format!("it creates Job {j} for it and sets lastScheduleTime to it")
            }
            _ => "it acts on that time".to_string(),
        };
        let f = Finding::new(
            &RULE,
            format!(
                "The Kubernetes {} controller extrapolates linearly from the first gap and picks {} — {what} — instead of the latest slot {real}; {act}.",
                rep.kube_version,
                show_day(ctx, picked)
            ),
        )
        .severity(if is_slot { Severity::Warning } else { Severity::Error })
        .headline(format!(
            "runs at the wrong time: the {} controller picks {} instead of {real}",
            rep.kube_version,
            show_day(ctx, picked)
        ));
        return vec![
            arithmetic(ctx, f)
                .fix("Upgrade to a release with the #118724 fix (1.28, or a 1.25–1.27 patch carrying it); until then avoid missed slots on this schedule"),
        ];
    }
    match find(ctx) {
        Some(s) => vec![static_finding(ctx, &s)],
        None => Vec::new(),
    }
}

fn static_finding(ctx: &Context, s: &Scenario) -> Finding {
    let outcome = match s.picked {
        None => "is skipped silently".to_string(),
        Some(p) => format!("is replaced by a run for {}", show_day(ctx, p)),
    };
    Finding::new(
        &RULE,
        format!(
            "If this CronJob misses slots (downtime, suspend, Forbid), a catch-up run can be lost: e.g. last run {}, then nothing started until {} — the {} run {outcome}.",
            show_day(ctx, s.last),
            show_day(ctx, s.resume),
            show_day(ctx, s.slot)
        ),
    )
    .severity(Severity::Info)
    .field("spec.schedule")
    .fix("Nothing to change while it runs on time; after a suspend or a Forbid block on this schedule, check the missed run and start it by hand if it matters")
}

/// `(Sat 2024-01-06 09:00 UTC, now]`.
fn window_text(ctx: &Context) -> String {
    match ctx.replay.window {
        Some((from, _)) => format!("({}, now]", show_day(ctx, from)),
        None => "the last gap before now".to_string(),
    }
}

fn arithmetic(ctx: &Context, f: Finding) -> Finding {
    let rep = ctx.replay;
    match (rep.t1, rep.t2, rep.gap_seconds, rep.missed_estimate) {
        (Some(t1), Some(t2), Some(gap), Some(n)) => f.evidence(format!(
            "t1 = {}, t2 = {}, gap = {gap}s, n = (now − t1) / gap + 1 = {n}",
            show_day(ctx, t1),
            show_day(ctx, t2)
        )),
        _ => f,
    }
}

fn next_run(ctx: &Context) -> String {
    ctx.replay
        .next_schedule_times(1)
        .first()
        .map(|t| show_day(ctx, *t))
        .unwrap_or_else(|| "never".into())
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::replay::KubeVersion;
    use crate::rules::Severity;
    use crate::rules::examples::{findings, run, run_with};

    #[test]
    fn e12_weekday_schedule_resumed_on_sunday() {
        let r = run(RULE.fires_on, "2024-01-07T12:00:00Z");
        assert_eq!(r.cron_jobs[0].controller.job_name, None);
        let f = findings(&r, "missed-slot-skipped");
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "The Fri 2024-01-05 09:00 UTC slot is due but the controller will not start it: it sizes its search from the first gap after Mon 2024-01-01 09:00 UTC (1d) and scans only (Sat 2024-01-06 09:00 UTC, now], which holds no slot; no event records the skip."
        );
        assert!(
            f[0].evidence.iter().any(|e| e
                == "4 slots missed since then; the next regular run is Mon 2024-01-08 09:00 UTC"),
            "{:?}",
            f[0].evidence
        );
        assert!(
            r.cron_jobs[0]
                .headline
                .starts_with("report has not run since ")
                && r.cron_jobs[0].headline.contains(
                    "missed): the Fri 2024-01-05 09:00 UTC catch-up run is skipped silently"
                ),
            "{}",
            r.cron_jobs[0].headline
        );
        // Pre-fix (1.24): a Job for Sun 09:00, which is not a slot.
        let r = run_with(RULE.fires_on, "2024-01-07T12:00:00Z", KubeVersion::new(24));
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("report-28410300")
        );
        let f = findings(&r, "missed-slot-skipped");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(f[0].message.contains("picks Sun 2024-01-07 09:00 UTC — a time that is not a slot of this schedule — instead of the latest slot Fri 2024-01-05 09:00 UTC; it creates Job report-28410300"), "{}", f[0].message);
        // v1 iterates every slot: it runs Friday, nothing to report live.
        let r = run_with(RULE.fires_on, "2024-01-07T12:00:00Z", KubeVersion::new(20));
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("report-1704445200")
        );
        assert!(
            findings(&r, "missed-slot-skipped")
                .iter()
                .all(|f| f.severity == Severity::Info)
        );
    }

    #[test]
    fn e11_pre_fix_picks_an_older_slot() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2023-06-01T00:00:00Z"}
spec:
  schedule: "30 6-16/4 * * 1-5"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2023-06-16T10:30:00Z"}
"#;
        let r = run(yaml, "2023-06-19T14:31:00Z");
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("cj-28119750")
        );
        assert!(
            findings(&r, "missed-slot-skipped")
                .iter()
                .all(|f| f.headline.is_none())
        );
        let r = run_with(yaml, "2023-06-19T14:31:00Z", KubeVersion::new(27));
        let f = findings(&r, "missed-slot-skipped");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].message.contains("picks Mon 2023-06-19 06:30 UTC — an older slot — instead of the latest slot Mon 2023-06-19 14:30 UTC"), "{}", f[0].message);
    }

    #[test]
    fn e13_two_slots_a_minute_apart() {
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
        let f = findings(&r, "missed-slot-skipped");
        assert!(
            f[0].message
                .starts_with("The Wed 2024-01-03 00:01 UTC slot is due"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message
                .contains("first gap after Sun 2023-12-31 00:01 UTC (1m)"),
            "{}",
            f[0].message
        );
        // At 2024-01-04T00:00:00.1 the window finds the slot again: nothing live to report.
        let r = run(yaml, "2024-01-04T00:00:00.1Z");
        assert_eq!(
            r.cron_jobs[0].controller.job_name.as_deref(),
            Some("cj-28405440")
        );
        assert!(
            findings(&r, "missed-slot-skipped")
                .iter()
                .all(|f| f.severity == Severity::Info)
        );
    }

    #[test]
    fn e21_dst_repeat_makes_the_first_gap_one_hour() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2021-10-01T00:00:00Z"}
spec:
  schedule: "30 1 * * *"
  timeZone: America/New_York
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2021-11-06T05:30:00Z"}
"#;
        let r = run(yaml, "2021-11-09T17:00:00Z");
        let f = findings(&r, "missed-slot-skipped");
        assert!(
            f[0].message
                .starts_with("The Tue 2021-11-09 01:30 EST slot is due"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("(1h)"), "{}", f[0].message);
        // 1.28.0: the requeue after a window miss is in the past (hot loop, fixed by #121327).
        let r = run_with(yaml, "2021-11-09T17:00:00Z", KubeVersion::new(28));
        assert!(
            findings(&r, "missed-slot-skipped")[0]
                .evidence
                .iter()
                .any(|e| e.contains("tight loop"))
        );
    }

    #[test]
    fn static_scenario_for_weekdays_and_quiet_for_uniform() {
        let yaml = RULE
            .fires_on
            .replace("2024-01-01T09:00:00Z", "2024-01-08T09:00:00Z");
        let r = run(&yaml, "2024-01-08T09:30:00Z");
        let f = findings(&r, "missed-slot-skipped");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Info);
        assert_eq!(
            f[0].message,
            "If this CronJob misses slots (downtime, suspend, Forbid), a catch-up run can be lost: e.g. last run Wed 2024-01-10 09:00 UTC, then nothing started until Sat 2024-01-13 21:00 UTC — the Fri 2024-01-12 09:00 UTC run is skipped silently."
        );
        // A DST zone's 23 h / 25 h days skip only within one hour a year: not reported. A 01:30
        // job in New York runs twice on the fall-back night (1 h gap): reported.
        let tz = |s: &str, z: &str| {
            RULE.quiet_on.replace("0 9 * * *", s).replace(
                "  jobTemplate:",
                &format!("  timeZone: {z}\n  jobTemplate:"),
            )
        };
        assert!(
            findings(
                &run(&tz("0 3 * * *", "America/New_York"), "2026-11-20T12:00:00Z"),
                "missed-slot-skipped"
            )
            .is_empty()
        );
        let r = run(
            &tz("30 1 * * *", "America/New_York"),
            "2026-11-20T12:00:00Z",
        );
        let f = findings(&r, "missed-slot-skipped");
        assert!(
            f[0].message
                .contains("— the Sun 2027-11-07 01:30 EST run is skipped silently"),
            "{}",
            f[0].message
        );
        for s in ["0 9 * * *", "*/5 * * * *", "@every 90s", "0 * * * *"] {
            let y = RULE
                .quiet_on
                .replace("0 9 * * *", s)
                .replace("2024-01-01T09:00:00Z", "2024-01-08T09:00:00Z");
            assert!(
                findings(&run(&y, "2024-01-08T09:30:00Z"), "missed-slot-skipped").is_empty(),
                "{s}"
            );
        }
    }
}
