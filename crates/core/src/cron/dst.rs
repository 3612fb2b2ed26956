//! Where daylight-saving (or any offset) transitions change what a schedule does.
//!
//! We never guess from rules of thumb: for each transition we compare the wall-clock times the
//! schedule names on the affected local dates with the instants the robfig-exact engine
//! actually returns. A named time with no run is *swallowed* (clocks spring over it, or
//! robfig's absolute-hour stepping misses it, as in Australia/Lord_Howe); a named time with two
//! runs is *doubled* (the repeated hour when clocks fall back, upstream issue #121594); a run
//! at a time the schedule does not name is *shifted* (Go's `time.Date` normalisation).

use std::collections::{HashMap, HashSet};

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use schedule::{STAR_BIT, Schedule, ScheduleKind, SpecSchedule};

/// One transition and what it does to the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DstEffect {
    /// The instant the offset changes.
    pub transition: Timestamp,
    /// Wall clock just before and just after the change ("02:00 → 03:00").
    pub clock_from: DateTime,
    pub clock_to: DateTime,
    /// True when clocks go forward (a gap), false when they go back (a repeated hour).
    pub forward: bool,
    /// Named times on the affected dates that get no run.
    pub swallowed: Vec<DateTime>,
    /// Named times that run twice: (wall time, first instant, second instant).
    pub doubled: Vec<(DateTime, Timestamp, Timestamp)>,
    /// Runs at a wall time the schedule does not name.
    pub shifted: Vec<Timestamp>,
}

impl DstEffect {
    pub fn is_empty(&self) -> bool {
        self.swallowed.is_empty() && self.doubled.is_empty() && self.shifted.is_empty()
    }
}

fn bit(bits: u64, v: i8) -> bool {
    v >= 0 && bits & (1u64 << v) != 0
}

/// robfig's day rule (AND when either field has the star bit, else OR).
fn day_matches(s: &SpecSchedule, d: Date) -> bool {
    let dom = bit(s.dom, d.day());
    let dow = bit(s.dow, d.weekday().to_sunday_zero_offset());
    if s.dom & STAR_BIT != 0 || s.dow & STAR_BIT != 0 {
        dom && dow
    } else {
        dom || dow
    }
}

pub mod memo {
    //! The per-thread memo of [`effects`](super::effects) (see [`crate::memo`]): the answer
    //! depends only on the schedule's bit sets, its zone (and whether it is its own or the
    //! controller's), the controller zone (used by robfig's `Next` for a schedule without
    //! one) and the interval, all of which are in the key, so a hit returns what the
    //! computation would. Zones are compared whole (`TimeZone: Eq`) after a match on their
    //! names; a zone without an IANA name is never memoised.

    use std::cell::RefCell;
    use std::collections::HashMap;

    use jiff::Timestamp;
    use jiff::tz::TimeZone;
    use schedule::SpecSchedule;

    use super::DstEffect;
    use crate::memo::{Map, get_or as memo_get_or};

    type Key = ([u64; 6], bool, String, String, Timestamp, Timestamp);

    /// The schedule's zone, the controller's, and the answer.
    type Entry = (TimeZone, TimeZone, Vec<DstEffect>);

    thread_local! {
        static MEMO: Map<Key, Entry> = RefCell::new(HashMap::new());
    }

    pub(super) fn get_or(
        spec: SpecSchedule,
        fixed: bool,
        tz: &TimeZone,
        local: &TimeZone,
        from: Timestamp,
        until: Timestamp,
        compute: impl FnOnce() -> Vec<DstEffect>,
    ) -> Vec<DstEffect> {
        let (Some(tz_name), Some(local_name)) = (tz.iana_name(), local.iana_name()) else {
            return compute();
        };
        let s = spec;
        let key: Key = (
            [s.second, s.minute, s.hour, s.dom, s.month, s.dow],
            fixed,
            tz_name.to_string(),
            local_name.to_string(),
            from,
            until,
        );
        let valid = |e: &Entry| e.0 == *tz && e.1 == *local;
        memo_get_or(&MEMO, crate::memo::CAPACITY, key, valid, || {
            (tz.clone(), local.clone(), compute())
        })
        .2
    }
}

/// Wall-clock times the schedule names on local date `d` (empty when the day does not match).
fn named_times(s: &SpecSchedule, d: Date) -> Vec<DateTime> {
    if !bit(s.month, d.month()) || !day_matches(s, d) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for h in 0..24i8 {
        if !bit(s.hour, h) {
            continue;
        }
        for m in 0..60i8 {
            if bit(s.minute, m) {
                out.push(d.to_datetime(Time::constant(h, m, 0, 0)));
            }
        }
    }
    out
}

/// Transitions of `tz` in `[from, until]` and their effect on `sched` (only non-empty ones).
/// `local` is the controller zone used when the schedule has no zone of its own. `@every`
/// schedules are immune (absolute time), so they yield nothing.
///
/// Shared across CronJobs: a scan of 10,000 CronJobs asks this for a few hundred distinct
/// (schedule, zone) pairs, several times each (dst-gap, dst-repeat), and a year of
/// transitions was a large share of the scan's CPU (BENCHMARKS.md, "scan -A at scale").
/// Answers are kept per thread ([`memo`]).
pub fn effects(
    sched: &Schedule,
    local: &TimeZone,
    from: Timestamp,
    until: Timestamp,
) -> Vec<DstEffect> {
    let ScheduleKind::Spec(spec) = &sched.kind else {
        return Vec::new();
    };
    let tz = match &sched.zone {
        schedule::ScheduleZone::Fixed(loc) => &loc.tz,
        schedule::ScheduleZone::Local => local,
    };
    let fixed = matches!(sched.zone, schedule::ScheduleZone::Fixed(_));
    memo::get_or(*spec, fixed, tz, local, from, until, || {
        compute(sched, spec, tz, local, from, until)
    })
}

fn compute(
    sched: &Schedule,
    spec: &SpecSchedule,
    tz: &TimeZone,
    local: &TimeZone,
    from: Timestamp,
    until: Timestamp,
) -> Vec<DstEffect> {
    let mut out = Vec::new();
    // Bounded: at most a few transitions a year; 64 covers any horizon we are asked about.
    for tr in tz.following(from).take(64) {
        let at = tr.timestamp();
        if at > until {
            break;
        }
        let before = tz.to_offset(at - SignedDuration::from_secs(1));
        let after = tr.offset();
        if before == after {
            continue; // abbreviation-only change
        }
        let clock_from = at.to_zoned(TimeZone::fixed(before)).datetime();
        let clock_to = at.to_zoned(TimeZone::fixed(after)).datetime();
        let mut effect = DstEffect {
            transition: at,
            clock_from,
            clock_to,
            forward: after > before,
            swallowed: Vec::new(),
            doubled: Vec::new(),
            shifted: Vec::new(),
        };
        let mut dates = vec![clock_from.date(), clock_to.date()];
        dates.dedup();
        for d in dates {
            compare_day(sched, spec, tz, local, d, &mut effect);
        }
        if !effect.is_empty() {
            out.push(effect);
        }
    }
    out
}

fn compare_day(
    sched: &Schedule,
    spec: &SpecSchedule,
    tz: &TimeZone,
    local: &TimeZone,
    d: Date,
    e: &mut DstEffect,
) {
    let named = named_times(spec, d);
    // Actual runs whose wall-clock date is `d`: start well before the date (offsets are within
    // ±26h of UTC) and stop well after it.
    let Ok(start) = d.to_datetime(Time::midnight()).to_zoned(TimeZone::UTC) else {
        return;
    };
    let mut t = start.timestamp() - SignedDuration::from_hours(30);
    let stop = start.timestamp() + SignedDuration::from_hours(54);
    let mut actual: Vec<(DateTime, Timestamp)> = Vec::new();
    while let Some(n) = sched.next(t, local) {
        // robfig's Next can answer its own input or an earlier time (Pacific/Chatham's
        // fall-back): the chain stops advancing there, so must we.
        if n > stop || n <= t {
            break;
        }
        let wall = n.to_zoned(tz.clone()).datetime();
        if wall.date() == d {
            actual.push((wall, n));
        }
        t = n;
    }
    // Each wall-clock time's runs in the order they happen, looked up rather than searched
    // for: a schedule that names every minute has 1,440 times a day, and comparing every
    // named time with every run was most of a scan's DST work.
    let mut runs_at: HashMap<DateTime, Vec<Timestamp>> = HashMap::with_capacity(actual.len());
    for (wall, inst) in &actual {
        runs_at.entry(*wall).or_default().push(*inst);
    }
    for w in &named {
        match runs_at.get(w).map(Vec::as_slice).unwrap_or_default() {
            [] => e.swallowed.push(*w),
            [_] => {}
            [first, second, ..] => e.doubled.push((*w, *first, *second)),
        }
    }
    // `named` is in ascending order (hours, then minutes, of one date).
    let mut shifted: HashSet<Timestamp> = e.shifted.iter().copied().collect();
    for (wall, inst) in &actual {
        if named.binary_search(wall).is_err() && shifted.insert(*inst) {
            e.shifted.push(*inst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo answers exactly what the computation does, whichever order the same
    /// schedules are asked in under different zones and intervals (a key missing one of them
    /// would hand one CronJob another's answer).
    #[test]
    fn memoised_effects_are_the_computed_ones() {
        let schedules = [
            "30 2 * * *",
            "0 * * * *",
            "15 1 * * 0",
            "TZ=Australia/Lord_Howe 0 2 * * *",
            "CRON_TZ=America/New_York 30 1 * * *",
            "@every 1h",
        ];
        let zones = [
            "America/New_York",
            "Australia/Lord_Howe",
            "UTC",
            "Europe/London",
        ];
        let froms = ["2026-11-20T12:00:00Z", "2027-03-10T00:00:00Z"];
        let year = SignedDuration::from_hours(24 * 366);
        for round in 0..2 {
            for z in zones {
                let local = TimeZone::get(z).unwrap();
                for f in froms {
                    let from: Timestamp = f.parse().unwrap();
                    for raw in schedules {
                        let sched = schedule::parse_standard(raw).unwrap();
                        let shared = effects(&sched, &local, from, from + year);
                        let fresh =
                            crate::memo::bypassed(|| effects(&sched, &local, from, from + year));
                        assert_eq!(shared, fresh, "{raw} in {z} from {f}, round {round}");
                    }
                }
            }
        }
    }

    fn run(expr: &str, from: &str, until: &str) -> Vec<DstEffect> {
        let s = schedule::parse_standard(expr).unwrap();
        effects(
            &s,
            &TimeZone::UTC,
            from.parse().unwrap(),
            until.parse().unwrap(),
        )
    }

    #[test]
    fn new_york_spring_forward_swallows_0230() {
        let e = run(
            "TZ=America/New_York 30 2 * * *",
            "2021-03-01T00:00:00Z",
            "2021-04-01T00:00:00Z",
        );
        assert_eq!(e.len(), 1);
        assert!(e[0].forward);
        assert_eq!(
            e[0].swallowed,
            vec![DateTime::constant(2021, 3, 14, 2, 30, 0, 0)]
        );
        assert_eq!(e[0].clock_from.time(), Time::constant(2, 0, 0, 0));
        assert_eq!(e[0].clock_to.time(), Time::constant(3, 0, 0, 0));
    }

    #[test]
    fn new_york_fall_back_doubles_0130() {
        let e = run(
            "TZ=America/New_York 30 1 * * *",
            "2021-11-01T00:00:00Z",
            "2021-11-30T00:00:00Z",
        );
        assert_eq!(e.len(), 1);
        assert!(!e[0].forward);
        let (w, a, b) = e[0].doubled[0];
        assert_eq!(w, DateTime::constant(2021, 11, 7, 1, 30, 0, 0));
        assert_eq!(a, "2021-11-07T05:30:00Z".parse::<Timestamp>().unwrap());
        assert_eq!(b, "2021-11-07T06:30:00Z".parse::<Timestamp>().unwrap());
    }

    #[test]
    fn lord_howe_fall_back_skips_a_valid_0200() {
        // robfig's absolute-hour stepping lands on :30 after the half-hour shift (spec A.6).
        let e = run(
            "TZ=Australia/Lord_Howe 0 2 * * *",
            "2024-04-01T00:00:00Z",
            "2024-04-30T00:00:00Z",
        );
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].swallowed,
            vec![DateTime::constant(2024, 4, 7, 2, 0, 0, 0)]
        );
    }

    #[test]
    fn hours_away_from_the_transition_are_unaffected() {
        assert!(
            run(
                "TZ=America/New_York 0 12 * * *",
                "2021-01-01T00:00:00Z",
                "2021-12-31T00:00:00Z"
            )
            .is_empty()
        );
        assert!(run("@every 1h", "2021-01-01T00:00:00Z", "2021-12-31T00:00:00Z").is_empty());
        assert!(run("30 2 * * *", "2021-01-01T00:00:00Z", "2021-12-31T00:00:00Z").is_empty());
    }
}
