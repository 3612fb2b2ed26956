//! The live cluster as a source of snapshots: connect like kubectl, read lean, and turn what
//! went wrong into messages that say what was tried. Everything here is IO plumbing; what the
//! snapshot means is decided by `doctor`, exactly as for files.

pub mod config;
pub mod diagnose;
pub mod exec_plugin;
pub mod fetch;
pub mod fleet;
pub mod http;
pub mod list;
pub mod liveness;
pub mod monitor_runs;
pub mod objects;
pub mod progress;
pub mod request;
pub mod scan;
pub mod slices;
mod surrogates;
pub mod watch;
pub mod write_requests;
pub mod writer;

// The API server's JSON is read by the core's one reader per kind (`doctor::source::wire`).
use doctor::source::{convert, wire};

#[cfg(test)]
#[path = "convert_tests.rs"]
mod convert_tests;

use doctor::replay::KubeVersion;
use jiff::Timestamp;

use crate::cli::KubeArgs;
use crate::error::{ClusterError, Error, InputError, SystemError, UsageError};
use http::{Api, ApiError};

/// Clock differences below this are Date-header rounding and request latency, not skew.
const SKEW_TOLERANCE_SECS: i64 = 5;

/// A runtime for one command: two workers are enough to overlap four LISTs with the parsing of
/// their pages.
pub fn runtime() -> Result<tokio::runtime::Runtime, Error> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| SystemError::Runtime(e).into())
}

/// Resolve the kubeconfig (or in-cluster) settings and build the client: the one connection
/// of a command, used by every read (`Api`) and every write (`Api::writer`). No request is
/// made.
pub async fn connect(args: &KubeArgs, notices: bool) -> Result<Api, Error> {
    let timeout = config::parse_timeout(&args.request_timeout)?;
    let (mut cfg, target) = config::load(args).await?;
    check_token(&cfg, &target)?;
    // The plugin's time counts inside a fleet context's deadline (at least a moment, so a
    // context that has already run out still gets the plugin's own message).
    let plugin_bound = args
        .exec_plugin_deadline
        .map_or(exec_plugin::DEFAULT_BOUND, |at| {
            at.saturating_duration_since(std::time::Instant::now())
                .max(std::time::Duration::from_millis(100))
        });
    exec_plugin::guard(&mut cfg, plugin_bound);
    let client = kube::Client::try_from(cfg).map_err(|e| InputError::ClientSetup {
        target: target.describe(),
        source: e,
    })?;
    Ok(Api::new(client, target, timeout, notices))
}

/// The namespace a command works in: `-n` when given, else the context's. Checked as the API
/// server checks a namespace name before any request names it: a bad `-n` is a usage error, a
/// bad namespace in the kubeconfig an input error naming the context and the file it came from
/// (shown on one line: a context name is untrusted text). One place for every live command,
/// so `scan`, `explain` and the operator commands refuse the same names the same way.
pub fn namespace(api: &Api, explicit: Option<&str>) -> Result<String, Error> {
    if let Some(ns) = explicit {
        doctor::names::namespace(ns).map_err(UsageError::InvalidName)?;
        return Ok(ns.to_string());
    }
    let ns = &api.target.namespace;
    doctor::names::namespace(ns).map_err(|e| InputError::ContextNamespace {
        context: doctor::report::visible::one_line(&api.target.context).into_owned(),
        from: api.target.source.clone(),
        source: e,
    })?;
    Ok(ns.clone())
}

/// A static bearer token must be a valid HTTP header value: kube hands it to a layer that
/// panics otherwise (a control character pasted into a kubeconfig). Said as an input error
/// naming the context, never with the token.
fn check_token(cfg: &kube::Config, target: &config::Target) -> Result<(), Error> {
    use secrecy::ExposeSecret;
    let Some(token) = &cfg.auth_info.token else {
        return Ok(());
    };
    match ::http::HeaderValue::from_str(&format!("Bearer {}", token.expose_secret())) {
        Ok(_) => Ok(()),
        Err(_) => Err(InputError::BadToken {
            target: target.describe(),
        }
        .into()),
    }
}

/// The one-paragraph error for a request that failed outright, naming the context, the
/// server and the request, with the likeliest next step.
pub fn failure(api: &Api, what: &str, e: &ApiError) -> ClusterError {
    ClusterError::Request {
        what: what.to_string(),
        context: api.target.context.clone(),
        place: api.target.describe(),
        source: e.clone(),
    }
}

/// Title, consequence and RBAC resource of a kind of evidence (`jobs`, `pods`, `events`).
fn evidence_parts(what: &str) -> (&'static str, &'static str, &'static str) {
    match what {
        "jobs" => (
            "Jobs",
            "diagnosis from the CronJob's status only",
            "jobs.batch",
        ),
        "pods" => (
            "Pods",
            "no Pod evidence (image pulls, OOM kills, scheduling)",
            "pods",
        ),
        _ => ("Events", "diagnosis from status and Jobs only", "events"),
    }
}

/// The reduced-evidence note for a 403 on `what` (`jobs`, `pods`, `events`).
pub fn evidence_note(what: &str, message: &str) -> String {
    let (title, consequence, resource) = evidence_parts(what);
    let msg = if message.is_empty() {
        String::new()
    } else {
        format!(" ({message})")
    };
    format!(
        "{title}: forbidden{msg}; {consequence} — grant get/list on {resource}, see deploy/rbac/"
    )
}

/// The note for an answer that holds no Events about `about` ("CronJobs, Jobs or Pods", or
/// one CronJob and its Jobs and Pods): Events expire, so their absence says little.
pub fn no_events_note(about: &str) -> String {
    format!(
        "No Events about {about}: the API server keeps Events for about an hour by default; \
         the diagnosis stands on status, Job names and timestamps"
    )
}

/// The note for evidence that could not be read at all: a 403 names the grant that is
/// missing; anything else (a 5xx or 429 after the retries, a 404, a dropped connection) says
/// what went wrong. Pods and Events are evidence, not the subject: the diagnosis goes on.
pub fn evidence_missing(what: &str, e: &ApiError) -> String {
    match e {
        ApiError::Status { code: 403, message } => evidence_note(what, message),
        _ => {
            let (title, consequence, _) = evidence_parts(what);
            config::redact_userinfo(&format!(
                "{title}: could not be read ({}); {consequence}",
                e.plain_detail()
            ))
        }
    }
}

/// `/version` → the controller release to replay. Ok(None) and a note when the server will
/// not say (a 403/404 from a locked-down or unusual server, a 5xx or 429 after the retries):
/// the version is evidence, the newest controller is replayed instead. A 401 and transport
/// failures are errors, since every later request would fail the same way.
pub async fn server_version(api: &Api) -> Result<(Option<KubeVersion>, Option<String>), ApiError> {
    match api.get(&request::ApiPath::version(), &[]).await {
        Ok(body) => {
            let v: wire::VersionInfo = serde_json::from_slice(&body).unwrap_or_default();
            let minor = v.minor.trim_end_matches(|c: char| !c.is_ascii_digit());
            let parsed = v
                .git_version
                .parse::<KubeVersion>()
                .ok()
                .or_else(|| format!("{}.{minor}", v.major).parse().ok());
            let note = parsed.is_none().then(|| {
                format!(
                    "the server's version ({:?}) is not one we can read; replaying the newest controller (v{}) — pass --kube-version",
                    v.git_version,
                    KubeVersion::NEWEST
                )
            });
            Ok((parsed, note))
        }
        Err(ApiError::Status { code, message }) if code != 401 => Ok((
            None,
            Some(format!(
                "could not read the server version ({code}: {message}); replaying the newest controller (v{}) — pass --kube-version",
                KubeVersion::NEWEST
            )),
        )),
        Err(e) => Err(e),
    }
}

/// "Now" for the diagnosis: the API server's clock, from the `Date` header of the latest
/// response (whole seconds; the lists were read within that second or just before, which is
/// what "now" must describe). A note when our clock disagrees by more than a few seconds: the
/// controller runs on the server's time, so that is the one that matters.
pub fn server_now(api: &Api) -> (Timestamp, Option<String>) {
    let Some(s) = api.clock() else {
        return (
            Timestamp::now(),
            Some("the API server sent no Date header; using the local clock as now".into()),
        );
    };
    let skew = s.local.as_second() - s.server.as_second();
    let now = s.server;
    let note = (skew.abs() > SKEW_TOLERANCE_SECS).then(|| {
        format!(
            "the local clock is {} {} the API server's; times are judged by the server's clock ({})",
            doctor::text::human_duration(skew.abs()),
            if skew > 0 { "ahead of" } else { "behind" },
            doctor::text::rfc3339(s.server)
        )
    });
    (now, note)
}
