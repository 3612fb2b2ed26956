//! A per-thread memo of UTC-offset periods already looked up, per time zone.
//!
//! Finding the period around an instant costs jiff two transition searches, which for
//! rule-based years (after a zone's last listed transition) means computing that year's
//! rule dates — several times the cost of the rest of a typical `Next`. Go avoids the
//! same cost by caching the current period in each `Location`; our `Location` has no room
//! for that (its fields are public API), so periods are remembered here instead.
//!
//! Zones are identified by the address of their IANA name, which lives inside jiff's
//! shared zone data: clones of one `TimeZone` share it, and each entry keeps a clone, so
//! the address cannot be reused by another zone while the entry exists. Unnamed zones
//! (fixed offsets, POSIX strings) are not memoised; they are cheap or rare.

use std::cell::RefCell;

use jiff::tz::TimeZone;

/// A period of constant offset: `[start, end)` in Unix seconds, and the offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Period {
    pub start: i64,
    pub end: i64,
    pub offset: i32,
}

/// Identity of a named zone's data (address and length of its name).
pub(crate) type ZoneKey = (usize, usize);

pub(crate) fn key_of(tz: &TimeZone) -> Option<ZoneKey> {
    tz.iana_name()
        .map(|name| (name.as_ptr() as usize, name.len()))
}

struct Entry {
    key: ZoneKey,
    /// Keeps the zone data, and so the key's address, alive.
    _zone: TimeZone,
    /// Sorted by `start`, non-overlapping.
    periods: Vec<Period>,
}

/// Bounds keep the memo small whatever the caller does.
const MAX_ZONES: usize = 8;
const MAX_PERIODS: usize = 2048;

thread_local! {
    static MEMO: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The remembered period containing `unix`, if any.
pub(crate) fn find(key: ZoneKey, unix: i64) -> Option<Period> {
    MEMO.with(|memo| {
        let memo = memo.try_borrow().ok()?;
        let entry = memo.iter().find(|e| e.key == key)?;
        let i = entry.periods.partition_point(|p| p.start <= unix);
        let p = *entry.periods.get(i.checked_sub(1)?)?;
        (unix < p.end).then_some(p)
    })
}

/// Remembers a period of `tz` (whose key is `key`).
pub(crate) fn remember(key: ZoneKey, tz: &TimeZone, period: Period) {
    MEMO.with(|memo| {
        let Ok(mut memo) = memo.try_borrow_mut() else {
            return;
        };
        let idx = match memo.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                if memo.len() >= MAX_ZONES {
                    memo.remove(0);
                }
                memo.push(Entry {
                    key,
                    _zone: tz.clone(),
                    periods: Vec::new(),
                });
                memo.len() - 1
            }
        };
        let periods = &mut memo[idx].periods;
        if periods.len() >= MAX_PERIODS {
            periods.clear();
        }
        let i = periods.partition_point(|p| p.start < period.start);
        if periods.get(i) != Some(&period) {
            periods.insert(i, period);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_by_zone_and_instant() {
        let ny = TimeZone::get("America/New_York").unwrap();
        let key = key_of(&ny).unwrap();
        let p = Period {
            start: 100,
            end: 200,
            offset: -18_000,
        };
        remember(key, &ny, p);
        assert_eq!(find(key, 100), Some(p));
        assert_eq!(find(key, 199), Some(p));
        assert_eq!(find(key, 200), None);
        assert_eq!(find(key, 99), None);
        // A clone shares the data, hence the key.
        assert_eq!(key_of(&ny.clone()), Some(key));
        assert!(key_of(&TimeZone::fixed(jiff::tz::offset(3))).is_none());
    }
}
