//! Rules that read the controller replay, the status and the evidence (Jobs, Pods, Events):
//! what is happening to this CronJob now, and why.

use super::Rule;

pub(super) mod common;
mod event_reasons;
mod scenario;

mod active_deadline_missing;
mod active_deadline_too_large;
mod backoff_limit_too_large;
mod clock_skew;
mod controller_warnings;
mod deadline_missed;
mod job_template_suspended;
mod jobs_failing;
pub mod late_start;
mod manual_jobs_ignored;
mod missed_slot_skipped;
pub mod not_running;
mod only_latest_missed_runs;
mod overlapping_runs;
pub mod ran_more_than_once;
pub mod run_not_started;
mod starting_deadline_too_small;
mod too_many_missed;

/// This group's rules; the registry merges and orders all groups by id.
pub static RULES: &[&Rule] = &[
    &starting_deadline_too_small::RULE,
    &too_many_missed::RULE,
    &missed_slot_skipped::RULE,
    &deadline_missed::RULE,
    &only_latest_missed_runs::RULE,
    &job_template_suspended::RULE,
    &clock_skew::RULE,
    &jobs_failing::RULE,
    &active_deadline_missing::RULE,
    &active_deadline_too_large::RULE,
    &backoff_limit_too_large::RULE,
    &overlapping_runs::RULE,
    &manual_jobs_ignored::RULE,
    &controller_warnings::RULE,
    &not_running::RULE,
    &run_not_started::RULE,
    &late_start::RULE,
    &ran_more_than_once::RULE,
];
