//! `lint -f PATH…`: the CI face of the diagnosis. Exit 0 when nothing reaches --fail-on, 1 when
//! something does, 2 when input could not be read (the rest is still checked and printed).
//!
//! Text and JSON are written one CronJob at a time: each CronJob's report is built, turned
//! into its lines (or JSON), and dropped, so a big input never has its whole report in memory
//! (issue 9). SARIF needs the whole report.

use doctor::render::{lint, sarif, style::Style};
use doctor::report::{self, CronJobReport, stream, visible};
use doctor::rules::Severity;

use super::report_cmd::prepare;
use crate::cli::{FailOn, LintArgs, ReportFormat};
use crate::error::Error;
use crate::error::exit;
use crate::term::{delivered, emit, use_color};

pub fn run(a: &LintArgs) -> Result<i32, Error> {
    crate::input::set_max_input_size(a.input.max_input_size);
    let mut p = prepare(&a.files, None, None, &a.replay, &a.config, 0)?;
    let input_errors = !p.header.errors.is_empty();
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
    let at_threshold = |cj: &CronJobReport| {
        threshold.map_or(0, |t| {
            cj.findings.iter().filter(|f| f.severity >= t).count()
        })
    };
    let mut failing = 0;
    let text = match a.output {
        ReportFormat::Json => {
            let opts = p.options();
            let written = stream::write_json_each(
                &p.header,
                report::cron_job_reports(&p.snapshot, &opts),
                |cj| failing += at_threshold(cj),
                std::io::stdout().lock(),
            );
            delivered(written)?;
            String::new()
        }
        ReportFormat::Sarif => {
            let r = p.into_report();
            failing = r.cron_jobs.iter().map(at_threshold).sum();
            sarif::render(
                &r,
                env!("CARGO_PKG_VERSION"),
                &crate::input::reread_for_edits,
            )
        }
        ReportFormat::Text => {
            // Strings from the input, with control characters made visible (issue 9).
            visible::make_visible(&mut p.header);
            // Notes (reduced evidence, the instant judged at) go to stderr: stdout stays one
            // line per finding for CI tools to parse.
            for n in &p.header.notes {
                eprintln!("note: {n}");
            }
            let opts = p.options();
            let mut lines = lint::Lines::new(show);
            for mut cj in report::cron_job_reports(&p.snapshot, &opts) {
                visible::cron_job_for_terminal(&mut cj);
                failing += at_threshold(&cj);
                lines.add(&cj);
            }
            lines.finish(
                &p.header.errors,
                Style {
                    color: use_color(a.replay.color),
                },
            )
        }
    };
    emit(&text);
    Ok(if input_errors {
        exit::TROUBLE
    } else if failing > 0 {
        exit::FINDINGS
    } else {
        exit::OK
    })
}
