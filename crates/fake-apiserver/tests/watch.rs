//! WATCH against the real kube 5 client: the wire format (event lines, bookmarks, the 410
//! ERROR event, `timeoutSeconds`), selector and namespace scoping, DELETE emitting DELETED,
//! and kube_runtime's watcher unmodified: initial list, changes, deletes, resuming after a
//! dropped connection, relisting after 410, streaming lists. Also the ticking clock and the
//! LIST resourceVersion a watch resumes from.

use crate::common::{client_for, raw, world};
use fake_apiserver::{Clock, FakeApiServer};
use futures_util::StreamExt;
use k8s_openapi::api::batch::v1::{CronJob, Job};
use kube::api::{
    Api, DeleteParams, ListParams, PartialObjectMeta, Patch, PatchParams, WatchEvent, WatchParams,
};
use kube::runtime::watcher::{self, Event};
use kube::{Client, ResourceExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// GETs a watch that ends by itself (timeoutSeconds) and returns status and the event lines.
async fn watch_lines(client: &Client, path: &str) -> (u16, Vec<Value>) {
    let req = http::Request::builder()
        .uri(path)
        .body(kube::client::Body::empty())
        .unwrap();
    let res = client.send(req).await.expect("transport");
    let status = res.status().as_u16();
    let bytes = res.into_body().collect_bytes().await.expect("clean end");
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "JSON lines: {text}"
    );
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (status, lines)
}

fn summary(events: &[Value]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_string(),
                e["object"]["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

fn cronjob(ns: &str, name: &str, team: &str) -> Value {
    json!({"apiVersion": "batch/v1", "kind": "CronJob",
           "metadata": {"name": name, "namespace": ns, "labels": {"team": team}},
           "spec": {"schedule": "@daily", "jobTemplate": {"spec": {"template": {"spec": {
               "restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}}}})
}

async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out: {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn watch_replays_changes_after_a_resource_version_as_json_lines() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client.clone(), "ops");
    let from = server.resource_version();
    let listed = cronjobs.list(&ListParams::default()).await.unwrap();
    assert_eq!(
        listed.metadata.resource_version.as_deref(),
        Some(from.to_string().as_str()),
        "LIST reports the version a watch starts from"
    );

    // Through the API: a patch and a delete; behind its back: an addition, and changes in
    // another namespace the namespaced watch must not see.
    let pp = PatchParams::default();
    let patch = json!({"metadata": {"annotations": {"a": "b"}}});
    cronjobs
        .patch("hourly", &pp, &Patch::Merge(&patch))
        .await
        .unwrap();
    server.put_object(cronjob("ops", "fresh", "ops")).unwrap();
    server
        .put_object(cronjob("billing", "elsewhere", "billing"))
        .unwrap();
    let deleted = cronjobs
        .delete("zz-last", &DeleteParams::default())
        .await
        .unwrap()
        .left()
        .expect("deleted at once");
    assert!(server.object("cronjobs", "ops", "zz-last").is_none());

    let started = Instant::now();
    let (status, events) = watch_lines(
        &client,
        &format!(
            "/apis/batch/v1/namespaces/ops/cronjobs?watch=1&resourceVersion={from}&timeoutSeconds=1"
        ),
    )
    .await;
    let took = started.elapsed();
    assert_eq!(status, 200);
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(5),
        "timeoutSeconds=1 ends the stream cleanly after about a second, took {took:?}"
    );
    assert_eq!(
        summary(&events),
        [
            ("MODIFIED", "hourly"),
            ("ADDED", "fresh"),
            ("DELETED", "zz-last")
        ]
        .map(|(t, n)| (t.to_string(), n.to_string()))
    );
    for e in &events {
        assert_eq!(e["object"]["kind"], "CronJob", "{e}");
        assert_eq!(e["object"]["apiVersion"], "batch/v1");
        assert_eq!(e.as_object().unwrap().len(), 2, "only type and object: {e}");
    }
    assert_eq!(events[0]["object"]["metadata"]["annotations"]["a"], "b");
    let del_rv = &events[2]["object"]["metadata"]["resourceVersion"];
    assert_eq!(
        del_rv.as_str(),
        deleted.metadata.resource_version.as_deref(),
        "DELETED carries the deletion's resourceVersion, as the DELETE answer does"
    );
    assert_eq!(
        del_rv.as_str(),
        Some(server.resource_version().to_string().as_str())
    );

    // All namespaces, from the same version: the billing change too, in order.
    let (_, all) = watch_lines(
        &client,
        &format!("/apis/batch/v1/cronjobs?watch=true&resourceVersion={from}&timeoutSeconds=1"),
    )
    .await;
    assert_eq!(
        summary(&all)
            .iter()
            .map(|(_, n)| n.as_str())
            .collect::<Vec<_>>(),
        ["hourly", "fresh", "elsewhere", "zz-last"]
    );
    // From the newest version: nothing yet.
    let now = server.resource_version();
    let (_, none) = watch_lines(
        &client,
        &format!("/apis/batch/v1/cronjobs?watch=true&resourceVersion={now}&timeoutSeconds=1"),
    )
    .await;
    assert!(none.is_empty(), "{none:?}");
}

#[tokio::test]
async fn selector_watches_see_objects_enter_and_leave_the_selection() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client.clone(), "ops");
    let from = server.resource_version();
    let pp = PatchParams::default();
    let relabel = |team: &str| json!({"metadata": {"labels": {"team": team}}});
    let relabelled = cronjobs
        .patch("nightly", &pp, &Patch::Merge(&relabel("other")))
        .await
        .unwrap();
    cronjobs
        .patch("zz-last", &pp, &Patch::Merge(&relabel("ops")))
        .await
        .unwrap();
    cronjobs
        .patch(
            "hourly",
            &pp,
            &Patch::Merge(&json!({"spec": {"suspend": true}})),
        )
        .await
        .unwrap();
    server.delete_object("cronjobs", "ops", "nightly");

    let (_, events) = watch_lines(
        &client,
        &format!("/apis/batch/v1/namespaces/ops/cronjobs?watch=1&labelSelector=team%3Dops&resourceVersion={from}&timeoutSeconds=1"),
    )
    .await;
    assert_eq!(
        summary(&events),
        [
            ("DELETED", "nightly"), // stopped matching
            ("ADDED", "zz-last"),   // started matching
            ("MODIFIED", "hourly"),
            // deleted while no longer matching: nothing
        ]
        .map(|(t, n)| (t.to_string(), n.to_string()))
    );
    // As the real watch cache: the DELETED of an object that stopped matching carries the
    // last state the watch could see (still labelled team=ops), at the change's version.
    let left = &events[0]["object"]["metadata"];
    assert_eq!(left["labels"]["team"], "ops", "{left}");
    assert_eq!(
        left["resourceVersion"].as_str(),
        relabelled.metadata.resource_version.as_deref()
    );

    // Field selectors as LIST supports them, on pods.
    let from = server.resource_version();
    let mut pod = server.objects("pods").remove(0);
    let name = pod["metadata"]["name"].as_str().unwrap().to_string();
    let ns = pod["metadata"]["namespace"].as_str().unwrap().to_string();
    pod["status"]["phase"] = json!("Running");
    server.put_object(pod).unwrap();
    let (_, running) = watch_lines(
        &client,
        &format!("/api/v1/pods?watch=1&fieldSelector=status.phase%3DRunning&resourceVersion={from}&timeoutSeconds=1"),
    )
    .await;
    assert_eq!(summary(&running), [("ADDED".to_string(), name.clone())]);
    let (code, _, body) = raw(
        &client,
        "GET",
        &format!("/api/v1/namespaces/{ns}/pods?watch=1&fieldSelector=spec.bogus%3Dx"),
        None,
        "",
    )
    .await;
    assert_eq!((code, body["reason"].as_str()), (400, Some("BadRequest")));
}

#[tokio::test]
async fn an_expired_resource_version_gets_one_410_error_event() {
    let server = FakeApiServer::builder()
        .objects(world())
        .watch_history(2)
        .start()
        .await
        .unwrap();
    let client = client_for(&server, None).await;
    let from = server.resource_version();
    for name in ["a", "b", "c"] {
        server.put_object(cronjob("ops", name, "ops")).unwrap();
    }
    let path =
        |rv: u64| format!("/apis/batch/v1/cronjobs?watch=1&resourceVersion={rv}&timeoutSeconds=5");
    let started = Instant::now();
    let (status, events) = watch_lines(&client, &path(from)).await;
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the stream ends after the error"
    );
    assert_eq!(
        status, 200,
        "the watch cache answers 200 and sends the error as an event"
    );
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["type"], "ERROR");
    let st = &events[0]["object"];
    assert_eq!(
        (
            st["kind"].as_str(),
            st["code"].as_u64(),
            st["reason"].as_str(),
            st["status"].as_str()
        ),
        (Some("Status"), Some(410), Some("Expired"), Some("Failure"))
    );
    assert!(
        st["message"]
            .as_str()
            .unwrap()
            .starts_with("too old resource version: ")
    );
    // Two changes are kept: from one change back still works.
    let (_, kept) = watch_lines(&client, &path(from + 1).replace("5", "1")).await;
    assert_eq!(summary(&kept).len(), 2, "{kept:?}");

    // Compaction expires every older version; the current one is fine.
    server.compact_watch_history();
    let (_, after) = watch_lines(&client, &path(from + 2)).await;
    assert_eq!(after[0]["object"]["code"], 410);

    // kube's typed watch decodes the event as WatchEvent::Error with code 410.
    let api: Api<CronJob> = Api::all(client);
    let stream = api
        .watch(&WatchParams::default().timeout(1), &from.to_string())
        .await
        .unwrap();
    let got: Vec<_> = stream.collect().await;
    match got.as_slice() {
        [Ok(WatchEvent::Error(e))] => assert_eq!((e.code, e.reason.as_str()), (410, "Expired")),
        other => panic!("expected one 410 error event, got {other:?}"),
    }
}

#[tokio::test]
async fn bookmarks_come_periodically_and_carry_the_caught_up_version() {
    let server = FakeApiServer::builder()
        .objects(world())
        .bookmark_interval(Duration::from_millis(200))
        .start()
        .await
        .unwrap();
    let client = client_for(&server, None).await;
    let from = server.resource_version();
    server.put_object(cronjob("ops", "fresh", "ops")).unwrap();
    let (_, events) = watch_lines(
        &client,
        &format!("/apis/batch/v1/namespaces/ops/cronjobs?watch=1&allowWatchBookmarks=true&resourceVersion={from}&timeoutSeconds=1"),
    )
    .await;
    let types: Vec<_> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types[0], "ADDED");
    let marks: Vec<_> = events.iter().filter(|e| e["type"] == "BOOKMARK").collect();
    assert!(
        (3..=6).contains(&marks.len()),
        "about one per 200 ms: {types:?}"
    );
    assert_eq!(
        marks[0]["object"],
        json!({"kind": "CronJob", "apiVersion": "batch/v1",
               "metadata": {"resourceVersion": server.resource_version().to_string()}})
    );
    // Without allowWatchBookmarks: none.
    let (_, plain) = watch_lines(
        &client,
        &format!(
            "/apis/batch/v1/namespaces/ops/cronjobs?watch=1&resourceVersion={from}&timeoutSeconds=1"
        ),
    )
    .await;
    assert!(plain.iter().all(|e| e["type"] != "BOOKMARK"));

    // kube decodes them as WatchEvent::Bookmark.
    let api: Api<CronJob> = Api::namespaced(client, "ops");
    let mut stream = api
        .watch(
            &WatchParams {
                bookmarks: true,
                ..WatchParams::default().timeout(1)
            },
            &server.resource_version().to_string(),
        )
        .await
        .unwrap()
        .boxed();
    match stream.next().await {
        Some(Ok(WatchEvent::Bookmark(b))) => {
            assert_eq!(
                b.metadata.resource_version,
                server.resource_version().to_string()
            )
        }
        other => panic!("expected a bookmark, got {other:?}"),
    }
}

/// Next watcher event that is not an error (errors are what a dropped or expired watch
/// looks like to the caller; the watcher recovers by itself).
async fn next_event<K>(
    w: &mut (impl futures_util::Stream<Item = Result<Event<K>, watcher::Error>> + Unpin),
) -> Event<K> {
    loop {
        let next = tokio::time::timeout(Duration::from_secs(10), w.next())
            .await
            .expect("watcher event within 10 s")
            .expect("stream goes on");
        if let Ok(e) = next {
            return e;
        }
    }
}

fn label(e: &Event<CronJob>) -> String {
    match e {
        Event::Init => "Init".into(),
        Event::InitApply(o) => format!("InitApply {}", o.name_any()),
        Event::InitDone => "InitDone".into(),
        Event::Apply(o) => format!("Apply {}", o.name_any()),
        Event::Delete(o) => format!("Delete {}", o.name_any()),
    }
}

/// The labels of the watcher's next `n` events.
async fn next_labels(
    w: &mut (impl futures_util::Stream<Item = Result<Event<CronJob>, watcher::Error>> + Unpin),
    n: usize,
) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..n {
        seen.push(label(&next_event(w).await));
    }
    seen
}

/// Cuts every open watch and waits until the server has closed them all.
async fn cut_watches(server: &FakeApiServer) {
    server.drop_watches();
    until("the watch is cut", || server.open_watches() == 0).await;
}

#[tokio::test]
async fn kube_runtime_watcher_lists_follows_resumes_and_relists() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let api: Api<CronJob> = Api::namespaced(client, "ops");
    let mut w = watcher::watcher(api.clone(), watcher::Config::default()).boxed();
    assert_eq!(
        next_labels(&mut w, 5).await,
        [
            "Init",
            "InitApply hourly",
            "InitApply nightly",
            "InitApply zz-last",
            "InitDone"
        ]
    );
    // The watcher opens its watch when polled after InitDone.
    server.put_object(cronjob("ops", "fresh", "ops")).unwrap();
    assert_eq!(label(&next_event(&mut w).await), "Apply fresh");
    api.delete("fresh", &DeleteParams::default()).await.unwrap();
    assert_eq!(label(&next_event(&mut w).await), "Delete fresh");
    let last_seen = server.resource_version();

    // A dropped connection: the watcher re-watches from the last version it saw, no relist.
    assert_eq!(server.open_watches(), 1);
    server.clear_requests();
    cut_watches(&server).await;
    server
        .put_object(cronjob("ops", "after-drop", "ops"))
        .unwrap();
    assert_eq!(label(&next_event(&mut w).await), "Apply after-drop");
    let reqs = server.requests();
    assert!(
        reqs.iter().all(|r| r.query.contains_key("watch")),
        "no LIST after a drop: {:?}",
        server.request_lines()
    );
    assert_eq!(
        reqs[0].query.get("resourceVersion"),
        Some(&last_seen.to_string()),
        "resumed from the last version seen"
    );

    // 410 on the next watch: the watcher relists from scratch.
    server.clear_requests();
    server.expire_next_watches(1);
    cut_watches(&server).await;
    assert_eq!(
        next_labels(&mut w, 6).await,
        [
            "Init",
            "InitApply after-drop",
            "InitApply hourly",
            "InitApply nightly",
            "InitApply zz-last",
            "InitDone"
        ]
    );
    let lines = server.request_lines();
    assert!(
        lines.iter().any(
            |l| l.starts_with("GET /apis/batch/v1/namespaces/ops/cronjobs") && !l.contains("watch")
        ),
        "relisted: {lines:?}"
    );

    // A failing watch start (500): the watcher retries and carries on.
    server
        .put_object(cronjob("ops", "after-relist", "ops"))
        .unwrap();
    assert_eq!(label(&next_event(&mut w).await), "Apply after-relist");
    server.clear_requests();
    server.fail_next_watch();
    cut_watches(&server).await;
    server
        .put_object(cronjob("ops", "after-failure", "ops"))
        .unwrap();
    assert_eq!(label(&next_event(&mut w).await), "Apply after-failure");
    let statuses: Vec<u16> = server.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses[0], 500, "{:?}", server.request_lines());

    // The client going away closes the stream on the server.
    drop(w);
    until("no watch left open", || server.open_watches() == 0).await;
}

#[tokio::test]
async fn streaming_lists_and_metadata_watches_work_unmodified() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let api: Api<CronJob> = Api::namespaced(client.clone(), "ops");
    let mut w = watcher::watcher(api, watcher::Config::default().streaming_lists()).boxed();
    assert_eq!(
        next_labels(&mut w, 5).await,
        [
            "Init",
            "InitApply hourly",
            "InitApply nightly",
            "InitApply zz-last",
            "InitDone"
        ],
        "initial events end with the initial-events-end bookmark"
    );
    server.put_object(cronjob("ops", "fresh", "ops")).unwrap();
    assert_eq!(label(&next_event(&mut w).await), "Apply fresh");
    let line = server
        .request_lines()
        .into_iter()
        .find(|l| l.contains("sendInitialEvents"))
        .unwrap();
    assert!(line.contains("resourceVersionMatch=NotOlderThan"), "{line}");

    // sendInitialEvents and resourceVersionMatch without their companions are refused, as
    // the real validation does.
    for query in [
        "sendInitialEvents=true",
        "sendInitialEvents=false",
        "sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
        "resourceVersionMatch=NotOlderThan",
    ] {
        let (code, _, body) = raw(
            &client,
            "GET",
            &format!("/apis/batch/v1/cronjobs?watch=1&timeoutSeconds=1&{query}"),
            None,
            "",
        )
        .await;
        assert_eq!(
            (code, body["reason"].as_str()),
            (422, Some("Invalid")),
            "{query}: {body}"
        );
    }

    // Metadata-only watch over all namespaces (PartialObjectMeta requests).
    let jobs: Api<PartialObjectMeta<Job>> = Api::all(client);
    let mut m = watcher::watcher(jobs, watcher::Config::default()).boxed();
    let mut names = Vec::new();
    loop {
        match next_event(&mut m).await {
            Event::InitApply(o) => names.push(o.name_any()),
            Event::InitDone => break,
            _ => {}
        }
    }
    assert_eq!(names.len(), server.count("jobs"));
    let mut job = server.objects("jobs").remove(0);
    job["metadata"]["labels"]["x"] = json!("y");
    server.put_object(job).unwrap();
    match next_event(&mut m).await {
        Event::Apply(o) => assert_eq!(o.labels().get("x").map(String::as_str), Some("y")),
        other => panic!("expected an apply, got {other:?}"),
    }
}

#[tokio::test]
async fn events_v1_view_is_watchable() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let from = server.resource_version();
    let mut ev = server.objects("events").remove(0);
    ev["message"] = json!("changed");
    server.put_object(ev).unwrap();
    let (_, events) = watch_lines(
        &client,
        &format!("/apis/events.k8s.io/v1/events?watch=1&resourceVersion={from}&timeoutSeconds=1"),
    )
    .await;
    assert_eq!(events.len(), 1);
    let o = &events[0]["object"];
    assert_eq!(
        (o["apiVersion"].as_str(), o["note"].as_str()),
        (Some("events.k8s.io/v1"), Some("changed"))
    );
}

#[tokio::test]
async fn a_continued_list_reports_its_first_page_version() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let api: Api<CronJob> = Api::all(client);
    let first = api.list(&ListParams::default().limit(1)).await.unwrap();
    let rv = first.metadata.resource_version.clone().unwrap();
    server.put_object(cronjob("ops", "fresh", "ops")).unwrap();
    let token = first.metadata.continue_.unwrap();
    let second = api
        .list(&ListParams::default().limit(1).continue_token(&token))
        .await
        .unwrap();
    assert_eq!(
        second.metadata.resource_version.as_deref(),
        Some(rv.as_str()),
        "a watch from the paged LIST's version must replay what changed while paging"
    );
    assert_ne!(rv, server.resource_version().to_string());
}

#[tokio::test]
async fn a_running_clock_moves_the_date_header() {
    let t: jiff::Timestamp = "2026-03-01T00:00:00Z".parse().unwrap();
    let server = FakeApiServer::builder()
        .clock(Clock::running_at_rate(t, 3600.0))
        .start()
        .await
        .unwrap();
    let client = client_for(&server, None).await;
    let date = |h: &http::HeaderMap| {
        let s = h["date"].to_str().unwrap().to_string();
        jiff::fmt::rfc2822::parse(&s).unwrap().timestamp()
    };
    let (_, h1, _) = raw(&client, "GET", "/version", None, "").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, h2, _) = raw(&client, "GET", "/version", None, "").await;
    let (d1, d2) = (date(&h1), date(&h2));
    assert!(
        d1 >= t && d1 < "2026-03-01T01:00:00Z".parse().unwrap(),
        "{d1}"
    );
    assert!(
        d2.duration_since(d1) >= jiff::SignedDuration::from_mins(17),
        "300 ms at an hour a second is 18 min: {d1} -> {d2}"
    );
    server.set_clock("2026-05-01T00:00:00Z".parse().unwrap());
    server.advance_clock(jiff::SignedDuration::from_hours(2));
    let (_, h3, _) = raw(&client, "GET", "/version", None, "").await;
    assert_eq!(
        date(&h3),
        "2026-05-01T02:00:00Z".parse::<jiff::Timestamp>().unwrap()
    );
}

#[tokio::test]
async fn injected_watch_faults_end_refuse_freeze_and_take_the_server_down() {
    use fake_apiserver::Fault;
    let server = FakeApiServer::builder()
        .objects(world())
        .bookmark_interval(Duration::from_millis(50))
        .start()
        .await
        .unwrap();
    let client = client_for(&server, None).await;
    let rv = server.resource_version();
    let path = format!(
        "/apis/batch/v1/cronjobs?watch=1&resourceVersion={rv}&allowWatchBookmarks=true&timeoutSeconds=5"
    );

    // Ended right after the headers: 200, no line at all, long before timeoutSeconds.
    server.inject(Fault::end_watch("**", Duration::ZERO).once());
    let started = Instant::now();
    let (status, lines) = watch_lines(&client, &path).await;
    assert_eq!((status, lines.len()), (200, 0), "{lines:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
    // Ended after a while: the bookmarks of that while, then a clean end.
    server.inject(Fault::end_watch("**", Duration::from_millis(400)).once());
    let started = Instant::now();
    let (status, lines) = watch_lines(&client, &path).await;
    assert_eq!(status, 200);
    assert!(!lines.is_empty() && lines.iter().all(|l| l["type"] == "BOOKMARK"));
    assert!(started.elapsed() < Duration::from_secs(2));
    // A LIST is not a watch: the fault leaves it alone.
    server.inject(Fault::end_watch("**", Duration::ZERO).once());
    let api: Api<CronJob> = Api::all(client.clone());
    assert!(
        !api.list(&ListParams::default())
            .await
            .unwrap()
            .items
            .is_empty()
    );
    server.clear_faults();

    // 410 as the status of the watch request itself.
    server.inject(Fault::gone_watch("**").once());
    let err = api
        .watch(&WatchParams::default().timeout(1), &rv.to_string())
        .await
        .err()
        .expect("refused");
    match err {
        kube::Error::Api(s) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired")),
        other => panic!("{other:?}"),
    }

    // Frozen: a request waits, an open watch sends nothing; thawed, both go on.
    let stream = api
        .watch(&WatchParams::default().timeout(5), &rv.to_string())
        .await
        .unwrap();
    let mut stream = Box::pin(stream);
    assert!(
        stream.next().await.is_some(),
        "a bookmark before the freeze"
    );
    server.freeze();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let silent = tokio::time::timeout(Duration::from_millis(400), stream.next()).await;
    assert!(silent.is_err(), "nothing while frozen: {silent:?}");
    let list = tokio::spawn({
        let api = api.clone();
        async move {
            api.list(&ListParams::default())
                .await
                .map(|l| l.items.len())
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!list.is_finished(), "a request waits while frozen");
    server.thaw();
    assert!(list.await.unwrap().unwrap() > 0);
    assert!(stream.next().await.is_some(), "bookmarks again once thawed");

    // Down: open watches are cut, new requests get no answer; back up, all is served.
    server.set_down(true);
    let cut = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(item) = stream.next().await {
            if item.is_err() {
                return true;
            }
        }
        true
    })
    .await;
    assert_eq!(cut, Ok(true), "the open watch ends");
    assert!(api.list(&ListParams::default()).await.is_err());
    server.set_down(false);
    assert!(api.list(&ListParams::default()).await.is_ok());
}

#[tokio::test]
async fn the_fan_out_generator_loads() {
    let server = FakeApiServer::start(fake_apiserver::generate::owner_fan_out("ops", 20)).await;
    assert_eq!(server.count("cronjobs"), 20);
    let job = server.object("jobs", "ops", "fan-out").unwrap();
    assert_eq!(
        job["metadata"]["ownerReferences"].as_array().unwrap().len(),
        20
    );
}
