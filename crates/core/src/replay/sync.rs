//! Steps 2–8 of a v2 sync (`syncCronJob` after reconciliation): the gates, the due slot, the
//! deadline, "already processed", concurrency, and the create.
//!
//! Verified against `cronjob_controllerv2.go` at 003e86297d18a8538c9da3619871393f9703bf70
//! (newest), 67a06c20568db0f7b3a3b48ec564929b625e875a (≈1.30), index ids 456131352 (1.25,
//! gated timeZone) and 1240455976 (1.23: UnsupportedSchedule after the parse, no timeZone).

use jiff::tz::TimeZone;

use super::estimate::{self, Anchor, Estimate, Requeue};
use super::gotime::{GoTime, go_quote, rfc1123z_in, rfc3339_in, seconds_duration};
use super::output::{ActiveRef, ControllerEvent, CreateOutcome, Decision, MissedSchedules};
use super::reconcile::SyncState;
use super::slots::{EffectiveSchedule, format_schedule, honoured_time_zone};
use super::version::{ControllerVariant, UnsupportedScheduleEvent};
use crate::model::{ConcurrencyPolicy, namespace_of};

/// What the scheduling half of a sync produced.
#[derive(Clone, Debug)]
pub(crate) struct SyncResult {
    pub decision: Decision,
    pub scheduled: Option<GoTime>,
    pub job_name: Option<String>,
    pub annotation: Option<String>,
    pub create_outcome: Option<CreateOutcome>,
    pub requeue: Option<Requeue>,
    pub sync_error: Option<String>,
    pub hang: bool,
    pub panic: Option<String>,
    /// The estimate `nextScheduleTime` used (startingDeadlineSeconds applied).
    pub est: Option<Estimate>,
    pub schedule: Option<EffectiveSchedule>,
    /// The string handed to robfig (also when it failed to parse).
    pub formatted: Option<String>,
    pub time_zone_ignored: bool,
}

impl SyncResult {
    pub fn new(decision: Decision) -> Self {
        SyncResult {
            decision,
            scheduled: None,
            job_name: None,
            annotation: None,
            create_outcome: None,
            requeue: None,
            sync_error: None,
            hang: false,
            panic: None,
            est: None,
            schedule: None,
            formatted: None,
            time_zone_ignored: false,
        }
    }

    fn done(mut self, decision: Decision) -> Self {
        self.decision = decision;
        self
    }
}

pub(crate) const TOO_MANY_TAIL: &str =
    "Set or decrease .spec.startingDeadlineSeconds or check clock skew";

/// `<name>-<unix minutes>` (v2) or `<name>-<unix seconds>` (v1); Go's `/` truncates to zero.
pub(crate) fn job_name(cj_name: &str, scheduled: GoTime, v1: bool) -> String {
    let s = scheduled.unix();
    format!("{cj_name}-{}", if v1 { s } else { s / 60 })
}

/// The v2 sync from the deletion gate on. `anchor` carries creation/lastScheduleTime/sds.
pub(crate) fn sync_v2(
    st: &mut SyncState,
    zone: &TimeZone,
    anchor: Anchor,
    now: GoTime,
) -> SyncResult {
    let cj = st.cj;
    let f = st.f;
    let mut r = SyncResult::new(Decision::BeingDeleted);
    let tz = honoured_time_zone(cj, &f);
    r.time_zone_ignored = cj.spec.time_zone.is_some() && tz.is_none();
    if cj.meta.deletion_timestamp.is_some() {
        return r;
    }
    if let Some(tz) = tz
        && let Err(e) = schedule::load_location(tz)
    {
        let msg = format!("invalid timeZone: {}: {e}", go_quote(tz));
        st.events
            .push(ControllerEvent::warning("UnknownTimeZone", msg));
        return r.done(Decision::UnknownTimeZone);
    }
    if cj.spec.suspend {
        return r.done(Decision::Suspended);
    }
    let raw = cj.spec.schedule.as_deref().unwrap_or("");
    let unsupported = || {
        ControllerEvent::warning(
            "UnsupportedSchedule",
            format!(
                "CRON_TZ or TZ used in schedule {} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details",
                go_quote(raw)
            ),
        )
    };
    if f.unsupported_schedule_event == UnsupportedScheduleEvent::BeforeParse && raw.contains("TZ") {
        st.events.push(unsupported());
    }
    let formatted = format_schedule(raw, tz);
    r.formatted = Some(formatted.clone());
    let sched = match schedule::parse_standard(&formatted) {
        Ok(s) => s,
        Err(e) if e.panics && !f.schedule_panic_recovered => {
            r.panic = Some(e.message);
            return r.done(Decision::UnparseableSchedule);
        }
        Err(e) => {
            let why = if e.panics {
                format!("invalid schedule format: {}", e.message)
            } else {
                e.message
            };
            let msg = format!("unparseable schedule: {} : {why}", go_quote(raw));
            st.events
                .push(ControllerEvent::warning("UnparseableSchedule", msg));
            return r.done(Decision::UnparseableSchedule);
        }
    };
    if f.unsupported_schedule_event == UnsupportedScheduleEvent::AfterParse && raw.contains("TZ") {
        st.events.push(unsupported());
    }
    let eff = EffectiveSchedule {
        formatted,
        schedule: sched,
        controller_zone: zone.clone(),
    };
    r.schedule = Some(eff.clone());
    let clock = eff.clock();

    let (scheduled, est) = next_schedule_time(st, &clock, &anchor, now);
    let err = est.err.clone();
    let hang = est.hang;
    r.est = Some(est);
    if hang {
        r.hang = true;
        return r.done(Decision::InvalidSchedule);
    }
    let requeue = |st: &SyncState| {
        let a = Anchor {
            last_schedule: st.last_schedule,
            ..anchor
        };
        estimate::requeue(f.variant, &clock, &a, now, f.gap_error_has_is)
    };
    let Some(scheduled) = scheduled else {
        if let Some(err) = err {
            let msg = format!("invalid schedule: {raw} : {err}");
            st.events
                .push(ControllerEvent::warning("InvalidSchedule", msg));
            return r.done(Decision::InvalidSchedule);
        }
        r.requeue = requeue(st);
        return r.done(Decision::NothingDue);
    };
    r.scheduled = Some(scheduled);
    let name = job_name(&cj.meta.name, scheduled, false);
    r.job_name = Some(name.clone());

    // Unreachable in practice (N2): every candidate lies after now − sds.
    if let Some(sds) = cj.spec.starting_deadline_seconds
        && scheduled
            .add_nanos(seconds_duration(sds) as i128)
            .before(now)
    {
        let msg = format!(
            "Missed scheduled time to start a job: {}",
            rfc1123z_in(scheduled.ts, &TimeZone::UTC)
        );
        st.events
            .push(ControllerEvent::warning("MissSchedule", msg));
        r.requeue = requeue(st);
        return r.done(Decision::MissedDeadline);
    }
    let ns = namespace_of(&cj.meta.namespace);
    let in_active = st
        .active
        .iter()
        .any(|a| a.name == name && namespace_of(&a.namespace) == ns);
    if in_active || st.last_schedule.is_some_and(|l| l.ts == scheduled.ts) {
        r.requeue = requeue(st);
        return r.done(Decision::AlreadyProcessed);
    }
    if cj.spec.concurrency_policy == ConcurrencyPolicy::Forbid && !st.active.is_empty() {
        st.events.push(ControllerEvent::normal(
            "JobAlreadyActive",
            "Not starting job because prior execution is running and concurrency policy is Forbid",
        ));
        r.requeue = requeue(st);
        return r.done(Decision::ForbidBlocked);
    }
    r.decision = Decision::Create;
    if cj.spec.concurrency_policy == ConcurrencyPolicy::Replace
        && let Err(e) = replace_active(st)
    {
        r.sync_error = Some(e.to_string());
        return r;
    }
    r.annotation = f
        .scheduled_timestamp_annotation
        .then(|| annotation(st, zone, scheduled));
    let outcome = create(st, &name, scheduled);
    r.create_outcome = Some(outcome);
    match outcome {
        CreateOutcome::Created | CreateOutcome::Adopted => r.requeue = requeue(st),
        CreateOutcome::AlreadyExistsError => r.sync_error = Some(already_exists(&name)),
        CreateOutcome::AlreadyExistsGetFailed => {
            r.sync_error = Some(already_exists_get_failed(&name));
        }
        _ => {}
    }
    r
}

/// `nextScheduleTime` (or `getNextScheduleTime` before 1.25), including its
/// `TooManyMissedTimes` event. Returns the due slot and the estimate behind it.
fn next_schedule_time(
    st: &mut SyncState,
    clock: &super::gotime::Clock,
    anchor: &Anchor,
    now: GoTime,
) -> (Option<GoTime>, Estimate) {
    let f = st.f;
    let earliest = anchor.earliest(now, true);
    let est = match f.variant {
        ControllerVariant::V2_1_21To1_24 if earliest.after(now) => {
            return (
                None,
                Estimate {
                    earliest: Some(earliest),
                    ..Default::default()
                },
            );
        }
        ControllerVariant::V2_1_21To1_24 | ControllerVariant::V2_1_25To1_27 => {
            estimate::linear(clock, earliest, now, f.gap_error_has_is)
        }
        _ => estimate::window(clock, earliest, now),
    };
    let due = est.recent.filter(|r| !r.after(now));
    if due.is_some() && est.missed == MissedSchedules::Many {
        let msg = if f.too_many_missed_with_count {
            format!(
                "too many missed start times: {}. {TOO_MANY_TAIL}",
                est.n.unwrap_or_default()
            )
        } else {
            format!("too many missed start times. {TOO_MANY_TAIL}")
        };
        st.events
            .push(ControllerEvent::warning("TooManyMissedTimes", msg));
    }
    (due, est)
}

/// Replace: GET and delete every active job (original list), `SuccessfulDelete` each.
pub(crate) fn replace_active(st: &mut SyncState) -> Result<(), JobNotFound> {
    for a in st.active.clone() {
        let uid = match (st.ns_jobs.is_some(), st.get_job(&a.namespace, &a.name)) {
            (_, Some(job)) => job.meta.uid.clone(),
            // No job evidence: assume the GET succeeds and returns the referenced job.
            (false, None) => a.uid.clone(),
            (true, None) => {
                let e = JobNotFound(a.name.clone());
                st.events.push(ControllerEvent::warning(
                    "FailedGet",
                    format!("Get job: {e}"),
                ));
                return Err(e);
            }
        };
        st.remove_active(&uid);
        st.events.push(ControllerEvent::normal(
            "SuccessfulDelete",
            format!("Deleted job {}", a.name),
        ));
        st.dirty = true;
    }
    Ok(())
}

/// The client-go error of a GET for a Job that is gone (Go's text, quoted name).
#[derive(Debug, thiserror::Error)]
#[error("jobs.batch {} not found", go_quote(.0))]
pub(crate) struct JobNotFound(String);

fn already_exists(name: &str) -> String {
    format!("jobs.batch {} already exists", go_quote(name))
}

/// The 1.29–1.36 sync error after AlreadyExists. The exact text depends on the client-go
/// of the release (a client-side refusal of a named GET without a namespace, or the API
/// server's 404 for the cluster-wide path), so it is described rather than quoted.
fn already_exists_get_failed(name: &str) -> String {
    format!(
        "jobs.batch {} already exists, and the GET that would adopt it is sent without a namespace and fails (kubernetes#136918, fixed in 1.37)",
        go_quote(name)
    )
}

/// `batch.kubernetes.io/cronjob-scheduled-timestamp`: RFC 3339 in spec.timeZone, else UTC.
fn annotation(st: &SyncState, zone: &TimeZone, scheduled: GoTime) -> String {
    let tz = match st.cj.spec.time_zone.as_deref() {
        None | Some("") => TimeZone::UTC,
        Some(name) => match schedule::load_location(name) {
            Ok(Some(loc)) => loc.tz,
            Ok(None) => zone.clone(), // "Local"
            Err(_) => TimeZone::UTC,  // unreachable: the UnknownTimeZone gate returned earlier
        },
    };
    rfc3339_in(scheduled.ts, &tz)
}

/// The create request and its AlreadyExists handling (v2). A name collision is only detected
/// when the snapshot has job evidence.
fn create(st: &mut SyncState, name: &str, scheduled: GoTime) -> CreateOutcome {
    let cj = st.cj;
    let namespace = namespace_of(&cj.meta.namespace).to_string();
    let Some(existing) = st.get_job(&namespace, name) else {
        st.events.push(ControllerEvent::normal(
            "SuccessfulCreate",
            format!("Created job {name}"),
        ));
        st.active.push(ActiveRef {
            name: name.to_string(),
            namespace,
            uid: String::new(),
        });
        st.last_schedule = Some(scheduled);
        st.dirty = true;
        return CreateOutcome::Created;
    };
    if st.f.already_exists_get_fails {
        return CreateOutcome::AlreadyExistsGetFailed;
    }
    if !st.f.adopt_existing_job {
        return CreateOutcome::AlreadyExistsError;
    }
    if existing
        .meta
        .controller()
        .is_none_or(|o| o.uid != cj.meta.uid)
    {
        return CreateOutcome::AlreadyExistsNotOwned;
    }
    if st.active.iter().any(|a| a.uid == existing.meta.uid) {
        return CreateOutcome::AlreadyExistsInActive;
    }
    st.active.push(ActiveRef {
        name: existing.meta.name.clone(),
        namespace: namespace_of(&existing.meta.namespace).to_string(),
        uid: existing.meta.uid.clone(),
    });
    st.last_schedule = Some(scheduled);
    st.dirty = true;
    CreateOutcome::Adopted
}
