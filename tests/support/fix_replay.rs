//! Replays a fix plan as a user would paste it: runs `explain -o json`, takes each CronJob's
//! `fix.patch`, applies it (RFC 7386) to the CronJob read from the same file, replays at the
//! same instant with the same release, and checks that every slug in `clears` is gone and no
//! warning or error appeared that was not there before (slots already lost, reported once the
//! finding that hid them is fixed, must be listed under `remaining`). Shared by
//! `tests/fix_plans.rs` (the examples) and `tests/scenarios.rs` (every scenario).

use std::collections::BTreeSet;

use assert_cmd::Command;
use doctor::replay::KubeVersion;
use doctor::report::{self, Options, fix::REVEALED_NOT_INTRODUCED, merge_patch};
use jiff::tz::TimeZone;
use serde_json::Value;

fn actionable(findings: &Value) -> BTreeSet<String> {
    findings
        .as_array()
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .filter(|f| f["severity"] == "warning" || f["severity"] == "error")
        .filter_map(|f| f["slug"].as_str().map(str::to_string))
        .collect()
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect()
}

/// Check every CronJob of `file` (relative to the crate root). Returns how many plans had a
/// patch, so callers can assert the check was not vacuous.
pub fn verify(file: &str, now: &str, kube_version: Option<&str>) -> usize {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut cmd = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
    cmd.current_dir(root).env("NO_COLOR", "1");
    cmd.args(["explain", "-f", file, "--now", now, "-o", "json"]);
    if let Some(v) = kube_version {
        cmd.args(["--kube-version", v]);
    }
    let out = cmd.output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{file}: {e}"));
    // `file` is relative to the repository, or absolute (the corpus lives outside it).
    let bytes = std::fs::read(std::path::Path::new(root).join(file)).unwrap();
    let (snapshot, _) = doctor::source::parse_bytes(file, &bytes).into_snapshot();
    let version: KubeVersion = kube_version
        .map(|v| v.parse().unwrap())
        .unwrap_or(KubeVersion::NEWEST);
    let opts = Options {
        now: now.parse().unwrap(),
        controller_zone_name: "UTC",
        controller_zone: &TimeZone::UTC,
        version,
        timeline: 8,
        severities: doctor::config::NO_OVERRIDES,
    };
    let mut patched_plans = 0;
    for entry in json["cronJobs"].as_array().unwrap() {
        let name = entry["name"].as_str().unwrap();
        let fix = &entry["fix"];
        assert!(fix.is_object(), "{file} {name}: no fix plan");
        let before = actionable(&entry["findings"]);
        let clears = strings(&fix["clears"]);
        let remaining = strings(&fix["remaining"]);
        // The plan is one patch at most, and its kubectl command carries exactly that patch.
        let patch_cmds: Vec<&str> = fix["commands"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["command"].as_str())
            .filter(|c| c.starts_with("kubectl patch cronjob") && !c.contains("--subresource"))
            .collect();
        match fix["patch"].as_object() {
            None => assert!(patch_cmds.is_empty(), "{file} {name}: {patch_cmds:?}"),
            Some(_) => {
                // A manifest the API server refuses exists in no cluster: its patch is an edit
                // of the file, said as a comment; otherwise exactly one `kubectl patch`.
                let edits: Vec<&str> = fix["commands"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|c| c["command"].as_str())
                    .filter(|c| c.starts_with("# edit "))
                    .collect();
                if edits.is_empty() {
                    assert_eq!(patch_cmds.len(), 1, "{file} {name}: {patch_cmds:?}");
                    let quoted = fix["patch"].to_string().replace('\'', r"'\''");
                    assert!(patch_cmds[0].ends_with(&format!("-p '{quoted}'")));
                } else {
                    assert!(patch_cmds.is_empty(), "{file} {name}: {patch_cmds:?}");
                    assert_eq!(edits.len(), 1, "{file} {name}: {edits:?}");
                    assert!(edits[0].ends_with(&format!("merge {}", fix["patch"])));
                }
            }
        }
        let Some(patch) = fix["patch"].as_object().map(|_| &fix["patch"]) else {
            assert!(clears.is_empty(), "{file} {name}: clears without a patch");
            continue;
        };
        patched_plans += 1;
        let mut one = snapshot.clone();
        let cj = one
            .cron_jobs
            .iter()
            .find(|c| c.meta.name == name)
            .unwrap_or_else(|| panic!("{file}: {name} not in the input"))
            .clone();
        let patched = merge_patch::apply_to_cron_job(&cj, patch)
            .unwrap_or_else(|e| panic!("{file} {name}: {e}"));
        one.cron_jobs = vec![patched];
        let replayed = report::build(&one, Vec::new(), &opts);
        let after: BTreeSet<String> = replayed.cron_jobs[0]
            .findings
            .iter()
            .filter(|f| f.severity >= doctor::rules::Severity::Warning)
            .map(|f| f.slug.to_string())
            .collect();
        for s in &clears {
            assert!(
                before.contains(s),
                "{file} {name}: clears {s}, never reported"
            );
            assert!(
                !after.contains(s),
                "{file} {name}: claims to clear {s}, still there"
            );
        }
        for s in &after {
            let revealed = REVEALED_NOT_INTRODUCED.contains(&s.as_str()) && remaining.contains(s);
            assert!(
                before.contains(s) || revealed,
                "{file} {name}: the patch introduces {s}"
            );
            assert!(
                remaining.contains(s),
                "{file} {name}: {s} left but not listed as remaining"
            );
        }
    }
    patched_plans
}
