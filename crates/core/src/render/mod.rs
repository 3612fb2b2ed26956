//! Renderers: pure functions from data to the text a person (or a program) reads. They take
//! the colour choice as a parameter and never write to stdout themselves.

pub mod catalogue;
pub mod explain;
pub mod fleet;
pub mod input_errors;
pub mod json;
pub mod lint;
pub mod next;
pub mod sarif;
pub mod scan_entries;
pub mod scan_rows;
pub mod slot;
pub mod style;
pub mod wrap;

/// The renderers' tests' input: `yaml`'s snapshot and its report at 2026-11-20T12:00:00Z,
/// the controller in UTC, the newest release, `timeline` slots a CronJob.
#[cfg(test)]
fn report_of(yaml: &str, timeline: usize) -> (crate::model::Snapshot, crate::report::Report) {
    let (snapshot, _) = crate::source::parse_text("f.yaml", yaml).into_snapshot();
    let opts = crate::report::Options::utc(
        "2026-11-20T12:00:00Z".parse().unwrap(),
        crate::replay::KubeVersion::NEWEST,
        timeline,
    );
    let report = crate::report::build(&snapshot, Vec::new(), &opts);
    (snapshot, report)
}
