//! The replay's result: what the controller decided in one sync, and the arithmetic behind it.
//!
//! Serialises to the JSON contract (`serde::Serialize`): timestamps as RFC 3339 strings,
//! enums in kebab-case, `events[].type` for the event type.

use jiff::Timestamp;

use super::slots::EffectiveSchedule;
use super::version::{ControllerVariant, KubeVersion};

/// The outcome of the sync, one of a fixed vocabulary the renderers and rules key on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// `metadata.deletionTimestamp` set: only status is reconciled.
    BeingDeleted,
    /// `spec.timeZone` cannot be loaded by the controller (`UnknownTimeZone`).
    UnknownTimeZone,
    /// `spec.suspend: true`.
    Suspended,
    /// robfig rejected (or panicked on) the schedule; v1 reports it as `FailedNeedsStart`.
    UnparseableSchedule,
    /// The gap error (impossible date, >5-year gap), v1's `FailedNeedsStart` after more than
    /// 100 unmet times, or the E36 endless loop (`controller_hangs`).
    InvalidSchedule,
    /// No due slot; the controller waits for the requeue.
    NothingDue,
    /// A slot was due since lastScheduleTime/creation but `startingDeadlineSeconds` excludes
    /// it: silently nothing (MissSchedule only where the real code emits it).
    MissedDeadline,
    /// The due slot's job is already in `active`, or `lastScheduleTime` equals it.
    AlreadyProcessed,
    /// Forbid with a non-empty `active` list.
    ForbidBlocked,
    /// A job is created (Replace: after `SuccessfulDelete` events), or creation was attempted
    /// (see `create_outcome`).
    Create,
}

/// The controller's own (estimated) classification of missed slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MissedSchedules {
    #[default]
    None,
    Few,
    Many,
}

/// One event the controller records on the CronJob, in emission order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ControllerEvent {
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub type_: String,
    pub reason: String,
    pub message: String,
}

impl ControllerEvent {
    pub(crate) fn normal(reason: &str, message: impl Into<String>) -> Self {
        Self {
            type_: "Normal".into(),
            reason: reason.into(),
            message: message.into(),
        }
    }
    pub(crate) fn warning(reason: &str, message: impl Into<String>) -> Self {
        Self {
            type_: "Warning".into(),
            reason: reason.into(),
            message: message.into(),
        }
    }
}

/// What happened to the create request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CreateOutcome {
    /// `SuccessfulCreate`; the job joins `active` and `lastScheduleTime` advances.
    Created,
    /// ≥1.37: AlreadyExists, the existing job is ours and not in active: it is re-added and
    /// `lastScheduleTime` advances, without `SuccessfulCreate`.
    Adopted,
    /// 1.21–1.28: AlreadyExists is returned as an error (rate-limited retry, no requeue).
    AlreadyExistsError,
    /// 1.29–1.36: AlreadyExists, then the GET of the existing job is sent without a namespace
    /// and fails (kubernetes#136918): the sync returns that error (rate-limited retry, no
    /// requeue), whoever owns the job; nothing is adopted and `lastScheduleTime` stays.
    AlreadyExistsGetFailed,
    /// ≥1.37: AlreadyExists and the job is not controlled by this CronJob: nothing, no requeue.
    AlreadyExistsNotOwned,
    /// ≥1.37: AlreadyExists and the job is already in active (by UID): nothing, no requeue.
    AlreadyExistsInActive,
    /// v1: any create error, reported as `FailedCreate`.
    FailedCreate,
}

/// An entry of `status.active` after the sync. `uid` is empty for a job this sync created (the
/// API server assigns it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ActiveRef {
    pub name: String,
    pub namespace: String,
    pub uid: String,
}

/// The replay of one sync. Times are absolute instants.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Replay {
    pub kube_version: KubeVersion,
    pub variant: ControllerVariant,
    pub decision: Decision,
    /// The slot the controller acted on (create / already-processed / forbid-blocked / the
    /// unreachable MissSchedule branch).
    pub scheduled_time: Option<Timestamp>,
    /// The job name for `scheduled_time` (`<name>-<unix minutes>`; v1: unix seconds).
    pub job_name: Option<String>,
    /// `batch.kubernetes.io/cronjob-scheduled-timestamp` on the created job (≥1.28).
    pub scheduled_timestamp_annotation: Option<String>,
    pub create_outcome: Option<CreateOutcome>,
    pub events: Vec<ControllerEvent>,
    /// The `AddAfter` delay the sync returns, in milliseconds (truncated toward zero). Negative
    /// means "immediately" (the 1.28 hot loop). None: the key is dropped (or, v1, no queue).
    pub requeue_after_ms: Option<i64>,
    /// The time whose `Next` the requeue aims at (`Next(base) + 100ms − now`).
    pub requeue_base: Option<Timestamp>,
    /// v1 only: the controller re-lists everything every 10 s instead of requeueing.
    pub polling_interval_ms: Option<i64>,
    /// The error `sync` returns (rate-limited retry instead of a requeue), if any.
    pub sync_error: Option<String>,
    pub missed_schedules: MissedSchedules,
    /// The controller's estimated missed count `n = elapsed/gap + 1` (v1: exact unmet count,
    /// 101 meaning "more than 100"); None when the early branches returned before computing it.
    pub missed_estimate: Option<i64>,
    /// The earliest time the due-slot search starts from (lastScheduleTime, else creation,
    /// raised to `now − startingDeadlineSeconds`).
    pub earliest: Option<Timestamp>,
    /// `Next(earliest)` and `Next(t1)`; None for Go's zero time or when not computed.
    pub t1: Option<Timestamp>,
    pub t2: Option<Timestamp>,
    pub gap_seconds: Option<i64>,
    /// The scanned interval `(potentialEarliest, now]` (window-iteration variants).
    pub window: Option<(Timestamp, Timestamp)>,
    /// The true most recent slot in `(earliest, now]` exists but the estimate found none.
    pub window_miss: bool,
    /// The estimate picked a time that is not the true most recent slot (pre-#118724 linear
    /// extrapolation; may not even be a slot).
    pub wrong_slot: bool,
    /// Exact most recent slot in `(earliest, now]`, by bounded iteration.
    pub true_most_recent: Option<Timestamp>,
    /// Exact slot count in `(earliest, now]`, capped.
    pub true_missed_count: u64,
    pub true_missed_count_capped: bool,
    /// With startingDeadlineSeconds set: the most recent slot since lastScheduleTime/creation,
    /// ignoring the deadline (what `missed-deadline` refers to).
    pub due_ignoring_deadline: Option<Timestamp>,
    pub active_after: Vec<ActiveRef>,
    pub last_schedule_time_after: Option<Timestamp>,
    pub last_successful_time_after: Option<Timestamp>,
    /// Whether this sync writes the CronJob status.
    pub status_written: bool,
    /// The sync never returns (E36: the due-slot loop cycles through Go's zero time forever).
    pub controller_hangs: bool,
    /// robfig panicked while parsing (`TZ=UTC` without a space): upstream this panics in the
    /// worker; no UnparseableSchedule event is recorded.
    pub controller_panic: Option<String>,
    /// The string handed to robfig (`TZ=<zone> <schedule>` when spec.timeZone applies).
    pub effective_schedule: Option<String>,
    /// `spec.timeZone` is set but this release ignores it (field absent or gate off).
    pub time_zone_ignored: bool,
    /// Approximations and caveats that apply to this replay.
    pub notes: Vec<String>,
    #[serde(skip)]
    pub(crate) schedule: Option<EffectiveSchedule>,
    /// Where an `@every` chain starts: lastScheduleTime after this sync, else creation.
    /// `@every` is not clock-aligned, so its slots are `anchor + k·delay`, not `Next(now)`.
    #[serde(skip)]
    pub(crate) chain_anchor: Option<Timestamp>,
    #[serde(skip)]
    pub(crate) now: Timestamp,
}

/// `@every` slots: `anchor + k·delay` for k ≥ 1 (robfig's ConstantDelaySchedule chained from
/// the anchor, which the controller keeps in lastScheduleTime). Returns the delay and the index
/// of the last slot at or before `now` (0 when none yet).
fn every_chain(delay: i64, anchor: Timestamp, now: Timestamp) -> (i64, i64) {
    let a = anchor.as_second();
    let k = if now.as_second() < a {
        0
    } else {
        (now.as_second() - a) / delay
    };
    (delay, k)
}

impl Replay {
    /// Whether this sync starts (or adopts) the Job of its slot: the decision is to create and
    /// the create is not refused by a Job that already has the slot's name (AlreadyExists:
    /// an error before 1.37, another owner's Job at any release).
    pub fn creates_job(&self) -> bool {
        self.decision == Decision::Create
            && matches!(
                self.create_outcome,
                None | Some(CreateOutcome::Created | CreateOutcome::Adopted)
            )
    }

    /// The next `count` activations strictly after `now`, as the controller computes them
    /// (robfig `Next` in the controller's zone or `spec.timeZone`). Empty when the schedule
    /// could not be built (unknown zone, unparseable).
    pub fn next_schedule_times(&self, count: usize) -> Vec<Timestamp> {
        if let Some((anchor, delay)) = self.every() {
            let (d, k) = every_chain(delay, anchor, self.now);
            return (1..=count as i64)
                .filter_map(|i| {
                    Timestamp::from_second(anchor.as_second().checked_add((k + i).checked_mul(d)?)?)
                        .ok()
                })
                .collect();
        }
        // The controller never schedules at or before lastScheduleTime (E29: a future
        // lastScheduleTime hides every slot up to it).
        let from = self
            .last_schedule_time_after
            .map_or(self.now, |l| l.max(self.now));
        self.schedule
            .as_ref()
            .map(|s| s.next_times(from, count))
            .unwrap_or_default()
    }

    /// `(anchor, delay)` for an `@every` schedule.
    fn every(&self) -> Option<(Timestamp, i64)> {
        let s = self.schedule.as_ref()?;
        match s.schedule.kind {
            schedule::ScheduleKind::Every(c) => Some((self.chain_anchor?, c.delay_seconds.max(1))),
            schedule::ScheduleKind::Spec(_) => None,
        }
    }

    /// The last `count` activations at or before `now` (for a timeline), oldest first.
    pub fn last_slots(&self, count: usize) -> Vec<Timestamp> {
        if let Some((anchor, delay)) = self.every() {
            let (d, k) = every_chain(delay, anchor, self.now);
            let first = k - count as i64 + 1;
            return (first..=k)
                .filter_map(|i| {
                    Timestamp::from_second(anchor.as_second().checked_add(i.checked_mul(d)?)?).ok()
                })
                .collect();
        }
        self.schedule
            .as_ref()
            .map(|s| s.last_slots(self.now, count))
            .unwrap_or_default()
    }

    /// The effective schedule this replay used, for further slot enumeration.
    pub fn effective(&self) -> Option<&EffectiveSchedule> {
        self.schedule.as_ref()
    }
}
