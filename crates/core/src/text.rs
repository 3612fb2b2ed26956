//! Small formatting helpers shared by rules and renderers: durations, times, commands.

use jiff::Timestamp;
use jiff::tz::TimeZone;

/// A paste-able merge patch of one CronJob. Single quotes around the JSON work in POSIX
/// shells; the JSON never contains a single quote because we only patch numbers, booleans and
/// fixed strings.
pub fn patch_command(name: &str, namespace: &str, json: &str) -> String {
    format!("kubectl patch cronjob {name} -n {namespace} --type merge -p '{json}'")
}

/// A duration in seconds, as on-call people say it: `45s`, `4m12s`, `3h 5m`, `3d 9h`.
pub fn human_duration(seconds: i64) -> String {
    let neg = seconds < 0;
    let s = seconds.unsigned_abs();
    let (d, h, m, sec) = (s / 86_400, (s % 86_400) / 3600, (s % 3600) / 60, s % 60);
    let body = if d > 0 {
        if h > 0 {
            format!("{d}d {h}h")
        } else {
            format!("{d}d")
        }
    } else if h > 0 {
        if m > 0 {
            format!("{h}h {m}m")
        } else {
            format!("{h}h")
        }
    } else if m > 0 {
        if sec > 0 {
            format!("{m}m{sec}s")
        } else {
            format!("{m}m")
        }
    } else {
        format!("{sec}s")
    };
    if neg { format!("-{body}") } else { body }
}

/// `2026-11-17 03:00 UTC` / `2021-11-07 01:30 EDT` (seconds shown only when not zero).
pub fn show_time(t: Timestamp, tz: &TimeZone) -> String {
    let z = t.to_zoned(tz.clone());
    let abbrev = tz.to_offset_info(t).abbreviation().to_string();
    let fmt = if z.second() == 0 {
        "%Y-%m-%d %H:%M"
    } else {
        "%Y-%m-%d %H:%M:%S"
    };
    format!("{} {}", z.strftime(fmt), abbrev)
}

/// `2026-11-20T03:00:00Z`: RFC 3339 in UTC, whole seconds unless there is a fraction.
pub fn rfc3339(t: Timestamp) -> String {
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_people_say_them() {
        assert_eq!(human_duration(45), "45s");
        assert_eq!(human_duration(252), "4m12s");
        assert_eq!(human_duration(3600 * 3 + 300), "3h 5m");
        assert_eq!(human_duration(86_400 * 3 + 3600 * 9 + 59), "3d 9h");
        assert_eq!(human_duration(-120), "-2m");
    }

    #[test]
    fn times_show_zone_abbreviation() {
        let tz = TimeZone::get("America/New_York").unwrap();
        let t: Timestamp = "2021-11-07T05:30:00Z".parse().unwrap();
        assert_eq!(show_time(t, &tz), "2021-11-07 01:30 EDT");
        let t: Timestamp = "2021-11-07T06:30:00Z".parse().unwrap();
        assert_eq!(show_time(t, &tz), "2021-11-07 01:30 EST");
        assert_eq!(
            show_time("2026-11-17T03:00:00Z".parse().unwrap(), &TimeZone::UTC),
            "2026-11-17 03:00 UTC"
        );
    }

    #[test]
    fn patch_commands_are_pasteable() {
        assert_eq!(
            patch_command("backup", "ops", r#"{"spec":{"suspend":false}}"#),
            r#"kubectl patch cronjob backup -n ops --type merge -p '{"spec":{"suspend":false}}'"#
        );
    }
}
