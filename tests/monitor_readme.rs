//! The README's sample of `/metrics` is real: every block between
//! `<!-- monitor-metrics: FILE… -->` and `<!-- end monitor-metrics -->` shows
//! `$ curl -s ADDR/metrics | grep 'PATTERN'` and then exactly the lines of `/metrics` that
//! contain PATTERN, as the monitor serves them for the state of those example files (on the
//! fake API server, its clock frozen at the instant the examples are written for).
//! `UPDATE_GENERATED=1 cargo test --test integration monitor_readme::` rewrites the blocks
//! (then review the diff).

use crate::cli_live_common::{Live, example, root};
use crate::monitor_common::{Scratch, start_monitor};

const START: &str = "<!-- monitor-metrics: ";
const END: &str = "<!-- end monitor-metrics -->";

/// The lines of `/metrics` containing `pattern`, for the state of the example `files`.
fn served(files: &[&str], pattern: &str) -> Vec<String> {
    let scratch = Scratch::new("monitor-readme");
    let paths: Vec<_> = files.iter().map(|f| example(f)).collect();
    let live = Live::files(&paths, None);
    let monitor = start_monitor(&live, &scratch.0);
    let (code, metrics) = monitor.get("/metrics").expect("/metrics answers");
    assert_eq!(code, 200);
    assert_eq!(monitor.terminate(), Some(0));
    metrics
        .lines()
        .filter(|l| l.contains(pattern))
        .map(str::to_string)
        .collect()
}

/// The README with every sample block regenerated, and how many blocks there were.
fn regenerated(readme: &str) -> (String, usize) {
    let mut out = String::new();
    let mut rest = readme;
    let mut blocks = 0;
    while let Some(i) = rest.find(START) {
        let (before, from) = rest.split_at(i);
        out.push_str(before);
        let marker_end = from.find('\n').expect("marker line ends");
        let marker = &from[..marker_end];
        let files: Vec<&str> = marker
            .strip_prefix(START)
            .and_then(|m| m.strip_suffix(" -->"))
            .expect("<!-- monitor-metrics: FILE… -->")
            .split_whitespace()
            .map(|f| f.strip_prefix("examples/").unwrap_or(f))
            .collect();
        let end = from
            .find(END)
            .expect("every sample block has an end marker");
        let command = from[marker_end..end]
            .lines()
            .find(|l| l.starts_with("$ curl"))
            .expect("the block shows its curl command");
        let pattern = command
            .split_once("grep '")
            .and_then(|(_, p)| p.strip_suffix('\''))
            .expect("the command ends in grep 'PATTERN'");
        let lines = served(&files, pattern);
        assert!(!lines.is_empty(), "no line of /metrics contains {pattern}");
        out.push_str(marker);
        out.push_str(&format!(
            "\n```text\n{command}\n{}\n```\n",
            lines.join("\n")
        ));
        rest = &from[end..];
        blocks += 1;
    }
    out.push_str(rest);
    (out, blocks)
}

#[test]
fn the_metrics_sample_in_the_readme_is_what_the_monitor_serves() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (fresh, blocks) = regenerated(&readme);
    assert!(blocks >= 1, "the README shows a sample of /metrics");
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    if fresh != readme {
        let old: Vec<&str> = readme.lines().collect();
        let new: Vec<&str> = fresh.lines().collect();
        let at = old.iter().zip(&new).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "README.md's sample of /metrics is stale from line {}:\n  README: {:?}\n  served: {:?}\n\
             rerun with UPDATE_GENERATED=1 and review the diff",
            at + 1,
            old.get(at),
            new.get(at)
        );
    }
}
