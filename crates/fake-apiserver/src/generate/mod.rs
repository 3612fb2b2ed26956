//! A large, realistic cluster population for scale benchmarks (`scan -A` over 10,000
//! CronJobs): CronJobs across ~50 namespaces with real-world schedules, time zones and
//! policies; ~10 Jobs each, named `<cronjob>-<scheduled minute>` with controller
//! ownerReferences; Pods for the latest Jobs (including ImagePullBackOff, OOMKilled and
//! CrashLoopBackOff); Events about all three. Objects carry managedFields, last-applied
//! annotations and defaulted pod specs, so byte volume resembles a real cluster's.
//!
//! Deterministic: the same [`Spec`] (seed and `now`) yields the same objects, and each
//! CronJob's family is generated from its own seed, lazily, so 190k objects never sit in
//! memory as `Value`s at once.

mod cronjob;
mod events;
mod fan_out;
mod jobs;
mod pods;

pub use fan_out::owner_fan_out;

use crate::error::CountsError;
use crate::store::{splitmix, uid_for};
use jiff::Timestamp;
use serde_json::Value;

/// How much to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub cronjobs: usize,
    pub jobs: usize,
    pub pods: usize,
    pub events: usize,
    pub namespaces: usize,
    pub seed: u64,
    /// The instant the population is "observed" at: job slots and ages are relative to it.
    pub now: Timestamp,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            cronjobs: 10_000,
            jobs: 100_000,
            pods: 30_000,
            events: 50_000,
            namespaces: 50,
            seed: 1,
            now: Timestamp::UNIX_EPOCH,
        }
    }
}

impl Spec {
    /// Parses `cronjobs=10000,jobs=100000,pods=30000,events=50000[,namespaces=50]`.
    pub fn parse_counts(mut self, s: &str) -> Result<Self, CountsError> {
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| CountsError::Shape(part.to_string()))?;
            let n: usize = v
                .parse()
                .map_err(|_| CountsError::Count(part.to_string()))?;
            match k {
                "cronjobs" => self.cronjobs = n,
                "jobs" => self.jobs = n,
                "pods" => self.pods = n,
                "events" => self.events = n,
                "namespaces" => self.namespaces = n.max(1),
                other => {
                    return Err(CountsError::Kind(other.to_string()));
                }
            }
        }
        Ok(self)
    }

    /// The share of `total` that CronJob `i` gets: exact totals, spread evenly.
    fn share(&self, total: usize, i: usize) -> usize {
        let n = self.cronjobs.max(1);
        total * (i + 1) / n - total * i / n
    }
}

/// A small seeded PRNG (splitmix64): no `rand` dependency for a benchmark fixture.
pub(crate) struct Rng(u64);

impl Rng {
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut s = seed ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        splitmix(&mut s);
        Rng(s)
    }
    pub fn next(&mut self) -> u64 {
        splitmix(&mut self.0)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    pub fn weighted<'a, T>(&mut self, items: &'a [(T, u32)]) -> &'a T {
        let total: u32 = items.iter().map(|(_, w)| w).sum();
        let mut r = self.below(u64::from(total)) as u32;
        for (item, w) in items {
            if r < *w {
                return item;
            }
            r -= w;
        }
        &items[0].0
    }
    /// Lowercase hex of `n` random nibbles (event name suffixes, container ids).
    pub fn hex(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from_digit(self.below(16) as u32, 16).expect("nibble"))
            .collect()
    }
    /// The five-character suffix `generateName` uses.
    pub fn suffix(&mut self) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..5)
            .map(|_| ALPHABET[self.below(27) as usize] as char)
            .collect()
    }
}

const TEAMS: &[&str] = &[
    "payments",
    "billing",
    "checkout",
    "search",
    "ml",
    "data",
    "platform",
    "identity",
    "growth",
    "ads",
    "reporting",
    "infra",
    "security",
    "catalog",
    "logistics",
    "notifications",
    "analytics",
    "crm",
];
const ENVS: &[&str] = &["prod", "staging", "dev"];

/// Namespace `i`: `payments-prod`, `ml-staging`, …, numbered once the combinations run out.
pub(crate) fn namespace(i: usize) -> String {
    let team = TEAMS[i % TEAMS.len()];
    let env = ENVS[(i / TEAMS.len()) % ENVS.len()];
    let round = i / (TEAMS.len() * ENVS.len());
    if round == 0 {
        format!("{team}-{env}")
    } else {
        format!("{team}-{env}-{round}")
    }
}

/// What one CronJob's history looks like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Health {
    Healthy,
    Flaky,
    /// Recent runs fail: bad image, OOM, crash loop.
    Broken,
    /// The latest Job hangs for several periods (Forbid blocks everything after it).
    Hung,
}

/// One CronJob's identity, shared by its Jobs, Pods and Events.
pub(crate) struct Family {
    pub ns: String,
    pub name: String,
    pub uid: String,
    pub seed: u64,
}

/// One generated Job, what its Pods and Events need to know.
pub(crate) struct JobInfo {
    pub name: String,
    pub uid: String,
    pub scheduled: Timestamp,
    pub start: Timestamp,
    /// `None` while running.
    pub end: Option<Timestamp>,
    pub succeeded: bool,
    /// Why its pods failed, when they did.
    pub failure: Option<jobs::Failure>,
    pub image: String,
    pub node: String,
}

/// The whole population, lazily: each CronJob followed by its Jobs, Pods and Events.
pub fn population(spec: Spec) -> impl Iterator<Item = Value> + Send + 'static {
    (0..spec.cronjobs).flat_map(move |i| family(&spec, i))
}

fn family(spec: &Spec, i: usize) -> Vec<Value> {
    let mut rng = Rng::new(spec.seed, i as u64);
    let ns = namespace(i % spec.namespaces.max(1));
    let name = cronjob::name(&mut rng, i);
    let fam = Family {
        uid: uid_for(&format!("gen/{}/cronjob/{ns}/{name}", spec.seed)),
        ns,
        name,
        seed: spec.seed,
    };
    let plan = cronjob::plan(&mut rng, spec.now);
    let jobs = jobs::history(&mut rng, &fam, &plan, spec.share(spec.jobs, i), spec.now);
    let mut out = vec![cronjob::object(&mut rng, &fam, &plan, &jobs, spec.now)];
    out.extend(jobs.iter().map(|j| jobs::job_object(&fam, &plan, j)));
    let (pods, pod_infos): (Vec<Value>, Vec<pods::PodInfo>) =
        pods::pods(&mut rng, &fam, &plan, &jobs, spec.share(spec.pods, i))
            .into_iter()
            .unzip();
    out.extend(pods);
    out.extend(events::events(
        &mut rng,
        &fam,
        &plan,
        &jobs,
        &pod_infos,
        spec.share(spec.events, i),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_and_families_are_consistent() {
        let now: Timestamp = "2025-03-01T12:00:00Z".parse().unwrap();
        let spec = Spec {
            cronjobs: 7,
            jobs: 70,
            pods: 21,
            events: 35,
            namespaces: 3,
            seed: 9,
            now,
        };
        let all: Vec<Value> = population(spec.clone()).collect();
        let count = |k: &str| all.iter().filter(|v| v["kind"] == k).count();
        assert_eq!(
            (count("CronJob"), count("Job"), count("Pod"), count("Event")),
            (7, 70, 21, 35)
        );
        assert_eq!(all, population(spec).collect::<Vec<_>>(), "deterministic");
        for job in all.iter().filter(|v| v["kind"] == "Job") {
            let owner = &job["metadata"]["ownerReferences"][0];
            let cj = all
                .iter()
                .find(|v| v["kind"] == "CronJob" && v["metadata"]["uid"] == owner["uid"])
                .unwrap();
            assert_eq!(cj["metadata"]["name"], owner["name"]);
            let name = job["metadata"]["name"].as_str().unwrap();
            if name.contains("-manual-") {
                continue;
            }
            let minutes: i64 = name.rsplit('-').next().unwrap().parse().unwrap();
            let scheduled: Timestamp =
                job["metadata"]["annotations"]["batch.kubernetes.io/cronjob-scheduled-timestamp"]
                    .as_str()
                    .unwrap()
                    .parse()
                    .unwrap();
            assert_eq!(scheduled.as_second() / 60, minutes, "{name}");
            assert!(scheduled <= now);
        }
        for pod in all.iter().filter(|v| v["kind"] == "Pod") {
            let owner = &pod["metadata"]["ownerReferences"][0];
            assert!(
                all.iter()
                    .any(|v| v["kind"] == "Job" && v["metadata"]["uid"] == owner["uid"])
            );
        }
        for ev in all.iter().filter(|v| v["kind"] == "Event") {
            let io = &ev["involvedObject"];
            assert!(
                all.iter()
                    .any(|v| v["kind"] == io["kind"] && v["metadata"]["uid"] == io["uid"]),
                "{ev}"
            );
        }
    }
}
