//! `Schedule::next_checked` at the end of jiff's range (9999-12-30T22:00:00Z): a run after it
//! is `BeyondRange`, never a saturated `Timestamp::MAX` posing as a run.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::{Fire, parse_standard};

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

#[test]
fn runs_past_the_last_timestamp_are_beyond_range() {
    let utc = TimeZone::UTC;
    let daily = parse_standard("0 3 * * *").unwrap();
    assert_eq!(
        daily.next_checked(ts("9999-12-29T03:00:00Z"), &utc),
        Fire::At(ts("9999-12-30T03:00:00Z"))
    );
    assert_eq!(
        daily.next_checked(ts("9999-12-30T03:00:00Z"), &utc),
        Fire::BeyondRange
    );
    // The saturating `next` is unchanged (the replay relies on it).
    assert_eq!(
        daily.next(ts("9999-12-30T03:00:00Z"), &utc),
        Some(Timestamp::MAX)
    );
    // A run exactly at the last second is a run.
    let last = parse_standard("0 22 30 12 *").unwrap();
    assert_eq!(
        last.next_checked(ts("9999-12-30T00:00:00Z"), &utc),
        Fire::At(ts("9999-12-30T22:00:00Z"))
    );
    let every = parse_standard("@every 1h").unwrap();
    assert_eq!(
        every.next_checked(ts("9999-12-30T21:30:00Z"), &utc),
        Fire::BeyondRange
    );
    // "Never" stays never.
    let never = parse_standard("0 0 30 2 *").unwrap();
    assert_eq!(
        never.next_checked(ts("9999-01-01T00:00:00Z"), &utc),
        Fire::Never
    );
    // In a zone east of UTC the local end of year 9999 is past the last timestamp too.
    let tokyo = parse_standard("TZ=Asia/Tokyo 0 9 * * *").unwrap();
    assert_eq!(
        tokyo.next_checked(ts("9999-12-30T00:00:00Z"), &utc),
        Fire::BeyondRange
    );
}
