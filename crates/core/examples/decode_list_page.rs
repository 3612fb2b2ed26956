//! Microbenchmark: decoding generated LIST pages (CronJobs, Pods, Events, Jobs) into the wire
//! structs, as the scan does (`serde_json::from_slice::<wire::List<_>>`). Prints, per kind,
//! the fastest and the median of 10 repetitions, twice. Run with `cargo run --release -p
//! cronjob-doctor-core --example decode_list_page [-- [--reps N] [cjs|pods|events|jobs]...]`:
//! the kinds named (all by default), each decoded N times per round (10 by default; with
//! `--reps 1`, one decode per kind and round, for `perf record` or callgrind).

use std::time::Instant;

use doctor::source::wire;

/// The allocator of the shell's Linux builds (src/allocator.rs; its memory options, which bound
/// the scan's peak, are not set here): the scan decodes with it. Under glibc's allocator the
/// heap one kind's pages left behind moved the next kind's figures by up to a fifth.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn pod(i: usize) -> String {
    format!(
        r#"{{"metadata":{{"name":"job-{i}-abcde","namespace":"ns-{ns}","uid":"uid-{i}","resourceVersion":"{i}",
"creationTimestamp":"2026-11-01T00:00:00Z","labels":{{"batch.kubernetes.io/job-name":"job-{i}","job-name":"job-{i}","controller-uid":"uid-{i}","app":"x"}},
"annotations":{{"kubectl.kubernetes.io/default-container":"main"}},
"ownerReferences":[{{"apiVersion":"batch/v1","kind":"Job","name":"job-{i}","uid":"juid-{i}","controller":true,"blockOwnerDeletion":true}}],
"managedFields":[{{"manager":"kube-controller-manager","operation":"Update","time":"2026-11-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{{"f:metadata":{{}}}}}}]}},
"spec":{{"containers":[{{"name":"main","image":"busybox:1.36","command":["sh","-c","exit 1"],"resources":{{}}}}],"restartPolicy":"Never","nodeName":"node-{n}"}},
"status":{{"phase":"Failed","startTime":"2026-11-01T00:00:01Z","conditions":[{{"type":"Ready","status":"False","lastTransitionTime":"2026-11-01T00:00:05Z","reason":"PodFailed"}},{{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-11-01T00:00:00Z"}}],
"containerStatuses":[{{"name":"main","image":"busybox:1.36","imageID":"sha256:x","ready":false,"restartCount":0,"started":false,
"state":{{"terminated":{{"exitCode":1,"reason":"Error","startedAt":"2026-11-01T00:00:02Z","finishedAt":"2026-11-01T00:00:04Z","containerID":"containerd://x"}}}},"lastState":{{}}}}]}}}}"#,
        ns = i % 100,
        n = i % 50
    )
}

fn event(i: usize) -> String {
    format!(
        r#"{{"metadata":{{"name":"job-{i}.17a","namespace":"ns-{ns}","uid":"e-{i}","resourceVersion":"{i}","creationTimestamp":"2026-11-01T00:00:00Z"}},
"involvedObject":{{"kind":"Pod","namespace":"ns-{ns}","name":"job-{i}-abcde","uid":"uid-{i}","apiVersion":"v1","fieldPath":"spec.containers{{main}}"}},
"reason":"BackOff","message":"Back-off restarting failed container main in pod job-{i}-abcde","source":{{"component":"kubelet","host":"node-1"}},
"firstTimestamp":"2026-11-01T00:00:00Z","lastTimestamp":"2026-11-01T00:05:00Z","count":7,"type":"Warning","eventTime":null,"reportingComponent":"kubelet","reportingInstance":"node-1"}}"#,
        ns = i % 100
    )
}

fn job(i: usize) -> String {
    format!(
        r#"{{"metadata":{{"name":"job-{i}","namespace":"ns-{ns}","uid":"juid-{i}","resourceVersion":"{i}","creationTimestamp":"2026-11-01T00:00:00Z",
"labels":{{"controller-uid":"juid-{i}","job-name":"job-{i}"}},"annotations":{{"batch.kubernetes.io/cronjob-scheduled-timestamp":"2026-11-01T00:00:00Z"}},
"ownerReferences":[{{"apiVersion":"batch/v1","kind":"CronJob","name":"cj-{i}","uid":"cj-{i}","controller":true}}]}},
"spec":{{"parallelism":1,"completions":1,"backoffLimit":6,"template":{{"spec":{{"containers":[{{"name":"main","image":"busybox"}}],"restartPolicy":"Never"}}}}}},
"status":{{"startTime":"2026-11-01T00:00:01Z","completionTime":"2026-11-01T00:00:09Z","succeeded":1,"conditions":[{{"type":"Complete","status":"True","lastTransitionTime":"2026-11-01T00:00:09Z"}}]}}}}"#,
        ns = i % 100
    )
}

fn cron_job(i: usize) -> String {
    format!(
        r#"{{"apiVersion":"batch/v1","kind":"CronJob","metadata":{{"name":"cj-{i}","namespace":"ns-{ns}","uid":"cj-{i}","resourceVersion":"{i}","creationTimestamp":"2026-11-01T00:00:00Z",
"labels":{{"app":"x","team":"t"}},"annotations":{{"kubectl.kubernetes.io/last-applied-configuration":"{{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"spec\":{{\"schedule\":\"*/5 * * * *\"}}}}","note":"n"}},
"managedFields":[{{"manager":"kubectl","operation":"Update","time":"2026-11-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{{"f:spec":{{"f:suspend":{{}}}}}}}}]}},
"spec":{{"schedule":"*/5 * * * *","timeZone":"Europe/Berlin","concurrencyPolicy":"Forbid","suspend":false,"successfulJobsHistoryLimit":3,"failedJobsHistoryLimit":1,"startingDeadlineSeconds":200,
"jobTemplate":{{"metadata":{{"labels":{{"app":"x"}}}},"spec":{{"backoffLimit":2,"activeDeadlineSeconds":600,"template":{{"metadata":{{"labels":{{"app":"x"}}}},"spec":{{"restartPolicy":"OnFailure",
"containers":[{{"name":"main","image":"busybox:1.36","command":["sh","-c","date"],"env":[{{"name":"A","value":"1"}}],"resources":{{"limits":{{"memory":"64Mi"}}}}}}]}}}}}}}}}},
"status":{{"lastScheduleTime":"2026-11-20T11:55:00Z","lastSuccessfulTime":"2026-11-20T11:55:09Z","active":[{{"kind":"Job","name":"cj-{i}-1","namespace":"ns-{ns}","uid":"j-{i}"}}]}}}}"#,
        ns = i % 100
    )
}

fn page(n: usize, item: fn(usize) -> String) -> Vec<u8> {
    let items: Vec<String> = (0..n).map(item).collect();
    format!(
        r#"{{"kind":"List","apiVersion":"v1","metadata":{{"resourceVersion":"1"}},"items":[{}]}}"#,
        items.join(",")
    )
    .into_bytes()
}

fn time<T: serde::de::DeserializeOwned + wire::Listed>(name: &str, body: &[u8], reps: usize) {
    let mut runs = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        let list: wire::List<T> = serde_json::from_slice(body).unwrap();
        let n = list.items.len();
        std::hint::black_box(&list);
        drop(list);
        runs.push((t.elapsed(), n));
    }
    let n = runs[0].1;
    let mut d: Vec<_> = runs.into_iter().map(|r| r.0).collect();
    d.sort();
    println!(
        "{name:>6}: {n} items, {:.1} MB: min {:.1} ms, median {:.1} ms",
        body.len() as f64 / 1e6,
        d[0].as_secs_f64() * 1e3,
        d[d.len() / 2].as_secs_f64() * 1e3
    );
}

fn main() {
    let mut reps = 10;
    let mut kinds = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|n| n.parse().ok()).expect("--reps N"),
            "cjs" | "pods" | "events" | "jobs" => kinds.push(a),
            _ => panic!("unknown argument {a:?}: [--reps N] [cjs|pods|events|jobs]..."),
        }
    }
    let on = |k: &str| kinds.is_empty() || kinds.iter().any(|x| x == k);
    let pods = if on("pods") {
        page(30_000, pod)
    } else {
        Vec::new()
    };
    let events = if on("events") {
        page(50_000, event)
    } else {
        Vec::new()
    };
    let jobs = if on("jobs") {
        page(50_000, job)
    } else {
        Vec::new()
    };
    let cron_jobs = if on("cjs") {
        page(10_000, cron_job)
    } else {
        Vec::new()
    };
    for _ in 0..2 {
        if on("cjs") {
            time::<wire::CronJob>("cjs", &cron_jobs, reps);
        }
        if on("pods") {
            time::<wire::Pod>("pods", &pods, reps);
        }
        if on("events") {
            time::<wire::Event>("events", &events, reps);
        }
        if on("jobs") {
            time::<wire::Job>("jobs", &jobs, reps);
        }
    }
}
