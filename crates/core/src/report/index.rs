//! Who belongs to whom: the Jobs a CronJob's controller counts as its own, the manual Jobs it
//! ignores, their Pods, and the Events about any of them, as [`super::relation`] decides it
//! for each object. Built once per snapshot so that a scan over thousands of CronJobs stays
//! linear.

use std::collections::HashMap as StdHashMap;

use super::relation::{Owner, about, owner_of};
pub use crate::model::namespace_of;
use crate::model::{CronJob, Event, Job, Pod, Snapshot};

/// The index's maps hash with foldhash, seeded per process (keys are names from the cluster,
/// so not predictable ones): SipHash, the standard one, showed in `scan -A`'s profile here.
type HashMap<K, V> = StdHashMap<K, V, foldhash::fast::RandomState>;

pub struct Index<'a> {
    /// namespace → its Jobs, in snapshot order (what the replay may GET by name).
    in_namespace: HashMap<&'a str, Vec<&'a Job>>,
    /// (namespace, controller-owner name) → jobs. Upstream matches the controller ownerRef by
    /// NAME only (not kind or UID), so we do too.
    owned: HashMap<(&'a str, &'a str), Vec<&'a Job>>,
    /// (namespace, cronjob name) → manual jobs (instantiate: manual, or a non-controller
    /// ownerRef to the CronJob, as `kubectl create job --from` writes).
    manual: HashMap<(&'a str, &'a str), Vec<&'a Job>>,
    /// (namespace, job name) → pods.
    pods: HashMap<(&'a str, &'a str), Vec<&'a Pod>>,
    /// (namespace, object name) → events about it.
    events: HashMap<(&'a str, &'a str), Vec<&'a Event>>,
}

impl<'a> Index<'a> {
    pub fn new(s: &'a Snapshot) -> Self {
        Self::over(&s.jobs, &s.pods, &s.events)
    }

    /// The index of these objects, as [`Index::new`] of a snapshot holding them in this order.
    pub fn over(
        job_list: impl IntoIterator<Item = &'a Job>,
        pod_list: impl IntoIterator<Item = &'a Pod>,
        event_list: impl IntoIterator<Item = &'a Event>,
    ) -> Self {
        let mut owned: HashMap<_, Vec<&Job>> = HashMap::default();
        let mut manual: HashMap<_, Vec<&Job>> = HashMap::default();
        let mut in_namespace: HashMap<_, Vec<&Job>> = HashMap::default();
        for j in job_list {
            let ns = namespace_of(&j.meta.namespace);
            in_namespace.entry(ns).or_default().push(j);
            match owner_of(j) {
                Some(Owner {
                    name,
                    controller: true,
                }) => owned.entry((ns, name)).or_default().push(j),
                Some(Owner {
                    name,
                    controller: false,
                }) => manual.entry((ns, name)).or_default().push(j),
                None => {}
            }
        }
        let mut pods: HashMap<_, Vec<&Pod>> = HashMap::default();
        for p in pod_list {
            if let Some(job) = p.job_name() {
                pods.entry((namespace_of(&p.meta.namespace), job))
                    .or_default()
                    .push(p);
            }
        }
        let mut events: HashMap<_, Vec<&Event>> = HashMap::default();
        for e in event_list {
            events.entry(about(e)).or_default().push(e);
        }
        Index {
            in_namespace,
            owned,
            manual,
            pods,
            events,
        }
    }

    /// The Jobs of namespace `ns` (`default` for ""), in snapshot order.
    pub fn jobs_in(&self, ns: &str) -> &[&'a Job] {
        self.in_namespace
            .get(namespace_of(ns))
            .map_or(&[], Vec::as_slice)
    }

    /// Jobs with a controller ownerReference naming `cj` (what the v2 controller counts as
    /// `cj`'s before 1.37; from 1.37 the caller also checks kind and UID with
    /// [`crate::replay::controlled_by`]), in snapshot order.
    pub fn jobs_of(&self, cj: &CronJob) -> Vec<&'a Job> {
        let ns = namespace_of(&cj.meta.namespace);
        self.owned
            .get(&(ns, cj.meta.name.as_str()))
            .cloned()
            .unwrap_or_default()
    }

    pub fn manual_jobs_of(&self, cj: &CronJob) -> Vec<&'a Job> {
        let ns = namespace_of(&cj.meta.namespace);
        self.manual
            .get(&(ns, cj.meta.name.as_str()))
            .cloned()
            .unwrap_or_default()
    }

    pub fn pods_of(&self, ns: &str, job: &str) -> Vec<&'a Pod> {
        let key: (&str, &str) = (namespace_of(ns), job);
        self.pods.get(&key).cloned().unwrap_or_default()
    }

    /// Events about the CronJob, its jobs and their pods, oldest first.
    pub fn events_for(&self, cj: &CronJob, jobs: &[&Job], pods: &[&Pod]) -> Vec<&'a Event> {
        let ns = namespace_of(&cj.meta.namespace);
        let mut names: Vec<&str> = vec![cj.meta.name.as_str()];
        names.extend(jobs.iter().map(|j| j.meta.name.as_str()));
        names.extend(pods.iter().map(|p| p.meta.name.as_str()));
        let mut out: Vec<&Event> = Vec::new();
        for n in names {
            if let Some(v) = self.events.get(&(ns, n)) {
                out.extend(v.iter().copied());
            }
        }
        out.sort_by_key(|e| e.last_timestamp.or(e.first_timestamp));
        out.dedup_by(|a, b| std::ptr::eq(*a, *b));
        out
    }
}
