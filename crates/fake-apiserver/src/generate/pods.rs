//! Generated Pods for the latest Jobs, with the statuses real runs leave behind:
//! Completed, Error, OOMKilled, ImagePullBackOff, CrashLoopBackOff, still running.

use super::cronjob::Plan;
use super::jobs::{Failure, controller_labels, managed, owner};
use super::{Family, JobInfo, Rng};
use crate::clock::rfc3339;
use crate::store::uid_for;
use serde_json::{Value, json};

/// A generated Pod, for the Events about it.
#[derive(Debug, Clone)]
pub(crate) struct PodInfo {
    pub name: String,
    pub uid: String,
    pub job: usize,
    pub node: String,
    pub failure: Option<Failure>,
    pub running: bool,
}

fn container_status(
    name: &str,
    image: &str,
    rng: &mut Rng,
    state: Value,
    restarts: u32,
    last: Value,
) -> Value {
    let running = state.get("running").is_some();
    json!({"name": name, "state": state, "lastState": last, "ready": running, "restartCount": restarts,
           "image": image, "imageID": format!("{image}@sha256:{}", rng.hex(64)),
           "containerID": format!("containerd://{}", rng.hex(64)), "started": running})
}

fn pod_status(rng: &mut Rng, j: &JobInfo, p: &PodInfo, start: &str, end: &str) -> Value {
    let terminated = |code: i32, reason: &str| json!({"terminated": {"exitCode": code, "reason": reason, "startedAt": start, "finishedAt": end}});
    let (phase, state, restarts, last) = match (p.running, p.failure) {
        (true, Some(Failure::ImagePull)) => (
            "Pending",
            json!({"waiting": {"reason": "ImagePullBackOff",
            "message": format!("Back-off pulling image \"{}\"", j.image)}}),
            0,
            json!({}),
        ),
        (true, Some(Failure::CrashLoop)) => (
            "Running",
            json!({"waiting": {"reason": "CrashLoopBackOff",
            "message": format!("back-off 5m0s restarting failed container=main pod={}", p.name)}}),
            6,
            terminated(1, "Error"),
        ),
        (true, _) => (
            "Running",
            json!({"running": {"startedAt": start}}),
            0,
            json!({}),
        ),
        (false, None) => ("Succeeded", terminated(0, "Completed"), 0, json!({})),
        (false, Some(Failure::OomKilled)) => ("Failed", terminated(137, "OOMKilled"), 0, json!({})),
        (false, Some(_)) => ("Failed", terminated(1, "Error"), 0, json!({})),
    };
    let ready = if phase == "Running" && state.get("running").is_some() {
        "True"
    } else {
        "False"
    };
    let done = matches!(phase, "Succeeded" | "Failed");
    let why = if done {
        "PodCompleted"
    } else {
        "ContainersNotReady"
    };
    let conds: Vec<Value> = [
        (
            "PodReadyToStartContainers",
            if done { "False" } else { "True" },
            "",
        ),
        (
            "Initialized",
            "True",
            if done { "PodCompleted" } else { "" },
        ),
        ("Ready", ready, if ready == "True" { "" } else { why }),
        (
            "ContainersReady",
            ready,
            if ready == "True" { "" } else { why },
        ),
        ("PodScheduled", "True", ""),
    ]
    .iter()
    .map(|(t, s, r)| {
        let mut c =
            json!({"type": t, "status": s, "lastProbeTime": null, "lastTransitionTime": start});
        if !r.is_empty() {
            c["reason"] = json!(r);
        }
        c
    })
    .collect();
    let ip = format!("10.42.{}.{}", rng.range(0, 255), rng.range(2, 254));
    json!({"phase": phase, "conditions": conds, "hostIP": "10.0.0.1", "hostIPs": [{"ip": "10.0.0.1"}],
           "podIP": ip, "podIPs": [{"ip": ip}], "startTime": start, "qosClass": "Burstable",
           "containerStatuses": [container_status("main", &j.image, rng, state, restarts, last)]})
}

/// `n` Pods spread over the newest (up to three) Jobs; a Job with several Pods shows
/// failed retries before its final Pod.
pub(crate) fn pods(
    rng: &mut Rng,
    fam: &Family,
    plan: &Plan,
    jobs: &[JobInfo],
    n: usize,
) -> Vec<(Value, PodInfo)> {
    let owners = jobs.len().min(3);
    let mut out = Vec::with_capacity(n);
    for p in 0..if owners == 0 { 0 } else { n } {
        let ji = p % owners;
        let j = &jobs[ji];
        let last_of_job = p + owners >= n;
        let name = format!("{}-{}", j.name, rng.suffix());
        let uid = uid_for(&format!("gen/{}/pod/{}/{name}", fam.seed, fam.ns));
        let failure = if last_of_job {
            j.failure
        } else {
            Some(j.failure.unwrap_or(Failure::Error))
        };
        let info = PodInfo {
            name,
            uid,
            job: ji,
            node: j.node.clone(),
            failure,
            running: last_of_job && j.end.is_none(),
        };
        let mut spec = plan.template.clone();
        spec["containers"][0]["image"] = json!(j.image);
        let token = format!("kube-api-access-{}", rng.suffix());
        spec["nodeName"] = json!(info.node);
        spec["serviceAccountName"] = spec
            .get("serviceAccountName")
            .cloned()
            .unwrap_or(json!("default"));
        spec["priority"] = json!(0);
        spec["enableServiceLinks"] = json!(true);
        spec["preemptionPolicy"] = json!("PreemptLowerPriority");
        spec["tolerations"] = json!([
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
        ]);
        for c in spec["containers"].as_array_mut().into_iter().flatten() {
            if let Some(m) = c["volumeMounts"].as_array_mut() {
                let at = "/var/run/secrets/kubernetes.io/serviceaccount";
                m.push(json!({"name": token, "readOnly": true, "mountPath": at}));
            }
        }
        let sources = json!([
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
            {"downwardAPI": {"items": [{"path": "namespace",
                "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
        ]);
        if let Some(v) = spec["volumes"].as_array_mut() {
            v.push(json!({"name": token, "projected": {"defaultMode": 420, "sources": sources}}));
        }
        let start = rfc3339(j.start);
        let end = rfc3339(j.end.unwrap_or(j.start));
        let mut labels = controller_labels(&j.name, &j.uid);
        labels["app.kubernetes.io/name"] = json!(fam.name);
        let mut obj = json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": info.name, "generateName": format!("{}-", j.name), "namespace": fam.ns,
                         "labels": labels, "ownerReferences": owner("Job", &j.name, &j.uid)},
            "spec": spec,
        });
        if info.running {
            obj["metadata"]["finalizers"] = json!(["batch.kubernetes.io/job-tracking"]);
        }
        let status = pod_status(rng, j, &info, &start, &end);
        obj["metadata"]["managedFields"] = managed(
            "kube-controller-manager",
            &obj,
            "kubelet",
            &status,
            &end,
            "v1",
        );
        obj["status"] = status;
        obj["metadata"]["uid"] = json!(info.uid);
        obj["metadata"]["creationTimestamp"] = json!(start);
        out.push((obj, info));
    }
    out
}
