//! Fault injection: make matching requests fail the way real clusters fail (RBAC denials,
//! throttling, 500s, slowness, connections cut mid-request, watches that end early or are
//! refused with 410), optionally only N times or only after the first N matching requests
//! (fail page 2 of a paged LIST).

use std::time::Duration;

/// What a matching request gets instead of (or before) its normal answer.
#[derive(Debug, Clone, PartialEq)]
pub enum FaultAction {
    /// 403 with the real RBAC message (`events is forbidden: User "…" cannot list …`).
    Forbidden,
    /// 404 `NotFound` (`cronjobs.batch "x" not found`).
    NotFound,
    /// 429 `TooManyRequests` with `Retry-After: N`. kube-rs's default retry policy retries
    /// 429s (respecting Retry-After), so a client sees it only after its retries run out.
    TooManyRequests { retry_after_secs: u64 },
    /// 500 `InternalError`.
    InternalError,
    /// Any status code, with a `Status` body carrying `reason` and `message`.
    Status {
        code: u16,
        reason: String,
        message: String,
    },
    /// Wait, then answer normally (combine with a client timeout to test timeouts).
    Delay(Duration),
    /// Close the TCP connection without writing a response.
    DropConnection,
    /// A WATCH answers 200 as usual, then its stream ends cleanly (final chunk) after this
    /// long; zero: right after the headers, before any event. What a load balancer or an
    /// overloaded API server that closes streams early looks like to a client. Other
    /// requests are not affected.
    EndWatch(Duration),
}

/// A rule: requests matching `method` and the `path` pattern get `action`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    method: String,
    path: String,
    action: FaultAction,
    times: Option<u32>,
    after: u32,
    /// Only requests that carry a `continue` token (the later pages of a LIST).
    continue_only: bool,
}

impl Fault {
    /// `method` is an HTTP method (`GET`), a Kubernetes verb (`list`, `get`, `patch`, …) or
    /// `*`. `path` is a pattern over the request path (no query): `*` matches within one
    /// segment, `**` matches anything, e.g. `/api/v1/namespaces/*/events` or `**/events`.
    pub fn new(method: &str, path: &str, action: FaultAction) -> Self {
        Fault {
            method: method.to_string(),
            path: path.to_string(),
            action,
            times: None,
            after: 0,
            continue_only: false,
        }
    }
    pub fn forbidden(method: &str, path: &str) -> Self {
        Self::new(method, path, FaultAction::Forbidden)
    }
    pub fn not_found(method: &str, path: &str) -> Self {
        Self::new(method, path, FaultAction::NotFound)
    }
    pub fn too_many_requests(method: &str, path: &str, retry_after_secs: u64) -> Self {
        Self::new(
            method,
            path,
            FaultAction::TooManyRequests { retry_after_secs },
        )
    }
    pub fn internal_error(method: &str, path: &str) -> Self {
        Self::new(method, path, FaultAction::InternalError)
    }
    pub fn status(method: &str, path: &str, code: u16, reason: &str, message: &str) -> Self {
        let action = FaultAction::Status {
            code,
            reason: reason.into(),
            message: message.into(),
        };
        Self::new(method, path, action)
    }
    pub fn delay(method: &str, path: &str, delay: Duration) -> Self {
        Self::new(method, path, FaultAction::Delay(delay))
    }
    pub fn drop_connection(method: &str, path: &str) -> Self {
        Self::new(method, path, FaultAction::DropConnection)
    }
    /// Watches matching `path` end cleanly `after` their 200 headers (see
    /// [`FaultAction::EndWatch`]).
    pub fn end_watch(path: &str, after: Duration) -> Self {
        Self::new("watch", path, FaultAction::EndWatch(after))
    }
    /// A WATCH refused with HTTP 410 `Expired` as the status of the request itself (not as an
    /// ERROR event in a 200 stream), as some API servers and proxies answer a watch from a
    /// resourceVersion they no longer have.
    pub fn gone_watch(path: &str) -> Self {
        Self::status(
            "watch",
            path,
            410,
            "Expired",
            "too old resource version: the requested resourceVersion is gone",
        )
    }
    /// 410 `Expired`, as the API server answers a `continue` token whose snapshot etcd has
    /// compacted away; fires only on requests that carry a `continue` token.
    pub fn expired_continue(method: &str, path: &str) -> Self {
        Self::status(
            method,
            path,
            410,
            "Expired",
            "The provided continue parameter is too old to display a consistent list result. \
             You can start a new list without the continue parameter, or use the continue token \
             in this response to retrieve the remainder of the results. Continuing with the \
             provided token results in an inconsistent list - objects that were created, \
             modified, or deleted between the time the first chunk was returned and now may \
             show up in the list.",
        )
        .on_continue()
    }
    /// Match only requests that carry a `continue` token (page 2 onwards of a LIST).
    pub fn on_continue(mut self) -> Self {
        self.continue_only = true;
        self
    }
    /// Fire for the first matching request only.
    pub fn once(self) -> Self {
        self.times(1)
    }
    /// Fire for `n` matching requests, then let requests through.
    pub fn times(mut self, n: u32) -> Self {
        self.times = Some(n);
        self
    }
    /// Let the first `n` matching requests through before firing.
    pub fn after(mut self, n: u32) -> Self {
        self.after = n;
        self
    }

    fn matches(&self, method: &str, verb: &str, path: &str, has_continue: bool) -> bool {
        (has_continue || !self.continue_only)
            && (self.method == "*"
                || self.method.eq_ignore_ascii_case(method)
                || self.method.eq_ignore_ascii_case(verb))
            && glob(self.path.as_bytes(), path.as_bytes())
    }
}

/// A fault plus how often it has matched and fired.
#[derive(Debug)]
pub(crate) struct Armed {
    fault: Fault,
    seen: u32,
    fired: u32,
}

impl From<Fault> for Armed {
    fn from(fault: Fault) -> Self {
        Armed {
            fault,
            seen: 0,
            fired: 0,
        }
    }
}

/// Consults the armed faults in order: delays add up, the first other action decides.
pub(crate) fn consult(
    armed: &mut [Armed],
    method: &str,
    verb: &str,
    path: &str,
    has_continue: bool,
) -> (Duration, Option<FaultAction>) {
    let mut delay = Duration::ZERO;
    for a in armed.iter_mut() {
        if !a.fault.matches(method, verb, path, has_continue) {
            continue;
        }
        a.seen += 1;
        let due = a.seen > a.fault.after && a.fault.times.is_none_or(|t| a.fired < t);
        if !due {
            continue;
        }
        a.fired += 1;
        match &a.fault.action {
            FaultAction::Delay(d) => delay += *d,
            other => return (delay, Some(other.clone())),
        }
    }
    (delay, None)
}

fn glob(pat: &[u8], s: &[u8]) -> bool {
    match pat {
        [] => s.is_empty(),
        [b'*', b'*', rest @ ..] => (0..=s.len()).any(|i| glob(rest, &s[i..])),
        [b'*', rest @ ..] => {
            let seg = s.iter().position(|&c| c == b'/').unwrap_or(s.len());
            (0..=seg).any(|i| glob(rest, &s[i..]))
        }
        [c, rest @ ..] => s.first() == Some(c) && glob(rest, &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob(
            b"/api/v1/namespaces/*/events",
            b"/api/v1/namespaces/ops/events"
        ));
        assert!(!glob(
            b"/api/v1/namespaces/*/events",
            b"/api/v1/namespaces/ops/x/events"
        ));
        assert!(glob(b"**/events", b"/api/v1/events"));
        assert!(glob(b"/apis/batch/**", b"/apis/batch/v1/cronjobs"));
        assert!(!glob(
            b"/apis/batch/v1/cronjobs",
            b"/apis/batch/v1/cronjobs/x"
        ));
    }

    #[test]
    fn counting() {
        let mut armed: Vec<Armed> = vec![
            Fault::delay("*", "**", Duration::from_millis(5)).into(),
            Fault::internal_error("list", "/x").after(1).once().into(),
        ];
        let mut go = || consult(&mut armed, "GET", "list", "/x", false);
        assert_eq!(go(), (Duration::from_millis(5), None));
        assert_eq!(
            go(),
            (Duration::from_millis(5), Some(FaultAction::InternalError))
        );
        assert_eq!(go(), (Duration::from_millis(5), None));
    }

    #[test]
    fn continue_only_faults_skip_first_pages() {
        let mut armed: Vec<Armed> = vec![Fault::expired_continue("list", "/x").once().into()];
        assert_eq!(consult(&mut armed, "GET", "list", "/x", false).1, None);
        let Some(FaultAction::Status { code, reason, .. }) =
            consult(&mut armed, "GET", "list", "/x", true).1
        else {
            panic!("410 expected")
        };
        assert_eq!((code, reason.as_str()), (410, "Expired"));
        assert_eq!(consult(&mut armed, "GET", "list", "/x", true).1, None);
    }
}
