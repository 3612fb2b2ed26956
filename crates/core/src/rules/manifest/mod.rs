//! Rules that read the manifest alone (schedule, time zone, job template, names): they work
//! the same on a file in CI and on a live object.

use super::Rule;

/// This group's rules; the registry merges and orders all groups by id.
pub static RULES: &[&Rule] = &[];
