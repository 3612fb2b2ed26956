//! Rules that read the manifest alone (schedule, time zone, job template, names): they work
//! the same on a file in CI and on a live object.

use super::Rule;

mod common;
pub(crate) use common::is_live;
mod cron_items;
mod dst_shared;
mod step_traps;
pub mod verdict;

mod concurrency_policy_invalid;
mod deprecated_api_version;
mod dom_dow_or;
mod dst_gap;
mod dst_repeat;
mod every_schedule;
mod field_out_of_range;
mod history_limit_zero;
mod invalid_schedule;
mod name_too_long;
mod never_fires;
mod no_time_zone;
mod pod_template_missing;
mod restart_policy_invalid;
mod schedule_missing;
mod suspicious_schedule;
mod tz_in_schedule;
mod unknown_time_zone;
mod wrong_field_type;

/// This group's rules; the registry merges and orders all groups by id.
pub static RULES: &[&Rule] = &[
    &schedule_missing::RULE,
    &invalid_schedule::RULE,
    &unknown_time_zone::RULE,
    &never_fires::RULE,
    &restart_policy_invalid::RULE,
    &pod_template_missing::RULE,
    &concurrency_policy_invalid::RULE,
    &name_too_long::RULE,
    &deprecated_api_version::RULE,
    &tz_in_schedule::RULE,
    &dst_gap::RULE,
    &dst_repeat::RULE,
    &suspicious_schedule::RULE,
    &dom_dow_or::RULE,
    &every_schedule::RULE,
    &no_time_zone::RULE,
    &history_limit_zero::RULE,
    &field_out_of_range::RULE,
    &wrong_field_type::RULE,
];
