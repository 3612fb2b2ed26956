//! One connection for an action: the command's one client (`cluster::connect`: reads with
//! retries and the server clock) with a writer on it, the namespace, and the reads every
//! action starts with. Objects are read like everywhere else (`cluster::objects`: wire
//! structs, then the model), with the API's JSON kept beside the model where a write needs
//! it (a Job must carry the whole template, and a patch must name the exact resourceVersion).

use doctor::model::{CronJob, Job, Pod};
use serde_json::{Value, json};

use crate::cli::{DryRun, KubeArgs};
use crate::cluster::http::{Api, ApiError};
use crate::cluster::request::ApiPath;
use crate::cluster::write_requests::{self, Write};
use crate::cluster::writer::Writer;
use crate::cluster::{self, fetch, objects};
use crate::error::{ClusterError, Error, InputError, UsageError};

pub struct Session {
    pub api: Api,
    writer: Writer,
    pub ns: String,
}

/// What a SelfSubjectAccessReview said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    Allowed,
    /// Denied, with the authorizer's reason when it gave one.
    Denied(String),
    /// The review itself failed (an old or locked-down server): the dry run will tell.
    Unknown(String),
}

impl Session {
    /// Connect (`cluster::connect`, the one client of the command) and keep a writer on it
    /// (unable to write for real in a `--dry-run` session, and disarmed until
    /// [`confirmed`]). The namespace, from `-n` or the context, is validated here: no request
    /// is made.
    ///
    /// [`confirmed`]: Session::confirmed
    pub async fn connect(
        kube: &KubeArgs,
        namespace: Option<&str>,
        dry_run: DryRun,
    ) -> Result<Session, Error> {
        let api = cluster::connect(kube, true).await?;
        let ns = cluster::namespace(&api, namespace).map_err(|e| match e {
            Error::Usage(e) => UsageError::NothingSent(Box::new(e)).into(),
            Error::Input(e) => InputError::NothingSent(Box::new(e)).into(),
            other => other,
        })?;
        let writer = api.writer(dry_run != DryRun::None);
        Ok(Session { api, writer, ns })
    }

    /// The user said yes (or passed --yes): real writes may be sent. False in a dry run.
    pub fn confirmed(&self) -> bool {
        self.writer.arm()
    }

    /// Before asking again: back to dry runs only.
    pub fn unconfirmed(&self) {
        self.writer.disarm()
    }

    pub fn context(&self) -> &str {
        &self.api.target.context
    }

    /// `batch/v1` object path in this namespace, segments encoded.
    pub fn path(&self, resource: &str, name: &str) -> ApiPath {
        ApiPath::item("batch/v1", resource, &self.ns, name)
    }

    /// The error for a failed request: what was tried, on which cluster, what to do.
    pub fn failure(&self, what: &str, e: &ApiError) -> Error {
        cluster::failure(&self.api, what, e).into()
    }

    /// GET the CronJob as JSON (with its resourceVersion) and as the model.
    pub async fn cron_job(&self, name: &str) -> Result<(Value, CronJob), Error> {
        match objects::cron_job(&self.api, &self.ns, name).await {
            Ok(read) => Ok((read.raw, read.model)),
            Err(ApiError::Status { code: 404, .. }) => Err(ClusterError::CronJobNotFound {
                name: name.to_string(),
                namespace: self.ns.clone(),
                context: self.context().to_string(),
            }
            .into()),
            Err(e) => Err(self.failure(&format!("GET {}", self.path("cronjobs", name)), &e)),
        }
    }

    /// The CronJob's Jobs (owned, manual, or named like its own), for the replay and the
    /// preview; `Ok(None)` when listing Jobs is forbidden (the preview says so and goes on).
    pub async fn jobs_of(&self, cj: &CronJob) -> Result<Option<Vec<Job>>, Error> {
        match objects::jobs(&self.api, &self.ns, |j| fetch::related_job(cj, j)).await {
            Ok(jobs) => Ok(Some(jobs)),
            Err(ApiError::Status { code: 403, .. }) => Ok(None),
            Err(e) => {
                let path = cluster::list::collection("batch/v1", "jobs", Some(&self.ns));
                Err(self.failure(&format!("LIST {path}"), &e))
            }
        }
    }

    /// One Job, read to follow it.
    pub async fn job(&self, name: &str) -> Result<Job, ApiError> {
        objects::job(&self.api, &self.ns, name).await
    }

    /// Pods of one Job, by the label the Job controller sets (1.27+).
    pub async fn pods_of(&self, job: &str) -> Result<Vec<Pod>, ApiError> {
        objects::pods_of_job(&self.api, &self.ns, job).await
    }

    /// SelfSubjectAccessReview: may the current user `verb` `group`/`resource` here?
    pub async fn may(&self, verb: &str, group: &str, resource: &str) -> Access {
        let review = json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": {
                "namespace": self.ns, "verb": verb, "group": group, "resource": resource,
            }},
        });
        match self.send(write_requests::access_review(&review)).await {
            Ok(r) if r["status"]["allowed"] == true => Access::Allowed,
            Ok(r) => {
                let why = ["reason", "evaluationError"]
                    .iter()
                    .filter_map(|k| r["status"][k].as_str())
                    .find(|s| !s.is_empty())
                    .unwrap_or_default();
                Access::Denied(why.to_string())
            }
            Err(e) => Access::Unknown(e.to_string()),
        }
    }

    /// Send a write built by `cluster::write_requests` through this session's writer.
    pub async fn send(&self, req: Result<Write, ApiError>) -> Result<Value, ApiError> {
        self.writer.send(req?).await
    }
}
