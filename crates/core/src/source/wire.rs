//! The API server's JSON, slimmed: serde structs with only the fields the model keeps.
//!
//! Why not k8s-openapi's types: a full `Pod` or `Job` deserialises every env var, volume and
//! managed field, which at `scan -A` scale (100,000 Jobs) costs more memory and time than the
//! diagnosis itself. serde skips unknown fields while parsing, so whatever is not named here
//! never allocates. Maps that can be large (annotations hold `last-applied-configuration`,
//! whole manifests) are filtered while they are read, see `filter`.

use jiff::Timestamp;
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny};

pub use super::filter::{
    All, CronJobAnnotations, Filtered, JobAnnotations, KeyFilter, Managed, NoKeys, PodLabels,
};

/// One page of a list response: its items. Its `metadata` (the continue token) is read
/// separately, before the items, by `list::peek_continue`.
#[derive(Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub struct List<T> {
    #[serde(default = "Vec::new", deserialize_with = "null_as_empty")]
    pub items: Vec<T>,
}

/// Go marshals a nil slice as `null`; treat it as empty.
fn null_as_empty<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

#[derive(Deserialize, Default)]
pub struct ListMeta {
    /// Set when more pages follow; empty or absent on the last page.
    #[serde(rename = "continue", default)]
    pub continue_: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerRef {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub uid: String,
    #[serde(default)]
    pub controller: Option<bool>,
}

/// Object metadata. Labels and annotations are read through a per-kind key filter; `M` says
/// whether `managedFields` are read at all (only CronJobs': who suspended it).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", bound(deserialize = ""))]
pub struct Meta<L: KeyFilter, A: KeyFilter, M: KeyFilter = NoKeys> {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub uid: String,
    #[serde(default)]
    pub resource_version: String,
    pub creation_timestamp: Option<Timestamp>,
    pub deletion_timestamp: Option<Timestamp>,
    #[serde(default = "Filtered::default")]
    pub labels: Filtered<L>,
    #[serde(default = "Filtered::default")]
    pub annotations: Filtered<A>,
    #[serde(default)]
    pub owner_references: Vec<OwnerRef>,
    #[serde(default = "Managed::default")]
    pub managed_fields: Managed<M>,
}

// ---- CronJob -------------------------------------------------------------------------------

#[derive(Deserialize)]
pub struct CronJob {
    #[serde(default)]
    pub metadata: Meta<All, CronJobAnnotations, All>,
    #[serde(default)]
    pub spec: CronJobSpec,
    #[serde(default)]
    pub status: CronJobStatus,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    pub schedule: Option<String>,
    pub time_zone: Option<String>,
    pub starting_deadline_seconds: Option<i64>,
    pub concurrency_policy: Option<String>,
    pub suspend: Option<bool>,
    pub successful_jobs_history_limit: Option<i64>,
    pub failed_jobs_history_limit: Option<i64>,
    #[serde(default)]
    pub job_template: JobTemplate,
}

#[derive(Deserialize, Default)]
pub struct JobTemplate {
    #[serde(default)]
    pub metadata: TemplateMeta,
    pub spec: Option<JobSpec>,
}

#[derive(Deserialize, Default)]
pub struct TemplateMeta {
    #[serde(default = "Filtered::default")]
    pub labels: Filtered<All>,
    #[serde(default = "Filtered::default")]
    pub annotations: Filtered<All>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    pub backoff_limit: Option<i64>,
    pub backoff_limit_per_index: Option<i64>,
    pub active_deadline_seconds: Option<i64>,
    pub ttl_seconds_after_finished: Option<i64>,
    pub parallelism: Option<i64>,
    pub completions: Option<i64>,
    pub suspend: Option<bool>,
    pub pod_failure_policy: Option<IgnoredAny>,
    pub template: Option<PodTemplate>,
    pub managed_by: Option<String>,
    pub completion_mode: Option<String>,
}

#[derive(Deserialize, Default)]
pub struct PodTemplate {
    #[serde(default)]
    pub spec: PodTemplateSpec,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplateSpec {
    pub restart_policy: Option<String>,
    #[serde(default)]
    pub containers: Vec<Container>,
}

#[derive(Deserialize, Default)]
pub struct Container {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub image: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    #[serde(default)]
    pub active: Vec<ObjectRef>,
    pub last_schedule_time: Option<Timestamp>,
    pub last_successful_time: Option<Timestamp>,
}

#[derive(Deserialize, Default)]
pub struct ObjectRef {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub uid: String,
}

// ---- Job -----------------------------------------------------------------------------------

/// A Job. Its own spec is not read (the rules judge the CronJob's template), so it is skipped.
#[derive(Deserialize)]
pub struct Job {
    #[serde(default)]
    pub metadata: Meta<NoKeys, JobAnnotations>,
    #[serde(default)]
    pub spec: JobRunSpec,
    #[serde(default)]
    pub status: JobStatus,
}

/// What a run's story reads of a Job's spec (never the pod template, which the scan skips).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JobRunSpec {
    pub parallelism: Option<i64>,
    pub completions: Option<i64>,
    pub suspend: Option<bool>,
    pub managed_by: Option<String>,
    pub completion_mode: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    pub start_time: Option<Timestamp>,
    pub completion_time: Option<Timestamp>,
    #[serde(default)]
    pub active: i64,
    #[serde(default)]
    pub succeeded: i64,
    #[serde(default)]
    pub failed: i64,
    pub terminating: Option<i64>,
    pub ready: Option<i64>,
    #[serde(default)]
    pub conditions: Vec<Condition>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
    pub last_transition_time: Option<Timestamp>,
}

// ---- Pod -----------------------------------------------------------------------------------

#[derive(Deserialize)]
pub struct Pod {
    #[serde(default)]
    pub metadata: Meta<PodLabels, NoKeys>,
    #[serde(default)]
    pub spec: PodSpec,
    #[serde(default)]
    pub status: PodStatus,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default)]
    pub node_name: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    #[serde(default)]
    pub phase: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
    pub start_time: Option<Timestamp>,
    #[serde(default)]
    pub conditions: Vec<Condition>,
    #[serde(default)]
    pub init_container_statuses: Vec<ContainerStatus>,
    #[serde(default)]
    pub container_statuses: Vec<ContainerStatus>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub image: String,
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub restart_count: i64,
    #[serde(default)]
    pub state: StateWire,
    #[serde(default)]
    pub last_state: StateWire,
}

/// `{waiting: {…}}`, `{running: {…}}` or `{terminated: {…}}`.
#[derive(Deserialize, Default)]
pub struct StateWire {
    pub waiting: Option<StateDetail>,
    pub running: Option<StateDetail>,
    pub terminated: Option<StateDetail>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct StateDetail {
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
    pub exit_code: Option<i64>,
    pub started_at: Option<Timestamp>,
    pub finished_at: Option<Timestamp>,
}

// ---- Event (core/v1) -----------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    #[serde(default)]
    pub metadata: Meta<NoKeys, NoKeys>,
    #[serde(default)]
    pub involved_object: Involved,
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
    pub count: Option<i64>,
    pub first_timestamp: Option<Timestamp>,
    pub last_timestamp: Option<Timestamp>,
    pub event_time: Option<Timestamp>,
    pub series: Option<Series>,
    #[serde(default)]
    pub source: Source,
    #[serde(default)]
    pub reporting_component: String,
}

#[derive(Deserialize, Default)]
pub struct Involved {
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub uid: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Series {
    pub count: Option<i64>,
    pub last_observed_time: Option<Timestamp>,
}

#[derive(Deserialize, Default)]
pub struct Source {
    #[serde(default)]
    pub component: String,
}

/// `/version`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct VersionInfo {
    #[serde(default)]
    pub major: String,
    #[serde(default)]
    pub minor: String,
    #[serde(default)]
    pub git_version: String,
}

/// `metav1.Status`, the body of API errors.
#[derive(Deserialize, Default)]
pub struct Status {
    #[serde(default)]
    pub message: String,
}

/// The namespace an item is listed under: LISTs come in `namespace/name` key order.
pub trait Listed {
    fn listed_namespace(&self) -> &str;
    fn listed_name(&self) -> &str;
}

impl Listed for CronJob {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
impl Listed for Job {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
impl Listed for Pod {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
impl Listed for Event {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
