//! CJD023 backoff-limit-too-large: the Job controller waits 10 s × 2^(k−1) (capped) before the
//! k-th retry, so a failing run can take longer than the schedule's interval on back-off alone
//! (D.1). Under Forbid it then blocks the next slot; under Allow its retries overlap the next run.
//!
//! Quiet when the Jobs are managed by another controller (`spec.managedBy` other than
//! `kubernetes.io/job-controller`, honoured from 1.32, JobManagedBy on by default; GA 1.35):
//! retries and their back-off are then that controller's business, not the Job controller's
//! whose delays this rule adds up. Before 1.32 the API server drops the field and the rule
//! speaks as usual.

use super::common::{interval, managed_elsewhere, secs};
use crate::model::ConcurrencyPolicy;
use crate::rules::{Context, Finding, Rule, Severity};
use crate::text::human_duration;

/// `MaxJobPodFailureBackOff` in current Job controllers; older ones capped at 360 s.
const CAP: i64 = 600;
const OLD_CAP: i64 = 360;
/// `spec.backoffLimit` default in batch/v1.
const DEFAULT_LIMIT: i64 = 6;

pub static RULE: Rule = Rule {
    id: "CJD023",
    slug: "backoff-limit-too-large",
    severity: Severity::Warning,
    summary: "A failing run's retry back-off alone lasts longer than the schedule's interval.",
    explanation: "Before retrying a failed Pod the Job controller waits 10 s, then 20 s, 40 s, … \
doubling up to a cap (10 minutes in current Job controllers, 6 minutes in older ones), for up \
to `backoffLimit` retries (default 6). The sum of those delays — plus the run time of every \
attempt — is how long a consistently failing run keeps its Job active. When that exceeds the \
time between slots, under `Forbid` a failing run blocks the next slot (JobAlreadyActive), and \
under `Allow` its retries overlap the next run. `activeDeadlineSeconds`, when set, ends the Job \
earlier and takes precedence. Quiet when the Jobs are managed by another controller (`spec.managedBy`, honoured from \
1.32): their retries are that controller's business.",
    remediation: "Lower `backoffLimit` so the retries fit well inside the interval (the next slot is \
the retry), or bound the whole Job with `activeDeadlineSeconds` below the interval.",
    fires_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/5 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    quiet_on: r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: sync, namespace: ops}
spec:
  schedule: "*/5 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {backoffLimit: 3, template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
"#,
    example_now: "2026-11-20T12:00:00Z",
    check,
};

/// The back-off delays before retries 1..=limit, with `cap`: (terms shown, total seconds).
/// Terms at the cap are folded into `N × cap` so a limit of 10,000 stays cheap.
fn budget(limit: i64, cap: i64) -> (Vec<String>, i64) {
    let mut terms = Vec::new();
    let mut total: i64 = 0;
    let mut k = 1;
    while k <= limit {
        let delay = if k > 40 {
            cap
        } else {
            (10i64 << (k - 1)).min(cap)
        };
        if delay == cap {
            let rest = limit - k + 1;
            total = total.saturating_add(rest.saturating_mul(cap));
            terms.push(if rest == 1 {
                format!("{cap}s")
            } else {
                format!("{rest} × {cap}s")
            });
            break;
        }
        total += delay;
        terms.push(format!("{delay}s"));
        k += 1;
    }
    (terms, total)
}

/// The largest limit whose back-off fits in half the interval.
fn fitting_limit(interval: i64) -> i64 {
    (0..=DEFAULT_LIMIT)
        .rev()
        .find(|l| budget(*l, CAP).1 * 2 <= interval)
        .unwrap_or(0)
}

fn check(ctx: &Context) -> Vec<Finding> {
    let cj = ctx.cron_job;
    let spec = &cj.spec.job_template.spec;
    if spec.backoff_limit_per_index.is_some() {
        return Vec::new(); // per-index limits default to MaxInt32 and count differently
    }
    if managed_elsewhere(ctx).is_some() {
        return Vec::new(); // another controller retries (or not) on its own terms
    }
    let consequence = match cj.spec.concurrency_policy {
        ConcurrencyPolicy::Forbid => "under Forbid a failing run blocks the next slot",
        ConcurrencyPolicy::Allow => "under Allow its retries overlap the next run",
        _ => return Vec::new(),
    };
    let Some(c) = interval(ctx) else {
        return Vec::new();
    };
    let iv = c.typical_seconds;
    let limit = spec.backoff_limit.unwrap_or(DEFAULT_LIMIT);
    let (terms, total) = budget(limit, CAP);
    if total <= iv || spec.active_deadline_seconds.is_some_and(|ads| ads <= iv) {
        return Vec::new();
    }
    let shown = if spec.backoff_limit.is_some() {
        format!("backoffLimit {limit}")
    } else {
        format!("backoffLimit {limit} (the default)")
    };
    let mut f = Finding::new(
        &RULE,
        format!(
            "{shown} lets a failing run retry with {} of back-off alone, longer than the schedule's {} interval: {consequence}.",
            human_duration(total),
            human_duration(iv)
        ),
    )
    .field("spec.jobTemplate.spec.backoffLimit")
    .evidence(format!(
        "back-off before retries 1–{limit}: {} = {} (10s doubling, 10-minute cap of current Job controllers), plus the run time of {} attempts",
        terms.join(" + "),
        secs(total),
        limit.saturating_add(1)
    ));
    let old = budget(limit, OLD_CAP).1;
    if old != total {
        f = f.evidence(format!(
            "with the 6-minute cap of older Job controllers: {}",
            secs(old)
        ));
    }
    if let Some(ads) = spec.active_deadline_seconds.filter(|ads| *ads < total) {
        f = f.evidence(format!(
            "activeDeadlineSeconds {} ends it sooner, but is still longer than the interval",
            secs(ads)
        ));
    }
    if spec.restart_policy.as_deref() == Some("OnFailure") {
        f = f.evidence("restartPolicy OnFailure: failed containers restart in place under the kubelet's back-off (also 10s doubling, capped at 5 minutes) rather than the Job controller's");
    }
    let fit = fitting_limit(iv);
    vec![
        f.fix(format!(
            "Lower backoffLimit to {fit} ({} of back-off, within half the interval) — the next slot is the retry — or bound the Job with activeDeadlineSeconds below the interval",
            human_duration(budget(fit, CAP).1)
        ))
        .patch(serde_json::json!({"spec": {"jobTemplate": {"spec": {"backoffLimit": fit}}}})),
    ]
}

#[cfg(test)]
mod tests {
    use super::{RULE, budget};
    use crate::rules::examples::{findings, run};

    #[test]
    fn the_arithmetic() {
        assert_eq!(budget(6, 600).1, 630); // 10+20+40+80+160+320
        assert_eq!(budget(0, 600).1, 0);
        assert_eq!(budget(7, 600).1, 1230); // + 600 (640 capped)
        assert_eq!(budget(7, 360).1, 990); // + 360
        assert_eq!(budget(25, 600).0.last().unwrap(), "19 × 600s");
        assert_eq!(
            budget(i64::from(i32::MAX), 600).1,
            630 + (i64::from(i32::MAX) - 6) * 600
        );
    }

    #[test]
    fn default_limit_on_a_five_minute_schedule() {
        let r = run(RULE.fires_on, RULE.example_now);
        let f = findings(&r, "backoff-limit-too-large");
        assert_eq!(
            f[0].message,
            "backoffLimit 6 (the default) lets a failing run retry with 10m30s of back-off alone, longer than the schedule's 5m interval: under Forbid a failing run blocks the next slot."
        );
        assert_eq!(
            f[0].evidence[0],
            "back-off before retries 1–6: 10s + 20s + 40s + 80s + 160s + 320s = 630s (10m30s) (10s doubling, 10-minute cap of current Job controllers), plus the run time of 7 attempts"
        );
        assert!(
            f[0].command
                .as_deref()
                .unwrap()
                .contains(r#""backoffLimit":4"#)
        );
    }
}
