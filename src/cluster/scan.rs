//! What `scan` reads, as a stream of complete namespaces. The CronJob list comes first: it
//! says which namespaces matter and how many Jobs to expect in each (from the history limits;
//! with `-A`, raised where the API server counts more: `slices`, "Counted, not only
//! estimated").
//! Then the evidence lists (Jobs, two for the Pods of Jobs, Events) are read in *slices* that
//! run side by side (`slices`): a big namespace is one slice of its own, namespace-scoped
//! LISTs; every other namespace is read by one cluster-wide slice that excludes the big ones
//! by field selector, so every object is read once. Namespaces are handed to the diagnosis in
//! key order as soon as they are complete, while later ones are still arriving.
//!
//! Bounds: at most [`CONCURRENCY`] requests (with their unparsed bodies) in flight, each list
//! requests its next page while the current one is parsed (`list::Pager`), and nothing reads
//! further than [`WINDOW`] namespaces beyond the one waiting to be handed out, so the lists
//! may run ahead of each other but never hold more than a window of the cluster.
//!
//! The cluster-wide slice relies on LIST order: the API server returns items in
//! `namespace/name` key order (etcd's and the watch cache's order, which `continue` tokens
//! depend on). Should a server ever answer out of order, none of its namespaces is completed
//! early any more, and objects that arrive for an already diagnosed namespace are counted and
//! reported in a note.

use std::cmp::Ordering as Cmp;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use doctor::model::{CronJob, Event, Evidence, Snapshot};
use doctor::report::index::namespace_of;
use doctor::report::relation::is_evidence_kind;
use serde::de::DeserializeOwned;
use tokio::sync::{Semaphore, mpsc, watch};

use super::fetch::pod_selectors;
use super::http::{Api, ApiError};
use super::list::{self, Pager, collection};
pub use super::progress::Progress;
use super::wire::Listed;
use super::{convert, evidence_missing, no_events_note, wire};

use super::slices::{self, Plan};

/// Requests in flight at once, over all lists. Each holds its body until it is parsed, so this
/// also bounds the unparsed pages in memory (a page of Jobs is 1–3 MB). 16 keeps a remote
/// API server's round trips overlapped; sensible values are 4 (one slice's lists) to 64.
pub const CONCURRENCY: usize = 16;
/// Namespaces that may be read ahead of the first one not yet handed out: what waits in
/// memory is at most this many namespaces' objects. 4 slices of four lists make the
/// [`CONCURRENCY`] requests; a larger window held much more of the cluster at once for no
/// gain in wall time, with or without latency (the measurements: BENCHMARKS.md, "scan -A at
/// scale", and `tools/bench/scan-notes.md`).
pub const WINDOW: usize = 4;

/// CronJobs per page of the CronJob list. That list is read whole before any other starts (it
/// plans the slices), one page after another, so its round trips are the one part of a scan
/// that no concurrency hides: 20 pages of 500 at 10,000 CronJobs cost ~0.4 s over a 20 ms link
/// before anything else could start; 5 pages of 2,000 (a few MB each) cost a quarter of that.
pub const CRONJOB_PAGE: usize = 2000;

/// Longest wait for the Job counts that plan the slices (`slices::to_count`): the cluster's
/// count overlaps the CronJob list, the namespaces' counts are a few rounds; a count that
/// takes longer is left out and its namespace planned from its estimate.
const COUNT_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// `a` vs `b` in key order: `ns/` prefixes, so `a-b` sorts before `a` as in etcd.
pub(super) fn key_cmp(a: &str, b: &str) -> Cmp {
    a.bytes().chain([b'/']).cmp(b.bytes().chain([b'/']))
}

/// `namespace/name`: an item's place in LIST order.
fn item_key(i: &impl Listed) -> String {
    format!("{}/{}", i.listed_namespace(), i.listed_name())
}

/// An item against a `namespace/name` key, in LIST order (bytes of `namespace/name`).
fn key_cmp_item(i: &impl Listed, key: &str) -> Cmp {
    i.listed_namespace()
        .bytes()
        .chain([b'/'])
        .chain(i.listed_name().bytes())
        .cmp(key.bytes())
}

/// What the lists deliver, converted and filtered.
enum Batch {
    CronJobs(Vec<CronJob>),
    Jobs(Vec<doctor::model::Job>),
    Pods(Vec<doctor::model::Pod>),
    Events(Vec<Event>),
}

/// Which list a message is about: the CronJob list, or one kind of evidence of one slice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum From {
    CronJobs,
    Slice(usize, usize),
}

enum Msg {
    /// One page: its kept items, the namespace of its last raw item, and whether its raw items
    /// were in key order.
    Page(From, Batch, Option<String>, bool),
    Done(From),
    Failed(From, String, ApiError),
    /// The list's continue token expired and it started again from the first page.
    Restarted(String, ApiError),
}

/// Kinds of evidence, one list each per slice.
const JOBS: usize = 0;
const PODS: usize = 1;
const PODS_NEW_LABEL: usize = 2;
const EVENTS: usize = 3;
const KINDS: usize = 4;

/// One list as a task: fetch a page, send it; with a gate, never fetch a page while this list
/// is past the window's end (a namespace key; None: no end).
#[allow(clippy::too_many_arguments)]
async fn stream<W, M>(
    mut pager: Pager,
    from: From,
    convert: fn(W) -> Option<M>,
    wrap: fn(Vec<M>) -> Batch,
    seen: Arc<Progress>,
    tx: mpsc::Sender<Msg>,
    mut gate: Option<watch::Receiver<Option<String>>>,
    path: String,
) where
    W: DeserializeOwned + Listed,
{
    let mut frontier: Option<String> = None;
    // `namespace/name` of the last raw item delivered, and after a restart the key up to
    // which items were delivered already (skipped when the list comes round again).
    let mut last_key: Option<String> = None;
    let mut skip_upto: Option<String> = None;
    let mut restarted = false;
    loop {
        if let (Some(mine), Some(gate)) = (&frontier, gate.as_mut()) {
            let ok = gate
                .wait_for(|end| {
                    end.as_deref()
                        .is_none_or(|e| key_cmp(mine, e) != Cmp::Greater)
                })
                .await;
            if ok.is_err() {
                return;
            }
        }
        let msg = match pager.next::<W>().await {
            // The snapshot the continue token points into was compacted (410 Expired): list
            // again from the start, once, as client-go's pager does. What was delivered
            // already is not delivered twice: LIST order is key order, so everything up to
            // the last key seen is skipped.
            Err(e @ ApiError::Status { code: 410, .. }) if pager.started() && !restarted => {
                restarted = true;
                pager.restart();
                skip_upto = last_key.clone();
                if tx.send(Msg::Restarted(path.clone(), e)).await.is_err() {
                    return;
                }
                continue;
            }
            Ok(Some(mut items)) => {
                if let Some(upto) = &skip_upto {
                    items.retain(|i| key_cmp_item(i, upto) == Cmp::Greater);
                    if !items.is_empty() {
                        skip_upto = None;
                    }
                }
                if let Some(i) = items.last() {
                    last_key = Some(item_key(i));
                }
                let c = match from {
                    From::CronJobs => &seen.cron_jobs,
                    From::Slice(_, JOBS) => &seen.jobs,
                    From::Slice(_, PODS | PODS_NEW_LABEL) => &seen.pods,
                    From::Slice(..) => &seen.events,
                };
                c.fetch_add(items.len(), Ordering::Relaxed);
                let ordered = items.windows(2).all(|w| {
                    key_cmp(w[0].listed_namespace(), w[1].listed_namespace()) != Cmp::Greater
                });
                if let Some(last) = items.last() {
                    frontier = Some(last.listed_namespace().to_string());
                }
                // Not `collect()`: that would keep the wire page's buffer (500 wire items'
                // worth) behind the few model items an Events page keeps, until diagnosed.
                let mut kept: Vec<M> = Vec::with_capacity(items.len());
                kept.extend(items.into_iter().filter_map(convert));
                kept.shrink_to_fit();
                Msg::Page(from, wrap(kept), frontier.clone(), ordered)
            }
            Ok(None) => Msg::Done(from),
            Err(e) => Msg::Failed(from, path.clone(), e),
        };
        let last = !matches!(msg, Msg::Page(..));
        if tx.send(msg).await.is_err() || last {
            return;
        }
    }
}

/// Starts lists as tasks, all sharing one request limit and one progress count.
struct Spawner {
    api: Api,
    limit: Arc<Semaphore>,
    seen: Arc<Progress>,
    tx: mpsc::Sender<Msg>,
    tasks: tokio::task::JoinSet<()>,
}

impl Spawner {
    fn cron_jobs(&mut self, namespace: Option<&str>) {
        let path = collection("batch/v1", "cronjobs", namespace);
        let pager = Pager::new(&self.api, &path, &[])
            .page(CRONJOB_PAGE)
            .limited(self.limit.clone());
        self.tasks.spawn(stream(
            pager,
            From::CronJobs,
            |w: wire::CronJob| Some(convert::cron_job(w)),
            Batch::CronJobs,
            self.seen.clone(),
            self.tx.clone(),
            None,
            path.to_string(),
        ));
    }

    /// The four evidence lists of slice `id`: namespace-scoped, or cluster-wide with
    /// `field_selector` (the namespaces read by other slices, excluded).
    fn slice(
        &mut self,
        id: usize,
        namespace: Option<&str>,
        field_selector: Option<&str>,
        gate: Option<&watch::Receiver<Option<String>>>,
    ) {
        let [sel_old, sel_new] = pod_selectors("");
        let lists: [(usize, &str, &str, Option<String>); KINDS] = [
            (JOBS, "batch/v1", "jobs", None),
            (PODS, "v1", "pods", Some(sel_old)),
            (PODS_NEW_LABEL, "v1", "pods", Some(sel_new)),
            (EVENTS, "v1", "events", None),
        ];
        for (kind, gv, resource, selector) in lists {
            let path = collection(gv, resource, namespace);
            let mut params: Vec<(&'static str, String)> =
                selector.into_iter().map(|s| ("labelSelector", s)).collect();
            params.extend(field_selector.map(|f| ("fieldSelector", f.to_string())));
            let pager = Pager::new(&self.api, &path, &params).limited(self.limit.clone());
            let (from, seen, tx) = (From::Slice(id, kind), self.seen.clone(), self.tx.clone());
            let (gate, path) = (gate.cloned(), path.to_string());
            match kind {
                JOBS => self.tasks.spawn(stream(
                    pager,
                    from,
                    |w: wire::Job| Some(convert::job(w)),
                    Batch::Jobs,
                    seen,
                    tx,
                    gate,
                    path,
                )),
                PODS | PODS_NEW_LABEL => self.tasks.spawn(stream(
                    pager,
                    from,
                    |w: wire::Pod| Some(convert::pod(w)).filter(|p| p.job_name().is_some()),
                    Batch::Pods,
                    seen,
                    tx,
                    gate,
                    path,
                )),
                _ => self.tasks.spawn(stream(
                    pager,
                    from,
                    |w: wire::Event| {
                        is_evidence_kind(&w.involved_object.kind).then(|| convert::event(w))
                    },
                    Batch::Events,
                    seen,
                    tx,
                    gate,
                    path,
                )),
            };
        }
    }
}

/// Where one slice's lists are.
#[derive(Default)]
struct SliceState {
    /// Namespace of the last item each list delivered (None: nothing yet).
    frontier: [Option<String>; KINDS],
    done: [bool; KINDS],
    /// Why a list of evidence could not be read (its note); None while it is fine.
    missing: [Option<String>; KINDS],
    /// Every page of every list came in key order (only the cluster-wide slice needs it).
    in_order: bool,
    started: bool,
}

impl SliceState {
    fn all_done(&self) -> bool {
        self.done.iter().all(|d| *d)
    }

    /// Every list of this slice is done with namespace `ns` (key order).
    fn past(&self, ns: &str) -> bool {
        self.all_done()
            || (self.in_order
                && (0..KINDS).all(|k| {
                    self.done[k]
                        || self.frontier[k]
                            .as_deref()
                            .is_some_and(|f| key_cmp(f, ns) == Cmp::Greater)
                }))
    }

    fn evidence(&self) -> Evidence {
        Evidence {
            jobs: self.missing[JOBS].is_none(),
            pods: self.missing[PODS].is_none() && self.missing[PODS_NEW_LABEL].is_none(),
            events: self.missing[EVENTS].is_none(),
        }
    }
}

/// The namespaces being read, in key order, and how far they have been handed out.
struct Work {
    plan: Plan,
    buckets: Vec<Option<Snapshot>>,
    index: HashMap<String, usize>,
    slices: Vec<SliceState>,
    /// Index of the first namespace not handed out yet.
    next_out: usize,
    /// Objects that arrived for a namespace already handed out.
    late: usize,
}

impl Work {
    fn new(plan: Plan, cron_jobs: Vec<Vec<CronJob>>) -> Work {
        let index = plan
            .namespaces
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        let buckets = cron_jobs
            .into_iter()
            .map(|cron_jobs| {
                Some(Snapshot {
                    cron_jobs,
                    ..Default::default()
                })
            })
            .collect();
        let slices = (0..plan.slice_count())
            .map(|_| SliceState {
                in_order: true,
                ..Default::default()
            })
            .collect();
        Work {
            plan,
            buckets,
            index,
            slices,
            next_out: 0,
            late: 0,
        }
    }

    /// The bucket of namespace `ns`: None for a namespace without CronJobs (nothing to
    /// diagnose there) and for one handed out already (counted as late).
    fn bucket(&mut self, ns: &str) -> Option<&mut Snapshot> {
        let i = *self.index.get(namespace_of(ns))?;
        let b = self.buckets[i].as_mut();
        if b.is_none() {
            self.late += 1;
        }
        b
    }

    fn add(&mut self, batch: Batch) {
        match batch {
            Batch::CronJobs(_) => {}
            Batch::Jobs(v) => {
                for o in v {
                    if let Some(s) = self.bucket(&o.meta.namespace) {
                        s.jobs.push(o);
                    }
                }
            }
            Batch::Pods(v) => {
                for o in v {
                    if let Some(s) = self.bucket(&o.meta.namespace) {
                        s.pods.push(o);
                    }
                }
            }
            Batch::Events(v) => {
                for o in v {
                    if let Some(s) = self.bucket(o.filed_namespace()) {
                        s.events.push(o);
                    }
                }
            }
        }
    }

    /// The next namespace, if every list that reads it is done with it.
    fn pop_ready(&mut self) -> Option<Snapshot> {
        let i = self.next_out;
        let ns = self.plan.namespaces.get(i)?;
        let st = &self.slices[self.plan.slice_of(i)];
        if !st.started || !st.past(ns) {
            return None;
        }
        let evidence = st.evidence();
        self.next_out += 1;
        let mut snap = self.buckets[i].take()?;
        snap.evidence = evidence;
        Some(snap)
    }

    /// End of the window for the cluster-wide slice: the namespace key it may read up to.
    fn window_end(&self) -> Option<String> {
        if !self.slices.iter().all(|s| s.in_order) {
            return None; // out of order: nothing completes early, so nothing may wait.
        }
        self.plan.namespaces.get(self.next_out + WINDOW).cloned()
    }

    /// Slices of namespaces inside the window that have not started.
    fn start_window(&mut self) -> Vec<usize> {
        let upto = (self.next_out + WINDOW).min(self.plan.namespaces.len());
        let mut ids = Vec::new();
        for i in self.next_out..upto {
            let s = self.plan.slice_of(i);
            if !self.slices[s].started {
                self.slices[s].started = true;
                ids.push(s);
            }
        }
        if let Some(r) = self.plan.rest_slice()
            && !self.slices[r].started
        {
            self.slices[r].started = true;
            ids.push(r);
        }
        ids
    }
}

/// The Jobs of the namespaces worth counting (`slices::to_count`), each from a one-item
/// first page and its `remainingItemCount`, under the scan's request limit; None for a
/// namespace not counted, or whose count did not come within [`COUNT_WAIT`].
async fn count_jobs(
    api: &Api,
    groups: &[(String, Vec<CronJob>)],
    total: Option<usize>,
    tuning: &slices::Tuning,
    limit: &Arc<Semaphore>,
) -> Vec<Option<usize>> {
    let mut counts = vec![None; groups.len()];
    let mut set = tokio::task::JoinSet::new();
    for i in slices::to_count(groups, total, CONCURRENCY, tuning) {
        let (api, limit) = (api.clone(), limit.clone());
        let path = collection("batch/v1", "jobs", Some(&groups[i].0));
        set.spawn(async move {
            let _permit = limit.acquire_owned().await.ok();
            (i, list::count(&api, &path, COUNT_WAIT).await)
        });
    }
    let _ = tokio::time::timeout(COUNT_WAIT, async {
        while let Some(r) = set.join_next().await {
            if let Ok((i, c)) = r {
                counts[i] = c;
            }
        }
    })
    .await;
    counts
}

/// List `namespace` (None: all) and call `complete` with each namespace's snapshot, in key
/// order, as soon as it is complete; the notes for the report at the end. A 403 on Jobs, or
/// any failure on Pods or Events, becomes a note and an evidence flag; any other failure ends
/// the scan with the request that failed.
pub async fn scan(
    api: &Api,
    namespace: Option<&str>,
    progress: Arc<Progress>,
    complete: impl FnMut(Snapshot),
) -> Result<Vec<String>, (String, ApiError)> {
    scan_with(
        api,
        namespace,
        progress,
        slices::Tuning::default(),
        complete,
    )
    .await
}

/// [`scan`] with the slicing thresholds given (tests slice small clusters).
pub(crate) async fn scan_with(
    api: &Api,
    namespace: Option<&str>,
    progress: Arc<Progress>,
    tuning: slices::Tuning,
    mut complete: impl FnMut(Snapshot),
) -> Result<Vec<String>, (String, ApiError)> {
    let (tx, mut rx) = mpsc::channel::<Msg>(4 * CONCURRENCY);
    let (gate_tx, gate_rx) = watch::channel::<Option<String>>(None);
    let mut sp = Spawner {
        api: api.clone(),
        limit: Arc::new(Semaphore::new(CONCURRENCY)),
        seen: progress,
        tx,
        tasks: tokio::task::JoinSet::new(),
    };
    sp.cron_jobs(namespace);
    // All namespaces: the cluster's Jobs are counted while the CronJobs are read.
    let mut total_jobs = namespace.is_none().then(|| {
        let api = api.clone();
        tokio::spawn(async move {
            list::count(&api, &collection("batch/v1", "jobs", None), COUNT_WAIT).await
        })
    });

    // One namespace: its lists start with the CronJob list. All namespaces: the CronJob list
    // first, then the plan it makes possible.
    let mut work: Option<Work> = None;
    let mut by_ns: BTreeMap<String, Vec<CronJob>> = BTreeMap::new();
    let mut one_ns: Vec<CronJob> = Vec::new();
    if let Some(ns) = namespace {
        let mut w = Work::new(Plan::one(ns), vec![Vec::new()]);
        for id in w.start_window() {
            sp.slice(id, Some(ns), None, None);
        }
        work = Some(w);
    }
    let mut cron_jobs_done = false;
    let mut restarts: Vec<String> = Vec::new();
    let (mut cron_jobs, mut events_kept) = (0usize, 0usize);
    while let Some(msg) = rx.recv().await {
        match msg {
            Msg::Page(From::CronJobs, Batch::CronJobs(v), _, _) => {
                cron_jobs += v.len();
                if namespace.is_some() {
                    one_ns.extend(v);
                } else {
                    for cj in v {
                        let key = namespace_of(&cj.meta.namespace).to_string();
                        by_ns.entry(key).or_default().push(cj);
                    }
                }
            }
            Msg::Page(From::Slice(id, kind), batch, frontier, ordered) => {
                let Some(w) = work.as_mut() else { continue };
                if let Batch::Events(v) = &batch {
                    events_kept += v.len();
                }
                let st = &mut w.slices[id];
                let backwards = matches!((&st.frontier[kind], &frontier), (Some(old), Some(new)) if key_cmp(new, old) == Cmp::Less);
                st.in_order &= ordered && !backwards;
                if frontier.is_some() {
                    st.frontier[kind] = frontier;
                }
                w.add(batch);
            }
            Msg::Page(..) => {}
            Msg::Done(From::CronJobs) => {
                cron_jobs_done = true;
                if let Some(w) = work.as_mut() {
                    // One namespace: its bucket gets the CronJobs now they are all here.
                    if let Some(b) = w.buckets[0].as_mut() {
                        b.cron_jobs = std::mem::take(&mut one_ns);
                    }
                } else {
                    // BTreeMap order is string order; LIST order is key order (`a-b/` < `a/`).
                    let mut groups: Vec<(String, Vec<CronJob>)> =
                        std::mem::take(&mut by_ns).into_iter().collect();
                    groups.sort_by(|a, b| key_cmp(&a.0, &b.0));
                    let total = match total_jobs.take() {
                        Some(h) => h.await.ok().flatten(),
                        None => None,
                    };
                    let counts = count_jobs(api, &groups, total, &tuning, &sp.limit).await;
                    let plan = Plan::counted(&groups, &counts, total, &tuning);
                    let (_, cjs): (Vec<String>, Vec<Vec<CronJob>>) = groups.into_iter().unzip();
                    work = Some(Work::new(plan, cjs));
                }
            }
            Msg::Done(From::Slice(id, kind)) => {
                if let Some(w) = work.as_mut() {
                    w.slices[id].done[kind] = true;
                }
            }
            Msg::Restarted(path, e) => restarts.push(format!(
                "LIST {path}: the continue token expired while paging ({e}); the list was restarted from the beginning once, \
                 as client-go does, and what was read already was not read twice (objects changed in between may be missing or out of date)"
            )),
            // CronJobs are the subject and Jobs the record of runs: only a 403 on Jobs is
            // tolerated (as in `explain`). Pods and Events are evidence: any failure
            // becomes a note and the scan goes on without them.
            Msg::Failed(From::Slice(id, kind), path, e) => {
                let Some(w) = work.as_mut() else { continue };
                let what = match kind {
                    JOBS if e.code() == Some(403) => "jobs",
                    JOBS => return Err((format!("LIST {path}"), e)),
                    EVENTS => "events",
                    _ => "pods",
                };
                w.slices[id].missing[kind] = Some(evidence_missing(what, &e));
                w.slices[id].done[kind] = true;
            }
            Msg::Failed(From::CronJobs, path, e) => return Err((format!("LIST {path}"), e)),
        }
        let Some(w) = work.as_mut() else { continue };
        if !cron_jobs_done {
            continue;
        }
        // Hand out every namespace all its lists have moved past, then let the window move.
        while let Some(snap) = w.pop_ready() {
            complete(snap);
        }
        for id in w.start_window() {
            let (ns, fs) = w.plan.slice_source(id);
            sp.slice(id, ns.as_deref(), fs.as_deref(), Some(&gate_rx));
        }
        let end = w.window_end();
        gate_tx.send_if_modified(|g| {
            let changed = *g != end;
            *g = end;
            changed
        });
        // The loop ends when every list has: the spawner keeps a sender for lists to come.
        if w.slices.iter().all(|s| s.started && s.all_done()) {
            break;
        }
    }
    let Some(mut w) = work else {
        return Ok(restarts);
    };
    // Everything listed: the rest, in order (a server that answered out of order).
    for i in w.next_out..w.buckets.len() {
        if let Some(mut snap) = w.buckets[i].take() {
            snap.evidence = w.slices[w.plan.slice_of(i)].evidence();
            complete(snap);
        }
    }
    let mut notes = Vec::new();
    let first = |kind: usize| w.slices.iter().find_map(|s| s.missing[kind].clone());
    let pods_missing = first(PODS);
    for kind in [JOBS, PODS, PODS_NEW_LABEL, EVENTS] {
        if let Some(note) = first(kind)
            && !(kind == PODS_NEW_LABEL && pods_missing.is_some())
        {
            notes.push(note);
        }
    }
    if first(EVENTS).is_none() && events_kept == 0 && cron_jobs > 0 {
        notes.push(no_events_note("CronJobs, Jobs or Pods"));
    }
    notes.extend(restarts);
    if w.late > 0 {
        notes.push(format!(
            "the API server returned objects out of namespace order; {} arrived after their namespace was diagnosed and were left out",
            w.late
        ));
    }
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_is_etcds() {
        assert_eq!(key_cmp("a-b", "a"), Cmp::Less);
        assert_eq!(key_cmp("a", "b"), Cmp::Less);
        assert_eq!(key_cmp("ops", "ops"), Cmp::Equal);
        assert!("a-b/" < "a/");
    }
}
