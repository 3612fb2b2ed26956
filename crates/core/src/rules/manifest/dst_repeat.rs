//! CJD026 dst-repeat: runs the engine produces twice when clocks fall back — both instances of
//! a repeated wall time match, so the controller creates two Jobs an hour apart (upstream
//! issue #121594, open). Computed by `cron::dst::effects` from the real engine.

use super::dst_shared::{alternative, clocks, day, hm, upcoming};
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD026",
    slug: "dst-repeat",
    severity: Severity::Warning,
    summary: "When clocks fall back in the schedule's zone, a run in the repeated hour happens twice.",
    explanation: "When clocks go back, an hour of wall-clock time happens twice. robfig matches \
both: `30 1 * * *` in America/New_York runs at 01:30 EDT and again at 01:30 EST on the November \
transition day, and the controller creates two Jobs (with different names, an hour apart), so \
`concurrencyPolicy: Forbid` does not help unless the first is still running. This is upstream \
issue kubernetes/kubernetes#121594 (open). A non-idempotent job (billing, notifications) then \
does its work twice.",
    remediation: "Move the run out of the repeated hour (the finding suggests the nearest safe \
hour), set `spec.timeZone: UTC` (or another zone without DST), or make the job idempotent.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: invoices, namespace: billing}
spec:
  schedule: "30 1 * * *"
  timeZone: America/New_York
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: invoices, image: invoices:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: invoices, namespace: billing}
spec:
  schedule: "30 0 * * *"
  timeZone: America/New_York
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: invoices, image: invoices:1}]
"#,
    example_now: "2026-04-01T12:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let zone = ctx.schedule_zone();
    let lines: Vec<String> = upcoming(ctx)
        .iter()
        .filter(|e| !e.doubled.is_empty())
        .map(|e| {
            let abbr = |t: jiff::Timestamp| zone.to_offset_info(t).abbreviation().to_string();
            let runs: Vec<String> = e
                .doubled
                .iter()
                .map(|(w, a, b)| format!("{t} {} and {t} {}", abbr(*a), abbr(*b), t = hm(*w)))
                .collect();
            format!(
                "runs twice on {}: {} ({})",
                day(e.doubled[0].0),
                runs.join(", "),
                clocks(e)
            )
        })
        .collect();
    let Some(first) = lines.first() else {
        return Vec::new();
    };
    let mut message = format!("R{} — upstream issue #121594.", &first[1..]);
    if lines.len() > 1 {
        message.push_str(&format!(
            " {} more such day(s) in the next 12 months.",
            lines.len() - 1
        ));
    }
    let mut f = Finding::new(&RULE, message).field("spec.schedule");
    for e in upcoming(ctx).iter().filter(|e| !e.doubled.is_empty()) {
        for (w, a, b) in &e.doubled {
            let job = |t: &jiff::Timestamp| {
                format!("{}-{} ({t})", ctx.name(), t.as_second().div_euclid(60))
            };
            f = f.evidence(format!(
                "{} {}: two Jobs, {} and {}",
                day(*w),
                hm(*w),
                job(a),
                job(b)
            ));
        }
    }
    match alternative(ctx) {
        Some((s, cmd)) => {
            f = f.fix(format!(
                "Move the run out of the repeated hour, e.g. {s:?} (no DST effect in the next 12 months), set spec.timeZone: UTC, or make the job idempotent."
            ));
            f = f.patch(cmd);
        }
        None => f = f.fix("Move the runs out of the repeated hour, set spec.timeZone: UTC, or make the job idempotent."),
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    #[test]
    fn new_york_0130_runs_twice_in_november() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "dst-repeat");
        assert_eq!(f.len(), 1);
        // Spec E19: 01:30 EDT (05:30Z) and 01:30 EST (06:30Z) on the fall-back day.
        assert_eq!(
            f[0].message,
            "Runs twice on Sun 2026-11-01: 01:30 EDT and 01:30 EST (clocks go 02:00 → 01:00) — upstream issue #121594."
        );
        assert_eq!(
            f[0].evidence[0],
            "Sun 2026-11-01 01:30: two Jobs, invoices-29891850 (2026-11-01T05:30:00Z) and invoices-29891910 (2026-11-01T06:30:00Z)"
        );
        assert!(
            f[0].remediation.contains("\"30 0 * * *\""),
            "{}",
            f[0].remediation
        );
    }

    #[test]
    fn every_half_hour_in_the_repeated_hour() {
        let yaml = RULE.fires_on.replace("30 1 * * *", "*/30 1 * * *");
        let r = run(&yaml, RULE.example_now);
        assert!(
            findings(&r, "dst-repeat")[0]
                .message
                .contains(": 01:00 EDT and 01:00 EST, 01:30 EDT and 01:30 EST (")
        );
    }
}
