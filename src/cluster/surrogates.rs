//! JSON strings with a lone UTF-16 surrogate escape (`"\ud800"`): valid JSON text for the
//! API server (Go's decoder turns it into U+FFFD), an error for serde_json in any string it
//! keeps — and one such annotation or Event message used to fail the whole LIST page, so
//! `scan` said the API server "could not be reached". A page that fails to parse is looked at
//! once more: each lone surrogate escape is replaced by `\ufffd` (what Go reads), the page
//! parsed again, and the objects that held one are named, so the user learns which object
//! carries text that is not Unicode.
//!
//! The monitor reads through kube's watchers, which parse each LIST page and WATCH event
//! themselves: one such string failed the whole list, and the monitor was never ready
//! (docs/monitor.md, "Faults"). There the bytes are rewritten before kube sees them, as they arrive
//! ([`Replacer`], under `liveness::client_for`): the same replacement, piece by piece, with
//! an escape cut by a piece's end held back until the rest arrives.

use bytes::Bytes;
use serde::Deserialize;
use serde_json::value::RawValue;

/// `text` with every `\uXXXX` escape of a surrogate that is not half of a valid pair replaced
/// by `\ufffd` (six bytes for six: every other offset stays), and the offsets replaced; None
/// when there is none.
pub fn replace_lone_surrogates(text: &[u8]) -> Option<(Vec<u8>, Vec<usize>)> {
    // Fast refusal: no `\u` followed by `d`/`D` anywhere.
    if !text
        .windows(3)
        .any(|w| w[0] == b'\\' && w[1] == b'u' && matches!(w[2], b'd' | b'D'))
    {
        return None;
    }
    let hex = |at: usize| -> Option<u16> {
        let s = std::str::from_utf8(text.get(at..at + 4)?).ok()?;
        u16::from_str_radix(s, 16).ok()
    };
    let escape_at = |at: usize| -> Option<u16> {
        (text.get(at) == Some(&b'\\') && text.get(at + 1) == Some(&b'u'))
            .then(|| hex(at + 2))
            .flatten()
    };
    let mut out = text.to_vec();
    let mut replaced = Vec::new();
    let (mut i, mut in_string) = (0, false);
    while i < text.len() {
        match (in_string, text[i]) {
            (false, b'"') => in_string = true,
            (false, _) => {}
            (true, b'"') => in_string = false,
            (true, b'\\') => {
                if let Some(n) = escape_at(i) {
                    let high = (0xD800..=0xDBFF).contains(&n);
                    let low = (0xDC00..=0xDFFF).contains(&n);
                    let paired =
                        high && escape_at(i + 6).is_some_and(|m| (0xDC00..=0xDFFF).contains(&m));
                    if paired {
                        i += 12;
                        continue;
                    }
                    if high || low {
                        out[i..i + 6].copy_from_slice(b"\\ufffd");
                        replaced.push(i);
                    }
                    i += 6;
                    continue;
                }
                // Any other escape is two bytes (`\"`, `\\`, `\n` …).
                i += 2;
                continue;
            }
            (true, _) => {}
        }
        i += 1;
    }
    (!replaced.is_empty()).then_some((out, replaced))
}

/// Lone surrogate escapes replaced in a body read in pieces (a LIST page, a WATCH stream):
/// [`replace_lone_surrogates`] done piece by piece. An escape cut by a piece's end (at most
/// `\uD800\uDC0`, 11 bytes) is held back until the next piece, so an escape split across two
/// reads is judged whole; nothing else is held, so a WATCH event is passed on as soon as its
/// last byte arrives. Every piece is searched for `\u` (memchr's `memmem`); a piece without a
/// lone surrogate is passed on as it is, without a copy.
#[derive(Default)]
pub struct Replacer {
    held: Vec<u8>,
}

impl Replacer {
    /// The next piece, rewritten: the bytes to pass on (perhaps none yet) and the offsets in
    /// them where an escape was replaced.
    pub fn piece(&mut self, data: Bytes) -> (Bytes, Vec<usize>) {
        let buf = if self.held.is_empty() {
            data
        } else {
            let mut v = std::mem::take(&mut self.held);
            v.extend_from_slice(&data);
            Bytes::from(v)
        };
        let (end, lone) = scan(&buf, false);
        self.held = buf[end..].to_vec();
        (patched(buf.slice(..end), &lone), lone)
    }

    /// Whether bytes are held back for the next piece.
    pub fn holding(&self) -> bool {
        !self.held.is_empty()
    }

    /// The body ended: what was held back, judged as it stands (an escape the end cut short
    /// is left for the parser to refuse).
    pub fn finish(&mut self) -> (Bytes, Vec<usize>) {
        let buf = std::mem::take(&mut self.held);
        let (_, lone) = scan(&buf, true);
        (patched(Bytes::from(buf), &lone), lone)
    }
}

/// `buf` with `\ufffd` written at each of `offsets` (six bytes for six).
fn patched(buf: Bytes, offsets: &[usize]) -> Bytes {
    if offsets.is_empty() {
        return buf;
    }
    let mut v = buf.to_vec();
    for &o in offsets {
        if let Some(esc) = v.get_mut(o..o + 6) {
            esc.copy_from_slice(b"\\ufffd");
        }
    }
    Bytes::from(v)
}

/// The offsets of the lone surrogate escapes in `buf`, which starts between two escapes,
/// and how much of it is judged: all of it when `last`, else up to the start of an escape
/// the end cuts (or might cut: a high half whose low half may follow).
fn scan(buf: &[u8], last: bool) -> (usize, Vec<usize>) {
    let hex4 = |at: usize| -> Option<u16> {
        let digits = buf.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    // Whether `rest` (fewer than six bytes) may begin a low half `\uDC00`…`\uDFFF`.
    let may_be_low = |rest: &[u8]| {
        rest.iter().enumerate().all(|(i, b)| match i {
            0 => *b == b'\\',
            1 => *b == b'u',
            2 => matches!(b, b'd' | b'D'),
            3 => matches!(b, b'c'..=b'f' | b'C'..=b'F'),
            _ => b.is_ascii_hexdigit(),
        })
    };
    let mut lone = Vec::new();
    // First byte not inside an escape already judged (the low half of a pair).
    let mut next = 0;
    for p in memchr::memmem::find_iter(buf, b"\\u") {
        if p < next {
            continue;
        }
        // `\\u` is an escaped backslash and a `u`: an escape starts after an even run.
        let run = buf[..p].iter().rev().take_while(|b| **b == b'\\').count();
        if run % 2 == 1 {
            continue;
        }
        let Some(n) = hex4(p + 2) else {
            if buf.len() < p + 6 && !last {
                return (p, lone);
            }
            continue; // not an escape: left for the parser to refuse
        };
        next = p + 6;
        if (0xD800..=0xDBFF).contains(&n) {
            let rest = &buf[p + 6..buf.len().min(p + 12)];
            if rest.len() < 6 && !last && may_be_low(rest) {
                return (p, lone);
            }
            if rest.len() == 6
                && may_be_low(&rest[..4])
                && hex4(p + 8).is_some_and(|m| (0xDC00..=0xDFFF).contains(&m))
            {
                next = p + 12;
                continue;
            }
            lone.push(p);
        } else if (0xDC00..=0xDFFF).contains(&n) {
            lone.push(p);
        }
    }
    // A backslash at the very end starts an escape whose rest is still to come.
    let run = buf[next.min(buf.len())..]
        .iter()
        .rev()
        .take_while(|b| **b == b'\\')
        .count();
    if !last && run % 2 == 1 {
        return (buf.len() - 1, lone);
    }
    (buf.len(), lone)
}

/// `namespace/name` of the object whose text holds offset `at` of `text` (a piece of a LIST
/// page or WATCH stream, as the API server writes them: compact, `metadata` with `name`
/// first): the nearest `"metadata":{…}` before `at` that has a name (a pod template's, which
/// has none, is passed over). None when it is not in `text` (the piece started inside the
/// object) or cannot be read whole.
pub fn holder(text: &[u8], at: usize) -> Option<String> {
    #[derive(Deserialize)]
    struct Meta {
        #[serde(default)]
        name: String,
        #[serde(default)]
        namespace: String,
    }
    const KEY: &[u8] = b"\"metadata\":";
    let mut before = text.get(..at)?;
    for _ in 0..8 {
        let i = memchr::memmem::rfind(before, KEY)?;
        let mut de = serde_json::Deserializer::from_slice(&text[i + KEY.len()..]);
        let m = Meta::deserialize(&mut de).ok()?;
        if !m.name.is_empty() {
            return Some(if m.namespace.is_empty() {
                m.name
            } else {
                format!("{}/{}", m.namespace, m.name)
            });
        }
        before = &before[..i];
    }
    None
}

/// One object's body (a GET) as `W`; a body that fails to parse is read once more with its
/// lone surrogate escapes replaced, and a note on stderr names the object, as for a LIST page.
pub fn parse_object<W: serde::de::DeserializeOwned>(
    body: &[u8],
    what: &str,
) -> Result<W, serde_json::Error> {
    let e = match serde_json::from_slice(body) {
        Ok(w) => return Ok(w),
        Err(e) => e,
    };
    let Some((fixed, offsets)) = replace_lone_surrogates(body) else {
        return Err(e);
    };
    let w = serde_json::from_slice(&fixed).map_err(|_| e)?;
    let who = offsets
        .first()
        .and_then(|&at| holder(&fixed, at))
        .unwrap_or_else(|| "the object".into());
    let note = format!(
        "note: {what}: {who} holds a string with a lone UTF-16 surrogate escape (not Unicode; the API server reads it as U+FFFD, and so does this tool)"
    );
    eprintln!("{}", doctor::report::visible::one_line(&note));
    Ok(w)
}

/// `namespace/name` of each item of a LIST page `text` that holds one of `offsets`, in item
/// order (`?` where an item has no readable name).
pub fn items_holding(text: &str, offsets: &[usize]) -> Vec<String> {
    #[derive(Deserialize)]
    struct Page<'a> {
        #[serde(borrow, default)]
        items: Vec<&'a RawValue>,
    }
    #[derive(Deserialize, Default)]
    struct Meta {
        #[serde(default)]
        name: String,
        #[serde(default)]
        namespace: String,
    }
    #[derive(Deserialize)]
    struct Item {
        #[serde(default)]
        metadata: Meta,
    }
    let Ok(page) = serde_json::from_str::<Page>(text) else {
        return Vec::new();
    };
    let base = text.as_ptr() as usize;
    page.items
        .iter()
        .filter(|item| {
            let start = item.get().as_ptr() as usize - base;
            let end = start + item.get().len();
            offsets.iter().any(|o| (start..end).contains(o))
        })
        .map(|item| match serde_json::from_str::<Item>(item.get()) {
            Ok(Item { metadata: m }) if !m.name.is_empty() => {
                if m.namespace.is_empty() {
                    m.name
                } else {
                    format!("{}/{}", m.namespace, m.name)
                }
            }
            _ => "?".to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_halves_are_replaced_pairs_and_escaped_backslashes_are_not() {
        let t = br#"{"a":"x\ud800y","b":"\ud83d\ude00","c":"\\ud800","d":"\uDC00","e":"\u0041"}"#;
        let (out, at) = replace_lone_surrogates(t).unwrap();
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            r#"{"a":"x\ufffdy","b":"\ud83d\ude00","c":"\\ud800","d":"\ufffd","e":"\u0041"}"#
        );
        assert_eq!(at.len(), 2);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["a"], "x\u{fffd}y");
        assert_eq!(v["b"], "😀");
        assert_eq!(v["c"], "\\ud800");
        // Nothing to replace: nothing copied.
        assert!(replace_lone_surrogates(br#"{"b":"\ud83d\ude00","c":"\\ud800"}"#).is_none());
        // A lone high half at the very end of a string, and one cut short by the body's end.
        let (out, _) = replace_lone_surrogates(br#"["\ud800"]"#).unwrap();
        assert_eq!(out, br#"["\ufffd"]"#);
        assert!(replace_lone_surrogates(br#"["\ud8"#).is_none());
    }

    #[test]
    fn the_items_holding_them_are_named() {
        let page = r#"{"metadata":{},"items":[{"metadata":{"name":"a","namespace":"ops"}},{"metadata":{"name":"b","namespace":"ops","annotations":{"x":"\ufffd"}}},{"metadata":{"name":"c"}}]}"#;
        let at = page.find("\\ufffd").unwrap();
        assert_eq!(items_holding(page, &[at]), ["ops/b"]);
        assert!(items_holding(page, &[]).is_empty());
    }

    /// Every way of cutting a body into two pieces gives what the whole body gives.
    #[test]
    fn pieces_give_what_the_whole_gives_wherever_they_are_cut() {
        let bodies: [&[u8]; 6] = [
            br#"{"a":"x\ud800y","b":"\ud83d\ude00","c":"\\ud800","d":"\uDC00","e":"\u0041"}"#,
            br#"{"a":"\ud800\ud800\udc00\\\\\ud800","b":"\\\ud800"}"#,
            br#"{"a":"\ud800"}"#,
            br#"{"a":"\ud800\u0041\ud800\"\ud800\\"}"#,
            br#"["\ud8"#,
            b"{\"type\":\"ADDED\",\"object\":{\"m\":\"\\uD800\"}}\n",
        ];
        for body in bodies {
            let whole = match replace_lone_surrogates(body) {
                Some((out, _)) => out,
                None => body.to_vec(),
            };
            for cut in 0..=body.len() {
                for second in cut..=body.len() {
                    let mut r = Replacer::default();
                    let mut out = Vec::new();
                    let mut count = 0;
                    for piece in [&body[..cut], &body[cut..second], &body[second..]] {
                        let (b, at) = r.piece(Bytes::copy_from_slice(piece));
                        out.extend_from_slice(&b);
                        count += at.len();
                    }
                    let (b, at) = r.finish();
                    out.extend_from_slice(&b);
                    count += at.len();
                    assert_eq!(
                        String::from_utf8_lossy(&out),
                        String::from_utf8_lossy(&whole),
                        "cut at {cut} and {second}"
                    );
                    let expected = replace_lone_surrogates(body).map_or(0, |(_, a)| a.len());
                    assert_eq!(count, expected, "cut at {cut} and {second}");
                }
            }
        }
    }

    /// A WATCH event is passed on whole as soon as its last byte arrives: nothing of it is
    /// held back for a next piece that may come much later.
    #[test]
    fn a_complete_event_is_never_held_back() {
        let mut r = Replacer::default();
        let line = b"{\"type\":\"ADDED\",\"object\":{\"m\":\"a\\ud800\"}}\n";
        let (out, at) = r.piece(Bytes::from_static(line));
        assert_eq!(out.len(), line.len());
        assert_eq!(at.len(), 1);
        assert!(out.windows(6).any(|w| w == b"\\ufffd"));
        // A clean piece is passed on as it is.
        let clean = Bytes::from_static(b"{\"a\":\"\\\"\\u0041\"}\n");
        let (out, at) = r.piece(clean.clone());
        assert_eq!((out, at.len()), (clean, 0));
        // Cut inside an escape: held, then judged with the rest.
        let (out, _) = r.piece(Bytes::from_static(b"{\"a\":\"\\ud8"));
        assert_eq!(&out[..], b"{\"a\":\"");
        let (out, at) = r.piece(Bytes::from_static(b"00\"}\n"));
        assert_eq!((&out[..], at.len()), (&b"\\ufffd\"}\n"[..], 1));
    }

    #[test]
    fn the_holder_is_the_nearest_named_metadata_before_the_escape() {
        let page = br#"{"metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"a","namespace":"ops"}},{"metadata":{"name":"b","namespace":"ops"},"spec":{"template":{"metadata":{"labels":{}},"x":"\ufffd"}}}]}"#;
        let at = memchr::memmem::find(page, b"\\ufffd").unwrap();
        assert_eq!(holder(page, at).as_deref(), Some("ops/b"));
        // Only the list's own metadata before it: nobody.
        assert_eq!(holder(page, 40), None);
        // The piece started inside the object: nobody, rather than the wrong one.
        assert_eq!(holder(br#"x":"\ufffd"}}"#, 5), None);
        assert_eq!(holder(b"", 3), None);
        let event = br#"{"type":"ADDED","object":{"kind":"Event","metadata":{"name":"e.1","namespace":"ops","annotations":{"n":"\ufffd"}},"message":"\ufffd"}}"#;
        let at = memchr::memmem::rfind(event, b"\\ufffd").unwrap();
        assert_eq!(holder(event, at).as_deref(), Some("ops/e.1"));
        let at = memchr::memmem::find(event, b"\\ufffd").unwrap();
        assert_eq!(
            holder(event, at).as_deref(),
            Some("ops/e.1"),
            "in an annotation of its own metadata"
        );
    }
}
