//! One module per subcommand. Each returns an exit code; errors are printed once, here or
//! in `main`.

pub mod completion;
pub mod explain;
pub mod lint;
pub mod manpage;
pub mod monitor;
pub mod next;
pub mod report_cmd;
pub mod rules;
pub mod scan;
pub mod suspend;
pub mod trigger;
pub mod version;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::cli::ColorChoice;

/// Exit codes shared by every command (see README "Exit codes").
pub mod exit {
    /// Healthy / nothing at or above --fail-on.
    pub const OK: i32 = 0;
    /// Findings at or above --fail-on, or a rejected schedule.
    pub const FINDINGS: i32 = 1;
    /// The tool could not do its job: bad flags, unreadable input, unreachable API.
    pub const TROUBLE: i32 = 2;
}

/// The verdict of a write to stdout: a reader that went away (`| head`) is no failure; any
/// other error (a full disk, a closed descriptor) is said once and makes the exit code 2, since
/// the output the exit code stands for was not delivered.
pub fn output_failed(written: std::io::Result<()>) -> Option<i32> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the output: {e}");
            Some(exit::TROUBLE)
        }
        _ => None,
    }
}

/// Write to stdout without panicking when the reader went away (`| head`).
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// A problem with what the user typed: printed as `error: …`, exit 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `--color` plus NO_COLOR plus "is stdout a terminal".
pub fn use_color(choice: ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// The latest `--now` a replay accepts. The replay and the rules look ahead of "now" (robfig's
/// 5-year window, chained; the never-fires rule's 10-year horizon), and every time they
/// compute must fit a timestamp (up to 9999-12-30T22:00:00Z), so "now" stops 20 years short.
pub const LATEST_NOW: Timestamp = Timestamp::constant(252_771_148_799, 0); // 9979-12-31T23:59:59Z

/// The last whole second a timestamp here can hold, for messages.
fn last_computable() -> Timestamp {
    Timestamp::constant(Timestamp::MAX.as_second(), 0)
}

/// Parse an RFC 3339 instant given on the command line: any instant a timestamp here can hold.
/// RFC 3339 goes on to 9999-12-31T23:59:59Z; the last hours of year 9999 are refused with
/// that reason, not as "not an RFC 3339 instant".
pub fn parse_rfc3339(flag: &str, value: &str) -> Result<Timestamp, UsageError> {
    value.parse::<Timestamp>().map_err(|e| {
        let valid_but_late = jiff::fmt::temporal::Pieces::parse(value).is_ok_and(|p| {
            p.time().is_some() && p.offset().is_some() && p.date().year() >= 9999
        });
        if valid_but_late {
            UsageError(format!(
                "{flag} {value:?} is out of range: this tool computes times up to {} (a valid RFC 3339 time, but past the last one it can represent)",
                last_computable()
            ))
        } else {
            UsageError(format!(
                "{flag} {value:?} is not an RFC 3339 instant (for example 2026-11-20T12:00:00Z): {e}"
            ))
        }
    })
}

/// Parse `--now` (RFC 3339), up to [`LATEST_NOW`].
pub fn parse_instant(flag: &str, value: &str) -> Result<Timestamp, UsageError> {
    if flag == "--now" && value == "dump" {
        return Err(UsageError(
            "--now dump judges -f input as of its newest timestamp; read from a cluster, \"now\" is the API server's clock (give an RFC 3339 instant to override it)".into(),
        ));
    }
    let t = parse_rfc3339(flag, value)?;
    check_now(flag, value, t)
}

/// Refuse a "now" past [`LATEST_NOW`] (typed, or the newest timestamp of a hostile dump).
pub fn check_now(flag: &str, value: &str, t: Timestamp) -> Result<Timestamp, UsageError> {
    if t > LATEST_NOW {
        return Err(UsageError(format!(
            "{flag} {value:?} is out of range: the replay looks up to 20 years ahead and computes times only up to {}, so {flag} must be at most {LATEST_NOW}",
            last_computable()
        )));
    }
    Ok(t)
}

/// Resolve `--controller-time-zone` with Go's rules. "Local" is refused: the point of the
/// flag is to name the controller's zone, which we cannot know from here.
pub fn controller_zone(name: &str) -> Result<TimeZone, UsageError> {
    match schedule::load_location(name) {
        Ok(Some(loc)) => Ok(loc.tz),
        Ok(None) => Err(UsageError(
            "--controller-time-zone Local names no zone from here: give the kube-controller-manager's zone (usually UTC)".into(),
        )),
        Err(e) => Err(UsageError(format!("--controller-time-zone {name:?}: {e}"))),
    }
}
