//! Flags (and config) into a plan: the source, the defaults, and which error a combination
//! of flags meets first.

use clap::Parser;
use doctor::replay::KubeVersion;

use super::*;
use crate::cli::{
    Cli, Command, DryRun, MonitorFormat, NextFormat, ObjectFormat, ReportFormat, ScanFormat,
};
use crate::error::{Error, UsageError};
use crate::monitor::engine;

fn parse(args: &[&str]) -> Command {
    let mut all = vec!["kubectl-cronjob_doctor"];
    all.extend_from_slice(args);
    Cli::try_parse_from(all).expect("the flags parse").command
}

/// `fn NAME(args)`: `SUBCOMMAND ARGS…` parsed by clap and resolved by the subcommand's resolver.
macro_rules! plans {
    ($($name:ident: $sub:literal => $variant:ident, $resolve:ident -> $plan:ty;)*) => {$(
        fn $name(args: &[&str]) -> Result<$plan, Error> {
            match parse(&[&[$sub], args].concat()) {
                Command::$variant(a) => $resolve(&a),
                _ => unreachable!(),
            }
        }
    )*};
}

plans! {
    explain_plan: "explain" => Explain, explain -> ExplainPlan;
    scan_plan: "scan" => Scan, scan -> ScanPlan;
    next_plan: "next" => Next, next -> NextPlan;
    monitor_plan: "monitor" => Monitor, monitor -> MonitorPlan;
    unsuspend_plan: "unsuspend" => Unsuspend, unsuspend -> UnsuspendPlan;
    suspend_plan: "suspend" => Suspend, suspend -> SuspendPlan;
    trigger_plan: "trigger" => Trigger, trigger -> TriggerPlan;
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

#[test]
fn next_starts_from_the_clock_or_from_any_computable_instant() {
    let p = next_plan(&["0 3 * * *"]).unwrap();
    assert_eq!(p.from, Instant::Clock);
    assert_eq!((p.schedule.as_str(), p.count), ("0 3 * * *", 5));
    assert_eq!(p.zone.name, "UTC");
    assert_eq!(p.output.format, NextFormat::Text);
    let p = next_plan(&[
        "0 3 * * *",
        "--from",
        "2026-11-20T12:00:00Z",
        "--count",
        "2",
        "--time-zone",
        "Asia/Tokyo",
        "--controller-time-zone",
        "Europe/Berlin",
        "-o",
        "json",
        "--color",
        "always",
    ])
    .unwrap();
    assert_eq!(p.from, Instant::At("2026-11-20T12:00:00Z".parse().unwrap()));
    assert_eq!(p.count, 2);
    assert_eq!(p.time_zone.as_deref(), Some("Asia/Tokyo"));
    assert_eq!(p.zone.name, "Europe/Berlin");
    assert_eq!(p.output.format, NextFormat::Json);
    assert!(p.output.color);
    // --from reaches further than --now: the view says where computing stops.
    let p = next_plan(&["@daily", "--from", "9990-01-01T00:00:00Z"]).unwrap();
    assert_eq!(p.from, Instant::At("9990-01-01T00:00:00Z".parse().unwrap()));
}

#[test]
fn next_checks_the_zone_then_from() {
    let e = refused(next_plan(&["@daily", "--from", "yesterday"]));
    assert!(
        e.starts_with(
            "--from \"yesterday\" is not an RFC 3339 instant (for example 2026-11-20T12:00:00Z): "
        ),
        "{e}"
    );
    let e = refused(next_plan(&["@daily", "--from", "dump"]));
    assert!(e.starts_with("--from \"dump\" is not an RFC 3339"), "{e}");
    let e = refused(next_plan(&["@daily", "--from", "9999-12-31T23:00:00Z"]));
    assert!(e.starts_with("--from \"9999-12-31T23:00:00Z\""), "{e}");
    assert!(!e.contains("not an RFC 3339"), "{e}");
    let e = refused(next_plan(&[
        "@daily",
        "--controller-time-zone",
        "Local",
        "--from",
        "yesterday",
    ]));
    assert_eq!(e, UsageError::ControllerZoneLocal.to_string());
    let e = refused(next_plan(&[
        "@daily",
        "--controller-time-zone",
        "Mars/Olympus",
    ]));
    assert!(
        e.starts_with("--controller-time-zone \"Mars/Olympus\": "),
        "{e}"
    );
}

#[test]
fn the_monitor_checks_the_zone_then_the_version() {
    let e = refused(monitor_plan(&["--controller-time-zone", "Mars/Olympus"]));
    assert!(
        e.starts_with("--controller-time-zone \"Mars/Olympus\": "),
        "{e}"
    );
    // clap refuses a bad --kube-version first; the plan holds the same check, after the zone.
    let Command::Monitor(mut a) = parse(&["monitor", "--controller-time-zone", "Local"]) else {
        unreachable!()
    };
    a.kube_version = Some("2.0".into());
    assert_eq!(
        refused(monitor(&a)),
        UsageError::ControllerZoneLocal.to_string()
    );
    a.controller_time_zone = "UTC".into();
    assert!(refused(monitor(&a)).starts_with("--kube-version \"2.0\": "));
}

#[test]
fn the_monitor_replays_the_version_given_else_the_servers() {
    let server = |v: u32, note: Option<&str>| (Some(KubeVersion::new(v)), note.map(String::from));
    let p = monitor_plan(&["--kube-version", "1.27"]).unwrap();
    assert_eq!(p.version, Version::Given(KubeVersion::new(27)));
    assert_eq!(p.version.or_newest(), KubeVersion::new(27));
    assert_eq!(
        p.version.settle(server(30, Some("ignored"))),
        (KubeVersion::new(27), None)
    );
    let p = monitor_plan(&[]).unwrap();
    assert_eq!(p.version, Version::Default);
    assert_eq!(p.version.or_newest(), KubeVersion::NEWEST);
    assert_eq!(
        p.version.settle(server(30, None)),
        (KubeVersion::new(30), None)
    );
    // A server that does not say which: the newest, with the server's note.
    assert_eq!(
        p.version.settle((None, Some("unknown".into()))),
        (KubeVersion::NEWEST, Some("unknown".into()))
    );
}

#[test]
fn the_monitor_prints_lines_without_listen_or_when_o_asks() {
    let lines = |args: &[&str]| match monitor_plan(args).unwrap().lines {
        engine::Output::Silent => None,
        engine::Output::Lines(f) => Some(f),
    };
    assert_eq!(lines(&[]), Some(MonitorFormat::Text));
    assert_eq!(lines(&["-o", "json"]), Some(MonitorFormat::Json));
    assert_eq!(lines(&["--listen", "127.0.0.1:9090"]), None);
    assert_eq!(
        lines(&["--listen", "127.0.0.1:9090", "-o", "text"]),
        Some(MonitorFormat::Text)
    );
    let p = monitor_plan(&["-n", "ops", "--grace", "5m", "--stale-after", "10s"]).unwrap();
    assert_eq!(p.select.namespace.as_deref(), Some("ops"));
    assert!(!p.select.all_namespaces);
    assert_eq!(p.grace, std::time::Duration::from_secs(300));
    assert_eq!(p.stale_after, std::time::Duration::from_secs(10));
    // A namespace is checked after connecting: it may be the context's.
    assert!(monitor_plan(&["-n", "Bad_NS"]).is_ok());
}

#[test]
fn unsuspend_checks_the_name_then_the_zone_before_any_request() {
    let e = refused(unsuspend_plan(&[
        "Bad_Name",
        "--controller-time-zone",
        "Mars/Olympus",
    ]));
    assert!(
        e.contains("Bad_Name") && e.ends_with("; nothing was sent"),
        "{e}"
    );
    let e = refused(unsuspend_plan(&[
        "backup",
        "--controller-time-zone",
        "Mars/Olympus",
    ]));
    assert!(
        e.starts_with("--controller-time-zone \"Mars/Olympus\": "),
        "{e}"
    );
    let p = unsuspend_plan(&[
        "backup",
        "-n",
        "ops",
        "--skip-missed",
        "--dry-run",
        "server",
    ])
    .unwrap();
    assert_eq!(p.action.name, "backup");
    assert_eq!(p.action.how.namespace.as_deref(), Some("ops"));
    assert_eq!(p.action.how.dry_run, DryRun::Server);
    assert!(p.skip_missed);
    assert_eq!(p.zone.name, "UTC");
    // No flag names the version: the server's is taken.
    assert_eq!(p.version, Version::Default);
}

#[test]
fn suspend_checks_the_name_before_any_request() {
    let e = refused(suspend_plan(&["Bad_Name"]));
    assert!(
        e.contains("Bad_Name") && e.ends_with("; nothing was sent"),
        "{e}"
    );
    let p = suspend_plan(&["backup", "--by", "alice", "--reason", "migration", "-y"]).unwrap();
    assert_eq!(p.action.name, "backup");
    assert!(p.action.how.yes);
    assert_eq!(p.by.as_deref(), Some("alice"));
    assert_eq!(p.reason.as_deref(), Some("migration"));
}

#[test]
fn trigger_refuses_wait_with_a_dry_run_before_anything_else() {
    for (mode, flag) in [
        ("client", "--dry-run=client"),
        ("server", "--dry-run=server"),
    ] {
        let e = refused(trigger_plan(&["Bad_Name", "--wait", "--dry-run", mode]));
        assert_eq!(
            e,
            format!("--wait follows a Job that {flag} does not create: drop one of them")
        );
    }
    assert!(trigger_plan(&["backup", "--wait", "--dry-run", "none"]).is_ok());
    assert!(trigger_plan(&["backup", "--dry-run", "client"]).is_ok());
}

#[test]
fn trigger_checks_the_cronjob_name_then_the_job_name() {
    let e = refused(trigger_plan(&["Bad_Name", "--job-name", "Bad_Job"]));
    assert!(
        e.contains("Bad_Name") && e.ends_with("; nothing was sent"),
        "{e}"
    );
    let e = refused(trigger_plan(&["backup", "--job-name", "Bad_Job"]));
    assert!(
        e.starts_with("--job-name: ") && e.contains("Bad_Job") && e.ends_with("; nothing was sent"),
        "{e}"
    );
    let p = trigger_plan(&["backup", "--job-name", "backup-now"]).unwrap();
    assert_eq!(p.job_name, "backup-now");
    // The default: <cronjob>-manual-<5 characters>.
    let p = trigger_plan(&["backup"]).unwrap();
    let suffix = p.job_name.strip_prefix("backup-manual-").unwrap();
    assert_eq!(suffix.len(), 5, "{}", p.job_name);
}

#[test]
fn trigger_waits_only_when_asked_for_at_most_the_timeout() {
    let p = trigger_plan(&["backup"]).unwrap();
    assert_eq!(p.wait, Wait::No);
    assert_eq!((p.format, p.print_created), (ObjectFormat::Yaml, false));
    assert_eq!(p.instant, Instant::Clock);
    let p = trigger_plan(&["backup", "--wait"]).unwrap();
    assert_eq!(
        p.wait,
        Wait::Follow(Some(std::time::Duration::from_secs(30 * 60)))
    );
    let p = trigger_plan(&["backup", "--wait", "--timeout", "0", "-o", "json"]).unwrap();
    assert_eq!(p.wait, Wait::Follow(None));
    assert_eq!((p.format, p.print_created), (ObjectFormat::Json, true));
}

#[test]
fn the_wait_timeout_reaches_the_168h_clap_accepts() {
    let h = |n: u64| Some(std::time::Duration::from_secs(n * 3600));
    assert_eq!(flags::wait_timeout("48h").unwrap(), h(48));
    assert_eq!(flags::wait_timeout("168h").unwrap(), h(168));
    assert_eq!(flags::wait_timeout("0").unwrap(), None);
    let e = flags::wait_timeout("169h").unwrap_err().to_string();
    assert!(e.starts_with("--timeout \"169h\": at most 168h"), "{e}");
}

#[test]
fn suffixes_are_five_generate_name_characters() {
    let s = resolve::random_suffix();
    assert_eq!(s.len(), 5);
    assert!(
        s.bytes()
            .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b)),
        "{s}"
    );
}

#[test]
fn the_clock_given_wins_over_the_servers() {
    let server_now: jiff::Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
    let given: jiff::Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
    assert_eq!(
        Instant::At(given).settle((server_now, Some("skewed".into()))),
        (given, None)
    );
    assert_eq!(
        Instant::Clock.settle((server_now, Some("skewed".into()))),
        (server_now, Some("skewed".into()))
    );
}
