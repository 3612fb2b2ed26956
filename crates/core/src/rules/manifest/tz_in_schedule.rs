//! CJD018 tz-in-schedule: a `TZ=`/`CRON_TZ=` prefix in `spec.schedule`. robfig v3 (since 1.22)
//! honours it by accident; since 1.29 the API server rejects it on create, existing objects get
//! `UnsupportedSchedule` on every sync, and `formatSchedule` ignores `spec.timeZone` for any
//! schedule containing the substring "TZ" anywhere. Adding `spec.timeZone` to such an object is
//! rejected outright. The fix moves the zone into `spec.timeZone` in one patch.

use super::common::{go_quote, invalid, is_live, zone_suggestion};
use crate::replay::UnsupportedScheduleEvent;
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD018",
    slug: "tz-in-schedule",
    severity: Severity::Warning,
    summary: "The schedule carries a TZ= or CRON_TZ= prefix, which Kubernetes does not support: use spec.timeZone.",
    explanation: "Kubernetes 1.22 switched to robfig/cron v3, which happens to understand \
`TZ=<zone> ` and `CRON_TZ=<zone> ` prefixes. This was never supported: the controller records \
Warning `UnsupportedSchedule` on every sync (1.23+), and since 1.29 the API server rejects \
creating a CronJob whose schedule contains \"TZ\" (`cannot use TZ or CRON_TZ in schedule, use \
timeZone field instead`). Existing objects may keep the prefix, but setting `spec.timeZone` on \
them is rejected (`cannot use both timeZone field and TZ or CRON_TZ in schedule`), and an \
object that has both (created before 1.29) runs in the prefix's zone: the controller ignores \
`spec.timeZone` whenever the schedule contains \"TZ\".",
    remediation: "Move the zone to `spec.timeZone` and drop the prefix, in one change (the \
finding gives the exact patch). The run times stay the same.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: tokyo-report, namespace: finance}
spec:
  schedule: "CRON_TZ=Asia/Tokyo 0 9 * * 1-5"
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
metadata: {name: tokyo-report, namespace: finance}
spec:
  schedule: "0 9 * * 1-5"
  timeZone: Asia/Tokyo
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

const ON_CREATE: &str = "cannot use TZ or CRON_TZ in schedule, use timeZone field instead";
const BOTH: &str = "cannot use both timeZone field and TZ or CRON_TZ in schedule";

/// `(prefix zone name, schedule after the prefix)` as robfig splits them; None without a
/// prefix or without the space robfig needs (it panics then: invalid-schedule says so).
pub(super) fn split_prefix(raw: &str) -> Option<(&str, &str)> {
    if !(raw.starts_with("TZ=") || raw.starts_with("CRON_TZ=")) {
        return None;
    }
    let sp = raw.find(' ')?;
    let eq = raw.find('=')?;
    Some((&raw[eq + 1..sp], raw[sp..].trim()))
}

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let Some(raw) = cj.spec.schedule.as_deref().filter(|s| s.contains("TZ")) else {
        return Vec::new();
    };
    if (raw.starts_with("TZ=") || raw.starts_with("CRON_TZ=")) && !raw.contains(' ') {
        return Vec::new(); // robfig panics: invalid-schedule reports it
    }
    let features = ctx.replay.kube_version.features();
    let q = go_quote(raw);
    let tz = cj.spec.time_zone.as_deref();
    let live = is_live(cj);
    let prefix = split_prefix(raw);
    // The zone the schedule runs in today, and the one to write into spec.timeZone.
    let (runs_in, target) = match prefix {
        Some(("", _)) => (Some("UTC".to_string()), Some("UTC".to_string())),
        Some(("Local", _)) => (
            Some(format!(
                "the controller's zone ({})",
                ctx.controller_zone_name
            )),
            None,
        ),
        Some((z, _)) if schedule::load_location(z).is_ok() => {
            (Some(z.to_string()), Some(z.to_string()))
        }
        Some((z, _)) => (None, zone_suggestion(z)),
        None => (None, None),
    };
    let zone_text = match (&runs_in, prefix) {
        (Some(z), _) => z.clone(),
        (None, Some((z, _))) => {
            format!("no zone at all (robfig cannot load {z:?}, so it never runs)")
        }
        (None, None) => String::new(),
    };
    let mut message = match (prefix, tz) {
        (None, _) => format!(
            "spec.schedule {q} contains \"TZ\" but not as a leading TZ=/CRON_TZ= prefix: the controller ignores spec.timeZone for it and robfig cannot parse it."
        ),
        (Some(_), Some(t)) => format!(
            "The schedule's prefix sets the zone and spec.timeZone is also set ({}): the controller ignores spec.timeZone and runs it in {zone_text}.",
            go_quote(t)
        ),
        (Some(_), None) if runs_in.is_some() => format!(
            "The schedule carries its own zone: it runs in {zone_text}, but TZ=/CRON_TZ= prefixes are not supported."
        ),
        (Some((z, _)), None) => format!(
            "The schedule carries its own zone prefix ({z:?}), which robfig cannot load (see invalid-schedule); TZ=/CRON_TZ= prefixes are not supported anyway."
        ),
    };
    message.push_str(if features.tz_in_schedule_rejected_on_create {
        " The API server rejects creating it (1.29+)."
    } else {
        " From Kubernetes 1.29 on the API server rejects creating it."
    });
    let mut f = Finding::new(&RULE, message).field("spec.schedule");
    // A manifest the API server of the target release refuses to create is an error; before
    // 1.29 (and for an object that already exists) it is accepted with a warning event.
    if features.tz_in_schedule_rejected_on_create && !live && prefix.is_some() {
        f = f
            .severity(Severity::Error)
            .headline("cannot be created: spec.schedule has a TZ=/CRON_TZ= prefix, which the API server rejects since 1.29 (use spec.timeZone)");
    }
    if tz.is_some() {
        f = f.severity(Severity::Error);
        f = f.headline(match (live, prefix) {
            (true, Some(_)) => format!(
                "runs in {zone_text} from its schedule's TZ= prefix: spec.timeZone {} is ignored",
                go_quote(tz.unwrap_or_default())
            ),
            _ => {
                "cannot be created: spec.schedule contains TZ and spec.timeZone is set".to_string()
            }
        });
    }
    f = f.evidence(format!(
        "API server (create): {}",
        invalid("spec.schedule", raw, ON_CREATE)
    ));
    if tz.is_some() {
        f = f.evidence(format!(
            "API server (adding timeZone to an existing TZ schedule): {}",
            invalid("spec.schedule", raw, BOTH)
        ));
    }
    if features.unsupported_schedule_event != UnsupportedScheduleEvent::Never {
        f = f.evidence(format!(
            "controller (every sync): Warning UnsupportedSchedule CRON_TZ or TZ used in schedule {q} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"
        ));
    }
    match (prefix, &target) {
        (Some((_, rest)), Some(zone)) => {
            let mut fix = format!(
                "Move the zone to spec.timeZone: schedule {} and timeZone {zone}",
                go_quote(rest)
            );
            if let Some(t) = tz.filter(|t| *t != zone) {
                fix.push_str(&format!(
                    " (keeps today's zone; write {t} instead if that is the one you meant)"
                ));
            }
            fix.push('.');
            f = f.fix(fix);
            // The fix plan turns this into an edit of the file, not a `kubectl patch`, when the
            // API server would refuse the manifest (see `report::fix`).
            f = f.patch(serde_json::json!({"spec": {"schedule": rest, "timeZone": zone}}));
        }
        (Some(("Local", rest)), None) => {
            f = f.fix(format!("Drop the prefix (schedule {}): TZ=Local is the controller's zone anyway; set spec.timeZone to name it.", go_quote(rest)));
        }
        _ => f = f.fix(
            "Write the five fields alone in spec.schedule and the IANA zone name in spec.timeZone.",
        ),
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run, run_with};
    use super::{RULE, split_prefix};
    use crate::replay::KubeVersion;
    use crate::rules::Severity;

    #[test]
    fn severity_follows_the_target_release() {
        // 1.29+ rejects creating the manifest: an error with a "cannot be created" headline.
        let r = run(RULE.fires_on, RULE.example_now);
        assert_eq!(findings(&r, "tz-in-schedule")[0].severity, Severity::Error);
        assert!(
            r.cron_jobs[0].headline.contains("cannot be created"),
            "{}",
            r.cron_jobs[0].headline
        );
        // 1.28 accepts it (with an UnsupportedSchedule warning on every sync).
        let r = run_with(RULE.fires_on, RULE.example_now, KubeVersion::new(28));
        assert_eq!(
            findings(&r, "tz-in-schedule")[0].severity,
            Severity::Warning
        );
        // An object that already exists keeps working on 1.29+: updates keeping TZ are allowed.
        let live = RULE.fires_on.replace(
            "namespace: finance}",
            "namespace: finance, uid: u1, creationTimestamp: \"2026-01-01T00:00:00Z\"}",
        );
        let r = run(&live, RULE.example_now);
        assert_eq!(
            findings(&r, "tz-in-schedule")[0].severity,
            Severity::Warning
        );
    }

    /// The example as read from a cluster (it exists, whatever the API server now accepts).
    fn live(yaml: &str) -> String {
        yaml.replace(
            "namespace: finance}",
            "namespace: finance, uid: u1, creationTimestamp: \"2026-01-01T00:00:00Z\"}",
        )
    }

    #[test]
    fn no_patch_command_for_an_object_that_cannot_exist() {
        // 1.29+ refuses to create it: there is nothing in the cluster to patch; the file is
        // what to fix, and the remediation still says how.
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "tz-in-schedule");
        assert_eq!(f[0].command, None);
        // The patch is still data (the file edit: the plan's patch and SARIF's fix) ...
        assert!(f[0].remedy.patch.is_some());
        assert!(
            f[0].remediation.contains("Move the zone to spec.timeZone"),
            "{}",
            f[0].remediation
        );
        // ... but the plan says to edit the file, and no command is a `kubectl patch`.
        let plan = &r.cron_jobs[0].fix;
        assert!(plan.patch.is_some(), "{plan:?}");
        assert!(
            plan.commands
                .iter()
                .all(|c| !c.command.contains("kubectl patch"))
                && plan
                    .commands
                    .iter()
                    .any(|c| c.command.starts_with("# edit example.yaml:")),
            "{plan:?}"
        );
        // With spec.timeZone too, no release creates it.
        let both = RULE.fires_on.replace(
            "schedule: \"CRON_TZ=Asia/Tokyo 0 9 * * 1-5\"",
            "schedule: \"CRON_TZ=Asia/Tokyo 0 9 * * 1-5\"\n  timeZone: Asia/Tokyo",
        );
        let r = run_with(&both, RULE.example_now, KubeVersion::new(28));
        assert_eq!(findings(&r, "tz-in-schedule")[0].command, None);
        // 1.28 creates it (with a warning event): the patch is offered for it.
        let r = run_with(RULE.fires_on, RULE.example_now, KubeVersion::new(28));
        assert!(
            findings(&r, "tz-in-schedule")[0]
                .command
                .as_deref()
                .is_some_and(|c| c.starts_with("kubectl patch cronjob tokyo-report -n finance"))
        );
        // An existing object gets it even when both are set.
        let r = run(&live(&both), RULE.example_now);
        assert!(findings(&r, "tz-in-schedule")[0].command.is_some());
    }

    #[test]
    fn moves_the_zone_to_the_field() {
        let live = live(RULE.fires_on);
        let r = run(&live, RULE.example_now);
        let f = findings(&r, "tz-in-schedule");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(
            f[0].command.as_deref(),
            Some(
                r#"kubectl patch cronjob tokyo-report -n finance --type merge -p '{"spec":{"schedule":"0 9 * * 1-5","timeZone":"Asia/Tokyo"}}'"#
            )
        );
        // Spec E.1 P12 and B.10: exact texts.
        assert!(f[0].evidence.contains(
            &r#"API server (create): spec.schedule: Invalid value: "CRON_TZ=Asia/Tokyo 0 9 * * 1-5": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"#.to_string()
        ));
        assert!(f[0].evidence.iter().any(|e| e.contains(r#"UnsupportedSchedule CRON_TZ or TZ used in schedule "CRON_TZ=Asia/Tokyo 0 9 * * 1-5" is not officially supported"#)));
        assert!(
            !r.cron_jobs[0].headline.contains("cannot"),
            "{}",
            r.cron_jobs[0].headline
        );
    }

    #[test]
    fn with_time_zone_it_is_an_error_and_the_prefix_wins() {
        let yaml = RULE.fires_on.replace(
            "schedule: \"CRON_TZ=Asia/Tokyo 0 9 * * 1-5\"",
            "schedule: \"TZ=Asia/Tokyo 0 9 * * 1-5\"\n  timeZone: Europe/Berlin",
        );
        let r = run(&yaml, RULE.example_now);
        let f = findings(&r, "tz-in-schedule");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message
                .contains("ignores spec.timeZone and runs it in Asia/Tokyo"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].evidence.iter().any(
                |e| e.ends_with("cannot use both timeZone field and TZ or CRON_TZ in schedule")
            )
        );
        assert_eq!(
            r.cron_jobs[0].headline,
            "tokyo-report cannot be created: spec.schedule contains TZ and spec.timeZone is set"
        );
    }

    #[test]
    fn prefix_edge_cases() {
        assert_eq!(split_prefix("TZ= * * * * *"), Some(("", "* * * * *")));
        assert_eq!(
            split_prefix("CRON_TZ=UTC  @daily "),
            Some(("UTC", "@daily"))
        );
        assert_eq!(split_prefix("TZ=UTC"), None);
        assert_eq!(split_prefix("0 0 * * * TZ=UTC"), None);
        let bad = live(RULE.fires_on).replace("Asia/Tokyo", "asia/tokyo");
        let f = run(&bad, RULE.example_now);
        let f = findings(&f, "tz-in-schedule");
        assert!(
            f[0].message.contains("which robfig cannot load"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].command
                .as_deref()
                .unwrap()
                .contains(r#""timeZone":"Asia/Tokyo""#)
        );
        let empty_zone = live(RULE.fires_on).replace("CRON_TZ=Asia/Tokyo", "TZ=");
        let f = run(&empty_zone, RULE.example_now);
        assert!(
            findings(&f, "tz-in-schedule")[0]
                .command
                .as_deref()
                .unwrap()
                .contains(r#""timeZone":"UTC""#)
        );
    }
}
