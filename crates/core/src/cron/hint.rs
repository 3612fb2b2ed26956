//! Plain-language hints beside robfig's exact error text. robfig's messages are precise but
//! terse ("end of range (7) above maximum (6): 7"); the hint says what the person meant and
//! what to write instead.

use schedule::ParseError;

/// Which of the five fields a robfig range error is about, from the maximum it quotes.
fn field_of_maximum(message: &str) -> Option<&'static str> {
    let max = message.split("above maximum (").nth(1)?.split(')').next()?;
    Some(match max {
        "59" => "minute",
        "23" => "hour",
        "31" => "day-of-month",
        "12" => "month",
        "6" => "day-of-week",
        _ => return None,
    })
}

/// A hint for a schedule robfig rejects, or None when the message says it all.
pub fn hint(schedule: &str, err: &ParseError) -> Option<String> {
    let m = err.message.as_str();
    let fields: Vec<&str> = schedule.split_whitespace().collect();
    if err.panics {
        return Some(
            "robfig/cron crashes on a TZ=/CRON_TZ= prefix with nothing after it (the API server answers with an internal error). Put a space and the five fields after the zone — or better, drop the prefix and set spec.timeZone.".into(),
        );
    }
    if m == "empty spec string" {
        return Some("spec.schedule is empty; write five fields such as \"0 3 * * *\".".into());
    }
    if let Some(rest) = m.strip_prefix("expected exactly 5 fields, found ") {
        let n: usize = rest
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        return Some(match n {
            6 | 7 => "Kubernetes schedules have exactly five fields (minute hour day-of-month month day-of-week): no seconds field and no year. Drop the extra field.".into(),
            1 if schedule.trim_start().starts_with('@') => "a descriptor must be the whole schedule with no space before it: write \"@daily\", not \" @daily\".".into(),
            _ => "Kubernetes schedules have exactly five fields: minute hour day-of-month month day-of-week (for example \"0 3 * * *\").".into(),
        });
    }
    if let Some(d) = m.strip_prefix("unrecognized descriptor: ") {
        let lower = d.trim().to_ascii_lowercase();
        let known = [
            "@yearly",
            "@annually",
            "@monthly",
            "@weekly",
            "@daily",
            "@midnight",
            "@hourly",
        ];
        return Some(if known.contains(&lower.as_str()) && lower != d {
            format!("descriptors are case-sensitive and take no surrounding spaces: write {lower}.")
        } else if lower == "@reboot" {
            "@reboot has no meaning for a CronJob; Kubernetes accepts @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly and @every <duration>.".into()
        } else if lower.starts_with("@every") {
            "write @every followed by one space and a Go duration, e.g. \"@every 1h30m\".".into()
        } else {
            "Kubernetes accepts only @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly and @every <duration> (there is no @never: use suspend: true).".into()
        });
    }
    if m.starts_with("failed to parse duration") {
        return Some("@every takes a Go duration: a number and a unit among ns, us, ms, s, m, h (no d), e.g. \"@every 36h\" or \"@every 1h30m\".".into());
    }
    if m.starts_with("provided bad location") {
        return Some("time-zone names are case-sensitive IANA names such as Europe/Berlin or America/New_York. Prefer spec.timeZone to a TZ= prefix (new CronJobs with TZ= in the schedule are rejected since Kubernetes 1.29).".into());
    }
    if m.contains("above maximum") {
        return Some(match field_of_maximum(m) {
            Some("day-of-week") => "day-of-week runs from 0 to 6 with 0 = Sunday; 7 is not Sunday in Kubernetes; use 0 (or SUN).".into(),
            Some("minute") => "minutes run from 0 to 59; for once an hour write \"0 * * * *\".".into(),
            Some("hour") => "hours run from 0 to 23; midnight is 0.".into(),
            Some("day-of-month") => "day-of-month runs from 1 to 31.".into(),
            Some("month") => "months run from 1 to 12 (or JAN–DEC).".into(),
            _ => return None,
        });
    }
    if m.contains("below minimum (1)") {
        return Some("day-of-month and month start at 1, not 0.".into());
    }
    if m.contains("beyond end of range") {
        return Some("ranges do not wrap around: write FRI-MON as FRI-SAT,SUN-MON (or 5-6,0-1), and 22-2 as 22-23,0-2.".into());
    }
    if m.starts_with("step of range should be a positive number") {
        return Some("a step must be at least 1: \"*/5\" means every 5th value.".into());
    }
    if m.starts_with("negative number") {
        return Some("steps cannot be negative.".into());
    }
    if m.starts_with("too many hyphens") || m.starts_with("too many slashes") {
        return Some(
            "each list item is a value, a range a-b, or either with one step /n (\"1-10/2\")."
                .into(),
        );
    }
    if let Some(rest) = m.strip_prefix("failed to parse int from ") {
        let token = rest.split(':').next().unwrap_or("").trim();
        let quartz = ["L", "W", "#", "H", "LW"];
        if quartz.iter().any(|q| token.contains(q))
            && token.chars().any(|c| c.is_ascii_digit() || c == 'L')
        {
            return Some(
                "L, W, # and H (Quartz/Jenkins syntax) are not supported by Kubernetes schedules."
                    .into(),
            );
        }
        if token.is_empty() {
            return Some("a field starts with '-' or is missing a number: ranges are written a-b with both ends.".into());
        }
        if fields.len() == 5 && token.chars().all(|c| c.is_ascii_alphabetic()) {
            return Some("names are allowed only in the month (JAN–DEC) and day-of-week (SUN–SAT) fields, as three-letter names.".into());
        }
        return None;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint_for(s: &str) -> String {
        let err = schedule::parse_standard(s).expect_err("should be rejected");
        hint(s, &err).unwrap_or_default()
    }

    #[test]
    fn the_classic_mistakes_get_a_plain_hint() {
        assert!(hint_for("0 0 * * 7").contains("7 is not Sunday in Kubernetes; use 0"));
        assert!(hint_for("60 * * * *").contains("0 * * * *"));
        assert!(hint_for("0 0 0 * * *").contains("no seconds field"));
        assert!(hint_for("@Daily").contains("write @daily"));
        assert!(hint_for("@reboot").contains("no meaning"));
        assert!(hint_for("0 0 L * *").contains("Quartz"));
        assert!(hint_for("0 0 * * FRI-MON").contains("do not wrap"));
        assert!(hint_for("TZ=Europe/berlin 0 0 * * *").contains("case-sensitive"));
        assert!(hint_for("TZ=UTC").contains("crashes"));
    }
}
