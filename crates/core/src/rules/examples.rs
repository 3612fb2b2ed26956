//! Runs a rule's example manifests through the whole pipeline (load → replay → rules), exactly
//! as `explain -f` would, so a rule's "fires on" / "quiet on" examples are real fixtures.

use crate::replay::KubeVersion;
use crate::report::{self, InputError, Options, Report};

/// Evaluate `yaml` at `now` (RFC 3339) with the newest controller in UTC.
pub fn run(yaml: &str, now: &str) -> Report {
    run_with(yaml, now, KubeVersion::NEWEST)
}

/// Like [`run`], replaying the controller of `version`.
pub fn run_with(yaml: &str, now: &str, version: KubeVersion) -> Report {
    let loaded = crate::source::parse_text("example.yaml", yaml);
    let (snapshot, errors) = loaded.into_snapshot();
    let errors = errors.into_iter().map(InputError::from).collect();
    let now = now
        .parse()
        .unwrap_or_else(|e| panic!("example_now {now:?}: {e}"));
    report::build(&snapshot, errors, &Options::utc(now, version, 8))
}

/// The findings with `slug` across all CronJobs of the report.
pub fn findings<'r>(r: &'r Report, slug: &str) -> Vec<&'r super::Finding> {
    r.cron_jobs
        .iter()
        .flat_map(|c| &c.findings)
        .filter(|f| f.slug == slug)
        .collect()
}
