//! Every example's fix plan, replayed: the patch clears what it claims and brings nothing new
//! (the scenarios run the same check from tests/scenarios.rs).

use crate::support::fix_replay;

const NOW: &str = "2026-11-20T12:00:00Z";

#[test]
fn every_example_plan_replays_clean() {
    let mut patched = 0;
    let mut files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".yaml"))
            .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for f in &files {
        patched += fix_replay::verify(&format!("examples/{f}"), NOW, None);
    }
    // Not vacuous: most examples have something a patch fixes.
    assert!(patched >= 5, "only {patched} plans with a patch");
}

#[test]
fn plans_replay_clean_on_an_older_release_too() {
    // 1.28 accepts a CRON_TZ= prefix (a warning, not an error) and has other estimate rules.
    for f in [
        "examples/tz-prefix-in-schedule.yaml",
        "examples/too-many-missed.yaml",
    ] {
        assert_eq!(fix_replay::verify(f, NOW, Some("1.28")), 1, "{f}");
    }
}

#[test]
fn corpus_plans_replay_clean() {
    // The real-world corpus lives outside the repository (CRONJOB_DOCTOR_CORPUS, which
    // .ci/run sets); a plain clone does not have it, and then there is nothing to check.
    let Ok(dir) = std::env::var("CRONJOB_DOCTOR_CORPUS") else {
        eprintln!(
            "skipped: CRONJOB_DOCTOR_CORPUS unset (the real-world corpus lives outside the repository)"
        );
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".json"))
        .collect();
    files.sort();
    let mut patched = 0;
    for f in &files {
        patched += fix_replay::verify(&format!("{dir}/{f}"), NOW, None);
    }
    assert!(patched > 0);
}

/// Apply SARIF replacements (1-based lines, UTF-16 columns; the examples are ASCII where edited).
fn apply_replacements(text: &str, replacements: &[serde_json::Value]) -> String {
    let mut reps: Vec<&serde_json::Value> = replacements.iter().collect();
    let key = |r: &serde_json::Value| {
        let g = &r["deletedRegion"];
        (
            g["startLine"].as_u64().unwrap(),
            g["startColumn"].as_u64().unwrap(),
        )
    };
    reps.sort_by_key(|r| std::cmp::Reverse(key(r)));
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    for r in reps {
        let g = &r["deletedRegion"];
        assert_eq!(g["startLine"], g["endLine"], "single-line edits only");
        let l = g["startLine"].as_u64().unwrap() as usize - 1;
        let (a, b) = (
            g["startColumn"].as_u64().unwrap() as usize - 1,
            g["endColumn"].as_u64().unwrap() as usize - 1,
        );
        let line = &lines[l];
        lines[l] = format!(
            "{}{}{}",
            &line[..a],
            r["insertedContent"]["text"].as_str().unwrap(),
            &line[b..]
        );
    }
    lines.join("\n")
}

#[test]
fn sarif_fixes_edit_the_file_into_the_patched_cron_job() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = assert_cmd::Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .current_dir(root)
        .args(["lint", "-f", "examples/", "--now", NOW, "-o", "sarif"])
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let json_out = assert_cmd::Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .current_dir(root)
        .args(["explain", "-f", "examples/", "--now", NOW, "-o", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&json_out.stdout).unwrap();
    let mut checked = 0;
    for r in sarif["runs"][0]["results"].as_array().unwrap() {
        let Some(fixes) = r["fixes"].as_array() else {
            continue;
        };
        // SARIF requires artifactChanges on every fix (the validator's JSON1002).
        let change = &fixes[0]["artifactChanges"][0];
        let uri = change["artifactLocation"]["uri"].as_str().unwrap();
        let text = std::fs::read_to_string(format!("{root}/{uri}")).unwrap();
        let edited = apply_replacements(&text, change["replacements"].as_array().unwrap());
        let (snap, errs) = doctor::source::parse_text(uri, &edited).into_snapshot();
        assert!(errs.is_empty(), "{uri}: {errs:?}\n{edited}");
        let name = r["properties"]["name"].as_str().unwrap();
        let entry = report["cronJobs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap();
        let (orig, _) = doctor::source::parse_text(uri, &text).into_snapshot();
        let want = doctor::report::merge_patch::apply_to_cron_job(
            &orig.cron_jobs[0],
            &entry["fix"]["patch"],
        )
        .unwrap();
        assert_eq!(snap.cron_jobs[0].spec, want.spec, "{uri}:\n{edited}");
        // Only findings the plan clears carry the edit.
        let slug = r["properties"]["slug"].as_str().unwrap();
        assert!(
            entry["fix"]["clears"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s == slug)
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} results with fixes");
}

/// The plan of a suspended CronJob resumes it: resuming reveals the runs the suspension
/// skipped (`not-running`), which no patch can bring back — that must not drop the patch.
#[test]
fn a_suspended_cron_job_is_resumed_by_its_plan() {
    let out = assert_cmd::Command::cargo_bin("kubectl-cronjob_doctor")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "explain",
            "-f",
            "examples/suspended.yaml",
            "--now",
            NOW,
            "-o",
            "json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fix = &v["cronJobs"][0]["fix"];
    assert_eq!(
        fix["patch"],
        serde_json::json!({"spec": {"suspend": false}}),
        "{fix}"
    );
    assert!(
        fix["clears"]
            .as_array()
            .unwrap()
            .contains(&"suspended".into()),
        "{fix}"
    );
    assert!(fix["dropped"].as_array().unwrap().is_empty(), "{fix}");
}
