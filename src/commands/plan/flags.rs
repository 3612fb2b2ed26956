//! The values of flags that are more than clap's grammar: an instant within the range the
//! replay can compute, a controller zone by Go's rules.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::error::{Error, UsageError};

/// The latest `--now` a replay accepts. The replay and the rules look ahead of "now" (robfig's
/// 5-year window, chained; the never-fires rule's 10-year horizon), and every time they
/// compute must fit a timestamp (up to 9999-12-30T22:00:00Z), so "now" stops 20 years short.
pub const LATEST_NOW: Timestamp = Timestamp::constant(252_771_148_799, 0); // 9979-12-31T23:59:59Z

/// The last whole second a timestamp here can hold, for messages.
fn last_computable() -> Timestamp {
    Timestamp::constant(Timestamp::MAX.as_second(), 0)
}

/// Parse an RFC 3339 instant given on the command line: any instant a timestamp here can hold.
/// RFC 3339 goes on to 9999-12-31T23:59:59Z; the last hours of year 9999 are refused with
/// that reason, not as "not an RFC 3339 instant".
pub fn parse_rfc3339(flag: &str, value: &str) -> Result<Timestamp, Error> {
    value.parse::<Timestamp>().map_err(|e| {
        let valid_but_late = jiff::fmt::temporal::Pieces::parse(value)
            .is_ok_and(|p| p.time().is_some() && p.offset().is_some() && p.date().year() >= 9999);
        let (flag, value) = (flag.to_string(), value.to_string());
        if valid_but_late {
            UsageError::InstantBeyondRange {
                flag,
                value,
                last: last_computable(),
            }
            .into()
        } else {
            UsageError::NotAnInstant {
                flag,
                value,
                source: e,
            }
            .into()
        }
    })
}

/// Parse `--now` (RFC 3339), up to [`LATEST_NOW`].
pub fn parse_instant(flag: &str, value: &str) -> Result<Timestamp, Error> {
    if flag == "--now" && value == "dump" {
        return Err(UsageError::NowDumpLive.into());
    }
    let t = parse_rfc3339(flag, value)?;
    check_now(flag, value, t)
}

/// Refuse a "now" past [`LATEST_NOW`] (typed, or the newest timestamp of a hostile dump).
pub fn check_now(flag: &str, value: &str, t: Timestamp) -> Result<Timestamp, Error> {
    if t > LATEST_NOW {
        return Err(UsageError::NowBeyondRange {
            flag: flag.to_string(),
            value: value.to_string(),
            last: last_computable(),
            latest: LATEST_NOW,
        }
        .into());
    }
    Ok(t)
}

/// Resolve `--controller-time-zone` with Go's rules. "Local" is refused: the point of the
/// flag is to name the controller's zone, which we cannot know from here.
pub fn controller_zone(name: &str) -> Result<TimeZone, Error> {
    match schedule::load_location(name) {
        Ok(Some(loc)) => Ok(loc.tz),
        Ok(None) => Err(UsageError::ControllerZoneLocal.into()),
        Err(e) => Err(UsageError::ControllerZone {
            name: name.to_string(),
            source: e,
        }
        .into()),
    }
}

/// `--timeout` of `trigger --wait`: the same grammar as `--request-timeout`, with its own
/// limit (the 168h clap accepts, not the 24h of a single request). None: no limit (`0`).
pub fn wait_timeout(text: &str) -> Result<Option<std::time::Duration>, Error> {
    crate::cli::ranges::bounded_duration(
        text,
        crate::cli::ranges::WAIT_TIMEOUT_MAX,
        "168h (7 days)",
    )
    .map_err(|e| {
        UsageError::WaitTimeout {
            value: text.to_string(),
            source: e,
        }
        .into()
    })
}
