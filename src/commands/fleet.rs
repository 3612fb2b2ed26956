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
use doctor::replay::KubeVersion;
use doctor::report::{CronJobReport, Health, Options, Report};
use jiff::Timestamp;
use serde_json::{Value, json};

use super::report_cmd::{LiveReplayFlags, LiveStart, live_replay_flags, live_start};
use super::scan::{Diagnosed, Out, controller_lag_of, json_fragment, write_json_around};
use crate::cli::{ScanArgs, ScanFormat};
use crate::cluster::diagnose::Plans;
use crate::cluster::fleet::{self, Deadline};
use crate::cluster::progress::Progress;
use crate::cluster::{self, diagnose};
use crate::error::{Error, UsageError, exit};
use crate::term::progress::{self, PROGRESS_DELAY, thousands};
use crate::term::scan_table::{Row, table};
use crate::term::{emit, use_color};

/// What one context of the fleet was, for the report's `contexts[]` and its frame.
#[derive(Clone, Debug)]
pub(super) struct ContextSummary {
    pub context: String,
    /// The namespace read (None: all of them, or not read at all).
    pub namespace: Option<String>,
    /// The cluster's "now" and controller version (None when it could not be read).
    pub now: Option<Timestamp>,
    pub version: Option<KubeVersion>,
    pub cron_jobs: Option<usize>,
    /// Why it could not be read: one line.
    pub error: Option<String>,
}

impl ContextSummary {
    /// A context that could not be read, and why (one line).
    pub(super) fn failed(context: &str, e: &Error) -> ContextSummary {
        ContextSummary {
            context: context.to_string(),
            namespace: None,
            now: None,
            version: None,
            cron_jobs: None,
            error: Some(fleet::one_line(e)),
        }
    }
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

/// A CronJob's JSON fragment ([`json_fragment`]) with its context first.
pub(super) fn fragment_in_context(context: &str, r: &CronJobReport) -> String {
    let name = serde_json::to_string(context).unwrap_or_else(|_| "\"\"".into());
    json_fragment(r).replacen("{\n", &format!("{{\n      \"context\": {name},\n"), 1)
}

/// The flags every context shares, checked once before any cluster is contacted.
struct Shared<'a> {
    a: &'a ScanArgs,
    flags: LiveReplayFlags,
    /// More than one context: rows get a CONTEXT column.
    several: bool,
    /// Contexts read at once: each one's diagnosis gets that share of the cores.
    at_once: usize,
}

pub(super) fn scan(a: &ScanArgs, contexts: &[String], started: Instant) -> Result<i32, Error> {
    let flags = live_replay_flags(&a.replay)?;
    // A bad -n is one usage error, not the same failure once per context.
    if let Some(ns) = &a.namespace {
        doctor::names::namespace(ns).map_err(UsageError::InvalidName)?;
    }
    let shared = Shared {
        a,
        flags,
        several: contexts.len() > 1,
        at_once: contexts.len().clamp(1, fleet::PARALLEL_CONTEXTS),
    };
    let text = a.output != ScanFormat::Json;
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
                summary: ContextSummary::failed(name, &e),
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
    s: &Shared<'_>,
    rt: &tokio::runtime::Runtime,
    name: &str,
    listed: &Arc<Progress>,
    done: &AtomicUsize,
) -> Result<ContextScan, Error> {
    let a = s.a;
    let deadline = Deadline::starting_now(a.fleet.context_timeout);
    let kube = fleet::for_context(&a.kube, name, deadline);
    // Retry notices would interleave between contexts without saying which: the final
    // error of a context says it all.
    let LiveStart {
        api,
        namespace: ns,
        server_version,
    } = rt.block_on(fleet::within(
        deadline,
        live_start(&kube, false, a.namespace.as_deref(), a.all_namespaces),
    ))?;
    // This cluster's clock and version: skew and replay are per cluster.
    let (version, now, notes_after) = s.flags.settle(server_version, cluster::server_now(&api));
    let opts = Options {
        now,
        controller_zone_name: &a.replay.controller_time_zone,
        controller_zone: &s.flags.zone,
        version,
        // Only the JSON report shows a timeline; a table row never reads it.
        timeline: if a.output == ScanFormat::Json {
            a.timeline
        } else {
            0
        },
        severities: &a.config.settings.rules,
    };
    let (json, wide, only_problems, several) = (
        a.output == ScanFormat::Json,
        a.output == ScanFormat::Wide,
        a.only_problems,
        s.several,
    );
    let shape = |cj: &CronJob, r: CronJobReport| -> Diagnosed {
        let health = r.health;
        let out = (!only_problems || health != Health::Ok).then(|| {
            if json {
                Out::Json(fragment_in_context(name, &r))
            } else {
                let row = Row::new(cj, &r, wide);
                Out::Row(Box::new(if several {
                    row.in_context(name, now)
                } else {
                    row
                }))
            }
        });
        let controller_lag = controller_lag_of(&r);
        Diagnosed {
            health,
            out,
            controller_lag,
        }
    };
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
            now: Some(now),
            version: Some(version),
            cron_jobs: Some(diagnosed.len()),
            error: None,
        },
        notes: notes.iter().map(|n| context_note(name, n)).collect(),
        diagnosed,
    })
}

/// The one report of the fleet, and its exit code: 2 when any context could not be read,
/// else 1 when any CronJob has an error, else 0.
fn report(s: &Shared<'_>, results: Vec<ContextScan>, started: Instant) -> Result<i32, Error> {
    let a = s.a;
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
    let code = if failed > 0 {
        exit::TROUBLE
    } else if diagnosed.iter().any(|d| d.health == Health::Error) {
        exit::FINDINGS
    } else {
        exit::OK
    };
    if a.output == ScanFormat::Json {
        let fragments: Vec<String> = diagnosed
            .into_iter()
            .filter_map(|d| match d.out {
                Some(Out::Json(j)) => Some(j),
                _ => None,
            })
            .collect();
        let head = fleet_frame(
            &summaries,
            notes,
            &a.replay.controller_time_zone,
            s.flags.now,
            s.flags.version,
        );
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
            Some(Out::Row(r)) => Some(*r),
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
        .or(s.flags.now)
        .unwrap_or_else(Timestamp::now);
    if !rows.is_empty() {
        out.push_str(&table(
            &rows,
            now,
            // Each context has its own default namespace: without -n, rows need theirs.
            a.all_namespaces || a.namespace.is_none(),
            a.output == ScanFormat::Wide,
            use_color(a.replay.color),
        ));
        out.push('\n');
    }
    let read = summaries.len() - failed;
    let place = match &a.namespace {
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
    let secs = started.elapsed().as_secs_f64();
    out.push_str(&if scanned == 0 {
        format!("No CronJobs{place} in {contexts}{unread} (scanned in {secs:.1}s)\n")
    } else {
        format!(
            "{attention} of {} CronJob{}{place} in {contexts} need{} attention{unread} (scanned in {secs:.1}s)\n",
            thousands(scanned),
            if scanned == 1 { "" } else { "s" },
            if attention == 1 { "s" } else { "" },
        )
    });
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

/// The report frame of a fleet (rendered, `cronJobs` still empty): `now` and `kubeVersion` of
/// the first context that could be read (else `--now`/the local clock and `--kube-version`/
/// the newest), every context in `contexts[]`, and one `errors[]` entry per context that
/// could not be read.
pub(super) fn fleet_frame(
    summaries: &[ContextSummary],
    notes: Vec<String>,
    zone_name: &str,
    flag_now: Option<Timestamp>,
    flag_version: Option<KubeVersion>,
) -> String {
    let first = summaries.iter().find(|c| c.error.is_none());
    let zone = jiff::tz::TimeZone::UTC;
    let opts = Options {
        now: first
            .and_then(|c| c.now)
            .or(flag_now)
            .unwrap_or_else(Timestamp::now),
        controller_zone_name: zone_name,
        controller_zone: &zone,
        version: first
            .and_then(|c| c.version)
            .or(flag_version)
            .unwrap_or(KubeVersion::NEWEST),
        timeline: 0,
        severities: doctor::config::NO_OVERRIDES,
    };
    let frame: Report = diagnose::frame(notes, &opts);
    let head = doctor::render::json::render(&frame);
    let contexts: Vec<Value> = summaries
        .iter()
        .map(|c| {
            json!({
                "context": c.context,
                "namespace": c.namespace,
                "now": c.now.map(doctor::text::rfc3339),
                "kubeVersion": c.version.map(|v| v.to_string()),
                "cronJobs": c.cron_jobs,
                "error": c.error,
            })
        })
        .collect();
    let errors: Vec<Value> = summaries
        .iter()
        .filter_map(|c| {
            c.error
                .as_ref()
                .map(|e| json!({"context": c.context, "message": e}))
        })
        .collect();
    let pretty = |v: &Vec<Value>| {
        serde_json::to_string_pretty(v)
            .unwrap_or_else(|_| "[]".into())
            .replace('\n', "\n  ")
    };
    // The frame's `errors` is empty (nothing was read from files): the first `"errors": []`
    // at the top level is its key (a string's quotes would be escaped).
    head.replacen(
        "\n  \"errors\": []",
        &format!(
            "\n  \"contexts\": {},\n  \"errors\": {}",
            pretty(&contexts),
            pretty(&errors)
        ),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fleet_frame_names_every_context_and_each_failure() {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let summaries = vec![
            ContextSummary {
                context: "dead".into(),
                namespace: None,
                now: None,
                version: None,
                cron_jobs: None,
                error: Some("no answer \"quoted\"".into()),
            },
            ContextSummary {
                context: "prod".into(),
                namespace: Some("ops".into()),
                now: Some(now),
                version: Some("1.31.2".parse().unwrap()),
                cron_jobs: Some(3),
                error: None,
            },
        ];
        let head = fleet_frame(&summaries, vec!["a note".into()], "UTC", None, None);
        let v: Value = serde_json::from_str(&head).unwrap();
        assert_eq!(v["schemaVersion"], 1);
        assert_eq!(v["now"], "2026-11-20T12:00:00Z");
        assert_eq!(v["kubeVersion"], "1.31.2");
        assert_eq!(v["cronJobs"], json!([]));
        assert_eq!(
            v["errors"],
            json!([{"context": "dead", "message": "no answer \"quoted\""}])
        );
        assert_eq!(v["contexts"][1]["namespace"], "ops");
        assert_eq!(v["contexts"][1]["cronJobs"], 3);
        assert_eq!(v["contexts"][0]["error"], "no answer \"quoted\"");
        assert_eq!(v["notes"], json!(["a note"]));
        // The fragments still go where the renderer put `cronJobs`.
        let mut out = Vec::new();
        write_json_around(&mut out, &head, &["    {\"x\": 1}".into()]).unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["cronJobs"], json!([{"x": 1}]));
        assert_eq!(v["errors"][0]["context"], "dead");
    }
}
