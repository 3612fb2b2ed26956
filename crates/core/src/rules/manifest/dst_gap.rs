//! CJD025 dst-gap: runs the schedule names but the engine never produces around a clock change
//! in the next 12 months — the wall time does not exist (clocks spring over it), or robfig's
//! absolute-hour stepping misses a time that does exist (Australia/Lord_Howe's half-hour
//! shift). Computed by `cron::dst::effects` from the real engine, never from a rule of thumb.

use super::dst_shared::{alternative, clocks, day, hm, upcoming};
use crate::cron::dst::DstEffect;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::and_list;

pub static RULE: Rule = Rule {
    id: "CJD025",
    slug: "dst-gap",
    severity: Severity::Warning,
    summary: "A daylight-saving change in the schedule's zone swallows a run: it does not happen that day and is not made up.",
    explanation: "Schedules are evaluated in wall-clock time of `spec.timeZone` (or of the \
controller's zone). When clocks spring forward, times inside the gap do not exist and robfig \
simply skips them: `30 2 * * *` in America/New_York has no run on the March transition day and \
no catch-up. In zones that change at midnight (America/Havana, America/Sao_Paulo until 2019) \
`0 0 * * *` skips the transition day. robfig also misses some times that do exist: it steps \
hours in absolute time, so after Australia/Lord_Howe's half-hour shift it lands on :30 and \
skips `0 2 * * *` on the April fall-back day. The dates listed are computed with the same \
engine the controller uses.",
    remediation: "Move the run out of the transition hours (the finding suggests the nearest \
safe hour), or set `spec.timeZone: UTC` (or another zone without DST) if the local hour does \
not matter.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "30 2 * * *"
  timeZone: America/New_York
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: backup:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "30 3 * * *"
  timeZone: America/New_York
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: backup:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn times(list: &[jiff::civil::DateTime]) -> String {
    let v: Vec<String> = list.iter().map(|d| hm(*d)).collect();
    and_list(&v)
}

/// One line per affected date: what is lost and why.
fn describe(ctx: &Context, e: &DstEffect) -> Option<String> {
    let zone = ctx.schedule_zone_name();
    // A swallowed time inside [clock_from, clock_to) of a forward change does not exist.
    let (gone, quirk): (Vec<_>, Vec<_>) = e
        .swallowed
        .iter()
        .partition(|w| e.forward && **w >= e.clock_from && **w < e.clock_to);
    let mut parts = Vec::new();
    if !gone.is_empty() {
        let verb = if gone.len() == 1 { "does" } else { "do" };
        parts.push(format!(
            "no run on {}: {} {verb} not exist in {zone} ({})",
            day(gone[0]),
            times(&gone),
            clocks(e)
        ));
    }
    if !quirk.is_empty() {
        parts.push(format!(
            "no run on {} at {} although it exists in {zone} ({}): robfig steps hours in absolute time and lands {} off the hour after the shift",
            day(quirk[0]),
            times(&quirk),
            clocks(e),
            crate::text::human_duration(e.clock_from.duration_until(e.clock_to).as_secs().abs() % 3600),
        ));
    }
    for t in &e.shifted {
        parts.push(format!(
            "a run at {}, a time the schedule does not name ({})",
            ctx.show_time(*t),
            clocks(e)
        ));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn check(ctx: &Context) -> Vec<Finding> {
    let lines: Vec<String> = upcoming(ctx)
        .iter()
        .filter_map(|e| describe(ctx, e))
        .collect();
    let Some(first) = lines.first() else {
        return Vec::new();
    };
    let mut message = format!("{}{}.", first[..1].to_uppercase(), &first[1..]);
    if lines.len() > 1 {
        message.push_str(&format!(
            " {} more such day(s) in the next 12 months.",
            lines.len() - 1
        ));
    }
    let mut f = Finding::new(&RULE, message).field("spec.schedule");
    // One affected day is the message itself; several are listed as evidence.
    if lines.len() > 1 {
        for l in &lines {
            f = f.evidence(l.clone());
        }
    }
    match alternative(ctx) {
        Some((s, cmd)) => {
            f = f.fix(format!(
                "Move the run out of the transition hours, e.g. {s:?} (no DST effect in the next 12 months), or set spec.timeZone: UTC if the local hour does not matter."
            ));
            f = f.patch(cmd);
        }
        None => f = f.fix("Move the runs out of the transition hours, or set spec.timeZone: UTC if the local hour does not matter."),
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn new_york_0230_has_no_run_in_march() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "dst-gap");
        assert_eq!(f.len(), 1);
        // Spec E20: no run on the spring-forward day.
        assert_eq!(
            f[0].message,
            "No run on Sun 2027-03-14: 02:30 does not exist in America/New_York (clocks go 02:00 → 03:00)."
        );
        assert!(
            f[0].remediation.contains("\"30 3 * * *\""),
            "{}",
            f[0].remediation
        );
        assert!(
            f[0].command
                .as_deref()
                .unwrap()
                .ends_with(r#"-p '{"spec":{"schedule":"30 3 * * *"}}'"#)
        );
    }

    #[test]
    fn lord_howe_skips_an_existing_0200() {
        let yaml = RULE
            .fires_on
            .replace("30 2 * * *", "0 2 * * *")
            .replace("America/New_York", "Australia/Lord_Howe");
        let r = run(&yaml, "2026-01-01T00:00:00Z");
        let f = findings(&r, "dst-gap");
        // Spec A.6 / E22: 2026-04-05 is the fall-back day (clocks 02:00 → 01:30).
        assert!(
            f[0].message
                .starts_with("No run on Sun 2026-04-05 at 02:00 although it exists")
                || f[0]
                    .evidence
                    .iter()
                    .any(|e| e.starts_with("no run on Sun 2026-04-05 at 02:00 although it exists")),
            "{:?}",
            f[0].evidence
        );
    }

    #[test]
    fn midnight_transition_zones_skip_the_day() {
        let yaml = RULE
            .fires_on
            .replace("30 2 * * *", "0 0 * * *")
            .replace("America/New_York", "America/Havana");
        let r = run(&yaml, "2024-01-01T00:00:00Z");
        let f = findings(&r, "dst-gap");
        assert!(f[0].message.starts_with("No run on Sun 2024-03-10: 00:00 does not exist in America/Havana (clocks go 00:00 → 01:00)"), "{}", f[0].message);
    }

    #[test]
    fn hourly_schedules_and_utc_are_quiet() {
        let hourly = RULE.fires_on.replace("30 2 * * *", "*/15 * * * *");
        assert!(findings(&run(&hourly, RULE.example_now), "dst-gap").is_empty());
        let utc = RULE.fires_on.replace("America/New_York", "UTC");
        assert!(findings(&run(&utc, RULE.example_now), "dst-gap").is_empty());
    }
}
