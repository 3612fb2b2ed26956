//! Runs the case tables in `tests/data/`: the behaviour specification's parser and Next
//! examples, and robfig's own test tables restated for `ParseStandard` (each file's
//! header says where its rows come from and how they were converted).
//!
//! Every row is checked and all failures are reported together with file and line, so
//! one regression does not hide the others.

use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};
use schedule::{STAR_BIT, Schedule, ScheduleKind, ScheduleZone, SpecSchedule, parse_standard};

const FILES: &[(&str, &str)] = &[
    (
        "spec_parse_cases.txt",
        include_str!("data/spec_parse_cases.txt"),
    ),
    (
        "spec_next_cases.txt",
        include_str!("data/spec_next_cases.txt"),
    ),
    (
        "robfig_spec_cases.txt",
        include_str!("data/robfig_spec_cases.txt"),
    ),
    (
        "robfig_parser_cases.txt",
        include_str!("data/robfig_parser_cases.txt"),
    ),
];

/// A JSON string field (schedules and messages may hold tabs, quotes, Unicode).
fn text(field: &str) -> String {
    serde_json::from_str(field).unwrap_or_else(|e| panic!("bad JSON string {field}: {e}"))
}

/// `5`, `1,3`, `0-58/2`, `0-59+*`, `-`: the bit set robfig would build.
fn set(spec: &str) -> u64 {
    let (body, star) = match spec.strip_suffix("+*") {
        Some(b) => (b, STAR_BIT),
        None => (spec, 0),
    };
    if body == "-" {
        return star;
    }
    let mut bits = 0u64;
    for part in body.split(',') {
        let (range, step) = part
            .split_once('/')
            .map_or((part, 1), |(r, s)| (r, s.parse().unwrap()));
        let (lo, hi): (u64, u64) = match range.split_once('-') {
            Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
            None => (range.parse().unwrap(), range.parse().unwrap()),
        };
        bits |= (lo..=hi).step_by(step).fold(0, |acc, v| acc | 1 << v);
    }
    bits | star
}

fn zone(name: &str) -> TimeZone {
    if name.starts_with('+') || name.starts_with('-') {
        let (h, m) = name[1..].split_once(':').unwrap();
        let secs = h.parse::<i32>().unwrap() * 3600 + m.parse::<i32>().unwrap() * 60;
        let secs = if name.starts_with('-') { -secs } else { secs };
        return TimeZone::fixed(Offset::from_seconds(secs).unwrap());
    }
    TimeZone::get(name).unwrap()
}

fn instant(s: &str) -> Timestamp {
    s.parse().unwrap_or_else(|e| panic!("bad instant {s}: {e}"))
}

fn zone_name(z: &ScheduleZone) -> &str {
    match z {
        ScheduleZone::Local => "Local",
        ScheduleZone::Fixed(loc) => &loc.name,
    }
}

fn parsed(spec: &str) -> Result<Schedule, String> {
    parse_standard(spec).map_err(|e| format!("rejected: {e:?}"))
}

fn show(t: Option<Timestamp>) -> String {
    t.map_or("ZERO".to_owned(), |t| t.to_string())
}

/// Checks one row; `Err` describes the disagreement.
fn check(f: &[&str]) -> Result<(), String> {
    match f[0] {
        "err" | "errsub" | "panic" => {
            let spec = text(f[1]);
            let want = text(f[2]);
            let e = match parse_standard(&spec) {
                Ok(s) => return Err(format!("accepted as {s:?}")),
                Err(e) => e,
            };
            let ok = match f[0] {
                "err" => e.message == want && !e.panics,
                "errsub" => e.message.contains(&want) && !e.panics,
                _ => e.message == want && e.panics,
            };
            if ok {
                Ok(())
            } else {
                Err(format!("got {e:?}"))
            }
        }
        "fields" => {
            let s = parsed(&text(f[1]))?;
            let want = SpecSchedule {
                second: set(f[3]),
                minute: set(f[4]),
                hour: set(f[5]),
                dom: set(f[6]),
                month: set(f[7]),
                dow: set(f[8]),
            };
            match &s.kind {
                ScheduleKind::Spec(got) if *got == want && zone_name(&s.zone) == f[2] => Ok(()),
                _ => Err(format!("got {s:?}, want {want:?} in {}", f[2])),
            }
        }
        "same" => {
            let (a, b) = (parsed(&text(f[1]))?, parsed(&text(f[2]))?);
            let same_kind = match (&a.kind, &b.kind) {
                (ScheduleKind::Spec(x), ScheduleKind::Spec(y)) => x == y,
                (ScheduleKind::Every(x), ScheduleKind::Every(y)) => x == y,
                _ => false,
            };
            if same_kind && zone_name(&a.zone) == zone_name(&b.zone) {
                Ok(())
            } else {
                Err(format!("{a:?} differs from {b:?}"))
            }
        }
        "every" => match parsed(&text(f[1]))?.kind {
            ScheduleKind::Every(d) if d.delay_seconds.to_string() == f[2] => Ok(()),
            other => Err(format!("got {other:?}")),
        },
        "next" | "chain" | "act" => {
            let local = zone(f[1]);
            let s = parsed(&text(f[3]))?;
            let mut t = instant(f[2]);
            if f[0] == "act" {
                let got = s.next(t - jiff::SignedDuration::from_secs(1), &local);
                let fires = got == Some(t);
                return if fires == (f[4] == "yes") {
                    Ok(())
                } else {
                    Err(show(got))
                };
            }
            for want in f[4].split_whitespace() {
                let got = s.next(t, &local);
                let want = (want != "ZERO").then(|| instant(want));
                if got != want {
                    return Err(format!("from {t}: got {}, want {}", show(got), show(want)));
                }
                let Some(next) = got else { break };
                t = next;
            }
            Ok(())
        }
        // Internal-function rows, run by the unit tests in src/parse.rs.
        "range" | "rangeerr" | "field" => Ok(()),
        other => Err(format!("unknown row kind {other}")),
    }
}

#[test]
fn case_tables() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (file, body) in FILES {
        for (i, line) in body.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
            count += 1;
            if let Err(why) = check(&fields) {
                failures.push(format!("{file}:{}: {line}\n    {why}", i + 1));
            }
        }
    }
    assert!(count > 250, "only {count} rows found");
    assert!(
        failures.is_empty(),
        "{} of {count} rows failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
