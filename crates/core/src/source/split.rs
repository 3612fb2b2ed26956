//! Splitting a file into YAML documents ourselves, so that one malformed document cannot hide
//! the others: each chunk is parsed on its own and its positions are shifted back.
//!
//! A line that starts (at column 0) with `---` followed by a blank or the end of the line opens
//! a new document; `...` likewise closes one. YAML itself forbids those two markers at column 0
//! inside any scalar (block scalars and multi-line quoted strings included), so splitting here
//! never cuts a well-formed document in half. Text after `--- ` on the same line belongs to the
//! new document. Comments, blank lines and `%` directives that precede the first content of a
//! document travel with it; a chunk with no content at all (only comments, blank lines, a
//! lone `---`) is dropped, which is how empty and comment-only documents are ignored.

/// A slice of the input holding one (or, for `...`-less oddities, more) YAML document(s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chunk<'a> {
    pub text: &'a str,
    /// 1-based line of `text`'s first line in the whole file.
    pub first_line: u32,
    /// Characters preceding `text` on its first line (non-zero only for JSON values that
    /// start in the middle of a line, e.g. `{…} {…}`).
    pub first_col: u32,
}

fn is_marker(line: &str, marker: &str) -> bool {
    line.starts_with(marker) && matches!(line.as_bytes().get(3), None | Some(b' ' | b'\t' | b'\r'))
}

/// Whether a line (without its `\n`) holds anything but blanks and a comment.
fn has_content(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t', '\r']);
    !(t.is_empty() || t.starts_with('#'))
}

/// Splits `text` into document chunks, in order. Linear in the size of the input; the chunks
/// borrow from `text`.
pub(crate) fn split_documents(text: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let mut start = 0usize; // byte offset of the current chunk
    let mut start_line = 1u32;
    let mut content = false; // current chunk has content
    let mut directives = false; // current chunk starts with `%` directives
    let mut pos = 0usize;
    let mut line_no = 1u32;
    fn push<'a>(chunks: &mut Vec<Chunk<'a>>, text: &'a str, from: usize, to: usize, line: u32) {
        chunks.push(Chunk {
            text: &text[from..to],
            first_line: line,
            first_col: 0,
        });
    }
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        let next = if end < text.len() { end + 1 } else { end };
        let line = &text[pos..end];
        if is_marker(line, "---") {
            let rest_has_content = has_content(&line[3..]);
            if content {
                push(&mut chunks, text, start, pos, start_line);
                start = pos;
                start_line = line_no;
                directives = false;
            }
            content = rest_has_content;
        } else if is_marker(line, "...") {
            if content {
                push(&mut chunks, text, start, next, start_line);
            }
            start = next;
            start_line = line_no.saturating_add(1);
            content = false;
            directives = false;
        } else if !content && line.starts_with('%') {
            // A directive (`%YAML 1.2`) belongs to the document that follows it; whatever
            // content-less lines preceded it (a bare `---`, comments) are dropped.
            if !directives {
                start = pos;
                start_line = line_no;
                directives = true;
            }
        } else if has_content(line) {
            content = true;
        }
        pos = next;
        line_no = line_no.saturating_add(1);
    }
    if content {
        push(&mut chunks, text, start, text.len(), start_line);
    }
    chunks
}

/// If `text` is a sequence of concatenated JSON values (`{…}\n{…}`, as `jq` prints them),
/// returns one chunk per value. None when it is not exactly that (then YAML parsing, which
/// accepts a single JSON value, reports what is wrong).
pub(crate) fn split_json_values<'a>(chunk: &Chunk<'a>) -> Option<Vec<Chunk<'a>>> {
    let text = chunk.text;
    let first = text.trim_start();
    if !(first.starts_with('{') || first.starts_with('[')) {
        return None;
    }
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
    let mut out = Vec::new();
    let mut prev_end = 0usize;
    // Incremental line/column bookkeeping so that this stays linear.
    let mut counted_to = 0usize;
    let mut line = chunk.first_line;
    let mut line_start = 0usize;
    while let Some(item) = stream.next() {
        item.ok()?;
        let end = stream.byte_offset();
        let gap = &text[prev_end..end];
        let start = prev_end + (gap.len() - gap.trim_start().len());
        for (i, b) in text[counted_to..start].bytes().enumerate() {
            if b == b'\n' {
                line = line.saturating_add(1);
                line_start = counted_to + i + 1;
            }
        }
        counted_to = start;
        let col = text[line_start..start].chars().count() as u32
            + if line == chunk.first_line {
                chunk.first_col
            } else {
                0
            };
        out.push(Chunk {
            text: &text[start..end],
            first_line: line,
            first_col: col,
        });
        prev_end = end;
    }
    (out.len() > 1).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(u32, &str)> {
        split_documents(text)
            .iter()
            .map(|c| (c.first_line, c.text))
            .collect()
    }

    #[test]
    fn plain_multi_document() {
        let t = "a: 1\n---\nb: 2\n---\nc: 3\n";
        assert_eq!(
            lines(t),
            vec![(1, "a: 1\n"), (2, "---\nb: 2\n"), (4, "---\nc: 3\n")]
        );
    }

    #[test]
    fn leading_separator_comments_and_empty_documents() {
        let t = "# banner\n---\n# doc comment\na: 1\n---\n---\n# only a comment\n---\n";
        assert_eq!(lines(t), vec![(1, "# banner\n---\n# doc comment\na: 1\n")]);
    }

    #[test]
    fn content_after_separator_and_document_end() {
        let t = "--- {a: 1}\n--- # c\nb: 2\n...\nignored: no\n...\n";
        assert_eq!(
            lines(t),
            vec![
                (1, "--- {a: 1}\n"),
                (2, "--- # c\nb: 2\n...\n"),
                (5, "ignored: no\n...\n")
            ]
        );
    }

    #[test]
    fn crlf_and_no_final_newline() {
        let t = "a: 1\r\n---\r\nb: 2";
        assert_eq!(lines(t), vec![(1, "a: 1\r\n"), (2, "---\r\nb: 2")]);
    }

    #[test]
    fn dashes_that_are_not_separators() {
        let t = "a: |\n  ---\n----: x\n---x: y\n";
        assert_eq!(lines(t).len(), 1);
    }

    #[test]
    fn directives_travel_with_their_document() {
        let t = "a: 1\n---\n%YAML 1.2\n---\nb: 2\n";
        // `a: 1` ends at the first `---`; the directive and the next `---` open the second.
        assert_eq!(lines(t), vec![(1, "a: 1\n"), (3, "%YAML 1.2\n---\nb: 2\n")]);
        let t = "%YAML 1.1\n%TAG ! tag:x,2000:\n---\na: 1\n...\n%YAML 1.2\n---\nb: 2\n";
        assert_eq!(
            lines(t),
            vec![
                (1, "%YAML 1.1\n%TAG ! tag:x,2000:\n---\na: 1\n...\n"),
                (6, "%YAML 1.2\n---\nb: 2\n")
            ]
        );
    }

    #[test]
    fn concatenated_json() {
        let c = Chunk {
            text: "{\"a\": 1}\n  {\"b\": [2]} {}\n",
            first_line: 3,
            first_col: 0,
        };
        let v = split_json_values(&c).unwrap();
        let got: Vec<_> = v
            .iter()
            .map(|c| (c.first_line, c.first_col, c.text))
            .collect();
        assert_eq!(
            got,
            vec![(3, 0, "{\"a\": 1}"), (4, 2, "{\"b\": [2]}"), (4, 13, "{}")]
        );
        assert!(
            split_json_values(&Chunk {
                text: "{\"a\": 1}",
                first_line: 1,
                first_col: 0
            })
            .is_none()
        );
        assert!(
            split_json_values(&Chunk {
                text: "{a: 1} {",
                first_line: 1,
                first_col: 0
            })
            .is_none()
        );
    }
}
