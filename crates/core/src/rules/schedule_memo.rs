//! Answers about a schedule's upcoming runs shared across CronJobs: a per-thread memo (see
//! [`crate::memo`]) keyed by the formatted schedule, the controller's zone and "now".
//!
//! Why: some rules walk the engine's next runs from "now" for every CronJob and again in
//! every re-check of its fix plan (the cadence of the next 32 runs, the next runs up to ten
//! years ahead for `never-fires`). A cluster holds a few hundred distinct schedules over
//! thousands of CronJobs and "now" is one instant per run, so at `scan -A` scale that walk
//! was repeated thousands of times over for the same answer. The answer is a pure function
//! of the key: the parsed schedule is the parse of the formatted one (`Context::schedule`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::thread::LocalKey;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::memo::{CAPACITY, Map, get_or};
use crate::rules::Context;

/// Formatted schedule, controller zone name, now.
pub(crate) type Key = (String, String, Timestamp);

/// The controller zone (the key holds only its name) and the answer.
pub(crate) type Entry<A> = (TimeZone, A);

/// `compute()` for `ctx`'s schedule, zone and now, computed once per thread for each key.
/// Computed afresh when the schedule or the zone has no cheap key (no formatted schedule; a
/// zone without an IANA name, such as a fixed offset).
pub(crate) fn shared<A: Clone + 'static>(
    memo: &'static LocalKey<Map<Key, Entry<A>>>,
    ctx: &Context,
    compute: impl FnOnce() -> A,
) -> A {
    let (Some(formatted), Some(zone_name)) =
        (ctx.effective_schedule, ctx.controller_zone.iana_name())
    else {
        return compute();
    };
    let key: Key = (formatted.to_string(), zone_name.to_string(), ctx.now);
    let valid = |e: &Entry<A>| e.0 == *ctx.controller_zone;
    get_or(memo, CAPACITY, key, valid, || {
        (ctx.controller_zone.clone(), compute())
    })
    .1
}

/// A memo's map, for `thread_local!`.
pub(crate) fn map<A>() -> Map<Key, Entry<A>> {
    RefCell::new(HashMap::new())
}
