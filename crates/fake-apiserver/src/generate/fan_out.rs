//! An ownerReferences fan-out: `owners` CronJobs and one Job that lists every one of them
//! as an owner, the first as its controller and the others not. Real clusters have such Jobs
//! (a tool that stamps ownerReferences for garbage collection); a client that relates a Job
//! to all of its owners instead of its controller does `owners` times the work on each
//! update of that one Job.

use serde_json::{Value, json};

/// The CronJobs `fan-0` … `fan-<owners-1>` in `namespace` (a `@yearly` schedule, created
/// 2026-11-01) and the Job `fan-out` owned by all of them, controlled by `fan-0`. The Job
/// comes last, so its owners exist when it is loaded.
pub fn owner_fan_out(namespace: &str, owners: usize) -> Vec<Value> {
    let uid = |i: usize| crate::store::uid_for(&format!("fan-out/{namespace}/{i}"));
    let mut out: Vec<Value> = (0..owners)
        .map(|i| {
            json!({
                "apiVersion": "batch/v1", "kind": "CronJob",
                "metadata": {"name": format!("fan-{i}"), "namespace": namespace, "uid": uid(i),
                             "creationTimestamp": "2026-11-01T00:00:00Z"},
                "spec": {"schedule": "@yearly", "jobTemplate": {"spec": {"template": {"spec": {
                    "restartPolicy": "Never",
                    "containers": [{"name": "c", "image": "registry.example/c:1"}]}}}}}
            })
        })
        .collect();
    let refs: Vec<Value> = (0..owners)
        .map(|i| {
            json!({"apiVersion": "batch/v1", "kind": "CronJob", "name": format!("fan-{i}"),
                   "uid": uid(i), "controller": i == 0})
        })
        .collect();
    out.push(json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "fan-out", "namespace": namespace,
                     "creationTimestamp": "2026-11-01T00:00:00Z", "ownerReferences": refs},
        "spec": {"template": {"spec": {"restartPolicy": "Never",
            "containers": [{"name": "c", "image": "registry.example/c:1"}]}}},
        "status": {}
    }));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_controller_among_many_owners() {
        let objs = super::owner_fan_out("ops", 3);
        assert_eq!(objs.len(), 4);
        let refs = objs[3]["metadata"]["ownerReferences"].as_array().unwrap();
        let controllers: Vec<_> = refs.iter().filter(|r| r["controller"] == true).collect();
        assert_eq!(controllers.len(), 1);
        assert_eq!(controllers[0]["name"], "fan-0");
    }
}
