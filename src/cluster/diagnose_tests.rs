//! The parallel per-namespace pipeline and the per-CronJob snapshots must be indistinguishable
//! from the core's one-call build.

use std::sync::atomic::AtomicUsize;

use doctor::replay::KubeVersion;
use doctor::report::{self, Options};

use super::{Plans, diagnose, frame, pipeline};

/// The parallel pipeline over `snapshot` split by namespace (in key order, as `scan` hands
/// namespaces out), as one JSON report.
fn build(
    snapshot: &doctor::model::Snapshot,
    opts: &Options,
    plans: Plans,
    done: &AtomicUsize,
) -> doctor::report::Report {
    let mut by_ns: std::collections::BTreeMap<String, doctor::model::Snapshot> = Default::default();
    fn of<'a>(
        by_ns: &'a mut std::collections::BTreeMap<String, doctor::model::Snapshot>,
        ns: &str,
    ) -> &'a mut doctor::model::Snapshot {
        by_ns.entry(format!("{ns}/")).or_default()
    }
    let ns = report::index::namespace_of;
    for c in &snapshot.cron_jobs {
        of(&mut by_ns, ns(&c.meta.namespace))
            .cron_jobs
            .push(c.clone());
    }
    for j in &snapshot.jobs {
        of(&mut by_ns, ns(&j.meta.namespace)).jobs.push(j.clone());
    }
    for p in &snapshot.pods {
        of(&mut by_ns, ns(&p.meta.namespace)).pods.push(p.clone());
    }
    for e in &snapshot.events {
        of(&mut by_ns, e.filed_namespace()).events.push(e.clone());
    }
    let ((), reports) = pipeline(2, opts, plans, &|_, r| r, done, |submit| {
        for (_, mut s) in by_ns {
            s.evidence = snapshot.evidence;
            submit(s);
        }
    });
    let mut r = frame(snapshot.notes.clone(), opts);
    r.cron_jobs = reports;
    // Whole-snapshot order for the comparison: the core keeps input order.
    let order: Vec<(String, String)> = snapshot
        .cron_jobs
        .iter()
        .map(|c| {
            (
                report::index::namespace_of(&c.meta.namespace).to_string(),
                c.meta.name.clone(),
            )
        })
        .collect();
    r.cron_jobs.sort_by_key(|c| {
        order
            .iter()
            .position(|o| o.0 == c.namespace && o.1 == c.name)
    });
    r
}

fn examples() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// Options at a fixed instant with UTC as the controller's zone.
fn utc_options(version: KubeVersion) -> Options<'static> {
    Options::utc("2026-11-20T12:00:00Z".parse().unwrap(), version, 8)
}

fn same_as_core(snapshot: &doctor::model::Snapshot, version: KubeVersion) {
    let opts = utc_options(version);
    let one = doctor::render::json::render(&report::build(snapshot, Vec::new(), &opts));
    let done = AtomicUsize::new(0);
    // Namespaces through the pipeline (small ones go to the core whole).
    let split = doctor::render::json::render(&build(snapshot, &opts, Plans::Verified, &done));
    assert_eq!(one, split);
    assert_eq!(done.into_inner(), snapshot.cron_jobs.len());
    // Per-CronJob snapshots (what big namespaces get), over the whole snapshot at once.
    let mut per_cron_job = frame(snapshot.notes.clone(), &opts);
    per_cron_job.cron_jobs = diagnose(
        snapshot,
        0..snapshot.cron_jobs.len(),
        &opts,
        Plans::Verified,
    );
    assert_eq!(one, doctor::render::json::render(&per_cron_job));
    // Without plans (the table's reports): the same reports with `fix` left empty, both ways.
    let mut unplanned = report::build(snapshot, Vec::new(), &opts);
    for r in &mut unplanned.cron_jobs {
        r.fix = Default::default();
    }
    let unplanned = doctor::render::json::render(&unplanned);
    let skipped = build(snapshot, &opts, Plans::Skipped, &AtomicUsize::new(0));
    assert_eq!(unplanned, doctor::render::json::render(&skipped));
    let mut per_cron_job = frame(snapshot.notes.clone(), &opts);
    per_cron_job.cron_jobs = diagnose(snapshot, 0..snapshot.cron_jobs.len(), &opts, Plans::Skipped);
    assert_eq!(unplanned, doctor::render::json::render(&per_cron_job));
}

#[test]
fn every_example_alone_and_all_together_match_the_core() {
    let mut all = doctor::model::Snapshot::default();
    for p in examples() {
        let text = std::fs::read_to_string(&p).unwrap();
        let (mut snap, _) =
            doctor::source::parse_text(&p.display().to_string(), &text).into_snapshot();
        for version in [
            KubeVersion::NEWEST,
            KubeVersion::new(20),
            KubeVersion::new(27),
        ] {
            same_as_core(&snap, version);
        }
        // Origins point into different files; the combined snapshot compares content.
        for c in &mut snap.cron_jobs {
            c.origin = None;
        }
        all.cron_jobs.append(&mut snap.cron_jobs);
        all.jobs.append(&mut snap.jobs);
        all.pods.append(&mut snap.pods);
        all.events.append(&mut snap.events);
        all.evidence.jobs |= snap.evidence.jobs;
        all.evidence.pods |= snap.evidence.pods;
        all.evidence.events |= snap.evidence.events;
    }
    assert!(all.cron_jobs.len() >= 14);
    same_as_core(&all, KubeVersion::NEWEST);
}

#[test]
fn results_are_handed_out_once_each_in_submission_order() {
    // Namespaces of different sizes on several workers finish out of order; `pipeline_each`
    // still hands every CronJob's result over exactly once, in the order submitted. Some
    // namespaces are big enough (CronJobs × Jobs) to be split into per-CronJob chunks.
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/healthy.yaml"),
    )
    .unwrap();
    let (one, _) = doctor::source::parse_text("healthy.yaml", &text).into_snapshot();
    let template = one.cron_jobs[0].clone();
    let sizes = [40, 1, 7, 300, 2, 1, 90, 3];
    let mut namespaces = Vec::new();
    for (i, n) in sizes.iter().enumerate() {
        let mut s = doctor::model::Snapshot::default();
        for k in 0..*n {
            let mut cj = template.clone();
            cj.meta.namespace = format!("ns-{i}");
            cj.meta.name = format!("cj-{k:03}");
            cj.origin = None;
            s.cron_jobs.push(cj);
        }
        // Jobs owned by nobody here, only there to make C × J cross the split threshold.
        if *n == 300 {
            let mut job = doctor::model::Job::default();
            job.meta.namespace = format!("ns-{i}");
            for k in 0..4000 {
                job.meta.name = format!("other-{k}");
                s.jobs.push(job.clone());
            }
        }
        namespaces.push(s);
    }
    let expected: Vec<String> = namespaces
        .iter()
        .flat_map(|s| s.cron_jobs.iter())
        .map(|c| format!("{}/{}", c.meta.namespace, c.meta.name))
        .collect();
    let opts = utc_options(KubeVersion::NEWEST);
    let done = AtomicUsize::new(0);
    let mut got: Vec<String> = Vec::new();
    super::pipeline_each(
        4,
        &opts,
        Plans::Verified,
        &|cj, r| {
            assert_eq!(cj.meta.name, r.name);
            format!("{}/{}", r.namespace, r.name)
        },
        &done,
        &mut |key| got.push(key),
        |submit| {
            for s in namespaces {
                submit(s);
            }
        },
    );
    assert_eq!(got, expected);
    assert_eq!(done.into_inner(), expected.len());
}
