//! The Grafana dashboard in deploy/grafana/ is well formed and reads only the documented
//! metrics; its ConfigMap (for Grafana's dashboard sidecar) carries the very same JSON. No
//! maintained schema for dashboard JSON is in the dependency tree, so the structure Grafana
//! needs is checked here: uid, title, schemaVersion, a Prometheus datasource variable that
//! every panel and target uses, panels with unique ids and a gridPos inside the 24-column
//! grid that overlaps no other, targets with a refId and an expr. That the queries return
//! data for the served examples is tests/prometheus_scrape.rs's job (a real Prometheus).

use crate::support::{metric_names, read};

use serde_json::Value;

const DASHBOARD: &str = "deploy/grafana/cronjob-doctor.json";

fn dashboard() -> Value {
    serde_json::from_str(&read(DASHBOARD)).unwrap()
}

#[test]
fn the_dashboard_has_the_structure_grafana_needs() {
    let d = dashboard();
    assert_eq!(d["uid"], "cronjob-doctor");
    assert!(
        d["uid"].as_str().unwrap().len() <= 40,
        "Grafana's uid limit"
    );
    assert!(!d["title"].as_str().unwrap().is_empty());
    let schema = d["schemaVersion"].as_u64().unwrap();
    assert!((36..=41).contains(&schema), "schemaVersion {schema}");
    // The datasource is a variable, so the dashboard imports into any Grafana.
    let vars = d["templating"]["list"].as_array().unwrap();
    let ds = vars
        .iter()
        .find(|v| v["type"] == "datasource")
        .expect("a datasource variable");
    assert_eq!(ds["query"], "prometheus");
    let ds_ref = format!("${{{}}}", ds["name"].as_str().unwrap());
    let ns = vars.iter().find(|v| v["name"] == "namespace").unwrap();
    assert_eq!(ns["datasource"]["uid"], ds_ref.as_str());
    assert_eq!(ns["allValue"], ".*", "the queries match it with =~");

    let panels = d["panels"].as_array().unwrap();
    assert!(panels.len() >= 7, "{} panels", panels.len());
    let mut ids = std::collections::HashSet::new();
    let mut boxes: Vec<(u64, u64, u64, u64, String)> = Vec::new();
    let known = ["stat", "table", "timeseries", "bargauge", "gauge", "text"];
    for p in panels {
        let title = p["title"].as_str().unwrap().to_string();
        assert!(!title.is_empty());
        assert!(ids.insert(p["id"].as_u64().unwrap()), "{title}: id reused");
        assert!(
            known.contains(&p["type"].as_str().unwrap()),
            "{title}: {}",
            p["type"]
        );
        let g = &p["gridPos"];
        let (h, w, x, y) = (
            g["h"].as_u64().unwrap(),
            g["w"].as_u64().unwrap(),
            g["x"].as_u64().unwrap(),
            g["y"].as_u64().unwrap(),
        );
        assert!(h > 0 && w > 0 && x + w <= 24, "{title}: gridPos {g}");
        for (bh, bw, bx, by, other) in &boxes {
            let apart = x + w <= *bx || bx + bw <= x || y + h <= *by || by + bh <= y;
            assert!(apart, "{title} overlaps {other}");
        }
        boxes.push((h, w, x, y, title.clone()));
        assert_eq!(p["datasource"]["type"], "prometheus", "{title}");
        assert_eq!(p["datasource"]["uid"], ds_ref.as_str(), "{title}");
        let targets = p["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "{title}");
        let mut refs = std::collections::HashSet::new();
        for t in targets {
            assert!(refs.insert(t["refId"].as_str().unwrap()), "{title}");
            assert_eq!(t["datasource"]["uid"], ds_ref.as_str(), "{title}");
            let expr = t["expr"].as_str().unwrap();
            assert!(!expr.trim().is_empty(), "{title}");
        }
    }
}

#[test]
fn every_query_reads_documented_metrics_and_the_panels_asked_for_are_there() {
    let d = dashboard();
    let doc = read("docs/metrics.md");
    let mut read_metrics = std::collections::BTreeSet::new();
    for e in exprs(&d) {
        for m in metric_names(&e) {
            // Histograms and counters are documented by their family name.
            let family = ["_bucket", "_total"]
                .iter()
                .find_map(|s| m.strip_suffix(s))
                .unwrap_or(&m);
            let row = |n: &str| doc.contains(&format!("| `{n}` |"));
            assert!(row(&m) || row(family), "{m} is not in docs/metrics.md");
            read_metrics.insert(family.to_string());
        }
    }
    for m in [
        "cronjob_doctor_cronjob_status",
        "cronjob_doctor_missed_runs",
        "cronjob_doctor_next_run_at_risk",
        "cronjob_doctor_last_run_start_delay_seconds",
        "cronjob_doctor_last_run_attempts",
        "cronjob_doctor_ready",
    ] {
        assert!(read_metrics.contains(m), "no panel reads {m}");
    }
    // The error panel shows the cause; the at-risk one the reason.
    let all = exprs(&d).join("\n");
    assert!(all.contains(r#"cronjob_doctor_cronjob_status{status="error""#));
    assert!(all.contains("(namespace, cronjob, cause)"));
    assert!(all.contains("(namespace, cronjob, reason)"));
}

/// Every target's expr, in panel order.
pub fn exprs(d: &Value) -> Vec<String> {
    d["panels"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["targets"].as_array().unwrap())
        .map(|t| t["expr"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_config_map_carries_the_same_dashboard_for_the_grafana_sidecar() {
    let cm: Value = serde_saphyr::from_str(&read("deploy/grafana/configmap.yaml")).unwrap();
    assert_eq!(cm["kind"], "ConfigMap");
    assert_eq!(cm["metadata"]["labels"]["grafana_dashboard"], "1");
    let data = cm["data"].as_object().unwrap();
    assert_eq!(data.len(), 1, "one dashboard");
    let (key, text) = data.iter().next().unwrap();
    assert!(key.ends_with(".json"), "{key}");
    assert_eq!(
        text.as_str().unwrap(),
        read(DASHBOARD),
        "deploy/grafana/configmap.yaml is stale: run deploy/grafana/sync-configmap.sh"
    );
}
