//! Reading string maps and managed fields selectively while parsing: the keys a kind does not
//! need are skipped by the parser and never allocated. Annotations in particular can hold
//! kubectl's copy of the whole applied manifest, several kilobytes per object.

use std::borrow::Cow;
use std::collections::BTreeMap;

use jiff::Timestamp;
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

use super::wire::lenient;

/// `metadata.managedFields[]`: who wrote it, and whether it sets `f:spec.f:suspend` (who
/// suspended the object: `convert::suspend_manager`). Both readers read an entry through this
/// struct; the manifest reader reads each entry of the list on its own (see
/// `manifest::Reader::read_suspend_managers`), the cluster path through [`Managed`].
#[derive(Deserialize)]
pub struct ManagedField {
    #[serde(default)]
    pub manager: String,
    #[serde(default)]
    pub operation: String,
    #[serde(default, deserialize_with = "lenient")]
    pub time: Option<Timestamp>,
    #[serde(rename = "fieldsV1", default, deserialize_with = "lenient")]
    pub fields: Option<FieldsV1>,
}

#[derive(Deserialize)]
pub struct FieldsV1 {
    #[serde(rename = "f:spec", default, deserialize_with = "lenient")]
    pub spec: Option<FieldsSpec>,
}

#[derive(Deserialize)]
pub struct FieldsSpec {
    /// The key is there, whatever its value: a field set's leaves are `{}`, and a manifest's
    /// `f:suspend: null` has always counted as setting it.
    #[serde(rename = "f:suspend", default, deserialize_with = "present")]
    pub suspend: bool,
}

/// A key that is present (any value, null included), its value skipped.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    IgnoredAny::deserialize(d).map(|_| true)
}

/// `managedFields`, parsed only for `Managed<All>`; skipped without allocating otherwise.
pub struct Managed<F> {
    pub entries: Vec<ManagedField>,
    _f: std::marker::PhantomData<F>,
}

impl<F> Default for Managed<F> {
    fn default() -> Self {
        Managed {
            entries: Vec::new(),
            _f: std::marker::PhantomData,
        }
    }
}

impl<'de, F: KeyFilter> Deserialize<'de> for Managed<F> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut out = Managed::default();
        if F::keep("managedFields") {
            out.entries = Option::<Vec<ManagedField>>::deserialize(d)?.unwrap_or_default();
        } else {
            IgnoredAny::deserialize(d)?;
        }
        Ok(out)
    }
}

/// Which keys of a string map to keep.
pub trait KeyFilter: Default {
    fn keep(key: &str) -> bool;
}

/// Every key.
#[derive(Default)]
pub struct All;
impl KeyFilter for All {
    fn keep(_: &str) -> bool {
        true
    }
}

/// Nothing (Events: their labels and annotations are never read).
#[derive(Default)]
pub struct NoKeys;
impl KeyFilter for NoKeys {
    fn keep(_: &str) -> bool {
        false
    }
}

/// CronJob annotations: all but kubectl's copy of the whole applied manifest, which can be
/// several kilobytes per object and is never read.
#[derive(Default)]
pub struct CronJobAnnotations;
impl KeyFilter for CronJobAnnotations {
    fn keep(key: &str) -> bool {
        key != "kubectl.kubernetes.io/last-applied-configuration"
    }
}

/// The two Job annotations the replay and the rules read.
#[derive(Default)]
pub struct JobAnnotations;
impl KeyFilter for JobAnnotations {
    fn keep(key: &str) -> bool {
        key == crate::model::SCHEDULED_ANNOTATION || key == "cronjob.kubernetes.io/instantiate"
    }
}

/// The labels that tie a Pod to its Job.
#[derive(Default)]
pub struct PodLabels;
impl KeyFilter for PodLabels {
    fn keep(key: &str) -> bool {
        matches!(key, "batch.kubernetes.io/job-name" | "job-name")
    }
}

/// A string map whose unwanted keys were skipped while parsing (never allocated).
pub struct Filtered<F> {
    pub map: BTreeMap<String, String>,
    _f: std::marker::PhantomData<F>,
}

impl<F> Default for Filtered<F> {
    fn default() -> Self {
        Filtered {
            map: BTreeMap::new(),
            _f: std::marker::PhantomData,
        }
    }
}

impl<'de, F: KeyFilter> Deserialize<'de> for Filtered<F> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_option(FilteredVisitor::<F>(std::marker::PhantomData))
    }
}

struct FilteredVisitor<F>(std::marker::PhantomData<F>);

impl<'de, F: KeyFilter> Visitor<'de> for FilteredVisitor<F> {
    type Value = Filtered<F>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a map of strings")
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Filtered::default())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Filtered::default())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
    fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
        let mut out = Filtered::<F>::default();
        while let Some(BorrowedKey(k)) = m.next_key::<BorrowedKey<'de>>()? {
            if F::keep(&k) {
                // A value of the wrong type in a manifest was reported by `tree_de` and reads
                // as "" (the rest of the map stays); from JSON, any error is the page's.
                let v: Option<String> = match m.next_value() {
                    Ok(v) => v,
                    Err(e) if super::tree_de::is_soft(&e) => None,
                    Err(e) => return Err(e),
                };
                out.map.insert(k.into_owned(), v.unwrap_or_default());
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(out)
    }
}

/// A map key read without copying when the input allows it (no escapes in it): the filter only
/// looks at it. serde's own `Cow<str>` always copies, which cost one allocation per label and
/// annotation of every object, kept or not.
pub(super) struct BorrowedKey<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for BorrowedKey<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = BorrowedKey<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(BorrowedKey(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(BorrowedKey(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(BorrowedKey(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys are matched as the API server meant them: an escaped key (read through a copy) is
    /// kept like a plain one (borrowed), and unwanted keys are dropped either way.
    #[test]
    fn kept_keys_match_plain_and_escaped() {
        let json = r#"{"job\u002dname":"a","batch.kubernetes.io/job-name":"b","other":"c","oth\u0065r2":"d"}"#;
        let got: Filtered<PodLabels> = serde_json::from_str(json).unwrap();
        let keys: Vec<(&str, &str)> = got
            .map
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            keys,
            [("batch.kubernetes.io/job-name", "b"), ("job-name", "a")]
        );
        let none: Filtered<PodLabels> = serde_json::from_str("null").unwrap();
        assert!(none.map.is_empty());
    }

    /// From the API server's JSON, who set `spec.suspend` is the entries whose field set holds
    /// `f:spec.f:suspend` (any value), kept by the filter the manifest reader uses too; `lenient`
    /// changes nothing there: a wrong-typed `time` is still an error.
    #[test]
    fn managed_fields_from_json() {
        let json = r#"[
          {"manager":"a","operation":"Update","time":"2026-11-17T09:00:00Z","fieldsV1":{"f:spec":{"f:suspend":{}}}},
          {"manager":"b","operation":"Apply","fieldsV1":{"f:spec":{"f:suspend":null}},"time":null},
          {"manager":"c","operation":"Update","fieldsV1":{"f:spec":{"f:schedule":{}}}},
          {"manager":"d","fieldsV1":{"f:status":{"f:suspend":{}}}},
          {"manager":"e","fieldsV1":null},
          {"manager":"f"}
        ]"#;
        let entries: Managed<All> = serde_json::from_str(json).unwrap();
        let kept: Vec<_> = entries
            .entries
            .into_iter()
            .filter_map(crate::source::convert::suspend_manager)
            .map(|e| (e.manager, e.operation, e.time.map(|t| t.to_string())))
            .collect();
        assert_eq!(
            kept,
            [
                (
                    "a".into(),
                    "Update".into(),
                    Some("2026-11-17T09:00:00Z".into())
                ),
                ("b".into(), "Apply".into(), None),
            ]
        );
        let skipped: Managed<NoKeys> = serde_json::from_str(json).unwrap();
        assert!(skipped.entries.is_empty());
        for bad in [
            r#"{"time":5}"#,
            r#"{"time":"yesterday"}"#,
            r#"{"fieldsV1":5}"#,
        ] {
            let err = serde_json::from_str::<ManagedField>(bad).err();
            assert!(
                err.as_ref()
                    .is_some_and(|e| !crate::source::tree_de::is_soft(e)),
                "{bad}: {err:?}"
            );
        }
    }
}
