//! Controller replay: what the Kubernetes CronJob controller decides in ONE sync of one
//! CronJob, as a pure function of the snapshot, `now`, the controller's Local zone and the
//! Kubernetes release. A replay that disagrees with the real controller is worse than none,
//! so the arithmetic is restated step by step (see `estimate`, `gotime`) rather than
//! approximated, and every approximation is listed in [`Replay::notes`] and below.
//!
//! Order of a sync (B.2/B.3 of `shared/reference/kubernetes-cronjob-semantics.md`):
//! history cleanup (≥1.29; after the sync before), reconcile jobs vs `status.active`, gates
//! (deletion, unknown timeZone, suspend, parse), due slot, deadline, already processed,
//! Forbid/Replace, create, requeue computed with the NEW `lastScheduleTime`.
//!
//! # Verified in the Kubernetes source (read via the code index)
//! * `pkg/controller/cronjob/cronjob_controllerv2.go` @ 003e86297d18a8538c9da3619871393f9703bf70
//!   (newest: cleanup before sync, `condition:` text, AlreadyExists adoption, UnknownTimeZone
//!   before suspend, formatSchedule before parse) and @ 67a06c20568db0f7b3a3b48ec564929b625e875a
//!   (`status:` text, `IsJobSucceeded` outside active only); 1.25 (index 456131352: gated
//!   timeZone, linear estimate, requeue from lastScheduleTime, cleanup after the sync,
//!   AlreadyExists → error); 1.23 (index 1240455976: UnsupportedSchedule after the parse,
//!   status written before the gates, requeue `Next(now)`).
//! * `pkg/controller/cronjob/utils.go`: newest (index 390136215: window iteration, none/few/
//!   many, annotation in `spec.timeZone` or UTC, `Unix()/60` names); 1.21–1.24 (index
//!   1366508625: `earliest > now` → nil, linear `time.Unix(...).UTC()`, "less than" without
//!   "is", count in TooManyMissedTimes); 1.25 (index 456131352).
//! * v1: `cronjob_controller.go` @ 1bdbc35994c02b534e3e5c08ffa957ec31a58b1d (syncOne order,
//!   silent Forbid, FailedNeedsStart, FailedCreate on any create error, cleanup after) and the
//!   unmet-times loop in `utils.go` (lower-case "too many missed start time (> 100)" text).
//!
//! # Inferred, not verified (release boundaries)
//! * `condition:` vs `status:` and same-pass lastSuccessfulTime: assumed ≥1.31.
//! * Cleanup-before-sync: assumed ≥1.29 (#120649 merged Sept 2023). AlreadyExists adoption,
//!   written by the same PR, only works from 1.37 (#136920 in the v1.37.0-alpha.1 changelog;
//!   1.29–1.36 fetch the Job without a namespace and the sync errors).
//! * Jobs matched by controller kind and UID: 1.37 (#133313, v1.37.0-alpha.1 changelog).
//! * Panicking schedules recovered (#134526, release note NONE): seen in 1.36 sources, 1.35
//!   not verified, so modelled from 1.36.
//! * Minors newer than [`KubeVersion::NEWEST`] (1.37) replay as 1.37, with a note.
//! * `is less than` in the gap error: assumed ≥1.25 (#110838, July 2022), older: without.
//! * TooManyMissedTimes without the count: ≥1.28 (#118940 switched to a bool).
//! * Patch releases map by minor only (see [`KubeVersion::variant`]).
//!
//! # Approximations
//! * The API GETs the controller does (re-reading the CronJob before `UnexpectedJob`, the Job
//!   before `MissingJob`, the Job before a Replace delete, the create) are answered from the
//!   snapshot; deletes and creates are assumed to succeed unless the snapshot shows a name
//!   collision (AlreadyExists).
//! * ≤1.21 vendored robfig/cron v1, not v3; we parse and evaluate with the v3 engine for all
//!   releases (error texts and `TZ=` handling may differ there).
//! * `spec.timeZone` on 1.24 is treated as gated off (the default); 1.21/1.22 can be switched
//!   back to the v1 controller with `CronJobControllerV2=false`, which we do not model.

mod estimate;
mod gotime;
mod output;
mod reconcile;
pub mod slot_memo;
mod slot_runs;
mod slots;
mod sync;
mod v1;
mod version;

pub use output::{ActiveRef, ControllerEvent, CreateOutcome, Decision, MissedSchedules, Replay};
pub use reconcile::{controlled_by, owned_jobs};
pub use slots::{EffectiveSchedule, ScheduleProblem};
pub use version::{
    ControllerVariant, Features, KubeVersion, LastSuccessfulRule, SawCompletedText,
    TimeZoneSupport, UnsupportedScheduleEvent, VersionParseError,
};

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::model::{CronJob, Job, namespace_of};
use estimate::Anchor;
use gotime::{GoTime, whole_seconds};
use reconcile::SyncState;

/// Everything one sync depends on.
#[derive(Clone, Copy, Debug)]
pub struct ReplayInput<'a> {
    pub cron_job: &'a CronJob,
    /// The Jobs of the snapshot (all of them, or the CronJob's namespace, or already owned
    /// ones: ownership is filtered here exactly as the controller does). `None` when there is
    /// no job evidence: reconciliation, history cleanup and name collisions are then skipped.
    pub jobs: Option<&'a [Job]>,
    /// The instant the sync runs (sub-second precision matters for requeue delays).
    pub now: Timestamp,
    /// The kube-controller-manager's Local zone (schedules without timeZone run in it).
    pub controller_zone: &'a TimeZone,
    pub version: KubeVersion,
}

impl<'a> ReplayInput<'a> {
    /// Newest release, controller in UTC.
    pub fn new(cron_job: &'a CronJob, jobs: Option<&'a [Job]>, now: Timestamp) -> Self {
        static UTC: TimeZone = TimeZone::UTC;
        ReplayInput {
            cron_job,
            jobs,
            now,
            controller_zone: &UTC,
            version: KubeVersion::NEWEST,
        }
    }
}

/// Replay one sync of `input.cron_job`.
pub fn replay(input: &ReplayInput) -> Replay {
    let cj = input.cron_job;
    let ns = namespace_of(&cj.meta.namespace);
    let ns_jobs = input.jobs.map(|js| {
        js.iter()
            .filter(|j| namespace_of(&j.meta.namespace) == ns)
            .collect()
    });
    let children = input
        .jobs
        .map(|js| owned_jobs(cj, js, input.version.features()))
        .unwrap_or_default();
    replay_sorted(input, ns_jobs, children)
}

/// [`replay`] with the Jobs already sorted out by the caller, who looks them up in an index
/// instead of filtering every Job of the snapshot once per CronJob (a scan replays thousands
/// of CronJobs against one namespace's Jobs). `input.jobs` is not read: `ns_jobs` stands for
/// it, the Jobs in the CronJob's namespace (`default` for an empty one) in snapshot order, or
/// None without job evidence; `children`: those of them [`owned_jobs`] gives, in that order.
pub fn replay_sorted<'a>(
    input: &ReplayInput<'a>,
    ns_jobs: Option<Vec<&'a Job>>,
    children: Vec<&'a Job>,
) -> Replay {
    let cj = input.cron_job;
    let f = input.version.features();
    let v1 = f.variant == ControllerVariant::V1Legacy;
    let now = GoTime::local(input.now);
    let mut notes = Vec::new();
    if ns_jobs.is_none() {
        notes.push(
            "no job evidence: reconciliation, history cleanup and AlreadyExists detection skipped"
                .into(),
        );
    }
    let creation = cj
        .meta
        .creation_timestamp
        .map(|t| GoTime::local(whole_seconds(t)));
    let last_schedule = cj
        .status
        .last_schedule_time
        .map(|t| GoTime::local(whole_seconds(t)));
    if creation.is_none() {
        // Only manifests lack it; an object the API server stored always has one. Replaying
        // Go's zero time (year 1) would cost millions of Next calls to say nothing useful, so
        // the object is replayed as if it were created at `now`.
        notes.push("no creationTimestamp (manifest?): replayed as if created at now".into());
    }
    let anchor = Anchor {
        creation: creation.unwrap_or(GoTime::local(whole_seconds(input.now))),
        last_schedule,
        sds: cj.spec.starting_deadline_seconds,
    };
    let mut st = SyncState {
        cj,
        f,
        ns_jobs,
        children,
        active: cj
            .status
            .active
            .iter()
            .map(|a| ActiveRef {
                name: a.name.clone(),
                namespace: a.namespace.clone(),
                uid: a.uid.clone(),
            })
            .collect(),
        last_schedule,
        last_successful: cj.status.last_successful_time,
        events: Vec::new(),
        dirty: false,
        notes,
    };

    if f.cleanup_before_sync {
        reconcile::cleanup(&mut st);
    }
    reconcile::reconcile(&mut st);
    let mut r = if v1 {
        v1::sync_v1(&mut st, input.controller_zone, anchor, now)
    } else {
        sync::sync_v2(&mut st, input.controller_zone, anchor, now)
    };
    // The requeue computation runs the same slot loop and can hang on its own.
    if r.requeue.is_some_and(|q| q.hang) {
        r.requeue = None;
        r.hang = true;
    }
    if !f.cleanup_before_sync && (v1 || (r.sync_error.is_none() && !r.hang)) {
        reconcile::cleanup(&mut st);
    }
    finish(input, st, r, anchor, now)
}

/// Diagnostics (exact truth, deadline classification) and assembly of the output.
fn finish(
    input: &ReplayInput,
    mut st: SyncState,
    r: sync::SyncResult,
    anchor: Anchor,
    now: GoTime,
) -> Replay {
    let f = st.f;
    let ts = |t: Option<GoTime>| t.filter(|t| !t.is_zero()).map(|t| t.ts);
    let est = r.est.clone().unwrap_or_default();
    let mut decision = r.decision;
    let mut truth = slots::Truth::default();
    let mut due_ignoring_deadline = None;
    if let (Some(eff), true) = (&r.schedule, r.est.is_some()) {
        truth = slots::truth(eff, anchor.earliest(now, true), now);
        if anchor.sds.is_some() {
            due_ignoring_deadline = slots::truth(eff, anchor.earliest(now, false), now).most_recent;
        }
        if est.iter_capped {
            st.notes.push(
                "the controller's slot loop exceeded 1,000,000 iterations; replay stopped there"
                    .into(),
            );
        }
    }
    let estimate_failed = est.err.is_some() || r.hang;
    let window_miss =
        decision == Decision::NothingDue && !estimate_failed && truth.most_recent.is_some();
    if decision == Decision::NothingDue
        && truth.most_recent.is_none()
        && due_ignoring_deadline.is_some()
    {
        decision = Decision::MissedDeadline;
    }
    let wrong_slot = r
        .scheduled
        .is_some_and(|s| truth.most_recent.map(|t| t.ts) != Some(s.ts));
    if r.hang {
        st.notes.push(
            "the real controller never returns from this sync: its slot loop meets Go's zero time and restarts at year 1 (E36); the worker is stuck and the status is not written".into(),
        );
    }
    if let Some(p) = &r.panic {
        st.notes.push(format!("robfig/cron panics on this schedule ({p}); the controller worker panics instead of recording UnparseableSchedule"));
    }
    if r.time_zone_ignored {
        st.notes.push(format!(
            "spec.timeZone is ignored by Kubernetes {} (field {:?})",
            input.version, f.time_zone
        ));
    }
    if f.variant == ControllerVariant::V1Legacy || input.version.minor == 21 {
        st.notes.push(
            "this release vendored robfig/cron v1; parsing and Next are replayed with v3 semantics"
                .into(),
        );
    }
    let status_written = !r.hang && (f.status_always_written || st.dirty);
    let requeue = r.requeue.filter(|q| !q.hang);
    Replay {
        kube_version: input.version,
        variant: f.variant,
        decision,
        scheduled_time: r.scheduled.map(|s| s.ts),
        job_name: r.job_name,
        scheduled_timestamp_annotation: r.annotation,
        create_outcome: r.create_outcome,
        events: st.events,
        requeue_after_ms: requeue.map(|q| q.delay_ns / 1_000_000),
        requeue_base: requeue.and_then(|q| ts(Some(q.base))),
        polling_interval_ms: (f.variant == ControllerVariant::V1Legacy).then_some(v1::V1_POLL_MS),
        sync_error: r.sync_error,
        missed_schedules: est.missed,
        missed_estimate: est.n,
        earliest: est.earliest.map(|e| e.ts),
        t1: ts(est.t1),
        t2: ts(est.t2),
        gap_seconds: est.gap,
        window: est.window.map(|(a, b)| (a.ts, b.ts)),
        window_miss,
        wrong_slot,
        true_most_recent: truth.most_recent.map(|t| t.ts),
        true_missed_count: truth.count,
        true_missed_count_capped: truth.capped,
        due_ignoring_deadline: due_ignoring_deadline.map(|t| t.ts),
        active_after: st.active,
        last_schedule_time_after: st.last_schedule.map(|t| t.ts),
        last_successful_time_after: st.last_successful,
        status_written,
        controller_hangs: r.hang,
        controller_panic: r.panic,
        effective_schedule: r.formatted,
        time_zone_ignored: r.time_zone_ignored,
        notes: st.notes,
        schedule: r.schedule,
        chain_anchor: st.last_schedule.map(|t| t.ts).or(Some(anchor.creation.ts)),
        now: input.now,
    }
}
