//! A schedule in words: "At 02:30, every day", "Every 15 minutes, on Monday through Friday",
//! and, when both day fields are restricted, the OR rule that surprises people.

use schedule::{STAR_BIT, ScheduleKind, SpecSchedule};

use super::values;
use crate::text::{DAYS, MONTHS, and_list};

fn is_full(bits: u64, lo: u32, hi: u32) -> bool {
    (lo..=hi).all(|v| bits & (1u64 << v) != 0)
}

/// Group consecutive values into runs: [1,2,3,5] → [(1,3),(5,5)].
fn runs(vals: &[u32]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &v in vals {
        match out.last_mut() {
            Some((_, end)) if *end + 1 == v => *end = v,
            _ => out.push((v, v)),
        }
    }
    out
}

/// Values as a readable list with ranges: "Monday through Friday", "1, 15 and 20 through 25".
fn list(vals: &[u32], name: impl Fn(u32) -> String) -> String {
    let parts: Vec<String> = runs(vals)
        .into_iter()
        .map(|(a, b)| match b - a {
            0 => name(a),
            1 => format!("{} and {}", name(a), name(b)),
            _ => format!("{} through {}", name(a), name(b)),
        })
        .collect();
    and_list(&parts)
}

/// An arithmetic progression `start, start+step, …` up to the field maximum.
fn step_of(vals: &[u32], hi: u32) -> Option<(u32, u32)> {
    if vals.len() < 2 {
        return None;
    }
    let step = vals[1] - vals[0];
    let regular = vals.windows(2).all(|w| w[1] - w[0] == step);
    let reaches_end = vals[vals.len() - 1] + step > hi;
    (regular && reaches_end && step > 1).then_some((vals[0], step))
}

fn time_part(s: &SpecSchedule) -> String {
    let minutes = values(s.minute, 0, 59);
    let hours = values(s.hour, 0, 23);
    let all_minutes = minutes.len() == 60;
    let all_hours = hours.len() == 24;
    if minutes.is_empty() || hours.is_empty() {
        return "Never (an empty minute or hour list)".to_string();
    }
    if all_minutes && all_hours {
        return "Every minute".to_string();
    }
    if all_minutes {
        return format!(
            "Every minute during hour{} {}",
            if hours.len() > 1 { "s" } else { "" },
            list(&hours, |h| format!("{h:02}:00–{h:02}:59"))
        );
    }
    let minute_words = match step_of(&minutes, 59) {
        Some((0, step)) => format!("Every {step} minutes"),
        Some((start, step)) => format!("Every {step} minutes from minute {start}"),
        None if minutes.len() == 1 => String::new(),
        None => format!("At minutes {}", list(&minutes, |m| m.to_string())),
    };
    if all_hours {
        return if minutes.len() == 1 {
            if minutes[0] == 0 {
                "Every hour, on the hour".to_string()
            } else {
                format!("At minute {} of every hour", minutes[0])
            }
        } else {
            minute_words
        };
    }
    if minutes.len() * hours.len() <= 6 {
        let times: Vec<String> = hours
            .iter()
            .flat_map(|h| minutes.iter().map(move |m| format!("{h:02}:{m:02}")))
            .collect();
        return format!("At {}", and_list(&times));
    }
    let hour_words = match step_of(&hours, 23) {
        Some((start, step)) => format!("every {step} hours from {start:02}:00"),
        None => format!("hours {}", list(&hours, |h| format!("{h:02}"))),
    };
    if minutes.len() == 1 {
        format!("At minute {} past {hour_words}", minutes[0])
    } else {
        format!("{minute_words}, during {hour_words}")
    }
}

fn dom_words(vals: &[u32]) -> String {
    if vals.len() == 1 {
        format!("on day {} of the month", vals[0])
    } else {
        format!("on days {} of the month", list(vals, |d| d.to_string()))
    }
}

fn dow_words(vals: &[u32]) -> String {
    format!("on {}", list(vals, |d| DAYS[d as usize].to_string()))
}

fn day_part(s: &SpecSchedule) -> String {
    let dom = values(s.dom, 1, 31);
    let dow = values(s.dow, 0, 6);
    let dom_star = s.dom & STAR_BIT != 0;
    let dow_star = s.dow & STAR_BIT != 0;
    if dom_star || dow_star {
        // AND: the starred field is all days, so only the other one restricts.
        match (dom_star, dow_star) {
            (true, true) => "every day".to_string(),
            (true, false) => dow_words(&dow),
            _ => dom_words(&dom),
        }
    } else if is_full(s.dom, 1, 31) || is_full(s.dow, 0, 6) {
        "every day (both day fields are restricted, so Kubernetes runs when either matches, and one of them matches every day)".to_string()
    } else if dom.is_empty() && dow.is_empty() {
        "on no day".to_string()
    } else {
        format!(
            "{}, OR {} (both day fields are restricted, so Kubernetes runs on either)",
            dom_words(&dom),
            dow_words(&dow).replacen("on ", "on every ", 1)
        )
    }
}

fn month_part(s: &SpecSchedule) -> Option<String> {
    let months = values(s.month, 1, 12);
    (months.len() < 12).then(|| format!("in {}", list(&months, |m| MONTHS[m as usize].to_string())))
}

/// Describe a parsed schedule. `zone` is shown in brackets when given; `fires` false adds
/// the "never fires" verdict (the caller knows from `Next`).
pub fn describe(kind: &ScheduleKind, zone: Option<&str>, fires: bool) -> String {
    let mut text = match kind {
        ScheduleKind::Every(d) => format!(
            "Every {} of elapsed time, counted from the CronJob's creation or last scheduled run (not aligned to the clock; time zones and DST do not apply)",
            crate::text::human_duration(d.delay_seconds)
        ),
        ScheduleKind::Spec(s) => {
            let mut t = format!("{}, {}", time_part(s), day_part(s));
            if let Some(m) = month_part(s) {
                t.push_str(", ");
                t.push_str(&m);
            }
            t
        }
    };
    if let (Some(z), ScheduleKind::Spec(_)) = (zone, kind) {
        text.push_str(&format!(" ({z})"));
    }
    if !fires {
        text.push_str(" — never fires: no such time exists within robfig's 5-year search window");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(expr: &str) -> String {
        let s = schedule::parse_standard(expr).expect("valid");
        describe(&s.kind, None, true)
    }

    #[test]
    fn common_shapes() {
        assert_eq!(words("30 2 * * *"), "At 02:30, every day");
        assert_eq!(words("* * * * *"), "Every minute, every day");
        assert_eq!(words("*/15 * * * *"), "Every 15 minutes, every day");
        assert_eq!(words("0 * * * *"), "Every hour, on the hour, every day");
        assert_eq!(words("0 9 * * 1-5"), "At 09:00, on Monday through Friday");
        assert_eq!(
            words("0 0 1,15 * *"),
            "At 00:00, on days 1 and 15 of the month"
        );
        assert_eq!(
            words("0 0 1 1 *"),
            "At 00:00, on day 1 of the month, in January"
        );
        assert_eq!(
            words("30 6-16/4 * * *"),
            "At 06:30, 10:30 and 14:30, every day"
        );
    }

    #[test]
    fn dom_dow_or_rule_is_spelled_out() {
        assert_eq!(
            words("0 0 1 * MON"),
            "At 00:00, on day 1 of the month, OR on every Monday (both day fields are restricted, so Kubernetes runs on either)"
        );
        // */1 keeps the star bit, so this is AND (every 13th) …
        assert_eq!(words("0 0 13 * */1"), "At 00:00, on day 13 of the month");
        // … while */2 drops it: odd days OR Mondays.
        assert!(words("0 0 */2 * 1").contains("OR on every Monday"));
        assert!(words("0 0 1-31 * 1").starts_with("At 00:00, every day (both day fields"));
    }

    #[test]
    fn every_and_never() {
        let s = schedule::parse_standard("@every 1h30m").unwrap();
        assert!(describe(&s.kind, None, true).starts_with("Every 1h 30m of elapsed time"));
        let s = schedule::parse_standard("0 0 30 2 *").unwrap();
        assert!(describe(&s.kind, None, false).contains("never fires"));
    }
}
