//! The exposition: the contract's names and labels, series gone with their CronJob, and a
//! format `promtool check metrics` accepts.

use doctor::report::Health;
use jiff::Timestamp;

use super::*;

fn summary(health: Health, findings: Vec<(&'static str, &'static str)>) -> Summary {
    Summary {
        health,
        headline: String::new(),
        findings,
        next_run: Some("2026-11-20T12:05:00Z".parse::<Timestamp>().unwrap()),
        last_schedule: Some("2026-11-20T11:40:00Z".parse::<Timestamp>().unwrap()),
        last_success: None,
        missed_runs: 3,
        recheck_at: None,
    }
}

fn metrics() -> (Summaries, Metrics) {
    let all: Summaries = Default::default();
    let m = Metrics::new(all.clone(), "1.2.3", "2025b");
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
        r#"cronjob_doctor_cronjob_status{namespace="ops",cronjob="backup",status="error"} 1"#,
        r#"cronjob_doctor_cronjob_status{namespace="web",cronjob="report",status="ok"} 1"#,
        r#"cronjob_doctor_finding{namespace="ops",cronjob="backup",rule="not-running",severity="error"} 1"#,
        r#"cronjob_doctor_missed_runs{namespace="ops",cronjob="backup"} 3"#,
        r#"cronjob_doctor_next_run_timestamp_seconds{namespace="ops",cronjob="backup"} 1795176300"#,
        r#"cronjob_doctor_last_schedule_timestamp_seconds{namespace="ops",cronjob="backup"} 1795174800"#,
        r#"cronjob_doctor_build_info{version="1.2.3",tzdb="2025b"} 1"#,
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
