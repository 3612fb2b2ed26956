//! Commands printed for the user to paste (the fix plan's, each finding's, the ones inside
//! remediation texts) are built from names read from untrusted input: a POSIX shell must read
//! every name and namespace back as one inert word. Checked by handing the printed lines to
//! `sh` itself (`set -- <line>`), which expands but runs nothing, and a marker file shows that
//! an injected command did not run.

#![cfg(unix)]

use assert_cmd::Command;

use crate::support::scratch;

const NOW: &str = "2026-11-20T12:00:00Z";
const NAMESPACE: &str = "ns $(id)";
const JOB: &str = "j'ob `id`";
const POD: &str = "p\"od $HOME";

/// A CronJob blocked by a hung Job (Forbid), and a suspended one, all with hostile names.
fn manifest(name: &str, suspended_name: &str) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap(); // a JSON string is a YAML string
    let (name, ns, job, pod, sus) = (q(name), q(NAMESPACE), q(JOB), q(POD), q(suspended_name));
    format!(
        r#"apiVersion: batch/v1
kind: CronJob
metadata: {{name: {name}, namespace: {ns}, uid: cj-1, creationTimestamp: "2026-11-01T00:00:00Z"}}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{{name: backup, image: registry.example/backup:2.0}}]
status:
  lastScheduleTime: "2026-11-17T03:00:00Z"
  active: [{{name: {job}, namespace: {ns}, uid: job-1}}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: {job}
  namespace: {ns}
  uid: job-1
  creationTimestamp: "2026-11-17T03:00:00Z"
  ownerReferences: [{{apiVersion: batch/v1, kind: CronJob, name: {name}, uid: cj-1, controller: true}}]
spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: backup, image: registry.example/backup:2.0}}]}}}}}}
status: {{startTime: "2026-11-17T03:00:05Z", active: 1}}
---
apiVersion: v1
kind: Pod
metadata:
  name: {pod}
  namespace: {ns}
  labels: {{job-name: {job}}}
status:
  phase: Pending
  startTime: "2026-11-17T03:00:06Z"
  containerStatuses:
  - name: backup
    image: registry.example/backup:2.0
    ready: false
    restartCount: 0
    state: {{waiting: {{reason: ImagePullBackOff}}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {{name: {sus}, namespace: {ns}, uid: cj-2, creationTimestamp: "2026-11-01T00:00:00Z"}}
spec:
  schedule: "0 3 * * *"
  suspend: true
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{{name: backup, image: registry.example/backup:2.0}}]
status:
  lastScheduleTime: "2026-11-17T03:00:00Z"
"#
    )
}

/// The words `sh` makes of `line` (expansions done, nothing run).
fn shell_words(line: &str) -> Vec<String> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "set -- {line}\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done"
        ))
        .output()
        .expect("sh runs");
    assert!(out.status.success(), "sh failed on {line:?}: {out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .split_terminator('\0')
        .map(str::to_string)
        .collect()
}

/// The word after `flag` in `words`.
fn after<'w>(words: &'w [String], flag: &str) -> Option<&'w str> {
    let i = words.iter().position(|w| w == flag)?;
    words.get(i + 1).map(String::as_str)
}

#[test]
fn hostile_names_stay_single_words_in_every_printed_command() {
    let dir = scratch("pasteable");
    let marker = dir.join("pwned");
    let name = format!("a b;touch {} #", marker.display());
    let suspended = format!("s;touch {}", marker.display());
    let file = dir.join("hostile.yaml");
    std::fs::write(&file, manifest(&name, &suspended)).unwrap();

    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(["explain", "-f", file.to_str().unwrap(), "--now", NOW])
        .args(["-o", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let cron_jobs = report["cronJobs"].as_array().unwrap();
    assert_eq!(cron_jobs.len(), 2, "{report:#}");

    let mut lines: Vec<(String, String)> = Vec::new(); // (CronJob name, command line)
    for cj in cron_jobs {
        let cj_name = cj["name"].as_str().unwrap().to_string();
        for c in cj["fix"]["commands"].as_array().into_iter().flatten() {
            lines.push((cj_name.clone(), c["command"].as_str().unwrap().to_string()));
        }
        for f in cj["findings"].as_array().unwrap() {
            for l in f["command"].as_str().into_iter().flat_map(str::lines) {
                lines.push((cj_name.clone(), l.to_string()));
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for (cj_name, line) in &lines {
        let words = shell_words(line);
        assert_eq!(words[0], "kubectl", "{line}");
        assert_eq!(after(&words, "-n"), Some(NAMESPACE), "{line}");
        let object = &words[1..3];
        let target = words.get(3).map(String::as_str);
        match (object[0].as_str(), object[1].as_str()) {
            ("patch", "cronjob") => {
                assert_eq!(target, Some(cj_name.as_str()), "{line}");
                let json: serde_json::Value =
                    serde_json::from_str(after(&words, "-p").unwrap()).unwrap();
                assert!(json.is_object(), "{line}");
            }
            ("delete", "job") => assert_eq!(target, Some(JOB), "{line}"),
            ("describe", "pod") => assert_eq!(target, Some(POD), "{line}"),
            other => panic!("unexpected command {other:?}: {line}"),
        }
        seen.insert(format!("{} {}", object[0], object[1]));
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["delete job", "describe pod", "patch cronjob"],
        "{lines:#?}"
    );

    // The unsuspend preview inside the suspended CronJob's remediation, between backticks.
    let sus = cron_jobs
        .iter()
        .find(|c| c["name"] == suspended.as_str())
        .unwrap();
    let remediation = sus["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["slug"] == "suspended")
        .unwrap()["remediation"]
        .as_str()
        .unwrap();
    let preview = remediation
        .split('`')
        .find(|s| s.starts_with("kubectl cronjob-doctor unsuspend"))
        .unwrap_or_else(|| panic!("{remediation}"));
    assert_eq!(
        shell_words(preview),
        [
            "kubectl",
            "cronjob-doctor",
            "unsuspend",
            suspended.as_str(),
            "-n",
            NAMESPACE
        ]
    );
    assert!(!marker.exists(), "a printed command ran an injected one");
    std::fs::remove_dir_all(&dir).unwrap();
}
