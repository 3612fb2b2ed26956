//! Patch application (RFC 7386 merge patch, RFC 6902 JSON patch) and managedFields
//! bookkeeping. Strategic merge and apply patches are applied as merge patches: exact for the
//! scalar and map fields the plugin touches (`spec.suspend`, annotations, labels), but lists
//! are replaced wholesale instead of merged by key.

use crate::error::JsonPatchError;
use serde_json::{Map, Value, json};

/// RFC 7386: objects merge recursively, `null` deletes, anything else replaces.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let t = target.as_object_mut().expect("just made an object");
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

fn unescape_token(t: &str) -> String {
    t.replace("~1", "/").replace("~0", "~")
}

/// Splits a JSON pointer into its parent pointer and last token.
fn split_pointer(p: &str) -> Result<(&str, String), JsonPatchError> {
    let i = p
        .rfind('/')
        .ok_or_else(|| JsonPatchError::Pointer(p.to_string()))?;
    Ok((&p[..i], unescape_token(&p[i + 1..])))
}

fn take(doc: &mut Value, path: &str) -> Result<Value, JsonPatchError> {
    let (parent, last) = split_pointer(path)?;
    let missing = || JsonPatchError::NoKeyToRemove(path.to_string());
    match doc.pointer_mut(parent).ok_or_else(missing)? {
        Value::Object(m) => m.remove(&last).ok_or_else(missing),
        Value::Array(a) => match last.parse::<usize>() {
            Ok(i) if i < a.len() => Ok(a.remove(i)),
            _ => Err(missing()),
        },
        _ => Err(missing()),
    }
}

fn add(doc: &mut Value, path: &str, value: Value) -> Result<(), JsonPatchError> {
    if path.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (parent, last) = split_pointer(path)?;
    let missing = || JsonPatchError::MissingPath(path.to_string());
    match doc.pointer_mut(parent).ok_or_else(missing)? {
        Value::Object(m) => {
            m.insert(last, value);
        }
        Value::Array(a) if last == "-" => a.push(value),
        Value::Array(a) => match last.parse::<usize>() {
            Ok(i) if i <= a.len() => a.insert(i, value),
            _ => return Err(missing()),
        },
        _ => return Err(missing()),
    }
    Ok(())
}

/// RFC 6902 (add, remove, replace, move, copy, test), all-or-nothing.
pub fn json_patch(target: &mut Value, ops: &Value) -> Result<(), JsonPatchError> {
    let ops = ops.as_array().ok_or(JsonPatchError::NotAnArray)?;
    let mut doc = target.clone();
    for op in ops {
        let path = op["path"].as_str().ok_or(JsonPatchError::NoPath)?;
        let value = || {
            op.get("value")
                .cloned()
                .ok_or_else(|| JsonPatchError::NoValue(path.to_string()))
        };
        let from = || {
            op["from"]
                .as_str()
                .ok_or_else(|| JsonPatchError::NoFrom(path.to_string()))
        };
        match op["op"].as_str().unwrap_or_default() {
            "add" => add(&mut doc, path, value()?)?,
            "remove" => drop(take(&mut doc, path)?),
            "replace" => {
                take(&mut doc, path)
                    .map_err(|_| JsonPatchError::NoKeyToReplace(path.to_string()))?;
                add(&mut doc, path, value()?)?;
            }
            "move" => {
                let v = take(&mut doc, from()?)?;
                add(&mut doc, path, v)?;
            }
            "copy" => {
                let v = doc
                    .pointer(from()?)
                    .cloned()
                    .ok_or_else(|| JsonPatchError::NoCopySource(path.to_string()))?;
                add(&mut doc, path, v)?;
            }
            "test" => {
                if doc.pointer(path) != Some(&value()?) {
                    return Err(JsonPatchError::TestFailed(path.to_string()));
                }
            }
            other => return Err(JsonPatchError::UnknownOp(other.to_string())),
        }
    }
    *target = doc;
    Ok(())
}

/// Metadata fields the server owns; they never appear in a manager's field set.
const SERVER_OWNED: &[&str] = &[
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "creationTimestamp",
    "generation",
    "managedFields",
    "generateName",
    "selfLink",
];

/// The `fieldsV1` set a write touched: `{"f:spec":{"f:suspend":{}}}` for `{"spec":{"suspend":true}}`.
/// `status_only` keeps just `.status` (status subresource), otherwise `.status` is dropped.
pub fn fields_v1(v: &Value, status_only: bool) -> Value {
    let Some(top) = v.as_object() else {
        return json!({});
    };
    let mut out = Map::new();
    for (k, val) in top {
        let keep = match k.as_str() {
            "apiVersion" | "kind" => false,
            "status" => status_only,
            _ => !status_only,
        };
        if !keep {
            continue;
        }
        let set = if k == "metadata" {
            let mut meta = val.clone();
            if let Some(m) = meta.as_object_mut() {
                m.retain(|mk, _| !SERVER_OWNED.contains(&mk.as_str()));
            }
            field_set(&meta)
        } else {
            field_set(val)
        };
        if k != "metadata" || set.as_object().is_some_and(|m| !m.is_empty()) {
            out.insert(format!("f:{k}"), set);
        }
    }
    Value::Object(out)
}

fn field_set(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (format!("f:{k}"), field_set(v)))
                .collect(),
        ),
        _ => json!({}),
    }
}

fn union(into: &mut Value, from: &Value) {
    if let (Some(a), Some(b)) = (into.as_object_mut(), from.as_object()) {
        for (k, v) in b {
            union(a.entry(k.clone()).or_insert_with(|| json!({})), v);
        }
    }
}

/// Who wrote what, for `metadata.managedFields`.
pub struct ManagedWrite<'a> {
    pub manager: &'a str,
    /// `Update` or `Apply`.
    pub operation: &'a str,
    pub api_version: &'a str,
    pub time: &'a str,
    pub subresource: Option<&'a str>,
    pub fields: Value,
}

/// Adds the write to `metadata.managedFields`, merging into the entry of the same
/// manager/operation/subresource as the real field manager does.
pub fn record_managed_fields(obj: &mut Value, w: ManagedWrite<'_>) {
    let meta = &mut obj["metadata"];
    if !meta["managedFields"].is_array() {
        meta["managedFields"] = json!([]);
    }
    let list = meta["managedFields"]
        .as_array_mut()
        .expect("just made an array");
    let same = |e: &Value| {
        e["manager"] == w.manager
            && e["operation"] == w.operation
            && e["subresource"].as_str() == w.subresource
    };
    if let Some(e) = list.iter_mut().find(|e| same(e)) {
        union(&mut e["fieldsV1"], &w.fields);
        e["time"] = json!(w.time);
        e["apiVersion"] = json!(w.api_version);
        return;
    }
    let mut e = json!({
        "manager": w.manager,
        "operation": w.operation,
        "apiVersion": w.api_version,
        "time": w.time,
        "fieldsType": "FieldsV1",
        "fieldsV1": w.fields,
    });
    if let Some(s) = w.subresource {
        e["subresource"] = json!(s);
    }
    list.push(e);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_patch_rfc7386() {
        let mut t = json!({"a": "b", "c": {"d": "e", "f": "g"}, "l": [1, 2]});
        merge_patch(&mut t, &json!({"a": "z", "c": {"f": null}, "l": [3]}));
        assert_eq!(t, json!({"a": "z", "c": {"d": "e"}, "l": [3]}));
    }

    #[test]
    fn json_patch_ops() {
        let mut t = json!({"spec": {"suspend": false, "l": [1]}});
        let ops = json!([
            {"op": "replace", "path": "/spec/suspend", "value": true},
            {"op": "add", "path": "/spec/l/-", "value": 2},
            {"op": "test", "path": "/spec/l/1", "value": 2},
            {"op": "add", "path": "/metadata", "value": {"labels": {"a/b": "c"}}},
            {"op": "remove", "path": "/metadata/labels/a~1b"}
        ]);
        json_patch(&mut t, &ops).unwrap();
        assert_eq!(
            t,
            json!({"spec": {"suspend": true, "l": [1, 2]}, "metadata": {"labels": {}}})
        );
        assert!(
            json_patch(
                &mut t,
                &json!([{"op": "test", "path": "/spec/suspend", "value": false}])
            )
            .is_err()
        );
        assert!(
            json_patch(
                &mut t,
                &json!([{"op": "replace", "path": "/nope", "value": 1}])
            )
            .is_err()
        );
        assert_eq!(t["spec"]["suspend"], true, "failed patches change nothing");
    }

    #[test]
    fn field_sets_and_managed_fields() {
        let patch = json!({"metadata": {"resourceVersion": "5", "labels": {"a": "b"}}, "spec": {"suspend": true}, "status": {"x": 1}});
        let f = fields_v1(&patch, false);
        assert_eq!(
            f,
            json!({"f:metadata": {"f:labels": {"f:a": {}}}, "f:spec": {"f:suspend": {}}})
        );
        assert_eq!(fields_v1(&patch, true), json!({"f:status": {"f:x": {}}}));
        let mut obj = json!({"metadata": {}});
        let w = |fields, time| ManagedWrite {
            manager: "doctor",
            operation: "Update",
            api_version: "batch/v1",
            time,
            subresource: None,
            fields,
        };
        record_managed_fields(&mut obj, w(json!({"f:spec": {"f:suspend": {}}}), "t1"));
        record_managed_fields(&mut obj, w(json!({"f:spec": {"f:x": {}}}), "t2"));
        let mf = obj["metadata"]["managedFields"].as_array().unwrap();
        assert_eq!(mf.len(), 1);
        assert_eq!(mf[0]["time"], "t2");
        assert_eq!(
            mf[0]["fieldsV1"],
            json!({"f:spec": {"f:suspend": {}, "f:x": {}}})
        );
    }
}
