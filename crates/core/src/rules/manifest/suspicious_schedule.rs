//! CJD027 suspicious-schedule: schedules robfig accepts but people rarely mean. Each trap is
//! read from the fields as written plus robfig's bit sets: `* 0 * * *` (every minute of that
//! hour, rancher/rke2-docs#38), a step at least as large as the range (`*/60` = only the start,
//! kubewarden#1758), `30/1` (= 30-59), steps that do not divide the range (uneven at the wrap),
//! and day 29/30/31 schedules that skip months (leap days: once in four years).

use schedule::{STAR_BIT, ScheduleKind, SpecSchedule};

use super::common::{Fields, schedule_patch};
use super::cron_items::items;
use super::step_traps::{Trap, step_traps};
use crate::cron::values;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::{MONTHS, and_list};

pub static RULE: Rule = Rule {
    id: "CJD027",
    slug: "suspicious-schedule",
    severity: Severity::Warning,
    summary: "The schedule is valid but probably does not mean what it looks like.",
    explanation: "Some cron expressions are accepted and run, just not as intended. `*` in the \
minute field means *every minute*: `* */5 * * *` runs 60 times in each matching hour, not once. \
A step is counted inside one field and restarts at its wrap: `*/60` selects only minute 0, \
`*/7` in minutes gives 0, 7, …, 56 and then 0 again four minutes later, `*/7` in \
day-of-month restarts on every 1st. `a/n` means `a-max/n`, so `30/1` is every minute from 30 to \
59. Day-of-month 29–31 silently skips the months without that day (`0 0 29 2 *` runs once \
every four years). robfig/cron (Kubernetes) and crontab agree on all of these.",
    remediation: "Write the schedule you mean; the finding says what the current one does and \
suggests a replacement. `kubectl cronjob-doctor next '<schedule>'` lists the coming runs.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "* */5 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: sync, image: sync:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "0 */6 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: sync, image: sync:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

fn minute_star_trap(spec: &SpecSchedule, f: &Fields, out: &mut Vec<Trap>) {
    let hours = values(spec.hour, 0, 23);
    let Some(hour_items) = items(1, f.fields[1]) else {
        return;
    };
    if values(spec.minute, 0, 59).len() != 60 || hours.is_empty() || hours.len() == 24 {
        return;
    }
    if !hour_items
        .iter()
        .all(|i| i.step.is_some() || i.start == i.end)
    {
        return; // `* 9-17 * * *`: every minute in working hours is plausibly intended
    }
    let during = match hours.as_slice() {
        [h] => format!("from {h:02}:00 to {h:02}:59"),
        _ => format!(
            "during hours {}",
            and_list(&hours.iter().map(|h| format!("{h:02}")).collect::<Vec<_>>())
        ),
    };
    let better = f.with(0, "0");
    out.push(Trap {
        message: format!("`{}` in the minute field means every minute: this runs every minute {during} ({} runs a day), not once an hour.", f.fields[0], 60 * hours.len()),
        fix: format!("Write {better:?} to run once at the start of each of those hours."),
        schedule: Some(better),
        info: false,
    });
}

fn short_month_trap(ctx: &Context, spec: &SpecSchedule, out: &mut Vec<Trap>) {
    let dom = values(spec.dom, 1, 31);
    let and = spec.dom & STAR_BIT != 0 || spec.dow & STAR_BIT != 0;
    if !and || values(spec.dow, 0, 6).len() != 7 || dom.is_empty() || dom[0] < 29 {
        return;
    }
    let months = values(spec.month, 1, 12);
    let max = |m: u32| [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m as usize];
    let skipped: Vec<u32> = months
        .iter()
        .copied()
        .filter(|m| dom.iter().all(|d| *d > max(*m)))
        .collect();
    let leap_only = months.contains(&2) && !skipped.contains(&2) && dom.iter().all(|d| *d >= 29);
    if skipped.len() == months.len() || (skipped.is_empty() && !leap_only) {
        return; // never-fires reports the impossible case
    }
    let days =
        and_list(&dom.iter().map(u32::to_string).collect::<Vec<_>>()).replace(" and ", " or ");
    let message = if months == [2] {
        let next = ctx
            .parsed()
            .and_then(|s| s.next(ctx.now, ctx.controller_zone))
            .map(|t| ctx.show_time(t))
            .unwrap_or_default();
        format!(
            "Day 29 of February exists only in leap years: this runs once every four years (next: {next})."
        )
    } else {
        let mut names: Vec<String> = skipped
            .iter()
            .map(|m| MONTHS[*m as usize].to_string())
            .collect();
        if leap_only {
            names.push("February except in leap years".into());
        }
        format!(
            "Day {days} of the month does not exist in every month: no run in {}.",
            and_list(&names)
        )
    };
    out.push(Trap {
        message,
        fix: "For \"the last day of the month\", run on day 1 at 00:00 (\"0 0 1 * *\") and process the previous month, or run on days 28–31 and exit unless tomorrow is the 1st.".into(),
        schedule: None,
        info: false,
    });
}

fn check(ctx: &Context) -> Vec<Finding> {
    let (Some(sched), Some(raw)) = (ctx.parsed(), ctx.cron_job.spec.schedule.as_deref()) else {
        return Vec::new();
    };
    let (ScheduleKind::Spec(spec), Some(f)) = (&sched.kind, Fields::split(raw)) else {
        return Vec::new();
    };
    let mut traps = Vec::new();
    minute_star_trap(spec, &f, &mut traps);
    for i in 0..5 {
        step_traps(i, f.fields[i], &f, &mut traps);
    }
    short_month_trap(ctx, spec, &mut traps);
    traps
        .into_iter()
        .map(|t| {
            let mut finding = Finding::new(&RULE, t.message)
                .field("spec.schedule")
                .fix(t.fix);
            if t.info {
                finding = finding.severity(Severity::Info);
            }
            if let Some(s) = t.schedule.as_deref() {
                finding = finding.patch(schedule_patch(s));
            }
            finding
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;

    fn messages(schedule: &str) -> Vec<String> {
        let yaml = RULE
            .quiet_on
            .replace("\"0 */6 * * *\"", &format!("{schedule:?}"));
        findings(&run(&yaml, RULE.example_now), "suspicious-schedule")
            .iter()
            .map(|f| f.message.clone())
            .collect()
    }

    #[test]
    fn minute_star_with_a_restricted_hour() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "suspicious-schedule");
        assert!(
            f[0].message
                .contains("every minute during hours 00, 05, 10, 15 and 20 (300 runs a day)"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].command
                .as_deref()
                .unwrap()
                .ends_with(r#"'{"spec":{"schedule":"0 */5 * * *"}}'"#)
        );
        assert!(
            messages("* 0 * * *")[0].contains("every minute from 00:00 to 00:59 (60 runs a day)")
        );
        assert!(messages("* 9-17 * * 1-5").is_empty());
    }

    #[test]
    fn steps_that_do_not_fit() {
        assert_eq!(
            messages("*/60 * * * *"),
            [
                "`*/60` in the minute field selects only minute 0: a step of 60 does not fit in 0–59, so only the start value matches."
            ]
        );
        assert!(messages("0 0 */85 * *")[0].contains("selects only day-of-month 1"));
        assert!(messages("30/1 * * * *")[0].contains("every minute from 30 to 59"));
        assert!(
            messages("*/13 * * * *")[0]
                .contains("gives 0, 13, 26, 39 and 52, then 0 again after 8, not 13")
        );
        assert!(messages("0 0 */7 * *")[0].contains("days 1, 8, 15, 22 and 29 of every month"));
        assert!(messages("*/15 * * * *").is_empty());
        assert!(messages("*/4294967295 * * * *")[0].contains("selects only minute 0"));
        // Steps beyond u32 are legal for robfig; we stay quiet rather than misquote them.
        assert!(messages("*/99999999999 * * * *").is_empty());
        assert!(messages("5/15 * * * *").is_empty());
    }

    #[test]
    fn short_months_and_leap_days() {
        assert_eq!(
            messages("0 0 31 * *"),
            [
                "Day 31 of the month does not exist in every month: no run in February, April, June, September and November."
            ]
        );
        assert!(messages("0 0 29 2 *")[0].starts_with("Day 29 of February exists only in leap years: this runs once every four years (next: 2028-02-29 00:00 UTC)"));
        assert!(messages("0 0 30 2 *").is_empty());
        assert!(messages("0 0 1,31 * *").is_empty());
    }
}
