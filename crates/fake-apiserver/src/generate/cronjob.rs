//! Generated CronJobs: names, schedules, time zones, policies, the defaulted job template,
//! and the status and managedFields the API server and controller would have written.

use super::{Family, Health, JobInfo, Rng};
use crate::clock::rfc3339;
use crate::patch::fields_v1;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

/// A schedule the generator uses: the expression, its period in minutes (`None`: never
/// fires) and the first slot's offset in local minutes since the epoch (a Thursday).
/// Only strictly periodic schedules, so generated Job names are real slots.
/// (expression, period in minutes, first slot's local offset in minutes)
type Schedule = (&'static str, Option<i64>, i64);

const SCHEDULES: &[(Schedule, u32)] = &[
    (("*/1 * * * *", Some(1), 0), 2),
    (("*/5 * * * *", Some(5), 0), 15),
    (("*/10 * * * *", Some(10), 0), 8),
    (("*/15 * * * *", Some(15), 0), 10),
    (("*/30 * * * *", Some(30), 0), 6),
    (("0 * * * *", Some(60), 0), 10),
    (("@hourly", Some(60), 0), 4),
    (("17 * * * *", Some(60), 17), 6),
    (("0 */4 * * *", Some(240), 0), 3),
    (("0 */6 * * *", Some(360), 0), 5),
    (("30 2 * * *", Some(1440), 150), 10),
    (("0 3 * * *", Some(1440), 180), 8),
    (("@daily", Some(1440), 0), 4),
    (("45 23 * * *", Some(1440), 1425), 3),
    (("0 0 * * 0", Some(10080), 4320), 3),
    (("@weekly", Some(10080), 4320), 1),
    (("0 5 * * 1", Some(10080), 6060), 2),
    // Valid, but February never has a 31st: the "never fires" case a doctor should flag.
    (("0 2 31 2 *", None, 0), 1),
];

/// Who last applied the spec, weighted as seen in practice.
const MANAGERS: &[(&str, u32)] = &[
    ("kubectl-client-side-apply", 45),
    ("helm", 30),
    ("argocd-controller", 20),
    ("kubectl-create", 5),
];

const ZONES: &[&str] = &[
    "Europe/Berlin",
    "America/New_York",
    "Asia/Tokyo",
    "UTC",
    "Europe/London",
    "America/Los_Angeles",
    "Australia/Sydney",
    "Asia/Kolkata",
    "America/Sao_Paulo",
];

const WORDS: &[&str] = &[
    "nightly-report",
    "sync-invoices",
    "cleanup-tmp",
    "backup-postgres",
    "rotate-keys",
    "refresh-cache",
    "export-metrics",
    "reindex-search",
    "send-digest",
    "compact-logs",
    "retrain-model",
    "prune-images",
    "reconcile-ledger",
    "fetch-rates",
    "archive-orders",
    "vacuum-db",
    "check-certs",
    "purge-sessions",
];

const IMAGES: &[&str] = &[
    "registry.example.com/batch/report-runner:2.14.1",
    "registry.example.com/platform/db-tools:1.9.0",
    "ghcr.io/example/sync-worker:v0.38.2",
    "python:3.12-slim",
    "bitnami/kubectl:1.31",
    "postgres:16.4",
    "registry.example.com/ml/trainer:2025.02.1",
    "alpine:3.20",
];

/// Everything decided about one CronJob before its objects are built.
pub(crate) struct Plan {
    pub schedule: &'static str,
    pub period: Option<i64>,
    pub offset: i64,
    pub tz: Option<&'static str>,
    /// Local minus UTC, in minutes, at `now` (DST shifts inside the history are ignored).
    pub tz_minutes: i64,
    pub concurrency: &'static str,
    pub deadline: Option<i64>,
    pub suspend: bool,
    /// Suspended CronJobs stopped running this long ago.
    pub idle_for: SignedDuration,
    pub health: Health,
    pub created: Timestamp,
    pub manager: &'static str,
    pub last_applied: bool,
    pub history: (i64, i64),
    pub backoff_limit: i64,
    /// `ttlSecondsAfterFinished` / `activeDeadlineSeconds`, when set: copied into each Job.
    pub job_extras: Value,
    pub template: Value,
    pub images: Vec<String>,
}

pub(crate) fn name(rng: &mut Rng, i: usize) -> String {
    format!("{}-{i}", rng.pick(WORDS))
}

fn container(rng: &mut Rng, name: &str, image: &str) -> Value {
    let envs: Vec<Value> = (0..rng.range(2, 7))
        .map(|k| json!({"name": format!("SETTING_{k}"), "value": format!("value-{}", rng.hex(8))}))
        .collect();
    let mem = rng
        .pick(&["64Mi", "128Mi", "256Mi", "512Mi", "1Gi"])
        .to_string();
    json!({
        "name": name,
        "image": image,
        "command": ["/bin/sh", "-c"],
        "args": [format!("exec /app/run --task {name} --batch-size {}", rng.range(10, 5000))],
        "env": envs,
        "resources": {"requests": {"cpu": "100m", "memory": mem}, "limits": {"memory": mem}},
        "volumeMounts": [{"name": "scratch", "mountPath": "/tmp"}],
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "imagePullPolicy": "IfNotPresent",
    })
}

pub(crate) fn plan(rng: &mut Rng, now: Timestamp) -> Plan {
    let &(schedule, period, offset) = rng.weighted(SCHEDULES);
    let tz = rng.chance(0.3).then(|| *rng.pick(ZONES));
    let tz_minutes = tz
        .and_then(|z| jiff::tz::TimeZone::get(z).ok())
        .map_or(0, |z| i64::from(z.to_offset(now).seconds()) / 60);
    let health = *rng.weighted(&[
        (Health::Healthy, 80),
        (Health::Flaky, 12),
        (Health::Broken, 5),
        (Health::Hung, 3),
    ]);
    let concurrency = if health == Health::Hung {
        "Forbid"
    } else {
        *rng.weighted(&[("Allow", 50), ("Forbid", 40), ("Replace", 10)])
    };
    let suspend = rng.chance(0.05);
    let image = rng.pick(IMAGES).to_string();
    let mut images = vec![image.clone()];
    let mut containers = vec![container(rng, "main", &image)];
    if rng.chance(0.15) {
        images.push("registry.example.com/platform/log-shipper:0.9.3".into());
        containers.push(container(rng, "log-shipper", &images[1]));
    }
    let mut template = json!({
        "restartPolicy": if rng.chance(0.6) { "OnFailure" } else { "Never" },
        "containers": containers,
        "volumes": [{"name": "scratch", "emptyDir": {}}],
        "dnsPolicy": "ClusterFirst",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "terminationGracePeriodSeconds": 30,
    });
    if rng.chance(0.5) {
        template["serviceAccountName"] = json!("batch-runner");
        template["serviceAccount"] = json!("batch-runner");
    }
    if rng.chance(0.2) {
        template["nodeSelector"] = json!({"node.kubernetes.io/pool": "batch"});
        template["tolerations"] = json!([{"key": "dedicated", "operator": "Equal", "value": "batch", "effect": "NoSchedule"}]);
    }
    let manager = *rng.weighted(MANAGERS);
    Plan {
        schedule,
        period,
        offset,
        tz,
        tz_minutes,
        concurrency,
        deadline: *rng.weighted(&[
            (None, 60),
            (Some(60), 10),
            (Some(200), 15),
            (Some(300), 8),
            (Some(3600), 6),
            (Some(0), 1),
        ]),
        suspend,
        idle_for: if suspend {
            SignedDuration::from_hours(rng.range(24 * 3, 24 * 60))
        } else {
            SignedDuration::ZERO
        },
        health,
        created: now - SignedDuration::from_hours(rng.range(24 * 20, 24 * 700)),
        manager,
        last_applied: false,
        history: (rng.range(3, 10), rng.range(1, 5)),
        backoff_limit: rng.range(0, 6),
        job_extras: {
            let mut x = json!({});
            if rng.chance(0.3) {
                x["ttlSecondsAfterFinished"] = json!(rng.pick(&[600, 3600, 86400]));
            }
            if rng.chance(0.2) {
                x["activeDeadlineSeconds"] = json!(rng.pick(&[300, 1800, 7200]));
            }
            x
        },
        template,
        images,
    }
    .with_last_applied(rng)
}

impl Plan {
    fn with_last_applied(mut self, rng: &mut Rng) -> Self {
        self.last_applied = self.manager == "kubectl-client-side-apply"
            || (self.manager == "argocd-controller" && rng.chance(0.5));
        self
    }

    /// The latest slot at or before `t` (UTC), if the schedule fires at all.
    pub fn slot_at_or_before(&self, t: Timestamp) -> Option<Timestamp> {
        let period = self.period?;
        let local_min = t.as_second().div_euclid(60) + self.tz_minutes;
        let m = (local_min - self.offset).div_euclid(period);
        Timestamp::from_second((self.offset + m * period - self.tz_minutes) * 60).ok()
    }
}

pub(crate) fn object(
    rng: &mut Rng,
    fam: &Family,
    plan: &Plan,
    jobs: &[JobInfo],
    now: Timestamp,
) -> Value {
    let team = fam.ns.split('-').next().unwrap_or("team").to_string();
    let mut labels = json!({"app.kubernetes.io/name": fam.name, "app.kubernetes.io/part-of": team, "team": team});
    let mut annotations = json!({});
    if plan.manager == "helm" {
        labels["app.kubernetes.io/managed-by"] = json!("Helm");
        labels["helm.sh/chart"] = json!(format!(
            "{team}-jobs-{}.{}.0",
            rng.range(1, 4),
            rng.range(0, 30)
        ));
        annotations["meta.helm.sh/release-name"] = json!(format!("{team}-jobs"));
        annotations["meta.helm.sh/release-namespace"] = json!(fam.ns);
    }
    let mut spec = json!({
        "schedule": plan.schedule,
        "concurrencyPolicy": plan.concurrency,
        "suspend": plan.suspend,
        "successfulJobsHistoryLimit": plan.history.0,
        "failedJobsHistoryLimit": plan.history.1,
        "jobTemplate": {
            "metadata": {"labels": {"app.kubernetes.io/name": fam.name}},
            "spec": {
                "backoffLimit": plan.backoff_limit,
                "template": {"metadata": {"labels": {"app.kubernetes.io/name": fam.name}}, "spec": plan.template},
            },
        },
    });
    if let Some(tz) = plan.tz {
        spec["timeZone"] = json!(tz);
    }
    if let Some(d) = plan.deadline {
        spec["startingDeadlineSeconds"] = json!(d);
    }
    crate::patch::merge_patch(&mut spec["jobTemplate"]["spec"], &plan.job_extras);
    let mut obj = json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": fam.name, "namespace": fam.ns, "labels": labels, "annotations": annotations},
        "spec": spec,
    });
    if plan.last_applied {
        let applied = serde_json::to_string(&obj).expect("serialises");
        obj["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] =
            json!(applied + "\n");
    }
    let mut status = json!({});
    if let Some(latest) = jobs.first() {
        status["lastScheduleTime"] = json!(rfc3339(latest.scheduled));
    }
    if let Some(ok) = jobs.iter().find(|j| j.succeeded) {
        status["lastSuccessfulTime"] = json!(rfc3339(ok.end.unwrap_or(ok.start)));
    }
    let active: Vec<Value> = jobs
        .iter()
        .filter(|j| j.end.is_none())
        .map(|j| json!({"kind": "Job", "namespace": fam.ns, "name": j.name, "uid": j.uid, "apiVersion": "batch/v1", "resourceVersion": "1"}))
        .collect();
    if !active.is_empty() {
        status["active"] = json!(active);
    }
    let spec_fields = fields_v1(&obj, false);
    let status_fields = fields_v1(&json!({"status": status}), true);
    obj["status"] = status;
    let created = rfc3339(plan.created);
    let mut managed = vec![
        json!({"manager": plan.manager, "operation": "Update", "apiVersion": "batch/v1",
        "time": created, "fieldsType": "FieldsV1", "fieldsV1": spec_fields}),
    ];
    if let Some(latest) = jobs.first() {
        managed.push(json!({"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "batch/v1",
            "time": rfc3339(latest.end.unwrap_or(latest.start).min(now)), "fieldsType": "FieldsV1",
            "fieldsV1": status_fields, "subresource": "status"}));
    }
    let meta = &mut obj["metadata"];
    meta["uid"] = json!(fam.uid);
    meta["creationTimestamp"] = json!(created);
    meta["generation"] = json!(1 + rng.below(4));
    meta["managedFields"] = json!(managed);
    obj
}
