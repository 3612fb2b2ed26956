//! Several clusters in one command (`--context A --context B`, `--all-contexts`): which
//! contexts, a few at a time, each within its own deadline. Each context is an ordinary
//! single-cluster read (its own connection, credentials, namespace and clock); this module only
//! decides which ones and runs them side by side, so a dead or slow cluster costs at most its
//! timeout and never the sum.

use std::sync::Mutex;
use std::time::Duration;

use crate::cli::{FleetArgs, KubeArgs};
use crate::error::{ClusterError, Error, SystemError, UsageError};

/// Contexts read at once. Each costs a connection and a few list streams; six keep a laptop's
/// file descriptors and the API servers' rate limits comfortable while ten clusters still take
/// about as long as the slowest two.
pub const PARALLEL_CONTEXTS: usize = 6;

/// The contexts a command was asked to read together, or None for an ordinary
/// single-cluster command (no `--context`, or one, and no `--all-contexts`). Repeated names are
/// read once.
pub fn contexts(kube: &KubeArgs, fleet: &FleetArgs) -> Result<Option<Vec<String>>, Error> {
    if fleet.all_contexts {
        let (names, _) = super::config::context_names(kube)?;
        return Ok(Some(names));
    }
    if kube.context.len() < 2 {
        return Ok(None);
    }
    if kube.cluster.is_some() || kube.user.is_some() {
        return Err(UsageError::FleetClusterUser.into());
    }
    let mut names: Vec<String> = Vec::new();
    for c in &kube.context {
        if !names.contains(c) {
            names.push(c.clone());
        }
    }
    Ok(Some(names))
}

/// The connection flags of one context of the fleet: everything as given, that context only.
pub fn for_context(kube: &KubeArgs, name: &str, deadline: Deadline) -> KubeArgs {
    KubeArgs {
        context: vec![name.to_string()],
        exec_plugin_deadline: Some(deadline.at),
        ..kube.clone()
    }
}

/// `work(context)` for every context, at most [`PARALLEL_CONTEXTS`] at once, each on a thread
/// of its own (the diagnosis after a read is CPU work); the results in the order of
/// `contexts`. A context whose work panics (a client library refusing a hostile kubeconfig
/// entry with a panic) is an error of that context, not the end of the report. Errors do not
/// name their context: the report says whose they are.
pub fn each<T: Send>(
    contexts: &[String],
    work: impl Fn(&str) -> Result<T, Error> + Sync,
) -> Vec<Result<T, Error>> {
    let next = Mutex::new(0usize);
    let results: Vec<Mutex<Option<Result<T, Error>>>> =
        contexts.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..PARALLEL_CONTEXTS.min(contexts.len()) {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(name) = contexts.get(i) else { return };
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(name)))
                        .unwrap_or_else(|_| Err(SystemError::ClientPanicked.into()));
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                }
            });
        }
    });
    results
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// One context's time: `--context-timeout` from the moment its work starts, shared by every
/// step (connect, /version, the lists).
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    pub at: std::time::Instant,
    pub timeout: Duration,
}

impl Deadline {
    pub fn starting_now(timeout: Duration) -> Deadline {
        let now = std::time::Instant::now();
        Deadline {
            at: now.checked_add(timeout).unwrap_or(now),
            timeout,
        }
    }
}

/// `fut` (one step of a context's reads), given up on at the context's deadline: dropping it
/// cancels every request in flight, so a cluster that never answers costs exactly its timeout.
/// The error does not name the context: the report puts each context's error under its name.
pub async fn within<T>(
    deadline: Deadline,
    fut: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    let timeout = deadline.timeout;
    match tokio::time::timeout_at(deadline.at.into(), fut).await {
        Ok(r) => r,
        Err(_) => Err(ClusterError::ContextTimeout(timeout).into()),
    }
}

/// A context name as text output shows it: kubeconfig names are strings like any other, and
/// control characters in them are shown, never sent to the terminal.
pub fn shown(context: &str) -> String {
    doctor::report::visible::one_line(context).into_owned()
}

/// An error as one line of a fleet report: the first line, control characters shown.
pub fn one_line(e: &Error) -> String {
    let m = e.to_string();
    doctor::report::visible::one_line(m.lines().next().unwrap_or(&m)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::words::human;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn each_keeps_the_order_and_bounds_the_concurrency() {
        let names: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
        let (running, peak) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let out = each(&names, |n| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            running.fetch_sub(1, Ordering::SeqCst);
            Ok(n.to_uppercase())
        });
        let out: Vec<String> = out.into_iter().map(Result::unwrap).collect();
        let expected: Vec<String> = names.iter().map(|n| n.to_uppercase()).collect();
        assert_eq!(out, expected);
        let peak = peak.load(Ordering::SeqCst);
        assert!((2..=PARALLEL_CONTEXTS).contains(&peak), "peak {peak}");
        assert!(each(&[], |n: &str| Ok(n.len())).is_empty());
    }

    #[test]
    fn a_context_that_panics_is_an_error_of_that_context_only() {
        let names: Vec<String> = ["a", "boom", "c"].map(String::from).to_vec();
        let out = each(&names, |n| {
            if n == "boom" {
                panic!("hostile");
            }
            Ok(n.len())
        });
        assert_eq!(out[0].as_ref().ok(), Some(&1));
        assert!(
            matches!(&out[1], Err(Error::System(SystemError::ClientPanicked))),
            "{:?}",
            out[1]
        );
        assert_eq!(out[2].as_ref().ok(), Some(&1));
    }

    #[test]
    fn timeouts_read_as_the_flag_spells_them() {
        assert_eq!(human(Duration::from_secs(30)), "30s");
        assert_eq!(human(Duration::from_secs(90)), "1m30s");
        assert_eq!(human(Duration::from_secs(3600)), "60m");
        assert_eq!(human(Duration::from_millis(1500)), "1.5s");
    }
}
