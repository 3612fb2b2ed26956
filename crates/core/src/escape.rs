//! Strings from a cluster or a file, made safe to print on a terminal: the escaping itself,
//! at the bottom floor of the core so that every layer (actions, rules, report) can use it.
//! `report::visible` applies it to whole reports.
//!
//! Anything the user did not write (names, annotation values, Event messages, schedules, zones,
//! parse errors quoting a file) may carry control characters: `ESC ] 0 ; … BEL` retitles the
//! terminal, `ESC [ 2 J` clears it, a bidi override reorders what the reader sees. Text output
//! shows them as visible escapes instead (`\e`, `\a`, `\u{9b}`, `\u{202e}`).

use std::borrow::Cow;

/// Whether `c` must not reach a terminal raw: C0 controls, DEL, C1 controls, and the Unicode
/// bidirectional formatting characters (embeddings, overrides, isolates, marks), and the
/// Unicode line and paragraph separators (U+2028, U+2029), which editors, log viewers and
/// JavaScript-based tools take as line breaks: one could forge a line of output.
pub(crate) fn is_hostile(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
        )
}

fn push_escape(out: &mut String, c: char) {
    match c {
        '\u{1b}' => out.push_str("\\e"),
        '\u{07}' => out.push_str("\\a"),
        '\u{08}' => out.push_str("\\b"),
        '\r' => out.push_str("\\r"),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\0' => out.push_str("\\0"),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

fn escape_where(s: &str, hostile: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&hostile) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hostile(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A one-line value (a name, a schedule, a zone): every control character is made visible,
/// newlines and tabs included, so it cannot forge or break a line of output.
pub fn one_line(s: &str) -> Cow<'_, str> {
    escape_where(s, is_hostile)
}

/// Free text (a message, a note, a command): like [`one_line`], but newlines and tabs are
/// kept, because the tool's own multi-line text (a command per line) uses them.
pub fn text(s: &str) -> Cow<'_, str> {
    escape_where(s, |c| c != '\n' && c != '\t' && is_hostile(c))
}

/// `s` rewritten in place with [`one_line`].
pub fn fix_line(s: &mut String) {
    if let Cow::Owned(v) = one_line(s) {
        *s = v;
    }
}

/// `s` rewritten in place with [`text`].
pub fn fix_text(s: &mut String) {
    if let Cow::Owned(v) = text(s) {
        *s = v;
    }
}

/// [`fix_line`] of an optional value.
pub fn fix_opt_line(s: &mut Option<String>) {
    if let Some(v) = s {
        fix_line(v);
    }
}
