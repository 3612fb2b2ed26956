//! CJD029 every-schedule: `@every <duration>` is robfig's ConstantDelaySchedule, not a calendar
//! schedule. In Kubernetes its phase is anchored at `creationTimestamp`, then at
//! `lastScheduleTime`; it ignores time zones and DST; robfig drops the sub-second part and
//! raises anything under 1 s to 1 s; and Job names carry the slot's minute, so two slots in one
//! minute share a name — at most one Job per minute (spec E26). 1.21–1.24 drifted (#104012).

use schedule::ScheduleKind;

use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD029",
    slug: "every-schedule",
    severity: Severity::Info,
    summary: "@every runs at a fixed interval counted from the CronJob's creation, not at clock-aligned times.",
    explanation: "`@every 1h` is not `0 * * * *`: robfig adds the interval to the previous \
activation, and the controller starts counting at the CronJob's `creationTimestamp`, then at \
`status.lastScheduleTime`. Runs therefore happen at odd times (10:17:42, 11:17:42, …), move when \
the object is recreated, and are unaffected by `spec.timeZone` and DST. robfig truncates the \
interval to whole seconds and raises anything below one second to one second (`@every 500ms` \
runs every second). Job names end in the scheduled *minute*, so two slots in the same minute \
map to the same Job name: with an interval under a minute at most one Job per minute is \
created. On Kubernetes 1.21–1.24 the controller requeued from the current time and the phase \
drifted after restarts or edits (kubernetes/kubernetes#104012, fixed in 1.25).",
    remediation: "If runs should happen at fixed clock times, use a cron expression (the finding \
suggests one when the interval divides a day). Keep intervals of at least one minute.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: poll, namespace: ops, creationTimestamp: "2026-11-20T10:17:42Z"}
spec:
  schedule: "@every 1h"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: poll, image: poll:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: poll, namespace: ops, creationTimestamp: "2026-11-20T10:17:42Z"}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: poll, image: poll:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// Go's `time.ParseDuration` value in seconds, approximately (enough to see truncation).
fn seconds_written(text: &str) -> Option<f64> {
    let (neg, mut rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let mut total = 0.0;
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let num: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = match &rest[..u] {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        total += num * unit;
        rest = &rest[u..];
    }
    Some(if neg { -total } else { total })
}

/// A clock-aligned cron expression with the same interval, when one exists.
fn aligned(secs: i64) -> Option<String> {
    match secs {
        s if s % 60 != 0 => None,
        s if s < 3600 && 3600 % s == 0 => Some(if s == 60 {
            "* * * * *".into()
        } else {
            format!("*/{} * * * *", s / 60)
        }),
        s if s % 3600 == 0 && s < 86_400 && 86_400 % s == 0 => Some(if s == 3600 {
            "0 * * * *".into()
        } else {
            format!("0 */{} * * *", s / 3600)
        }),
        86_400 => Some("0 0 * * *".into()),
        _ => None,
    }
}

fn check(ctx: &Context) -> Vec<Finding> {
    let (Some(sched), Some(raw)) = (ctx.parsed(), ctx.cron_job.spec.schedule.as_deref()) else {
        return Vec::new();
    };
    let ScheduleKind::Every(d) = &sched.kind else {
        return Vec::new();
    };
    let every = d.delay_seconds;
    let text = raw.trim().rsplit_once("@every ").map_or("", |(_, t)| t);
    let mut message = format!(
        "{raw:?} runs every {} counted from the CronJob's creation (then from its last scheduled run), not at fixed clock times",
        human_duration(every)
    );
    if seconds_written(text).is_some_and(|w| (w - every as f64).abs() > 1e-6) {
        message.push_str(&format!(
            "; robfig truncates {text} to {every}s (whole seconds, at least 1s)"
        ));
    }
    message.push('.');
    let mut f = Finding::new(&RULE, message).field("spec.schedule");
    if every < 60 {
        f = f.severity(Severity::Warning).evidence(format!(
            "Job names end in the scheduled minute ({}-<unix minutes>): slots in the same minute share a name, so at most one Job per minute is created",
            ctx.name()
        ));
    }
    if ctx.cron_job.spec.time_zone.is_some() {
        f = f.evidence("spec.timeZone has no effect on @every (no calendar, no DST)");
    }
    if (21..=24).contains(&ctx.replay.kube_version.minor) {
        f = f.evidence(format!(
            "Kubernetes {} requeues from the current time: the phase drifts after controller restarts or edits (#104012, fixed in 1.25)",
            ctx.replay.kube_version
        ));
    }
    // The phase: lastScheduleTime, else creation (whole seconds), plus whole intervals.
    let cj = ctx.cron_job;
    if let Some(anchor) = cj.status.last_schedule_time.or(cj.meta.creation_timestamp) {
        let (a, n) = (anchor.as_second(), ctx.now.as_second());
        let k = if n < a { 1 } else { (n - a) / every + 1 };
        let shown: Vec<String> = (k..k + 2)
            .filter_map(|i| jiff::Timestamp::from_second(a + i * every).ok())
            .map(|t| ctx.show_time(t))
            .collect();
        f = f.evidence(format!(
            "next runs (phase of {}): {}",
            ctx.show_time(anchor),
            shown.join(", ")
        ));
    }
    f = match aligned(every) {
        Some(cron) => f.fix(format!("For runs at fixed clock times write {cron:?} instead.")),
        None if every < 60 => f.fix("Use an interval of at least one minute; a shorter one cannot produce more than one Job per minute."),
        None => f.fix("If runs should happen at fixed clock times, write a cron expression instead."),
    };
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::{RULE, aligned, seconds_written};
    use crate::rules::Severity;

    fn every(s: &str) -> Vec<crate::rules::Finding> {
        let yaml = RULE.fires_on.replace("@every 1h", s);
        findings(&run(&yaml, RULE.example_now), "every-schedule")
            .into_iter()
            .cloned()
            .collect()
    }

    #[test]
    fn anchored_at_creation() {
        let f = every("@every 1h");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(
            f[0].message
                .starts_with(r#""@every 1h" runs every 1h counted from the CronJob's creation"#)
        );
        // Spec E9: slots at creation + n·1h, here 11:17:42 and 12:17:42.
        assert!(
            f[0].evidence.iter().any(|e| e == "next runs (phase of 2026-11-20 10:17:42 UTC): 2026-11-20 12:17:42 UTC, 2026-11-20 13:17:42 UTC"),
            "{:?}",
            f[0].evidence
        );
        assert!(f[0].remediation.contains("\"0 * * * *\""));
    }

    #[test]
    fn sub_second_and_sub_minute() {
        // Spec A.7 / P14: 500ms → 1s; 1.5s → 1s.
        let f = every("@every 500ms");
        assert!(
            f[0].message.contains("robfig truncates 500ms to 1s"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            every("@every 1.5s")[0]
                .message
                .contains("truncates 1.5s to 1s")
        );
        assert!(!every("@every 1.5h")[0].message.contains("truncates"));
        assert!(every("@every 30s")[0].evidence[0].contains("at most one Job per minute"));
        assert_eq!(seconds_written("1h30m"), Some(5400.0));
        assert_eq!(aligned(900).as_deref(), Some("*/15 * * * *"));
        assert_eq!(aligned(7 * 3600), None);
    }
}
