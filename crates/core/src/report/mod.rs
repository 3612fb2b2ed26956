//! The report: for every CronJob of a snapshot, the replay of the controller, the findings,
//! a headline and a timeline. This is the one data structure every renderer (text, JSON,
//! SARIF, lint lines, scan table) reads; its JSON form is a documented wire format.

pub mod cause;
pub mod fix;
pub mod fix_edits;
pub mod index;
pub mod merge_patch;
pub mod relation;
pub mod retained_slots;
pub mod slot;
pub mod stream;
pub mod timeline;
pub mod visible;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::{ParseError, Schedule};
use serde::Serialize;

use crate::cron::{describe, format_schedule};
use crate::model::{CronJob, Job, Snapshot};
use crate::replay::{self, Decision, KubeVersion, MissedSchedules, Replay, ReplayInput};
use crate::rules::{self, Context, Finding, Severity};
use index::{Index, namespace_of};
pub use timeline::{Slot, SlotStatus};

/// How to evaluate: the instant, the controller's zone and release, the timeline length, and
/// the project's rule severities (`crate::config::NO_OVERRIDES` for none).
pub struct Options<'a> {
    pub now: Timestamp,
    pub controller_zone_name: &'a str,
    pub controller_zone: &'a TimeZone,
    pub version: KubeVersion,
    pub timeline: usize,
    pub severities: &'a crate::config::Severities,
}

impl Options<'static> {
    /// Options for a controller whose zone is UTC, without severity overrides: what the
    /// examples and most tests diagnose with.
    pub fn utc(now: Timestamp, version: KubeVersion, timeline: usize) -> Options<'static> {
        static UTC: TimeZone = TimeZone::UTC;
        Options {
            now,
            controller_zone_name: "UTC",
            controller_zone: &UTC,
            version,
            timeline,
            severities: crate::config::NO_OVERRIDES,
        }
    }
}

/// Input that could not be read (file, 1-based line and column, message).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// What the reader could not read, as the report carries it.
impl From<crate::source::LoadError> for InputError {
    fn from(e: crate::source::LoadError) -> Self {
        InputError {
            file: e.file,
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema_version: u32,
    pub now: Timestamp,
    pub kube_version: String,
    pub controller_time_zone: String,
    pub cron_jobs: Vec<CronJobReport>,
    pub errors: Vec<InputError>,
    /// Reduced-evidence notes and input notes (e.g. batch/v1beta1).
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct SourceRef {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Overall state, worst first when sorted descending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Health {
    Ok,
    Warning,
    Error,
}

/// The controller's decision in the shape of the JSON contract.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ControllerSummary {
    pub decision: Decision,
    pub scheduled_time: Option<Timestamp>,
    pub job_name: Option<String>,
    /// Event reasons in emission order.
    pub events: Vec<String>,
    pub requeue_after_ms: Option<i64>,
    pub missed_schedules: MissedSchedules,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CronJobReport {
    pub namespace: String,
    pub name: String,
    pub source: Option<SourceRef>,
    pub schedule: Option<String>,
    pub time_zone: Option<String>,
    /// The zone runs are shown in (the schedule's, else the controller's).
    pub schedule_zone: String,
    pub description: Option<String>,
    pub health: Health,
    /// One line: why it is (not) running.
    pub headline: String,
    /// The headline for a table cell: without the name, an outage as "no run for 3d 9h (3
    /// missed): <cause>", so that shortening it cuts details, never the cause.
    pub status: String,
    pub controller: ControllerSummary,
    pub next_schedule_times: Vec<Timestamp>,
    pub findings: Vec<Finding>,
    pub timeline: Vec<Slot>,
    pub suspended: bool,
    pub active_jobs: Vec<String>,
    pub last_schedule_time: Option<Timestamp>,
    pub last_successful_time: Option<Timestamp>,
    /// The full replay (arithmetic, window, notes) for those who want to check our work.
    pub replay: Replay,
    /// Every finding's remedy merged into one plan, checked by replaying it (`fix` module).
    pub fix: fix::FixPlan,
    #[serde(skip)]
    pub zone: TimeZone,
    /// How late the controller created the newest run's Job, when that is what made the run
    /// late (`late-start`): a scan says once that one controller is late for many CronJobs.
    #[serde(skip)]
    pub controller_lag_seconds: Option<i64>,
    /// The next slot predicted to produce no run, and why (`rules::next_run_risk`); absent
    /// from the JSON when nothing shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_run_at_risk: Option<rules::next_run_risk::NextRunAtRisk>,
    /// The runs the monitor remembers (`retained`): left out of `scan` and `explain`, set by
    /// the monitor's `/report`. [`cron_job_reports_observed`] fills it with the runs seen now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<Vec<crate::retained::RetainedRun>>,
}

impl Report {
    /// Findings of every CronJob at or above `min`.
    pub fn count_at_least(&self, min: Severity) -> usize {
        self.cron_jobs
            .iter()
            .flat_map(|c| &c.findings)
            .filter(|f| f.severity >= min)
            .count()
    }
}

/// Build the report for every CronJob of `snapshot`, each with its verified fix plan.
pub fn build(snapshot: &Snapshot, errors: Vec<InputError>, opts: &Options) -> Report {
    let mut report = header(snapshot, errors, opts);
    report.cron_jobs = cron_job_reports(snapshot, opts).collect();
    report
}

/// The report without its CronJobs (`cron_jobs` is empty): what [`cron_job_reports`] streams
/// goes in between. [`build`] is `header` plus every CronJob's report.
pub fn header(snapshot: &Snapshot, errors: Vec<InputError>, opts: &Options) -> Report {
    Report {
        schema_version: 1,
        now: opts.now,
        kube_version: opts.version.to_string(),
        controller_time_zone: opts.controller_zone_name.to_string(),
        cron_jobs: Vec::new(),
        errors,
        notes: snapshot.notes.clone(),
    }
}

/// The report's frame: everything but the CronJobs (schema version, now, version, zone,
/// `notes`), as [`build`] writes it. A caller that streams the CronJobs' reports in (`scan`,
/// a fleet, the monitor's `/report`) starts from it.
pub fn frame(notes: Vec<String>, opts: &Options) -> Report {
    let head = Snapshot {
        notes,
        ..Default::default()
    };
    header(&head, Vec::new(), opts)
}

/// Each CronJob's report with its verified fix plan, in snapshot order, built when asked for.
/// A caller that writes each one out and drops it holds one CronJob's report at a time
/// instead of all of them: for a big input the whole report is several times the input's size
/// (BENCHMARKS.md, "Big inputs: peak memory").
pub fn cron_job_reports<'s>(
    snapshot: &'s Snapshot,
    opts: &'s Options<'s>,
) -> impl ExactSizeIterator<Item = CronJobReport> + 's {
    reports(snapshot, opts, Planned::Yes)
}

/// Each CronJob's report as [`cron_job_reports`] gives it, but without its fix plan (`fix`
/// stays empty): for a caller that reads the findings, health, headline, next times and replay
/// and never shows a plan (the monitor's metrics and status lines; its `/report` still has
/// the plans). Verifying a plan re-runs the rules on each patched copy, a large share of the
/// diagnosis of a CronJob with findings.
pub fn cron_job_reports_without_fix<'s>(
    snapshot: &'s Snapshot,
    opts: &'s Options<'s>,
) -> impl ExactSizeIterator<Item = CronJobReport> + 's {
    reports(snapshot, opts, Planned::No)
}

/// [`cron_job_reports_without_fix`] with each report's `runs` set to the records of the runs
/// its evidence shows now (`retained::observe`), from the run stories its rules read anyway:
/// what the monitor remembers.
pub fn cron_job_reports_observed<'s>(
    snapshot: &'s Snapshot,
    opts: &'s Options<'s>,
) -> impl ExactSizeIterator<Item = CronJobReport> + 's {
    reports(snapshot, opts, Planned::Observed)
}

/// Each CronJob's report, built when asked for, planned as `planned` says.
fn reports<'s>(
    snapshot: &'s Snapshot,
    opts: &'s Options<'s>,
    planned: Planned,
) -> impl ExactSizeIterator<Item = CronJobReport> + 's {
    let index = Index::new(snapshot);
    snapshot
        .cron_jobs
        .iter()
        .map(move |cj| build_one(cj, &index, snapshot, opts, planned))
}

/// Whether [`build_one`] verifies a fix plan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Planned {
    Yes,
    No,
    /// No plan, and the runs seen now recorded (`retained::observe`).
    Observed,
}

/// What the rules judge one CronJob by: its Jobs, Pods and Events, and the replay of its
/// controller. Owned here so that a [`Context`] can borrow it.
struct Gathered<'s> {
    ns: String,
    owned: Vec<&'s Job>,
    manual: Vec<&'s Job>,
    pods: Vec<&'s crate::model::Pod>,
    events: Vec<&'s crate::model::Event>,
    rep: Replay,
    /// The schedule as the controller parses it (see [`gather`]).
    effective: Option<String>,
    parsed: Option<Result<Schedule, ParseError>>,
}

/// Everything about `cj` from `index` (the snapshot's, or only `cj`'s own objects: the fix
/// plan's re-checks).
fn gather<'s>(
    cj: &CronJob,
    index: &Index<'s>,
    evidence: crate::model::Evidence,
    opts: &Options,
) -> Gathered<'s> {
    let ns = namespace_of(&cj.meta.namespace).to_string();
    let features = opts.version.features();
    // The index relates Jobs by the controller reference's name (every v2 release); from 1.37
    // the kind and UID must match too, which `controlled_by` checks.
    let mut owned = index.jobs_of(cj);
    if features.jobs_matched_by_uid {
        owned.retain(|j| replay::controlled_by(cj, j, features));
    }
    let manual = index.manual_jobs_of(cj);
    let mut pods = Vec::new();
    for j in owned.iter().chain(manual.iter()) {
        pods.extend(index.pods_of(&ns, &j.meta.name));
    }
    let events = index.events_for(cj, &owned, &pods);
    // The controller only ever sees its own namespace. `jobs` is left to `replay_sorted`'s
    // arguments below.
    let input = ReplayInput {
        cron_job: cj,
        jobs: None,
        now: opts.now,
        controller_zone: opts.controller_zone,
        version: opts.version,
    };
    // The replay's own filtering of the snapshot's Jobs, looked up instead: the namespace's
    // Jobs and, with the v2 controller, the ones its ownership rule gives are already indexed.
    let ns_jobs = evidence.jobs.then(|| index.jobs_in(&ns).to_vec());
    let children = match &ns_jobs {
        None => Vec::new(),
        Some(_) if features.variant != replay::ControllerVariant::V1Legacy => owned.clone(),
        Some(js) => js
            .iter()
            .copied()
            .filter(|j| replay::controlled_by(cj, j, features))
            .collect(),
    };
    let rep = replay::replay_sorted(&input, ns_jobs, children);
    // The schedule as the controller parses it: the replay's own when it got that far
    // (so an unloadable timeZone is never folded into a "bad location" parse error), else
    // formatSchedule of the raw field for the rules that judge the schedule by itself.
    let (effective, parsed): (Option<String>, Option<Result<Schedule, ParseError>>) =
        match rep.effective() {
            Some(e) => (Some(e.formatted.clone()), Some(Ok(e.schedule.clone()))),
            None => {
                let tz = cj
                    .spec
                    .time_zone
                    .as_deref()
                    .filter(|z| !rep.time_zone_ignored && schedule::load_location(z).is_ok());
                let f = cj.spec.schedule.as_deref().map(|s| format_schedule(s, tz));
                let p = f.as_deref().map(schedule::parse_standard);
                (f, p)
            }
        };
    Gathered {
        ns,
        owned,
        manual,
        pods,
        events,
        rep,
        effective,
        parsed,
    }
}

impl<'s> Gathered<'s> {
    fn context<'a>(
        &'a self,
        cj: &'a CronJob,
        evidence: crate::model::Evidence,
        opts: &'a Options,
    ) -> Context<'a>
    where
        's: 'a,
    {
        Context {
            cron_job: cj,
            namespace: &self.ns,
            now: opts.now,
            controller_zone_name: opts.controller_zone_name,
            controller_zone: opts.controller_zone,
            variant: self.rep.variant,
            effective_schedule: self.effective.as_deref(),
            schedule: self.parsed.as_ref(),
            replay: &self.rep,
            jobs: &self.owned,
            manual_jobs: &self.manual,
            pods: &self.pods,
            events: &self.events,
            evidence,
            runs: std::cell::OnceCell::new(),
        }
    }
}

/// The findings of the CronJob in `ctx`, as its report lists them, from each rule's findings
/// (`rules::run_rules`).
fn findings_of(ctx: &Context, per_rule: Vec<Vec<Finding>>, opts: &Options) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let mut findings = rules::finish(ctx, per_rule);
    // The project's overrides come before everything read off the findings (the outage's
    // cause, the health, the headline): a rule turned off never leads a headline.
    if !opts.severities.is_empty() {
        findings.retain_mut(|f| match opts.severities.apply(f.slug, f.severity) {
            Some(s) => {
                f.severity = s;
                true
            }
            None => false,
        });
    }
    // An outage whose cause another finding names is fixed by fixing that cause: say so
    // instead of the generic "check the controller" advice.
    let cause = rules::not_running::cause(&findings).map(|f| f.slug);
    if let (Some(cause), Some(out)) = (
        cause,
        findings
            .iter_mut()
            .find(|f| f.slug == rules::not_running::RULE.slug),
    ) {
        out.remediation = format!("Fix {cause} (above); the runs resume with it.");
    }
    if let Some(o) = &cj.origin {
        for f in &mut findings {
            f.location = Some(
                f.field
                    .map(|p| o.position_of(p))
                    .unwrap_or_else(|| o.position.clone()),
            );
        }
    }
    findings
}

/// Only the findings of `cj`'s report: what the fix plan's re-checks compare. The same
/// findings as [`build_one`] gives, without the timeline, next times, description and
/// headline that the plan never reads.
fn findings_only(
    cj: &CronJob,
    index: &Index,
    evidence: crate::model::Evidence,
    opts: &Options,
) -> Vec<Finding> {
    let g = gather(cj, index, evidence, opts);
    let ctx = g.context(cj, evidence, opts);
    findings_of(&ctx, rules::run_rules(&ctx), opts)
}

/// One CronJob's report, with its verified fix plan when `planned` says so.
fn build_one(
    cj: &CronJob,
    index: &Index,
    snapshot: &Snapshot,
    opts: &Options,
    planned: Planned,
) -> CronJobReport {
    let g = gather(cj, index, snapshot.evidence, opts);
    let ctx = g.context(cj, snapshot.evidence, opts);
    let per_rule = rules::run_rules(&ctx);
    // Only warnings and errors take part in a plan (`fix`); without one there is nothing to
    // plan, and each rule's findings need not be kept for the plan's re-checks.
    let plan_with = (planned == Planned::Yes
        && per_rule
            .iter()
            .flatten()
            .any(|f| f.severity >= Severity::Warning))
    .then(|| per_rule.clone());
    let findings = findings_of(&ctx, per_rule, opts);
    let fix = match plan_with {
        Some(per_rule) => fix::plan_one(
            cj,
            &findings,
            &fix::Diagnosed {
                gathered: &g,
                per_rule: &per_rule,
            },
            index,
            snapshot,
            opts,
        ),
        None => fix::FixPlan::default(),
    };
    let ns = &g.ns;
    let zone = ctx.schedule_zone().clone();
    let zone_name = ctx.schedule_zone_name().to_string();
    let next = g.rep.next_schedule_times(5);
    let timeline = timeline::build(&ctx, opts.timeline);
    let description = ctx.parsed().map(|s| {
        let shown = matches!(s.kind, schedule::ScheduleKind::Spec(_)).then_some(zone_name.as_str());
        describe::describe(
            &s.kind,
            shown,
            s.next(opts.now, opts.controller_zone).is_some(),
        )
    });
    let health = match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Error) => Health::Error,
        Some(Severity::Warning) => Health::Warning,
        _ => Health::Ok,
    };
    let (headline, status) = headline(&ctx, &findings, &next, health);
    let controller_lag_seconds = findings
        .iter()
        .any(|f| f.slug == rules::late_start::RULE.slug)
        .then(|| rules::late_start::controller_lag(&ctx))
        .flatten();
    let next_run_at_risk = rules::next_run_risk::predict(&ctx, &findings, next.first().copied());
    let runs = (planned == Planned::Observed).then(|| crate::retained::observe(&ctx));
    CronJobReport {
        namespace: ns.clone(),
        name: cj.meta.name.clone(),
        source: cj.origin.as_ref().map(|o| SourceRef {
            file: o.file.clone(),
            line: o.position.line,
            column: o.position.column,
        }),
        schedule: cj.spec.schedule.clone(),
        time_zone: cj.spec.time_zone.clone(),
        schedule_zone: zone_name,
        description,
        health,
        headline,
        status,
        controller: ControllerSummary {
            decision: g.rep.decision,
            scheduled_time: g.rep.scheduled_time,
            job_name: g.rep.job_name.clone(),
            events: g.rep.events.iter().map(|e| e.reason.clone()).collect(),
            requeue_after_ms: g.rep.requeue_after_ms,
            missed_schedules: g.rep.missed_schedules,
        },
        next_schedule_times: next,
        findings,
        timeline,
        suspended: cj.spec.suspend,
        active_jobs: cj.status.active.iter().map(|a| a.name.clone()).collect(),
        last_schedule_time: cj.status.last_schedule_time,
        last_successful_time: cj.status.last_successful_time,
        replay: g.rep,
        fix,
        zone,
        controller_lag_seconds,
        next_run_at_risk,
        runs,
    }
}

/// One line that answers "is it running, and if not, why": the most decisive finding's own
/// headline, else a healthy summary with the next run.
/// Returns the headline and the short status of a table row.
fn headline(
    ctx: &Context,
    findings: &[Finding],
    next: &[Timestamp],
    health: Health,
) -> (String, String) {
    let name = ctx.name();
    let line = |rest: String| (format!("{name} {rest}"), rest);
    // An outage leads: since when and how many runs were missed, then the cause another
    // finding names, else what is left when the input explains nothing (the controller).
    if let Some(out) = findings
        .iter()
        .find(|f| f.slug == rules::not_running::RULE.slug)
    {
        let cause = match rules::not_running::cause(findings) {
            Some(f) => cause_of(f.headline.as_deref().unwrap_or_default()),
            None if ctx.evidence.events => rules::not_running::UNEXPLAINED.to_string(),
            None => format!(
                "{}{}",
                rules::not_running::UNEXPLAINED,
                rules::not_running::WITHOUT_EVENTS
            ),
        };
        let head = format!(
            "{name} {}: {cause}",
            out.headline.as_deref().unwrap_or_default()
        );
        let status = match rules::not_running::lost(ctx) {
            Some(l) => format!(
                "no run for {} ({}{} missed): {cause}",
                crate::text::human_duration(ctx.now.as_second() - l.since.as_second()),
                if l.capped { "over " } else { "" },
                l.count
            ),
            None => head.clone(),
        };
        return (head, status);
    }
    // A run stuck before starting is lost like an outage's runs: it leads the other findings.
    if let Some(f) = findings
        .iter()
        .find(|f| f.slug == rules::run_not_started::RULE.slug)
        .or_else(|| findings.iter().find(|f| f.headline.is_some()))
    {
        let (head, rest) = line(f.headline.clone().unwrap_or_default());
        // A run's story in a table cell is said short: "not started 30m: unschedulable".
        let short = match f.slug {
            s if s == rules::run_not_started::RULE.slug => {
                rules::run_not_started::short_status(ctx)
            }
            s if s == rules::late_start::RULE.slug => rules::late_start::short_status(ctx),
            s if s == rules::ran_more_than_once::RULE.slug => {
                rules::ran_more_than_once::short_status(ctx)
            }
            _ => None,
        };
        return (head, short.unwrap_or(rest));
    }
    let next_text = match next.first() {
        Some(t) => format!(
            "next run {} (in {})",
            ctx.show_time(*t),
            crate::text::human_duration(t.as_second() - ctx.now.as_second())
        ),
        None => "no upcoming run".to_string(),
    };
    match health {
        Health::Ok => line(format!("is on schedule: {next_text}")),
        _ => {
            let n = findings
                .iter()
                .filter(|f| f.severity >= Severity::Warning)
                .count();
            line(format!(
                "runs on schedule, with {n} risk{} to fix; {next_text}",
                if n == 1 { "" } else { "s" }
            ))
        }
    }
}

/// A finding's headline as the cause of an outage: without the verb phrase that would repeat
/// "not running" ("is not running: Forbid is blocked …" → "Forbid is blocked …").
fn cause_of(headline: &str) -> String {
    if let Some(c) = headline.strip_prefix("never runs: ") {
        return format!("{c} — it never runs");
    }
    ["is not running: ", "risks silent skips: "]
        .iter()
        .find_map(|p| headline.strip_prefix(p))
        .unwrap_or(headline)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options every test here diagnoses with: a fixed instant, `zone` as the
    /// controller's, eight timeline slots.
    fn options<'a>(zone_name: &'a str, zone: &'a TimeZone, version: KubeVersion) -> Options<'a> {
        Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: zone_name,
            controller_zone: zone,
            version,
            timeline: 8,
            severities: crate::config::NO_OVERRIDES,
        }
    }

    /// Every example and, where `CRONJOB_DOCTOR_CORPUS` names it, every real-world corpus
    /// manifest, with their Jobs, Pods and Events.
    fn everything() -> Snapshot {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut all = Snapshot::default();
        let corpus = std::env::var_os("CRONJOB_DOCTOR_CORPUS").map(std::path::PathBuf::from);
        if corpus.is_none() {
            eprintln!("note: CRONJOB_DOCTOR_CORPUS unset: the examples only, no real-world corpus");
        }
        for dir in std::iter::once(root.join("examples")).chain(corpus) {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                panic!("cannot read {}", dir.display());
            };
            let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
            files.sort();
            for f in files.into_iter().filter(|p| p.is_file()) {
                let text = std::fs::read(&f).unwrap();
                let (s, _) =
                    crate::source::parse_bytes(&f.display().to_string(), &text).into_snapshot();
                all.cron_jobs.extend(s.cron_jobs);
                all.jobs.extend(s.jobs);
                all.pods.extend(s.pods);
                all.events.extend(s.events);
            }
        }
        all
    }

    #[test]
    fn the_plans_findings_only_recheck_finds_what_the_full_report_does() {
        let s = everything();
        assert!(s.cron_jobs.len() >= 14);
        let index = Index::new(&s);
        let zone = TimeZone::get("Europe/Berlin").unwrap();
        for version in [KubeVersion::NEWEST, KubeVersion::new(20)] {
            let opts = options("Europe/Berlin", &zone, version);
            let mut some = 0;
            for cj in &s.cron_jobs {
                let full = build_one(cj, &index, &s, &opts, Planned::No).findings;
                some += usize::from(!full.is_empty());
                assert_eq!(
                    findings_only(cj, &index, s.evidence, &opts),
                    full,
                    "{}",
                    cj.meta.name
                );
            }
            assert!(some > 10, "the inputs have findings to compare");
        }
    }
    /// Copies of `cj` whose job templates differ from it in every way a rule could read.
    fn template_variants(cj: &CronJob) -> Vec<CronJob> {
        let edits: Vec<fn(&mut crate::model::JobTemplate)> = vec![
            |t| t.spec.active_deadline_seconds = None,
            |t| t.spec.active_deadline_seconds = Some(30),
            |t| t.spec.active_deadline_seconds = Some(40_000_000),
            |t| t.spec.backoff_limit = Some(0),
            |t| t.spec.backoff_limit = Some(100),
            |t| t.spec.backoff_limit = None,
            |t| t.spec.backoff_limit_per_index = Some(3),
            |t| t.spec.ttl_seconds_after_finished = Some(0),
            |t| t.spec.ttl_seconds_after_finished = None,
            |t| t.spec.parallelism = Some(5),
            |t| t.spec.completions = Some(-1),
            |t| t.spec.suspend = Some(true),
            |t| t.spec.has_pod_failure_policy = true,
            |t| t.spec.restart_policy = Some("Always".into()),
            |t| t.spec.restart_policy = None,
            |t| t.spec.containers.clear(),
            |t| t.has_pod_template = false,
            |t| {
                t.labels.insert("app".into(), "other".into());
                t.annotations.insert("note".into(), "other".into());
            },
        ];
        edits
            .into_iter()
            .map(|edit| {
                let mut v = cj.clone();
                edit(&mut v.spec.job_template);
                v
            })
            .collect()
    }

    /// The claim the fix plan's template re-check stands on (`rules::READS_JOB_TEMPLATE`): a
    /// rule outside the list finds the same whatever the template says, on every example and
    /// corpus CronJob and on every rule's own examples at their instants; and the re-check
    /// that reuses those rules' findings equals a full one.
    #[test]
    fn only_the_listed_rules_read_the_job_template() {
        let mut cases = vec![(everything(), "2026-11-20T12:00:00Z")];
        for rule in rules::RULES.iter() {
            for yaml in [rule.fires_on, rule.quiet_on] {
                let (s, _) = crate::source::parse_text("example.yaml", yaml).into_snapshot();
                cases.push((s, rule.example_now));
            }
        }
        let zone = TimeZone::get("Europe/Berlin").unwrap();
        let mut changed: std::collections::BTreeSet<&str> = Default::default();
        for (s, now) in &cases {
            let index = Index::new(s);
            for version in [KubeVersion::NEWEST, KubeVersion::new(20)] {
                let mut opts = options("Europe/Berlin", &zone, version);
                opts.now = now.parse().unwrap();
                for cj in &s.cron_jobs {
                    let g = gather(cj, &index, s.evidence, &opts);
                    let before = rules::run_rules(&g.context(cj, s.evidence, &opts));
                    for variant in template_variants(cj) {
                        let ctx = g.context(&variant, s.evidence, &opts);
                        let after = rules::run_rules(&ctx);
                        for ((rule, b), a) in rules::RULES.iter().zip(&before).zip(&after) {
                            if rules::READS_JOB_TEMPLATE.contains(&rule.slug) {
                                if a != b {
                                    changed.insert(rule.slug);
                                }
                            } else {
                                assert_eq!(
                                    a, b,
                                    "{} read the template of {}",
                                    rule.slug, cj.meta.name
                                );
                            }
                        }
                        assert_eq!(
                            findings_of(&ctx, rules::rerun_template_rules(&ctx, &before), &opts),
                            findings_only(&variant, &index, s.evidence, &opts),
                            "{}",
                            cj.meta.name
                        );
                    }
                }
            }
        }
        // Every listed rule does read it: the list is no wider than it must be.
        let listed: std::collections::BTreeSet<&str> =
            rules::READS_JOB_TEMPLATE.iter().copied().collect();
        assert_eq!(changed, listed);
    }

    #[test]
    fn reports_without_fix_are_the_reports_with_the_plan_left_out() {
        let s = everything();
        let zone = TimeZone::UTC;
        for version in [KubeVersion::NEWEST, KubeVersion::new(20)] {
            let opts = options("UTC", &zone, version);
            let mut planned = 0;
            let without = cron_job_reports_without_fix(&s, &opts);
            assert_eq!(without.len(), s.cron_jobs.len());
            for (full, bare) in cron_job_reports(&s, &opts).zip(without) {
                let mut full = serde_json::to_value(&full).unwrap();
                let mut bare = serde_json::to_value(&bare).unwrap();
                planned += usize::from(full["fix"]["patch"] != serde_json::Value::Null);
                assert_eq!(
                    bare["fix"],
                    serde_json::to_value(fix::FixPlan::default()).unwrap(),
                    "no plan"
                );
                full.as_object_mut().unwrap().remove("fix");
                bare.as_object_mut().unwrap().remove("fix");
                assert_eq!(full, bare);
            }
            // The examples alone hold five plans at either version (the corpus, more).
            assert!(
                planned >= 5,
                "the inputs have plans to leave out ({planned})"
            );
        }
    }

    #[test]
    fn the_indexed_replay_is_the_replay_that_filters_every_job() {
        let mut s = everything();
        // Jobs in two namespaces that share names, and one whose namespace is left empty
        // (`default`), so that the namespace of the index has to matter.
        let mut copies = s.jobs.clone();
        for j in &mut copies {
            j.meta.namespace = if j.meta.namespace.is_empty() {
                "default".into()
            } else {
                String::new()
            };
        }
        s.jobs.extend(copies);
        let zone = TimeZone::UTC;
        let mut compared = 0;
        for version in [
            KubeVersion::NEWEST,
            KubeVersion::new(27),
            KubeVersion::new(21),
            KubeVersion::new(20),
        ] {
            let opts = options("UTC", &zone, version);
            for evidence in [true, false] {
                s.evidence.jobs = evidence;
                let s = &s;
                let index = Index::new(s);
                for cj in &s.cron_jobs {
                    let input = ReplayInput {
                        cron_job: cj,
                        jobs: evidence.then_some(s.jobs.as_slice()),
                        now: opts.now,
                        controller_zone: opts.controller_zone,
                        version,
                    };
                    let filtered = serde_json::to_string(&replay::replay(&input)).unwrap();
                    let indexed =
                        serde_json::to_string(&gather(cj, &index, s.evidence, &opts).rep).unwrap();
                    assert_eq!(indexed, filtered, "{} at {version:?}", cj.meta.name);
                    compared += usize::from(evidence && !index.jobs_of(cj).is_empty());
                }
            }
        }
        assert!(
            compared > 10,
            "CronJobs with Jobs of their own were compared"
        );
    }
}
