//! The flags of each command (for `explain`, `scan` and `lint` with the config
//! `project::resolve` merged into them) into its plan. Each check runs once, here, in the
//! order users have always met the errors in: for `explain`, the slot, the monitor, the
//! source's own conflicts, the name, then the replay flags (zone, version, instant); for a
//! fleet `scan`, the replay flags before `-n`; for `next`, the zone before `--from`; for
//! `monitor`, the zone before the version; for the actions, `trigger`'s `--wait` with a dry
//! run and its `--timeout` first, then the CronJob's name, then `trigger`'s job name or
//! `unsuspend`'s zone. Nothing is read and no request is made; only `--all-contexts` reads
//! the kubeconfig's list of contexts.

use doctor::actions::trigger::manual_job_name;
use doctor::replay::KubeVersion;
use doctor::report::slot::SlotQuery;

use super::flags::{controller_zone, parse_instant, parse_rfc3339, wait_timeout};
use super::{
    Action, ExplainPlan, Files, Fleet, Instant, MonitorPlan, NextPlan, Output, Plan, ScanPlan,
    Select, Source, SuspendPlan, TriggerPlan, UnsuspendPlan, Version, Wait, Zone,
};
use crate::cli::{
    ActionArgs, ColorChoice, DryRun, ExplainArgs, LintArgs, MonitorArgs, MonitorFormat, NextArgs,
    ObjectFormat, ReplayArgs, ReportFormat, ScanArgs, ScanFormat, SuspendArgs, TriggerArgs,
    UnsuspendArgs,
};
use crate::cluster::{self, monitor_runs::MonitorService};
use crate::error::{Error, UsageError};
use crate::monitor::engine;
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
    kube_version(args.kube_version.as_deref())
}

/// A `--kube-version` given, parsed.
fn kube_version(value: Option<&str>) -> Result<Option<KubeVersion>, Error> {
    value
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
    let zone = zone(&replay.controller_time_zone)?;
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
        output: output(format, replay.color),
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

/// `--controller-time-zone`, loaded by Go's rules ("Local" refused).
fn zone(name: &str) -> Result<Zone, Error> {
    Ok(Zone {
        name: name.to_string(),
        tz: controller_zone(name)?,
    })
}

/// The format, and the colour (`--color`, NO_COLOR, a terminal) and width of text.
fn output<F>(format: F, color: ColorChoice) -> Output<F> {
    Output {
        format,
        color: use_color(color),
        errors_color: use_color_on_stderr(color),
        width: width(),
    }
}

/// `next SCHEDULE`: the zone, then `--from`.
pub fn next(a: &NextArgs) -> Result<NextPlan, Error> {
    let zone = zone(&a.controller_time_zone)?;
    let from = match &a.from {
        // The whole computable range: near its end the view says where computing stops.
        Some(v) => Instant::At(parse_rfc3339("--from", v)?),
        None => Instant::Clock,
    };
    Ok(NextPlan {
        schedule: a.schedule.clone(),
        time_zone: a.time_zone.clone(),
        from,
        count: a.count as usize,
        zone,
        output: output(a.output, a.color),
    })
}

/// `monitor`: the zone, then `--kube-version`. The namespace is checked after connecting
/// (it may be the context's), the address when it is bound.
pub fn monitor(a: &MonitorArgs) -> Result<MonitorPlan, Error> {
    let zone = zone(&a.controller_time_zone)?;
    let version = kube_version(a.kube_version.as_deref())?.map_or(Version::Default, Version::Given);
    Ok(MonitorPlan {
        kube: a.kube.clone(),
        select: Select {
            name: None,
            namespace: a.namespace.clone(),
            all_namespaces: a.all_namespaces,
        },
        zone,
        version,
        listen: a.listen,
        lines: lines(a.listen.is_some(), a.output),
        grace: a.grace,
        stale_after: a.stale_after,
    })
}

/// The monitor's status lines on stdout: always without `--listen`; with it only when `-o`
/// asks for them (the HTTP endpoints are the interface then, and a log of changes is an
/// extra).
fn lines(listen: bool, format: Option<MonitorFormat>) -> engine::Output {
    match (listen, format) {
        (true, None) => engine::Output::Silent,
        (_, f) => engine::Output::Lines(f.unwrap_or(MonitorFormat::Text)),
    }
}

/// A name that could never have named an object: refused, and nothing was sent.
fn invalid_name(e: doctor::names::InvalidName) -> Error {
    UsageError::NothingSent(Box::new(UsageError::InvalidName(e))).into()
}

/// The CronJob an action is about: its name checked before any request (a name the API
/// server could never have accepted names nothing, and must not reach a request path).
fn action(name: &str, how: &ActionArgs) -> Result<Action, Error> {
    doctor::names::cron_job_name(name).map_err(invalid_name)?;
    Ok(Action {
        name: name.to_string(),
        how: how.clone(),
    })
}

/// `suspend NAME`: the name.
pub fn suspend(a: &SuspendArgs) -> Result<SuspendPlan, Error> {
    Ok(SuspendPlan {
        action: action(&a.name, &a.action)?,
        by: a.by.clone(),
        reason: a.reason.clone(),
    })
}

/// `unsuspend NAME`: the name, then the zone.
pub fn unsuspend(a: &UnsuspendArgs) -> Result<UnsuspendPlan, Error> {
    let action = action(&a.name, &a.action)?;
    Ok(UnsuspendPlan {
        action,
        zone: zone(&a.controller_time_zone)?,
        version: Version::Default,
        skip_missed: a.skip_missed,
    })
}

/// `trigger NAME`: `--wait` with a dry run, `--timeout`, the name, then the job's name.
pub fn trigger(a: &TriggerArgs) -> Result<TriggerPlan, Error> {
    if a.wait && a.action.dry_run != DryRun::None {
        return Err(UsageError::WaitDryRun {
            dry_run: a.action.dry_run.flag(),
        }
        .into());
    }
    let timeout = wait_timeout(&a.timeout)?;
    let action = action(&a.name, &a.action)?;
    let job_name = a
        .job_name
        .clone()
        .unwrap_or_else(|| manual_job_name(&a.name, &random_suffix()));
    doctor::names::job_name(&job_name).map_err(|e| match &a.job_name {
        Some(_) => UsageError::NothingSent(Box::new(UsageError::JobName(e))).into(),
        None => invalid_name(e),
    })?;
    Ok(TriggerPlan {
        action,
        job_name,
        instant: Instant::Clock,
        format: a.output.unwrap_or(ObjectFormat::Yaml),
        print_created: a.output.is_some(),
        wait: if a.wait {
            Wait::Follow(timeout)
        } else {
            Wait::No
        },
    })
}

/// Five characters from the alphabet Kubernetes uses for generateName (no vowels, no
/// look-alikes, so a suffix never spells a word or reads ambiguously).
pub(super) fn random_suffix() -> String {
    use std::hash::{BuildHasher, Hasher};
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    let mut n = h.finish();
    (0..5)
        .map(|_| {
            let c = ALPHABET[(n % ALPHABET.len() as u64) as usize] as char;
            n /= ALPHABET.len() as u64;
            c
        })
        .collect()
}
