//! Adopting `lint` in CI: the config file, the baseline and its fingerprints, SARIF
//! for code scanning, and the GitHub Action's definition — as a team uses them, in a scratch
//! repository made of the examples (and, when `CRONJOB_DOCTOR_CORPUS` names it, the real-world
//! corpus).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

const NOW: &str = "2026-11-20T12:00:00Z";

use crate::support::{field_of_each, root, scratch};

/// A scratch "repository" holding a copy of every example under `deploy/`.
fn repo_of_examples(tag: &str) -> PathBuf {
    let d = scratch(tag);
    let deploy = d.join("deploy");
    std::fs::create_dir_all(&deploy).unwrap();
    for e in std::fs::read_dir(root().join("examples")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "yaml") {
            std::fs::copy(&p, deploy.join(p.file_name().unwrap())).unwrap();
        }
    }
    d
}

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

/// `kubectl-cronjob_doctor ARGS` run in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Out {
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .env("NO_COLOR", "1")
        .env("COLUMNS", "200")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    Out {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        code: out.status.code().unwrap(),
    }
}

/// `lint -f deploy --now NOW -o json EXTRA…` in `dir`: (slug, namespace/name) of each finding.
fn findings(dir: &Path, extra: &[&str]) -> (Vec<(String, String)>, Out) {
    let mut args = vec!["lint", "-f", "deploy", "--now", NOW, "-o", "json"];
    args.extend_from_slice(extra);
    let out = run_in(dir, &args);
    let v: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", out.stdout, out.stderr));
    let mut all = Vec::new();
    for cj in v["cronJobs"].as_array().unwrap() {
        let who = format!(
            "{}/{}",
            cj["namespace"].as_str().unwrap(),
            cj["name"].as_str().unwrap()
        );
        for f in cj["findings"].as_array().unwrap() {
            all.push((f["slug"].as_str().unwrap().to_string(), who.clone()));
        }
    }
    (all, out)
}

fn count(all: &[(String, String)], slug: &str) -> usize {
    all.iter().filter(|(s, _)| s == slug).count()
}

#[test]
fn the_config_file_is_found_upwards_and_its_settings_apply() {
    let repo = repo_of_examples("config");
    let (before, _) = findings(&repo, &[]);
    let forbid = count(&before, "forbid-blocked");
    let deadline = count(&before, "active-deadline-missing");
    assert!(forbid > 0 && deadline > 0, "{before:?}");
    std::fs::write(
        repo.join(".cronjob-doctor.yaml"),
        "rules:\n  forbid-blocked: off\n  CJD021: info\nskip: [\"*/invoices\"]\nexclude: [\"deploy/never-*\"]\n",
    )
    .unwrap();
    // Run from a subdirectory: the file is found in the parent.
    let sub = repo.join("deploy");
    let out = run_in(&sub, &["lint", "-f", ".", "--now", NOW, "-o", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let slugs: Vec<&str> = v["cronJobs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["findings"].as_array().unwrap())
        .map(|f| f["slug"].as_str().unwrap())
        .collect();
    assert!(!slugs.contains(&"forbid-blocked"), "{slugs:?}");
    let names: Vec<&str> = field_of_each(&v["cronJobs"], "name");
    // Skipped by namespace/name glob (examples/healthy.yaml's CronJob).
    assert!(!names.contains(&"invoices"), "{names:?}");
    assert!(
        before.iter().any(|(_, who)| who == "finance/invoices") || {
            let (_, out) = findings(&repo, &["--no-config"]);
            out.stdout.contains("\"invoices\"")
        }
    );
    // The excluded file's CronJob is not read at all.
    let never = std::fs::read_to_string(root().join("examples/never-fires.yaml")).unwrap();
    let never_name = never
        .split("metadata: {name: ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .unwrap();
    assert!(!names.contains(&never_name), "{names:?}");
    // The lowered rule is an info now: not a warning that fails the build.
    let (after, _) = findings(&repo, &[]);
    assert_eq!(count(&after, "forbid-blocked"), 0);
    assert_eq!(count(&after, "active-deadline-missing"), deadline);
    let out = run_in(&repo, &["lint", "-f", "deploy", "--now", NOW, "-o", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    for f in v["cronJobs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["findings"].as_array().unwrap())
        .filter(|f| f["slug"] == "active-deadline-missing")
    {
        assert_eq!(f["severity"], "info");
    }
    // --no-config ignores it.
    let (ignored, _) = findings(&repo, &["--no-config"]);
    assert_eq!(count(&ignored, "forbid-blocked"), forbid);
    // --print-config shows the effective settings and where they came from.
    let out = run_in(
        &repo,
        &[
            "lint",
            "-f",
            "deploy",
            "--print-config",
            "--fail-on",
            "error",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("# from "), "{}", out.stdout);
    for line in [
        "  forbid-blocked: off",
        "  active-deadline-missing: info",
        "failOn: \"error\"",
        "controllerTimeZone: \"UTC\"",
        "kubeVersion: \"1.37\"",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.stdout);
    }
    // `rules` shows the effective severity.
    let out = run_in(&repo, &["rules", "-o", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let rule = |slug: &str| {
        v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["slug"] == slug)
            .unwrap()
            .clone()
    };
    assert_eq!(rule("forbid-blocked")["effectiveSeverity"], "off");
    assert_eq!(rule("active-deadline-missing")["effectiveSeverity"], "info");
    assert_eq!(rule("late-start")["effectiveSeverity"], "warning");
}

#[test]
fn failon_zone_and_version_come_from_the_file_unless_a_flag_says_otherwise() {
    let repo = repo_of_examples("settings");
    std::fs::write(
        repo.join(".cronjob-doctor.yaml"),
        "failOn: never\ncontrollerTimeZone: Europe/Berlin\nkubeVersion: 1.20\n",
    )
    .unwrap();
    let out = run_in(&repo, &["lint", "-f", "deploy", "--now", NOW]);
    assert_eq!(out.code, 0, "failOn never\n{}", out.stdout);
    let out = run_in(
        &repo,
        &["lint", "-f", "deploy", "--now", NOW, "--fail-on", "error"],
    );
    assert_eq!(out.code, 1, "the flag wins\n{}", out.stdout);
    let out = run_in(&repo, &["lint", "-f", "deploy", "--print-config"]);
    assert!(
        out.stdout.contains("controllerTimeZone: \"Europe/Berlin\""),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("kubeVersion: \"1.20\""),
        "{}",
        out.stdout
    );
    let out = run_in(
        &repo,
        &[
            "lint",
            "-f",
            "deploy",
            "--print-config",
            "--controller-time-zone",
            "UTC",
            "--kube-version",
            "1.31",
        ],
    );
    assert!(
        out.stdout.contains("controllerTimeZone: \"UTC\""),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("kubeVersion: \"1.31\""),
        "{}",
        out.stdout
    );
}

#[test]
fn a_bad_config_is_an_error_with_its_position_and_a_suggestion() {
    let repo = repo_of_examples("badconfig");
    std::fs::write(
        repo.join(".cronjob-doctor.yaml"),
        "rules:\n  backof-limit-too-large: off\nfailon: error\n",
    )
    .unwrap();
    for args in [
        &["lint", "-f", "deploy"][..],
        &["explain", "-f", "deploy"][..],
        &["rules"][..],
    ] {
        let out = run_in(&repo, args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains(".cronjob-doctor.yaml:2:3: unknown rule \"backof-limit-too-large\" (did you mean \"backoff-limit-too-large\"?)"),
            "{}",
            out.stderr
        );
        assert!(
            out.stderr.contains(
                ".cronjob-doctor.yaml:3:1: unknown setting \"failon\" (did you mean \"failOn\"?)"
            ),
            "{}",
            out.stderr
        );
    }
    // A config that is not YAML, named with --config.
    std::fs::write(repo.join("other.yaml"), "rules: [\n").unwrap();
    let out = run_in(&repo, &["lint", "-f", "deploy", "--config", "other.yaml"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("other.yaml:"), "{}", out.stderr);
    assert!(out.stderr.contains("invalid YAML"), "{}", out.stderr);
    let out = run_in(&repo, &["lint", "-f", "deploy", "--config", "missing.yaml"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("missing.yaml: cannot read the config file"),
        "{}",
        out.stderr
    );
}

/// `lint -f deploy --now NOW --baseline FILE` in `repo`.
fn lint_with_baseline(repo: &Path, baseline: &Path) -> Out {
    run_in(
        repo,
        &[
            "lint",
            "-f",
            "deploy",
            "--now",
            NOW,
            "--baseline",
            baseline.to_str().unwrap(),
        ],
    )
}

/// The baseline workflow on a set of manifests: recorded, clean, one problem added, one
/// CronJob removed.
fn baseline_round_trip(repo: &Path, extra: &[&str]) {
    let baseline = repo.join("baseline.json");
    let b = baseline.to_str().unwrap();
    let mut args = vec!["lint", "-f", "deploy", "--now", NOW, "--write-baseline", b];
    args.extend_from_slice(extra);
    let out = run_in(repo, &args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("wrote "), "{}", out.stderr);
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(recorded["schemaVersion"], 1);
    assert!(!recorded["findings"].as_array().unwrap().is_empty());

    let lint = |more: &[&str]| {
        let mut args = vec!["lint", "-f", "deploy", "--now", NOW, "--baseline", b];
        args.extend_from_slice(extra);
        args.extend_from_slice(more);
        run_in(repo, &args)
    };
    let out = lint(&["--fail-on", "info"]);
    assert_eq!(out.code, 0, "nothing new: {}\n{}", out.stdout, out.stderr);
    assert!(!out.stderr.contains("gone:"), "{}", out.stderr);
    let (left, _) = findings(repo, &{
        let mut a = vec!["--baseline", b];
        a.extend_from_slice(extra);
        a
    });
    assert!(left.is_empty(), "{left:?}");

    // One new problem added to one file: a CronJob with a Sunday written as 7, appended to
    // the first manifest that holds a CronJob.
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo.join("deploy"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let target = files
        .iter()
        .find(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("kind: CronJob")))
        .unwrap()
        .clone();
    let original = std::fs::read_to_string(&target).unwrap();
    std::fs::write(
        &target,
        format!(
            "{original}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: brand-new, namespace: ci}}\nspec:\n  schedule: \"0 0 * * 7\"\n  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: busybox}}]}}}}}}}}\n"
        ),
    )
    .unwrap();
    let (left, out) = findings(repo, &{
        let mut a = vec!["--baseline", b];
        a.extend_from_slice(extra);
        a
    });
    assert!(
        left.iter().all(|(_, who)| who == "ci/brand-new"),
        "only the new CronJob's findings: {left:?}"
    );
    assert!(
        left.iter().any(|(s, _)| s == "invalid-schedule"),
        "{left:?}"
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    std::fs::write(&target, original).unwrap();
}

#[test]
fn the_baseline_keeps_ci_green_fails_on_new_findings_and_shrinks() {
    let repo = repo_of_examples("baseline");
    baseline_round_trip(&repo, &[]);
    // A CronJob removed: its findings are listed as gone, and the build stays green.
    std::fs::remove_file(repo.join("deploy/too-many-missed.yaml")).unwrap();
    let b = repo.join("baseline.json");
    let out = lint_with_baseline(&repo, &b);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("recorded finding"), "{}", out.stderr);
    assert!(out.stderr.contains("  gone: "), "{}", out.stderr);
    // Written again, the file shrinks and nothing is gone any more.
    let before = std::fs::read_to_string(&b).unwrap();
    run_in(
        &repo,
        &[
            "lint",
            "-f",
            "deploy",
            "--now",
            NOW,
            "--write-baseline",
            b.to_str().unwrap(),
        ],
    );
    let after = std::fs::read_to_string(&b).unwrap();
    assert!(after.len() < before.len());
    let out = lint_with_baseline(&repo, &b);
    assert!(!out.stderr.contains("gone:"), "{}", out.stderr);
}

/// `--write-baseline` never replaces what is not a regular file: a symbolic link is written
/// through (the link stays a link), and `/dev/stdout` receives the baseline.
#[cfg(unix)]
#[test]
fn write_baseline_writes_through_links_and_devices() {
    let repo = repo_of_examples("baselinelink");
    let real = repo.join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = repo.join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = run_in(
        &repo,
        &[
            "lint",
            "-f",
            "deploy",
            "--now",
            NOW,
            "--write-baseline",
            "link.json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("\"schemaVersion\": 1")
    );
    let out = run_in(
        &repo,
        &[
            "lint",
            "-f",
            "deploy",
            "--now",
            NOW,
            "--write-baseline",
            "/dev/stdout",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("\"schemaVersion\": 1"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_bad_baseline_is_refused_with_its_position() {
    let repo = repo_of_examples("badbaseline");
    let b = repo.join("b.json");
    let bs = b.to_str().unwrap();
    for (text, says) in [
        ("{\"schemaVersion\": 9, \"findings\": []}", "newer release"),
        (
            "{\n  \"schemaVersion\": 1,\n  \"findings\": [}\n",
            "b.json:3:",
        ),
        ("rules: {}\n", "not a baseline file"),
    ] {
        std::fs::write(&b, text).unwrap();
        let out = run_in(&repo, &["lint", "-f", "deploy", "--baseline", bs]);
        assert_eq!(out.code, 2, "{text}");
        assert!(out.stderr.contains(says), "{says}: {}", out.stderr);
        assert!(out.stdout.is_empty());
    }
}

/// The SARIF results' fingerprints, as (ruleId, fingerprint), sorted.
fn sarif_fingerprints(dir: &Path, file: &str, extra: &[&str]) -> (Vec<(String, String)>, Value) {
    let mut args = vec!["lint", "-f", file, "--now", NOW, "-o", "sarif"];
    args.extend_from_slice(extra);
    let out = run_in(dir, &args);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let mut fps: Vec<(String, String)> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["partialFingerprints"]["cronjobDoctor/v1"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    fps.sort();
    (fps, v)
}

#[test]
fn sarif_fingerprints_survive_reformatting_and_carry_the_baseline_state() {
    let dir = scratch("sarif");
    // Two CronJobs in one file, then the same file reformatted: the documents in the other
    // order, comments and blank lines before each, flow mappings made block mappings.
    let a =
        std::fs::read_to_string(root().join("examples/forbid-blocked-by-hung-job.yaml")).unwrap();
    let b = std::fs::read_to_string(root().join("examples/starting-deadline-zero.yaml")).unwrap();
    std::fs::write(dir.join("one.yaml"), format!("{a}\n---\n{b}")).unwrap();
    let reformatted = format!(
        "# moved around\n\n\n{}\n---\n# and again\n\n{}",
        b.replace(": {", ":\n  {"),
        a
    );
    std::fs::write(dir.join("two.yaml"), reformatted).unwrap();
    let (one, _) = sarif_fingerprints(&dir, "one.yaml", &[]);
    let (two, v) = sarif_fingerprints(&dir, "two.yaml", &[]);
    assert!(!one.is_empty());
    assert!(one.iter().all(|(_, fp)| fp.len() == 32), "{one:?}");
    assert_eq!(one, two);
    // The results did move: the same fingerprints at other lines.
    assert!(v["runs"][0]["results"][0]["locations"].is_array());

    // With a baseline of one.yaml: everything unchanged; a new CronJob is new; a removed one
    // is an absent result.
    let bl = dir.join("bl.json");
    run_in(
        &dir,
        &[
            "lint",
            "-f",
            "one.yaml",
            "--now",
            NOW,
            "--write-baseline",
            bl.to_str().unwrap(),
        ],
    );
    let (_, v) = sarif_fingerprints(&dir, "two.yaml", &["--baseline", bl.to_str().unwrap()]);
    let states: Vec<&str> = field_of_each(&v["runs"][0]["results"], "baselineState");
    assert!(states.iter().all(|s| *s == "unchanged"), "{states:?}");
    std::fs::write(dir.join("three.yaml"), &a).unwrap();
    let (_, v) = sarif_fingerprints(&dir, "three.yaml", &["--baseline", bl.to_str().unwrap()]);
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(
        results.iter().any(|r| r["baselineState"] == "absent"),
        "{results:#?}"
    );
    assert!(results.iter().any(|r| r["baselineState"] == "unchanged"));
    assert!(
        results
            .iter()
            .filter(|r| r["baselineState"] == "absent")
            .all(
                |r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .ends_with("bl.json")
            ),
        "{results:#?}"
    );
}

/// The issue's measure on the real-world corpus: a baseline makes it green, one problem added
/// fails with exactly that finding, one removed is reported gone, and a config that turns off
/// the two noisiest rules removes exactly their findings.
#[test]
fn the_real_world_corpus_adopts_with_a_baseline_and_a_config() {
    let Some(corpus) = std::env::var_os("CRONJOB_DOCTOR_CORPUS").map(PathBuf::from) else {
        println!(
            "skipped: CRONJOB_DOCTOR_CORPUS unset (the real-world corpus lives outside the repository)"
        );
        return;
    };
    let repo = scratch("corpus");
    let deploy = repo.join("deploy");
    std::fs::create_dir_all(&deploy).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(files.len() >= 100, "{}", corpus.display());
    for f in &files {
        std::fs::copy(f, deploy.join(f.file_name().unwrap())).unwrap();
    }
    // Files that are not manifests a YAML reader can read (Helm templates, fragments) are what
    // a team puts in `exclude`; with them excluded, nothing is left unreadable.
    let (_, out) = findings(&repo, &[]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let mut unreadable: Vec<String> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["file"].as_str().unwrap().to_string())
        .collect();
    unreadable.sort();
    unreadable.dedup();
    let exclude = format!(
        "exclude: [{}]\n",
        unreadable
            .iter()
            .map(|f| serde_json::to_string(f).unwrap())
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(repo.join(".cronjob-doctor.yaml"), &exclude).unwrap();
    baseline_round_trip(&repo, &[]);

    // The two noisiest rules, off: the count drops by exactly their findings.
    let (all, _) = findings(&repo, &[]);
    let mut by_rule: std::collections::BTreeMap<&str, usize> = Default::default();
    for (s, _) in &all {
        *by_rule.entry(s.as_str()).or_default() += 1;
    }
    let mut noisy: Vec<(&str, usize)> = by_rule.into_iter().collect();
    noisy.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let (r1, n1) = noisy[0];
    let (r2, n2) = noisy[1];
    std::fs::write(
        repo.join(".cronjob-doctor.yaml"),
        format!("{exclude}rules:\n  {r1}: off\n  {r2}: off\n"),
    )
    .unwrap();
    let (quiet, _) = findings(&repo, &[]);
    assert_eq!(quiet.len(), all.len() - n1 - n2, "{r1} {n1}, {r2} {n2}");
    assert_eq!(count(&quiet, r1) + count(&quiet, r2), 0);
    std::fs::write(repo.join(".cronjob-doctor.yaml"), &exclude).unwrap();

    // One file's CronJobs removed: their recorded findings are reported gone.
    let b = repo.join("baseline.json");
    let first = files
        .iter()
        .find(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("kind: CronJob")))
        .unwrap();
    std::fs::remove_file(deploy.join(first.file_name().unwrap())).unwrap();
    let out = lint_with_baseline(&repo, &b);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("  gone: "), "{}", out.stderr);
}

#[test]
fn the_action_installs_a_checked_release_and_runs_lint_with_its_inputs() {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let v: Value = serde_saphyr::from_str(&text).unwrap();
    assert_eq!(v["runs"]["using"], "composite");
    for input in [
        "paths",
        "config",
        "baseline",
        "fail-on",
        "sarif",
        "upload-sarif",
        "version",
        "build",
    ] {
        assert!(v["inputs"][input]["description"].is_string(), "{input}");
    }
    let steps: Vec<&Value> = v["runs"]["steps"].as_array().unwrap().iter().collect();
    let script = |name: &str| {
        steps
            .iter()
            .find(|s| s["name"] == name)
            .and_then(|s| s["run"].as_str())
            .unwrap_or_else(|| panic!("step {name}"))
            .to_string()
    };
    let install = script("Install kubectl-cronjob_doctor");
    // The archive name is the release's (tools/release/build-archives.sh) and it is checked.
    assert!(install.contains("kubectl-cronjob_doctor-$VERSION-$os-$arch.$ext"));
    assert!(install.contains("SHA256SUMS") && install.contains("-c \"$archive.sha256\""));
    assert!(install.contains("cargo install --locked"));
    let lint = script("Lint");
    for flag in [
        "--no-config",
        "--config=",
        "--baseline=",
        "--fail-on=",
        "-o sarif",
    ] {
        assert!(lint.contains(flag), "{flag}");
    }
    // Inputs reach the scripts through the environment, never pasted into them.
    for step in &steps {
        if let Some(run) = step["run"].as_str() {
            assert!(!run.contains("${{"), "{run}");
        }
    }
    assert!(steps.iter().any(|s| {
        s["uses"]
            .as_str()
            .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
    }));
}

/// The config files shown in the README and docs/config.md are read as they are written.
#[test]
fn the_documented_config_files_are_valid() {
    for doc in ["README.md", "docs/config.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let blocks: Vec<&str> = text
            .split("```yaml\n")
            .skip(1)
            .filter_map(|b| b.split("```").next())
            .filter(|b| b.contains("rules:") && b.contains("failOn"))
            .collect();
        assert!(!blocks.is_empty(), "{doc} shows a config file");
        for b in blocks {
            let dir = scratch("docconfig");
            std::fs::write(dir.join(".cronjob-doctor.yaml"), b).unwrap();
            let out = run_in(&dir, &["lint", "-f", ".", "--print-config"]);
            assert_eq!(out.code, 0, "{doc}:\n{b}\n{}", out.stderr);
            assert!(out.stdout.contains("failOn: \"error\""), "{}", out.stdout);
        }
    }
}
