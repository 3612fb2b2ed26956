//! The API server's JSON, slimmed: serde structs with only the fields the model keeps. One
//! struct per kind names its fields, for both readers of that kind (docs/architecture.md):
//! the cluster path deserializes the LIST/WATCH bodies into them with serde_json, and the
//! manifest reader deserializes a YAML/JSON document into the same structs through the
//! position tree (`tree_de`); `convert` turns either into the model.
//!
//! Why not k8s-openapi's types: a full `Pod` or `Job` deserialises every env var, volume and
//! managed field, which at `scan -A` scale (100,000 Jobs) costs more memory and time than the
//! diagnosis itself. serde skips unknown fields while parsing, so whatever is not named here
//! never allocates. Maps that can be large (annotations hold `last-applied-configuration`,
//! whole manifests) are filtered while they are read, see `filter`; the kinds the manifest
//! reader shares take their filters as type parameters (the file path keeps every key).
//!
//! Optional fields (and filtered maps) of the shared structs are read through [`lenient`]
//! (the manifest reader's leniency: a wrong type leaves the field absent); other fields need
//! nothing, `tree_de` reads a wrong type there as the zero value or an empty object (so the
//! scan's structs carry the attribute only where a manifest needs it). Fields are declared in
//! the order the manifest reader reports problems in (`tree_de` reads a struct in declaration
//! order).
//!
//! A third reader shares the CronJob struct: the fix replay (`report::merge_patch`) reads each
//! value of a merge patch through [`CronJob`] and `convert`, so a patchable field's JSON name
//! and type are the ones written here.
//!
//! Which kinds decode here, from both sources: every kind the tool reads. CronJobs (the scan
//! drops kubectl's last-applied annotation), Jobs (the scan with [`JobRunSpec`], files with
//! the whole [`JobSpec`]), Pods, core/v1 Events, and `events.k8s.io/v1` Events ([`EventV1`],
//! files only), and their `managedFields` entries ([`ManagedField`]: the manifest reader reads
//! the list entry by entry, to report nothing about the entries that do not set
//! `spec.suspend`; `convert::suspend_manager` keeps the ones that do, for both readers).

use jiff::Timestamp;
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

use super::filter::BorrowedKey;
pub use super::filter::{
    All, CronJobAnnotations, Filtered, JobAnnotations, KeyFilter, Managed, ManagedField, NoKeys,
    PodLabels,
};

/// A field read leniently from a manifest: a value of the wrong type was reported at its
/// position by the tree deserializer (`tree_de`, which fails with its `SOFT` error then), and
/// the field stays absent (its default). From the API server's JSON this is `T::deserialize`:
/// its errors are never soft, and the success path costs nothing more.
#[inline(always)]
pub(super) fn lenient<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(
    d: D,
) -> Result<T, D::Error> {
    match T::deserialize(d) {
        Ok(v) => Ok(v),
        Err(e) if super::tree_de::is_soft(&e) => Ok(T::default()),
        Err(e) => Err(e),
    }
}

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
    #[serde(default, deserialize_with = "lenient")]
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
    #[serde(default, deserialize_with = "lenient")]
    pub creation_timestamp: Option<Timestamp>,
    #[serde(default, deserialize_with = "lenient")]
    pub deletion_timestamp: Option<Timestamp>,
    #[serde(default, deserialize_with = "lenient")]
    pub labels: Filtered<L>,
    #[serde(default, deserialize_with = "lenient")]
    pub annotations: Filtered<A>,
    #[serde(default)]
    pub owner_references: Vec<OwnerRef>,
    #[serde(default)]
    pub managed_fields: Managed<M>,
}

// ---- CronJob -------------------------------------------------------------------------------

#[derive(Deserialize, Default)]
#[serde(bound(deserialize = ""))]
pub struct CronJob<A: KeyFilter = CronJobAnnotations, M: KeyFilter = All> {
    /// Not read: named so that a manifest's CronJob records their positions.
    #[serde(default)]
    pub kind: IgnoredAny,
    #[serde(rename = "apiVersion")]
    #[serde(default)]
    pub api_version: IgnoredAny,
    #[serde(default)]
    pub metadata: Meta<All, A, M>,
    #[serde(default)]
    pub spec: CronJobSpec,
    #[serde(default)]
    pub status: CronJobStatus,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    #[serde(default, deserialize_with = "lenient")]
    pub concurrency_policy: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub schedule: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub time_zone: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub starting_deadline_seconds: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub suspend: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub successful_jobs_history_limit: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub failed_jobs_history_limit: Option<i64>,
    #[serde(default)]
    pub job_template: JobTemplate,
}

#[derive(Deserialize, Default)]
pub struct JobTemplate {
    #[serde(default)]
    pub metadata: TemplateMeta,
    #[serde(default, deserialize_with = "lenient")]
    pub spec: Option<JobSpec>,
}

#[derive(Deserialize, Default)]
pub struct TemplateMeta {
    #[serde(default, deserialize_with = "lenient")]
    pub labels: Filtered<All>,
    #[serde(default, deserialize_with = "lenient")]
    pub annotations: Filtered<All>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    #[serde(default, deserialize_with = "lenient")]
    pub backoff_limit: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub backoff_limit_per_index: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub active_deadline_seconds: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub ttl_seconds_after_finished: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub parallelism: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub completions: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub suspend: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub pod_failure_policy: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "lenient")]
    pub managed_by: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub completion_mode: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub template: Option<PodTemplate>,
}

#[derive(Deserialize, Default)]
pub struct PodTemplate {
    #[serde(default)]
    pub spec: PodTemplateSpec,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplateSpec {
    #[serde(default, deserialize_with = "lenient")]
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
    #[serde(default, deserialize_with = "lenient")]
    pub last_schedule_time: Option<Timestamp>,
    #[serde(default, deserialize_with = "lenient")]
    pub last_successful_time: Option<Timestamp>,
    #[serde(default)]
    pub active: Vec<ObjectRef>,
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

/// A Job. The scan reads only what a run's story needs of its spec (`JobRunSpec`: the rules
/// judge the CronJob's template); a manifest's Job is read with its whole spec (`JobSpec`)
/// and every label and annotation.
#[derive(Deserialize, Default)]
#[serde(bound(deserialize = "S: Deserialize<'de> + Default"))]
pub struct Job<L: KeyFilter = NoKeys, A: KeyFilter = JobAnnotations, S = JobRunSpec> {
    /// Not read: named so that a manifest's Job records their positions.
    #[serde(default)]
    pub kind: IgnoredAny,
    #[serde(rename = "apiVersion")]
    #[serde(default)]
    pub api_version: IgnoredAny,
    #[serde(default)]
    pub metadata: Meta<L, A>,
    #[serde(default)]
    pub spec: S,
    #[serde(default)]
    pub status: JobStatus,
}

/// What a run's story reads of a Job's spec (never the pod template, which the scan skips).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JobRunSpec {
    #[serde(default, deserialize_with = "lenient")]
    pub parallelism: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub completions: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub suspend: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub managed_by: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub completion_mode: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    #[serde(default, deserialize_with = "lenient")]
    pub start_time: Option<Timestamp>,
    #[serde(default, deserialize_with = "lenient")]
    pub completion_time: Option<Timestamp>,
    #[serde(default)]
    pub active: i64,
    #[serde(default)]
    pub succeeded: i64,
    #[serde(default)]
    pub failed: i64,
    #[serde(default, deserialize_with = "lenient")]
    pub terminating: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
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
    #[serde(default, deserialize_with = "lenient")]
    pub last_transition_time: Option<Timestamp>,
}

// ---- Pod -----------------------------------------------------------------------------------

/// A Pod. The scan keeps only the labels that tie it to its Job (`L`, `A`: the key filters;
/// the manifest reader keeps all).
#[derive(Deserialize, Default)]
#[serde(bound(deserialize = ""))]
pub struct Pod<L: KeyFilter = PodLabels, A: KeyFilter = NoKeys> {
    #[serde(default)]
    pub metadata: Meta<L, A>,
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
    #[serde(default, deserialize_with = "lenient")]
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

/// `{waiting: {…}}`, `{running: {…}}` or `{terminated: {…}}`: the first of these keys (the
/// API server writes one), with its details (empty when they are null; in a manifest, also
/// when they are not a mapping, which `tree_de` reads as empty without a diagnostic).
#[derive(Default)]
pub struct StateWire {
    pub state: Option<State>,
}

/// A container state with the details each state has: what the model keeps of it, and in a
/// manifest what is type-checked (a `waiting` state's `exitCode` is neither).
pub enum State {
    Waiting(Waiting),
    Running(Running),
    Terminated(Terminated),
}

impl<'de> Deserialize<'de> for StateWire {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StateWire;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a container state")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<StateWire, M::Error> {
                let mut out = StateWire::default();
                while let Some(BorrowedKey(k)) = m.next_key::<BorrowedKey<'de>>()? {
                    if out.state.is_some() {
                        m.next_value::<IgnoredAny>()?;
                        continue;
                    }
                    out.state = match &*k {
                        "waiting" => Some(State::Waiting(detail(&mut m)?)),
                        "running" => Some(State::Running(detail(&mut m)?)),
                        "terminated" => Some(State::Terminated(detail(&mut m)?)),
                        _ => {
                            m.next_value::<IgnoredAny>()?;
                            None
                        }
                    };
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// A state's details, empty when null (or, from a manifest, reported and left empty).
fn detail<'de, M: MapAccess<'de>, T: Deserialize<'de> + Default>(m: &mut M) -> Result<T, M::Error> {
    match m.next_value::<Option<T>>() {
        Ok(v) => Ok(v.unwrap_or_default()),
        Err(e) if super::tree_de::is_soft(&e) => Ok(T::default()),
        Err(e) => Err(e),
    }
}

#[derive(Deserialize, Default)]
pub struct Waiting {
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
}

/// `reason` and `message` too (the API server writes neither for a running container; the
/// model reads them from any state).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Running {
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
    #[serde(default, deserialize_with = "lenient")]
    pub started_at: Option<Timestamp>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Terminated {
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
    #[serde(default, deserialize_with = "lenient")]
    pub exit_code: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub started_at: Option<Timestamp>,
    #[serde(default, deserialize_with = "lenient")]
    pub finished_at: Option<Timestamp>,
}

// ---- Event (core/v1) -----------------------------------------------------------------------

/// A core/v1 Event. The scan keeps none of its labels and annotations (`L`, `A`: the key
/// filters; the manifest reader keeps all). Fields are declared in the order the manifest
/// reader reports them (`tree_de` reads a struct in declaration order).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", bound(deserialize = ""))]
pub struct Event<L: KeyFilter = NoKeys, A: KeyFilter = NoKeys> {
    #[serde(default)]
    pub metadata: Meta<L, A>,
    #[serde(default, deserialize_with = "lenient")]
    pub series: Option<Series>,
    #[serde(default, deserialize_with = "lenient")]
    pub event_time: Option<Timestamp>,
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub involved_object: Involved,
    #[serde(default)]
    pub message: String,
    #[serde(default, deserialize_with = "lenient")]
    pub count: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub first_timestamp: Option<Timestamp>,
    #[serde(default, deserialize_with = "lenient")]
    pub last_timestamp: Option<Timestamp>,
    #[serde(default)]
    pub source: Source,
    #[serde(default)]
    pub reporting_component: String,
}

/// An `events.k8s.io/v1` Event (read from files; the scan lists core/v1 Events): `regarding`,
/// `note` and the `deprecated*` fields carry what core/v1 calls otherwise.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", bound(deserialize = ""))]
pub struct EventV1<L: KeyFilter = NoKeys, A: KeyFilter = NoKeys> {
    #[serde(default)]
    pub metadata: Meta<L, A>,
    #[serde(default, deserialize_with = "lenient")]
    pub series: Option<Series>,
    #[serde(default, deserialize_with = "lenient")]
    pub event_time: Option<Timestamp>,
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub regarding: Involved,
    #[serde(default)]
    pub note: String,
    #[serde(default, deserialize_with = "lenient")]
    pub deprecated_count: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    pub deprecated_first_timestamp: Option<Timestamp>,
    #[serde(default, deserialize_with = "lenient")]
    pub deprecated_last_timestamp: Option<Timestamp>,
    #[serde(default)]
    pub reporting_controller: String,
    #[serde(default)]
    pub deprecated_source: Source,
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
    #[serde(default, deserialize_with = "lenient")]
    pub count: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
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

impl<A: KeyFilter, M: KeyFilter> Listed for CronJob<A, M> {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
impl<L: KeyFilter, A: KeyFilter, S> Listed for Job<L, A, S> {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
impl<L: KeyFilter, A: KeyFilter> Listed for Pod<L, A> {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
impl<L: KeyFilter, A: KeyFilter> Listed for Event<L, A> {
    fn listed_namespace(&self) -> &str {
        &self.metadata.namespace
    }
    fn listed_name(&self) -> &str {
        &self.metadata.name
    }
}
