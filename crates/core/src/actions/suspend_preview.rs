//! The preview and patches of `suspend` and `unsuspend` for one reading of the cluster: pure,
//! so that the IO layer's write loop (src/actions/patch.rs) only prints, dry-runs, asks and
//! sends what is here, and re-evaluates a fresh reading after a conflict the same way.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::bullets;
use super::plan::{Skip, display_zone, plan_suspend, plan_unsuspend};
use super::preview::describe;
use super::suspend::{PlannedPatch, SuspendNote};
use super::suspension::suspension;
use crate::model::{CronJob, Job};
use crate::replay::KubeVersion;
use crate::text::human_duration;

/// One reading of the cluster.
pub struct State {
    pub cj: CronJob,
    /// None when the command does not need them or may not list them.
    pub jobs: Option<Vec<Job>>,
    /// The API server's clock at the reading.
    pub now: Timestamp,
}

/// What a command makes of a reading.
pub struct Evaluation {
    /// Printed before anything is sent.
    pub preview: Vec<String>,
    /// Sent in order; empty when there is nothing to do.
    pub patches: Vec<PlannedPatch>,
    /// Said when `patches` is empty.
    pub nothing_to_do: String,
    /// `Suspend backup in ops now?`
    pub question: String,
    /// `suspended` / `resumed`, for the result line.
    pub done: &'static str,
}

fn schedule(cj: &CronJob) -> String {
    let s = cj.spec.schedule.as_deref().unwrap_or("(none)");
    match &cj.spec.time_zone {
        Some(tz) => format!("\"{s}\" in {tz}"),
        None => format!("\"{s}\""),
    }
}

/// The preview and patch of `suspend` for one reading.
pub fn evaluate_suspend(st: &State, ns: &str, by: &str, reason: Option<&str>) -> Evaluation {
    let cj = &st.cj;
    let name = &cj.meta.name;
    let note = SuspendNote {
        by,
        at: st.now,
        reason,
    };
    let mut preview = Vec::new();
    let patches: Vec<_> = plan_suspend(cj, &note).into_iter().collect();
    if !patches.is_empty() {
        preview.push(format!(
            "Suspend cronjob {ns}/{name} (schedule {}), as {by}{}:",
            schedule(cj),
            reason.map(|r| format!(", reason: {r}")).unwrap_or_default()
        ));
        let mut lines = vec![
            "no Job starts while it is suspended; Jobs already running are not stopped".to_string(),
        ];
        if !cj.status.active.is_empty() {
            let names: Vec<&str> = cj.status.active.iter().map(|a| a.name.as_str()).collect();
            lines.push(format!("({} keep running)", names.join(", ")));
        }
        lines.push(format!(
            "on resume the controller starts at most ONE missed slot, the latest: preview it with `kubectl cronjob-doctor unsuspend {name} -n {ns}`"
        ));
        preview.extend(bullets(&lines));
    }
    let already = suspension(cj)
        .map(|s| format!(" ({})", s.describe(st.now)))
        .unwrap_or_default();
    Evaluation {
        preview,
        patches,
        nothing_to_do: format!(
            "cronjob {ns}/{name} is already suspended{already}: nothing to do, nothing was changed."
        ),
        question: format!("Suspend {name} in {ns} now?"),
        done: "suspended",
    }
}

/// The preview and patches of `unsuspend` for one reading.
pub fn evaluate_unsuspend(
    st: &State,
    ns: &str,
    zone: &TimeZone,
    version: KubeVersion,
    skip_missed: bool,
) -> Evaluation {
    let cj = &st.cj;
    let name = &cj.meta.name;
    let mut preview = Vec::new();
    let plan = plan_unsuspend(cj, st.jobs.as_deref(), st.now, zone, version, skip_missed);
    let mut nothing =
        format!("cronjob {ns}/{name} is not suspended: nothing to do, nothing was changed.");
    if skip_missed {
        nothing.push_str(" (--skip-missed applies only when resuming.)");
    }
    let Some(plan) = plan else {
        return Evaluation {
            preview,
            patches: Vec::new(),
            nothing_to_do: nothing,
            question: String::new(),
            done: "resumed",
        };
    };
    let since = match suspension(cj) {
        Some(s) => format!("{name} was {}", s.describe(st.now)),
        None => format!("{name} is suspended"),
    };
    preview.push(format!("{since}. If you resume it now:"));
    let tz = display_zone(&plan.preview.replay, zone);
    preview.extend(bullets(&describe(&plan.preview, cj, st.now, &tz)));
    if st.jobs.is_none() {
        preview.push(
            "  (Jobs could not be listed (forbidden): the preview assumes none of its Jobs is running)"
                .into(),
        );
    }
    if plan.suggest_skip {
        preview.push(
            "Resume without the catch-up run: add --skip-missed (advances status.lastScheduleTime; needs patch on cronjobs/status)."
                .into(),
        );
    }
    match plan.skip {
        Skip::NotNeeded => preview.push(
            "--skip-missed: no catch-up run would start, so status.lastScheduleTime is left alone."
                .into(),
        ),
        Skip::Applied(slot) => preview.push(format!(
            "--skip-missed: the {} slot ({} ago) will never run.",
            crate::text::show_time(slot, &tz),
            human_duration(st.now.as_second() - slot.as_second())
        )),
        Skip::NotAsked => {}
    }
    Evaluation {
        preview,
        patches: plan.patches,
        nothing_to_do: nothing,
        question: format!("Resume {name} now?"),
        done: "resumed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(suspend: bool) -> State {
        let yaml = format!(
            r#"
apiVersion: batch/v1
kind: CronJob
metadata: {{name: sync, namespace: ops, uid: u1, resourceVersion: "7"}}
spec:
  schedule: "0 * * * *"
  suspend: {suspend}
  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: i}}]}}}}}}}}
status:
  active: [{{name: sync-29919600, namespace: ops, uid: j1}}]
"#
        );
        State {
            cj: crate::source::parse_text("t.yaml", &yaml)
                .cron_jobs
                .remove(0),
            jobs: None,
            now: "2026-11-20T12:05:00Z".parse().unwrap(),
        }
    }

    #[test]
    fn suspending_says_what_keeps_running_and_how_to_preview_the_resume() {
        let e = evaluate_suspend(&reading(false), "ops", "ana", Some("migration"));
        assert_eq!(
            e.preview,
            [
                "Suspend cronjob ops/sync (schedule \"0 * * * *\"), as ana, reason: migration:",
                "  • no Job starts while it is suspended; Jobs already running are not stopped",
                "    (sync-29919600 keep running)",
                "  • on resume the controller starts at most ONE missed slot, the latest: preview it with `kubectl cronjob-doctor unsuspend sync -n ops`",
            ]
        );
        assert_eq!(e.patches.len(), 1);
        assert_eq!(e.question, "Suspend sync in ops now?");
        // Already suspended: nothing to send.
        let e = evaluate_suspend(&reading(true), "ops", "ana", None);
        assert!(e.preview.is_empty() && e.patches.is_empty());
        assert!(
            e.nothing_to_do
                .starts_with("cronjob ops/sync is already suspended")
        );
    }

    #[test]
    fn resuming_a_running_cron_job_is_nothing_to_do() {
        let e = evaluate_unsuspend(
            &reading(false),
            "ops",
            &TimeZone::UTC,
            KubeVersion::NEWEST,
            true,
        );
        assert!(e.patches.is_empty());
        assert_eq!(
            e.nothing_to_do,
            "cronjob ops/sync is not suspended: nothing to do, nothing was changed. (--skip-missed applies only when resuming.)"
        );
    }
}
