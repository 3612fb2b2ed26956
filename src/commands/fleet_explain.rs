//! `explain NAME --all-contexts` (or `--context A --context B …`): find the CronJob in every
//! cluster at once and diagnose each copy found, headed by its context, each judged by its own
//! cluster's clock and controller version. A context that cannot be read is said (stderr, or
//! `errors[]` in JSON) and makes the exit code 2, but does not hide the others; only when the
//! CronJob is found nowhere is the command an error.

use std::io::Write;

use doctor::render::{explain, style::Style};
use doctor::report::stream::write_json_around;
use doctor::report::{self, Health, Report};

use super::fleet::{
    ContextSummary, context_note, exit_code, failed, fleet_frame, fragment_in_context,
};
use super::plan::{Fleet, Plan};
use super::read_cluster::{LiveStart, live_start};
use crate::cli::ReportFormat;
use crate::cluster::fleet::{self, Deadline};
use crate::cluster::monitor_runs::MonitorService;
use crate::cluster::{self, fetch};
use crate::error::cluster::Nowhere;
use crate::error::{ClusterError, Error, UsageError, exit};
use crate::term::emit;

/// What one context holds under NAME.
enum Found {
    /// The CronJob, diagnosed.
    Here(Box<Report>),
    /// Not in the namespace searched; the other namespaces of that cluster that have one.
    Elsewhere(Vec<String>),
}

struct ContextResult {
    summary: ContextSummary,
    found: Option<Found>,
}

/// The plan's CronJob (the plan has checked it names one, and that the format is not SARIF)
/// in every context of the fleet.
/// `monitor`: the Service each context's monitor is asked at (none: `--no-monitor`).
pub(super) fn run(
    plan: &Plan<ReportFormat>,
    f: &Fleet,
    monitor: Option<&MonitorService>,
) -> Result<i32, Error> {
    let name = plan.select.name.as_deref().unwrap_or_default();
    let rt = cluster::runtime()?;
    let results = fleet::each(&f.contexts, |ctx| read_context(plan, f, &rt, ctx, monitor));
    let results: Vec<ContextResult> = f
        .contexts
        .iter()
        .zip(results)
        .map(|(ctx, r)| {
            r.unwrap_or_else(|e| ContextResult {
                summary: failed(ctx, &e),
                found: None,
            })
        })
        .collect();
    drop(rt);

    let failed: Vec<&ContextSummary> = results
        .iter()
        .map(|r| &r.summary)
        .filter(|s| s.error.is_some())
        .collect();
    let hits: Vec<(&str, &Report)> = results
        .iter()
        .filter_map(|r| match &r.found {
            Some(Found::Here(rep)) => Some((r.summary.context.as_str(), &**rep)),
            _ => None,
        })
        .collect();
    let code = exit_code(
        !failed.is_empty(),
        hits.iter()
            .any(|(_, r)| r.cron_jobs.iter().any(|c| c.health == Health::Error)),
    );
    if plan.output.format == ReportFormat::Json {
        // The document is written even when nothing was found: `errors[]` and `contexts[]`
        // say where it was looked for.
        let notes: Vec<String> = hits
            .iter()
            .flat_map(|(ctx, r)| r.notes.iter().map(|n| context_note(ctx, n)))
            .collect();
        let summaries: Vec<ContextSummary> = results.iter().map(|r| r.summary.clone()).collect();
        let head = fleet_frame(&summaries, notes, plan);
        let fragments: Vec<String> = hits
            .iter()
            .flat_map(|(ctx, r)| r.cron_jobs.iter().map(|c| fragment_in_context(ctx, c)))
            .collect();
        let mut out = std::io::stdout().lock();
        let _ = write_json_around(&mut out, &head, &fragments);
        let _ = out.flush();
        if hits.is_empty() {
            // The document says where it was looked for, not why that is an error: said once
            // on stderr, as a single-cluster `explain -o json` says it.
            eprintln!(
                "error: {}",
                doctor::report::visible::text(&nowhere(name, &results).to_string())
            );
            return Ok(exit::TROUBLE);
        }
        return Ok(code);
    }
    for s in &failed {
        eprintln!(
            "error: context {}: {}",
            fleet::shown(&s.context),
            s.error.as_deref().unwrap_or("")
        );
    }
    if hits.is_empty() {
        return Err(nowhere(name, &results));
    }
    let o = explain::TextOptions {
        style: Style {
            color: plan.output.color,
        },
        width: plan.output.width,
    };
    let mut out = String::new();
    let missing: Vec<String> = results
        .iter()
        .filter(|r| matches!(r.found, Some(Found::Elsewhere(_))))
        .map(|r| where_searched(&r.summary))
        .collect();
    if !missing.is_empty() {
        out.push_str(&format!(
            "note: no CronJob {name} in {}\n",
            doctor::report::visible::text(&missing.join(", "))
        ));
    }
    // The reports are not needed any more as they are: each is made terminal-safe in place.
    let mut shown = 0;
    for r in results {
        let Some(Found::Here(mut rep)) = r.found else {
            continue;
        };
        if shown > 0 || !missing.is_empty() {
            out.push('\n');
        }
        shown += 1;
        // Strings from the cluster, with control characters made visible.
        doctor::report::visible::make_visible(&mut rep);
        out.push_str(&format!(
            "=== context {} ===\n",
            fleet::shown(&r.summary.context)
        ));
        out.push_str(&explain::render(&rep, o));
    }
    emit(&out);
    Ok(code)
}

/// `context prod (namespace ops)`.
fn where_searched(s: &ContextSummary) -> String {
    format!(
        "context {} (namespace {})",
        fleet::shown(&s.context),
        s.namespace.as_deref().unwrap_or("?")
    )
}

/// The error when no context has the CronJob: where it was looked for, where else it is, and
/// which contexts could not be read at all.
fn nowhere(name: &str, results: &[ContextResult]) -> Error {
    let searched: Vec<String> = results
        .iter()
        .filter(|r| r.summary.error.is_none())
        .map(|r| where_searched(&r.summary))
        .collect();
    let elsewhere: Vec<String> = results
        .iter()
        .filter_map(|r| match &r.found {
            Some(Found::Elsewhere(ns)) if !ns.is_empty() => Some(format!(
                "context {} namespace {}",
                fleet::shown(&r.summary.context),
                ns.join(", ")
            )),
            _ => None,
        })
        .collect();
    let failed: Vec<String> = results
        .iter()
        .filter(|r| r.summary.error.is_some())
        .map(|r| fleet::shown(&r.summary.context))
        .collect();
    let unreadable = !failed.is_empty();
    let nowhere = Nowhere {
        name: name.to_string(),
        searched,
        elsewhere,
        failed,
    };
    // Some context could not be read: the CronJob may be there, so it is not a usage error.
    if unreadable {
        return ClusterError::Nowhere(nowhere).into();
    }
    UsageError::Nowhere(nowhere).into()
}

/// Connect to one context, look for the CronJob in its namespace, and diagnose it there at
/// that cluster's clock and version; within the context's deadline.
fn read_context(
    plan: &Plan<ReportFormat>,
    f: &Fleet,
    rt: &tokio::runtime::Runtime,
    ctx: &str,
    monitor: Option<&MonitorService>,
) -> Result<ContextResult, Error> {
    let name = plan.select.name.as_deref().unwrap_or_default();
    let deadline = Deadline::starting_now(f.context_timeout);
    let kube = fleet::for_context(&f.kube, ctx, deadline);
    let (ns, server_version, snapshot, retained, clock) =
        rt.block_on(fleet::within(deadline, async {
            let LiveStart {
                api,
                namespace,
                server_version,
            } = live_start(&kube, false, &plan.select).await?;
            // Not -A: there is a namespace.
            let ns = namespace.unwrap_or_default();
            let snapshot = match fetch::explain(&api, &ns, name).await {
                Ok(s) => Ok(s),
                Err(fetch::FetchError::NotFound(_)) => {
                    // Maybe in another namespace of this cluster; a failure here (a 403 on
                    // the cluster-wide LIST) just leaves "not found".
                    let others = if plan.select.namespace.is_none() {
                        fetch::namespaces_with(&api, name).await.unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    Err(others)
                }
                Err(fetch::FetchError::Api(what, e)) => {
                    return Err(Error::from(cluster::failure(&api, &what, &e)));
                }
            };
            // Each context's own monitor, as `explain NAME` asks it, once the CronJob is found
            // there: no answer is a note, never a failure of the context.
            let mut snapshot = snapshot;
            let retained = match (&mut snapshot, monitor) {
                (Ok(s), Some(svc)) => {
                    match cluster::monitor_runs::fetch(&api, svc, &ns, name).await {
                        Ok(runs) => runs,
                        Err(no_runs) => {
                            s.notes.push(no_runs.to_string());
                            Vec::new()
                        }
                    }
                }
                _ => Vec::new(),
            };
            Ok((
                ns,
                server_version,
                snapshot,
                retained,
                cluster::server_now(&api),
            ))
        }))?;
    let (at, notes) = plan.settle_live(server_version, clock);
    let mut summary = ContextSummary {
        context: ctx.to_string(),
        namespace: Some(ns),
        now: Some(at.now),
        version: Some(at.version),
        cron_jobs: Some(0),
        error: None,
    };
    let mut snapshot = match snapshot {
        Ok(s) => s,
        Err(others) => {
            return Ok(ContextResult {
                summary,
                found: Some(Found::Elsewhere(others)),
            });
        }
    };
    snapshot.notes.extend(notes);
    let mut r = report::build(&snapshot, Vec::new(), &plan.options(at));
    if let Some(c) = r.cron_jobs.first_mut() {
        report::retained_slots::merge(&mut c.timeline, &retained, at.now);
    }
    summary.cron_jobs = Some(r.cron_jobs.len());
    Ok(ContextResult {
        summary,
        found: Some(Found::Here(Box::new(r))),
    })
}
