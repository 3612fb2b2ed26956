//! The writes the actions send, built with kube's own request builders
//! (`kube::core::Request`, `PostParams`, `PatchParams`, `Patch::Merge`): pure data, made and
//! tested without a connection, then handed to [`super::writer::Writer`], which checks and
//! sends them.
//!
//! kube formats the object name into the path as given. That is safe here because every
//! name and namespace that reaches these builders was validated first (`doctor::names`: a
//! DNS label or subdomain, which holds no `/`, `?`, `#` or `%`), and the collection path is
//! still made by [`ApiPath`], segment by segment, percent-encoded. The query (`dryRun`,
//! `fieldManager`) is encoded by kube. Reads keep [`ApiPath`] + [`super::request::target`]
//! for everything: their query values (continue tokens, selectors made of names the server
//! sent) are not ours to trust, and the paged reader needs a path it can repeat.

use doctor::actions::FIELD_MANAGER;
use kube::core::Request;
use kube::core::params::{Patch, PatchParams, PostParams};
use serde_json::Value;

use super::http::{ApiError, Refusal};
use super::request::ApiPath;
use crate::error::api::BuildError;

/// A request ready to be sent (method, target, headers, body).
pub type Write = http::Request<Vec<u8>>;

/// Where SelfSubjectAccessReviews are posted: a question, not a change (the API server
/// stores nothing), so it is the one POST allowed without `dryRun=All`.
pub fn access_review_path() -> ApiPath {
    ApiPath::collection("authorization.k8s.io/v1", "selfsubjectaccessreviews", None)
}

fn refused(e: impl Into<BuildError>) -> ApiError {
    Refusal::Build(e.into()).into()
}

/// kube's request, with its target tidied: kube-core 5.0 starts the query with `?&` and
/// leaves a bare `?` when there is none; the server reads both the same, but the target is
/// also shown to people (`--dry-run=client`) and logged, so it is written the plain way.
fn built(r: Result<Write, kube::core::request::Error>) -> Result<Write, ApiError> {
    let mut req = r.map_err(refused)?;
    let target = target_of(&req);
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let pairs: Vec<&str> = query.split('&').filter(|p| !p.is_empty()).collect();
    let tidy = if pairs.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", pairs.join("&"))
    };
    if tidy != target {
        *req.uri_mut() = tidy.parse().map_err(refused)?;
    }
    Ok(req)
}

/// kube checks little of a name before formatting it into the path (kube-core 5.0: not a
/// `/`); the commands validated it already, and a name that slipped past is refused here.
fn checked(ns: &str, name: Option<&str>) -> Result<(), ApiError> {
    doctor::names::namespace(ns).map_err(refused)?;
    if let Some(n) = name {
        doctor::names::cron_job_name(n).map_err(refused)?;
    }
    Ok(())
}

fn json(body: &Value) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(body).map_err(|e| Refusal::Encode(std::sync::Arc::new(e)).into())
}

/// `POST jobs` in `ns`, with our field manager; `dry`: `dryRun=All`.
pub fn create_job(ns: &str, job: &Value, dry: bool) -> Result<Write, ApiError> {
    checked(ns, None)?;
    let pp = PostParams {
        dry_run: dry,
        field_manager: Some(FIELD_MANAGER.to_string()),
    };
    let jobs = ApiPath::collection("batch/v1", "jobs", Some(ns));
    built(Request::new(jobs.as_str()).create(&pp, json(job)?))
}

/// A JSON merge patch of CronJob `name` (or of its `subresource`), with our field manager.
pub fn patch_cron_job(
    ns: &str,
    name: &str,
    subresource: Option<&str>,
    body: &Value,
    dry: bool,
) -> Result<Write, ApiError> {
    checked(ns, Some(name))?;
    let pp = PatchParams {
        dry_run: dry,
        field_manager: Some(FIELD_MANAGER.to_string()),
        ..PatchParams::default()
    };
    let patch = Patch::Merge(body);
    let cron_jobs = Request::new(ApiPath::collection("batch/v1", "cronjobs", Some(ns)).as_str());
    built(match subresource {
        Some(sub) => cron_jobs.patch_subresource(sub, name, &pp, &patch),
        None => cron_jobs.patch(name, &pp, &patch),
    })
}

/// `POST selfsubjectaccessreviews`: no query at all.
pub fn access_review(review: &Value) -> Result<Write, ApiError> {
    built(Request::new(access_review_path().as_str()).create(&PostParams::default(), json(review)?))
}

/// The target of a request as sent: path and query.
pub fn target_of(req: &Write) -> String {
    req.uri()
        .path_and_query()
        .map_or_else(|| req.uri().to_string(), |p| p.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patches_name_the_object_the_subresource_and_the_manager() {
        let body = json!({"spec": {"suspend": true}});
        let p = patch_cron_job("ops", "backup", None, &body, true).unwrap();
        assert_eq!(p.method(), http::Method::PATCH);
        assert_eq!(
            target_of(&p),
            "/apis/batch/v1/namespaces/ops/cronjobs/backup?dryRun=All&fieldManager=kubectl-cronjob-doctor"
        );
        assert_eq!(
            p.headers()[http::header::CONTENT_TYPE],
            "application/merge-patch+json"
        );
        assert_eq!(serde_json::from_slice::<Value>(p.body()).unwrap(), body);
        let s = patch_cron_job("ops", "backup", Some("status"), &body, false).unwrap();
        assert_eq!(
            target_of(&s),
            "/apis/batch/v1/namespaces/ops/cronjobs/backup/status?fieldManager=kubectl-cronjob-doctor"
        );
    }

    #[test]
    fn creates_and_reviews_are_posts() {
        let j = create_job("ops", &json!({"kind": "Job"}), false).unwrap();
        assert_eq!(j.method(), http::Method::POST);
        assert_eq!(
            target_of(&j),
            "/apis/batch/v1/namespaces/ops/jobs?fieldManager=kubectl-cronjob-doctor"
        );
        assert_eq!(j.headers()[http::header::CONTENT_TYPE], "application/json");
        let r = access_review(&json!({})).unwrap();
        assert_eq!(
            target_of(&r),
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
        );
    }

    #[test]
    fn an_invalid_name_is_never_built() {
        // kube would format these into the path as given.
        for (ns, name) in [
            ("ops", "a/b"),
            ("ops", "a?dryRun=All"),
            ("a/../b", "x"),
            ("ops", ""),
        ] {
            let r = patch_cron_job(ns, name, None, &json!({}), true);
            assert!(matches!(r, Err(ApiError::Refused(_))), "{ns} {name}: {r:?}");
        }
        let r = create_job("o#", &json!({}), true);
        assert!(matches!(r, Err(ApiError::Refused(_))), "{r:?}");
    }
}
