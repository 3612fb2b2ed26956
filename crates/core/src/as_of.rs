//! What "now" means for input read from files. A dump has no clock of its own and is usually
//! older than the moment it is read: judged at the wall clock, a healthy CronJob in a week-old
//! dump grows a week of "missed" runs. The newest timestamp anywhere in the input is the best
//! lower bound of when it was taken; `--now dump` evaluates there, and the commands say so
//! when the input looks much older than the clock.

use jiff::Timestamp;

use crate::model::{ContainerStatus, ObjectMeta, Snapshot};

/// The newest instant recorded anywhere in the snapshot: creation and deletion times,
/// managedFields times, CronJob status times, Job start/completion and condition times, Pod
/// start and container state times, Event times. None when the input carries none (a
/// manifest from git usually has no status and no creationTimestamp).
pub fn newest_timestamp(s: &Snapshot) -> Option<Timestamp> {
    let mut all: Vec<Option<Timestamp>> = Vec::new();
    for cj in &s.cron_jobs {
        meta_times(&cj.meta, &mut all);
        all.push(cj.status.last_schedule_time);
        all.push(cj.status.last_successful_time);
    }
    for j in &s.jobs {
        meta_times(&j.meta, &mut all);
        all.push(j.status.start_time);
        all.push(j.status.completion_time);
        all.extend(j.status.conditions.iter().map(|c| c.last_transition_time));
    }
    for p in &s.pods {
        meta_times(&p.meta, &mut all);
        all.push(p.start_time);
        all.extend(p.conditions.iter().map(|c| c.last_transition_time));
        for c in p
            .init_container_statuses
            .iter()
            .chain(&p.container_statuses)
        {
            container_times(c, &mut all);
        }
    }
    for e in &s.events {
        meta_times(&e.meta, &mut all);
        all.push(e.first_timestamp);
        all.push(e.last_timestamp);
    }
    all.into_iter().flatten().max()
}

fn meta_times(m: &ObjectMeta, out: &mut Vec<Option<Timestamp>>) {
    out.push(m.creation_timestamp);
    out.push(m.deletion_timestamp);
    out.extend(m.suspend_managers.iter().map(|f| f.time));
}

fn container_times(c: &ContainerStatus, out: &mut Vec<Option<Timestamp>>) {
    out.push(c.state.at);
    out.push(c.last_state.at);
}

/// How much older than the clock the input may look before we say so. A fresh dump of a
/// CronJob that runs hourly or more often is well inside it; anything older is either a
/// CronJob that stopped (the report says so) or an old dump (the note says so).
pub const STALE_AFTER_SECONDS: i64 = 3600;

/// The one-line note for input whose newest timestamp lies well before `now`, or None.
pub fn stale_note(newest: Option<Timestamp>, now: Timestamp) -> Option<String> {
    let newest = newest?;
    let age = now.as_second() - newest.as_second();
    (age > STALE_AFTER_SECONDS).then(|| {
        format!(
            "the newest timestamp in the input is {} ({} before now): if this is an old dump, add --now dump to judge it as of then",
            crate::text::show_time(newest, &jiff::tz::TimeZone::UTC),
            crate::text::human_duration(age)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CronJob, Event, Job, Pod};

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn no_timestamps_means_no_dump_time() {
        let mut s = Snapshot::default();
        s.cron_jobs.push(CronJob::default());
        assert_eq!(newest_timestamp(&s), None);
    }

    #[test]
    fn the_newest_of_every_kind_of_object_counts() {
        let mut s = Snapshot::default();
        let mut cj = CronJob::default();
        cj.meta.creation_timestamp = Some(t("2026-01-01T00:00:00Z"));
        cj.status.last_schedule_time = Some(t("2026-11-20T06:00:00Z"));
        s.cron_jobs.push(cj);
        assert_eq!(newest_timestamp(&s), Some(t("2026-11-20T06:00:00Z")));

        let mut j = Job::default();
        j.status.completion_time = Some(t("2026-11-20T06:04:00Z"));
        s.jobs.push(j);
        assert_eq!(newest_timestamp(&s), Some(t("2026-11-20T06:04:00Z")));

        let mut p = Pod::default();
        p.container_statuses.push(ContainerStatus::default());
        p.container_statuses[0].state.at = Some(t("2026-11-20T06:05:00Z"));
        s.pods.push(p);
        assert_eq!(newest_timestamp(&s), Some(t("2026-11-20T06:05:00Z")));

        let e = Event {
            last_timestamp: Some(t("2026-11-20T07:00:00Z")),
            ..Event::default()
        };
        s.events.push(e);
        assert_eq!(newest_timestamp(&s), Some(t("2026-11-20T07:00:00Z")));
    }

    #[test]
    fn only_input_well_before_now_gets_a_note() {
        let newest = Some(t("2026-11-20T06:00:00Z"));
        assert_eq!(stale_note(newest, t("2026-11-20T06:59:00Z")), None);
        assert_eq!(stale_note(None, t("2030-01-01T00:00:00Z")), None);
        let note = stale_note(newest, t("2026-11-25T07:00:00Z")).unwrap();
        assert!(note.contains("2026-11-20 06:00 UTC"), "{note}");
        assert!(note.contains("5d 1h before now"), "{note}");
        assert!(note.contains("--now dump"), "{note}");
    }
}
