//! `lint` fails what the API server rejects, quoting the server's own message, where
//! it used to print "0 problems".

use assert_cmd::Command;

fn lint(spec_line: &str) -> (String, i32) {
    let yaml = format!(
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: sync, namespace: ops}}\nspec:\n  schedule: \"*/10 * * * *\"\n  {spec_line}\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{{name: sync, image: sync:1}}]\n"
    );
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .env("NO_COLOR", "1")
        .args([
            "lint",
            "-f",
            "-",
            "--now",
            "2026-11-20T12:00:00Z",
            "--fail-on",
            "error",
        ])
        .write_stdin(yaml)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn a_negative_starting_deadline_is_an_error() {
    let (out, code) = lint("startingDeadlineSeconds: -5");
    assert_eq!(code, 1, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("<stdin>:6:28 "))
        .unwrap_or_default();
    assert!(
        line.contains(" error ") && line.contains("field-out-of-range"),
        "{out}"
    );
    assert!(
        out.contains(
            "spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0"
        ),
        "{out}"
    );
}

#[test]
fn a_quoted_integer_is_an_error() {
    let (out, code) = lint("startingDeadlineSeconds: \"300\"");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("wrong-field-type"), "{out}");
    assert!(
        out.contains("json: cannot unmarshal string into Go struct field CronJobSpec.spec.startingDeadlineSeconds of type int64"),
        "{out}"
    );
}

#[test]
fn valid_values_stay_quiet() {
    let (out, code) = lint("startingDeadlineSeconds: 300");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 errors"), "{out}");
}
