//! One module per subcommand. Each returns an exit code; errors are printed once, here or
//! in `main`.

pub mod completion;
pub mod explain;
pub mod lint;
pub mod manpage;
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

/// Parse an RFC 3339 instant given on the command line.
pub fn parse_instant(flag: &str, value: &str) -> Result<Timestamp, UsageError> {
    if flag == "--now" && value == "dump" {
        return Err(UsageError(
            "--now dump judges -f input as of its newest timestamp; read from a cluster, \"now\" is the API server's clock (give an RFC 3339 instant to override it)".into(),
        ));
    }
    value.parse::<Timestamp>().map_err(|e| {
        UsageError(format!(
            "{flag} {value:?} is not an RFC 3339 instant (for example 2026-11-20T12:00:00Z): {e}"
        ))
    })
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
