//! Writes: POST (create, `generateName`), PUT, PATCH (merge, strategic-as-merge, JSON patch,
//! apply-as-merge) and DELETE, with `dryRun=All`, `fieldManager`/managedFields,
//! resourceVersion preconditions and the status-subresource split of the real registries.

use crate::clock::rfc3339;
use crate::patch::{ManagedWrite, fields_v1, json_patch, merge_patch, record_managed_fields};
use crate::resources::{NAMESPACES, ResourceDef, Target};
use crate::state::{Answer, Ctx, def, json_answer, object_value};
use crate::status::{self, ApiError};
use crate::store::{Store, splitmix, uid_for};
use serde_json::{Value, json};

const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn is_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|l| {
            !l.is_empty()
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
}

/// The name checks the real validation does for the kinds served here.
fn validate(d: &ResourceDef, v: &Value) -> Result<(), ApiError> {
    let name = v["metadata"]["name"].as_str().unwrap_or_default();
    let bad = |detail: String| Err(status::invalid(d, name, "metadata.name", &detail));
    if !is_subdomain(name) {
        return bad(format!("Invalid value: \"{name}\": {SUBDOMAIN_MSG}"));
    }
    // The controller appends "-<minutes>" (11 characters) to make Job names.
    if d.kind == "CronJob" && name.len() > 52 {
        return bad(format!(
            "Invalid value: \"{name}\": must be no more than 52 characters"
        ));
    }
    Ok(())
}

/// `apiVersion`/`kind` in a body must name the endpoint's resource (or be absent).
fn check_type(d: &ResourceDef, v: &Value) -> Result<(), ApiError> {
    match (v["apiVersion"].as_str(), v["kind"].as_str()) {
        (Some(av), _) if av != d.api_version() => Err(status::bad_request(&format!(
            "the API version in the data ({av}) does not match the expected API version ({})",
            d.api_version()
        ))),
        (_, Some(k)) if k != d.kind => Err(status::bad_request(&format!(
            "the kind in the data ({k}) does not match the expected kind ({})",
            d.kind
        ))),
        _ => Ok(()),
    }
}

fn generated_name(store: &mut Store, prefix: &str) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut state = store.next_seq() ^ 0x5eed;
    let suffix: String = (0..5)
        .map(|_| ALPHABET[(splitmix(&mut state) % 27) as usize] as char)
        .collect();
    format!("{prefix}{suffix}")
}

fn needs_namespace(ctx: &Ctx<'_>, t: &Target) -> Result<String, ApiError> {
    match (&t.namespace, def(t.res).namespaced) {
        (Some(ns), true) => {
            if !ctx.shared.read().has_namespace(ns) {
                return Err(status::namespace_not_found(ns));
            }
            Ok(ns.clone())
        }
        (None, false) => Ok(String::new()),
        _ => Err(status::method_not_allowed(
            "a namespaced object must be written under /namespaces/{ns}/",
        )),
    }
}

pub(crate) fn create(ctx: &Ctx<'_>, t: &Target, operation: &str) -> Answer {
    let d = def(t.res);
    let ns = needs_namespace(ctx, t)?;
    let dry = ctx.dry_run()?;
    let manager = ctx.manager()?;
    let mut v = ctx.body_value()?;
    check_type(d, &v)?;
    if !v["metadata"].is_object() {
        v["metadata"] = json!({});
    }
    let body_ns = v["metadata"]["namespace"].as_str().unwrap_or_default();
    if d.namespaced && !body_ns.is_empty() && body_ns != ns {
        return Err(status::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    let mut store = ctx.shared.write();
    let meta = v["metadata"].as_object_mut().expect("made an object");
    let name = match (
        meta.get("name").and_then(Value::as_str),
        meta.get("generateName").and_then(Value::as_str),
    ) {
        (Some(n), _) if !n.is_empty() => n.to_string(),
        // An apply patch may leave the name to the URL.
        _ if t.name.is_some() => t.name.clone().unwrap_or_default(),
        (_, Some(p)) if !p.is_empty() => generated_name(&mut store, p),
        _ => {
            return Err(status::invalid(
                d,
                "",
                "metadata.name",
                "Required value: name or generateName is required",
            ));
        }
    };
    if t.name.as_deref().is_some_and(|n| n != name) {
        return Err(status::bad_request(
            "the name of the object does not match the name on the URL",
        ));
    }
    let seq = store.next_seq();
    meta.insert("name".into(), json!(name));
    if d.namespaced {
        meta.insert("namespace".into(), json!(ns));
    }
    for k in [
        "resourceVersion",
        "managedFields",
        "generation",
        "deletionTimestamp",
    ] {
        meta.remove(k);
    }
    meta.insert(
        "uid".into(),
        json!(uid_for(&format!("created/{seq}/{}/{ns}/{name}", d.plural))),
    );
    meta.insert("creationTimestamp".into(), json!(rfc3339(ctx.now)));
    if d.group == "batch" {
        meta.insert("generation".into(), json!(1));
    }
    v["apiVersion"] = json!(d.api_version());
    v["kind"] = json!(d.kind);
    // The registries reset status on create; only controllers (absent here) fill it in.
    if d.status_subresource && t.res != NAMESPACES {
        v["status"] = if d.kind == "Pod" {
            json!({"phase": "Pending"})
        } else {
            json!({})
        };
    }
    validate(d, &v)?;
    if store.get(t.res, &ns, &name).is_some() {
        return Err(status::already_exists(d, &name));
    }
    let w = ManagedWrite {
        manager: &manager,
        operation,
        api_version: &d.api_version(),
        time: &rfc3339(ctx.now),
        subresource: None,
        fields: fields_v1(&v, false),
    };
    record_managed_fields(&mut v, w);
    if !dry {
        let rv = store.next_rv();
        v["metadata"]["resourceVersion"] = json!(rv.to_string());
        store.put(t.res, v.clone());
    }
    json_answer(201, &v)
}

/// The shared tail of PUT and PATCH: `mutate` turns the stored object into the requested one;
/// `touched` is what the client sent, for the managedFields entry.
fn update(
    ctx: &Ctx<'_>,
    t: &Target,
    operation: &str,
    touched: &Value,
    mutate: impl FnOnce(&mut Value) -> Result<(), ApiError>,
) -> Answer {
    let d = def(t.res);
    let (ns, name) = (
        t.namespace.clone().unwrap_or_default(),
        t.name.clone().unwrap_or_default(),
    );
    let status_only = match t.subresource.as_deref() {
        None => false,
        Some("status") if d.status_subresource => true,
        Some(_) => return Err(status::no_such_path()),
    };
    let dry = ctx.dry_run()?;
    let manager = ctx.manager()?;
    let mut store = ctx.shared.write();
    let old = store
        .get(t.res, &ns, &name)
        .map(|e| object_value(d, e))
        .ok_or_else(|| status::not_found(d, &name))?;
    let mut new = old.clone();
    mutate(&mut new)?;
    check_type(d, &new)?;
    let sent_rv = new["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or_default();
    if !sent_rv.is_empty()
        && sent_rv
            != old["metadata"]["resourceVersion"]
                .as_str()
                .unwrap_or_default()
    {
        return Err(status::conflict(d, &name));
    }
    if new["metadata"]["name"] != old["metadata"]["name"] && !new["metadata"]["name"].is_null() {
        return Err(status::bad_request(&format!(
            "the name of the object ({}) does not match the name on the URL ({name})",
            new["metadata"]["name"].as_str().unwrap_or_default()
        )));
    }
    // Server-owned metadata survives whatever the client sent.
    if !new["metadata"].is_object() {
        new["metadata"] = json!({});
    }
    for k in [
        "name",
        "namespace",
        "uid",
        "creationTimestamp",
        "generation",
        "managedFields",
        "resourceVersion",
    ] {
        set_or_remove(&mut new["metadata"], k, old["metadata"].get(k));
    }
    new["apiVersion"] = json!(d.api_version());
    new["kind"] = json!(d.kind);
    if status_only {
        // The status strategy keeps everything but .status.
        let st = new.get("status").cloned();
        new = old.clone();
        set_or_remove(&mut new, "status", st.as_ref());
    } else if d.status_subresource {
        set_or_remove(&mut new, "status", old.get("status"));
    }
    validate(d, &new)?;
    // A write that changes nothing is not a write: no new resourceVersion, no managedFields.
    if new == old {
        return json_answer(200, &old);
    }
    let spec_changed = {
        let strip = |v: &Value| {
            let mut v = v.clone();
            v.as_object_mut()
                .map(|m| (m.remove("metadata"), m.remove("status")));
            v
        };
        strip(&new) != strip(&old)
    };
    if spec_changed && new["metadata"]["generation"].is_u64() {
        new["metadata"]["generation"] =
            json!(new["metadata"]["generation"].as_u64().unwrap_or(0) + 1);
    }
    let w = ManagedWrite {
        manager: &manager,
        operation,
        api_version: &d.api_version(),
        time: &rfc3339(ctx.now),
        subresource: status_only.then_some("status"),
        fields: fields_v1(touched, status_only),
    };
    record_managed_fields(&mut new, w);
    if !dry {
        let rv = store.next_rv();
        new["metadata"]["resourceVersion"] = json!(rv.to_string());
        store.put(t.res, new.clone());
    }
    json_answer(200, &new)
}

fn set_or_remove(obj: &mut Value, k: &str, v: Option<&Value>) {
    if let Some(m) = obj.as_object_mut() {
        match v {
            Some(v) => m.insert(k.to_string(), v.clone()),
            None => m.remove(k),
        };
    }
}

pub(crate) fn replace(ctx: &Ctx<'_>, t: &Target) -> Answer {
    let body = ctx.body_value()?;
    if !body.is_object() {
        return Err(status::bad_request("the body of a PUT must be an object"));
    }
    update(ctx, t, "Update", &body.clone(), move |obj| {
        *obj = body;
        Ok(())
    })
}

pub(crate) fn patch(ctx: &Ctx<'_>, t: &Target) -> Answer {
    let ct = ctx
        .content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim();
    let body = ctx.body_value()?;
    match ct {
        "application/merge-patch+json" | "application/strategic-merge-patch+json" => {
            update(ctx, t, "Update", &body, |obj| {
                merge_patch(obj, &body);
                Ok(())
            })
        }
        "application/json-patch+json" => {
            // The managedFields entry covers the paths the operations name.
            let mut touched = json!({});
            for op in body.as_array().into_iter().flatten() {
                let path = op["path"].as_str().unwrap_or_default();
                let mut cur = &mut touched;
                for seg in path
                    .split('/')
                    .skip(1)
                    .filter(|s| s.parse::<usize>().is_err() && *s != "-")
                {
                    cur = &mut cur[seg.replace("~1", "/").replace("~0", "~")];
                }
                if cur.is_null() {
                    *cur = json!({});
                }
            }
            update(ctx, t, "Update", &touched, |obj| {
                json_patch(obj, &body)
                    .map_err(|e| status::status(422, "Invalid", &e.to_string(), json!({})))
            })
        }
        "application/apply-patch+yaml" => {
            if ctx.param("fieldManager").is_none_or(str::is_empty) {
                let msg = "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch";
                return Err(status::status(422, "Invalid", msg, json!({})));
            }
            let exists = {
                let store = ctx.shared.read();
                let ns = t.namespace.as_deref().unwrap_or_default();
                store
                    .get(t.res, ns, t.name.as_deref().unwrap_or_default())
                    .is_some()
            };
            if !exists && t.subresource.is_none() {
                return create(ctx, t, "Apply");
            }
            update(ctx, t, "Apply", &body, |obj| {
                merge_patch(obj, &body);
                Ok(())
            })
        }
        other => Err(status::unsupported_media_type(other)),
    }
}

pub(crate) fn delete(ctx: &Ctx<'_>, t: &Target) -> Answer {
    let d = def(t.res);
    let (ns, name) = (
        t.namespace.clone().unwrap_or_default(),
        t.name.clone().unwrap_or_default(),
    );
    let dry = ctx.dry_run()?;
    let mut store = ctx.shared.write();
    let e = store
        .get(t.res, &ns, &name)
        .ok_or_else(|| status::not_found(d, &name))?;
    let v = object_value(d, e);
    let pre = ctx.body_value().ok().and_then(|b| {
        b["preconditions"]["resourceVersion"]
            .as_str()
            .map(str::to_string)
    });
    if pre.is_some_and(|rv| v["metadata"]["resourceVersion"] != rv) {
        return Err(status::conflict(d, &name));
    }
    if dry {
        return json_answer(200, &v);
    }
    let deleted = store.delete(t.res, &ns, &name).unwrap_or(v);
    json_answer(200, &deleted)
}
