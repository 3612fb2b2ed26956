//! JSON strings with a lone UTF-16 surrogate escape (`"\ud800"`): valid JSON text for the
//! API server (Go's decoder turns it into U+FFFD), an error for serde_json in any string it
//! keeps — and one such annotation or Event message used to fail the whole LIST page, so
//! `scan` said the API server "could not be reached". A page that fails to parse is looked at
//! once more: each lone surrogate escape is replaced by `\ufffd` (what Go reads), the page
//! parsed again, and the objects that held one are named, so the user learns which object
//! carries text that is not Unicode.

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
}
