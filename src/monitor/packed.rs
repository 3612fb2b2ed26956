//! Jobs, Pods and Events as the store keeps them between changes: one byte buffer each.
//!
//! Why: a model `Job` is a tree of a dozen `String`s and `Vec`s (name, namespace, uid,
//! resourceVersion, the owner reference's four strings, each condition's four, …), every one a
//! separate heap block with its own allocator overhead, behind a struct of several hundred
//! bytes that is mostly empty `Option`s. At 100,000 Jobs, 30,000 Pods and 50,000 Events that
//! was most of the monitor's memory. Packed, an object is one allocation of roughly the size
//! of its text; it is unpacked only while one CronJob's snapshot is diagnosed.
//!
//! The format is private to this process (never stored, never sent): varint lengths and
//! numbers, strings as bytes, fields in declaration order. Every model field is written:
//! unpacking gives back an equal object (tests hold it to account), so the diagnosis of a
//! snapshot made of unpacked objects is the diagnosis `scan` makes. The only exception is
//! `origin` (where a manifest file placed the object), which objects read from a cluster never
//! have (`doctor::source::convert` sets None).
//!
//! Not a second reader of a Kubernetes kind: it names the model's fields, never the API's (the
//! JSON names and types are read only by `doctor::source::wire`). Each `pack` destructures its
//! struct without `..`, so a field added to the model does not compile until it is packed
//! here too. A generic codec (serde derives on the model and a compact serde format) would save
//! the field list but put the byte layout, which the monitor's memory bound is measured
//! against (BENCHMARKS.md, "monitor at scale"), in the hands of derive order.

use std::marker::PhantomData;

use doctor::model::{
    Condition, Container, ContainerState, ContainerStatus, Event, FieldManagerEntry,
    InvolvedObject, Job, JobSpec, JobStatus, ObjectMeta, OwnerReference, Pod, StringMap,
};
use jiff::Timestamp;

/// One object of type `T`, packed.
pub struct Packed<T> {
    bytes: Box<[u8]>,
    kind: PhantomData<fn() -> T>,
}

impl<T: Pack> Packed<T> {
    pub fn new(obj: &T) -> Self {
        let mut w = Writer(Vec::with_capacity(256));
        obj.pack(&mut w);
        Packed {
            bytes: w.0.into_boxed_slice(),
            kind: PhantomData,
        }
    }

    /// The object back. None only if this module wrote something it cannot read (a bug,
    /// reported as a missing object rather than a panic).
    pub fn unpack(&self) -> Option<T> {
        let mut r = Reader {
            rest: &self.bytes,
            ok: true,
        };
        let obj = T::unpack(&mut r);
        (r.ok && r.rest.is_empty()).then_some(obj)
    }

    /// Bytes held (the benchmark notes and tests).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
}

pub trait Pack: Sized {
    fn pack(&self, w: &mut Writer);
    fn unpack(r: &mut Reader) -> Self;
}

pub struct Writer(Vec<u8>);

impl Writer {
    fn uint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }
    fn int(&mut self, v: i64) {
        // Zigzag: small negative numbers stay short.
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }
    fn bool(&mut self, b: bool) {
        self.0.push(u8::from(b));
    }
    fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn opt_str(&mut self, s: Option<&str>) {
        self.bool(s.is_some());
        if let Some(s) = s {
            self.str(s);
        }
    }
    fn opt_int(&mut self, v: Option<i64>) {
        self.bool(v.is_some());
        if let Some(v) = v {
            self.int(v);
        }
    }
    fn opt_bool(&mut self, v: Option<bool>) {
        self.0.push(match v {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        });
    }
    fn time(&mut self, t: Option<Timestamp>) {
        self.bool(t.is_some());
        if let Some(t) = t {
            self.int(t.as_second());
            self.int(i64::from(t.subsec_nanosecond()));
        }
    }
    fn list<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, &T)) {
        self.uint(items.len() as u64);
        for i in items {
            each(self, i);
        }
    }
    fn map(&mut self, m: &StringMap) {
        self.uint(m.len() as u64);
        for (k, v) in m.iter() {
            self.str(k);
            self.str(v);
        }
    }
}

/// Reads what [`Writer`] wrote; past the end or on a malformed value it yields defaults and
/// clears `ok`.
pub struct Reader<'a> {
    rest: &'a [u8],
    ok: bool,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        match self.rest.split_first() {
            Some((b, rest)) => {
                self.rest = rest;
                *b
            }
            None => {
                self.ok = false;
                0
            }
        }
    }
    fn uint(&mut self) -> u64 {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte();
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return v;
            }
        }
        self.ok = false;
        v
    }
    fn int(&mut self) -> i64 {
        let u = self.uint();
        ((u >> 1) as i64) ^ -((u & 1) as i64)
    }
    fn bool(&mut self) -> bool {
        self.byte() != 0
    }
    fn len(&mut self) -> usize {
        // Never more than the bytes left: a bad length cannot ask for a huge allocation.
        let n = usize::try_from(self.uint()).unwrap_or(usize::MAX);
        if n > self.rest.len() {
            self.ok = false;
            return 0;
        }
        n
    }
    fn str(&mut self) -> String {
        let n = self.len();
        let (s, rest) = self.rest.split_at(n);
        self.rest = rest;
        match std::str::from_utf8(s) {
            Ok(s) => s.to_string(),
            Err(_) => {
                self.ok = false;
                String::new()
            }
        }
    }
    fn opt_str(&mut self) -> Option<String> {
        self.bool().then(|| self.str())
    }
    fn opt_int(&mut self) -> Option<i64> {
        self.bool().then(|| self.int())
    }
    fn opt_bool(&mut self) -> Option<bool> {
        match self.byte() {
            0 => None,
            1 => Some(false),
            _ => Some(true),
        }
    }
    fn time(&mut self) -> Option<Timestamp> {
        if !self.bool() {
            return None;
        }
        let (s, ns) = (self.int(), self.int());
        let t = i32::try_from(ns)
            .ok()
            .and_then(|ns| Timestamp::new(s, ns).ok());
        if t.is_none() {
            self.ok = false;
        }
        t
    }
    fn list<T>(&mut self, mut each: impl FnMut(&mut Self) -> T) -> Vec<T> {
        // Every item takes at least one byte: the count cannot exceed the bytes left.
        let n = self.len();
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(each(self));
        }
        v
    }
    fn map(&mut self) -> StringMap {
        let n = self.len();
        (0..n).map(|_| (self.str(), self.str())).collect()
    }
}

fn pack_meta(w: &mut Writer, m: &ObjectMeta) {
    let ObjectMeta {
        name,
        namespace,
        uid,
        resource_version,
        creation_timestamp,
        deletion_timestamp,
        labels,
        annotations,
        owner_references,
        suspend_managers,
    } = m;
    w.str(name);
    w.str(namespace);
    w.str(uid);
    w.str(resource_version);
    w.time(*creation_timestamp);
    w.time(*deletion_timestamp);
    w.map(labels);
    w.map(annotations);
    w.list(owner_references, |w, o| {
        let OwnerReference {
            api_version,
            kind,
            name,
            uid,
            controller,
        } = o;
        w.str(api_version);
        w.str(kind);
        w.str(name);
        w.str(uid);
        w.bool(*controller);
    });
    w.list(suspend_managers, |w, f| {
        let FieldManagerEntry {
            manager,
            operation,
            time,
        } = f;
        w.str(manager);
        w.str(operation);
        w.time(*time);
    });
}

fn unpack_meta(r: &mut Reader) -> ObjectMeta {
    ObjectMeta {
        name: r.str(),
        namespace: r.str(),
        uid: r.str(),
        resource_version: r.str(),
        creation_timestamp: r.time(),
        deletion_timestamp: r.time(),
        labels: r.map(),
        annotations: r.map(),
        owner_references: r.list(|r| OwnerReference {
            api_version: r.str(),
            kind: r.str(),
            name: r.str(),
            uid: r.str(),
            controller: r.bool(),
        }),
        suspend_managers: r.list(|r| FieldManagerEntry {
            manager: r.str(),
            operation: r.str(),
            time: r.time(),
        }),
    }
}

fn pack_conditions(w: &mut Writer, cs: &[Condition]) {
    w.list(cs, |w, c| {
        let Condition {
            type_,
            status,
            reason,
            message,
            last_transition_time,
        } = c;
        w.str(type_);
        w.str(status);
        w.str(reason);
        w.str(message);
        w.time(*last_transition_time);
    });
}

fn unpack_conditions(r: &mut Reader) -> Vec<Condition> {
    r.list(|r| Condition {
        type_: r.str(),
        status: r.str(),
        reason: r.str(),
        message: r.str(),
        last_transition_time: r.time(),
    })
}

impl Pack for Job {
    fn pack(&self, w: &mut Writer) {
        // `origin` is left out: see the module header.
        let Job {
            meta,
            spec,
            status,
            origin: _,
        } = self;
        pack_meta(w, meta);
        let JobSpec {
            backoff_limit,
            backoff_limit_per_index,
            active_deadline_seconds,
            ttl_seconds_after_finished,
            parallelism,
            completions,
            suspend,
            has_pod_failure_policy,
            restart_policy,
            managed_by,
            completion_mode,
            containers,
        } = spec;
        for v in [
            backoff_limit,
            backoff_limit_per_index,
            active_deadline_seconds,
            ttl_seconds_after_finished,
            parallelism,
            completions,
        ] {
            w.opt_int(*v);
        }
        w.opt_bool(*suspend);
        w.bool(*has_pod_failure_policy);
        w.opt_str(restart_policy.as_deref());
        w.opt_str(managed_by.as_deref());
        w.opt_str(completion_mode.as_deref());
        w.list(containers, |w, c| {
            let Container { name, image } = c;
            w.str(name);
            w.str(image);
        });
        let JobStatus {
            start_time,
            completion_time,
            active,
            succeeded,
            failed,
            terminating,
            ready,
            conditions,
        } = status;
        w.time(*start_time);
        w.time(*completion_time);
        w.int(*active);
        w.int(*succeeded);
        w.int(*failed);
        w.opt_int(*terminating);
        w.opt_int(*ready);
        pack_conditions(w, conditions);
    }

    fn unpack(r: &mut Reader) -> Job {
        Job {
            meta: unpack_meta(r),
            spec: JobSpec {
                backoff_limit: r.opt_int(),
                backoff_limit_per_index: r.opt_int(),
                active_deadline_seconds: r.opt_int(),
                ttl_seconds_after_finished: r.opt_int(),
                parallelism: r.opt_int(),
                completions: r.opt_int(),
                suspend: r.opt_bool(),
                has_pod_failure_policy: r.bool(),
                restart_policy: r.opt_str(),
                managed_by: r.opt_str(),
                completion_mode: r.opt_str(),
                containers: r.list(|r| Container {
                    name: r.str(),
                    image: r.str(),
                }),
            },
            status: JobStatus {
                start_time: r.time(),
                completion_time: r.time(),
                active: r.int(),
                succeeded: r.int(),
                failed: r.int(),
                terminating: r.opt_int(),
                ready: r.opt_int(),
                conditions: unpack_conditions(r),
            },
            origin: None,
        }
    }
}

fn pack_container_state(w: &mut Writer, s: &ContainerState) {
    let ContainerState {
        state,
        reason,
        message,
        exit_code,
        at,
        started_at,
    } = s;
    w.str(state);
    w.str(reason);
    w.str(message);
    w.opt_int(*exit_code);
    w.time(*at);
    w.time(*started_at);
}

fn unpack_container_state(r: &mut Reader) -> ContainerState {
    ContainerState {
        state: r.str(),
        reason: r.str(),
        message: r.str(),
        exit_code: r.opt_int(),
        at: r.time(),
        started_at: r.time(),
    }
}

fn pack_statuses(w: &mut Writer, ss: &[ContainerStatus]) {
    w.list(ss, |w, s| {
        let ContainerStatus {
            name,
            image,
            ready,
            restart_count,
            state,
            last_state,
        } = s;
        w.str(name);
        w.str(image);
        w.bool(*ready);
        w.int(*restart_count);
        pack_container_state(w, state);
        pack_container_state(w, last_state);
    });
}

fn unpack_statuses(r: &mut Reader) -> Vec<ContainerStatus> {
    r.list(|r| ContainerStatus {
        name: r.str(),
        image: r.str(),
        ready: r.bool(),
        restart_count: r.int(),
        state: unpack_container_state(r),
        last_state: unpack_container_state(r),
    })
}

impl Pack for Pod {
    fn pack(&self, w: &mut Writer) {
        let Pod {
            meta,
            phase,
            reason,
            message,
            node_name,
            start_time,
            conditions,
            init_container_statuses,
            container_statuses,
        } = self;
        pack_meta(w, meta);
        w.str(phase);
        w.str(reason);
        w.str(message);
        w.str(node_name);
        w.time(*start_time);
        pack_conditions(w, conditions);
        pack_statuses(w, init_container_statuses);
        pack_statuses(w, container_statuses);
    }

    fn unpack(r: &mut Reader) -> Pod {
        Pod {
            meta: unpack_meta(r),
            phase: r.str(),
            reason: r.str(),
            message: r.str(),
            node_name: r.str(),
            start_time: r.time(),
            conditions: unpack_conditions(r),
            init_container_statuses: unpack_statuses(r),
            container_statuses: unpack_statuses(r),
        }
    }
}

impl Pack for Event {
    fn pack(&self, w: &mut Writer) {
        let Event {
            meta,
            involved_object,
            type_,
            reason,
            message,
            count,
            first_timestamp,
            last_timestamp,
            source,
        } = self;
        pack_meta(w, meta);
        let InvolvedObject {
            kind,
            name,
            namespace,
            uid,
        } = involved_object;
        w.str(kind);
        w.str(name);
        w.str(namespace);
        w.str(uid);
        w.str(type_);
        w.str(reason);
        w.str(message);
        w.int(*count);
        w.time(*first_timestamp);
        w.time(*last_timestamp);
        w.str(source);
    }

    fn unpack(r: &mut Reader) -> Event {
        Event {
            meta: unpack_meta(r),
            involved_object: InvolvedObject {
                kind: r.str(),
                name: r.str(),
                namespace: r.str(),
                uid: r.str(),
            },
            type_: r.str(),
            reason: r.str(),
            message: r.str(),
            count: r.int(),
            first_timestamp: r.time(),
            last_timestamp: r.time(),
            source: r.str(),
        }
    }
}

#[cfg(test)]
#[path = "packed_tests.rs"]
mod tests;
