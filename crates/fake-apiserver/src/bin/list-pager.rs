//! `list-pager`: the raw-transfer baseline of `tools/bench/scan-at-scale.sh`. One process and
//! one keep-alive connection (TLS when the kubeconfig's server is `https://`, verified against
//! its `certificate-authority-data`) page through LISTs one after another, `limit=500` +
//! `continue`, as a client that only moves bytes would: each body is read in full and
//! dropped, and nothing is parsed but the continue token. What it measures is the network and
//! the server, so a client's time divided by this one's is the client's own cost.
//!
//! Prints one JSON line to stdout: `{"seconds":…,"requests":…,"bytes":…}` (the time covers
//! connecting, the handshake and every page).

use base64::Engine;
use clap::Parser;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde::Deserialize;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The scan's requests: CronJobs, Jobs, the Pods of Jobs (both selectors), Events.
const SCAN_LISTS: [&str; 5] = [
    "/apis/batch/v1/cronjobs",
    "/apis/batch/v1/jobs",
    "/api/v1/pods?labelSelector=job-name",
    "/api/v1/pods?labelSelector=batch.kubernetes.io%2Fjob-name%2C%21job-name",
    "/api/v1/events",
];

#[derive(Parser)]
#[command(about = "Page through LISTs over one connection, as fast as the server sends")]
struct Args {
    /// Kubeconfig to read the current context's server, CA and token from (default: $KUBECONFIG).
    #[arg(long)]
    kubeconfig: Option<PathBuf>,
    /// Items per page.
    #[arg(long, default_value_t = 500)]
    limit: u32,
    /// LIST paths with an optional query (percent-encoded); default: the scan's five LISTs.
    lists: Vec<String>,
}

#[derive(Deserialize)]
struct Kubeconfig {
    #[serde(rename = "current-context")]
    current_context: String,
    clusters: Vec<Named<Cluster>>,
    users: Vec<Named<User>>,
    contexts: Vec<Named<Context>>,
}
#[derive(Deserialize)]
struct Named<T> {
    name: String,
    #[serde(alias = "cluster", alias = "user", alias = "context")]
    value: T,
}
#[derive(Deserialize)]
struct Cluster {
    server: String,
    #[serde(rename = "certificate-authority-data")]
    ca_data: Option<String>,
}
#[derive(Deserialize)]
struct User {
    token: Option<String>,
}
#[derive(Deserialize)]
struct Context {
    cluster: String,
    user: String,
}

/// Why the pager stopped; said once, after `list-pager: `.
#[derive(Debug, thiserror::Error)]
enum PagerError {
    #[error("no --kubeconfig and no $KUBECONFIG")]
    NoKubeconfig,
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    /// Boxed: serde-saphyr's error is large, and every `Result` here would be as large.
    Parse {
        path: PathBuf,
        source: Box<serde_saphyr::Error>,
    },
    #[error("kubeconfig has no {what} {name:?}")]
    Missing { what: &'static str, name: String },
    #[error("server {0:?}: not http(s)://")]
    Scheme(String),
    #[error("server {0:?}: expected host:port")]
    HostPort(String),
    #[error("https server without certificate-authority-data")]
    NoCa,
    #[error("certificate-authority-data: {0}")]
    CaData(#[source] base64::DecodeError),
    #[error("certificate-authority-data: {0}")]
    CaPem(#[source] rustls::pki_types::pem::Error),
    #[error("CA: {0}")]
    Ca(#[source] rustls::Error),
    #[error(transparent)]
    Tls(#[from] rustls::Error),
    #[error(transparent)]
    ServerName(#[from] rustls::pki_types::InvalidDnsNameError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("answer without Content-Length (not supported)")]
    NoLength,
    #[error("GET {target}: HTTP {status}: {text}")]
    Status {
        target: String,
        status: String,
        text: String,
    },
}

fn find<'a, T>(items: &'a [Named<T>], name: &str, what: &'static str) -> Result<&'a T, PagerError> {
    items
        .iter()
        .find(|n| n.name == name)
        .map(|n| &n.value)
        .ok_or_else(|| PagerError::Missing {
            what,
            name: name.to_string(),
        })
}

/// Where to connect and how to authenticate.
struct Target {
    host: String,
    port: u16,
    tls: Option<Arc<rustls::ClientConfig>>,
    token: Option<String>,
}

fn target(path: &PathBuf) -> Result<Target, PagerError> {
    let text = std::fs::read_to_string(path).map_err(|source| PagerError::Read {
        path: path.clone(),
        source,
    })?;
    let kc: Kubeconfig = serde_saphyr::from_str(&text).map_err(|source| PagerError::Parse {
        path: path.clone(),
        source: Box::new(source),
    })?;
    let ctx = find(&kc.contexts, &kc.current_context, "context")?;
    let cluster = find(&kc.clusters, &ctx.cluster, "cluster")?;
    let user = find(&kc.users, &ctx.user, "user")?;
    let (tls, rest) = if let Some(rest) = cluster.server.strip_prefix("https://") {
        (true, rest)
    } else if let Some(rest) = cluster.server.strip_prefix("http://") {
        (false, rest)
    } else {
        return Err(PagerError::Scheme(cluster.server.clone()));
    };
    let authority = rest.split('/').next().unwrap_or_default();
    let (host, port) = authority
        .rsplit_once(':')
        .and_then(|(h, p)| Some((h.to_string(), p.parse::<u16>().ok()?)))
        .ok_or_else(|| PagerError::HostPort(cluster.server.clone()))?;
    let tls = if tls {
        let data = cluster.ca_data.as_deref().ok_or(PagerError::NoCa)?;
        let pem = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(PagerError::CaData)?;
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(PagerError::CaPem)?;
            roots.add(cert).map_err(PagerError::Ca)?;
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Some(Arc::new(config))
    } else {
        None
    };
    Ok(Target {
        host,
        port,
        tls,
        token: user.token.clone(),
    })
}

trait Transport: Read + Write {}
impl<T: Read + Write> Transport for T {}

fn connect(t: &Target) -> Result<BufReader<Box<dyn Transport>>, PagerError> {
    let tcp = TcpStream::connect((t.host.as_str(), t.port))?;
    tcp.set_nodelay(true)?;
    let stream: Box<dyn Transport> = match &t.tls {
        None => Box::new(tcp),
        Some(config) => {
            let name = ServerName::try_from(t.host.clone())?;
            let conn = rustls::ClientConnection::new(config.clone(), name)?;
            Box::new(rustls::StreamOwned::new(conn, tcp))
        }
    };
    Ok(BufReader::with_capacity(256 * 1024, stream))
}

/// Sends one GET and reads the whole answer into `body`.
fn get(
    conn: &mut BufReader<Box<dyn Transport>>,
    t: &Target,
    path_and_query: &str,
    body: &mut Vec<u8>,
) -> Result<(), PagerError> {
    let auth = t
        .token
        .as_deref()
        .map(|tok| format!("Authorization: Bearer {tok}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "GET {path_and_query} HTTP/1.1\r\nHost: {}:{}\r\n{auth}Accept: application/json\r\nUser-Agent: list-pager\r\n\r\n",
        t.host, t.port
    );
    let stream = conn.get_mut();
    stream
        .write_all(request.as_bytes())
        .and_then(|()| stream.flush())?;
    let mut line = String::new();
    conn.read_line(&mut line)?;
    let status = line.split(' ').nth(1).unwrap_or_default().to_string();
    let mut length = None;
    loop {
        line.clear();
        conn.read_line(&mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let length = length.ok_or(PagerError::NoLength)?;
    body.clear();
    body.resize(length, 0);
    conn.read_exact(body)?;
    if status != "200" {
        let text = String::from_utf8_lossy(&body[..length.min(300)]);
        return Err(PagerError::Status {
            target: path_and_query.to_string(),
            status,
            text: text.into_owned(),
        });
    }
    Ok(())
}

/// The continue token from a page's list metadata, which precedes the items.
fn continue_token(page: &[u8]) -> Option<String> {
    let head = match page.windows(8).position(|w| w == b"\"items\":") {
        Some(i) => &page[..i],
        None => page,
    };
    let key = b"\"continue\":\"";
    let start = head.windows(key.len()).position(|w| w == key)? + key.len();
    let len = head[start..].iter().position(|&b| b == b'"')?;
    let token = std::str::from_utf8(&head[start..start + len]).ok()?;
    (!token.is_empty()).then(|| token.to_string())
}

fn run(args: Args) -> Result<(), PagerError> {
    let path = match args.kubeconfig {
        Some(p) => p,
        None => std::env::var_os("KUBECONFIG")
            .map(PathBuf::from)
            .ok_or(PagerError::NoKubeconfig)?,
    };
    let t = target(&path)?;
    let lists: Vec<String> = if args.lists.is_empty() {
        SCAN_LISTS.iter().map(|s| s.to_string()).collect()
    } else {
        args.lists
    };
    let started = Instant::now();
    let mut conn = connect(&t)?;
    let (mut requests, mut bytes) = (0u64, 0u64);
    let mut body = Vec::new();
    for list in &lists {
        let sep = if list.contains('?') { '&' } else { '?' };
        let mut cont: Option<String> = None;
        loop {
            let mut url = format!("{list}{sep}limit={}", args.limit);
            if let Some(c) = &cont {
                url += "&continue=";
                url.extend(form_urlencoded::byte_serialize(c.as_bytes()));
            }
            get(&mut conn, &t, &url, &mut body)?;
            requests += 1;
            bytes += body.len() as u64;
            cont = continue_token(&body);
            if cont.is_none() {
                break;
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("{{\"seconds\":{seconds:.4},\"requests\":{requests},\"bytes\":{bytes}}}");
    Ok(())
}

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("list-pager: {e}");
        std::process::exit(2);
    }
}
