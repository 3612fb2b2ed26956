//! The release path, end to end on this machine: `tools/release/build-archives.sh` packs a
//! binary into the host's krew archive, `tools/release/update-krew-manifest.py` writes its uri
//! and sha256 into a copy of the krew manifest, and that manifest validates against the real
//! archive. To keep CI fast the archive is made from the debug binary this test run already
//! built (`--binary`), not from a release build; the packing is the same.
//!
//! Needs bash, python3 and tar (Linux and macOS CI have them); Unix only.
#![cfg(unix)]

use crate::support::krew;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::root;

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(cmd: &mut Command) -> String {
    String::from_utf8(run(cmd).stdout).unwrap()
}

/// krew's names for the machine running the tests.
fn host_platform() -> (&'static str, &'static str) {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        other => other,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        "powerpc64" => "ppc64le",
        other => other,
    };
    (os, arch)
}

/// sha256 as the coreutils tool (or macOS's shasum) computes it.
fn sha256_tool(path: &Path) -> String {
    let out = match Command::new("sha256sum").arg(path).output() {
        Ok(o) if o.status.success() => o,
        _ => run(Command::new("shasum").args(["-a", "256"]).arg(path)),
    };
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// `tools/release/build-archives.sh`, run without libfaketime: the suite is also run under
/// `faketime` to prove no verdict depends on the date, and rustc (which the script asks for the
/// host triple) hangs under libfaketime. The archive's times come from SOURCE_DATE_EPOCH, not
/// the clock, so nothing this test checks depends on it.
fn release_script() -> Command {
    let mut c = Command::new("bash");
    c.env_remove("LD_PRELOAD")
        .arg(root().join("tools/release/build-archives.sh"));
    c
}

/// A scratch directory of this process: two test runs at once (a developer's and an agent's in
/// one checkout) must not delete each other's archives half-way. It is removed when the test
/// ends (each run left ~1 GB of binaries and archives behind before), pass or fail.
struct ScratchDir(PathBuf);

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

fn fresh_dir(name: &str) -> ScratchDir {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    ScratchDir(dir)
}

#[test]
fn the_release_script_builds_an_archive_krew_can_install() {
    let version = env!("CARGO_PKG_VERSION");
    let (os, arch) = host_platform();
    let work = fresh_dir("release-archive");
    let dist = work.join("dist");

    // 1. Pack the binary this test run built (a copy: a concurrent `cargo build` may relink
    //    the original while the test runs).
    let binary = work.join(krew::BIN);
    std::fs::copy(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"), &binary).unwrap();
    let printed = stdout(
        release_script()
            .arg("--binary")
            .arg(&binary)
            .arg("--out")
            .arg(&dist),
    );
    let archive = dist.join(krew::archive_name(version, os, arch));
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 1, "one archive, one line: {printed}");
    let (sha, path) = lines[0].split_once("  ").expect("`<sha256>  <path>`");
    assert_eq!(Path::new(path), archive);
    assert!(krew::is_valid_sha256(sha), "{sha}");

    // 2. The printed sha256 is the archive's, and so is the .sha256 file beside it.
    assert_eq!(sha, sha256_tool(&archive));
    let sidecar = std::fs::read_to_string(dist.join(format!(
        "{}.sha256",
        archive.file_name().unwrap().to_str().unwrap()
    )))
    .unwrap();
    assert_eq!(
        sidecar,
        format!(
            "{sha}  {}\n",
            archive.file_name().unwrap().to_str().unwrap()
        )
    );

    // 3. Exactly the expected files, the binary executable.
    let listing = stdout(Command::new("tar").arg("-tzf").arg(&archive));
    let mut names: Vec<String> = listing.lines().map(String::from).collect();
    names.sort();
    assert_eq!(names, krew::archive_layout(os));
    let verbose = stdout(Command::new("tar").arg("-tvzf").arg(&archive));
    let bin_line = verbose.lines().find(|l| l.ends_with(krew::BIN)).unwrap();
    assert!(bin_line.starts_with("-rwxr-xr-x"), "{bin_line}");

    // 4. What comes out runs and is this version; the licence is the repository's.
    let unpacked = work.join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    run(Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(&unpacked));
    let said = stdout(Command::new(unpacked.join(krew::BIN)).arg("--version"));
    assert!(
        said.starts_with(&format!("kubectl-cronjob_doctor {version} (commit ")),
        "{said}"
    );
    let report = stdout(Command::new(unpacked.join(krew::BIN)).arg("version"));
    assert!(
        report.starts_with(&format!("kubectl-cronjob_doctor {version}\n")),
        "{report}"
    );
    assert_eq!(
        std::fs::read(unpacked.join("LICENSE")).unwrap(),
        std::fs::read(root().join("LICENSE")).unwrap()
    );

    // 5. Packing is repeatable: the same inputs give the same bytes (shown on a small stand-in
    //    binary, which answers --version like the real one, to keep this test quick).
    let stand_in = work.join("stand-in");
    std::fs::create_dir_all(&stand_in).unwrap();
    let fake = stand_in.join(krew::BIN);
    std::fs::write(
        &fake,
        format!("#!/bin/sh\necho 'kubectl-cronjob_doctor {version} (commit unknown)'\n"),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let pack = |out: &str| {
        stdout(
            release_script()
                .arg("--binary")
                .arg(&fake)
                .arg("--out")
                .arg(stand_in.join(out)),
        )
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
    };
    assert_eq!(pack("one"), pack("two"), "archives must be reproducible");

    // 6. The manifest updater writes this archive in, and the result validates against it.
    let manifest = work.join("krew/cronjob-doctor.yaml");
    std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
    std::fs::copy(root().join("krew/cronjob-doctor.yaml"), &manifest).unwrap();
    run(Command::new("python3")
        .arg(root().join("tools/release/update-krew-manifest.py"))
        .arg("--manifest")
        .arg(&manifest)
        .arg("--partial")
        .arg(&archive));
    let real_listing = names.clone();
    let layout = |o: &str, a: &str| {
        Some(if (o, a) == (os, arch) {
            real_listing.clone()
        } else {
            krew::archive_layout(o)
        })
    };
    let plugin = krew::validate_file(&manifest, &layout)
        .unwrap_or_else(|p| panic!("updated manifest:\n  {}", p.join("\n  ")));
    let original = krew::read(&root().join("krew/cronjob-doctor.yaml")).unwrap();
    let mut hits = 0;
    for (p, before) in plugin.spec.platforms.iter().zip(&original.spec.platforms) {
        let sel = p.selector.as_ref().unwrap();
        if krew::selector_matches(sel, os, arch).unwrap() {
            hits += 1;
            assert_eq!(p.sha256, sha);
            assert!(
                p.uri.ends_with(&format!(
                    "/v{version}/{}",
                    krew::archive_name(version, os, arch)
                )),
                "{}",
                p.uri
            );
        } else {
            assert_eq!(
                (&p.uri, &p.sha256),
                (&before.uri, &before.sha256),
                "other platforms stay as they were"
            );
        }
    }
    assert_eq!(
        hits, 1,
        "the host platform {os}/{arch} is in the manifest once"
    );
}

#[test]
fn the_manifest_updater_refuses_mixed_releases() {
    let work = fresh_dir("release-updater");
    let manifest = work.join("cronjob-doctor.yaml");
    std::fs::copy(root().join("krew/cronjob-doctor.yaml"), &manifest).unwrap();
    let fake = |name: &str| {
        let p = work.join(name);
        std::fs::write(&p, name).unwrap();
        p
    };
    let updater = || {
        let mut c = Command::new("python3");
        c.arg(root().join("tools/release/update-krew-manifest.py"))
            .arg("--manifest")
            .arg(&manifest);
        c
    };
    let fails = |c: &mut Command, why: &str| {
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{why}: {err}");
        assert!(err.contains(why), "expected {why:?} in: {err}");
    };
    // Without --partial every platform needs its archive.
    fails(
        updater().arg(fake("kubectl-cronjob_doctor-0.1.0-linux-amd64.tar.gz")),
        "no archive for",
    );
    // A partial update cannot move the version.
    fails(
        updater()
            .arg("--partial")
            .arg(fake("kubectl-cronjob_doctor-9.9.9-linux-amd64.tar.gz")),
        "--partial keeps the manifest's version",
    );
    // Versions must agree; names must be ours; windows ships a zip.
    fails(
        updater()
            .arg("--partial")
            .arg(fake("kubectl-cronjob_doctor-0.1.0-linux-amd64.tar.gz"))
            .arg(fake("kubectl-cronjob_doctor-0.1.1-linux-arm64.tar.gz")),
        "different versions",
    );
    fails(
        updater()
            .arg("--partial")
            .arg(fake("other-0.1.0-linux-amd64.tar.gz")),
        "is not named",
    );
    fails(
        updater()
            .arg("--partial")
            .arg(fake("kubectl-cronjob_doctor-0.1.0-windows-amd64.tar.gz")),
        ".zip for windows",
    );
    fails(
        updater()
            .arg("--partial")
            .arg(fake("kubectl-cronjob_doctor-0.1.0-freebsd-amd64.tar.gz")),
        "no platform for",
    );
    // Nothing was written by the refusals.
    assert_eq!(
        std::fs::read(&manifest).unwrap(),
        std::fs::read(root().join("krew/cronjob-doctor.yaml")).unwrap()
    );
}
