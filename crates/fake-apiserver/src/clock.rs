//! The server's idea of "now": stamps `Date` headers, `creationTimestamp`s and managedFields
//! times, so a client that reads "now" from the server (and detects skew) can be tested.
//!
//! Besides the machine's clock and a frozen instant, the clock can *run* from a chosen
//! instant, optionally faster than real time: a long-running client (the monitor) then sees
//! time pass on the server without a test waiting for real minutes to go by.

use jiff::{SignedDuration, Timestamp};
use std::time::Instant;

/// How the fake server tells time.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Clock {
    /// The machine's clock.
    #[default]
    Real,
    /// Frozen at one instant: deterministic output for snapshot tests.
    Fixed(Timestamp),
    /// The machine's clock shifted: a server whose clock runs ahead (or behind) the client's.
    Offset(SignedDuration),
    /// Ticking from `origin`, which it showed at the machine instant `anchor`, advancing
    /// `rate` server seconds per real second (1.0: real speed). Build with [`Clock::running`]
    /// or [`Clock::running_at_rate`].
    Running {
        origin: Timestamp,
        anchor: Instant,
        rate: f64,
    },
}

impl Clock {
    /// A clock that starts at `from` now and advances with real time.
    pub fn running(from: Timestamp) -> Clock {
        Self::running_at_rate(from, 1.0)
    }

    /// A clock that starts at `from` now and advances `rate` seconds per real second. A
    /// negative rate would run time backwards, which no server does: it counts as 0 (frozen),
    /// and a non-finite rate as 1.
    pub fn running_at_rate(from: Timestamp, rate: f64) -> Clock {
        let rate = if rate.is_finite() { rate.max(0.0) } else { 1.0 };
        Clock::Running {
            origin: from,
            anchor: Instant::now(),
            rate,
        }
    }

    pub fn now(&self) -> Timestamp {
        match *self {
            Clock::Real => Timestamp::now(),
            Clock::Fixed(t) => t,
            Clock::Offset(d) => Timestamp::now().saturating_add(d).expect("offset in range"),
            Clock::Running {
                origin,
                anchor,
                rate,
            } => {
                let secs = anchor.elapsed().as_secs_f64() * rate;
                // Saturate rather than panic: a huge rate over a long test stays at the end of time.
                let elapsed =
                    SignedDuration::try_from_secs_f64(secs).unwrap_or(SignedDuration::MAX);
                origin.saturating_add(elapsed).unwrap_or(Timestamp::MAX)
            }
        }
    }

    /// The same clock moved by `by` (a frozen clock jumps, a running one keeps running from
    /// the moved instant, the real clock becomes an offset one).
    pub fn advanced(&self, by: SignedDuration) -> Clock {
        match *self {
            Clock::Real => Clock::Offset(by),
            Clock::Fixed(t) => Clock::Fixed(t.saturating_add(by).unwrap_or(Timestamp::MAX)),
            Clock::Offset(d) => Clock::Offset(d.saturating_add(by)),
            Clock::Running {
                origin,
                anchor,
                rate,
            } => Clock::Running {
                origin: origin.saturating_add(by).unwrap_or(Timestamp::MAX),
                anchor,
                rate,
            },
        }
    }
}

/// RFC 3339 at whole seconds, as `metav1.Time` serialises (`2025-01-02T03:04:05Z`).
pub fn rfc3339(t: Timestamp) -> String {
    Timestamp::from_second(t.as_second())
        .expect("in range")
        .to_string()
}

/// RFC 9110 IMF-fixdate for the `Date` header (`Sun, 06 Nov 1994 08:49:37 GMT`).
pub fn http_date(t: Timestamp) -> String {
    jiff::fmt::rfc2822::DateTimePrinter::new()
        .timestamp_to_rfc9110_string(&t)
        .expect("timestamp in RFC 9110 range")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let t: Timestamp = "1994-11-06T08:49:37.25Z".parse().unwrap();
        assert_eq!(http_date(t), "Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(rfc3339(t), "1994-11-06T08:49:37Z");
        assert_eq!(Clock::Fixed(t).now(), t);
    }

    #[test]
    fn a_running_clock_advances_at_its_rate_from_its_origin() {
        let t: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let fast = Clock::running_at_rate(t, 3600.0);
        let first = fast.now();
        assert!(first >= t);
        std::thread::sleep(std::time::Duration::from_millis(20));
        let later = fast.now();
        // 20 ms of real time at an hour per second is at least 72 s of server time.
        assert!(
            later.duration_since(t) >= SignedDuration::from_secs(72),
            "{t} -> {later}"
        );
        let frozen = Clock::running_at_rate(t, -5.0);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(frozen.now(), t, "a negative rate counts as frozen");
        assert_eq!(
            Clock::Fixed(t).advanced(SignedDuration::from_mins(5)).now(),
            "2026-01-01T00:05:00Z".parse::<Timestamp>().unwrap()
        );
        let moved = Clock::running(t)
            .advanced(SignedDuration::from_hours(1))
            .now();
        assert!(moved >= "2026-01-01T01:00:00Z".parse::<Timestamp>().unwrap());
        assert!(moved < "2026-01-01T01:01:00Z".parse::<Timestamp>().unwrap());
    }
}
