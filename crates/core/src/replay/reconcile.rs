//! Step 1 of a sync: reconcile the owned Jobs against `status.active`, maintain
//! `lastSuccessfulTime`, and prune finished jobs beyond the history limits.
//!
//! The controller double-checks two things with live API GETs that a snapshot cannot repeat:
//! an unfinished owned job missing from `active` (it re-reads the CronJob before warning
//! `UnexpectedJob`) and an `active` entry missing from its cache (it GETs the Job before
//! `MissingJob`). We treat the snapshot as the truth for both: the warning fires when the
//! snapshot's CronJob does not list the job, and `MissingJob` fires when no Job of that
//! namespace/name is in the snapshot. A snapshot taken mid-update can therefore show an
//! `UnexpectedJob` the real controller would have suppressed.

use std::collections::HashSet;

use jiff::Timestamp;

use super::gotime::GoTime;
use super::output::{ActiveRef, ControllerEvent};
use super::version::{ControllerVariant, Features, LastSuccessfulRule, SawCompletedText};
use crate::model::{CronJob, Job, namespace_of};

/// batch/v1 defaults for the history limits (`pkg/apis/batch/v1/defaults.go`).
const DEFAULT_SUCCESSFUL_LIMIT: i64 = 3;
const DEFAULT_FAILED_LIMIT: i64 = 1;

/// The jobs the controller reconciles for `cj`, from any list of jobs.
///
/// v2 (`getJobsToBeReconciled`) before 1.37: same namespace and a *controller* ownerReference
/// whose NAME equals the CronJob's; kind and UID are not checked, so a recreated CronJob of the
/// same name inherits the old one's jobs. 1.37 (#133313): the reference must also be of kind
/// `CronJob` and carry this CronJob's UID (`resolveControllerRef`). v1 (`groupJobsByParent`):
/// controller ownerReference of kind `CronJob` whose UID matches. Jobs without
/// `controller: true` (`kubectl create job --from`) are never owned.
///
/// A CronJob without a UID (a manifest written by hand) cannot be compared: then the kind and
/// name decide, as the closest reading of what the cluster would do.
pub fn owned_jobs<'a>(cj: &CronJob, jobs: &'a [Job], f: Features) -> Vec<&'a Job> {
    let ns = namespace_of(&cj.meta.namespace);
    jobs.iter()
        .filter(|j| namespace_of(&j.meta.namespace) == ns)
        .filter(|j| controlled_by(cj, j, f))
        .collect()
}

/// The ownership test of [`owned_jobs`] for a Job already known to be in `cj`'s namespace.
pub fn controlled_by(cj: &CronJob, j: &Job, f: Features) -> bool {
    let uid_matches =
        |o: &crate::model::OwnerReference| cj.meta.uid.is_empty() || o.uid == cj.meta.uid;
    match j.meta.controller() {
        None => false,
        Some(o) if f.variant == ControllerVariant::V1Legacy => {
            o.kind == "CronJob" && o.uid == cj.meta.uid
        }
        Some(o) if f.jobs_matched_by_uid => {
            o.kind == "CronJob" && o.name == cj.meta.name && uid_matches(o)
        }
        Some(o) => o.name == cj.meta.name,
    }
}

/// The mutable CronJob status plus everything the sync records along the way.
pub(crate) struct SyncState<'a> {
    pub cj: &'a CronJob,
    pub f: Features,
    /// All jobs of the CronJob's namespace in the snapshot; None when there is no job evidence.
    pub ns_jobs: Option<Vec<&'a Job>>,
    pub children: Vec<&'a Job>,
    pub active: Vec<ActiveRef>,
    pub last_schedule: Option<GoTime>,
    pub last_successful: Option<Timestamp>,
    pub events: Vec<ControllerEvent>,
    pub dirty: bool,
    pub notes: Vec<String>,
}

impl<'a> SyncState<'a> {
    pub fn remove_active(&mut self, uid: &str) {
        self.active.retain(|a| a.uid != uid);
    }

    /// The Job a GET by namespace/name would return (snapshot as the truth).
    pub fn get_job(&self, namespace: &str, name: &str) -> Option<&'a Job> {
        let ns = namespace_of(namespace);
        self.ns_jobs
            .as_ref()?
            .iter()
            .copied()
            .find(|j| j.meta.name == name && namespace_of(&j.meta.namespace) == ns)
    }
}

/// `getFinishedStatus`: the type of the first Complete/Failed condition with status True.
fn finished_condition(j: &Job) -> Option<&str> {
    j.status
        .conditions
        .iter()
        .find(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
        .map(|c| c.type_.as_str())
}

/// Reconcile children against `status.active` (B.3 step 1–2, C.1 for v1).
pub(crate) fn reconcile(st: &mut SyncState) {
    if st.ns_jobs.is_none() {
        return;
    }
    let v1 = st.f.variant == ControllerVariant::V1Legacy;
    let mut seen: HashSet<&str> = HashSet::new();
    for j in st.children.clone() {
        seen.insert(&j.meta.uid);
        let found = st.active.iter().any(|a| a.uid == j.meta.uid);
        let finished = finished_condition(j);
        let Some(cond) = finished else {
            if !found {
                st.events.push(ControllerEvent::warning(
                    "UnexpectedJob",
                    format!(
                        "Saw a job that the controller did not create or forgot: {}",
                        j.meta.name
                    ),
                ));
            }
            continue;
        };
        let succeeded = j.is_succeeded();
        if found {
            st.remove_active(&j.meta.uid);
            let msg = match st.f.saw_completed {
                SawCompletedText::NameOnly => format!("Saw completed job: {}", j.meta.name),
                SawCompletedText::Status => {
                    format!("Saw completed job: {}, status: {cond}", j.meta.name)
                }
                SawCompletedText::Condition => {
                    format!("Saw completed job: {}, condition: {cond}", j.meta.name)
                }
            };
            st.events
                .push(ControllerEvent::normal("SawCompletedJob", msg));
            st.dirty = true;
            if st.f.last_successful == LastSuccessfulRule::SucceededSamePass && succeeded {
                update_last_successful(st, j);
            }
        } else {
            match st.f.last_successful {
                LastSuccessfulRule::NotTracked => {}
                LastSuccessfulRule::FinishedOutsideActive => update_last_successful(st, j),
                LastSuccessfulRule::SucceededOutsideActive
                | LastSuccessfulRule::SucceededSamePass => {
                    if succeeded {
                        update_last_successful(st, j);
                    }
                }
            }
        }
    }
    // Active entries whose job is not among the children. v1 trusted its own LIST; v2 GETs.
    for a in st.active.clone() {
        if seen.contains(a.uid.as_str()) {
            continue;
        }
        if !v1 && st.get_job(&a.namespace, &a.name).is_some() {
            continue; // found by GET: the informer is just lagging
        }
        st.events.push(ControllerEvent::normal(
            "MissingJob",
            format!("Active job went missing: {}", a.name),
        ));
        st.remove_active(&a.uid);
        st.dirty = true;
    }
}

/// Upstream sets the field (and marks the status dirty) even when the completion time is nil.
fn update_last_successful(st: &mut SyncState, j: &Job) {
    if st.last_successful.is_none() {
        st.last_successful = j.status.completion_time;
        st.dirty = true;
    }
    if let (Some(c), Some(cur)) = (j.status.completion_time, st.last_successful)
        && c > cur
    {
        st.last_successful = Some(c);
        st.dirty = true;
    }
}

/// `cleanupFinishedJobs`: delete the oldest finished jobs beyond the history limits.
pub(crate) fn cleanup(st: &mut SyncState) {
    if st.ns_jobs.is_none() {
        return;
    }
    let spec = &st.cj.spec;
    let succ_limit = spec
        .successful_jobs_history_limit
        .unwrap_or(DEFAULT_SUCCESSFUL_LIMIT);
    let failed_limit = spec
        .failed_jobs_history_limit
        .unwrap_or(DEFAULT_FAILED_LIMIT);
    let pick = |want: &str| -> Vec<&Job> {
        st.children
            .iter()
            .copied()
            .filter(|j| finished_condition(j) == Some(want))
            .collect()
    };
    let (succeeded, failed) = (pick("Complete"), pick("Failed"));
    remove_oldest(st, succeeded, succ_limit);
    remove_oldest(st, failed, failed_limit);
}

fn remove_oldest(st: &mut SyncState, mut js: Vec<&Job>, max: i64) {
    let excess = js.len() as i64 - max.max(0);
    if excess <= 0 {
        return;
    }
    // byJobStartTime: no startTime sorts last; equal start times by name.
    js.sort_by(|a, b| {
        let (sa, sb) = (a.status.start_time, b.status.start_time);
        (sa.is_none(), sa, &a.meta.name).cmp(&(sb.is_none(), sb, &b.meta.name))
    });
    for j in js.into_iter().take(excess as usize) {
        st.remove_active(&j.meta.uid);
        st.events.push(ControllerEvent::normal(
            "SuccessfulDelete",
            format!("Deleted job {}", j.meta.name),
        ));
        st.dirty = true;
    }
}
