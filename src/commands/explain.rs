//! `explain [NAME] -f PATH…`: the full diagnosis of CronJobs read from files.

use doctor::render::{explain, json, sarif, style::Style};
use doctor::report::Health;

use super::report_cmd::{evaluate, width};
use super::{UsageError, emit, exit, use_color};
use crate::cli::{ExplainArgs, ReportFormat};

pub fn run(a: &ExplainArgs) -> Result<i32, UsageError> {
    let ev = evaluate(&a.files, a.name.as_deref(), a.namespace.as_deref(), &a.replay, a.timeline)?;
    let r = &ev.report;
    let text = match a.output {
        ReportFormat::Json => json::render(r),
        ReportFormat::Sarif => sarif::render(r, env!("CARGO_PKG_VERSION")),
        ReportFormat::Text => explain::render(
            r,
            explain::TextOptions { style: Style { color: use_color(a.replay.color) }, width: width() },
        ),
    };
    emit(&text);
    Ok(if !r.errors.is_empty() {
        exit::TROUBLE
    } else if r.cron_jobs.iter().any(|c| c.health == Health::Error) {
        exit::FINDINGS
    } else {
        exit::OK
    })
}
