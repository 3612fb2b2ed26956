//! `next` as a user runs it: exit codes, the JSON contract, the DST flags in text output.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::{scratch, strings};

fn doctor() -> Command {
    let mut c = Command::cargo_bin("kubectl-cronjob_doctor").unwrap();
    c.env("NO_COLOR", "1").env_remove("COLUMNS");
    c
}

fn json(args: &[&str]) -> (Value, i32) {
    let out = doctor().args(args).arg("-o").arg("json").output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    (v, out.status.code().unwrap())
}

#[test]
fn dom_and_dow_are_ored_like_robfig() {
    // Issue #2's acceptance case: the 1st OR Mondays, so Monday Jan 8 comes first.
    let (v, code) = json(&["next", "0 0 1 * MON", "--from", "2024-01-01T00:00:00Z"]);
    assert_eq!(code, 0);
    assert_eq!(v["schemaVersion"], 1);
    assert_eq!(v["schedule"], "0 0 1 * MON");
    assert_eq!(v["timeZone"], Value::Null);
    assert_eq!(v["from"], "2024-01-01T00:00:00Z");
    assert_eq!(v["error"], Value::Null);
    let times: Vec<&str> = strings(&v["times"]);
    assert_eq!(
        times,
        [
            "2024-01-08T00:00:00Z",
            "2024-01-15T00:00:00Z",
            "2024-01-22T00:00:00Z",
            "2024-01-29T00:00:00Z",
            "2024-02-01T00:00:00Z"
        ]
    );
}

#[test]
fn a_tz_prefix_without_schedule_is_explained_not_a_crash() {
    let (v, code) = json(&["next", "TZ=UTC"]);
    assert_eq!(code, 1);
    assert_eq!(v["times"].as_array().unwrap().len(), 0);
    assert_eq!(v["error"], "runtime error: slice bounds out of range [:-1]");
    let out = doctor().args(["next", "TZ=UTC"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("crashes on a TZ=/CRON_TZ= prefix"), "{text}");
}

#[test]
fn rejected_schedules_exit_1_with_robfigs_message_and_a_hint() {
    let (v, code) = json(&["next", "0 0 * * 7"]);
    assert_eq!(code, 1);
    assert_eq!(v["error"], "end of range (7) above maximum (6): 7");
    let out = doctor().args(["next", "0 0 * * 7"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("7 is not Sunday in Kubernetes; use 0"));
}

#[test]
fn time_zone_flag_behaves_like_spec_time_zone() {
    let (v, _) = json(&[
        "next",
        "0 9 * * *",
        "--time-zone",
        "America/New_York",
        "--from",
        "2024-01-01T00:00:00Z",
        "--count",
        "1",
    ]);
    assert_eq!(v["timeZone"], "America/New_York");
    assert_eq!(v["times"][0], "2024-01-01T14:00:00Z");
    // A schedule that already contains TZ keeps its own zone (formatSchedule).
    let (v, _) = json(&[
        "next",
        "TZ=Asia/Tokyo 0 9 * * *",
        "--time-zone",
        "America/New_York",
        "--from",
        "2024-01-01T00:00:00Z",
        "--count",
        "1",
    ]);
    assert_eq!(v["times"][0], "2024-01-02T00:00:00Z");
    let (v, code) = json(&["next", "0 9 * * *", "--time-zone", "Mars/Olympus_Mons"]);
    assert_eq!(code, 1);
    assert_eq!(
        v["error"],
        r#"spec.timeZone "Mars/Olympus_Mons" is refused: unknown time zone Mars/Olympus_Mons"#
    );
}

/// `--time-zone` gets the verdict `lint` gives spec.timeZone with the same value.
#[test]
fn time_zone_flag_is_refused_where_spec_time_zone_is() {
    let (v, code) = json(&[
        "next",
        "0 3 * * *",
        "--time-zone",
        "UTC ",
        "--from",
        "2026-01-01T00:00:00Z",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["times"].as_array().unwrap().len(), 0);
    assert_eq!(
        v["error"],
        r#"spec.timeZone "UTC " is refused: unknown time zone UTC "#
    );
    assert_eq!(v["hint"], "did you mean UTC?");
    let (v, code) = json(&[
        "next",
        "0 3 * * *",
        "--time-zone",
        "Local",
        "--from",
        "2026-01-01T00:00:00Z",
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        v["error"],
        r#"spec.timeZone "Local" is refused: timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"#
    );
    // The same values through lint: errors too.
    for tz in ["UTC ", "Local"] {
        let dir = scratch("next-tz");
        let file = dir.join("cj.yaml");
        std::fs::write(
            &file,
            format!(
                "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: a}}\nspec:\n  schedule: \"0 3 * * *\"\n  timeZone: {tz:?}\n  jobTemplate: {{spec: {{template: {{spec: {{restartPolicy: Never, containers: [{{name: c, image: i}}]}}}}}}}}\n"
            ),
        )
        .unwrap();
        let out = doctor()
            .args([
                "lint",
                "-f",
                file.to_str().unwrap(),
                "--now",
                "2026-01-01T00:00:00Z",
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains("unknown-time-zone") && text.contains("error"),
            "{text}"
        );
    }
}

/// A mistyped zone gets "did you mean", in text and JSON.
#[test]
fn time_zone_typos_get_did_you_mean() {
    let (v, code) = json(&["next", "0 3 * * *", "--time-zone", "Europe/Berln"]);
    assert_eq!(code, 1);
    assert_eq!(v["hint"], "did you mean Europe/Berlin?");
    let out = doctor()
        .args(["next", "0 3 * * *", "--time-zone", "Europe/Berln"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("did you mean Europe/Berlin?"));
}

#[test]
fn impossible_dates_never_fire() {
    // The verdict lint gives (never-fires is an error), so exit 1, not 0.
    let (v, code) = json(&["next", "0 0 30 2 *", "--from", "2026-01-01T00:00:00Z"]);
    assert_eq!(code, 1);
    assert_eq!(v["times"].as_array().unwrap().len(), 0);
    assert_eq!(
        v["error"],
        "never fires: day 30 never occurs in February; the controller records InvalidSchedule and never starts a Job (lint: never-fires, error)"
    );
    let out = doctor()
        .args(["next", "0 0 31 2 *", "--from", "2026-01-01T00:00:00Z"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("never fires: day 31 never occurs in February")
    );
}

/// The end of RFC 3339's range. jiff (and so this tool) stops at
/// 9999-12-30T22:00:00Z; Go's time goes on. A run after that is never invented.
#[test]
fn the_end_of_the_range_is_said_not_invented() {
    let (v, code) = json(&["next", "0 3 * * *", "--from", "9999-12-29T00:00:00Z"]);
    assert_eq!(code, 0);
    assert_eq!(
        v["times"],
        serde_json::json!(["9999-12-29T03:00:00Z", "9999-12-30T03:00:00Z"])
    );
    assert_eq!(v["beyondRange"], true);
    assert!(v.get("stalledAt").is_none(), "{v}");
    let out = doctor()
        .args(["next", "0 3 * * *", "--from", "9999-12-29T00:00:00Z"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("22:00 UTC   in"), "{text}");
    assert!(
        text.contains("the last instant this tool can compute"),
        "{text}"
    );
    // A run at the very last computable second is still a run.
    let (v, _) = json(&[
        "next",
        "0 22 30 12 *",
        "--from",
        "9999-12-30T00:00:00Z",
        "--count",
        "2",
    ]);
    assert_eq!(v["times"], serde_json::json!(["9999-12-30T22:00:00Z"]));
    assert_eq!(v["beyondRange"], true);
    // The last RFC 3339 second parses, and is said to be out of range.
    let out = doctor()
        .args(["next", "0 3 * * *", "--from", "9999-12-31T23:59:59Z"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("out of range") && err.contains("9999-12-30T22:00:00Z"),
        "{err}"
    );
    assert!(!err.contains("not an RFC 3339"), "{err}");
    // The start of the range works.
    let (v, code) = json(&[
        "next",
        "0 3 * * *",
        "--from",
        "0000-01-01T00:00:00Z",
        "--count",
        "1",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["times"], serde_json::json!(["0000-01-01T03:00:00Z"]));
}

#[test]
fn the_five_year_window_cuts_the_list_short() {
    // 0 0 29 2 * from 2096-03-01: the next Feb 29 is in 2104, beyond robfig's 5-year limit.
    let (v, _) = json(&[
        "next",
        "0 0 29 2 *",
        "--from",
        "2092-03-01T00:00:00Z",
        "--count",
        "3",
    ]);
    assert_eq!(v["times"].as_array().unwrap().len(), 1);
    assert_eq!(v["times"][0], "2096-02-29T00:00:00Z");
}

#[test]
fn dst_gap_and_repeat_are_flagged_in_text() {
    let out = doctor()
        .args([
            "next",
            "30 2 * * *",
            "--time-zone",
            "America/New_York",
            "--from",
            "2027-03-12T00:00:00Z",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("⚠ Sun 2027-03-14 — no run: 02:30 does not exist (clocks go 02:00 → 03:00)"),
        "{text}"
    );
    let out = doctor()
        .args([
            "next",
            "30 1 * * *",
            "--time-zone",
            "America/New_York",
            "--from",
            "2027-11-06T00:00:00Z",
            "--count",
            "3",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("repeated hour: runs twice").count(),
        2,
        "{text}"
    );
    assert!(text.contains("01:30 EDT") && text.contains("01:30 EST"));
}

#[test]
fn usage_errors_exit_2() {
    let out = doctor()
        .args(["next", "* * * * *", "--from", "yesterday"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an RFC 3339 instant"));
    assert_eq!(
        doctor().args(["next"]).output().unwrap().status.code(),
        Some(2)
    );
    assert_eq!(
        doctor()
            .args(["next", "* * * * *", "--count", "0"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    let out = doctor()
        .args([
            "next",
            "* * * * *",
            "--controller-time-zone",
            "Nowhere/Land",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Found by fuzzing: at Pacific/Chatham's fall-back robfig's Next answers its own input, so
/// any `t = Next(t)` loop stalls. We must stop and say so, never hang.
#[test]
fn chatham_fall_back_fixed_point_does_not_hang() {
    let out = doctor()
        .args([
            "next",
            "59 */3 * * *",
            "--time-zone",
            "Pacific/Chatham",
            "--from",
            "2018-03-31T10:00:00Z",
            "-o",
            "json",
        ])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["times"],
        serde_json::json!(["2018-03-31T11:14:00Z", "2018-03-31T14:14:00Z"])
    );
    assert_eq!(v["stalledAt"], "2018-03-31T14:14:00Z");
}

/// `--now` (explain, lint) stops 20 years before the end, since the replay looks ahead.
#[test]
fn now_near_the_end_of_the_range_is_refused_with_the_reason() {
    let dir = scratch("next-now");
    let file = dir.join("cj.yaml");
    std::fs::write(
        &file,
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a}\nspec:\n  schedule: \"0 3 * * *\"\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n",
    )
    .unwrap();
    for now in ["9999-12-31T23:59:59Z", "9990-01-01T00:00:00Z"] {
        let out = doctor()
            .args(["lint", "-f", file.to_str().unwrap(), "--now", now])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("out of range"), "{err}");
        assert!(!err.contains("not an RFC 3339"), "{err}");
    }
    let out = doctor()
        .args([
            "lint",
            "-f",
            file.to_str().unwrap(),
            "--now",
            "9979-12-31T23:59:59Z",
        ])
        .output()
        .unwrap();
    assert_ne!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
