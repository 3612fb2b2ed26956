//! `scan [-n NS | -A]`: every CronJob of a namespace or of the cluster, diagnosed namespace by
//! namespace while the lists are still arriving, as a table worst first (or the report JSON,
//! in namespace/name order).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use doctor::model::CronJob;
use doctor::report::{CronJobReport, Health, Options};

use super::report_cmd::{LiveStart, live_replay_flags, live_start};
use crate::cli::{ScanArgs, ScanFormat};
use crate::cluster::diagnose::Plans;
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
    /// `namespace/name` and how late the controller created its newest Job, when that made
    /// the run late: several make one note ([`late_start::lagging_controller_note`]).
    pub(super) controller_lag: Option<(String, i64)>,
}

/// `namespace/name` and the controller's lag, for a CronJob whose newest run the controller
/// created late (see [`Diagnosed::controller_lag`]).
pub(super) fn controller_lag_of(r: &CronJobReport) -> Option<(String, i64)> {
    r.controller_lag_seconds
        .map(|s| (format!("{}/{}", r.namespace, r.name), s))
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
        // Only the JSON report shows a timeline; a table row never reads it.
        timeline: if a.output == ScanFormat::Json {
            a.timeline
        } else {
            0
        },
        severities: &a.config.settings.rules,
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
        let controller_lag = controller_lag_of(&r);
        Diagnosed {
            health,
            out,
            controller_lag,
        }
    };
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
                Some(Out::Json(j)) => {
                    if let Some(s) = streamed.as_mut() {
                        s.fragment(&j);
                    }
                }
                Some(Out::Row(r)) => rows.push(*r),
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

/// One CronJob's report as it sits inside the report's `cronJobs` array: pretty-printed as the
/// renderer prints the whole report (two spaces a level), two levels deep. Written indented
/// as it is serialised ([`Nested`]): indenting serde_json's own text afterwards
/// (`str::replace` on every newline) cost ~1.5 % of `scan -A -o json`'s CPU at 10,000
/// CronJobs.
pub(super) fn json_fragment(r: &CronJobReport) -> String {
    nested(r)
}

/// `value` pretty-printed two levels deep (see [`json_fragment`]).
fn nested<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // A CronJob's report is about 6 KB at the benchmark population: one allocation mostly.
    let mut out = Vec::with_capacity(8 << 10);
    out.extend_from_slice(INDENT);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Nested::default());
    if value.serialize(&mut ser).is_err() {
        return "    {}".into();
    }
    // serde_json writes UTF-8 only.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Two levels of the report's indentation: where a fragment's lines start.
const INDENT: &[u8] = b"    ";

/// serde_json's pretty layout (a value per line, two spaces a level, `"key": value`, empty
/// arrays and objects as `[]` and `{}`) with every line starting at [`INDENT`].
#[derive(Default)]
struct Nested {
    depth: usize,
    /// Whether the array or object being written has a value yet (its end goes on a line of
    /// its own then).
    has_value: bool,
}

impl Nested {
    /// A new line at the current depth, in one write where it fits (a write per piece cost
    /// as much as the rest of the layout).
    fn line<W: Write + ?Sized>(&self, w: &mut W) -> std::io::Result<()> {
        const LINE: &[u8; 64] =
            b"\n                                                               ";
        let width = 1 + INDENT.len() + 2 * self.depth;
        match LINE.get(..width) {
            Some(line) => w.write_all(line),
            None => {
                w.write_all(&LINE[..1 + INDENT.len()])?;
                (0..self.depth).try_for_each(|_| w.write_all(b"  "))
            }
        }
    }

    fn open<W: Write + ?Sized>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: Write + ?Sized>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: Write + ?Sized>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.line(w)
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: Write + ?Sized>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: Write + ?Sized>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: Write + ?Sized>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: Write + ?Sized>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: Write + ?Sized>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: Write + ?Sized>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: Write + ?Sized>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: Write + ?Sized>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: Write + ?Sized>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// The rendered frame `head` (its `cronJobs` empty) with `fragments` written into it.
pub(super) fn write_json_around(
    out: &mut impl Write,
    head: &str,
    fragments: &[String],
) -> std::io::Result<()> {
    let mut s = JsonStream::new(out, head);
    for f in fragments {
        s.fragment(f);
    }
    s.finish(head)
}

/// `"cronJobs": []` as the renderer writes an empty list: where the fragments go.
const EMPTY_CRON_JOBS: &str = "\"cronJobs\": []";

/// The report JSON written as its CronJob fragments arrive: the frame's text up to the
/// `cronJobs` list before the first fragment, the rest of the frame at the end. The frame's
/// fields before `cronJobs` (schema, now, version, zone) are known before the first
/// CronJob is diagnosed; those after it (errors, notes) are given to [`JsonStream::finish`].
/// The same bytes as the renderer on the whole report.
pub(super) struct JsonStream<W: Write> {
    out: W,
    /// The frame's text before `"cronJobs": []`; None if it had no such list (not a frame).
    before: Option<String>,
    written: usize,
    /// The first write error (a closed pipe): nothing more is written after it.
    failed: Option<std::io::Error>,
}

impl<W: Write> JsonStream<W> {
    /// `head`: a rendered frame, its `cronJobs` empty (its notes do not matter here).
    pub(super) fn new(out: W, head: &str) -> Self {
        JsonStream {
            out,
            before: head
                .split_once(EMPTY_CRON_JOBS)
                .map(|(before, _)| before.to_string()),
            written: 0,
            failed: None,
        }
    }

    /// One CronJob's fragment ([`json_fragment`]), after those given before it.
    pub(super) fn fragment(&mut self, fragment: &str) {
        let Some(before) = &self.before else { return };
        if self.failed.is_some() {
            return;
        }
        let first = self.written == 0;
        let wrote = (|| {
            if first {
                self.out.write_all(before.as_bytes())?;
                self.out.write_all(b"\"cronJobs\": [\n")?;
            } else {
                self.out.write_all(b",\n")?;
            }
            self.out.write_all(fragment.as_bytes())
        })();
        self.written += 1;
        if let Err(e) = wrote {
            self.failed = Some(e);
        }
    }

    /// The end of the document: `head` is the final rendered frame (with the notes), its
    /// `cronJobs` empty; written whole when no fragment came.
    pub(super) fn finish(mut self, head: &str) -> std::io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        match head.split_once(EMPTY_CRON_JOBS) {
            Some((_, after)) if self.written > 0 => {
                self.out.write_all(b"\n  ]")?;
                self.out.write_all(after.as_bytes())?;
            }
            _ => self.out.write_all(head.as_bytes())?,
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doctor::report::Report;

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
        let zone = jiff::tz::TimeZone::UTC;
        let opts = Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: doctor::replay::KubeVersion::NEWEST,
            timeline: 8,
            severities: doctor::config::NO_OVERRIDES,
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

    /// The fragment layout is serde_json's pretty one, two levels in, at any depth (deeper
    /// than a line of spaces reaches) and for empty arrays and objects.
    #[test]
    fn fragments_are_pretty_json_two_levels_in() {
        let mut v = serde_json::json!({"a": [1, {"b": []}, {}], "c": "x\ny", "d": null});
        for depth in 0..40 {
            v = serde_json::json!({"k": [v, depth], "e": {}});
        }
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        assert_eq!(
            nested(&v),
            format!("    {}", pretty.replace('\n', "\n    "))
        );
        assert_eq!(nested(&serde_json::json!([])), "    []");
    }

    /// Accepts `room` bytes, then fails as a closed pipe does.
    struct ClosesAfter {
        room: usize,
        got: Vec<u8>,
    }

    impl Write for ClosesAfter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_stops_the_stream_and_is_reported_at_the_end() {
        let head = "{\n  \"cronJobs\": [],\n  \"notes\": []\n}\n";
        let mut out = ClosesAfter {
            room: 20,
            got: Vec::new(),
        };
        let mut s = JsonStream::new(&mut out, head);
        for _ in 0..3 {
            s.fragment("    {\"x\": 1}");
        }
        let e = s.finish(head).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
        // What fitted, and nothing tried after the first failure.
        let mut whole = Vec::new();
        write_json_around(&mut whole, head, &vec!["    {\"x\": 1}".to_string(); 3]).unwrap();
        assert_eq!(out.got, whole[..20]);
    }
}
