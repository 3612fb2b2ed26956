//! `explain NAME --slot TIME`: the render stage for one run's question. The snapshot is read
//! as for the whole diagnosis (files or one cluster); the answer is the one run of that slot,
//! as text or JSON, and the exit code says whether it ran well.

use doctor::render::{explain, style::Style};
use doctor::report::{self, visible};
use doctor::retained::RetainedRun;

use super::plan::Plan;
use super::read_files::Prepared;
use crate::cli::ReportFormat;
use crate::error::{Error, SystemError, UsageError, exit};
use crate::term::emit;

/// `retained`: the runs the monitor remembers (a live read that asked one; files have none).
pub fn answer(
    plan: &Plan<ReportFormat>,
    read: &Prepared,
    query: report::slot::SlotQuery,
    retained: Option<&[RetainedRun]>,
) -> Result<i32, Error> {
    let snapshot = &read.snapshot;
    let cron_job = match snapshot.cron_jobs.as_slice() {
        [one] => one,
        [] => return Err(UsageError::SlotNoCronJob.into()),
        many => {
            return Err(UsageError::SlotSeveral(many.len()).into());
        }
    };
    let mut answer = report::slot::answer(snapshot, cron_job, &read.options(plan), query);
    // A slot whose Job is gone: the monitor's record of its run answers, when it kept one.
    if let Some(runs) = retained {
        let created = cron_job.meta.creation_timestamp;
        report::retained_slots::answer_slot(&mut answer, created, runs, read.at.now);
    }
    match plan.output.format {
        ReportFormat::Json => {
            let text = serde_json::to_string_pretty(&answer).map_err(SystemError::Json)?;
            emit(&format!("{text}\n"));
        }
        _ => {
            let o = explain::TextOptions {
                style: Style {
                    color: plan.output.color,
                },
                width: plan.output.width,
            };
            // Strings from the input (a scheduler's message, names), control characters shown.
            let notes: Vec<String> = snapshot
                .notes
                .iter()
                .map(|n| visible::text(n).into_owned())
                .collect();
            answer.answer = visible::one_line(&answer.answer).into_owned();
            answer.name = visible::one_line(&answer.name).into_owned();
            answer.namespace = visible::one_line(&answer.namespace).into_owned();
            if let Some(j) = &mut answer.job {
                *j = visible::one_line(j).into_owned();
            }
            for d in &mut answer.details {
                *d = visible::one_line(d).into_owned();
            }
            emit(&doctor::render::slot::render(&answer, &notes, o));
        }
    }
    Ok(if answer.ok { exit::OK } else { exit::FINDINGS })
}
