//! Packing must give back an equal object for every field the model has (the diagnosis of
//! unpacked objects is then `scan`'s), and bytes it cannot read are an error, not a panic.

use doctor::model::{
    Condition, Container, ContainerState, ContainerStatus, Event, FieldManagerEntry,
    InvolvedObject, Job, JobSpec, JobStatus, ObjectMeta, OwnerReference, Pod,
};
use jiff::Timestamp;
use proptest::prelude::*;

use super::*;

fn t(s: &str) -> Option<Timestamp> {
    Some(s.parse().unwrap())
}

/// Every field set, none to its default, with awkward values (extremes, non-ASCII, nanos).
fn meta(tag: &str) -> ObjectMeta {
    ObjectMeta {
        name: format!("{tag}-28000000"),
        namespace: "ops-é".into(),
        uid: "8d3c1f8e-0000-4000-8000-000000000001".into(),
        resource_version: "123456789".into(),
        creation_timestamp: t("2026-11-20T11:59:00.123456789Z"),
        deletion_timestamp: t("1970-01-01T00:00:00Z"),
        labels: [("job-name".to_string(), tag.to_string())]
            .into_iter()
            .collect(),
        annotations: [
            ("a".to_string(), String::new()),
            (
                "batch.kubernetes.io/cronjob-scheduled-timestamp".into(),
                "2026-11-20T11:59:00Z".into(),
            ),
        ]
        .into_iter()
        .collect(),
        owner_references: vec![OwnerReference {
            api_version: "batch/v1".into(),
            kind: "CronJob".into(),
            name: tag.into(),
            uid: "u".into(),
            controller: true,
        }],
        suspend_managers: vec![FieldManagerEntry {
            manager: "kubectl-patch".into(),
            operation: "Update".into(),
            time: t("2026-01-01T00:00:00Z"),
        }],
    }
}

fn condition() -> Condition {
    Condition {
        type_: "Failed".into(),
        status: "True".into(),
        reason: "BackoffLimitExceeded".into(),
        message: "Job has reached the specified backoff limit\n✓".into(),
        last_transition_time: t("2026-11-20T12:00:01Z"),
    }
}

fn full_job() -> Job {
    Job {
        meta: meta("backup"),
        spec: JobSpec {
            backoff_limit: Some(i64::MAX),
            backoff_limit_per_index: Some(i64::MIN),
            active_deadline_seconds: Some(-1),
            ttl_seconds_after_finished: Some(0),
            parallelism: Some(1 << 40),
            completions: Some(3),
            suspend: Some(false),
            has_pod_failure_policy: true,
            restart_policy: Some("OnFailure".into()),
            managed_by: Some("kueue.x-k8s.io/multikueue".into()),
            completion_mode: Some("Indexed".into()),
            containers: vec![Container {
                name: "main".into(),
                image: "busybox:1.36".into(),
            }],
        },
        status: JobStatus {
            start_time: t("2026-11-20T11:59:01Z"),
            completion_time: t("2026-11-20T12:00:00.5Z"),
            active: 1,
            succeeded: 2,
            failed: -3,
            terminating: Some(1),
            ready: Some(0),
            conditions: vec![condition(), condition()],
        },
        origin: None,
    }
}

fn state(s: &str) -> ContainerState {
    ContainerState {
        state: s.into(),
        reason: "OOMKilled".into(),
        message: "m".into(),
        exit_code: Some(137),
        at: t("2026-11-20T12:00:02Z"),
        started_at: t("2026-11-20T11:52:02Z"),
    }
}

fn full_pod() -> Pod {
    let status = ContainerStatus {
        name: "main".into(),
        image: "busybox".into(),
        ready: true,
        restart_count: 4,
        state: state("terminated"),
        last_state: state("waiting"),
    };
    Pod {
        meta: meta("backup-28000000-abcde"),
        phase: "Failed".into(),
        reason: "Evicted".into(),
        message: "The node was low on resource: memory.".into(),
        node_name: "node-1".into(),
        start_time: t("2026-11-20T11:59:02Z"),
        conditions: vec![condition()],
        init_container_statuses: vec![status.clone()],
        container_statuses: vec![status.clone(), status],
    }
}

fn full_event() -> Event {
    Event {
        meta: meta("backup.17a"),
        involved_object: InvolvedObject {
            kind: "CronJob".into(),
            name: "backup".into(),
            namespace: "ops".into(),
            uid: "u2".into(),
        },
        type_: "Warning".into(),
        reason: "FailedNeedsStart".into(),
        message: "Cannot determine if job needs to be started".into(),
        count: 42,
        first_timestamp: t("2026-11-20T10:00:00Z"),
        last_timestamp: t("2026-11-20T11:00:00Z"),
        source: "cronjob-controller".into(),
    }
}

#[test]
fn every_field_comes_back() {
    let (j, p, e) = (full_job(), full_pod(), full_event());
    assert_eq!(Packed::new(&j).unpack(), Some(j));
    assert_eq!(Packed::new(&p).unpack(), Some(p));
    assert_eq!(Packed::new(&e).unpack(), Some(e));
    assert_eq!(Packed::new(&Job::default()).unpack(), Some(Job::default()));
    assert_eq!(Packed::new(&Pod::default()).unpack(), Some(Pod::default()));
    assert_eq!(
        Packed::new(&Event::default()).unpack(),
        Some(Event::default())
    );
}

#[test]
fn a_packed_job_is_about_the_size_of_its_text() {
    let j = full_job();
    let text: usize = [
        &j.meta.name,
        &j.meta.namespace,
        &j.meta.uid,
        &j.meta.resource_version,
    ]
    .iter()
    .map(|s| s.len())
    .sum();
    let packed = Packed::new(&j).len();
    // The struct alone is larger than this object's whole packed form.
    assert!(packed < 2 * std::mem::size_of::<Job>(), "{packed} bytes");
    assert!(packed > text);
}

#[test]
fn bytes_it_cannot_read_are_none_not_a_panic() {
    let j = full_job();
    let good = Packed::new(&j);
    for cut in 0..good.bytes.len() {
        let p: Packed<Job> = Packed {
            bytes: good.bytes[..cut].into(),
            kind: PhantomData,
        };
        assert_eq!(p.unpack(), None, "cut at {cut}");
    }
    let mut longer = good.bytes.to_vec();
    longer.push(0);
    let p: Packed<Job> = Packed {
        bytes: longer.into(),
        kind: PhantomData,
    };
    assert_eq!(p.unpack(), None);
    // A length far beyond the buffer asks for nothing.
    let p: Packed<Event> = Packed {
        bytes: vec![0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01].into(),
        kind: PhantomData,
    };
    assert_eq!(p.unpack(), None);
}

proptest! {
    #[test]
    fn arbitrary_strings_numbers_and_times_come_back(
        name in ".{0,40}",
        message in "\\PC{0,80}",
        n in any::<i64>(),
        secs in -1_000_000_000_000i64..1_000_000_000_000,
        nanos in 0i32..1_000_000_000,
        flag in any::<Option<bool>>(),
    ) {
        let mut j = full_job();
        j.meta.name = name.clone();
        j.status.conditions[0].message = message.clone();
        j.status.active = n;
        j.spec.completions = Some(n);
        j.spec.suspend = flag;
        j.status.start_time = Timestamp::new(secs, nanos).ok();
        prop_assert_eq!(Packed::new(&j).unpack(), Some(j));
        let mut e = full_event();
        e.message = message;
        e.count = n;
        e.involved_object.name = name;
        prop_assert_eq!(Packed::new(&e).unpack(), Some(e));
    }
}
