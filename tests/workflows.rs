//! The hosted-forge workflows stay tied to the rest of the repository: CI on Linux is `.ci/run`
//! and macOS runs only commands `.ci/run` also runs (so `.ci/run` stays the one definition of the
//! tests); the release matrix builds exactly the platforms the krew manifest lists, with the
//! targets `build-archives.sh --all` knows, and goes through the release scripts.

use crate::support::krew;

use crate::support::read;

use serde_json::Value;

fn yaml(path: &str) -> Value {
    serde_saphyr::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every `run:` script of a job.
fn runs(job: &Value) -> Vec<String> {
    job["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str().map(String::from))
        .collect()
}

/// Rust target triple → krew os/arch, as build-archives.sh maps it.
fn krew_pair(triple: &str) -> (&'static str, &'static str) {
    let os = if triple.contains("-linux-") {
        "linux"
    } else if triple.ends_with("-apple-darwin") {
        "darwin"
    } else if triple.contains("-windows-") {
        "windows"
    } else {
        panic!("{triple}")
    };
    let arch = if triple.starts_with("x86_64-") {
        "amd64"
    } else if triple.starts_with("aarch64-") {
        "arm64"
    } else {
        panic!("{triple}")
    };
    (os, arch)
}

#[test]
fn ci_runs_dot_ci_run_on_linux_and_only_its_commands_on_macos() {
    let ci = yaml(".github/workflows/ci.yml");
    let dot_ci_run = read(".ci/run");
    let jobs = ci["jobs"].as_object().unwrap();
    let linux = runs(&jobs["linux"]);
    assert!(
        linux.iter().any(|r| r.trim() == "bash .ci/run"),
        "{linux:?}"
    );
    assert!(
        jobs["linux"]["runs-on"]
            .as_str()
            .unwrap()
            .starts_with("ubuntu")
    );
    let macos = runs(&jobs["macos"]);
    assert!(
        jobs["macos"]["runs-on"]
            .as_str()
            .unwrap()
            .starts_with("macos")
    );
    for cmd in [
        "cargo fmt --all -- --check",
        "cargo clippy --workspace --all-targets -- -D warnings",
        "cargo test --workspace",
    ] {
        assert!(
            macos.iter().any(|r| r.trim() == cmd),
            "macOS should run {cmd:?}"
        );
        assert!(
            dot_ci_run.lines().any(|l| l.trim() == cmd),
            ".ci/run should run {cmd:?} too"
        );
    }
    for r in &macos {
        assert!(
            dot_ci_run.lines().any(|l| l.trim() == r.trim()),
            "macOS runs {r:?}, which .ci/run does not"
        );
    }
}

#[test]
fn the_release_builds_exactly_the_manifests_platforms() {
    let release = yaml(".github/workflows/release.yml");
    assert_eq!(release["on"]["push"]["tags"], serde_json::json!(["v*"]));
    let include = release["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap();
    let targets: Vec<&str> = include
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    let pairs: Vec<(&str, &str)> = targets.iter().map(|t| krew_pair(t)).collect();
    assert_eq!(pairs, krew::RELEASE_PLATFORMS);
    assert!(
        targets
            .iter()
            .filter(|t| t.contains("-linux-"))
            .all(|t| t.ends_with("-musl")),
        "static Linux builds"
    );

    // build-archives.sh --all knows the same targets.
    let script = read("tools/release/build-archives.sh");
    let line = script
        .lines()
        .find(|l| l.starts_with("KREW_TARGETS=("))
        .unwrap();
    let known: Vec<&str> = line
        .trim_start_matches("KREW_TARGETS=(")
        .trim_end_matches(')')
        .split_whitespace()
        .collect();
    assert_eq!(known, targets);

    let build = runs(&release["jobs"]["build"]).join("\n");
    assert!(
        build.contains("tools/release/build-archives.sh --target ${{ matrix.target }}"),
        "{build}"
    );
    let publish = runs(&release["jobs"]["publish"]).join("\n");
    for needle in [
        "tools/release/update-krew-manifest.py",
        "cargo test --locked --test integration krew_manifest",
        "install --manifest=krew/cronjob-doctor.yaml",
    ] {
        assert!(
            publish.contains(needle),
            "the publish job should run {needle:?}"
        );
    }
}
