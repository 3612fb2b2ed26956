//! What `explain NAME` reads: the CronJob, its Jobs, the Pods of its unfinished and recent
//! Jobs, and the Events about all of them. Missing permission on Jobs, Pods or Events turns
//! into a note and an `Evidence` flag; the diagnosis goes on with what is left.

use std::collections::BTreeSet;
use std::sync::Arc;

use doctor::model::{CronJob, Event, Job, Snapshot};

use super::http::{Api, ApiError, Transport};
use super::list::{collection, list_all};
use super::request::ApiPath;
use super::{convert, evidence_missing, evidence_note, no_events_note, wire};

/// Finished Jobs whose Pods are fetched besides the unfinished ones: the timeline shows the
/// last few runs and `jobs-failing` reads their Pods.
const RECENT_FINISHED: usize = 5;
/// Above this many objects, one namespace-wide Event LIST beats one request per object.
const EVENT_QUERIES_MAX: usize = 24;
/// Event requests in flight at once.
const EVENT_CONCURRENCY: usize = 6;

/// Why `explain NAME` could not build a snapshot.
pub enum FetchError {
    /// No such CronJob; the names that do exist in the namespace (for "did you mean").
    NotFound(Vec<String>),
    /// A request failed: what was requested, and how.
    Api(String, ApiError),
}

fn api_err(what: &str) -> impl FnOnce(ApiError) -> FetchError + '_ {
    move |e| FetchError::Api(what.to_string(), e)
}

/// Label selectors that together find every Pod of a Job exactly once: `job-name` is set by
/// every Job controller release (the `batch.kubernetes.io/` prefixed label only since 1.27,
/// alongside it), and the second one catches Pods carrying only the new label (hand-written
/// or restored manifests); on a real cluster it is an empty answer. `rest` is appended to
/// the key (` in (a,b)`, or empty for "exists").
pub fn pod_selectors(rest: &str) -> [String; 2] {
    [
        format!("job-name{rest}"),
        format!("batch.kubernetes.io/job-name{rest},!job-name"),
    ]
}

/// Jobs of `cj` as the replay may ask for them: owned (controller ownerReference by name, as
/// upstream matches), manual (a non-controller ownerReference to it), listed in
/// `status.active`, or named like the Job the controller would create (`<name>-<digits>`),
/// which the replay looks up to predict an AlreadyExists.
pub fn related_job(cj: &CronJob, j: &Job) -> bool {
    let name = cj.meta.name.as_str();
    j.meta
        .owner_references
        .iter()
        .any(|o| o.name == name && (o.controller || o.kind == "CronJob"))
        || cj.status.active.iter().any(|a| a.name == j.meta.name)
        || j.meta
            .name
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix('-'))
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

pub async fn explain(api: &Api, ns: &str, name: &str) -> Result<Snapshot, FetchError> {
    let cj_path = ApiPath::item("batch/v1", "cronjobs", ns, name);
    let cj = match api.get(&cj_path, &[]).await {
        Ok(body) => {
            super::surrogates::parse_object::<wire::CronJob>(&body, &format!("GET {cj_path}"))
                .map(convert::cron_job)
                .map_err(|e| {
                    FetchError::Api(
                        format!("GET {cj_path}"),
                        Transport::Unreadable(std::sync::Arc::new(e)).into(),
                    )
                })?
        }
        Err(ApiError::Status { code: 404, .. }) => {
            let path = collection("batch/v1", "cronjobs", Some(ns));
            let names = list_all(
                api,
                &path,
                &[],
                |c: wire::CronJob| Some(c.metadata.name),
                None,
            )
            .await
            .map_err(api_err("LIST cronjobs"))?;
            return Err(FetchError::NotFound(names));
        }
        Err(e) => return Err(FetchError::Api(format!("GET {cj_path}"), e)),
    };
    let mut snap = Snapshot::default();

    let jobs_path = collection("batch/v1", "jobs", Some(ns));
    match list_all(
        api,
        &jobs_path,
        &[],
        |w: wire::Job| Some(convert::job(w)).filter(|j| related_job(&cj, j)),
        None,
    )
    .await
    {
        Ok(jobs) => {
            snap.jobs = jobs;
            snap.evidence.jobs = true;
        }
        Err(ApiError::Status { code: 403, message }) => {
            snap.notes.push(evidence_note("jobs", &message))
        }
        Err(e) => return Err(FetchError::Api(format!("LIST {jobs_path}"), e)),
    }

    // Pods of the unfinished Jobs and the most recent finished ones (or, without Job access,
    // of the Jobs the CronJob's status lists as active).
    let mut pod_jobs: Vec<&str> = Vec::new();
    if snap.evidence.jobs {
        let mut finished: Vec<&Job> = snap.jobs.iter().filter(|j| j.is_finished()).collect();
        finished.sort_by_key(|j| std::cmp::Reverse(j.meta.creation_timestamp));
        pod_jobs.extend(
            snap.jobs
                .iter()
                .filter(|j| !j.is_finished())
                .map(|j| j.meta.name.as_str()),
        );
        pod_jobs.extend(
            finished
                .iter()
                .take(RECENT_FINISHED)
                .map(|j| j.meta.name.as_str()),
        );
    } else {
        pod_jobs.extend(cj.status.active.iter().map(|a| a.name.as_str()));
    }
    let pod_jobs: BTreeSet<&str> = pod_jobs.into_iter().collect();
    if pod_jobs.is_empty() {
        snap.evidence.pods = true;
    } else {
        let pods_path = collection("v1", "pods", Some(ns));
        let names = pod_jobs.iter().copied().collect::<Vec<_>>().join(",");
        let mut pods = Vec::new();
        let mut failed = None;
        for selector in pod_selectors(&format!(" in ({names})")) {
            let keep = |w: wire::Pod| Some(convert::pod(w));
            match list_all(api, &pods_path, &[("labelSelector", selector)], keep, None).await {
                Ok(mut p) => pods.append(&mut p),
                // Pods are evidence: whatever the failure, the diagnosis goes on without them.
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        match failed {
            Some(e) => snap.notes.push(evidence_missing("pods", &e)),
            None => {
                snap.pods = pods;
                snap.evidence.pods = true;
            }
        }
    }

    let mut about: Vec<String> = vec![cj.meta.name.clone()];
    about.extend(snap.jobs.iter().map(|j| j.meta.name.clone()));
    about.extend(snap.pods.iter().map(|p| p.meta.name.clone()));
    match events_about(api, ns, about).await {
        Ok(events) => {
            if events.is_empty() {
                snap.notes
                    .push(no_events_note(&format!("{name}, its Jobs or their Pods")));
            }
            snap.events = events;
            snap.evidence.events = true;
        }
        // Events are evidence too: any failure is a note.
        Err(e) => snap.notes.push(evidence_missing("events", &e)),
    }
    snap.cron_jobs.push(cj);
    Ok(snap)
}

/// Namespaces that hold a CronJob named `name`: one LIST across the cluster, narrowed by
/// field selector, for "not here, but there" when `explain NAME` was run without `-n`.
pub async fn namespaces_with(api: &Api, name: &str) -> Result<Vec<String>, ApiError> {
    let path = collection("batch/v1", "cronjobs", None);
    let mut found = list_all(
        api,
        &path,
        &[("fieldSelector", format!("metadata.name={name}"))],
        // The server filters; checking the name again costs nothing and guards a server
        // that ignored the selector.
        |c: wire::CronJob| (c.metadata.name == name).then_some(c.metadata.namespace),
        None,
    )
    .await?;
    found.sort();
    found.dedup();
    Ok(found)
}

/// Events whose `involvedObject.name` is one of `names` (the core matches Events to objects
/// by name within the namespace, so kind is not part of the query). A few objects: one field
/// selector each, a handful in flight; many: one LIST of the namespace, filtered here.
async fn events_about(api: &Api, ns: &str, names: Vec<String>) -> Result<Vec<Event>, ApiError> {
    let path = collection("v1", "events", Some(ns));
    if names.len() > EVENT_QUERIES_MAX {
        let wanted: BTreeSet<String> = names.into_iter().collect();
        return list_all(
            api,
            &path,
            &[],
            |w: wire::Event| {
                wanted
                    .contains(&w.involved_object.name)
                    .then(|| convert::event(w))
            },
            None,
        )
        .await;
    }
    let limit = Arc::new(tokio::sync::Semaphore::new(EVENT_CONCURRENCY));
    let mut tasks = tokio::task::JoinSet::new();
    for (i, n) in names.into_iter().enumerate() {
        let (api, path, limit) = (api.clone(), path.clone(), limit.clone());
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await;
            let sel = format!("involvedObject.name={n}");
            let r = list_all(
                &api,
                &path,
                &[("fieldSelector", sel)],
                |w: wire::Event| Some(convert::event(w)),
                None,
            )
            .await;
            (i, r)
        });
    }
    let mut parts: Vec<(usize, Vec<Event>)> = Vec::new();
    while let Some(done) = tasks.join_next().await {
        let (i, r) = done.map_err(|e| Transport::Task {
            what: "event request",
            source: std::sync::Arc::new(e),
        })?;
        parts.push((i, r?));
    }
    // Deterministic order whatever order the answers came in.
    parts.sort_by_key(|(i, _)| *i);
    Ok(parts.into_iter().flat_map(|(_, v)| v).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use doctor::model::{ObjectMeta, ObjectReference, OwnerReference};

    fn job(name: &str, owner: Option<(&str, &str, bool)>) -> Job {
        let mut j = Job {
            meta: ObjectMeta {
                name: name.into(),
                ..Default::default()
            },
            ..Default::default()
        };
        if let Some((kind, n, controller)) = owner {
            j.meta.owner_references.push(OwnerReference {
                api_version: "batch/v1".into(),
                kind: kind.into(),
                name: n.into(),
                uid: String::new(),
                controller,
            });
        }
        j
    }

    #[test]
    fn related_jobs_cover_every_lookup_the_replay_makes() {
        let mut cj = CronJob::default();
        cj.meta.name = "backup".into();
        cj.status.active.push(ObjectReference {
            name: "orphan".into(),
            namespace: String::new(),
            uid: String::new(),
        });
        assert!(related_job(
            &cj,
            &job("backup-1", Some(("CronJob", "backup", true)))
        ));
        assert!(related_job(
            &cj,
            &job("manual-run", Some(("CronJob", "backup", false)))
        ));
        assert!(related_job(&cj, &job("orphan", None)));
        assert!(related_job(&cj, &job("backup-29914740", None)));
        assert!(!related_job(
            &cj,
            &job(
                "backup-weekly-29914740",
                Some(("CronJob", "backup-weekly", true))
            )
        ));
        assert!(!related_job(&cj, &job("backup-", None)));
        assert!(!related_job(
            &cj,
            &job("other", Some(("Workflow", "backup", false)))
        ));
    }
}
