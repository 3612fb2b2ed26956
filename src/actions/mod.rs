//! The IO half of the safe actions (`trigger`, `suspend`, `unsuspend`): the plans are pure
//! (`doctor::actions`); this layer reads the CronJob, previews, dry-runs on the server, asks,
//! and sends exactly the planned requests with a resourceVersion precondition and our field
//! manager, re-reading on 409. Reads and writes go through the command's one connection
//! (`cluster`: reads retried, the server's clock; writes sent once, by `cluster::writer`).
//! Actions return outcomes and errors; only `commands` turn them into exit codes.

pub mod patch;
pub mod session;
pub mod wait;

use crate::cluster::http::ApiError;
use crate::error::{ClusterError, Declined, Error};
use session::Session;

/// A failed write, said so the user knows what was tried, whether anything changed, and what
/// to do next.
pub fn write_failure(s: &Session, what: &str, e: &ApiError, permission: &str) -> Error {
    ClusterError::Write {
        what: what.to_string(),
        context: s.api.target.context.clone(),
        place: s.api.target.describe(),
        namespace: s.ns.clone(),
        permission: permission.to_string(),
        source: e.clone(),
    }
    .into()
}

/// The refusal when nobody can be asked.
pub fn no_terminal(nothing_was: &'static str) -> Error {
    Declined::NoTerminal { nothing_was }.into()
}

/// Who to record as the one suspending: `--by`, else the login name, else the kubeconfig
/// context (the API server does not tell a client who it is without another request).
pub fn who(by: Option<&str>, context: &str) -> String {
    by.map(str::to_string)
        .or_else(|| {
            ["USER", "USERNAME", "LOGNAME"]
                .iter()
                .filter_map(|k| std::env::var(k).ok())
                .find(|v| !v.trim().is_empty())
        })
        .unwrap_or_else(|| format!("context {context}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_wins_over_the_environment() {
        assert_eq!(who(Some("oncall-bob"), "prod"), "oncall-bob");
    }

    #[test]
    fn refusals_say_what_to_do() {
        let m = no_terminal("nothing was created").to_string();
        assert!(
            m.contains("nothing was created") && m.contains("--yes"),
            "{m}"
        );
    }
}
