//! The run of activations after an instant, walked once and shared by every count over it:
//! a small per-thread memo of `next(from), next(next(from)), …` keyed by the formatted
//! schedule, the controller's zone and `from`.
//!
//! Why: a fix plan re-checks a suspended CronJob as resumed. The patched copy's replay counts
//! the slots since `lastScheduleTime` (`slots::truth`), and `not-running` and
//! `only-latest-missed-runs` list them again (`EffectiveSchedule::slots_in`): three walks of up
//! to 10,000 robfig `Next` calls over the same run, in every re-check of the plan. At
//! `scan -A` scale those walks were a good part of the whole scan's CPU (BENCHMARKS.md,
//! "scan -A at scale"). The re-checks of one
//! CronJob follow each other on one thread, so a handful of runs kept is enough.
//!
//! Exactness: every walk it replaces starts at `next(local(from))` and steps with `next` until
//! the zero time or its own bound; the run is that same sequence, stored, so each walk reads
//! the elements it would have computed (robfig's `Next` may return its input or an earlier
//! instant: the run keeps them as they come, and each walk stops where it stopped before).

use std::cell::RefCell;
use std::collections::VecDeque;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::gotime::{Clock, GoTime};
use super::slots::EffectiveSchedule;

/// Runs kept per thread (the re-checks of one plan use one or two).
const RUNS_KEPT: usize = 8;

/// The longest run kept: every walk of the diagnosis reads at most 10,001 elements (a cap of
/// 10,000 plus the one that shows it was reached). A longer walk is computed without the
/// memo, so a run holds at most ~320 KB.
pub(crate) const RUN_LIMIT: usize = 10_001;

struct Run {
    formatted: String,
    zone: TimeZone,
    from: Timestamp,
    times: Vec<GoTime>,
    /// `next` returned the zero time after the last element: the run is complete.
    ended: bool,
}

thread_local! {
    static RUNS: RefCell<VecDeque<Run>> = const { RefCell::new(VecDeque::new()) };
}

/// The activations after one instant, computed as they are read.
pub(crate) struct RunView<'a> {
    clock: Clock<'a>,
    start: GoTime,
    times: Vec<GoTime>,
    ended: bool,
}

impl RunView<'_> {
    /// Element `i` of the run (`next` applied `i + 1` times to `local(from)`), or None when
    /// the run ends (robfig's zero time: "never") before it.
    pub fn get(&mut self, i: usize) -> Option<GoTime> {
        while self.times.len() <= i && !self.ended {
            let t = match self.times.last() {
                Some(&prev) => self.clock.next(prev),
                None => self.clock.next(self.start),
            };
            if t.is_zero() {
                self.ended = true;
            } else {
                self.times.push(t);
            }
        }
        self.times.get(i).copied()
    }
}

/// Run `walk` over the run of `eff` after `from`, reading at most `reads` elements: from the
/// memo when this thread walked it before, else computed (and kept when `reads` is within
/// [`RUN_LIMIT`], the memo is not bypassed and the zone has an IANA name to key it by).
pub(crate) fn walk<R>(
    eff: &EffectiveSchedule,
    from: Timestamp,
    reads: usize,
    walk: impl FnOnce(&mut RunView) -> R,
) -> R {
    let clock = eff.clock();
    let start = GoTime::local(from);
    let keyed = eff.controller_zone.iana_name().is_some()
        && reads <= RUN_LIMIT
        && !crate::memo::bypassing();
    if !keyed {
        return walk(&mut RunView {
            clock,
            start,
            times: Vec::new(),
            ended: false,
        });
    }
    // Taken out of the memo while walked (and put back first after), so nothing is borrowed
    // across `walk`.
    let kept = RUNS.with(|r| {
        let mut runs = r.borrow_mut();
        let at = runs.iter().position(|run| {
            run.from == from && run.formatted == eff.formatted && run.zone == eff.controller_zone
        })?;
        runs.remove(at)
    });
    let (times, ended) = kept.map(|k| (k.times, k.ended)).unwrap_or_default();
    let mut view = RunView {
        clock,
        start,
        times,
        ended,
    };
    let out = walk(&mut view);
    let (mut times, mut ended) = (view.times, view.ended);
    if times.len() > RUN_LIMIT {
        // Read past its promise: keep the bounded prefix, which is then not the whole run.
        times.truncate(RUN_LIMIT);
        ended = false;
    }
    let run = Run {
        formatted: eff.formatted.clone(),
        zone: eff.controller_zone.clone(),
        from,
        times,
        ended,
    };
    RUNS.with(|r| {
        let mut runs = r.borrow_mut();
        runs.push_front(run);
        runs.truncate(RUNS_KEPT);
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CronJob;
    use crate::replay::KubeVersion;
    use crate::replay::slots;

    fn effective(schedule: &str, local: &str) -> EffectiveSchedule {
        let mut cj = CronJob::default();
        cj.spec.schedule = Some(schedule.into());
        let zone = TimeZone::get(local).unwrap();
        EffectiveSchedule::for_cron_job(&cj, KubeVersion::NEWEST, &zone).unwrap()
    }

    /// Every count over a shared run equals the count walked afresh, whatever order the
    /// queries come in, for schedules whose `Next` steps back (Chatham), never fires, or
    /// crosses DST, and for bounds before, inside and past the cap.
    #[test]
    fn shared_runs_answer_as_fresh_walks() {
        let ts = |s: &str| s.parse::<Timestamp>().unwrap();
        let cases = [
            ("*/5 * * * *", "America/New_York"),
            ("30 2 * * *", "America/New_York"),
            ("TZ=Pacific/Chatham 45 2 * * *", "UTC"),
            ("0 0 30 2 *", "UTC"),
            ("@every 7m", "Europe/Berlin"),
        ];
        let froms = [ts("2026-09-01T00:00:00Z"), ts("2026-11-01T05:59:00Z")];
        let tos = [
            ts("2026-11-01T06:30:00Z"),
            ts("2026-11-20T12:00:00Z"),
            ts("2027-06-01T00:00:00Z"),
        ];
        for (schedule, local) in cases {
            let eff = effective(schedule, local);
            for from in froms {
                // Twice: the first pass fills the memo, the second reads it; mixed bounds
                // make a short walk precede a long one and the reverse.
                for _ in 0..2 {
                    for to in tos.iter().rev().chain(tos.iter()) {
                        for max in [3usize, 10_000] {
                            let fresh = crate::memo::bypassed(|| eff.slots_in(from, *to, max));
                            assert_eq!(
                                eff.slots_in(from, *to, max),
                                fresh,
                                "{schedule} in {local} ({from}, {to}] max {max}"
                            );
                        }
                        let now = GoTime::local(*to);
                        let earliest = GoTime::local(from);
                        let fresh = crate::memo::bypassed(|| slots::truth(&eff, earliest, now));
                        let shared = slots::truth(&eff, earliest, now);
                        assert_eq!(
                            (shared.count, shared.capped, shared.most_recent),
                            (fresh.count, fresh.capped, fresh.most_recent),
                            "{schedule} in {local} truth ({from}, {to}]"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn runs_kept_are_bounded_in_number_and_length() {
        let eff = effective("* * * * *", "UTC");
        let from: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        for k in 0..(RUNS_KEPT as i64 + 3) {
            let f = from + jiff::SignedDuration::from_hours(k);
            let (slots, capped) =
                eff.slots_in(f, f + jiff::SignedDuration::from_hours(400), 10_000);
            assert_eq!((slots.len(), capped), (10_000, true));
        }
        RUNS.with(|r| {
            let runs = r.borrow();
            assert_eq!(runs.len(), RUNS_KEPT);
            assert!(runs.iter().all(|run| run.times.len() <= RUN_LIMIT));
        });
    }
}
