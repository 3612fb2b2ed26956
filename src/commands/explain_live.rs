//! The cluster stage of `explain NAME`: one CronJob and its evidence read from one cluster,
//! the runs a monitor remembers of it, and the instant and version settled against the
//! server's (`Plan::settle_live`). A CronJob not in the namespace is looked for in the others,
//! so the error can say where it is.

use doctor::report::{self, visible};
use doctor::retained::RetainedRun;

use super::plan::Plan;
use super::read_cluster::{LiveStart, live_start};
use super::read_files::Prepared;
use crate::cli::{KubeArgs, ReportFormat};
use crate::cluster::{self, fetch, monitor_runs::MonitorService};
use crate::error::{Error, UsageError};

/// Read the plan's CronJob (the plan has checked it names one) and its evidence from the
/// cluster `kube` reaches.
pub fn read(
    plan: &Plan<ReportFormat>,
    kube: &KubeArgs,
    monitor: Option<&MonitorService>,
) -> Result<(Prepared, Vec<RetainedRun>), Error> {
    let name = plan.select.name.as_deref().unwrap_or_default();
    let rt = cluster::runtime()?;
    let notices = plan.output.format == ReportFormat::Text;
    let (snapshot, retained, server_version, now) = rt.block_on(async {
        let LiveStart {
            api,
            namespace,
            server_version,
        } = live_start(kube, notices, &plan.select).await?;
        // Not -A: there is a namespace.
        let ns = namespace.unwrap_or_default();
        let mut snapshot = match fetch::explain(&api, &ns, name).await {
            Ok(s) => s,
            Err(fetch::FetchError::NotFound(names)) => {
                return Err(not_found(&api, plan, name, ns, names).await);
            }
            Err(fetch::FetchError::Api(what, e)) => {
                return Err(Error::from(cluster::failure(&api, &what, &e)));
            }
        };
        // Once the CronJob is known to exist (a typo asks nothing): the monitor's answer is
        // one round trip, bounded by monitor_runs::TIMEOUT.
        let retained = match monitor {
            Some(svc) => match cluster::monitor_runs::fetch(&api, svc, &ns, name).await {
                Ok(runs) => runs,
                Err(no_runs) => {
                    snapshot.notes.push(no_runs.to_string());
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        Ok((
            snapshot,
            retained,
            server_version,
            cluster::server_now(&api),
        ))
    })?;
    // Drop the runtime's idle threads before the CPU work.
    drop(rt);
    let mut snapshot = snapshot;
    let (at, notes) = plan.settle_live(server_version, now);
    snapshot.notes.extend(notes);
    let header = report::header(&snapshot, Vec::new(), &plan.options(at));
    Ok((
        Prepared {
            snapshot,
            header,
            at,
        },
        retained,
    ))
}

/// The error for a CronJob not in the namespace the context (or `-n`) chose: where else it
/// is, when the namespace was not given and the cluster says (a failure of that cluster-wide
/// LIST, a 403, just leaves the usual message).
async fn not_found(
    api: &cluster::http::Api,
    plan: &Plan<ReportFormat>,
    name: &str,
    namespace: String,
    names: Vec<String>,
) -> Error {
    // The context's name is the kubeconfig's, the namespaces the server's: shown on one line
    // each, whatever they hold.
    let context = visible::one_line(&api.target.context).into_owned();
    if plan.select.namespace.is_none()
        && let Ok(found) = fetch::namespaces_with(api, name).await
        && !found.is_empty()
    {
        return UsageError::FoundElsewhere {
            name: name.to_string(),
            namespace,
            context,
            found: found
                .iter()
                .map(|f| visible::one_line(f).into_owned())
                .collect(),
        }
        .into();
    }
    // read_files' message speaks of "the input"; here the input is the cluster.
    UsageError::NotInNamespace {
        name: name.to_string(),
        namespace,
        names,
        context,
    }
    .into()
}
