//! Fast-forwarding robfig's one-step-at-a-time loops, without changing where they land.
//!
//! Inside one UTC-offset period every absolute step moves the wall clock by exactly the
//! step, and `AddDate` from a midnight (or from the 1st at midnight) is a plain multiple
//! of 24 hours. So when the steps a loop would take all stay inside the current period,
//! the values it would visit are known in advance: the run ends at the first one that
//! matches the field, or that triggers robfig's wrap check, and can be taken in one
//! stride. Anything closer to a transition, or not at an exact midnight, falls back to
//! the literal single step, which handles every DST case itself.

use crate::SpecSchedule;
use crate::go_time::{Clock, SECONDS_PER_DAY, Wall, days_from_civil};
use crate::next::day_matches;

/// Steps from `value` to the next value in `set`, or to the wrap at `limit` (where robfig
/// jumps to WRAP), whichever comes first, when each step adds one to the field.
fn distance_to_next(set: u64, value: u8, limit: u8) -> i64 {
    let value = u32::from(value);
    let limit = u32::from(limit);
    let wanted = (set & ((1u64 << limit) - 1)) >> (value + 1);
    let target = if wanted == 0 {
        limit
    } else {
        value + 1 + wanted.trailing_zeros()
    };
    i64::from(target.min(limit) - value)
}

/// Minute-loop steps (of 60 s) to take at once; at least one.
pub(crate) fn minute_run(clock: &mut Clock, s: &SpecSchedule, t: &Wall) -> i64 {
    let want = distance_to_next(s.minute, t.minute, 60);
    want.min(clock.steps_in_period(t, 60, false)).max(1)
}

/// Second-loop steps (of 1 s) to take at once; at least one.
pub(crate) fn second_run(clock: &mut Clock, s: &SpecSchedule, t: &Wall) -> i64 {
    let want = distance_to_next(s.second, t.second, 60);
    want.min(clock.steps_in_period(t, 1, false)).max(1)
}

/// Hour-loop steps (of 3600 s) to take at once; at least one.
pub(crate) fn hour_run(clock: &mut Clock, s: &SpecSchedule, t: &Wall) -> i64 {
    let want = distance_to_next(s.hour, t.hour, 24);
    want.min(clock.steps_in_period(t, 3600, false)).max(1)
}

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// Day-loop steps (`AddDate(0, 0, 1)` from a midnight) to take at once as whole days;
/// 0 when the literal step must be taken.
pub(crate) fn day_run(clock: &mut Clock, s: &SpecSchedule, t: &Wall) -> i64 {
    if (t.hour, t.minute, t.second) != (0, 0, 0) {
        return 0;
    }
    let allowed = clock.steps_in_period(t, SECONDS_PER_DAY, true);
    let last_day = days_in_month(t.year, t.month);
    let (mut day, mut weekday, mut steps) = (t.day, t.weekday, 0);
    while steps < allowed {
        steps += 1;
        day += 1;
        weekday = (weekday + 1) % 7;
        // Running past the month's end lands on the 1st, where robfig wraps.
        if day > last_day || day_matches(s, day, weekday) {
            break;
        }
    }
    steps
}

/// Where the month loop's `AddDate(0, 1, 0)` steps from the 1st at midnight lead, taken
/// up to the first month that matches or to January (robfig's wrap); `None` when the
/// literal step must be taken.
pub(crate) fn month_run(clock: &mut Clock, s: &SpecSchedule, t: &Wall) -> Option<Wall> {
    if (t.day, t.hour, t.minute, t.second) != (1, 0, 0, 0) {
        return None;
    }
    let (start, end, offset) = clock.period(t);
    let want = distance_to_next(s.month, t.month, 13);
    let mut reached = None;
    for k in 1..=want {
        let m0 = i64::from(t.month) - 1 + k;
        let (year, month) = (t.year + m0.div_euclid(12), m0.rem_euclid(12) + 1);
        let unix = days_from_civil(year, month, 1) * SECONDS_PER_DAY - offset;
        // Go's Date probes the wall time read as UTC, then the instant itself.
        let local = unix + offset;
        if unix.min(local) < start || unix.max(local) >= end {
            break;
        }
        reached = Some(unix);
    }
    reached.map(|unix| clock.at(unix))
}

#[cfg(test)]
mod tests {
    use super::distance_to_next;

    #[test]
    fn distance_stops_at_match_or_wrap() {
        assert_eq!(distance_to_next(1 << 30, 10, 60), 20);
        assert_eq!(distance_to_next(1 << 5, 10, 60), 50);
        assert_eq!(distance_to_next(0, 59, 60), 1);
        assert_eq!(distance_to_next(1 << 3 | 1 << 12, 3, 13), 9);
        assert_eq!(distance_to_next(1 << 3, 3, 13), 10);
        assert_eq!(distance_to_next(u64::MAX, 22, 24), 1);
    }
}
