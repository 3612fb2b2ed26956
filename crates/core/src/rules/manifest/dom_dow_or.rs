//! CJD028 dom-dow-or: both day fields restricted, so robfig (like cron) runs when EITHER
//! matches. The star bit decides what "restricted" means (spec A.5): a field written `*`, `?`
//! or `*/1` keeps it (AND), while `*/2` drops it — a real divergence from Vixie cron, which
//! treats any field starting with `*` as unrestricted; that case is a warning.

use schedule::{STAR_BIT, ScheduleKind};

use super::common::Fields;
use crate::cron::values;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::{DAYS, and_list};

pub static RULE: Rule = Rule {
    id: "CJD028",
    slug: "dom-dow-or",
    severity: Severity::Info,
    summary: "Both day-of-month and day-of-week are restricted, so the schedule runs on days matching EITHER field.",
    explanation: "When neither day field is `*`, robfig/cron (like classic cron) runs on a day \
that matches the day-of-month **or** the day-of-week: `0 0 1 * MON` runs on the 1st and on \
every Monday, not on Mondays that are the 1st; `0 0 13 * 5` runs on every 13th and every Friday. \
What counts as `*` is robfig's star bit: `*`, `?` and `*/1` keep it, but a step such as `*/2` \
drops it, so `0 0 */2 * 1` runs on odd days **or** Mondays — Vixie cron would run only on odd \
Mondays there. A range covering everything (`1-31`) is also not `*`.",
    remediation: "Keep one day field and write `*` in the other. For \"the first Monday\" \
(which cron cannot express), run on days 1–7 (`0 0 1-7 * *`) and exit early in the job unless \
it is Monday (`[ \"$(date +%u)\" = 1 ] || exit 0`).",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: finance}
spec:
  schedule: "0 6 1 * MON"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: report, image: report:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: finance}
spec:
  schedule: "0 6 1-7 * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: report, image: report:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// `*/n` or `?/n` with n > 1: a star for Vixie cron, not for robfig.
fn star_step(token: &str) -> bool {
    (token.starts_with("*/") || token.starts_with("?/"))
        && !token.contains(',')
        && token[2..].parse::<u32>().is_ok_and(|n| n > 1)
}

fn check(ctx: &Context) -> Vec<Finding> {
    let Some(sched) = ctx.parsed() else {
        return Vec::new();
    };
    let ScheduleKind::Spec(spec) = &sched.kind else {
        return Vec::new();
    };
    if spec.dom & STAR_BIT != 0 || spec.dow & STAR_BIT != 0 {
        return Vec::new();
    }
    let (dom, dow) = (values(spec.dom, 1, 31), values(spec.dow, 0, 6));
    if dom.is_empty() && dow.is_empty() {
        return Vec::new(); // never-fires
    }
    let dom_words = match dom.as_slice() {
        [] => "no day of the month".to_string(),
        [d] => format!("day {d} of the month"),
        _ if dom.len() == 31 => "every day of the month".to_string(),
        _ => format!(
            "days {} of the month",
            and_list(&dom.iter().map(u32::to_string).collect::<Vec<_>>())
        ),
    };
    let dow_words = match dow.len() {
        0 => "no weekday".to_string(),
        7 => "every weekday".to_string(),
        _ => format!(
            "every {}",
            and_list(
                &dow.iter()
                    .map(|d| DAYS[*d as usize].to_string())
                    .collect::<Vec<_>>()
            )
            .replace(" and ", " or ")
        ),
    };
    let everyday = dom.len() == 31 || dow.len() == 7;
    let mut message = format!(
        "Runs on {dom_words} OR on {dow_words}: both day fields are restricted, so Kubernetes runs when either matches"
    );
    message.push_str(if everyday {
        " — that is every day."
    } else {
        "."
    });
    let fields = ctx
        .cron_job
        .spec
        .schedule
        .as_deref()
        .and_then(Fields::split);
    let vixie = fields
        .as_ref()
        .filter(|f| star_step(f.fields[2]) || star_step(f.fields[4]));
    let mut f = Finding::new(&RULE, message).field("spec.schedule").fix(
        "Write * in the day field you do not mean. For \"the first Monday\", run on days 1-7 and let the job exit unless it is Monday.",
    );
    if let Some(fl) = vixie {
        let tok = if star_step(fl.fields[2]) {
            fl.fields[2]
        } else {
            fl.fields[4]
        };
        f = f.severity(Severity::Warning).evidence(format!(
            "`{tok}` starts with * but its step drops robfig's star bit: Kubernetes ORs the day fields here, where Vixie cron would AND them"
        ));
    }
    if everyday {
        f = f.severity(Severity::Warning);
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run};
    use super::RULE;
    use crate::rules::Severity;

    fn check(schedule: &str) -> Vec<(String, Severity)> {
        let yaml = RULE
            .quiet_on
            .replace("\"0 6 1-7 * *\"", &format!("{schedule:?}"));
        findings(&run(&yaml, RULE.example_now), "dom-dow-or")
            .iter()
            .map(|f| (f.message.clone(), f.severity))
            .collect()
    }

    #[test]
    fn or_semantics_per_spec_a5() {
        let f = check("0 6 1 * MON");
        assert_eq!(
            f[0].0,
            "Runs on day 1 of the month OR on every Monday: both day fields are restricted, so Kubernetes runs when either matches."
        );
        assert_eq!(f[0].1, Severity::Info);
        assert!(
            check("0 0 13 * 5")[0]
                .0
                .contains("day 13 of the month OR on every Friday")
        );
        // */1 keeps the star bit: AND, every 13th only.
        assert!(check("0 0 13 * */1").is_empty());
        assert!(check("0 0 * * 1").is_empty());
        assert!(check("@weekly").is_empty());
        // */2 drops it: odd days OR Mondays, unlike Vixie cron.
        let f = check("0 0 */2 * 1");
        assert!(f[0].0.starts_with("Runs on days 1, 3, 5"), "{}", f[0].0);
        assert_eq!(f[0].1, Severity::Warning);
        // 1-31 has no star bit: every day.
        assert!(check("0 0 1-31 * 1")[0].0.ends_with("that is every day."));
    }
}
