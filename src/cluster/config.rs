//! Which cluster, as kubectl would pick it: `--kubeconfig` (one file), else `KUBECONFIG` (several
//! files merged, first one wins), else `~/.kube/config`, else the in-cluster service account;
//! `--context`/`--cluster`/`--user` override the current context's choices. Exec credential
//! plugins, client certificates, tokens and OIDC come with kube's `Config`.

use std::path::PathBuf;
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig};

use crate::cli::KubeArgs;

/// Where we are talking to, for messages ("what was tried").
#[derive(Clone, Debug)]
pub struct Target {
    /// Context name, or `in-cluster`.
    pub context: String,
    pub server: String,
    /// Where the configuration came from (`kubeconfig /x`, `KUBECONFIG=a:b`, `in-cluster`).
    pub source: String,
    /// Namespace of the context (or of the service account), `default` when unset.
    pub namespace: String,
}

impl Target {
    /// `context kind-kind (https://127.0.0.1:6443, from KUBECONFIG=…)`.
    pub fn describe(&self) -> String {
        format!(
            "context {} ({}, from {})",
            self.context, self.server, self.source
        )
    }
}

/// `text` with the userinfo of every URL in it (`https://admin:SECRET@host`) replaced by
/// `REDACTED`: a kubeconfig may carry credentials in its server URL, and every message that
/// names the server, or passes on an error that does, must not print them.
pub fn redact_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        // The authority ends at the path, query or fragment, or where the URL ends in prose.
        let end = tail
            .find(|c: char| {
                matches!(
                    c,
                    '/' | '?' | '#' | '"' | '\'' | '(' | ')' | '<' | '>' | ','
                ) || c.is_whitespace()
            })
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@') {
            Some(at) => {
                out.push_str("REDACTED");
                out.push_str(&authority[at..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// `--request-timeout` as kubectl reads it: `0` (no limit), a number of seconds, or a Go-style
/// duration made of `h`, `m`, `s`, `ms` parts (`1m30s`). One grammar with the flag's range
/// check (`flag_ranges::bounded_duration`), which clap has already applied.
pub fn parse_timeout(s: &str) -> Result<Option<Duration>, String> {
    crate::flag_ranges::bounded_duration(s, crate::flag_ranges::REQUEST_TIMEOUT_MAX, "24h")
        .map_err(|e| format!("--request-timeout {s:?}: {e}"))
}

fn kubeconfig_paths(args: &KubeArgs) -> Option<(Vec<PathBuf>, String)> {
    if let Some(p) = &args.kubeconfig {
        return Some((vec![p.clone()], format!("--kubeconfig {}", p.display())));
    }
    if let Some(v) = std::env::var_os("KUBECONFIG") {
        let paths: Vec<PathBuf> = std::env::split_paths(&v)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        if !paths.is_empty() {
            return Some((paths, format!("KUBECONFIG={}", v.to_string_lossy())));
        }
    }
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"))?;
    let p = PathBuf::from(home).join(".kube").join("config");
    p.exists()
        .then(|| (vec![p.clone()], p.display().to_string()))
}

/// Read and merge the kubeconfig files. Like kubectl, a file named in `KUBECONFIG` that does
/// not exist is skipped; one named with `--kubeconfig` must exist.
fn read_kubeconfig(paths: &[PathBuf], explicit: bool) -> Result<Kubeconfig, String> {
    let mut merged = Kubeconfig::default();
    let mut read_any = false;
    for p in paths {
        if !explicit && !p.exists() {
            continue;
        }
        // kube's message names the file already.
        let k = Kubeconfig::read_from(p).map_err(|e| e.to_string())?;
        merged = merged
            .merge(k)
            .map_err(|e| format!("cannot merge kubeconfig {}: {e}", p.display()))?;
        read_any = true;
    }
    if !read_any {
        return Err("none of the kubeconfig files exist".into());
    }
    Ok(merged)
}

/// Build the client configuration. kube's own retry layer is switched off: it retries 15
/// times with up to 1000 s between attempts, which would freeze a CLI; `http` retries instead,
/// visibly and within `--request-timeout`, which it enforces around each request; hyper's
/// own read timeout stays off, since two clocks racing would make the message a coin toss.
pub async fn load(args: &KubeArgs) -> Result<(kube::Config, Target), String> {
    let mut config;
    let target;
    match kubeconfig_paths(args) {
        Some((paths, source)) => {
            let kc = read_kubeconfig(&paths, args.kubeconfig.is_some())
                .map_err(|e| redact_userinfo(&format!("{e} (from {source})")))?;
            let context = args
                .context
                .clone()
                .or_else(|| kc.current_context.clone())
                .unwrap_or_default();
            let opts = KubeConfigOptions {
                context: args.context.clone(),
                cluster: args.cluster.clone(),
                user: args.user.clone(),
            };
            config = kube::Config::from_custom_kubeconfig(kc, &opts)
                .await
                .map_err(|e| {
                    let ctx = if context.is_empty() {
                        "no current-context".to_string()
                    } else {
                        format!("context {context:?}")
                    };
                    redact_userinfo(&format!("cannot use {ctx} from {source}: {e}"))
                })?;
            target = Target {
                context: if context.is_empty() {
                    "(none)".into()
                } else {
                    context
                },
                server: redact_userinfo(&config.cluster_url.to_string()),
                source,
                namespace: config.default_namespace.clone(),
            };
        }
        None => {
            config = kube::Config::incluster().map_err(|e| {
                format!("no kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a cluster: {e}")
            })?;
            target = Target {
                context: "in-cluster".into(),
                server: redact_userinfo(&config.cluster_url.to_string()),
                source: "the pod's service account".into(),
                namespace: config.default_namespace.clone(),
            };
        }
    }
    config.default_retry = false;
    Ok((config, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_read_like_kubectl() {
        assert_eq!(parse_timeout("0"), Ok(None));
        assert_eq!(parse_timeout("15"), Ok(Some(Duration::from_secs(15))));
        assert_eq!(parse_timeout("30s"), Ok(Some(Duration::from_secs(30))));
        assert_eq!(parse_timeout("1m30s"), Ok(Some(Duration::from_secs(90))));
        assert_eq!(parse_timeout("500ms"), Ok(Some(Duration::from_millis(500))));
        assert_eq!(parse_timeout("0s"), Ok(None));
        assert!(parse_timeout("soon").is_err());
        assert!(parse_timeout("").is_err());
        assert!(parse_timeout("5x").is_err());
    }

    #[test]
    fn userinfo_is_redacted_wherever_a_url_appears() {
        assert_eq!(
            redact_userinfo("https://admin:SECRET@host:6443/"),
            "https://REDACTED@host:6443/"
        );
        assert_eq!(
            redact_userinfo(
                "context prod (http://a:b@127.0.0.1:1/, from x): error trying to connect to https://u:p@h?x#y"
            ),
            "context prod (http://REDACTED@127.0.0.1:1/, from x): error trying to connect to https://REDACTED@h?x#y"
        );
        assert_eq!(redact_userinfo("https://p@ss:w@rd@h"), "https://REDACTED@h");
        assert_eq!(redact_userinfo("no url, user@host"), "no url, user@host");
        assert_eq!(redact_userinfo("https://h/a@b"), "https://h/a@b");
        assert_eq!(redact_userinfo("x://"), "x://");
    }
}
