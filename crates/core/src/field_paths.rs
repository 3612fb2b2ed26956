//! The dotted field paths the loader records positions for, as one fixed, sorted vocabulary.
//!
//! A CronJob carries some 25 recorded paths. Kept as owned `String`s in a `BTreeMap`, they
//! took more memory than the YAML they came from (BENCHMARKS.md, "Big inputs: peak
//! memory"); as a 16-bit index into this list plus a position they take 12 bytes each. A
//! path outside the list (a fifth container, a Job's odd field) still works:
//! [`crate::model::FieldPositions`] keeps it as an owned string.

/// Every path `source::manifest` records for a CronJob or a Job, sorted (byte order, as
/// `str`'s `Ord`), so that an index order is also the path order.
const PATHS: &[&str] = &[
    "apiVersion",
    "kind",
    "metadata",
    "metadata.annotations",
    "metadata.creationTimestamp",
    "metadata.deletionTimestamp",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.ownerReferences",
    "metadata.resourceVersion",
    "metadata.uid",
    "spec",
    "spec.activeDeadlineSeconds",
    "spec.backoffLimit",
    "spec.backoffLimitPerIndex",
    "spec.completions",
    "spec.concurrencyPolicy",
    "spec.failedJobsHistoryLimit",
    "spec.jobTemplate",
    "spec.jobTemplate.metadata",
    "spec.jobTemplate.metadata.annotations",
    "spec.jobTemplate.metadata.labels",
    "spec.jobTemplate.spec",
    "spec.jobTemplate.spec.activeDeadlineSeconds",
    "spec.jobTemplate.spec.backoffLimit",
    "spec.jobTemplate.spec.backoffLimitPerIndex",
    "spec.jobTemplate.spec.completions",
    "spec.jobTemplate.spec.parallelism",
    "spec.jobTemplate.spec.podFailurePolicy",
    "spec.jobTemplate.spec.suspend",
    "spec.jobTemplate.spec.template",
    "spec.jobTemplate.spec.template.spec",
    "spec.jobTemplate.spec.template.spec.containers",
    "spec.jobTemplate.spec.template.spec.containers.0",
    "spec.jobTemplate.spec.template.spec.containers.0.image",
    "spec.jobTemplate.spec.template.spec.containers.0.name",
    "spec.jobTemplate.spec.template.spec.containers.1",
    "spec.jobTemplate.spec.template.spec.containers.1.image",
    "spec.jobTemplate.spec.template.spec.containers.1.name",
    "spec.jobTemplate.spec.template.spec.containers.2",
    "spec.jobTemplate.spec.template.spec.containers.2.image",
    "spec.jobTemplate.spec.template.spec.containers.2.name",
    "spec.jobTemplate.spec.template.spec.containers.3",
    "spec.jobTemplate.spec.template.spec.containers.3.image",
    "spec.jobTemplate.spec.template.spec.containers.3.name",
    "spec.jobTemplate.spec.template.spec.restartPolicy",
    "spec.jobTemplate.spec.ttlSecondsAfterFinished",
    "spec.parallelism",
    "spec.podFailurePolicy",
    "spec.schedule",
    "spec.startingDeadlineSeconds",
    "spec.successfulJobsHistoryLimit",
    "spec.suspend",
    "spec.template",
    "spec.template.spec",
    "spec.template.spec.containers",
    "spec.template.spec.containers.0",
    "spec.template.spec.containers.0.image",
    "spec.template.spec.containers.0.name",
    "spec.template.spec.containers.1",
    "spec.template.spec.containers.1.image",
    "spec.template.spec.containers.1.name",
    "spec.template.spec.restartPolicy",
    "spec.timeZone",
    "spec.ttlSecondsAfterFinished",
    "status",
    "status.active",
    "status.completionTime",
    "status.conditions",
    "status.failed",
    "status.lastScheduleTime",
    "status.lastSuccessfulTime",
    "status.ready",
    "status.startTime",
    "status.succeeded",
    "status.terminating",
];

/// The index of `path` in the vocabulary, if it is there.
pub(crate) fn id_of(path: &str) -> Option<u16> {
    PATHS
        .binary_search(&path)
        .ok()
        .and_then(|i| u16::try_from(i).ok())
}

/// The path with index `id` (an index [`id_of`] returned).
pub(crate) fn path_of(id: u16) -> &'static str {
    PATHS.get(usize::from(id)).copied().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_is_sorted_and_unique_so_lookups_find_every_entry() {
        assert!(PATHS.windows(2).all(|w| w[0] < w[1]), "sort PATHS");
        for (i, p) in PATHS.iter().enumerate() {
            assert_eq!(id_of(p), Some(i as u16));
            assert_eq!(path_of(i as u16), *p);
        }
        assert_eq!(
            id_of("spec.jobTemplate.spec.template.spec.containers.9"),
            None
        );
    }

    /// Every path recorded for a CronJob and a Job that use every field the loader reads is in
    /// the vocabulary (kept compact), except what only an unusual manifest has.
    #[test]
    fn a_full_cron_job_and_job_record_only_vocabulary_paths() {
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata:
  name: a
  namespace: ops
  uid: u
  resourceVersion: "1"
  creationTimestamp: 2026-01-01T00:00:00Z
  deletionTimestamp: 2026-01-02T00:00:00Z
  labels: {a: b}
  annotations: {c: d}
  ownerReferences: []
spec:
  schedule: "0 3 * * *"
  timeZone: UTC
  startingDeadlineSeconds: 100
  concurrencyPolicy: Forbid
  suspend: false
  successfulJobsHistoryLimit: 3
  failedJobsHistoryLimit: 1
  jobTemplate:
    metadata: {labels: {a: b}, annotations: {c: d}}
    spec:
      backoffLimit: 1
      backoffLimitPerIndex: 1
      activeDeadlineSeconds: 10
      ttlSecondsAfterFinished: 10
      parallelism: 1
      completions: 1
      suspend: false
      podFailurePolicy: {rules: []}
      template:
        spec:
          restartPolicy: Never
          containers:
          - {name: a, image: a}
          - {name: b, image: b}
status:
  lastScheduleTime: 2026-01-01T00:00:00Z
  lastSuccessfulTime: 2026-01-01T00:00:00Z
  active: []
---
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ops}
spec:
  backoffLimit: 1
  template:
    spec:
      restartPolicy: Never
      containers: [{name: a, image: a}]
status:
  startTime: 2026-01-01T00:00:00Z
  completionTime: 2026-01-01T00:00:00Z
  active: 0
  succeeded: 1
  failed: 0
  terminating: 0
  ready: 0
  conditions: []
"#;
        let loaded = crate::source::parse_text("a.yaml", yaml);
        let origins = loaded
            .cron_jobs
            .iter()
            .map(|c| &c.origin)
            .chain(loaded.jobs.iter().map(|j| &j.origin));
        let mut seen = 0;
        for o in origins {
            for (path, _) in o.as_ref().unwrap().fields.iter() {
                assert!(id_of(path).is_some(), "add `{path}` to PATHS");
                seen += 1;
            }
        }
        assert!(seen > 60, "{seen}");
    }
}
