//! How often a schedule fires: the shortest and the typical gap between runs, measured on the
//! engine's own upcoming fire times. Rules compare job durations and retry budgets with it.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::Schedule;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cadence {
    /// Shortest gap between two consecutive runs in the sample, in seconds.
    pub min_seconds: i64,
    /// Median gap, in seconds.
    pub typical_seconds: i64,
    /// Longest gap in the sample, in seconds.
    pub max_seconds: i64,
}

/// Sample `samples` (≥ 2) upcoming runs after `from`. None when fewer than two runs exist.
pub fn cadence(
    sched: &Schedule,
    local: &TimeZone,
    from: Timestamp,
    samples: usize,
) -> Option<Cadence> {
    let mut times = Vec::with_capacity(samples);
    let mut t = from;
    while times.len() < samples.max(2) {
        match sched.next(t, local) {
            // A Next that does not advance (robfig at Pacific/Chatham's fall-back) ends the chain.
            Some(n) if n > t => {
                times.push(n);
                t = n;
            }
            _ => break,
        }
    }
    let mut gaps: Vec<i64> = times
        .windows(2)
        .map(|w| w[1].as_second() - w[0].as_second())
        .collect();
    if gaps.is_empty() {
        return None;
    }
    gaps.sort_unstable();
    Some(Cadence {
        min_seconds: gaps[0],
        typical_seconds: gaps[gaps.len() / 2],
        max_seconds: gaps[gaps.len() - 1],
    })
}
