//! The snapshot: everything the diagnosis needs, and nothing else.
//!
//! Built either from files (`source::manifest`) or, later, from the API server. Only the fields
//! the replay and the rules read are kept, which keeps `scan -A` on 10,000 CronJobs small and
//! lets the linter accept sloppy manifests (a quoted `"Forbid"`, `suspend: False`) instead of
//! rejecting them on a strict schema.

use jiff::Timestamp;

/// The annotation the controller puts on each Job it creates: the slot it was made for,
/// RFC 3339 in the CronJob's `spec.timeZone`, else UTC (from 1.28).
pub const SCHEDULED_ANNOTATION: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";

/// Where something was read from: 1-based line and column, like compilers print.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Default, serde::Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// Where an object came from, plus the positions of its fields (dotted paths such as
/// `spec.schedule` or `spec.jobTemplate.spec.activeDeadlineSeconds`) so findings can point at
/// the exact line. Absent for objects read from the API server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    pub file: String,
    /// Position of the object's document (or list item) start.
    pub position: Position,
    pub fields: FieldPositions,
    /// Values the loader accepted for their evident meaning although the API server rejects
    /// their YAML type when it decodes the object (a quoted `"300"` for an integer).
    pub wrong_types: Vec<WrongType>,
}

/// Positions of fields by dotted path, read like a map (`get`, `iter`, `fields["spec.schedule"]`).
///
/// Compact because there is one per loaded object: the paths the loader records come from a
/// fixed vocabulary (`field_paths`) and are stored as a 16-bit index with the
/// position (12 bytes an entry, against some 90 for a `BTreeMap<String, Position>` entry);
/// any other path is kept as an owned string. Both lists stay sorted and free of duplicates,
/// so equal contents compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldPositions {
    /// (vocabulary index, position), sorted by index (which is path order).
    known: Vec<(u16, Position)>,
    /// Paths outside the vocabulary, sorted.
    other: Vec<(Box<str>, Position)>,
}

impl FieldPositions {
    /// Sets the position of `path`, replacing an earlier one (as a map insert does).
    pub fn insert(&mut self, path: &str, pos: Position) {
        match crate::field_paths::id_of(path) {
            Some(id) => match self.known.binary_search_by_key(&id, |e| e.0) {
                Ok(i) => self.known[i].1 = pos,
                Err(i) => self.known.insert(i, (id, pos)),
            },
            None => match self.other.binary_search_by(|e| (*e.0).cmp(path)) {
                Ok(i) => self.other[i].1 = pos,
                Err(i) => self.other.insert(i, (path.into(), pos)),
            },
        }
    }

    pub fn get(&self, path: &str) -> Option<&Position> {
        match crate::field_paths::id_of(path) {
            Some(id) => self
                .known
                .binary_search_by_key(&id, |e| e.0)
                .ok()
                .map(|i| &self.known[i].1),
            None => self
                .other
                .binary_search_by(|e| (*e.0).cmp(path))
                .ok()
                .map(|i| &self.other[i].1),
        }
    }

    pub fn len(&self) -> usize {
        self.known.len() + self.other.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every (path, position), in path order.
    pub fn iter(&self) -> std::vec::IntoIter<(&str, &Position)> {
        let mut all: Vec<(&str, &Position)> = self
            .known
            .iter()
            .map(|(id, p)| (crate::field_paths::path_of(*id), p))
            .chain(self.other.iter().map(|(s, p)| (&**s, p)))
            .collect();
        all.sort_by(|a, b| a.0.cmp(b.0));
        all.into_iter()
    }

    /// Gives back spare capacity (the lists are built by insertion, then only read).
    pub fn shrink_to_fit(&mut self) {
        self.known.shrink_to_fit();
        self.other.shrink_to_fit();
    }
}

impl std::ops::Index<&str> for FieldPositions {
    type Output = Position;

    /// The position of `path`; panics when it was not recorded (as a map's index does).
    fn index(&self, path: &str) -> &Position {
        match self.get(path) {
            Some(p) => p,
            None => panic!("no position recorded for `{path}`"),
        }
    }
}

/// A field whose value has a type the API server's decoder rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongType {
    /// Dotted path, as in [`Origin::fields`] (`spec.startingDeadlineSeconds`).
    pub path: String,
    /// The value as written.
    pub value: String,
    /// The JSON type it has: `string`, `number` or `bool` (Go's decoder words).
    pub found: &'static str,
    /// Where it is in the file.
    pub position: Position,
}

impl Origin {
    /// Position of `path`, or of the closest enclosing field we know, or of the object.
    pub fn position_of(&self, path: &str) -> Position {
        let mut p = path;
        loop {
            if let Some(pos) = self.fields.get(p) {
                return pos.clone();
            }
            match p.rfind('.') {
                Some(i) => p = &p[..i],
                None => return self.position.clone(),
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: String,
    pub controller: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectMeta {
    pub name: String,
    /// Empty when the manifest does not say (callers treat that as `default`).
    pub namespace: String,
    pub uid: String,
    pub resource_version: String,
    pub creation_timestamp: Option<Timestamp>,
    pub deletion_timestamp: Option<Timestamp>,
    pub labels: StringMap,
    pub annotations: StringMap,
    pub owner_references: Vec<OwnerReference>,
    /// `managedFields` entries that set `f:spec/f:suspend`: (manager, operation, time).
    pub suspend_managers: Vec<FieldManagerEntry>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldManagerEntry {
    pub manager: String,
    pub operation: String,
    pub time: Option<Timestamp>,
}

impl ObjectMeta {
    /// The ownerReference with `controller: true`, as `metav1.GetControllerOf` returns it.
    pub fn controller(&self) -> Option<&OwnerReference> {
        self.owner_references.iter().find(|o| o.controller)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum ConcurrencyPolicy {
    #[default]
    Allow,
    Forbid,
    Replace,
    /// A value the API server would reject; kept so a rule can say so.
    Other(String),
}

impl ConcurrencyPolicy {
    /// `spec.concurrencyPolicy` as written; absent is the API's default, Allow. The one
    /// reading of the field, for files (`source`) and the cluster alike.
    pub fn from_spec(value: Option<String>) -> Self {
        match value.as_deref() {
            None | Some("Allow") => ConcurrencyPolicy::Allow,
            Some("Forbid") => ConcurrencyPolicy::Forbid,
            Some("Replace") => ConcurrencyPolicy::Replace,
            Some(_) => ConcurrencyPolicy::Other(value.unwrap_or_default()),
        }
    }

    /// The value as the API spells it (an invalid one as written).
    pub fn as_str(&self) -> &str {
        match self {
            ConcurrencyPolicy::Allow => "Allow",
            ConcurrencyPolicy::Forbid => "Forbid",
            ConcurrencyPolicy::Replace => "Replace",
            ConcurrencyPolicy::Other(o) => o,
        }
    }
}

/// The part of a Job spec (or CronJob job template spec) the rules look at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobSpec {
    pub backoff_limit: Option<i64>,
    pub backoff_limit_per_index: Option<i64>,
    pub active_deadline_seconds: Option<i64>,
    pub ttl_seconds_after_finished: Option<i64>,
    pub parallelism: Option<i64>,
    pub completions: Option<i64>,
    pub suspend: Option<bool>,
    pub has_pod_failure_policy: bool,
    /// `template.spec.restartPolicy` as written (None when absent).
    pub restart_policy: Option<String>,
    /// `spec.managedBy`: another controller than the Job controller runs it (1.30+).
    pub managed_by: Option<String>,
    /// `spec.completionMode`: `Indexed` or `NonIndexed` (None when absent).
    pub completion_mode: Option<String>,
    pub containers: Vec<Container>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Container {
    pub name: String,
    pub image: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobTemplate {
    pub labels: StringMap,
    pub annotations: StringMap,
    pub spec: JobSpec,
    /// False when `spec.jobTemplate.spec.template` is missing (a wrongly nested manifest).
    pub has_pod_template: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CronJobSpec {
    /// None when the field is absent (the API server would reject the object).
    pub schedule: Option<String>,
    pub time_zone: Option<String>,
    pub starting_deadline_seconds: Option<i64>,
    pub concurrency_policy: ConcurrencyPolicy,
    pub suspend: bool,
    /// None means the batch/v1 default (3 / 1).
    pub successful_jobs_history_limit: Option<i64>,
    pub failed_jobs_history_limit: Option<i64>,
    pub job_template: JobTemplate,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectReference {
    pub name: String,
    pub namespace: String,
    pub uid: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CronJobStatus {
    pub active: Vec<ObjectReference>,
    pub last_schedule_time: Option<Timestamp>,
    pub last_successful_time: Option<Timestamp>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CronJob {
    /// `batch/v1`, `batch/v1beta1`, `batch/v2alpha1`, as written.
    pub api_version: String,
    pub meta: ObjectMeta,
    pub spec: CronJobSpec,
    pub status: CronJobStatus,
    pub origin: Option<Origin>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
    pub last_transition_time: Option<Timestamp>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobStatus {
    pub start_time: Option<Timestamp>,
    pub completion_time: Option<Timestamp>,
    pub active: i64,
    pub succeeded: i64,
    pub failed: i64,
    /// `status.terminating`: Pods being deleted (a deletionTimestamp, not yet terminal). Set
    /// by the Job controller since 1.28 when pod replacement policy is on (on by default from
    /// 1.29); None when absent.
    pub terminating: Option<i64>,
    /// `status.ready`: active Pods with a Ready condition (1.24+); None when absent.
    pub ready: Option<i64>,
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Job {
    pub meta: ObjectMeta,
    pub spec: JobSpec,
    pub status: JobStatus,
    pub origin: Option<Origin>,
}

impl Job {
    fn has_true_condition(&self, type_: &str) -> bool {
        self.status
            .conditions
            .iter()
            .any(|c| c.type_ == type_ && c.status == "True")
    }
    /// `jobutil.IsJobFinished`: Complete or Failed condition with status True.
    pub fn is_finished(&self) -> bool {
        self.has_true_condition("Complete") || self.has_true_condition("Failed")
    }
    pub fn is_succeeded(&self) -> bool {
        self.has_true_condition("Complete")
    }
    pub fn is_failed(&self) -> bool {
        self.has_true_condition("Failed")
    }
    /// Created by `kubectl create job --from=cronjob/…` (or a tool imitating it).
    pub fn is_manual(&self) -> bool {
        self.meta
            .annotations
            .get("cronjob.kubernetes.io/instantiate")
            .is_some_and(|v| v == "manual")
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContainerState {
    /// `waiting`, `running` or `terminated` (empty when unknown).
    pub state: String,
    pub reason: String,
    pub message: String,
    pub exit_code: Option<i64>,
    /// `terminated.finishedAt` (else its `startedAt`), `running.startedAt`.
    pub at: Option<Timestamp>,
    /// `running.startedAt` or `terminated.startedAt`: when this run of the container began.
    pub started_at: Option<Timestamp>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContainerStatus {
    pub name: String,
    pub image: String,
    pub ready: bool,
    pub restart_count: i64,
    pub state: ContainerState,
    pub last_state: ContainerState,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pod {
    pub meta: ObjectMeta,
    /// `Pending`, `Running`, `Succeeded`, `Failed`, `Unknown`.
    pub phase: String,
    pub reason: String,
    pub message: String,
    pub node_name: String,
    pub start_time: Option<Timestamp>,
    pub conditions: Vec<Condition>,
    pub init_container_statuses: Vec<ContainerStatus>,
    pub container_statuses: Vec<ContainerStatus>,
}

impl Pod {
    /// The Job this Pod belongs to (`job-name` / `batch.kubernetes.io/job-name` label, or the
    /// controller ownerReference of kind Job).
    pub fn job_name(&self) -> Option<&str> {
        if let Some(o) = self.meta.controller().filter(|o| o.kind == "Job") {
            return Some(&o.name);
        }
        self.meta
            .labels
            .get("batch.kubernetes.io/job-name")
            .or_else(|| self.meta.labels.get("job-name"))
            .map(String::as_str)
    }
}

/// Namespace as the API server would default it for a manifest without one.
pub fn namespace_of(ns: &str) -> &str {
    if ns.is_empty() { "default" } else { ns }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InvolvedObject {
    pub kind: String,
    pub name: String,
    pub namespace: String,
    pub uid: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    pub meta: ObjectMeta,
    pub involved_object: InvolvedObject,
    /// `Normal` or `Warning`.
    pub type_: String,
    pub reason: String,
    pub message: String,
    pub count: i64,
    pub first_timestamp: Option<Timestamp>,
    pub last_timestamp: Option<Timestamp>,
    /// `source.component` or `reportingController`.
    pub source: String,
}

impl Event {
    /// The namespace the Event is filed under: its object's, else its own (the API server
    /// requires the two to be equal anyway), defaulted by [`namespace_of`].
    pub fn filed_namespace(&self) -> &str {
        if self.involved_object.namespace.is_empty() {
            namespace_of(&self.meta.namespace)
        } else {
            &self.involved_object.namespace
        }
    }
}

/// An Event's counters and times as sent, before the defaults the API leaves to readers.
/// Newer clients leave the deprecated fields empty and fill `series` and `eventTime`
/// instead; the one reading of them lives here, for files and the cluster alike.
#[derive(Clone, Copy, Debug, Default)]
pub struct EventClock {
    /// `count` (core/v1) or `deprecatedCount` (events.k8s.io/v1).
    pub count: Option<i64>,
    pub series_count: Option<i64>,
    /// `firstTimestamp` / `deprecatedFirstTimestamp`.
    pub first: Option<Timestamp>,
    /// `lastTimestamp` / `deprecatedLastTimestamp`.
    pub last: Option<Timestamp>,
    pub series_last: Option<Timestamp>,
    pub event_time: Option<Timestamp>,
}

impl EventClock {
    /// `(count, first, last)` of a core/v1 Event: its own fields first, then the series, then
    /// `eventTime`; a count of 1 when nothing says.
    pub fn core_v1(self) -> (i64, Option<Timestamp>, Option<Timestamp>) {
        (
            self.count.or(self.series_count).unwrap_or(1),
            self.first.or(self.event_time),
            self.last.or(self.series_last).or(self.event_time),
        )
    }

    /// The same for an events.k8s.io/v1 Event, whose series is current and whose
    /// `deprecated*` fields are the old ones.
    pub fn events_v1(self) -> (i64, Option<Timestamp>, Option<Timestamp>) {
        (
            self.series_count.or(self.count).unwrap_or(1),
            self.first.or(self.event_time),
            self.series_last.or(self.last).or(self.event_time),
        )
    }
}

/// Everything known at one instant. `now` is a parameter, never read from a clock here.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub cron_jobs: Vec<CronJob>,
    pub jobs: Vec<Job>,
    pub pods: Vec<Pod>,
    pub events: Vec<Event>,
    /// Whether Jobs / Pods / Events were available at all (from files: present in the input;
    /// from a cluster: listed without a 403). Lets the rules say "no evidence" honestly.
    pub evidence: Evidence,
    /// Reduced-evidence notes and similar, shown in the report.
    pub notes: Vec<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Evidence {
    pub jobs: bool,
    pub pods: bool,
    pub events: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, column: u32) -> Position {
        Position { line, column }
    }

    #[test]
    fn field_positions_read_like_a_map_of_paths() {
        let mut f = FieldPositions::default();
        assert!(f.is_empty());
        f.insert("spec.schedule", pos(3, 13));
        f.insert("spec", pos(2, 1));
        // Outside the vocabulary: kept as an owned path.
        f.insert(
            "spec.jobTemplate.spec.template.spec.containers.7.image",
            pos(9, 20),
        );
        f.insert("a.custom.path", pos(1, 1));
        // A second insert replaces, as in a map.
        f.insert("spec.schedule", pos(4, 13));
        f.insert("a.custom.path", pos(5, 5));
        assert_eq!(f.len(), 4);
        assert_eq!(f.get("spec.schedule"), Some(&pos(4, 13)));
        assert_eq!(f["spec"], pos(2, 1));
        assert_eq!(
            f.get("spec.jobTemplate.spec.template.spec.containers.7.image"),
            Some(&pos(9, 20))
        );
        assert_eq!(f.get("a.custom.path"), Some(&pos(5, 5)));
        assert_eq!(f.get("spec.timeZone"), None);
        assert_eq!(f.get("no.such"), None);
        let paths: Vec<&str> = f.iter().map(|(p, _)| p).collect();
        assert_eq!(
            paths,
            [
                "a.custom.path",
                "spec",
                "spec.jobTemplate.spec.template.spec.containers.7.image",
                "spec.schedule"
            ]
        );
        // The same contents in another order compare equal.
        let mut g = FieldPositions::default();
        g.insert("a.custom.path", pos(5, 5));
        g.insert(
            "spec.jobTemplate.spec.template.spec.containers.7.image",
            pos(9, 20),
        );
        g.insert("spec.schedule", pos(4, 13));
        g.insert("spec", pos(2, 1));
        assert_eq!(f, g);
        let origin = Origin {
            position: pos(1, 1),
            fields: f,
            ..Origin::default()
        };
        assert_eq!(origin.position_of("spec.schedule.x"), pos(4, 13));
        assert_eq!(origin.position_of("spec.suspend"), pos(2, 1));
        assert_eq!(origin.position_of("status"), pos(1, 1));
    }
}

/// Labels or annotations: a short list kept sorted by key. An object carries a handful of
/// each, and a `BTreeMap` allocates a node of eleven slots for its first entry — at hundreds
/// of thousands of objects that was the largest part of the loaded model (BENCHMARKS.md,
/// "Big inputs: peak memory"). Reads like the map it replaces: `get`, `contains_key`, `iter`
/// in key order, `map["key"]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringMap(Vec<(String, String)>);

impl StringMap {
    pub fn new() -> Self {
        StringMap(Vec::new())
    }
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }
    pub fn get(&self, key: &str) -> Option<&String> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }
    /// Sets `key`, returning the value it replaced.
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }
    pub fn clear(&mut self) {
        self.0.clear();
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }
    pub fn values(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(_, v)| v)
    }
    pub fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
}

impl std::ops::Index<&str> for StringMap {
    type Output = String;
    fn index(&self, key: &str) -> &String {
        self.get(key)
            .unwrap_or_else(|| panic!("no entry {key:?} in the map"))
    }
}

impl FromIterator<(String, String)> for StringMap {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Self {
        let mut m = StringMap::new();
        m.extend(iter);
        m
    }
}

impl Extend<(String, String)> for StringMap {
    /// As `insert` of each entry in turn (a later value for a key wins), in O(n log n): one
    /// `insert` at a time is quadratic in a map written in reverse key order, and a file's
    /// labels are untrusted.
    fn extend<I: IntoIterator<Item = (String, String)>>(&mut self, iter: I) {
        self.0.extend(iter);
        // Stable: entries of one key stay in the order they came, the last one latest.
        self.0.sort_by(|a, b| a.0.cmp(&b.0));
        // `dedup_by` keeps the first of equal neighbours: hand it the later value.
        self.0.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(&mut later.1, &mut kept.1);
            }
            same
        });
    }
}

impl From<std::collections::BTreeMap<String, String>> for StringMap {
    fn from(m: std::collections::BTreeMap<String, String>) -> Self {
        // Already sorted and unique.
        StringMap(m.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a StringMap {
    type Item = (&'a String, &'a String);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, String)>,
        fn(&'a (String, String)) -> (&'a String, &'a String),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

#[cfg(test)]
mod string_map_tests {
    use super::{ConcurrencyPolicy, EventClock, StringMap, Timestamp};

    #[test]
    fn reads_like_a_sorted_map() {
        let mut m: StringMap = [("b", "2"), ("a", "1")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(m.insert("a".into(), "9".into()), Some("1".into()));
        assert_eq!(m["a"], "9");
        assert!(m.contains_key("b") && !m.contains_key("c"));
        assert_eq!(m.remove("b"), Some("2".into()));
        assert_eq!(m.len(), 1);
        assert_eq!(m.get("zz"), None);
        // A later value for a key wins, as with `insert`, however many times it repeats.
        m.extend(
            [("c", "1"), ("a", "x"), ("c", "2"), ("c", "3"), ("b", "y")]
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        let all: Vec<(&String, &String)> = m.iter().collect();
        assert_eq!(all.len(), 3);
        assert_eq!(
            (m["a"].as_str(), m["b"].as_str(), m["c"].as_str()),
            ("x", "y", "3")
        );
    }

    #[test]
    fn many_keys_in_reverse_order_are_not_quadratic() {
        // 400,000 inserts at the front would move ~8·10¹⁰ entries (minutes); sorted once,
        // about a second even unoptimised.
        let n = 400_000;
        let started = std::time::Instant::now();
        let m: StringMap = (0..n)
            .rev()
            .map(|i| (format!("k{i:07}"), String::new()))
            .collect();
        assert_eq!(m.len(), n);
        assert_eq!(m.keys().next().map(String::as_str), Some("k0000000"));
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }

    #[test]
    fn concurrency_policies_read_and_print_one_way() {
        for p in ["Allow", "Forbid", "Replace", "Sometimes"] {
            assert_eq!(ConcurrencyPolicy::from_spec(Some(p.into())).as_str(), p);
        }
        assert_eq!(ConcurrencyPolicy::from_spec(None), ConcurrencyPolicy::Allow);
        assert_eq!(
            ConcurrencyPolicy::from_spec(Some("forbid".into())),
            ConcurrencyPolicy::Other("forbid".into())
        );
    }

    #[test]
    fn event_clocks_fill_in_what_newer_clients_leave_empty() {
        let t = |s: &str| Some(s.parse::<Timestamp>().unwrap());
        let clock = EventClock {
            count: Some(3),
            series_count: Some(7),
            first: None,
            last: t("2026-11-20T12:00:00Z"),
            series_last: t("2026-11-20T12:05:00Z"),
            event_time: t("2026-11-20T11:00:00Z"),
        };
        // core/v1: its own count and lastTimestamp win; eventTime stands in for the first.
        assert_eq!(
            clock.core_v1(),
            (3, t("2026-11-20T11:00:00Z"), t("2026-11-20T12:00:00Z"))
        );
        // events.k8s.io/v1: the series is current, the deprecated fields are old.
        assert_eq!(
            clock.events_v1(),
            (7, t("2026-11-20T11:00:00Z"), t("2026-11-20T12:05:00Z"))
        );
        assert_eq!(EventClock::default().core_v1(), (1, None, None));
    }
}
