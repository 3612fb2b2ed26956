//! Just enough of Go's `time.Time` to run robfig's `Next` step for step: wall-clock fields
//! in a location, `time.Date` (with Go's normalisation and Go's choice of offset for
//! skipped or repeated wall times), `AddDate`, absolute `Add`, and `Truncate`.
//!
//! Times are whole Unix seconds: robfig drops the sub-second part before its first step
//! and every later step is a whole number of seconds. Arithmetic is plain `i64`, wide
//! enough for any jiff timestamp plus robfig's five-year search; zone data is only asked
//! for instants jiff can represent (the nearest one otherwise).

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::zone_memo::{self, Period, ZoneKey};

pub(crate) const SECONDS_PER_DAY: i64 = 86_400;

/// Days since 1970-01-01 of the given proleptic Gregorian date (month 1–12, any day
/// number: days past the end of the month simply run into the next, as in Go's `Date`).
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    // Shift the year to start in March so the leap day is the last day of the year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The (year, month, day) of a day number counted from 1970-01-01.
pub(crate) fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Go's `norm`: carry `lo` into `hi` so that `0 <= lo < base`.
fn norm(hi: i64, lo: i64, base: i64) -> (i64, i64) {
    (hi + lo.div_euclid(base), lo.rem_euclid(base))
}

/// The Unix second of a jiff timestamp, rounded down (Go keeps nanoseconds in `[0, 1e9)`).
pub(crate) fn floor_second(t: Timestamp) -> i64 {
    let s = t.as_second();
    if t.subsec_nanosecond() < 0 { s - 1 } else { s }
}

/// A Unix second as a jiff timestamp, saturating at jiff's range (Go's is far wider).
pub(crate) fn to_timestamp(unix: i64) -> Timestamp {
    let min = Timestamp::MIN.as_second();
    let max = Timestamp::MAX.as_second();
    if unix < min {
        Timestamp::MIN
    } else if unix > max {
        Timestamp::MAX
    } else {
        Timestamp::from_second(unix).unwrap_or(Timestamp::MAX)
    }
}

/// Offsets of one location, with the period around the last lookup cached (as Go's
/// `Location` caches its current zone): robfig's steps mostly stay inside one period, so
/// most lookups are two comparisons. A zone without transitions (UTC, fixed offsets)
/// fills the cache once with an unbounded period.
pub(crate) struct Zone<'a> {
    tz: &'a TimeZone,
    key: Option<ZoneKey>,
    start: i64,
    end: i64,
    offset: i32,
}

impl<'a> Zone<'a> {
    pub(crate) fn new(tz: &'a TimeZone) -> Zone<'a> {
        // An empty period, so the first lookup fills it.
        Zone {
            tz,
            key: zone_memo::key_of(tz),
            start: 0,
            end: 0,
            offset: 0,
        }
    }

    /// UTC offset in seconds at the instant `unix`.
    pub(crate) fn offset_at(&mut self, unix: i64) -> i32 {
        if self.start <= unix && unix < self.end {
            return self.offset;
        }
        self.fill(unix);
        self.offset
    }

    /// The period of constant offset around `unix`: `[start, end)` and the offset.
    fn period(&mut self, unix: i64) -> (i64, i64, i32) {
        let offset = self.offset_at(unix);
        (self.start, self.end, offset)
    }

    fn fill(&mut self, unix: i64) {
        let tz = self.tz;
        let (min, max) = (Timestamp::MIN.as_second(), Timestamp::MAX.as_second());
        if unix <= min || unix >= max {
            // Outside jiff's range: the nearest representable instant, as a one-instant
            // period so that nothing else is served from it.
            self.offset = tz.to_offset(to_timestamp(unix)).seconds();
            (self.start, self.end) = (unix, unix + 1);
            return;
        }
        if let Some(p) = self.key.and_then(|key| zone_memo::find(key, unix)) {
            (self.start, self.end, self.offset) = (p.start, p.end, p.offset);
            return;
        }
        let at = to_timestamp(unix);
        // `preceding` is strict, so ask from one second later to include `unix`.
        match tz.preceding(to_timestamp(unix + 1)).next() {
            Some(tr) => {
                self.start = tr.timestamp().as_second();
                self.offset = tr.offset().seconds();
            }
            None => {
                self.start = i64::MIN;
                self.offset = tz.to_offset(at).seconds();
            }
        }
        self.end = tz
            .following(at)
            .next()
            .map_or(i64::MAX, |tr| tr.timestamp().as_second());
        if let Some(key) = self.key {
            let period = Period {
                start: self.start,
                end: self.end,
                offset: self.offset,
            };
            zone_memo::remember(key, tz, period);
        }
    }
}

/// A Go `time.Time` (whole seconds) seen in a location: the instant and its wall clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wall {
    pub unix: i64,
    pub year: i64,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    /// Sunday = 0, as Go's `Weekday`.
    pub weekday: u8,
}

/// Builds [`Wall`]s in one location; remembers the last civil date it computed, because
/// consecutive steps usually land on the same local day.
pub(crate) struct Clock<'a> {
    zone: Zone<'a>,
    last_days: i64,
    last_date: (i64, u8, u8, u8),
}

impl<'a> Clock<'a> {
    pub(crate) fn new(tz: &'a TimeZone) -> Clock<'a> {
        Clock {
            zone: Zone::new(tz),
            last_days: i64::MIN,
            last_date: (0, 0, 0, 0),
        }
    }

    /// The wall clock at the instant `unix` (Go's `t.In(loc)` field accessors).
    pub(crate) fn at(&mut self, unix: i64) -> Wall {
        let local = unix + i64::from(self.zone.offset_at(unix));
        let days = local.div_euclid(SECONDS_PER_DAY);
        let secs = local.rem_euclid(SECONDS_PER_DAY);
        if days != self.last_days {
            let (y, m, d) = civil_from_days(days);
            // 1970-01-01 was a Thursday (4).
            let wd = (days + 4).rem_euclid(7) as u8;
            self.last_days = days;
            self.last_date = (y, m, d, wd);
        }
        let (year, month, day, weekday) = self.last_date;
        Wall {
            unix,
            year,
            month,
            day,
            hour: (secs / 3600) as u8,
            minute: (secs / 60 % 60) as u8,
            second: (secs % 60) as u8,
            weekday,
        }
    }

    /// Go's `time.Date(year, month, day, hour, min, sec, 0, loc)`.
    ///
    /// Out-of-range fields carry over as in Go. The wall time is first read as if it were
    /// UTC to find an offset; if that offset is non-zero, the offset in effect at the
    /// resulting instant is used instead. This is how Go lands a skipped wall time on the
    /// offset after the transition (one wall hour earlier for a spring-forward in the
    /// Americas) and picks between the two instances of a repeated wall time.
    pub(crate) fn date(
        &mut self,
        year: i64,
        month: i64,
        day: i64,
        hour: i64,
        min: i64,
        sec: i64,
    ) -> Wall {
        let (year, m0) = norm(year, month - 1, 12);
        let (min, sec) = norm(min, sec, 60);
        let (hour, min) = norm(hour, min, 60);
        let (day, hour) = norm(day, hour, 24);
        let days = days_from_civil(year, m0 + 1, 1) + day - 1;
        let local = days * SECONDS_PER_DAY + hour * 3600 + min * 60 + sec;
        let first = i64::from(self.zone.offset_at(local));
        let unix = if first != 0 {
            local - i64::from(self.zone.offset_at(local - first))
        } else {
            local
        };
        self.at(unix)
    }

    /// Go's `t.AddDate(0, months, days)`: the wall clock, moved on, rebuilt by `Date`.
    pub(crate) fn add_date(&mut self, t: &Wall, months: i64, days: i64) -> Wall {
        self.date(
            t.year,
            i64::from(t.month) + months,
            i64::from(t.day) + days,
            i64::from(t.hour),
            i64::from(t.minute),
            i64::from(t.second),
        )
    }

    /// Go's `t.Add(d)`: absolute time.
    pub(crate) fn add_seconds(&mut self, t: &Wall, seconds: i64) -> Wall {
        self.at(t.unix + seconds)
    }

    /// The UTC-offset period around `t`: `[start, end)` and the offset in seconds.
    pub(crate) fn period(&mut self, t: &Wall) -> (i64, i64, i64) {
        let (start, end, offset) = self.zone.period(t.unix);
        (start, end, i64::from(offset))
    }

    /// How many consecutive absolute steps of `step` seconds from `t` keep the offset in
    /// effect at `t`. With `dated`, each landing's wall time read as UTC (where Go's
    /// `Date` looks first) must keep it too. Within such a run the wall clock moves by
    /// exactly `step` per step, which is what lets robfig's loops be fast-forwarded.
    pub(crate) fn steps_in_period(&mut self, t: &Wall, step: i64, dated: bool) -> i64 {
        let (start, end, offset) = self.period(t);
        if dated && t.unix + step + offset.min(0) < start {
            return 0;
        }
        if end == i64::MAX {
            return i64::MAX;
        }
        let reach = if dated { offset.max(0) } else { 0 };
        ((end - 1 - reach - t.unix) / step).max(0)
    }

    /// Go's `t.Truncate(time.Minute)`: on absolute time since Go's zero time, whose
    /// distance to the Unix epoch is a whole number of minutes, so a floor on Unix seconds.
    pub(crate) fn truncate_minute(&mut self, t: &Wall) -> Wall {
        self.at(t.unix.div_euclid(60) * 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip() {
        for days in (-4_000_000..4_000_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, i64::from(m), i64::from(d)), days);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(days_from_civil(1, 1, 1)), (1, 1, 1));
        // Day overflow runs into the next month, as Go's Date normalises it.
        assert_eq!(days_from_civil(2023, 2, 29), days_from_civil(2023, 3, 1));
    }

    fn ny() -> TimeZone {
        TimeZone::get("America/New_York").unwrap()
    }

    #[test]
    fn go_date_picks_go_offsets() {
        let tz = ny();
        let mut c = Clock::new(&tz);
        // Skipped 02:30 → 01:30 EST (06:30Z).
        let t = c.date(2021, 3, 14, 2, 30, 0);
        assert_eq!((t.hour, t.minute, t.unix), (1, 30, 1_615_703_400));
        // Repeated 01:30 → the first (EDT) instance, 05:30Z.
        let t = c.date(2021, 11, 7, 1, 30, 0);
        assert_eq!(t.unix, 1_636_263_000);
        // Month 13 and day 32 carry over.
        let t = c.date(2021, 13, 32, 0, 0, 0);
        assert_eq!((t.year, t.month, t.day), (2022, 2, 1));
    }

    #[test]
    fn floor_second_rounds_down_before_epoch() {
        let t = Timestamp::new(-5, -1).unwrap();
        assert_eq!(floor_second(t), -6);
        assert_eq!(floor_second(Timestamp::new(5, 1).unwrap()), 5);
    }
}
