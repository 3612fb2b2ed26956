//! CJD019 clock-skew: times in the status or on the Jobs that lie in the future. A future
//! `lastScheduleTime` (or creationTimestamp) moves the controller's search start past now, so
//! every slot up to it never runs (E29); future Job times point at a skewed node or API server.

use jiff::Timestamp;

use super::common::plural;
use crate::rules::{Context, Finding, Phase, Rule, Severity};
use crate::text::human_duration;

/// Below this, a future time is rounding or ordinary skew between the report's clock and the
/// cluster's, unless it already swallows a slot.
const TOLERANCE_SECONDS: i64 = 60;

pub static RULE: Rule = Rule {
    id: "CJD019",
    slug: "clock-skew",
    severity: Severity::Warning,
    summary: "lastScheduleTime, creationTimestamp or a Job's times lie in the future.",
    explanation: "The controller looks for due slots strictly after `lastScheduleTime` (or the \
creation time). When that time is in the future — a control-plane clock that ran ahead, a \
restored backup, a status written by hand — every slot up to it counts as already handled and \
**never runs**; the controller simply waits for the first slot after it (E29). Future Job \
timestamps point at the same problem on the API server or the evidence. If the times look right, \
the clock this report was evaluated with may be behind instead.",
    remediation: "Check NTP on the control-plane nodes. If `lastScheduleTime` itself is wrong, set \
it back to the latest slot that really ran, through the status subresource (kubectl ≥ 1.24): \
`kubectl patch cronjob NAME --subresource=status --type merge -p '{\"status\":{\"lastScheduleTime\":\"…\"}}'`.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  schedule: "*/5 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-01T10:30:00Z"}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  schedule: "*/5 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}}}
status: {lastScheduleTime: "2024-01-01T09:55:00Z"}
"#,
    example_now: "2024-01-01T10:00:00Z",
    check,
};

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let ahead = |t: Timestamp| t.as_second() - ctx.now.as_second();
    // The search start the controller uses, if it is in the future.
    let start = cj
        .status
        .last_schedule_time
        .map(|t| (t, "status.lastScheduleTime"))
        .or(cj
            .meta
            .creation_timestamp
            .map(|t| (t, "metadata.creationTimestamp")))
        .filter(|(t, _)| ahead(*t) > 0);
    let lost = start
        .and_then(|(t, _)| {
            ctx.replay
                .effective()
                .map(|e| e.slots_in(ctx.now, t, 10_000).0)
        })
        .unwrap_or_default();
    let mut future_jobs = Vec::new();
    for j in ctx.jobs.iter().chain(ctx.manual_jobs) {
        let times = [
            j.meta.creation_timestamp,
            j.status.start_time,
            j.status.completion_time,
        ];
        if let Some(t) = times
            .into_iter()
            .flatten()
            .filter(|t| ahead(*t) >= TOLERANCE_SECONDS)
            .max()
        {
            future_jobs.push(format!(
                "Job {} has a time {} in the future ({})",
                j.meta.name,
                human_duration(ahead(t)),
                ctx.show_time(t)
            ));
        }
    }
    let mut f = match start {
        // A few seconds ahead with one slot in between is the LST slot itself, run a moment early.
        Some((t, field)) if ahead(t) >= TOLERANCE_SECONDS || (ahead(t) >= 5 && lost.len() >= 2) => {
            let next = ctx.replay.effective().and_then(|e| e.next_after(t));
            let consequence = match (lost.first(), lost.last()) {
                (Some(a), Some(b)) if lost.len() > 1 => {
                    format!(
                        "the {} from {} to {} never run",
                        plural(lost.len(), "slot"),
                        ctx.show_time(*a),
                        ctx.show_time(*b)
                    )
                }
                (Some(a), _) => format!("the {} slot never runs", ctx.show_time(*a)),
                _ => "no slot is lost yet".to_string(),
            };
            let mut f = Finding::new(
                &RULE,
                format!(
                    "{field} ({}) is {} in the future: the controller treats every slot up to it as handled, so {consequence}{}.",
                    ctx.show_time(t),
                    human_duration(ahead(t)),
                    next.map(|n| format!("; the next run is {}", ctx.show_time(n))).unwrap_or_default()
                ),
            )
            .field(if field == "status.lastScheduleTime" { "status.lastScheduleTime" } else { "metadata.creationTimestamp" });
            // Slots are being swallowed right now: that is why it does not run.
            if !lost.is_empty() && !cj.spec.suspend {
                f = f.headline(format!(
                    "is not running: {field} is {} in the future (clock skew) — no run until {}",
                    human_duration(ahead(t)),
                    next.map(|n| ctx.show_time(n))
                        .unwrap_or_else(|| "it passes".into())
                ));
            }
            // Reset lastScheduleTime to the latest slot at or before now.
            if field == "status.lastScheduleTime"
                && let Some(prev) = ctx.replay.last_slots(1).first()
            {
                f = f.step(
                    Phase::Cleanup,
                    crate::text::shell_command([
                        "kubectl",
                        "patch",
                        "cronjob",
                        ctx.name(),
                        "-n",
                        ctx.namespace,
                        "--subresource=status",
                        "--type",
                        "merge",
                        "-p",
                        &serde_json::json!({"status": {"lastScheduleTime": crate::text::rfc3339(*prev)}})
                            .to_string(),
                    ]),
                    "reset lastScheduleTime to the latest slot that has passed, so the controller schedules from there",
                );
            }
            f
        }
        _ if !future_jobs.is_empty() => Finding::new(
            &RULE,
            format!(
                "{} of this CronJob carry timestamps in the future: a clock on the control plane (or the clock of this report) is off.",
                plural(future_jobs.len(), "Job")
            ),
        ),
        _ => return Vec::new(),
    };
    for line in future_jobs {
        f = f.evidence(line);
    }
    vec![f.fix("Fix the clock (NTP on the control-plane nodes); if lastScheduleTime is wrong, set it back to the latest slot that really ran")]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::replay::KubeVersion;
    use crate::rules::examples::{findings, run, run_with};

    #[test]
    fn e29_future_last_schedule_time_swallows_six_slots() {
        let r = run(RULE.fires_on, RULE.example_now);
        // E29: nothing; requeue to 10:35:00.1.
        assert_eq!(r.cron_jobs[0].controller.job_name, None);
        assert_eq!(
            r.cron_jobs[0].controller.requeue_after_ms,
            Some(35 * 60_000 + 100)
        );
        let f = findings(&r, "clock-skew");
        assert_eq!(
            f[0].message,
            "status.lastScheduleTime (2024-01-01 10:30 UTC) is 30m in the future: the controller treats every slot up to it as handled, so the 6 slots from 2024-01-01 10:05 UTC to 2024-01-01 10:30 UTC never run; the next run is 2024-01-01 10:35 UTC."
        );
        assert_eq!(
            r.cron_jobs[0].headline,
            "cj is not running: status.lastScheduleTime is 30m in the future (clock skew) — no run until 2024-01-01 10:35 UTC"
        );
        assert_eq!(
            f[0].command.as_deref(),
            Some(
                "kubectl patch cronjob cj -n default --subresource=status --type merge -p '{\"status\":{\"lastScheduleTime\":\"2024-01-01T10:00:00Z\"}}'"
            )
        );
        // 1.21–1.24 return early on `earliest > now`: the same slots are lost.
        let r = run_with(RULE.fires_on, RULE.example_now, KubeVersion::new(24));
        assert_eq!(r.cron_jobs[0].controller.job_name, None);
        assert!(
            findings(&r, "clock-skew")[0]
                .message
                .contains("the 6 slots from")
        );
    }

    #[test]
    fn future_job_times() {
        let yaml = format!(
            "{}---\napiVersion: batch/v1\nkind: Job\nmetadata: {{name: cj-1, namespace: default, creationTimestamp: \"2024-01-01T11:00:00Z\", ownerReferences: [{{apiVersion: batch/v1, kind: CronJob, name: cj, uid: u, controller: true}}]}}\n",
            RULE.quiet_on
        );
        let r = run(&yaml, RULE.example_now);
        let f = findings(&r, "clock-skew");
        assert_eq!(
            f[0].evidence,
            ["Job cj-1 has a time 1h in the future (2024-01-01 11:00 UTC)"]
        );
    }
}
