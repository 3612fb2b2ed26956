//! Paged LISTs: `limit` + `continue`, one page in memory at a time (its bytes are dropped as
//! soon as the page is parsed, its items converted to the model and filtered as they arrive).

use std::sync::atomic::{AtomicUsize, Ordering};

use serde::de::DeserializeOwned;

use super::http::{Api, ApiError};
use super::wire;

/// Items per page. 500 is what kubectl and client-go informers use: large enough that
/// per-request latency is amortised, small enough that one page stays a few megabytes.
pub const PAGE: usize = 500;

/// Percent-encode a query value (selectors contain `=`, `,`, spaces and parentheses; continue
/// tokens contain `=` and `/`).
pub fn encode(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for b in v.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `path?k=v&…` with encoded values.
pub fn url(path: &str, params: &[(&str, String)]) -> String {
    let mut u = path.to_string();
    for (i, (k, v)) in params.iter().enumerate() {
        u.push(if i == 0 { '?' } else { '&' });
        u.push_str(k);
        u.push('=');
        u.push_str(&encode(v));
    }
    u
}

/// One LIST, a page at a time.
pub struct Pager<'a> {
    api: &'a Api,
    path: &'a str,
    params: &'a [(&'a str, String)],
    cont: Option<String>,
    done: bool,
}

impl<'a> Pager<'a> {
    pub fn new(api: &'a Api, path: &'a str, params: &'a [(&'a str, String)]) -> Self {
        Pager {
            api,
            path,
            params,
            cont: None,
            done: false,
        }
    }

    /// Whether a page was read already (a restart would repeat items).
    pub fn started(&self) -> bool {
        self.cont.is_some()
    }

    fn restart(&mut self) {
        self.cont = None;
        self.done = false;
    }

    /// The next page's items, or None after the last page. The body's bytes are dropped as
    /// soon as they are parsed.
    pub async fn next<W: DeserializeOwned>(&mut self) -> Result<Option<Vec<W>>, ApiError> {
        if self.done {
            return Ok(None);
        }
        let mut q = self.params.to_vec();
        q.push(("limit", PAGE.to_string()));
        if let Some(c) = &self.cont {
            q.push(("continue", c.clone()));
        }
        let body = self.api.get(&url(self.path, &q)).await?;
        let page: wire::List<W> = serde_json::from_slice(&body).map_err(|e| {
            ApiError::Transport(format!("unexpected answer to GET {}: {e}", self.path))
        })?;
        drop(body);
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => self.cont = Some(c),
            _ => self.done = true,
        }
        Ok(Some(page.items))
    }
}

/// LIST `path` with `params`, page by page; `keep` converts (and may drop) each item. `seen`
/// counts raw items for the progress display. A `410 Gone` on a continue token (the snapshot
/// it points into was compacted) restarts the list once, as kubectl does.
pub async fn list_all<W, M>(
    api: &Api,
    path: &str,
    params: &[(&str, String)],
    mut keep: impl FnMut(W) -> Option<M>,
    seen: Option<&AtomicUsize>,
) -> Result<Vec<M>, ApiError>
where
    W: DeserializeOwned,
{
    let mut out = Vec::new();
    let mut pager = Pager::new(api, path, params);
    let mut restarted = false;
    loop {
        let items = match pager.next::<W>().await {
            Err(ApiError::Status { code: 410, .. }) if pager.started() && !restarted => {
                out.clear();
                pager.restart();
                restarted = true;
                continue;
            }
            r => r?,
        };
        let Some(items) = items else { return Ok(out) };
        if let Some(s) = seen {
            s.fetch_add(items.len(), Ordering::Relaxed);
        }
        out.extend(items.into_iter().filter_map(&mut keep));
    }
}

/// Collection path of a resource, namespaced or across all namespaces.
pub fn collection(group_version: &str, resource: &str, namespace: Option<&str>) -> String {
    let base = if group_version == "v1" {
        "/api/v1".to_string()
    } else {
        format!("/apis/{group_version}")
    };
    match namespace {
        Some(ns) => format!("{base}/namespaces/{ns}/{resource}"),
        None => format!("{base}/{resource}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_encode_selectors_and_tokens() {
        assert_eq!(
            url(
                "/api/v1/namespaces/ops/pods",
                &[
                    ("labelSelector", "job-name in (a-1,b-2)".into()),
                    ("limit", "500".into())
                ]
            ),
            "/api/v1/namespaces/ops/pods?labelSelector=job-name%20in%20%28a-1%2Cb-2%29&limit=500"
        );
        assert_eq!(encode("involvedObject.name=x"), "involvedObject.name%3Dx");
        assert_eq!(
            collection("batch/v1", "cronjobs", None),
            "/apis/batch/v1/cronjobs"
        );
        assert_eq!(
            collection("v1", "events", Some("ops")),
            "/api/v1/namespaces/ops/events"
        );
    }
}
