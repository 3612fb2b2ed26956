//! Word wrapping for terminal output with a hanging indent.

/// Wrap `text` to `width` columns; continuation lines start with `indent` spaces. Words
/// longer than the line are kept whole (a command must never be broken).
pub fn wrap(text: &str, first_width: usize, width: usize, indent: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0usize;
    let mut limit = first_width.max(20);
    for word in text.split(' ') {
        let w = word.chars().count();
        if line_len > 0 && line_len + 1 + w > limit {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line_len = 0;
            limit = width.saturating_sub(indent).max(20);
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_with_hanging_indent_and_keeps_long_words() {
        assert_eq!(
            wrap("aaa bbb ccc ddd eee fff ggg", 20, 24, 2),
            "aaa bbb ccc ddd eee\n  fff ggg"
        );
        let long = "x".repeat(30);
        assert_eq!(wrap(&format!("a {long}"), 20, 20, 0), format!("a\n{long}"));
    }
}
