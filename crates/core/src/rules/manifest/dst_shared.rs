//! Shared by dst-gap and dst-repeat: the transitions of the next 12 months that change what
//! the schedule does (from `crate::cron::dst::effects`, i.e. the real engine), and a nearby
//! hour that no transition touches, verified with the same engine.

use jiff::SignedDuration;
use jiff::civil::DateTime;
use schedule::{ScheduleKind, SpecSchedule};

use super::common::{Fields, schedule_patch};
use crate::cron::dst::{DstEffect, effects};
use crate::rules::Context;

const YEAR: SignedDuration = SignedDuration::from_hours(24 * 366);

fn hours_full(s: &SpecSchedule) -> bool {
    (0..24).all(|h| s.hour & (1u64 << h) != 0)
}

/// A whole-hour shift cannot disturb a schedule that names every hour: in absolute time its
/// runs stay evenly spaced (01:00 EST → 03:00 EDT is one hour), so such effects are not news.
fn noteworthy(s: &SpecSchedule, e: &DstEffect) -> bool {
    let shift = e
        .clock_from
        .duration_until(e.clock_to)
        .as_secs()
        .unsigned_abs();
    !(hours_full(s) && shift.is_multiple_of(3600))
}

/// The noteworthy transitions of the next 12 months for the schedule as the controller runs it.
pub(super) fn upcoming(ctx: &Context) -> Vec<DstEffect> {
    let Some(sched) = ctx.parsed() else {
        return Vec::new();
    };
    let ScheduleKind::Spec(spec) = &sched.kind else {
        return Vec::new();
    };
    effects(sched, ctx.controller_zone, ctx.now, ctx.now + YEAR)
        .into_iter()
        .filter(|e| noteworthy(spec, e))
        .collect()
}

/// `Sun 2027-03-14`.
pub(super) fn day(d: DateTime) -> String {
    d.strftime("%a %Y-%m-%d").to_string()
}

/// `02:30`.
pub(super) fn hm(d: DateTime) -> String {
    d.strftime("%H:%M").to_string()
}

/// `clocks go 02:00 → 03:00`.
pub(super) fn clocks(e: &DstEffect) -> String {
    format!("clocks go {} → {}", hm(e.clock_from), hm(e.clock_to))
}

/// The same schedule one, two, three hours later or earlier, when its hour field is a single
/// number and the shifted schedule has no DST effect in the next 12 months: (schedule, patch).
pub(super) fn alternative(ctx: &Context) -> Option<(String, serde_json::Value)> {
    let raw = ctx.cron_job.spec.schedule.as_deref()?;
    let fields = Fields::split(raw)?;
    let hour: i32 = fields.fields[1]
        .parse()
        .ok()
        .filter(|h| (0..24).contains(h))?;
    let tz = ctx
        .cron_job
        .spec
        .time_zone
        .as_deref()
        .filter(|_| !ctx.replay.time_zone_ignored);
    for delta in [1, -1, 2, -2, 3, -3] {
        let h = hour + delta;
        if !(0..24).contains(&h) {
            continue;
        }
        let candidate = fields.with(1, &h.to_string());
        let Ok(sched) = schedule::parse_standard(&crate::cron::format_schedule(&candidate, tz))
        else {
            continue;
        };
        if effects(&sched, ctx.controller_zone, ctx.now, ctx.now + YEAR).is_empty() {
            let patch = schedule_patch(&candidate);
            return Some((candidate, patch));
        }
    }
    None
}
