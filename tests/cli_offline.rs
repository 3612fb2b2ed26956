//! `explain -f` and `lint` as a user runs them: exit codes in a shell `if`, stdin, bad input
//! that is reported with file:line:col without losing the other documents, and snapshots of
//! exactly what people read (fixed --now, NO_COLOR, fixed width).

use assert_cmd::Command;

use crate::support::scratch;

const NOW: &str = "2026-11-20T12:00:00Z";

fn doctor() -> Command {
    let mut c = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
    c.env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(args: &[&str]) -> (String, String, i32) {
    let out = doctor().args(args).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn explain_text_of_every_example() {
    let mut files: Vec<_> = std::fs::read_dir("examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        let (out, _, _) = run(&["explain", "-f", f.to_str().unwrap(), "--now", NOW]);
        insta::assert_snapshot!(format!("explain_{name}"), out);
    }
}

#[test]
fn explain_json_follows_the_contract() {
    let (out, _, code) = run(&[
        "explain",
        "-f",
        "examples/forbid-blocked-by-hung-job.yaml",
        "--now",
        NOW,
        "-o",
        "json",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schemaVersion"], 1);
    assert_eq!(v["now"], NOW);
    let cj = &v["cronJobs"][0];
    assert_eq!(cj["namespace"], "ops");
    assert_eq!(cj["name"], "backup");
    assert_eq!(
        cj["source"]["file"],
        "examples/forbid-blocked-by-hung-job.yaml"
    );
    assert_eq!(cj["source"]["line"], 3);
    let c = &cj["controller"];
    assert_eq!(c["decision"], "forbid-blocked");
    assert_eq!(c["scheduledTime"], "2026-11-20T03:00:00Z");
    assert_eq!(c["jobName"], "backup-29919060");
    assert_eq!(c["events"], serde_json::json!(["JobAlreadyActive"]));
    // Next(03:00 slot) = tomorrow 03:00, + 100 ms, − now 12:00.
    assert_eq!(c["requeueAfterMs"], 15 * 3600 * 1000 + 100);
    assert_eq!(c["missedSchedules"], "few");
    assert_eq!(cj["nextScheduleTimes"].as_array().unwrap().len(), 5);
    assert_eq!(cj["nextScheduleTimes"][0], "2026-11-21T03:00:00Z");
    let f = &cj["findings"][0];
    for key in ["id", "slug", "severity", "message", "remediation"] {
        assert!(f[key].is_string(), "finding lacks {key}");
    }
    assert_eq!(f["slug"], "forbid-blocked");
    assert!(v["errors"].as_array().unwrap().is_empty());
    insta::assert_snapshot!("explain_json_forbid", out);
}

#[test]
fn sarif_locates_findings_in_the_file() {
    let (out, _, _) = run(&[
        "lint",
        "-f",
        "examples/invalid-schedule-sunday-7.yaml",
        "--now",
        NOW,
        "-o",
        "sarif",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().unwrap();
    let r = results
        .iter()
        .find(|r| r["properties"]["slug"] == "invalid-schedule")
        .expect("invalid-schedule result");
    assert_eq!(r["level"], "error");
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "examples/invalid-schedule-sunday-7.yaml"
    );
    // `  schedule: "0 0 * * 7"` is line 6; the value's opening quote is column 13.
    assert_eq!(loc["region"]["startLine"], 6);
    assert_eq!(loc["region"]["startColumn"], 13);
    let rules = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(
        rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
        r["ruleId"]
    );
    insta::assert_snapshot!("lint_sarif_sunday_7", out);
}

#[test]
fn lint_exit_codes_work_in_a_shell_if() {
    assert_eq!(
        run(&["lint", "-f", "examples/healthy.yaml", "--now", NOW]).2,
        0
    );
    let (out, _, code) = run(&["lint", "-f", "examples/", "--now", NOW]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("lint_examples", out);
    // Only errors fail with --fail-on error; warnings are still shown.
    assert_eq!(
        run(&[
            "lint",
            "-f",
            "examples/dst-gap-and-double-run.yaml",
            "--now",
            NOW,
            "--fail-on",
            "error"
        ])
        .2,
        0
    );
    assert_eq!(
        run(&[
            "lint",
            "-f",
            "examples/dst-gap-and-double-run.yaml",
            "--now",
            NOW
        ])
        .2,
        1
    );
    assert_eq!(
        run(&[
            "lint",
            "-f",
            "examples/",
            "--now",
            NOW,
            "--fail-on",
            "never"
        ])
        .2,
        0
    );
    // Unreadable input: 2, whatever else was found.
    let (_, _, code) = run(&["lint", "-f", "does/not/exist.yaml", "--now", NOW]);
    assert_eq!(code, 2);
    let ok = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "if {} lint -f examples/healthy.yaml --now {NOW} >/dev/null; then echo pass; else echo fail; fi",
            assert_cmd::cargo::cargo_bin("kubectl-cronjob_doctor").display()
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&ok.stdout).trim(), "pass");
}

#[test]
fn a_malformed_document_is_reported_and_the_others_are_still_checked() {
    let input = "\
apiVersion: batch/v1
kind: CronJob
metadata: {name: first}
spec:
  schedule: \"0 0 * * 7\"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: broken
spec: [
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: third}
spec:
  schedule: \"*/5 * * * *\"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}
";
    let out = doctor()
        .args(["lint", "-f", "-", "--now", NOW])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let has = |place: &str, slug: &str| {
        text.lines()
            .any(|l| l.starts_with(place) && l.contains(slug))
    };
    assert!(has("<stdin>:5:13 ", "error    invalid-schedule"), "{text}");
    assert!(has("<stdin>:18:12 ", "error    suspended"), "{text}");
    // Errors go to stderr; stdout's summary counts them.
    let stderr = String::from_utf8(out.stderr).unwrap();
    let err_line = stderr
        .lines()
        .find(|l| l.contains("invalid YAML"))
        .expect("the broken document is reported");
    // The parser notices the unclosed `{` of line 10 at line 11, column 5: inside the broken
    // document (lines 8-11), not at the documents around it.
    assert!(
        err_line.starts_with("error: <stdin>:11:5: invalid YAML"),
        "{err_line}"
    );
    assert!(!text.contains("invalid YAML"), "{text}");
    assert!(
        text.trim_end()
            .ends_with("; 1 input error in 1 input (see stderr)"),
        "{text}"
    );
}

/// Offline `explain` printed its input errors on stdout, and `lint` counted a file
/// with 9 bad documents as "9 inputs unreadable".
#[test]
fn input_errors_go_to_stderr_and_are_counted_per_input() {
    let bad = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: [oops\n";
    let good = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: fine}\nspec:\n  schedule: \"0 3 * * *\"\n  timeZone: UTC\n  startingDeadlineSeconds: 300\n  jobTemplate: {spec: {activeDeadlineSeconds: 600, template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n";
    let mut input = good.to_string();
    for _ in 0..9 {
        input.push_str("---\n");
        input.push_str(bad);
    }
    let out = doctor()
        .args(["explain", "-f", "-", "--now", NOW])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!stdout.contains("error:"), "stdout has errors: {stdout}");
    assert!(
        stdout.contains("fine"),
        "the good CronJob is still explained: {stdout}"
    );
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.starts_with("error: <stdin>:"))
            .count(),
        9,
        "{stderr}"
    );
    // JSON keeps them in the document too, and still says them on stderr.
    let out = doctor()
        .args(["explain", "-f", "-", "--now", NOW, "-o", "json"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["errors"].as_array().unwrap().len(), 9);
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: <stdin>:"));
    // lint: nine errors in one input, not "9 inputs unreadable".
    let out = doctor()
        .args(["lint", "-f", "-", "--now", NOW])
        .write_stdin(input)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout.contains("; 9 input errors in 1 input (see stderr)"),
        "{stdout}"
    );
    assert!(!stdout.contains("unreadable"), "{stdout}");
}

#[test]
fn explain_by_name_suggests_close_names() {
    let (_, err, code) = run(&["explain", "bakup", "-f", "examples/", "--now", NOW]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no CronJob named \"bakup\" in the input; did you mean backup?"),
        "{err}"
    );
    let (out, _, _) = run(&["explain", "backup", "-f", "examples/", "--now", NOW]);
    assert!(out.starts_with("✗ backup has not run since"), "{out}");
    assert_eq!(out.matches("Controller replay").count(), 1);
}

#[test]
fn kube_version_selects_the_legacy_controller() {
    let (out, _, code) = run(&[
        "explain",
        "-f",
        "examples/too-many-missed.yaml",
        "--now",
        NOW,
        "--kube-version",
        "1.20",
        "-o",
        "json",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // ≤1.20: more than 100 unmet start times is a hard stop (FailedNeedsStart, no Job).
    assert_eq!(
        v["cronJobs"][0]["controller"]["decision"],
        "invalid-schedule"
    );
    assert_eq!(
        v["cronJobs"][0]["controller"]["events"],
        serde_json::json!(["FailedNeedsStart"])
    );
    let (out, _, _) = run(&[
        "explain",
        "-f",
        "examples/too-many-missed.yaml",
        "--now",
        NOW,
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["cronJobs"][0]["controller"]["decision"], "create");
    assert_eq!(
        v["cronJobs"][0]["controller"]["events"],
        serde_json::json!(["TooManyMissedTimes", "SuccessfulCreate"])
    );
    let (_, err, code) = run(&["explain", "-f", "examples/", "--kube-version", "banana"]);
    assert_eq!(code, 2);
    assert!(err.contains("--kube-version"));
}

#[test]
fn rules_catalogue_prints_in_every_format() {
    let (out, _, code) = run(&["rules"]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .any(|l| l.starts_with("CJD007") && l.contains("forbid-blocked"))
    );
    let (md, _, _) = run(&["rules", "-o", "markdown"]);
    assert_eq!(md, std::fs::read_to_string("docs/rules.md").unwrap());
    let (js, _, _) = run(&["rules", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&js).unwrap();
    assert!(v["rules"].as_array().unwrap().len() >= 33);
}

#[test]
fn the_real_world_corpus_never_panics() {
    let Some(corpus) = std::env::var_os("CRONJOB_DOCTOR_CORPUS").map(std::path::PathBuf::from)
    else {
        eprintln!(
            "skipped: CRONJOB_DOCTOR_CORPUS unset (the real-world corpus lives outside the repository)"
        );
        return;
    };
    assert!(
        corpus.is_dir(),
        "CRONJOB_DOCTOR_CORPUS={}",
        corpus.display()
    );
    for format in ["text", "json", "sarif"] {
        let out = doctor()
            .args([
                "lint",
                "-f",
                corpus.to_str().unwrap(),
                "--now",
                NOW,
                "-o",
                format,
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{format}: {stderr}");
        // 033 is invalid YAML and the helm-templates folder is a Helm template: exit 2, and
        // every other CronJob is still checked.
        assert_eq!(out.status.code(), Some(2), "{format}");
        if format == "json" {
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            // Manifests without runs have no run story to tell.
            for cj in v["cronJobs"].as_array().unwrap() {
                for f in cj["findings"].as_array().unwrap() {
                    assert!(
                        !["run-not-started", "late-start", "ran-more-than-once"]
                            .contains(&f["slug"].as_str().unwrap()),
                        "{}: {f}",
                        cj["name"]
                    );
                }
            }
            assert_eq!(v["cronJobs"].as_array().unwrap().len(), 169);
            assert_eq!(v["errors"].as_array().unwrap().len(), 2);
        }
    }
    let out = doctor()
        .args(["explain", "-f", corpus.to_str().unwrap(), "--now", NOW])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    assert_eq!(out.status.code(), Some(2));
}

/// A write that fails for another reason than a closed pipe (`>/dev/full`) is said and makes the
/// exit code 2: the output the exit code stands for was not delivered (review).
#[cfg(target_os = "linux")]
#[test]
fn json_output_to_a_full_disk_is_an_error() {
    for cmd in [
        vec!["lint", "-f", "examples/", "--now", NOW, "-o", "json"],
        vec!["explain", "-f", "examples/", "--now", NOW, "-o", "json"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
            .args(&cmd)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {err}");
        assert!(err.contains("cannot write the output"), "{cmd:?}: {err}");
    }
}

/// Every run entry of the timeline carries `startDelaySeconds` and `attempts`, with the values
/// the examples' own timestamps give (worked out by hand from each file), null where the
/// evidence is gone; and every key a timeline entry can carry is documented in docs/json.md.
#[test]
fn each_run_says_its_start_delay_and_attempts() {
    let expect: &[(&str, &str, serde_json::Value, serde_json::Value)] = &[
        // Its Pod has never started: no delay yet, no start (0), not "unknown".
        (
            "run-not-started-unschedulable",
            "report-29919570",
            serde_json::Value::Null,
            0.into(),
        ),
        // Pruned Pod: neither is known.
        (
            "run-not-started-unschedulable",
            "report-29919510",
            serde_json::Value::Null,
            serde_json::Value::Null,
        ),
        // 11:45:00 → first container start 11:56:03.
        (
            "late-start-image-pull",
            "thumbnails-29919585",
            663.into(),
            1.into(),
        ),
        // 11:50:00 → 11:57:16.
        (
            "late-start-controller-lag",
            "sync-29919590",
            436.into(),
            1.into(),
        ),
        // 02:00:00 → 02:00:04 (the first, OOMKilled attempt), then the retry.
        (
            "ran-twice-oomkilled-retry",
            "charges-29919000",
            4.into(),
            2.into(),
        ),
        // No Pods, status.failed 2: two failed starts are proven.
        (
            "jobs-failing-oomkilled",
            "etl-29917560",
            serde_json::Value::Null,
            2.into(),
        ),
    ];
    let docs = std::fs::read_to_string("docs/json.md").unwrap();
    for (file, job, delay, attempts) in expect {
        let path = format!("examples/{file}.yaml");
        let (out, _, _) = run(&["explain", "-f", &path, "--now", NOW, "-o", "json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let timeline = v["cronJobs"][0]["timeline"].as_array().unwrap();
        let run = timeline
            .iter()
            .find(|s| s["job"] == *job)
            .unwrap_or_else(|| panic!("{file}: no run {job}"));
        assert_eq!(&run["startDelaySeconds"], delay, "{file} {job}");
        assert_eq!(&run["attempts"], attempts, "{file} {job}");
        for slot in timeline {
            let has_run = slot.get("job").is_some();
            assert_eq!(slot.get("attempts").is_some(), has_run, "{file}: {slot}");
            for key in slot.as_object().unwrap().keys() {
                assert!(
                    docs.contains(&format!("`{key}`")) || docs.contains(&format!("\"{key}\"")),
                    "docs/json.md does not name {key}"
                );
            }
        }
    }
}

/// `explain --slot` on every example: the most recent past slot of its timeline (11:00 where
/// it has none: suspended, never applied, a schedule that cannot run), as text in one
/// snapshot; the exit code is 1 exactly when the JSON says the run did not run well.
#[test]
fn explain_slot_answers_for_every_example() {
    let mut files: Vec<_> = std::fs::read_dir("examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut all = String::new();
    for f in &files {
        let f = f.to_str().unwrap();
        let (js, _, _) = run(&["explain", "-f", f, "--now", NOW, "-o", "json"]);
        let v: serde_json::Value = serde_json::from_str(&js).unwrap();
        let slot = v["cronJobs"][0]["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|s| s["status"] != "next" && s["manual"].is_null())
            .map_or("11:00".to_string(), |s| {
                s["time"].as_str().unwrap().to_string()
            });
        let (text, err, code) = run(&["explain", "-f", f, "--now", NOW, "--slot", &slot]);
        assert!(err.is_empty(), "{f}: {err}");
        let (js, _, jcode) = run(&[
            "explain", "-f", f, "--now", NOW, "--slot", &slot, "-o", "json",
        ]);
        let v: serde_json::Value = serde_json::from_str(&js).unwrap();
        let ok = v["ok"].as_bool().unwrap();
        assert_eq!(code, if ok { 0 } else { 1 }, "{f}");
        assert_eq!(jcode, code, "{f}");
        all.push_str(&format!("$ explain -f {f} --slot {slot}\n{text}\n"));
    }
    insta::assert_snapshot!("explain_slot_every_example", all);
}

#[test]
fn explain_slot_tells_one_runs_story_and_refuses_what_it_cannot_answer() {
    let json = |file: &str, slot: &str| -> serde_json::Value {
        let (out, _, _) = run(&[
            "explain", "-f", file, "--now", NOW, "--slot", slot, "-o", "json",
        ]);
        serde_json::from_str(&out).unwrap()
    };
    let v = json("examples/ran-twice-oomkilled-retry.yaml", "02:00");
    assert_eq!(v["attempts"], 2);
    assert_eq!(v["startDelaySeconds"], 4);
    assert_eq!(
        v["answer"],
        "the 2026-11-20 02:00 UTC run succeeded on its second attempt (the first OOMKilled after 8m)"
    );
    // The same slot as an instant; without an offset it is UTC.
    assert_eq!(
        json(
            "examples/ran-twice-oomkilled-retry.yaml",
            "2026-11-20T02:00"
        )["answer"],
        v["answer"]
    );
    let v = json("examples/forbid-blocked-by-hung-job.yaml", "03:00");
    assert_eq!(v["ok"], false);
    assert_eq!(v["status"], "skipped");
    assert!(
        v["answer"]
            .as_str()
            .unwrap()
            .contains("JobAlreadyActive (Forbid"),
        "{v}"
    );
    // Not a slot of the schedule: the slots around it.
    let v = json("examples/late-start-image-pull.yaml", "11:00");
    assert_eq!(v["isSlot"], false);
    assert_eq!(
        v["answer"],
        "no run is scheduled at 2026-11-20 11:00 UTC: the one before was 2026-11-20 10:45 UTC; the next was 2026-11-20 11:45 UTC"
    );
    for (args, says) in [
        (vec!["--slot", "eleven"], "is not a time"),
        (vec!["--slot", "11:00", "-o", "sarif"], "-o text or -o json"),
    ] {
        let mut all = vec!["explain", "-f", "examples/healthy.yaml", "--now", NOW];
        all.extend(args);
        let (_, err, code) = run(&all);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
    let (_, err, code) = run(&["explain", "-f", "examples", "--now", NOW, "--slot", "11:00"]);
    assert_eq!(code, 2);
    assert!(err.contains("--slot answers for one CronJob"), "{err}");
}

/// Every RFC 3339 time Go's parser accepts is read: the last hours of year 9999, past jiff's
/// last instant, included (they used to stop the input with "should be an RFC 3339 time").
#[test]
fn a_valid_time_at_the_edge_of_the_range_is_read() {
    let dir = scratch("edge-time");
    let f = dir.join("edge.yaml");
    std::fs::write(
        &f,
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: edge, namespace: ops, creationTimestamp: \"9999-12-31T23:59:59Z\"}\nspec:\n  schedule: \"0 3 * * *\"\n  timeZone: Etc/UTC\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}\nstatus: {lastScheduleTime: \"9999-12-31T12:00:00+01:00\"}\n",
    )
    .unwrap();
    let (out, err, code) = run(&[
        "explain",
        "-f",
        f.to_str().unwrap(),
        "--now",
        NOW,
        "-o",
        "json",
    ]);
    assert_ne!(code, 2, "{err}");
    assert!(!err.contains("RFC 3339"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["cronJobs"][0]["lastScheduleTime"], "9999-12-30T22:00:00Z");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--slot` text shows what the input holds with its control characters visible: a name
/// with a terminal escape in it cannot clear the screen of whoever reads the answer.
#[test]
fn explain_slot_text_shows_control_characters_visibly() {
    let dir = scratch("slot-esc");
    let f = dir.join("esc.yaml");
    std::fs::write(
        &f,
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: \"x\\e[2Jy\", namespace: \"o\\aps\", creationTimestamp: \"2026-11-01T00:00:00Z\"}\nspec:\n  schedule: \"0 3 * * *\"\n  timeZone: Etc/UTC\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: c:1}]}}}}\nstatus: {lastScheduleTime: \"2026-11-20T03:00:00Z\"}\n",
    )
    .unwrap();
    let (out, err, _) = run(&[
        "explain",
        "-f",
        f.to_str().unwrap(),
        "--now",
        NOW,
        "--slot",
        "03:00",
    ]);
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}'),
        "{out:?} {err}"
    );
    assert!(out.contains(r"x\e[2Jy") && out.contains(r"o\aps"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
