//! Helpers shared across the test modules that are not about a live server (those are
//! `cli_live_common`, `cli_actions_common` and `monitor_common`).

use std::path::{Path, PathBuf};

pub mod fix_replay;
pub mod krew;

/// The repository root (the CLI crate's manifest directory).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the repository, by its path from the root.
pub fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The `cronjob_doctor_…` metric names a PromQL expression reads, in order.
pub fn metric_names(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = expr;
    while let Some(i) = rest.find("cronjob_doctor_") {
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        out.push(tail[..end].to_string());
        rest = &tail[end..];
    }
    out
}

/// The strings of a JSON array; panics on anything else.
pub fn strings(array: &serde_json::Value) -> Vec<&str> {
    array
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// One string field of each object of a JSON array (`field_of_each(&v["cronJobs"], "name")`);
/// panics on anything else.
pub fn field_of_each<'a>(array: &'a serde_json::Value, field: &str) -> Vec<&'a str> {
    array
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o[field].as_str().unwrap())
        .collect()
}

/// A private scratch directory per call (tests run in parallel, in one process):
/// `cjd-test-<pid>-<tag>-<n>` under the temporary directory.
pub fn scratch(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "cjd-test-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
