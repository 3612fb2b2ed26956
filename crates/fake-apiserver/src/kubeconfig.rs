//! Kubeconfig files pointing kube-rs (or kubectl) at fake servers.

use base64::Engine;
use std::path::Path;

/// One context of a generated kubeconfig; each gets its own cluster and user entry.
#[derive(Debug, Clone, Copy)]
pub struct KubeContext<'a> {
    pub name: &'a str,
    /// `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`
    pub server: &'a str,
    pub namespace: Option<&'a str>,
    /// Bearer token; the request log shows which one a request carried, i.e. which context
    /// the client used.
    pub token: &'a str,
    /// The CA (PEM) a TLS server's certificate chains to ([`crate::FakeApiServer::ca_pem`]),
    /// written as `certificate-authority-data`; None for plain HTTP.
    pub ca_pem: Option<&'a str>,
}

/// JSON strings are YAML strings, and escaping is then never in question.
fn q(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}

/// The kubeconfig text for `contexts`, with `current` as `current-context`.
pub fn kubeconfig_yaml(contexts: &[KubeContext<'_>], current: &str) -> String {
    let mut clusters = String::new();
    let mut users = String::new();
    let mut ctxs = String::new();
    for c in contexts {
        clusters += &format!(
            "- name: {}\n  cluster:\n    server: {}\n",
            q(c.name),
            q(c.server)
        );
        if let Some(pem) = c.ca_pem {
            let data = base64::engine::general_purpose::STANDARD.encode(pem);
            clusters += &format!("    certificate-authority-data: {}\n", q(&data));
        }
        users += &format!(
            "- name: {}\n  user:\n    token: {}\n",
            q(c.name),
            q(c.token)
        );
        ctxs += &format!(
            "- name: {}\n  context:\n    cluster: {}\n    user: {}\n",
            q(c.name),
            q(c.name),
            q(c.name)
        );
        if let Some(ns) = c.namespace {
            ctxs += &format!("    namespace: {}\n", q(ns));
        }
    }
    format!(
        "apiVersion: v1\nkind: Config\npreferences: {{}}\nclusters:\n{clusters}users:\n{users}contexts:\n{ctxs}current-context: {}\n",
        q(current)
    )
}

/// Writes [`kubeconfig_yaml`] to `path`.
pub fn write_kubeconfig_file(
    path: &Path,
    contexts: &[KubeContext<'_>],
    current: &str,
) -> std::io::Result<()> {
    std::fs::write(path, kubeconfig_yaml(contexts, current))
}
