//! `version`, `--version` and `-V`: the first thing asked for in a bug report, so their format is
//! a contract (the release script and bug templates read it). The commit is the checkout's when
//! built from git, `unknown` from a source tarball (build.rs).

use assert_cmd::Command;

fn doctor(args: &[&str]) -> String {
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    assert!(
        out.stderr.is_empty(),
        "{args:?} wrote to stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn is_commit(s: &str) -> bool {
    s == "unknown"
        || (s.len() == 12
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

/// `2026e`: IANA release names are a year and a letter.
fn is_tzdb_release(s: &str) -> bool {
    s.len() == 5
        && s[..4].bytes().all(|b| b.is_ascii_digit())
        && s.as_bytes()[4].is_ascii_lowercase()
}

#[test]
fn version_reports_version_commit_tz_database_and_engine() {
    let out = doctor(&["version"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(
        lines[0],
        format!("kubectl-cronjob_doctor {}", env!("CARGO_PKG_VERSION"))
    );
    let commit = lines[1].strip_prefix("commit: ").expect(lines[1]);
    assert!(is_commit(commit), "{commit}");
    let tz = lines[2].strip_prefix("tz database: ").expect(lines[2]);
    let (release, note) = tz.split_once(' ').unwrap();
    assert!(is_tzdb_release(release), "{release}");
    assert_eq!(
        note,
        "(bundled with the binary; the controller may use a different one)"
    );
    assert_eq!(lines[3], "schedule engine: robfig/cron v3.0.1 semantics");
    assert!(out.ends_with('\n'));
}

#[test]
fn version_flags_agree_with_the_version_command() {
    let report = doctor(&["version"]);
    let commit = report
        .lines()
        .nth(1)
        .unwrap()
        .strip_prefix("commit: ")
        .unwrap();
    let v = env!("CARGO_PKG_VERSION");
    assert_eq!(
        doctor(&["--version"]),
        format!("kubectl-cronjob_doctor {v} (commit {commit})\n")
    );
    assert_eq!(doctor(&["-V"]), format!("kubectl-cronjob_doctor {v}\n"));
}

#[test]
fn the_commit_is_this_checkouts_when_built_from_git() {
    let root = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let top = git(&["rev-parse", "--show-toplevel"]);
    let same_dir =
        top.is_some_and(|t| std::fs::canonicalize(t).ok() == std::fs::canonicalize(root).ok());
    let report = doctor(&["version"]);
    let commit = report
        .lines()
        .nth(1)
        .unwrap()
        .strip_prefix("commit: ")
        .unwrap()
        .to_string();
    match std::env::var("CRONJOB_DOCTOR_GIT_COMMIT") {
        // An explicit commit given to the build wins; nothing to compare with.
        Ok(_) => {}
        Err(_) if same_dir => assert_eq!(Some(commit), git(&["rev-parse", "--short=12", "HEAD"])),
        Err(_) => assert_eq!(commit, "unknown", "not a git checkout of this crate"),
    }
}
