//! Paged LISTs: `limit` + `continue`, at most two pages of one list in memory (the one being
//! parsed and the next one, already requested: see [`Pager`]); each page's bytes are dropped as
//! soon as it is parsed, its items converted to the model and filtered as they arrive.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use serde::de::{DeserializeOwned, Deserializer, IgnoredAny, MapAccess, Visitor};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

use super::http::{Api, ApiError, Transport};
use super::request::ApiPath;
use super::wire;

/// Items per page. 500 is what kubectl and client-go informers use: large enough that
/// per-request latency is amortised, small enough that one page stays a few megabytes.
pub const PAGE: usize = 500;

/// A page's body with the permit it was fetched under (held until the body is parsed, so the
/// permits bound the bodies in memory as well as the requests in flight).
type Fetched = (Result<Bytes, ApiError>, Option<OwnedSemaphorePermit>);

/// One LIST, a page at a time. As soon as a page arrives its continue token is read (the
/// list's `metadata` comes before its `items`, so this costs a few hundred bytes of parsing)
/// and the next page is requested while this one is parsed: the round trip overlaps the CPU
/// work instead of following it.
pub struct Pager {
    api: Api,
    path: ApiPath,
    params: Vec<(&'static str, String)>,
    /// Requests in flight (with their unparsed bodies) across every pager sharing it.
    limit: Option<Arc<Semaphore>>,
    cont: Option<String>,
    done: bool,
    ahead: Option<JoinHandle<Fetched>>,
    /// Items per page ([`PAGE`] unless [`Pager::page`] says otherwise).
    page: usize,
}

impl Drop for Pager {
    fn drop(&mut self) {
        if let Some(h) = self.ahead.take() {
            h.abort();
        }
    }
}

impl Pager {
    pub fn new(api: &Api, path: &ApiPath, params: &[(&'static str, String)]) -> Self {
        Pager {
            api: api.clone(),
            path: path.clone(),
            params: params.to_vec(),
            limit: None,
            cont: None,
            done: false,
            ahead: None,
            page: PAGE,
        }
    }

    /// Ask for `items` per page instead of [`PAGE`].
    pub fn page(mut self, items: usize) -> Self {
        self.page = items;
        self
    }

    /// Share `limit` with other pagers: each request and its body hold one permit.
    pub fn limited(mut self, limit: Arc<Semaphore>) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Whether a page was read already (a restart would repeat items).
    pub fn started(&self) -> bool {
        self.cont.is_some()
    }

    /// Start again from the first page (after an expired continue token).
    pub fn restart(&mut self) {
        if let Some(h) = self.ahead.take() {
            h.abort();
        }
        self.cont = None;
        self.done = false;
    }

    fn fetch(&self) -> impl Future<Output = Fetched> + Send + 'static {
        let mut q = self.params.clone();
        q.push(("limit", self.page.to_string()));
        if let Some(c) = &self.cont {
            q.push(("continue", c.clone()));
        }
        let (api, path, limit) = (self.api.clone(), self.path.clone(), self.limit.clone());
        async move {
            let permit = match limit {
                Some(l) => l.acquire_owned().await.ok(),
                None => None,
            };
            (api.get(&path, &q).await, permit)
        }
    }

    /// The next page's items, or None after the last page.
    pub async fn next<W: DeserializeOwned>(&mut self) -> Result<Option<Vec<W>>, ApiError> {
        if self.done {
            return Ok(None);
        }
        let (body, permit) = match self.ahead.take() {
            Some(h) => h.await.map_err(|e| Transport::Task {
                what: "page request",
                source: std::sync::Arc::new(e),
            })?,
            None => self.fetch().await,
        };
        let body = body?;
        let unexpected = |e: serde_json::Error| {
            ApiError::from(Transport::Unexpected {
                what: format!("GET {}", self.path),
                source: std::sync::Arc::new(e),
            })
        };
        match peek_continue(&body).map_err(unexpected)? {
            Some(c) if !c.is_empty() => {
                self.cont = Some(c);
                self.ahead = Some(tokio::spawn(self.fetch()));
            }
            _ => self.done = true,
        }
        let page: wire::List<W> = match parse_page(&body) {
            Ok(p) => p,
            Err(e) => match with_lone_surrogates_replaced(&body) {
                Some((page, held)) => {
                    // Said here, once per page: the scan goes on with what Go would read.
                    let who = if held.is_empty() {
                        "an object holds".to_string()
                    } else {
                        let s = if held.len() == 1 { "s" } else { "" };
                        format!("{} hold{s}", held.join(", "))
                    };
                    let note = format!(
                        "note: GET {}: {who} a string with a lone UTF-16 surrogate escape (not Unicode; the API server reads it as U+FFFD, and so does this tool)",
                        self.path
                    );
                    eprintln!("{}", doctor::report::visible::one_line(&note));
                    page
                }
                None => return Err(unexpected(e)),
            },
        };
        drop(body);
        drop(permit);
        Ok(Some(page.items))
    }
}

/// A page's items. Its text is checked to be UTF-8 once, as a whole, and then parsed as text:
/// parsed as bytes, serde_json checks every string it keeps and every key it reads on its
/// own, a cost that showed in `scan -A`'s profile (BENCHMARKS.md, "scan -A at scale"). A page
/// that is not UTF-8 (the API server writes none) is parsed as bytes, which gives the same
/// items or the same error.
fn parse_page<W: DeserializeOwned>(body: &[u8]) -> Result<wire::List<W>, serde_json::Error> {
    match std::str::from_utf8(body) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(body),
    }
}

/// A page that failed to parse, once more with its lone surrogate escapes replaced by
/// U+FFFD (`surrogates`), and the objects that held one; None when it has none, or still
/// fails.
fn with_lone_surrogates_replaced<W: DeserializeOwned>(
    body: &[u8],
) -> Option<(wire::List<W>, Vec<String>)> {
    let (fixed, offsets) = super::surrogates::replace_lone_surrogates(body)?;
    let page = parse_page(&fixed).ok()?;
    let held = std::str::from_utf8(&fixed)
        .map(|text| super::surrogates::items_holding(text, &offsets))
        .unwrap_or_default();
    Some((page, held))
}

/// The continue token of a list body, read without parsing its items when `metadata` comes
/// first (as the API server writes it); a body with `items` first is skipped through, still
/// correct. Errors only for a body that is not a JSON object.
pub fn peek_continue(body: &[u8]) -> Result<Option<String>, serde_json::Error> {
    struct Peek<'a>(&'a mut Option<String>);
    impl<'de> Visitor<'de> for Peek<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if key == "metadata" {
                    let meta: wire::ListMeta = map.next_value()?;
                    *self.0 = meta.continue_;
                    // Found: stop here instead of reading the items.
                    return Err(serde::de::Error::custom(FOUND));
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    const FOUND: &str = "\u{0}continue token found";
    let mut token = None;
    let mut de = serde_json::Deserializer::from_slice(body);
    match de.deserialize_map(Peek(&mut token)) {
        Ok(()) => Ok(token),
        Err(e) if e.to_string().starts_with(FOUND) => Ok(token),
        Err(e) => Err(e),
    }
}

/// How many objects the unselected LIST `path` holds, from a first page of one item and its
/// `metadata.remainingItemCount`; None when the server does not say (a count is only given
/// for lists without a selector, and not by every server), answers with an error, or takes
/// longer than `wait`. The item itself is skipped, not parsed.
pub async fn count(api: &Api, path: &ApiPath, wait: std::time::Duration) -> Option<usize> {
    #[derive(serde::Deserialize)]
    struct Meta {
        #[serde(rename = "continue", default)]
        continue_: Option<String>,
        #[serde(rename = "remainingItemCount", default)]
        remaining: Option<u64>,
    }
    #[derive(serde::Deserialize)]
    struct Page {
        metadata: Meta,
        #[serde(default)]
        items: Vec<IgnoredAny>,
    }
    let body = api.get_once(path, &[("limit", "1".into())], wait).await?;
    let page: Page = serde_json::from_slice(&body).ok()?;
    let more = page.metadata.continue_.is_some_and(|c| !c.is_empty());
    let remaining = match (more, page.metadata.remaining) {
        (false, _) => 0,
        (true, Some(n)) => usize::try_from(n).unwrap_or(usize::MAX),
        (true, None) => return None,
    };
    Some(page.items.len().saturating_add(remaining))
}

/// LIST `path` with `params`, page by page; `keep` converts (and may drop) each item. `seen`
/// counts raw items for the progress display. A `410 Gone` on a continue token (the snapshot
/// it points into was compacted) restarts the list once, as kubectl does.
pub async fn list_all<W, M>(
    api: &Api,
    path: &ApiPath,
    params: &[(&'static str, String)],
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

#[cfg(test)]
mod tests {
    use super::{parse_page, peek_continue};
    use crate::cluster::wire;

    /// Text or bytes, a page gives the same items: a byte that is not UTF-8 where nothing is
    /// kept (a Job's other annotations) does not cost the page, one in a kept string is an
    /// error as before.
    #[test]
    fn pages_that_are_not_utf8_parse_as_before() {
        let page = |annotation: &[u8], name: &[u8]| {
            [
                &b"{\"items\":[{\"metadata\":{\"name\":\""[..],
                name,
                b"\",\"annotations\":{\"note\":\"",
                annotation,
                b"\"}},\"status\":{\"active\":1}}]}",
            ]
            .concat()
        };
        let job = |body: &[u8]| {
            let mut items = parse_page::<wire::Job>(body).unwrap().items;
            let j = items.pop().unwrap();
            (j.metadata.name, j.status.active)
        };
        assert_eq!(job(&page(b"ok", b"a")), ("a".to_string(), 1));
        assert_eq!(job(&page(b"\xff", b"a")), ("a".to_string(), 1));
        assert!(parse_page::<wire::Job>(&page(b"ok", b"\xff")).is_err());
        assert!(parse_page::<wire::Job>(b"{\"items\":[").is_err());
    }

    /// One lone surrogate escape in a kept string (a Job's name here) no longer costs the
    /// page: it is read as U+FFFD, as the API server reads it, and the Job is named.
    #[test]
    fn a_lone_surrogate_is_read_as_the_api_server_reads_it() {
        let body = br#"{"metadata":{},"items":[{"metadata":{"name":"ok","namespace":"ops"},"status":{"active":1}},{"metadata":{"name":"bad\ud800","namespace":"ops"},"status":{"active":2}}]}"#;
        assert!(
            parse_page::<wire::Job>(body).is_err(),
            "serde_json refuses it"
        );
        let (page, held) = super::with_lone_surrogates_replaced::<wire::Job>(body).unwrap();
        let names: Vec<String> = page.items.into_iter().map(|j| j.metadata.name).collect();
        assert_eq!(names, ["ok", "bad\u{fffd}"]);
        assert_eq!(held, ["ops/bad\u{fffd}"]);
        assert!(super::with_lone_surrogates_replaced::<wire::Job>(b"{\"items\":[").is_none());
    }

    #[test]
    fn the_continue_token_is_read_before_the_items() {
        let t = |s: &str| peek_continue(s.as_bytes()).unwrap();
        assert_eq!(
            t(r#"{"kind":"JobList","metadata":{"continue":"abc"},"items":[{"x":1}]}"#),
            Some("abc".into())
        );
        // Stops at metadata: whatever follows is not even looked at.
        assert_eq!(
            t(r#"{"metadata":{"continue":"abc","resourceVersion":"7"},"items":[not json"#),
            Some("abc".into())
        );
        // Items first, or no metadata at all: still right.
        assert_eq!(
            t(r#"{"items":[{"a":[1,{"b":"}"}]}],"metadata":{"continue":"z"}}"#),
            Some("z".into())
        );
        assert_eq!(t(r#"{"items":[]}"#), None);
        assert_eq!(t(r#"{"metadata":{}}"#), None);
        assert!(peek_continue(b"[1]").is_err());
        assert!(peek_continue(b"{\"metadata\":{\"continue\":5}}").is_err());
    }
}
