//! Injected faults as the real kube 5 client experiences them: 403, 404, 429 (with and
//! without kube's default retry layer), 500, delays, dropped connections, latency.

use crate::common::{api_status, client_for, client_without_retries, config_for, raw, world};
use fake_apiserver::{FakeApiServer, Fault};
use k8s_openapi::api::batch::v1::CronJob;
use k8s_openapi::api::core::v1::Event;
use kube::Client;
use kube::api::{Api, ListParams};
use std::time::{Duration, Instant};

#[tokio::test]
async fn forbidden_uses_the_real_rbac_message() {
    let server = FakeApiServer::start(world()).await;
    server.inject(Fault::forbidden("list", "/api/v1/namespaces/ops/events"));
    server.inject(Fault::forbidden(
        "GET",
        "/apis/batch/v1/namespaces/*/cronjobs/nightly",
    ));
    let client = client_for(&server, None).await;
    let events: Api<Event> = Api::namespaced(client.clone(), "ops");
    let s = api_status(events.list(&ListParams::default()).await.unwrap_err());
    assert_eq!((s.code, s.reason.as_str()), (403, "Forbidden"));
    assert_eq!(
        s.message,
        "events is forbidden: User \"fake-user\" cannot list resource \"events\" in API group \"\" in the namespace \"ops\""
    );
    // Another namespace is unaffected.
    let billing: Api<Event> = Api::namespaced(client.clone(), "billing");
    assert!(billing.list(&ListParams::default()).await.is_ok());

    server.set_user("system:serviceaccount:ops:doctor");
    let cronjobs: Api<CronJob> = Api::namespaced(client, "ops");
    let s = api_status(cronjobs.get("nightly").await.unwrap_err());
    assert_eq!(
        s.message,
        "cronjobs.batch \"nightly\" is forbidden: User \"system:serviceaccount:ops:doctor\" cannot get resource \"cronjobs\" in API group \"batch\" in the namespace \"ops\""
    );
    let req = server.requests().pop().unwrap();
    assert!(req.faulted && req.status == 403);
}

#[tokio::test]
async fn not_found_and_internal_error_and_nth_page() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client.clone(), "ops");
    server.inject(Fault::not_found("get", "/apis/batch/v1/namespaces/ops/cronjobs/nightly").once());
    assert_eq!(
        api_status(cronjobs.get("nightly").await.unwrap_err()).message,
        "cronjobs.batch \"nightly\" not found"
    );
    assert!(cronjobs.get("nightly").await.is_ok(), "once means once");

    // Page 1 succeeds, page 2 fails: partial-list handling can be tested.
    let all: Api<CronJob> = Api::all(client);
    server.inject(
        Fault::internal_error("list", "/apis/batch/v1/cronjobs")
            .after(1)
            .once(),
    );
    let p1 = all.list(&ListParams::default().limit(2)).await.unwrap();
    let lp = ListParams::default()
        .limit(2)
        .continue_token(p1.metadata.continue_.as_deref().unwrap());
    let s = api_status(all.list(&lp).await.unwrap_err());
    assert_eq!((s.code, s.reason.as_str()), (500, "InternalError"));
    assert_eq!(
        server
            .requests()
            .iter()
            .filter(|r| r.path == "/apis/batch/v1/cronjobs")
            .count(),
        2,
        "kube does not retry 500s"
    );
    assert!(all.list(&lp).await.is_ok());
}

#[tokio::test]
async fn too_many_requests_is_retried_by_default_and_visible_without_retries() {
    let server = FakeApiServer::start(world()).await;
    let path = "/apis/batch/v1/namespaces/ops/cronjobs/nightly";

    // kube 5's default retry layer retries 429 (up to 15 times, honouring Retry-After):
    // a transient 429 never reaches the caller, but the log shows both attempts.
    server.inject(Fault::too_many_requests("get", path, 0).times(2));
    let cronjobs: Api<CronJob> = Api::namespaced(client_for(&server, None).await, "ops");
    assert!(cronjobs.get("nightly").await.is_ok());
    let statuses: Vec<u16> = server.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [429, 429, 200]);

    // Without the default retry layer (what a client with its own bounded retries builds),
    // the 429 and its Retry-After are visible.
    server.clear_requests();
    server.inject(Fault::too_many_requests("get", path, 7));
    let plain = client_without_retries(&server).await;
    let s = api_status(
        Api::<CronJob>::namespaced(plain.clone(), "ops")
            .get("nightly")
            .await
            .unwrap_err(),
    );
    assert_eq!((s.code, s.reason.as_str()), (429, "TooManyRequests"));
    let (code, headers, body) = raw(&plain, "GET", path, None, "").await;
    assert_eq!((code, headers["retry-after"].to_str().unwrap()), (429, "7"));
    assert_eq!(body["details"]["retryAfterSeconds"], 7);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn delays_latency_and_client_timeouts() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client, "ops");
    server.inject(Fault::delay("get", "**/cronjobs/nightly", Duration::from_millis(300)).once());
    let t = Instant::now();
    assert!(cronjobs.get("nightly").await.is_ok());
    assert!(t.elapsed() >= Duration::from_millis(300));

    server.set_latency(Duration::from_millis(150));
    let t = Instant::now();
    assert!(cronjobs.get("hourly").await.is_ok());
    assert!(t.elapsed() >= Duration::from_millis(150));
    server.set_latency(Duration::ZERO);

    // A delay beyond the client's read timeout is a transport error, not an API error.
    let mut cfg = config_for(&server, None).await;
    cfg.read_timeout = Some(Duration::from_millis(100));
    let impatient: Api<CronJob> = Api::namespaced(Client::try_from(cfg).unwrap(), "ops");
    server.inject(Fault::delay("get", "**", Duration::from_millis(500)).once());
    let err = impatient.get("nightly").await.unwrap_err();
    assert!(!matches!(err, kube::Error::Api(_)), "{err:?}");
}

#[tokio::test]
async fn dropped_connections_fail_the_request_without_a_response() {
    let server = FakeApiServer::start(world()).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client_for(&server, None).await, "ops");
    assert!(
        cronjobs.get("nightly").await.is_ok(),
        "a pooled keep-alive connection exists"
    );
    server.inject(
        Fault::drop_connection("get", "/apis/batch/v1/namespaces/ops/cronjobs/nightly").once(),
    );
    let err = cronjobs.get("nightly").await.unwrap_err();
    assert!(!matches!(err, kube::Error::Api(_)), "{err:?}");
    let last = server.requests().pop().unwrap();
    assert_eq!((last.status, last.faulted), (0, true));
    assert!(
        cronjobs.get("nightly").await.is_ok(),
        "the next request reconnects"
    );
}
