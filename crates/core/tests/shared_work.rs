//! The work shared across CronJobs (the per-thread memos of DST effects per schedule and zone
//! and of upcoming activations, cadences and `never-fires` run chains per schedule, zone and
//! "now": `doctor::memo`) changes nothing: every example and every real-world corpus manifest gets the same report,
//! byte for byte, with the memo and with every answer computed afresh. The controller zone
//! has DST, so every schedule without a zone of its own is affected too.

use std::path::{Path, PathBuf};

use doctor::memo;
use doctor::replay::KubeVersion;
use doctor::report::{self, Options};
use jiff::Timestamp;
use jiff::tz::TimeZone;

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    let corpus = std::env::var_os("CRONJOB_DOCTOR_CORPUS").map(PathBuf::from);
    if corpus.is_none() {
        eprintln!("note: CRONJOB_DOCTOR_CORPUS unset: the examples only, no real-world corpus");
    }
    let corpus = corpus
        .into_iter()
        .flat_map(|c| [c.join("helm-templates"), c]);
    for dir in std::iter::once(root.join("examples")).chain(corpus) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            panic!("cannot read {}", dir.display());
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_file() {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn shared_dst_work_gives_the_same_reports_as_unshared() {
    let files = inputs();
    assert!(files.len() >= 14, "the examples at least: {files:?}");
    let mut snapshot = doctor::model::Snapshot::default();
    for f in &files {
        let loaded =
            doctor::source::parse_bytes(&f.display().to_string(), &std::fs::read(f).unwrap());
        let (s, _) = loaded.into_snapshot();
        snapshot.cron_jobs.extend(s.cron_jobs);
        snapshot.jobs.extend(s.jobs);
        snapshot.pods.extend(s.pods);
        snapshot.events.extend(s.events);
    }
    let dst_schedules = snapshot
        .cron_jobs
        .iter()
        .filter(|c| c.spec.time_zone.is_some())
        .count();
    assert!(dst_schedules > 0, "some CronJobs with a zone");
    let zone = "America/New_York";
    let tz = TimeZone::get(zone).unwrap();
    let opts = Options {
        now: "2026-11-20T12:00:00Z".parse::<Timestamp>().unwrap(),
        controller_zone_name: zone,
        controller_zone: &tz,
        version: KubeVersion::NEWEST,
        timeline: 10,
        severities: doctor::config::NO_OVERRIDES,
    };
    let json = |r: report::Report| serde_json::to_string(&r).unwrap();
    // Twice shared (the second pass answers from the memo only), once unshared.
    let shared = json(report::build(&snapshot, Vec::new(), &opts));
    let again = json(report::build(&snapshot, Vec::new(), &opts));
    let unshared = memo::bypassed(|| json(report::build(&snapshot, Vec::new(), &opts)));
    assert!(
        shared.contains("\"dst-"),
        "DST rules fired: the memo was exercised"
    );
    assert!(shared == unshared, "shared and unshared reports differ");
    assert!(again == unshared, "reports from the memo differ");
}
