//! Small formatting helpers shared by rules and renderers: durations, times, commands.

use jiff::Timestamp;
use jiff::tz::TimeZone;

/// One word of a command printed for the user to paste, quoted for POSIX shells when it holds
/// anything but characters no shell treats specially: names, namespaces and JSON come from
/// untrusted input, and a name like `a;touch /tmp/x` must stay one inert argument. Quoting uses
/// single quotes (nothing is special inside them), a `'` being written `'\''`.
pub fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "._/=:@%+,-".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// A command line to paste: each word through [`shell_word`], joined by spaces.
pub fn shell_command<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|w| shell_word(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A paste-able merge patch of one CronJob, every word quoted for the shell as needed.
pub fn patch_command(name: &str, namespace: &str, json: &str) -> String {
    shell_command([
        "kubectl", "patch", "cronjob", name, "-n", namespace, "--type", "merge", "-p", json,
    ])
}

/// `kubectl create job NAME-catchup --from=cronjob/NAME -n NS`: one run of the CronJob now.
pub fn catchup_command(name: &str, namespace: &str) -> String {
    shell_command([
        "kubectl",
        "create",
        "job",
        &format!("{name}-catchup"),
        &format!("--from=cronjob/{name}"),
        "-n",
        namespace,
    ])
}

/// `kubectl cronjob-doctor unsuspend NAME -n NS`: preview the catch-up run, then resume.
pub fn unsuspend_command(name: &str, namespace: &str) -> String {
    shell_command([
        "kubectl",
        "cronjob-doctor",
        "unsuspend",
        name,
        "-n",
        namespace,
    ])
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

/// An RFC 3339 time as the API server's (Go's) parser reads it. Go accepts years up to 9999
/// whole; jiff's instants end at 9999-12-30T22:00:00Z (a day short, to leave room for any
/// offset), so a time in those last hours is read as that last instant (its whole second): no diagnosis can
/// differ at that distance, and refusing a valid time would stop the whole input.
pub fn parse_time(s: &str) -> Option<Timestamp> {
    if let Ok(t) = s.parse::<Timestamp>() {
        return Some(t);
    }
    // `9999-12-31T23:59:59Z`, `9999-12-31T23:59:59.5+01:00`: a valid date and time of day
    // with a `Z` or `±hh:mm` offset, past the last instant.
    let date_time = match s.strip_suffix(['Z', 'z']) {
        Some(dt) => dt,
        None => {
            let cut = s.len().checked_sub(6)?;
            let (dt, off) = (s.get(..cut)?, s.get(cut..)?);
            let b = off.as_bytes();
            let shaped = matches!(b[0], b'+' | b'-')
                && b[3] == b':'
                && [1, 2, 4, 5].iter().all(|&i| b[i].is_ascii_digit());
            if !shaped {
                return None;
            }
            dt
        }
    };
    let dt: jiff::civil::DateTime = date_time.parse().ok()?;
    let rfc3339_shaped = date_time.len() >= 19 && matches!(date_time.as_bytes()[10], b'T' | b't');
    // The last whole second: a fraction nobody wrote would show up in the output.
    (rfc3339_shaped && dt.year() == 9999)
        .then(|| Timestamp::from_second(Timestamp::MAX.as_second()).ok())
        .flatten()
}

/// `text` as the end of a sentence: a full stop added unless it already ends with one (a
/// quoted scheduler or kubelet message often does).
pub fn sentence(text: &str) -> String {
    if text.ends_with(['.', '!', '?']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

/// "1, 8 and 15": items joined by commas, the last by "and".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The days of the week in English, `DAYS[0]` = "Sunday" (as a schedule's day-of-week field
/// counts).
pub const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The months in English, `MONTHS[1]` = "January" (a schedule's month field counts from 1).
pub const MONTHS: [&str; 13] = [
    "",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

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

/// Go's `%q` (`strconv.Quote`) for the strings that appear in event messages: the schedule
/// engine's own, which quotes robfig's errors and follows Go's `strconv.IsPrint` exactly.
pub use schedule::strconv_quote as go_quote;

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
    fn shell_words_quote_everything_a_shell_would_interpret() {
        assert_eq!(shell_word("backup-29914740"), "backup-29914740");
        assert_eq!(shell_word("--from=cronjob/a.b"), "--from=cronjob/a.b");
        assert_eq!(shell_word("a@b:c%d+e,f"), "a@b:c%d+e,f");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("a b;touch /tmp/pwn #"), "'a b;touch /tmp/pwn #'");
        assert_eq!(shell_word("ns $(id)"), "'ns $(id)'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word("~root"), "'~root'");
        assert_eq!(shell_word("*"), "'*'");
        assert_eq!(shell_word("a\nb"), "'a\nb'");
    }

    /// What a POSIX shell makes of `words`: the argument list `sh` hands to a command.
    #[cfg(unix)]
    fn shell_split(words: &str) -> Vec<String> {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "set -- {words}\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done"
            ))
            .output()
            .expect("sh runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .split_terminator('\0')
            .map(str::to_string)
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn a_shell_reads_each_quoted_word_back_as_it_was() {
        let hostile = [
            "a b;touch /tmp/pwn #",
            "ns $(id)",
            "`id`",
            "it's",
            "'",
            "''\\'",
            "a\"b",
            "$HOME",
            "*",
            "~",
            "line\nbreak",
            "tab\there",
            "",
            "plain-name",
        ];
        for w in hostile {
            assert_eq!(
                shell_split(&shell_word(w)),
                [w],
                "{w:?} -> {}",
                shell_word(w)
            );
        }
        let cmd = patch_command(
            "a b;touch /tmp/pwn #",
            "ns $(id)",
            r#"{"spec":{"schedule":"it's"}}"#,
        );
        let args = shell_split(cmd.strip_prefix("kubectl ").unwrap());
        assert_eq!(
            args,
            [
                "patch",
                "cronjob",
                "a b;touch /tmp/pwn #",
                "-n",
                "ns $(id)",
                "--type",
                "merge",
                "-p",
                r#"{"spec":{"schedule":"it's"}}"#,
            ]
        );
    }

    #[test]
    fn patch_commands_are_pasteable() {
        assert_eq!(
            patch_command("backup", "ops", r#"{"spec":{"suspend":false}}"#),
            r#"kubectl patch cronjob backup -n ops --type merge -p '{"spec":{"suspend":false}}'"#
        );
    }

    #[test]
    fn every_time_go_accepts_is_read_the_last_hours_of_9999_as_the_last_instant() {
        use super::parse_time;
        assert_eq!(
            parse_time("2026-11-20T12:00:00Z"),
            Some("2026-11-20T12:00:00Z".parse().unwrap())
        );
        for edge in [
            "9999-12-31T23:59:59Z",
            "9999-12-31T23:59:59.999999999Z",
            "9999-12-31T12:00:00+01:00",
            "9999-12-30T23:00:00-05:00",
        ] {
            assert_eq!(
                parse_time(edge),
                Some("9999-12-30T22:00:00Z".parse().unwrap()),
                "{edge}"
            );
        }
        for bad in [
            "9999-12-32T00:00:00Z",
            "9999-12-31 23:59:59Z",
            "9999-12-31T24:00:00Z",
            "9999-12-31T23:59:59",
            "9999-12-31T23:59:59+1:00",
            "tomorrow",
            "",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }
}
