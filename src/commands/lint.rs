//! `lint -f PATH…`: the CI face of the diagnosis. Exit 0 when nothing reaches --fail-on, 1 when
//! something does, 2 when input could not be read (the rest is still checked and printed).

use doctor::render::{json, lint, sarif, style::Style};
use doctor::rules::Severity;

use super::report_cmd::evaluate;
use super::{UsageError, emit, exit, use_color};
use crate::cli::{FailOn, LintArgs, ReportFormat};

pub fn run(a: &LintArgs) -> Result<i32, UsageError> {
    let ev = evaluate(&a.files, None, None, &a.replay, 0)?;
    let r = &ev.report;
    let threshold = match a.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    // Show warnings even when only errors fail the build; infos only when asked for.
    let show = threshold
        .unwrap_or(Severity::Warning)
        .min(Severity::Warning);
    let text = match a.output {
        ReportFormat::Json => json::render(r),
        ReportFormat::Sarif => sarif::render(r, env!("CARGO_PKG_VERSION"), &|f| {
            std::fs::read_to_string(f).ok()
        }),
        ReportFormat::Text => lint::render(
            r,
            show,
            Style {
                color: use_color(a.replay.color),
            },
        ),
    };
    emit(&text);
    Ok(if !r.errors.is_empty() {
        exit::TROUBLE
    } else if threshold.is_some_and(|t| r.count_at_least(t) > 0) {
        exit::FINDINGS
    } else {
        exit::OK
    })
}
