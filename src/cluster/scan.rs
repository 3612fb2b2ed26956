//! What `scan` reads, as a stream of complete namespaces: five paged LISTs (CronJobs, Jobs, two
//! for the Pods of Jobs, Events) run side by side and are cut into one small snapshot per
//! namespace as soon as every list has moved past it, so the diagnosis runs while the rest is
//! still arriving and the whole cluster is never in memory at once.
//!
//! This relies on LIST order: the API server returns items in `namespace/name` key order
//! (etcd's and the watch cache's order, which `continue` tokens depend on). The lists also
//! move in lockstep: a list may fetch its next page only while it is not ahead of the slowest
//! one, which bounds what waits in memory to about one namespace per list. Should a server
//! ever answer out of order, nothing is completed early any more, and objects that arrive for
//! an already diagnosed namespace are counted and reported in a note.

use std::cmp::Ordering as Cmp;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use doctor::model::{Event, Evidence, Snapshot};
use doctor::report::index::namespace_of;
use serde::de::DeserializeOwned;
use tokio::sync::{mpsc, watch};

use super::fetch::pod_selectors;
use super::http::{Api, ApiError};
use super::list::{Pager, collection};
pub use super::progress::Progress;
use super::request::ApiPath;
use super::wire::Listed;
use super::{convert, evidence_missing, wire};

/// `a` vs `b` in key order: `ns/` prefixes, so `a-b` sorts before `a` as in etcd.
fn key_cmp(a: &str, b: &str) -> Cmp {
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
    CronJobs(Vec<doctor::model::CronJob>),
    Jobs(Vec<doctor::model::Job>),
    Pods(Vec<doctor::model::Pod>),
    Events(Vec<Event>),
}

enum Msg {
    /// One page: its kept items, the namespace of its last raw item, and whether its raw items
    /// were in key order.
    Page(usize, Batch, Option<String>, bool),
    Done(usize),
    Failed(usize, String, ApiError),
    /// The list's continue token expired and it started again from the first page.
    Restarted(String, ApiError),
}

const CRON_JOBS: usize = 0;
const JOBS: usize = 1;
const PODS: usize = 2;
const PODS_NEW_LABEL: usize = 3;
const EVENTS: usize = 4;
const STREAMS: usize = 5;

/// One list as a task: fetch a page, send it, wait until the slowest list catches up.
#[allow(clippy::too_many_arguments)]
async fn stream<W, M>(
    api: Api,
    id: usize,
    path: ApiPath,
    params: Vec<(&'static str, String)>,
    convert: fn(W) -> Option<M>,
    wrap: fn(Vec<M>) -> Batch,
    seen: Arc<Progress>,
    tx: mpsc::Sender<Msg>,
    mut low: watch::Receiver<Option<String>>,
) where
    W: DeserializeOwned + Listed,
{
    let mut pager = Pager::new(&api, &path, &params);
    let mut frontier: Option<String> = None;
    // `namespace/name` of the last raw item delivered, and after a restart the key up to
    // which items were delivered already (skipped when the list comes round again).
    let mut last_key: Option<String> = None;
    let mut skip_upto: Option<String> = None;
    let mut restarted = false;
    loop {
        if let Some(mine) = &frontier {
            // Not ahead of the slowest list: its namespace is where the work is.
            let ok = low
                .wait_for(|l| {
                    l.as_deref()
                        .is_none_or(|l| key_cmp(mine, l) != Cmp::Greater)
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
                if tx.send(Msg::Restarted(path.to_string(), e)).await.is_err() {
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
                let c = match id {
                    CRON_JOBS => &seen.cron_jobs,
                    JOBS => &seen.jobs,
                    PODS | PODS_NEW_LABEL => &seen.pods,
                    _ => &seen.events,
                };
                c.fetch_add(items.len(), Ordering::Relaxed);
                let ordered = items.windows(2).all(|w| {
                    key_cmp(w[0].listed_namespace(), w[1].listed_namespace()) != Cmp::Greater
                });
                if let Some(last) = items.last() {
                    frontier = Some(last.listed_namespace().to_string());
                }
                let kept: Vec<M> = items.into_iter().filter_map(convert).collect();
                Msg::Page(id, wrap(kept), frontier.clone(), ordered)
            }
            Ok(None) => Msg::Done(id),
            Err(e) => Msg::Failed(id, path.to_string(), e),
        };
        let last = !matches!(msg, Msg::Page(..));
        if tx.send(msg).await.is_err() || last {
            return;
        }
    }
}

#[derive(Default)]
struct State {
    /// Namespace of the last item each list delivered (None: nothing yet).
    frontier: [Option<String>; STREAMS],
    done: [bool; STREAMS],
    /// Why a list of evidence could not be read (its note); None while it is fine.
    missing: [Option<String>; STREAMS],
}

impl State {
    /// The namespace every unfinished list has reached; None while one has not started.
    fn low(&self) -> Option<Option<&str>> {
        let mut low: Option<&str> = None;
        for i in 0..STREAMS {
            if self.done[i] {
                continue;
            }
            let f = self.frontier[i].as_deref()?;
            if low.is_none_or(|l| key_cmp(f, l) == Cmp::Less) {
                low = Some(f);
            }
        }
        Some(low)
    }

    fn evidence(&self) -> Evidence {
        Evidence {
            jobs: self.missing[JOBS].is_none(),
            pods: self.missing[PODS].is_none() && self.missing[PODS_NEW_LABEL].is_none(),
            events: self.missing[EVENTS].is_none(),
        }
    }
}

/// Namespaces still being filled, by `ns/` key so that BTreeMap order is LIST order.
#[derive(Default)]
struct Buckets {
    open: BTreeMap<String, Snapshot>,
    /// Key of the last namespace handed out.
    closed_upto: Option<String>,
    /// Objects that arrived for a namespace already handed out.
    late: usize,
}

impl Buckets {
    fn get(&mut self, ns: &str) -> Option<&mut Snapshot> {
        let key = format!("{}/", namespace_of(ns));
        if self
            .closed_upto
            .as_deref()
            .is_some_and(|c| key.as_str() <= c)
        {
            self.late += 1;
            return None;
        }
        Some(self.open.entry(key).or_default())
    }

    /// Hand out the first open namespace if its key is below `below` (None: unconditionally).
    fn pop_below(&mut self, below: Option<&str>) -> Option<Snapshot> {
        let entry = self.open.first_entry()?;
        if below.is_some_and(|b| entry.key().as_str() >= b) {
            return None;
        }
        let (key, snap) = entry.remove_entry();
        self.closed_upto = Some(key);
        Some(snap)
    }
}

/// List `namespace` (None: all) and call `complete` with each namespace's snapshot, in key
/// order, as soon as it is complete; the notes for the report at the end. A 403 on Jobs, or
/// any failure on Pods or Events, becomes a note and an evidence flag; any other failure ends
/// the scan with the request that failed.
pub async fn scan(
    api: &Api,
    namespace: Option<&str>,
    progress: Arc<Progress>,
    mut complete: impl FnMut(Snapshot),
) -> Result<Vec<String>, (String, ApiError)> {
    let (tx, mut rx) = mpsc::channel::<Msg>(2 * STREAMS);
    let (low_tx, low_rx) = watch::channel::<Option<String>>(None);
    let mut tasks = tokio::task::JoinSet::new();
    let [sel_old, sel_new] = pod_selectors("");
    let lists: [(usize, &str, &str, Option<String>); STREAMS] = [
        (CRON_JOBS, "batch/v1", "cronjobs", None),
        (JOBS, "batch/v1", "jobs", None),
        (PODS, "v1", "pods", Some(sel_old)),
        (PODS_NEW_LABEL, "v1", "pods", Some(sel_new)),
        (EVENTS, "v1", "events", None),
    ];
    for (id, gv, resource, selector) in lists {
        let path = collection(gv, resource, namespace);
        let params: Vec<(&'static str, String)> =
            selector.into_iter().map(|s| ("labelSelector", s)).collect();
        let (api, seen, tx, low) = (api.clone(), progress.clone(), tx.clone(), low_rx.clone());
        match id {
            CRON_JOBS => tasks.spawn(stream(
                api,
                id,
                path,
                params,
                |w| Some(convert::cron_job(w)),
                Batch::CronJobs,
                seen,
                tx,
                low,
            )),
            JOBS => tasks.spawn(stream(
                api,
                id,
                path,
                params,
                |w| Some(convert::job(w)),
                Batch::Jobs,
                seen,
                tx,
                low,
            )),
            PODS | PODS_NEW_LABEL => tasks.spawn(stream(
                api,
                id,
                path,
                params,
                |w: wire::Pod| Some(convert::pod(w)).filter(|p| p.job_name().is_some()),
                Batch::Pods,
                seen,
                tx,
                low,
            )),
            _ => tasks.spawn(stream(
                api,
                id,
                path,
                params,
                |w: wire::Event| {
                    matches!(w.involved_object.kind.as_str(), "CronJob" | "Job" | "Pod")
                        .then(|| convert::event(w))
                },
                Batch::Events,
                seen,
                tx,
                low,
            )),
        };
    }
    drop(tx);

    let mut st = State::default();
    let mut restarts: Vec<String> = Vec::new();
    let mut b = Buckets::default();
    let (mut in_order, mut cron_jobs, mut events_kept) = (true, 0usize, 0usize);
    while let Some(msg) = rx.recv().await {
        match msg {
            Msg::Page(id, batch, frontier, ordered) => {
                let backwards = matches!((&st.frontier[id], &frontier), (Some(old), Some(new)) if key_cmp(new, old) == Cmp::Less);
                in_order &= ordered && !backwards;
                if frontier.is_some() {
                    st.frontier[id] = frontier;
                }
                match batch {
                    Batch::CronJobs(v) => {
                        cron_jobs += v.len();
                        for o in v {
                            if let Some(s) = b.get(&o.meta.namespace) {
                                s.cron_jobs.push(o);
                            }
                        }
                    }
                    Batch::Jobs(v) => {
                        for o in v {
                            if let Some(s) = b.get(&o.meta.namespace) {
                                s.jobs.push(o);
                            }
                        }
                    }
                    Batch::Pods(v) => {
                        for o in v {
                            if let Some(s) = b.get(&o.meta.namespace) {
                                s.pods.push(o);
                            }
                        }
                    }
                    Batch::Events(v) => {
                        events_kept += v.len();
                        for o in v {
                            // The core's index files an Event under its object's namespace
                            // (the API server requires the two to be equal anyway).
                            let ns = if o.involved_object.namespace.is_empty() {
                                &o.meta.namespace
                            } else {
                                &o.involved_object.namespace
                            };
                            if let Some(s) = b.get(&ns.clone()) {
                                s.events.push(o);
                            }
                        }
                    }
                }
            }
            Msg::Done(id) => st.done[id] = true,
            Msg::Restarted(path, e) => restarts.push(format!(
                "LIST {path}: the continue token expired while paging ({e}); the list was restarted from the beginning once, \
                 as client-go does, and what was read already was not read twice (objects changed in between may be missing or out of date)"
            )),
            // CronJobs are the subject and Jobs the record of runs: only a 403 on Jobs is
            // tolerated (as in `explain`). Pods and Events are evidence: any failure
            // becomes a note and the scan goes on without them.
            Msg::Failed(JOBS, _, e @ ApiError::Status { code: 403, .. }) => {
                st.missing[JOBS] = Some(evidence_missing("jobs", &e));
                st.done[JOBS] = true;
            }
            Msg::Failed(id @ (PODS | PODS_NEW_LABEL | EVENTS), _, e) => {
                let what = if id == EVENTS { "events" } else { "pods" };
                st.missing[id] = Some(evidence_missing(what, &e));
                st.done[id] = true;
            }
            Msg::Failed(_, path, e) => return Err((format!("LIST {path}"), e)),
        }
        let low = st.low().map(|l| l.map(str::to_string));
        if let Some(l) = &low {
            let _ = low_tx.send(l.clone());
        }
        // Hand out every namespace all lists have moved past.
        if let (true, Some(Some(low))) = (in_order, &low) {
            let below = format!("{low}/");
            while let Some(mut snap) = b.pop_below(Some(&below)) {
                snap.evidence = st.evidence();
                complete(snap);
            }
        }
    }
    // Everything listed: the rest, in order.
    while let Some(mut snap) = b.pop_below(None) {
        snap.evidence = st.evidence();
        complete(snap);
    }
    let late = b.late;
    let mut notes = Vec::new();
    for id in [JOBS, PODS, PODS_NEW_LABEL, EVENTS] {
        if let Some(note) = &st.missing[id]
            && !(id == PODS_NEW_LABEL && st.missing[PODS].is_some())
        {
            notes.push(note.clone());
        }
    }
    if st.missing[EVENTS].is_none() && events_kept == 0 && cron_jobs > 0 {
        notes.push(
            "No Events about CronJobs, Jobs or Pods: the API server keeps Events for about an hour by default; \
             the diagnosis stands on status, Job names and timestamps"
                .into(),
        );
    }
    notes.extend(restarts);
    if late > 0 {
        notes.push(format!(
            "the API server returned objects out of namespace order; {late} arrived after their namespace was diagnosed and were left out"
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
