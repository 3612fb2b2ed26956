//! How a request failed, classified the way the commands react to it: the server said no
//! ([`ApiError::Status`]), no usable answer came ([`Transport`]), or it was never sent
//! ([`Refusal`]). The causes (kube's, hyper's, serde's, tokio's errors) are kept as sources,
//! behind `Arc` so an error can be cloned into every context of a fleet; Display says the
//! whole chain once, the way the messages always have (`error_chain`).

use std::sync::Arc;
use std::time::Duration;

use http::StatusCode;

use super::chain::error_chain;
use super::words::{bytes_words, humantime};

/// A failed request.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    /// The server answered with an error status (`metav1.Status` message when it sent one).
    #[error("{}", status_text(*code, message))]
    Status { code: u16, message: String },
    /// No usable answer: connection refused, TLS, DNS, credentials plugin, timeout.
    #[error(transparent)]
    Transport(#[from] Transport),
    /// Never sent: the request broke a rule of this session (a real write in a dry run).
    #[error(transparent)]
    Refused(#[from] Refusal),
}

impl ApiError {
    pub fn code(&self) -> Option<u16> {
        match self {
            ApiError::Status { code, .. } => Some(*code),
            ApiError::Transport(_) | ApiError::Refused(_) => None,
        }
    }
}

impl ApiError {
    /// The error as users should read it: kube prefixes transport errors with its own
    /// variant names, which mean nothing to them.
    pub fn plain_detail(&self) -> String {
        let detail = self.to_string();
        detail
            .strip_prefix("ServiceError: ")
            .or_else(|| detail.strip_prefix("HyperError: "))
            .unwrap_or(&detail)
            .to_string()
    }
}

/// `404 Not Found: jobs.batch "x" not found`.
fn status_text(code: u16, message: &str) -> String {
    let reason = StatusCode::from_u16(code)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    if message.is_empty() {
        format!("{code} {reason}")
    } else {
        format!("{code} {reason}: {message}")
    }
}

/// No usable answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Transport {
    /// kube's client failed (connection, TLS, credentials): its chain, said once.
    #[error("{}", error_chain(&**.0))]
    Client(Arc<kube::Error>),
    #[error("no answer within --request-timeout {}", humantime(*.0))]
    RequestTimeout(Duration),
    /// A write's timeout: the server may have acted on it.
    #[error(
        "no answer within --request-timeout {} (the server may still have applied it: re-read before retrying)",
        humantime(*.0)
    )]
    WriteTimeout(Duration),
    /// An optional answer's own bound (the monitor's).
    #[error("no answer within {}", humantime(*.0))]
    NoAnswerWithin(Duration),
    #[error("the answer is larger than {}", bytes_words(*.0))]
    TooLarge(usize),
    #[error("invalid request {target}: {source}")]
    InvalidRequest {
        target: String,
        source: Arc<http::Error>,
    },
    /// `what` is the request (`GET /apis/…`); the body is not what it should be.
    #[error("unexpected answer to {what}: {source}")]
    Unexpected {
        what: String,
        source: Arc<serde_json::Error>,
    },
    /// A GET whose answer is not JSON.
    #[error("{what}: unexpected answer (not JSON: {source})")]
    NotJson {
        what: String,
        source: Arc<serde_json::Error>,
    },
    /// A write's 2xx answer that is not JSON (`len` bytes).
    #[error("unexpected answer to {target}: not JSON ({len} bytes)")]
    WriteNotJson { target: String, len: usize },
    /// A CronJob answer the model cannot be read from.
    #[error("unexpected answer: {0}")]
    Unreadable(#[source] Arc<serde_json::Error>),
    /// A task sending requests (`what`: "page request", "event request") died.
    #[error("{what} failed: {source}")]
    Task {
        what: &'static str,
        source: Arc<tokio::task::JoinError>,
    },
    #[error("{source} (gave up after {attempts} attempts)")]
    GaveUp {
        source: Box<Transport>,
        attempts: u32,
    },
    /// The server asked to retry later than this tool waits (`cap`).
    #[error(
        "{source}; gave up after {attempts} attempt(s): the server asked to retry in {}, longer than the {} this tool waits between attempts",
        humantime(*asked),
        humantime(*cap)
    )]
    RetryTooLate {
        source: Box<ApiError>,
        attempts: u32,
        asked: Duration,
        cap: Duration,
    },
    #[error(
        "{source}; gave up after {attempts} attempt(s): the next retry (in {}) would pass --request-timeout {}",
        humantime(*wait),
        humantime(*timeout)
    )]
    RetryPastTimeout {
        source: Box<ApiError>,
        attempts: u32,
        wait: Duration,
        timeout: Duration,
    },
}

/// Why a request was never sent.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Refusal {
    /// A real write in a session that may not change anything.
    #[error(
        "refused to send {method} {path} without dryRun=All: this session may not change anything \
         (a dry run, or not confirmed yet)"
    )]
    NotConfirmed { method: http::Method, path: String },
    #[error("cannot build the request: {0}")]
    Build(#[source] BuildError),
    #[error("cannot encode the request: {0}")]
    Encode(#[source] Arc<serde_json::Error>),
}

impl From<kube::core::request::Error> for BuildError {
    fn from(e: kube::core::request::Error) -> Self {
        BuildError::Request(Arc::new(e))
    }
}

impl From<http::uri::InvalidUri> for BuildError {
    fn from(e: http::uri::InvalidUri) -> Self {
        BuildError::Uri(Arc::new(e))
    }
}

/// Why kube's request builder, or our tidying of its target, failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Request(Arc<kube::core::request::Error>),
    #[error(transparent)]
    Uri(Arc<http::uri::InvalidUri>),
    /// A name that slipped past the commands' checks.
    #[error(transparent)]
    Name(#[from] doctor::names::InvalidName),
}
