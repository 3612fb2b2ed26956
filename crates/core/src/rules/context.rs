//! What a rule may look at: one CronJob, its evidence, and the replay of the controller.
//! Built once per CronJob by the report builder; rules only read it.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use schedule::{ParseError, Schedule};

use crate::model::{CronJob, Event, Evidence, Job, Pod};
use crate::replay::{ControllerVariant, Replay};

pub struct Context<'a> {
    pub cron_job: &'a CronJob,
    /// The namespace to put in commands (`default` when the manifest has none).
    pub namespace: &'a str,
    pub now: Timestamp,
    /// Name of the controller's local zone (`--controller-time-zone`).
    pub controller_zone_name: &'a str,
    pub controller_zone: &'a TimeZone,
    pub variant: ControllerVariant,
    /// The string the controller hands to robfig after `formatSchedule` (None: no schedule).
    pub effective_schedule: Option<&'a str>,
    /// robfig's verdict on [`Context::effective_schedule`].
    pub schedule: Option<&'a Result<Schedule, ParseError>>,
    pub replay: &'a Replay,
    /// Jobs the controller counts as this CronJob's (controller ownerRef with its name).
    pub jobs: &'a [&'a Job],
    /// Jobs made by `kubectl create job --from=cronjob/…` (invisible to the controller).
    pub manual_jobs: &'a [&'a Job],
    /// Pods of [`Context::jobs`] and [`Context::manual_jobs`].
    pub pods: &'a [&'a Pod],
    /// Events about the CronJob, its Jobs and their Pods.
    pub events: &'a [&'a Event],
    pub evidence: Evidence,
    /// The runs' stories, newest first, read once for every rule that asks
    /// (`runtime::common::stories`): three rules read them, each would read them again.
    pub(crate) runs: std::cell::OnceCell<Vec<(&'a Job, crate::runs::RunStory)>>,
}

impl<'a> Context<'a> {
    /// The parsed schedule when robfig accepts it.
    pub fn parsed(&self) -> Option<&'a Schedule> {
        match self.schedule {
            Some(Ok(s)) => Some(s),
            _ => None,
        }
    }

    /// The zone the schedule is evaluated in: its TZ prefix / spec.timeZone, else the
    /// controller's zone.
    pub fn schedule_zone(&self) -> &'a TimeZone {
        match self.parsed().map(|s| &s.zone) {
            Some(schedule::ScheduleZone::Fixed(loc)) => &loc.tz,
            _ => self.controller_zone,
        }
    }

    /// Human name of [`Context::schedule_zone`].
    pub fn schedule_zone_name(&self) -> &'a str {
        match self.parsed().map(|s| &s.zone) {
            Some(schedule::ScheduleZone::Fixed(loc)) => &loc.name,
            _ => self.controller_zone_name,
        }
    }

    pub fn name(&self) -> &'a str {
        &self.cron_job.meta.name
    }

    /// Jobs (owned or manual) whose Pods are in the snapshot.
    pub fn pods_of<'s>(&'s self, job: &'s str) -> impl Iterator<Item = &'a Pod> + 's {
        self.pods
            .iter()
            .copied()
            .filter(move |p| p.job_name() == Some(job))
    }

    /// The owned Job with this name, if present in the snapshot.
    pub fn job(&self, name: &str) -> Option<&'a Job> {
        self.jobs.iter().copied().find(|j| j.meta.name == name)
    }

    /// A timestamp as a person reads it: in the schedule's zone, with the zone abbreviation.
    pub fn show_time(&self, t: Timestamp) -> String {
        crate::text::show_time(t, self.schedule_zone())
    }
}
