//! Paged LISTs: `limit` + `continue`, one page in memory at a time (its bytes are dropped as
//! soon as the page is parsed, its items converted to the model and filtered as they arrive).

use std::sync::atomic::{AtomicUsize, Ordering};

use serde::de::DeserializeOwned;

use super::http::{Api, ApiError};
use super::request::ApiPath;
use super::wire;

/// Items per page. 500 is what kubectl and client-go informers use: large enough that
/// per-request latency is amortised, small enough that one page stays a few megabytes.
pub const PAGE: usize = 500;

/// One LIST, a page at a time.
pub struct Pager<'a> {
    api: &'a Api,
    path: &'a ApiPath,
    params: &'a [(&'a str, String)],
    cont: Option<String>,
    done: bool,
}

impl<'a> Pager<'a> {
    pub fn new(api: &'a Api, path: &'a ApiPath, params: &'a [(&'a str, String)]) -> Self {
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

    /// Start again from the first page (after an expired continue token).
    pub fn restart(&mut self) {
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
        let body = self.api.get(self.path, &q).await?;
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
    path: &ApiPath,
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

/// Collection path of a resource, namespaced or across all namespaces (segments encoded).
pub fn collection(group_version: &str, resource: &str, namespace: Option<&str>) -> ApiPath {
    ApiPath::collection(group_version, resource, namespace)
}
