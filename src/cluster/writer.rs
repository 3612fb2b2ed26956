//! POST and PATCH, which `http::Api` (a GET-only reader) does not send. No automatic
//! retries: a create repeated after a dropped connection could make a second Job, and a patch
//! is guarded by its resourceVersion precondition, so a failure is reported to the caller,
//! which re-reads and decides (the 409 loop in `patch`). `--request-timeout` still bounds
//! every request.
//!
//! "A dry run writes nothing" is enforced here, the one place writes leave the process, not
//! left to each command: a writer starts *disarmed*, and a disarmed writer sends only
//! requests whose query, as parsed from the final request target, carries `dryRun=All`. A
//! writer of a `--dry-run` session can never be armed; any other is armed only once the user
//! has confirmed (or passed `--yes`). A bug in a command's flow, or a name that tampers with
//! the query, then ends in a refusal instead of a real change.
//!
//! A writer is made from the command's one connection ([`Api::writer`]): the same client,
//! the same `--request-timeout`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use http::{Method, Request};
use kube::client::Body;
use serde_json::Value;

use super::http::{Api, ApiError, Refusal, Transport};
use super::request::query_pairs;
use super::write_requests::{Write, access_review_path, target_of};

/// `application/merge-patch+json`: RFC 7386, the only patch type we send; it touches exactly
/// the fields in the body.
pub const MERGE_PATCH: &str = "application/merge-patch+json";
pub const JSON: &str = "application/json";

/// Whether a request may be sent: a GET, a question to the authorizer, or anything when
/// `real_writes_allowed`; otherwise only a request whose query carries `dryRun=All` (every
/// `dryRun` value `All`, as the API server requires, and at least one).
pub fn check_write(
    method: &Method,
    path_and_query: &str,
    real_writes_allowed: bool,
) -> Result<(), ApiError> {
    if real_writes_allowed || method == Method::GET {
        return Ok(());
    }
    let path = path_and_query.split(['?', '#']).next().unwrap_or_default();
    if method == Method::POST && path == access_review_path().as_str() {
        return Ok(());
    }
    let dry: Vec<String> = query_pairs(path_and_query)
        .into_iter()
        .filter(|(k, _)| k == "dryRun")
        .map(|(_, v)| v)
        .collect();
    if !dry.is_empty() && dry.iter().all(|v| v == "All") {
        return Ok(());
    }
    Err(Refusal::NotConfirmed {
        method: method.clone(),
        path: path.to_string(),
    }
    .into())
}

impl Api {
    /// A disarmed writer on this connection; `dry_run` makes it unable ever to send a real
    /// write.
    pub fn writer(&self, dry_run: bool) -> Writer {
        Writer::new(self.client(), self.timeout(), dry_run)
    }
}

#[derive(Clone)]
pub struct Writer {
    client: kube::Client,
    timeout: Option<Duration>,
    /// A `--dry-run` session: never armed.
    dry_run: bool,
    /// Real writes allowed (the user confirmed). Shared by clones.
    armed: Arc<AtomicBool>,
}

impl Writer {
    /// A disarmed writer; `dry_run` makes it unable ever to send a real write.
    pub fn new(client: kube::Client, timeout: Option<Duration>, dry_run: bool) -> Self {
        Writer {
            client,
            timeout,
            dry_run,
            armed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Allow real writes from now on (after the user's consent); false in a dry run.
    pub fn arm(&self) -> bool {
        if !self.dry_run {
            self.armed.store(true, Ordering::SeqCst);
        }
        !self.dry_run
    }

    /// Back to dry-run-only (before asking again).
    pub fn disarm(&self) {
        self.armed.store(false, Ordering::SeqCst);
    }

    fn armed(&self) -> bool {
        !self.dry_run && self.armed.load(Ordering::SeqCst)
    }

    /// Send `req` (built by `writes`) and return the server's JSON answer (2xx), or the
    /// error it gave, or a refusal when the write is not allowed in this session.
    pub async fn send(&self, req: Write) -> Result<Value, ApiError> {
        let once = self.attempt(req);
        match self.timeout {
            Some(t) => tokio::time::timeout(t, once)
                .await
                .unwrap_or_else(|_| Err(Transport::WriteTimeout(t).into())),
            None => once.await,
        }
    }

    async fn attempt(&self, req: Write) -> Result<Value, ApiError> {
        let path_and_query = target_of(&req);
        let (mut parts, bytes) = req.into_parts();
        parts
            .headers
            .insert(http::header::ACCEPT, http::HeaderValue::from_static(JSON));
        let req = Request::from_parts(parts, Body::from(bytes));
        // Checked on the request as built, right before it leaves: what the server will read.
        let uri = req.uri().to_string();
        check_write(req.method(), &uri, self.armed())?;
        let res = self
            .client
            .send(req)
            .await
            .map_err(|e| Transport::Client(Arc::new(e)))?;
        let status = res.status();
        let body = res
            .into_body()
            .collect_bytes()
            .await
            .map_err(|e| Transport::Client(Arc::new(e)))?;
        let value: Option<Value> = serde_json::from_slice(&body).ok();
        if status.is_success() {
            return value.ok_or_else(|| {
                Transport::WriteNotJson {
                    target: path_and_query.clone(),
                    len: body.len(),
                }
                .into()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::write_requests::patch_cron_job;

    fn refused(method: Method, t: &str) -> bool {
        matches!(check_write(&method, t, false), Err(ApiError::Refused(_)))
    }

    #[test]
    fn a_disarmed_writer_sends_only_dry_runs() {
        let cj = "/apis/batch/v1/namespaces/ops/cronjobs/backup";
        assert!(!refused(
            Method::PATCH,
            &format!("{cj}?dryRun=All&fieldManager=x")
        ));
        assert!(!refused(
            Method::POST,
            "/apis/batch/v1/namespaces/ops/jobs?fieldManager=x&dryRun=All"
        ));
        assert!(refused(Method::PATCH, &format!("{cj}?fieldManager=x")));
        assert!(refused(Method::PATCH, cj));
        assert!(refused(Method::POST, "/apis/batch/v1/namespaces/ops/jobs"));
        assert!(refused(Method::DELETE, cj));
        assert!(refused(Method::PUT, cj));
        // Parsed, not substring-matched: a dryRun that is part of another value, a name, a
        // fragment, or a different value does not count.
        assert!(refused(Method::PATCH, &format!("{cj}?x=%3FdryRun%3DAll")));
        assert!(refused(
            Method::PATCH,
            "/apis/batch/v1/namespaces/ops/cronjobs/dryRun=All"
        ));
        assert!(refused(Method::PATCH, &format!("{cj}#?dryRun=All")));
        assert!(refused(Method::PATCH, &format!("{cj}?dryRun=all")));
        assert!(refused(Method::PATCH, &format!("{cj}?dryRun=")));
        assert!(refused(Method::PATCH, &format!("{cj}?dryRun=All&dryRun=")));
        assert!(refused(Method::PATCH, &format!("{cj}?dryrun=All")));
        // Encoded forms the server decodes are understood.
        assert!(!refused(Method::PATCH, &format!("{cj}?dry%52un=%41ll")));
    }

    #[test]
    fn reads_and_access_reviews_pass_and_arming_allows_real_writes() {
        assert!(!refused(
            Method::GET,
            "/apis/batch/v1/namespaces/ops/cronjobs/backup"
        ));
        assert!(!refused(
            Method::POST,
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
        ));
        assert!(refused(
            Method::POST,
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x"
        ));
        assert!(
            check_write(
                &Method::PATCH,
                "/apis/batch/v1/namespaces/ops/cronjobs/backup",
                true
            )
            .is_ok()
        );
    }

    #[tokio::test]
    async fn the_writer_itself_refuses_before_sending() {
        // A client pointing at a port nobody listens on: a request that were sent would fail
        // as a transport error, so a `Refused` proves nothing left the process.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let cfg = kube::Config::new(format!("http://127.0.0.1:{port}").parse().unwrap());
        let client = kube::Client::try_from(cfg).unwrap();
        let body = serde_json::json!({"spec": {"suspend": true}});
        let real = || patch_cron_job("ops", "backup", None, &body, false).unwrap();
        let dry = || patch_cron_job("ops", "backup", None, &body, true).unwrap();
        for dry_run in [true, false] {
            let w = Writer::new(client.clone(), None, dry_run);
            let r = w.send(real()).await;
            assert!(matches!(r, Err(ApiError::Refused(_))), "{r:?}");
            // With dryRun=All it is sent (and fails: nobody listens).
            let r = w.send(dry()).await;
            assert!(matches!(r, Err(ApiError::Transport(_))), "{r:?}");
            // Arming works only outside a dry run.
            assert_eq!(w.arm(), !dry_run);
            let r = w.send(real()).await;
            if dry_run {
                assert!(matches!(r, Err(ApiError::Refused(_))), "{r:?}");
            } else {
                assert!(matches!(r, Err(ApiError::Transport(_))), "{r:?}");
                w.disarm();
                let r = w.send(real()).await;
                assert!(matches!(r, Err(ApiError::Refused(_))), "{r:?}");
            }
        }
    }
}
