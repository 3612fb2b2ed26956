//! The controller's due-slot arithmetic, per release, restated exactly (B.4, B.5, C.1).
//!
//! * window iteration (1.28+, `mostRecentScheduleTime` after #118724): t1, t2, gap rounded to
//!   whole seconds, `n = elapsed/gap + 1`, then iterate `Next` from
//!   `potentialEarliest = t1 + (n−2)·gap` up to `now`;
//! * linear extrapolation (1.21–1.27): `time.Unix(t1.Unix() + (n−1)·gap, 0).UTC()`, which for
//!   non-uniform schedules is a wrong slot or no slot at all;
//! * v1 (≤1.20): list every unmet time, give up after 100.
//!
//! Verified against `pkg/controller/cronjob/utils.go` (index ids 390136215 newest,
//! 1366508625 for 1.21–1.24, 456131352 for 1.25) and the 1.15–1.20 v1 controller
//! `cronjob_controller.go@1bdbc35994c02b534e3e5c08ffa957ec31a58b1d`.

use super::gotime::{Clock, GoTime, NANOS, round_seconds, seconds_duration, sub, trunc_seconds};
use super::output::MissedSchedules;
use super::version::ControllerVariant;

/// Cap on iterations of the window loop; upstream is unbounded, but only a pathological
/// schedule (first gap tiny, later slots dense) or a missing creationTimestamp gets near it.
const WINDOW_ITER_CAP: u64 = 1_000_000;
/// v1 gives up after more than this many unmet times.
const V1_UNMET_LIMIT: usize = 100;

/// One run of the controller's due-slot function.
#[derive(Clone, Debug, Default)]
pub(crate) struct Estimate {
    pub earliest: Option<GoTime>,
    pub t1: Option<GoTime>,
    pub t2: Option<GoTime>,
    pub gap: Option<i64>,
    pub n: Option<i64>,
    pub window: Option<(GoTime, GoTime)>,
    pub recent: Option<GoTime>,
    pub missed: MissedSchedules,
    /// The gap error (`gap < 1`), or v1's too-many error.
    pub err: Option<String>,
    /// Upstream never returns (the loop met Go's zero time, which restarts at year 1).
    pub hang: bool,
    pub iter_capped: bool,
}

/// The inputs of `mostRecentScheduleTime` that come from the CronJob.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Anchor {
    pub creation: GoTime,
    pub last_schedule: Option<GoTime>,
    pub sds: Option<i64>,
}

impl Anchor {
    /// lastScheduleTime, else creationTimestamp; with `use_sds`, raised to `now − sds`.
    pub fn earliest(&self, now: GoTime, use_sds: bool) -> GoTime {
        let mut e = self.last_schedule.unwrap_or(self.creation);
        if let (true, Some(sds)) = (use_sds, self.sds) {
            let deadline = now.add_nanos(-(seconds_duration(sds) as i128));
            if deadline.after(e) {
                e = deadline;
            }
        }
        e
    }
}

fn gap_error(with_is: bool) -> String {
    let is = if with_is { "is " } else { "" };
    format!("time difference between two schedules {is}less than 1 second")
}

/// The shared prologue: t1, t2, the two early returns and the gap error fill `est`;
/// `Some((gap, n))` means the caller goes on to extrapolate.
fn prologue(
    clock: &Clock,
    earliest: GoTime,
    now: GoTime,
    with_is: bool,
    est: &mut Estimate,
) -> Option<(i64, i64)> {
    let t1 = clock.next(earliest);
    let t2 = clock.next(t1);
    *est = Estimate {
        earliest: Some(earliest),
        t1: Some(t1),
        t2: Some(t2),
        ..Default::default()
    };
    if now.before(t1) {
        return None;
    }
    if now.before(t2) {
        est.recent = Some(t1);
        return None;
    }
    let gap = round_seconds(sub(t2, t1));
    est.gap = Some(gap);
    if gap < 1 {
        est.err = Some(gap_error(with_is));
        return None;
    }
    let elapsed = trunc_seconds(sub(now, t1));
    let n = elapsed / gap + 1;
    est.n = Some(n);
    est.missed = if n > 100 {
        MissedSchedules::Many
    } else {
        MissedSchedules::Few
    };
    Some((gap, n))
}

/// Window iteration (1.28+).
pub(crate) fn window(clock: &Clock, earliest: GoTime, now: GoTime) -> Estimate {
    let mut est = Estimate::default();
    let Some((gap, n)) = prologue(clock, earliest, now, true, &mut est) else {
        return est;
    };
    let t1 = est.t1.expect("set by prologue");
    // `time.Duration((n-1-1)*gap) * time.Second`: int64 arithmetic, wrapping like Go.
    let pe = t1.add_nanos(seconds_duration(n.wrapping_sub(2).wrapping_mul(gap)) as i128);
    est.window = Some((pe, now));
    let mut recent = None;
    let mut t = clock.next(pe);
    let mut iters = 0u64;
    while !t.after(now) {
        if t.is_zero() {
            // Zero ≤ now, and Next(zero) restarts at year 1: upstream cycles forever.
            est.hang = true;
            break;
        }
        iters += 1;
        if iters > WINDOW_ITER_CAP {
            est.iter_capped = true;
            break;
        }
        recent = Some(t);
        t = clock.next(t);
    }
    est.recent = recent;
    est
}

/// Linear extrapolation (1.21–1.27), result in UTC.
pub(crate) fn linear(clock: &Clock, earliest: GoTime, now: GoTime, with_is: bool) -> Estimate {
    let mut est = Estimate::default();
    // Upstream reports a count of 0 / 1 on the early returns; neither reaches the "> 100"
    // event, so `n` stays None there.
    let Some((gap, n)) = prologue(clock, earliest, now, with_is, &mut est) else {
        return est;
    };
    let t1 = est.t1.expect("set by prologue");
    let secs = t1.unix().wrapping_add(n.wrapping_sub(1).wrapping_mul(gap));
    est.recent = Some(GoTime::unix_utc(secs));
    est
}

/// v1 `getRecentUnmetScheduleTimes`: every unmet time up to `now`; error past 100.
pub(crate) fn v1_unmet(clock: &Clock, earliest: GoTime, now: GoTime) -> Estimate {
    let mut est = Estimate {
        earliest: Some(earliest),
        ..Default::default()
    };
    if earliest.after(now) {
        est.n = Some(0);
        return est;
    }
    let mut count = 0usize;
    let mut t = clock.next(earliest);
    est.t1 = Some(t);
    while !t.after(now) {
        count += 1;
        est.recent = Some(t);
        if count > V1_UNMET_LIMIT {
            est.recent = None;
            est.err = Some(
                "too many missed start time (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew"
                    .into(),
            );
            break;
        }
        t = clock.next(t);
    }
    est.n = Some(count as i64);
    est.missed = match count {
        0 => MissedSchedules::None,
        1..=100 => MissedSchedules::Few,
        _ => MissedSchedules::Many,
    };
    est
}

/// What the sync's `nextScheduleTimeDuration` (or its predecessor) returns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Requeue {
    /// The delay in nanoseconds (saturated like Go's `Sub`).
    pub delay_ns: i64,
    pub base: GoTime,
    pub hang: bool,
}

/// The requeue delay with the *current* status (call after any lastScheduleTime update).
/// startingDeadlineSeconds is deliberately ignored, as upstream does.
pub(crate) fn requeue(
    variant: ControllerVariant,
    clock: &Clock,
    anchor: &Anchor,
    now: GoTime,
    with_is: bool,
) -> Option<Requeue> {
    let earliest = anchor.earliest(now, false);
    let (base, hang) = match variant {
        ControllerVariant::V1Legacy => return None,
        // 1.21–1.24: always from now, so @every drifts (#104012).
        ControllerVariant::V2_1_21To1_24 => (now, false),
        ControllerVariant::V2_1_25To1_27 => {
            let e = linear(clock, earliest, now, with_is);
            (
                if e.err.is_some() {
                    now
                } else {
                    e.recent.unwrap_or(earliest)
                },
                false,
            )
        }
        ControllerVariant::V2_1_28 => {
            // recent ?? earliest: after a window miss Next(earliest) is in the past → negative.
            let e = window(clock, earliest, now);
            (
                if e.err.is_some() {
                    now
                } else {
                    e.recent.unwrap_or(earliest)
                },
                e.hang,
            )
        }
        ControllerVariant::V2_1_29Plus => {
            let e = window(clock, earliest, now);
            let base = match (&e.err, e.recent, e.missed) {
                (Some(_), _, _) => now,
                (None, Some(r), _) => r,
                (None, None, MissedSchedules::None) => earliest,
                (None, None, _) => now,
            };
            (base, e.hang)
        }
    };
    if hang {
        return Some(Requeue {
            delay_ns: 0,
            base,
            hang,
        });
    }
    // schedule.Next(base).Add(nextScheduleDelta).Sub(now)
    let target = clock.next(base).add_nanos((NANOS / 10) as i128);
    Some(Requeue {
        delay_ns: sub(target, now),
        base,
        hang,
    })
}
