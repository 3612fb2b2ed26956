//! The exposition: the contract's names and labels, series gone with their CronJob, and a
//! format `promtool check metrics` accepts.

use doctor::report::Health;
use jiff::Timestamp;

use super::*;

fn summary(health: Health, findings: Vec<(&'static str, &'static str)>) -> Summary {
    Summary {
        health,
        headline: String::new(),
        cause: if health == Health::Ok {
            "none"
        } else {
            "forbid-blocked"
        },
        missed_cause: "forbid-blocked",
        at_risk: if health == Health::Ok {
            Vec::new()
        } else {
            vec!["forbid-active", "run-not-started"]
        },
        findings,
        next_run: Some("2026-11-20T12:05:00Z".parse::<Timestamp>().unwrap()),
        last_schedule: Some("2026-11-20T11:40:00Z".parse::<Timestamp>().unwrap()),
        last_success: None,
        missed_runs: 3,
        last_run_start_delay: None,
        last_run_attempts: None,
        recheck_at: None,
    }
}

/// A summary whose last run started `delay` seconds late after `attempts` starts.
fn with_last_run(delay: Option<i64>, attempts: Option<u32>) -> Summary {
    Summary {
        last_run_start_delay: delay,
        last_run_attempts: attempts,
        ..summary(Health::Ok, Vec::new())
    }
}

/// The shared replayed release, as the monitor holds it.
fn kube(v: &str) -> Arc<RwLock<doctor::replay::KubeVersion>> {
    Arc::new(RwLock::new(v.parse().unwrap()))
}

fn metrics() -> (Summaries, Metrics) {
    let all: Summaries = Default::default();
    let m = Metrics::new(all.clone(), "1.2.3", "2025b", kube("1.39"));
    {
        let mut w = all.write().unwrap();
        w.insert(
            ("ops".into(), "backup".into()),
            summary(
                Health::Error,
                vec![("not-running", "error"), ("not-running", "error")],
            ),
        );
        w.insert(
            ("web".into(), "report".into()),
            summary(Health::Ok, Vec::new()),
        );
        w.insert(
            ("web".into(), "retried".into()),
            with_last_run(Some(95), Some(3)),
        );
    }
    m.evaluations.inc();
    m.evaluation_seconds.observe(0.002);
    m.watch_restarts
        .get_or_create(&[("resource", "jobs")])
        .inc();
    (all, m)
}

#[test]
fn series_follow_the_contract() {
    let (all, m) = metrics();
    let text = m.render();
    for line in [
        r#"cronjob_doctor_cronjob_status{namespace="ops",cronjob="backup",status="error",cause="forbid-blocked"} 1"#,
        r#"cronjob_doctor_cronjob_status{namespace="web",cronjob="report",status="ok",cause="none"} 1"#,
        r#"cronjob_doctor_finding{namespace="ops",cronjob="backup",rule="not-running",severity="error"} 1"#,
        r#"cronjob_doctor_missed_runs{namespace="ops",cronjob="backup",cause="forbid-blocked"} 3"#,
        r#"cronjob_doctor_next_run_at_risk{namespace="ops",cronjob="backup",reason="forbid-active"} 1"#,
        r#"cronjob_doctor_next_run_at_risk{namespace="ops",cronjob="backup",reason="run-not-started"} 1"#,
        "# TYPE cronjob_doctor_next_run_at_risk gauge",
        r#"cronjob_doctor_next_run_timestamp_seconds{namespace="ops",cronjob="backup"} 1795176300"#,
        r#"cronjob_doctor_last_schedule_timestamp_seconds{namespace="ops",cronjob="backup"} 1795174800"#,
        r#"cronjob_doctor_build_info{version="1.2.3",tzdb="2025b",kube_version="1.39",rules="1.37"} 1"#,
        r#"cronjob_doctor_watch_restarts_total{resource="jobs"} 1"#,
        "cronjob_doctor_evaluations_total 1",
        "cronjob_doctor_evaluation_duration_seconds_count 1",
        "cronjob_doctor_ready 0",
        "# TYPE cronjob_doctor_cronjob_status gauge",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    // Only a CronJob with a prediction has the at-risk series.
    assert!(!text.contains(r#"cronjob_doctor_next_run_at_risk{namespace="web""#));
    // One series per (CronJob, rule, severity), however often the rule reported.
    assert_eq!(text.matches("cronjob_doctor_finding{").count(), 1);
    // No success known: no series (not a zero that would read as 1970).
    assert!(!text.contains("cronjob_doctor_last_success_timestamp_seconds{"));
    // A deleted CronJob takes its series with it.
    all.write()
        .unwrap()
        .remove(&("ops".into(), "backup".into()));
    let text = m.render();
    assert!(!text.contains(r#"cronjob="backup""#), "{text}");
    assert!(text.contains(r#"cronjob="report""#));
}

#[test]
fn promtool_accepts_the_exposition() {
    let promtool = std::path::Path::new("/usr/bin/promtool");
    if !promtool.exists() {
        eprintln!("promtool not installed: skipped (CI installs it)");
        return;
    }
    let (_, m) = metrics();
    let mut child = std::process::Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(m.render().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "promtool: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_last_runs_numbers_are_series_only_while_known() {
    let (all, m) = metrics();
    let delay = "cronjob_doctor_last_run_start_delay_seconds";
    let attempts = "cronjob_doctor_last_run_attempts";
    let text = m.render();
    for line in [
        format!(r#"{delay}{{namespace="web",cronjob="retried"}} 95"#),
        format!(r#"{attempts}{{namespace="web",cronjob="retried"}} 3"#),
        format!("# TYPE {delay} gauge"),
        format!("# HELP {delay} {LAST_RUN_START_DELAY_HELP}"),
        format!("# TYPE {attempts} gauge"),
        format!("# HELP {attempts} {LAST_RUN_ATTEMPTS_HELP}"),
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    // Unknown (no run, or its evidence gone): no sample, not a 0.
    assert!(
        !text.contains(&format!(r#"{delay}{{namespace="ops""#)),
        "{text}"
    );
    assert!(
        !text.contains(&format!(r#"{attempts}{{namespace="ops""#)),
        "{text}"
    );

    // A stuck run: it has not started, so its delay is unknown and its attempts are 0.
    all.write().unwrap().insert(
        ("web".into(), "retried".into()),
        with_last_run(None, Some(0)),
    );
    let text = m.render();
    assert!(!text.contains(&format!("{delay}{{")), "{text}");
    assert!(
        text.lines()
            .any(|l| l == format!(r#"{attempts}{{namespace="web",cronjob="retried"}} 0"#)),
        "{text}"
    );

    // Gone with its CronJob; with no sample left, the families are left out whole.
    all.write()
        .unwrap()
        .remove(&("web".into(), "retried".into()));
    let text = m.render();
    assert!(!text.contains(delay), "{text}");
    assert!(!text.contains(attempts), "{text}");
}

#[test]
fn every_family_written_is_a_row_of_the_contract_with_its_type() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/metrics.md")).unwrap();
    let (_, m) = metrics();
    let text = m.render();
    let families: Vec<(&str, &str)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE ")?.split_once(' '))
        .collect();
    assert!(families.len() >= 12, "{text}");
    for (name, kind) in families {
        let row = format!("| `{name}` | {kind} |");
        assert!(doc.contains(&row), "docs/metrics.md has no row {row}");
    }
    // The last run's and the prediction's HELP texts are their rows' words.
    for help in [
        LAST_RUN_START_DELAY_HELP,
        LAST_RUN_ATTEMPTS_HELP,
        NEXT_RUN_AT_RISK_HELP,
    ] {
        assert!(
            doc.contains(&format!(" | {help} ")),
            "not in docs/metrics.md: {help}"
        );
    }
}

/// A namespace or name with a control byte (BEL) or a Unicode line separator, as a hostile
/// server can send: the label value shows them escaped as text output does, never raw.
#[test]
fn label_values_show_control_bytes_and_line_separators_escaped() {
    let all: Summaries = Default::default();
    let m = Metrics::new(all.clone(), "1.2.3", "2025b", kube("1.39"));
    all.write().unwrap().insert(
        ("ops\u{7}".into(), "back\u{2028}up\u{1b}[31m".into()),
        summary(Health::Error, vec![("not-running", "error")]),
    );
    let text = m.render();
    assert!(
        !text.contains(['\u{7}', '\u{2028}', '\u{1b}']),
        "raw bytes in {text:?}"
    );
    assert!(
        text.contains(
            r#"cronjob_doctor_cronjob_status{namespace="ops\\a",cronjob="back\\u{2028}up\\e[31m",status="error",cause="forbid-blocked"} 1"#
        ),
        "{text}"
    );
}
