//! Starting a server: the `Builder` (options that must be set before objects load) and the
//! accept loop. The loop is hand-written (hyper's HTTP/1 connection driver around the axum
//! router) because a fault must be able to close a single TCP connection without answering,
//! which `axum::serve` cannot do, and because connections may be TLS.
//!
//! Sending is shaped like Go's net/http, so a benchmark measures the client and not this
//! server: TCP_NODELAY on every connection, and each response (headers and body, always one
//! in-memory buffer) handed to the transport in one write.

use crate::access::AccessRule;
use crate::clock::Clock;
use crate::conn::CountWrites;
use crate::error::{ObjectError, StartError, TlsError};
use crate::handler::{ConnKill, handle};
use crate::server::FakeApiServer;
use crate::state::{Config, Shared, lock};
use crate::store::{DEFAULT_HISTORY, Store};
use crate::tls::{self, Tls};
use axum::{Extension, Router};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;

type Objects = Box<dyn Iterator<Item = Value> + Send>;

/// Options to set before the server starts (the clock stamps fixture objects on load).
pub struct Builder {
    cfg: Config,
    port: u16,
    tls: bool,
    sources: Vec<Objects>,
    watch_history: usize,
}

impl Builder {
    pub(crate) fn new() -> Self {
        let cfg = Config {
            git_version: "v1.31.2".into(),
            clock: Clock::Real,
            latency: Duration::ZERO,
            user: "fake-user".into(),
            rules: Vec::new(),
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            page_cap: None,
            wire_rewrite: None,
            service_proxies: Default::default(),
            // The real watch cache bookmarks about once a minute.
            bookmark_interval: Duration::from_secs(60),
        };
        Builder {
            cfg,
            port: 0,
            tls: false,
            sources: Vec::new(),
            watch_history: DEFAULT_HISTORY,
        }
    }

    /// `gitVersion` for `/version`, e.g. `v1.31.2` (the default).
    pub fn version(mut self, git_version: &str) -> Self {
        self.cfg.git_version = git_version.to_string();
        self
    }
    pub fn clock(mut self, clock: Clock) -> Self {
        self.cfg.clock = clock;
        self
    }
    /// The user named in Forbidden messages (default `fake-user`).
    pub fn user(mut self, user: &str) -> Self {
        self.cfg.user = user.to_string();
        self
    }
    pub fn rule(mut self, rule: AccessRule) -> Self {
        self.cfg.rules.push(rule);
        self
    }
    /// Answer paged LISTs with at most `n` items a page (the API server may return fewer than
    /// `limit`), so a test pages through a few objects instead of thousands.
    /// `GET …/namespaces/{namespace}/services/{name}:{port}/proxy/PATH` is forwarded to
    /// `to` (a loopback listener standing in for the Service's endpoints); an unmapped
    /// Service answers 503, as a real API server does for a Service without endpoints.
    pub fn service_proxy(mut self, namespace: &str, name: &str, port: u16, to: SocketAddr) -> Self {
        self.cfg
            .service_proxies
            .insert(crate::proxy::key(namespace, name, port), to);
        self
    }

    pub fn page_cap(mut self, n: usize) -> Self {
        self.cfg.page_cap = Some(n.max(1));
        self
    }
    /// Wait this long before answering each request (default none), as a remote API server
    /// would cost a round trip; [`FakeApiServer::set_latency`] changes it while running.
    pub fn latency(mut self, latency: Duration) -> Self {
        self.cfg.latency = latency;
        self
    }
    /// Serve HTTPS with a CA made at startup (default: plain HTTP). The kubeconfigs the
    /// server writes carry the CA, so clients verify the server certificate.
    pub fn tls(mut self) -> Self {
        self.tls = true;
        self
    }
    /// Listen on this loopback port instead of an ephemeral one.
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }
    /// How often a watch that allows bookmarks gets one (default 60 s, like the real
    /// server); [`FakeApiServer::set_bookmark_interval`] changes it for watches opened later.
    pub fn bookmark_interval(mut self, every: Duration) -> Self {
        self.cfg.bookmark_interval = every;
        self
    }
    /// How many changes WATCH can replay (default 10,000): a watch from a resourceVersion
    /// older than that gets 410 Expired, as after an etcd compaction.
    pub fn watch_history(mut self, changes: usize) -> Self {
        self.watch_history = changes.max(1);
        self
    }
    /// Objects to load; consumed lazily at start, so a generator never has to hold the
    /// whole population in memory as `Value`s.
    pub fn objects<I>(mut self, objects: I) -> Self
    where
        I: IntoIterator<Item = Value>,
        I::IntoIter: Send + 'static,
    {
        self.sources.push(Box::new(objects.into_iter()));
        self
    }

    fn make_tls(&self) -> Result<Option<Tls>, TlsError> {
        if self.tls {
            tls::generate().map(Some)
        } else {
            Ok(None)
        }
    }

    fn into_shared(self) -> Result<Arc<Shared>, ObjectError> {
        let now = self.cfg.clock.now();
        let mut store = Store::new(now);
        for obj in self.sources.into_iter().flatten() {
            store.ingest(obj, now)?;
        }
        store.start_history(self.watch_history);
        Ok(Arc::new(Shared::new(store, self.cfg)))
    }

    /// Starts on the current tokio runtime.
    pub async fn start(self) -> Result<FakeApiServer, StartError> {
        let port = self.port;
        let tls = self.make_tls()?;
        let shared = self.into_shared()?;
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        lock(&shared.cfg).addr = addr;
        let (stop, stop_rx) = watch::channel(false);
        let ca_pem = tls.as_ref().map(|t| t.ca_pem.clone());
        tokio::spawn(serve(listener, shared.clone(), tls, stop_rx));
        Ok(FakeApiServer {
            shared,
            addr,
            ca_pem,
            stop,
            thread: None,
        })
    }

    /// Starts on a thread of its own with its own runtime, for synchronous tests (assert_cmd).
    pub fn start_blocking(self) -> Result<FakeApiServer, StartError> {
        let port = self.port;
        let tls = self.make_tls()?;
        let ca_pem = tls.as_ref().map(|t| t.ca_pem.clone());
        let shared = self.into_shared()?;
        let (stop, stop_rx) = watch::channel(false);
        let (tx, rx) = std::sync::mpsc::channel();
        let for_thread = shared.clone();
        let thread = std::thread::Builder::new()
            .name("fake-apiserver".into())
            .spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("tokio runtime");
                rt.block_on(async move {
                    let bound = TcpListener::bind(("127.0.0.1", port))
                        .await
                        .and_then(|l| Ok((l.local_addr()?, l)));
                    match bound {
                        Ok((addr, listener)) => {
                            lock(&for_thread.cfg).addr = addr;
                            let _ = tx.send(Ok(addr));
                            serve(listener, for_thread, tls, stop_rx).await;
                        }
                        Err(e) => drop(tx.send(Err(e))),
                    }
                });
            })?;
        let addr = rx.recv()??;
        Ok(FakeApiServer {
            shared,
            addr,
            ca_pem,
            stop,
            thread: Some(thread),
        })
    }
}

async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    tls: Option<Tls>,
    mut stop: watch::Receiver<bool>,
) {
    let app = Router::new().fallback(handle).with_state(shared.clone());
    let mut conns = JoinSet::new();
    loop {
        let (stream, _) = tokio::select! {
            _ = stop.wait_for(|s| *s) => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(_) => continue,
            },
        };
        // Down: the connection is closed at once, unanswered (a restarting server's port).
        if shared.down.load(std::sync::atomic::Ordering::SeqCst) {
            drop(stream);
            continue;
        }
        let _ = stream.set_nodelay(true);
        let kill = Arc::new(Notify::new());
        let svc = TowerToHyperService::new(app.clone().layer(Extension(ConnKill(kill.clone()))));
        let writes = shared.writes.clone();
        let acceptor = tls.as_ref().map(|t| t.acceptor.clone());
        conns.spawn(async move {
            // The handshake runs here, not in the accept loop: a stalled client holds up
            // only its own connection.
            let serving = async move {
                match acceptor {
                    None => serve_connection(stream, svc, writes).await,
                    Some(a) => {
                        if let Ok(tls_stream) = a.accept(stream).await {
                            serve_connection(tls_stream, svc, writes).await;
                        }
                    }
                }
            };
            // Dropping the connection future closes the socket mid-request.
            tokio::select! {
                _ = serving => {}
                _ = kill.notified() => {}
            }
        });
        while conns.try_join_next().is_some() {}
    }
    conns.abort_all();
}

async fn serve_connection<S, T>(stream: S, svc: T, writes: Arc<std::sync::atomic::AtomicU64>)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    T: hyper::service::Service<
            hyper::Request<hyper::body::Incoming>,
            Response = axum::response::Response,
        > + Send
        + 'static,
    T::Future: Send + 'static,
    T::Error: std::error::Error + Send + Sync + 'static,
{
    let io = TokioIo::new(CountWrites {
        inner: stream,
        writes,
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .serve_connection(io, svc)
        .await;
}
