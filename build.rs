//! Records the git commit the binary was built from, for `kubectl cronjob-doctor version`.
//!
//! Sources, in order:
//! 1. `CRONJOB_DOCTOR_GIT_COMMIT` in the build environment, for builds from a source tarball
//!    that know their commit (distribution packages, a release job building from an archive);
//! 2. `git rev-parse` — but only when this crate is the top of the git checkout, so a source
//!    tarball unpacked inside some other repository does not claim that repository's commit;
//! 3. "unknown" (a crates.io or tarball build).

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn commit_from_git(dir: &Path) -> Option<String> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(&top, dir) {
        return None;
    }
    git(dir, &["rev-parse", "--short=12", "HEAD"])
}

fn main() {
    let dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let commit = std::env::var("CRONJOB_DOCTOR_GIT_COMMIT")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| commit_from_git(&dir))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=CRONJOB_DOCTOR_GIT_COMMIT={commit}");
    println!("cargo:rerun-if-env-changed=CRONJOB_DOCTOR_GIT_COMMIT");
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
}
