//! The shipped alert rules speak the documented metrics contract: every `cronjob_doctor_*`
//! series an alert reads is a row of docs/metrics.md, every alert documented there exists, and
//! every alert's runbook is a command to run. (`promtool check rules` / `test rules` in
//! .ci/run prove the rules load and fire as intended.)

use crate::support::{metric_names, read};

#[test]
fn alerts_read_only_documented_metrics_and_name_a_runbook_command() {
    let rules: serde_json::Value =
        serde_saphyr::from_str(&read("deploy/prometheus/cronjob-doctor.rules.yaml")).unwrap();
    let doc = read("docs/metrics.md");
    let alerts: Vec<&serde_json::Value> = rules["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["rules"].as_array().unwrap())
        .collect();
    assert!(
        alerts.len() >= 4,
        "missed runs, error, monitor down, not ready"
    );
    for a in &alerts {
        let name = a["alert"].as_str().unwrap();
        let expr = a["expr"].as_str().unwrap();
        for m in metric_names(expr) {
            assert!(
                doc.contains(&format!("| `{m}` |")),
                "{name}: {m} is not in docs/metrics.md"
            );
        }
        assert!(
            doc.contains(&format!("| `{name}` |")),
            "{name} is not listed in docs/metrics.md"
        );
        let runbook = a["annotations"]["runbook"].as_str().unwrap();
        assert!(runbook.contains("kubectl"), "{name}: runbook {runbook:?}");
        if !name.contains("Monitor") {
            assert_eq!(
                runbook,
                "kubectl cronjob-doctor explain {{ $labels.cronjob }} -n {{ $labels.namespace }}",
                "{name}"
            );
        }
    }
}
