//! `explain NAME` (from the cluster), `explain [NAME] -f PATH…` (from files) and `explain NAME
//! --all-contexts` (a fleet): the full diagnosis. One pipeline: the flags become a plan
//! (`plan::explain`), the plan's source a snapshot (`read_files`, `explain_live`), the
//! snapshot a report built one CronJob at a time, the report text, JSON or SARIF. A fleet
//! runs the same stages once per context (`fleet_explain`); one slot's question
//! (`explain_slot`) answers from the same snapshot.

use std::io::Write;

use doctor::render::{explain, sarif, style::Style};
use doctor::report::{self, CronJobReport, Health, Options};
use doctor::retained::RetainedRun;

use super::plan::{self, Plan, Source};
use super::read_files::{self, Prepared};
use crate::cli::{ExplainArgs, ReportFormat};
use crate::error::{Error, exit};
use crate::term::{delivered, emit};

pub fn run(a: &ExplainArgs) -> Result<i32, Error> {
    let p = plan::explain(a)?;
    let plan = &p.plan;
    let (read, retained) = match &plan.source {
        Source::Fleet(fleet) => {
            return super::fleet_explain::run(plan, fleet, p.monitor.as_ref());
        }
        Source::Files(files) => (read_files::read(plan, files)?, None),
        Source::Cluster(kube) => {
            let (read, retained) = super::explain_live::read(plan, kube, p.monitor.as_ref())?;
            (read, Some(retained))
        }
    };
    if let Some(query) = p.slot {
        return super::explain_slot::answer(plan, &read, query, retained.as_deref());
    }
    render(plan, read, retained.as_deref())
}

/// Each CronJob's report, built when asked for; a live CronJob's timeline with the runs the
/// monitor remembers.
fn reports<'a>(
    read: &'a Prepared,
    opts: &'a Options<'a>,
    retained: Option<&'a [RetainedRun]>,
) -> impl Iterator<Item = CronJobReport> + 'a {
    report::cron_job_reports(&read.snapshot, opts)
        .enumerate()
        .map(move |(i, mut c)| {
            if i == 0
                && let Some(runs) = retained
            {
                report::retained_slots::merge(&mut c.timeline, runs, read.at.now);
            }
            c
        })
}

/// The report stage and the render stage. Text and JSON are written one CronJob at a time:
/// each report is built, written and dropped, so a big input never has its whole report in
/// memory (BENCHMARKS.md, "Big inputs: peak memory"); the bytes are those of the whole
/// report. SARIF needs the whole report.
fn render(
    plan: &Plan<ReportFormat>,
    mut read: Prepared,
    retained: Option<&[RetainedRun]>,
) -> Result<i32, Error> {
    let opts = read.options(plan);
    let mut any_error = false;
    match plan.output.format {
        ReportFormat::Json => {
            let written = report::stream::write_json_each(
                &read.header,
                reports(&read, &opts, retained),
                |c| any_error |= c.health == Health::Error,
                std::io::stdout().lock(),
            );
            delivered(written)?;
        }
        ReportFormat::Sarif => {
            let cron_jobs = reports(&read, &opts, retained).collect();
            read.header.cron_jobs = cron_jobs;
            any_error = read
                .header
                .cron_jobs
                .iter()
                .any(|c| c.health == Health::Error);
            emit(&sarif::render(
                &read.header,
                env!("CARGO_PKG_VERSION"),
                &crate::input::reread_for_edits,
                None,
            ));
        }
        ReportFormat::Text => {
            let o = explain::TextOptions {
                style: Style {
                    color: plan.output.color,
                },
                width: plan.output.width,
            };
            // Strings from the input, with control characters made visible.
            report::visible::make_visible(&mut read.header);
            let (read, header) = (&read, &read.header);
            let mut out = std::io::stdout().lock();
            // A reader that went away (`| head`) ends the output, not the program.
            let mut write = |text: &str| {
                let _ = out.write_all(text.as_bytes());
            };
            write(&explain::header(header, o));
            let mut count = 0;
            for mut cj in reports(read, &opts, retained) {
                any_error |= cj.health == Health::Error;
                report::visible::cron_job_for_terminal(&mut cj);
                write(&explain::cron_job(header, &cj, count, o));
                count += 1;
            }
            if count == 0 {
                write(explain::NONE_FOUND);
            }
            let _ = out.flush();
        }
    }
    Ok(if !read.header.errors.is_empty() {
        exit::TROUBLE
    } else if any_error {
        exit::FINDINGS
    } else {
        exit::OK
    })
}
