//! Watching the cluster with kube's own machinery (`kube::runtime::watcher`: paged initial
//! LIST, WATCH from its resourceVersion with bookmarks, relist on 410 Gone, kube's default
//! backoff on errors, started afresh when the server answers again) — no watch loop of our
//! own. What kube's watcher does not report (bookmarks, silent re-watches) is seen under it,
//! at the HTTP layer (`liveness`). Each watched kind is read through the same
//! slim wire types and conversion as `scan` (`wire` → `convert` → `doctor::model`), so what
//! `monitor` diagnoses is exactly what `scan` would.
//!
//! kube's watcher wants `K: kube::Resource`, which hands out a full `ObjectMeta`. Deserialising
//! k8s-openapi's `ObjectMeta` would read `managedFields` and every annotation of every object,
//! which at 100,000 Jobs is hundreds of megabytes. [`Watched`] instead parses the object with
//! our wire type (whose metadata filters what it reads) and keeps a k8s `ObjectMeta` holding
//! only what the watcher itself uses: name, namespace, uid and resourceVersion.

use std::borrow::Cow;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WatchEvent};
use serde::{Deserialize, Deserializer};
use tokio::sync::mpsc;

use super::fetch::pod_selectors;
use super::liveness::{Liveness, WatchBackoff, client_for};
use super::{convert, wire};

/// One of the five streams the monitor keeps: Pods come in two, like `scan`'s lists
/// (`job-name`, and the newer label alone), so a relist of one never drops the other's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stream {
    CronJobs,
    Jobs,
    Pods,
    PodsNewLabel,
    Events,
}

impl Stream {
    pub const ALL: [Stream; 5] = [
        Stream::CronJobs,
        Stream::Jobs,
        Stream::Pods,
        Stream::PodsNewLabel,
        Stream::Events,
    ];

    /// What a message calls the stream.
    pub fn describe(self) -> &'static str {
        match self {
            Stream::Pods => "pods (label job-name)",
            Stream::PodsNewLabel => "pods (label batch.kubernetes.io/job-name only)",
            other => other.resource(),
        }
    }

    /// The `resource` label of `cronjob_doctor_watch_restarts_total`.
    pub fn resource(self) -> &'static str {
        match self {
            Stream::CronJobs => "cronjobs",
            Stream::Jobs => "jobs",
            Stream::Pods | Stream::PodsNewLabel => "pods",
            Stream::Events => "events",
        }
    }
}

/// A watched object, converted to the model.
#[derive(Clone, Debug)]
pub enum Object {
    CronJob(doctor::model::CronJob),
    Job(doctor::model::Job),
    Pod(doctor::model::Pod),
    Event(doctor::model::Event),
}

/// What a watcher reports, in the watcher's own terms.
#[derive(Debug)]
pub enum Change {
    /// A (re)list starts: every object of the stream follows as `Listed`, then `Synced`.
    Relist,
    Listed(Object),
    /// The list is complete: objects not listed since `Relist` are gone.
    Synced,
    Applied(Object),
    Deleted(Object),
    /// The watch failed; it is retried with backoff. `code` is the HTTP status when the
    /// server answered (403: no permission). `heard`: how many times the stream had heard
    /// from the server ([`Liveness::heard`]) when it failed; the failure is over once the
    /// stream hears again (an event, a bookmark, a list page).
    Failed {
        code: Option<u16>,
        message: String,
        heard: u64,
    },
}

#[derive(Debug)]
pub struct Update {
    pub stream: Stream,
    pub change: Change,
}

/// The facts kube needs to address one kind.
pub trait Kind: Send + Sync + 'static {
    const GROUP: &'static str;
    const VERSION: &'static str;
    const KIND: &'static str;
    const PLURAL: &'static str;
    type Wire: serde::de::DeserializeOwned;
    /// Name, namespace, uid and resourceVersion of the wire object.
    fn ids(w: &Self::Wire) -> [&str; 4];
    fn convert(w: Self::Wire) -> Object;
}

pub struct CronJobs;
pub struct Jobs;
pub struct Pods;
pub struct Events;

macro_rules! ids {
    ($w:expr) => {
        [
            $w.metadata.name.as_str(),
            $w.metadata.namespace.as_str(),
            $w.metadata.uid.as_str(),
            $w.metadata.resource_version.as_str(),
        ]
    };
}

impl Kind for CronJobs {
    const GROUP: &'static str = "batch";
    const VERSION: &'static str = "v1";
    const KIND: &'static str = "CronJob";
    const PLURAL: &'static str = "cronjobs";
    type Wire = wire::CronJob;
    fn ids(w: &wire::CronJob) -> [&str; 4] {
        ids!(w)
    }
    fn convert(w: wire::CronJob) -> Object {
        Object::CronJob(convert::cron_job(w))
    }
}

impl Kind for Jobs {
    const GROUP: &'static str = "batch";
    const VERSION: &'static str = "v1";
    const KIND: &'static str = "Job";
    const PLURAL: &'static str = "jobs";
    type Wire = wire::Job;
    fn ids(w: &wire::Job) -> [&str; 4] {
        ids!(w)
    }
    fn convert(w: wire::Job) -> Object {
        Object::Job(convert::job(w))
    }
}

impl Kind for Pods {
    const GROUP: &'static str = "";
    const VERSION: &'static str = "v1";
    const KIND: &'static str = "Pod";
    const PLURAL: &'static str = "pods";
    type Wire = wire::Pod;
    fn ids(w: &wire::Pod) -> [&str; 4] {
        ids!(w)
    }
    fn convert(w: wire::Pod) -> Object {
        Object::Pod(convert::pod(w))
    }
}

impl Kind for Events {
    const GROUP: &'static str = "";
    const VERSION: &'static str = "v1";
    const KIND: &'static str = "Event";
    const PLURAL: &'static str = "events";
    type Wire = wire::Event;
    fn ids(w: &wire::Event) -> [&str; 4] {
        ids!(w)
    }
    fn convert(w: wire::Event) -> Object {
        Object::Event(convert::event(w))
    }
}

/// A watched object: the model object (shared, so the watcher's clones are cheap) and the
/// lean k8s metadata kube's watcher reads.
pub struct Watched<K> {
    meta: ObjectMeta,
    pub object: Arc<Object>,
    kind: PhantomData<fn() -> K>,
}

impl<K> Clone for Watched<K> {
    fn clone(&self) -> Self {
        Watched {
            meta: self.meta.clone(),
            object: self.object.clone(),
            kind: PhantomData,
        }
    }
}

impl<K> Debug for Watched<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watched")
            .field("namespace", &self.meta.namespace)
            .field("name", &self.meta.name)
            .finish()
    }
}

impl<'de, K: Kind> Deserialize<'de> for Watched<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = K::Wire::deserialize(d)?;
        let [name, namespace, uid, rv] = K::ids(&w);
        let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
        let meta = ObjectMeta {
            name: some(name),
            namespace: some(namespace),
            uid: some(uid),
            resource_version: some(rv),
            ..ObjectMeta::default()
        };
        Ok(Watched {
            meta,
            object: Arc::new(K::convert(w)),
            kind: PhantomData,
        })
    }
}

impl<K: Kind> kube::Resource for Watched<K> {
    type DynamicType = ();
    type Scope = k8s_openapi::NamespaceResourceScope;

    fn kind(_: &()) -> Cow<'_, str> {
        K::KIND.into()
    }
    fn group(_: &()) -> Cow<'_, str> {
        K::GROUP.into()
    }
    fn version(_: &()) -> Cow<'_, str> {
        K::VERSION.into()
    }
    fn plural(_: &()) -> Cow<'_, str> {
        K::PLURAL.into()
    }
    fn meta(&self) -> &ObjectMeta {
        &self.meta
    }
    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.meta
    }
}

/// Start the five watchers on the current runtime; each sends its updates on `tx` until the
/// receiver is dropped, and notes what it hears from the server in `live`. `namespace`
/// None: the whole cluster.
pub fn spawn_all(
    client: kube::Client,
    namespace: Option<&str>,
    live: Arc<Liveness>,
    tx: mpsc::Sender<Update>,
) -> tokio::task::JoinSet<()> {
    let [sel_old, sel_new] = pod_selectors("");
    let mut set = tokio::task::JoinSet::new();
    // Bookmarks on, initial lists paged by 2,000 (client-go pages by 500). kube's watcher
    // fetches a list's pages one after another, so the 100,000 Jobs of the benchmark were 200
    // round trips in a row; once the updates queue let fetching and storing overlap, bigger
    // pages made the monitor ready sooner, for a higher transient peak while a list is read
    // (the memory is given back after the list; BENCHMARKS.md, "monitor at scale", and
    // tools/bench/monitor-notes.md). A relist is rare in
    // a long-running monitor; what it costs in round trips is paid again on every one.
    let base = watcher::Config::default().page_size(2000);
    set.spawn(run::<CronJobs>(
        api(&client, namespace, &live, Stream::CronJobs),
        base.clone(),
        Stream::CronJobs,
        live.clone(),
        tx.clone(),
    ));
    set.spawn(run::<Jobs>(
        api(&client, namespace, &live, Stream::Jobs),
        base.clone(),
        Stream::Jobs,
        live.clone(),
        tx.clone(),
    ));
    set.spawn(run::<Pods>(
        api(&client, namespace, &live, Stream::Pods),
        base.clone().labels(&sel_old),
        Stream::Pods,
        live.clone(),
        tx.clone(),
    ));
    set.spawn(run::<Pods>(
        api(&client, namespace, &live, Stream::PodsNewLabel),
        base.clone().labels(&sel_new),
        Stream::PodsNewLabel,
        live.clone(),
        tx.clone(),
    ));
    set.spawn(run::<Events>(
        api(&client, namespace, &live, Stream::Events),
        base,
        Stream::Events,
        live.clone(),
        tx,
    ));
    set
}

/// The API of kind `K` through stream `s`'s own view of the client ([`client_for`]).
fn api<K: Kind>(
    client: &kube::Client,
    namespace: Option<&str>,
    live: &Arc<Liveness>,
    s: Stream,
) -> kube::Api<Watched<K>> {
    let client = client_for(client, live.clone(), s);
    match namespace {
        Some(ns) => kube::Api::namespaced(client, ns),
        None => kube::Api::all(client),
    }
}

/// Whether a watcher error is a watch request refused with HTTP 410 (not the 410 ERROR event
/// of a 200 stream, which kube's watcher relists on by itself): kube's watcher would retry
/// the same gone resourceVersion for ever, never relisting (docs/monitor.md, "Faults"), so it is
/// treated like the event: the watcher starts over with a LIST.
fn gone(e: &watcher::Error) -> bool {
    matches!(e, watcher::Error::WatchStartFailed(kube::Error::Api(s)) if s.code == 410)
}

/// One watcher, its events mapped to [`Change`]s. kube's default backoff, started afresh
/// when the server answers again ([`WatchBackoff`]), keeps it retrying (an unreachable
/// server, a 403) for as long as the monitor runs.
async fn run<K: Kind>(
    api: kube::Api<Watched<K>>,
    config: watcher::Config,
    stream: Stream,
    live: Arc<Liveness>,
    tx: mpsc::Sender<Update>,
) {
    // Waits between watchers started over after a 410 answer: a server that refuses every
    // watch so must not get a LIST and a WATCH in a tight loop. Reset by a working watch.
    let mut restarts = watcher::DefaultBackoff::default();
    loop {
        let backoff = WatchBackoff::new(live.clone(), stream);
        let mut events = watcher::watcher(api.clone(), config.clone())
            .backoff(backoff)
            .boxed();
        let mut start_over = false;
        while let Some(item) = events.next().await {
            let change = match item {
                Ok(WatchEvent::Init) => Change::Relist,
                Ok(WatchEvent::InitApply(o)) => Change::Listed(unwrap(o)),
                Ok(WatchEvent::InitDone) => Change::Synced,
                Ok(WatchEvent::Apply(o)) => {
                    kube::runtime::utils::Backoff::reset(&mut restarts);
                    Change::Applied(unwrap(o))
                }
                Ok(WatchEvent::Delete(o)) => {
                    kube::runtime::utils::Backoff::reset(&mut restarts);
                    Change::Deleted(unwrap(o))
                }
                Err(e) => {
                    start_over = gone(&e);
                    failed(&e, live.heard(stream))
                }
            };
            if tx.send(Update { stream, change }).await.is_err() {
                return;
            }
            if start_over {
                break;
            }
        }
        if let Some(wait) = restarts.next() {
            tokio::time::sleep(wait).await;
        }
    }
}

fn unwrap<K>(w: Watched<K>) -> Object {
    Arc::try_unwrap(w.object).unwrap_or_else(|shared| (*shared).clone())
}

fn failed(e: &watcher::Error, heard: u64) -> Change {
    // kube prints a Status with its Debug form; people want code, reason and message.
    let status = |what: &str, s: &kube::core::Status| {
        let mut m = format!("{what}: {}", s.code);
        if !s.reason.is_empty() {
            m.push_str(&format!(" {}", s.reason));
        }
        if !s.message.is_empty() {
            m.push_str(&format!(": {}", s.message));
        }
        (Some(s.code), m)
    };
    let (code, message) = match e {
        watcher::Error::InitialListFailed(kube::Error::Api(s)) => status("LIST", s),
        watcher::Error::WatchStartFailed(kube::Error::Api(s))
        | watcher::Error::WatchFailed(kube::Error::Api(s)) => status("WATCH", s),
        watcher::Error::WatchError(s) => status("WATCH", s),
        other => (None, super::http::error_chain(other)),
    };
    Change::Failed {
        code,
        message: super::config::redact_userinfo(&message),
        heard,
    }
}
