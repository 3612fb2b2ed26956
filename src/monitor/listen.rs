//! The `--listen` socket, served by hyper's HTTP/1 connection with the limits `axum::serve`
//! does not set (the numbers and their reasons are in docs/monitor.md, "Limits of the HTTP
//! endpoints"):
//!
//! - a request's headers must arrive within [`HEADER_READ_TIMEOUT`], and a kept-alive
//!   connection with no new request is closed after the same time (hyper starts the same timer
//!   when it waits for the next request);
//! - a client that takes nothing of a response for [`WRITE_STALL_TIMEOUT`] is disconnected;
//! - at most [`max_connections`] connections are open: the next one waits in the kernel's
//!   backlog (no file descriptor is spent on it) until one closes, so the watches' own
//!   connections to the API server always find a descriptor.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::time::Sleep;

/// How long a client has to send a request's headers, and how long a kept-alive connection
/// may sit with no request.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a response may wait on a client that reads none of it.
pub const WRITE_STALL_TIMEOUT: Duration = Duration::from_secs(20);
/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 256;
/// File descriptors never taken by HTTP connections: the API server's connections (watches,
/// lists, the clock), the runtime's own, the kubeconfig and credential files.
pub const RESERVED_FDS: u64 = 128;

/// The connection cap for this process: [`MAX_CONNECTIONS`], or fewer when the descriptor
/// limit leaves less than that beside [`RESERVED_FDS`]. The soft limit is first raised to the
/// hard one (as Go programs do at start): 1,024 is a default from the days of `select(2)`.
pub fn max_connections() -> usize {
    let soft = raise_fd_limit();
    let room = soft.saturating_sub(RESERVED_FDS);
    usize::try_from(room).map_or(MAX_CONNECTIONS, |r| r.clamp(1, MAX_CONNECTIONS))
}

#[cfg(unix)]
fn raise_fd_limit() -> u64 {
    // SAFETY: getrlimit/setrlimit with a valid pointer to a local struct.
    unsafe {
        let mut l: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) != 0 {
            return 1024;
        }
        if l.rlim_cur < l.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: l.rlim_max,
                rlim_max: l.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                l.rlim_cur = l.rlim_max;
            }
        }
        #[allow(clippy::unnecessary_cast)]
        let cur = l.rlim_cur as u64;
        cur
    }
}

#[cfg(not(unix))]
fn raise_fd_limit() -> u64 {
    u64::MAX
}

/// Serve `app` on `listener` until `stop`, then let the requests under way finish (the
/// caller bounds that wait).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    max_connections: usize,
    mut stop: watch::Receiver<bool>,
) {
    let slots = Arc::new(Semaphore::new(max_connections));
    let (close_tx, close_rx) = watch::channel(false);
    let mut conns = tokio::task::JoinSet::new();
    loop {
        // A free slot first: while there is none, new connections wait in the backlog.
        let slot = tokio::select! {
            s = slots.clone().acquire_owned() => match s {
                Ok(s) => s,
                Err(_) => break,
            },
            _ = stop.wait_for(|s| *s) => break,
        };
        let accepted = tokio::select! {
            r = listener.accept() => r.map(|(s, _)| s),
            _ = stop.wait_for(|s| *s) => break,
        };
        let Ok(stream) = accepted else {
            // Out of descriptors (EMFILE) or a connection reset before accept: wait instead
            // of spinning; the backlog keeps the pending ones.
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let svc = TowerToHyperService::new(app.clone());
        let mut close = close_rx.clone();
        conns.spawn(async move {
            let _slot = slot;
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(
                    TokioIo::new(Stalling::new(stream, WRITE_STALL_TIMEOUT)),
                    svc,
                );
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                // It only ever changes once, to true (or its sender is gone): closing time.
                _ = close.changed() => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
        while conns.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = close_tx.send(true);
    while conns.join_next().await.is_some() {}
}

/// A connection whose writes fail with `TimedOut` once the peer has taken nothing for
/// `limit` (its receive window stays full): a client that asks and does not read holds its
/// response's memory only that long.
struct Stalling<T> {
    io: T,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<T> Stalling<T> {
    fn new(io: T, limit: Duration) -> Self {
        Stalling {
            io,
            limit,
            stalled: None,
        }
    }

    /// The outcome of a write step: progress resets the clock; no progress starts it, and an
    /// error once it has run out.
    fn step<R>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        if r.is_ready() {
            self.stalled = None;
            return r;
        }
        let limit = self.limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing of the response in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Stalling<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stalling<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, b: &[u8]) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.io).poll_write(cx, b);
        me.step(cx, r)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.io).poll_write_vectored(cx, bufs);
        me.step(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.io).poll_flush(cx);
        me.step(cx, r)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.io).poll_shutdown(cx);
        me.step(cx, r)
    }
}
