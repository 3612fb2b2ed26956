//! The monitor's in-memory form of the runs it remembers: most runs are uneventful (a Job that
//! succeeded at its first start, its stages in whole seconds), and for those a
//! [`RetainedRun`] — seven optional timestamps, four strings, two vectors (its size is held by
//! a test in `retained_tests.rs`) — costs far more than what it says: at 10,000 CronJobs it
//! took the monitor over its memory bound (BENCHMARKS.md, "monitor at scale").
//!
//! A [`PackedRun`] keeps such a run as its Job name, its instant in whole seconds and the
//! stages as second offsets from it (64 bytes and the name). Anything that does not fit
//! exactly — a failed attempt, a warning, a reason, a fraction of a second, an offset beyond
//! ±68 years — keeps the whole record. Packing is lossless by construction: a run is packed
//! only when unpacking gives it back unchanged, so what `/runs` and `/report` serve is what
//! was recorded.
//!
//! Not a reader of a Kubernetes kind: it names no field of a CronJob, Job, Pod or Event, only
//! those of our own record ([`RetainedRun`], built from the model by `super::observe`),
//! packed for memory; the kinds are read in `source::wire`.

use jiff::Timestamp;

use super::{RetainedRun, RetainedStages, RunOutcome};

/// A stage the evidence did not show.
const NONE: i32 = i32::MIN;
/// `attempts` unknown.
const NO_ATTEMPTS: u32 = u32::MAX;

/// One remembered run, packed (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackedRun {
    Compact(Compact),
    Whole(Box<RetainedRun>),
}

/// An uneventful run in 64 bytes and its Job's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compact {
    job: Box<str>,
    /// The slot, else the Job's creation, in whole Unix seconds.
    base: i64,
    /// `stages` as seconds after `base` ([`NONE`]: not shown), in field order.
    stages: [i32; 7],
    attempts: u32,
    outcome: RunOutcome,
    has_slot: bool,
    manual: bool,
    retained: bool,
}

fn secs(t: Timestamp) -> Option<i64> {
    (t.subsec_nanosecond() == 0).then(|| t.as_second())
}

fn stage_list(s: &RetainedStages) -> [Option<Timestamp>; 7] {
    [
        s.job_created,
        s.first_pod_created,
        s.scheduled,
        s.pull_started,
        s.pulled,
        s.started,
        s.finished,
    ]
}

impl PackedRun {
    /// `run` packed: compact when that form gives it back exactly, else whole.
    pub fn pack(run: RetainedRun) -> PackedRun {
        match Self::compact(&run) {
            Some(c) if c.unpack() == run => PackedRun::Compact(c),
            _ => PackedRun::Whole(Box::new(run)),
        }
    }

    fn compact(run: &RetainedRun) -> Option<Compact> {
        if !run.failed_attempts.is_empty()
            || !run.warnings.is_empty()
            || !run.reason.is_empty()
            || !run.message.is_empty()
            || run.attempts == Some(NO_ATTEMPTS)
        {
            return None;
        }
        let base = secs(run.slot.or(run.stages.job_created)?)?;
        let mut stages = [NONE; 7];
        for (slot, t) in stages.iter_mut().zip(stage_list(&run.stages)) {
            if let Some(t) = t {
                let off = i32::try_from(secs(t)? - base).ok()?;
                if off == NONE {
                    return None;
                }
                *slot = off;
            }
        }
        Some(Compact {
            job: run.job.clone().into_boxed_str(),
            base,
            stages,
            attempts: run.attempts.unwrap_or(NO_ATTEMPTS),
            outcome: run.outcome,
            has_slot: run.slot.is_some(),
            manual: run.manual,
            retained: run.retained,
        })
    }

    /// The record as it was packed.
    pub fn unpack(&self) -> RetainedRun {
        match self {
            PackedRun::Compact(c) => c.unpack(),
            PackedRun::Whole(r) => (**r).clone(),
        }
    }
}

impl Compact {
    fn unpack(&self) -> RetainedRun {
        let at = |off: i32| {
            (off != NONE)
                .then(|| Timestamp::from_second(self.base + i64::from(off)).ok())
                .flatten()
        };
        let s = self.stages;
        RetainedRun {
            job: self.job.to_string(),
            slot: if self.has_slot { at(0) } else { None },
            manual: self.manual,
            outcome: self.outcome,
            reason: String::new(),
            message: String::new(),
            stages: RetainedStages {
                job_created: at(s[0]),
                first_pod_created: at(s[1]),
                scheduled: at(s[2]),
                pull_started: at(s[3]),
                pulled: at(s[4]),
                started: at(s[5]),
                finished: at(s[6]),
            },
            attempts: (self.attempts != NO_ATTEMPTS).then_some(self.attempts),
            failed_attempts: Vec::new(),
            warnings: Vec::new(),
            retained: self.retained,
        }
    }
}

/// Records packed, in order, in a vector of exactly their number. Not `collect()`: collecting
/// a `vec::IntoIter` into smaller items reuses the source buffer in place, so every
/// CronJob's packed runs kept the allocation of the unpacked ones (a whole record's size a
/// slot, and the merge's growth room): most of what keeping the runs cost (BENCHMARKS.md).
pub fn pack_all(runs: Vec<RetainedRun>) -> Vec<PackedRun> {
    let mut packed = Vec::with_capacity(runs.len());
    packed.extend(runs.into_iter().map(PackedRun::pack));
    packed
}

/// Records unpacked, in order.
pub fn unpack_all(runs: &[PackedRun]) -> Vec<RetainedRun> {
    runs.iter().map(PackedRun::unpack).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retained::{FailedAttempt, RunOutcome};

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn run() -> RetainedRun {
        RetainedRun {
            job: "backup-29914740".into(),
            slot: Some(t("2026-11-17T03:00:00Z")),
            manual: false,
            outcome: RunOutcome::Succeeded,
            reason: String::new(),
            message: String::new(),
            stages: RetainedStages {
                job_created: Some(t("2026-11-17T03:00:01Z")),
                started: Some(t("2026-11-17T03:00:09Z")),
                finished: Some(t("2026-11-17T03:04:00Z")),
                ..Default::default()
            },
            attempts: Some(1),
            failed_attempts: Vec::new(),
            warnings: Vec::new(),
            retained: true,
        }
    }

    #[test]
    fn an_uneventful_run_packs_small_and_comes_back_unchanged() {
        let r = run();
        let p = PackedRun::pack(r.clone());
        assert!(matches!(p, PackedRun::Compact(_)));
        assert_eq!(p.unpack(), r);
        assert!(
            std::mem::size_of::<PackedRun>() <= 64,
            "{}",
            std::mem::size_of::<PackedRun>()
        );
        // A manual run (no slot) is based on its Job's creation.
        let manual = RetainedRun {
            slot: None,
            manual: true,
            attempts: None,
            ..run()
        };
        let p = PackedRun::pack(manual.clone());
        assert!(matches!(p, PackedRun::Compact(_)));
        assert_eq!(p.unpack(), manual);
    }

    #[test]
    fn packed_runs_hold_no_room_for_more() {
        // `collect()` would keep the unpacked vector's buffer: 30 whole records' room here.
        let mut runs = Vec::with_capacity(30);
        runs.extend(std::iter::repeat_n(run(), 10));
        let packed = pack_all(runs);
        assert_eq!((packed.len(), packed.capacity()), (10, 10));
    }

    #[test]
    fn what_does_not_fit_exactly_is_kept_whole() {
        let failed = RetainedRun {
            outcome: RunOutcome::Failed,
            reason: "BackoffLimitExceeded".into(),
            failed_attempts: vec![FailedAttempt {
                pod: "p".into(),
                reason: "OOMKilled".into(),
                message: String::new(),
                exit_code: Some(137),
                ended: None,
                times: 1,
            }],
            ..run()
        };
        let fraction = RetainedRun {
            stages: RetainedStages {
                started: Some(t("2026-11-17T03:00:09.5Z")),
                ..run().stages
            },
            ..run()
        };
        let far = RetainedRun {
            stages: RetainedStages {
                finished: Some(t("2099-01-01T00:00:00Z")),
                ..run().stages
            },
            ..run()
        };
        let nothing = RetainedRun {
            slot: None,
            stages: RetainedStages::default(),
            ..run()
        };
        for r in [failed, fraction, far, nothing] {
            let p = PackedRun::pack(r.clone());
            assert!(matches!(p, PackedRun::Whole(_)), "{r:?}");
            assert_eq!(p.unpack(), r);
        }
    }
}
