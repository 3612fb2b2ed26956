//! `monitor [-n NS | -A] [--listen ADDR] [--grace DURATION]`: start the watchers, the engine
//! and (with --listen) the HTTP endpoints, and run until SIGINT or SIGTERM (exit 0). An API
//! server that cannot be reached is waited for, with backoff, never a reason to exit.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::plan::{self, Version};
use crate::cli::MonitorArgs;
use crate::cluster::{self, http::Api, watch as watchers};
use crate::error::{Error, UsageError, exit};
use crate::monitor::engine::{self, Output};
use crate::monitor::{Settings, Shared, lines, listen, server};

/// How often the server's clock is read again (one `GET /version`): the offset drifts only
/// as fast as the two clocks do.
const CLOCK_REFRESH: Duration = Duration::from_secs(60);
/// Longest wait between attempts to reach the API server at start.
const START_BACKOFF_CAP: Duration = Duration::from_secs(30);

pub fn run(a: &MonitorArgs) -> Result<i32, Error> {
    let p = plan::monitor(a)?;
    let settings = Settings {
        controller_zone_name: p.zone.name,
        controller_zone: p.zone.tz,
        // Until the server answers (`start`).
        version: Arc::new(RwLock::new(p.version.or_newest())),
        grace_secs: i64::try_from(p.grace.as_secs()).unwrap_or(i64::MAX),
        stale_after: p.stale_after,
    };
    let rt = cluster::runtime()?;
    rt.block_on(async {
        let api = cluster::connect(&p.kube, false).await?;
        let ns = super::read_cluster::live_namespace(
            &api,
            p.select.namespace.as_deref(),
            p.select.all_namespaces,
        )?;
        // Bind before anything else: a port in use is a usage error, said at once.
        let listener = match p.listen {
            Some(addr) => Some(
                tokio::net::TcpListener::bind(addr)
                    .await
                    .map_err(|e| UsageError::Listen { addr, source: e })?,
            ),
            None => None,
        };
        let shared = Shared::new(settings);
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut tasks = tokio::task::JoinSet::new();
        if let Some(listener) = listener {
            let app = server::router(shared.clone(), api.clone());
            let stop = stop_rx.clone();
            let cap = listen::max_connections();
            tasks.spawn(listen::serve(listener, app, cap, stop));
        }
        tasks.spawn(start(api, ns, shared, p.version, p.lines, stop_rx));
        shutdown_signal().await;
        let _ = stop_tx.send(true);
        // Give the server a moment to finish the requests under way, then go.
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            while tasks.join_next().await.is_some() {}
        })
        .await;
        tasks.abort_all();
        Ok::<_, Error>(())
    })?;
    // The status lines still queued get a moment to reach a reader that is still reading;
    // a line under way is written whole or not at all (`lines::print`).
    lines::finish(Duration::from_secs(1));
    // The watchers' connections are dropped with the runtime, without waiting for them.
    rt.shutdown_background();
    Ok(exit::OK)
}

/// Read the server's version and clock (retrying until it answers), then run the watchers
/// and the engine until `stop`.
async fn start(
    api: Api,
    ns: Option<String>,
    shared: Arc<Shared>,
    version: Version,
    output: Output,
    mut stop: watch::Receiver<bool>,
) {
    let mut wait = Duration::from_secs(1);
    loop {
        match cluster::server_version(&api).await {
            Ok(server) => {
                let (replayed, note) = version.settle(server);
                *shared
                    .settings
                    .version
                    .write()
                    .unwrap_or_else(|e| e.into_inner()) = replayed;
                if let Some(n) = note {
                    eprintln!("note: {}", doctor::report::visible::one_line(&n));
                }
                // The release replayed (the server's, or --kube-version) may be newer than
                // the newest modelled one: said once here, and in the build-info metric.
                if let Some(n) = replayed.beyond_modelled_note() {
                    eprintln!("note: {}", doctor::report::visible::one_line(&n));
                }
                break;
            }
            Err(e) => {
                let msg = cluster::failure(&api, "GET /version", &e).to_string();
                eprintln!(
                    "warning: {} Retrying in {}.",
                    doctor::report::visible::one_line(&msg),
                    cluster::http::humantime(wait)
                );
                *crate::monitor::lock(&shared.not_ready) = vec![format!(
                    "the API server cannot be reached: {}",
                    doctor::report::visible::one_line(&e.to_string())
                )];
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = stop.wait_for(|s| *s) => return,
                }
                wait = (wait * 2).min(START_BACKOFF_CAP);
            }
        }
    }
    if let Some(sample) = api.clock() {
        shared.clock.observe(sample);
    }
    // Room for the watchers to run ahead of the store: kube's watcher asks for a list's next
    // page only once every item of the current one is handed on, so with a small queue (1,024,
    // shared by five streams) each page waited for the engine to store the last one, and
    // fetching, parsing and storing ran one after another. 8,192 let them overlap and made
    // the monitor ready sooner; 32,768 was no faster (BENCHMARKS.md, "monitor at scale"). At
    // most ~8,000 parsed objects wait (only while a list is being read).
    let (tx, rx) = mpsc::channel(8192);
    let _watchers = watchers::spawn_all(api.client(), ns.as_deref(), shared.liveness.clone(), tx);
    let refresh = {
        let (api, shared) = (api.clone(), shared.clone());
        async move {
            loop {
                tokio::time::sleep(CLOCK_REFRESH).await;
                if cluster::server_version(&api).await.is_ok()
                    && let Some(sample) = api.clock()
                {
                    shared.clock.observe(sample);
                }
            }
        }
    };
    // On its own: it ends once done, and must not end the select below (which drops the rest).
    tokio::spawn(collect_after_first_sync(shared.clone()));
    tokio::select! {
        _ = engine::run_on_own_thread(shared, rx, output, stop) => {}
        _ = refresh => {}
    }
}

/// Once the first sync is done, each tokio worker returns the pages it holds free: the
/// workers parsed the initial lists, whose buffers the engine freed, and an idle worker never
/// purges them itself (`allocator::purge_at_once`). Tasks are spread over the workers by the
/// scheduler; a worker missed keeps its pages until it is busy again.
async fn collect_after_first_sync(shared: Arc<Shared>) {
    shared.first_sync.notified().await;
    let workers = tokio::runtime::Handle::current().metrics().num_workers();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..workers * 4 {
        tasks.spawn(async {
            tokio::task::yield_now().await;
            crate::allocator::collect();
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// SIGINT (Ctrl-C) or, on Unix, SIGTERM (what Kubernetes sends a Pod).
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
