//! Single objects and small lists for the actions, read the one way every object of the tool
//! is read: the API's JSON into the slim `wire` structs, then `convert` to the model — the
//! path `explain` and `scan` take, so an action and a diagnosis see the same CronJob. Where a
//! write needs the object as the server sent it (the resourceVersion precondition, the whole
//! Job template for `trigger`), the raw JSON is kept beside the model.

use doctor::model::{CronJob, Job, Pod};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::http::{Api, ApiError, Transport};
use super::list::{collection, list_all};
use super::request::ApiPath;
use super::{convert, wire};
use crate::error::{ClusterError, Error};

/// An object as the API server sent it, and as the model reads it.
pub struct Read<M> {
    pub raw: Value,
    pub model: M,
}

/// One JSON body read twice: as it is (kept for writes) and through the wire structs.
fn both<W: DeserializeOwned, M>(
    body: &[u8],
    to_model: impl FnOnce(W) -> M,
) -> Result<Read<M>, serde_json::Error> {
    let raw: Value = serde_json::from_slice(body)?;
    let model = to_model(serde_json::from_slice::<W>(body)?);
    Ok(Read { raw, model })
}

fn unexpected(path: &ApiPath, e: serde_json::Error) -> ApiError {
    Transport::NotJson {
        what: format!("GET {path}"),
        source: std::sync::Arc::new(e),
    }
    .into()
}

/// GET one CronJob. A 404 is returned as the error it is: the caller says what to do.
pub async fn cron_job(api: &Api, ns: &str, name: &str) -> Result<Read<CronJob>, ApiError> {
    let path = ApiPath::item("batch/v1", "cronjobs", ns, name);
    let body = api.get(&path, &[]).await?;
    both(
        &body,
        convert::cron_job::<wire::CronJobAnnotations, wire::All>,
    )
    .map_err(|e| unexpected(&path, e))
}

/// The model of a CronJob the API server sent back (the answer to a PATCH).
pub fn cron_job_of(answer: &Value) -> Result<CronJob, Error> {
    let unreadable = |e: serde_json::Error| Error::from(ClusterError::UnreadableCronJob(e));
    // Through bytes, as every other reading: the wire structs are made for a JSON body.
    let body = serde_json::to_vec(answer).map_err(unreadable)?;
    serde_json::from_slice::<wire::CronJob>(&body)
        .map(convert::cron_job)
        .map_err(unreadable)
}

/// GET one Job.
pub async fn job(api: &Api, ns: &str, name: &str) -> Result<Job, ApiError> {
    let path = ApiPath::item("batch/v1", "jobs", ns, name);
    let body = api.get(&path, &[]).await?;
    serde_json::from_slice::<wire::Job>(&body)
        .map(convert::job)
        .map_err(|e| unexpected(&path, e))
}

/// The Jobs of a namespace that `keep` accepts (paged, converted as they arrive).
pub async fn jobs(api: &Api, ns: &str, keep: impl Fn(&Job) -> bool) -> Result<Vec<Job>, ApiError> {
    let path = collection("batch/v1", "jobs", Some(ns));
    list_all(
        api,
        &path,
        &[],
        |w: wire::Job| Some(convert::job(w)).filter(|j| keep(j)),
        None,
    )
    .await
}

/// Pods of one Job, by the label the Job controller sets (1.27+).
pub async fn pods_of_job(api: &Api, ns: &str, job: &str) -> Result<Vec<Pod>, ApiError> {
    let path = collection("v1", "pods", Some(ns));
    let sel = format!("batch.kubernetes.io/job-name={job}");
    list_all(
        api,
        &path,
        &[("labelSelector", sel)],
        |w: wire::Pod| Some(convert::pod(w)),
        None,
    )
    .await
}
