//! The property the numeric-argument fuzz target (`fuzz/fuzz_targets/cli_numeric_args.rs`)
//! checks, here so that an ordinary test (`tests/cli_flags_ranges.rs`) compiles and runs the
//! very same function on every `cargo test`, fuzzer or not.
//!
//! Input layout: byte 0 picks a (subcommand, numeric flag) slot, byte 1 the spelling
//! (`--flag=value`, `--flag value`, or the value twice), the rest is the value (UTF-8, lossy).

use clap::Parser;

use crate::cli::ranges::{
    CONTEXT_TIMEOUT_RANGE, COUNT_MAX, GRACE_MAX, REQUEST_TIMEOUT_MAX, TIMELINE_MAX,
    WAIT_TIMEOUT_MAX, bounded_duration,
};
use crate::cli::{Cli, Command};

/// Every numeric flag of every subcommand, with the argv that comes before it.
const SLOTS: &[(&[&str], &str)] = &[
    (&["explain", "-f", "x.yaml"], "--timeline"),
    (&["scan", "-A"], "--timeline"),
    (&["next", "* * * * *"], "--count"),
    (&["explain", "cj"], "--request-timeout"),
    (&["scan"], "--request-timeout"),
    (&["trigger", "cj"], "--request-timeout"),
    (&["suspend", "cj"], "--request-timeout"),
    (&["unsuspend", "cj"], "--request-timeout"),
    (&["trigger", "cj", "--wait"], "--timeout"),
    (&["lint", "-f", "x.yaml"], "--kube-version"),
    (&["monitor", "-A"], "--grace"),
    (&["monitor", "-A"], "--request-timeout"),
    (&["scan", "--all-contexts"], "--context-timeout"),
    (&["explain", "cj", "--all-contexts"], "--context-timeout"),
];

/// A flag that broke its documented range: the argv and what went wrong.
#[derive(Debug, thiserror::Error)]
pub enum BrokenPromise {
    #[error("{argv:?}: rejected without a usage error: {source}")]
    NoUsageError {
        argv: Vec<String>,
        source: clap::Error,
    },
    #[error("{argv:?}: {why}")]
    OutOfRange { argv: Vec<String>, why: OutOfRange },
}

/// Equal when they say the same (tests compare outcomes; clap's error has no `PartialEq`).
impl PartialEq for BrokenPromise {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for BrokenPromise {}

/// What a parsed value breaks (`read`: what the flag's parser made of it, as Debug shows it).
#[derive(Debug, thiserror::Error)]
pub enum OutOfRange {
    #[error("{flag} {text:?} accepted but reads as {read}")]
    Duration {
        flag: String,
        text: String,
        read: String,
    },
    #[error("--count {0} outside 1..={COUNT_MAX}")]
    Count(u32),
    #[error("--grace {0:?} above {GRACE_MAX:?}")]
    Grace(std::time::Duration),
    #[error("--kube-version {value:?} accepted but does not parse: {source}")]
    KubeVersion {
        value: String,
        source: doctor::replay::VersionParseError,
    },
    #[error("--kube-version given but not kept")]
    KubeVersionLost,
    #[error("{flag} parsed into an unexpected command: {command}")]
    Command { flag: String, command: String },
    #[error("--context-timeout {0:?} outside 1s..=1h")]
    ContextTimeout(std::time::Duration),
    #[error("--timeline {0} outside 0..={TIMELINE_MAX}")]
    Timeline(usize),
}

/// Parse one argv built from `data` with the real parser: `Ok(true)` accepted (and in range),
/// `Ok(false)` refused as a usage error. `Err` names a broken promise: a value outside its
/// documented range, or a rejection without a usage-error exit code.
pub fn check_numeric_argv(data: &[u8]) -> Result<bool, BrokenPromise> {
    let (slot, form, value) = match data {
        [a, b, rest @ ..] => (*a as usize % SLOTS.len(), *b % 3, rest),
        _ => return Ok(false),
    };
    let (prefix, flag) = SLOTS[slot];
    let value = String::from_utf8_lossy(value).into_owned();
    let mut argv: Vec<String> = std::iter::once("kubectl-cronjob_doctor")
        .chain(prefix.iter().copied())
        .map(str::to_string)
        .collect();
    match form {
        0 => argv.push(format!("{flag}={value}")),
        1 => argv.extend([flag.to_string(), value.clone()]),
        _ => argv.extend([format!("{flag}={value}"), flag.to_string(), value.clone()]),
    }
    match Cli::try_parse_from(&argv) {
        Err(e) => {
            let asked_for_output = matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            );
            if !asked_for_output && (e.exit_code() != 2 || e.to_string().trim().is_empty()) {
                return Err(BrokenPromise::NoUsageError { argv, source: e });
            }
            Ok(false)
        }
        Ok(cli) => in_range(&cli, flag)
            .map(|()| true)
            .map_err(|why| BrokenPromise::OutOfRange { argv, why }),
    }
}

fn in_range(cli: &Cli, flag: &str) -> Result<(), OutOfRange> {
    let duration_ok = |text: &str, max| match bounded_duration(text, max, "max") {
        Ok(None) => Ok(()),
        Ok(Some(d)) if d <= max => Ok(()),
        other => Err(OutOfRange::Duration {
            flag: flag.to_string(),
            text: text.to_string(),
            read: format!("{other:?}"),
        }),
    };
    match (&cli.command, flag) {
        (Command::Explain(a), "--timeline")
        | (Command::Explain(a), "--request-timeout")
        | (Command::Explain(a), "--context-timeout") => {
            check_timeline(a.timeline)?;
            check_context_timeout(a.fleet.context_timeout)?;
            duration_ok(&a.kube.request_timeout, REQUEST_TIMEOUT_MAX)
        }
        (Command::Scan(a), _) => {
            check_timeline(a.timeline)?;
            check_context_timeout(a.fleet.context_timeout)?;
            duration_ok(&a.kube.request_timeout, REQUEST_TIMEOUT_MAX)
        }
        (Command::Next(a), _) => (1..=COUNT_MAX)
            .contains(&a.count)
            .then_some(())
            .ok_or(OutOfRange::Count(a.count)),
        (Command::Trigger(a), _) => {
            duration_ok(&a.timeout, WAIT_TIMEOUT_MAX)?;
            duration_ok(&a.action.kube.request_timeout, REQUEST_TIMEOUT_MAX)
        }
        (Command::Suspend(a), _) => {
            duration_ok(&a.action.kube.request_timeout, REQUEST_TIMEOUT_MAX)
        }
        (Command::Unsuspend(a), _) => {
            duration_ok(&a.action.kube.request_timeout, REQUEST_TIMEOUT_MAX)
        }
        (Command::Monitor(a), _) => {
            (a.grace <= GRACE_MAX)
                .then_some(())
                .ok_or(OutOfRange::Grace(a.grace))?;
            duration_ok(&a.kube.request_timeout, REQUEST_TIMEOUT_MAX)
        }
        (Command::Lint(a), _) => match &a.replay.kube_version {
            Some(v) => v
                .parse::<doctor::replay::KubeVersion>()
                .map(|_| ())
                .map_err(|e| OutOfRange::KubeVersion {
                    value: v.clone(),
                    source: e,
                }),
            None => Err(OutOfRange::KubeVersionLost),
        },
        (other, _) => Err(OutOfRange::Command {
            flag: flag.to_string(),
            command: format!("{other:?}"),
        }),
    }
}

fn check_context_timeout(d: std::time::Duration) -> Result<(), OutOfRange> {
    let (lo, hi) = CONTEXT_TIMEOUT_RANGE;
    (lo..=hi)
        .contains(&d)
        .then_some(())
        .ok_or(OutOfRange::ContextTimeout(d))
}

fn check_timeline(n: usize) -> Result<(), OutOfRange> {
    (n <= TIMELINE_MAX)
        .then_some(())
        .ok_or(OutOfRange::Timeline(n))
}
