//! The server's idea of "now": stamps `Date` headers, `creationTimestamp`s and managedFields
//! times, so a client that reads "now" from the server (and detects skew) can be tested.

use jiff::{SignedDuration, Timestamp};

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
}

impl Clock {
    pub fn now(&self) -> Timestamp {
        match *self {
            Clock::Real => Timestamp::now(),
            Clock::Fixed(t) => t,
            Clock::Offset(d) => Timestamp::now().saturating_add(d).expect("offset in range"),
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
}
