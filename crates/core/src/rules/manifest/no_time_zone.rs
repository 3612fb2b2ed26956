//! CJD030 no-time-zone: no `spec.timeZone` (and no TZ prefix), so the schedule is evaluated in
//! the kube-controller-manager's local zone — usually UTC, but it is the cluster's choice and
//! can differ between clusters. Also flags a timeZone that this release ignores (before 1.25).

use super::common::controller_zone_for_patch;
use crate::rules::{Context, Finding, Rule, Severity};

pub static RULE: Rule = Rule {
    id: "CJD030",
    slug: "no-time-zone",
    severity: Severity::Info,
    summary: "No spec.timeZone: the schedule runs in the controller's time zone.",
    explanation: "Without `spec.timeZone` the controller evaluates the schedule in the local zone \
of the kube-controller-manager process (its `TZ` / `/etc/localtime`), which is UTC on most \
managed control planes but not guaranteed, and the same manifest can run at different hours on \
different clusters. `spec.timeZone` (GA in 1.27, beta and on by default in 1.25) makes the zone \
explicit; before 1.25 the field is ignored.",
    remediation: "Set `spec.timeZone` to the zone the times are meant in (an IANA name such as \
`Europe/Berlin`, or `UTC`).",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "0 3 * * *"
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
  schedule: "0 3 * * *"
  timeZone: Etc/UTC
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

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let Some(raw) = cj.spec.schedule.as_deref() else {
        return Vec::new();
    };
    // Only calendar schedules have a zone; a TZ schedule is tz-in-schedule's business.
    let Some(sched) = ctx.parsed() else {
        return Vec::new();
    };
    if raw.contains("TZ") || matches!(sched.kind, schedule::ScheduleKind::Every(_)) {
        return Vec::new();
    }
    let zone = ctx.controller_zone_name;
    let patch = serde_json::json!({"spec": {"timeZone": controller_zone_for_patch(ctx)}});
    match cj.spec.time_zone.as_deref() {
        None => vec![
            Finding::new(&RULE, format!("No spec.timeZone: {raw:?} runs in the controller's zone ({zone}); set spec.timeZone to make that explicit."))
                .field("spec.schedule")
                .fix(format!("Set spec.timeZone to the zone the times are meant in (the controller's is {zone})."))
                .patch(patch),
        ],
        Some(tz) if ctx.replay.time_zone_ignored && schedule::load_location(tz).is_ok() => vec![
            Finding::new(
                &RULE,
                format!(
                    "Kubernetes {} ignores spec.timeZone: {raw:?} runs in the controller's zone ({zone}), not in {tz}.",
                    ctx.replay.kube_version
                ),
            )
            .severity(Severity::Warning)
            .field("spec.timeZone")
            .fix("Upgrade to 1.25 or later for spec.timeZone, or write the schedule in the controller's zone."),
        ],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::examples::{findings, run, run_with};
    use super::RULE;
    use crate::replay::KubeVersion;

    #[test]
    fn names_the_controller_zone_and_patches_it_in() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "no-time-zone");
        assert_eq!(
            f[0].message,
            r#"No spec.timeZone: "0 3 * * *" runs in the controller's zone (UTC); set spec.timeZone to make that explicit."#
        );
        assert_eq!(
            f[0].command.as_deref(),
            Some(
                r#"kubectl patch cronjob backup -n ops --type merge -p '{"spec":{"timeZone":"UTC"}}'"#
            )
        );
        let every = RULE.fires_on.replace("0 3 * * *", "@every 1h");
        assert!(findings(&run(&every, RULE.example_now), "no-time-zone").is_empty());
    }

    #[test]
    fn ignored_time_zone_before_1_25() {
        let r = run_with(RULE.quiet_on, RULE.example_now, KubeVersion::new(24));
        let f = findings(&r, "no-time-zone");
        assert!(
            f[0].message.contains("ignores spec.timeZone"),
            "{}",
            f[0].message
        );
    }
}
