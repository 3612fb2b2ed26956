//! `scan --context A --context B …` and `scan --all-contexts`: every cluster read side by
//! side (`cluster::fleet`), each exactly as a single-cluster scan reads it — its own
//! credentials, namespace, server version and clock — and one report at the end: the table
//! worst first across clusters with a CONTEXT column, or the report JSON whose `cronJobs[]`
//! carry `context` and whose `errors[]` name the contexts that could not be read. Also the
//! JSON shape shared with `explain --all-contexts` (see docs/json.md, "Several contexts").

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use doctor::model::CronJob;
pub(super) use doctor::render::fleet::ContextSummary;
use doctor::render::scan_entries::{self, Context, Diagnosed, Entry, Form, Shape};
use doctor::replay::KubeVersion;
use doctor::report::stream::write_json_around;
use doctor::report::{CronJobReport, Health};
use jiff::Timestamp;

use super::plan::{Fleet, Plan, ScanPlan};
use super::read_cluster::{LiveStart, live_start};
use super::scan::footer;
use crate::cli::ScanFormat;
use crate::cluster::diagnose::Plans;
use crate::cluster::fleet::{self, Deadline};
use crate::cluster::progress::Progress;
use crate::cluster::{self, diagnose};
use crate::error::{Error, exit};
use crate::term::emit;
use crate::term::progress::{self, PROGRESS_DELAY, thousands};
use crate::term::scan_table::{Row, table};

/// A context that could not be read, and why (one line).
pub(super) fn failed(context: &str, e: &Error) -> ContextSummary {
    ContextSummary::failed(context, fleet::one_line(e))
}

/// One context's scan: its summary, its notes (already naming the context) and its results.
struct ContextScan {
    summary: ContextSummary,
    notes: Vec<String>,
    diagnosed: Vec<Diagnosed>,
}

/// A note of one context, in a report about several. The name is shown on one line: notes
/// are printed as text, which keeps line breaks.
pub(super) fn context_note(context: &str, note: &str) -> String {
    format!("context {}: {note}", fleet::shown(context))
}

/// A CronJob's JSON fragment with its context first ([`doctor::render::fleet::fragment`]).
pub(super) fn fragment_in_context(context: &str, report: &CronJobReport) -> String {
    doctor::render::fleet::fragment(context, report)
}

/// The report frame of a fleet ([`doctor::render::fleet::frame`]), `cronJobs` still empty;
/// without a readable context, `now` and `kubeVersion` are the flags', else the local clock
/// and the newest release.
pub(super) fn fleet_frame<F>(
    summaries: &[ContextSummary],
    notes: Vec<String>,
    plan: &Plan<F>,
) -> String {
    doctor::render::fleet::frame(
        summaries,
        notes,
        &plan.zone.name,
        plan.instant.given().unwrap_or_else(Timestamp::now),
        plan.version.given().unwrap_or(KubeVersion::NEWEST),
    )
}

/// A report about several contexts exits 2 when any context could not be read, else 1 when
/// any CronJob has an error, else 0.
pub(super) fn exit_code(unread: bool, errors: bool) -> i32 {
    if unread {
        exit::TROUBLE
    } else if errors {
        exit::FINDINGS
    } else {
        exit::OK
    }
}

/// One scan across contexts: the plan every context shares, checked once before any
/// cluster is contacted.
struct FleetScan<'a> {
    p: &'a ScanPlan,
    f: &'a Fleet,
    /// More than one context: rows get a CONTEXT column.
    several: bool,
    /// Contexts read at once: each one's diagnosis gets that share of the cores.
    at_once: usize,
}

pub(super) fn scan(p: &ScanPlan, f: &Fleet, started: Instant) -> Result<i32, Error> {
    let contexts = &f.contexts;
    let shared = FleetScan {
        p,
        f,
        several: contexts.len() > 1,
        at_once: contexts.len().clamp(1, fleet::PARALLEL_CONTEXTS),
    };
    let text = p.plan.output.format != ScanFormat::Json;
    let listed = Arc::new(Progress::default());
    let (done, finished) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let status = {
        let (listed, done, finished) = (listed.clone(), done.clone(), finished.clone());
        let total = contexts.len();
        Arc::new(move || {
            format!(
                "{} of {total} contexts read · {} · diagnosed {}",
                finished.load(Ordering::Relaxed),
                progress::listed(&listed),
                thousands(done.load(Ordering::Relaxed))
            )
        })
    };
    let display = progress::Display::start(text, PROGRESS_DELAY, status);
    let rt = cluster::runtime()?;
    let results = fleet::each(contexts, |name| {
        let r = scan_context(&shared, &rt, name, &listed, &done);
        finished.fetch_add(1, Ordering::Relaxed);
        r
    });
    let results: Vec<ContextScan> = contexts
        .iter()
        .zip(results)
        .map(|(name, r)| {
            r.unwrap_or_else(|e| ContextScan {
                summary: failed(name, &e),
                notes: Vec::new(),
                diagnosed: Vec::new(),
            })
        })
        .collect();
    drop(rt);
    display.finish();
    report(&shared, results, started)
}

/// Read and diagnose one context within its deadline.
fn scan_context(
    s: &FleetScan<'_>,
    rt: &tokio::runtime::Runtime,
    name: &str,
    listed: &Arc<Progress>,
    done: &AtomicUsize,
) -> Result<ContextScan, Error> {
    let plan = &s.p.plan;
    let deadline = Deadline::starting_now(s.f.context_timeout);
    let kube = fleet::for_context(&s.f.kube, name, deadline);
    // Retry notices would interleave between contexts without saying which: the final
    // error of a context says it all.
    let LiveStart {
        api,
        namespace: ns,
        server_version,
    } = rt.block_on(fleet::within(
        deadline,
        live_start(&kube, false, &plan.select),
    ))?;
    // This cluster's clock and version: skew and replay are per cluster.
    let (at, notes_after) = plan.settle_live(server_version, cluster::server_now(&api));
    let opts = plan.options(at);
    let json = plan.output.format == ScanFormat::Json;
    let how = Shape {
        form: if json {
            Form::Json
        } else {
            Form::Table {
                wide: plan.output.format == ScanFormat::Wide,
            }
        },
        only_problems: s.p.only_problems,
        context: Some(Context {
            name,
            now: at.now,
            column: s.several,
        }),
    };
    let shape = |cj: &CronJob, r: CronJobReport| scan_entries::shape(cj, r, &how);
    // The contexts share the machine: each gets a share of the cores for its diagnosis.
    let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
    let threads = cores.div_ceil(s.at_once).max(1);
    // The table never shows fix plans: only the JSON report gets them verified.
    let plans = if json {
        Plans::Verified
    } else {
        Plans::Skipped
    };
    let (outcome, diagnosed) = diagnose::pipeline(threads, &opts, plans, &shape, done, |submit| {
        rt.block_on(fleet::within(deadline, async {
            cluster::scan::scan(&api, ns.as_deref(), listed.clone(), submit)
                .await
                .map_err(|(what, e)| Error::from(cluster::failure(&api, &what, &e)))
        }))
    });
    let mut notes = outcome?;
    notes.extend(notes_after);
    // Each cluster has its own controller: its lag is said per context.
    let lagging: Vec<(String, i64)> = diagnosed
        .iter()
        .filter_map(|d| d.controller_lag.clone())
        .collect();
    notes.extend(doctor::rules::late_start::lagging_controller_note(&lagging));
    Ok(ContextScan {
        summary: ContextSummary {
            context: name.to_string(),
            namespace: ns,
            now: Some(at.now),
            version: Some(at.version),
            cron_jobs: Some(diagnosed.len()),
            error: None,
        },
        notes: notes.iter().map(|n| context_note(name, n)).collect(),
        diagnosed,
    })
}

/// The one report of the fleet, and its exit code: 2 when any context could not be read,
/// else 1 when any CronJob has an error, else 0.
fn report(s: &FleetScan<'_>, results: Vec<ContextScan>, started: Instant) -> Result<i32, Error> {
    let plan = &s.p.plan;
    let failed = results.iter().filter(|c| c.summary.error.is_some()).count();
    let mut notes = Vec::new();
    let mut summaries = Vec::new();
    let mut all = Vec::new();
    for c in results {
        notes.extend(c.notes);
        summaries.push(c.summary);
        all.push(c.diagnosed);
    }
    let diagnosed: Vec<Diagnosed> = all.into_iter().flatten().collect();
    let code = exit_code(
        failed > 0,
        diagnosed.iter().any(|d| d.health == Health::Error),
    );
    if plan.output.format == ScanFormat::Json {
        let fragments: Vec<String> = diagnosed
            .into_iter()
            .filter_map(|d| match d.out {
                Some(Entry::Json(j)) => Some(j),
                _ => None,
            })
            .collect();
        let head = fleet_frame(&summaries, notes, plan);
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = write_json_around(&mut out, &head, &fragments);
        let _ = out.flush();
        return Ok(code);
    }
    let scanned = diagnosed.len();
    let attention = diagnosed.iter().filter(|d| d.health != Health::Ok).count();
    let mut rows: Vec<Row> = diagnosed
        .into_iter()
        .filter_map(|d| match d.out {
            Some(Entry::Row(r)) => Some(*r),
            _ => None,
        })
        .collect();
    // Worst first across clusters; among equals the contexts in the order asked, then
    // namespace and name, as a single-cluster table.
    let shown: Vec<String> = summaries.iter().map(|c| fleet::shown(&c.context)).collect();
    rows.sort_by_cached_key(|r| {
        let context = r
            .context
            .as_ref()
            .and_then(|c| shown.iter().position(|s| s == c));
        (
            std::cmp::Reverse(r.health),
            context,
            r.namespace.clone(),
            r.name.clone(),
        )
    });
    let mut out = String::new();
    for n in &notes {
        out.push_str(&format!("note: {}\n", doctor::report::visible::text(n)));
    }
    let now = summaries
        .iter()
        .find_map(|c| c.now)
        .or(plan.instant.given())
        .unwrap_or_else(Timestamp::now);
    if !rows.is_empty() {
        out.push_str(&table(
            &rows,
            now,
            // Each context has its own default namespace: without -n, rows need theirs.
            plan.select.all_namespaces || plan.select.namespace.is_none(),
            plan.output.format == ScanFormat::Wide,
            plan.output.color,
        ));
        out.push('\n');
    }
    let read = summaries.len() - failed;
    let place = match &plan.select.namespace {
        Some(ns) => format!(" in namespace {ns}"),
        None => String::new(),
    };
    let contexts = format!("{read} context{}", if read == 1 { "" } else { "s" });
    let unread = if failed > 0 {
        format!(
            "; {failed} of {} contexts could not be read",
            summaries.len()
        )
    } else {
        String::new()
    };
    out.push_str(&footer(
        scanned,
        attention,
        &format!("{place} in {contexts}"),
        &unread,
        started,
    ));
    // The contexts that could not be read, on stderr before the report (a reader of a long
    // table sees the footer's pointer to them).
    for c in &summaries {
        if let Some(e) = &c.error {
            eprintln!("error: context {}: {e}", fleet::shown(&c.context));
        }
    }
    emit(&out);
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn the_fragments_go_into_the_fleet_frame_where_cron_jobs_is() {
        let dead = [ContextSummary::failed("dead", "no answer".into())];
        let crate::cli::Command::Scan(a) =
            <crate::cli::Cli as clap::Parser>::parse_from(["kubectl-cronjob_doctor", "scan"])
                .command
        else {
            unreachable!()
        };
        let p = super::super::plan::scan(&a).unwrap();
        let head = fleet_frame(&dead, vec!["a note".into()], &p.plan);
        let mut out = Vec::new();
        write_json_around(&mut out, &head, &["    {\"x\": 1}".into()]).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["cronJobs"], json!([{"x": 1}]));
        assert_eq!(v["errors"][0]["context"], "dead");
        assert_eq!(v["notes"], json!(["a note"]));
    }
}
