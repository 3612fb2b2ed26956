//! A real Prometheus scrapes `monitor`, loads the shipped alert rules and evaluates them:
//! the fake API server serves a Forbid CronJob blocked by a hung Job (an error with missed
//! runs, at the server's frozen clock), a CronJob whose last run is stuck (its Pod
//! Unschedulable for 30 minutes), one whose last run was retried, and a healthy one; the
//! built binary monitors them, and Debian's `prometheus` scrapes it every second. Through
//! Prometheus's HTTP API: the target is up, every rule group is loaded and evaluates without
//! error, the missed runs are queryable with the monitor's value, and the missed-runs, error
//! and run-not-started alerts are active for the blocked and the stuck CronJobs only (their
//! `for:` makes them pending first; pending is enough).
//!
//! Runs when `prometheus` and `promtool` are on PATH (`.ci/run` installs them); otherwise
//! it prints a skip line and passes. Every wait is a poll with a deadline; both processes
//! are stopped at the end, and killed when an assertion fails.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::cli_live_common::{Live, example, fixture, root};
use crate::monitor_common::{Process, Scratch, free_port, poll, start_monitor};
use serde_json::Value;

/// The scrape job's name: the rules' monitor-down alert reads `up{job="cronjob-doctor"}`.
const SCRAPE_JOB: &str = "cronjob-doctor";
const RULES: &str = "deploy/prometheus/cronjob-doctor.rules.yaml";

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false)
}

/// Prometheus scraping `target` every second as job `cronjob-doctor`, evaluating the
/// shipped rules every second, its TSDB in `dir`; started once `promtool check config`
/// accepts the configuration (and through it the rule file).
fn start_prometheus(dir: &Path, target: &str) -> Process {
    let config = dir.join("prometheus.yml");
    let rules = root().join(RULES);
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n\
             rule_files:\n  - {rules:?}\n\
             scrape_configs:\n  - job_name: {SCRAPE_JOB}\n    static_configs:\n      \
             - targets: [{target:?}]\n",
            rules = rules.display().to_string(),
        ),
    )
    .unwrap();
    let checked = external("promtool")
        .args(["check", "config"])
        .arg(&config)
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "promtool check config: {}{}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
    for attempt in 0..3 {
        let addr = format!("127.0.0.1:{}", free_port());
        let tsdb = dir.join(format!("tsdb-{attempt}"));
        let mut cmd = external("prometheus");
        cmd.arg(format!("--config.file={}", config.display()))
            .arg(format!("--storage.tsdb.path={}", tsdb.display()))
            .arg(format!("--web.listen-address={addr}"))
            .current_dir(dir);
        let mut p = Process::spawn(cmd, dir.join(format!("prometheus-{attempt}.log")), addr);
        let ready = poll("Prometheus is ready", Duration::from_secs(30), || {
            if p.exited() {
                return Ok(false);
            }
            match p.get("/-/ready") {
                Some((200, _)) => Ok(true),
                other => Err(format!("{other:?}")),
            }
        });
        if ready {
            return p;
        }
        assert!(
            p.log().contains("address already in use"),
            "prometheus exited: {}",
            p.log_tail()
        );
    }
    panic!("no free port for Prometheus in 3 attempts");
}

/// A Prometheus tool with the real clock: `.ci/run` runs the suite a second time under
/// libfaketime (LD_PRELOAD), which is for our code, not for Prometheus.
fn external(tool: &str) -> Command {
    let mut c = Command::new(tool);
    c.env_remove("LD_PRELOAD")
        .env_remove("FAKETIME")
        .env_remove("FAKETIME_DONT_FAKE_MONOTONIC");
    c
}

/// `data` of a successful Prometheus API answer.
fn api(p: &Process, path: &str) -> Result<Value, String> {
    let (code, body) = p.get(path).ok_or("no answer")?;
    let v: Value = serde_json::from_str(&body).map_err(|e| format!("{code} {e}: {body}"))?;
    if code != 200 || v["status"] != "success" {
        return Err(format!("{code}: {body}"));
    }
    Ok(v["data"].clone())
}

/// The value of the monitor's own sample `line_start VALUE` on /metrics.
fn sample(metrics: &str, series: &str) -> String {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {series} in:\n{metrics}"))
        .to_string()
}

/// A query string's value, percent-encoded (everything but RFC 3986's unreserved bytes).
fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A timestamp of Prometheus's API (RFC 3339).
fn prometheus_time(v: &Value) -> jiff::Timestamp {
    v.as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("not a timestamp: {v}"))
}

/// The group and alert names of the shipped rule file.
fn shipped_rules() -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(root().join(RULES)).unwrap();
    let v: Value = serde_saphyr::from_str(&text).unwrap();
    let groups = v["groups"].as_array().unwrap();
    let names = groups
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_string())
        .collect();
    let alerts = groups
        .iter()
        .flat_map(|g| g["rules"].as_array().unwrap())
        .map(|r| r["alert"].as_str().unwrap().to_string())
        .collect();
    (names, alerts)
}

#[test]
fn prometheus_scrapes_the_monitor_and_the_shipped_rules_evaluate() {
    if !(on_path("prometheus") && on_path("promtool")) {
        eprintln!(
            "skipping: prometheus and promtool are not on PATH (Debian package `prometheus`)"
        );
        return;
    }
    let scratch = Scratch::new("prometheus");
    // At the server's frozen clock (2026-11-20T12:00:00Z) `backup` last ran on the 17th at
    // 03:00 and its Job hangs: Forbid skipped the 18th, 19th and 20th — three missed runs,
    // an error. `report`'s 11:30 run has not started (run-not-started, an error). `retried`
    // ran twice (a warning) and `invoices` is healthy: no alert may name them.
    let live = Live::files(
        &[
            example("forbid-blocked-by-hung-job.yaml"),
            example("healthy.yaml"),
            fixture("last-runs.yaml"),
        ],
        Some("ops"),
    );
    // Ready before Prometheus starts: no scrape ever sees `cronjob_doctor_ready 0`, so the
    // not-ready alert must stay silent.
    let monitor = start_monitor(&live, &scratch.0);
    let (_, metrics) = monitor.get("/metrics").unwrap();
    let backup_missed = sample(
        &metrics,
        r#"cronjob_doctor_missed_runs{namespace="ops",cronjob="backup",cause="forbid-blocked"}"#,
    );
    assert_eq!(backup_missed, "3", "{metrics}");
    let stuck = r#"cronjob_doctor_finding{namespace="ops",cronjob="report",rule="run-not-started",severity="error"}"#;
    assert_eq!(sample(&metrics, stuck), "1");
    let attempts = r#"cronjob_doctor_last_run_attempts{namespace="ops",cronjob="report"}"#;
    assert_eq!(sample(&metrics, attempts), "0");
    let prometheus = start_prometheus(&scratch.0, &monitor.addr);
    let fail = |why: String| format!("{why}\nprometheus log:\n{}", prometheus.log_tail());

    // The target is up.
    poll("the scrape target is up", Duration::from_secs(20), || {
        let data = api(&prometheus, "/api/v1/targets?state=active")?;
        let targets = data["activeTargets"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let ours = targets
            .iter()
            .find(|t| t["labels"]["job"] == SCRAPE_JOB)
            .ok_or_else(|| fail(format!("no {SCRAPE_JOB} target: {data}")))?;
        if ours["health"] == "up"
            && ours["scrapeUrl"]
                .as_str()
                .unwrap_or("")
                .contains(&monitor.addr)
        {
            Ok(())
        } else {
            Err(fail(format!("{ours}")))
        }
    });

    // The series is queryable, with the monitor's value and the scrape job's label.
    poll(
        "cronjob_doctor_missed_runs is queryable",
        Duration::from_secs(20),
        || {
            let data = api(
                &prometheus,
                "/api/v1/query?query=cronjob_doctor_missed_runs",
            )?;
            let result = data["result"].as_array().cloned().unwrap_or_default();
            let value = |name: &str| {
                result
                    .iter()
                    .find(|s| s["metric"]["cronjob"] == name)
                    .map(|s| (s["metric"].clone(), s["value"][1].clone()))
            };
            match (value("backup"), value("invoices")) {
                (Some((labels, v)), Some((_, healthy)))
                    if v == backup_missed.as_str() && healthy == "0" =>
                {
                    assert_eq!(labels["namespace"], "ops");
                    assert_eq!(labels["job"], SCRAPE_JOB);
                    Ok(())
                }
                other => Err(fail(format!("{other:?} in {data}"))),
            }
        },
    );

    // The alerts: missed runs (for: 1m) and error (for: 5m) are active for `backup`, and
    // run-not-started (for: 1m) and error for `report` — pending this early — and nothing
    // else is: not the retried or the healthy CronJob, not the monitor itself (it is up and
    // ready). Until Prometheus's first scrape lands, `up` is absent,
    // so the monitor-down rule is rightly pending for the evaluations before it; each rule
    // group evaluates on its own, so one read of /api/v1/alerts can hold the backup alerts
    // of a group that evaluated after that scrape next to the monitor-down alert of a group
    // that has not yet. The poll therefore waits for the exact set: an alert that stays
    // active for 20 s after the scrape still fails the test.
    let active = poll("the alerts are active", Duration::from_secs(20), || {
        let data = api(&prometheus, "/api/v1/alerts")?;
        let active = data["alerts"].as_array().cloned().unwrap_or_default();
        let is = |name: &str, cron_job: &str| {
            active.iter().any(|a| {
                a["labels"]["alertname"] == name
                    && a["labels"]["cronjob"] == cron_job
                    && (a["state"] == "pending" || a["state"] == "firing")
            })
        };
        if is("CronJobDoctorMissedRuns", "backup")
            && is("CronJobDoctorCronJobError", "backup")
            && is("CronJobNextRunAtRisk", "backup")
            && is("CronJobDoctorRunNotStarted", "report")
            && is("CronJobDoctorCronJobError", "report")
            && is("CronJobNextRunAtRisk", "report")
            && active.len() == 6
        {
            Ok(active)
        } else {
            Err(fail(format!("{data}")))
        }
    });
    for a in &active {
        let runbook = format!(
            "kubectl cronjob-doctor explain {} -n ops",
            a["labels"]["cronjob"].as_str().unwrap()
        );
        assert_eq!(a["annotations"]["runbook"], runbook.as_str(), "{a}");
    }
    let missed = active
        .iter()
        .find(|a| a["labels"]["alertname"] == "CronJobDoctorMissedRuns")
        .unwrap();
    assert_eq!(
        missed["annotations"]["summary"],
        "CronJob ops/backup missed 3 scheduled run(s): forbid-blocked"
    );
    // Each alert names its cause: the rule that explains the lost runs, the one that leads
    // the headline, the reason the next run is predicted lost.
    let alert = |name: &str, cron_job: &str| {
        active
            .iter()
            .find(|a| a["labels"]["alertname"] == name && a["labels"]["cronjob"] == cron_job)
            .unwrap_or_else(|| panic!("no {name} for {cron_job}"))
    };
    for (name, cron_job, label, cause) in [
        (
            "CronJobDoctorMissedRuns",
            "backup",
            "cause",
            "forbid-blocked",
        ),
        (
            "CronJobDoctorCronJobError",
            "backup",
            "cause",
            "forbid-blocked",
        ),
        (
            "CronJobDoctorCronJobError",
            "report",
            "cause",
            "run-not-started",
        ),
        ("CronJobNextRunAtRisk", "backup", "reason", "forbid-active"),
        (
            "CronJobNextRunAtRisk",
            "report",
            "reason",
            "run-not-started",
        ),
    ] {
        let a = alert(name, cron_job);
        assert_eq!(a["labels"][label], cause, "{a}");
        assert_eq!(a["annotations"]["cause"], cause, "{a}");
    }
    // The stuck run's alert names its cause: the finding's rule.
    let not_started = active
        .iter()
        .find(|a| a["labels"]["alertname"] == "CronJobDoctorRunNotStarted")
        .unwrap();
    assert_eq!(not_started["labels"]["rule"], "run-not-started");
    assert_eq!(not_started["labels"]["severity"], "critical");
    assert_eq!(
        not_started["annotations"]["summary"],
        "CronJob ops/report: its latest run has not started"
    );

    // Every query of the Grafana dashboard returns series for the served examples, with the
    // dashboard's variables as Grafana fills them for "All" (`$namespace` → `.*`).
    let dashboard: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("deploy/grafana/cronjob-doctor.json")).unwrap(),
    )
    .unwrap();
    let panels = dashboard["panels"].as_array().unwrap();
    let mut queried = 0;
    for p in panels {
        for t in p["targets"].as_array().unwrap() {
            let expr = t["expr"]
                .as_str()
                .unwrap()
                .replace("$namespace", ".*")
                .replace("$__rate_interval", "1m");
            let what = format!("panel {:?}: {expr}", p["title"]);
            poll(&what, Duration::from_secs(20), || {
                let data = api(
                    &prometheus,
                    &format!("/api/v1/query?query={}", url_encode(&expr)),
                )?;
                match data["result"].as_array() {
                    Some(r) if !r.is_empty() => Ok(()),
                    _ => Err(fail(format!("no series: {data}"))),
                }
            });
            queried += 1;
        }
    }
    assert!(queried >= 7, "{queried} queries");

    // Every group of the rule file is loaded, and every rule evaluates without an error —
    // judged on an evaluation after the alerts became active (on Prometheus's clock): one
    // before the first scrape sees no series and cannot fail.
    let since = active
        .iter()
        .map(|a| prometheus_time(&a["activeAt"]))
        .max()
        .unwrap();
    let (groups, alerts) = shipped_rules();
    poll("every rule evaluates", Duration::from_secs(10), || {
        let data = api(&prometheus, "/api/v1/rules")?;
        let loaded = data["groups"].as_array().cloned().unwrap_or_default();
        let names: Vec<&str> = loaded.iter().filter_map(|g| g["name"].as_str()).collect();
        if names != groups {
            return Err(fail(format!("groups {names:?}, want {groups:?}")));
        }
        if let Some(g) = loaded
            .iter()
            .find(|g| prometheus_time(&g["lastEvaluation"]) <= since)
        {
            return Err(format!("{} not evaluated since {since}", g["name"]));
        }
        let rules: Vec<&Value> = loaded
            .iter()
            .flat_map(|g| g["rules"].as_array().into_iter().flatten())
            .collect();
        let rule_names: Vec<&str> = rules.iter().filter_map(|r| r["name"].as_str()).collect();
        if rule_names != alerts {
            return Err(fail(format!("rules {rule_names:?}, want {alerts:?}")));
        }
        for r in &rules {
            let error = r["lastError"].as_str().unwrap_or("");
            if r["health"] != "ok" || !error.is_empty() {
                return Err(fail(format!("{}: {} {error:?}", r["name"], r["health"])));
            }
        }
        Ok(())
    });

    assert_eq!(prometheus.terminate(), Some(0));
    assert_eq!(monitor.terminate(), Some(0));
}
