//! One connection for an action: `cluster`'s reader (retries, the server clock) plus a writer
//! on the same client, the namespace, and the reads every action starts with. Objects are
//! kept as the API returns them (JSON: a Job must carry the whole template, and a patch must
//! name the exact resourceVersion) and converted to the model with the file loader
//! (`doctor::source`), which reads a live object the way `explain -f` reads its dump.

use doctor::model::{CronJob, Job, Pod};
use http::Method;
use serde_json::{Value, json};

use super::args::DryRun;
use super::write::{JSON, Writer, access_review_path};
use crate::cli::KubeArgs;
use crate::cluster::http::{Api, ApiError};
use crate::cluster::list::{collection, list_all};
use crate::cluster::request::ApiPath;
use crate::cluster::{self, config, fetch};

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
    /// Resolve the kubeconfig like `cluster::connect` does, keeping a writer on the client
    /// (unable to write for real in a `--dry-run` session, and disarmed until [`confirmed`]).
    /// The namespace, from `-n` or the context, is validated here: no request is made.
    ///
    /// [`confirmed`]: Session::confirmed
    pub async fn connect(
        kube: &KubeArgs,
        namespace: Option<&str>,
        dry_run: DryRun,
    ) -> Result<Session, String> {
        let timeout = config::parse_timeout(&kube.request_timeout)?;
        let (cfg, target) = config::load(kube).await?;
        let client = kube::Client::try_from(cfg).map_err(|e| {
            config::redact_userinfo(&format!(
                "cannot set up a client for {}: {}",
                target.describe(),
                cluster::http::error_chain(&e)
            ))
        })?;
        let ns = namespace.map_or_else(|| target.namespace.clone(), str::to_string);
        doctor::names::namespace(&ns).map_err(|e| format!("{e}; nothing was sent"))?;
        Ok(Session {
            api: Api::new(client.clone(), target, timeout, true),
            writer: Writer::new(client, timeout, dry_run != DryRun::None),
            ns,
        })
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

    /// The message for a failed request: what was tried, on which cluster, what to do.
    pub fn failure(&self, what: &str, e: &ApiError) -> String {
        cluster::failure(&self.api, what, e)
    }

    /// GET the CronJob as JSON (with its resourceVersion) and as the model.
    pub async fn cron_job(&self, name: &str) -> Result<(Value, CronJob), String> {
        let path = self.path("cronjobs", name);
        let raw: Value = match self.api.get(&path, &[]).await {
            Ok(b) => serde_json::from_slice(&b)
                .map_err(|e| format!("GET {path}: unexpected answer (not JSON: {e})"))?,
            Err(ApiError::Status { code: 404, .. }) => {
                return Err(format!(
                    "cronjob {name:?} not found in namespace {} (context {}): check the name with `kubectl get cronjobs -n {}`; nothing was changed",
                    self.ns,
                    self.context(),
                    self.ns
                ));
            }
            Err(e) => return Err(self.failure(&format!("GET {path}"), &e)),
        };
        let cj = cron_job_model(&raw)?;
        Ok((raw, cj))
    }

    /// The CronJob's Jobs (owned, manual, or named like its own), for the replay and the
    /// preview; `Ok(None)` when listing Jobs is forbidden (the preview says so and goes on).
    pub async fn jobs_of(&self, cj: &CronJob) -> Result<Option<Vec<Job>>, String> {
        let path = collection("batch/v1", "jobs", Some(&self.ns));
        match list_all(&self.api, &path, &[], Some::<Value>, None).await {
            Ok(items) => Ok(Some(
                models("JobList", items)
                    .jobs
                    .into_iter()
                    .filter(|j| fetch::related_job(cj, j))
                    .collect(),
            )),
            Err(ApiError::Status { code: 403, .. }) => Ok(None),
            Err(e) => Err(self.failure(&format!("LIST {path}"), &e)),
        }
    }

    /// Pods of one Job, by the label the Job controller sets (1.27+).
    pub async fn pods_of(&self, job: &str) -> Result<Vec<Pod>, ApiError> {
        let path = collection("v1", "pods", Some(&self.ns));
        let sel = format!("batch.kubernetes.io/job-name={job}");
        let items = list_all(
            &self.api,
            &path,
            &[("labelSelector", sel)],
            Some::<Value>,
            None,
        )
        .await?;
        Ok(models("PodList", items).pods)
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
        let path = access_review_path();
        match self
            .writer
            .send(Method::POST, &path, &[], JSON, &review)
            .await
        {
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

    /// POST/PATCH `path` with `params` (values encoded).
    pub async fn send(
        &self,
        method: Method,
        path: &ApiPath,
        params: &[(&str, String)],
        content_type: &str,
        body: &Value,
    ) -> Result<Value, ApiError> {
        self.writer
            .send(method, path, params, content_type, body)
            .await
    }
}

/// The model of a CronJob as the API returned it.
pub fn cron_job_model(raw: &Value) -> Result<CronJob, String> {
    let loaded = doctor::source::parse_text("the API server's answer", &raw.to_string());
    loaded.cron_jobs.into_iter().next().ok_or_else(|| {
        let why = loaded
            .errors
            .first()
            .map(|e| e.message.clone())
            .unwrap_or_else(|| "not a CronJob".into());
        format!("cannot read the CronJob the API server returned: {why}")
    })
}

/// Items of a LIST (which carry no kind) read as a typed list.
pub fn models(list_kind: &str, items: Vec<Value>) -> doctor::source::Loaded {
    let api_version = if list_kind == "PodList" {
        "v1"
    } else {
        "batch/v1"
    };
    let doc = json!({"apiVersion": api_version, "kind": list_kind, "items": items});
    doctor::source::parse_text("the API server's answer", &doc.to_string())
}
