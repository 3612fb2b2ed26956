//! One fix plan per CronJob: every finding's remedy merged into at most one JSON merge patch
//! plus the other commands in the order they must run, checked by replaying the patched
//! CronJob before it is shown.
//!
//! How the plan is made (also in docs/json.md):
//! - Only findings of severity warning or error take part (info findings keep their own
//!   advice).
//! - Fragments are merged in finding order (errors first, then registry order — the most
//!   decisive rule first). When two fragments set one field to different values, the earlier
//!   (more decisive) wins and the later fragment is left out whole: a rule's fragment is one
//!   coherent change, half of it could be wrong.
//! - Each fragment is replayed before it is kept: applied to the CronJob, the rules are
//!   re-run at the same instant, and the fragment is left out (and the plan says so) if that
//!   brings a warning or error that was not there, or if it changes nothing the replay can see
//!   while being the finding's whole remedy.
//! - A round first tries all its fragments together with one replay (the common case, and the
//!   cheap one for `scan`); only when that fails is each judged on its own, which is what
//!   names the part that was left out.
//! - Findings still present after a round propose fragments computed on the patched CronJob
//!   (e.g. a DST shift of the schedule that the time-zone fix just rewrote); those refine the
//!   earlier rounds' values. At most three rounds.
//! - `clears` is what the final replay no longer reports; `remaining` is what it still reports
//!   (causes outside the CronJob, such as a broken image, are always there).

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use super::index::{Index, namespace_of};
use super::merge_patch::{self, apply_to_cron_job, compose, conflict, leaves};
use crate::model::{CronJob, Job, Snapshot};
use crate::rules::{Finding, Phase, Severity, patch_command};

/// Rules about slots that already passed (runs lost for good). No patch can change the past,
/// and they stay quiet while a more specific rule (suspended, too-many-missed, a zero
/// startingDeadlineSeconds) speaks for the same gap; once the patch fixes that rule they speak
/// for it. They are then listed under `remaining`, as revealed rather than introduced.
/// `not-running` is one of them: resuming a suspended CronJob does not bring back the runs the
/// suspension skipped, and the replay then counts them.
pub const REVEALED_NOT_INTRODUCED: &[&str] = &["only-latest-missed-runs", "not-running"];

/// Rounds of refinement (each re-runs the rules once per fragment it tries).
const ROUNDS: usize = 3;

/// The plan for one CronJob, as serialised under `fix` in the JSON report.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FixPlan {
    /// The merge patch for the CronJob (`kubectl patch --type merge`), or null.
    pub patch: Option<Value>,
    /// Every command in the order to run it, the patch included (phase `patch`).
    pub commands: Vec<PlanCommand>,
    /// Slugs (warning and error) the replay of the patched CronJob no longer reports.
    pub clears: Vec<&'static str>,
    /// Slugs (warning and error) it still reports: the patch cannot fix them.
    pub remaining: Vec<&'static str>,
    /// Parts of the candidate plan that were left out, each with why.
    pub dropped: Vec<String>,
    /// The CronJob as read (with its origin), for turning the patch into file edits (SARIF).
    #[serde(skip)]
    pub target: Option<CronJob>,
}

/// One command of the plan with its one-line reason and the findings it is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlanCommand {
    pub phase: Phase,
    pub command: String,
    pub reason: String,
    #[serde(rename = "for")]
    pub for_slugs: Vec<&'static str>,
}

fn actionable(f: &Finding) -> bool {
    f.severity >= Severity::Warning
}

fn slugs(findings: &[Finding]) -> BTreeSet<&'static str> {
    findings
        .iter()
        .filter(|f| actionable(f))
        .map(|f| f.slug)
        .collect()
}

/// Plan the fix of `cj` (in `namespace`) from its `findings`. `recheck` re-runs the rules on a
/// patched copy of the CronJob at the same instant, with the same Jobs, Pods and Events.
pub fn plan(
    cj: &CronJob,
    namespace: &str,
    findings: &[Finding],
    recheck: &dyn Fn(&CronJob) -> Vec<Finding>,
) -> FixPlan {
    let baseline = slugs(findings);
    let mut out = FixPlan::default();
    let mut patch = Value::Object(Default::default());
    let mut contributors: Vec<&'static str> = Vec::new();
    let mut state = cj.clone();
    let mut current: Vec<Finding> = findings.to_vec();
    let mut tried: BTreeSet<String> = BTreeSet::new();
    for _ in 0..ROUNDS {
        let mut round = Value::Object(Default::default());
        let mut accepted_any = false;
        let candidates: Vec<Finding> = current.iter().filter(|f| actionable(f)).cloned().collect();
        // Fast path: the round's fragments together, replayed once. Taken when they do not
        // conflict, bring nothing new and each clears its own finding (or comes with other
        // steps); otherwise each fragment is judged on its own below, which names the culprit.
        if let Some(batch) = whole_round(cj, &patch, &state, &current, &candidates, recheck) {
            for slug in batch.slugs {
                if !contributors.contains(&slug) {
                    contributors.push(slug);
                }
            }
            for f in &candidates {
                if let Some(fr) = &f.remedy.patch {
                    tried.insert(format!("{}{fr}", f.slug));
                }
            }
            patch = batch.patch;
            state = batch.state;
            current = batch.after;
            continue;
        }
        for f in &candidates {
            let Some(fragment) = &f.remedy.patch else {
                continue;
            };
            // Already part of the plan (two rules proposing one value): this finding shares
            // the change.
            let have = leaves(&patch);
            if leaves(fragment).iter().all(|l| have.contains(l)) {
                if !contributors.contains(&f.slug) {
                    contributors.push(f.slug);
                }
                continue;
            }
            // Cleared on the way by a fragment kept earlier (e.g. a deadline that also bounds
            // the retries): nothing left for this one to do.
            if !slugs(&current).contains(f.slug) {
                continue;
            }
            // The same proposal twice (a later round, a second finding of one rule) is
            // judged once.
            if !tried.insert(format!("{}{fragment}", f.slug)) {
                continue;
            }
            if let Some(field) = conflict(&round, fragment) {
                out.dropped.push(format!(
                    "{}: its change to {field} was left out; a more decisive finding sets it differently",
                    f.slug
                ));
                continue;
            }
            let candidate = compose(&patch, fragment);
            let next = match apply_to_cron_job(cj, &candidate) {
                Ok(n) => n,
                Err(e) => {
                    out.dropped.push(format!("{}: left out, {e}", f.slug));
                    continue;
                }
            };
            if next == state {
                // Already what the plan does: this finding shares the change.
                if !contributors.contains(&f.slug) {
                    contributors.push(f.slug);
                }
                continue;
            }
            let after = recheck(&next);
            let before = slugs(&current);
            let now = slugs(&after);
            let new: Vec<&str> = now
                .difference(&before)
                .copied()
                .filter(|s| !REVEALED_NOT_INTRODUCED.contains(s))
                .collect();
            if !new.is_empty() {
                out.dropped.push(format!(
                    "{}: its change ({}) was left out: the replay then reports {}",
                    f.slug,
                    describe(fragment),
                    new.join(", ")
                ));
                continue;
            }
            let clears_something = before.difference(&now).next().is_some();
            let has_other_steps = !f.remedy.steps.is_empty();
            if !clears_something && !has_other_steps {
                out.dropped.push(format!(
                    "{}: its change ({}) was left out: the replay shows it clears nothing",
                    f.slug,
                    describe(fragment)
                ));
                continue;
            }
            round = compose(&round, fragment);
            patch = candidate;
            state = next;
            current = after;
            if !contributors.contains(&f.slug) {
                contributors.push(f.slug);
            }
            accepted_any = true;
        }
        if !accepted_any {
            break;
        }
    }
    let has_patch = patch.as_object().is_some_and(|m| !m.is_empty());
    let remaining = slugs(&current);
    out.clears = baseline.difference(&remaining).copied().collect();
    out.remaining = remaining
        .into_iter()
        .filter(|s| baseline.contains(s) || REVEALED_NOT_INTRODUCED.contains(s))
        .collect();
    // A fragment left out in one round may have been refined and kept in a later one.
    out.dropped.retain(|d| {
        !contributors
            .iter()
            .any(|c| d.starts_with(&format!("{c}: ")) && out.clears.contains(c))
    });
    let notes: Vec<String> = findings
        .iter()
        .filter(|f| contributors.contains(&f.slug))
        .filter_map(|f| f.remedy.patch_note.clone())
        .collect();
    out.commands = commands(
        cj,
        namespace,
        findings,
        has_patch.then_some(&patch),
        &contributors,
        &notes,
    );
    out.patch = has_patch.then_some(patch);
    out
}

/// A whole round accepted at once.
struct Batch {
    patch: Value,
    state: CronJob,
    after: Vec<Finding>,
    slugs: Vec<&'static str>,
}

/// Try every new fragment of a round together (see [`plan`]); None when there is nothing new
/// or any condition fails (the caller then judges the fragments one by one).
fn whole_round(
    cj: &CronJob,
    patch: &Value,
    state: &CronJob,
    current: &[Finding],
    candidates: &[Finding],
    recheck: &dyn Fn(&CronJob) -> Vec<Finding>,
) -> Option<Batch> {
    let mut round = Value::Object(Default::default());
    let mut with_patch: Vec<&Finding> = Vec::new();
    for f in candidates {
        let Some(fragment) = &f.remedy.patch else {
            continue;
        };
        conflict(&round, fragment).is_none().then_some(())?;
        round = compose(&round, fragment);
        with_patch.push(f);
    }
    let candidate = compose(patch, &round);
    let next = apply_to_cron_job(cj, &candidate).ok()?;
    if next == *state {
        return None;
    }
    let after = recheck(&next);
    let before = slugs(current);
    let now = slugs(&after);
    let brings_new = now
        .difference(&before)
        .any(|s| !REVEALED_NOT_INTRODUCED.contains(s));
    let each_earns_its_place = with_patch
        .iter()
        .all(|f| !now.contains(f.slug) || !f.remedy.steps.is_empty());
    (!brings_new && each_earns_its_place).then(|| Batch {
        patch: candidate,
        state: next,
        after,
        slugs: with_patch.iter().map(|f| f.slug).collect(),
    })
}

/// The plan's commands: the steps of every actionable finding (deduplicated, reasons and
/// slugs merged) and the one patch, ordered by phase.
fn commands(
    cj: &CronJob,
    namespace: &str,
    findings: &[Finding],
    patch: Option<&Value>,
    contributors: &[&'static str],
    notes: &[String],
) -> Vec<PlanCommand> {
    let mut out: Vec<PlanCommand> = Vec::new();
    // A manifest the API server would refuse exists in no cluster: `kubectl patch` would fail
    // (or change another object of that name). Its patch is an edit of the file, said as a
    // comment so that pasting the plan stays harmless (SARIF carries the edit itself).
    let refused = crate::rules::refused_on_create(cj, findings);
    if let Some(p) = patch {
        let command = if refused {
            let place = cj
                .origin
                .as_ref()
                // One line whatever the file is called: a newline would end the comment.
                .map(|o| format!("{}:{}", super::visible::one_line(&o.file), o.position.line))
                .unwrap_or_else(|| "the manifest".into());
            format!(
                "# edit {place} before applying it (the API server refuses it as written): merge {p}"
            )
        } else {
            patch_command(&cj.meta.name, namespace, p)
        };
        out.push(PlanCommand {
            phase: Phase::Patch,
            command,
            reason: std::iter::once(format!("set {}", describe(p)))
                .chain(notes.iter().cloned())
                .collect::<Vec<_>>()
                .join("; "),
            for_slugs: contributors.to_vec(),
        });
    }
    for f in findings.iter().filter(|f| actionable(f)) {
        for s in &f.remedy.steps {
            match out.iter_mut().find(|c| c.command == s.command) {
                Some(c) => {
                    if !c.for_slugs.contains(&f.slug) {
                        c.for_slugs.push(f.slug);
                    }
                }
                None => out.push(PlanCommand {
                    phase: s.phase,
                    command: s.command.clone(),
                    reason: s.reason.clone(),
                    for_slugs: vec![f.slug],
                }),
            }
        }
    }
    // Stable: inside one phase, the most decisive finding's command first.
    out.sort_by_key(|c| c.phase);
    out
}

/// `spec.schedule "0 3 * * *", spec.timeZone "UTC"` — what a patch sets, in one line.
fn describe(patch: &Value) -> String {
    leaves(patch)
        .into_iter()
        .map(|(path, v)| match v {
            Value::Null => format!("remove {path}"),
            v => format!("{path} {v}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Apply a plan's patch to a CronJob (for callers that verify a plan from outside).
pub fn apply_plan(cj: &CronJob, plan: &FixPlan) -> Result<CronJob, merge_patch::PatchError> {
    match &plan.patch {
        Some(p) => merge_patch::apply_to_cron_job(cj, p),
        None => Ok(cj.clone()),
    }
}

/// What the report of a CronJob found out before its plan is made: what was gathered for it
/// (its objects, the replay) and each rule's findings (`rules::run_rules`).
pub(super) struct Diagnosed<'g, 's> {
    pub gathered: &'g super::Gathered<'s>,
    pub per_rule: &'g [Vec<Finding>],
}

/// The plan of `cj` (read from `snapshot`), whose report found `findings`. The replay sees
/// only the CronJob's own Jobs, Pods and Events, so a scan stays linear in the snapshot.
pub(super) fn plan_one(
    cj: &CronJob,
    findings: &[Finding],
    diagnosed: &Diagnosed,
    index: &Index,
    snapshot: &Snapshot,
    opts: &super::Options,
) -> FixPlan {
    // The re-checks see only the CronJob's own Jobs, Pods and Events (as read, not as
    // patched): that small index is the same for every re-check, so it is built once (over
    // references: nothing is cloned), and each re-check computes only the findings the plan
    // compares.
    let ns = namespace_of(&cj.meta.namespace);
    let jobs: Vec<&Job> = index
        .jobs_of(cj)
        .into_iter()
        .chain(index.manual_jobs_of(cj))
        .collect();
    let mut pods = Vec::new();
    for j in &jobs {
        pods.extend(index.pods_of(ns, &j.meta.name));
    }
    let owned = index.jobs_of(cj);
    let events = index.events_for(cj, &owned, &pods);
    let own_index = Index::over(jobs, pods, events);
    let recheck = |patched: &CronJob| -> Vec<Finding> {
        template_recheck(cj, patched, diagnosed, snapshot.evidence, opts)
            .unwrap_or_else(|| super::findings_only(patched, &own_index, snapshot.evidence, opts))
    };
    let mut out = plan(cj, &diagnosed.gathered.ns, findings, &recheck);
    if out.patch.is_some() && cj.origin.is_some() {
        out.target = Some(cj.clone());
    }
    out
}

/// The re-check of `patched` when it differs from `cj` only inside `spec.jobTemplate` (most
/// plans: a deadline or a retry limit): neither the replay nor any rule outside
/// `rules::READS_JOB_TEMPLATE` reads the template, so what `cj`'s report gathered and found
/// stands for them and only the template's rules run again. A re-check otherwise replays
/// the controller and runs every rule (a good part of `scan -A -o json`'s CPU:
/// BENCHMARKS.md, "scan -A at scale"). None: any other change, or the memos bypassed (the
/// tests' fresh answers).
fn template_recheck(
    cj: &CronJob,
    patched: &CronJob,
    diagnosed: &Diagnosed,
    evidence: crate::model::Evidence,
    opts: &super::Options,
) -> Option<Vec<Finding>> {
    if crate::memo::bypassing() || !only_template_differs(cj, patched) {
        return None;
    }
    let ctx = diagnosed.gathered.context(patched, evidence, opts);
    let per_rule = crate::rules::rerun_template_rules(&ctx, diagnosed.per_rule);
    Some(super::findings_of(&ctx, per_rule, opts))
}

/// Whether `a` and `b` are the same CronJob but for `spec.jobTemplate`. Every field is named,
/// so a field added to the model must be placed on one side or the other.
fn only_template_differs(a: &CronJob, b: &CronJob) -> bool {
    let CronJob {
        api_version,
        meta,
        spec,
        status,
        origin,
    } = a;
    let crate::model::CronJobSpec {
        schedule,
        time_zone,
        starting_deadline_seconds,
        concurrency_policy,
        suspend,
        successful_jobs_history_limit,
        failed_jobs_history_limit,
        job_template: _,
    } = spec;
    *api_version == b.api_version
        && *meta == b.meta
        && *status == b.status
        && *origin == b.origin
        && *schedule == b.spec.schedule
        && *time_zone == b.spec.time_zone
        && *starting_deadline_seconds == b.spec.starting_deadline_seconds
        && *concurrency_policy == b.spec.concurrency_policy
        && *suspend == b.spec.suspend
        && *successful_jobs_history_limit == b.spec.successful_jobs_history_limit
        && *failed_jobs_history_limit == b.spec.failed_jobs_history_limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::find;
    use serde_json::json;

    fn finding(slug: &str, patch: Option<Value>) -> Finding {
        let mut f = Finding::new(find(slug).unwrap(), "m").severity(Severity::Warning);
        if let Some(p) = patch {
            f = f.patch(p);
        }
        f
    }

    fn cron_job() -> CronJob {
        let mut cj = CronJob::default();
        cj.meta.name = "cj".into();
        cj.spec.schedule = Some("30 2 * * *".into());
        cj
    }

    /// A fake rule set: dst-gap while the schedule is 02:30, suspended while suspended,
    /// overlapping-runs unless Forbid, and active-deadline-missing once Forbid has no deadline.
    fn recheck(cj: &CronJob) -> Vec<Finding> {
        let mut out = Vec::new();
        if cj.spec.schedule.as_deref() == Some("30 2 * * *") {
            out.push(finding("dst-gap", None));
        }
        if cj.spec.suspend {
            out.push(finding("suspended", None));
        }
        let forbid = cj.spec.concurrency_policy == crate::model::ConcurrencyPolicy::Forbid;
        if !forbid {
            out.push(finding("overlapping-runs", None));
        }
        if forbid && cj.spec.job_template.spec.active_deadline_seconds.is_none() {
            out.push(finding("active-deadline-missing", None));
        }
        out
    }

    #[test]
    fn the_more_decisive_fragment_wins_a_conflict_and_the_other_is_named() {
        let findings = vec![
            finding("dst-gap", Some(json!({"spec": {"schedule": "30 3 * * *"}}))),
            finding(
                "dst-repeat",
                Some(json!({"spec": {"schedule": "30 1 * * *"}})),
            ),
            finding("overlapping-runs", None),
        ];
        // dst-repeat stays unless its own schedule is used.
        let with_repeat = |cj: &CronJob| {
            let mut out = recheck(cj);
            if cj.spec.schedule.as_deref() != Some("30 1 * * *") {
                out.push(finding("dst-repeat", None));
            }
            out
        };
        let p = plan(&cron_job(), "ns", &findings, &with_repeat);
        assert_eq!(p.patch, Some(json!({"spec": {"schedule": "30 3 * * *"}})));
        assert_eq!(p.clears, ["dst-gap"]);
        assert_eq!(p.remaining, ["dst-repeat", "overlapping-runs"]);
        assert_eq!(p.dropped.len(), 1, "{:?}", p.dropped);
        assert!(p.dropped[0].starts_with("dst-repeat: its change to spec.schedule"));
        let patch_cmds: Vec<_> = p
            .commands
            .iter()
            .filter(|c| c.phase == Phase::Patch)
            .collect();
        assert_eq!(patch_cmds.len(), 1);
        assert_eq!(
            patch_cmds[0].command,
            r#"kubectl patch cronjob cj -n ns --type merge -p '{"spec":{"schedule":"30 3 * * *"}}'"#
        );
    }

    #[test]
    fn a_fragment_that_brings_a_new_warning_is_left_out() {
        // Forbid without a deadline would bring active-deadline-missing: left out, said so.
        let mut cj = cron_job();
        cj.spec.schedule = Some("0 3 * * *".into());
        let findings = vec![finding(
            "overlapping-runs",
            Some(json!({"spec": {"concurrencyPolicy": "Forbid"}})),
        )];
        let p = plan(&cj, "ns", &findings, &recheck);
        assert_eq!(p.patch, None);
        assert!(p.commands.is_empty());
        assert_eq!(p.remaining, ["overlapping-runs"]);
        assert!(
            p.dropped[0].contains("active-deadline-missing"),
            "{:?}",
            p.dropped
        );
    }

    #[test]
    fn fragments_merge_and_steps_follow_in_phase_order() {
        let findings = vec![
            finding("suspended", Some(json!({"spec": {"suspend": false}})))
                .step(Phase::Cleanup, "kubectl delete job j -n ns", "clean up")
                .step(Phase::Cause, "kubectl describe pod p -n ns", "look first"),
            finding("dst-gap", Some(json!({"spec": {"schedule": "30 3 * * *"}}))).step(
                Phase::Cleanup,
                "kubectl delete job j -n ns",
                "clean up",
            ),
        ];
        let mut cj = cron_job();
        cj.spec.suspend = true;
        cj.spec.concurrency_policy = crate::model::ConcurrencyPolicy::Forbid;
        cj.spec.job_template.spec.active_deadline_seconds = Some(60);
        let p = plan(&cj, "ns", &findings, &recheck);
        assert_eq!(
            p.patch,
            Some(json!({"spec": {"schedule": "30 3 * * *", "suspend": false}}))
        );
        assert_eq!(p.clears, ["dst-gap", "suspended"]);
        let phases: Vec<Phase> = p.commands.iter().map(|c| c.phase).collect();
        assert_eq!(phases, [Phase::Cause, Phase::Patch, Phase::Cleanup]);
        // One delete for both findings that asked for it.
        assert_eq!(p.commands[2].for_slugs, ["suspended", "dst-gap"]);
        // The plan, applied, is the state the replay judged.
        let after = apply_plan(&cj, &p).unwrap();
        assert!(recheck(&after).is_empty());
    }
}
