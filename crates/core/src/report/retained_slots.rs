//! The runs a monitor remembers, merged into a timeline built from the snapshot: the runs
//! whose Job is gone (pruned by a history limit or TTL, deleted) come back into their slot,
//! marked "retained by the monitor", with what the record says of them — the outcome, the
//! Job's failure reason, the failed attempts and the Warning events — so the morning-after
//! question still has its answer once Jobs, Pods and Events are gone.
//!
//! Pure: the shell fetches the records (through the API server's service proxy) and hands them
//! over; nothing here reads a clock or does IO. The records are untrusted (another process's
//! answer): strings are cut as the monitor cuts them, at most [`retained::MAX_RUNS`] are read,
//! runs dated in the future or before the timeline's first slot are left out, and a run the
//! snapshot still shows is never replaced (the snapshot's evidence is fresher).

use jiff::Timestamp;

use super::slot::SlotAnswer;
use super::timeline::{Slot, SlotStatus};
use crate::retained::{self, RetainedRun, RunOutcome, cap};

/// The words every slot told by a monitor's record starts with.
pub const RETAINED_BY_MONITOR: &str = "retained by the monitor";

/// Merge `runs` (a monitor's records of one CronJob, any order) into `timeline` (as
/// `timeline::build` gives it, in time order) at `now`: a record of a run whose Job the
/// timeline does not show fills its slot (one without a Job) or, for a manual run or a slot
/// the timeline does not list, is added in time order. Returns how many were merged.
pub fn merge(timeline: &mut Vec<Slot>, runs: &[RetainedRun], now: Timestamp) -> usize {
    // The window the timeline covers: its first past slot up to now (none: nothing to add).
    let Some(from) = timeline
        .iter()
        .filter(|s| s.status != SlotStatus::Next)
        .map(|s| s.time)
        .min()
    else {
        return 0;
    };
    let mut merged = 0;
    for run in runs.iter().take(retained::MAX_RUNS) {
        let job = cap(&run.job, retained::MAX_NAME);
        let Some(at) = run.at().filter(|t| *t >= from && *t <= now) else {
            continue;
        };
        if job.is_empty() || timeline.iter().any(|s| s.job.as_deref() == Some(&job)) {
            continue;
        }
        let slot = slot_of(run, job, at);
        let empty = (!run.manual)
            .then(|| {
                timeline.iter_mut().find(|s| {
                    s.time == at && s.job.is_none() && s.status != SlotStatus::Next && !s.retained
                })
            })
            .flatten();
        match empty {
            Some(s) => *s = slot,
            None => timeline.push(slot),
        }
        merged += 1;
    }
    // Stable: slots at the same time keep their order (a retained manual run after the slot).
    timeline.sort_by_key(|s| s.time);
    merged
}

/// `explain NAME --slot TIME` with a monitor's records: a slot on the schedule, in the past,
/// after the CronJob's creation (`created`), whose Job the snapshot does not show, is answered
/// from the record of its run when the monitor kept one, as [`merge`] fills the timeline's
/// slot. The snapshot's answer stays when it shows the Job (its evidence is fresher) or no
/// record matches. Returns whether the record answered.
pub fn answer_slot(
    answer: &mut SlotAnswer,
    created: Option<Timestamp>,
    runs: &[RetainedRun],
    now: Timestamp,
) -> bool {
    let at = answer.slot;
    if !answer.is_slot
        || answer.job.is_some()
        || answer.status == Some(SlotStatus::Next)
        || at > now
        || created.is_some_and(|c| at <= c)
    {
        return false;
    }
    let Some(run) = runs
        .iter()
        .take(retained::MAX_RUNS)
        .find(|r| !r.manual && r.slot == Some(at))
    else {
        return false;
    };
    let job = cap(&run.job, retained::MAX_NAME);
    if job.is_empty() {
        return false;
    }
    let slot = slot_of(run, job, at);
    let when = crate::text::show_time(at, &answer.zone);
    let gone = format!("{RETAINED_BY_MONITOR}: its Job is no longer in the cluster");
    let reason = cap(&run.reason, retained::MAX_TEXT);
    answer.answer = one_line(&match run.outcome {
        RunOutcome::Succeeded => format!("the {when} run succeeded ({gone})"),
        RunOutcome::Failed if reason.is_empty() => format!("the {when} run failed ({gone})"),
        RunOutcome::Failed => format!("the {when} run failed: {reason} ({gone})"),
        RunOutcome::Running => {
            format!("the {when} run was last seen running ({gone}; how it ended is not known)")
        }
    });
    answer.ok = run.outcome == RunOutcome::Succeeded;
    answer.status = Some(slot.status);
    answer.job = slot.job;
    answer.start_delay_seconds = slot.start_delay_seconds.flatten();
    answer.attempts = slot.attempts.flatten();
    answer.details.push(slot.note);
    answer.retained = true;
    true
}

/// The timeline slot a record stands for.
fn slot_of(run: &RetainedRun, job: String, at: Timestamp) -> Slot {
    let st = &run.stages;
    let status = match run.outcome {
        RunOutcome::Succeeded => SlotStatus::Succeeded,
        RunOutcome::Failed => SlotStatus::Failed,
        // Running when the monitor last saw it, and its Job gone since: how it ended is not
        // known.
        RunOutcome::Running => SlotStatus::Unknown,
    };
    let seconds = |a: Option<Timestamp>, b: Option<Timestamp>| match (a, b) {
        (Some(a), Some(b)) if b >= a => Some(b.as_second() - a.as_second()),
        _ => None,
    };
    let start_delay = if run.manual {
        None
    } else {
        seconds(run.slot, st.started)
    };
    Slot {
        time: at,
        status,
        job: Some(job),
        duration_seconds: seconds(st.job_created, st.finished),
        note: note(run),
        manual: run.manual,
        start_delay_seconds: Some(start_delay),
        attempts: Some(run.attempts),
        retained: true,
    }
}

/// `retained by the monitor; <reason>; <n> attempts; pod P OOMKilled (exit 137): …; warning
/// BackOff: …` — the cause first, each part cut as the monitor cuts it.
fn note(run: &RetainedRun) -> String {
    let text = |s: &str| cap(s, retained::MAX_TEXT);
    let mut parts = vec![RETAINED_BY_MONITOR.to_string()];
    if run.manual {
        parts.push("manual run".into());
    }
    if run.outcome == RunOutcome::Running {
        parts.push("last seen running".into());
    }
    if !run.reason.is_empty() {
        parts.push(text(&run.reason));
    }
    if let Some(n) = run.attempts.filter(|&n| n > 1) {
        parts.push(format!("{n} attempts"));
    }
    // The newest failed attempt (the record keeps them oldest first).
    if let Some(f) = run.failed_attempts.last() {
        let mut p = format!("pod {}", cap(&f.pod, retained::MAX_NAME));
        if !f.reason.is_empty() {
            p.push(' ');
            p.push_str(&text(&f.reason));
        }
        if let Some(code) = f.exit_code {
            p.push_str(&format!(" (exit {code})"));
        }
        if !f.message.is_empty() {
            p.push_str(": ");
            p.push_str(&text(&f.message));
        }
        parts.push(p);
    }
    if let Some(w) = run.warnings.last() {
        let mut p = format!("warning {}", text(&w.reason));
        if !w.message.is_empty() {
            p.push_str(": ");
            p.push_str(&text(&w.message));
        }
        parts.push(p);
    }
    one_line(&parts.join("; "))
}

/// One line: a line break in a record's text would forge a line of its own.
fn one_line(text: &str) -> String {
    text.replace(
        [
            '\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}',
        ],
        " ",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retained::{FailedAttempt, RetainedEvent, RetainedStages};

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn slot(time: &str, status: SlotStatus, job: Option<&str>) -> Slot {
        Slot {
            time: ts(time),
            status,
            job: job.map(str::to_string),
            duration_seconds: None,
            note: "no Job found".into(),
            manual: false,
            start_delay_seconds: None,
            attempts: None,
            retained: false,
        }
    }

    fn oom_run(job: &str, slot: &str) -> RetainedRun {
        RetainedRun {
            job: job.into(),
            slot: Some(ts(slot)),
            manual: false,
            outcome: RunOutcome::Failed,
            reason: "BackoffLimitExceeded".into(),
            message: String::new(),
            stages: RetainedStages {
                job_created: Some(ts(slot)),
                started: Some(
                    ts(slot)
                        .checked_add(jiff::SignedDuration::from_secs(70))
                        .unwrap(),
                ),
                finished: Some(
                    ts(slot)
                        .checked_add(jiff::SignedDuration::from_secs(232))
                        .unwrap(),
                ),
                ..Default::default()
            },
            attempts: Some(1),
            failed_attempts: vec![FailedAttempt {
                pod: format!("{job}-k8d2x"),
                reason: "OOMKilled".into(),
                message: String::new(),
                exit_code: Some(137),
                ended: None,
                times: 1,
            }],
            warnings: vec![RetainedEvent {
                object: format!("Pod/{job}-k8d2x"),
                reason: "BackOff".into(),
                message: "Back-off restarting failed container".into(),
                count: 3,
                last_seen: None,
            }],
            retained: true,
        }
    }

    /// `explain etl --slot 02:00` the morning after: the CronJob's history limit pruned the
    /// Job, its Pods and Events are gone; the monitor's record answers.
    #[test]
    fn a_slot_whose_job_is_gone_is_answered_from_the_record() {
        use crate::report::Options;
        use crate::report::slot::{SlotQuery, answer};
        let yaml = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: etl, namespace: data, uid: u1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  schedule: "0 2 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}
status: {lastScheduleTime: "2026-11-20T02:00:00Z"}
"#;
        let (snapshot, _) = crate::source::parse_bytes("t.yaml", yaml.as_bytes()).into_snapshot();
        let zone = jiff::tz::TimeZone::UTC;
        let now = ts("2026-11-20T12:00:00Z");
        let opts = Options {
            now,
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: crate::replay::KubeVersion::NEWEST,
            timeline: 8,
            severities: crate::config::NO_OVERRIDES,
        };
        let cj = &snapshot.cron_jobs[0];
        let created = cj.meta.creation_timestamp;
        let ask = |at: &str| answer(&snapshot, cj, &opts, SlotQuery::At(ts(at)));
        let run = oom_run("etl-29919000", "2026-11-20T02:00:00Z");

        let mut a = ask("2026-11-20T02:00:00Z");
        assert!(a.job.is_none() && !a.retained, "{a:?}");
        assert!(answer_slot(
            &mut a,
            created,
            std::slice::from_ref(&run),
            now
        ));
        assert_eq!(
            a.answer,
            "the 2026-11-20 02:00 UTC run failed: BackoffLimitExceeded (retained by the monitor: its Job is no longer in the cluster)"
        );
        assert!(!a.ok && a.retained);
        assert_eq!(a.status, Some(SlotStatus::Failed));
        assert_eq!(a.job.as_deref(), Some("etl-29919000"));
        assert_eq!((a.start_delay_seconds, a.attempts), (Some(70), Some(1)));
        assert!(
            a.details
                .last()
                .unwrap()
                .contains("pod etl-29919000-k8d2x OOMKilled (exit 137)"),
            "{:?}",
            a.details
        );
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!(json["retained"], true);

        // Another slot's record, a manual run's, or a slot still to come: the snapshot's answer.
        for (at, runs) in [
            ("2026-11-19T02:00:00Z", vec![run.clone()]),
            (
                "2026-11-20T02:00:00Z",
                vec![RetainedRun {
                    manual: true,
                    ..run.clone()
                }],
            ),
            (
                "2026-11-21T02:00:00Z",
                vec![oom_run("etl-29920440", "2026-11-21T02:00:00Z")],
            ),
        ] {
            let mut a = ask(at);
            let before = a.clone();
            assert!(!answer_slot(&mut a, created, &runs, now), "{at}");
            assert_eq!(a, before);
            assert!(serde_json::to_value(&a).unwrap().get("retained").is_none());
        }
    }

    #[test]
    fn a_gone_run_fills_its_empty_slot_with_its_cause() {
        let mut t = vec![
            slot(
                "2026-11-19T02:00:00Z",
                SlotStatus::Failed,
                Some("etl-29917560"),
            ),
            slot("2026-11-20T02:00:00Z", SlotStatus::Unknown, None),
            slot("2026-11-21T02:00:00Z", SlotStatus::Next, None),
        ];
        let runs = [
            oom_run("etl-29919000", "2026-11-20T02:00:00Z"),
            // Still in the snapshot: the snapshot's slot stays.
            oom_run("etl-29917560", "2026-11-19T02:00:00Z"),
        ];
        assert_eq!(merge(&mut t, &runs, ts("2026-11-20T12:00:00Z")), 1);
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].note, "no Job found");
        let s = &t[1];
        assert_eq!(
            (s.status, s.job.as_deref(), s.retained),
            (SlotStatus::Failed, Some("etl-29919000"), true)
        );
        assert_eq!(
            s.note,
            "retained by the monitor; BackoffLimitExceeded; pod etl-29919000-k8d2x OOMKilled (exit 137); warning BackOff: Back-off restarting failed container"
        );
        assert_eq!(s.duration_seconds, Some(232));
        assert_eq!(s.start_delay_seconds, Some(Some(70)));
        assert_eq!(t[2].status, SlotStatus::Next);
    }

    #[test]
    fn runs_outside_the_window_or_in_the_future_are_left_out() {
        let mut t = vec![slot("2026-11-20T02:00:00Z", SlotStatus::Unknown, None)];
        let runs = [
            oom_run("etl-1", "2026-11-10T02:00:00Z"),
            oom_run("etl-2", "2027-01-01T02:00:00Z"),
        ];
        assert_eq!(merge(&mut t, &runs, ts("2026-11-20T12:00:00Z")), 0);
        // No timeline (--timeline 0): nothing to merge into.
        let mut empty = Vec::new();
        assert_eq!(merge(&mut empty, &runs, ts("2027-02-01T00:00:00Z")), 0);
        assert!(empty.is_empty());
    }

    #[test]
    fn a_run_without_a_listed_slot_is_added_in_time_order() {
        let mut t = vec![
            slot("2026-11-19T02:00:00Z", SlotStatus::Unknown, None),
            slot("2026-11-20T02:00:00Z", SlotStatus::Unknown, None),
        ];
        let mut manual = oom_run("etl-manual-x", "2026-11-19T09:00:00Z");
        manual.manual = true;
        manual.slot = None;
        manual.stages.job_created = Some(ts("2026-11-19T09:00:00Z"));
        assert_eq!(merge(&mut t, &[manual], ts("2026-11-20T12:00:00Z")), 1);
        assert_eq!(t.len(), 3);
        assert!(t[1].manual && t[1].retained);
        assert!(
            t[1].note
                .starts_with("retained by the monitor; manual run; ")
        );
        assert_eq!(t[1].start_delay_seconds, Some(None));
    }

    #[test]
    fn hostile_records_are_cut_and_bounded() {
        let mut t = vec![slot("2026-11-20T02:00:00Z", SlotStatus::Unknown, None)];
        let mut r = oom_run(&"j".repeat(10_000), "2026-11-20T02:00:00Z");
        r.reason = "\u{1b}[2J".repeat(10_000);
        r.failed_attempts[0].message = "é".repeat(10_000);
        r.warnings[0].message = "a\r\nforged line\u{2028}x".into();
        let many: Vec<RetainedRun> = std::iter::repeat_n(r, 1_000).collect();
        assert_eq!(merge(&mut t, &many, ts("2026-11-20T12:00:00Z")), 1);
        let s = &t[0];
        assert!(s.job.as_ref().unwrap().len() <= retained::MAX_NAME);
        assert!(
            s.note.ends_with("warning BackOff: a  forged line x"),
            "{}",
            s.note
        );
        assert!(
            s.note.len() < 4 * retained::MAX_TEXT + 2 * retained::MAX_NAME,
            "{}",
            s.note.len()
        );
    }
}
