//! The whole of an `unsuspend`/`suspend`: the preview and the exact patches, in the order
//! they are sent. Kept pure so the IO layer only dry-runs, confirms and sends what is here,
//! and so "does exactly what the preview said" is a property of one value.
//!
//! `--skip-missed` is honoured only when it changes something: when, without it, the
//! controller would start a catch-up run. Otherwise (nothing missed, the deadline or the
//! window estimate already prevents the catch-up) moving `status.lastScheduleTime` would be a
//! write with no effect on what runs, so it is not sent.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::ScheduleZone;

use super::preview::{CatchUp, UnsuspendPreview, preview_unsuspend};
use super::suspend::{
    PlannedPatch, SuspendNote, skip_missed_patch, suspend_patch, unsuspend_patch,
};
use super::{SUSPEND_REASON, SUSPENDED_AT, SUSPENDED_BY};
use crate::model::{CronJob, Job};
use crate::replay::{KubeVersion, Replay};

/// What became of `--skip-missed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Not requested.
    NotAsked,
    /// status.lastScheduleTime is moved to this slot before resuming.
    Applied(Timestamp),
    /// Requested, but no catch-up run would start anyway: nothing is sent for it.
    NotNeeded,
}

#[derive(Clone, Debug)]
pub struct UnsuspendPlan {
    /// What happens after the patches below.
    pub preview: UnsuspendPreview,
    pub skip: Skip,
    /// A catch-up run starts and `--skip-missed` was not given: worth telling how to avoid it.
    pub suggest_skip: bool,
    /// In sending order (the status patch first, while the CronJob is still suspended, so the
    /// controller never sees it resumed with the old lastScheduleTime).
    pub patches: Vec<PlannedPatch>,
}

/// Our suspend annotations present on `cj` (so `unsuspend` removes exactly those).
pub fn our_annotations(cj: &CronJob) -> Vec<&'static str> {
    [SUSPENDED_BY, SUSPENDED_AT, SUSPEND_REASON]
        .into_iter()
        .filter(|k| cj.meta.annotations.contains_key(k))
        .collect()
}

/// The plan for `unsuspend`; None when `cj` is not suspended (nothing to do).
pub fn plan_unsuspend(
    cj: &CronJob,
    jobs: Option<&[Job]>,
    now: Timestamp,
    controller_zone: &TimeZone,
    version: KubeVersion,
    skip_missed: bool,
) -> Option<UnsuspendPlan> {
    if !cj.spec.suspend {
        return None;
    }
    let rv = cj.meta.resource_version.as_str();
    let resume = unsuspend_patch(rv, &our_annotations(cj));
    let plain = preview_unsuspend(cj, jobs, now, controller_zone, version, false);
    let runs = matches!(plain.catch_up, CatchUp::Runs { .. });
    if skip_missed && runs {
        let skipped = preview_unsuspend(cj, jobs, now, controller_zone, version, true);
        if let Some(slot) = skipped.skip_to {
            return Some(UnsuspendPlan {
                preview: skipped,
                skip: Skip::Applied(slot),
                suggest_skip: false,
                patches: vec![skip_missed_patch(rv, slot), resume],
            });
        }
    }
    Some(UnsuspendPlan {
        preview: plain,
        skip: if skip_missed {
            Skip::NotNeeded
        } else {
            Skip::NotAsked
        },
        suggest_skip: runs && !skip_missed,
        patches: vec![resume],
    })
}

/// The patch for `suspend`; None when `cj` is already suspended (nothing to do).
pub fn plan_suspend(cj: &CronJob, note: &SuspendNote) -> Option<PlannedPatch> {
    (!cj.spec.suspend).then(|| suspend_patch(&cj.meta.resource_version, note))
}

/// The zone to show a CronJob's times in: its spec.timeZone (or TZ= prefix), else the
/// controller's zone, as the controller evaluates the schedule.
pub fn display_zone(replay: &Replay, controller_zone: &TimeZone) -> TimeZone {
    match replay.effective().map(|e| &e.schedule.zone) {
        Some(ScheduleZone::Fixed(loc)) => loc.tz.clone(),
        _ => controller_zone.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cj(yaml: &str) -> CronJob {
        crate::source::parse_text("t.yaml", yaml)
            .cron_jobs
            .remove(0)
    }

    const SUSPENDED: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata:
  name: cj
  namespace: default
  resourceVersion: "41"
  creationTimestamp: "2024-01-01T00:00:00Z"
  annotations: {cronjob-doctor.io/suspended-by: alice}
spec:
  schedule: "0 * * * *"
  timeZone: Europe/Berlin
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}
status: {lastScheduleTime: "2024-01-01T08:00:00Z"}
"#;

    fn plan(yaml: &str, skip: bool) -> Option<UnsuspendPlan> {
        plan_unsuspend(
            &cj(yaml),
            None,
            "2024-01-01T11:20:00Z".parse().unwrap(),
            &TimeZone::UTC,
            KubeVersion::NEWEST,
            skip,
        )
    }

    #[test]
    fn resuming_removes_our_annotations_and_suggests_skipping_the_catch_up() {
        let p = plan(SUSPENDED, false).unwrap();
        assert_eq!(p.skip, Skip::NotAsked);
        assert!(p.suggest_skip);
        assert_eq!(p.patches.len(), 1);
        assert_eq!(
            p.patches[0].body,
            serde_json::json!({"metadata": {"resourceVersion": "41", "annotations": {SUSPENDED_BY: null}}, "spec": {"suspend": false}})
        );
    }

    #[test]
    fn skip_missed_sends_the_status_patch_first() {
        let p = plan(SUSPENDED, true).unwrap();
        let slot: Timestamp = "2024-01-01T11:00:00Z".parse().unwrap();
        assert_eq!(p.skip, Skip::Applied(slot));
        assert_eq!(p.patches[0].subresource, Some("status"));
        assert_eq!(
            p.patches[0].body["status"]["lastScheduleTime"],
            "2024-01-01T11:00:00Z"
        );
        assert_eq!(p.patches[1].subresource, None);
        assert_eq!(p.preview.catch_up, CatchUp::NothingMissed);
    }

    #[test]
    fn skip_missed_sends_nothing_extra_when_no_catch_up_would_run() {
        let yaml = SUSPENDED.replace(
            "  suspend: true",
            "  suspend: true\n  startingDeadlineSeconds: 600",
        );
        let p = plan(&yaml, true).unwrap();
        assert_eq!(p.skip, Skip::NotNeeded);
        assert_eq!(p.patches.len(), 1);
        assert!(!p.suggest_skip);
    }

    #[test]
    fn nothing_to_do_when_not_suspended() {
        assert!(plan(&SUSPENDED.replace("suspend: true", "suspend: false"), true).is_none());
        let running = cj(&SUSPENDED.replace("suspend: true", "suspend: false"));
        let note = SuspendNote {
            by: "bob",
            at: "2024-01-01T11:20:00Z".parse().unwrap(),
            reason: None,
        };
        assert!(plan_suspend(&running, &note).is_some());
        assert!(plan_suspend(&cj(SUSPENDED), &note).is_none());
    }

    #[test]
    fn times_show_in_the_schedules_zone() {
        let p = plan(SUSPENDED, false).unwrap();
        let z = display_zone(&p.preview.replay, &TimeZone::UTC);
        assert_eq!(z.iana_name(), Some("Europe/Berlin"));
    }
}
