//! Which cluster, as kubectl would pick it: `--kubeconfig` (one file), else `KUBECONFIG` (several
//! files merged, first one wins), else `~/.kube/config`, else the in-cluster service account;
//! `--context`/`--cluster`/`--user` override the current context's choices. Exec credential
//! plugins, client certificates, tokens and OIDC come with kube's `Config`.

use std::path::PathBuf;
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig};

use crate::cli::KubeArgs;
use crate::error::input::KubeconfigError;
use crate::error::{Error, InputError, UsageError};
pub use crate::redact::redact_userinfo;
use crate::redact::{forget_on_print, userinfo_in_text};

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

/// The userinfo part of `url`'s authority (`user:password`), if it has one.
fn userinfo(url: &http::Uri) -> Option<&str> {
    let authority = url.authority()?.as_str();
    authority.rfind('@').map(|at| &authority[..at])
}

/// `url` as messages show it: scheme, `REDACTED@` when it carries credentials, host, port and
/// path, built from the parsed URL so no part of the userinfo can leak.
fn display_server(url: &http::Uri) -> String {
    let mut out = String::new();
    if let Some(scheme) = url.scheme_str() {
        out.push_str(scheme);
        out.push_str("://");
    }
    if userinfo(url).is_some() {
        out.push_str("REDACTED@");
    }
    if let Some(host) = url.host() {
        out.push_str(host);
    }
    if let Some(port) = url.port_u16() {
        out.push_str(&format!(":{port}"));
    }
    out.push_str(url.path());
    out
}

/// Note the cluster URL's credentials (see [`SECRETS`]) and return how to show the URL.
fn server_for_messages(url: &http::Uri) -> String {
    if let Some(u) = userinfo(url) {
        forget_on_print(u);
    }
    display_server(url)
}

/// `--request-timeout` as kubectl reads it: `0` (no limit), a number of seconds, or a Go-style
/// duration made of `h`, `m`, `s`, `ms` parts (`1m30s`). One grammar with the flag's range
/// check (`cli::ranges::bounded_duration`), which clap has already applied.
pub fn parse_timeout(s: &str) -> Result<Option<Duration>, Error> {
    crate::cli::ranges::bounded_duration(s, crate::cli::ranges::REQUEST_TIMEOUT_MAX, "24h").map_err(
        |e| {
            UsageError::RequestTimeout {
                value: s.to_string(),
                source: e,
            }
            .into()
        },
    )
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
fn read_kubeconfig(paths: &[PathBuf], explicit: bool) -> Result<Kubeconfig, KubeconfigError> {
    let mut merged = Kubeconfig::default();
    let mut read_any = false;
    for p in paths {
        if !explicit && !p.exists() {
            continue;
        }
        let k = Kubeconfig::read_from(p).map_err(|e| KubeconfigError::Read {
            path: p.clone(),
            source: e,
        })?;
        // Before any message can name a server: every cluster's credentials are secrets.
        for c in k.clusters.iter().filter_map(|c| c.cluster.as_ref()) {
            if let Some(u) = c.server.as_deref().and_then(userinfo_in_text) {
                forget_on_print(u);
            }
        }
        merged = merged.merge(k).map_err(|e| KubeconfigError::Merge {
            path: p.clone(),
            source: e,
        })?;
        read_any = true;
    }
    if !read_any {
        return Err(KubeconfigError::NoneExist);
    }
    Ok(merged)
}

/// The one `--context` of a single-cluster connection. Several are a fleet, which only `scan`
/// and `explain` read (each context through a connection of its own).
fn one_context(args: &KubeArgs) -> Result<Option<String>, Error> {
    match args.context.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        many => Err(UsageError::SeveralContexts(many.len()).into()),
    }
}

/// The context names of the kubeconfig (as kubectl merges it), in file order, and where they
/// came from: what `--all-contexts` reads. Without a kubeconfig there is nothing to list.
pub fn context_names(args: &KubeArgs) -> Result<(Vec<String>, String), Error> {
    let Some((paths, source)) = kubeconfig_paths(args) else {
        return Err(InputError::NoKubeconfigForContexts.into());
    };
    let kc =
        read_kubeconfig(&paths, args.kubeconfig.is_some()).map_err(|e| InputError::Kubeconfig {
            from: source.clone(),
            source: e,
        })?;
    let mut names: Vec<String> = Vec::new();
    for c in &kc.contexts {
        if !names.contains(&c.name) {
            names.push(c.name.clone());
        }
    }
    if names.is_empty() {
        return Err(InputError::NoContexts {
            from: source.clone(),
        }
        .into());
    }
    Ok((names, source))
}

/// Build the client configuration. kube's own retry layer is switched off: it retries 15
/// times with up to 1000 s between attempts, which would freeze a CLI; `http` retries instead,
/// visibly and within `--request-timeout`, which it enforces around each request; hyper's
/// own read timeout stays off, since two clocks racing would make the message a coin toss.
pub async fn load(args: &KubeArgs) -> Result<(kube::Config, Target), Error> {
    let mut config;
    let target;
    match kubeconfig_paths(args) {
        Some((paths, source)) => {
            let chosen = one_context(args)?;
            let kc = read_kubeconfig(&paths, args.kubeconfig.is_some()).map_err(|e| {
                InputError::Kubeconfig {
                    from: source.clone(),
                    source: e,
                }
            })?;
            let context = chosen
                .clone()
                .or_else(|| kc.current_context.clone())
                .unwrap_or_default();
            let opts = KubeConfigOptions {
                context: chosen,
                cluster: args.cluster.clone(),
                user: args.user.clone(),
            };
            config = kube::Config::from_custom_kubeconfig(kc, &opts)
                .await
                .map_err(|e| InputError::CannotUse {
                    context: context.clone(),
                    from: source.clone(),
                    source: e,
                })?;
            target = Target {
                context: if context.is_empty() {
                    "(none)".into()
                } else {
                    context
                },
                server: server_for_messages(&config.cluster_url),
                source,
                namespace: config.default_namespace.clone(),
            };
        }
        None => {
            config = kube::Config::incluster().map_err(InputError::NotInCluster)?;
            target = Target {
                context: "in-cluster".into(),
                server: server_for_messages(&config.cluster_url),
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
    use crate::redact::percent_decoded;

    #[test]
    fn timeouts_read_like_kubectl() {
        assert_eq!(parse_timeout("0").unwrap(), None);
        assert_eq!(parse_timeout("15").unwrap(), Some(Duration::from_secs(15)));
        assert_eq!(parse_timeout("30s").unwrap(), Some(Duration::from_secs(30)));
        assert_eq!(
            parse_timeout("1m30s").unwrap(),
            Some(Duration::from_secs(90))
        );
        assert_eq!(
            parse_timeout("500ms").unwrap(),
            Some(Duration::from_millis(500))
        );
        assert_eq!(parse_timeout("0s").unwrap(), None);
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

    #[test]
    fn the_cluster_urls_exact_userinfo_is_removed_even_where_the_scan_stops_early() {
        let server = "http://admin:p,(x)'!S3cr@127.0.0.1:6443";
        let url: http::Uri = server.parse().unwrap();
        assert_eq!(server_for_messages(&url), "http://REDACTED@127.0.0.1:6443/");
        let text = format!("cannot reach {server} (x)");
        let shown = redact_userinfo(&text);
        assert!(!shown.contains("S3cr"), "{shown}");
        assert_eq!(shown, "cannot reach http://REDACTED@127.0.0.1:6443 (x)");
        assert_eq!(userinfo_in_text(server), Some("admin:p,(x)'!S3cr"));
        assert_eq!(userinfo_in_text("https://h:1/a@b"), None);
        assert_eq!(percent_decoded("a%2Cb%zz%4"), "a,b%zz%4");
    }

    #[test]
    fn a_kubeconfig_yaml_error_never_quotes_the_file() {
        let dir = std::env::temp_dir().join(format!("cjd-kc-yaml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("config");
        std::fs::write(
            &p,
            "apiVersion: v1\nusers:\n- name: u\n  user:\n    token: TOKEN-SECRET\n   bad: [\n",
        )
        .unwrap();
        let e = read_kubeconfig(std::slice::from_ref(&p), true)
            .unwrap_err()
            .to_string();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!e.contains("TOKEN-SECRET"), "{e}");
        assert!(!e.contains('\n'), "{e}");
        assert!(e.starts_with("cannot parse kubeconfig "), "{e}");
    }
}
