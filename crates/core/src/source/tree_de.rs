//! serde over the position tree: the manifest reader deserializes a document into the same
//! `wire` structs the cluster path reads from the API server's JSON, so one struct per kind
//! names its fields, and one `convert` turns it into the model.
//!
//! What this adds to a plain deserializer is the loader's leniency and its diagnostics
//! (module `source`, "Leniency"): each typed request reads the value the way `Reader` reads a
//! typed field (`Reader::int_value`, `bool_value`, `str_value`, `time_value`), reports a wrong
//! type as a positioned [`super::LoadError`] or [`super::Note`] under the field's dotted path,
//! and leaves the field absent. The request tells the type:
//! - `deserialize_i64` an integer, `deserialize_bool` a boolean, `deserialize_string` a string;
//! - `deserialize_str` a time: in the wire structs, strings are `String`s and the only `&str`
//!   request is jiff's `Timestamp` (map keys go through their own key deserializer);
//! - `deserialize_struct`/`deserialize_map` a mapping, `deserialize_seq` a list of mappings
//!   (every list the wire structs read is one; other items are skipped, as the loader does).
//!
//! A value of the wrong type, once reported, reads as the zero value (`""`, 0, false, an empty
//! object or list), as the hand-written reader's defaults did; inside an `Option` it fails
//! with [`SOFT`] instead, and the wire structs read their optional fields through
//! `wire::lenient`, which turns that failure (and only that one: the API server's JSON never
//! produces it) into None.
//!
//! Diagnostics come in the order the wire structs declare their fields (`deserialize_struct`),
//! which is the order the hand-written reader asked in; one field read elsewhere in that
//! order has its diagnostics held back (see [`HELD`]).

use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use super::manifest::{Reader, field_position};
use super::tree::{N, Shape};

/// The message of the error that says "already reported, leave the field absent".
pub(crate) const SOFT: &str = "\u{0}reported at its position";

/// Whether a deserialization error is [`SOFT`] (only ever produced here).
#[cold]
#[inline(never)]
pub(crate) fn is_soft(e: &impl std::fmt::Display) -> bool {
    e.to_string() == SOFT
}

#[derive(Debug)]
pub(crate) struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

fn soft() -> Error {
    Error(SOFT.to_string())
}

/// One value of the tree, at a dotted path, read for a `wire` struct.
pub(crate) struct De<'r, 'o, 'f, 'd, 'a> {
    pub r: &'r mut Reader<'o, 'f>,
    pub node: N<'d, 'a>,
    pub path: String,
    /// Inside an `Option`: a wrong type fails with [`SOFT`] (the field, read through
    /// `wire::lenient`, stays None); elsewhere it reads as the zero value or an empty object.
    pub optional: bool,
}

impl<'r, 'o, 'f, 'd, 'a> De<'r, 'o, 'f, 'd, 'a> {
    fn report_shape(&mut self, what: &str) {
        let msg = format!(
            "`{}` should be {what}, found {}",
            self.path,
            self.node.shape().describe()
        );
        self.r.error(&self.node.pos(), msg);
    }

    fn empty_map(self) -> Entries<'r, 'o, 'f, 'd, 'a> {
        Entries {
            r: self.r,
            fields: false,
            entries: Vec::new().into_iter(),
            value: None,
            path: self.path,
        }
    }
}

macro_rules! unsupported {
    ($($name:ident)*) => {
        $(fn $name<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
            Err(Error(concat!("tree_de: ", stringify!($name), " is not read by the wire structs").into()))
        })*
    };
}

impl<'de> de::Deserializer<'de> for De<'_, '_, '_, '_, '_> {
    type Error = Error;

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        if self.node.is_null() {
            v.visit_none()
        } else {
            v.visit_some(De {
                optional: true,
                ..self
            })
        }
    }

    fn deserialize_string<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value, Error> {
        if self.node.scalar().is_none() {
            self.report_shape("a string");
            return if self.optional {
                Err(soft())
            } else {
                v.visit_str("")
            };
        }
        match self.r.str_value(self.node, &self.path) {
            Some(s) => v.visit_string(s),
            None => v.visit_str(""),
        }
    }

    /// A time (see the module header).
    fn deserialize_str<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value, Error> {
        if self.node.scalar().is_none() {
            self.report_shape("a time");
            return Err(soft());
        }
        match self.r.time_value(self.node, &self.path) {
            Some(t) => v.visit_string(t.to_string()),
            None => Err(soft()),
        }
    }

    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        // `int_value` reports a non-scalar as `report_shape` would.
        match self.r.int_value(self.node, &self.path) {
            Some(i) => v.visit_i64(i),
            None if self.optional => Err(soft()),
            None => v.visit_i64(0),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        // `bool_value` reports a non-scalar as `report_shape` would.
        match self.r.bool_value(self.node, &self.path) {
            Some(b) => v.visit_bool(b),
            None if self.optional => Err(soft()),
            None => v.visit_bool(false),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value, Error> {
        if self.node.is_null() {
            return v.visit_map(self.empty_map());
        }
        if !self.node.is_map() {
            if !is_state_detail(&self.path) {
                self.report_shape("a mapping");
            }
            return if self.optional {
                Err(soft())
            } else {
                v.visit_map(self.empty_map())
            };
        }
        v.visit_map(Entries {
            r: self.r,
            fields: false,
            entries: self.node.entries().into_iter(),
            value: None,
            path: self.path,
        })
    }

    /// A struct's fields are read in the order the wire struct declares them, not in the
    /// document's: that order is the reader's, so diagnostics come out in a fixed order (the
    /// hand-written reader's, whose order the wire structs keep). Keys the struct does not
    /// name are skipped.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        if self.node.is_null() || !self.node.is_map() {
            return self.deserialize_map(v);
        }
        let mut entries: Vec<(usize, (N<'_, '_>, N<'_, '_>))> = self
            .node
            .entries()
            .into_iter()
            .filter_map(|(k, v)| {
                let key = k.scalar()?.0;
                Some((fields.iter().position(|f| *f == key)?, (k, v)))
            })
            .collect();
        entries.sort_by_key(|e| e.0);
        self.r.cron_job_level(self.node, &self.path);
        v.visit_map(Entries {
            r: self.r,
            fields: true,
            entries: entries
                .into_iter()
                .map(|e| e.1)
                .collect::<Vec<_>>()
                .into_iter(),
            value: None,
            path: self.path,
        })
    }

    /// A list of mappings. Containers are indexed (`…containers.0.image`, each item's position
    /// recorded: a finding points at one container), and an item that is not a mapping is an
    /// error; other lists read as `…[]` and skip such items.
    fn deserialize_seq<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value, Error> {
        if self.node.is_null() {
            return v.visit_seq(Items {
                r: self.r,
                items: Vec::new().into_iter(),
                path: self.path,
                indexed: false,
            });
        }
        if self.node.shape() != Shape::Seq {
            self.report_shape("a list");
            if self.optional {
                return Err(soft());
            }
            return v.visit_seq(Items {
                r: self.r,
                items: Vec::new().into_iter(),
                path: self.path,
                indexed: false,
            });
        }
        let indexed = self.path.ends_with(".containers");
        let items: Vec<N<'_, '_>> = if indexed {
            self.node.items().collect()
        } else {
            self.node.items().filter(N::is_map).collect()
        };
        let path = if indexed {
            self.path
        } else {
            format!("{}[]", self.path)
        };
        v.visit_seq(Items {
            r: self.r,
            items: items
                .into_iter()
                .enumerate()
                .collect::<Vec<_>>()
                .into_iter(),
            path,
            indexed,
        })
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    unsupported! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_u8 deserialize_u16
        deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_identifier
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Error> {
        Err(Error(
            "tree_de: enums are not read by the wire structs".into(),
        ))
    }
}

/// A container state's details (`….state.waiting`, `….lastState.terminated`): when they are
/// not a mapping they read as empty without a diagnostic, as the loader has always read them.
fn is_state_detail(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(parent, state)| {
        matches!(state, "waiting" | "running" | "terminated")
            && (parent.ends_with(".state") || parent.ends_with(".lastState"))
    })
}

/// A Pod's `spec.nodeName` is reported after `status.phase`, `status.reason` and
/// `status.message` (and `status` not being a mapping), before the rest of `status`: the order
/// the loader has always reported a Pod in. Its diagnostics are held back until the first
/// other field of `status` is read, or the object ends (`Reader::wire`).
const HELD: &str = "spec.nodeName";
const BEFORE_HELD: &[&str] = &["status.phase", "status.reason", "status.message"];

/// A mapping's entries (merge keys resolved, the last of duplicate keys), by key.
struct Entries<'r, 'o, 'f, 'd, 'a> {
    r: &'r mut Reader<'o, 'f>,
    /// A struct's fields (positions recorded when the reader records), not a map's keys.
    fields: bool,
    entries: std::vec::IntoIter<(N<'d, 'a>, N<'d, 'a>)>,
    value: Option<(String, N<'d, 'a>)>,
    path: String,
}

impl<'de> MapAccess<'de> for Entries<'_, '_, '_, '_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        for (k, v) in self.entries.by_ref() {
            let Some((key, _)) = k.scalar() else { continue };
            let path = if self.path.is_empty() {
                key.to_string()
            } else {
                format!("{}.{key}", self.path)
            };
            // Recorded when present, null or not, as the loader has always recorded a field
            // it reads; `managedFields` is not recorded (`Reader::read_suspend_managers`).
            if self.fields && self.r.record && path != "metadata.managedFields" {
                self.r.fields.insert(&path, field_position(k, v));
            }
            self.value = Some((path, v));
            return seed
                .deserialize(IntoDeserializer::<Error>::into_deserializer(key))
                .map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        let (path, node) = self
            .value
            .take()
            .ok_or_else(|| Error("tree_de: a value without its key".into()))?;
        if path == "metadata.managedFields" {
            // Who set `spec.suspend`: read entry by entry, reporting only about the entries
            // that set it (the object's wire struct skips the list: `Managed<NoKeys>`).
            self.r.read_suspend_managers(node);
        }
        // Owner references and a CronJob's active Jobs are not positioned (only the list is).
        let record = self.r.record;
        if path == "metadata.ownerReferences" || path == "status.active" {
            self.r.record = false;
        }
        if path.starts_with("status.") && !BEFORE_HELD.contains(&path.as_str()) {
            self.r.release_held();
        }
        let hold = (path == HELD).then(|| self.r.mark());
        let out = seed.deserialize(De {
            r: self.r,
            node,
            path,
            optional: false,
        });
        self.r.record = record;
        if let Some(mark) = hold {
            self.r.hold_since(mark);
        }
        out
    }
}

/// A list's mapping items.
struct Items<'r, 'o, 'f, 'd, 'a> {
    r: &'r mut Reader<'o, 'f>,
    items: std::vec::IntoIter<(usize, N<'d, 'a>)>,
    path: String,
    indexed: bool,
}

impl<'de> SeqAccess<'de> for Items<'_, '_, '_, '_, '_> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        for (i, node) in self.items.by_ref() {
            let path = if self.indexed {
                let path = format!("{}.{i}", self.path);
                if self.r.record {
                    self.r.fields.insert(&path, node.pos());
                }
                if !node.is_map() {
                    if !node.is_null() {
                        let msg = format!(
                            "`{path}` should be a mapping (a container), found {}",
                            node.shape().describe()
                        );
                        self.r.error(&node.pos(), msg);
                    }
                    continue;
                }
                path
            } else {
                self.path.clone()
            };
            return seed
                .deserialize(De {
                    r: self.r,
                    node,
                    path,
                    optional: false,
                })
                .map(Some);
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use crate::source::{Loaded, parse_text};

    fn diagnostics(l: &Loaded) -> Vec<String> {
        let errors = l.errors.iter().map(|e| format!("error: {e}"));
        errors
            .chain(l.notes.iter().map(|n| format!("note: {n}")))
            .collect()
    }

    /// A Pod's problems in the order the loader has always reported them: `spec.nodeName`
    /// after `status.phase`, `reason`, `message` and `status` not being a mapping, before the
    /// rest of `status`, whatever order the document has.
    #[test]
    fn a_pods_node_name_is_reported_after_the_status_phase_reason_and_message() {
        let l = parse_text(
            "t1.yaml",
            r#"apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec: {nodeName: [n]}
status: {startTime: 5, message: [m], reason: {}, phase: [p], conditions: 5}
---
apiVersion: v1
kind: Pod
metadata: {name: q, namespace: ns}
status: 5
spec: {nodeName: {}}
---
apiVersion: v1
kind: Pod
metadata: {name: r, namespace: ns}
spec: {nodeName: 1}
status: {message: true, phase: Failed}
"#,
        );
        assert_eq!(
            diagnostics(&l),
            [
                "error: t1.yaml:5:57: `status.phase` should be a string, found a list",
                "error: t1.yaml:5:46: `status.reason` should be a string, found a mapping",
                "error: t1.yaml:5:33: `status.message` should be a string, found a list",
                "error: t1.yaml:4:18: `spec.nodeName` should be a string, found a list",
                "error: t1.yaml:5:21: `status.startTime` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found \"5\"",
                "error: t1.yaml:5:74: `status.conditions` should be a list, found a number",
                "error: t1.yaml:10:9: `status` should be a mapping, found a number",
                "error: t1.yaml:11:18: `spec.nodeName` should be a string, found a mapping",
                "note: t1.yaml:17:19: `status.message: true` is a boolean in YAML, not a string; the API server rejects it (quote it: \"true\")",
                "note: t1.yaml:16:18: `spec.nodeName: 1` is a number in YAML, not a string; the API server rejects it (quote it: \"1\")",
            ]
        );
        assert_eq!(l.pods.len(), 3);
        assert_eq!(l.pods[2].node_name, "1");
        assert_eq!(l.pods[2].message, "true");
        assert_eq!(l.pods[2].phase, "Failed");
    }

    /// Container state details that are not a mapping read as an empty detail of that state,
    /// with no diagnostic.
    #[test]
    fn a_container_state_detail_that_is_not_a_mapping_reads_as_empty_unreported() {
        let l = parse_text(
            "t2.yaml",
            r#"apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
status:
  containerStatuses:
  - name: a
    state: {waiting: 5}
    lastState: {terminated: [1]}
  - name: b
    state: {running: text}
    lastState: {waiting: null}
"#,
        );
        assert_eq!(diagnostics(&l), Vec::<String>::new());
        let cs = &l.pods[0].container_statuses;
        let states: Vec<(&str, &str)> = cs
            .iter()
            .flat_map(|c| [&c.state, &c.last_state])
            .map(|s| (s.state.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(
            states,
            [
                ("waiting", ""),
                ("terminated", ""),
                ("running", ""),
                ("waiting", "")
            ]
        );
        assert_eq!(cs[0].last_state.exit_code, None);
        assert_eq!(cs[1].state.at, None);
    }

    /// Each state's details are the ones it has: a `waiting` state's `exitCode`, `startedAt`
    /// and `finishedAt` and a `running` state's `exitCode` and `finishedAt` are not read (nor
    /// type-checked); a `terminated` state's are.
    #[test]
    fn a_container_state_reads_only_the_details_its_state_has() {
        let l = parse_text(
            "t3.yaml",
            r#"apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
status:
  containerStatuses:
  - name: a
    state: {waiting: {reason: CrashLoopBackOff, exitCode: abc, startedAt: yesterday, finishedAt: [1]}}
    lastState: {running: {startedAt: "2026-11-20T02:01:10Z", exitCode: "137", finishedAt: soon}}
  - name: b
    state: {terminated: {exitCode: abc, startedAt: "2026-11-20T02:01:10Z", finishedAt: [1]}}
"#,
        );
        assert_eq!(
            diagnostics(&l),
            [
                "error: t3.yaml:10:36: `status.containerStatuses[].state.terminated.exitCode` should be an integer, found \"abc\" (not a number)",
                "error: t3.yaml:10:88: `status.containerStatuses[].state.terminated.finishedAt` should be a time, found a list",
            ]
        );
        let cs = &l.pods[0].container_statuses;
        let started: jiff::Timestamp = "2026-11-20T02:01:10Z".parse().unwrap();
        assert_eq!(cs[0].state.state, "waiting");
        assert_eq!(cs[0].state.reason, "CrashLoopBackOff");
        assert_eq!((cs[0].state.exit_code, cs[0].state.at), (None, None));
        assert_eq!(cs[0].last_state.state, "running");
        assert_eq!(cs[0].last_state.exit_code, None);
        assert_eq!(cs[0].last_state.at, Some(started));
        assert_eq!(cs[1].state.state, "terminated");
        assert_eq!(cs[1].state.exit_code, None);
        assert_eq!(cs[1].state.at, Some(started));
    }
}
