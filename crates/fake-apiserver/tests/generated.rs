//! The generated benchmark population, small: every object must deserialise into the
//! k8s-openapi types the plugin uses, and page through kube's typed LIST like fixtures do.

use crate::common::client_for;
use fake_apiserver::FakeApiServer;
use fake_apiserver::generate::{Spec, population};
use fake_apiserver::{Clock, Fault};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{Event, Pod};
use kube::api::{Api, ListParams};
use serde::de::DeserializeOwned;
use std::fmt::Debug;

async fn count_all<K>(api: Api<K>) -> usize
where
    K: kube::Resource + Clone + DeserializeOwned + Debug,
{
    let mut lp = ListParams::default().limit(100);
    let mut n = 0;
    loop {
        let page = api.list(&lp).await.unwrap();
        n += page.items.len();
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => lp = lp.continue_token(&c),
            _ => return n,
        }
    }
}

#[tokio::test]
async fn generated_population_is_served_and_typed() {
    let now = "2025-03-01T12:00:00Z".parse().unwrap();
    let spec = Spec::default()
        .parse_counts("cronjobs=60,jobs=600,pods=180,events=300,namespaces=6")
        .unwrap();
    let server = FakeApiServer::builder()
        .clock(Clock::Fixed(now))
        .objects(population(Spec {
            seed: 4,
            now,
            ..spec
        }))
        .start()
        .await
        .unwrap();
    let client = client_for(&server, None).await;
    assert_eq!(count_all(Api::<CronJob>::all(client.clone())).await, 60);
    assert_eq!(count_all(Api::<Job>::all(client.clone())).await, 600);
    assert_eq!(count_all(Api::<Pod>::all(client.clone())).await, 180);
    assert_eq!(count_all(Api::<Event>::all(client.clone())).await, 300);

    // What `explain` would ask for one CronJob: its Jobs by owner, their Pods by label.
    let cj = &Api::<CronJob>::all(client.clone())
        .list(&ListParams::default().limit(1))
        .await
        .unwrap()
        .items[0];
    let ns = cj.metadata.namespace.as_deref().unwrap();
    let jobs = Api::<Job>::namespaced(client.clone(), ns)
        .list(&ListParams::default())
        .await
        .unwrap();
    let owned: Vec<&Job> = jobs
        .items
        .iter()
        .filter(|j| {
            j.metadata.owner_references.as_ref().unwrap()[0].uid
                == *cj.metadata.uid.as_ref().unwrap()
        })
        .collect();
    assert_eq!(owned.len(), 10);
    let newest = owned
        .iter()
        .map(|j| j.metadata.name.clone().unwrap())
        .max()
        .unwrap();
    let pods = Api::<Pod>::namespaced(client.clone(), ns)
        .list(&ListParams::default().labels(&format!("batch.kubernetes.io/job-name={newest}")))
        .await
        .unwrap();
    assert!(!pods.items.is_empty());

    // Faults compose with generated worlds as with fixtures.
    server.inject(Fault::forbidden("list", "/api/v1/events").once());
    assert!(
        Api::<Event>::all(client)
            .list(&ListParams::default())
            .await
            .is_err()
    );
}
