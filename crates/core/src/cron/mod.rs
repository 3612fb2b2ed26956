//! What a schedule means to a person: a description in words, hints for rejected schedules,
//! the DST days where a run is swallowed or doubled, and the cadence (typical interval).
//! All of it is derived from the robfig-exact engine, never from a second cron model.

pub mod cadence;
pub mod describe;
pub mod dst;
pub mod hint;

/// `formatSchedule`: the string the controller hands to robfig. A schedule containing "TZ"
/// anywhere is used as written (spec.timeZone ignored); else a set timeZone becomes a
/// `TZ=<zone> ` prefix.
pub fn format_schedule(schedule: &str, time_zone: Option<&str>) -> String {
    match time_zone {
        Some(tz) if !schedule.contains("TZ") => format!("TZ={tz} {schedule}"),
        _ => schedule.to_string(),
    }
}
