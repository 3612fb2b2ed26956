//! The request log: what the client sent, so tests can assert the exact requests a command
//! made (paths, selectors, paging, patch bodies, field managers, the token it used).

use serde_json::Value;
use std::collections::BTreeMap;

/// Headers worth asserting on; everything else (host, content-length, …) is noise.
pub(crate) const HEADERS_OF_INTEREST: &[&str] = &[
    "accept",
    "authorization",
    "content-type",
    "user-agent",
    "impersonate-user",
    "impersonate-group",
];

/// One request as the fake server received it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    /// Server-assigned id, to complete the entry once answered.
    pub(crate) id: u64,
    pub method: String,
    /// Path without the query string, e.g. `/apis/batch/v1/namespaces/ops/cronjobs`.
    pub path: String,
    /// Decoded query parameters (kube-rs starts its query with `&`; empty pairs are dropped).
    pub query: BTreeMap<String, String>,
    pub content_type: Option<String>,
    /// The body parsed as JSON (or YAML for apply patches); `None` when empty,
    /// a JSON string when it parses as neither.
    pub body: Option<Value>,
    /// The [`HEADERS_OF_INTEREST`] that were present, lower-cased names.
    pub headers: BTreeMap<String, String>,
    /// HTTP status answered; `0` when the connection was dropped without an answer.
    pub status: u16,
    /// Whether an injected fault decided (or delayed) the answer.
    pub faulted: bool,
}

impl RecordedRequest {
    /// `GET /api/v1/namespaces/ops/events?fieldSelector=involvedObject.name=x&limit=500`:
    /// a stable one-line form (query keys sorted, values decoded) for snapshot assertions.
    pub fn line(&self) -> String {
        let q: Vec<String> = self.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if q.is_empty() {
            format!("{} {}", self.method, self.path)
        } else {
            format!("{} {}?{}", self.method, self.path, q.join("&"))
        }
    }

    /// The bearer token the request carried, if any.
    pub fn bearer_token(&self) -> Option<&str> {
        self.headers
            .get("authorization")
            .and_then(|h| h.strip_prefix("Bearer "))
    }
}

pub(crate) fn parse_query(raw: &str) -> BTreeMap<String, String> {
    form_urlencoded::parse(raw.as_bytes())
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// JSON first; YAML for apply patches; otherwise the text itself, so nothing is lost.
pub(crate) fn parse_body(bytes: &[u8]) -> Option<Value> {
    if bytes.is_empty() {
        return None;
    }
    if let Ok(v) = serde_json::from_slice(bytes) {
        return Some(v);
    }
    let text = String::from_utf8_lossy(bytes);
    Some(
        serde_saphyr::from_str::<Value>(&text).unwrap_or_else(|_| Value::String(text.into_owned())),
    )
}
