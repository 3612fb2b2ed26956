//! Shared by the integration tests: a small world, a scratch directory, and a real kube 5
//! client built from the kubeconfig the fake server writes (the path the plugin takes).

use fake_apiserver::{FakeApiServer, load_fixture_str};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const WORLD: &str = r#"
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: ops, labels: {team: ops}}
spec:
  schedule: "0 2 * * *"
  timeZone: Europe/Berlin
  jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox}]}}}}
status: {lastScheduleTime: "2025-03-01T01:00:00Z"}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: hourly, namespace: ops, labels: {team: ops}}
spec:
  schedule: "@hourly"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: invoices, namespace: billing, labels: {team: billing}}
spec:
  schedule: "*/5 * * * *"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: zz-last, namespace: ops}
spec:
  schedule: "0 0 1 1 *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
---
apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: Job
  metadata:
    name: nightly-29000000
    namespace: ops
    labels: {batch.kubernetes.io/job-name: nightly-29000000, job-name: nightly-29000000}
  spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox}]}}}
  status: {succeeded: 1}
- apiVersion: batch/v1
  kind: Job
  metadata:
    name: nightly-29001440
    namespace: ops
    labels: {batch.kubernetes.io/job-name: nightly-29001440, job-name: nightly-29001440}
  spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox}]}}}
  status: {failed: 1}
---
apiVersion: v1
kind: Pod
metadata:
  name: nightly-29001440-abcde
  namespace: ops
  labels: {batch.kubernetes.io/job-name: nightly-29001440, job-name: nightly-29001440}
spec: {restartPolicy: OnFailure, nodeName: node-1, containers: [{name: c, image: busybox}]}
status: {phase: Failed}
---
apiVersion: v1
kind: Pod
metadata:
  name: nightly-29000000-fghij
  namespace: ops
  labels: {batch.kubernetes.io/job-name: nightly-29000000, job-name: nightly-29000000}
spec: {restartPolicy: OnFailure, nodeName: node-2, containers: [{name: c, image: busybox}]}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Event
metadata: {name: nightly.17f0a1, namespace: ops}
involvedObject: {kind: CronJob, namespace: ops, name: nightly, apiVersion: batch/v1}
reason: SuccessfulCreate
message: Created job nightly-29001440
type: Normal
source: {component: cronjob-controller}
count: 1
---
apiVersion: v1
kind: Event
metadata: {name: nightly-29001440.17f0a2, namespace: ops}
involvedObject: {kind: Job, namespace: ops, name: nightly-29001440, apiVersion: batch/v1}
reason: BackoffLimitExceeded
message: Job has reached the specified backoff limit
type: Warning
source: {component: job-controller}
"#;

pub fn world() -> Vec<serde_json::Value> {
    load_fixture_str(WORLD).expect("test world parses")
}

/// A fresh scratch directory (no tempfile dependency for this).
pub fn scratch_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "fake-apiserver-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The kube config the plugin would build from `server`'s kubeconfig.
pub async fn config_for(server: &FakeApiServer, namespace: Option<&str>) -> Config {
    let path = server.write_kubeconfig(scratch_dir(), namespace);
    let kubeconfig = Kubeconfig::read_from(&path).expect("kubeconfig parses");
    Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
        .await
        .expect("kubeconfig loads")
}

pub async fn client_for(server: &FakeApiServer, namespace: Option<&str>) -> Client {
    Client::try_from(config_for(server, namespace).await).expect("client builds")
}

/// A client with kube's default retry layer off, so 429/503 reach the caller directly.
pub async fn client_without_retries(server: &FakeApiServer) -> Client {
    let mut cfg = config_for(server, None).await;
    cfg.default_retry = false;
    Client::try_from(cfg).expect("client builds")
}

/// The `Status` inside a kube API error.
pub fn api_status(e: kube::Error) -> kube::core::Status {
    match e {
        kube::Error::Api(s) => *s,
        other => panic!("expected an API error, got {other:?}"),
    }
}

/// Sends a raw request through `client` (auth, retries and all) and returns status, headers
/// and body as JSON: for asserting on what is on the wire.
pub async fn raw(
    client: &Client,
    method: &str,
    path: &str,
    content_type: Option<&str>,
    body: &str,
) -> (u16, http::HeaderMap, serde_json::Value) {
    let mut req = http::Request::builder().method(method).uri(path);
    if let Some(ct) = content_type {
        req = req.header("content-type", ct);
    }
    let req = req
        .body(kube::client::Body::from(body.as_bytes().to_vec()))
        .unwrap();
    let res = client.send(req).await.expect("transport");
    let (parts, body) = res.into_parts();
    let bytes = body.collect_bytes().await.expect("body");
    let v = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (parts.status.as_u16(), parts.headers, v)
}
