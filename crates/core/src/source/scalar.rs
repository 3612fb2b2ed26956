//! How a plain (unquoted) YAML scalar is typed, the way `kubectl` types it.
//!
//! `kubectl` turns YAML into JSON with `sigs.k8s.io/yaml`, which uses go-yaml v2 and therefore
//! YAML 1.1 rules: `yes`/`No`/`on`/`OFF`/`y` are booleans, `0755` is octal, `1_000` is an
//! integer. Following those rules (rather than YAML 1.2's) means a manifest reads here the way
//! the API server would receive it.

/// The resolved type of a plain scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Plain {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str,
}

/// YAML 1.1 booleans exactly as go-yaml v2 spells them.
pub(crate) fn yaml11_bool(s: &str) -> Option<bool> {
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Some(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Some(false)
        }
        _ => None,
    }
}

/// go-yaml v2 integers: optional sign, then decimal, `0x` hex, `0o` or leading-`0` octal, `0b`
/// binary; `_` separators allowed. Returns None if not an integer (or absurdly long).
pub(crate) fn yaml11_int(s: &str) -> Option<i128> {
    if s.is_empty() || s.len() > 200 {
        return None;
    }
    let (neg, body) = match s.as_bytes()[0] {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if body.is_empty() || body.starts_with('_') {
        return None;
    }
    let (radix, digits) = if let Some(d) = body.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = body.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = body.strip_prefix("0b") {
        (2, d)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    let mut v: i128 = 0;
    let mut any = false;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(radix)?;
        any = true;
        // Saturate far beyond i64 so that "too large" stays distinguishable from "not a number".
        v = v
            .saturating_mul(i128::from(radix))
            .saturating_add(i128::from(d));
    }
    any.then_some(if neg { -v } else { v })
}

/// YAML floats: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` and `.inf`/`.nan`.
pub(crate) fn yaml_float(s: &str) -> Option<f64> {
    match s {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let int_start = i;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let int_digits = i > int_start;
    let mut frac_digits = false;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
        frac_digits = i > f;
    }
    if !int_digits && !frac_digits {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.replace('_', "").parse().ok()
}

pub(crate) fn resolve_plain(s: &str) -> Plain {
    if matches!(s, "" | "~" | "null" | "Null" | "NULL") {
        return Plain::Null;
    }
    let Some(&first) = s.as_bytes().first() else {
        return Plain::Null;
    };
    if let Some(b) = yaml11_bool(s) {
        return Plain::Bool(b);
    }
    // Cheap pre-check: numbers start with a digit, a sign or a dot.
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return Plain::Str;
    }
    if let Some(i) = yaml11_int(s) {
        return Plain::Int(i);
    }
    if let Some(f) = yaml_float(s) {
        return Plain::Float(f);
    }
    Plain::Str
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml11_typing() {
        assert_eq!(resolve_plain("False"), Plain::Bool(false));
        assert_eq!(resolve_plain("yes"), Plain::Bool(true));
        assert_eq!(resolve_plain("ON"), Plain::Bool(true));
        assert_eq!(resolve_plain("tRUE"), Plain::Str);
        assert_eq!(resolve_plain("~"), Plain::Null);
        assert_eq!(resolve_plain(""), Plain::Null);
        assert_eq!(resolve_plain("3"), Plain::Int(3));
        assert_eq!(resolve_plain("-3"), Plain::Int(-3));
        assert_eq!(resolve_plain("0755"), Plain::Int(0o755));
        assert_eq!(resolve_plain("0x1F"), Plain::Int(31));
        assert_eq!(resolve_plain("1_000"), Plain::Int(1000));
        assert_eq!(resolve_plain("08"), Plain::Float(8.0)); // not octal, still a number
        assert_eq!(resolve_plain("3.0"), Plain::Float(3.0));
        assert_eq!(resolve_plain("1e3"), Plain::Float(1000.0));
        assert_eq!(resolve_plain("*/5 * * * *"), Plain::Str);
        assert_eq!(resolve_plain("0 */6 * * *"), Plain::Str);
        assert_eq!(resolve_plain("1.2.3"), Plain::Str);
        assert_eq!(resolve_plain("-"), Plain::Str);
        assert_eq!(resolve_plain("inf"), Plain::Str);
        assert_eq!(resolve_plain("NaN"), Plain::Str);
        assert!(matches!(resolve_plain(".nan"), Plain::Float(f) if f.is_nan()));
        let huge = "9".repeat(60);
        assert!(matches!(resolve_plain(&huge), Plain::Int(i) if i > i128::from(i64::MAX)));
        let enormous = "9".repeat(500);
        assert!(matches!(resolve_plain(&enormous), Plain::Float(_)));
    }
}
