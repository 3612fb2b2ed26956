//! The cluster stage's start, shared by `scan`, `explain` and each context of a fleet:
//! connect, settle the namespace to read, and ask the server's version. What is read next
//! differs by command (one CronJob and its evidence, or every CronJob streamed); the version
//! and clock the server gave are settled against the plan once ([`super::plan::Plan::settle_live`]).

use doctor::replay::KubeVersion;

use super::plan::Select;
use crate::cli::KubeArgs;
use crate::cluster::{self, http::Api};
use crate::error::Error;

/// A live command's connection, before its reads: the namespace to read and what the server
/// says of its version.
pub struct LiveStart {
    pub api: Api,
    /// `-n`, else the context's; None with `-A`.
    pub namespace: Option<String>,
    pub server_version: (Option<KubeVersion>, Option<String>),
}

/// The namespace a live command reads: `-n`, else the context's; None with `-A`. Checked
/// before any request: a kubeconfig's namespace is input like any other.
pub fn live_namespace(
    api: &Api,
    namespace: Option<&str>,
    all_namespaces: bool,
) -> Result<Option<String>, Error> {
    if all_namespaces {
        return Ok(None);
    }
    cluster::namespace(api, namespace).map(Some)
}

/// Connect, settle the namespace ([`live_namespace`]) and ask the server's version
/// (`GET /version`).
pub async fn live_start(
    kube: &KubeArgs,
    notices: bool,
    select: &Select,
) -> Result<LiveStart, Error> {
    let api = cluster::connect(kube, notices).await?;
    let ns = live_namespace(&api, select.namespace.as_deref(), select.all_namespaces)?;
    let server_version = cluster::server_version(&api)
        .await
        .map_err(|e| cluster::failure(&api, "GET /version", &e))?;
    Ok(LiveStart {
        api,
        namespace: ns,
        server_version,
    })
}
