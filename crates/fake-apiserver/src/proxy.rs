//! The API server's service proxy, `GET /api/v1/namespaces/{ns}/services/{name}:{port}/proxy/{path}`,
//! forwarded to a loopback address a test mapped (standing in for the Service's endpoints).
//!
//! As kube-apiserver: the request needs `get` on `services/proxy` in the namespace (the access
//! rules decide, the RBAC name being `name:port`); a Service with nothing mapped answers 503
//! `ServiceUnavailable` ("no endpoints available"), as a Service without ready endpoints does;
//! a mapped address that refuses or does not answer in time is a 503 too. The upstream's status
//! and body are passed back unchanged (only GET: nothing else is needed).

use crate::access::{self, Attributes};
use crate::state::{Answer, Ctx};
use crate::status;
use bytes::Bytes;
use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What a service proxy path names.
#[derive(Debug, PartialEq)]
pub struct ServiceProxy {
    pub namespace: String,
    /// `name` or `name:port` (or `scheme:name:port`), as in the path.
    pub service: String,
    /// The path after `/proxy/`, without its leading slash.
    pub path: String,
}

/// The map key of a Service port.
pub(crate) fn key(namespace: &str, name: &str, port: u16) -> (String, String) {
    (namespace.to_string(), format!("{name}:{port}"))
}

/// How long the upstream may take, connect to last byte (the real proxy has its own limits).
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(10);
/// Most bytes read from the upstream: enough for any test's hostile body.
const UPSTREAM_MAX: u64 = 64 << 20;

fn unavailable(message: &str) -> crate::status::ApiError {
    status::status(503, "ServiceUnavailable", message, json!({}))
}

pub(crate) async fn forward(ctx: &Ctx<'_>, p: &ServiceProxy, method: &str, query: &str) -> Answer {
    let attrs = Attributes {
        verb: "get".into(),
        group: String::new(),
        resource: "services".into(),
        subresource: Some("proxy".into()),
        namespace: Some(p.namespace.clone()),
    };
    if !access::allowed(&ctx.cfg.rules, &attrs) {
        return Err(status::status(
            403,
            "Forbidden",
            &format!(
                "services \"{}\" is forbidden: User \"{}\" cannot get resource \"services/proxy\" in API group \"\" in the namespace \"{}\"",
                p.service, ctx.cfg.user, p.namespace
            ),
            json!({"name": p.service, "kind": "services"}),
        ));
    }
    if method != "GET" {
        return Err(status::method_not_allowed("only GET is proxied here"));
    }
    let Some(addr) = ctx
        .cfg
        .service_proxies
        .get(&(p.namespace.clone(), p.service.clone()))
        .copied()
    else {
        let name = p.service.split(':').next().unwrap_or_default();
        return Err(unavailable(&format!(
            "no endpoints available for service \"{name}\""
        )));
    };
    let target = if query.is_empty() {
        format!("/{}", p.path)
    } else {
        format!("/{}?{query}", p.path)
    };
    match tokio::time::timeout(UPSTREAM_TIMEOUT, fetch(addr, &target)).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(e)) => Err(unavailable(&format!(
            "error trying to reach service: dial tcp {addr}: {e}"
        ))),
        Err(_) => Err(unavailable(&format!(
            "error trying to reach service: dial tcp {addr}: i/o timeout"
        ))),
    }
}

/// One HTTP/1.0 GET (the upstream answers without chunking and closes): its status and body.
async fn fetch(addr: std::net::SocketAddr, target: &str) -> std::io::Result<(u16, Bytes)> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    s.write_all(
        format!("GET {target} HTTP/1.0\r\nHost: {addr}\r\nAccept: application/json\r\n\r\n")
            .as_bytes(),
    )
    .await?;
    let mut raw = Vec::new();
    s.take(UPSTREAM_MAX).read_to_end(&mut raw).await?;
    let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "malformed HTTP response");
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(bad)?;
    let head = String::from_utf8_lossy(&raw[..end]);
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(bad)?;
    Ok((code, Bytes::copy_from_slice(&raw[end + 4..])))
}
