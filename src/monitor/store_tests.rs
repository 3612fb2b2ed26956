//! The store's per-CronJob snapshot must give the same report as the core's one-call build,
//! and every change must name the CronJobs it touches (a missed one would go stale).

use doctor::model::{
    Condition, CronJob, Event, InvolvedObject, Job, ObjectMeta, OwnerReference, Pod,
};
use doctor::replay::KubeVersion;
use doctor::report::{self, Options};

use super::*;

fn meta(ns: &str, name: &str) -> ObjectMeta {
    ObjectMeta {
        name: name.into(),
        namespace: ns.into(),
        ..Default::default()
    }
}

fn cron_job(name: &str) -> CronJob {
    CronJob {
        meta: meta("ops", name),
        ..Default::default()
    }
}

fn job(name: &str, owner: &str) -> Job {
    let mut j = Job {
        meta: meta("ops", name),
        ..Default::default()
    };
    j.meta.owner_references.push(OwnerReference {
        api_version: "batch/v1".into(),
        kind: "CronJob".into(),
        name: owner.into(),
        uid: String::new(),
        controller: true,
    });
    j.status.conditions.push(Condition {
        type_: "Complete".into(),
        status: "True".into(),
        reason: String::new(),
        message: String::new(),
        last_transition_time: None,
    });
    j
}

fn pod(name: &str, job: &str) -> Pod {
    let mut p = Pod {
        meta: meta("ops", name),
        ..Default::default()
    };
    p.meta.labels.insert("job-name".into(), job.into());
    p
}

fn event(name: &str, kind: &str, about: &str) -> Event {
    Event {
        meta: meta("ops", name),
        involved_object: InvolvedObject {
            kind: kind.into(),
            name: about.into(),
            namespace: "ops".into(),
            uid: String::new(),
        },
        ..Default::default()
    }
}

fn k(name: &str) -> Key {
    ("ops".into(), name.into())
}

fn keys(names: &[&str]) -> BTreeSet<Key> {
    names.iter().map(|n| k(n)).collect()
}

#[test]
fn every_change_names_the_cron_jobs_it_touches() {
    let mut s = Store::new();
    assert_eq!(
        s.upsert(Stream::CronJobs, Object::CronJob(cron_job("backup"))),
        keys(&["backup"])
    );
    s.upsert(Stream::CronJobs, Object::CronJob(cron_job("report")));
    // Owned Job, its Pod, an Event about the Pod: all touch `backup` only.
    assert_eq!(
        s.upsert(Stream::Jobs, Object::Job(job("backup-29000000", "backup"))),
        keys(&["backup"])
    );
    assert_eq!(
        s.upsert(
            Stream::Pods,
            Object::Pod(pod("backup-29000000-x1", "backup-29000000"))
        ),
        keys(&["backup"])
    );
    assert_eq!(
        s.upsert(
            Stream::Events,
            Object::Event(event("e1", "Pod", "backup-29000000-x1"))
        ),
        keys(&["backup"])
    );
    let snap = s.subset(&k("backup")).unwrap();
    assert_eq!(
        (snap.jobs.len(), snap.pods.len(), snap.events.len()),
        (1, 1, 1)
    );
    assert_eq!(s.subset(&k("report")).unwrap().jobs.len(), 0);
    // Deleting the Job touches its CronJob and leaves the Pod out of its snapshot.
    let gone = Object::Job(job("backup-29000000", "backup"));
    assert_eq!(s.remove(Stream::Jobs, &gone), keys(&["backup"]));
    let snap = s.subset(&k("backup")).unwrap();
    assert_eq!((snap.jobs.len(), snap.pods.len()), (0, 0));
    // A deleted CronJob has no snapshot.
    assert_eq!(
        s.remove(Stream::CronJobs, &Object::CronJob(cron_job("report"))),
        keys(&["report"])
    );
    assert!(s.subset(&k("report")).is_none());
}

#[test]
fn pods_of_no_job_and_events_about_other_kinds_are_not_kept() {
    let mut s = Store::new();
    s.upsert(Stream::CronJobs, Object::CronJob(cron_job("backup")));
    let mut p = pod("web-1", "x");
    p.meta.labels.clear();
    assert!(s.upsert(Stream::Pods, Object::Pod(p)).is_empty());
    assert!(
        s.upsert(Stream::Events, Object::Event(event("e", "Node", "backup")))
            .is_empty()
    );
    assert_eq!(s.counts(), [1, 0, 0, 0]);
    // An Event about the CronJob itself is kept and touches it.
    assert_eq!(
        s.upsert(
            Stream::Events,
            Object::Event(event("e2", "CronJob", "backup"))
        ),
        keys(&["backup"])
    );
}

#[test]
fn a_relist_drops_what_it_did_not_list_again() {
    let mut s = Store::new();
    s.upsert(Stream::CronJobs, Object::CronJob(cron_job("a")));
    s.upsert(Stream::CronJobs, Object::CronJob(cron_job("b")));
    s.upsert(Stream::Jobs, Object::Job(job("a-1", "a")));
    s.upsert(Stream::Jobs, Object::Job(job("b-1", "b")));
    s.relist(Stream::Jobs);
    s.upsert(Stream::Jobs, Object::Job(job("a-1", "a")));
    assert_eq!(s.relisted(Stream::Jobs), keys(&["b"]));
    assert_eq!(s.counts(), [2, 1, 0, 0]);
    // A relist of one stream never touches another's objects.
    s.relist(Stream::Pods);
    assert!(s.relisted(Stream::Pods).is_empty());
    assert_eq!(s.counts(), [2, 1, 0, 0]);
}

#[test]
fn the_store_snapshot_diagnoses_every_example_as_the_whole_build_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let (snapshot, _) = crate::input::load_paths(&[dir.display().to_string()]).into_snapshot();
    assert!(snapshot.cron_jobs.len() > 5);
    let opts = Options::utc(
        "2026-11-20T12:00:00Z".parse().unwrap(),
        KubeVersion::NEWEST,
        8,
    );
    let whole = report::build(&snapshot, Vec::new(), &opts);
    // Filled as changes fill it (`upsert`) and as the first sync does (`insert`, after a
    // relist of each empty stream): both must cut the same snapshots.
    for first_sync in [false, true] {
        let mut s = Store::new();
        s.evidence = snapshot.evidence;
        let mut put = |stream: Stream, o: Object| {
            if first_sync {
                s.insert(stream, o);
            } else {
                s.upsert(stream, o);
            }
        };
        for c in &snapshot.cron_jobs {
            put(Stream::CronJobs, Object::CronJob(c.clone()));
        }
        for j in &snapshot.jobs {
            put(Stream::Jobs, Object::Job(j.clone()));
        }
        for p in &snapshot.pods {
            put(Stream::Pods, Object::Pod(p.clone()));
        }
        for e in &snapshot.events {
            put(Stream::Events, Object::Event(e.clone()));
        }
        for stream in Stream::ALL {
            assert!(s.relisted(stream).is_empty());
        }
        for expected in &whole.cron_jobs {
            let key = (expected.namespace.as_str().into(), expected.name.clone());
            let snap = s.subset(&key).expect("in the store");
            let got = report::build(&snap, Vec::new(), &opts);
            assert_eq!(
                serde_json::to_value(&got.cron_jobs[0]).unwrap(),
                serde_json::to_value(expected).unwrap(),
                "{}/{} (first sync: {first_sync})",
                key.0,
                key.1
            );
        }
    }
}

fn job_names(s: &Store, cron_job: &str) -> Vec<String> {
    let snap = s.subset(&k(cron_job)).expect("stored");
    snap.jobs.into_iter().map(|j| j.meta.name).collect()
}

#[test]
fn a_cron_jobs_jobs_are_found_by_name_or_by_owner_and_forgotten_once_deleted() {
    let mut s = Store::new();
    for c in ["backup", "backup-extra"] {
        s.upsert(Stream::CronJobs, Object::CronJob(cron_job(c)));
    }
    // `<name>-<digits>`: found by name whoever owns it; other names only by their owner.
    let jobs = [
        job("backup-29000000", "backup"),
        job("backup-29000001", "someone-else"),
        job("backup-extra-29000000", "backup-extra"),
        job("backup-manual", "backup"),
        job("backup-1-x", "nobody"),
        job("backupx-1", "nobody"),
    ];
    for j in &jobs {
        s.upsert(Stream::Jobs, Object::Job(j.clone()));
    }
    assert_eq!(
        job_names(&s, "backup"),
        ["backup-29000000", "backup-29000001", "backup-manual"]
    );
    assert_eq!(job_names(&s, "backup-extra"), ["backup-extra-29000000"]);
    assert_eq!(
        s.remove(Stream::Jobs, &Object::Job(jobs[3].clone())),
        keys(&["backup"])
    );
    assert_eq!(
        s.remove(Stream::Jobs, &Object::Job(jobs[0].clone())),
        keys(&["backup"])
    );
    assert_eq!(job_names(&s, "backup"), ["backup-29000001"]);
    // No index entry outlives its Job.
    assert!(s.jobs_by_owner.is_empty() || s.jobs_by_owner.keys().all(|k| k.1 != "backup"));
    // Deleting what is not there touches nothing.
    assert!(
        s.remove(Stream::Jobs, &Object::Job(jobs[3].clone()))
            .is_empty()
    );
}

#[test]
fn the_first_list_of_a_stream_remembers_nothing_and_a_later_one_drops_the_unlisted() {
    let mut s = Store::new();
    s.relist(Stream::Jobs);
    assert!(!s.relisting.contains_key(&Stream::Jobs));
    s.insert(Stream::Jobs, Object::Job(job("a-1", "a")));
    s.insert(Stream::Jobs, Object::Job(job("b-1", "b")));
    assert!(s.relisted(Stream::Jobs).is_empty());
    assert_eq!(s.counts(), [0, 2, 0, 0]);
    s.relist(Stream::Jobs);
    s.insert(Stream::Jobs, Object::Job(job("b-1", "b")));
    s.relisted(Stream::Jobs);
    assert_eq!(s.counts(), [0, 1, 0, 0]);
}

#[test]
fn every_key_of_a_namespace_shares_one_copy_of_its_name() {
    let mut s = Store::new();
    s.upsert(Stream::CronJobs, Object::CronJob(cron_job("backup")));
    s.upsert(Stream::Jobs, Object::Job(job("backup-1", "backup")));
    s.upsert(Stream::Jobs, Object::Job(job("manual", "backup")));
    s.upsert(Stream::Pods, Object::Pod(pod("backup-1-x", "backup-1")));
    s.upsert(
        Stream::Events,
        Object::Event(event("backup-1.1", "Job", "backup-1")),
    );
    let ops = s.namespaces.get("ops").expect("interned").clone();
    let all: Vec<&Key> = s
        .cron_jobs
        .keys()
        .chain(s.jobs.keys())
        .chain(s.pods[0].keys())
        .chain(s.events.keys())
        .chain(s.jobs_by_owner.keys())
        .chain(s.pods_by_job.keys())
        .chain(s.events_by_object.keys())
        .chain(s.events_by_object.values().flatten())
        .collect();
    assert_eq!(all.len(), 9);
    assert!(all.iter().all(|k| Arc::ptr_eq(&k.0, &ops)), "{all:?}");
    // The empty namespace is `default`, one copy for both spellings.
    let mut d = cron_job("a");
    d.meta.namespace = String::new();
    s.upsert(Stream::CronJobs, Object::CronJob(d));
    let mut d = cron_job("b");
    d.meta.namespace = "default".into();
    s.upsert(Stream::CronJobs, Object::CronJob(d));
    assert_eq!(s.namespaces.len(), 2);
    let defaults: Vec<&Key> = s.cron_jobs.keys().filter(|k| &*k.0 == "default").collect();
    assert_eq!(defaults.len(), 2);
    assert!(Arc::ptr_eq(&defaults[0].0, &defaults[1].0));
}

#[test]
fn a_job_touches_only_the_cron_job_the_diagnosis_relates_it_to() {
    // One Job, its controller `backup` and 50 non-controller owners that are CronJobs too:
    // the diagnosis relates it to `backup` alone (report::index), so an update of it must
    // re-diagnose `backup` alone, not every owner (docs/monitor.md, "Only what changed").
    let mut s = Store::new();
    s.upsert(Stream::CronJobs, Object::CronJob(cron_job("backup")));
    let mut j = job("shared-job", "backup");
    for i in 0..50 {
        let name = format!("other-{i}");
        s.upsert(Stream::CronJobs, Object::CronJob(cron_job(&name)));
        let mut o = j.meta.owner_references[0].clone();
        o.name = name;
        o.controller = false;
        j.meta.owner_references.push(o);
    }
    assert_eq!(
        s.upsert(Stream::Jobs, Object::Job(j.clone())),
        keys(&["backup"])
    );
    assert_eq!(
        s.upsert(Stream::Jobs, Object::Job(j.clone())),
        keys(&["backup"])
    );
    assert_eq!(job_names(&s, "backup"), ["shared-job"]);
    assert!(job_names(&s, "other-7").is_empty());
    assert_eq!(
        s.remove(Stream::Jobs, &Object::Job(j.clone())),
        keys(&["backup"])
    );
    assert!(s.jobs_by_owner.is_empty());

    // No controller: the first CronJob owner, as the diagnosis's "manual" Jobs.
    j.meta
        .owner_references
        .iter_mut()
        .for_each(|o| o.controller = false);
    j.meta.owner_references[0].kind = "ConfigMap".into();
    assert_eq!(s.upsert(Stream::Jobs, Object::Job(j)), keys(&["other-0"]));
    assert_eq!(job_names(&s, "other-0"), ["shared-job"]);
}

/// Everything the store holds, as one snapshot (Pods of both streams).
fn everything(s: &Store) -> Snapshot {
    Snapshot {
        cron_jobs: s.cron_jobs.values().cloned().collect(),
        jobs: s.jobs.values().filter_map(Packed::unpack).collect(),
        pods: s
            .pods
            .iter()
            .flat_map(|p| p.values())
            .filter_map(Packed::unpack)
            .collect(),
        events: s.events.values().filter_map(Packed::unpack).collect(),
        evidence: s.evidence,
        notes: Vec::new(),
    }
}

/// Related in every way the core knows, across two namespaces: owned, manual, named-after
/// and `status.active` Jobs, a Job with a second CronJob owner, a Pod of each label, Events
/// about each kind (one filed without a namespace). The core's relation tests read the same
/// file.
const RELATED: &str = include_str!("../../tests/fixtures/relation/related.yaml");

/// `yaml` without its uids (`uid: …` lines and `, uid: …` entries of flow maps): objects
/// related by names alone, as a cluster's may be when owner references lack a uid.
fn without_uids(yaml: &str) -> String {
    let mut out = String::new();
    for line in yaml.lines() {
        if line.trim_start().starts_with("uid: ") {
            continue;
        }
        let mut line = line.to_string();
        while let Some(at) = line.find(", uid: ") {
            let value = at + ", uid: ".len();
            let end = line[value..]
                .find([',', '}'])
                .map_or(line.len(), |n| value + n);
            line.replace_range(at..end, "");
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The store's indexes are the core's relation (`doctor::report::relation`), kept
/// incrementally: a CronJob's subset holds the objects `Relations::subset` cuts from a
/// snapshot of everything in the store. As sets: the store orders by name, a snapshot by
/// its own order.
#[test]
fn the_stores_subset_is_the_cores_relation() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        "examples",
        "tests/fixtures/actions",
        "tests/fixtures/scenarios",
        "tests/fixtures/live",
    ] {
        files.extend(
            std::fs::read_dir(root.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path()),
        );
    }
    files.sort();
    let mut texts: Vec<(String, String)> = files
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap()))
        .collect();
    assert!(texts.len() > 30, "{}", texts.len());
    let by_names = without_uids(RELATED);
    assert!(!by_names.contains("uid"), "{by_names}");
    let objects = |yaml: &str| {
        let (s, errors) = doctor::source::parse_text("related.yaml", yaml).into_snapshot();
        assert!(errors.is_empty(), "{errors:?}");
        (
            s.cron_jobs.len(),
            s.jobs.len(),
            s.pods.len(),
            s.events.len(),
        )
    };
    assert_eq!(objects(&by_names), objects(RELATED));
    texts.push(("related.yaml".into(), RELATED.into()));
    texts.push(("related-by-names.yaml".into(), by_names));
    // Keys are unique in a store: ordered by them, equal sets are equal lists.
    fn by_key<T: Clone>(objects: &[T], meta: fn(&T) -> &ObjectMeta) -> Vec<T> {
        let mut v = objects.to_vec();
        v.sort_by_key(|o| {
            (
                namespace_of(&meta(o).namespace).to_string(),
                meta(o).name.clone(),
            )
        });
        v
    }
    let mut compared = 0;
    for (file, text) in &texts {
        let (snapshot, _) = doctor::source::parse_text(file, text).into_snapshot();
        let s = Store::of_snapshot(snapshot);
        let all = everything(&s);
        let relations = relation::Relations::new(&all);
        for cj in &all.cron_jobs {
            let k = (
                namespace_of(&cj.meta.namespace).into(),
                cj.meta.name.clone(),
            );
            let ours = s.subset(&k).expect("stored");
            let core = relations.subset(&all, cj);
            let at = format!("{file}: {}/{}", k.0, k.1);
            assert_eq!(ours.cron_jobs, core.cron_jobs, "{at}");
            assert_eq!(
                by_key(&ours.jobs, |j| &j.meta),
                by_key(&core.jobs, |j| &j.meta),
                "{at}"
            );
            assert_eq!(
                by_key(&ours.pods, |p| &p.meta),
                by_key(&core.pods, |p| &p.meta),
                "{at}"
            );
            assert_eq!(
                by_key(&ours.events, |e| &e.meta),
                by_key(&core.events, |e| &e.meta),
                "{at}"
            );
            compared += 1;
        }
    }
    assert!(compared > 30, "{compared}");
}
