//! Exact slot enumeration: the schedule the controller actually evaluates, and bounded
//! iteration over its activations (the "truth" the controller's estimate is compared with,
//! next run times, timeline slots).
//!
//! Every loop here is bounded: robfig can return the zero time ("never") and dense schedules
//! can have millions of slots in a long interval, so each enumeration stops at a cap.

use std::collections::VecDeque;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::{ParseError, Schedule};

use super::gotime::{Clock, GoTime, NANOS};
use super::version::{Features, KubeVersion};
use crate::model::CronJob;

/// Upper bound on slots counted exactly for `true_missed_count`.
pub(crate) const TRUTH_CAP: u64 = 10_000;
/// Upper bound on `Next` calls in any single enumeration.
const ITER_CAP: u64 = 1_000_000;

/// The `spec.timeZone` the controller honours in this release with default gates.
pub(crate) fn honoured_time_zone<'a>(cj: &'a CronJob, f: &Features) -> Option<&'a str> {
    if f.time_zone.enabled_by_default() {
        cj.spec.time_zone.as_deref()
    } else {
        None
    }
}

/// Upstream `formatSchedule` without the event: a schedule containing "TZ" anywhere is used
/// verbatim (spec.timeZone ignored); otherwise a loadable spec.timeZone becomes a `TZ=` prefix.
pub(crate) fn format_schedule(raw: &str, time_zone: Option<&str>) -> String {
    if raw.contains("TZ") {
        return raw.to_string();
    }
    match time_zone {
        Some(tz) if schedule::load_location(tz).is_ok() => format!("TZ={tz} {raw}"),
        _ => raw.to_string(),
    }
}

/// Why no [`EffectiveSchedule`] could be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleProblem {
    /// `spec.timeZone` does not load (displays as Go's error text).
    UnknownTimeZone(schedule::LocationError),
    Unparseable(ParseError),
}

/// The schedule exactly as the controller evaluates it, with the controller's Local zone.
#[derive(Clone, Debug)]
pub struct EffectiveSchedule {
    /// The string handed to robfig `ParseStandard`.
    pub formatted: String,
    pub schedule: Schedule,
    pub controller_zone: TimeZone,
}

impl EffectiveSchedule {
    /// Build it as `syncCronJob` would for `version` (timeZone support per release).
    pub fn for_cron_job(
        cj: &CronJob,
        version: KubeVersion,
        controller_zone: &TimeZone,
    ) -> Result<EffectiveSchedule, ScheduleProblem> {
        let f = version.features();
        let tz = honoured_time_zone(cj, &f);
        if let Some(tz) = tz {
            schedule::load_location(tz).map_err(ScheduleProblem::UnknownTimeZone)?;
        }
        let raw = cj.spec.schedule.as_deref().unwrap_or("");
        let formatted = format_schedule(raw, tz);
        let schedule =
            schedule::parse_standard(&formatted).map_err(ScheduleProblem::Unparseable)?;
        Ok(EffectiveSchedule {
            formatted,
            schedule,
            controller_zone: controller_zone.clone(),
        })
    }

    pub(crate) fn clock(&self) -> Clock<'_> {
        Clock::new(&self.schedule, &self.controller_zone)
    }

    /// robfig `Next(after)` evaluated in the controller's Local zone; None = never.
    pub fn next_after(&self, after: Timestamp) -> Option<Timestamp> {
        let t = self.clock().next(GoTime::local(after));
        (!t.is_zero()).then_some(t.ts)
    }

    /// The next `count` activations strictly after `after`.
    pub fn next_times(&self, after: Timestamp, count: usize) -> Vec<Timestamp> {
        let clock = self.clock();
        let mut out = Vec::with_capacity(count.min(1024));
        let mut t = GoTime::local(after);
        while out.len() < count {
            let prev = t;
            t = clock.next(t);
            // robfig's Next can return its input or an earlier time (Pacific/Chatham's
            // fall-back); the controller then stalls on the "< 1 second" gap error, so the
            // list of future runs ends there.
            if !t.is_zero() && !t.after(prev) {
                break;
            }
            if t.is_zero() {
                break;
            }
            out.push(t.ts);
        }
        out
    }

    /// Activations in `(from, to]`, at most `max`; the flag says the list was cut short.
    pub fn slots_in(&self, from: Timestamp, to: Timestamp, max: usize) -> (Vec<Timestamp>, bool) {
        // The walk reads at most `max + 1` activations: the last one shows the cap was hit.
        super::slot_runs::walk(self, from, max.saturating_add(1), |run| {
            let mut out = Vec::new();
            let mut i = 0;
            while let Some(t) = run.get(i).filter(|t| t.ts <= to) {
                if out.len() == max {
                    return (out, true);
                }
                out.push(t.ts);
                i += 1;
            }
            (out, false)
        })
    }

    /// The last `count` activations at or before `before`, oldest first (looks back at most
    /// about 100 years).
    pub fn last_slots(&self, before: Timestamp, count: usize) -> Vec<Timestamp> {
        last_slots(&self.clock(), None, GoTime::local(before), count)
            .into_iter()
            .map(|t| t.ts)
            .collect()
    }
}

/// Exact facts about `(earliest, now]`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Truth {
    pub most_recent: Option<GoTime>,
    pub count: u64,
    pub capped: bool,
}

/// Count the slots in `(earliest, now]` by plain iteration (capped at [`TRUTH_CAP`]) and find
/// the most recent one (by a backward search when the count was capped). Evaluated in Local:
/// this is what the schedule means, whatever location the controller's values carried.
pub(crate) fn truth(eff: &EffectiveSchedule, earliest: GoTime, now: GoTime) -> Truth {
    if earliest.is_zero() || !earliest.before(now) {
        return Truth::default();
    }
    let mut out = Truth::default();
    // The same run of slots as the rules' `slots_in` from this instant (see `slot_runs`).
    super::slot_runs::walk(eff, earliest.ts, TRUTH_CAP as usize, |run| {
        let mut i = 0;
        while let Some(t) = run.get(i).filter(|t| !t.after(now)) {
            out.count += 1;
            out.most_recent = Some(t);
            if out.count == TRUTH_CAP {
                out.capped = true;
                break;
            }
            i += 1;
        }
    });
    if out.capped {
        let start = GoTime::local(earliest.ts);
        out.most_recent = last_slots(&eff.clock(), Some(start), GoTime::local(now.ts), 1).pop();
    }
    out
}

/// The last `count` slots in `(floor, before]`, oldest first. Doubles a look-back span until it
/// holds `count` slots (or reaches `floor` / ~100 years), then iterates forward through it.
fn last_slots(clock: &Clock, floor: Option<GoTime>, before: GoTime, count: usize) -> Vec<GoTime> {
    if count == 0 {
        return Vec::new();
    }
    const HUNDRED_YEARS: i128 = 100 * 366 * 86_400 * NANOS as i128;
    let mut span: i128 = 60 * NANOS as i128;
    let mut budget = ITER_CAP;
    loop {
        let mut start = before.add_nanos(-span);
        let reached_floor = floor.is_some_and(|f| !f.before(start));
        if let Some(f) = floor.filter(|_| reached_floor) {
            start = f;
        }
        let mut ring: VecDeque<GoTime> = VecDeque::with_capacity(count);
        let mut seen = 0usize;
        let mut t = clock.next(start);
        while !t.is_zero() && !t.after(before) && budget > 0 {
            budget -= 1;
            seen += 1;
            if ring.len() == count {
                ring.pop_front();
            }
            ring.push_back(t);
            t = clock.next(t);
        }
        if seen >= count || reached_floor || span > HUNDRED_YEARS || budget == 0 {
            return ring.into();
        }
        span *= 2;
    }
}
