//! The HTTP endpoints on `--listen`: `/metrics`, `/healthz`, `/readyz` and `/report` (the
//! `scan -o json` document of the current state, built by the same per-CronJob diagnosis).

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use doctor::model::Snapshot;
use doctor::report::{self, Options};
use jiff::Timestamp;

use super::store::Key;
use super::{Shared, lock, metrics};
use crate::cluster::diagnose;
use crate::cluster::http::Api;

#[derive(Clone)]
struct AppState {
    shared: Arc<Shared>,
    api: Api,
}

pub fn router(shared: Arc<Shared>, api: Api) -> Router {
    Router::new()
        .route("/metrics", get(metrics_handler))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(readyz))
        .route("/report", get(report_handler))
        .with_state(AppState { shared, api })
}

async fn metrics_handler(State(s): State<AppState>) -> Response {
    // `cronjob_doctor_ready` as of now: readiness moves with time (a quiet watch), not only
    // when an update wakes the engine.
    let _ = s.shared.ready();
    let body = s.shared.metrics.render();
    ([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], body).into_response()
}

async fn readyz(State(s): State<AppState>) -> Response {
    let Err(why) = s.shared.ready() else {
        return (StatusCode::OK, "ready\n").into_response();
    };
    let why = why.join("; ");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        format!("not ready: {}\n", doctor::report::visible::one_line(&why)),
    )
        .into_response()
}

async fn report_handler(State(s): State<AppState>) -> Response {
    // One build at a time (`Shared::report_gate`); the permit is held until the body is built.
    let Ok(_turn) = s.shared.report_gate.acquire().await else {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down\n").into_response();
    };
    // "Now" fresh from the server's Date header, as `scan` reads it; the last known offset
    // when the server does not answer. One small GET next to a document that takes seconds
    // to build at scale; without it "now" would be the offset of up to a minute ago (the
    // clock refresh), and a server whose clock is set apart from real time (the tests' fake
    // server) would give a different "now" than `scan`. The version stays the one read at
    // start.
    if crate::cluster::server_version(&s.api).await.is_ok()
        && let Some(sample) = s.api.clock()
    {
        s.shared.clock.observe(sample);
    }
    let now = s.shared.clock.now();
    let shared = s.shared.clone();
    match tokio::task::spawn_blocking(move || document(&shared, now)).await {
        Ok(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "report failed\n").into_response(),
    }
}

/// The `scan -o json` document of the store at `now`: CronJobs in LIST order (`ns/name`
/// bytes), each diagnosed from its own snapshot, with `scan`'s notes.
pub fn document(shared: &Shared, now: Timestamp) -> String {
    document_with(shared, now, |k| lock(&shared.store).subset(k))
}

/// [`document`], each CronJob's snapshot cut by `cut`. The store is locked only to read the
/// keys and, in `cut`, one CronJob at a time: building 10,000 reports takes seconds, and
/// holding the lock that long would hold up the engine (every change, every timer) behind a
/// `/report`. Each CronJob is diagnosed from a consistent snapshot of itself, as in `scan`,
/// whose lists are not one instant either.
fn document_with(
    shared: &Shared,
    now: Timestamp,
    cut: impl Fn(&Key) -> Option<Snapshot>,
) -> String {
    let st = &shared.settings;
    let opts = Options {
        now,
        controller_zone_name: &st.controller_zone_name,
        controller_zone: &st.controller_zone,
        version: shared.version(),
        timeline: 8,
    };
    let mut notes = lock(&shared.notes).clone();
    let (mut keys, no_events) = {
        let store = lock(&shared.store);
        let keys: Vec<Key> = store.cron_job_keys().cloned().collect();
        let no_events =
            store.evidence.events && store.event_count() == 0 && store.cron_job_count() > 0;
        (keys, no_events)
    };
    keys.sort_by(|a, b| {
        let ns = |k: &Key| k.0.bytes().chain([b'/']).collect::<Vec<u8>>();
        ns(a).cmp(&ns(b)).then_with(|| a.1.cmp(&b.1))
    });
    let cron_jobs = keys
        .iter()
        .filter_map(cut)
        .flat_map(|snap| report::build(&snap, Vec::new(), &opts).cron_jobs)
        .collect();
    if no_events {
        notes.push(
            "No Events about CronJobs, Jobs or Pods: the API server keeps Events for about an hour by default; \
             the diagnosis stands on status, Job names and timestamps"
                .into(),
        );
    }
    let mut r = diagnose::frame(notes, &opts);
    r.cron_jobs = cron_jobs;
    doctor::render::json::render(&r)
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
