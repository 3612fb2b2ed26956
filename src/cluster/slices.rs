//! How `scan -A` cuts the evidence lists into slices that are read side by side. A LIST
//! cannot be split by key range, so the unit is the namespace: one that is expected to hold
//! at least a page of Jobs gets its own namespace-scoped LISTs; all other namespaces are read
//! by one cluster-wide slice whose field selector (`metadata.namespace!=…`) excludes the
//! sliced ones. Every object is read once, and a cluster of many small namespaces costs no
//! more requests than before.
//!
//! The expected Jobs come from the CronJob list (read first): each CronJob keeps its history
//! limits' worth of finished Jobs (3 + 1 by default) plus its active ones. Small clusters are
//! not sliced at all: below [`Tuning::slice_min_jobs`] the cluster-wide Job list is a handful
//! of pages and slicing would only add requests.

use doctor::model::CronJob;

use crate::cluster::list::PAGE;

/// Thresholds of the slicing (tests lower them to slice small clusters).
#[derive(Clone, Debug)]
pub struct Tuning {
    /// No slicing while the whole cluster is expected to hold fewer Jobs than this.
    pub slice_min_jobs: usize,
    /// A namespace expected to hold at least this many Jobs gets its own slice.
    pub namespace_min_jobs: usize,
    /// Most namespaces sliced: the cluster-wide slice's field selector names each of them.
    pub max_slices: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            // 20 pages: at 20 ms a round trip, 0.4 s, about what the CronJob list takes.
            slice_min_jobs: 20 * PAGE,
            namespace_min_jobs: PAGE,
            max_slices: 64,
        }
    }
}

/// Jobs a CronJob is expected to have: its history limits (the controller's defaults when
/// unset) and its active Jobs. Limits are capped: a limit of 10⁹ keeps no more Jobs than ran.
pub fn expected_jobs(cj: &CronJob) -> usize {
    let limit = |l: Option<i64>, default: i64| l.unwrap_or(default).clamp(0, 1000) as usize;
    limit(cj.spec.successful_jobs_history_limit, 3)
        + limit(cj.spec.failed_jobs_history_limit, 1)
        + cj.status.active.len()
}

/// Whether namespace `ns` may be named in the cluster-wide slice's field selector: a DNS-1123
/// label, as the API server requires of every namespace name (`doctor::names`, the check `-n`
/// gets). A name from a broken or hostile
/// server that is not one stays in the cluster-wide slice: a `,` or `=` in it would change
/// the selector's meaning (objects silently left unread), and a huge one would make the
/// request's URL too long for the server or a proxy in front of it (64 labels of at most 63
/// bytes keep the selector under 6 KB, percent-encoded).
fn selectable(ns: &str) -> bool {
    doctor::names::namespace(ns).is_ok()
}

/// The namespaces of a scan, in key order, and the slice that reads each. Slices `0..own`
/// read one namespace each; slice `own`, when present, reads every other namespace.
#[derive(Debug)]
pub struct Plan {
    pub namespaces: Vec<String>,
    slice_of: Vec<usize>,
    /// Namespace read by each own slice.
    own: Vec<usize>,
    rest: Option<usize>,
    /// Field selector of the cluster-wide slice (None: nothing excluded).
    exclude: Option<String>,
}

impl Plan {
    /// `scan -n NS`: one namespace, one namespace-scoped slice.
    pub fn one(ns: &str) -> Plan {
        Plan {
            namespaces: vec![ns.to_string()],
            slice_of: vec![0],
            own: vec![0],
            rest: None,
            exclude: None,
        }
    }

    /// `scan -A`: `groups` are the CronJobs of each namespace, in key order.
    pub fn new(groups: &[(String, Vec<CronJob>)], t: &Tuning) -> Plan {
        let expected: Vec<usize> = groups
            .iter()
            .map(|(_, cjs)| cjs.iter().map(expected_jobs).sum())
            .collect();
        let total: usize = expected.iter().sum();
        let mut big: Vec<usize> = Vec::new();
        if total >= t.slice_min_jobs {
            big = (0..groups.len())
                .filter(|&i| expected[i] >= t.namespace_min_jobs && selectable(&groups[i].0))
                .collect();
            // The biggest ones when there are too many, then back to key order.
            big.sort_by_key(|&i| (std::cmp::Reverse(expected[i]), i));
            big.truncate(t.max_slices);
            big.sort_unstable();
        }
        let own = big.len();
        let rest = (own < groups.len()).then_some(own);
        let mut slice_of = vec![own; groups.len()];
        for (s, &i) in big.iter().enumerate() {
            slice_of[i] = s;
        }
        let exclude = (rest.is_some() && own > 0).then(|| {
            big.iter()
                .map(|&i| format!("metadata.namespace!={}", groups[i].0))
                .collect::<Vec<_>>()
                .join(",")
        });
        Plan {
            namespaces: groups.iter().map(|(n, _)| n.clone()).collect(),
            slice_of,
            own: big,
            rest,
            exclude,
        }
    }

    pub fn slice_count(&self) -> usize {
        self.own.len() + usize::from(self.rest.is_some())
    }

    /// The slice reading namespace `i`.
    pub fn slice_of(&self, i: usize) -> usize {
        self.slice_of[i]
    }

    /// The cluster-wide slice, if any.
    pub fn rest_slice(&self) -> Option<usize> {
        self.rest
    }

    /// What slice `id` lists: (namespace, field selector); (None, _) is cluster-wide.
    pub fn slice_source(&self, id: usize) -> (Option<String>, Option<String>) {
        match self.own.get(id) {
            Some(&i) => (Some(self.namespaces[i].clone()), None),
            None => (None, self.exclude.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(ns: &str, n: usize) -> (String, Vec<CronJob>) {
        (ns.to_string(), vec![CronJob::default(); n])
    }

    fn lower() -> Tuning {
        Tuning {
            slice_min_jobs: 100,
            namespace_min_jobs: 40,
            max_slices: 2,
        }
    }

    #[test]
    fn small_clusters_are_one_cluster_wide_slice() {
        let p = Plan::new(&[group("a", 10), group("b", 200)], &Tuning::default());
        assert_eq!(p.slice_count(), 1);
        assert_eq!(p.slice_source(0), (None, None));
        assert_eq!((p.slice_of(0), p.slice_of(1)), (0, 0));
    }

    #[test]
    fn big_namespaces_get_their_own_slice_and_the_rest_excludes_them() {
        // Expected Jobs: 4 per CronJob with default limits.
        let groups = [
            group("a-b", 20),
            group("a", 5),
            group("b", 30),
            group("c", 10),
            group("d", 11),
        ];
        let p = Plan::new(&groups, &lower());
        // a-b (80), b (120) are the two biggest of the three over 40; d (44) is left out.
        assert_eq!(p.slice_count(), 3);
        assert_eq!(p.slice_source(0), (Some("a-b".into()), None));
        assert_eq!(p.slice_source(1), (Some("b".into()), None));
        assert_eq!(
            p.slice_source(2),
            (
                None,
                Some("metadata.namespace!=a-b,metadata.namespace!=b".into())
            )
        );
        let of: Vec<usize> = (0..5).map(|i| p.slice_of(i)).collect();
        assert_eq!(of, [0, 2, 1, 2, 2]);
    }

    #[test]
    fn every_namespace_sliced_leaves_no_cluster_wide_slice() {
        let p = Plan::new(&[group("a", 30), group("b", 30)], &lower());
        assert_eq!(p.slice_count(), 2);
        assert_eq!(p.rest_slice(), None);
    }

    #[test]
    fn only_dns_label_namespaces_are_named_in_the_field_selector() {
        // A broken server's names: a selector term smuggled in, a name too long for a label.
        let injected = "x,metadata.name=y";
        let long = "a".repeat(64);
        let groups = [
            group(&long, 30),
            group("ok", 30),
            group(injected, 30),
            group("small", 1),
        ];
        let t = Tuning {
            max_slices: 64,
            ..lower()
        };
        let p = Plan::new(&groups, &t);
        assert_eq!(p.slice_count(), 2);
        assert_eq!(p.slice_source(0), (Some("ok".into()), None));
        assert_eq!(
            p.slice_source(1),
            (None, Some("metadata.namespace!=ok".into()))
        );
        let of: Vec<usize> = (0..4).map(|i| p.slice_of(i)).collect();
        assert_eq!(
            of,
            [1, 0, 1, 1],
            "the others are read by the cluster-wide slice"
        );
        for ok in ["a", "a-b", "0", &"z".repeat(63)] {
            assert!(selectable(ok), "{ok}");
        }
        for bad in ["", "-a", "a-", "A", "a.b", "a_b", "a\\,b", "ä"] {
            assert!(!selectable(bad), "{bad}");
        }
    }

    #[test]
    fn history_limits_set_the_expectation_within_bounds() {
        let mut cj = CronJob::default();
        assert_eq!(expected_jobs(&cj), 4);
        cj.spec.successful_jobs_history_limit = Some(i64::MAX);
        cj.spec.failed_jobs_history_limit = Some(-5);
        assert_eq!(expected_jobs(&cj), 1000);
    }
}
