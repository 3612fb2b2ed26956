//! From the slim wire structs to the model: moves, no copies, and the same readings the file
//! loader makes (`source::manifest`), so a live object and its `kubectl get -o yaml` dump give
//! the same diagnosis.

use crate::model::{
    ConcurrencyPolicy, Condition, Container, ContainerState, ContainerStatus, CronJob, CronJobSpec,
    CronJobStatus, Event, EventClock, FieldManagerEntry, InvolvedObject, Job, JobSpec, JobStatus,
    JobTemplate, ObjectMeta, ObjectReference, OwnerReference, Pod,
};

use super::wire::{self, KeyFilter};

fn meta<L: KeyFilter, A: KeyFilter, M: KeyFilter>(m: wire::Meta<L, A, M>) -> ObjectMeta {
    let suspend_managers = m
        .managed_fields
        .entries
        .into_iter()
        .filter_map(suspend_manager)
        .collect();
    ObjectMeta {
        name: m.name,
        namespace: m.namespace,
        uid: m.uid,
        resource_version: m.resource_version,
        creation_timestamp: m.creation_timestamp,
        deletion_timestamp: m.deletion_timestamp,
        labels: m.labels.map.into(),
        annotations: m.annotations.map.into(),
        owner_references: moved(m.owner_references, |o| OwnerReference {
            api_version: o.api_version,
            kind: o.kind,
            name: o.name,
            uid: o.uid,
            controller: o.controller.unwrap_or(false),
        }),
        suspend_managers,
    }
}

/// Who set `spec.suspend`, from one `managedFields` entry: None unless its field set holds
/// `f:spec.f:suspend`. Both readers turn their entries into the model here (the manifest
/// reader also drops the diagnostics of an entry this returns None for).
pub(super) fn suspend_manager(e: wire::ManagedField) -> Option<FieldManagerEntry> {
    let sets_suspend = e
        .fields
        .as_ref()
        .and_then(|f| f.spec.as_ref())
        .is_some_and(|s| s.suspend);
    sets_suspend.then_some(FieldManagerEntry {
        manager: e.manager,
        operation: e.operation,
        time: e.time,
    })
}

/// `v` converted item by item into a vector of exactly its length. Not `collect()`: collecting
/// a `vec::IntoIter` reuses the source buffer in place, so each converted vector kept the
/// (larger) wire items' allocation for as long as the model object lived: a good part of
/// `scan -A`'s peak heap was Pods' container statuses held in wire-sized buffers
/// (BENCHMARKS.md, "scan -A at scale").
fn moved<W, M>(v: Vec<W>, f: impl FnMut(W) -> M) -> Vec<M> {
    let mut out = Vec::with_capacity(v.len());
    out.extend(v.into_iter().map(f));
    out
}

fn conditions(cs: Vec<wire::Condition>) -> Vec<Condition> {
    moved(cs, |c| Condition {
        type_: c.type_,
        status: c.status,
        reason: c.reason,
        message: c.message,
        last_transition_time: c.last_transition_time,
    })
}

fn job_spec(s: wire::JobSpec) -> (JobSpec, bool) {
    let has_template = s.template.is_some();
    let pod = s.template.map(|t| t.spec).unwrap_or_default();
    let spec = JobSpec {
        backoff_limit: s.backoff_limit,
        backoff_limit_per_index: s.backoff_limit_per_index,
        active_deadline_seconds: s.active_deadline_seconds,
        ttl_seconds_after_finished: s.ttl_seconds_after_finished,
        parallelism: s.parallelism,
        completions: s.completions,
        suspend: s.suspend,
        has_pod_failure_policy: s.pod_failure_policy.is_some(),
        restart_policy: pod.restart_policy,
        managed_by: s.managed_by,
        completion_mode: s.completion_mode,
        containers: pod
            .containers
            .into_iter()
            .map(|c| Container {
                name: c.name,
                image: c.image,
            })
            .collect(),
    };
    (spec, has_template)
}

pub fn cron_job<A: KeyFilter, M: KeyFilter>(w: wire::CronJob<A, M>) -> CronJob {
    let s = w.spec;
    let jt = s.job_template;
    // The API server always has a template; `has_pod_template` is false only when the
    // response really lacks one (an object stored before validation, or a test fixture).
    let (spec, has_pod_template) = jt.spec.map(job_spec).unwrap_or_default();
    CronJob {
        api_version: "batch/v1".into(),
        meta: meta(w.metadata),
        spec: CronJobSpec {
            schedule: s.schedule,
            time_zone: s.time_zone,
            starting_deadline_seconds: s.starting_deadline_seconds,
            concurrency_policy: ConcurrencyPolicy::from_spec(s.concurrency_policy),
            suspend: s.suspend.unwrap_or(false),
            successful_jobs_history_limit: s.successful_jobs_history_limit,
            failed_jobs_history_limit: s.failed_jobs_history_limit,
            job_template: JobTemplate {
                labels: jt.metadata.labels.map.into(),
                annotations: jt.metadata.annotations.map.into(),
                spec,
                has_pod_template,
            },
        },
        status: CronJobStatus {
            active: moved(w.status.active, |a| ObjectReference {
                name: a.name,
                namespace: a.namespace,
                uid: a.uid,
            }),
            last_schedule_time: w.status.last_schedule_time,
            last_successful_time: w.status.last_successful_time,
        },
        origin: None,
    }
}

/// A Job's spec as read: what a run's story needs (the scan) or all of it (a manifest).
pub trait RunSpec {
    fn job_spec(self) -> JobSpec;
}

impl RunSpec for wire::JobRunSpec {
    fn job_spec(self) -> JobSpec {
        JobSpec {
            parallelism: self.parallelism,
            completions: self.completions,
            suspend: self.suspend,
            managed_by: self.managed_by,
            completion_mode: self.completion_mode,
            ..JobSpec::default()
        }
    }
}

impl RunSpec for wire::JobSpec {
    fn job_spec(self) -> JobSpec {
        job_spec(self).0
    }
}

pub fn job<L: KeyFilter, A: KeyFilter, S: RunSpec>(w: wire::Job<L, A, S>) -> Job {
    let st = w.status;
    Job {
        meta: meta(w.metadata),
        spec: w.spec.job_spec(),
        status: JobStatus {
            start_time: st.start_time,
            completion_time: st.completion_time,
            active: st.active,
            succeeded: st.succeeded,
            failed: st.failed,
            terminating: st.terminating,
            ready: st.ready,
            conditions: conditions(st.conditions),
        },
        origin: None,
    }
}

fn state(s: wire::StateWire) -> ContainerState {
    match s.state {
        None => ContainerState::default(),
        Some(wire::State::Waiting(d)) => ContainerState {
            state: "waiting".into(),
            reason: d.reason,
            message: d.message,
            ..ContainerState::default()
        },
        Some(wire::State::Running(d)) => ContainerState {
            state: "running".into(),
            reason: d.reason,
            message: d.message,
            exit_code: None,
            at: d.started_at,
            started_at: d.started_at,
        },
        Some(wire::State::Terminated(d)) => ContainerState {
            state: "terminated".into(),
            reason: d.reason,
            message: d.message,
            exit_code: d.exit_code,
            at: d.finished_at.or(d.started_at),
            started_at: d.started_at,
        },
    }
}

fn statuses(cs: Vec<wire::ContainerStatus>) -> Vec<ContainerStatus> {
    moved(cs, |c| ContainerStatus {
        name: c.name,
        image: c.image,
        ready: c.ready,
        restart_count: c.restart_count,
        state: state(c.state),
        last_state: state(c.last_state),
    })
}

pub fn pod<L: KeyFilter, A: KeyFilter>(w: wire::Pod<L, A>) -> Pod {
    let st = w.status;
    Pod {
        meta: meta(w.metadata),
        phase: st.phase,
        reason: st.reason,
        message: st.message,
        node_name: w.spec.node_name,
        start_time: st.start_time,
        conditions: conditions(st.conditions),
        init_container_statuses: statuses(st.init_container_statuses),
        container_statuses: statuses(st.container_statuses),
    }
}

/// A core/v1 Event, read like the file loader reads one (`EventClock`: `count` 1 when
/// absent; the series and `eventTime` fill in for the timestamps newer clients leave empty).
pub fn event<L: KeyFilter, A: KeyFilter>(w: wire::Event<L, A>) -> Event {
    let (count, first_timestamp, last_timestamp) = EventClock {
        count: w.count,
        series_count: w.series.as_ref().and_then(|s| s.count),
        first: w.first_timestamp,
        last: w.last_timestamp,
        series_last: w.series.as_ref().and_then(|s| s.last_observed_time),
        event_time: w.event_time,
    }
    .core_v1();
    Event {
        meta: meta(w.metadata),
        involved_object: InvolvedObject {
            kind: w.involved_object.kind,
            name: w.involved_object.name,
            namespace: w.involved_object.namespace,
            uid: w.involved_object.uid,
        },
        type_: w.type_,
        reason: w.reason,
        message: w.message,
        count,
        first_timestamp,
        last_timestamp,
        source: if w.source.component.is_empty() {
            w.reporting_component
        } else {
            w.source.component
        },
    }
}

/// An `events.k8s.io/v1` Event, onto the core names (`EventClock::events_v1`; the reporting
/// controller before the deprecated source).
pub fn event_v1<L: KeyFilter, A: KeyFilter>(w: wire::EventV1<L, A>) -> Event {
    let (count, first_timestamp, last_timestamp) = EventClock {
        count: w.deprecated_count,
        series_count: w.series.as_ref().and_then(|s| s.count),
        first: w.deprecated_first_timestamp,
        last: w.deprecated_last_timestamp,
        series_last: w.series.as_ref().and_then(|s| s.last_observed_time),
        event_time: w.event_time,
    }
    .events_v1();
    Event {
        meta: meta(w.metadata),
        involved_object: InvolvedObject {
            kind: w.regarding.kind,
            name: w.regarding.name,
            namespace: w.regarding.namespace,
            uid: w.regarding.uid,
        },
        type_: w.type_,
        reason: w.reason,
        message: w.note,
        count,
        first_timestamp,
        last_timestamp,
        source: if w.reporting_controller.is_empty() {
            w.deprecated_source.component
        } else {
            w.reporting_controller
        },
    }
}
