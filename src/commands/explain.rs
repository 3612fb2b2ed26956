//! `explain NAME` (from the cluster) and `explain [NAME] -f PATH…` (from files): the full
//! diagnosis. Both build a snapshot and hand it to the same report and renderers.

use doctor::render::{explain, sarif, style::Style};
use doctor::report::{self, Health, Options, Report, visible};

use super::report_cmd::{LiveStart, evaluate, live_replay_flags, live_start, prepare};
use crate::cli::{ExplainArgs, ReportFormat};
use crate::cluster::{self, fetch};
use crate::error::exit;
use crate::error::{Error, SystemError, UsageError};
use crate::term::{delivered, emit, use_color, width};

pub fn run(a: &ExplainArgs) -> Result<i32, Error> {
    // Checked before anything is read: a typo never waits on the network.
    let slot = a
        .slot
        .as_deref()
        .map(|s| report::slot::SlotQuery::parse(s).map_err(UsageError::Slot))
        .transpose()?;
    // The monitor is asked by a live explain only: files have no monitor.
    if a.monitor.monitor.is_some() && !a.files.is_empty() {
        return Err(UsageError::MonitorWithFiles.into());
    }
    if let Some(contexts) = cluster::fleet::contexts(&a.kube, &a.fleet)? {
        // Each context's monitor is asked at the same Service (`fleet_explain`).
        if slot.is_some() {
            return Err(UsageError::SlotFleet.into());
        }
        if !a.files.is_empty() {
            return Err(UsageError::FilesFleet.into());
        }
        let Some(name) = a.name.as_deref() else {
            return Err(UsageError::FleetNeedsName.into());
        };
        return super::fleet_explain::run(a, name, &contexts);
    }
    if let Some(query) = slot {
        return one_slot(a, query);
    }
    if !a.files.is_empty() && a.output == ReportFormat::Json {
        return offline_json(a);
    }
    if !a.files.is_empty() && a.output == ReportFormat::Text {
        return offline_text(a);
    }
    let mut r = if a.files.is_empty() {
        live(a)?
    } else {
        crate::input::set_max_input_size(a.input.max_input_size);
        evaluate(
            &a.files,
            a.name.as_deref(),
            a.namespace.as_deref(),
            &a.replay,
            &a.config,
            a.timeline,
        )?
        .report
    };
    let text = match a.output {
        ReportFormat::Json => {
            // Streamed: the JSON of a big input is several times its size (BENCHMARKS.md,
            // "Big inputs: peak memory").
            doctor::report::stream::write_json(&r, std::io::stdout().lock());
            String::new()
        }
        ReportFormat::Sarif => sarif::render(
            &r,
            env!("CARGO_PKG_VERSION"),
            &crate::input::reread_for_edits,
            None,
        ),
        ReportFormat::Text => {
            // Strings from the input, with control characters made visible.
            doctor::report::visible::make_visible(&mut r);
            explain::render(
                &r,
                explain::TextOptions {
                    style: Style {
                        color: use_color(a.replay.color),
                    },
                    width: width(),
                },
            )
        }
    };
    emit(&text);
    Ok(if !r.errors.is_empty() {
        exit::TROUBLE
    } else if r.cron_jobs.iter().any(|c| c.health == Health::Error) {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// The `-f` inputs loaded and the CronJobs asked for picked, with the settings to judge them.
fn from_files(a: &ExplainArgs) -> Result<super::report_cmd::Prepared, Error> {
    crate::input::set_max_input_size(a.input.max_input_size);
    prepare(
        &a.files,
        a.name.as_deref(),
        a.namespace.as_deref(),
        &a.replay,
        &a.config,
        a.timeline,
    )
}

/// `explain -f … -o json`: each CronJob's report is built, written and dropped in turn, so a
/// big input never has its whole report in memory (BENCHMARKS.md, "Big inputs: peak
/// memory"). Same bytes as the whole report.
fn offline_json(a: &ExplainArgs) -> Result<i32, Error> {
    let p = from_files(a)?;
    let opts = p.options();
    let mut any_error = false;
    let written = report::stream::write_json_each(
        &p.header,
        report::cron_job_reports(&p.snapshot, &opts),
        |c| any_error |= c.health == Health::Error,
        std::io::stdout().lock(),
    );
    delivered(written)?;
    Ok(if !p.header.errors.is_empty() {
        exit::TROUBLE
    } else if any_error {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// `explain -f …` as text: like [`offline_json`], each CronJob's report is built, made
/// terminal-safe (`report::visible`), written and dropped in turn. Same text as the whole
/// report.
fn offline_text(a: &ExplainArgs) -> Result<i32, Error> {
    use std::io::Write;
    let mut p = from_files(a)?;
    let o = explain::TextOptions {
        style: Style {
            color: use_color(a.replay.color),
        },
        width: width(),
    };
    // Strings from the input, with control characters made visible.
    doctor::report::visible::make_visible(&mut p.header);
    let mut out = std::io::stdout().lock();
    // A reader that went away (`| head`) ends the output, not the program.
    let mut write = |text: &str| {
        let _ = out.write_all(text.as_bytes());
    };
    write(&explain::header(&p.header, o));
    let opts = p.options();
    let mut count = 0;
    let mut any_error = false;
    for mut cj in report::cron_job_reports(&p.snapshot, &opts) {
        any_error |= cj.health == Health::Error;
        doctor::report::visible::cron_job_for_terminal(&mut cj);
        write(&explain::cron_job(&p.header, &cj, count, o));
        count += 1;
    }
    if count == 0 {
        write(explain::NONE_FOUND);
    }
    let _ = out.flush();
    Ok(if !p.header.errors.is_empty() {
        exit::TROUBLE
    } else if any_error {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// One CronJob and its evidence as read from the cluster, with the instant, version and
/// controller zone to replay them at.
struct LiveRead {
    snapshot: doctor::model::Snapshot,
    /// The runs the monitor remembers of the CronJob (empty without an answer).
    retained: Vec<doctor::retained::RetainedRun>,
    now: jiff::Timestamp,
    version: doctor::replay::KubeVersion,
    zone: jiff::tz::TimeZone,
}

impl LiveRead {
    fn options<'a>(&'a self, a: &'a ExplainArgs) -> Options<'a> {
        Options {
            now: self.now,
            controller_zone_name: &a.replay.controller_time_zone,
            controller_zone: &self.zone,
            version: self.version,
            timeline: a.timeline,
            severities: &a.config.settings.rules,
        }
    }
}

/// Read one CronJob and its evidence from the cluster and build its report.
fn live(a: &ExplainArgs) -> Result<Report, Error> {
    let read = live_read(a)?;
    let mut r = report::build(&read.snapshot, Vec::new(), &read.options(a));
    if let Some(c) = r.cron_jobs.first_mut() {
        report::retained_slots::merge(&mut c.timeline, &read.retained, read.now);
    }
    Ok(r)
}

/// Read one CronJob and its evidence from the cluster.
fn live_read(a: &ExplainArgs) -> Result<LiveRead, Error> {
    let Some(name) = a.name.as_deref() else {
        return Err(UsageError::LiveNeedsName.into());
    };
    // Flags and names are checked before any request, so a typo never waits on the network
    // and nothing hostile reaches a request path.
    doctor::names::cron_job_name(name).map_err(UsageError::InvalidName)?;
    let monitor = monitor_service(a)?;
    let flags = live_replay_flags(&a.replay)?;
    let rt = cluster::runtime()?;
    let notices = a.output == ReportFormat::Text;
    let (snapshot, retained, server_version, now) = rt.block_on(async {
        let LiveStart {
            api,
            namespace,
            server_version,
        } = live_start(&a.kube, notices, a.namespace.as_deref(), false).await?;
        // Not -A: there is a namespace.
        let ns = namespace.unwrap_or_default();
        let snapshot = match fetch::explain(&api, &ns, name).await {
            Ok(s) => s,
            Err(fetch::FetchError::NotFound(names)) => {
                // Not in the namespace the context chose: maybe in another one. A failure
                // here (a 403 on the cluster-wide LIST) just leaves the usual message.
                if a.namespace.is_none()
                    && let Ok(found) = fetch::namespaces_with(&api, name).await
                    && !found.is_empty()
                {
                    // The context's name is the kubeconfig's, the namespaces the server's:
                    // shown on one line each, whatever they hold.
                    return Err(UsageError::FoundElsewhere {
                        name: name.to_string(),
                        namespace: ns,
                        context: visible::one_line(&api.target.context).into_owned(),
                        found: found
                            .iter()
                            .map(|f| visible::one_line(f).into_owned())
                            .collect(),
                    }
                    .into());
                }
                // report_cmd's message speaks of "the input"; here the input is the cluster.
                return Err(UsageError::NotInNamespace {
                    name: name.to_string(),
                    namespace: ns,
                    names,
                    context: visible::one_line(&api.target.context).into_owned(),
                }
                .into());
            }
            Err(fetch::FetchError::Api(what, e)) => {
                return Err(Error::from(cluster::failure(&api, &what, &e)));
            }
        };
        // Once the CronJob is known to exist (a typo asks nothing): the monitor's answer is
        // one round trip, bounded by monitor_runs::TIMEOUT.
        let mut snapshot = snapshot;
        let retained = match &monitor {
            Some(svc) => match cluster::monitor_runs::fetch(&api, svc, &ns, name).await {
                Ok(runs) => runs,
                Err(no_runs) => {
                    snapshot.notes.push(no_runs.to_string());
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        Ok((
            snapshot,
            retained,
            server_version,
            cluster::server_now(&api),
        ))
    })?;
    // Drop the runtime's idle threads before the CPU work.
    drop(rt);
    let mut snapshot = snapshot;
    let (version, now, notes) = flags.settle(server_version, now);
    snapshot.notes.extend(notes);
    Ok(LiveRead {
        snapshot,
        retained,
        now,
        version,
        zone: flags.zone,
    })
}

/// The monitor to ask (`--monitor`, else deploy/monitor/'s Service), or none
/// (`--no-monitor`); checked before any request.
pub(super) fn monitor_service(
    a: &ExplainArgs,
) -> Result<Option<cluster::monitor_runs::MonitorService>, Error> {
    use cluster::monitor_runs::MonitorService;
    if a.monitor.no_monitor {
        return Ok(None);
    }
    match &a.monitor.monitor {
        Some(s) => Ok(Some(MonitorService::parse(s).map_err(UsageError::Monitor)?)),
        None => Ok(Some(MonitorService::deployed())),
    }
}

/// `explain NAME --slot TIME`: the one run of that slot, from the cluster or files.
fn one_slot(a: &ExplainArgs, query: report::slot::SlotQuery) -> Result<i32, Error> {
    if a.output == ReportFormat::Sarif {
        return Err(UsageError::SlotSarif.into());
    }
    let (prepared, read);
    // The monitor's records (live only: files have no monitor to ask).
    let (snapshot, opts, notes, retained) = if a.files.is_empty() {
        read = live_read(a)?;
        (
            &read.snapshot,
            read.options(a),
            read.snapshot.notes.clone(),
            read.retained.as_slice(),
        )
    } else {
        prepared = from_files(a)?;
        (
            &prepared.snapshot,
            prepared.options(),
            prepared.header.notes.clone(),
            &[][..],
        )
    };
    let cron_job = match snapshot.cron_jobs.as_slice() {
        [one] => one,
        [] => return Err(UsageError::SlotNoCronJob.into()),
        many => {
            return Err(UsageError::SlotSeveral(many.len()).into());
        }
    };
    let mut answer = report::slot::answer(snapshot, cron_job, &opts, query);
    let created = cron_job.meta.creation_timestamp;
    report::retained_slots::answer_slot(&mut answer, created, retained, opts.now);
    match a.output {
        ReportFormat::Json => {
            let text = serde_json::to_string_pretty(&answer).map_err(SystemError::Json)?;
            emit(&format!("{text}\n"));
        }
        _ => {
            let o = explain::TextOptions {
                style: Style {
                    color: use_color(a.replay.color),
                },
                width: width(),
            };
            // Strings from the input (a scheduler's message, names), control characters shown.
            let notes: Vec<String> = notes
                .iter()
                .map(|n| visible::text(n).into_owned())
                .collect();
            answer.answer = visible::one_line(&answer.answer).into_owned();
            answer.name = visible::one_line(&answer.name).into_owned();
            answer.namespace = visible::one_line(&answer.namespace).into_owned();
            if let Some(j) = &mut answer.job {
                *j = visible::one_line(j).into_owned();
            }
            for d in &mut answer.details {
                *d = visible::one_line(d).into_owned();
            }
            emit(&doctor::render::slot::render(&answer, &notes, o));
        }
    }
    Ok(if answer.ok { exit::OK } else { exit::FINDINGS })
}
