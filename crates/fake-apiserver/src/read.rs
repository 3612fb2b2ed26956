//! GET and LIST: selectors, `limit`/`continue` paging, `PartialObjectMetadata` answers and
//! the events.k8s.io/v1 view of core events.

use crate::resources::{EVENTS_V1, Target};
use crate::selector::{FieldSelector, LabelSelector};
use crate::state::{Answer, Ctx, def, object_bytes};
use crate::status::{self, ApiError};
use crate::store::Entry;
use bytes::Bytes;
use serde_json::{Value, json, value::RawValue};

/// Field labels of events.k8s.io/v1, translated to the core labels the store indexes.
const EVENTS_V1_FIELDS: &[(&str, &str)] = &[
    ("regarding.kind", "involvedObject.kind"),
    ("regarding.namespace", "involvedObject.namespace"),
    ("regarding.name", "involvedObject.name"),
    ("regarding.uid", "involvedObject.uid"),
    ("regarding.apiVersion", "involvedObject.apiVersion"),
    (
        "regarding.resourceVersion",
        "involvedObject.resourceVersion",
    ),
    ("regarding.fieldPath", "involvedObject.fieldPath"),
    ("reportingController", "reportingComponent"),
    ("deprecatedSource", "source"),
];

/// Continue tokens look like the real ones inside (`{"v":…,"rv":…,"start":"key\u0000"}`),
/// hex-encoded instead of base64: clients must treat them as opaque either way.
fn encode_continue(rv: u64, last_key: &str) -> String {
    let raw =
        json!({"v": "meta.k8s.io/v1", "rv": rv, "start": format!("{last_key}\u{0}")}).to_string();
    raw.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The start key and the resourceVersion of the first page a continue token was made at.
fn decode_continue(token: &str) -> Result<(String, Option<u64>), ApiError> {
    let bad = |why: &str| status::bad_request(&format!("continue key is not valid: {why}"));
    if !token.len().is_multiple_of(2) {
        return Err(bad("odd length"));
    }
    let bytes: Result<Vec<u8>, _> = (0..token.len())
        .step_by(2)
        .map(|i| {
            token
                .get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or(())
        })
        .collect();
    let v: Value = bytes
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .ok_or_else(|| bad("not a continue token"))?;
    let start = v["start"].as_str().ok_or_else(|| bad("no start key"))?;
    Ok((
        start.trim_end_matches('\u{0}').to_string(),
        v["rv"].as_u64(),
    ))
}

pub(crate) fn metadata_only(ctx: &Ctx<'_>) -> bool {
    ctx.accept.contains("as=PartialObjectMetadata")
}

#[derive(serde::Deserialize)]
struct MetaOnly<'a> {
    #[serde(borrow)]
    metadata: &'a RawValue,
}

/// `{"kind":"PartialObjectMetadata",…,"metadata":…}` borrowed straight out of the stored bytes.
pub(crate) fn partial_metadata(bytes: &[u8]) -> Bytes {
    let m: MetaOnly<'_> = serde_json::from_slice(bytes).expect("stored objects have metadata");
    let s = format!(
        "{{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{}}}",
        m.metadata.get()
    );
    Bytes::from(s)
}

/// events.k8s.io/v1 spelling of a core/v1 Event (the apiserver converts on read the same way).
fn to_events_v1(core: &Value, with_type_meta: bool) -> Value {
    let mut out = json!({"metadata": core["metadata"]});
    if with_type_meta {
        out["apiVersion"] = json!("events.k8s.io/v1");
        out["kind"] = json!("Event");
    }
    for (from, to) in [
        ("eventTime", "eventTime"),
        ("series", "series"),
        ("reportingComponent", "reportingController"),
        ("reportingInstance", "reportingInstance"),
        ("action", "action"),
        ("reason", "reason"),
        ("involvedObject", "regarding"),
        ("related", "related"),
        ("message", "note"),
        ("type", "type"),
        ("source", "deprecatedSource"),
        ("firstTimestamp", "deprecatedFirstTimestamp"),
        ("lastTimestamp", "deprecatedLastTimestamp"),
        ("count", "deprecatedCount"),
    ] {
        if let Some(v) = core.get(from).filter(|v| !v.is_null()) {
            out[to] = v.clone();
        }
    }
    out
}

fn item_bytes(ctx: &Ctx<'_>, res: usize, raw: &Bytes) -> Bytes {
    if metadata_only(ctx) {
        partial_metadata(raw)
    } else if res == EVENTS_V1 {
        let core: Value = serde_json::from_slice(raw).expect("stored objects are JSON");
        Bytes::from(serde_json::to_vec(&to_events_v1(&core, false)).expect("serialises"))
    } else {
        raw.clone()
    }
}

pub(crate) fn get(ctx: &Ctx<'_>, t: &Target) -> Answer {
    let d = def(t.res);
    let name = t.name.as_deref().unwrap_or_default();
    if t.subresource
        .as_deref()
        .is_some_and(|s| s != "status" || !d.status_subresource)
    {
        return Err(status::no_such_path());
    }
    let store = ctx.shared.read();
    let e = store
        .get(t.res, t.namespace.as_deref().unwrap_or_default(), name)
        .ok_or_else(|| status::not_found(d, name))?;
    Ok((200, whole_object(t.res, e, metadata_only(ctx))))
}

/// One object with its apiVersion/kind, as GET answers it and a watch event carries it.
pub(crate) fn whole_object(res: usize, e: &Entry, metadata_only: bool) -> Bytes {
    if metadata_only {
        partial_metadata(&e.bytes)
    } else if res == EVENTS_V1 {
        let core: Value = serde_json::from_slice(&e.bytes).expect("stored objects are JSON");
        Bytes::from(serde_json::to_vec(&to_events_v1(&core, true)).expect("serialises"))
    } else {
        object_bytes(def(res), e)
    }
}

/// The `labelSelector` and `fieldSelector` of a LIST or WATCH, refused with 400 like the
/// real server when malformed or naming a field the resource does not index.
pub(crate) fn selectors(
    ctx: &Ctx<'_>,
    t: &Target,
) -> Result<(LabelSelector, FieldSelector), ApiError> {
    let labels = LabelSelector::parse(ctx.param("labelSelector").unwrap_or_default())
        .map_err(|e| status::bad_request(&e.to_string()))?;
    let aliases = if t.res == EVENTS_V1 {
        EVENTS_V1_FIELDS
    } else {
        &[]
    };
    let fields = FieldSelector::parse(
        ctx.param("fieldSelector").unwrap_or_default(),
        def(t.res).fields,
        aliases,
    )
    .map_err(|e| status::bad_request(&e.to_string()))?;
    Ok((labels, fields))
}

/// `GET …/pods/{name}/log`: what [`FakeApiServer::set_pod_log`](crate::FakeApiServer::set_pod_log)
/// stored, with `container`, `previous`, `tailLines` and `limitBytes` as kubelet applies them.
pub(crate) fn logs(ctx: &Ctx<'_>, t: &Target) -> Answer {
    let (ns, name) = (
        t.namespace.clone().unwrap_or_default(),
        t.name.clone().unwrap_or_default(),
    );
    let pod = ctx
        .shared
        .read()
        .get(t.res, &ns, &name)
        .map(|e| e.value())
        .ok_or_else(|| status::not_found(def(t.res), &name))?;
    let containers: Vec<&str> = pod["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    let container = match (ctx.param("container"), containers.as_slice()) {
        (Some(c), _) if containers.contains(&c) => c.to_string(),
        (Some(c), _) => {
            return Err(status::bad_request(&format!(
                "container {c} is not valid for pod {name}"
            )));
        }
        (None, [only]) => only.to_string(),
        (None, all) => {
            let msg = format!(
                "a container name must be specified for pod {name}, choose one of: [{}]",
                all.join(" ")
            );
            return Err(status::bad_request(&msg));
        }
    };
    let previous = ctx.param("previous") == Some("true");
    let key = (ns, name.clone(), container.clone(), previous);
    let text = match crate::state::lock(&ctx.shared.logs).get(&key) {
        Some(t) => t.clone(),
        None if previous => {
            let msg = format!(
                "previous terminated container \"{container}\" in pod \"{name}\" not found"
            );
            return Err(status::bad_request(&msg));
        }
        None => String::new(),
    };
    let mut out = text;
    if let Some(n) = ctx.param("tailLines").and_then(|n| n.parse::<usize>().ok()) {
        let lines: Vec<&str> = out.split_inclusive('\n').collect();
        out = lines[lines.len().saturating_sub(n)..].concat();
    }
    let mut bytes = out.as_bytes().to_vec();
    if let Some(n) = ctx
        .param("limitBytes")
        .and_then(|n| n.parse::<usize>().ok())
    {
        bytes.truncate(n);
    }
    Ok((200, Bytes::from(bytes)))
}

pub(crate) fn list(ctx: &Ctx<'_>, t: &Target) -> Answer {
    let d = def(t.res);
    let (labels, fields) = selectors(ctx, t)?;
    // limit=0 (or garbage, which the real server rejects earlier) means "everything".
    let limit = ctx
        .param("limit")
        .and_then(|l| l.parse::<usize>().ok())
        .filter(|l| *l > 0)
        .map(|l| ctx.cfg.page_cap.map_or(l, |cap| l.min(cap)));
    let continued = ctx
        .param("continue")
        .filter(|c| !c.is_empty())
        .map(decode_continue)
        .transpose()?;
    let (after, first_page_rv) = match continued {
        Some((key, rv)) => (Some(key), rv),
        None => (None, None),
    };
    let unfiltered = labels.is_empty() && fields.is_empty();

    let store = ctx.shared.read();
    // Later pages report the first page's resourceVersion, as the real server's snapshot
    // does: a watch from it then replays every change made while the pages were read
    // (these pages read the current state, so some changes arrive twice; never none).
    let rv = first_page_rv.unwrap_or_else(|| store.rv());
    let mut items: Vec<Bytes> = Vec::new();
    let mut last_key = None;
    let (mut more, mut remaining) = (false, 0u64);
    for (k, e) in store.range(t.res, t.namespace.as_deref(), after.as_deref()) {
        if !(labels.matches(&e.labels) && fields.matches(&e.fields)) {
            continue;
        }
        if limit.is_some_and(|l| items.len() == l) {
            more = true;
            // The real server counts what is left only when no selector filters it.
            if !unfiltered {
                break;
            }
            remaining += 1;
            continue;
        }
        items.push(e.bytes.clone());
        last_key = Some(k);
    }
    let mut meta = json!({"resourceVersion": rv.to_string()});
    if more {
        meta["continue"] = json!(encode_continue(rv, last_key.expect("a page before more")));
        if unfiltered {
            meta["remainingItemCount"] = json!(remaining);
        }
    }
    drop(store);

    let items: Vec<Bytes> = if metadata_only(ctx) || t.res == EVENTS_V1 {
        items.iter().map(|b| item_bytes(ctx, t.res, b)).collect()
    } else {
        items
    };
    let (kind, api_version) = if metadata_only(ctx) {
        (
            "PartialObjectMetadataList".to_string(),
            "meta.k8s.io/v1".to_string(),
        )
    } else {
        (d.list_kind(), d.api_version())
    };
    let head = format!(
        "{{\"kind\":\"{kind}\",\"apiVersion\":\"{api_version}\",\"metadata\":{meta},\"items\":["
    );
    let mut body =
        Vec::with_capacity(head.len() + items.iter().map(|b| b.len() + 1).sum::<usize>() + 2);
    body.extend_from_slice(head.as_bytes());
    for (i, b) in items.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(b);
    }
    body.extend_from_slice(b"]}");
    Ok((200, Bytes::from(body)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_tokens_round_trip_and_reject_garbage() {
        let t = encode_continue(7, "ops/nightly");
        assert_eq!(
            decode_continue(&t).unwrap(),
            ("ops/nightly".to_string(), Some(7))
        );
        assert_eq!(decode_continue("zz").unwrap_err().code, 400);
        assert_eq!(decode_continue("abc").unwrap_err().code, 400);
    }

    #[test]
    fn events_v1_view() {
        let core = json!({"metadata": {"name": "e"}, "involvedObject": {"kind": "Job"}, "message": "m", "count": 2, "eventTime": null});
        let v1 = to_events_v1(&core, true);
        assert_eq!(v1["regarding"]["kind"], "Job");
        assert_eq!(v1["note"], "m");
        assert_eq!(v1["deprecatedCount"], 2);
        assert!(v1.get("eventTime").is_none());
    }
}
