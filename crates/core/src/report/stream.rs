//! The report's JSON written straight to a writer. For a big input the JSON is several times
//! the input's size (a 6 MB manifest gives 28 MB of `explain -o json`); building it as one
//! `String` first, as `render::json::render` does, more than doubled the peak memory. The
//! bytes are the same as that renderer's.
//!
//! [`write_json_each`] goes one step further for `lint` and `explain -f`: it builds each
//! CronJob's report only when the writer reaches it and drops it once written, so the whole
//! report never exists at once (issue 9: peak memory under 5x the input).

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
pub fn write_json_each(
    header: &Report,
    cron_jobs: impl ExactSizeIterator<Item = CronJobReport>,
    seen: impl FnMut(&CronJobReport),
    out: impl Write,
) {
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
    let _ = serde_json::to_writer_pretty(&mut out, &streamed)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
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
        let Some((items, mut seen)) = self.0.borrow_mut().take() else {
            return serializer.serialize_seq(Some(0))?.end();
        };
        let mut seq = serializer.serialize_seq(Some(items.len()))?;
        for item in items {
            seq.serialize_element(&item)?;
            seen(&item);
        }
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
        );
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
        );
        let whole = super::super::build(&empty, Vec::new(), &opts);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            crate::render::json::render(&whole)
        );
    }
}
