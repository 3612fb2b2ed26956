//! What the watchers have seen, in memory: every CronJob, Job, Pod (of a Job) and Event (about
//! a CronJob, Job or Pod), keyed by (namespace, name), with the indexes that answer the two
//! questions the monitor asks on every change: which CronJobs does this object touch, and
//! what is the small snapshot of one CronJob (`cluster::diagnose`'s per-CronJob subset: the
//! same look-ups, the same order as `scan`'s LIST order, hence the same report). Which objects
//! relate to a CronJob is `doctor::report::relation`'s to say; the store only keeps indexes
//! that answer it without a pass over everything (10,000 CronJobs and their objects).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use doctor::model::{CronJob, Event, Evidence, Job, Pod, Snapshot};
use doctor::names::digits_suffix;
use doctor::report::index::namespace_of;
use doctor::report::relation;

use super::packed::Packed;
use crate::cluster::watch::{Object, Stream};

/// (namespace, name); the namespace as the core reads it (`default` when empty). The
/// namespace is shared: the store interns it ([`Store::intern`]), so the keys of its
/// maps and indexes at 10,000 CronJobs hold a pointer each instead of their own copy.
pub type Key = (Arc<str>, String);

/// A key to look up with (its namespace not interned).
fn key(ns: &str, name: &str) -> Key {
    (Arc::from(namespace_of(ns)), name.to_string())
}

/// The key of `name` in `k`'s namespace, sharing its namespace.
fn sibling(k: &Key, name: &str) -> Key {
    (k.0.clone(), name.to_string())
}

/// Which of the two Pod streams a Pod came from (they are relisted independently).
fn pod_slot(stream: Stream) -> usize {
    usize::from(stream == Stream::PodsNewLabel)
}

#[derive(Default)]
pub struct Store {
    cron_jobs: BTreeMap<Key, CronJob>,
    /// Jobs, Pods and Events are most of what is held: packed, one allocation each
    /// (`packed`'s header says why), unpacked only into a snapshot or to unindex them.
    jobs: BTreeMap<Key, Packed<Job>>,
    pods: [BTreeMap<Key, Packed<Pod>>; 2],
    events: BTreeMap<Key, Packed<Event>>,
    /// (namespace, ownerReference name) → names of the Jobs it owns, for the owners a Job's
    /// name does not already give away: a Job `<owner>-<digits>` (every Job the controller
    /// creates) is found by its name in `jobs` ([`Store::jobs_named_after`]), so indexing it
    /// here too would only hold 100,000 more names at scale.
    jobs_by_owner: HashMap<Key, BTreeSet<String>>,
    /// (namespace, Job name in a CronJob's status.active) → CronJob names.
    active_refs: HashMap<Key, BTreeSet<String>>,
    /// (namespace, Job name) → (Pod stream, Pod name).
    pods_by_job: HashMap<Key, BTreeSet<(usize, String)>>,
    /// (namespace, involved object name) → Event keys.
    events_by_object: HashMap<Key, BTreeSet<Key>>,
    /// Keys seen since a relist of each stream began (None: no relist under way).
    relisting: HashMap<Stream, HashSet<Key>>,
    /// Every namespace seen, once (see [`Key`]); never shrinks: namespaces are few.
    namespaces: HashSet<Arc<str>>,
    /// Which evidence can be read (a 403 on Pods or Events turns its flag off).
    pub evidence: Evidence,
}

impl Store {
    pub fn new() -> Self {
        Store {
            evidence: Evidence {
                jobs: true,
                pods: true,
                events: true,
            },
            ..Default::default()
        }
    }

    /// The shared copy of namespace `ns` (as the core reads it: `default` when empty).
    fn intern(&mut self, ns: &str) -> Arc<str> {
        let ns = namespace_of(ns);
        if let Some(shared) = self.namespaces.get(ns) {
            return shared.clone();
        }
        let shared: Arc<str> = Arc::from(ns);
        self.namespaces.insert(shared.clone());
        shared
    }

    pub fn cron_job_keys(&self) -> impl Iterator<Item = &Key> {
        self.cron_jobs.keys()
    }

    pub fn cron_job_count(&self) -> usize {
        self.cron_jobs.len()
    }

    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// Object counts per kind: CronJobs, Jobs, Pods, Events.
    #[cfg(test)]
    pub fn counts(&self) -> [usize; 4] {
        [
            self.cron_jobs.len(),
            self.jobs.len(),
            self.pods[0].len() + self.pods[1].len(),
            self.events.len(),
        ]
    }

    /// A relist of `stream` begins: objects it does not list again before [`Store::relisted`]
    /// are gone.
    pub fn relist(&mut self, stream: Stream) {
        // Nothing held, nothing to drop: the first list need not remember what it listed
        // (180,000 keys at scale, held until the list ends).
        let held = match stream {
            Stream::CronJobs => self.cron_jobs.len(),
            Stream::Jobs => self.jobs.len(),
            Stream::Pods | Stream::PodsNewLabel => self.pods[pod_slot(stream)].len(),
            Stream::Events => self.events.len(),
        };
        if held == 0 {
            self.relisting.remove(&stream);
        } else {
            self.relisting.insert(stream, HashSet::new());
        }
    }

    /// The relist of `stream` is complete: drop what it did not list. Returns the CronJobs
    /// touched by the removals.
    pub fn relisted(&mut self, stream: Stream) -> BTreeSet<Key> {
        let Some(seen) = self.relisting.remove(&stream) else {
            return BTreeSet::new();
        };
        let gone: Vec<Key> = match stream {
            Stream::CronJobs => self.cron_jobs.keys().cloned().collect(),
            Stream::Jobs => self.jobs.keys().cloned().collect(),
            Stream::Pods | Stream::PodsNewLabel => {
                self.pods[pod_slot(stream)].keys().cloned().collect()
            }
            Stream::Events => self.events.keys().cloned().collect(),
        };
        let mut touched = BTreeSet::new();
        for k in gone.into_iter().filter(|k| !seen.contains(k)) {
            touched.extend(self.remove_key(stream, &k));
        }
        touched
    }

    /// Add or replace an object; the CronJobs whose diagnosis may change.
    pub fn upsert(&mut self, stream: Stream, obj: Object) -> BTreeSet<Key> {
        self.put(stream, obj, true)
    }

    /// [`Store::upsert`] without working out which CronJobs the object touches, for when every
    /// CronJob is diagnosed next anyway (the first sync): those look-ups unpack Jobs and Pods
    /// and were a good part of the time the first sync spent in the store.
    pub fn insert(&mut self, stream: Stream, obj: Object) {
        self.put(stream, obj, false);
    }

    fn put(&mut self, stream: Stream, obj: Object, want_touched: bool) -> BTreeSet<Key> {
        let meta = match &obj {
            Object::CronJob(o) => &o.meta,
            Object::Job(o) => &o.meta,
            Object::Pod(o) => &o.meta,
            Object::Event(o) => &o.meta,
        };
        let k = (self.intern(&meta.namespace), meta.name.clone());
        if let Some(seen) = self.relisting.get_mut(&stream) {
            seen.insert(k.clone());
        }
        let mut touched = self.remove_key(stream, &k);
        match obj {
            Object::CronJob(cj) => {
                for a in relation::active_jobs(&cj) {
                    self.active_refs
                        .entry(sibling(&k, a))
                        .or_default()
                        .insert(k.1.clone());
                }
                self.cron_jobs.insert(k.clone(), cj);
                touched.insert(k);
            }
            Object::Job(j) => {
                for owner in owners_not_in_name(&j, &k.1) {
                    self.jobs_by_owner
                        .entry(sibling(&k, owner))
                        .or_default()
                        .insert(k.1.clone());
                }
                self.jobs.insert(k.clone(), Packed::new(&j));
                if want_touched {
                    touched.extend(self.cron_jobs_of(&k, Some(&j)));
                }
            }
            Object::Pod(p) => {
                // Only Pods of Jobs are evidence (as in `scan`).
                let Some(job) = p.job_name().map(str::to_string) else {
                    return touched;
                };
                let slot = pod_slot(stream);
                self.pods_by_job
                    .entry(sibling(&k, &job))
                    .or_default()
                    .insert((slot, k.1.clone()));
                self.pods[slot].insert(k.clone(), Packed::new(&p));
                if want_touched {
                    touched.extend(self.cron_jobs_of_job(&sibling(&k, &job)));
                }
            }
            Object::Event(e) => {
                if !relation::is_evidence_kind(&e.involved_object.kind) {
                    return touched;
                }
                let (ns, name) = relation::about(&e);
                let about = (self.intern(ns), name.to_string());
                if want_touched {
                    touched.extend(self.cron_jobs_about(&about));
                }
                self.events_by_object
                    .entry(about)
                    .or_default()
                    .insert(k.clone());
                self.events.insert(k, Packed::new(&e));
            }
        }
        touched
    }

    /// Remove an object (a watch DELETE); the CronJobs whose diagnosis may change.
    pub fn remove(&mut self, stream: Stream, obj: &Object) -> BTreeSet<Key> {
        let k = match obj {
            Object::CronJob(o) => key(&o.meta.namespace, &o.meta.name),
            Object::Job(o) => key(&o.meta.namespace, &o.meta.name),
            Object::Pod(o) => key(&o.meta.namespace, &o.meta.name),
            Object::Event(o) => key(&o.meta.namespace, &o.meta.name),
        };
        self.remove_key(stream, &k)
    }

    fn remove_key(&mut self, stream: Stream, k: &Key) -> BTreeSet<Key> {
        let mut touched = BTreeSet::new();
        match stream {
            Stream::CronJobs => {
                if let Some(cj) = self.cron_jobs.remove(k) {
                    for a in relation::active_jobs(&cj) {
                        let r = sibling(k, a);
                        if let Some(set) = self.active_refs.get_mut(&r) {
                            set.remove(&k.1);
                            if set.is_empty() {
                                self.active_refs.remove(&r);
                            }
                        }
                    }
                    touched.insert(k.clone());
                }
            }
            Stream::Jobs => {
                if !self.jobs.contains_key(k) {
                    return touched;
                }
                // The Job's CronJobs are found while it is still indexed.
                touched.extend(self.cron_jobs_of_job(k));
                if let Some(j) = self.jobs.remove(k).and_then(|j| j.unpack()) {
                    for owner in owners_not_in_name(&j, &k.1) {
                        unindex(&mut self.jobs_by_owner, &sibling(k, owner), &k.1);
                    }
                }
            }
            Stream::Pods | Stream::PodsNewLabel => {
                let slot = pod_slot(stream);
                if let Some(p) = self.pods[slot].remove(k).and_then(|p| p.unpack())
                    && let Some(job) = p.job_name()
                {
                    let jk = sibling(k, job);
                    touched.extend(self.cron_jobs_of_job(&jk));
                    if let Some(set) = self.pods_by_job.get_mut(&jk) {
                        set.remove(&(slot, k.1.clone()));
                        if set.is_empty() {
                            self.pods_by_job.remove(&jk);
                        }
                    }
                }
            }
            Stream::Events => {
                if let Some(e) = self.events.remove(k).and_then(|e| e.unpack()) {
                    let (ns, name) = relation::about(&e);
                    let about = key(ns, name);
                    touched.extend(self.cron_jobs_about(&about));
                    if let Some(set) = self.events_by_object.get_mut(&about) {
                        set.remove(k);
                        if set.is_empty() {
                            self.events_by_object.remove(&about);
                        }
                    }
                }
            }
        }
        touched
    }

    /// The Jobs named `<k.1>-<digits>` in namespace `k.0`: the names sort together in `jobs`
    /// (`-` is followed by `.` in byte order, so every name starting `<k.1>-` lies in the range
    /// below), and only those whose rest is all digits count, as `digits_suffix` says.
    fn jobs_named_after<'a>(&'a self, k: &Key) -> impl Iterator<Item = &'a str> + 'a {
        let from = (k.0.clone(), format!("{}-", k.1));
        let to = (k.0.clone(), format!("{}.", k.1));
        let cron_job = k.1.clone();
        self.jobs
            .range(from..to)
            .map(|((_, name), _)| name.as_str())
            .filter(move |name| digits_suffix(name) == Some(cron_job.as_str()))
    }

    /// CronJobs whose snapshot holds the Job `k` (the look-ups of [`Store::subset`], reversed).
    fn cron_jobs_of_job(&self, k: &Key) -> BTreeSet<Key> {
        let job = self.jobs.get(k).and_then(Packed::unpack);
        self.cron_jobs_of(k, job.as_ref())
    }

    /// [`Store::cron_jobs_of_job`] for the Job `k` when it is `job` (None: not stored): the
    /// CronJobs it belongs to by itself ([`relation::cron_jobs_of_job`]) and those whose
    /// `status.active` names it. Its other ownerReferences do not make it any CronJob's Job,
    /// so a change of it must not re-diagnose those CronJobs, however many (docs/monitor.md,
    /// "How it works": "Only what changed").
    fn cron_jobs_of(&self, k: &Key, job: Option<&Job>) -> BTreeSet<Key> {
        let mut out = BTreeSet::new();
        let mut add = |name: &str| {
            let c = sibling(k, name);
            if self.cron_jobs.contains_key(&c) {
                out.insert(c);
            }
        };
        match job {
            Some(job) => relation::cron_jobs_of_job(job, &k.1).for_each(&mut add),
            // Not (or no longer) stored: what its name says.
            None => digits_suffix(&k.1).into_iter().for_each(&mut add),
        }
        for cj in self.active_refs.get(k).into_iter().flatten() {
            add(cj);
        }
        out
    }

    /// CronJobs whose snapshot holds Events about the object named `k.1` (the core matches
    /// Events by name within the namespace, whatever the kind).
    fn cron_jobs_about(&self, k: &Key) -> BTreeSet<Key> {
        let mut out = BTreeSet::new();
        if self.cron_jobs.contains_key(k) {
            out.insert(k.clone());
        }
        out.extend(self.cron_jobs_of_job(k));
        for pods in &self.pods {
            let pod = pods.get(k).and_then(Packed::unpack);
            if let Some(job) = pod.as_ref().and_then(|p| p.job_name()) {
                out.extend(self.cron_jobs_of_job(&sibling(k, job)));
            }
        }
        out
    }

    /// The snapshot of one CronJob: its related Jobs, their Pods, the Events about any of
    /// them — what `cluster::diagnose` cuts from a namespace, in the same order.
    pub fn subset(&self, k: &Key) -> Option<Snapshot> {
        let cj = self.cron_jobs.get(k)?;
        let mut job_names: BTreeSet<&str> = self.jobs_named_after(k).collect();
        job_names.extend(
            self.jobs_by_owner
                .get(k)
                .into_iter()
                .flatten()
                .map(String::as_str),
        );
        for a in relation::active_jobs(cj) {
            if self.jobs.contains_key(&sibling(k, a)) {
                job_names.insert(a);
            }
        }
        let jobs: Vec<Job> = job_names
            .iter()
            .filter_map(|n| self.jobs.get(&sibling(k, n)).and_then(Packed::unpack))
            .collect();
        let mut pod_keys: BTreeSet<(usize, &str)> = BTreeSet::new();
        for j in &jobs {
            for (slot, name) in self
                .pods_by_job
                .get(&sibling(k, &j.meta.name))
                .into_iter()
                .flatten()
            {
                pod_keys.insert((*slot, name));
            }
        }
        let pods: Vec<Pod> = pod_keys
            .iter()
            .filter_map(|(slot, n)| {
                self.pods[*slot]
                    .get(&sibling(k, n))
                    .and_then(Packed::unpack)
            })
            .collect();
        let mut event_keys: BTreeSet<&Key> = BTreeSet::new();
        let names = std::iter::once(k.1.as_str())
            .chain(jobs.iter().map(|j| j.meta.name.as_str()))
            .chain(pods.iter().map(|p| p.meta.name.as_str()));
        for n in names {
            event_keys.extend(
                self.events_by_object
                    .get(&sibling(k, n))
                    .into_iter()
                    .flatten(),
            );
        }
        let events = event_keys
            .into_iter()
            .filter_map(|e| self.events.get(e).and_then(Packed::unpack))
            .collect();
        Some(Snapshot {
            cron_jobs: vec![cj.clone()],
            jobs,
            pods,
            events,
            evidence: self.evidence,
            notes: Vec::new(),
        })
    }
}

/// The CronJobs Job `name` belongs to by itself ([`relation::cron_jobs_of_job`]) that its
/// name does not give away (see `jobs_by_owner`): its owner, unless the Job is named after it.
fn owners_not_in_name<'a>(job: &'a Job, name: &'a str) -> impl Iterator<Item = &'a str> {
    let named_after = digits_suffix(name);
    relation::cron_jobs_of_job(job, name).filter(move |c| Some(*c) != named_after)
}

fn unindex(index: &mut HashMap<Key, BTreeSet<String>>, k: &Key, name: &str) {
    if let Some(set) = index.get_mut(k) {
        set.remove(name);
        if set.is_empty() {
            index.remove(k);
        }
    }
}

/// Tests' stores: everything of a snapshot, as the watches would have delivered it.
#[cfg(test)]
impl Store {
    /// A store holding every object of `snapshot` (and its evidence), each upserted on the
    /// stream its watch delivers it on (a Pod by the label it carries).
    pub(crate) fn of_snapshot(snapshot: Snapshot) -> Store {
        let mut s = Store::new();
        s.evidence = snapshot.evidence;
        for c in snapshot.cron_jobs {
            s.upsert(Stream::CronJobs, Object::CronJob(c));
        }
        for j in snapshot.jobs {
            s.upsert(Stream::Jobs, Object::Job(j));
        }
        for p in snapshot.pods {
            let stream = if p.meta.labels.contains_key("job-name") {
                Stream::Pods
            } else {
                Stream::PodsNewLabel
            };
            s.upsert(stream, Object::Pod(p));
        }
        for e in snapshot.events {
            s.upsert(Stream::Events, Object::Event(e));
        }
        s
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
