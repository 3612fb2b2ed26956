//! The fake API server's own errors, typed like the tool's: why it cannot start,
//! why it refuses a fixture object, a JSON patch or a selector. The texts are the real API
//! server's where it has one (a selector's 400, a patch's 422), since clients show them.

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Tls(#[from] TlsError),
    #[error(transparent)]
    Object(#[from] ObjectError),
    /// Binding the port, or starting the server's thread.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The server's thread ended before it said where it listens.
    #[error(transparent)]
    Thread(#[from] std::sync::mpsc::RecvError),
}

/// Why the certificates could not be made (`what`: "CA key", "server certificate", …).
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("TLS {what}: {source}")]
    Certificate {
        what: &'static str,
        source: rcgen::Error,
    },
    #[error("TLS config: {0}")]
    Config(#[source] rustls::Error),
}

/// A fixture or `put_object` object the server cannot store.
#[derive(Debug, thiserror::Error)]
pub enum ObjectError {
    #[error("fake-apiserver does not serve {api_version} {kind}")]
    NotServed { api_version: String, kind: String },
    #[error("{kind} without metadata")]
    NoMetadata { kind: String },
    #[error("{kind} without metadata.name")]
    NoName { kind: String },
}

/// A JSON patch (RFC 6902) that does not apply; texts as the real server's (evanphx/json-patch).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonPatchError {
    #[error("a JSON patch must be an array of operations")]
    NotAnArray,
    #[error("JSON patch operation without path")]
    NoPath,
    #[error("missing value for {0}")]
    NoValue(String),
    #[error("missing from for {0}")]
    NoFrom(String),
    #[error("invalid JSON pointer {0:?}")]
    Pointer(String),
    #[error("unable to remove nonexistent key: {0}")]
    NoKeyToRemove(String),
    #[error("doc is missing path: {0:?}")]
    MissingPath(String),
    #[error("replace operation does not apply: doc is missing key: {0}")]
    NoKeyToReplace(String),
    #[error("copy from missing path {0}")]
    NoCopySource(String),
    #[error("testing value {0} failed")]
    TestFailed(String),
    #[error("unexpected kind: {0:?}")]
    UnknownOp(String),
}

/// A `labelSelector` or `fieldSelector` the real server answers 400 to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    /// `what` went wrong in label selector `selector`.
    #[error("unable to parse requirement: {what} in {selector:?}")]
    Label {
        what: &'static str,
        selector: String,
    },
    #[error("invalid selector: '{selector}'; can't understand '{term}'")]
    Field { selector: String, term: String },
    #[error("field label not supported: {0}")]
    UnsupportedField(String),
}

/// A `--generate` value that is not `kind=count,…`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountsError {
    #[error("expected kind=count, got {0:?}")]
    Shape(String),
    #[error("bad count in {0:?}")]
    Count(String),
    #[error("unknown kind {0:?} (cronjobs, jobs, pods, events, namespaces)")]
    Kind(String),
}
