//! The flags of `explain`, `scan` and `lint` (with the config `project::resolve` merged into
//! them) into a [`Plan`]. Each check runs once, here, in the order users have always met the
//! errors in: for `explain`, the slot, the monitor, the source's own conflicts, the name, then
//! the replay flags (zone, version, instant); for a fleet `scan`, the replay flags before `-n`.
//! Nothing is read and no request is made; only `--all-contexts` reads the kubeconfig's list
//! of contexts.

use doctor::replay::KubeVersion;
use doctor::report::slot::SlotQuery;

use super::{
    ExplainPlan, Files, Fleet, Instant, Output, Plan, ScanPlan, Select, Source, Version, Zone,
};
use crate::cli::{ExplainArgs, LintArgs, ReplayArgs, ReportFormat, ScanArgs, ScanFormat};
use crate::cluster::{self, monitor_runs::MonitorService};
use crate::commands::{controller_zone, parse_instant};
use crate::error::{Error, UsageError};
use crate::term::{use_color, use_color_on_stderr, width};

/// `explain`: one CronJob from a cluster or a fleet, or the CronJobs of files.
pub fn explain(a: &ExplainArgs) -> Result<ExplainPlan, Error> {
    // Checked before anything is read: a typo never waits on the network.
    let slot = a
        .slot
        .as_deref()
        .map(|s| SlotQuery::parse(s).map_err(UsageError::Slot))
        .transpose()?;
    // The monitor is asked by a live explain only: files have no monitor.
    if a.monitor.monitor.is_some() && !a.files.is_empty() {
        return Err(UsageError::MonitorWithFiles.into());
    }
    let sarif = a.output == ReportFormat::Sarif;
    let mut monitor = None;
    let source = if let Some(contexts) = cluster::fleet::contexts(&a.kube, &a.fleet)? {
        if slot.is_some() {
            return Err(UsageError::SlotFleet.into());
        }
        if !a.files.is_empty() {
            return Err(UsageError::FilesFleet.into());
        }
        let Some(name) = a.name.as_deref() else {
            return Err(UsageError::FleetNeedsName.into());
        };
        if sarif {
            return Err(UsageError::FleetSarif.into());
        }
        doctor::names::cron_job_name(name).map_err(UsageError::InvalidName)?;
        if let Some(ns) = &a.namespace {
            doctor::names::namespace(ns).map_err(UsageError::InvalidName)?;
        }
        // Each context's monitor, at the same Service (`fleet_explain`).
        monitor = monitor_service(a)?;
        Source::Fleet(Fleet {
            kube: a.kube.clone(),
            contexts,
            context_timeout: a.fleet.context_timeout,
        })
    } else {
        if slot.is_some() && sarif {
            return Err(UsageError::SlotSarif.into());
        }
        if a.files.is_empty() {
            let Some(name) = a.name.as_deref() else {
                return Err(UsageError::LiveNeedsName.into());
            };
            // Names are checked before any request, so nothing hostile reaches a request
            // path.
            doctor::names::cron_job_name(name).map_err(UsageError::InvalidName)?;
            monitor = monitor_service(a)?;
            Source::Cluster(a.kube.clone())
        } else {
            Source::Files(Files {
                paths: a.files.clone(),
                max_input_size: a.input.max_input_size,
            })
        }
    };
    let plan = plan(
        source,
        Select {
            name: a.name.clone(),
            namespace: a.namespace.clone(),
            all_namespaces: false,
        },
        &a.replay,
        a.output,
        a.timeline,
        &a.config,
    )?;
    Ok(ExplainPlan {
        plan,
        slot,
        monitor,
    })
}

/// `scan`: every CronJob of a namespace (or all) in one cluster or a fleet.
pub fn scan(a: &ScanArgs) -> Result<ScanPlan, Error> {
    let source = match cluster::fleet::contexts(&a.kube, &a.fleet)? {
        Some(contexts) => Source::Fleet(Fleet {
            kube: a.kube.clone(),
            contexts,
            context_timeout: a.fleet.context_timeout,
        }),
        None => Source::Cluster(a.kube.clone()),
    };
    let fleet = matches!(source, Source::Fleet(_));
    // Only the JSON report shows a timeline; a table row never reads it.
    let timeline = if a.output == ScanFormat::Json {
        a.timeline
    } else {
        0
    };
    let select = Select {
        name: None,
        namespace: a.namespace.clone(),
        all_namespaces: a.all_namespaces,
    };
    let plan = plan(source, select, &a.replay, a.output, timeline, &a.config)?;
    // A bad -n is one usage error, not the same failure once per context. (One cluster
    // checks the namespace it settles on, the context's included, in `read_cluster`.)
    if fleet && let Some(ns) = &a.namespace {
        doctor::names::namespace(ns).map_err(UsageError::InvalidName)?;
    }
    Ok(ScanPlan {
        plan,
        only_problems: a.only_problems,
    })
}

/// `lint -f PATH…`: every CronJob of the files, every setting of the config.
pub fn lint(a: &LintArgs) -> Result<Plan<ReportFormat>, Error> {
    let source = Source::Files(Files {
        paths: a.files.clone(),
        max_input_size: a.input.max_input_size,
    });
    plan(source, Select::default(), &a.replay, a.output, 0, &a.config)
}

/// `--kube-version` (for `lint`, else the config's `kubeVersion`), or None.
pub fn version(args: &ReplayArgs) -> Result<Option<KubeVersion>, Error> {
    args.kube_version
        .as_deref()
        .map(|v| {
            v.parse::<KubeVersion>().map_err(|e| {
                UsageError::KubeVersion {
                    value: v.to_string(),
                    source: e,
                }
                .into()
            })
        })
        .transpose()
}

/// The parts every command's plan has, checked in one order: zone, version, instant.
fn plan<F>(
    source: Source,
    select: Select,
    replay: &ReplayArgs,
    format: F,
    timeline: usize,
    config: &crate::cli::ConfigArgs,
) -> Result<Plan<F>, Error> {
    let zone = Zone {
        name: replay.controller_time_zone.clone(),
        tz: controller_zone(&replay.controller_time_zone)?,
    };
    let version = version(replay)?.map_or(Version::Default, Version::Given);
    let files = matches!(source, Source::Files(_));
    let instant = match replay.now.as_deref() {
        None => Instant::Clock,
        // Only files date themselves; from a cluster `dump` is refused (`parse_instant`).
        Some("dump") if files => Instant::Dump,
        Some(v) => Instant::At(parse_instant("--now", v)?),
    };
    Ok(Plan {
        source,
        select,
        instant,
        zone,
        version,
        output: Output {
            format,
            color: use_color(replay.color),
            errors_color: use_color_on_stderr(replay.color),
            width: width(),
        },
        timeline,
        settings: config.settings.clone(),
        config_dir: crate::project::base_dir(config),
    })
}

/// The monitor to ask (`--monitor`, else deploy/monitor/'s Service), or none
/// (`--no-monitor`).
fn monitor_service(a: &ExplainArgs) -> Result<Option<MonitorService>, Error> {
    if a.monitor.no_monitor {
        return Ok(None);
    }
    match &a.monitor.monitor {
        Some(s) => Ok(Some(MonitorService::parse(s).map_err(UsageError::Monitor)?)),
        None => Ok(Some(MonitorService::deployed())),
    }
}
