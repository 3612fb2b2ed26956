//! A concrete "the catch-up run is lost" scenario for an uneven schedule, found by replaying the
//! controller itself on hypothetical states rather than by a rule of thumb.
//!
//! The due-slot estimate only fails when the resume time is at least `g` — the gap after
//! `lastScheduleTime`'s next slot — past the slot that should run (`s_j`): the scanned window
//! ends at the resume time and is at least `g` long. So we walk the upcoming slots, pick pairs (last run `s_i`, missed
//! slot `s_j`) that meet that necessary condition, closest first, try resume times at the quarter
//! points between `s_j` and `s_j+1`, and replay one sync of the CronJob with `lastScheduleTime =
//! s_i`.
//! The first replay that misses (or, before 1.28, mis-picks) the slot is the scenario. Bounded:
//! 400 slots, pairs at most 7 slots apart, at most a week idle, at most 48 replays.

use jiff::Timestamp;

use crate::model::CronJobStatus;
use crate::replay::{ControllerVariant, ReplayInput, replay};
use crate::rules::Context;

const SAMPLE: usize = 400;
const MAX_DISTANCE: usize = 7;
const MAX_IDLE_SECONDS: i64 = 7 * 86_400;
const MAX_REPLAYS: usize = 48;

/// Last run at `last`, no sync that could start anything until `resume`: the controller skips
/// `slot` (or, `picked`, starts a Job for that time instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub last: Timestamp,
    pub resume: Timestamp,
    pub slot: Timestamp,
    pub picked: Option<Timestamp>,
}

/// Whether `t` is an activation of the effective schedule.
pub fn is_slot(ctx: &Context, t: Timestamp) -> bool {
    let Some(eff) = ctx.replay.effective() else {
        return false;
    };
    Timestamp::from_second(t.as_second() - 1)
        .ok()
        .and_then(|b| eff.next_after(b))
        == Some(t)
}

pub fn find(ctx: &Context) -> Option<Scenario> {
    if ctx.variant == ControllerVariant::V1Legacy {
        return None; // v1 walks every slot: its choice is always exact
    }
    let eff = ctx.replay.effective()?;
    // Shared across CronJobs with this schedule (the same sample for each: see slot_memo).
    let slots = crate::replay::slot_memo::next_times(eff, ctx.now, SAMPLE);
    if slots.len() < 4 {
        return None;
    }
    let gaps: Vec<i64> = slots
        .windows(2)
        .map(|w| w[1].as_second() - w[0].as_second())
        .collect();
    if gaps.iter().all(|g| *g == gaps[0]) {
        return None;
    }
    let mut budget = MAX_REPLAYS;
    for d in 1..=MAX_DISTANCE {
        for i in 0..slots.len() {
            let j = i + d;
            if j + 1 >= slots.len() {
                break;
            }
            // The window ends at the resume time and is at least the first gap the controller
            // measures (t1 = s_i+1, t2 = s_i+2) long, so it can only miss s_j if the resume time
            // is at least that gap after s_j.
            let g = gaps[i + 1];
            if gaps[j] * 3 < g * 4 {
                continue;
            }
            for resume in resume_times(slots[j], slots[j + 1]) {
                let idle = resume.as_second() - slots[i].as_second();
                if idle > MAX_IDLE_SECONDS || resume.as_second() - slots[j].as_second() < g {
                    continue;
                }
                if budget == 0 {
                    return None;
                }
                budget -= 1;
                if let Some(s) = try_one(ctx, slots[i], resume) {
                    return Some(s);
                }
            }
        }
    }
    None
}

/// Resume times at the quarter points of the gap after the missed slot, in whole minutes. Only
/// quarter points, so a scenario found is never a corner case: the skip happens for at least the
/// last quarter of that gap (a DST day's 23 h / 25 h gaps only skip within one hour: not reported).
fn resume_times(slot: Timestamp, next: Timestamp) -> Vec<Timestamp> {
    let (a, gap) = (slot.as_second(), next.as_second() - slot.as_second());
    let mut out: Vec<i64> = (1..=3)
        .map(|k| a + gap * k / 4)
        .map(|t| if t - t % 60 > a { t - t % 60 } else { t })
        .collect();
    out.dedup();
    out.into_iter()
        .filter(|t| *t > a)
        .filter_map(|t| Timestamp::from_second(t).ok())
        .collect()
}

fn try_one(ctx: &Context, last: Timestamp, resume: Timestamp) -> Option<Scenario> {
    let mut cj = ctx.cron_job.clone();
    cj.meta.creation_timestamp = Some(last);
    cj.meta.deletion_timestamp = None;
    cj.spec.suspend = false;
    cj.status = CronJobStatus {
        last_schedule_time: Some(last),
        ..Default::default()
    };
    let r = replay(&ReplayInput {
        cron_job: &cj,
        jobs: None,
        now: resume,
        controller_zone: ctx.controller_zone,
        version: ctx.replay.kube_version,
    });
    let slot = r.true_most_recent?;
    if r.window_miss {
        return Some(Scenario {
            last,
            resume,
            slot,
            picked: None,
        });
    }
    if r.wrong_slot {
        return Some(Scenario {
            last,
            resume,
            slot,
            picked: r.scheduled_time,
        });
    }
    None
}
