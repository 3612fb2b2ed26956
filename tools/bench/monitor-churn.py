#!/usr/bin/env python3
"""Churn for tools/bench/monitor-at-scale.sh: Jobs created and deleted continuously while the
monitor watches, to show that its memory stays bounded (docs/monitor.md, "Runs remembered").

For each of the first CRONJOBS CronJobs of the scan, runs are made one after another through the
API server, as the controller, the Job controller, the kubelet and the Event recorder would:
a Job `<cronjob>-<minutes>` owned by the CronJob, with its scheduled-time annotation; a Pod of
the Job that failed (exit 1, a message); a Warning Event about the Pod; then the Job's status
Failed. Each run is the heaviest kind the monitor keeps whole (a failed attempt, a warning, a
reason and message). Only the newest KEEP of a CronJob's Jobs stay in the cluster: older ones are
deleted with their Pod and Event, as a history limit and the Event TTL would, so the cluster
stays the same size and only the monitor's records can grow: up to their cap per CronJob.

Every slot is within the last 7 days of the server's clock, so the monitor keeps every run up
to its cap of 64 per CronJob; RUNS per CronJob should exceed that to show the cap holds.

Prints one JSON object: the runs made, requests, seconds, the monitor's VmRSS sampled (KiB)
after each round, and how many runs `/runs` serves for the first churned CronJob.

Usage: monitor-churn.py URL CA TOKEN SCAN_JSON MONITOR_PORT MONITOR_PID NOW
       (CRONJOBS=100 RUNS=80 KEEP=3 in the environment)
"""

import datetime
import http.client
import json
import os
import ssl
import sys
import time
import urllib.parse

URL, CA, TOKEN, SCAN, PORT, PID, NOW = sys.argv[1:8]
CRONJOBS = int(os.environ.get("CRONJOBS", "100"))
RUNS = min(int(os.environ.get("RUNS", "80")), 140)  # slots stay in the past 6 days
KEEP = int(os.environ.get("KEEP", "3"))
MESSAGE = ("container main failed: exit status 1: could not connect to db-primary.ops.svc:5432 "
           "(connection refused) after 5 attempts; giving up, see the application log for details")

u = urllib.parse.urlparse(URL)
ctx = ssl.create_default_context(cafile=CA)
conn = http.client.HTTPSConnection(u.hostname, u.port, context=ctx)
requests = 0


def call(method, path, body=None, content_type="application/json", exists_ok=False):
    global requests
    requests += 1
    headers = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = content_type
    conn.request(method, path, body=data, headers=headers)
    r = conn.getresponse()
    payload = r.read()
    if r.status == 409 and exists_ok:
        return None
    if r.status >= 300 and not (method == "DELETE" and r.status == 404):
        sys.exit(f"{method} {path}: {r.status} {payload[:300]!r}")
    return json.loads(payload) if payload else {}


def rss_kib():
    with open(f"/proc/{PID}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


now = datetime.datetime.strptime(NOW, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
first_slot = now - datetime.timedelta(days=6)
chosen = [(c["namespace"], c["name"]) for c in json.load(open(SCAN))["cronJobs"][:CRONJOBS]]
uids = {}
for ns, name in chosen:
    uids[(ns, name)] = call("GET", f"/apis/batch/v1/namespaces/{ns}/cronjobs/{name}")["metadata"]["uid"]

kept = {k: [] for k in chosen}
samples = []
t0 = time.time()
for i in range(RUNS):
    # Slots an hour apart from 6 days back (80 rounds: 3.3 days), all inside the 7 days kept.
    # A generated Job may hold a slot's name already: the run takes the next minute then.
    for ns, cj in chosen:
        created = None
        for extra in range(30):
            slot = first_slot + datetime.timedelta(minutes=60 * i + 7 + extra)
            job = f"{cj}-{int(slot.timestamp()) // 60}"
            owner = [{"apiVersion": "batch/v1", "kind": "CronJob", "name": cj,
                      "uid": uids[(ns, cj)], "controller": True, "blockOwnerDeletion": True}]
            created = call("POST", f"/apis/batch/v1/namespaces/{ns}/jobs", {
                "apiVersion": "batch/v1", "kind": "Job",
                "metadata": {"name": job, "namespace": ns, "ownerReferences": owner,
                             "annotations": {"batch.kubernetes.io/cronjob-scheduled-timestamp": stamp(slot)}},
                "spec": {"backoffLimit": 0, "template": {"spec": {"restartPolicy": "Never",
                         "containers": [{"name": "main", "image": "registry.example/etl:1"}]}}},
            }, exists_ok=True)
            if created:
                break
        if not created:
            sys.exit(f"no free slot for {ns}/{cj} in round {i}")
        juid = created["metadata"]["uid"]
        pod = f"{job}-x7k2p"
        labels = {"batch.kubernetes.io/controller-uid": juid, "batch.kubernetes.io/job-name": job,
                  "controller-uid": juid, "job-name": job}
        call("POST", f"/api/v1/namespaces/{ns}/pods", {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": pod, "namespace": ns, "labels": labels,
                         "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": job,
                                              "uid": juid, "controller": True, "blockOwnerDeletion": True}]},
            "spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "registry.example/etl:1"}]},
        })
        started, ended = slot + datetime.timedelta(seconds=4), slot + datetime.timedelta(seconds=40)
        call("PATCH", f"/api/v1/namespaces/{ns}/pods/{pod}/status", {"status": {
            "phase": "Failed", "startTime": stamp(slot + datetime.timedelta(seconds=1)),
            "containerStatuses": [{"name": "main", "ready": False, "restartCount": 0, "image": "registry.example/etl:1",
                                   "imageID": "", "state": {"terminated": {
                                       "exitCode": 1, "reason": "Error", "message": MESSAGE,
                                       "startedAt": stamp(started), "finishedAt": stamp(ended)}}}]}},
            "application/merge-patch+json")
        call("POST", f"/api/v1/namespaces/{ns}/events", {
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": f"{pod}.churn", "namespace": ns},
            "involvedObject": {"kind": "Pod", "name": pod, "namespace": ns, "apiVersion": "v1"},
            "reason": "BackOff", "message": f"Back-off restarting failed container main in pod {pod}: {MESSAGE}",
            "type": "Warning", "count": 3, "firstTimestamp": stamp(started), "lastTimestamp": stamp(ended),
            "source": {"component": "kubelet"},
        })
        cond = {"status": "True", "reason": "BackoffLimitExceeded",
                "message": "Job has reached the specified backoff limit", "lastTransitionTime": stamp(ended)}
        call("PATCH", f"/apis/batch/v1/namespaces/{ns}/jobs/{job}/status", {"status": {
            "startTime": stamp(slot + datetime.timedelta(seconds=1)), "failed": 1, "active": 0,
            "conditions": [dict(cond, type="FailureTarget"), dict(cond, type="Failed")]}},
            "application/merge-patch+json")
        kept[(ns, cj)].append((job, pod))
        while len(kept[(ns, cj)]) > KEEP:
            old_job, old_pod = kept[(ns, cj)].pop(0)
            call("DELETE", f"/api/v1/namespaces/{ns}/events/{old_pod}.churn")
            call("DELETE", f"/api/v1/namespaces/{ns}/pods/{old_pod}")
            call("DELETE", f"/apis/batch/v1/namespaces/{ns}/jobs/{old_job}")
    samples.append(rss_kib())
seconds = time.time() - t0

# Let the monitor take in the last changes, then ask it what it keeps of the first CronJob.
time.sleep(5)
samples.append(rss_kib())
ns, cj = chosen[0]
mon = http.client.HTTPConnection("127.0.0.1", int(PORT))
mon.request("GET", f"/runs?namespace={urllib.parse.quote(ns)}&name={urllib.parse.quote(cj)}")
runs = json.loads(mon.getresponse().read())
listed = runs.get("runs", [])
print(json.dumps({
    "cronjobs": len(chosen), "runs_made": RUNS * len(chosen), "requests": requests,
    "seconds": round(seconds, 1), "rss_kib": samples,
    "first": f"{ns}/{cj}", "first_runs_kept": len(listed),
    "first_retained": sum(1 for r in listed if r.get("retained")),
}))
