//! The manifest rules' verdicts for questions asked outside a manifest: `next --time-zone`
//! and `next SCHEDULE` must answer as `lint` does for `spec.timeZone` and `spec.schedule`, so
//! they call these instead of restating the rules.

use schedule::SpecSchedule;

/// Why the API server or the controller refuses `spec.timeZone: tz` (the unknown-time-zone
/// rule's checks, in upstream order); empty when the zone is fine.
pub fn time_zone_problems(tz: &str) -> Vec<String> {
    // The API server's checks end with LoadLocation, so the controller's refusal is here too.
    super::unknown_time_zone::api_errors(tz)
}

/// The bundled zone a mistyped name most likely meant (case, spaces, or a typo or two).
pub fn zone_suggestion(name: &str) -> Option<String> {
    super::common::zone_suggestion(name)
}

/// The never-fires rule's words for why a schedule has no run ("day 31 never occurs in
/// February").
pub fn never_fires_reason(spec: &SpecSchedule) -> String {
    super::never_fires::reason(spec)
}
