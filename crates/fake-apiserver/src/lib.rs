//! A fake Kubernetes API server for tests: real HTTP on loopback, spoken faithfully enough
//! that the real kube-rs client works unmodified through a generated kubeconfig.
//!
//! It serves CronJobs, Jobs, Pods (with `/log`), Events (core/v1, plus a read-only
//! events.k8s.io/v1 view) and Namespaces from in-memory fixtures: GET, LIST with
//! `limit`/`continue` paging and label/field selectors, metadata-only answers, WATCH (event
//! streams after a resourceVersion, bookmarks, 410 Expired, streaming lists; see `watch.rs`),
//! writes with `dryRun=All`, `fieldManager`/managedFields and resourceVersion preconditions,
//! DELETE, SelfSubjectAccessReview, fault injection, a request log, and a settable (frozen,
//! shifted or ticking) clock behind the `Date` header. Error bodies are the real `Status`
//! documents.
//!
//! Watch knobs: [`FakeApiServer::drop_watches`] cuts open watch connections,
//! [`FakeApiServer::expire_next_watches`] and [`FakeApiServer::compact_watch_history`] make
//! clients relist, [`FakeApiServer::fail_next_watch`] fails a watch start,
//! [`FakeApiServer::open_watches`] counts streams; `put_object`/`delete_object` changes are
//! seen by open watches.
//!
//! From a synchronous assert_cmd test (the plugin is the client, in another process):
//!
//! ```ignore
//! let objects = fake_apiserver::load_fixture_file("tests/fixtures/live/ops.yaml").unwrap();
//! let server = FakeApiServer::builder()
//!     .clock(Clock::Fixed("2026-11-20T12:00:00Z".parse().unwrap()))
//!     .objects(objects)
//!     .start_blocking()
//!     .unwrap();
//! server.inject(Fault::forbidden("list", "/api/v1/namespaces/ops/events"));
//! let kubeconfig = server.write_kubeconfig(&scratch_dir, Some("ops"));
//! Command::cargo_bin("kubectl-cronjob_doctor").unwrap()
//!     .env("KUBECONFIG", &kubeconfig)
//!     .args(["explain", "nightly"])
//!     .assert()
//!     .success();
//! assert_eq!(server.request_lines()[0], "GET /apis/batch/v1/namespaces/ops/cronjobs/nightly");
//! ```
//!
//! Service proxy: [`Builder::service_proxy`] / [`FakeApiServer::set_service_proxy`] forward
//! `GET /api/v1/namespaces/NS/services/NAME:PORT/proxy/PATH` to a loopback address, behind
//! the access rules (`get` on `services/proxy`); an unmapped Service answers 503.
//!
//! Plain HTTP by default; [`Builder::tls`] serves HTTPS with a CA made at startup, which
//! the kubeconfigs it writes carry. [`Builder::latency`] delays every answer, to stand in
//! for a remote API server in benchmarks.
//!
//! Not modelled: deletecollection (405), watching one named object (use a
//! `metadata.name` field selector, as clients do), the "too large resource version" wait, graceful deletion/finalizers/garbage
//! collection, per-key list merging of strategic-merge and apply patches (both are applied
//! as RFC 7386 merge patches), aggregated discovery (the legacy documents are served),
//! `as=Table` answers, client certificates, and MVCC snapshots for continued LISTs (later pages read the
//! current state; inject `Fault::expired_continue(…)` to test expiry, and set a page cap
//! (`Builder::page_cap`, `FakeApiServer::set_page_cap`) to page through a few objects).

mod access;
mod builder;
mod clock;
mod conn;
mod discovery;
mod error;
mod faults;
mod fixtures;
pub mod generate;
mod handler;
mod kubeconfig;
mod log;
mod patch;
mod proxy;
mod read;
mod resources;
mod selector;
mod server;
mod state;
mod status;
mod store;
mod tls;
mod watch;
mod write;

pub use access::AccessRule;
pub use builder::Builder;
pub use clock::Clock;
pub use error::{CountsError, JsonPatchError, ObjectError, SelectorError, StartError, TlsError};
pub use faults::{Fault, FaultAction};
pub use fixtures::{FixtureError, load_fixture_file, load_fixture_str};
pub use kubeconfig::{KubeContext, kubeconfig_yaml, write_kubeconfig_file};
pub use log::RecordedRequest;
pub use server::FakeApiServer;
