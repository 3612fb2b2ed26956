//! CJD003 unknown-time-zone: a `spec.timeZone` the API server refuses or the controller cannot
//! load. The API rules (B.12, `validateTimeZone`) are restated in upstream order with their
//! exact messages; the controller's `LoadLocation` is Go's (case-sensitive file lookup), and a
//! failure stops every sync with `UnknownTimeZone` before the schedule is even parsed.

use super::common::{go_quote, invalid, is_live, zone_suggestion};
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD003",
    slug: "unknown-time-zone",
    severity: Severity::Error,
    summary: "spec.timeZone is not a time zone Kubernetes can load, so the CronJob is rejected or never runs.",
    explanation: "`spec.timeZone` must be an IANA name such as `Europe/Berlin`, spelled with \
its exact case (Go looks the name up as a file, so `europe/berlin` is unknown). The API server \
rejects an empty string (`timeZone must be nil or non-empty string`), `Local` in any case \
(`timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`), names \
whose `/`-separated parts are not 1–14 characters of `A-Za-z.-_0-9+` (`unknown time zone …`), \
and names its own tz database lacks. The controller loads the zone again on every sync with \
*its* tz database; when that fails it records Warning `UnknownTimeZone` \
`invalid timeZone: \"<zone>\": <error>` and starts nothing — no requeue, so it stays stuck until \
the object changes. Before Kubernetes 1.25 the field is ignored (alpha, gate off in 1.24; absent \
before).",
    remediation: "Use the exact IANA name (`kubectl cronjob-doctor next '<schedule>' --time-zone \
<zone>` tries it), or remove `spec.timeZone` to run in the controller's zone. If the name is \
right but the controller reports `UnknownTimeZone`, its image lacks tz data for it.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: payroll, namespace: hr}
spec:
  schedule: "0 9 * * 1-5"
  timeZone: europe/berlin
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: payroll, image: payroll:1}]
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: payroll, namespace: hr}
spec:
  schedule: "0 9 * * 1-5"
  timeZone: Europe/Berlin
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: payroll, image: payroll:1}]
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

const PATH: &str = "spec.timeZone";

/// One `/`-separated part passes `^[A-Za-z\.\-_0-9+]{1,14}$` and is not `.`, `..`, `-…`.
fn part_ok(p: &str) -> bool {
    p != "."
        && p != ".."
        && !p.starts_with('-')
        && (1..=14).contains(&p.len())
        && p.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-+".contains(&b))
}

/// `validateTimeZone`'s errors, in upstream order (the details only).
pub(super) fn api_errors(tz: &str) -> Vec<String> {
    if tz.is_empty() {
        return vec!["timeZone must be nil or non-empty string".into()];
    }
    if !tz.split('/').all(part_ok) {
        return vec![format!("unknown time zone {tz}")];
    }
    let mut out = Vec::new();
    if tz.eq_ignore_ascii_case("local") {
        out.push(
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
                .into(),
        );
    }
    if let Err(e) = schedule::load_location(tz) {
        out.push(e.to_string());
    }
    out
}

fn check(ctx: &Context) -> Vec<Finding> {
    let Some(tz) = ctx.cron_job.spec.time_zone.as_deref() else {
        return Vec::new();
    };
    let api = api_errors(tz);
    let controller = schedule::load_location(tz).err();
    if api.is_empty() && controller.is_none() {
        return Vec::new();
    }
    let q = go_quote(tz);
    let suggestion = zone_suggestion(tz);
    let ignored = ctx.replay.time_zone_ignored;
    let live = is_live(ctx.cron_job);
    let mut message = match (&controller, api.first()) {
        (Some(e), _) => format!("spec.timeZone {q} cannot be loaded ({e})"),
        (None, Some(detail)) => format!("The API server rejects spec.timeZone {q}: {detail}"),
        (None, None) => unreachable!("checked above"),
    };
    if let Some(s) = &suggestion {
        message.push_str(&format!("; did you mean {}?", go_quote(s)));
    } else {
        message.push('.');
    }
    let (severity, head) = if ignored {
        message.push_str(&format!(
            " Kubernetes {} ignores spec.timeZone, so today it runs in the controller's zone ({}); from 1.25 on it would stop.",
            ctx.replay.kube_version,
            ctx.controller_zone_name
        ));
        (Severity::Warning, None)
    } else if controller.is_some() && (live || api.is_empty()) {
        (
            Severity::Error,
            Some(format!("never runs: unknown time zone {q}")),
        )
    } else {
        (
            Severity::Error,
            Some(format!(
                "cannot be created: the API server rejects timeZone {q}"
            )),
        )
    };
    let fix = match &suggestion {
        Some(s) => format!("Write the exact IANA name: timeZone: {s}."),
        None if tz.eq_ignore_ascii_case("local") => format!(
            "Name the zone explicitly (the controller's zone is {}), or remove spec.timeZone to use the controller's zone.",
            ctx.controller_zone_name
        ),
        None if tz.is_empty() => "Remove spec.timeZone (the controller's zone applies) or set an IANA name such as UTC.".into(),
        None => "Use an IANA zone name such as Europe/Berlin or America/New_York (case-sensitive), or remove spec.timeZone.".into(),
    };
    let mut f = Finding::new(&RULE, message)
        .severity(severity)
        .field(PATH)
        .fix(fix);
    if let Some(h) = head {
        f = f.headline(h);
    }
    for detail in &api {
        f = f.evidence(format!(
            "API server (create, or when timeZone changes): {}",
            invalid(PATH, tz, detail)
        ));
    }
    if let Some(e) = &controller
        && !ignored
    {
        f = f.evidence(format!("controller (each sync, no Job, no requeue): Warning UnknownTimeZone invalid timeZone: {q}: {e}"));
    }
    let patch = match (&suggestion, tz.is_empty()) {
        (Some(s), _) => Some(serde_json::json!({"spec": {"timeZone": s}})),
        (None, true) => Some(serde_json::json!({"spec": {"timeZone": null}})),
        _ => None,
    };
    if let Some(p) = patch.filter(|_| live) {
        f = f.patch(p);
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run, run_with};
    use super::{RULE, api_errors};
    use crate::replay::KubeVersion;

    fn with_tz(tz: &str) -> String {
        RULE.quiet_on
            .replace("timeZone: Europe/Berlin", &format!("timeZone: {tz:?}"))
    }

    #[test]
    fn validation_messages_follow_upstream() {
        assert_eq!(api_errors(""), ["timeZone must be nil or non-empty string"]);
        assert_eq!(
            api_errors("Local"),
            [
                "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
            ]
        );
        assert_eq!(
            api_errors("local"),
            [
                "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
                "unknown time zone local"
            ]
        );
        assert_eq!(
            api_errors("../etc/passwd"),
            ["unknown time zone ../etc/passwd"]
        );
        assert_eq!(
            api_errors("America/Buenos_Aires_Long"),
            ["unknown time zone America/Buenos_Aires_Long"]
        );
        assert_eq!(
            api_errors("Mars/Olympus"),
            ["unknown time zone Mars/Olympus"]
        );
        assert!(api_errors("Etc/GMT+5").is_empty());
        assert!(api_errors("EST5EDT").is_empty());
        assert!(api_errors("America/Argentina/Buenos_Aires").is_empty());
    }

    #[test]
    fn wrong_case_is_unknown_to_the_controller_and_gets_a_suggestion() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "unknown-time-zone");
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            r#"spec.timeZone "europe/berlin" cannot be loaded (unknown time zone europe/berlin); did you mean "Europe/Berlin"?"#
        );
        assert!(f[0].evidence.iter().any(|e| e.ends_with(r#"Warning UnknownTimeZone invalid timeZone: "europe/berlin": unknown time zone europe/berlin"#)));
        assert_eq!(
            r.cron_jobs[0].headline,
            r#"payroll cannot be created: the API server rejects timeZone "europe/berlin""#
        );
    }

    #[test]
    fn typos_get_a_did_you_mean() {
        let r = run(&with_tz("Europe/Berln"), RULE.example_now);
        let f = findings(&r, "unknown-time-zone");
        assert_eq!(
            f[0].message,
            r#"spec.timeZone "Europe/Berln" cannot be loaded (unknown time zone Europe/Berln); did you mean "Europe/Berlin"?"#
        );
        assert!(
            f[0].remediation.contains("timeZone: Europe/Berlin"),
            "{}",
            f[0].remediation
        );
    }

    #[test]
    fn local_and_empty_are_api_errors_only() {
        let r = run(&with_tz("Local"), RULE.example_now);
        let f = findings(&r, "unknown-time-zone");
        assert!(
            f[0].message.starts_with(
                r#"The API server rejects spec.timeZone "Local": timeZone must be an explicit"#
            ),
            "{}",
            f[0].message
        );
        let r = run(&with_tz(""), RULE.example_now);
        assert!(
            findings(&r, "unknown-time-zone")[0]
                .message
                .contains("timeZone must be nil or non-empty string")
        );
    }

    #[test]
    fn ignored_before_1_25() {
        let r = run_with(RULE.fires_on, RULE.example_now, KubeVersion::new(24));
        let f = findings(&r, "unknown-time-zone");
        assert_eq!(f[0].severity, crate::rules::Severity::Warning);
        assert!(
            f[0].message.contains("ignores spec.timeZone"),
            "{}",
            f[0].message
        );
    }
}
