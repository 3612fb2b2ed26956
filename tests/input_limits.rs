//! Issue 9: `-f` reads at most `--max-input-size` bytes per input (stdin too), and the flag
//! has a documented range checked before anything is read.

use assert_cmd::Command;

const CJ: &str = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: x}\nspec: {schedule: '0 3 * * *', jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: i}]}}}}}\n---\n";

fn run(args: &[&str], stdin: String) -> (String, String, i32) {
    let out = Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn an_input_over_the_cap_is_an_error_and_the_flag_raises_the_cap() {
    let big = CJ.repeat(20); // about 4 KiB
    let now = "--now=2026-11-20T12:00:00Z";
    let (out, err, code) = run(
        &["lint", "-f", "-", now, "--max-input-size", "1Ki"],
        big.clone(),
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        format!("{out}{err}").contains(
            "cannot read standard input: larger than 1 KiB (raise the limit with --max-input-size)"
        ),
        "{out}{err}"
    );
    let (out, err, code) = run(
        &["lint", "-f", "-", now, "--max-input-size", "8Ki"],
        big.clone(),
    );
    assert_eq!(code, 0, "{out}{err}");
    let (out, err, code) = run(&["explain", "-f", "-", now, "--max-input-size", "1Ki"], big);
    assert_eq!(code, 2, "{out}{err}");
}

#[test]
fn the_flag_range_is_enforced_at_parse_time() {
    for bad in ["65Gi", "10", "lots", "18446744073709551615Gi"] {
        let (_, err, code) = run(&["lint", "-f", "-", "--max-input-size", bad], String::new());
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("--max-input-size"), "{bad}: {err}");
        assert!(
            err.contains("1Ki to 64Gi") || err.contains("is not a size"),
            "{bad}: {err}"
        );
    }
}
