//! The report's JSON written straight to a writer. For a big input the JSON is several times
//! the input's size; building it as one `String` first, as `render::json::render` does, more
//! than doubled the peak memory (BENCHMARKS.md, "Big inputs: peak memory"). The bytes are the
//! same as that renderer's.
//!
//! [`JsonStream`] writes the document as its CronJobs' fragments ([`json_fragment`]) arrive:
//! `scan` hands them on as the namespaces are diagnosed, and [`write_json_each`] (`lint`,
//! `explain -f`, the monitor's `/report`) builds each CronJob's report only when the writer
//! reaches it and drops it once written, so the whole report never exists at once.

use std::io::Write;

use super::{CronJobReport, Report};

/// Writes `report` as pretty JSON plus a final newline, through a buffer. A closed pipe
/// (`| head`) ends the output quietly, like every other output of the tool.
pub fn write_json(report: &Report, out: impl Write) {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let _ = serde_json::to_writer_pretty(&mut out, report)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
}

/// Writes the report made of `header` (a [`super::header`], `cron_jobs` empty) and the
/// CronJob reports `cron_jobs` yields, with the same bytes [`write_json`] writes for the
/// whole report. Each CronJob's report is shown to `seen` after it is written, then dropped.
/// If writing fails (a closed pipe, a full disk), the CronJobs not written yet are still built
/// and shown to `seen`, so the caller's verdict (exit code) does not depend on how much of the
/// output was read; the error is returned.
pub fn write_json_each(
    header: &Report,
    cron_jobs: impl Iterator<Item = CronJobReport>,
    mut seen: impl FnMut(&CronJobReport),
    out: impl Write,
) -> std::io::Result<()> {
    // Serialising plain data cannot fail; without its `cronJobs` the frame is written whole.
    let head = serde_json::to_string_pretty(header).unwrap_or_else(|_| "{}".into()) + "\n";
    let mut s = JsonStream::new(std::io::BufWriter::with_capacity(1 << 16, out), &head);
    for cj in cron_jobs {
        if !s.failed() {
            s.fragment(&json_fragment(&cj));
        }
        seen(&cj);
    }
    s.finish(&head)
}

/// One CronJob's report (or a value holding one: a fleet's entry, headed by its context) as it
/// sits inside the report's `cronJobs` array: pretty-printed as the renderer prints the whole
/// report (two spaces a level), two levels deep. Written indented as it is serialised
/// ([`Nested`]): indenting serde_json's own text afterwards (`str::replace` on every newline)
/// showed in `scan -A -o json`'s profile.
pub fn json_fragment<T: serde::Serialize + ?Sized>(r: &T) -> String {
    nested(r)
}

/// `value` pretty-printed two levels deep (see [`json_fragment`]).
fn nested<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // A CronJob's report is a few KB: one allocation mostly.
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
pub fn write_json_around(
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
pub struct JsonStream<W: Write> {
    out: W,
    /// The frame's text before `"cronJobs": []`; None if it had no such list (not a frame).
    before: Option<String>,
    written: usize,
    /// The first write error (a closed pipe): nothing more is written after it.
    failed: Option<std::io::Error>,
}

impl<W: Write> JsonStream<W> {
    /// `head`: a rendered frame, its `cronJobs` empty (its notes do not matter here).
    pub fn new(out: W, head: &str) -> Self {
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
    pub fn fragment(&mut self, fragment: &str) {
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

    /// Whether a write failed: what comes after is not written.
    pub fn failed(&self) -> bool {
        self.failed.is_some()
    }

    /// The end of the document: `head` is the final rendered frame (with the notes), its
    /// `cronJobs` empty; written whole when no fragment came.
    pub fn finish(mut self, head: &str) -> std::io::Result<()> {
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
    use super::super::InputError;
    use super::*;

    #[test]
    fn same_bytes_as_the_renderer() {
        let yaml = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a, namespace: ops}\nspec:\n  schedule: '0 3 * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n";
        let (snapshot, _) = crate::source::parse_bytes("a.yaml", yaml.as_bytes()).into_snapshot();
        let opts = super::super::Options::utc(
            "2026-11-20T12:00:00Z".parse().unwrap(),
            crate::replay::KubeVersion::NEWEST,
            8,
        );
        let r = super::super::build(&snapshot, Vec::new(), &opts);
        let mut out = Vec::new();
        write_json(&r, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            crate::render::json::render(&r)
        );
    }

    #[test]
    fn streamed_cron_jobs_give_the_same_bytes_as_the_whole_report() {
        // Several CronJobs (one healthy, one with findings and a fix plan), a load note and
        // an input error: every part of the header and the sequence.
        let yaml = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a, namespace: ops}\nspec:\n  schedule: '0 3 * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: b}\nspec:\n  schedule: '30 2 * * *'\n  timeZone: Europe/Berlin\n  startingDeadlineSeconds: 5\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Always, containers: [{name: c, image: i}]}}}}\n";
        let (snapshot, _) = crate::source::parse_bytes("a.yaml", yaml.as_bytes()).into_snapshot();
        assert_eq!(snapshot.cron_jobs.len(), 2);
        assert!(!snapshot.notes.is_empty());
        let errors = vec![InputError {
            file: "b.yaml".into(),
            line: 3,
            column: 1,
            message: "invalid YAML".into(),
        }];
        let opts = super::super::Options::utc(
            "2026-11-20T12:00:00Z".parse().unwrap(),
            crate::replay::KubeVersion::NEWEST,
            8,
        );
        let whole = super::super::build(&snapshot, errors.clone(), &opts);
        assert!(whole.cron_jobs.iter().any(|c| c.fix.patch.is_some()));
        let header = super::super::header(&snapshot, errors, &opts);
        let mut names = Vec::new();
        let mut out = Vec::new();
        write_json_each(
            &header,
            super::super::cron_job_reports(&snapshot, &opts),
            |c| names.push(c.name.clone()),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            crate::render::json::render(&whole)
        );
        assert_eq!(names, ["a", "b"]);

        // No CronJobs at all: `[]`, as for an empty Vec.
        let empty = crate::model::Snapshot::default();
        let mut out = Vec::new();
        let header = super::super::header(&empty, Vec::new(), &opts);
        write_json_each(
            &header,
            super::super::cron_job_reports(&empty, &opts),
            |_| {},
            &mut out,
        )
        .unwrap();
        let whole = super::super::build(&empty, Vec::new(), &opts);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            crate::render::json::render(&whole)
        );
    }

    /// A writer that fails once it has taken `left` bytes (a closed pipe, a full disk).
    struct FailsAfter {
        left: usize,
    }

    impl std::io::Write for FailsAfter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_cron_job_is_seen_even_when_the_output_breaks_early() {
        let one = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: NAME, namespace: ops}\nspec:\n  schedule: '0 3 * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n";
        let yaml: String = (0..200)
            .map(|i| one.replace("NAME", &format!("cj-{i:03}")))
            .collect::<Vec<_>>()
            .join("---\n");
        let (snapshot, _) = crate::source::parse_bytes("a.yaml", yaml.as_bytes()).into_snapshot();
        let opts = super::super::Options::utc(
            "2026-11-20T12:00:00Z".parse().unwrap(),
            crate::replay::KubeVersion::NEWEST,
            8,
        );
        let header = super::super::header(&snapshot, Vec::new(), &opts);
        let mut seen = 0;
        let written = write_json_each(
            &header,
            super::super::cron_job_reports(&snapshot, &opts),
            |_| seen += 1,
            FailsAfter { left: 100 },
        );
        assert!(written.is_err());
        assert_eq!(seen, 200, "the verdict covers every CronJob");
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
