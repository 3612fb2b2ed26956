//! `krew/cronjob-doctor.yaml` passes what krew-index checks (see `tests/support/krew.rs` for the
//! rules and where they come from) and says what this project ships: the Cargo version, the
//! five release platforms with the archives `tools/release/build-archives.sh` produces, and the
//! RBAC a user has to grant. The validator is also shown to reject the mistakes it exists for,
//! so a green run means something.

use crate::support::krew;

use std::path::{Path, PathBuf};

const HOMEPAGE: &str = "https://github.com/cronjob-doctor/kubectl-cronjob-doctor";

fn manifest_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("krew/cronjob-doctor.yaml")
}

fn expected_layout(os: &str, _arch: &str) -> Option<Vec<String>> {
    Some(krew::archive_layout(os))
}

fn validate(path: &Path) -> Result<krew::Plugin, Vec<String>> {
    krew::validate_file(path, &expected_layout)
}

#[test]
fn the_manifest_passes_krew_index_validation() {
    if let Err(problems) = validate(&manifest_path()) {
        panic!("krew/cronjob-doctor.yaml:\n  {}", problems.join("\n  "));
    }
}

#[test]
fn the_manifest_describes_this_release() {
    let plugin = krew::read(&manifest_path()).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    let spec = &plugin.spec;
    assert_eq!(
        spec.version,
        format!("v{version}"),
        "spec.version must be v + the Cargo version"
    );
    assert_eq!(spec.homepage.as_deref(), Some(HOMEPAGE));

    let pairs: Vec<(String, String)> = spec
        .platforms
        .iter()
        .map(|p| {
            let labels = p
                .selector
                .as_ref()
                .and_then(|s| s.match_labels.clone())
                .unwrap_or_default();
            assert!(
                p.selector.as_ref().unwrap().match_expressions.is_none(),
                "selectors use matchLabels os/arch only"
            );
            assert_eq!(
                labels.len(),
                2,
                "selector {labels:?} must name exactly os and arch"
            );
            (labels["os"].clone(), labels["arch"].clone())
        })
        .collect();
    let expected: Vec<(String, String)> = krew::RELEASE_PLATFORMS
        .iter()
        .map(|(o, a)| (o.to_string(), a.to_string()))
        .collect();
    assert_eq!(pairs, expected);

    for (p, (os, arch)) in spec.platforms.iter().zip(&expected) {
        let name = krew::archive_name(version, os, arch);
        assert_eq!(
            p.uri,
            format!("{HOMEPAGE}/releases/download/v{version}/{name}")
        );
        let bin = if os == "windows" {
            format!("{}.exe", krew::BIN)
        } else {
            krew::BIN.to_string()
        };
        assert_eq!(p.bin, bin);
        let ops: Vec<(&str, &str)> = p
            .files
            .as_ref()
            .unwrap()
            .iter()
            .map(|f| (f.from.as_str(), f.to.as_str()))
            .collect();
        assert_eq!(
            ops,
            [(bin.as_str(), "."), ("LICENSE", ".")],
            "{os}/{arch}: install the binary and the licence"
        );
    }

    // Before the first release every sha256 is the placeholder; after it, none is and they differ.
    let shas: Vec<&str> = spec.platforms.iter().map(|p| p.sha256.as_str()).collect();
    let placeholder = "0".repeat(64);
    let unreleased = shas.iter().all(|s| *s == placeholder);
    let distinct: std::collections::BTreeSet<&&str> = shas.iter().collect();
    assert!(
        unreleased || distinct.len() == shas.len(),
        "sha256 values must be all placeholders or all real and distinct: {shas:?}"
    );
}

#[test]
fn the_caveats_name_the_rbac_the_plugin_needs() {
    let plugin = krew::read(&manifest_path()).unwrap();
    let caveats = plugin.spec.caveats.unwrap_or_default().replace('\n', " ");
    for needle in [
        "get/list",
        "cronjobs",
        "jobs",
        "pods",
        "events",
        "events.k8s.io",
        "create on jobs",
        "patch on cronjobs",
        "cronjobs/status",
        "selfsubjectaccessreviews",
        "/deploy/rbac",
    ] {
        assert!(
            caveats.contains(needle),
            "caveats should mention {needle:?}:\n{caveats}"
        );
    }
}

/// Write `text` as `<dir>/<file>` in a fresh directory and validate it.
fn validate_text(case: &str, file: &str, text: &str) -> Result<krew::Plugin, Vec<String>> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("krew-manifest")
        .join(case);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    validate(&path)
}

fn rejected(case: &str, file: &str, text: &str, expect: &str) {
    match validate_text(case, file, text) {
        Ok(_) => panic!("{case}: the validator accepted a manifest krew refuses"),
        Err(problems) => assert!(
            problems.iter().any(|p| p.contains(expect)),
            "{case}: expected a problem containing {expect:?}, got:\n  {}",
            problems.join("\n  ")
        ),
    }
}

#[test]
fn the_validator_rejects_what_krew_rejects() {
    let good = std::fs::read_to_string(manifest_path()).unwrap();
    let sub = |from: &str, to: &str| {
        assert!(
            good.contains(from),
            "test fixture drifted: {from:?} not in the manifest"
        );
        good.replacen(from, to, 1)
    };
    // A copy under its own name is fine.
    validate_text("ok", "cronjob-doctor.yaml", &good).unwrap();

    rejected(
        "file-name",
        "doctor.yaml",
        &good,
        "plugin should be named \"doctor\"",
    );
    rejected(
        "extension",
        "cronjob-doctor.yml",
        &good,
        "expected manifest extension",
    );
    rejected(
        "reserved",
        "con.yaml",
        &sub("name: cronjob-doctor", "name: con"),
        "is not allowed",
    );
    rejected(
        "unsafe-name",
        "a.b.yaml",
        &sub("name: cronjob-doctor", "name: a.b"),
        "is not allowed",
    );
    rejected(
        "api-version",
        "cronjob-doctor.yaml",
        &sub(
            "googlecontainertools.github.com/v1alpha2",
            "googlecontainertools.github.com/v1alpha1",
        ),
        "apiVersion",
    );
    rejected(
        "short-description",
        "cronjob-doctor.yaml",
        &sub(
            "shortDescription: Explain why a CronJob did not run, ran late or ran twice",
            "shortDescription: \"Explain why\\na CronJob did not run\"",
        ),
        "line breaks in short description",
    );
    rejected(
        "no-v",
        "cronjob-doctor.yaml",
        &sub("version: v0", "version: 0"),
        "not starting with 'v'",
    );
    rejected(
        "not-semver",
        "cronjob-doctor.yaml",
        &sub("version: v0.1.0", "version: v0.1"),
        "version",
    );
    rejected(
        "sha256",
        "cronjob-doctor.yaml",
        &sub("\"0000000000", "\"000000000G"),
        "`sha256` value",
    );
    rejected(
        "sha256-short",
        "cronjob-doctor.yaml",
        &sub("\"0000000000", "\"000000000"),
        "`sha256` value",
    );
    rejected(
        "selector-key",
        "cronjob-doctor.yaml",
        &sub("os: linux\n", "os: linux\n        libc: musl\n"),
        "key \"libc\" not supported",
    );
    rejected(
        "unsupported-pair",
        "cronjob-doctor.yaml",
        &sub("os: linux", "os: freebsd"),
        "doesn't match any supported platform",
    );
    rejected(
        "overlap",
        "cronjob-doctor.yaml",
        &sub("arch: arm64", "arch: amd64"),
        "overlapping selectors",
    );
    rejected(
        "match-any-os",
        "cronjob-doctor.yaml",
        &sub(
            "      matchLabels:\n        os: linux\n        arch: amd64\n",
            "      matchLabels:\n        arch: amd64\n",
        ),
        "overlapping selectors",
    );
    rejected(
        "empty-match-labels",
        "cronjob-doctor.yaml",
        &sub(
            "      matchLabels:\n        os: linux\n        arch: amd64\n",
            "      matchLabels: {}\n",
        ),
        "empty",
    );
    rejected(
        "uri",
        "cronjob-doctor.yaml",
        &sub("linux-amd64.tar.gz", "linux-amd64.tgz"),
        "neither a .tar.gz nor a .zip",
    );
    rejected(
        "no-license",
        "cronjob-doctor.yaml",
        &sub("    - from: LICENSE\n      to: .\n", ""),
        "LICENSE (or alike) file is not extracted",
    );
    rejected(
        "bin-not-in-archive",
        "cronjob-doctor.yaml",
        &sub(
            "bin: kubectl-cronjob_doctor\n",
            "bin: kubectl-cronjob-doctor\n",
        ),
        "is not installed",
    );
    rejected(
        "from-not-in-archive",
        "cronjob-doctor.yaml",
        &sub(
            "- from: kubectl-cronjob_doctor\n",
            "- from: bin/kubectl-cronjob_doctor\n",
        ),
        "no files in the plugin archive matched",
    );
    rejected(
        "unclean-to",
        "cronjob-doctor.yaml",
        &sub("      to: .\n", "      to: ./\n"),
        "not clean",
    );
    rejected(
        "typo",
        "cronjob-doctor.yaml",
        &sub(
            "    bin: kubectl-cronjob_doctor\n",
            "    binary: kubectl-cronjob_doctor\n",
        ),
        "binary",
    );
}

#[test]
fn install_simulation_follows_krews_file_operations() {
    let platform = |files: Option<Vec<(&str, &str)>>| krew::Platform {
        selector: None,
        uri: String::new(),
        sha256: String::new(),
        bin: String::new(),
        files: files.map(|v| {
            v.into_iter()
                .map(|(f, t)| krew::FileOperation {
                    from: f.into(),
                    to: t.into(),
                })
                .collect()
        }),
    };
    let archive: Vec<String> = [
        "kubectl-x",
        "LICENSE",
        "README.md",
        "dist/x-linux/kubectl-x",
        "dist/x-linux/NOTICE",
    ]
    .map(String::from)
    .to_vec();
    let installed = |files| {
        krew::simulate_install(&platform(files), &archive)
            .unwrap()
            .into_iter()
            .collect::<Vec<_>>()
    };

    // No `files`: everything at the archive root, directories included.
    assert_eq!(
        installed(None),
        [
            "LICENSE",
            "README.md",
            "dist/x-linux/NOTICE",
            "dist/x-linux/kubectl-x",
            "kubectl-x"
        ]
    );
    // A direct move renames; `to: .` keeps the name.
    assert_eq!(
        installed(Some(vec![
            ("dist/x-linux/kubectl-x", "bin/x"),
            ("LICENSE", ".")
        ])),
        ["LICENSE", "bin/x"]
    );
    // A glob moves each match into `to`.
    assert_eq!(
        installed(Some(vec![("dist/*/*", "out")])),
        ["out/NOTICE", "out/kubectl-x"]
    );
    assert_eq!(
        installed(Some(vec![("dist/x-*", ".")])),
        ["x-linux/NOTICE", "x-linux/kubectl-x"]
    );
    assert!(krew::simulate_install(&platform(Some(vec![("nope*", ".")])), &archive).is_err());
}
