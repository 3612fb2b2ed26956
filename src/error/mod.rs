//! The one error type of the shell and the exit codes (see README "Exit codes"). Every command
//! returns `Result<exit code, Error>`; `main` prints an error once (`error: …` on stderr) and
//! exits with its [`Error::exit_code`], the one place errors become exit codes.
//!
//! The variants say whose side the trouble is on; each holds a typed error of that side
//! ([`usage`], [`input`], [`cluster`], [`local`]), never a bare string. A message is complete
//! on its own ("what was tried: the cause. What to do next"): where a cause is quoted, the
//! typed cause is also kept as the error's `source()`, for code that asks *what* failed
//! (tests, retries), while `main` prints only the top message, so no cause is said twice.
//!
//! Nearly a leaf: every module returns these errors, so they may name nothing of ours but
//! the leaves `cli` (clap's `FlagError`), `input` (`ReadError`) and `redact` (messages are
//! scrubbed of URL credentials when displayed). What their messages need is here: the
//! request errors ([`api`]), cause chains ([`chain`]), durations and sizes ([`words`]).

pub mod api;
pub mod chain;
pub mod cluster;
pub mod input;
pub mod local;
pub mod usage;
pub mod words;

pub use cluster::ClusterError;
pub use input::InputError;
pub use local::{Declined, OutputError, SystemError};
pub use usage::UsageError;

/// Exit codes shared by every command.
pub mod exit {
    /// Healthy / nothing at or above --fail-on.
    pub const OK: i32 = 0;
    /// Findings at or above --fail-on, or a rejected schedule.
    pub const FINDINGS: i32 = 1;
    /// The tool could not do its job: bad flags, unreadable input, unreachable API.
    pub const TROUBLE: i32 = 2;
}

/// Why a command could not do its job. Display is the whole message `main` prints.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// What the user typed cannot work: a flag value, an invalid name, a conflict of flags.
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// The input could not be read or holds nothing to work on (files, kubeconfig).
    #[error(transparent)]
    Input(#[from] InputError),
    /// The cluster could not be reached or refused a request; or a write was not sent.
    /// Boxed: it carries the failed request and its cause, and every `Result` of the shell
    /// would otherwise be as large.
    #[error(transparent)]
    Api(Box<ClusterError>),
    /// The output could not be delivered (a full disk, a closed descriptor).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The machine could not do it: the async runtime would not start.
    #[error(transparent)]
    System(#[from] SystemError),
    /// Nobody said yes (declined, or no terminal to ask and no --yes): nothing was changed.
    #[error(transparent)]
    Declined(#[from] Declined),
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
}

impl From<ClusterError> for Error {
    fn from(e: ClusterError) -> Self {
        Error::Api(Box::new(e))
    }
}

/// A command's result: its exit code (0 or 1) or the error that stopped it.
pub type Outcome = Result<i32, Error>;

#[cfg(test)]
mod tests;
