//! `/report` cuts one CronJob's snapshot at a time: the store stays free for the engine while
//! the document is built, and the document is the one the whole store gives.

use std::sync::RwLock;

use doctor::replay::KubeVersion;
use jiff::tz::TimeZone;

use super::*;
use crate::monitor::Settings;
use crate::monitor::store::Store;

fn shared_with_examples() -> Arc<Shared> {
    let shared = Shared::new(Settings {
        controller_zone_name: "UTC".into(),
        controller_zone: TimeZone::UTC,
        version: std::sync::Arc::new(RwLock::new(KubeVersion::NEWEST)),
        grace_secs: 120,
        stale_after: std::time::Duration::from_secs(180),
    });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let (snapshot, _) = crate::input::load_paths(&[dir.display().to_string()]).into_snapshot();
    *lock(&shared.store) = Store::of_snapshot(snapshot);
    shared
}

#[test]
fn the_report_is_built_with_the_store_unlocked_between_cron_jobs() {
    let shared = shared_with_examples();
    let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
    let cuts = std::cell::Cell::new(0);
    let doc = document_with(&shared, now, |k| {
        // Whoever else wants the store (the engine) gets it between two CronJobs.
        assert!(
            shared.store.try_lock().is_ok(),
            "the store is held across CronJobs"
        );
        cuts.set(cuts.get() + 1);
        lock(&shared.store).subset(k)
    });
    assert!(cuts.get() > 5, "{} CronJobs", cuts.get());
    assert_eq!(doc, document(&shared, now));
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(v["cronJobs"].as_array().unwrap().len(), cuts.get());
}

/// `/report`s are built [`MAX_REPORTS`] at a time: while others hold every turn, a request
/// waits (no GET to the API server, no document); once a turn is free it is answered in full.
#[test]
fn reports_wait_for_a_free_turn() {
    let shared = shared_with_examples();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // Nothing listens on port 1: the clock GET fails at once and the last offset is used.
        let config = kube::Config::new("http://127.0.0.1:1".parse().unwrap());
        let api = Api::new(
            kube::Client::try_from(config).unwrap(),
            crate::cluster::config::Target {
                context: "test".into(),
                server: "http://127.0.0.1:1".into(),
                source: "test".into(),
                namespace: "default".into(),
            },
            Some(std::time::Duration::from_secs(1)),
            false,
        );
        let state = AppState {
            shared: shared.clone(),
            api,
            clock_read: Arc::default(),
        };
        let held = shared
            .report_gate
            .acquire_many(MAX_REPORTS as u32)
            .await
            .unwrap();
        let waiting = tokio::spawn(report_handler(State(state)));
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert!(
            !waiting.is_finished(),
            "a second build did not wait its turn"
        );
        drop(held);
        let response = tokio::time::timeout(std::time::Duration::from_secs(30), waiting)
            .await
            .expect("answered once the turn is free")
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("the whole report");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(!v["cronJobs"].as_array().unwrap().is_empty());
        // The thread that sent it hands the turn back once the body is written.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while shared.report_gate.available_permits() != MAX_REPORTS {
            assert!(
                std::time::Instant::now() < deadline,
                "the turn is handed back"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    });
}

#[test]
fn gzip_is_sent_when_accept_encoding_takes_it() {
    let with = |v: &str| {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, v.parse().unwrap());
        accepts_gzip(&h)
    };
    assert!(with("gzip"));
    assert!(with("identity, GZIP;q=0.5"));
    assert!(with("*"));
    assert!(!with("gzip;q=0"));
    assert!(!with("br, deflate"));
    assert!(!accepts_gzip(&HeaderMap::new()));
}
