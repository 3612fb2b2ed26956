//! Strings from a file never reach the terminal raw. An annotation, a name, a schedule
//! or a zone carrying `ESC ] 0 ; … BEL` (retitle) or `ESC [ 2 J` (clear) is printed with its
//! control characters made visible in text output, even with `--color never`; JSON keeps the
//! raw value (its encoder escapes it).

use assert_cmd::Command;

use crate::support::scratch;

const NOW: &str = "2026-11-20T12:00:00Z";

/// The payload from the issue, as YAML double-quoted escapes (`\e` is ESC, `\a` is BEL).
const PAYLOAD_YAML: &str = r"mallory\e]0;PWNED\a\e[2J\e[8m";
/// How the text output shows it.
const PAYLOAD_SHOWN: &str = r"mallory\e]0;PWNED\a\e[2J\e[8m";
/// The raw value.
const PAYLOAD_RAW: &str = "mallory\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{1b}[8m";

fn hostile_manifest() -> String {
    let p = PAYLOAD_YAML;
    format!(
        r#"apiVersion: batch/v1
kind: CronJob
metadata:
  name: "backup{p}"
  namespace: ops
  annotations:
    cronjob-doctor.io/suspended-by: "{p}"
    cronjob-doctor.io/suspend-reason: "{p}"
spec:
  schedule: "0 3 * * *{p}"
  timeZone: "Europe/Berlin{p}"
  concurrencyPolicy: "Forbid{p}"
  suspend: true
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{{name: c, image: busybox}}]
"#
    )
}

fn run(args: &[&str]) -> (String, i32) {
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .env_remove("NO_COLOR")
        .env("COLUMNS", "100")
        .args(args)
        .write_stdin(hostile_manifest())
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

fn assert_no_raw_controls(out: &str) {
    let bad: Vec<char> = out
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(bad.is_empty(), "raw control characters {bad:?} in:\n{out}");
}

#[test]
fn explain_text_shows_control_characters_instead_of_sending_them() {
    let (out, _) = run(&["explain", "-f", "-", "--now", NOW, "--color", "never"]);
    assert_no_raw_controls(&out);
    assert!(out.contains(&format!("backup{PAYLOAD_SHOWN}")), "{out}");
    assert!(
        out.contains(&format!("Europe/Berlin{PAYLOAD_SHOWN}")),
        "{out}"
    );
}

#[test]
fn explain_text_with_color_has_only_our_own_escapes() {
    let (out, _) = run(&["explain", "-f", "-", "--now", NOW, "--color", "always"]);
    assert!(
        !out.contains("\u{1b}]"),
        "an OSC sequence got through:\n{out}"
    );
    assert!(!out.contains('\u{7}'), "a BEL got through:\n{out}");
    assert!(
        !out.contains("\u{1b}[2J"),
        "a screen clear got through:\n{out}"
    );
    assert!(out.contains(PAYLOAD_SHOWN), "{out}");
}

#[test]
fn lint_text_shows_control_characters_instead_of_sending_them() {
    let (out, _) = run(&["lint", "-f", "-", "--now", NOW, "--color", "never"]);
    assert_no_raw_controls(&out);
    assert!(out.contains(PAYLOAD_SHOWN), "{out}");
}

#[test]
fn json_keeps_the_raw_value() {
    for cmd in ["explain", "lint"] {
        let (out, _) = run(&[cmd, "-f", "-", "--now", NOW, "-o", "json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v["cronJobs"][0]["name"],
            format!("backup{PAYLOAD_RAW}"),
            "{cmd}"
        );
    }
}

#[test]
fn next_shows_control_characters_in_the_schedule_and_zone() {
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .args([
            "next",
            &format!("0 3 * * *{PAYLOAD_RAW}"),
            "--time-zone",
            &format!("UTC{PAYLOAD_RAW}"),
            "--from",
            NOW,
            "--color",
            "never",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert_no_raw_controls(&out);
    assert!(out.contains(PAYLOAD_SHOWN), "{out}");
}

/// stderr too (review): an input error about a file whose name carries the payload, and the
/// "did you mean" list of names from the input.
#[test]
fn stderr_shows_hostile_file_names_and_input_names_too() {
    let dir = scratch("hostile-stderr");
    std::fs::write(dir.join(format!("bad{PAYLOAD_RAW}.yaml")), "a: [\n").unwrap();
    std::fs::write(dir.join("ok.yaml"), hostile_manifest()).unwrap();
    let ok = dir.join("ok.yaml");
    for args in [
        vec!["lint", "-f", dir.to_str().unwrap(), "--now", NOW],
        // No input error here: the "no CronJob named … (found: …)" message lists the names.
        vec!["explain", "zzzz", "-f", ok.to_str().unwrap(), "--now", NOW],
    ] {
        let out = Command::cargo_bin("kubectl-cronjob_doctor")
            .unwrap()
            .args(&args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{7}'),
            "{args:?}: {err:?}"
        );
        assert!(err.contains(PAYLOAD_SHOWN), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
