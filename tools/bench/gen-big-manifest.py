#!/usr/bin/env python3
"""Write a multi-document YAML stream of N CronJobs (about 530 bytes each, the shape of a
`kubectl get cronjobs -A -o yaml` split into documents): varied names, namespaces, schedules,
zones and policies, so every rule and the replay have work to do.

Usage: gen-big-manifest.py OUT COUNT
"""
import sys

SCHEDULES = ["0 3 * * *", "*/5 * * * *", "30 2 * * 1-5", "0 */6 * * *", "15 4 1 * *", "@hourly"]
ZONES = ["", "Europe/Berlin", "America/New_York", "UTC"]
POLICIES = ["Allow", "Forbid", "Replace"]


def doc(i):
    zone = ZONES[i % len(ZONES)]
    tz = f"\n  timeZone: {zone}" if zone else ""
    return f"""---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: job-{i:07d}
  namespace: team-{i % 97:02d}
  labels: {{app: job-{i % 1000}, tier: batch}}
  annotations: {{owner: team-{i % 97:02d}@example.com}}
spec:
  schedule: "{SCHEDULES[i % len(SCHEDULES)]}"{tz}
  concurrencyPolicy: {POLICIES[i % len(POLICIES)]}
  startingDeadlineSeconds: {100 + i % 500}
  successfulJobsHistoryLimit: 3
  failedJobsHistoryLimit: 1
  jobTemplate:
    spec:
      backoffLimit: {i % 7}
      activeDeadlineSeconds: 3600
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: main
            image: registry.example.com/team/job:{i % 50}
            args: ["--run", "{i}"]
"""


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    with open(out, "w") as f:
        for i in range(count):
            f.write(doc(i))


if __name__ == "__main__":
    main()
