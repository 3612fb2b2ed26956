//! CJD039 ran-more-than-once: the most recent run's work started more than once — a failed
//! Pod the Job retried, a container restarted in place, a Pod replaced after an eviction or a
//! lost node — and the run still succeeded (or is running), so nothing else says so. The side
//! effects of every failed attempt happened too.

use super::common::{slot_words, stories};
use crate::rules::{Context, Finding, Rule, Severity};
use crate::runs::{Attempt, Outcome};
use crate::text::human_duration;

pub static RULE: Rule = Rule {
    id: "CJD039",
    slug: "ran-more-than-once",
    severity: Severity::Warning,
    summary: "The most recent run's work started more than once (retries, restarts, replaced Pods).",
    explanation: "A Job retries: a Pod that fails is replaced (`restartPolicy: Never`, up to \
`backoffLimit`), a container that fails is restarted in place (`restartPolicy: OnFailure`, \
`restartCount` and `lastState`), and a Pod lost to an eviction, a preemption or a dead node is \
replaced. The run then ends well, and the CronJob's status shows one success — but the work ran \
again from the start, and whatever the failed attempts did (sent mail, charged cards, wrote \
half a file) happened once per attempt. Counted per completion index for indexed Jobs. Not \
reported when the run failed in the end: `jobs-failing` says that. Pods already deleted are \
counted from the Job's `status.failed`; their reasons are gone.",
    remediation: "Make the work idempotent, or stop the retries that repeat it: fix the failure \
the attempts name (OOMKilled: a higher memory limit), set `backoffLimit: 0` for work that must \
not run twice, or a `podFailurePolicy` that fails the Job on the exit codes that mean \"do not \
retry\" (and `Ignore` for disruptions, which are not the workload's fault). Under \
`restartPolicy: OnFailure` the container restarts in place; `Never` makes every attempt a Pod \
you can read.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: billing, namespace: fin, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 2 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T02:00:00Z", lastSuccessfulTime: "2026-11-20T02:20:10Z"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: billing-29919000, namespace: fin, uid: j1, creationTimestamp: "2026-11-20T02:00:01Z", ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: billing, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T02:00:01Z", completionTime: "2026-11-20T02:20:10Z", succeeded: 1, failed: 1, conditions: [{type: Complete, status: "True"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: billing-29919000-aaaaa, namespace: fin, creationTimestamp: "2026-11-20T02:00:02Z", labels: {job-name: billing-29919000}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: billing-29919000, uid: j1, controller: true}]}
status:
  phase: Failed
  containerStatuses:
  - {name: c, image: c:1, restartCount: 0, state: {terminated: {exitCode: 137, reason: OOMKilled, startedAt: "2026-11-20T02:00:05Z", finishedAt: "2026-11-20T02:08:05Z"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: billing-29919000-bbbbb, namespace: fin, creationTimestamp: "2026-11-20T02:08:16Z", labels: {job-name: billing-29919000}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: billing-29919000, uid: j1, controller: true}]}
status:
  phase: Succeeded
  containerStatuses:
  - {name: c, image: c:1, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2026-11-20T02:08:20Z", finishedAt: "2026-11-20T02:20:08Z"}}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: billing, namespace: fin, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 2 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T02:00:00Z", lastSuccessfulTime: "2026-11-20T02:12:00Z"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: billing-29919000, namespace: fin, uid: j1, creationTimestamp: "2026-11-20T02:00:01Z", ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: billing, uid: u1, controller: true}]}
status: {startTime: "2026-11-20T02:00:01Z", completionTime: "2026-11-20T02:12:00Z", succeeded: 1, conditions: [{type: Complete, status: "True"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: billing-29919000-aaaaa, namespace: fin, creationTimestamp: "2026-11-20T02:00:02Z", labels: {job-name: billing-29919000}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: billing-29919000, uid: j1, controller: true}]}
status:
  phase: Succeeded
  containerStatuses:
  - {name: c, image: c:1, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2026-11-20T02:00:05Z", finishedAt: "2026-11-20T02:11:58Z"}}}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// "the first OOMKilled after 8m, the second succeeded".
fn ordinal(i: usize) -> String {
    match i {
        0 => "the first".into(),
        1 => "the second".into(),
        2 => "the third".into(),
        n => format!("attempt {}", n.saturating_add(1)),
    }
}

fn attempts_text(attempts: &[Attempt], pruned: u32) -> String {
    let mut parts: Vec<String> = Vec::new();
    if pruned > 0 {
        parts.push(format!(
            "{pruned} earlier failed pod{} no longer recorded",
            if pruned == 1 { "" } else { "s" }
        ));
    }
    // The ordinal of each entry's first start: an entry may stand for several restarts.
    let mut start = usize::try_from(pruned).unwrap_or(usize::MAX);
    let shown = 6;
    for a in attempts.iter().take(shown) {
        let how = if a.in_place {
            " (restarted in place)"
        } else {
            ""
        };
        let index = a.index.map(|x| format!(" [index {x}]")).unwrap_or_default();
        parts.push(format!("{}{index}{how} {}", ordinal(start), a.describe()));
        start = start.saturating_add(usize::try_from(a.times).unwrap_or(usize::MAX));
    }
    if attempts.len() > shown {
        parts.push(format!("{} more", attempts.len() - shown));
    }
    parts.join(", ")
}

/// The newest run whose attempts are known.
fn newest_counted<'c, 'a>(
    ctx: &'c Context<'a>,
) -> Option<(&'a crate::model::Job, &'c crate::runs::RunStory)> {
    stories(ctx)
        .iter()
        .find(|(_, s)| s.attempt_count.is_some())
        .map(|(j, s)| (*j, s))
}

/// A table cell's words: "2 attempts (first: OOMKilled after 8m)".
pub fn short_status(ctx: &Context) -> Option<String> {
    let (job, s) = newest_counted(ctx)?;
    let n = s.attempt_count.filter(|&n| n > 1)?;
    if job.is_failed() {
        return None;
    }
    Some(match s.failed_attempts().next() {
        Some(a) => format!("{n} attempts (first: {})", a.describe()),
        None => format!("{n} attempts"),
    })
}

fn check(ctx: &Context) -> Vec<Finding> {
    let Some((job, s)) = newest_counted(ctx) else {
        return Vec::new();
    };
    let Some(count) = s.attempt_count.filter(|&n| n > 1) else {
        return Vec::new();
    };
    if job.is_failed() {
        return Vec::new(); // jobs-failing tells that story
    }
    let which = match s.stages.slot.filter(|_| !job.is_manual()) {
        Some(t) => format!("The {} run (Job {})", slot_words(ctx, t), job.meta.name),
        None => format!("The run of Job {}", job.meta.name),
    };
    let state = if job.is_succeeded() {
        "succeeded"
    } else {
        "is still running"
    };
    let failed: Vec<&Attempt> = s.failed_attempts().collect();
    let wasted: i64 = failed
        .iter()
        .filter_map(|a| Some((a.ended? - a.started?).get_seconds().max(0)))
        .sum();
    let first_failure = failed.first().map_or_else(
        || "its failures are no longer recorded".to_string(),
        |a| format!("the first attempt {}", a.describe()),
    );
    let times = if count == 2 {
        "twice".to_string()
    } else {
        format!("{count} times")
    };
    let mut f = Finding::new(
        &RULE,
        format!(
            "{which} {state} after {count} attempts: {}. The work of every failed attempt ran too{}.",
            attempts_text(&s.attempts, s.pruned_failures),
            if wasted > 0 {
                format!(" ({} of it)", human_duration(wasted))
            } else {
                String::new()
            }
        ),
    );
    f = f.headline(match s.stages.slot.filter(|_| !job.is_manual()) {
        Some(t) => format!(
            "ran its {} run {times}: {first_failure}",
            slot_words(ctx, t)
        ),
        None => format!("ran Job {} {times}: {first_failure}", job.meta.name),
    });
    for a in &s.attempts {
        let when = match (a.started, a.ended) {
            (Some(st), Some(e)) => format!("{} – {}", ctx.show_time(st), ctx.show_time(e)),
            (Some(st), None) => format!("from {}", ctx.show_time(st)),
            _ => "times unknown".into(),
        };
        f = f.evidence(format!("pod {}: {} ({when})", a.pod, a.describe()));
    }
    let oom = failed
        .iter()
        .any(|a| matches!(&a.outcome, Outcome::Failed { reason, .. } if reason == "OOMKilled"));
    let disrupted = failed
        .iter()
        .any(|a| matches!(a.outcome, Outcome::Disrupted { .. }));
    let mut fix = String::from("Make the work safe to run twice, or stop the retries: ");
    if oom {
        fix.push_str("raise the memory limit the OOMKilled attempts hit; ");
    }
    fix.push_str("backoffLimit: 0 for work that must not repeat, or a podFailurePolicy that fails the Job on the exit codes that mean \"do not retry\"");
    if disrupted {
        fix.push_str(
            " (and Ignore for DisruptionTarget, so a lost node is not counted as a failure)",
        );
    }
    vec![f.fix(fix)]
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::rules::examples::{findings, run};

    #[test]
    fn an_oomkilled_first_pod_and_a_successful_retry() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "ran-more-than-once");
        assert_eq!(
            f[0].message,
            "The 02:00 run (Job billing-29919000) succeeded after 2 attempts: the first OOMKilled after 8m, the second succeeded. The work of every failed attempt ran too (8m of it)."
        );
        assert!(f[0].remediation.contains("raise the memory limit"));
        assert_eq!(
            r.cron_jobs[0].headline,
            "billing ran its 02:00 run twice: the first attempt OOMKilled after 8m"
        );
        assert_eq!(
            r.cron_jobs[0].status,
            "2 attempts (first: OOMKilled after 8m)"
        );
    }

    #[test]
    fn a_restart_in_place_counts_and_a_failed_run_is_left_to_jobs_failing() {
        // One Pod, restarted once under OnFailure.
        let in_place = RULE
            .fires_on
            .split("\n---\napiVersion: v1\nkind: Pod")
            .next()
            .unwrap()
            .replace("failed: 1, ", "")
            + r#"
---
apiVersion: v1
kind: Pod
metadata: {name: billing-29919000-aaaaa, namespace: fin, labels: {job-name: billing-29919000}}
status:
  phase: Succeeded
  containerStatuses:
  - name: c
    image: c:1
    restartCount: 1
    state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2026-11-20T02:05:00Z", finishedAt: "2026-11-20T02:15:00Z"}}
    lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-11-20T02:00:05Z", finishedAt: "2026-11-20T02:04:50Z"}}
"#;
        let r = run(&in_place, RULE.example_now);
        let f = findings(&r, "ran-more-than-once");
        assert_eq!(
            f[0].message,
            "The 02:00 run (Job billing-29919000) succeeded after 2 attempts: the first failed with exit code 1 after 4m45s, the second (restarted in place) succeeded. The work of every failed attempt ran too (4m45s of it)."
        );
        let failed = RULE.fires_on.replace(
            "completionTime: \"2026-11-20T02:20:10Z\", succeeded: 1, failed: 1, conditions: [{type: Complete, status: \"True\"}]",
            "failed: 2, conditions: [{type: Failed, status: \"True\", reason: BackoffLimitExceeded}]",
        );
        assert_ne!(failed, RULE.fires_on);
        assert!(findings(&run(&failed, RULE.example_now), "ran-more-than-once").is_empty());
    }

    #[test]
    fn indexed_jobs_count_per_index_and_other_jobs_pods_do_not_count() {
        // Three indexes, each once: one attempt each, not three.
        let mut y = RULE
            .fires_on
            .split("\n---\napiVersion: v1\nkind: Pod")
            .next()
            .unwrap()
            .replace("failed: 1, ", "");
        for i in 0..3 {
            y += &format!(
                "\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: billing-29919000-{i}-x, namespace: fin, labels: {{job-name: billing-29919000, batch.kubernetes.io/job-completion-index: \"{i}\"}}, ownerReferences: [{{apiVersion: batch/v1, kind: Job, name: billing-29919000, uid: j1, controller: true}}]}}\nstatus:\n  phase: Succeeded\n  containerStatuses:\n  - {{name: c, image: c:1, restartCount: 0, state: {{terminated: {{exitCode: 0, startedAt: \"2026-11-20T02:00:05Z\", finishedAt: \"2026-11-20T02:10:00Z\"}}}}}}\n"
            );
        }
        assert!(findings(&run(&y, RULE.example_now), "ran-more-than-once").is_empty());
        // The failed Pod belongs to an earlier Job of the same name (another uid): not an
        // attempt of this one.
        let other = RULE
            .fires_on
            .replacen(
                "name: billing-29919000, uid: j1, controller: true}]}\nstatus:\n  phase: Failed",
                "name: billing-29919000, uid: j0, controller: true}]}\nstatus:\n  phase: Failed",
                1,
            )
            .replace("failed: 1, ", "");
        assert_ne!(other, RULE.fires_on);
        assert!(findings(&run(&other, RULE.example_now), "ran-more-than-once").is_empty());
    }

    #[test]
    fn pruned_failures_are_counted_from_the_job() {
        let y = RULE.fires_on.replace("failed: 1, ", "failed: 2, ");
        let r = run(&y, RULE.example_now);
        let f = findings(&r, "ran-more-than-once");
        assert!(f[0].message.contains("after 3 attempts: 1 earlier failed pod no longer recorded, the second OOMKilled after 8m, the third succeeded"), "{}", f[0].message);
    }
}
