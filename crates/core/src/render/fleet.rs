//! The report JSON of a fleet (`scan`/`explain` across several contexts, docs/json.md
//! "Several contexts"): the single-cluster document with `context` first in every
//! `cronJobs[]` entry, a `contexts[]` list, and one `errors[]` entry per context that could not
//! be read. Typed here so that the shape is written once; the shell streams the CronJob
//! fragments into the frame [`frame`] renders.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

use crate::replay::KubeVersion;
use crate::report::{self, CronJobReport, Options, Report};

/// What one context of the fleet was, for the report's `contexts[]` and its frame.
#[derive(Clone, Debug)]
pub struct ContextSummary {
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
    /// A context that could not be read, and why (`message`: one line).
    pub fn failed(context: &str, message: String) -> ContextSummary {
        ContextSummary {
            context: context.to_string(),
            namespace: None,
            now: None,
            version: None,
            cron_jobs: None,
            error: Some(message),
        }
    }
}

/// A CronJob's report headed by the context it was read from: `context` is its first key.
#[derive(Serialize)]
struct InContext<'a> {
    context: &'a str,
    #[serde(flatten)]
    report: &'a CronJobReport,
}

/// A CronJob's entry in the fleet's `cronJobs[]`, as [`crate::report::stream::json_fragment`]
/// writes it, with `context` first.
pub fn fragment(context: &str, report: &CronJobReport) -> String {
    crate::report::stream::json_fragment(&InContext { context, report })
}

/// The fleet's document. The frame's own fields are borrowed from a [`Report`] (see
/// [`frame`]); `contexts` and `errors` replace the frame's `errors`, which is always empty
/// (nothing was read from files).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FleetDocument<'a> {
    schema_version: u32,
    now: &'a Timestamp,
    kube_version: &'a str,
    controller_time_zone: &'a str,
    cron_jobs: &'a [CronJobReport],
    contexts: Vec<ContextEntry<'a>>,
    errors: Vec<ContextError<'a>>,
    notes: &'a [String],
}

/// One `contexts[]` entry. The keys are in alphabetical order: the order they had when this
/// was a `serde_json::Value` (a sorted map), kept so that the output did not change.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContextEntry<'a> {
    context: &'a str,
    cron_jobs: Option<usize>,
    error: Option<&'a str>,
    kube_version: Option<String>,
    namespace: Option<&'a str>,
    now: Option<String>,
}

/// One `errors[]` entry: a context that could not be read.
#[derive(Serialize)]
struct ContextError<'a> {
    context: &'a str,
    message: &'a str,
}

/// The report frame of a fleet, rendered (a trailing newline, `cronJobs` still empty: the
/// shell streams the fragments in): `now` and `kubeVersion` of the first context that could
/// be read (else `fallback_now` and `fallback_version`: the flags, the local clock, the
/// newest release), every context in `contexts[]`, and one `errors[]` entry per context that
/// could not be read.
pub fn frame(
    summaries: &[ContextSummary],
    notes: Vec<String>,
    zone_name: &str,
    fallback_now: Timestamp,
    fallback_version: KubeVersion,
) -> String {
    let first = summaries.iter().find(|c| c.error.is_none());
    // Only the zone's name is shown; the frame has no CronJob to evaluate in it.
    let zone = TimeZone::UTC;
    let opts = Options {
        now: first.and_then(|c| c.now).unwrap_or(fallback_now),
        controller_zone_name: zone_name,
        controller_zone: &zone,
        version: first.and_then(|c| c.version).unwrap_or(fallback_version),
        timeline: 0,
        severities: crate::config::NO_OVERRIDES,
    };
    let frame = report::frame(notes, &opts);
    // Every field of the frame by name: a field added to `Report` fails to compile here
    // instead of going missing from the fleet's document.
    let Report {
        schema_version,
        now,
        kube_version,
        controller_time_zone,
        cron_jobs,
        errors: _,
        notes,
    } = &frame;
    let document = FleetDocument {
        schema_version: *schema_version,
        now,
        kube_version,
        controller_time_zone,
        cron_jobs,
        contexts: summaries
            .iter()
            .map(|c| ContextEntry {
                context: &c.context,
                cron_jobs: c.cron_jobs,
                error: c.error.as_deref(),
                kube_version: c.version.map(|v| v.to_string()),
                namespace: c.namespace.as_deref(),
                now: c.now.map(crate::text::rfc3339),
            })
            .collect(),
        errors: summaries
            .iter()
            .filter_map(|c| {
                c.error.as_deref().map(|message| ContextError {
                    context: &c.context,
                    message,
                })
            })
            .collect(),
        notes,
    };
    // Serialising plain data cannot fail; an empty object is better than a panic if it did.
    serde_json::to_string_pretty(&document).unwrap_or_else(|_| "{}".into()) + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summaries() -> Vec<ContextSummary> {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        vec![
            ContextSummary::failed("dead", "no answer \"quoted\"".into()),
            ContextSummary {
                context: "prod".into(),
                namespace: Some("ops".into()),
                now: Some(now),
                version: Some("1.31.2".parse().unwrap()),
                cron_jobs: Some(3),
                error: None,
            },
        ]
    }

    /// The bytes the frame had when it was spliced together from strings.
    #[test]
    fn the_frame_is_the_documented_shape_byte_for_byte() {
        let fallback: Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
        let head = frame(
            &summaries(),
            vec!["a note".into()],
            "Europe/Berlin",
            fallback,
            KubeVersion::NEWEST,
        );
        let expected = r#"{
  "schemaVersion": 1,
  "now": "2026-11-20T12:00:00Z",
  "kubeVersion": "1.31.2",
  "controllerTimeZone": "Europe/Berlin",
  "cronJobs": [],
  "contexts": [
    {
      "context": "dead",
      "cronJobs": null,
      "error": "no answer \"quoted\"",
      "kubeVersion": null,
      "namespace": null,
      "now": null
    },
    {
      "context": "prod",
      "cronJobs": 3,
      "error": null,
      "kubeVersion": "1.31.2",
      "namespace": "ops",
      "now": "2026-11-20T12:00:00Z"
    }
  ],
  "errors": [
    {
      "context": "dead",
      "message": "no answer \"quoted\""
    }
  ],
  "notes": [
    "a note"
  ]
}
"#;
        assert_eq!(head, expected);
    }

    #[test]
    fn with_no_readable_context_the_frame_takes_the_fallbacks() {
        let fallback: Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
        let dead = [ContextSummary::failed("dead", "gone".into())];
        let head = frame(&dead, Vec::new(), "UTC", fallback, KubeVersion::NEWEST);
        let v: serde_json::Value = serde_json::from_str(&head).unwrap();
        assert_eq!(v["now"], "2020-01-01T00:00:00Z");
        assert_eq!(v["kubeVersion"], KubeVersion::NEWEST.to_string());
        assert_eq!(v["errors"][0]["message"], "gone");
        // Nothing read: empty lists, not absent ones.
        let head = frame(&[], Vec::new(), "UTC", fallback, KubeVersion::NEWEST);
        assert!(
            head.contains("\"contexts\": [],\n  \"errors\": [],\n"),
            "{head}"
        );
    }

    /// `context` goes first, the rest is the CronJob's fragment as a single cluster's report
    /// has it (what splicing the key into that fragment gave before this was typed).
    #[test]
    fn a_fragment_in_context_is_the_plain_fragment_headed_by_its_context() {
        let yaml = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: sync, namespace: ops}\nspec: {schedule: \"0 * * * *\"}\n";
        let (_, report) = super::super::report_of(yaml, 2);
        let r = &report.cron_jobs[0];
        for context in ["prod", "we\"ird\n{"] {
            let name = serde_json::to_string(context).unwrap();
            let spliced = crate::report::stream::json_fragment(r).replacen(
                "{\n",
                &format!("{{\n      \"context\": {name},\n"),
                1,
            );
            assert_eq!(fragment(context, r), spliced);
        }
    }
}
