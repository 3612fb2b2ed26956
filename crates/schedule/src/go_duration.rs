//! Go's `time.ParseDuration`, restated for `@every <duration>`.
//!
//! robfig passes everything after `"@every "` to `time.ParseDuration` and embeds its
//! error verbatim (`failed to parse duration @every x: time: invalid duration "x"`), so
//! the accepted grammar, the overflow limits, the float arithmetic of fractions and the
//! error texts all have to match Go byte for byte.

use crate::go_text::time_quote;

/// Nanoseconds per unit, keyed by the unit spellings Go accepts (both micro signs).
fn unit_nanos(unit: &str) -> Option<u64> {
    Some(match unit {
        "ns" => 1,
        "us" | "\u{B5}s" | "\u{3BC}s" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    })
}

const TWO_63: u64 = 1 << 63;

/// Consumes leading ASCII digits; `None` when the value passes 2^63 (Go's overflow rule).
fn leading_int(s: &[u8]) -> Option<(u64, usize)> {
    let mut x: u64 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        if x > TWO_63 / 10 {
            return None;
        }
        x = x * 10 + u64::from(s[i] - b'0');
        if x > TWO_63 {
            return None;
        }
        i += 1;
    }
    Some((x, i))
}

/// Consumes leading digits of a fraction; past 2^63 it keeps consuming but stops
/// accumulating precision, as Go does. Returns (value, scale, consumed).
fn leading_fraction(s: &[u8]) -> (u64, f64, usize) {
    let mut x: u64 = 0;
    let mut scale = 1.0f64;
    let mut overflow = false;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        if !overflow {
            if x > (TWO_63 - 1) / 10 {
                overflow = true;
            } else {
                let y = x * 10 + u64::from(s[i] - b'0');
                if y > TWO_63 {
                    overflow = true;
                } else {
                    x = y;
                    scale *= 10.0;
                }
            }
        }
        i += 1;
    }
    (x, scale, i)
}

/// Why Go's `time.ParseDuration` refuses a text; Display is Go's exact error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DurationError {
    Invalid { text: String },
    MissingUnit { text: String },
    UnknownUnit { unit: String, text: String },
}

impl std::fmt::Display for DurationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DurationError::Invalid { text } => {
                write!(f, "time: invalid duration {}", time_quote(text))
            }
            DurationError::MissingUnit { text } => {
                write!(f, "time: missing unit in duration {}", time_quote(text))
            }
            DurationError::UnknownUnit { unit, text } => write!(
                f,
                "time: unknown unit {} in duration {}",
                time_quote(unit),
                time_quote(text)
            ),
        }
    }
}

impl std::error::Error for DurationError {}

/// Go's `time.ParseDuration`: nanoseconds, or why not (Go's exact error text as Display).
pub(crate) fn parse_go_duration(orig: &str) -> Result<i64, DurationError> {
    let invalid = || DurationError::Invalid {
        text: orig.to_owned(),
    };
    let bytes = orig.as_bytes();
    let mut pos = 0;
    let mut negative = false;
    if let Some(&c) = bytes.first()
        && (c == b'-' || c == b'+')
    {
        negative = c == b'-';
        pos = 1;
    }
    let rest = &orig[pos..];
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: u64 = 0;
    while pos < bytes.len() {
        let c = bytes[pos];
        if !(c == b'.' || c.is_ascii_digit()) {
            return Err(invalid());
        }
        let (mut v, consumed) = leading_int(&bytes[pos..]).ok_or_else(invalid)?;
        pos += consumed;
        let pre = consumed != 0;

        let (mut frac, mut scale, mut post) = (0u64, 1.0f64, false);
        if pos < bytes.len() && bytes[pos] == b'.' {
            pos += 1;
            let (f, sc, n) = leading_fraction(&bytes[pos..]);
            (frac, scale, post) = (f, sc, n != 0);
            pos += n;
        }
        if !pre && !post {
            return Err(invalid());
        }

        // The unit runs up to the next '.' or digit; both are ASCII, so the slice always
        // falls on a character boundary.
        let unit_start = pos;
        while pos < bytes.len() && !(bytes[pos] == b'.' || bytes[pos].is_ascii_digit()) {
            pos += 1;
        }
        if pos == unit_start {
            return Err(DurationError::MissingUnit {
                text: orig.to_owned(),
            });
        }
        let unit_text = &orig[unit_start..pos];
        let Some(unit) = unit_nanos(unit_text) else {
            return Err(DurationError::UnknownUnit {
                unit: unit_text.to_owned(),
                text: orig.to_owned(),
            });
        };
        if v > TWO_63 / unit {
            return Err(invalid());
        }
        v *= unit;
        if frac > 0 {
            // Same float expression as Go, so rounding of e.g. "1.000000001h" agrees.
            let extra = (frac as f64 * (unit as f64 / scale)) as u64;
            v = v.wrapping_add(extra);
            if v > TWO_63 {
                return Err(invalid());
            }
        }
        // Go's uint64 addition wraps; 2^63 + 2^63 silently becomes 0 there, so here too.
        total = total.wrapping_add(v);
        if total > TWO_63 {
            return Err(invalid());
        }
    }
    if negative {
        // Go negates in two's complement, so exactly 2^63 becomes i64::MIN.
        return Ok((total as i64).wrapping_neg());
    }
    if total > TWO_63 - 1 {
        return Err(invalid());
    }
    Ok(total as i64)
}

#[cfg(test)]
mod tests {
    use super::parse_go_duration;

    fn p(text: &str) -> Result<i64, String> {
        parse_go_duration(text).map_err(|e| e.to_string())
    }

    const S: i64 = 1_000_000_000;

    #[test]
    fn accepts_go_grammar() {
        assert_eq!(p("1h30m"), Ok(5400 * S));
        assert_eq!(p("1.5s"), Ok(1_500_000_000));
        assert_eq!(p("-5m"), Ok(-300 * S));
        assert_eq!(p("+0"), Ok(0));
        assert_eq!(p("0"), Ok(0));
        assert_eq!(p(".5s"), Ok(500_000_000));
        assert_eq!(p("5.s"), Ok(5 * S));
        assert_eq!(p("1\u{B5}s2\u{3BC}s"), Ok(3_000));
        assert_eq!(p("2562047h47m16.854775807s"), Ok(i64::MAX));
        assert_eq!(p("-2562047h47m16.854775808s"), Ok(i64::MIN));
        // Go quirk: two maximal terms wrap its uint64 accumulator to zero.
        assert_eq!(p("9223372036854775808ns9223372036854775808ns"), Ok(0));
    }

    #[test]
    fn errors_match_go_text() {
        assert_eq!(p("x"), Err(r#"time: invalid duration "x""#.into()));
        assert_eq!(p(""), Err(r#"time: invalid duration """#.into()));
        assert_eq!(p("-"), Err(r#"time: invalid duration "-""#.into()));
        assert_eq!(p("1"), Err(r#"time: missing unit in duration "1""#.into()));
        assert_eq!(
            p("00"),
            Err(r#"time: missing unit in duration "00""#.into())
        );
        assert_eq!(
            p("1q"),
            Err(r#"time: unknown unit "q" in duration "1q""#.into())
        );
        assert_eq!(
            p("1h "),
            Err(r#"time: unknown unit "h " in duration "1h ""#.into())
        );
        assert_eq!(p(".s"), Err(r#"time: invalid duration ".s""#.into()));
        assert_eq!(
            p("2562047h47m16.854775808s"),
            Err(r#"time: invalid duration "2562047h47m16.854775808s""#.into())
        );
        assert_eq!(
            p("9999999999999999999h"),
            Err(r#"time: invalid duration "9999999999999999999h""#.into())
        );
        assert_eq!(
            p("1é"),
            Err(r#"time: unknown unit "\xc3\xa9" in duration "1\xc3\xa9""#.into())
        );
    }
}
