//! `lint -f PATH…`: the CI face of the diagnosis. Exit 0 when nothing reaches --fail-on, 1 when
//! something does, 2 when input could not be read (the rest is still checked and printed).

use doctor::render::{lint, sarif, style::Style};
use doctor::rules::Severity;

use super::report_cmd::{DefaultNow, evaluate};
use super::{UsageError, emit, exit, use_color};
use crate::cli::{FailOn, LintArgs, ReportFormat};

pub fn run(a: &LintArgs) -> Result<i32, UsageError> {
    crate::input::set_max_input_size(a.input.max_input_size);
    let mut ev = evaluate(&a.files, None, None, &a.replay, 0, DefaultNow::Dump)?;
    if a.output == ReportFormat::Text {
        // Strings from the input, with control characters made visible (issue 9).
        doctor::report::visible::make_visible(&mut ev.report);
    }
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
        ReportFormat::Json => {
            // Streamed: the JSON of a big input is several times its size (issue 9).
            doctor::report::stream::write_json(r, std::io::stdout().lock());
            String::new()
        }
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
