//! `explain` asks the monitor: the runs a `monitor` in the cluster remembers of one CronJob
//! (`/runs?namespace=NS&name=NAME`, docs/monitor.md), fetched through the API server's service
//! proxy (`/api/v1/namespaces/NS/services/NAME:PORT/proxy/runs`), so no new network path is
//! needed and RBAC decides (`get` on `services/proxy`, deploy/rbac/).
//!
//! The answer is welcome, never needed: one attempt, at most [`TIMEOUT`] for the whole
//! exchange and [`MAX_BODY`] bytes, and anything short of a runs document for the CronJob
//! asked about (no monitor, 403, 404, 503, a timeout, a body that is not one) is a one-line
//! note, never a failure. Merging the runs into the timeline is the core's
//! (`doctor::report::retained_slots`).

use std::sync::Arc;
use std::time::Duration;

use doctor::retained::{RetainedRun, RunsDocument};

use super::http::{Api, ApiError, Transport, bytes_words, humantime};
use super::request::ApiPath;
use crate::error::usage::BadMonitorService;

/// How long `explain` waits for the monitor, connection to last byte. The monitor answers
/// `/runs` from memory in milliseconds; a proxy that takes longer is not worth the wait.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// The largest answer read: a CronJob's records at their caps are about 0.5 MiB of JSON
/// (docs/monitor.md, "The bound per CronJob"), escaped control characters at most 6 times
/// that.
pub const MAX_BODY: usize = 4 << 20;

/// The Service of deploy/monitor/ (service.yaml): namespace, name and port.
pub const DEFAULT_PORT: u16 = 9090;
const DEFAULT_NAMESPACE: &str = "cronjob-doctor";
const DEFAULT_SERVICE: &str = "cronjob-doctor";

/// Where the monitor is: a Service port, reached through the API server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonitorService {
    pub namespace: String,
    pub service: String,
    pub port: u16,
}

impl MonitorService {
    /// The Service deploy/monitor/ installs: `cronjob-doctor/cronjob-doctor:9090`.
    pub fn deployed() -> Self {
        MonitorService {
            namespace: DEFAULT_NAMESPACE.into(),
            service: DEFAULT_SERVICE.into(),
            port: DEFAULT_PORT,
        }
    }

    /// `namespace/service[:port]` (port 9090 when left out), each part checked as the API
    /// server checks it: the namespace a DNS-1123 label, the Service name a DNS-1035 label,
    /// the port 1 to 65535.
    pub fn parse(s: &str) -> Result<Self, BadMonitorService> {
        let Some((namespace, rest)) = s.split_once('/') else {
            return Err(BadMonitorService::Shape {
                given: doctor::report::visible::one_line(s).into_owned(),
            });
        };
        let (service, port) = match rest.split_once(':') {
            Some((service, port)) => {
                let port = port
                    .parse::<u16>()
                    .ok()
                    .filter(|p| *p != 0)
                    .ok_or_else(|| BadMonitorService::Port {
                        port: doctor::report::visible::one_line(port).into_owned(),
                    })?;
                (service, port)
            }
            None => (rest, DEFAULT_PORT),
        };
        doctor::names::namespace(namespace)?;
        doctor::names::service_name(service)?;
        Ok(MonitorService {
            namespace: namespace.into(),
            service: service.into(),
            port,
        })
    }

    /// `namespace/service:port`.
    pub fn describe(&self) -> String {
        format!("{}/{}:{}", self.namespace, self.service, self.port)
    }
}

/// The runs the monitor behind `svc` remembers of CronJob `namespace/name`, or the one-line
/// note that says why there are none to show.
pub async fn fetch(
    api: &Api,
    svc: &MonitorService,
    namespace: &str,
    name: &str,
) -> Result<Vec<RetainedRun>, NoRuns> {
    let path = ApiPath::service_proxy(&svc.namespace, &svc.service, svc.port, &["runs"]);
    let params = [
        ("namespace", namespace.to_string()),
        ("name", name.to_string()),
    ];
    let no_runs = |why: Why| NoRuns {
        service: svc.describe(),
        why,
    };
    let body = match api.get_bounded(&path, &params, TIMEOUT, MAX_BODY).await {
        Ok(b) => b,
        Err(e) => return Err(no_runs(Why::Unanswered(e))),
    };
    let doc: RunsDocument =
        serde_json::from_slice(&body).map_err(|e| no_runs(Why::NotRunsDocument(Arc::new(e))))?;
    if doc.namespace != namespace || doc.cron_job != name {
        return Err(no_runs(Why::OtherCronJob));
    }
    if doc.schema_version != doctor::retained::RUNS_SCHEMA_VERSION {
        return Err(no_runs(Why::Schema(doc.schema_version)));
    }
    let mut runs = doc.runs;
    runs.truncate(doctor::retained::MAX_RUNS);
    Ok(runs)
}

/// Why the monitor's runs cannot be shown: a note of the report (not an error of the command,
/// which goes on with what the cluster holds). Display is the note's one line.
#[derive(Debug, thiserror::Error)]
#[error("{}", note(service, why))]
pub struct NoRuns {
    /// The monitor's Service (`namespace/service:port`).
    pub service: String,
    #[source]
    pub why: Why,
}

#[derive(Debug, thiserror::Error)]
pub enum Why {
    #[error("{}", why(.0))]
    Unanswered(#[source] ApiError),
    #[error("its answer is not a runs document: {}", doctor::retained::cap(&.0.to_string(), 160))]
    NotRunsDocument(#[source] Arc<serde_json::Error>),
    #[error("its answer is about another CronJob")]
    OtherCronJob,
    /// The answer's schemaVersion, not the one this version reads.
    #[error(
        "its answer has schemaVersion {0}, this version reads {reads}",
        reads = doctor::retained::RUNS_SCHEMA_VERSION
    )]
    Schema(u32),
}

/// The note's line. The server's words are untrusted: one line, control characters shown.
fn note(service: &str, why: &Why) -> String {
    let line = format!(
        "monitor {service}: no remembered runs ({why}); the timeline shows only what the cluster still holds (--no-monitor skips this)"
    );
    doctor::report::visible::one_line(&super::config::redact_userinfo(&line)).into_owned()
}

/// Why there was no answer, in a few words, with the next step where there is one.
fn why(e: &ApiError) -> String {
    let msg = |m: &str| doctor::retained::cap(m, 200);
    match e {
        ApiError::Status { code: 403, .. } => {
            "forbidden: grant get on services/proxy for the monitor's Service, see deploy/rbac/"
                .into()
        }
        ApiError::Status { code: 404, message } => {
            format!(
                "404: no such Service, or the monitor does not hold this CronJob: {}",
                msg(message)
            )
        }
        ApiError::Status { code: 503, message } => {
            format!(
                "503: the monitor is not running or not reachable: {}",
                msg(message)
            )
        }
        ApiError::Status { code, message } => format!("{code}: {}", msg(message)),
        ApiError::Transport(t @ Transport::TooLarge(_)) => {
            format!("{t}, the most read ({})", bytes_words(MAX_BODY))
        }
        ApiError::Transport(
            Transport::NoAnswerWithin(_)
            | Transport::RequestTimeout(_)
            | Transport::WriteTimeout(_),
        ) => {
            format!("no answer within {}", humantime(TIMEOUT))
        }
        ApiError::Transport(t) => msg(&t.to_string()),
        ApiError::Refused(r) => msg(&r.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_service_deploy_monitor_installs() {
        let yaml = include_str!("../../deploy/monitor/service.yaml");
        let d = MonitorService::deployed();
        assert!(yaml.contains(&format!("name: {}\n", d.service)), "{yaml}");
        assert!(
            yaml.contains(&format!("namespace: {}\n", d.namespace)),
            "{yaml}"
        );
        assert!(yaml.contains(&format!("port: {}\n", d.port)), "{yaml}");
        assert_eq!(d.describe(), "cronjob-doctor/cronjob-doctor:9090");
    }

    #[test]
    fn monitor_flags_are_checked_as_the_api_server_checks_names() {
        assert_eq!(
            MonitorService::parse("mon/doctor:8080").unwrap().describe(),
            "mon/doctor:8080"
        );
        assert_eq!(MonitorService::parse("mon/doctor").unwrap().port, 9090);
        for bad in [
            "doctor",
            "mon/doctor:0",
            "mon/doctor:65536",
            "mon/doctor:-1",
            "mon/doctor:",
            "mon/1doctor",
            "Mon/doctor",
            "mon/doc/tor",
            "mon/doctor:80:80",
            "mon/doctor#x",
            "../doctor",
            "/doctor",
            "mon/",
            "mon/doctor\u{1b}[2J",
        ] {
            let e = MonitorService::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("--monitor"), "{bad:?}: {e}");
            assert!(!e.contains('\u{1b}'), "{e}");
        }
    }
}
