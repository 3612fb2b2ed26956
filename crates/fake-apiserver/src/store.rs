//! The object store: one ordered table per resource, each object kept pre-serialised.
//!
//! Objects are stored as JSON bytes plus the few strings selectors need (labels and the
//! resource's field-selector values). A LIST of 100,000 items then filters on small
//! in-memory strings and concatenates `Bytes` handles: nothing is parsed, cloned or
//! re-serialised per request, and 100k realistic objects stay a few hundred MB, not GBs.
//!
//! Every change after loading is also kept, in resourceVersion order, in a bounded history
//! that WATCH replays (`crate::watch`); what falls off its end is "compacted", and a watch
//! from before that point gets 410 Expired as from a real server whose etcd compacted.

use crate::clock::rfc3339;
use crate::error::ObjectError;
use crate::resources::{self, NAMESPACES, RESOURCES, ResourceDef};
use bytes::Bytes;
use jiff::Timestamp;
use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use tokio::sync::watch;

/// One stored object.
#[derive(Debug, Clone)]
pub struct Entry {
    pub bytes: Bytes,
    pub labels: Vec<(String, String)>,
    pub fields: Vec<(&'static str, String)>,
}

impl Entry {
    pub fn value(&self) -> Value {
        serde_json::from_slice(&self.bytes).expect("stored objects are valid JSON")
    }
}

/// What happened to an object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
}

/// One change, as a watch replays it.
#[derive(Debug, Clone)]
pub struct Change {
    /// The store's resourceVersion right after the change.
    pub rv: u64,
    /// Storage table (see `ResourceDef::storage`).
    pub storage: usize,
    /// `namespace/name` (or `name`), as in the tables.
    pub key: String,
    pub kind: ChangeKind,
    /// The object after the change; for a deletion, the last state stamped with the
    /// deletion's resourceVersion, as the real server sends it.
    pub object: Entry,
    /// The object before the change (None for an addition): a selector watch needs it to
    /// tell "stopped matching" (DELETED) from "never matched".
    pub previous: Option<Entry>,
}

/// How many changes WATCH can replay by default.
pub const DEFAULT_HISTORY: usize = 10_000;

/// Every table, keyed like etcd (`namespace/name`, or `name` when cluster-scoped), so
/// iteration order is the real server's LIST order and continue tokens are just keys.
pub struct Store {
    rv: u64,
    seq: u64,
    tables: Vec<BTreeMap<String, Entry>>,
    /// Off while fixtures load: nobody can watch yet, and 100k initial objects need no history.
    recording: bool,
    history: VecDeque<Change>,
    history_cap: usize,
    /// A watch may start from resourceVersion `compacted` or later; older ones are gone.
    compacted: u64,
    /// Signals open watches that the history grew (carries the store's resourceVersion).
    changed: watch::Sender<u64>,
}

/// The namespaces every cluster has.
const BUILTIN_NAMESPACES: &[&str] = &["default", "kube-node-lease", "kube-public", "kube-system"];

pub fn key(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_string()
    } else {
        format!("{namespace}/{name}")
    }
}

/// Reads a string at a dotted path, `""` when absent; numbers and booleans as JSON text.
pub fn field_str(v: &Value, path: &str) -> String {
    let mut cur = v;
    for seg in path.split('.') {
        match cur.get(seg) {
            Some(next) => cur = next,
            None => return String::new(),
        }
    }
    match cur {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A deterministic UUID-shaped id: stable uids keep snapshot tests stable across runs.
pub fn uid_for(seed: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let a = splitmix(&mut h);
    let b = splitmix(&mut h);
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        ((b >> 48) & 0x3fff) | 0x8000,
        b & 0xffff_ffff_ffff
    )
}

pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Label pairs and field-selector values: what selectors match against.
type Index = (Vec<(String, String)>, Vec<(&'static str, String)>);

fn index(def: &ResourceDef, v: &Value) -> Index {
    let labels = v["metadata"]["labels"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    let mut fields = vec![
        ("metadata.name", field_str(v, "metadata.name")),
        ("metadata.namespace", field_str(v, "metadata.namespace")),
    ];
    for f in def.fields {
        let val = match *f {
            // Field sets spell some values differently from the object.
            "source" => field_str(v, "source.component"),
            "spec.hostNetwork" if v["spec"]["hostNetwork"].is_null() => "false".to_string(),
            path => field_str(v, path),
        };
        fields.push((*f, val));
    }
    (labels, fields)
}

/// The table key and stored form of an object (apiVersion/kind dropped: LIST items carry
/// none on the wire, and GET puts them back in front).
pub(crate) fn make_entry(def: &ResourceDef, mut v: Value) -> (String, Entry) {
    let (labels, fields) = index(def, &v);
    let k = key(
        &field_str(&v, "metadata.namespace"),
        &field_str(&v, "metadata.name"),
    );
    let mut metadata = None;
    if let Some(m) = v.as_object_mut() {
        m.remove("apiVersion");
        m.remove("kind");
        metadata = m.remove("metadata");
    }
    // `metadata` first, as the API server writes it (Go's field order, not key order):
    // clients may rely on reading it before the rest (the monitor names the object holding
    // a lone surrogate escape from the nearest `metadata` before it).
    let rest = serde_json::to_vec(&v).expect("Value serialises");
    let bytes = match metadata {
        Some(m) => {
            let mut out = b"{\"metadata\":".to_vec();
            out.extend(serde_json::to_vec(&m).expect("Value serialises"));
            match rest.get(1..).filter(|r| *r != b"}") {
                Some(r) => {
                    out.push(b',');
                    out.extend_from_slice(r);
                }
                None => out.push(b'}'),
            }
            out
        }
        None => rest,
    };
    let bytes = Bytes::from(bytes);
    (
        k,
        Entry {
            bytes,
            labels,
            fields,
        },
    )
}

impl Default for Store {
    fn default() -> Self {
        Self::new(Timestamp::UNIX_EPOCH)
    }
}

impl Store {
    pub fn new(now: Timestamp) -> Self {
        let mut s = Store {
            rv: 1000,
            seq: 0,
            tables: vec![BTreeMap::new(); RESOURCES.len()],
            recording: false,
            history: VecDeque::new(),
            history_cap: DEFAULT_HISTORY,
            compacted: 0,
            changed: watch::channel(0).0,
        };
        for ns in BUILTIN_NAMESPACES {
            s.ensure_namespace(ns, now);
        }
        s
    }

    /// The store's current resourceVersion (what a LIST reports).
    pub fn rv(&self) -> u64 {
        self.rv
    }

    pub fn next_rv(&mut self) -> u64 {
        self.rv += 1;
        self.rv
    }

    /// A fresh per-store sequence number, for uids and `generateName` suffixes.
    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Starts keeping changes for WATCH (after the fixtures loaded), at most `cap` of them.
    pub fn start_history(&mut self, cap: usize) {
        self.recording = true;
        self.history_cap = cap.max(1);
        self.compact();
    }

    /// At most `cap` changes kept from now on (the oldest beyond it are compacted).
    pub fn set_history_cap(&mut self, cap: usize) {
        self.history_cap = cap.max(1);
        self.trim();
    }

    /// Forgets every change so far: watches from any older resourceVersion get 410.
    pub fn compact(&mut self) {
        self.history.clear();
        self.compacted = self.rv;
    }

    /// The oldest resourceVersion a watch may start from.
    pub fn compacted(&self) -> u64 {
        self.compacted
    }

    /// Changes with a resourceVersion above `rv`, oldest first.
    pub fn changes_after(&self, rv: u64) -> impl Iterator<Item = &Change> {
        let start = self.history.partition_point(|c| c.rv <= rv);
        self.history.range(start..)
    }

    /// A receiver that wakes whenever a change is recorded.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    fn trim(&mut self) {
        while self.history.len() > self.history_cap {
            if let Some(old) = self.history.pop_front() {
                self.compacted = old.rv;
            }
        }
    }

    fn record(&mut self, change: Change) {
        if !self.recording {
            return;
        }
        self.history.push_back(change);
        self.trim();
        self.changed.send_replace(self.rv);
    }

    pub fn table(&self, res: usize) -> &BTreeMap<String, Entry> {
        &self.tables[RESOURCES[res].storage]
    }

    pub fn get(&self, res: usize, namespace: &str, name: &str) -> Option<&Entry> {
        self.table(res).get(&key(namespace, name))
    }

    pub fn has_namespace(&self, ns: &str) -> bool {
        self.tables[NAMESPACES].contains_key(ns)
    }

    /// Stores `v` as is (it must already carry uid, resourceVersion, …), replacing any
    /// object with the same key. apiVersion/kind are dropped: LIST items carry none on the
    /// wire, and GET puts them back in front.
    pub fn put(&mut self, res: usize, v: Value) {
        let def = &RESOURCES[res];
        let (k, entry) = make_entry(def, v);
        if !self.recording {
            // Loading fixtures: no copies for a history nobody can read yet.
            self.tables[def.storage].insert(k, entry);
            return;
        }
        let previous = self.tables[def.storage].insert(k.clone(), entry.clone());
        let kind = if previous.is_some() {
            ChangeKind::Modified
        } else {
            ChangeKind::Added
        };
        let rv = self.rv;
        self.record(Change {
            rv,
            storage: def.storage,
            key: k,
            kind,
            object: entry,
            previous,
        });
    }

    /// Deletes an object under a fresh resourceVersion and returns its last state stamped
    /// with it (what the real DELETE answers and its watch event carries).
    pub fn delete(&mut self, res: usize, namespace: &str, name: &str) -> Option<Value> {
        let def = &RESOURCES[res];
        let k = key(namespace, name);
        let previous = self.tables[def.storage].remove(&k)?;
        let rv = self.next_rv();
        let mut v = previous.value();
        v["metadata"]["resourceVersion"] = json!(rv.to_string());
        let (_, object) = make_entry(def, v.clone());
        self.record(Change {
            rv,
            storage: def.storage,
            key: k,
            kind: ChangeKind::Deleted,
            object,
            previous: Some(previous),
        });
        Some(v)
    }

    fn ensure_namespace(&mut self, ns: &str, now: Timestamp) {
        if self.has_namespace(ns) {
            return;
        }
        let rv = self.next_rv();
        let v = json!({
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {
                "name": ns,
                "uid": uid_for(&format!("namespaces/{ns}")),
                "resourceVersion": rv.to_string(),
                "creationTimestamp": rfc3339(now),
                "labels": {"kubernetes.io/metadata.name": ns},
            },
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"},
        });
        self.put(NAMESPACES, v);
    }

    /// Loads one fixture object the way it would look after the API server stored it:
    /// namespace defaulted, uid/resourceVersion/creationTimestamp/generation filled in when
    /// missing, its namespace created. Later objects with the same key replace earlier ones.
    pub fn ingest(&mut self, mut v: Value, now: Timestamp) -> Result<usize, ObjectError> {
        let api_version = v["apiVersion"].as_str().unwrap_or_default().to_string();
        let kind = v["kind"].as_str().unwrap_or_default().to_string();
        let res =
            resources::for_object(&api_version, &kind).ok_or_else(|| ObjectError::NotServed {
                api_version: api_version.clone(),
                kind: kind.clone(),
            })?;
        let def = &RESOURCES[res];
        let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) else {
            return Err(ObjectError::NoMetadata { kind });
        };
        let name = meta
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if name.is_empty() {
            return Err(ObjectError::NoName { kind });
        }
        let ns = if def.namespaced {
            let ns = meta
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or("default")
                .to_string();
            meta.insert("namespace".into(), json!(ns));
            ns
        } else {
            meta.remove("namespace");
            String::new()
        };
        if !meta.contains_key("uid") {
            meta.insert(
                "uid".into(),
                json!(uid_for(&format!("{}/{}", def.plural, key(&ns, &name)))),
            );
        }
        if !meta.contains_key("creationTimestamp") {
            meta.insert("creationTimestamp".into(), json!(rfc3339(now)));
        }
        if (def.group == "batch") && !meta.contains_key("generation") {
            meta.insert("generation".into(), json!(1));
        }
        // Keep a fixture's numeric resourceVersion, and never hand out a smaller one later.
        match meta
            .get("resourceVersion")
            .and_then(Value::as_str)
            .map(str::parse::<u64>)
        {
            Some(Ok(n)) => self.rv = self.rv.max(n),
            Some(Err(_)) => {}
            None => {
                let rv = self.next_rv();
                meta.insert("resourceVersion".into(), json!(rv.to_string()));
            }
        }
        if !ns.is_empty() {
            self.ensure_namespace(&ns, now);
        }
        self.put(res, v);
        Ok(res)
    }

    /// Entries of `res` in key order, in `namespace` if given, strictly after key `after`.
    pub fn range<'a>(
        &'a self,
        res: usize,
        namespace: Option<&'a str>,
        after: Option<&'a str>,
    ) -> impl Iterator<Item = (&'a String, &'a Entry)> + 'a {
        let table = self.table(res);
        let prefix = namespace.map(|ns| format!("{ns}/"));
        let lower = match (after, &prefix) {
            (Some(a), _) => Bound::Excluded(a.to_string()),
            (None, Some(p)) => Bound::Included(p.clone()),
            (None, None) => Bound::Unbounded,
        };
        table
            .range((lower, Bound::Unbounded))
            .take_while(move |(k, _)| prefix.as_ref().is_none_or(|p| k.starts_with(p.as_str())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ingest_fills_in_metadata_and_orders_like_etcd() {
        let mut s = Store::default();
        let cj = |ns: &str, name: &str| json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name, "namespace": ns}});
        for (ns, name) in [("a-b", "x"), ("a", "z"), ("a", "y")] {
            s.ingest(cj(ns, name), Timestamp::UNIX_EPOCH).unwrap();
        }
        let keys: Vec<_> = s
            .range(resources::CRONJOBS, None, None)
            .map(|(k, _)| k.clone())
            .collect();
        assert_eq!(
            keys,
            ["a-b/x", "a/y", "a/z"],
            "etcd key order: '-' sorts before '/'"
        );
        let only_a: Vec<_> = s
            .range(resources::CRONJOBS, Some("a"), None)
            .map(|(k, _)| k.clone())
            .collect();
        assert_eq!(only_a, ["a/y", "a/z"]);
        let after: Vec<_> = s
            .range(resources::CRONJOBS, Some("a"), Some("a/y"))
            .map(|(k, _)| k.clone())
            .collect();
        assert_eq!(after, ["a/z"]);
        let v = s.get(resources::CRONJOBS, "a", "y").unwrap().value();
        assert_eq!(v["metadata"]["generation"], 1);
        assert_eq!(v["metadata"]["creationTimestamp"], "1970-01-01T00:00:00Z");
        assert_eq!(v["metadata"]["uid"].as_str().unwrap().len(), 36);
        assert!(s.has_namespace("a-b") && s.has_namespace("kube-system"));
        assert!(
            s.ingest(
                json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}),
                Timestamp::UNIX_EPOCH
            )
            .is_err()
        );
    }

    #[test]
    fn history_records_changes_after_loading_and_compacts_beyond_its_cap() {
        let mut s = Store::default();
        let cj = |name: &str| json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name, "namespace": "a"}});
        s.ingest(cj("loaded"), Timestamp::UNIX_EPOCH).unwrap();
        s.start_history(3);
        let start = s.rv();
        assert_eq!(s.compacted(), start);
        assert_eq!(s.changes_after(start).count(), 0, "loading is not history");

        s.ingest(cj("new"), Timestamp::UNIX_EPOCH).unwrap();
        let mut changed = cj("loaded");
        changed["metadata"]["labels"] = json!({"x": "y"});
        s.ingest(changed, Timestamp::UNIX_EPOCH).unwrap();
        let gone = s.delete(resources::CRONJOBS, "a", "new").unwrap();
        let kinds: Vec<_> = s
            .changes_after(start)
            .map(|c| (c.kind, c.key.clone()))
            .collect();
        assert_eq!(
            kinds,
            [
                (ChangeKind::Added, "a/new".to_string()),
                (ChangeKind::Modified, "a/loaded".to_string()),
                (ChangeKind::Deleted, "a/new".to_string())
            ]
        );
        assert_eq!(gone["metadata"]["resourceVersion"], s.rv().to_string());
        let last = s.changes_after(start).last().unwrap();
        assert_eq!(
            last.rv,
            s.rv(),
            "the DELETED object carries the deletion's version"
        );
        assert_eq!(
            last.object.value()["metadata"]["resourceVersion"],
            s.rv().to_string()
        );
        assert!(s.delete(resources::CRONJOBS, "a", "new").is_none());

        s.ingest(cj("fourth"), Timestamp::UNIX_EPOCH).unwrap();
        assert_eq!(s.changes_after(0).count(), 3, "capped at 3");
        assert_eq!(s.compacted(), start + 1, "the first change fell off");
        s.compact();
        assert_eq!((s.compacted(), s.changes_after(0).count()), (s.rv(), 0));
    }
}
