//! `scan [-n NS | -A]`: every CronJob of a namespace or of the cluster, diagnosed namespace by
//! namespace while the lists are still arriving, as a table worst first (or the report JSON,
//! in namespace/name order).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use doctor::model::CronJob;
use doctor::render::scan_entries::{self, Diagnosed, Entry, Form, Shape};
use doctor::report::stream::JsonStream;
use doctor::report::{CronJobReport, Health};

use super::plan::{self, ScanPlan, Source};
use super::read_cluster::{LiveStart, live_start};
use crate::cli::{KubeArgs, ScanArgs, ScanFormat};
use crate::cluster::diagnose::Plans;
use crate::cluster::progress::Progress;
use crate::cluster::{self, diagnose};
use crate::error::Error;
use crate::error::exit;
use crate::term::emit;
use crate::term::progress::{self, PROGRESS_DELAY, thousands};
use crate::term::scan_table::{Row, table};

pub fn run(a: &ScanArgs) -> Result<i32, Error> {
    let started = Instant::now();
    let p = plan::scan(a)?;
    match &p.plan.source {
        Source::Fleet(f) => super::fleet::scan(&p, f, started),
        Source::Cluster(kube) => one_cluster(&p, kube, started),
        Source::Files(_) => unreachable!("plan::scan reads a cluster or a fleet"),
    }
}

/// Scan one cluster: read it namespace by namespace, diagnose as the lists arrive, then the
/// table or the rest of the streamed JSON.
fn one_cluster(p: &ScanPlan, kube: &KubeArgs, started: Instant) -> Result<i32, Error> {
    let plan = &p.plan;
    let text = plan.output.format != ScanFormat::Json;

    let listed = Arc::new(Progress::default());
    let done = Arc::new(AtomicUsize::new(0));
    let status = {
        let (listed, done) = (listed.clone(), done.clone());
        Arc::new(move || {
            format!(
                "{} · diagnosed {}",
                progress::listed(&listed),
                thousands(done.load(Ordering::Relaxed))
            )
        })
    };
    let display = progress::Display::start(text, PROGRESS_DELAY, status);
    let rt = cluster::runtime()?;
    let prepared = rt.block_on(live_start(kube, text, &plan.select));
    let LiveStart {
        api,
        namespace: ns,
        server_version,
    } = match prepared {
        Ok(p) => p,
        Err(e) => {
            display.finish();
            return Err(e);
        }
    };
    // "Now" is fixed before the first namespace is diagnosed: the server's clock at /version.
    let (at, notes_after) = plan.settle_live(server_version, cluster::server_now(&api));
    let opts = plan.options(at);
    let (json, wide) = (
        plan.output.format == ScanFormat::Json,
        plan.output.format == ScanFormat::Wide,
    );
    let how = Shape {
        form: if json {
            Form::Json
        } else {
            Form::Table { wide }
        },
        only_problems: p.only_problems,
        context: None,
    };
    let shape = |cj: &CronJob, r: CronJobReport| scan_entries::shape(cj, r, &how);
    let threads = std::thread::available_parallelism().map_or(1, |p| p.get());
    // The JSON report is written while the scan goes on: each CronJob's fragment as soon as it
    // and those before it are diagnosed (namespaces are diagnosed in key order), so memory
    // holds a few namespaces' fragments instead of the cluster's. The frame's fields before
    // `cronJobs` (schema, now, version, zone) are known already; the notes, which come
    // after, are written at the end. The table is sorted worst first, so its rows are kept.
    let mut healths: Vec<Health> = Vec::new();
    let mut lagging: Vec<(String, i64)> = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut streamed = json.then(|| {
        let head = doctor::render::json::render(&diagnose::frame(Vec::new(), &opts));
        JsonStream::new(
            std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()),
            &head,
        )
    });
    let outcome = {
        let mut each = |d: Diagnosed| {
            healths.push(d.health);
            lagging.extend(d.controller_lag);
            match d.out {
                Some(Entry::Json(j)) => {
                    if let Some(s) = streamed.as_mut() {
                        s.fragment(&j);
                    }
                }
                Some(Entry::Row(r)) => rows.push(*r),
                None => {}
            }
        };
        // The table never shows fix plans: only the JSON report gets them verified.
        let plans = if json {
            Plans::Verified
        } else {
            Plans::Skipped
        };
        diagnose::pipeline_each(threads, &opts, plans, &shape, &done, &mut each, |submit| {
            rt.block_on(cluster::scan::scan(
                &api,
                ns.as_deref(),
                listed.clone(),
                submit,
            ))
        })
    };
    drop(rt);
    display.finish();
    // A failure after some namespaces were written leaves the document unfinished (not valid
    // JSON) next to the error and exit code 2: never a complete-looking report missing
    // CronJobs.
    let mut notes = outcome.map_err(|(what, e)| cluster::failure(&api, &what, &e))?;
    notes.extend(notes_after);
    notes.extend(doctor::rules::late_start::lagging_controller_note(&lagging));

    let scanned = healths.len();
    let attention = healths.iter().filter(|h| **h != Health::Ok).count();
    let code = if healths.contains(&Health::Error) {
        exit::FINDINGS
    } else {
        exit::OK
    };
    if let Some(s) = streamed {
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = s.finish(&doctor::render::json::render(&diagnose::frame(
            notes, &opts,
        )));
        return Ok(code);
    }
    rows.sort_by(|x, y| {
        y.health
            .cmp(&x.health)
            .then_with(|| x.namespace.cmp(&y.namespace))
            .then_with(|| x.name.cmp(&y.name))
    });
    let mut out = String::new();
    for n in &notes {
        out.push_str(&format!("note: {}\n", doctor::report::visible::text(n)));
    }
    if !rows.is_empty() {
        out.push_str(&table(
            &rows,
            at.now,
            plan.select.all_namespaces,
            wide,
            plan.output.color,
        ));
        out.push('\n');
    }
    let place = ns
        .as_ref()
        .map(|ns| format!(" in namespace {ns}"))
        .unwrap_or_default();
    out.push_str(&footer(scanned, attention, &place, "", started));
    emit(&out);
    Ok(code)
}

/// The table's last line: how many of the `scanned` CronJobs (found `place`, e.g. ` in
/// namespace ops`) need attention, then `unread` (a fleet's contexts that could not be read)
/// and the time the scan took.
pub(super) fn footer(
    scanned: usize,
    attention: usize,
    place: &str,
    unread: &str,
    started: Instant,
) -> String {
    let secs = started.elapsed().as_secs_f64();
    if scanned == 0 {
        format!("No CronJobs{place}{unread} (scanned in {secs:.1}s)\n")
    } else {
        format!(
            "{attention} of {} CronJob{}{place} need{} attention{unread} (scanned in {secs:.1}s)\n",
            thousands(scanned),
            if scanned == 1 { "" } else { "s" },
            if attention == 1 { "s" } else { "" },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doctor::report::stream::{json_fragment, write_json_around};
    use doctor::report::{Options, Report};
    use std::io::Write;

    /// The report JSON from its frame and the CronJob fragments, written piece by piece: the
    /// same bytes as `render::json` on the whole report, without ever holding it all at once.
    fn write_json(
        out: &mut impl Write,
        frame: &Report,
        fragments: &[String],
    ) -> std::io::Result<()> {
        write_json_around(out, &doctor::render::json::render(frame), fragments)
    }

    #[test]
    fn json_from_fragments_is_byte_identical_to_the_renderer() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let loaded = crate::input::load_paths(&[dir.display().to_string()]);
        let (mut snapshot, _) = loaded.into_snapshot();
        snapshot.notes.push("a note".into());
        let opts = Options::utc(
            "2026-11-20T12:00:00Z".parse().unwrap(),
            doctor::replay::KubeVersion::NEWEST,
            8,
        );
        let whole = doctor::report::build(&snapshot, Vec::new(), &opts);
        let fragments: Vec<String> = whole.cron_jobs.iter().map(json_fragment).collect();
        for n in [fragments.len(), 1, 0] {
            let mut expected = doctor::report::build(&snapshot, Vec::new(), &opts);
            expected.cron_jobs.truncate(n);
            let mut out = Vec::new();
            write_json(
                &mut out,
                &diagnose::frame(snapshot.notes.clone(), &opts),
                &fragments[..n],
            )
            .unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                doctor::render::json::render(&expected)
            );
        }
    }
    #[test]
    fn streamed_json_is_byte_identical_to_the_whole_document() {
        // As `scan` writes it: the frame without notes at the start (the notes are only
        // known at the end), each fragment as it comes, the frame with its notes at the end.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let loaded = crate::input::load_paths(&[dir.display().to_string()]);
        let (snapshot, _) = loaded.into_snapshot();
        let zone = jiff::tz::TimeZone::UTC;
        let opts = Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: "Europe/Berlin",
            controller_zone: &zone,
            version: doctor::replay::KubeVersion::new(27),
            timeline: 8,
            severities: doctor::config::NO_OVERRIDES,
        };
        let notes = vec!["first \"note\"".to_string(), "second".to_string()];
        let mut whole = doctor::report::build(&snapshot, Vec::new(), &opts);
        whole.notes = notes.clone();
        assert!(whole.cron_jobs.len() > 2);
        let start = doctor::render::json::render(&diagnose::frame(Vec::new(), &opts));
        let end = doctor::render::json::render(&diagnose::frame(notes.clone(), &opts));
        for n in [whole.cron_jobs.len(), 1, 0] {
            let mut out = Vec::new();
            let mut s = JsonStream::new(&mut out, &start);
            for r in &whole.cron_jobs[..n] {
                s.fragment(&json_fragment(r));
            }
            s.finish(&end).unwrap();
            let mut expected = doctor::report::build(&snapshot, Vec::new(), &opts);
            expected.notes = notes.clone();
            expected.cron_jobs.truncate(n);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                doctor::render::json::render(&expected),
                "{n} CronJobs"
            );
        }
    }
}
