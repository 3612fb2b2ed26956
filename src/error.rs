//! The one error type of the shell and the exit codes (see README "Exit codes"). Every command
//! returns `Result<exit code, Error>`; `main` prints an error once (`error: …` on stderr) and
//! exits with its [`Error::exit_code`]. A leaf: it imports nothing of ours, so every module
//! may use it without closing a cycle.

/// Exit codes shared by every command.
pub mod exit {
    /// Healthy / nothing at or above --fail-on.
    pub const OK: i32 = 0;
    /// Findings at or above --fail-on, or a rejected schedule.
    pub const FINDINGS: i32 = 1;
    /// The tool could not do its job: bad flags, unreadable input, unreachable API.
    pub const TROUBLE: i32 = 2;
}

/// Why a command could not do its job. The variants say whose side the trouble is on; the
/// message is complete on its own (what was tried, what to do next).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// What the user typed cannot work: a flag value, an invalid name, a conflict of flags.
    Usage(String),
    /// The input could not be read or holds nothing to work on (files, kubeconfig).
    Input(String),
    /// The cluster could not be reached or refused a request; or a write was not sent.
    Api(String),
    /// The output could not be delivered (a full disk, a closed descriptor).
    Output(String),
    /// The machine could not do it: the async runtime would not start.
    System(String),
    /// Nobody said yes (declined, or no terminal to ask and no --yes): nothing was changed.
    Declined(String),
}

impl Error {
    /// Every error means "the tool could not do its job": exit 2. (Findings are not errors:
    /// commands return exit code 1 for them as a success.)
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_)
            | Error::Input(_)
            | Error::Api(_)
            | Error::Output(_)
            | Error::System(_)
            | Error::Declined(_) => exit::TROUBLE,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Error::Usage(m)
            | Error::Input(m)
            | Error::Api(m)
            | Error::Output(m)
            | Error::System(m)
            | Error::Declined(m) => m,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// A command's result: its exit code (0 or 1) or the error that stopped it.
pub type Outcome = Result<i32, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_exits_2_and_prints_its_message() {
        for e in [
            Error::Usage("u".into()),
            Error::Input("i".into()),
            Error::Api("a".into()),
            Error::Output("o".into()),
            Error::System("s".into()),
            Error::Declined("d".into()),
        ] {
            assert_eq!(e.exit_code(), exit::TROUBLE);
            assert_eq!(e.to_string().len(), 1);
        }
    }
}
