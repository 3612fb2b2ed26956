//! The Job lifecycle as the CronJob sees it: a Job decided
//! (`FailureTarget` / `SuccessCriteriaMet`, kubernetes#125510, 1.31) but held active by a Pod
//! stuck Terminating; `spec.managedBy` (KEP-4368, honoured by default from 1.32); a suspended
//! Job whose `status.startTime` is cleared (kubernetes#135104, on by default from 1.36).

use doctor::replay::KubeVersion;
use doctor::report::{Report, visible::for_terminal};
use doctor::rules::examples::{findings, run_with};

/// `explain --slot` for `slot` on the first CronJob of `yaml`.
fn slot_answer(yaml: &str, slot: &str, version: KubeVersion) -> String {
    let (snapshot, _) = doctor::source::parse_text("t.yaml", yaml).into_snapshot();
    let opts = doctor::report::Options::utc(NOW.parse().unwrap(), version, 8);
    let q = doctor::report::slot::SlotQuery::parse(slot).unwrap();
    doctor::report::slot::answer(&snapshot, &snapshot.cron_jobs[0], &opts, q).answer
}

const NOW: &str = "2026-11-20T12:00:00Z";
const EXAMPLE: &str = include_str!("../../../examples/forbid-blocked-by-terminating-pod.yaml");
const FORCE: &str = "kubectl delete pod report-29916120-q8z4d -n ops --grace-period=0 --force";

fn v(minor: u32) -> KubeVersion {
    KubeVersion::new(minor)
}

fn commands(r: &Report) -> Vec<String> {
    r.cron_jobs[0]
        .fix
        .commands
        .iter()
        .map(|c| c.command.clone())
        .collect()
}

/// Whether anything in the plan or the findings proposes activeDeadlineSeconds.
fn proposes_deadline(r: &Report) -> bool {
    let cj = &r.cron_jobs[0];
    cj.fix
        .patch
        .as_ref()
        .is_some_and(|p| p.to_string().contains("activeDeadlineSeconds"))
        || cj.findings.iter().any(|f| {
            f.command
                .as_deref()
                .is_some_and(|c| c.contains("activeDeadlineSeconds"))
        })
        || !findings(r, "active-deadline-missing").is_empty()
}

/// The example without its template deadline, the Job failed by its backoff limit instead.
fn without_template_deadline(reason: &str) -> String {
    EXAMPLE
        .replacen("      activeDeadlineSeconds: 3600\n", "", 1)
        .replace("reason: DeadlineExceeded", &format!("reason: {reason}"))
}

#[test]
fn a_failed_job_held_by_a_pod_stuck_terminating_names_the_pod_and_force_deletes_it() {
    for minor in [31, 35, 37] {
        let r = run_with(EXAMPLE, NOW, v(minor));
        let cj = &r.cron_jobs[0];
        assert!(
            cj.headline.contains("Forbid is blocked by job report-29916120, which failed (DeadlineExceeded) but still counts as active: its pod report-29916120-q8z4d, stuck Terminating for 2d 8h on node worker-3, which stopped reporting"),
            "{minor}: {}",
            cj.headline
        );
        let f = findings(&r, "forbid-blocked");
        assert!(
            f[0].message.contains("only once all its Pods are terminal"),
            "{}",
            f[0].message
        );
        let cmds = commands(&r);
        assert_eq!(cmds, ["kubectl get node worker-3", FORCE], "{minor}");
        assert!(!proposes_deadline(&r), "{minor}: {:?}", cj.fix);
        assert!(
            f[0].remediation
                .contains("activeDeadlineSeconds would not help")
        );
    }
}

#[test]
fn without_a_template_deadline_the_backoff_failed_job_still_gets_no_deadline_advice() {
    let yaml = without_template_deadline("BackoffLimitExceeded");
    for minor in [31, 35] {
        let r = run_with(&yaml, NOW, v(minor));
        assert!(!proposes_deadline(&r), "{minor}: {:?}", r.cron_jobs[0].fix);
        assert!(
            r.cron_jobs[0]
                .headline
                .contains("which failed (BackoffLimitExceeded)"),
            "{}",
            r.cron_jobs[0].headline
        );
        assert!(commands(&r).iter().any(|c| c == FORCE));
        assert!(
            !commands(&r)
                .iter()
                .any(|c| c.starts_with("kubectl delete job"))
        );
    }
}

#[test]
fn a_succeeded_job_waiting_for_its_pods_is_said_succeeded() {
    let yaml = without_template_deadline("CompletionsReached")
        .replace("type: FailureTarget", "type: SuccessCriteriaMet");
    let r = run_with(&yaml, NOW, v(35));
    assert!(
        r.cron_jobs[0].headline.contains("which succeeded (CompletionsReached) but still counts as active: its pod report-29916120-q8z4d"),
        "{}",
        r.cron_jobs[0].headline
    );
    let f = findings(&r, "forbid-blocked");
    assert!(f[0].message.contains("adds Complete"), "{}", f[0].message);
    assert!(!proposes_deadline(&r));
    assert!(commands(&r).iter().any(|c| c == FORCE));
}

/// No FailureTarget yet and no deadline: before 1.31 a deadline failed the Job at once whatever
/// its Pods did, so it is the advice; from 1.31 the Job would wait for the stuck Pod all the same.
#[test]
fn a_pod_stuck_terminating_makes_the_deadline_useless_from_1_31_only() {
    let yaml = without_template_deadline("x").replace(
        "  conditions:\n  - type: FailureTarget\n    status: \"True\"\n    reason: x\n    message: Job was active longer than specified deadline\n    lastTransitionTime: \"2026-11-18T03:00:01Z\"\n",
        "",
    );
    assert!(!yaml.contains("FailureTarget"));
    let old = run_with(&yaml, NOW, v(30));
    assert!(proposes_deadline(&old), "{:?}", old.cron_jobs[0].fix);
    assert!(!commands(&old).iter().any(|c| c == FORCE));
    let new = run_with(&yaml, NOW, v(31));
    assert!(!proposes_deadline(&new), "{:?}", new.cron_jobs[0].fix);
    assert!(
        commands(&new).iter().any(|c| c == FORCE),
        "{:?}",
        commands(&new)
    );
    let f = findings(&new, "forbid-blocked");
    assert!(
        f[0].message
            .contains("even a deadline would leave the Job waiting for it (1.31+)"),
        "{}",
        f[0].message
    );
}

/// A decided Job whose Pods are not in the input: `status.terminating` says how many are
/// still being deleted, and the plan finds them.
#[test]
fn a_decided_job_without_its_pods_reads_status_terminating() {
    let yaml = EXAMPLE[..EXAMPLE.rfind("---\napiVersion: v1\nkind: Pod").unwrap()]
        .replace("terminating: 1", "terminating: 2");
    let r = run_with(&yaml, NOW, v(35));
    let f = findings(&r, "forbid-blocked");
    assert!(
        f[0].message
            .contains("status.terminating says 2 Pods are still being deleted"),
        "{}",
        f[0].message
    );
    assert_eq!(
        commands(&r),
        ["kubectl get pods -n ops -l batch.kubernetes.io/job-name=report-29916120"]
    );
    assert!(!proposes_deadline(&r));
}

const MANAGED: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: train, namespace: ml, uid: cj-1}
spec:
  schedule: "*/5 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      managedBy: "MANAGER"
      template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}
"#;

#[test]
fn managed_by_another_controller_names_it_instead_of_blaming_the_deadline_from_1_32() {
    let yaml = MANAGED.replace("MANAGER", "kueue.x-k8s.io/multikueue");
    // 1.31: JobManagedBy is off by default, the API server drops the field: the Job
    // controller runs the Jobs and the rules speak as usual.
    let old = run_with(&yaml, NOW, v(31));
    let adm = findings(&old, "active-deadline-missing");
    assert_eq!(adm[0].severity, doctor::rules::Severity::Warning);
    assert!(adm[0].command.is_some());
    assert_eq!(findings(&old, "backoff-limit-too-large").len(), 1);
    for minor in [32, 35] {
        let new = run_with(&yaml, NOW, v(minor));
        let adm = findings(&new, "active-deadline-missing");
        assert_eq!(adm[0].severity, doctor::rules::Severity::Info);
        assert_eq!(
            adm[0].message,
            "No activeDeadlineSeconds, but the Jobs are managed by kueue.x-k8s.io/multikueue (spec.managedBy): the built-in Job controller does not run them, so kueue.x-k8s.io/multikueue, not a deadline, decides when a hung Job ends."
        );
        assert!(adm[0].command.is_none());
        assert!(findings(&new, "backoff-limit-too-large").is_empty());
    }
    // A deadline larger than the interval: the built-in controller would not enforce it.
    let large = yaml.replace(
        "      managedBy:",
        "      activeDeadlineSeconds: 7200\n      managedBy:",
    );
    assert_eq!(
        findings(&run_with(&large, NOW, v(31)), "active-deadline-too-large").len(),
        1
    );
    assert!(findings(&run_with(&large, NOW, v(32)), "active-deadline-too-large").is_empty());
    // The Job controller's own name is the default: nothing changes.
    let own = MANAGED.replace("MANAGER", "kubernetes.io/job-controller");
    assert_eq!(
        findings(&run_with(&own, NOW, v(35)), "active-deadline-missing")[0].severity,
        doctor::rules::Severity::Warning
    );
}

#[test]
fn a_managing_controller_name_is_shown_with_its_control_characters_visible() {
    let yaml = MANAGED.replace("MANAGER", "evil.example/q\\e]0;owned\\a");
    let r = for_terminal(run_with(&yaml, NOW, v(35)));
    let adm = findings(&r, "active-deadline-missing");
    assert!(
        adm[0].message.contains("evil.example/q\\e]0;owned\\a"),
        "{}",
        adm[0].message
    );
    assert!(!adm[0].message.contains('\u{1b}'));
}

const SUSPENDED: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: etl, namespace: data, uid: cj-1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate: {spec: {activeDeadlineSeconds: 1800, template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status:
  lastScheduleTime: "2026-11-20T08:00:00Z"
  active: [{name: etl-29919360, namespace: data, uid: j1}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: etl-29919360
  namespace: data
  uid: j1
  creationTimestamp: "2026-11-20T08:00:00Z"
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: etl, uid: cj-1, controller: true}]
spec: {suspend: true, template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}
status:
  conditions:
  - {type: Suspended, status: "True", reason: JobSuspended, message: Job suspended, lastTransitionTime: "2026-11-20T09:30:00Z"}
"#;

#[test]
fn a_suspended_job_without_start_time_is_said_suspended_not_active_since_its_creation() {
    for (minor, tail) in [
        (35, "It has no startTime: it has never started."),
        (
            36,
            "the Job controller clears it while a Job is suspended (1.36+), so whether it ran before is not recorded.",
        ),
    ] {
        let r = run_with(SUSPENDED, NOW, v(minor));
        let f = findings(&r, "forbid-blocked");
        let m = &f[0].message;
        assert!(
            m.starts_with("Job etl-29919360 is suspended (since 2026-11-20 09:30 UTC, its Suspended condition): it does not run, yet it counts as active"),
            "{minor}: {m}"
        );
        assert!(m.ends_with(tail), "{minor}: {m:?}");
        assert!(!m.contains("has been active since"), "{m}");
        assert!(
            r.cron_jobs[0]
                .headline
                .contains("Forbid is blocked by job etl-29919360, suspended for 2h 30m"),
            "{}",
            r.cron_jobs[0].headline
        );
        let slot = r.cron_jobs[0]
            .timeline
            .iter()
            .find(|s| s.job.as_deref() == Some("etl-29919360"))
            .unwrap();
        // Not running: no duration measured from its creation.
        assert_eq!(slot.duration_seconds, None, "{slot:?}");
        assert!(
            slot.note.contains("Job suspended since 2026-11-20 09:30"),
            "{}",
            slot.note
        );
        let answer = slot_answer(SUSPENDED, "2026-11-20T08:00:00Z", v(minor));
        assert!(
            answer.starts_with(
                "the 2026-11-20 08:00 UTC run is suspended since 2026-11-20 09:30 UTC"
            ),
            "{answer}"
        );
    }
}
