//! The legacy polling controller (≤1.20, `syncOne`), after reconciliation.
//!
//! Verified against `cronjob_controller.go@1bdbc35994c02b534e3e5c08ffa957ec31a58b1d`
//! (batch/v1beta1 era) and the `utils.go` revisions described in the module docs. Differences
//! from v2 that matter for a diagnosis: no timeZone, no `UnsupportedSchedule`, no
//! "already processed" check, Forbid skips silently (no `JobAlreadyActive`), more than 100
//! unmet times stop the CronJob for good (`FailedNeedsStart`), any create error (including
//! AlreadyExists) is a `FailedCreate` event, names use unix seconds, and there is no requeue:
//! everything is re-listed every 10 s.

use jiff::tz::TimeZone;

use super::estimate::{self, Anchor};
use super::gotime::{GoTime, go_quote, rfc1123z_in, seconds_duration};
use super::output::{ActiveRef, ControllerEvent, CreateOutcome, Decision};
use super::reconcile::SyncState;
use super::slots::EffectiveSchedule;
use super::sync::{SyncResult, job_name, replace_active};
use crate::model::{ConcurrencyPolicy, namespace_of};

/// The polling period of the v1 controller (`wait.Until(jm.syncAll, 10*time.Second)`).
pub(crate) const V1_POLL_MS: i64 = 10_000;

pub(crate) fn sync_v1(
    st: &mut SyncState,
    zone: &TimeZone,
    anchor: Anchor,
    now: GoTime,
) -> SyncResult {
    let cj = st.cj;
    let mut r = SyncResult::new(Decision::BeingDeleted);
    r.time_zone_ignored = cj.spec.time_zone.is_some();
    if cj.meta.deletion_timestamp.is_some() {
        return r;
    }
    if cj.spec.suspend {
        r.decision = Decision::Suspended;
        return r;
    }
    let raw = cj.spec.schedule.as_deref().unwrap_or("");
    let needs_start = |e: &str| {
        ControllerEvent::warning(
            "FailedNeedsStart",
            format!("Cannot determine if job needs to be started: {e}"),
        )
    };
    r.formatted = Some(raw.to_string());
    let sched = match schedule::parse_standard(raw) {
        Ok(s) => s,
        Err(e) if e.panics => {
            r.panic = Some(e.message);
            r.decision = Decision::UnparseableSchedule;
            return r;
        }
        Err(e) => {
            st.events.push(needs_start(&format!(
                "unparseable schedule: {raw} : {}",
                e.message
            )));
            r.decision = Decision::UnparseableSchedule;
            return r;
        }
    };
    let eff = EffectiveSchedule {
        formatted: raw.to_string(),
        schedule: sched,
        controller_zone: zone.clone(),
    };
    r.schedule = Some(eff.clone());
    let clock = eff.clock();
    let est = estimate::v1_unmet(&clock, anchor.earliest(now, true), now);
    let err = est.err.clone();
    let due = est.recent;
    r.est = Some(est);
    if let Some(err) = err {
        st.events.push(needs_start(&err));
        r.decision = Decision::InvalidSchedule;
        return r;
    }
    let Some(scheduled) = due else {
        r.decision = Decision::NothingDue;
        return r;
    };
    r.scheduled = Some(scheduled);
    let name = job_name(&cj.meta.name, scheduled, true);
    r.job_name = Some(name.clone());
    // Unreachable for the same reason as in v2; v1 formats the time in Local.
    if let Some(sds) = cj.spec.starting_deadline_seconds
        && scheduled
            .add_nanos(seconds_duration(sds) as i128)
            .before(now)
    {
        let msg = format!(
            "Missed scheduled time to start a job: {}",
            rfc1123z_in(scheduled.ts, zone)
        );
        st.events
            .push(ControllerEvent::warning("MissSchedule", msg));
        r.decision = Decision::MissedDeadline;
        return r;
    }
    if cj.spec.concurrency_policy == ConcurrencyPolicy::Forbid && !st.active.is_empty() {
        r.decision = Decision::ForbidBlocked;
        return r;
    }
    r.decision = Decision::Create;
    if cj.spec.concurrency_policy == ConcurrencyPolicy::Replace && replace_active(st).is_err() {
        return r;
    }
    let namespace = namespace_of(&cj.meta.namespace).to_string();
    if st.get_job(&namespace, &name).is_some() {
        let msg = format!(
            "Error creating job: jobs.batch {} already exists",
            go_quote(&name)
        );
        st.events
            .push(ControllerEvent::warning("FailedCreate", msg));
        r.create_outcome = Some(CreateOutcome::FailedCreate);
        return r;
    }
    st.events.push(ControllerEvent::normal(
        "SuccessfulCreate",
        format!("Created job {name}"),
    ));
    st.active.push(ActiveRef {
        name,
        namespace,
        uid: String::new(),
    });
    st.last_schedule = Some(scheduled);
    st.dirty = true;
    r.create_outcome = Some(CreateOutcome::Created);
    r
}
