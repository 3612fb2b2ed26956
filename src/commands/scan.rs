//! `scan [-n NS | -A]`: every CronJob of a namespace or of the cluster, diagnosed namespace by
//! namespace while the lists are still arriving, as a table worst first (or the report JSON,
//! in namespace/name order).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use doctor::model::CronJob;
use doctor::report::{CronJobReport, Health, Options, Report};

use super::report_cmd::{LiveStart, live_replay_flags, live_start};
use crate::cli::{ScanArgs, ScanFormat};
use crate::cluster::progress::Progress;
use crate::cluster::{self, diagnose};
use crate::error::Error;
use crate::error::exit;
use crate::term::progress::{self, PROGRESS_DELAY, thousands};
use crate::term::scan_table::{Row, table};
use crate::term::{emit, use_color};

/// One CronJob's result as the output needs it: its health for the footer and the exit code,
/// and (unless filtered out) its table row or JSON fragment.
pub(super) struct Diagnosed {
    pub(super) health: Health,
    pub(super) out: Option<Out>,
}

pub(super) enum Out {
    Row(Box<Row>),
    Json(String),
}

pub fn run(a: &ScanArgs) -> Result<i32, Error> {
    let started = Instant::now();
    if let Some(contexts) = cluster::fleet::contexts(&a.kube, &a.fleet)? {
        return super::fleet::scan(a, &contexts, started);
    }
    let flags = live_replay_flags(&a.replay)?;
    let text = a.output != ScanFormat::Json;

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
    let prepared = rt.block_on(live_start(
        &a.kube,
        text,
        a.namespace.as_deref(),
        a.all_namespaces,
    ));
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
    let (version, now, notes_after) = flags.settle(server_version, cluster::server_now(&api));
    let opts = Options {
        now,
        controller_zone_name: &a.replay.controller_time_zone,
        controller_zone: &flags.zone,
        version,
        timeline: a.timeline,
    };
    let (json, wide, only_problems) = (
        a.output == ScanFormat::Json,
        a.output == ScanFormat::Wide,
        a.only_problems,
    );
    let shape = |cj: &CronJob, r: CronJobReport| -> Diagnosed {
        let health = r.health;
        let out = (!only_problems || health != Health::Ok).then(|| {
            if json {
                Out::Json(json_fragment(&r))
            } else {
                Out::Row(Box::new(Row::new(cj, &r, wide)))
            }
        });
        Diagnosed { health, out }
    };
    let threads = std::thread::available_parallelism().map_or(1, |p| p.get());
    let (outcome, diagnosed) = diagnose::pipeline(threads, &opts, &shape, &done, |submit| {
        rt.block_on(cluster::scan::scan(
            &api,
            ns.as_deref(),
            listed.clone(),
            submit,
        ))
    });
    drop(rt);
    display.finish();
    let mut notes = outcome.map_err(|(what, e)| Error::Api(cluster::failure(&api, &what, &e)))?;
    notes.extend(notes_after);

    let scanned = diagnosed.len();
    let attention = diagnosed.iter().filter(|d| d.health != Health::Ok).count();
    let code = if diagnosed.iter().any(|d| d.health == Health::Error) {
        exit::FINDINGS
    } else {
        exit::OK
    };
    if json {
        let fragments: Vec<String> = diagnosed
            .into_iter()
            .filter_map(|d| match d.out {
                Some(Out::Json(j)) => Some(j),
                _ => None,
            })
            .collect();
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = write_json(&mut out, &diagnose::frame(notes, &opts), &fragments);
        return Ok(code);
    }
    let mut rows: Vec<Row> = diagnosed
        .into_iter()
        .filter_map(|d| match d.out {
            Some(Out::Row(r)) => Some(*r),
            _ => None,
        })
        .collect();
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
            now,
            a.all_namespaces,
            wide,
            use_color(a.replay.color),
        ));
        out.push('\n');
    }
    let place = ns
        .as_ref()
        .map(|ns| format!(" in namespace {ns}"))
        .unwrap_or_default();
    let secs = started.elapsed().as_secs_f64();
    out.push_str(&if scanned == 0 {
        format!("No CronJobs{place} (scanned in {secs:.1}s)\n")
    } else {
        format!(
            "{attention} of {} CronJob{}{place} need{} attention (scanned in {secs:.1}s)\n",
            thousands(scanned),
            if scanned == 1 { "" } else { "s" },
            if attention == 1 { "s" } else { "" },
        )
    });
    emit(&out);
    Ok(code)
}

/// One CronJob's report as it sits inside the report's `cronJobs` array (pretty-printed, two
/// levels deep). JSON strings never contain a raw newline, so indenting lines is safe.
pub(super) fn json_fragment(r: &CronJobReport) -> String {
    let text = serde_json::to_string_pretty(r).unwrap_or_else(|_| "{}".into());
    format!("    {}", text.replace('\n', "\n    "))
}

/// The report JSON from its frame and the CronJob fragments, written piece by piece: the
/// same bytes as `render::json` on the whole report, without ever holding it all at once.
pub(super) fn write_json(
    out: &mut impl Write,
    frame: &Report,
    fragments: &[String],
) -> std::io::Result<()> {
    write_json_around(out, &doctor::render::json::render(frame), fragments)
}

/// The rendered frame `head` (its `cronJobs` empty) with `fragments` written into it.
pub(super) fn write_json_around(
    out: &mut impl Write,
    head: &str,
    fragments: &[String],
) -> std::io::Result<()> {
    const EMPTY: &str = "\"cronJobs\": []";
    match (fragments.is_empty(), head.split_once(EMPTY)) {
        (false, Some((before, after))) => {
            out.write_all(before.as_bytes())?;
            out.write_all(b"\"cronJobs\": [\n")?;
            for (i, f) in fragments.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",\n")?;
                }
                out.write_all(f.as_bytes())?;
            }
            out.write_all(b"\n  ]")?;
            out.write_all(after.as_bytes())?;
        }
        _ => out.write_all(head.as_bytes())?,
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_from_fragments_is_byte_identical_to_the_renderer() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let loaded = crate::input::load_paths(&[dir.display().to_string()]);
        let (mut snapshot, _) = loaded.into_snapshot();
        snapshot.notes.push("a note".into());
        let zone = jiff::tz::TimeZone::UTC;
        let opts = Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: doctor::replay::KubeVersion::NEWEST,
            timeline: 8,
        };
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
}
