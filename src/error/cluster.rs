//! The cluster could not be reached, refused a request, or answered in a way that stops the
//! command; or a write was not sent. Each variant keeps the failed request's typed cause
//! ([`ApiError`]) as its source, and what the message needs to say where it happened (the
//! context, the namespace) and what to do next.

use std::time::Duration;

use doctor::actions::trigger::PlanError;

use super::api::ApiError;
use crate::redact::redact_userinfo;

/// Where the role that allows the actions is described.
pub const OPERATOR_ROLE: &str = "deploy/rbac/operator.yaml";

/// A cluster error: exit 2.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A request (`what`: `GET /version`, `LIST …`) failed in kubeconfig context `context`;
    /// `place` says where (`context x (https://…, from ~/.kube/config)`).
    #[error("{}", failure_text(context, place, what, source))]
    Request {
        what: String,
        context: String,
        place: String,
        source: ApiError,
    },
    /// A write failed; `permission` is what the operator role grants for it.
    #[error("{}", redact_userinfo(&write_failure_text(context, place, namespace, what, source, permission)))]
    Write {
        what: String,
        context: String,
        place: String,
        namespace: String,
        permission: String,
        source: ApiError,
    },
    /// A write of several failed after `done` (the last one applied) went through.
    #[error("{source} Already applied before it: {done} — run the command again to finish.")]
    PartlyApplied {
        source: Box<ClusterError>,
        done: String,
    },
    #[error(
        "{what}: 409 Conflict again, {times} times in a row — something keeps writing this CronJob (another controller, a GitOps sync?). \
         Nothing more was changed; find the other writer or try again later"
    )]
    ConflictsAgain { what: String, times: u32 },
    #[error(
        "job {job} is gone (deleted, or removed by ttlSecondsAfterFinished) before it was seen to finish; \
         look for its Pods with `kubectl get pods -n {namespace} -l batch.kubernetes.io/job-name={job}`"
    )]
    JobGone { job: String, namespace: String },
    #[error(
        "cronjob {name:?} not found in namespace {namespace} (context {context}): check the name with `kubectl get cronjobs -n {namespace}`; nothing was changed"
    )]
    CronJobNotFound {
        name: String,
        namespace: String,
        context: String,
    },
    #[error("cannot read the CronJob the API server returned: {0}")]
    UnreadableCronJob(#[source] serde_json::Error),
    /// A fleet context gave no complete answer within `--context-timeout`.
    #[error(
        "no complete answer within {} (--context-timeout); the cluster is down, unreachable or slow",
        super::words::human(*.0)
    )]
    ContextTimeout(Duration),
    /// The SelfSubjectAccessReview said no; `reason` is the server's (may be empty).
    #[error(
        "you may not create jobs in namespace {namespace} (SelfSubjectAccessReview denied{}); nothing was created. \
         The operator role grants create on jobs: apply {OPERATOR_ROLE} and bind it to you (see its header), or ask a cluster admin",
        if reason.is_empty() { String::new() } else { format!(": {reason}") }
    )]
    CreateDenied { namespace: String, reason: String },
    /// The server-side dry run of the create answered 409.
    #[error(
        "a Job named {job} already exists in namespace {namespace} (the server-side dry run said: {source}); nothing was created. \
         Choose another --job-name, or leave it out for a random suffix"
    )]
    JobExists {
        job: String,
        namespace: String,
        source: ApiError,
    },
    /// The CronJob the server returned cannot be made into a Job.
    #[error(transparent)]
    PlanJob(#[from] PlanError),
    /// No context has the CronJob, and some could not be read.
    #[error(transparent)]
    Nowhere(Nowhere),
}

/// The message of a failed request: what failed where, the cause, what to do next.
fn failure_text(context: &str, place: &str, what: &str, e: &ApiError) -> String {
    let hint = match e.code() {
        Some(401) => "the server rejected the credentials: log in again or refresh the token (exec plugins: run the plugin by hand to see its error)".to_string(),
        Some(403) => "the user lacks permission for this request (see deploy/rbac/ for the read-only role this tool needs)".to_string(),
        Some(_) => "the API server answered with an error".to_string(),
        None if looks_like_tls(&e.to_string()) => format!(
            "the TLS handshake failed: check the server URL (https:// or http://) and the kubeconfig's certificate-authority for context {context}"
        ),
        None => format!(
            "the API server could not be reached; check that the cluster is up and that `kubectl --context {context} get --raw /version` works"
        ),
    };
    let detail = e.plain_detail();
    // The whole message is scrubbed: kube and hyper errors may name the URL too.
    redact_userinfo(&format!(
        "{what} failed for {place}: {detail}. {}.",
        capitalize(&hint)
    ))
}

/// The message of a failed write: what was tried, whether it changed anything, and what to
/// do next (`ns`: the namespace it was sent to).
fn write_failure_text(
    context: &str,
    place: &str,
    ns: &str,
    what: &str,
    e: &ApiError,
    permission: &str,
) -> String {
    match e {
        ApiError::Status { code: 403, message } => format!(
            "{what} was refused: {message}. That request changed nothing. The operator role grants {permission}: \
             apply {OPERATOR_ROLE} and bind it to you (see its header), or ask a cluster admin"
        ),
        ApiError::Status { .. } => format!(
            "{} That request changed nothing.",
            failure_text(context, place, what, e)
        ),
        ApiError::Refused(why) => format!("{what} was not sent: {why}. Nothing was changed."),
        // No answer: the server may or may not have acted on it.
        ApiError::Transport(_) => format!(
            "{} Whether the server applied it is unknown: check with `kubectl get cronjobs,jobs -n {ns}` before trying again.",
            failure_text(context, place, what, e),
        ),
    }
}

fn looks_like_tls(msg: &str) -> bool {
    let m = msg.to_lowercase();
    [
        "certificate",
        "tls",
        "handshake",
        "corrupt message",
        "invalidcontenttype",
    ]
    .iter()
    .any(|w| m.contains(w))
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Where `explain NAME` looked across contexts and did not find it: the contexts searched,
/// where else it is, the contexts that could not be read (all shown, one line each).
#[derive(Debug)]
pub struct Nowhere {
    pub name: String,
    pub searched: Vec<String>,
    pub elsewhere: Vec<String>,
    pub failed: Vec<String>,
}

impl std::fmt::Display for Nowhere {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = &self.name;
        if self.searched.is_empty() {
            write!(f, "no context could be read to look for CronJob {name:?}")?;
        } else {
            write!(f, "no CronJob {name:?} in {}", self.searched.join(", "))?;
        }
        if !self.elsewhere.is_empty() {
            write!(f, "; found in {} (pass -n)", self.elsewhere.join("; "))?;
        }
        if !self.failed.is_empty() {
            write!(
                f,
                "; not searched (unreadable, see above): {}",
                self.failed.join(", ")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Nowhere {}
