//! Rules that read the controller replay, the status and the evidence (Jobs, Pods, Events):
//! what is happening to this CronJob now, and why.

use super::Rule;

/// This group's rules; the registry merges and orders all groups by id.
pub static RULES: &[&Rule] = &[];
