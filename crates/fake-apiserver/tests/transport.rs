//! How the server sends: TLS verified through the kubeconfig it writes, a latency added to
//! every answer, and each response handed to the transport in one write.

use crate::common::*;
use fake_apiserver::{FakeApiServer, KubeContext, write_kubeconfig_file};
use k8s_openapi::api::batch::v1::CronJob;
use kube::api::{Api, ListParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};
use std::path::Path;
use std::time::{Duration, Instant};

async fn client_from(path: &Path) -> Client {
    let kubeconfig = Kubeconfig::read_from(path).expect("kubeconfig parses");
    let cfg = Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
        .await
        .expect("kubeconfig loads");
    Client::try_from(cfg).expect("client builds")
}

async fn list_cronjobs(client: Client) -> Result<usize, kube::Error> {
    let list = Api::<CronJob>::namespaced(client, "ops")
        .list(&ListParams::default())
        .await?;
    Ok(list.items.len())
}

#[tokio::test]
async fn tls_server_is_trusted_through_its_kubeconfig_only() {
    let server = FakeApiServer::builder()
        .objects(world())
        .tls()
        .start()
        .await
        .unwrap();
    assert!(server.url().starts_with("https://127.0.0.1:"));
    let pem = server.ca_pem().expect("a TLS server has a CA");
    assert!(pem.starts_with("-----BEGIN CERTIFICATE-----"));

    let trusted = server.write_kubeconfig(scratch_dir(), None);
    assert_eq!(list_cronjobs(client_from(&trusted).await).await.unwrap(), 3);

    // The same server without its CA, and with another server's CA: both refused before
    // any request is answered.
    let other = FakeApiServer::builder().tls().start().await.unwrap();
    let url = server.url();
    for ca_pem in [None, other.ca_pem()] {
        let path = scratch_dir().join("kubeconfig");
        let ctx = KubeContext {
            name: "fake",
            server: &url,
            namespace: None,
            token: "fake-token",
            ca_pem,
        };
        write_kubeconfig_file(&path, &[ctx], "fake").unwrap();
        server.clear_requests();
        let err = list_cronjobs(client_from(&path).await).await.unwrap_err();
        assert!(!matches!(err, kube::Error::Api(_)), "{err:?}");
        assert!(server.requests().is_empty());
    }
}

#[tokio::test]
async fn plain_http_stays_the_default() {
    let server = FakeApiServer::start(world()).await;
    assert!(server.url().starts_with("http://127.0.0.1:"));
    assert!(server.ca_pem().is_none());
    let path = server.write_kubeconfig(scratch_dir(), None);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("certificate-authority"), "{text}");
    assert_eq!(list_cronjobs(client_from(&path).await).await.unwrap(), 3);
}

/// A lower bound only (the server waits at least this long per request), so never flaky:
/// without the latency, these requests take a few milliseconds in all.
#[tokio::test]
async fn latency_delays_every_answer() {
    const N: u32 = 6;
    const LATENCY: Duration = Duration::from_millis(40);
    for tls in [false, true] {
        let mut builder = FakeApiServer::builder().objects(world()).latency(LATENCY);
        if tls {
            builder = builder.tls();
        }
        let server = builder.start().await.unwrap();
        let client = client_for(&server, None).await;
        // Connect (and handshake) first: only the answers are timed.
        list_cronjobs(client.clone()).await.unwrap();
        let started = Instant::now();
        for _ in 0..N {
            list_cronjobs(client.clone()).await.unwrap();
        }
        let took = started.elapsed();
        assert!(took >= N * LATENCY, "tls={tls}: {N} requests in {took:?}");
        assert_eq!(server.requests().len(), N as usize + 1);
    }
}

/// Headers and body leave together, as Go's net/http sends them: each small answer is one
/// write to the connection (to the TLS layer when serving TLS).
#[tokio::test]
async fn each_answer_is_one_write() {
    for tls in [false, true] {
        let mut builder = FakeApiServer::builder().objects(world());
        if tls {
            builder = builder.tls();
        }
        let server = builder.start().await.unwrap();
        let client = client_for(&server, None).await;
        list_cronjobs(client.clone()).await.unwrap();
        let before = server.write_calls();
        for _ in 0..5 {
            list_cronjobs(client.clone()).await.unwrap();
            let (code, _, _) = raw(&client, "GET", "/version", None, "").await;
            assert_eq!(code, 200);
            let (code, _, _) =
                raw(&client, "GET", "/api/v1/namespaces/ops/pods/nope", None, "").await;
            assert_eq!(code, 404);
        }
        assert_eq!(server.write_calls() - before, 15, "tls={tls}");
    }
}
