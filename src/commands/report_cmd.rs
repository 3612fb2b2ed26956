//! Shared by `explain -f` and `lint`: load the inputs, build the report, pick the CronJobs the
//! user asked for. The decisions all happen in `doctor`; this is plumbing.

use doctor::render::{input_errors, style::Style};
use doctor::replay::KubeVersion;
use doctor::report::{self, InputError, Options, Report};
use jiff::tz::TimeZone;

use super::{UsageError, controller_zone, parse_instant};
use crate::cli::{ColorChoice, ReplayArgs};

pub struct Evaluation {
    pub report: Report,
}

/// The clock: `--now` or the local wall clock (the only clock read in the program).
fn now(args: &ReplayArgs) -> Result<jiff::Timestamp, UsageError> {
    match &args.now {
        Some(v) => parse_instant("--now", v),
        None => Ok(jiff::Timestamp::now()),
    }
}

pub fn version(args: &ReplayArgs) -> Result<KubeVersion, UsageError> {
    match &args.kube_version {
        None => Ok(KubeVersion::NEWEST),
        Some(v) => v
            .parse::<KubeVersion>()
            .map_err(|e| UsageError(format!("--kube-version {v:?}: {e}"))),
    }
}

/// Load `files`, keep CronJobs matching `name`/`namespace`, and evaluate them.
pub fn evaluate(
    files: &[String],
    name: Option<&str>,
    namespace: Option<&str>,
    args: &ReplayArgs,
    timeline: usize,
) -> Result<Evaluation, UsageError> {
    let zone: TimeZone = controller_zone(&args.controller_time_zone)?;
    let version = version(args)?;
    let now = now(args)?;
    let loaded = crate::input::load_paths(files);
    let (mut snapshot, errors) = loaded.into_snapshot();
    let all_names: Vec<String> = snapshot
        .cron_jobs
        .iter()
        .map(|c| c.meta.name.clone())
        .collect();
    snapshot.cron_jobs.retain(|c| {
        name.is_none_or(|n| c.meta.name == n)
            && namespace.is_none_or(|ns| report::index::namespace_of(&c.meta.namespace) == ns)
    });
    if let Some(n) = name
        && snapshot.cron_jobs.is_empty()
        && errors.is_empty()
    {
        return Err(UsageError(not_found(n, namespace, &all_names)));
    }
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
    };
    let report = report::build(&snapshot, errors, &opts);
    // Errors go to stderr, whatever the output format (JSON and SARIF carry them too).
    if !report.errors.is_empty() {
        let color = match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                use std::io::IsTerminal;
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stderr().is_terminal()
            }
        };
        eprint!("{}", input_errors::render(&report, Style { color }));
    }
    Ok(Evaluation { report })
}

/// "no CronJob named X … did you mean Y?" with the closest names by edit distance.
pub fn not_found(name: &str, namespace: Option<&str>, names: &[String]) -> String {
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .map(|n| (strsim::levenshtein(name, n), n))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    let close: Vec<&str> = scored
        .iter()
        .filter(|(d, n)| *d <= (n.len().max(name.len()) / 3).max(2))
        .take(3)
        .map(|(_, n)| n.as_str())
        .collect();
    let place = namespace
        .map(|ns| format!(" in namespace {ns}"))
        .unwrap_or_default();
    let mut msg = format!("no CronJob named {name:?}{place} in the input");
    if !close.is_empty() {
        msg.push_str(&format!("; did you mean {}?", close.join(", ")));
    } else if !names.is_empty() && names.len() <= 10 {
        msg.push_str(&format!(" (found: {})", names.join(", ")));
    }
    msg
}

/// Terminal width for wrapping: `COLUMNS`, else 100.
pub fn width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w| *w >= 40)
        .unwrap_or(100)
}

#[cfg(test)]
mod tests {
    use super::*;

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
