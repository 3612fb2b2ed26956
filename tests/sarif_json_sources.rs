//! SARIF `fixes` are edits of block YAML: a CronJob read from JSON (`kubectl get -o json`) gets
//! none (an inserted `timeZone: …` line would break the file), while the same CronJob in YAML
//! still gets its fix.

use assert_cmd::Command;

use crate::support::scratch;

const NOW: &str = "2026-11-20T12:00:00Z";

/// A CronJob dumped from a cluster (it exists, so the patch is offered) with a CRON_TZ prefix.
const JSON: &str = r#"{
  "apiVersion": "batch/v1",
  "kind": "CronJob",
  "metadata": {
    "name": "nightly-export",
    "namespace": "data",
    "uid": "u-1",
    "creationTimestamp": "2026-01-01T00:00:00Z"
  },
  "spec": {
    "schedule": "CRON_TZ=America/New_York 0 5 * * *",
    "jobTemplate": {
      "spec": {
        "activeDeadlineSeconds": 3600,
        "template": {
          "spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "export", "image": "registry.example/export:2"}]
          }
        }
      }
    }
  }
}
"#;

const YAML: &str = r#"apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly-export
  namespace: data
  uid: u-1
  creationTimestamp: "2026-01-01T00:00:00Z"
spec:
  schedule: "CRON_TZ=America/New_York 0 5 * * *"
  jobTemplate:
    spec:
      activeDeadlineSeconds: 3600
      template:
        spec:
          restartPolicy: Never
          containers: [{name: export, image: registry.example/export:2}]
"#;

/// `lint -o sarif` of `text` written to `file_name`: the results.
fn sarif_results(file_name: &str, text: &str) -> Vec<serde_json::Value> {
    let dir = scratch("sarif-json");
    let file = dir.join(file_name);
    std::fs::write(&file, text).unwrap();
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .args(["lint", "-f", file.to_str().unwrap(), "--now", NOW])
        .args(["-o", "sarif"])
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    let _ = std::fs::remove_dir(&dir);
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let results = sarif["runs"][0]["results"].as_array().unwrap().clone();
    assert!(
        results
            .iter()
            .any(|r| r["properties"]["slug"] == "tz-in-schedule"),
        "{sarif:#}"
    );
    results
}

#[test]
fn json_sources_get_no_sarif_fixes() {
    for name in ["export.json", "export.txt"] {
        let results = sarif_results(name, JSON);
        let with_fixes: Vec<_> = results
            .iter()
            .filter(|r| r.get("fixes").is_some())
            .collect();
        assert!(with_fixes.is_empty(), "{name}: {with_fixes:#?}");
    }
}

#[test]
fn the_yaml_equivalent_still_gets_its_fix() {
    let results = sarif_results("export.yaml", YAML);
    let tz = results
        .iter()
        .find(|r| r["properties"]["slug"] == "tz-in-schedule")
        .unwrap();
    let replacements = &tz["fixes"][0]["artifactChanges"][0]["replacements"];
    let texts: Vec<&str> = replacements
        .as_array()
        .unwrap_or_else(|| panic!("{tz:#}"))
        .iter()
        .map(|r| r["insertedContent"]["text"].as_str().unwrap())
        .collect();
    assert!(texts.contains(&"\"0 5 * * *\""), "{texts:?}");
    assert!(
        texts.contains(&"  timeZone: \"America/New_York\"\n"),
        "{texts:?}"
    );
}
