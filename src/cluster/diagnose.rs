//! `report::build` for a whole cluster, fast: the same reports, built one CronJob at a time
//! from a small snapshot holding only that CronJob's related objects (the core's
//! `report::relation`), one namespace at a time as `scan` completes them, on every core.
//!
//! Why: `report::build` hands the replay *all* Jobs of the snapshot, and the replay filters
//! them per CronJob (`owned_jobs`, the namespace's Jobs for GET look-ups), so one call over
//! 10,000 CronJobs and 100,000 Jobs costs 10⁹ comparisons. Every look-up the replay and the
//! rules make is keyed by namespace and name, so a per-CronJob snapshot with a superset of
//! what they can look up gives the identical result (a unit test holds this to account
//! against the one-call build on every example).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use doctor::model::{CronJob, Snapshot};
use doctor::report::relation::Relations;
use doctor::report::{self, CronJobReport, Options};

/// Whether the reports carry their verified fix plans. Verifying a plan re-runs the replay and
/// the rules on each patched copy (a good part of `scan -A`'s CPU: BENCHMARKS.md, "scan -A at
/// scale"), and only the JSON report shows plans: the table never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plans {
    Verified,
    Skipped,
}

/// Each CronJob's report of `snapshot`, in order, as `report::build` gives them (`fix` left
/// empty with [`Plans::Skipped`]).
fn reports(snapshot: &Snapshot, opts: &Options, plans: Plans) -> Vec<CronJobReport> {
    match plans {
        Plans::Verified => report::cron_job_reports(snapshot, opts).collect(),
        Plans::Skipped => report::cron_job_reports_without_fix(snapshot, opts).collect(),
    }
}

/// Reports of `bucket.cron_jobs[range]`, exactly as `report::build(bucket, …)` gives them (with
/// `fix` left empty under [`Plans::Skipped`]).
pub fn diagnose(
    bucket: &Snapshot,
    range: Range<usize>,
    opts: &Options,
    plans: Plans,
) -> Vec<CronJobReport> {
    let relations = Relations::new(bucket);
    bucket.cron_jobs[range]
        .iter()
        .flat_map(|cj| reports(&relations.subset(bucket, cj), opts, plans))
        .collect()
}

/// The report's frame: everything but the CronJobs.
pub use doctor::report::frame;

/// Above this many CronJob × Job pairs in a namespace, `report::build` on the whole namespace
/// (whose replay scans every Job of it per CronJob) costs more than per-CronJob snapshots.
const WHOLE_BUCKET_MAX: usize = 1_000_000;

struct Task {
    seq: usize,
    bucket: Arc<Snapshot>,
    range: Range<usize>,
    /// `report::build` on the whole bucket instead of per-CronJob snapshots.
    whole: bool,
}

/// Diagnose snapshots on `threads` worker threads while `produce` is still handing them over
/// (through the `submit` function it is given). Each CronJob's report goes through `shape`
/// on the worker (a table row, a JSON fragment); the results come back in submission order.
/// Submission blocks when the workers fall behind, so unprocessed namespaces cannot pile up.
pub fn pipeline<T: Send, R>(
    threads: usize,
    opts: &Options,
    plans: Plans,
    shape: &(dyn Fn(&CronJob, CronJobReport) -> T + Sync),
    done: &AtomicUsize,
    produce: impl FnOnce(&mut dyn FnMut(Snapshot)) -> R,
) -> (R, Vec<T>) {
    let mut all = Vec::new();
    let r = pipeline_each(
        threads,
        opts,
        plans,
        shape,
        done,
        &mut |t| all.push(t),
        produce,
    );
    (r, all)
}

/// [`pipeline`], handing each result to `each` as soon as it and every result submitted
/// before it are ready (submission order, on a thread of its own) instead of collecting
/// them: a caller that writes each one out holds a few namespaces' results, not the
/// cluster's (`scan -o json`; docs/json.md, "`scan -o json` as it streams").
pub fn pipeline_each<T: Send, R>(
    threads: usize,
    opts: &Options,
    plans: Plans,
    shape: &(dyn Fn(&CronJob, CronJobReport) -> T + Sync),
    done: &AtomicUsize,
    each: &mut (dyn FnMut(T) + Send),
    produce: impl FnOnce(&mut dyn FnMut(Snapshot)) -> R,
) -> R {
    let threads = threads.max(1);
    let (task_tx, task_rx) = mpsc::sync_channel::<Task>(threads * 2);
    let task_rx = Mutex::new(task_rx);
    let (out_tx, out_rx) = mpsc::channel::<(usize, Vec<T>)>();
    std::thread::scope(|sc| {
        for _ in 0..threads {
            let (task_rx, out_tx) = (&task_rx, out_tx.clone());
            sc.spawn(move || {
                loop {
                    let task = match task_rx.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                        Ok(t) => t,
                        Err(_) => return,
                    };
                    let seq = task.seq;
                    let cjs = &task.bucket.cron_jobs[task.range.clone()];
                    let reports = if task.whole {
                        reports(&task.bucket, opts, plans)
                    } else {
                        diagnose(&task.bucket, task.range.clone(), opts, plans)
                    };
                    let shaped: Vec<T> = cjs
                        .iter()
                        .zip(reports)
                        .map(|(cj, r)| shape(cj, r))
                        .collect();
                    // The snapshot is not needed any more: free it here, on the worker,
                    // rather than wherever the last chunk's Arc happens to be dropped.
                    drop(task);
                    done.fetch_add(shaped.len(), Ordering::Relaxed);
                    if out_tx.send((seq, shaped)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(out_tx);
        // Results in submission order: those that finish early wait for the ones before.
        sc.spawn(move || {
            let mut waiting: BTreeMap<usize, Vec<T>> = BTreeMap::new();
            let mut next = 0;
            for (seq, part) in out_rx.iter() {
                waiting.insert(seq, part);
                while let Some(part) = waiting.remove(&next) {
                    part.into_iter().for_each(&mut *each);
                    next += 1;
                }
            }
            // Only a worker that stopped early leaves gaps; the rest still go out in order.
            for (_, part) in waiting {
                part.into_iter().for_each(&mut *each);
            }
        });
        let mut seq = 0;
        let mut submit = |bucket: Snapshot| {
            let n = bucket.cron_jobs.len();
            if n == 0 {
                return; // Jobs, Pods, Events of a namespace without CronJobs: nothing to do.
            }
            // A typical namespace goes to the core in one call: its replay scans the namespace's
            // Jobs once per CronJob, which costs less than cutting per-CronJob snapshots. A big
            // one is split across the workers, per-CronJob snapshots avoiding C × J.
            if n.saturating_mul(bucket.jobs.len()) <= WHOLE_BUCKET_MAX {
                let task = Task {
                    seq,
                    bucket: Arc::new(bucket),
                    range: 0..n,
                    whole: true,
                };
                seq += 1;
                let _ = task_tx.send(task);
                return;
            }
            let chunks = n.div_ceil(64).clamp(1, threads);
            let per = n.div_ceil(chunks);
            let bucket = Arc::new(bucket);
            for start in (0..n).step_by(per) {
                let task = Task {
                    seq,
                    bucket: bucket.clone(),
                    range: start..(start + per).min(n),
                    whole: false,
                };
                seq += 1;
                if task_tx.send(task).is_err() {
                    return;
                }
            }
        };
        let r = produce(&mut submit);
        drop(task_tx);
        r
    })
}

#[cfg(test)]
#[path = "diagnose_tests.rs"]
mod tests;
