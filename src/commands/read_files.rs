//! The files stage of the pipeline (`explain -f`, `lint`): load the inputs, settle the instant
//! and version the plan left open (the wall clock, or the input's newest timestamp for
//! `--now dump`), keep the CronJobs the plan selects, and print the input errors. The report
//! is then built whole ([`Prepared::into_report`]) or one CronJob at a time
//! (`report::cron_job_reports` with [`Prepared::options`]): `lint` and `explain -f` write
//! each CronJob out and drop it (BENCHMARKS.md, "Big inputs: peak memory").

use doctor::model::Snapshot;
use doctor::render::{input_errors, style::Style};
use doctor::replay::KubeVersion;
use doctor::report::{self, InputError, Options, Report};

use super::plan::{Files, Instant, Plan, Settled, Version, check_now};
use crate::error::{Error, UsageError};

/// The input loaded and selected, with the instant and version to judge it at.
pub struct Prepared {
    pub snapshot: Snapshot,
    /// The report without its CronJobs (see `report::header`), input errors included.
    pub header: Report,
    pub at: Settled,
}

impl Prepared {
    pub fn options<'a, F>(&self, plan: &'a Plan<F>) -> Options<'a> {
        plan.options(self.at)
    }

    /// The whole report: the header with every CronJob's report.
    pub fn into_report<F>(self, plan: &Plan<F>) -> Report {
        let cron_jobs = report::cron_job_reports(&self.snapshot, &self.options(plan)).collect();
        let mut report = self.header;
        report.cron_jobs = cron_jobs;
        report
    }
}

/// The clock for file input: `--now INSTANT`, `--now dump` (the input's newest timestamp,
/// see `doctor::as_of`), else the wall clock — with a note when the input's newest timestamp is
/// over an hour older, because then it may be an old dump. The wall clock stays the default
/// for `lint` too: a dump's own times cannot date it during an outage (nothing moves then), so
/// judging "as of the dump" by default would hide exactly the outages it shows. Manifests from
/// git carry no status, and their verdict does not depend on the day. The wall clock is read
/// here and in the live path's fallback, nowhere else.
fn now(
    instant: Instant,
    snapshot: &Snapshot,
    notes: &mut Vec<String>,
) -> Result<jiff::Timestamp, Error> {
    let newest = doctor::as_of::newest_timestamp(snapshot);
    match instant {
        Instant::Dump => {
            let t = newest.ok_or(UsageError::NowDumpUndated)?;
            check_now("--now dump", &t.to_string(), t)
        }
        Instant::At(t) => Ok(t),
        Instant::Clock => {
            let now = jiff::Timestamp::now();
            notes.extend(doctor::as_of::stale_note(newest, now));
            Ok(now)
        }
    }
}

/// Load `files`, keep the CronJobs the plan selects (and the config does not skip), print
/// the input errors, and return what evaluating them needs.
pub fn read<F>(plan: &Plan<F>, files: &Files) -> Result<Prepared, Error> {
    crate::input::set_max_input_size(files.max_input_size);
    if let Some(dir) = &plan.config_dir {
        crate::input::set_exclude(dir.clone(), plan.settings.exclude.clone());
    }
    let version = match plan.version {
        Version::Given(v) => v,
        Version::Default => KubeVersion::NEWEST,
    };
    let loaded = crate::input::load_paths(&files.paths);
    let (mut snapshot, errors) = loaded.into_snapshot();
    let mut notes: Vec<String> = version.beyond_modelled_note().into_iter().collect();
    let now = now(plan.instant, &snapshot, &mut notes)?;
    snapshot.notes.extend(notes);
    let (name, namespace) = (
        plan.select.name.as_deref(),
        plan.select.namespace.as_deref(),
    );
    if let Some(n) = name {
        let matching = |c: &doctor::model::CronJob| {
            c.meta.name == n
                && namespace.is_none_or(|ns| report::index::namespace_of(&c.meta.namespace) == ns)
        };
        if !snapshot.cron_jobs.iter().any(matching) && errors.is_empty() {
            let all_names: Vec<String> = snapshot
                .cron_jobs
                .iter()
                .map(|c| c.meta.name.clone())
                .collect();
            return Err(UsageError::NotFound {
                name: n.to_string(),
                namespace: namespace.map(str::to_string),
                names: all_names,
            }
            .into());
        }
    }
    snapshot.cron_jobs.retain(|c| {
        name.is_none_or(|n| c.meta.name == n)
            && namespace.is_none_or(|ns| report::index::namespace_of(&c.meta.namespace) == ns)
            && !plan.settings.skips(&c.meta.namespace, &c.meta.name)
    });
    let errors = errors.into_iter().map(InputError::from).collect();
    let at = Settled { now, version };
    let opts = Options {
        severities: doctor::config::NO_OVERRIDES,
        ..plan.options(at)
    };
    let header = report::header(&snapshot, errors, &opts);
    // Errors go to stderr, whatever the output format (JSON and SARIF carry them too).
    if !header.errors.is_empty() {
        let style = Style {
            color: plan.output.errors_color,
        };
        eprint!("{}", input_errors::render(&header, style));
    }
    Ok(Prepared {
        snapshot,
        header,
        at,
    })
}

#[cfg(test)]
mod tests {
    use crate::error::usage::not_found;

    #[test]
    fn suggests_the_closest_names() {
        let names = vec![
            "backup".to_string(),
            "report-daily".to_string(),
            "cleanup".to_string(),
        ];
        assert_eq!(
            not_found("bakup", None, &names),
            "no CronJob named \"bakup\" in the input; did you mean backup?"
        );
        assert!(
            not_found("zzzzzzzz", Some("ops"), &names)
                .ends_with("(found: backup, report-daily, cleanup)")
        );
    }
}
