//! robfig's `SpecSchedule.Next` and `ConstantDelaySchedule.Next`.
//!
//! `spec_next` walks the same steps as robfig (month → day → hour → minute → second,
//! restarting at WRAP whenever a field rolls over), on the same Go time operations, so
//! DST oddities come out exactly as upstream: skipped runs in spring gaps, double runs
//! in repeated hours, skipped midnights, Lord Howe's half-hour drift, LMT misalignment.
//!
//! Long runs of steps that provably change nothing but the clock (no transition in
//! between, no field value that matches or wraps) are taken in one stride; see `skip`.
//!
//! Two departures, neither visible in results robfig actually returns:
//! * a field that can never match (e.g. `,` as the minute list) answers "never" at once
//!   instead of scanning five years minute by minute to the same answer;
//! * searches that never end upstream report "never": robfig loops forever when Go's
//!   `Date` maps a skipped calendar day back onto the previous one (Pacific/Apia's
//!   missing 2011-12-30), which is detected directly; a step budget catches anything else.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::go_time::{Clock, SECONDS_PER_DAY, floor_second, to_timestamp};
use crate::skip;
use crate::{ConstantDelay, STAR_BIT, SpecSchedule};

/// Bits robfig can ever test per field (values a wall clock can show).
const SECOND_BITS: u64 = (1 << 60) - 1;
const MINUTE_BITS: u64 = (1 << 60) - 1;
const HOUR_BITS: u64 = (1 << 24) - 1;
const DOM_BITS: u64 = ((1 << 32) - 1) & !1;
const MONTH_BITS: u64 = ((1 << 13) - 1) & !1;
const DOW_BITS: u64 = (1 << 7) - 1;

/// Far above the steps any terminating robfig search takes (a five-year day-by-day scan
/// is under 2,000; an hour-by-hour one under 50,000), far below "hangs".
const STEP_BUDGET: u32 = 4_000_000;

pub(crate) fn bit(set: u64, value: u8) -> bool {
    set & (1u64 << value) != 0
}

/// robfig's `dayMatches`: day-of-month and weekday are ANDed when either field carries
/// the star bit, ORed otherwise.
pub(crate) fn day_matches(s: &SpecSchedule, day: u8, weekday: u8) -> bool {
    let dom = bit(s.dom, day);
    let dow = bit(s.dow, weekday);
    if (s.dom | s.dow) & STAR_BIT != 0 {
        dom && dow
    } else {
        dom || dow
    }
}

/// True when some field can never match, so robfig can only end with the zero time.
fn never_matches(s: &SpecSchedule) -> bool {
    let no_day = if (s.dom | s.dow) & STAR_BIT != 0 {
        s.dom & DOM_BITS == 0 || s.dow & DOW_BITS == 0
    } else {
        s.dom & DOM_BITS == 0 && s.dow & DOW_BITS == 0
    };
    s.second & SECOND_BITS == 0
        || s.minute & MINUTE_BITS == 0
        || s.hour & HOUR_BITS == 0
        || s.month & MONTH_BITS == 0
        || no_day
}

/// robfig's `SpecSchedule.Next(after)` evaluated in `tz`; `None` is the zero time.
pub(crate) fn spec_next(s: &SpecSchedule, after: Timestamp, tz: &TimeZone) -> Option<Timestamp> {
    spec_next_unix(s, after, tz).map(to_timestamp)
}

/// [`spec_next`] as a Unix second, which may lie beyond jiff's range (Go's is wider).
pub(crate) fn spec_next_unix(s: &SpecSchedule, after: Timestamp, tz: &TimeZone) -> Option<i64> {
    if never_matches(s) {
        return None;
    }
    let mut clock = Clock::new(tz);
    // t = t.Add(1s - nanos): the next whole second, always strictly after `after`.
    let mut t = clock.at(floor_second(after) + 1);
    let mut added = false;
    let year_limit = t.year + 5;
    let mut budget = STEP_BUDGET;
    macro_rules! spend {
        () => {
            budget -= 1;
            if budget == 0 {
                return None;
            }
        };
    }

    'wrap: loop {
        if t.year > year_limit {
            return None;
        }

        while !bit(s.month, t.month) {
            spend!();
            if !added {
                added = true;
                t = clock.date(t.year, i64::from(t.month), 1, 0, 0, 0);
            }
            t = match skip::month_run(&mut clock, s, &t) {
                Some(later) => later,
                None => clock.add_date(&t, 1, 0),
            };
            if t.month == 1 {
                continue 'wrap;
            }
        }

        while !day_matches(s, t.day, t.weekday) {
            spend!();
            if !added {
                added = true;
                t = clock.date(t.year, i64::from(t.month), i64::from(t.day), 0, 0, 0);
            }
            let before = t.unix;
            let run = skip::day_run(&mut clock, s, &t);
            if run > 0 {
                t = clock.add_seconds(&t, run * SECONDS_PER_DAY);
            } else {
                t = clock.add_date(&t, 0, 1);
            }
            // robfig's fix for zones where midnight does not exist (or exists twice):
            // pull a landing at 01:00 back to 00:00, push one at 23:00 on to 00:00.
            if t.hour != 0 {
                let h = i64::from(t.hour);
                let shift = if h > 12 { 24 - h } else { -h };
                t = clock.add_seconds(&t, shift * 3600);
            }
            if t.unix == before {
                // Go's Date mapped the next day back onto this one (a skipped calendar
                // day, e.g. Pacific/Apia 2011-12-30): robfig would repeat this step forever.
                return None;
            }
            if t.day == 1 {
                continue 'wrap;
            }
        }

        while !bit(s.hour, t.hour) {
            spend!();
            if !added {
                added = true;
                let (y, m, d, h) = (t.year, t.month, t.day, t.hour);
                t = clock.date(y, i64::from(m), i64::from(d), i64::from(h), 0, 0);
            }
            let run = skip::hour_run(&mut clock, s, &t);
            t = clock.add_seconds(&t, 3600 * run);
            if t.hour == 0 {
                continue 'wrap;
            }
        }

        while !bit(s.minute, t.minute) {
            spend!();
            if !added {
                added = true;
                t = clock.truncate_minute(&t);
            }
            let run = skip::minute_run(&mut clock, s, &t);
            t = clock.add_seconds(&t, 60 * run);
            if t.minute == 0 {
                continue 'wrap;
            }
        }

        while !bit(s.second, t.second) {
            spend!();
            // Truncating to the second is a no-op: times here are whole seconds.
            added = true;
            let run = skip::second_run(&mut clock, s, &t);
            t = clock.add_seconds(&t, run);
            if t.second == 0 {
                continue 'wrap;
            }
        }

        return Some(t.unix);
    }
}

/// robfig's `ConstantDelaySchedule.Next`: the whole second of `after` plus the delay.
pub(crate) fn every_next(d: &ConstantDelay, after: Timestamp) -> Timestamp {
    to_timestamp(every_next_unix(d, after))
}

/// [`every_next`] as a Unix second, which may lie beyond jiff's range.
pub(crate) fn every_next_unix(d: &ConstantDelay, after: Timestamp) -> i64 {
    floor_second(after).saturating_add(d.delay_seconds)
}
