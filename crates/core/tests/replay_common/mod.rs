//! Shared fixtures for the replay tests: a CronJob/Job builder and a one-call runner.

use doctor::model::{
    ConcurrencyPolicy, Condition, CronJob, Job, ObjectMeta, ObjectReference, OwnerReference,
};
use doctor::replay::{KubeVersion, Replay, ReplayInput, replay};
use jiff::Timestamp;
use jiff::tz::TimeZone;

pub const CJ_UID: &str = "uid-cj";

/// The current controller's release.
pub const NEW: &str = "1.31";

/// A Job list that was read and holds nothing.
pub const NO_JOBS: Option<&[Job]> = Some(&[]);

/// Parse an RFC 3339 instant (`2024-01-01T10:05:00.1Z`).
pub fn t(s: &str) -> Timestamp {
    s.parse()
        .unwrap_or_else(|e| panic!("bad timestamp {s}: {e}"))
}

pub fn tz(name: &str) -> TimeZone {
    TimeZone::get(name).unwrap()
}

pub struct Cj(pub CronJob);

/// A CronJob `cj` in `default`, created 2023-01-01, Allow, not suspended.
pub fn cj(schedule: &str) -> Cj {
    let mut c = CronJob {
        api_version: "batch/v1".into(),
        meta: ObjectMeta {
            name: "cj".into(),
            namespace: "default".into(),
            uid: CJ_UID.into(),
            creation_timestamp: Some(t("2023-01-01T00:00:00Z")),
            ..Default::default()
        },
        ..Default::default()
    };
    c.spec.schedule = Some(schedule.into());
    Cj(c)
}

impl Cj {
    pub fn name(mut self, n: &str) -> Self {
        self.0.meta.name = n.into();
        self
    }
    pub fn created(mut self, ts: &str) -> Self {
        self.0.meta.creation_timestamp = Some(t(ts));
        self
    }
    pub fn lst(mut self, ts: &str) -> Self {
        self.0.status.last_schedule_time = Some(t(ts));
        self
    }
    pub fn sds(mut self, s: i64) -> Self {
        self.0.spec.starting_deadline_seconds = Some(s);
        self
    }
    pub fn tz(mut self, z: &str) -> Self {
        self.0.spec.time_zone = Some(z.into());
        self
    }
    pub fn suspend(mut self) -> Self {
        self.0.spec.suspend = true;
        self
    }
    pub fn deleting(mut self) -> Self {
        self.0.meta.deletion_timestamp = Some(t("2020-01-01T00:00:00Z"));
        self
    }
    pub fn forbid(mut self) -> Self {
        self.0.spec.concurrency_policy = ConcurrencyPolicy::Forbid;
        self
    }
    pub fn replace(mut self) -> Self {
        self.0.spec.concurrency_policy = ConcurrencyPolicy::Replace;
        self
    }
    pub fn active(mut self, name: &str, uid: &str) -> Self {
        self.0.status.active.push(ObjectReference {
            name: name.into(),
            namespace: "default".into(),
            uid: uid.into(),
        });
        self
    }
    pub fn history(mut self, successful: i64, failed: i64) -> Self {
        self.0.spec.successful_jobs_history_limit = Some(successful);
        self.0.spec.failed_jobs_history_limit = Some(failed);
        self
    }
    pub fn build(self) -> CronJob {
        self.0
    }
}

pub struct Jb(pub Job);

/// A Job owned (controller ref) by the default `cj`, unfinished.
pub fn job(name: &str, uid: &str) -> Jb {
    Jb(Job {
        meta: ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            uid: uid.into(),
            owner_references: vec![OwnerReference {
                api_version: "batch/v1".into(),
                kind: "CronJob".into(),
                name: "cj".into(),
                uid: CJ_UID.into(),
                controller: true,
            }],
            ..Default::default()
        },
        ..Default::default()
    })
}

impl Jb {
    fn cond(mut self, type_: &str) -> Self {
        self.0.status.conditions.push(Condition {
            type_: type_.into(),
            status: "True".into(),
            reason: String::new(),
            message: String::new(),
            last_transition_time: None,
        });
        self
    }
    pub fn complete(mut self, at: &str) -> Self {
        self.0.status.completion_time = Some(t(at));
        self.cond("Complete")
    }
    pub fn failed(self) -> Self {
        self.cond("Failed")
    }
    pub fn started(mut self, at: &str) -> Self {
        self.0.status.start_time = Some(t(at));
        self
    }
    /// `kubectl create job --from=cronjob/cj`: owner without `controller: true`.
    pub fn manual(mut self) -> Self {
        self.0.meta.owner_references[0].controller = false;
        self.0
            .meta
            .annotations
            .insert("cronjob.kubernetes.io/instantiate".into(), "manual".into());
        self
    }
    pub fn owner_kind(mut self, kind: &str) -> Self {
        self.0.meta.owner_references[0].kind = kind.into();
        self
    }
    pub fn owner_uid(mut self, uid: &str) -> Self {
        self.0.meta.owner_references[0].uid = uid.into();
        self
    }
    pub fn build(self) -> Job {
        self.0
    }
}

/// Replay with the controller in UTC.
pub fn run(cj: &CronJob, jobs: Option<&[Job]>, now: &str, version: &str) -> Replay {
    run_in(cj, jobs, now, version, &TimeZone::UTC)
}

pub fn run_in(
    cj: &CronJob,
    jobs: Option<&[Job]>,
    now: &str,
    version: &str,
    zone: &TimeZone,
) -> Replay {
    let version: KubeVersion = version.parse().unwrap();
    replay(&ReplayInput {
        cron_job: cj,
        jobs,
        now: t(now),
        controller_zone: zone,
        version,
    })
}

/// Events as `Type/Reason: message` strings.
pub fn ev(r: &Replay) -> Vec<String> {
    r.events
        .iter()
        .map(|e| format!("{}/{}: {}", e.type_, e.reason, e.message))
        .collect()
}

/// Event reasons only.
pub fn reasons(r: &Replay) -> Vec<&str> {
    r.events.iter().map(|e| e.reason.as_str()).collect()
}

pub const MIN: i64 = 60_000;
pub const HOUR: i64 = 60 * MIN;
