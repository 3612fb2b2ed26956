//! CJD002 invalid-schedule: robfig/cron rejects the schedule. The API server parses
//! `spec.schedule` with `cron.ParseStandard` and returns robfig's error verbatim
//! (`spec.schedule: Invalid value: "<s>": <msg>`); the controller parses the `formatSchedule`
//! string and records `UnparseableSchedule`. We quote robfig's exact text (the engine is
//! byte-exact), add the plain hint, and offer the corrected schedule for the classic slips.
//! `TZ=UTC` with nothing after it makes robfig panic rather than return an error.

use schedule::ParseError;

use super::common::{
    Fields, go_quote, invalid, is_live, placeholder_note, schedule_patch, zone_suggestion,
};
use crate::cron::hint::hint;
use crate::replay::ControllerVariant;
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD002",
    slug: "invalid-schedule",
    severity: Severity::Error,
    summary: "robfig/cron, the parser Kubernetes uses, rejects the schedule, so the CronJob never runs.",
    explanation: "Kubernetes parses schedules with robfig/cron v3 `ParseStandard`: exactly five \
fields (no seconds, no year), day-of-week 0–6 with 0 = Sunday (7 is an error), no `L`, `W`, \
`#` or `H`, lower-case descriptors (`@daily`, `@hourly`, …, `@every <duration>`). The API server \
rejects a schedule robfig rejects (`spec.schedule: Invalid value: \"…\": <robfig's message>`); an \
object that reached the cluster anyway gets a Warning `UnparseableSchedule` on every sync and \
never starts a Job. A `TZ=`/`CRON_TZ=` prefix with nothing after it makes robfig panic instead \
of returning an error, so the API server answers with an internal error.",
    remediation: "Fix the field robfig names in its message (the finding quotes it and says what \
to write instead), then re-apply. `kubectl cronjob-doctor next '<schedule>'` shows what a \
schedule means and when it runs before you apply it.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: weekly-report, namespace: finance}
spec:
  schedule: "0 0 * * 7"
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
metadata: {name: weekly-report, namespace: finance}
spec:
  schedule: "0 0 * * 0"
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

/// A corrected schedule for the slips whose intent is unambiguous.
fn corrected(raw: &str) -> Option<String> {
    let trimmed = raw.trim();
    let candidate = if trimmed.starts_with('@') {
        let lower = trimmed.to_ascii_lowercase();
        if lower.starts_with("@every") {
            trimmed.to_string()
        } else {
            lower
        }
    } else if let Some(z) = super::tz_in_schedule::split_prefix(raw)
        .map(|(z, _)| z)
        .filter(|z| schedule::load_location(z).is_err())
    {
        let better = zone_suggestion(z)?;
        raw.replacen(&format!("={z} "), &format!("={better} "), 1)
    } else {
        let f = Fields::split(raw)?;
        let dow = f.fields[4];
        let fixed = match dow.strip_suffix("-7") {
            _ if dow == "7" => "0".to_string(),
            Some(start) if start.parse::<u8>().is_ok_and(|s| (1..=6).contains(&s)) => {
                if start == "1" {
                    "0-6".to_string()
                } else {
                    format!("0,{start}-6")
                }
            }
            _ => return None,
        };
        f.with(4, &fixed)
    };
    (candidate != raw && schedule::parse_standard(&candidate).is_ok()).then_some(candidate)
}

fn check(ctx: &Context) -> Vec<Finding> {
    let Some(raw) = ctx
        .cron_job
        .spec
        .schedule
        .as_deref()
        .filter(|s| !s.is_empty())
    else {
        return Vec::new();
    };
    // The API server validates the schedule as written; the controller parses formatSchedule's
    // string, unless an unloadable timeZone stopped it first (unknown-time-zone says so).
    let api = schedule::parse_standard(raw).err();
    let honoured_tz = ctx
        .cron_job
        .spec
        .time_zone
        .as_deref()
        .filter(|_| !ctx.replay.time_zone_ignored);
    let controller_parses = honoured_tz.is_none_or(|tz| schedule::load_location(tz).is_ok());
    let ctl = ctx
        .schedule
        .and_then(|r| r.as_ref().err())
        .filter(|_| controller_parses);
    let Some(err): Option<&ParseError> = api.as_ref().or(ctl) else {
        return Vec::new();
    };
    let q = go_quote(raw);
    let plain = hint(raw, err);
    if err.panics && ctx.replay.kube_version.features().schedule_panic_recovered {
        // 1.36+ (kubernetes#134526): validation and the controller parse under `recover`.
        let mut f = Finding::new(
            &RULE,
            format!(
                "robfig/cron panics on {q} ({}): a TZ=/CRON_TZ= prefix needs a space and five fields after it. Since Kubernetes 1.36 the API server and the controller recover from the panic (kubernetes#134526): the API server refuses the schedule, and a CronJob already stored with it records UnparseableSchedule on every sync and never runs.",
                err.message
            ),
        )
        .field("spec.schedule")
        .headline("never runs: schedule rejected — a TZ= prefix with nothing after it")
        .fix(plain.unwrap_or_default());
        if is_live(ctx.cron_job) && !ctx.cron_job.spec.suspend {
            f = f.evidence(format!(
                "controller (each sync): Warning UnparseableSchedule unparseable schedule: {q} : invalid schedule format: {}",
                err.message
            ));
        }
        return vec![f];
    }
    if err.panics {
        let mut f = Finding::new(
            &RULE,
            format!(
                "robfig/cron panics on {q} ({}): a TZ=/CRON_TZ= prefix needs a space and five fields after it; the API server's validation crashes on it (expect an internal server error instead of a validation message).",
                err.message
            ),
        )
        .field("spec.schedule")
        .headline("never runs: the schedule crashes robfig/cron (a TZ= prefix with nothing after it)")
        .fix(plain.unwrap_or_default());
        if is_live(ctx.cron_job) {
            f = f.evidence("on a live object the controller's worker panics on every sync; no UnparseableSchedule event is recorded");
        }
        return vec![f];
    }
    let mut message = format!("{q}{}: {}", placeholder_note(raw), err.message);
    if let Some(h) = &plain {
        message.push_str(&format!(" — {h}"));
    }
    let fix = match corrected(raw) {
        Some(c) => format!("Write {} instead.", go_quote(&c)),
        None => "Correct the schedule as described; `kubectl cronjob-doctor next '<schedule>'` checks one before you apply it.".into(),
    };
    let mut f = Finding::new(&RULE, message)
        .field("spec.schedule")
        .headline(format!("never runs: schedule rejected — {}", err.message))
        .fix(fix);
    if let Some(e) = &api {
        f = f.evidence(format!(
            "API server: {}",
            invalid("spec.schedule", raw, &e.message)
        ));
    }
    // Suspended CronJobs stop before the parse; the legacy controller words it differently.
    let reaches_parse = !ctx.cron_job.spec.suspend && ctx.variant != ControllerVariant::V1Legacy;
    if let Some(e) = ctl.filter(|_| reaches_parse) {
        f = f.evidence(format!(
            "controller (each sync): Warning UnparseableSchedule unparseable schedule: {q} : {}",
            e.message
        ));
    }
    if is_live(ctx.cron_job)
        && let Some(c) = corrected(raw)
    {
        f = f.patch(schedule_patch(&c));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run, run_with};
    use super::{RULE, corrected};

    fn with_schedule(s: &str) -> String {
        RULE.quiet_on.replace("\"0 0 * * 0\"", &format!("{s:?}"))
    }

    #[test]
    fn quotes_robfig_and_the_api_server_exactly() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "invalid-schedule");
        assert_eq!(f.len(), 1);
        // Spec E.1 P1.
        assert!(
            f[0].message
                .starts_with(r#""0 0 * * 7": end of range (7) above maximum (6): 7 — day-of-week"#),
            "{}",
            f[0].message
        );
        assert!(f[0].evidence.contains(&r#"API server: spec.schedule: Invalid value: "0 0 * * 7": end of range (7) above maximum (6): 7"#.to_string()));
        assert_eq!(
            r.cron_jobs[0].headline,
            "weekly-report never runs: schedule rejected — end of range (7) above maximum (6): 7"
        );
        assert!(f[0].remediation.contains(r#""0 0 * * 0""#));
    }

    #[test]
    fn spec_parser_cases() {
        for (s, msg) in [
            (
                "*/0 * * * *",
                "step of range should be a positive number: */0",
            ),
            (
                "5-3 * * * *",
                "beginning of range (5) beyond end of range (3): 5-3",
            ),
            ("@Hourly", "unrecognized descriptor: @Hourly"),
            (" @daily", "expected exactly 5 fields, found 1: [@daily]"),
            (
                "0 0 * * * *",
                "expected exactly 5 fields, found 6: [0 0 * * * *]",
            ),
            (
                "TZ=Nowhere/Land * * * * *",
                "provided bad location Nowhere/Land: unknown time zone Nowhere/Land",
            ),
        ] {
            let r = run(&with_schedule(s), RULE.example_now);
            let f = findings(&r, "invalid-schedule");
            assert_eq!(f.len(), 1, "{s}");
            assert!(f[0].message.contains(msg), "{s}: {}", f[0].message);
        }
        assert_eq!(corrected("@Hourly").as_deref(), Some("@hourly"));
        assert_eq!(corrected(" @daily").as_deref(), Some("@daily"));
        assert_eq!(corrected("0 9 * * 5-7").as_deref(), Some("0 9 * * 0,5-6"));
        assert_eq!(
            corrected("CRON_TZ=europe/berlin 0 * * * *").as_deref(),
            Some("CRON_TZ=Europe/Berlin 0 * * * *")
        );
    }

    #[test]
    fn tz_prefix_without_fields_panics_robfig_until_1_36() {
        let v = |s: &str| s.parse::<crate::replay::KubeVersion>().unwrap();
        let r = run_with(&with_schedule("TZ=UTC"), RULE.example_now, v("1.35"));
        let f = findings(&r, "invalid-schedule");
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("panics"), "{}", f[0].message);
        assert!(r.cron_jobs[0].headline.contains("crashes robfig/cron"));
        assert!(r.cron_jobs[0].replay.controller_panic.is_some());
        // UnsupportedSchedule ("TZ" in the schedule) comes first; the panic stops the sync.
        assert!(
            !r.cron_jobs[0]
                .replay
                .events
                .iter()
                .any(|e| e.reason == "UnparseableSchedule")
        );
        // 1.36 (kubernetes#134526): recovered; a validation error and UnparseableSchedule.
        let r = run_with(&with_schedule("TZ=UTC"), RULE.example_now, v("1.36"));
        let f = findings(&r, "invalid-schedule");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.contains("kubernetes#134526"),
            "{}",
            f[0].message
        );
        assert!(!r.cron_jobs[0].headline.contains("crashes"));
        assert!(r.cron_jobs[0].replay.controller_panic.is_none());
        let events: Vec<_> = r.cron_jobs[0]
            .replay
            .events
            .iter()
            .map(|e| format!("{}: {}", e.reason, e.message))
            .collect();
        assert!(
            events.contains(
                &r#"UnparseableSchedule: unparseable schedule: "TZ=UTC" : invalid schedule format: runtime error: slice bounds out of range [:-1]"#
                    .to_string()
            ),
            "{events:?}"
        );
    }

    #[test]
    fn an_unknown_time_zone_is_not_a_schedule_error() {
        let yaml = RULE.quiet_on.replace(
            "schedule: \"0 0 * * 0\"",
            "schedule: \"0 0 * * 0\"\n  timeZone: Mars/Olympus",
        );
        assert!(findings(&run(&yaml, RULE.example_now), "invalid-schedule").is_empty());
        assert!(findings(&run(RULE.quiet_on, RULE.example_now), "invalid-schedule").is_empty());
    }
}
