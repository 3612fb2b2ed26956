//! Shared by `explain -f` and `lint`: load the inputs, build the report, pick the CronJobs the
//! user asked for; and by the live commands (`scan`, `explain`, each context of a fleet): the
//! replay flags, the connection's start, the version and clock to replay at. The decisions all
//! happen in `doctor`; this is plumbing.

use doctor::render::{input_errors, style::Style};
use doctor::replay::KubeVersion;
use doctor::report::{self, InputError, Options, Report};
use jiff::tz::TimeZone;

use super::{check_now, controller_zone, parse_instant};
use crate::cli::{ColorChoice, ConfigArgs, KubeArgs, ReplayArgs};
use crate::cluster::{self, http::Api};
use crate::error::{Error, UsageError};

pub struct Evaluation {
    pub report: Report,
}

/// The input loaded and the settings to evaluate it with, for a caller that builds the report
/// one CronJob at a time ([`Prepared::options`] with `report::cron_job_reports`) instead of
/// whole: `lint` and `explain -f -o json` write each CronJob out and drop it
/// (BENCHMARKS.md, "Big inputs: peak memory").
pub struct Prepared {
    pub snapshot: doctor::model::Snapshot,
    /// The report without its CronJobs (see `report::header`), input errors included.
    pub header: Report,
    now: jiff::Timestamp,
    zone: TimeZone,
    zone_name: String,
    version: KubeVersion,
    timeline: usize,
    severities: doctor::config::Severities,
}

impl Prepared {
    pub fn options(&self) -> Options<'_> {
        Options {
            now: self.now,
            controller_zone_name: &self.zone_name,
            controller_zone: &self.zone,
            version: self.version,
            timeline: self.timeline,
            severities: &self.severities,
        }
    }

    /// The whole report: the header with every CronJob's report.
    pub fn into_report(self) -> Report {
        let cron_jobs = report::cron_job_reports(&self.snapshot, &self.options()).collect();
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
    args: &ReplayArgs,
    snapshot: &doctor::model::Snapshot,
    notes: &mut Vec<String>,
) -> Result<jiff::Timestamp, Error> {
    let newest = doctor::as_of::newest_timestamp(snapshot);
    match args.now.as_deref() {
        Some("dump") => {
            let t = newest.ok_or(UsageError::NowDumpUndated)?;
            check_now("--now dump", &t.to_string(), t)
        }
        Some(v) => parse_instant("--now", v),
        None => {
            let now = jiff::Timestamp::now();
            notes.extend(doctor::as_of::stale_note(newest, now));
            Ok(now)
        }
    }
}

pub fn version(args: &ReplayArgs) -> Result<KubeVersion, Error> {
    match &args.kube_version {
        None => Ok(KubeVersion::NEWEST),
        Some(v) => v.parse::<KubeVersion>().map_err(|e| {
            UsageError::KubeVersion {
                value: v.to_string(),
                source: e,
            }
            .into()
        }),
    }
}

/// The replay flags of a live command, checked before any request: the controller's zone,
/// the `--kube-version` given (None: the server's), the `--now` given (None: the server's).
pub struct LiveReplayFlags {
    pub zone: jiff::tz::TimeZone,
    pub version: Option<KubeVersion>,
    pub now: Option<jiff::Timestamp>,
}

pub fn live_replay_flags(args: &ReplayArgs) -> Result<LiveReplayFlags, Error> {
    Ok(LiveReplayFlags {
        zone: super::controller_zone(&args.controller_time_zone)?,
        version: args
            .kube_version
            .as_ref()
            .map(|_| version(args))
            .transpose()?,
        now: args
            .now
            .as_deref()
            .map(|v| super::parse_instant("--now", v))
            .transpose()?,
    })
}

impl LiveReplayFlags {
    /// The controller version and "now" of a live replay: a flag wins over the server; what
    /// is taken from the server comes with its notes (an unknown version, a skewed or missing
    /// clock), version first.
    pub fn settle(
        &self,
        server_version: (Option<KubeVersion>, Option<String>),
        server_now: (jiff::Timestamp, Option<String>),
    ) -> (KubeVersion, jiff::Timestamp, Vec<String>) {
        let mut notes = Vec::new();
        let version = match self.version {
            Some(v) => v,
            None => {
                notes.extend(server_version.1);
                server_version.0.unwrap_or(KubeVersion::NEWEST)
            }
        };
        notes.extend(version.beyond_modelled_note());
        let now = match self.now {
            Some(t) => t,
            None => {
                notes.extend(server_now.1);
                server_now.0
            }
        };
        (version, now, notes)
    }
}

/// A live command's connection, before its reads: the namespace to read and what the server
/// says of its version.
pub struct LiveStart {
    pub api: Api,
    /// `-n`, else the context's; None with `-A`.
    pub namespace: Option<String>,
    pub server_version: (Option<KubeVersion>, Option<String>),
}

/// The namespace a live command reads: `-n`, else the context's; None with `-A`. Checked
/// before any request: a kubeconfig's namespace is input like any other.
pub fn live_namespace(
    api: &Api,
    namespace: Option<&str>,
    all_namespaces: bool,
) -> Result<Option<String>, Error> {
    if all_namespaces {
        return Ok(None);
    }
    cluster::namespace(api, namespace).map(Some)
}

/// Connect, settle the namespace ([`live_namespace`]) and ask the server's version
/// (`GET /version`).
pub async fn live_start(
    kube: &KubeArgs,
    notices: bool,
    namespace: Option<&str>,
    all_namespaces: bool,
) -> Result<LiveStart, Error> {
    let api = cluster::connect(kube, notices).await?;
    let ns = live_namespace(&api, namespace, all_namespaces)?;
    let server_version = cluster::server_version(&api)
        .await
        .map_err(|e| cluster::failure(&api, "GET /version", &e))?;
    Ok(LiveStart {
        api,
        namespace: ns,
        server_version,
    })
}

/// Load `files`, keep CronJobs matching `name`/`namespace`, and evaluate them.
pub fn evaluate(
    files: &[String],
    name: Option<&str>,
    namespace: Option<&str>,
    args: &ReplayArgs,
    config: &ConfigArgs,
    timeline: usize,
) -> Result<Evaluation, Error> {
    let p = prepare(files, name, namespace, args, config, timeline)?;
    Ok(Evaluation {
        report: p.into_report(),
    })
}

/// Load `files`, keep CronJobs matching `name`/`namespace`, print the input errors, and
/// return what evaluating them needs.
pub fn prepare(
    files: &[String],
    name: Option<&str>,
    namespace: Option<&str>,
    args: &ReplayArgs,
    config: &ConfigArgs,
    timeline: usize,
) -> Result<Prepared, Error> {
    let zone: TimeZone = controller_zone(&args.controller_time_zone)?;
    if let Some(dir) = crate::project::base_dir(config) {
        crate::input::set_exclude(dir, config.settings.exclude.clone());
    }
    let version = version(args)?;
    if let Some(v) = args.now.as_deref().filter(|v| *v != "dump") {
        // A typo in --now is reported before the input is read.
        parse_instant("--now", v)?;
    }
    let loaded = crate::input::load_paths(files);
    let (mut snapshot, errors) = loaded.into_snapshot();
    let mut notes: Vec<String> = version.beyond_modelled_note().into_iter().collect();
    let now = now(args, &snapshot, &mut notes)?;
    snapshot.notes.extend(notes);
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
            && !config.settings.skips(&c.meta.namespace, &c.meta.name)
    });
    let errors = errors
        .into_iter()
        .map(|e| InputError {
            file: e.file,
            line: e.line,
            column: e.column,
            message: e.message,
        })
        .collect();
    let opts = Options {
        now,
        controller_zone_name: &args.controller_time_zone,
        controller_zone: &zone,
        version,
        timeline,
        severities: doctor::config::NO_OVERRIDES,
    };
    let header = report::header(&snapshot, errors, &opts);
    let p = Prepared {
        snapshot,
        header,
        now,
        zone,
        zone_name: args.controller_time_zone.clone(),
        version,
        timeline,
        severities: config.settings.rules.clone(),
    };
    // Errors go to stderr, whatever the output format (JSON and SARIF carry them too).
    if !p.header.errors.is_empty() {
        let color = match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                use std::io::IsTerminal;
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stderr().is_terminal()
            }
        };
        eprint!("{}", input_errors::render(&p.header, Style { color }));
    }
    Ok(p)
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
