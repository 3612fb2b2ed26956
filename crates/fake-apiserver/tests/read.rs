//! Reads through the real kube 5 client: version, discovery, GET, 404, LIST paging,
//! selectors, metadata-only lists, the events.k8s.io view, and the request log.

use crate::common::{api_status, client_for, raw, world};
use fake_apiserver::FakeApiServer;
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{Event, Pod};
use kube::api::{Api, ListParams};
use kube::core::{DynamicObject, GroupVersionKind};
use kube::discovery::{self, Discovery};

#[tokio::test]
async fn version_and_discovery() {
    let server = FakeApiServer::start(world()).await;
    server.set_version("v1.30.4");
    let client = client_for(&server, None).await;
    let info = client.apiserver_version().await.unwrap();
    assert_eq!(
        (
            info.git_version.as_str(),
            info.major.as_str(),
            info.minor.as_str()
        ),
        ("v1.30.4", "1", "30")
    );

    // Typed Api<CronJob> calls need no discovery: the first request is the list itself.
    server.clear_requests();
    let cronjobs: Api<CronJob> = Api::all(client.clone());
    cronjobs.list(&ListParams::default()).await.unwrap();
    assert_eq!(server.request_lines(), ["GET /apis/batch/v1/cronjobs"]);

    // Dynamic users go through discovery; both the full and the one-group flavours work.
    let d = Discovery::new(client.clone()).run().await.unwrap();
    assert!(d.has_group("batch") && d.has_group("events.k8s.io"));
    let (ar, caps) =
        discovery::pinned_kind(&client, &GroupVersionKind::gvk("batch", "v1", "CronJob"))
            .await
            .unwrap();
    assert_eq!(
        (ar.plural.as_str(), caps.scope),
        ("cronjobs", kube::discovery::Scope::Namespaced)
    );
    assert!(caps.subresources.iter().any(|(r, _)| r.plural == "status"));
    let dynamic: Api<DynamicObject> = Api::namespaced_with(client, "ops", &ar);
    let list = dynamic.list(&ListParams::default()).await.unwrap();
    assert_eq!(list.items.len(), 3);
}

#[tokio::test]
async fn get_and_not_found() {
    let server = FakeApiServer::start(world()).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client_for(&server, None).await, "ops");
    let cj = cronjobs.get("nightly").await.unwrap();
    assert_eq!(cj.spec.time_zone.as_deref(), Some("Europe/Berlin"));
    let meta = cj.metadata;
    assert_eq!(meta.namespace.as_deref(), Some("ops"));
    assert_eq!(meta.uid.unwrap().len(), 36, "uid assigned on load");
    assert!(meta.resource_version.is_some() && meta.creation_timestamp.is_some());

    let s = api_status(cronjobs.get("missing").await.unwrap_err());
    assert_eq!((s.code, s.reason.as_str()), (404, "NotFound"));
    assert_eq!(s.message, "cronjobs.batch \"missing\" not found");
    let details = s.details.unwrap();
    assert_eq!(
        (
            details.name.as_str(),
            details.group.as_str(),
            details.kind.as_str()
        ),
        ("missing", "batch", "cronjobs")
    );
    assert_eq!(cronjobs.get_opt("missing").await.unwrap(), None);

    // The raw 404 body is exactly the real server's Status document.
    let status = serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": "cronjobs.batch \"missing\" not found", "reason": "NotFound",
        "details": {"name": "missing", "group": "batch", "kind": "cronjobs"}, "code": 404});
    let client = client_for(&server, None).await;
    let (code, headers, body) = raw(
        &client,
        "GET",
        "/apis/batch/v1/namespaces/ops/cronjobs/missing",
        None,
        "",
    )
    .await;
    assert_eq!((code, body), (404, status));
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(server.requests().last().unwrap().status, 404);
}

#[tokio::test]
async fn list_pages_in_key_order_with_opaque_continue() {
    let server = FakeApiServer::start(world()).await;
    let cronjobs: Api<CronJob> = Api::all(client_for(&server, None).await);
    let mut names = Vec::new();
    let mut lp = ListParams::default().limit(2);
    let mut pages = 0;
    loop {
        let page = cronjobs.list(&lp).await.unwrap();
        pages += 1;
        assert!(page.items.len() <= 2);
        names.extend(page.items.iter().map(|c| {
            format!(
                "{}/{}",
                c.metadata.namespace.as_deref().unwrap(),
                c.metadata.name.as_deref().unwrap()
            )
        }));
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => {
                if pages == 1 {
                    assert_eq!(page.metadata.remaining_item_count, Some(2));
                }
                lp = lp.continue_token(&c);
            }
            _ => break,
        }
    }
    assert_eq!(pages, 2);
    assert_eq!(
        names,
        [
            "billing/invoices",
            "ops/hourly",
            "ops/nightly",
            "ops/zz-last"
        ]
    );
    let lines = server.request_lines();
    assert_eq!(lines[0], "GET /apis/batch/v1/cronjobs?limit=2");
    assert!(
        lines[1].starts_with("GET /apis/batch/v1/cronjobs?continue=")
            && lines[1].ends_with("&limit=2")
    );

    // Garbage continue tokens are a 400, as on the real server.
    let bad = cronjobs
        .list(&ListParams::default().limit(1).continue_token("nope"))
        .await
        .unwrap_err();
    assert_eq!(api_status(bad).code, 400);

    // A namespaced paged list stays inside its namespace.
    let ops: Api<CronJob> = Api::namespaced(client_for(&server, None).await, "ops");
    let first = ops.list(&ListParams::default().limit(2)).await.unwrap();
    let c = first.metadata.continue_.unwrap();
    let second = ops
        .list(&ListParams::default().limit(2).continue_token(&c))
        .await
        .unwrap();
    assert_eq!(second.items.len(), 1);
    assert_eq!(second.metadata.continue_, None);
}

#[tokio::test]
async fn label_and_field_selectors() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let jobs: Api<Job> = Api::namespaced(client.clone(), "ops");
    let by_label = |sel: &'static str| {
        let jobs = jobs.clone();
        async move {
            let l = jobs.list(&ListParams::default().labels(sel)).await.unwrap();
            l.items
                .into_iter()
                .map(|j| j.metadata.name.unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        by_label("job-name=nightly-29001440").await,
        ["nightly-29001440"]
    );
    assert_eq!(
        by_label("batch.kubernetes.io/job-name in (nightly-29000000,nightly-29001440)")
            .await
            .len(),
        2
    );
    assert_eq!(
        by_label("batch.kubernetes.io/job-name notin (nightly-29000000)").await,
        ["nightly-29001440"]
    );
    assert_eq!(
        by_label("job-name!=nightly-29000000").await,
        ["nightly-29001440"]
    );
    assert_eq!(by_label("!job-name").await.len(), 0);
    assert_eq!(by_label("job-name").await.len(), 2);

    let cjs: Api<CronJob> = Api::all(client.clone());
    let l = cjs
        .list(
            &ListParams::default()
                .labels("team=ops")
                .fields("metadata.namespace=ops"),
        )
        .await
        .unwrap();
    assert_eq!(l.items.len(), 2);
    let l = cjs
        .list(&ListParams::default().fields("metadata.name=invoices"))
        .await
        .unwrap();
    assert_eq!(l.items[0].metadata.namespace.as_deref(), Some("billing"));

    let events: Api<Event> = Api::namespaced(client.clone(), "ops");
    let fs = "involvedObject.kind=Job,involvedObject.name=nightly-29001440";
    let l = events
        .list(&ListParams::default().fields(fs))
        .await
        .unwrap();
    assert_eq!(l.items.len(), 1);
    assert_eq!(l.items[0].reason.as_deref(), Some("BackoffLimitExceeded"));
    let uid =
        server.object("events", "ops", "nightly.17f0a1").unwrap()["involvedObject"]["uid"].clone();
    assert!(uid.is_null(), "fixtures are served as given");

    let pods: Api<Pod> = Api::all(client.clone());
    let l = pods
        .list(&ListParams::default().fields("status.phase!=Succeeded"))
        .await
        .unwrap();
    assert_eq!(
        l.items
            .iter()
            .map(|p| p.metadata.name.clone().unwrap())
            .collect::<Vec<_>>(),
        ["nightly-29001440-abcde"]
    );
    let l = pods
        .list(&ListParams::default().fields("spec.nodeName=node-2"))
        .await
        .unwrap();
    assert_eq!(l.items.len(), 1);

    // Unsupported field labels are refused like the real server refuses them.
    let s = api_status(
        cjs.list(&ListParams::default().fields("spec.schedule=x"))
            .await
            .unwrap_err(),
    );
    assert_eq!(
        (s.code, s.message.as_str()),
        (400, "field label not supported: spec.schedule")
    );

    // A paged, selected list: the continue token carries the selection's position.
    let l = pods
        .list(&ListParams::default().labels("job-name").limit(1))
        .await
        .unwrap();
    assert_eq!(
        l.metadata.remaining_item_count, None,
        "not counted under a selector"
    );
    let c = l.metadata.continue_.unwrap();
    let l2 = pods
        .list(
            &ListParams::default()
                .labels("job-name")
                .limit(1)
                .continue_token(&c),
        )
        .await
        .unwrap();
    assert_eq!(l2.items.len(), 1);
    assert_ne!(l.items[0].metadata.name, l2.items[0].metadata.name);
}

#[tokio::test]
async fn metadata_lists_and_events_v1_view() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let jobs: Api<Job> = Api::all(client.clone());
    let meta = jobs.list_metadata(&ListParams::default()).await.unwrap();
    assert_eq!(meta.items.len(), 2);
    assert_eq!(
        meta.items[0].metadata.name.as_deref(),
        Some("nightly-29000000")
    );
    let req = server.requests().pop().unwrap();
    assert!(req.headers["accept"].contains("as=PartialObjectMetadataList"));
    let ns_jobs: Api<Job> = Api::namespaced(client.clone(), "ops");
    let m = ns_jobs.get_metadata("nightly-29001440").await.unwrap();
    assert!(m.metadata.labels.unwrap().contains_key("job-name"));

    use k8s_openapi::api::events::v1::Event as EventV1;
    let events: Api<EventV1> = Api::namespaced(client, "ops");
    let l = events
        .list(&ListParams::default().fields("regarding.kind=CronJob"))
        .await
        .unwrap();
    assert_eq!(l.items.len(), 1);
    let e = &l.items[0];
    assert_eq!(e.note.as_deref(), Some("Created job nightly-29001440"));
    assert_eq!(
        e.regarding.as_ref().unwrap().name.as_deref(),
        Some("nightly")
    );
    assert_eq!(
        e.deprecated_source.as_ref().unwrap().component.as_deref(),
        Some("cronjob-controller")
    );
    let one = events.get("nightly.17f0a1").await.unwrap();
    assert_eq!(one.reason.as_deref(), Some("SuccessfulCreate"));
}

#[tokio::test]
async fn list_items_carry_no_type_meta_on_the_wire() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let req = http::Request::get("/apis/batch/v1/namespaces/billing/cronjobs?limit=5")
        .body(vec![])
        .unwrap();
    let text = client.request_text(req).await.unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (v["kind"].as_str(), v["apiVersion"].as_str()),
        (Some("CronJobList"), Some("batch/v1"))
    );
    assert!(v["metadata"]["resourceVersion"].is_string());
    assert!(
        v["items"][0].get("kind").is_none(),
        "the real server strips TypeMeta from items"
    );
    let req = http::Request::get("/apis/batch/v1/namespaces/billing/cronjobs/invoices")
        .body(vec![])
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&client.request_text(req).await.unwrap()).unwrap();
    assert_eq!(
        (v["kind"].as_str(), v["apiVersion"].as_str()),
        (Some("CronJob"), Some("batch/v1"))
    );
}
