//! Flags (and config) into a plan: the source, the defaults, and which error a combination
//! of flags meets first.

use clap::Parser;
use doctor::replay::KubeVersion;

use super::*;
use crate::cli::{Cli, Command, ReportFormat, ScanFormat};
use crate::error::{Error, UsageError};

fn parse(args: &[&str]) -> Command {
    let mut all = vec!["kubectl-cronjob_doctor"];
    all.extend_from_slice(args);
    Cli::try_parse_from(all).expect("the flags parse").command
}

fn explain_plan(args: &[&str]) -> Result<ExplainPlan, Error> {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    match parse(&all) {
        Command::Explain(a) => explain(&a),
        _ => unreachable!(),
    }
}

fn scan_plan(args: &[&str]) -> Result<ScanPlan, Error> {
    let mut all = vec!["scan"];
    all.extend_from_slice(args);
    match parse(&all) {
        Command::Scan(a) => scan(&a),
        _ => unreachable!(),
    }
}

/// The usage error a plan is refused with, by its message (the variants carry sources).
fn refused<T>(r: Result<T, Error>) -> String {
    match r {
        Err(Error::Usage(e)) => e.to_string(),
        Err(e) => panic!("not a usage error: {e}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn files_default_to_the_wall_clock_the_newest_version_and_utc() {
    let p = explain_plan(&["-f", "a.yaml", "-f", "dir", "backup"]).unwrap();
    let plan = &p.plan;
    assert!(
        matches!(&plan.source, Source::Files(f) if f.paths == ["a.yaml", "dir"] && f.max_input_size == 256 << 20),
        "{:?}",
        plan.source
    );
    assert_eq!(plan.select.name.as_deref(), Some("backup"));
    assert_eq!(plan.instant, Instant::Clock);
    assert_eq!(plan.version, Version::Default);
    assert_eq!(plan.zone.name, "UTC");
    assert_eq!(plan.output.format, ReportFormat::Text);
    assert_eq!(plan.timeline, 8);
    // Files never ask a monitor.
    assert!(p.monitor.is_none() && p.slot.is_none());
}

#[test]
fn one_cluster_takes_the_flags_and_asks_the_deployed_monitor() {
    let p = explain_plan(&[
        "backup",
        "-n",
        "ops",
        "--now",
        "2026-11-20T12:00:00Z",
        "--kube-version",
        "1.27",
        "--controller-time-zone",
        "Europe/Berlin",
        "-o",
        "json",
        "--color",
        "always",
        "--timeline",
        "3",
    ])
    .unwrap();
    let plan = &p.plan;
    assert!(matches!(plan.source, Source::Cluster(_)));
    assert_eq!(
        plan.select,
        Select {
            name: Some("backup".into()),
            namespace: Some("ops".into()),
            all_namespaces: false
        }
    );
    assert_eq!(
        plan.instant,
        Instant::At("2026-11-20T12:00:00Z".parse().unwrap())
    );
    assert_eq!(plan.version, Version::Given(KubeVersion::new(27)));
    assert_eq!(plan.zone.name, "Europe/Berlin");
    assert!(plan.output.color && plan.output.errors_color);
    assert_eq!(plan.timeline, 3);
    assert!(p.monitor.is_some());
    assert!(
        explain_plan(&["backup", "--no-monitor"])
            .unwrap()
            .monitor
            .is_none()
    );
}

#[test]
fn now_dump_dates_files_only() {
    let p = explain_plan(&["-f", "dump.yaml", "--now", "dump"]).unwrap();
    assert_eq!(p.plan.instant, Instant::Dump);
    assert!(refused(explain_plan(&["backup", "--now", "dump"])).contains("dump"));
    assert!(refused(scan_plan(&["--now", "dump"])).contains("dump"));
}

#[test]
fn a_live_explain_needs_a_valid_name_before_any_other_flag_is_judged() {
    assert_eq!(
        refused(explain_plan(&[])),
        UsageError::LiveNeedsName.to_string()
    );
    // The name is checked before the replay flags: its error comes first.
    let e = refused(explain_plan(&["Not_A_Name", "--now", "never"]));
    assert!(e.contains("Not_A_Name"), "{e}");
    let e = refused(explain_plan(&["backup", "--now", "never"]));
    assert!(e.contains("--now"), "{e}");
}

#[test]
fn the_replay_flags_are_checked_zone_then_version_then_instant() {
    let e = refused(explain_plan(&[
        "-f",
        "x",
        "--controller-time-zone",
        "Local",
        "--now",
        "never",
    ]));
    assert_eq!(e, UsageError::ControllerZoneLocal.to_string());
    let e = refused(explain_plan(&["-f", "x", "--now", "never"]));
    assert!(e.contains("--now"), "{e}");
}

#[test]
fn conflicts_of_explain_are_refused_in_order() {
    let e = refused(explain_plan(&["backup", "-f", "x", "--monitor", "ns/svc"]));
    assert_eq!(e, UsageError::MonitorWithFiles.to_string());
    let two = ["--context", "a", "--context", "b"];
    let fleet = |more: &[&str]| {
        let mut args = two.to_vec();
        args.extend_from_slice(more);
        refused(explain_plan(&args))
    };
    assert_eq!(
        fleet(&["backup", "--slot", "11:00"]),
        UsageError::SlotFleet.to_string()
    );
    assert_eq!(fleet(&[]), UsageError::FleetNeedsName.to_string());
    assert_eq!(
        fleet(&["backup", "-o", "sarif"]),
        UsageError::FleetSarif.to_string()
    );
    assert_eq!(
        refused(explain_plan(&["-f", "x", "--slot", "11:00", "-o", "sarif"])),
        UsageError::SlotSarif.to_string()
    );
    // A slot that is no time is said before anything else.
    let e = refused(explain_plan(&[
        "-f",
        "x",
        "--slot",
        "soon",
        "--monitor",
        "a/b",
    ]));
    assert!(e.contains("soon"), "{e}");
}

#[test]
fn several_contexts_make_a_fleet_read_once_each() {
    let p = explain_plan(&[
        "backup",
        "--context",
        "a",
        "--context",
        "b",
        "--context",
        "a",
    ])
    .unwrap();
    let Source::Fleet(f) = &p.plan.source else {
        panic!("{:?}", p.plan.source)
    };
    assert_eq!(f.contexts, ["a", "b"]);
    assert_eq!(f.context_timeout, std::time::Duration::from_secs(30));
    // Each context's monitor is asked: the deployed one, the one --monitor names, or none.
    assert!(p.monitor.is_some());
    let two = ["backup", "--context", "a", "--context", "b"];
    let with = |more: &[&str]| {
        let mut args = two.to_vec();
        args.extend_from_slice(more);
        explain_plan(&args).unwrap().monitor
    };
    assert!(with(&["--monitor", "ops/doctor:8080"]).is_some());
    assert!(with(&["--no-monitor"]).is_none());
    let e = refused(explain_plan(&[
        "backup",
        "--context",
        "a",
        "--context",
        "b",
        "--monitor",
        "Bad/x",
    ]));
    assert!(e.contains("Bad"), "{e}");
    // One context is one cluster.
    let p = scan_plan(&["--context", "a"]).unwrap();
    assert!(matches!(p.plan.source, Source::Cluster(_)));
}

#[test]
fn a_fleet_scan_judges_the_replay_flags_before_the_namespace() {
    let two = ["--context", "a", "--context", "b"];
    let mut args = two.to_vec();
    args.extend_from_slice(&["-n", "Bad_NS", "--now", "never"]);
    assert!(refused(scan_plan(&args)).contains("--now"));
    let mut args = two.to_vec();
    args.extend_from_slice(&["-n", "Bad_NS"]);
    assert!(refused(scan_plan(&args)).contains("Bad_NS"));
    // One cluster checks the namespace it settles on after connecting.
    assert!(scan_plan(&["-n", "Bad_NS"]).is_ok());
}

#[test]
fn only_the_scan_json_holds_a_timeline() {
    let p = scan_plan(&["--timeline", "5"]).unwrap();
    assert_eq!(
        (p.plan.output.format, p.plan.timeline),
        (ScanFormat::Table, 0)
    );
    let p = scan_plan(&["-o", "json", "--timeline", "5", "-A", "--only-problems"]).unwrap();
    assert_eq!(
        (p.plan.output.format, p.plan.timeline),
        (ScanFormat::Json, 5)
    );
    assert!(p.plan.select.all_namespaces && p.only_problems);
    assert_eq!(p.plan.instant, Instant::Clock);
}

#[test]
fn the_config_settings_and_their_directory_go_into_the_plan() {
    let Command::Lint(mut a) = parse(&["lint", "-f", "x", "--kube-version", "1.20"]) else {
        unreachable!()
    };
    a.config.settings.exclude = vec!["charts/**".into()];
    a.config.file = Some("conf/.cronjob-doctor.yaml".into());
    let plan = lint(&a).unwrap();
    assert_eq!(plan.settings.exclude, ["charts/**"]);
    assert_eq!(plan.config_dir, Some("conf".into()));
    assert_eq!(plan.version, Version::Given(KubeVersion::new(20)));
    assert_eq!(plan.timeline, 0);
    a.config.file = Some(".cronjob-doctor.yaml".into());
    assert_eq!(lint(&a).unwrap().config_dir, Some(".".into()));
}

#[test]
fn a_flag_wins_over_the_server_and_the_server_over_the_default() {
    let plan = explain_plan(&["backup"]).unwrap().plan;
    let server_now: jiff::Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
    let (at, notes) = plan.settle_live(
        (None, Some("unknown version".into())),
        (server_now, Some("skewed".into())),
    );
    assert_eq!(
        at,
        Settled {
            now: server_now,
            version: KubeVersion::NEWEST
        }
    );
    assert_eq!(notes, ["unknown version", "skewed"]);
    let plan = explain_plan(&[
        "backup",
        "--now",
        "2020-01-01T00:00:00Z",
        "--kube-version",
        "1.27",
    ])
    .unwrap()
    .plan;
    let (at, notes) = plan.settle_live(
        (Some(KubeVersion::new(30)), Some("ignored".into())),
        (server_now, Some("ignored".into())),
    );
    assert_eq!(at.version, KubeVersion::new(27));
    assert_eq!(at.now, "2020-01-01T00:00:00Z".parse().unwrap());
    assert!(notes.is_empty(), "{notes:?}");
}
