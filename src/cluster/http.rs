//! GET requests with the retry policy a CLI needs: at most [`MAX_ATTEMPTS`] tries on 429, 5xx
//! and dropped connections, honouring `Retry-After`, all within `--request-timeout`, each retry
//! announced on stderr (text output) so nobody stares at a silent terminal. Every response's
//! `Date` header is kept: the server's clock is the diagnosis' "now".

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Request, StatusCode};
use jiff::Timestamp;
use kube::client::Body;

use super::config::Target;
use super::request::{ApiPath, target};
use super::wire;

pub const MAX_ATTEMPTS: u32 = 3;
/// Longest wait between attempts when the server gives no `Retry-After`.
const BACKOFF_CAP: Duration = Duration::from_secs(4);
/// Longest `Retry-After` honoured. A server asking for more (an hour, or 2^64 seconds) is
/// not going to answer this command: it gives up at once and says why, instead of sleeping
/// for the rest of a `--request-timeout 0` session.
pub const RETRY_AFTER_CAP: Duration = Duration::from_secs(30);

pub use crate::error::api::{ApiError, Refusal, Transport};
pub use crate::error::chain::error_chain;
pub use crate::error::words::{bytes_words, humantime};

/// The server's clock as last seen: its `Date` header and our clock when it arrived.
#[derive(Clone, Copy, Debug)]
pub struct ClockSample {
    pub server: Timestamp,
    pub local: Timestamp,
}

/// A cheap-to-clone handle: the kube client plus what messages and retries need.
#[derive(Clone)]
pub struct Api {
    client: kube::Client,
    pub target: Arc<Target>,
    timeout: Option<Duration>,
    /// Print a line on stderr for every retry.
    pub notices: bool,
    clock: Arc<Mutex<Option<ClockSample>>>,
}

impl Api {
    pub fn new(
        client: kube::Client,
        target: Target,
        timeout: Option<Duration>,
        notices: bool,
    ) -> Self {
        Api {
            client,
            target: Arc::new(target),
            timeout,
            notices,
            clock: Arc::new(Mutex::new(None)),
        }
    }

    /// The kube client every request of this command goes through (one connection pool):
    /// for kube-runtime watchers (`kube::Api::<K>::namespaced(api.client(), ns)`) and for
    /// [`super::writer::Writer`]. Reads through it bypass this handle's retries and clock;
    /// [`Api::target`](Api) describes where it points (context, server, kubeconfig).
    pub fn client(&self) -> kube::Client {
        self.client.clone()
    }

    /// `--request-timeout`, for requests sent on [`Api::client`] (None: no limit).
    pub fn timeout(&self) -> Option<std::time::Duration> {
        self.timeout
    }

    /// The latest `Date` header seen, if any.
    pub fn clock(&self) -> Option<ClockSample> {
        *self.clock.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn observe_date(&self, headers: &http::HeaderMap) {
        let Some(server) = headers
            .get(http::header::DATE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| jiff::fmt::rfc2822::parse(v).ok())
            .map(|z| z.timestamp())
        else {
            return;
        };
        let sample = ClockSample {
            server,
            local: Timestamp::now(),
        };
        let mut c = self.clock.lock().unwrap_or_else(|e| e.into_inner());
        if c.is_none_or(|old| old.server <= server) {
            *c = Some(sample);
        }
    }

    /// GET `path` with `params` (both encoded by `request`) and return the body of a 2xx
    /// answer.
    pub async fn get(&self, path: &ApiPath, params: &[(&str, String)]) -> Result<Bytes, ApiError> {
        let path_and_query = &target(path, params);
        let started = Instant::now();
        let deadline = self.timeout.map(|t| started + t);
        let mut attempt = 1;
        loop {
            let once = self.attempt(path_and_query);
            let result = match deadline {
                Some(d) => match tokio::time::timeout_at(d.into(), once).await {
                    Ok(r) => r,
                    Err(_) => {
                        return Err(
                            Transport::RequestTimeout(self.timeout.unwrap_or_default()).into()
                        );
                    }
                },
                None => once.await,
            };
            let (err, retry_after) = match result {
                Ok(b) => return Ok(b),
                Err(Failure {
                    error,
                    retryable: false,
                    ..
                }) => return Err(error),
                Err(Failure {
                    error, retry_after, ..
                }) => (error, retry_after),
            };
            if attempt >= MAX_ATTEMPTS {
                return Err(retry_exhausted(err, attempt));
            }
            let backoff = Duration::from_millis(250 << (attempt - 1)).min(BACKOFF_CAP);
            if let Some(asked) = retry_after.filter(|&r| r > RETRY_AFTER_CAP) {
                return Err(Transport::RetryTooLate {
                    source: Box::new(err),
                    attempts: attempt,
                    asked,
                    cap: RETRY_AFTER_CAP,
                }
                .into());
            }
            let wait = retry_after.unwrap_or(backoff);
            if let Some(d) = deadline
                && Instant::now().checked_add(wait).is_none_or(|at| at >= d)
            {
                return Err(Transport::RetryPastTimeout {
                    source: Box::new(err),
                    attempts: attempt,
                    wait,
                    timeout: self.timeout.unwrap_or_default(),
                }
                .into());
            }
            if self.notices {
                // `err` quotes the server's message: no control character reaches the terminal.
                let notice = super::config::redact_userinfo(&format!(
                    "retrying GET {path} in {} (attempt {} of {MAX_ATTEMPTS}): {err}",
                    humantime(wait),
                    attempt + 1
                ));
                eprintln!("{}", doctor::report::visible::one_line(&notice));
            }
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    /// GET once, without retries or notices, waiting at most `wait`: for requests whose
    /// answer is welcome but not needed (the Job counts that plan `scan`'s slices).
    pub async fn get_once(
        &self,
        path: &ApiPath,
        params: &[(&str, String)],
        wait: Duration,
    ) -> Option<Bytes> {
        let path_and_query = &target(path, params);
        tokio::time::timeout(wait, self.attempt(path_and_query))
            .await
            .ok()?
            .ok()
    }

    /// GET once, without retries or notices: the whole exchange within `wait`, the body at
    /// most `max` bytes (a longer one is an error, and is read no further). For an optional
    /// answer from a peer that is not the API server itself (the monitor, through the service
    /// proxy), which must never hold up the command nor fill its memory.
    pub async fn get_bounded(
        &self,
        path: &ApiPath,
        params: &[(&str, String)],
        wait: Duration,
        max: usize,
    ) -> Result<Bytes, ApiError> {
        let path_and_query = &target(path, params);
        match tokio::time::timeout(wait, self.attempt_within(path_and_query, max)).await {
            Ok(r) => r.map_err(|f| f.error),
            Err(_) => Err(Transport::NoAnswerWithin(wait).into()),
        }
    }

    async fn attempt(&self, path_and_query: &str) -> Result<Bytes, Failure> {
        self.attempt_within(path_and_query, usize::MAX).await
    }

    async fn attempt_within(&self, path_and_query: &str, max: usize) -> Result<Bytes, Failure> {
        let req = Request::get(path_and_query)
            .header(http::header::ACCEPT, "application/json")
            .body(Body::empty())
            .map_err(|e| {
                Failure::fatal(
                    Transport::InvalidRequest {
                        target: path_and_query.to_string(),
                        source: Arc::new(e),
                    }
                    .into(),
                )
            })?;
        let res = self.client.send(req).await.map_err(transport)?;
        self.observe_date(res.headers());
        let status = res.status();
        let retry_after = res
            .headers()
            .get(http::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = if max == usize::MAX {
            res.into_body().collect_bytes().await.map_err(transport)?
        } else {
            read_at_most(res.into_body(), max).await?
        };
        if status.is_success() {
            return Ok(body);
        }
        let st: wire::Status = serde_json::from_slice(&body).unwrap_or_default();
        let message = if st.message.is_empty() {
            String::from_utf8_lossy(&body[..body.len().min(300)])
                .trim()
                .to_string()
        } else {
            st.message
        };
        let error = ApiError::Status {
            code: status.as_u16(),
            message,
        };
        let retryable = status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error();
        Err(Failure {
            error,
            retryable,
            retry_after,
        })
    }
}

/// The body, unless it is longer than `max` bytes: then an error, without reading the rest.
async fn read_at_most(mut body: Body, max: usize) -> Result<Bytes, Failure> {
    use http_body::Body as _;
    let mut out = bytes::BytesMut::new();
    loop {
        let frame = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await;
        match frame {
            None => return Ok(out.freeze()),
            Some(Err(e)) => return Err(transport(e)),
            Some(Ok(f)) => {
                if let Ok(data) = f.into_data() {
                    if out.len().saturating_add(data.len()) > max {
                        return Err(Failure::fatal(Transport::TooLarge(max).into()));
                    }
                    out.extend_from_slice(&data);
                }
            }
        }
    }
}

struct Failure {
    error: ApiError,
    retryable: bool,
    retry_after: Option<Duration>,
}

impl Failure {
    fn fatal(error: ApiError) -> Self {
        Failure {
            error,
            retryable: false,
            retry_after: None,
        }
    }
}

fn retry_exhausted(err: ApiError, attempts: u32) -> ApiError {
    match err {
        ApiError::Status { code, message } => ApiError::Status {
            code,
            message: format!("{message} (gave up after {attempts} attempts)")
                .trim_start()
                .to_string(),
        },
        ApiError::Transport(t) => Transport::GaveUp {
            source: Box::new(t),
            attempts,
        }
        .into(),
        refused @ ApiError::Refused(_) => refused,
    }
}

/// Connection-level failure. A connection dropped mid-answer is worth another try; a refused
/// connection, a TLS or a credentials failure is not: it fails the same way again.
fn transport(e: kube::Error) -> Failure {
    let retryable = !matches!(e, kube::Error::Auth(_)) && {
        let mut src: Option<&(dyn std::error::Error + 'static)> = Some(&e);
        let mut dropped = false;
        let mut connect = false;
        while let Some(s) = src {
            if let Some(h) = s.downcast_ref::<hyper::Error>() {
                dropped |= h.is_incomplete_message() || h.is_canceled() || h.is_closed();
            }
            if let Some(h) = s.downcast_ref::<hyper_util::client::legacy::Error>() {
                connect |= h.is_connect();
            }
            if let Some(io) = s.downcast_ref::<std::io::Error>() {
                use std::io::ErrorKind::*;
                dropped |= matches!(
                    io.kind(),
                    ConnectionReset | ConnectionAborted | BrokenPipe | UnexpectedEof
                );
            }
            src = s.source();
        }
        dropped && !connect
    };
    Failure {
        error: Transport::Client(Arc::new(e)).into(),
        retryable,
        retry_after: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(humantime(Duration::from_millis(250)), "250ms");
        assert_eq!(humantime(Duration::from_secs(2)), "2s");
        assert_eq!(humantime(Duration::from_millis(1500)), "1.5s");
        assert_eq!(humantime(Duration::from_secs(90)), "1m30s");
        assert!(!humantime(Duration::from_secs(u64::MAX)).starts_with('-'));
        assert!(!humantime(Duration::MAX).starts_with('-'));
    }

    #[test]
    fn status_errors_print_code_reason_and_message() {
        let e = ApiError::Status {
            code: 403,
            message: "events is forbidden".into(),
        };
        assert_eq!(e.to_string(), "403 Forbidden: events is forbidden");
        assert_eq!(e.code(), Some(403));
    }
}
