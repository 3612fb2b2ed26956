//! `Status` error bodies, spelled exactly as kube-apiserver spells them, because the client
//! under test matches on `reason`/`code` and prints `message` to users.

use crate::resources::ResourceDef;
use serde_json::{Value, json};

/// A failed request: HTTP status plus the `Status` object to send.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub code: u16,
    pub body: Value,
    /// Sent as `Retry-After` (429 answers).
    pub retry_after: Option<u64>,
}

pub fn status(code: u16, reason: &str, message: &str, details: Value) -> ApiError {
    let mut body = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "details": details,
        "code": code,
    });
    // The real server omits an empty reason (plain 500s) rather than sending "".
    if reason.is_empty() {
        body.as_object_mut().expect("object").remove("reason");
    }
    ApiError {
        code,
        body,
        retry_after: None,
    }
}

fn details(def: &ResourceDef, name: Option<&str>) -> Value {
    let mut d = json!({"group": def.group, "kind": def.plural});
    if let Some(n) = name.filter(|n| !n.is_empty()) {
        d["name"] = json!(n);
    }
    d
}

/// `cronjobs.batch "x"` or just `cronjobs.batch` for a collection.
fn subject(def: &ResourceDef, name: Option<&str>) -> String {
    match name.filter(|n| !n.is_empty()) {
        Some(n) => format!("{} \"{n}\"", def.group_resource()),
        None => def.group_resource(),
    }
}

pub fn not_found(def: &ResourceDef, name: &str) -> ApiError {
    status(
        404,
        "NotFound",
        &format!("{} not found", subject(def, Some(name))),
        details(def, Some(name)),
    )
}

pub fn no_such_path() -> ApiError {
    status(
        404,
        "NotFound",
        "the server could not find the requested resource",
        json!({}),
    )
}

pub fn already_exists(def: &ResourceDef, name: &str) -> ApiError {
    let msg = format!("{} already exists", subject(def, Some(name)));
    status(409, "AlreadyExists", &msg, details(def, Some(name)))
}

pub fn conflict(def: &ResourceDef, name: &str) -> ApiError {
    let msg = format!(
        "Operation cannot be fulfilled on {}: the object has been modified; please apply your changes to the latest version and try again",
        subject(def, Some(name))
    );
    status(409, "Conflict", &msg, details(def, Some(name)))
}

/// `events is forbidden: User "x" cannot list resource "events" in API group "" in the namespace "ops"`
pub fn forbidden(
    def: &ResourceDef,
    name: Option<&str>,
    subresource: Option<&str>,
    user: &str,
    verb: &str,
    namespace: Option<&str>,
) -> ApiError {
    let resource = match subresource {
        Some(s) => format!("{}/{s}", def.plural),
        None => def.plural.to_string(),
    };
    let scope = match namespace {
        Some(ns) => format!("in the namespace \"{ns}\""),
        None => "at the cluster scope".to_string(),
    };
    let msg = format!(
        "{} is forbidden: User \"{user}\" cannot {verb} resource \"{resource}\" in API group \"{}\" {scope}",
        subject(def, name),
        def.group
    );
    status(403, "Forbidden", &msg, details(def, name))
}

pub fn bad_request(message: &str) -> ApiError {
    status(400, "BadRequest", message, json!({}))
}

/// 422 with one cause, e.g. `CronJob.batch "X" is invalid: metadata.name: Invalid value: …`.
pub fn invalid(def: &ResourceDef, name: &str, field: &str, detail: &str) -> ApiError {
    let msg = format!(
        "{} \"{name}\" is invalid: {field}: {detail}",
        def.group_kind()
    );
    let cause = json!({"reason": "FieldValueInvalid", "message": detail, "field": field});
    let d = json!({"name": name, "group": def.group, "kind": def.kind, "causes": [cause]});
    status(422, "Invalid", &msg, d)
}

pub fn too_many_requests(retry_after: u64) -> ApiError {
    let d = json!({"causes": [{"message": "client rate limited (fake-apiserver fault)"}], "retryAfterSeconds": retry_after});
    let mut e = status(
        429,
        "TooManyRequests",
        "Too many requests, please try again later.",
        d,
    );
    e.retry_after = Some(retry_after);
    e
}

pub fn internal_error(message: &str) -> ApiError {
    let d = json!({"causes": [{"message": message}]});
    status(
        500,
        "InternalError",
        &format!("Internal error occurred: {message}"),
        d,
    )
}

pub fn method_not_allowed(message: &str) -> ApiError {
    status(405, "MethodNotAllowed", message, json!({}))
}

pub fn unsupported_media_type(content_type: &str) -> ApiError {
    let msg = format!(
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got {content_type:?})"
    );
    status(415, "UnsupportedMediaType", &msg, json!({}))
}

/// 404 for writes into a namespace that does not exist, as admission answers it.
pub fn namespace_not_found(ns: &str) -> ApiError {
    let d = json!({"name": ns, "kind": "namespaces"});
    status(
        404,
        "NotFound",
        &format!("namespaces \"{ns}\" not found"),
        d,
    )
}
