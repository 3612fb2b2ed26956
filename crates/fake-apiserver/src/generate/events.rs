//! Generated core/v1 Events about a CronJob family, newest Job first: the controller's
//! SuccessfulCreate/SawCompletedJob/SuccessfulDelete, the Job controller's pod creations
//! and outcomes, and the scheduler's and kubelet's Pod lifecycle (including pull failures).

use super::cronjob::Plan;
use super::jobs::Failure;
use super::pods::PodInfo;
use super::{Family, Health, JobInfo, Rng};
use crate::clock::rfc3339;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

/// What an Event is about.
struct Subject<'a> {
    kind: &'static str,
    name: &'a str,
    uid: &'a str,
    field_path: Option<&'static str>,
}

/// One Event before it becomes JSON.
struct Draft<'a> {
    about: Subject<'a>,
    reason: &'static str,
    message: String,
    warning: bool,
    component: &'static str,
    host: Option<&'a str>,
    at: Timestamp,
    count: u32,
}

fn event(rng: &mut Rng, fam: &Family, d: &Draft<'_>) -> Value {
    let api_version = if matches!(d.about.kind, "Job" | "CronJob") {
        "batch/v1"
    } else {
        "v1"
    };
    let mut involved = json!({"kind": d.about.kind, "namespace": fam.ns, "name": d.about.name,
                              "uid": d.about.uid, "apiVersion": api_version});
    if let Some(fp) = d.about.field_path {
        involved["fieldPath"] = json!(fp);
    }
    let first = rfc3339(d.at);
    let last = rfc3339(d.at + SignedDuration::from_secs(i64::from(d.count.saturating_sub(1)) * 30));
    let mut source = json!({"component": d.component});
    if let Some(h) = d.host {
        source["host"] = json!(h);
    }
    let name = format!("{}.{}", d.about.name, rng.hex(16));
    let fields = json!({"f:count": {}, "f:firstTimestamp": {}, "f:involvedObject": {}, "f:lastTimestamp": {},
        "f:message": {}, "f:reason": {}, "f:reportingComponent": {}, "f:reportingInstance": {},
        "f:source": {"f:component": {}}, "f:type": {}});
    json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {
            "name": name,
            "namespace": fam.ns,
            "uid": crate::store::uid_for(&format!("gen/{}/event/{}/{name}", fam.seed, fam.ns)),
            "creationTimestamp": first,
            "managedFields": [{"manager": d.component, "operation": "Update", "apiVersion": "v1", "time": last,
                               "fieldsType": "FieldsV1", "fieldsV1": fields}],
        },
        "involvedObject": involved,
        "reason": d.reason,
        "message": d.message,
        "source": source,
        "firstTimestamp": first,
        "lastTimestamp": last,
        "count": d.count,
        "type": if d.warning { "Warning" } else { "Normal" },
        "eventTime": null,
        "reportingComponent": d.component,
        "reportingInstance": d.host.unwrap_or(""),
    })
}

/// Everything that could be said about Job `ji` and its Pods, most telling first.
fn drafts_for_job<'a>(
    fam: &'a Family,
    jobs: &'a [JobInfo],
    ji: usize,
    pods: &'a [PodInfo],
) -> Vec<Draft<'a>> {
    let j = &jobs[ji];
    let cj = || Subject {
        kind: "CronJob",
        name: &fam.name,
        uid: &fam.uid,
        field_path: None,
    };
    let job = || Subject {
        kind: "Job",
        name: &j.name,
        uid: &j.uid,
        field_path: None,
    };
    let base = |about, reason, message: String, warning, component, at| Draft {
        about,
        reason,
        message,
        warning,
        component,
        host: None,
        at,
        count: 1,
    };
    let mut out = vec![base(
        cj(),
        "SuccessfulCreate",
        format!("Created job {}", j.name),
        false,
        "cronjob-controller",
        j.start,
    )];
    for p in pods.iter().filter(|p| p.job == ji) {
        out.push(base(
            job(),
            "SuccessfulCreate",
            format!("Created pod: {}", p.name),
            false,
            "job-controller",
            j.start,
        ));
        let pod = |fp| Subject {
            kind: "Pod",
            name: &p.name,
            uid: &p.uid,
            field_path: fp,
        };
        let kubelet = |reason, message: String, warning, count| Draft {
            about: pod(Some("spec.containers{main}")),
            reason,
            message,
            warning,
            component: "kubelet",
            host: Some(&p.node),
            at: j.start + SignedDuration::from_secs(2),
            count,
        };
        let mut sched = base(
            pod(None),
            "Scheduled",
            format!("Successfully assigned {}/{} to {}", fam.ns, p.name, p.node),
            false,
            "default-scheduler",
            j.start,
        );
        sched.at = j.start + SignedDuration::from_secs(1);
        out.push(sched);
        out.push(kubelet(
            "Pulling",
            format!("Pulling image \"{}\"", j.image),
            false,
            1,
        ));
        if p.failure == Some(Failure::ImagePull) {
            let not_found = format!(
                "Failed to pull image \"{0}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{0}\": not found",
                j.image
            );
            out.push(kubelet("Failed", not_found, true, 4));
            out.push(kubelet("Failed", "Error: ErrImagePull".into(), true, 4));
            out.push(kubelet(
                "BackOff",
                format!("Back-off pulling image \"{}\"", j.image),
                false,
                40,
            ));
            out.push(kubelet(
                "Failed",
                "Error: ImagePullBackOff".into(),
                true,
                40,
            ));
            continue;
        }
        out.push(kubelet("Pulled", format!("Successfully pulled image \"{}\" in 1.204s (1.204s including waiting). Image size: 48213517 bytes.", j.image), false, 1));
        out.push(kubelet(
            "Created",
            "Created container: main".into(),
            false,
            1,
        ));
        out.push(kubelet(
            "Started",
            "Started container main".into(),
            false,
            1,
        ));
        if p.failure == Some(Failure::CrashLoop) {
            out.push(kubelet(
                "BackOff",
                format!(
                    "Back-off restarting failed container main in pod {}_{}({})",
                    p.name, fam.ns, p.uid
                ),
                true,
                25,
            ));
        }
    }
    if let Some(end) = j.end {
        let (reason, msg, warning) = if j.succeeded {
            ("Completed", "Job completed", false)
        } else {
            (
                "BackoffLimitExceeded",
                "Job has reached the specified backoff limit",
                true,
            )
        };
        out.push(base(
            job(),
            reason,
            msg.into(),
            warning,
            "job-controller",
            end,
        ));
        let outcome = if j.succeeded { "Complete" } else { "Failed" };
        out.push(base(
            cj(),
            "SawCompletedJob",
            format!("Saw completed job: {}, status: {outcome}", j.name),
            false,
            "cronjob-controller",
            end,
        ));
    }
    out
}

pub(crate) fn events(
    rng: &mut Rng,
    fam: &Family,
    plan: &Plan,
    jobs: &[JobInfo],
    pods: &[PodInfo],
    n: usize,
) -> Vec<Value> {
    let mut drafts: Vec<Draft<'_>> = Vec::new();
    if plan.health == Health::Hung
        && let Some(j) = jobs.first()
    {
        drafts.push(Draft {
            about: Subject { kind: "CronJob", name: &fam.name, uid: &fam.uid, field_path: None },
            reason: "JobAlreadyActive",
            message: "Not starting job because prior execution is running and concurrency policy is Forbid".into(),
            warning: false,
            component: "cronjob-controller",
            host: None,
            at: j.start,
            count: 12,
        });
    }
    for ji in 0..jobs.len() {
        if drafts.len() >= n {
            break;
        }
        drafts.extend(drafts_for_job(fam, jobs, ji, pods));
        if ji + 1 == jobs.len() && jobs.len() >= 2 {
            let gap = jobs[0].scheduled.duration_since(jobs[1].scheduled);
            let gone = (jobs[ji].scheduled - gap).as_second() / 60;
            let msg = format!("Deleted job {}-{gone}", fam.name);
            let about = Subject {
                kind: "CronJob",
                name: &fam.name,
                uid: &fam.uid,
                field_path: None,
            };
            drafts.push(Draft {
                about,
                reason: "SuccessfulDelete",
                message: msg,
                warning: false,
                component: "cronjob-controller",
                host: None,
                at: jobs[ji].start,
                count: 1,
            });
        }
    }
    // Families with few Jobs still get their share: the CronJob is reminded about.
    while drafts.len() < n {
        let about = Subject {
            kind: "CronJob",
            name: &fam.name,
            uid: &fam.uid,
            field_path: None,
        };
        let at = jobs.first().map_or(plan.created, |j| j.start);
        drafts.push(Draft {
            about,
            reason: "SuccessfulCreate",
            message: format!("Created job {}", fam.name),
            warning: false,
            component: "cronjob-controller",
            host: None,
            at,
            count: 1,
        });
    }
    drafts.truncate(n);
    drafts.iter().map(|d| event(rng, fam, d)).collect()
}
