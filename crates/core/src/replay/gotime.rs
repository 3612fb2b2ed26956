//! The Go `time` semantics the controller arithmetic depends on, restated for jiff.
//!
//! Three things matter and are easy to get subtly wrong:
//! * a `time.Time` carries a *location*. robfig evaluates a schedule without `TZ=` prefix in
//!   the location of the time passed to `Next`, so a UTC-located value (the 1.21–1.27 linear
//!   estimate, or Go's zero time) is evaluated in UTC even when the controller runs in another
//!   zone. [`GoTime`] keeps that bit.
//! * robfig returns the *zero time* (0001-01-01 UTC) for "never"; the controller compares it
//!   with `now` like any other time (zero ≤ now), which is how the E36 hang arises.
//! * `time.Duration` is int64 nanoseconds: `Sub` saturates at ±292 years, `Round` rounds half
//!   away from zero, `Seconds()` goes through float64, and multiplication wraps.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::Schedule;

pub(crate) const NANOS: i64 = 1_000_000_000;
/// Seconds from the Unix epoch to Go's zero time, 0001-01-01T00:00:00Z.
const GO_ZERO_UNIX: i64 = -62_135_596_800;

/// Which `*time.Location` a Go time value carries (only the distinction that matters here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    /// `time.Local`: the controller process's zone (`now`, decoded metav1 times).
    Local,
    /// UTC: Go's zero time and the values the 1.21–1.27 linear estimate returns.
    Utc,
}

/// A Go `time.Time`: an instant plus the location it is displayed (and robfig-evaluated) in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GoTime {
    pub ts: Timestamp,
    pub loc: Loc,
}

impl GoTime {
    pub fn local(ts: Timestamp) -> GoTime {
        GoTime {
            ts,
            loc: Loc::Local,
        }
    }

    /// Go's zero time (`time.Time{}`), what robfig returns for "no activation".
    pub fn zero() -> GoTime {
        GoTime {
            ts: Timestamp::from_second(GO_ZERO_UNIX).expect("year 1 is in range"),
            loc: Loc::Utc,
        }
    }

    pub fn is_zero(self) -> bool {
        self.ts.as_second() == GO_ZERO_UNIX && self.ts.subsec_nanosecond() == 0
    }

    pub fn before(self, o: GoTime) -> bool {
        self.ts < o.ts
    }

    pub fn after(self, o: GoTime) -> bool {
        self.ts > o.ts
    }

    /// `t.Add(d)`; the location is kept. Clamped to jiff's range (never reached by sane input).
    pub fn add_nanos(self, d: i128) -> GoTime {
        let n = (self.ts.as_nanosecond() + d).clamp(
            Timestamp::MIN.as_nanosecond(),
            Timestamp::MAX.as_nanosecond(),
        );
        GoTime {
            ts: Timestamp::from_nanosecond(n).expect("clamped"),
            loc: self.loc,
        }
    }

    /// `t.Unix()`: floor seconds.
    pub fn unix(self) -> i64 {
        self.ts.as_nanosecond().div_euclid(NANOS as i128) as i64
    }

    /// `time.Unix(sec, 0).UTC()`.
    pub fn unix_utc(sec: i64) -> GoTime {
        let n = (sec as i128 * NANOS as i128).clamp(
            Timestamp::MIN.as_nanosecond(),
            Timestamp::MAX.as_nanosecond(),
        );
        GoTime {
            ts: Timestamp::from_nanosecond(n).expect("clamped"),
            loc: Loc::Utc,
        }
    }
}

/// Truncate to whole seconds (floor): `metav1.Time` carries whole seconds only.
pub(crate) fn whole_seconds(ts: Timestamp) -> Timestamp {
    let s = ts.as_nanosecond().div_euclid(NANOS as i128) * NANOS as i128;
    Timestamp::from_nanosecond(s).expect("floor stays in range")
}

/// Go's `a.Sub(b)`: nanoseconds, saturating at the int64 bounds.
pub(crate) fn sub(a: GoTime, b: GoTime) -> i64 {
    let d = a.ts.as_nanosecond() - b.ts.as_nanosecond();
    d.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// Go's `Duration.Seconds()` (float64, computed as whole part + fraction like Go does).
fn seconds_f64(d: i64) -> f64 {
    let sec = d / NANOS;
    let nsec = d % NANOS;
    sec as f64 + nsec as f64 / 1e9
}

/// `int64(d.Seconds())`: truncation toward zero after the float64 round trip.
pub(crate) fn trunc_seconds(d: i64) -> i64 {
    seconds_f64(d) as i64
}

/// `int64(d.Round(time.Second).Seconds())`.
pub(crate) fn round_seconds(d: i64) -> i64 {
    seconds_f64(round_duration(d, NANOS)) as i64
}

/// Go's `Duration.Round(m)`: half away from zero, saturating, with Go's wrapping arithmetic.
fn round_duration(d: i64, m: i64) -> i64 {
    let less_than_half = |x: i64, y: i64| (x as u64).wrapping_add(x as u64) < y as u64;
    if m <= 0 {
        return d;
    }
    let mut r = d % m;
    if d < 0 {
        r = -r;
        if less_than_half(r, m) {
            return d + r;
        }
        let d1 = d.wrapping_sub(m).wrapping_add(r);
        return if d1 < d { d1 } else { i64::MIN };
    }
    if less_than_half(r, m) {
        return d - r;
    }
    let d1 = d.wrapping_add(m).wrapping_sub(r);
    if d1 > d { d1 } else { i64::MAX }
}

/// `time.Duration(n) * time.Second` with Go's wrapping int64 multiplication.
pub(crate) fn seconds_duration(n: i64) -> i64 {
    n.wrapping_mul(NANOS)
}

/// The schedule plus the controller's Local zone: robfig `Next` on Go time values.
#[derive(Clone, Debug)]
pub(crate) struct Clock<'a> {
    pub sched: &'a Schedule,
    pub local: &'a TimeZone,
    /// The schedule can never fire (an empty field): `Next` is the zero time without the
    /// five-year minute-by-minute scan robfig would do. Pure speed-up, same result.
    pub never: bool,
}

impl<'a> Clock<'a> {
    pub fn new(sched: &'a Schedule, local: &'a TimeZone) -> Clock<'a> {
        Clock {
            sched,
            local,
            never: never_fires(sched),
        }
    }

    /// robfig `Next(t)`: first activation strictly after `t`, in `t`'s location; zero time when
    /// there is none within robfig's five-year search.
    pub fn next(&self, t: GoTime) -> GoTime {
        if self.never {
            return GoTime::zero();
        }
        let zone = match t.loc {
            Loc::Local => self.local,
            Loc::Utc => &TimeZone::UTC,
        };
        match self.sched.next(t.ts, zone) {
            Some(ts) => GoTime { ts, loc: t.loc },
            None => GoTime::zero(),
        }
    }
}

/// True when a field's bit set is empty (e.g. `, * * * *`), so no time can ever match.
fn never_fires(s: &Schedule) -> bool {
    use schedule::{STAR_BIT, ScheduleKind};
    let ScheduleKind::Spec(spec) = &s.kind else {
        return false;
    };
    let bits = |f: u64| f & !STAR_BIT;
    let star = |f: u64| f & STAR_BIT != 0;
    if [spec.second, spec.minute, spec.hour, spec.month]
        .iter()
        .any(|&f| bits(f) == 0)
    {
        return true;
    }
    // dayMatches: AND when either field has the star bit, else OR.
    let (dom, dow) = (bits(spec.dom), bits(spec.dow));
    if star(spec.dom) || star(spec.dow) {
        dom == 0 || dow == 0
    } else {
        dom == 0 && dow == 0
    }
}

/// Go's `t.Format(time.RFC3339)` after `t.In(tz)`: seconds precision, `Z` for a zero offset.
pub(crate) fn rfc3339_in(ts: Timestamp, tz: &TimeZone) -> String {
    let dt = tz.to_datetime(ts);
    let off = tz.to_offset(ts).seconds();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second(),
        offset_text(off, ":", true)
    )
}

/// Go's `time.RFC1123Z` (`Mon, 02 Jan 2006 15:04:05 -0700`) in `tz`.
pub(crate) fn rfc1123z_in(ts: Timestamp, tz: &TimeZone) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let dt = tz.to_datetime(ts);
    let off = tz.to_offset(ts).seconds();
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} {}",
        DAYS[dt.weekday().to_sunday_zero_offset() as usize],
        dt.day(),
        MONTHS[(dt.month() - 1) as usize],
        dt.year(),
        dt.hour(),
        dt.minute(),
        dt.second(),
        offset_text(off, "", false)
    )
}

/// `±hh:mm` / `±hhmm` (Go drops offset seconds in these layouts); `Z` if `z_for_zero`.
fn offset_text(off: i32, sep: &str, z_for_zero: bool) -> String {
    if off == 0 && z_for_zero {
        return "Z".to_string();
    }
    let sign = if off < 0 { '-' } else { '+' };
    let a = off.unsigned_abs() / 60;
    format!("{sign}{:02}{sep}{:02}", a / 60, a % 60)
}

pub(crate) use crate::text::go_quote;
