//! Upcoming activations shared across CronJobs: a per-thread memo of `next_times(after,
//! count)` keyed by the formatted schedule, the controller's zone and the arguments.
//!
//! Why: the missed-slot scenario search (`rules::runtime::scenario`) samples the next 400
//! activations after "now" for every CronJob, and again in every re-check of a fix plan. A
//! cluster holds a few hundred distinct schedules over thousands of CronJobs and "now" is one
//! instant per run, so at `scan -A` scale (10,000 CronJobs) that sampling was the largest
//! single cost of the diagnosis (robfig `Next` with Go's zone arithmetic, 400 times each).
//! The answer is a pure function of the key: `formatted` alone determines the parsed schedule.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::slots::EffectiveSchedule;
use crate::memo::{Map, get_or};

type Key = (String, String, Timestamp, usize);

/// The controller zone (the key holds only its name) and the answer.
type Entry = (TimeZone, Rc<[Timestamp]>);

thread_local! {
    static MEMO: Map<Key, Entry> = RefCell::new(HashMap::new());
}

/// An entry holds up to 400 instants (~6.4 KB) and is keyed by "now", so it is reused only
/// within one pass at one instant (a scan; the monitor's first sync). 1,024 entries (~6.5 MB
/// per thread) cover the few hundred schedules of a large cluster; the general bound of
/// 4,096 would let a long-running monitor, whose "now" moves on every diagnosis, keep ~26 MB
/// of stale entries per thread.
const SLOT_CAPACITY: usize = 1024;

/// `eff.next_times(after, count)`, computed once per thread for each key (see [`crate::memo`]).
pub(crate) fn next_times(
    eff: &EffectiveSchedule,
    after: Timestamp,
    count: usize,
) -> Rc<[Timestamp]> {
    // A zone without an IANA name (a fixed offset, a POSIX TZ string) has no cheap key.
    let Some(zone_name) = eff.controller_zone.iana_name() else {
        return eff.next_times(after, count).into();
    };
    let key: Key = (eff.formatted.clone(), zone_name.to_string(), after, count);
    let valid = |e: &Entry| e.0 == eff.controller_zone;
    let compute = || {
        (
            eff.controller_zone.clone(),
            eff.next_times(after, count).into(),
        )
    };
    get_or(&MEMO, SLOT_CAPACITY, key, valid, compute).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CronJob;
    use crate::replay::KubeVersion;

    fn effective(schedule: &str, time_zone: Option<&str>, local: &str) -> EffectiveSchedule {
        let mut cj = CronJob::default();
        cj.spec.schedule = Some(schedule.into());
        cj.spec.time_zone = time_zone.map(str::to_string);
        let zone = jiff::tz::TimeZone::get(local).unwrap();
        EffectiveSchedule::for_cron_job(&cj, KubeVersion::NEWEST, &zone).unwrap()
    }

    #[test]
    fn memoised_times_are_the_computed_ones() {
        let now: Timestamp = "2026-03-07T12:00:00Z".parse().unwrap();
        let cases = [
            ("30 2 * * *", None, "America/New_York"),
            ("30 2 * * *", None, "UTC"),
            ("30 2 * * *", Some("Europe/Berlin"), "UTC"),
            ("0 9 * * 1-5", None, "Australia/Lord_Howe"),
            ("TZ=Pacific/Chatham 45 2 * * *", None, "UTC"),
            ("@every 90m", None, "UTC"),
            ("0 0 30 2 *", None, "UTC"),
        ];
        // Twice over: the second pass is answered from the memo, and every answer must be
        // what a fresh computation gives for that schedule and zone (never another's).
        for _ in 0..2 {
            for (schedule, tz, local) in cases {
                let eff = effective(schedule, tz, local);
                for (after, count) in [
                    (now, 400),
                    (now, 3),
                    ("2026-10-31T00:00:00Z".parse().unwrap(), 400),
                ] {
                    let fresh = crate::memo::bypassed(|| next_times(&eff, after, count));
                    assert_eq!(&*fresh, eff.next_times(after, count).as_slice());
                    assert_eq!(
                        &*next_times(&eff, after, count),
                        &*fresh,
                        "{schedule} {tz:?} in {local} after {after} ×{count}"
                    );
                }
            }
        }
    }
}
