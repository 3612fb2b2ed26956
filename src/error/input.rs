//! The input could not be read or holds nothing to work on: the project's config file, a
//! baseline, the kubeconfig. Each variant names the file or context and keeps the cause
//! (an io error, kube's kubeconfig error) as its source.
//!
//! Messages that may quote a cluster URL are scrubbed of its userinfo when displayed
//! (`redact_userinfo`), as they were when they were strings.

use std::path::PathBuf;

use doctor::baseline::BaselineError;
use doctor::config::file::ConfigError;
use doctor::names::InvalidName;
use doctor::report::visible::one_line;
use kube::config::{InClusterError, KubeconfigError as KubeError};

use super::chain::error_chain;
use crate::input::ReadError;
use crate::redact::redact_userinfo;

/// An input error: exit 2.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// `name` as `path.display()` shows it.
    #[error("{name}: cannot read the config file: {source}")]
    ConfigUnreadable { name: String, source: ReadError },
    #[error("{name}: the config file is not UTF-8 text")]
    ConfigNotUtf8 { name: String },
    /// Every problem of the file, one line each (`FILE:LINE:COL: message`).
    #[error("{}", config_lines(name, errors))]
    ConfigInvalid {
        name: String,
        errors: Vec<ConfigError>,
    },

    /// `shown`: the path as text output shows it (one line).
    #[error("{shown}: cannot read the baseline: {source}")]
    BaselineUnreadable { shown: String, source: ReadError },
    #[error("{shown}: the baseline is not UTF-8 text")]
    BaselineNotUtf8 { shown: String },
    #[error("{shown}{}: {}", at(error), one_line(&error.message))]
    BaselineInvalid { shown: String, error: BaselineError },

    #[error(
        "--all-contexts reads the contexts of a kubeconfig, and none was found (--kubeconfig, KUBECONFIG, ~/.kube/config)"
    )]
    NoKubeconfigForContexts,
    /// The kubeconfig files (named by `from`: `--kubeconfig X`, `KUBECONFIG=…`) cannot be read.
    #[error("{}", redact_userinfo(&format!("{source} (from {from})")))]
    Kubeconfig {
        from: String,
        source: KubeconfigError,
    },
    #[error("--all-contexts: the kubeconfig has no contexts (from {from})")]
    NoContexts { from: String },
    /// kube cannot make a configuration of `context` (empty: no current-context).
    #[error("{}", redact_userinfo(&format!("cannot use {} from {from}: {source}", context_words(context))))]
    CannotUse {
        context: String,
        from: String,
        source: KubeError,
    },
    #[error(
        "no kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a cluster: {0}"
    )]
    NotInCluster(#[source] InClusterError),
    /// kube cannot build a client; `target` is `Target::describe`.
    #[error("{}", redact_userinfo(&format!("cannot set up a client for {target}: {}", error_chain(source))))]
    ClientSetup { target: String, source: kube::Error },
    #[error(
        "cannot set up a client for {target}: the user's token holds characters an HTTP header cannot carry (a control character or line break pasted into the kubeconfig?): fix the token there"
    )]
    BadToken { target: String },
    /// The context's own namespace is not a valid name; `context` as shown (one line).
    #[error("the namespace of context {context} (from {from}): {source}")]
    ContextNamespace {
        context: String,
        from: String,
        source: InvalidName,
    },
    /// Said before a write: the error, and that no request left.
    #[error("{0}; nothing was sent")]
    NothingSent(#[source] Box<InputError>),
}

/// Why the kubeconfig files cannot be read and merged.
#[derive(Debug, thiserror::Error)]
pub enum KubeconfigError {
    /// Only the first line of a YAML error is said: the rest quotes the file (a token line).
    #[error("{}", read_error(path, source))]
    Read { path: PathBuf, source: KubeError },
    #[error("cannot merge kubeconfig {}: {source}", path.display())]
    Merge { path: PathBuf, source: KubeError },
    #[error("none of the kubeconfig files exist")]
    NoneExist,
}

fn config_lines(name: &str, errors: &[ConfigError]) -> String {
    errors
        .iter()
        .map(|e| format!("{name}:{}:{}: {}", e.line, e.column, one_line(&e.message)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `:LINE:COL`, or nothing for an error about the whole file.
fn at(e: &BaselineError) -> String {
    match (e.line, e.column) {
        (0, _) => String::new(),
        (l, c) => format!(":{l}:{c}"),
    }
}

fn context_words(context: &str) -> String {
    if context.is_empty() {
        "no current-context".to_string()
    } else {
        format!("context {context:?}")
    }
}

/// Why a kubeconfig file cannot be used. A YAML error's message goes on with a snippet of the
/// file (which may be a `token:` line): only its first line, the position and the reason, is
/// kept. kube's read error names the file already; its parse error does not.
fn read_error(p: &std::path::Path, e: &KubeError) -> String {
    match e {
        KubeError::Parse(yaml) => {
            let text = yaml.to_string();
            let first = text.lines().next().unwrap_or("").trim();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            format!("cannot parse kubeconfig {}: {first}", p.display())
        }
        other => other.to_string(),
    }
}
