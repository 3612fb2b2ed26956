//! `-o json`: the report as its documented wire format (`schemaVersion` 1, see docs/json.md).

use crate::report::Report;

pub fn render(report: &Report) -> String {
    // Serialising plain data cannot fail; an empty object is better than a panic if it did.
    serde_json::to_string_pretty(report).unwrap_or_else(|_| "{}".into()) + "\n"
}
