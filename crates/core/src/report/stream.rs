//! The report's JSON written straight to a writer. For a big input the JSON is several times
//! the input's size; building it as one `String` first, as `render::json::render` does, more
//! than doubled the peak memory (BENCHMARKS.md, "Big inputs: peak memory"). The
//! bytes are the same as that renderer's.
//!
//! [`write_json_each`] goes one step further for `lint` and `explain -f`: it builds each
//! CronJob's report only when the writer reaches it and drops it once written, so the whole
//! report never exists at once.

use std::cell::RefCell;
use std::io::Write;

use jiff::Timestamp;
use serde::{Serialize, Serializer, ser::SerializeSeq};

use super::{CronJobReport, InputError, Report};

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
    cron_jobs: impl ExactSizeIterator<Item = CronJobReport>,
    seen: impl FnMut(&CronJobReport),
    out: impl Write,
) -> std::io::Result<()> {
    let streamed = Streamed {
        schema_version: header.schema_version,
        now: &header.now,
        kube_version: &header.kube_version,
        controller_time_zone: &header.controller_time_zone,
        cron_jobs: Lazy(RefCell::new(Some((cron_jobs, seen)))),
        errors: &header.errors,
        notes: &header.notes,
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let written = serde_json::to_writer_pretty(&mut out, &streamed)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if written.is_err()
        && let Some((rest, mut seen)) = streamed.cron_jobs.0.borrow_mut().take()
    {
        rest.for_each(|cj| seen(&cj));
    }
    written
}

/// [`Report`]'s fields in [`Report`]'s order and names, with the CronJobs produced while
/// writing. The same-bytes test below fails if the two drift apart.
#[derive(Serialize)]
#[serde(rename_all = "camelCase", bound = "Lazy<I, F>: Serialize")]
struct Streamed<'r, I, F> {
    schema_version: u32,
    now: &'r Timestamp,
    kube_version: &'r str,
    controller_time_zone: &'r str,
    cron_jobs: Lazy<I, F>,
    errors: &'r [InputError],
    notes: &'r [String],
}

/// A sequence serialised by pulling from an iterator (taken on first use; `Serialize` only
/// gets `&self`).
struct Lazy<I, F>(RefCell<Option<(I, F)>>);

impl<I, F> Serialize for Lazy<I, F>
where
    I: ExactSizeIterator<Item = CronJobReport>,
    F: FnMut(&CronJobReport),
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The iterator stays in the cell while it is drained, so that after a write error the
        // caller can take the rest (see `write_json_each`).
        let mut cell = self.0.borrow_mut();
        let Some((items, seen)) = cell.as_mut() else {
            return serializer.serialize_seq(Some(0))?.end();
        };
        let mut seq = serializer.serialize_seq(Some(items.len()))?;
        for item in items.by_ref() {
            seen(&item);
            seq.serialize_element(&item)?;
        }
        drop(cell);
        self.0.borrow_mut().take();
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_as_the_renderer() {
        let yaml = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a, namespace: ops}\nspec:\n  schedule: '0 3 * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n";
        let (snapshot, _) = crate::source::parse_bytes("a.yaml", yaml.as_bytes()).into_snapshot();
        let zone = jiff::tz::TimeZone::UTC;
        let opts = super::super::Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: crate::replay::KubeVersion::NEWEST,
            timeline: 8,
            severities: crate::config::NO_OVERRIDES,
        };
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
        let zone = jiff::tz::TimeZone::UTC;
        let opts = super::super::Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: crate::replay::KubeVersion::NEWEST,
            timeline: 8,
            severities: crate::config::NO_OVERRIDES,
        };
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
        let zone = jiff::tz::TimeZone::UTC;
        let opts = super::super::Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: crate::replay::KubeVersion::NEWEST,
            timeline: 8,
            severities: crate::config::NO_OVERRIDES,
        };
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
}
