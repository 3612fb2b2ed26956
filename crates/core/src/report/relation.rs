//! Which objects belong to a CronJob: the one definition that the report's index
//! ([`super::index`]), `scan`'s per-CronJob snapshots ([`Relations::subset`]) and the
//! monitor's store follow, so that the three cannot drift apart.
//!
//! A Job belongs to CronJob C of its namespace when C is its owner ([`owner_of`]: the
//! controller counts it as C's, or it is a manual run of C), when its name is one the
//! controller gives C's runs (`C-<digits>`: the replay looks a slot's Job up by that name),
//! or when C's `status.active` names it (the replay GETs those). A Pod belongs to its Job
//! (`Pod::job_name`); an Event is about the object of its name in its namespace ([`about`]),
//! whatever that object's kind, as the index matches them. So C's Pods are those of its Jobs,
//! and C's Events those about C, its Jobs or their Pods.
//!
//! Every look-up the replay and the rules make for C is among these objects, so a snapshot
//! holding only them gives C's report unchanged (`src/cluster/diagnose_tests.rs` holds this
//! to account against the whole build on every example).

use std::collections::HashMap as StdHashMap;

use crate::model::{CronJob, Event, Job, Snapshot, namespace_of};
use crate::names::digits_suffix;

/// Keys are names from the cluster: foldhash seeded per process, as the index (SipHash was a
/// measurable share of `scan -A`).
type HashMap<K, V> = StdHashMap<K, V, foldhash::fast::RandomState>;

/// The kinds of object an Event is kept for, when reading a cluster (`scan`, the monitor): the
/// only ones a CronJob's objects can be.
pub const EVENT_KINDS: [&str; 3] = ["CronJob", "Job", "Pod"];

/// Whether an Event about an object of `kind` can belong to a CronJob ([`EVENT_KINDS`]).
pub fn is_evidence_kind(kind: &str) -> bool {
    EVENT_KINDS.contains(&kind)
}

/// The CronJob a Job belongs to by its ownerReferences, by name in the Job's namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner<'a> {
    pub name: &'a str,
    /// A controller reference: the controller counts the Job as that CronJob's (matched by
    /// name only before 1.37, as upstream does: the kind is not checked). Else a reference
    /// of kind CronJob without `controller: true`, as `kubectl create job --from` writes: a
    /// manual run, which the controller ignores.
    pub controller: bool,
}

/// The owner Job `job` belongs to: its controller, else its first CronJob owner. Its other
/// ownerReferences do not make it any CronJob's Job.
pub fn owner_of(job: &Job) -> Option<Owner<'_>> {
    if let Some(c) = job.meta.controller() {
        return Some(Owner {
            name: &c.name,
            controller: true,
        });
    }
    job.meta
        .owner_references
        .iter()
        .find(|o| o.kind == "CronJob")
        .map(|o| Owner {
            name: &o.name,
            controller: false,
        })
}

/// The CronJobs (by name, in the Job's namespace) that Job `job`, named `name`, belongs to by
/// itself: its owner ([`owner_of`]) and the CronJob its name is after (`<cronjob>-<digits>`).
/// At most two, once each. A CronJob's `status.active` is the CronJob's side of the relation:
/// see [`active_jobs`].
pub fn cron_jobs_of_job<'a>(job: &'a Job, name: &'a str) -> impl Iterator<Item = &'a str> {
    let owner = owner_of(job).map(|o| o.name);
    let named_after = digits_suffix(name).filter(|p| Some(*p) != owner);
    owner.into_iter().chain(named_after)
}

/// The Jobs (by name, in the CronJob's namespace) that `cj`'s `status.active` names. A
/// reference into another namespace names nothing the controller could GET.
pub fn active_jobs(cj: &CronJob) -> impl Iterator<Item = &str> {
    let ns = namespace_of(&cj.meta.namespace);
    cj.status
        .active
        .iter()
        .filter(move |a| namespace_of(&a.namespace) == ns)
        .map(|a| a.name.as_str())
}

/// Whether Job `job` belongs to CronJob `cj`.
pub fn job_belongs(cj: &CronJob, job: &Job) -> bool {
    namespace_of(&job.meta.namespace) == namespace_of(&cj.meta.namespace)
        && (cron_jobs_of_job(job, &job.meta.name).any(|c| c == cj.meta.name)
            || active_jobs(cj).any(|a| a == job.meta.name))
}

/// (namespace, name) of the object Event `e` is about.
pub fn about(e: &Event) -> (&str, &str) {
    (e.filed_namespace(), &e.involved_object.name)
}

/// A CronJob's objects in a snapshot: positions in its `jobs`, `pods` and `events`, each in
/// snapshot order, once each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Related {
    pub jobs: Vec<usize>,
    pub pods: Vec<usize>,
    pub events: Vec<usize>,
}

/// A snapshot's objects indexed by what relates them, built once: [`Relations::of`] a
/// CronJob is then a few look-ups, not a pass over the snapshot (at 10,000 CronJobs and
/// 100,000 Jobs, a pass each is 10⁹ comparisons).
pub struct Relations<'a> {
    /// (namespace, CronJob name) → the Jobs that belong to it by themselves
    /// ([`cron_jobs_of_job`]).
    jobs_by_cron_job: HashMap<(&'a str, &'a str), Vec<usize>>,
    /// (namespace, Job name) → the Job: `status.active` names them.
    jobs_by_name: HashMap<(&'a str, &'a str), usize>,
    /// (namespace, Job name) → its Pods.
    pods_by_job: HashMap<(&'a str, &'a str), Vec<usize>>,
    /// (namespace, object name) → the Events about it.
    events_by_object: HashMap<(&'a str, &'a str), Vec<usize>>,
}

impl<'a> Relations<'a> {
    pub fn new(s: &'a Snapshot) -> Self {
        let mut r = Relations {
            jobs_by_cron_job: HashMap::default(),
            jobs_by_name: HashMap::default(),
            pods_by_job: HashMap::default(),
            events_by_object: HashMap::default(),
        };
        for (i, j) in s.jobs.iter().enumerate() {
            let ns = namespace_of(&j.meta.namespace);
            for c in cron_jobs_of_job(j, &j.meta.name) {
                r.jobs_by_cron_job.entry((ns, c)).or_default().push(i);
            }
            r.jobs_by_name.insert((ns, j.meta.name.as_str()), i);
        }
        for (i, p) in s.pods.iter().enumerate() {
            if let Some(job) = p.job_name() {
                r.pods_by_job
                    .entry((namespace_of(&p.meta.namespace), job))
                    .or_default()
                    .push(i);
            }
        }
        for (i, e) in s.events.iter().enumerate() {
            r.events_by_object.entry(about(e)).or_default().push(i);
        }
        r
    }

    /// The objects of `s` (the snapshot these relations were built from) that belong to `cj`.
    pub fn of(&self, s: &Snapshot, cj: &CronJob) -> Related {
        let ns = namespace_of(&cj.meta.namespace);
        let name = cj.meta.name.as_str();
        let mut jobs: Vec<usize> = Vec::new();
        jobs.extend(self.jobs_by_cron_job.get(&(ns, name)).into_iter().flatten());
        for a in active_jobs(cj) {
            jobs.extend(self.jobs_by_name.get(&(ns, a)));
        }
        // Snapshot order (a report follows it), once each.
        jobs.sort_unstable();
        jobs.dedup();
        let mut pods: Vec<usize> = Vec::new();
        for &j in &jobs {
            let job = s.jobs[j].meta.name.as_str();
            pods.extend(self.pods_by_job.get(&(ns, job)).into_iter().flatten());
        }
        pods.sort_unstable();
        pods.dedup();
        let mut events: Vec<usize> = Vec::new();
        let names = std::iter::once(name)
            .chain(jobs.iter().map(|&j| s.jobs[j].meta.name.as_str()))
            .chain(pods.iter().map(|&p| s.pods[p].meta.name.as_str()));
        for n in names {
            events.extend(self.events_by_object.get(&(ns, n)).into_iter().flatten());
        }
        events.sort_unstable();
        events.dedup();
        Related { jobs, pods, events }
    }

    /// The snapshot of `cj` alone: it and its objects from `s`, in `s`'s order. Its report is
    /// the one `cj` has in `s`.
    pub fn subset(&self, s: &Snapshot, cj: &CronJob) -> Snapshot {
        let r = self.of(s, cj);
        Snapshot {
            cron_jobs: vec![cj.clone()],
            jobs: r.jobs.iter().map(|&i| s.jobs[i].clone()).collect(),
            pods: r.pods.iter().map(|&i| s.pods[i].clone()).collect(),
            events: r.events.iter().map(|&i| s.events[i].clone()).collect(),
            evidence: s.evidence,
            notes: Vec::new(),
        }
    }
}

/// The per-object decisions and the snapshot-wide look-ups say the same, and a CronJob's
/// related objects are enough for its report.
#[cfg(test)]
mod tests {

    use super::*;
    use crate::replay::KubeVersion;
    use crate::report::{Options, build};

    fn snapshot(yaml: &str) -> Snapshot {
        crate::source::parse_text("t.yaml", yaml).into_snapshot().0
    }

    /// Two CronJobs in `ops`, one of the same name in `dev`, and objects related in every way
    /// (and some that only look related).
    const OBJECTS: &str = include_str!("../../../../tests/fixtures/relation/related.yaml");

    fn names_of(s: &Snapshot, r: &Related) -> (Vec<String>, Vec<String>, Vec<String>) {
        let job = |&i: &usize| format!("{}/{}", s.jobs[i].meta.namespace, s.jobs[i].meta.name);
        (
            r.jobs.iter().map(job).collect(),
            r.pods
                .iter()
                .map(|&i| s.pods[i].meta.name.clone())
                .collect(),
            r.events
                .iter()
                .map(|&i| s.events[i].meta.name.clone())
                .collect(),
        )
    }

    #[test]
    fn a_cron_job_has_its_owned_manual_named_and_active_jobs_their_pods_and_events() {
        let s = snapshot(OBJECTS);
        let relations = Relations::new(&s);
        let (jobs, pods, events) = names_of(&s, &relations.of(&s, &s.cron_jobs[0]));
        // Not `report-…` (its controller is another CronJob, whatever else owns it), not
        // `backup-nightly` (not the controller's naming), not the Job of `dev`.
        assert_eq!(
            jobs,
            [
                "ops/backup-29914740",
                "ops/backup-manual-x2b4c",
                "ops/backup-29916180",
                "ops/adopted"
            ]
        );
        assert_eq!(pods, ["backup-29914740-a1", "adopted-b2"]);
        assert_eq!(events, ["e1", "e2"]);
        let (jobs, pods, events) = names_of(&s, &relations.of(&s, &s.cron_jobs[1]));
        assert_eq!(jobs, ["ops/report-29914800"]);
        assert_eq!(pods, ["report-29914800-c3"]);
        assert_eq!(events, ["e3"]);
        let (jobs, pods, events) = names_of(&s, &relations.of(&s, &s.cron_jobs[2]));
        assert_eq!(jobs, ["dev/backup-29914740"]);
        assert!(pods.is_empty());
        assert_eq!(events, ["e4"]);
    }

    #[test]
    fn each_job_says_which_cron_jobs_it_belongs_to() {
        let s = snapshot(OBJECTS);
        let of = |i: usize| -> Vec<&str> {
            cron_jobs_of_job(&s.jobs[i], &s.jobs[i].meta.name).collect()
        };
        // Owner and name agree: said once.
        assert_eq!(of(0), ["backup"]);
        assert_eq!(
            owner_of(&s.jobs[1]),
            Some(Owner {
                name: "backup",
                controller: false
            })
        );
        assert_eq!(of(2), ["backup"]);
        // Known only from the CronJob's side.
        assert!(of(3).is_empty());
        assert_eq!(
            active_jobs(&s.cron_jobs[0]).collect::<Vec<_>>(),
            ["adopted"]
        );
        assert_eq!(of(4), ["report"]);
        assert!(of(5).is_empty());
        assert_eq!(about(&s.events[1]), ("ops", "adopted-b2"));
        assert!(is_evidence_kind("Pod") && !is_evidence_kind("ConfigMap"));
    }

    /// The snapshot-wide look-up is the per-object rule applied to every Job.
    fn agrees(s: &Snapshot) {
        let relations = Relations::new(s);
        for cj in &s.cron_jobs {
            let by_rule: Vec<usize> = (0..s.jobs.len())
                .filter(|&i| job_belongs(cj, &s.jobs[i]))
                .collect();
            assert_eq!(relations.of(s, cj).jobs, by_rule, "{}", cj.meta.name);
        }
    }

    #[test]
    fn the_look_up_and_the_rule_agree() {
        agrees(&snapshot(OBJECTS));
    }

    /// A CronJob's own snapshot gives its report unchanged, on every example, at every
    /// controller the replay tells apart.
    #[test]
    fn the_related_objects_are_all_a_report_needs() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let mut texts: Vec<String> = files
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        texts.push(OBJECTS.to_string());
        for text in &texts {
            let s = snapshot(text);
            agrees(&s);
            let relations = Relations::new(&s);
            for version in [
                KubeVersion::NEWEST,
                KubeVersion::new(20),
                KubeVersion::new(27),
            ] {
                let opts = Options::utc("2026-11-20T12:00:00Z".parse().unwrap(), version, 8);
                let whole = build(&s, Vec::new(), &opts);
                for (cj, expected) in s.cron_jobs.iter().zip(&whole.cron_jobs) {
                    let own = build(&relations.subset(&s, cj), Vec::new(), &opts);
                    assert_eq!(
                        serde_json::to_string(&own.cron_jobs[0]).unwrap(),
                        serde_json::to_string(expected).unwrap(),
                        "{}",
                        cj.meta.name
                    );
                }
            }
        }
    }
}
