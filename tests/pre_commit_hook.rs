//! `.pre-commit-hooks.yaml` works as pre-commit runs it: the hook's `entry` plus the hook's args
//! plus the staged file names. The entry's `sh -c` wrapper must turn file names into `-f NAME`,
//! pass `--flag=value` through, and keep lint's exit codes. Unix only (the wrapper is sh).
#![cfg(unix)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Hook {
    id: String,
    name: String,
    description: String,
    entry: String,
    language: String,
    files: String,
    exclude: String,
    require_serial: bool,
}

use crate::support::root;

fn hooks() -> BTreeMap<String, Hook> {
    let text = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: Vec<Hook> = serde_saphyr::from_str(&text).unwrap();
    hooks.into_iter().map(|h| (h.id.clone(), h)).collect()
}

/// `sh -c '<script>' <name>` → (script, name); the entry is written in exactly this form.
fn split_entry(entry: &str) -> (String, String) {
    let rest = entry
        .strip_prefix("sh -c '")
        .expect("entry starts with sh -c '");
    let (script, name) = rest.rsplit_once("' ").expect("entry ends with ' NAME");
    assert!(
        !script.contains('\''),
        "the script must not contain single quotes"
    );
    (script.to_string(), name.to_string())
}

/// Run the hook like pre-commit: entry, then `args`, then the file names; in the repository
/// root, with the freshly built binary first on PATH.
fn run_hook(args: &[&str]) -> (i32, String) {
    let hook = &hooks()["cronjob-doctor-lint"];
    let (script, name) = split_entry(&hook.entry);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .arg(&name)
        .args(args)
        .current_dir(root())
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn both_hooks_run_the_same_lint_on_yaml_files() {
    let hooks = hooks();
    assert_eq!(
        hooks.keys().collect::<Vec<_>>(),
        ["cronjob-doctor-lint", "cronjob-doctor-lint-build"]
    );
    let system = &hooks["cronjob-doctor-lint"];
    let build = &hooks["cronjob-doctor-lint-build"];
    assert_eq!(system.language, "system");
    assert_eq!(build.language, "rust");
    for h in [system, build] {
        assert!(
            h.entry.contains("exec kubectl-cronjob_doctor lint"),
            "{}",
            h.entry
        );
        assert_eq!(h.files, r"\.(ya?ml|json)$");
        assert_eq!(h.exclude, "(^|/)templates/");
        assert!(h.require_serial && !h.name.is_empty() && !h.description.is_empty());
    }
    assert_eq!(system.entry, build.entry);
}

#[test]
fn staged_files_become_dash_f_arguments_and_findings_fail_the_commit() {
    let (code, out) = run_hook(&[
        "--now=2026-11-20T12:00:00Z",
        "examples/healthy.yaml",
        "examples/never-fires.yaml",
        "deploy/rbac/read-only.yaml",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("examples/never-fires.yaml:") && out.contains("never-fires"),
        "{out}"
    );
    assert!(
        out.contains("in 2 CronJobs"),
        "all three files were read: {out}"
    );
}

#[test]
fn clean_files_pass_and_flags_pass_through() {
    // The example is data with a fixed instant (its status says when it last ran).
    let (code, out) = run_hook(&[
        "--now=2026-11-20T12:00:00Z",
        "examples/healthy.yaml",
        "deploy/rbac/operator.yaml",
    ]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run_hook(&["--fail-on=never", "examples/never-fires.yaml"]);
    assert_eq!(code, 0, "--fail-on=never reaches lint: {out}");
}

#[test]
fn file_names_with_spaces_survive_the_wrapper() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit hook");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("my cron job.yaml");
    std::fs::copy(root().join("examples/never-fires.yaml"), &file).unwrap();
    let (code, out) = run_hook(&[file.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("my cron job.yaml:"), "{out}");
}
