//! Every example's fix plan, replayed: the patch clears what it claims and brings nothing new
//! (the scenarios run the same check from tests/scenarios.rs).

#[path = "support/fix_replay.rs"]
mod fix_replay;

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
    // The real-world corpus lives next to the repository in the project's workspace; a plain
    // clone does not have it, and then there is nothing to check.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/realworld");
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("no corpus at {dir}: skipped");
        return;
    };
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".json"))
        .collect();
    files.sort();
    let mut patched = 0;
    for f in &files {
        patched += fix_replay::verify(&format!("../shared/corpus/realworld/{f}"), NOW, None);
    }
    assert!(patched > 0);
}
