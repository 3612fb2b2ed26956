//! The errors on this machine's side: the output could not be delivered, the machine could
//! not do it, or nobody said yes. Their causes are io and serde errors, kept as sources.

use std::io;

/// The output could not be delivered (a full disk, a closed descriptor).
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write the output: {0}")]
    Stdout(#[source] io::Error),
    /// `--write-baseline FILE`; `shown` is the path as text output shows it.
    #[error("{shown}: cannot write the baseline: {source}")]
    Baseline { shown: String, source: io::Error },
}

/// The machine could not do it.
#[derive(Debug, thiserror::Error)]
pub enum SystemError {
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[source] io::Error),
    /// A context's work panicked (kube's client on a strange kubeconfig entry); the panic
    /// message is already on stderr.
    #[error(
        "the Kubernetes client failed unexpectedly (see the panic message above); check this context's entry in the kubeconfig"
    )]
    ClientPanicked,
    #[error("cannot write JSON: {0}")]
    Json(#[source] serde_json::Error),
}

/// Nobody said yes: nothing was done. `nothing_was` says what stayed undone ("nothing was
/// changed", "nothing was created").
#[derive(Debug, thiserror::Error)]
pub enum Declined {
    #[error("not confirmed: {nothing_was}")]
    NotConfirmed { nothing_was: &'static str },
    #[error(
        "stdin is not a terminal, so there is nobody to confirm: {nothing_was}. Review the preview above and add --yes to go ahead (or --dry-run=server to only test it)"
    )]
    NoTerminal { nothing_was: &'static str },
}
