//! The finding catalogue: one rule per file, registered in [`RULES`].
//!
//! A rule is compile-time data (id, slug, default severity, docs, a manifest on which it fires
//! and one on which it stays quiet) plus a pure `check`. Ids are forever: a retired rule keeps
//! its id in [`RETIRED`] and the id is never reused. `docs/rules.md` is generated from this
//! registry (`kubectl cronjob-doctor rules -o markdown`) and a test fails when it drifts.

mod context;
/// Test support: runs a rule's example manifests through the whole pipeline. Compiled for
/// tests only (the crate's own, and its integration tests through the `test-support`
/// feature), never into the binary.
#[cfg(any(test, feature = "test-support"))]
pub mod examples;
mod finding;

mod forbid_blocked;
mod manifest;
pub mod next_run_risk;
mod runtime;
mod schedule_memo;
mod suspended;

pub use context::Context;
pub use finding::{Finding, Phase, Remedy, Severity, Step, patch_command};
pub(crate) use manifest::is_live;
pub use manifest::verdict;
pub(crate) use runtime::common::stories as run_stories;
pub use runtime::{late_start, not_running, ran_more_than_once, run_not_started};

/// A manifest (never read back from a cluster) with an error the API server refuses on create:
/// it exists in no cluster, so a `kubectl patch` has nothing to patch.
pub fn refused_on_create(cj: &crate::model::CronJob, findings: &[Finding]) -> bool {
    !is_live(cj)
        && findings
            .iter()
            .any(|f| f.severity == Severity::Error && REFUSED_ON_CREATE.contains(&f.slug))
}

/// Rules whose error means the API server refuses to create the CronJob as written: a manifest
/// with one of them (and never applied) exists in no cluster, so its fix is an edit of the file,
/// not a `kubectl patch`.
pub const REFUSED_ON_CREATE: &[&str] = &[
    "schedule-missing",
    "invalid-schedule",
    "unknown-time-zone",
    "restart-policy-invalid",
    "pod-template-missing",
    "concurrency-policy-invalid",
    "name-too-long",
    "deprecated-api-version",
    "tz-in-schedule",
    "field-out-of-range",
    "wrong-field-type",
];

/// Static description of a rule. Everything a user reads about the rule lives here.
#[derive(Debug)]
pub struct Rule {
    /// Stable id, `CJD` + three digits. Never reused.
    pub id: &'static str,
    /// Stable kebab-case name used in output and in the ignore annotation.
    pub slug: &'static str,
    /// Severity in the common case (a check may raise or lower it for one object).
    pub severity: Severity,
    /// One line: what the rule detects.
    pub summary: &'static str,
    /// Markdown: why it matters, with the controller behaviour behind it.
    pub explanation: &'static str,
    /// Markdown: how to fix it.
    pub remediation: &'static str,
    /// A manifest (multi-document YAML; may include Jobs, Pods and Events) on which the rule
    /// fires at [`Rule::example_now`]. The meta-test checks this.
    pub fires_on: &'static str,
    /// A manifest on which the rule stays quiet at [`Rule::example_now`].
    pub quiet_on: &'static str,
    /// The instant the examples are evaluated at.
    pub example_now: &'static str,
    pub check: fn(&Context) -> Vec<Finding>,
}

/// Ids that were used once and must never be reused.
pub const RETIRED: &[&str] = &[];

/// The annotation that silences chosen findings for one CronJob: a comma-separated list of
/// slugs or ids (`cronjob-doctor.io/ignore: no-time-zone,CJD012`), or `*` for all.
pub const IGNORE_ANNOTATION: &str = "cronjob-doctor.io/ignore";

/// Every rule, ordered by id. Ids were assigned so that this is also the order findings are
/// listed in and headlines chosen (most decisive first).
pub static RULES: std::sync::LazyLock<Vec<&'static Rule>> = std::sync::LazyLock::new(|| {
    let mut all: Vec<&'static Rule> = vec![&suspended::RULE, &forbid_blocked::RULE];
    all.extend_from_slice(manifest::RULES);
    all.extend_from_slice(runtime::RULES);
    all.sort_by_key(|r| r.id);
    all
});

/// Rules that read the job template (`spec.jobTemplate`). A change to the template alone
/// (the fix plan's `activeDeadlineSeconds` and `backoffLimit` patches, most of all plans) can
/// change only their findings: every other rule, and the replay, never looks at the template,
/// so [`rerun_template_rules`] takes their findings as they were. A test runs every other rule
/// on every example and corpus CronJob with its template changed and holds it to that.
pub const READS_JOB_TEMPLATE: &[&str] = &[
    "restart-policy-invalid",
    "pod-template-missing",
    "field-out-of-range",
    "forbid-blocked",
    "active-deadline-missing",
    "active-deadline-too-large",
    "backoff-limit-too-large",
    "overlapping-runs",
    "manual-jobs-ignored",
    "job-template-suspended",
];

/// Run every rule on one CronJob, dropping the ones its ignore annotation silences.
/// Findings come out sorted by severity (errors first), then registry order.
pub fn check_all(ctx: &Context) -> Vec<Finding> {
    finish(ctx, run_rules(ctx))
}

/// Each rule's findings on one CronJob, in registry order (none for a rule its ignore
/// annotation silences): what [`finish`] turns into [`check_all`]'s list.
pub fn run_rules(ctx: &Context) -> Vec<Vec<Finding>> {
    let ignored = ignored_set(ctx.cron_job);
    RULES
        .iter()
        .map(|rule| {
            if is_ignored(&ignored, rule) {
                Vec::new()
            } else {
                (rule.check)(ctx)
            }
        })
        .collect()
}

/// [`run_rules`] on a CronJob that differs from the one `before` was found on only inside
/// `spec.jobTemplate`: the rules of [`READS_JOB_TEMPLATE`] run again, every other rule's
/// findings are `before`'s (see there why that is the same answer).
pub fn rerun_template_rules(ctx: &Context, before: &[Vec<Finding>]) -> Vec<Vec<Finding>> {
    let ignored = ignored_set(ctx.cron_job);
    RULES
        .iter()
        .zip(before)
        .map(|(rule, was)| {
            if !READS_JOB_TEMPLATE.contains(&rule.slug) {
                was.clone()
            } else if is_ignored(&ignored, rule) {
                Vec::new()
            } else {
                (rule.check)(ctx)
            }
        })
        .collect()
}

/// The findings of [`run_rules`] as [`check_all`] lists them: each with its pasteable command,
/// errors first, registry order inside one severity.
pub fn finish(ctx: &Context, per_rule: Vec<Vec<Finding>>) -> Vec<Finding> {
    let mut out: Vec<Finding> = per_rule.into_iter().flatten().collect();
    // The per-finding command (kept in the JSON for compatibility) is derived from the
    // remedy, so it can never disagree with what the fix plan merges.
    let in_cluster = !refused_on_create(ctx.cron_job, &out);
    for f in &mut out {
        f.command = f.remedy.commands(ctx.name(), ctx.namespace, in_cluster);
    }
    // Stable sort keeps registry order inside one severity.
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

fn is_ignored(ignored: &[String], rule: &Rule) -> bool {
    ignored
        .iter()
        .any(|i| i == "*" || i == rule.slug || i == rule.id)
}

fn ignored_set(cj: &crate::model::CronJob) -> Vec<String> {
    cj.meta
        .annotations
        .get(IGNORE_ANNOTATION)
        .map(|v| {
            v.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// Look a rule up by slug or id.
pub fn find(name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.slug == name || r.id == name)
}
