//! Opt-in end-to-end test against a real cluster (kind): our replay next to what the real
//! CronJob controller did, then `monitor` watching the same namespace. Runs only when `CRONJOB_DOCTOR_E2E_KUBECONFIG` names a kubeconfig;
//! see docs/e2e.md. It creates a namespace `cjd-e2e-<pid>`, waits for the controller (about
//! three minutes), and deletes the namespace at the end, also when an assertion fails.

use std::time::{Duration, Instant};

use assert_cmd::Command;
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::{Event, Namespace};
use kube::Client;
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use serde_json::{Value, json};

use crate::monitor_common::{Process, Scratch, free_port, poll};
use crate::support::field_of_each;

const ENV: &str = "CRONJOB_DOCTOR_E2E_KUBECONFIG";

fn kubeconfig() -> Option<String> {
    match std::env::var(ENV) {
        Ok(p) if !p.is_empty() => Some(p),
        _ => {
            eprintln!(
                "skipping the e2e suite: set {ENV} to a kind cluster's kubeconfig (docs/e2e.md)"
            );
            None
        }
    }
}

async fn client(path: &str) -> Client {
    let kc = Kubeconfig::read_from(path).expect("kubeconfig readable");
    let cfg = kube::Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default())
        .await
        .expect("kubeconfig usable");
    Client::try_from(cfg).expect("client")
}

fn cron_job(name: &str, extra_spec: Value, image: &str) -> CronJob {
    let mut spec = json!({
        "schedule": "* * * * *",
        "jobTemplate": {"spec": {"backoffLimit": 0, "template": {"spec": {
            "restartPolicy": "Never",
            "terminationGracePeriodSeconds": 0,
            "containers": [{"name": "c", "image": image, "command": ["sleep", "3600"]}]
        }}}}
    });
    for (k, v) in extra_spec.as_object().unwrap() {
        spec[k] = v.clone();
    }
    serde_json::from_value(json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name}, "spec": spec}))
        .unwrap()
}

/// Deletes the namespace when dropped, so a failed assertion leaves nothing behind.
struct Cleanup {
    kubeconfig: String,
    ns: String,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let (kc, ns) = (self.kubeconfig.clone(), self.ns.clone());
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().unwrap();
            rt.block_on(async {
                let api: Api<Namespace> = Api::all(client(&kc).await);
                let _ = api.delete(&ns, &DeleteParams::background()).await;
            });
        })
        .join();
    }
}

fn doctor(kubeconfig: &str, args: &[&str]) -> (Value, i32) {
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .env("KUBECONFIG", kubeconfig)
        .env("NO_COLOR", "1")
        .args(args)
        .args(["-o", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, out.status.code().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_replay_matches_the_real_controller() {
    let Some(kc) = kubeconfig() else { return };
    let c = client(&kc).await;
    let ns = format!("cjd-e2e-{}", std::process::id());
    let namespaces: Api<Namespace> = Api::all(c.clone());
    let ns_obj: Namespace = serde_json::from_value(json!({"metadata": {"name": ns}})).unwrap();
    namespaces
        .create(&PostParams::default(), &ns_obj)
        .await
        .expect("create namespace");
    let _cleanup = Cleanup {
        kubeconfig: kc.clone(),
        ns: ns.clone(),
    };

    let cronjobs: Api<CronJob> = Api::namespaced(c.clone(), &ns);
    // An image that can never be pulled: the first Job hangs in ImagePullBackOff, and Forbid
    // skips every later slot with JobAlreadyActive.
    let hung = cron_job(
        "hung",
        json!({"concurrencyPolicy": "Forbid"}),
        "registry.invalid/cronjob-doctor/hang:1",
    );
    let paused = cron_job(
        "paused",
        json!({"suspend": true}),
        "registry.invalid/cronjob-doctor/hang:1",
    );
    for cj in [&hung, &paused] {
        cronjobs
            .create(&PostParams::default(), cj)
            .await
            .expect("create CronJob");
    }

    // Wait for the first Job, then for at least one more slot to pass while it hangs.
    let jobs: Api<Job> = Api::namespaced(c.clone(), &ns);
    let events: Api<Event> = Api::namespaced(c.clone(), &ns);
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let skipped = events
            .list(&ListParams::default().fields("involvedObject.name=hung"))
            .await
            .unwrap()
            .items
            .iter()
            .any(|e| e.reason.as_deref() == Some("JobAlreadyActive"));
        if skipped {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the controller never skipped a slot for Forbid"
        );
        tokio::time::sleep(Duration::from_secs(5)).await;
    }

    let real_jobs = jobs.list(&ListParams::default()).await.unwrap().items;
    let hung_jobs: Vec<String> = real_jobs
        .iter()
        .filter(|j| {
            j.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.name == "hung")
        })
        .filter_map(|j| j.metadata.name.clone())
        .collect();
    assert_eq!(
        hung_jobs.len(),
        1,
        "Forbid keeps exactly one Job: {hung_jobs:?}"
    );
    assert!(
        !real_jobs.iter().any(|j| j
            .metadata
            .owner_references
            .iter()
            .flatten()
            .any(|o| o.name == "paused")),
        "a suspended CronJob gets no Jobs"
    );

    // Our replay of the same moment.
    let (v, code) = doctor(&kc, &["explain", "hung", "-n", &ns]);
    assert_eq!(code, 1, "{v}");
    let cj = &v["cronJobs"][0];
    assert_eq!(cj["controller"]["decision"], "forbid-blocked", "{cj}");
    assert_eq!(cj["controller"]["events"], json!(["JobAlreadyActive"]));
    assert_eq!(cj["activeJobs"], json!(hung_jobs));
    let headline = cj["headline"].as_str().unwrap();
    assert!(
        headline.contains(&format!("Forbid is blocked by job {}", hung_jobs[0])),
        "{headline}"
    );
    // The Job's name encodes its slot in minutes: the controller's and ours must agree.
    let real = c.request::<CronJob>(
        http::Request::get(format!("/apis/batch/v1/namespaces/{ns}/cronjobs/hung"))
            .body(vec![])
            .unwrap(),
    );
    let real = real.await.unwrap();
    let first_slot = hung_jobs[0]
        .trim_start_matches("hung-")
        .parse::<i64>()
        .unwrap()
        * 60;
    let timeline = cj["timeline"].as_array().unwrap();
    let ran = timeline
        .iter()
        .find(|s| s["job"] == hung_jobs[0].as_str())
        .expect("the real Job is in our timeline");
    assert_eq!(
        ran["time"]
            .as_str()
            .unwrap()
            .parse::<jiff::Timestamp>()
            .unwrap()
            .as_second(),
        first_slot
    );
    assert!(real.status.and_then(|s| s.last_schedule_time).is_some());

    // That run's own story (`explain --slot`): its Job exists, none of its work started, and
    // the kubelet says why (the image). The first slot is behind later Forbid-skipped ones,
    // so this is not run-not-started's "most recent run", only the slot's answer.
    let slot = jiff::Timestamp::from_second(first_slot)
        .unwrap()
        .to_string();
    let (v, code) = doctor(&kc, &["explain", "hung", "-n", &ns, "--slot", &slot]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["job"], hung_jobs[0].as_str(), "{v}");
    assert_eq!(v["attempts"], 0, "{v}");
    assert!(v["startDelaySeconds"].is_null(), "{v}");
    let answer = v["answer"].as_str().unwrap();
    assert!(
        answer.contains("has not started")
            && answer.contains("registry.invalid/cronjob-doctor/hang:1"),
        "{answer}"
    );

    let (v, code) = doctor(&kc, &["explain", "paused", "-n", &ns]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["cronJobs"][0]["controller"]["decision"], "suspended");
    let paused_health = v["cronJobs"][0]["health"].as_str().unwrap().to_string();

    let (v, _) = doctor(&kc, &["scan", "-n", &ns]);
    let names: Vec<&str> = field_of_each(&v["cronJobs"], "name");
    assert_eq!(names.len(), 2, "{names:?}");

    // The same cluster, watched: `monitor` exports what `explain` said.
    let (kc2, ns2) = (kc.clone(), ns.clone());
    tokio::task::spawn_blocking(move || monitor_agrees(&kc2, &ns2, &paused_health))
        .await
        .unwrap();
}

/// `monitor -n NS --listen` against the cluster: ready once its lists are synced, `hung`'s
/// forbid-blocked finding and `paused`'s status on /metrics, exit 0 on SIGTERM. Its stderr
/// goes to a log file (shown when it fails); it is killed if an assertion fails first.
fn monitor_agrees(kubeconfig: &str, ns: &str, paused_health: &str) {
    let scratch = Scratch::new("e2e-monitor");
    let addr = format!("127.0.0.1:{}", free_port());
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"));
    cmd.env("KUBECONFIG", kubeconfig)
        .env("NO_COLOR", "1")
        .args(["monitor", "-n", ns, "--listen", &addr]);
    let mut monitor = Process::spawn(cmd, scratch.0.join("monitor.log"), addr);
    let blocked = format!(
        r#"cronjob_doctor_finding{{namespace="{ns}",cronjob="hung",rule="forbid-blocked","#
    );
    let paused = format!(
        r#"cronjob_doctor_cronjob_status{{namespace="{ns}",cronjob="paused",status="{paused_health}",cause="#
    );
    poll(
        "the monitor is ready with hung's finding and paused's status",
        Duration::from_secs(60),
        || {
            assert!(
                !monitor.exited(),
                "the monitor exited: {}",
                monitor.log_tail()
            );
            let ready = monitor.get("/readyz").is_some_and(|(code, _)| code == 200);
            let metrics = monitor
                .get("/metrics")
                .map(|(_, body)| body)
                .unwrap_or_default();
            let found = metrics
                .lines()
                .any(|l| l.starts_with(&blocked) && l.ends_with("} 1"))
                && metrics
                    .lines()
                    .any(|l| l.starts_with(&paused) && l.ends_with("} 1"));
            if ready && found {
                Ok(())
            } else {
                Err(format!(
                    "ready: {ready}; want {blocked}… 1 and {paused} in:\n{metrics}\nlog:\n{}",
                    monitor.log_tail()
                ))
            }
        },
    );
    assert_eq!(monitor.terminate(), Some(0), "monitor after SIGTERM");
}
