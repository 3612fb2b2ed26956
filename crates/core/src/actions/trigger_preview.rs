//! What creating `trigger`'s Job means, said before it is created: a manual Job is invisible
//! to the controller (no `controller: true` ownerReference), so concurrencyPolicy does not
//! apply to it, the history limits never prune it, and its success does not move
//! `status.lastSuccessfulTime` (kubernetes/kubernetes#126384, #110430, #115335).

use jiff::Timestamp;
use serde_json::Value;

use super::bullets;
use crate::evidence::job_start;
use crate::model::{ConcurrencyPolicy, CronJob, Job};
use crate::text::human_duration;

fn started(j: &Job, now: Timestamp) -> String {
    match job_start(j) {
        Some(t) => format!(
            "{} (started {} ago)",
            j.meta.name,
            human_duration(now.as_second() - t.as_second())
        ),
        None => j.meta.name.clone(),
    }
}

/// Unfinished Jobs of `cj`: (scheduled ones, manual ones). Without Job access, the
/// controller's `status.active` stands in for the scheduled ones.
fn running(cj: &CronJob, jobs: Option<&[Job]>, now: Timestamp) -> (Vec<String>, Vec<String>) {
    let Some(jobs) = jobs else {
        return (
            cj.status.active.iter().map(|a| a.name.clone()).collect(),
            Vec::new(),
        );
    };
    let unfinished = jobs.iter().filter(|j| !j.is_finished());
    let (mut scheduled, mut manual) = (Vec::new(), Vec::new());
    for j in unfinished {
        let controlled = j
            .meta
            .controller()
            .is_some_and(|o| o.kind == "CronJob" && o.name == cj.meta.name);
        if controlled || cj.status.active.iter().any(|a| a.name == j.meta.name) {
            scheduled.push(started(j, now));
        } else if j.is_manual()
            || j.meta
                .owner_references
                .iter()
                .any(|o| o.name == cj.meta.name)
        {
            manual.push(started(j, now));
        }
    }
    (scheduled, manual)
}

/// What creating this Job means, before it is created.
pub fn preview(
    cj: &CronJob,
    jobs: Option<&[Job]>,
    job: &Value,
    now: Timestamp,
    ns: &str,
) -> Vec<String> {
    let name = &cj.meta.name;
    let job_name = job["metadata"]["name"].as_str().unwrap_or_default();
    let mut out = vec![format!(
        "Run cronjob {ns}/{name} now: create Job {job_name} from its jobTemplate, as `kubectl create job {job_name} --from=cronjob/{name} -n {ns}` does."
    )];
    let (scheduled, manual) = running(cj, jobs, now);
    let now_running = if scheduled.is_empty() {
        "(no scheduled Job is running now)".to_string()
    } else {
        format!("(running now: {})", scheduled.join(", "))
    };
    let mut lines = match &cj.spec.concurrency_policy {
        ConcurrencyPolicy::Forbid => vec![
            "concurrencyPolicy Forbid: the manual run will not block the schedule, and a running scheduled Job means two run at once".to_string(),
            now_running,
        ],
        ConcurrencyPolicy::Replace => vec![
            "concurrencyPolicy Replace will not delete this manual Job, nor will this Job replace a running scheduled one: they run side by side".to_string(),
            now_running,
        ],
        ConcurrencyPolicy::Allow => vec![
            "concurrencyPolicy Allow: the manual run starts beside anything already running".to_string(),
            now_running,
        ],
        ConcurrencyPolicy::Other(p) => vec![format!(
            "concurrencyPolicy {p:?} is not a valid policy; manual runs ignore the policy anyway"
        )],
    };
    if !manual.is_empty() {
        lines.push(format!(
            "another manual run is still going: {}",
            manual.join(", ")
        ));
    }
    if jobs.is_none() {
        lines.push(
            "(Jobs could not be listed (forbidden): running Jobs are taken from status.active)"
                .into(),
        );
    }
    if cj.spec.suspend {
        lines.push(
            "the CronJob is suspended: the manual run starts anyway (suspend stops only the schedule)"
                .into(),
        );
    }
    let ttl = job["spec"]["ttlSecondsAfterFinished"].as_i64();
    lines.push(format!(
        "manual Jobs are not pruned by the history limits and do not update status.lastSuccessfulTime; {}",
        match ttl {
            Some(t) => format!("this one is deleted {} after it finishes (ttlSecondsAfterFinished)", human_duration(t)),
            None => format!("delete it when done: `kubectl delete job {job_name} -n {ns}`"),
        }
    ));
    out.extend(bullets(&lines));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::trigger::plan_job;

    fn cron_job(policy: &str, suspend: bool) -> (CronJob, Value) {
        let yaml = format!(
            r#"
apiVersion: batch/v1
kind: CronJob
metadata: {{name: sync, namespace: ops, uid: u1}}
spec:
  schedule: "*/5 * * * *"
  concurrencyPolicy: {policy}
  suspend: {suspend}
  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: i}}]}}}}}}}}
status:
  active: [{{name: sync-29919600, namespace: ops, uid: j1}}]
"#
        );
        let cj = crate::source::parse_text("t.yaml", &yaml)
            .cron_jobs
            .remove(0);
        let raw: Value = serde_saphyr::from_str(&yaml).unwrap();
        (cj, plan_job(&raw, "sync-manual-b2c4d").unwrap())
    }

    #[test]
    fn replace_and_suspend_are_explained_without_job_access() {
        let (cj, job) = cron_job("Replace", true);
        let now: Timestamp = "2026-11-20T12:05:00Z".parse().unwrap();
        let lines = preview(&cj, None, &job, now, "ops");
        assert_eq!(
            lines[1..],
            [
                "  • concurrencyPolicy Replace will not delete this manual Job, nor will this Job replace a running scheduled one: they run side by side",
                "    (running now: sync-29919600)",
                "    (Jobs could not be listed (forbidden): running Jobs are taken from status.active)",
                "  • the CronJob is suspended: the manual run starts anyway (suspend stops only the schedule)",
                "  • manual Jobs are not pruned by the history limits and do not update status.lastSuccessfulTime; delete it when done: `kubectl delete job sync-manual-b2c4d -n ops`",
            ]
        );
    }
}
