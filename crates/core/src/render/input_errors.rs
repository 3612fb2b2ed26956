//! Input errors (a file that cannot be read, a document that is not YAML) as lines for
//! stderr: `error: file:line:col: message`, or `error: file: message` about a whole file.
//! The text reports on stdout leave them out; JSON and SARIF carry them in the document.

use super::style::Style;
use crate::report::Report;

pub fn render(report: &Report, st: Style) -> String {
    let mut out = String::new();
    for e in &report.errors {
        let place = if e.line == 0 {
            e.file.clone()
        } else {
            format!("{}:{}:{}", e.file, e.line, e.column)
        };
        out.push_str(&format!("{} {place}: {}\n", st.red("error:"), e.message));
    }
    out
}
