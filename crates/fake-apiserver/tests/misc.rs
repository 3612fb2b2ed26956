//! The server clock behind `Date`, SelfSubjectAccessReview and access rules, kubeconfig
//! contexts, the blocking (own-thread) server, and mutating the world behind the API.

use crate::common;
use crate::common::{api_status, client_for, raw, scratch_dir, world};
use fake_apiserver::{AccessRule, FakeApiServer};
use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{Event, Pod};
use kube::api::{Api, ListParams, LogParams, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};
use std::io::{Read, Write};

fn date_of(headers: &http::HeaderMap) -> Timestamp {
    let d = headers["date"].to_str().unwrap();
    jiff::fmt::rfc2822::parse(d).unwrap().timestamp()
}

#[tokio::test]
async fn date_header_follows_the_server_clock() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let (_, headers, _) = raw(&client, "GET", "/version", None, "").await;
    let skew = date_of(&headers).duration_since(Timestamp::now()).abs();
    assert!(skew < SignedDuration::from_secs(5), "real clock by default");

    server.set_clock("2025-03-01T12:00:00Z".parse().unwrap());
    let (_, headers, _) = raw(&client, "GET", "/apis/batch/v1/cronjobs", None, "").await;
    assert_eq!(headers["date"], "Sat, 01 Mar 2025 12:00:00 GMT");
    // Errors carry it too.
    let (code, headers, _) = raw(
        &client,
        "GET",
        "/apis/batch/v1/namespaces/x/cronjobs/y",
        None,
        "",
    )
    .await;
    assert_eq!(
        (code, headers["date"].to_str().unwrap()),
        (404, "Sat, 01 Mar 2025 12:00:00 GMT")
    );

    server.set_clock_skew(SignedDuration::from_mins(-90));
    let (_, headers, _) = raw(&client, "GET", "/version", None, "").await;
    let behind = Timestamp::now().duration_since(date_of(&headers));
    assert!(
        (behind - SignedDuration::from_mins(90)).abs() < SignedDuration::from_secs(5),
        "{behind}"
    );
}

fn review(verb: &str, resource: &str, namespace: &str) -> SelfSubjectAccessReview {
    SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(ResourceAttributes {
                verb: Some(verb.into()),
                resource: Some(resource.into()),
                namespace: Some(namespace.into()),
                ..Default::default()
            }),
            ..Default::default()
        },
        ..Default::default()
    }
}

#[tokio::test]
async fn access_reviews_and_requests_agree() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let reviews: Api<SelfSubjectAccessReview> = Api::all(client.clone());
    let pp = PostParams::default();
    let r = reviews
        .create(&pp, &review("list", "events", "ops"))
        .await
        .unwrap();
    assert!(r.status.unwrap().allowed, "allowed by default");

    server.add_access_rule(AccessRule::deny("list", "events").in_namespace("ops"));
    let r = reviews
        .create(&pp, &review("list", "events", "ops"))
        .await
        .unwrap();
    assert!(!r.status.unwrap().allowed);
    assert!(
        reviews
            .create(&pp, &review("list", "events", "billing"))
            .await
            .unwrap()
            .status
            .unwrap()
            .allowed
    );
    let req = server.requests().pop().unwrap();
    assert_eq!(
        req.line(),
        "POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
    );
    assert_eq!(
        req.body.unwrap()["spec"]["resourceAttributes"]["namespace"],
        "billing"
    );

    // The denied request itself is refused with the same Forbidden a real cluster sends.
    let s = api_status(
        Api::<Event>::namespaced(client, "ops")
            .list(&ListParams::default())
            .await
            .unwrap_err(),
    );
    assert_eq!(
        s.message,
        "events is forbidden: User \"fake-user\" cannot list resource \"events\" in API group \"\" in the namespace \"ops\""
    );
}

#[tokio::test]
async fn kubeconfig_contexts_are_distinguishable() {
    let server = FakeApiServer::start(world()).await;
    let path = server.write_kubeconfig_contexts(
        scratch_dir(),
        &[("prod", Some("ops")), ("staging", None)],
        "prod",
    );
    for (context, namespace) in [(None, "ops"), (Some("staging"), "default")] {
        let opts = KubeConfigOptions {
            context: context.map(str::to_string),
            ..Default::default()
        };
        let cfg = Config::from_custom_kubeconfig(Kubeconfig::read_from(&path).unwrap(), &opts)
            .await
            .unwrap();
        assert_eq!(cfg.default_namespace, namespace);
        let client = Client::try_from(cfg).unwrap();
        Api::<Job>::default_namespaced(client)
            .list(&ListParams::default())
            .await
            .unwrap();
    }
    let tokens: Vec<_> = server
        .requests()
        .iter()
        .map(|r| r.bearer_token().unwrap().to_string())
        .collect();
    assert_eq!(tokens, ["fake-token-prod", "fake-token-staging"]);
    let paths: Vec<_> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        [
            "/apis/batch/v1/namespaces/ops/jobs",
            "/apis/batch/v1/namespaces/default/jobs"
        ]
    );
}

/// What an assert_cmd test does: the server on its own thread, the client elsewhere (here a
/// raw socket standing in for the plugin process).
#[test]
fn blocking_server_serves_other_threads_and_stops() {
    let server = FakeApiServer::start_blocking(world());
    let addr = server.addr();
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.write_all(b"GET /apis/batch/v1/namespaces/ops/cronjobs?limit=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.1 200 OK"), "{out}");
    assert!(out.contains("\"kind\":\"CronJobList\"") && out.contains("\"continue\":"));
    assert_eq!(
        server.request_lines(),
        ["GET /apis/batch/v1/namespaces/ops/cronjobs?limit=1"]
    );

    let kubeconfig =
        std::fs::read_to_string(server.write_kubeconfig(scratch_dir(), Some("ops"))).unwrap();
    assert!(kubeconfig.contains(&format!("server: \"{}\"", server.url())));
    server.shutdown();
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "stopped listening"
    );
}

#[tokio::test]
async fn world_can_change_behind_the_api() {
    let server = FakeApiServer::start(world()).await;
    assert_eq!(server.count("jobs"), 2);
    let mut job = server.object("jobs", "ops", "nightly-29001440").unwrap();
    let old_rv = job["metadata"]["resourceVersion"].clone();
    job["status"]["active"] = 1.into();
    server.put_object(job).unwrap();
    let now = server.object("jobs", "ops", "nightly-29001440").unwrap();
    assert_eq!(now["status"]["active"], 1);
    assert_ne!(now["metadata"]["resourceVersion"], old_rv);
    assert!(server.delete_object("jobs", "ops", "nightly-29000000"));
    let names: Vec<_> = server
        .objects("Job")
        .iter()
        .map(|j| j["metadata"]["name"].clone())
        .collect();
    assert_eq!(names, ["nightly-29001440"]);
    assert!(
        server
            .objects("namespaces")
            .iter()
            .any(|n| n["metadata"]["name"] == "billing")
    );
}

#[tokio::test]
async fn pod_logs() {
    let server = FakeApiServer::start(world()).await;
    server.set_pod_log(
        "ops",
        "nightly-29001440-abcde",
        "c",
        false,
        "starting\nconnecting\nKilled\n",
    );
    let pods: Api<Pod> = Api::namespaced(client_for(&server, None).await, "ops");
    let lp = LogParams {
        tail_lines: Some(2),
        ..Default::default()
    };
    assert_eq!(
        pods.logs("nightly-29001440-abcde", &lp).await.unwrap(),
        "connecting\nKilled\n"
    );
    assert_eq!(
        pods.logs("nightly-29000000-fghij", &LogParams::default())
            .await
            .unwrap(),
        ""
    );
    let prev = LogParams {
        previous: true,
        ..Default::default()
    };
    assert_eq!(
        api_status(
            pods.logs("nightly-29001440-abcde", &prev)
                .await
                .unwrap_err()
        )
        .code,
        400
    );
    let s = api_status(pods.logs("gone", &LogParams::default()).await.unwrap_err());
    assert_eq!(s.message, "pods \"gone\" not found");
    assert_eq!(
        server.requests()[0].line(),
        "GET /api/v1/namespaces/ops/pods/nightly-29001440-abcde/log?tailLines=2"
    );
}

/// The service proxy: an unmapped Service is a 503 (no endpoints), a mapped one is forwarded
/// to its loopback address with the path after `/proxy` and the query, and `get` on
/// `services/proxy` is what the access rules decide.
#[tokio::test]
async fn the_service_proxy_forwards_to_a_mapped_address() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = FakeApiServer::start(world()).await;
    // kube's retry layer would retry the 503s.
    let client = common::client_without_retries(&server).await;
    let path = "/api/v1/namespaces/mon/services/doctor:9090/proxy/runs?namespace=ops&name=nightly";
    let (code, _, v) = raw(&client, "GET", path, None, "").await;
    assert_eq!(
        (code, v["reason"].as_str()),
        (503, Some("ServiceUnavailable"))
    );
    assert_eq!(
        v["message"],
        "no endpoints available for service \"doctor\""
    );

    let upstream = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = upstream.local_addr().unwrap();
    let seen = tokio::spawn(async move {
        let (mut s, _) = upstream.accept().await.unwrap();
        let mut buf = vec![0u8; 4096];
        let n = s.read(&mut buf).await.unwrap();
        s.write_all(b"HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{\"ok\":true}")
            .await
            .unwrap();
        String::from_utf8_lossy(&buf[..n]).into_owned()
    });
    server.set_service_proxy("mon", "doctor", 9090, Some(addr));
    let (code, _, v) = raw(&client, "GET", path, None, "").await;
    assert_eq!((code, v), (200, serde_json::json!({"ok": true})));
    let request = seen.await.unwrap();
    assert!(
        request.starts_with("GET /runs?namespace=ops&name=nightly HTTP/1.0\r\n"),
        "{request}"
    );

    server.add_access_rule(AccessRule::deny("get", "services/proxy").in_namespace("mon"));
    let (code, _, v) = raw(&client, "GET", path, None, "").await;
    assert_eq!(code, 403);
    assert_eq!(
        v["message"],
        "services \"doctor:9090\" is forbidden: User \"fake-user\" cannot get resource \"services/proxy\" in API group \"\" in the namespace \"mon\""
    );
}
