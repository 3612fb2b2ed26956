//! Input errors (a file that cannot be read, a document that is not YAML) as lines for
//! stderr: `error: file:line:col: message`, or `error: file: message` about a whole file.
//! The text reports on stdout leave them out; JSON and SARIF carry them in the document.
//! File names and messages come from the input (a file named with an escape sequence, a YAML
//! error quoting the document): control characters are shown, never sent, and a message stays
//! on its line.

use super::style::Style;
use crate::report::Report;
use crate::report::visible::one_line;

pub fn render(report: &Report, st: Style) -> String {
    let mut out = String::new();
    for e in &report.errors {
        let file = one_line(&e.file);
        let place = if e.line == 0 {
            file.into_owned()
        } else {
            format!("{file}:{}:{}", e.line, e.column)
        };
        out.push_str(&format!(
            "{} {place}: {}\n",
            st.red("error:"),
            one_line(&e.message)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::InputError;

    #[test]
    fn hostile_file_names_and_messages_are_shown_not_sent() {
        let mut r = crate::rules::examples::run("", "2026-11-20T12:00:00Z");
        r.errors.push(InputError {
            file: "d/bad\u{1b}]0;PWN\u{7}.yaml".into(),
            line: 1,
            column: 4,
            message: "invalid YAML\nerror: forged line \u{1b}[2J".into(),
        });
        let out = render(&r, Style { color: false });
        assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
        assert_eq!(out.lines().count(), 1, "{out:?}");
        assert!(out.contains("d/bad\\e]0;PWN\\a.yaml:1:4"), "{out}");
    }
}
