//! Shell completion as users get it. `kubectl cronjob-doctor <TAB>`: kubectl runs
//! `kubectl_complete-cronjob_doctor WORDS… CURRENT` and reads Cobra's format back; the
//! committed helper forwards to `completion __complete`. CronJob names come from the `-f` files
//! given, else from the cluster through kubectl (faked here by a script on the PATH). When a
//! kubectl that completes plugins (1.26+) is installed, the whole chain runs through it.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::root;

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A PATH with `extra` first, then the built binary, then the system's.
fn path_with(extra: &Path) -> String {
    format!(
        "{}:{}:{}",
        extra.display(),
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_exe(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Run the committed helper the way kubectl does: words after the plugin name, last = current.
fn helper(path: &str, words: &[&str]) -> (Vec<String>, String) {
    let out = Command::new(root().join("completions/kubectl_complete-cronjob_doctor"))
        .args(words)
        .current_dir(root())
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{words:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let directive = lines.pop().expect("a directive line");
    assert!(
        directive.starts_with(':'),
        "last line is the directive: {text}"
    );
    (
        lines
            .iter()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect(),
        directive,
    )
}

#[test]
fn the_helper_completes_commands_flags_values_and_names_from_files() {
    let path = path_with(&scratch("completion-none"));
    let (subs, d) = helper(&path, &[""]);
    assert_eq!(d, ":4");
    for s in ["explain", "lint", "next", "rules", "version", "completion"] {
        assert!(subs.contains(&s.to_string()), "{s} in {subs:?}");
    }
    assert_eq!(helper(&path, &["li"]).0, ["lint"]);
    assert!(
        helper(&path, &["lint", "--"])
            .0
            .contains(&"--fail-on".to_string())
    );
    assert_eq!(
        helper(&path, &["lint", "--fail-on", ""]).0,
        ["error", "warning", "info", "never"]
    );
    assert_eq!(
        helper(&path, &["lint", "-f", ""]),
        (
            vec!["yaml".into(), "yml".into(), "json".into()],
            ":8".into()
        )
    );
    let (names, d) = helper(&path, &["explain", "-f", "examples/", "b"]);
    assert_eq!((names, d.as_str()), (vec!["backup".to_string()], ":4"));
    let (zones, _) = helper(&path, &["next", "--time-zone", "America/New_Y"]);
    assert_eq!(zones, ["America/New_York"]);
}

#[test]
fn cronjob_names_come_from_the_cluster_through_kubectl() {
    let dir = scratch("completion-fake-kubectl");
    let log = dir.join("calls");
    write_exe(
        &dir.join("kubectl"),
        &format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\ncase \"$2\" in\n  cronjobs.batch) printf 'cronjob.batch/nightly\\ncronjob.batch/hourly\\n' ;;\n  namespaces) printf 'namespace/ops\\n' ;;\nesac\n",
            log.display()
        ),
    );
    let path = path_with(&dir);
    let (names, d) = helper(&path, &["explain", "--context", "prod", "-n", "ops", "n"]);
    assert_eq!((names, d.as_str()), (vec!["nightly".to_string()], ":4"));
    let (namespaces, _) = helper(&path, &["scan", "-n", ""]);
    assert_eq!(namespaces, ["ops"]);
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        calls,
        "get cronjobs.batch -o name --request-timeout=5s --context=prod --namespace=ops\n\
         get namespaces -o name --request-timeout=5s\n"
    );
}

#[test]
fn script_targets_take_no_extra_words() {
    let out = Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .args(["completion", "bash", "extra"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The real thing, when this machine has a kubectl that completes plugins (1.26+).
#[test]
fn kubectl_itself_completes_the_plugin() {
    let Ok(v) = Command::new("kubectl")
        .args(["version", "--client", "-o", "json"])
        .output()
    else {
        eprintln!("kubectl not installed: skipped");
        return;
    };
    let v: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap_or_default();
    let minor: u32 = v["clientVersion"]["minor"]
        .as_str()
        .unwrap_or("0")
        .trim_end_matches('+')
        .parse()
        .unwrap_or(0);
    if minor < 26 {
        eprintln!("kubectl 1.{minor} does not complete plugins: skipped");
        return;
    }
    let dir = scratch("completion-kubectl");
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"),
        dir.join("kubectl-cronjob_doctor"),
    )
    .unwrap();
    std::fs::copy(
        root().join("completions/kubectl_complete-cronjob_doctor"),
        dir.join("kubectl_complete-cronjob_doctor"),
    )
    .unwrap();
    let run = |words: &[&str]| {
        let out = Command::new("kubectl")
            .arg("__complete")
            .arg("cronjob-doctor")
            .args(words)
            .current_dir(root())
            .env("PATH", path_with(&dir))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let out = run(&["ex"]);
    assert!(
        out.starts_with("explain\t") && out.trim_end().ends_with(":4"),
        "{out}"
    );
    let out = run(&["explain", "-f", "examples/", "report-d"]);
    assert_eq!(out, "report-daily\n:4\n", "names from the files given");
}
