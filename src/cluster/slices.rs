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
//!
//! **Counted, not only estimated** (BENCHMARKS.md, "Slices from the API server's counts").
//! Manual runs, orphans and Jobs a controller has not pruned are not in the history limits,
//! and a namespace holding thousands of them was read by the cluster-wide slice, one page
//! after another. The API server counts: the first page of a LIST without a label or field
//! selector carries `metadata.remainingItemCount`. So, decided here:
//! 1. While the CronJob list is read, one `GET …/jobs?limit=1` (cluster-wide, unselected)
//!    counts every Job of the cluster. It costs no time (it overlaps the CronJob list) and one
//!    Job's bytes; it is not used as evidence.
//! 2. Once the CronJobs are in: if that count exceeds what the estimate leaves to the
//!    cluster-wide slice by at least a namespace slice's worth ([`Tuning::namespace_min_jobs`])
//!    on a cluster big enough to slice, each namespace the estimate left in the cluster-wide
//!    slice is counted the same way (`GET /…/namespaces/NS/jobs?limit=1`, in parallel under
//!    the scan's request limit) — [`to_count`]. A namespace's Jobs are then the larger of its
//!    estimate and its count, and the plan is made from those ([`Plan::counted`]).
//! 3. Counting is bounded by what it can save: at most as many rounds (`parallel` requests at
//!    a time) as the unexplained Jobs take pages read one after another, and at most
//!    [`Tuning::count_rounds`] (4: 64 namespaces, about 80 ms at 20 ms a round trip), since
//!    the unexplained Jobs may be in namespaces sliced already that hold more than their
//!    estimate. With more candidates than that, those with the most CronJobs' worth of Jobs
//!    are counted.
//!
//! Why not re-plan from the first page of the cluster-wide Jobs slice itself: that list has a
//! field selector whenever a namespace is sliced (and field-selected lists carry no count),
//! and a list cannot change its selector midway without reading again what it already read;
//! the plan must stand before any evidence list starts, since a namespace's four lists belong
//! to one slice. Why not split the count from the estimate the other way (fewer Jobs than the
//! limits say): an estimate that is too high costs a few requests, never a long list.
//! Counts only ever raise a namespace's Jobs. A count that is missing (an older server, a
//! watch-cache answer, a 403, a failure) leaves the estimate, as before. Jobs in namespaces
//! without CronJobs are not diagnosed and stay in the cluster-wide slice; so does a single
//! namespace holding most of the Jobs (a namespace cannot be split).

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
    /// Most rounds of Job counts (one request per namespace, the scan's request limit at a
    /// time) spent before planning (see [`to_count`]).
    pub count_rounds: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            // 20 pages: at 20 ms a round trip, 0.4 s, about what the CronJob list takes.
            slice_min_jobs: 20 * PAGE,
            namespace_min_jobs: PAGE,
            max_slices: 64,
            // 64 namespaces at the scan's 16 requests in flight: 80 ms at 20 ms a round trip.
            count_rounds: 4,
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

/// Expected Jobs of each namespace of `groups`.
fn expected_by_namespace(groups: &[(String, Vec<CronJob>)]) -> Vec<usize> {
    groups
        .iter()
        .map(|(_, cjs)| sum(&cjs.iter().map(expected_jobs).collect::<Vec<_>>()))
        .collect()
}

/// A sum that a hostile server's counts cannot overflow.
fn sum(v: &[usize]) -> usize {
    v.iter().fold(0usize, |a, b| a.saturating_add(*b))
}

/// The namespaces worth counting one by one (indices into `groups`), given `total`, the Jobs
/// the API server counted in the whole cluster (None: no count). Empty unless the Jobs the
/// estimate does not explain in the cluster-wide slice could fill a namespace slice on a
/// cluster big enough to slice, and counting the candidates `parallel` at a time takes no
/// more round trips than those Jobs would take pages read one after another.
pub fn to_count(
    groups: &[(String, Vec<CronJob>)],
    total: Option<usize>,
    parallel: usize,
    t: &Tuning,
) -> Vec<usize> {
    let Some(total) = total else {
        return Vec::new();
    };
    let expected = expected_by_namespace(groups);
    let estimate = Plan::new(groups, t);
    let left: Vec<usize> = (0..groups.len())
        .filter(|i| !estimate.own.contains(i))
        .collect();
    let left_expected = sum(&left.iter().map(|&i| expected[i]).collect::<Vec<_>>());
    let unexplained = total.saturating_sub(left_expected);
    if total.max(sum(&expected)) < t.slice_min_jobs || unexplained < t.namespace_min_jobs {
        return Vec::new();
    }
    let mut candidates: Vec<usize> = left
        .into_iter()
        .filter(|&i| selectable(&groups[i].0))
        .collect();
    // Rounds of counting that pay: no more than the unexplained Jobs' pages, and no more than
    // `count_rounds` (the unexplained Jobs may be in sliced namespaces that hold more than
    // their estimate, and then the counting was for nothing). Too many candidates: those with
    // the most CronJobs' worth of Jobs first, then back to key order.
    let rounds = (unexplained / PAGE).clamp(1, t.count_rounds.max(1));
    let most = rounds.saturating_mul(parallel.max(1));
    if candidates.len() > most {
        candidates.sort_by_key(|&i| (std::cmp::Reverse(expected[i]), i));
        candidates.truncate(most);
        candidates.sort_unstable();
    }
    candidates
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
        Plan::counted(groups, &[], None, t)
    }

    /// As [`Plan::new`], with the Jobs the API server counted: `counts[i]` in namespace `i`
    /// (None: not counted), `total` in the whole cluster. A count only raises a namespace's
    /// estimate.
    pub fn counted(
        groups: &[(String, Vec<CronJob>)],
        counts: &[Option<usize>],
        total: Option<usize>,
        t: &Tuning,
    ) -> Plan {
        let expected: Vec<usize> = expected_by_namespace(groups)
            .into_iter()
            .enumerate()
            .map(|(i, e)| e.max(counts.get(i).copied().flatten().unwrap_or(0)))
            .collect();
        let total = sum(&expected).max(total.unwrap_or(0));
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
            count_rounds: 2,
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

    #[test]
    fn counted_jobs_raise_a_namespace_over_the_slice_threshold() {
        // 5 and 3 CronJobs: 20 and 12 expected, far below 40; the server counts 300 in "b".
        let groups = [group("a", 5), group("b", 3), group("c", 1)];
        let t = lower();
        assert_eq!(Plan::new(&groups, &t).slice_count(), 1);
        // The cluster holds 340 Jobs, the estimate leaves 36 to the cluster-wide slice:
        // every namespace is worth counting (3 candidates, 16 at a time: one round).
        assert_eq!(to_count(&groups, Some(340), 16, &t), [0, 1, 2]);
        let p = Plan::counted(&groups, &[Some(20), Some(300), Some(4)], Some(340), &t);
        assert_eq!(p.slice_count(), 2);
        assert_eq!(p.slice_source(0), (Some("b".into()), None));
        assert_eq!(
            p.slice_source(1),
            (None, Some("metadata.namespace!=b".into()))
        );
        // A count below the estimate changes nothing; a missing one leaves the estimate.
        let p = Plan::counted(&groups, &[Some(0), None, Some(0)], Some(340), &t);
        assert_eq!(p.slice_count(), 1);
        // A hostile count does not overflow.
        let p = Plan::counted(&groups, &[Some(usize::MAX), Some(usize::MAX)], None, &t);
        assert_eq!(p.slice_count(), 3);
    }

    #[test]
    fn counting_only_when_the_estimate_misses_a_slices_worth_and_it_pays() {
        let t = lower();
        // 36 expected Jobs each (108 in all, over slice_min_jobs), none over 40: no slice.
        let groups = [group("a", 9), group("b", 9), group("c", 9)];
        assert_eq!(Plan::new(&groups, &t).slice_count(), 1);
        // No total count (an older server, a failure): nothing to count.
        assert!(to_count(&groups, None, 16, &t).is_empty());
        // The count explains all but 39 Jobs (< 40): nothing to count; 40: all three.
        assert!(to_count(&groups, Some(108 + 39), 16, &t).is_empty());
        assert_eq!(to_count(&groups, Some(108 + 40), 16, &t), [0, 1, 2]);
        // A small cluster is not sliced whatever the count says about it.
        let small = [group("a", 5), group("b", 3)];
        assert!(to_count(&small, Some(99), 16, &t).is_empty());
        assert_eq!(to_count(&small, Some(100), 16, &t), [0, 1]);
        // Namespaces the estimate slices already are not counted, and their expected Jobs
        // are not taken as read by the cluster-wide slice.
        let groups = [group("a", 5), group("big", 30), group("c", 1)];
        assert_eq!(Plan::new(&groups, &t).slice_count(), 2);
        assert!(to_count(&groups, Some(24 + 39), 16, &t).is_empty());
        assert_eq!(to_count(&groups, Some(24 + 40), 16, &t), [0, 2]);
        // One at a time, one page's worth unexplained: one round, the biggest candidate.
        assert_eq!(to_count(&groups, Some(24 + 40), 1, &t), [0]);
        // Two pages' worth: two rounds (count_rounds is 2 here), never more.
        assert_eq!(to_count(&groups, Some(24 + 2 * PAGE), 1, &t), [0, 2]);
        let many: Vec<_> = (0..10)
            .map(|i| group(&format!("n{i}"), 1 + i % 3))
            .collect();
        let counted = to_count(&many, Some(100 * PAGE), 2, &t);
        assert_eq!(counted.len(), 4, "{counted:?}");
        assert!(counted.windows(2).all(|w| w[0] < w[1]), "key order");
        // A namespace that cannot be named in the field selector is not counted.
        let groups = [group("a", 5), group("X,y", 1)];
        assert_eq!(to_count(&groups, Some(500), 16, &t), [0]);
    }
}
