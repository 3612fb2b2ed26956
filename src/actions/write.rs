//! POST and PATCH, which `cluster::http::Api` (a GET-only reader) does not send. No automatic
//! retries: a create repeated after a dropped connection could make a second Job, and a patch
//! is guarded by its resourceVersion precondition, so a failure is reported to the caller,
//! which re-reads and decides (the 409 loop in `patch`). `--request-timeout` still bounds
//! every request.
//!
//! Candidate to move into `src/cluster/http.rs` once that settles (it needs the client that
//! `Api` keeps private, hence the second handle here).

use std::time::Duration;

use http::{Method, Request};
use kube::client::Body;
use serde_json::Value;

use crate::cluster::http::{ApiError, error_chain, humantime};

/// `application/merge-patch+json`: RFC 7386, the only patch type we send; it touches exactly
/// the fields in the body.
pub const MERGE_PATCH: &str = "application/merge-patch+json";
pub const JSON: &str = "application/json";

#[derive(Clone)]
pub struct Writer {
    client: kube::Client,
    timeout: Option<Duration>,
}

impl Writer {
    pub fn new(client: kube::Client, timeout: Option<Duration>) -> Self {
        Writer { client, timeout }
    }

    /// Send `body` and return the server's JSON answer (2xx), or the error it gave.
    pub async fn send(
        &self,
        method: Method,
        path_and_query: &str,
        content_type: &str,
        body: &Value,
    ) -> Result<Value, ApiError> {
        let once = self.attempt(method, path_and_query, content_type, body);
        match self.timeout {
            Some(t) => tokio::time::timeout(t, once).await.unwrap_or_else(|_| {
                Err(ApiError::Transport(format!(
                    "no answer within --request-timeout {} (the server may still have applied it: re-read before retrying)",
                    humantime(t)
                )))
            }),
            None => once.await,
        }
    }

    async fn attempt(
        &self,
        method: Method,
        path_and_query: &str,
        content_type: &str,
        body: &Value,
    ) -> Result<Value, ApiError> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| ApiError::Transport(format!("cannot encode the request: {e}")))?;
        let req = Request::builder()
            .method(method)
            .uri(path_and_query)
            .header(http::header::ACCEPT, JSON)
            .header(http::header::CONTENT_TYPE, content_type)
            .body(Body::from(bytes))
            .map_err(|e| ApiError::Transport(format!("invalid request {path_and_query}: {e}")))?;
        let res = self
            .client
            .send(req)
            .await
            .map_err(|e| ApiError::Transport(error_chain(&e)))?;
        let status = res.status();
        let body = res
            .into_body()
            .collect_bytes()
            .await
            .map_err(|e| ApiError::Transport(error_chain(&e)))?;
        let value: Option<Value> = serde_json::from_slice(&body).ok();
        if status.is_success() {
            return value.ok_or_else(|| {
                ApiError::Transport(format!(
                    "unexpected answer to {path_and_query}: not JSON ({} bytes)",
                    body.len()
                ))
            });
        }
        let message = value
            .as_ref()
            .and_then(|v| v["message"].as_str())
            .map(str::to_string)
            .unwrap_or_else(|| {
                String::from_utf8_lossy(&body[..body.len().min(300)])
                    .trim()
                    .to_string()
            });
        Err(ApiError::Status {
            code: status.as_u16(),
            message,
        })
    }
}
