//! The few pieces of Go's `unicode`, `strings` and `strconv` packages whose exact
//! behaviour leaks into robfig's results and error texts.
//!
//! robfig splits fields with `strings.Fields`, trims with `strings.TrimSpace`, matches
//! month/day names after `strings.ToLower`, parses numbers with `strconv.Atoi` and
//! prints Atoi's error, which quotes the input with `strconv.Quote`. Each of those has
//! Unicode-dependent corners (a non-breaking space separates fields, a Kelvin sign
//! lower-cases to `k`, a zero-width space is quoted as `\u200b`), so they are restated
//! here rather than approximated with Rust's own string functions.

use crate::go_print_table::GO_PRINTABLE;

/// Go's `unicode.IsSpace`: the Unicode `White_Space` property.
///
/// Spelled out instead of using `char::is_whitespace` so that the set cannot drift with
/// the Rust toolchain's Unicode version; Go's set has been stable for years.
pub(crate) fn is_go_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{0B}'
            | '\u{0C}'
            | '\r'
            | ' '
            | '\u{85}'
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Go's `strings.Fields`: the non-empty runs between Unicode white space.
pub(crate) fn go_fields(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_go_space).filter(|f| !f.is_empty())
}

/// Go's `strings.TrimSpace`.
pub(crate) fn go_trim_space(s: &str) -> &str {
    s.trim_matches(is_go_space)
}

/// Whether Go's `strings.ToLower(token)` equals `name` (an ASCII lower-case name).
///
/// Go lower-cases rune by rune with the simple case mapping, under which exactly two
/// non-ASCII runes become ASCII: U+0130 (İ → i) and U+212A (Kelvin sign → k). Every other
/// non-ASCII rune stays non-ASCII and so can never equal an ASCII name.
pub(crate) fn go_lower_equals(token: &str, name: &str) -> bool {
    let mut want = name.bytes();
    for c in token.chars() {
        let lowered = match c {
            'A'..='Z' => c.to_ascii_lowercase(),
            '\u{130}' => 'i',
            '\u{212A}' => 'k',
            c if c.is_ascii() => c,
            _ => return false,
        };
        if want.next() != Some(lowered as u8) {
            return false;
        }
    }
    want.next().is_none()
}

/// Go's `strconv.IsPrint`.
pub(crate) fn is_go_print(c: char) -> bool {
    let r = u32::from(c);
    // Latin-1 fast path, as Go has it: everything visible except the soft hyphen.
    if r <= 0xFF {
        return (0x20..=0x7E).contains(&r) || ((0xA1..=0xFF).contains(&r) && r != 0xAD);
    }
    GO_PRINTABLE
        .binary_search_by(|&(lo, hi)| {
            if hi < r {
                core::cmp::Ordering::Less
            } else if lo > r {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// Go's `strconv.Quote` for valid UTF-8 (all a Rust `&str` can hold).
pub fn strconv_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if is_go_print(c) => out.push(c),
            '\u{07}' => out.push_str("\\a"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0C}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0B}' => out.push_str("\\v"),
            c => {
                let r = u32::from(c);
                let (prefix, digits) = if r < 0x20 || r == 0x7F {
                    ("\\x", 2)
                } else if r < 0x10000 {
                    ("\\u", 4)
                } else {
                    ("\\U", 8)
                };
                out.push_str(prefix);
                for shift in (0..digits).rev() {
                    out.push(LOWER_HEX[((r >> (shift * 4)) & 0xF) as usize] as char);
                }
            }
        }
    }
    out.push('"');
    out
}

/// The `time` package's private `quote` (used in `ParseDuration` errors): unlike
/// `strconv.Quote`, every byte of a non-ASCII or control rune becomes `\xNN`.
pub(crate) fn time_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if !c.is_ascii() || c < ' ' {
            let mut buf = [0u8; 4];
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                out.push_str("\\x");
                out.push(LOWER_HEX[usize::from(b >> 4)] as char);
                out.push(LOWER_HEX[usize::from(b & 0xF)] as char);
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// Why Go's `strconv.Atoi` rejected its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtoiError {
    Syntax,
    Range,
}

impl AtoiError {
    fn text(self) -> &'static str {
        match self {
            AtoiError::Syntax => "invalid syntax",
            AtoiError::Range => "value out of range",
        }
    }
}

/// Go's `strconv.Atoi` on a 64-bit platform: one optional sign, then ASCII decimal digits
/// only. Scanning stops at the first problem, so an overflow that happens before a bad
/// character reports "out of range", and a bad character seen first reports "syntax".
pub(crate) fn go_atoi(s: &str) -> Result<i64, AtoiError> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return Err(AtoiError::Syntax);
    }
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return Err(AtoiError::Syntax);
        }
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
            .ok_or(AtoiError::Range)?;
    }
    const LIMIT: u64 = 1 << 63;
    match (negative, n) {
        (false, n) if n >= LIMIT => Err(AtoiError::Range),
        (true, n) if n > LIMIT => Err(AtoiError::Range),
        (true, n) => Ok((n as i64).wrapping_neg()),
        (false, n) => Ok(n as i64),
    }
}

/// The text of Atoi's `*NumError`: `strconv.Atoi: parsing "<s>": <reason>`.
pub(crate) fn atoi_error_text(s: &str, err: AtoiError) -> String {
    format!("strconv.Atoi: parsing {}: {}", strconv_quote(s), err.text())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_split_on_unicode_space_only() {
        let v: Vec<&str> = go_fields("\u{A0}a\u{3000}b\t\u{200B}c ").collect();
        // U+200B (zero-width space) is not White_Space, so it stays inside a field.
        assert_eq!(v, ["a", "b", "\u{200B}c"]);
        assert_eq!(go_trim_space("\u{85} x \u{2029}"), "x");
    }

    #[test]
    fn lower_case_names_follow_go_simple_mapping() {
        assert!(go_lower_equals("FRI", "fri"));
        assert!(go_lower_equals("FR\u{130}", "fri"));
        assert!(!go_lower_equals("fr\u{131}", "fri"));
        assert!(!go_lower_equals("fr", "fri"));
        assert!(!go_lower_equals("fria", "fri"));
    }

    #[test]
    fn strconv_quote_escapes_like_go() {
        assert_eq!(strconv_quote("a\"b\\"), r#""a\"b\\""#);
        assert_eq!(
            strconv_quote("\u{7}\u{8}\u{c}\n\r\t\u{b}"),
            r#""\a\b\f\n\r\t\v""#
        );
        assert_eq!(strconv_quote("\u{1}\u{7f}"), r#""\x01\x7f""#);
        assert_eq!(strconv_quote("é5"), "\"é5\"");
        assert_eq!(
            strconv_quote("\u{AD}\u{200B}\u{FEFF}"),
            r#""\u00ad\u200b\ufeff""#
        );
        assert_eq!(strconv_quote("\u{E0001}"), r#""\U000e0001""#);
        assert_eq!(strconv_quote("\u{10FFFF}"), r#""\U0010ffff""#);
    }

    #[test]
    fn time_quote_hex_escapes_every_byte() {
        assert_eq!(time_quote("1µs\t"), r#""1\xc2\xb5s\x09""#);
        assert_eq!(time_quote("a\"\\"), r#""a\"\\""#);
    }

    #[test]
    fn atoi_matches_go() {
        assert_eq!(go_atoi("+5"), Ok(5));
        assert_eq!(go_atoi("-0"), Ok(0));
        assert_eq!(go_atoi("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(go_atoi("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(go_atoi("9223372036854775808"), Err(AtoiError::Range));
        assert_eq!(go_atoi("99999999999999999999x"), Err(AtoiError::Range));
        assert_eq!(go_atoi("9999999999999999999x"), Err(AtoiError::Syntax));
        for bad in ["", "+", "-", "1_000", "0x10", " 1", "١"] {
            assert_eq!(go_atoi(bad), Err(AtoiError::Syntax), "{bad:?}");
        }
        assert_eq!(
            atoi_error_text("a", AtoiError::Syntax),
            r#"strconv.Atoi: parsing "a": invalid syntax"#
        );
    }
}
