//! robfig/cron v3.0.1 `ParseStandard`: the `TZ=` prefix, descriptors and the five-field
//! grammar, with robfig's checks in robfig's order and its error texts byte for byte.
//!
//! The order matters because only the first problem is reported: a range's start is
//! parsed before the hyphen count is checked, the slash count is checked only after the
//! range, bounds are checked before a zero step, and fields are parsed minute → weekday.

use crate::go_duration::parse_go_duration;
use crate::go_text::{atoi_error_text, go_atoi, go_fields, go_lower_equals, go_trim_space};
use crate::{
    ConstantDelay, ParseError, STAR_BIT, Schedule, ScheduleKind, ScheduleZone, SpecSchedule,
    load_location,
};

/// One field's bounds and, for month and weekday, its three-letter names.
struct Bounds {
    min: u64,
    max: u64,
    names: &'static [&'static str],
}

const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DOM: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
/// The month names robfig reads (after `strings.ToLower`); index + 1 is the value.
pub const MONTH_NAMES: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
/// The weekday names robfig reads (after `strings.ToLower`); the index is the value
/// (Sunday = 0).
pub const DAY_NAMES: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &MONTH_NAMES,
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &DAY_NAMES,
};

fn fail(message: String) -> ParseError {
    ParseError {
        message,
        panics: false,
    }
}

/// Every value of the bounds plus the star bit (robfig's `all`).
fn all(b: &Bounds) -> u64 {
    bits(b.min, b.max, 1) | STAR_BIT
}

/// Values `start, start+step, … ≤ end` as bits. Callers guarantee `end ≤ 59`, `step ≥ 1`.
fn bits(start: u64, end: u64, step: u64) -> u64 {
    let mut out = 0u64;
    let mut i = start;
    while i <= end {
        out |= 1 << i;
        // A huge step simply ends the loop; checked so it cannot wrap.
        match i.checked_add(step) {
            Some(next) => i = next,
            None => break,
        }
    }
    out
}

/// robfig's `mustParseInt`: Go `Atoi`, then a non-negativity check.
fn non_negative_int(text: &str) -> Result<u64, ParseError> {
    match go_atoi(text) {
        Err(e) => Err(fail(format!(
            "failed to parse int from {text}: {}",
            atoi_error_text(text, e)
        ))),
        Ok(n) if n < 0 => Err(fail(format!("negative number ({n}) not allowed: {text}"))),
        Ok(n) => Ok(n as u64),
    }
}

/// robfig's `parseIntOrName`: a (Go-lower-cased) name of this field, else an integer.
fn int_or_name(text: &str, b: &Bounds) -> Result<u64, ParseError> {
    if let Some(i) = b.names.iter().position(|name| go_lower_equals(text, name)) {
        // Months are numbered from 1, weekdays from 0: the minimum is the first name's value.
        return Ok(b.min + i as u64);
    }
    non_negative_int(text)
}

/// robfig's `getRange` for one comma-separated item.
fn range_bits(expr: &str, b: &Bounds) -> Result<u64, ParseError> {
    let mut slash_parts = expr.split('/');
    let range_part = slash_parts.next().unwrap_or("");
    let step_part = slash_parts.next();
    let too_many_slashes = slash_parts.next().is_some();

    let mut ends = range_part.split('-');
    let low = ends.next().unwrap_or("");
    let high = ends.next();
    let too_many_hyphens = ends.next().is_some();
    let single = high.is_none();

    let (start, mut end, mut star) = if low == "*" || low == "?" {
        // Whatever follows "*-" is never looked at: "*-5" and even "*-x-y" mean "*".
        (b.min, b.max, true)
    } else {
        let start = int_or_name(low, b)?;
        let end = match high {
            None => start,
            Some(_) if too_many_hyphens => {
                return Err(fail(format!("too many hyphens: {expr}")));
            }
            Some(h) => int_or_name(h, b)?,
        };
        (start, end, false)
    };

    let step = match step_part {
        None => 1,
        Some(_) if too_many_slashes => return Err(fail(format!("too many slashes: {expr}"))),
        Some(s) => {
            let step = non_negative_int(s)?;
            if single {
                end = b.max;
            }
            if step > 1 {
                star = false;
            }
            step
        }
    };

    if start < b.min {
        return Err(fail(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            b.min
        )));
    }
    if end > b.max {
        return Err(fail(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            b.max
        )));
    }
    if start > end {
        return Err(fail(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        )));
    }
    if step == 0 {
        return Err(fail(format!(
            "step of range should be a positive number: {expr}"
        )));
    }
    Ok(bits(start, end, step) | if star { STAR_BIT } else { 0 })
}

/// robfig's `getField`: the OR of the comma-separated items; empty items are skipped.
fn field_bits(field: &str, b: &Bounds) -> Result<u64, ParseError> {
    let mut out = 0u64;
    for item in field.split(',').filter(|i| !i.is_empty()) {
        out |= range_bits(item, b)?;
    }
    Ok(out)
}

/// The fixed bits robfig uses for `@yearly` … `@hourly`.
fn descriptor(name: &str) -> Option<SpecSchedule> {
    let one = |b: &Bounds| 1u64 << b.min;
    let base = SpecSchedule {
        second: 1,
        minute: one(&MINUTES),
        hour: one(&HOURS),
        dom: all(&DOM),
        month: all(&MONTHS),
        dow: all(&DOW),
    };
    Some(match name {
        "@yearly" | "@annually" => SpecSchedule {
            dom: one(&DOM),
            month: one(&MONTHS),
            ..base
        },
        "@monthly" => SpecSchedule {
            dom: one(&DOM),
            ..base
        },
        "@weekly" => SpecSchedule {
            dow: one(&DOW),
            ..base
        },
        "@daily" | "@midnight" => base,
        "@hourly" => SpecSchedule {
            hour: all(&HOURS),
            ..base
        },
        _ => return None,
    })
}

/// robfig's `Every`: under a second becomes a second; the sub-second part is dropped.
fn every(nanos: i64) -> ConstantDelay {
    const NANOS_PER_SECOND: i64 = 1_000_000_000;
    let nanos = nanos.max(NANOS_PER_SECOND);
    ConstantDelay {
        delay_seconds: nanos / NANOS_PER_SECOND,
    }
}

fn parse_descriptor(spec: &str, zone: ScheduleZone) -> Result<Schedule, ParseError> {
    if let Some(s) = descriptor(spec) {
        return Ok(Schedule {
            kind: ScheduleKind::Spec(s),
            zone,
        });
    }
    if let Some(text) = spec.strip_prefix("@every ") {
        let nanos = parse_go_duration(text)
            .map_err(|e| fail(format!("failed to parse duration {spec}: {e}")))?;
        // robfig's ConstantDelaySchedule ignores the location; keep it for reporting only.
        return Ok(Schedule {
            kind: ScheduleKind::Every(every(nanos)),
            zone,
        });
    }
    Err(fail(format!("unrecognized descriptor: {spec}")))
}

/// Parse exactly as robfig/cron v3.0.1 `ParseStandard`.
pub(crate) fn parse_standard(spec: &str) -> Result<Schedule, ParseError> {
    if spec.is_empty() {
        return Err(fail("empty spec string".to_owned()));
    }
    let mut spec = spec;
    let mut zone = ScheduleZone::Local;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        // robfig slices spec[eq+1 : index of the first ASCII space]; with no space that
        // index is -1 and Go panics. The prefix itself contains no space, so the space,
        // when present, always lies after the '='.
        let Some(space) = spec.find(' ') else {
            return Err(ParseError {
                message: "runtime error: slice bounds out of range [:-1]".to_owned(),
                panics: true,
            });
        };
        let eq = spec.find('=').unwrap_or(0);
        let name = &spec[eq + 1..space];
        match load_location(name) {
            Err(e) => return Err(fail(format!("provided bad location {name}: {e}"))),
            Ok(Some(loc)) => zone = ScheduleZone::Fixed(loc),
            Ok(None) => zone = ScheduleZone::Local,
        }
        spec = go_trim_space(&spec[space..]);
    }

    if spec.starts_with('@') {
        return parse_descriptor(spec, zone);
    }

    let fields: Vec<&str> = go_fields(spec).collect();
    if fields.len() != 5 {
        return Err(fail(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        )));
    }
    let s = SpecSchedule {
        second: 1,
        minute: field_bits(fields[0], &MINUTES)?,
        hour: field_bits(fields[1], &HOURS)?,
        dom: field_bits(fields[2], &DOM)?,
        month: field_bits(fields[3], &MONTHS)?,
        dow: field_bits(fields[4], &DOW)?,
    };
    Ok(Schedule {
        kind: ScheduleKind::Spec(s),
        zone,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `5`, `1,3`, `1-5/2`, `0-59+*`: the bit set expected by a `range`/`field` row.
    fn set(spec: &str) -> u64 {
        let (body, star) = spec.strip_suffix("+*").map_or((spec, 0), |b| (b, STAR_BIT));
        let mut bits = 0u64;
        for part in body.split(',') {
            let (range, step) = part
                .split_once('/')
                .map_or((part, 1), |(r, s)| (r, s.parse().unwrap()));
            let (lo, hi) = range.split_once('-').unwrap_or((range, range));
            let (lo, hi): (u64, u64) = (lo.parse().unwrap(), hi.parse().unwrap());
            bits |= (lo..=hi).step_by(step).fold(0, |acc, v| acc | 1 << v);
        }
        bits | star
    }

    /// robfig's TestRange/TestField/TestAll/TestBits rows (internal functions with ad-hoc
    /// bounds); the other rows of the file are run by tests/cases.rs.
    #[test]
    fn robfig_range_and_field_tables() {
        let table = include_str!("../tests/data/robfig_parser_cases.txt");
        let mut checked = 0;
        for line in table.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(" | ").map(str::trim).collect();
            if !matches!(f[0], "range" | "rangeerr" | "field") {
                continue;
            }
            let expr: String = serde_json::from_str(f[1]).unwrap();
            let b = Bounds {
                min: f[2].parse().unwrap(),
                max: f[3].parse().unwrap(),
                names: &[],
            };
            let got = if f[0] == "field" {
                field_bits(&expr, &b)
            } else {
                range_bits(&expr, &b)
            };
            match f[0] {
                "rangeerr" => {
                    let want: String = serde_json::from_str(f[4]).unwrap();
                    let msg = got.expect_err(line).message;
                    assert!(msg.contains(&want), "{line}: got {msg}");
                }
                _ => assert_eq!(got, Ok(set(f[4])), "{line}"),
            }
            checked += 1;
        }
        assert_eq!(checked, 33);
    }

    #[test]
    fn month_and_weekday_names() {
        assert_eq!(field_bits("JAN-mar", &MONTHS), Ok(0b1110));
        assert_eq!(field_bits("sun,SAT", &DOW), Ok(1 | 1 << 6));
        // Go's ToLower maps U+0130 to 'i', so this is Friday upstream too.
        assert_eq!(field_bits("FR\u{130}", &DOW), Ok(1 << 5));
        assert!(field_bits("january", &MONTHS).is_err());
        assert!(field_bits("jan", &DOW).is_err());
    }

    #[test]
    fn check_order_follows_robfig() {
        let msg = |e: &str, b: &Bounds| range_bits(e, b).unwrap_err().message;
        // The start is parsed before the hyphen count is looked at…
        assert_eq!(
            msg("a-b-c", &MINUTES),
            "failed to parse int from a: strconv.Atoi: parsing \"a\": invalid syntax"
        );
        // …and the range before the slash count.
        assert_eq!(
            msg("a/1/2", &MINUTES),
            "failed to parse int from a: strconv.Atoi: parsing \"a\": invalid syntax"
        );
        assert_eq!(msg("1-x-3", &MINUTES), "too many hyphens: 1-x-3");
        assert_eq!(msg("*/x/y", &MINUTES), "too many slashes: */x/y");
        // Bounds are checked before a zero step; "a/n" runs to the maximum first.
        assert_eq!(
            msg("0-70/0", &MINUTES),
            "end of range (70) above maximum (59): 0-70/0"
        );
        assert_eq!(
            msg("70/0", &MINUTES),
            "beginning of range (70) beyond end of range (59): 70/0"
        );
        assert_eq!(range_bits("*-x-y", &MINUTES), range_bits("*", &MINUTES));
    }
}
