//! The CLI's integration tests, as one test binary (`integration`) with a module per file, as
//! ripgrep does: the helpers (`support`, `cli_live_common`, `cli_actions_common`,
//! `monitor_common`) are compiled once and one binary is linked, where one binary per file
//! compiled the helpers up to eleven times and linked 43 binaries. Cargo.toml sets
//! `autotests = false` and names this file in a `[[test]]` section, so a file under tests/
//! runs only once it is declared here (`every_test_file_is_a_module` below checks that for
//! every crate of the workspace).
//!
//! One file's tests: `cargo test --test integration cli_offline::` (the module path is the
//! filter). The opt-in kind suite is `e2e_kind` (docs/e2e.md); without its environment
//! variable it prints a skip line and passes, as before.

mod cli_actions_common;
mod cli_live_common;
mod monitor_common;
mod support;

mod architecture;
mod ci_adoption;
mod cli_actions_hostile;
mod cli_actions_rbac;
mod cli_actions_suspend;
mod cli_actions_trigger;
mod cli_actions_unsuspend;
mod cli_flags_ranges;
mod cli_live_config;
mod cli_live_explain;
mod cli_live_failures;
mod cli_live_fleet;
mod cli_live_hostile_server;
mod cli_live_scan;
mod cli_live_scan_slices;
mod cli_next;
mod cli_now;
mod cli_offline;
mod cli_version;
mod completion;
mod deploy_monitor;
mod e2e_kind;
mod explain_monitor;
mod fix_plans;
mod generated_docs;
mod grafana_dashboard;
mod hostile_input;
mod input_limits;
mod krew_manifest;
mod lint_api_validation;
mod monitor;
mod monitor_readme;
mod pasteable_commands;
mod pre_commit_hook;
mod prometheus_rules;
mod prometheus_scrape;
mod rbac;
mod rbac_read_only_used;
mod readme;
mod release_archive;
mod sarif_json_sources;
mod scenarios;
mod workflows;

/// With `autotests = false`, a test file that no `mod` line names is never compiled nor run,
/// silently: every `.rs` file and every directory with a `mod.rs` under each crate's tests/
/// is a module of that crate's one test binary (`tests/main.rs`).
#[test]
fn every_test_file_is_a_module() {
    let root = support::root();
    for krate in [
        ".",
        "crates/core",
        "crates/fake-apiserver",
        "crates/schedule",
    ] {
        let dir = root.join(krate).join("tests");
        let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
        let mut missing = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let module = if p.is_dir() && p.join("mod.rs").is_file() {
                name
            } else if let Some(stem) = name.strip_suffix(".rs") {
                stem.to_string()
            } else {
                continue;
            };
            if module != "main" && !main.lines().any(|l| l == format!("mod {module};")) {
                missing.push(module);
            }
        }
        assert!(
            missing.is_empty(),
            "{krate}/tests/main.rs declares no `mod` for {missing:?}: they would never run"
        );
    }
}
