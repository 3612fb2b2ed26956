//! What a schedule means to a person: a description in words, hints for rejected schedules,
//! the DST days where a run is swallowed or doubled, and the cadence (typical interval).
//! All of it is derived from the robfig-exact engine, never from a second cron model.

pub mod cadence;
pub mod describe;
pub mod dst;
pub mod hint;

/// The values a schedule field's bit set selects in `lo..=hi`.
pub fn values(bits: u64, lo: u32, hi: u32) -> Vec<u32> {
    (lo..=hi).filter(|v| bits & (1u64 << v) != 0).collect()
}

/// `formatSchedule`: the string the controller hands to robfig. A schedule containing "TZ"
/// anywhere is used as written (spec.timeZone ignored); else a set timeZone becomes a
/// `TZ=<zone> ` prefix.
pub fn format_schedule(schedule: &str, time_zone: Option<&str>) -> String {
    match time_zone {
        Some(tz) if !schedule.contains("TZ") => format!("TZ={tz} {schedule}"),
        _ => schedule.to_string(),
    }
}
