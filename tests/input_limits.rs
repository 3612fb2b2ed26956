//! `-f` reads at most `--max-input-size` bytes per input (stdin too), and the flag
//! has a documented range checked before anything is read.

use assert_cmd::Command;

use crate::support::scratch;

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

/// `-o sarif` reads a file again for its edits; a FIFO named with `-f` cannot be read twice
/// (the second open blocks forever), so its results carry no edits instead (review).
#[cfg(unix)]
#[test]
fn sarif_of_a_fifo_does_not_hang() {
    let dir = scratch("sarif-fifo");
    let fifo = dir.join("cronjob.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let manifest = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/tz-prefix-in-schedule.yaml"),
    )
    .unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, manifest).unwrap())
    };
    // Output to a file: a pipe nobody reads while waiting would block the tool by itself.
    let out_path = dir.join("out.sarif");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .args(["lint", "-o", "sarif", "--now", "2026-11-20T12:00:00Z", "-f"])
        .arg(&fifo)
        .stdout(std::fs::File::create(&out_path).unwrap())
        .spawn()
        .unwrap();
    writer.join().unwrap();
    // A hang would block here forever; the test harness's timeout is the backstop, and the
    // deadline below turns it into a failure with a message.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("lint -o sarif on a FIFO did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let out = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(status.code(), Some(1), "{out}");
    assert!(out.contains("\"results\""), "{out}");
    assert!(!out.contains("\"fixes\""), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
