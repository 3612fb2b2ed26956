//! The README shows real output: every block between `<!-- output: ARGS -->` and
//! `<!-- end output -->` is what `kubectl cronjob-doctor ARGS` prints (100 columns, no
//! colour), and the examples table says what each example's verdict is. A change to the
//! output that is not carried into the README fails here; `UPDATE_GENERATED=1 cargo test
//! --test integration readme::the_story` rewrites the blocks (then review the diff).

use std::process::Command;

const START: &str = "<!-- output: ";
const END: &str = "<!-- end output -->";

use crate::support::root;

/// What the binary prints for `args`, run from the repository root like a reader would.
fn printed(args: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kubectl-cronjob_doctor"))
        .args(args.split_whitespace())
        .current_dir(root())
        .env("COLUMNS", "100")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The README with every output block regenerated.
fn regenerated(readme: &str) -> String {
    let mut out = String::new();
    let mut rest = readme;
    while let Some(i) = rest.find(START) {
        let (before, from) = rest.split_at(i);
        out.push_str(before);
        let line_end = from.find('\n').expect("marker line ends");
        let marker = &from[..line_end];
        let args = marker
            .strip_prefix(START)
            .and_then(|m| m.strip_suffix(" -->"))
            .expect("<!-- output: ARGS -->");
        let end = from
            .find(END)
            .expect("every output block has an end marker");
        out.push_str(marker);
        out.push_str(&format!(
            "\n```text\n$ kubectl cronjob-doctor {args}\n{}```\n",
            printed(args)
        ));
        rest = &from[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_story_in_the_readme_is_the_real_output() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    assert!(
        readme.matches(START).count() >= 1,
        "the README tells its story with real output"
    );
    let fresh = regenerated(&readme);
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    assert!(
        fresh == readme,
        "README.md output blocks are out of date: run `UPDATE_GENERATED=1 cargo test --test integration readme::the_story` and review the diff"
    );
}

/// The README's examples table: `| [examples/FILE](…) | cause | verdict |`, where the verdict
/// is the health `explain` gives at the README's instant (✓ ok, ! warning, ✗ error).
#[test]
fn every_example_gives_the_verdict_the_readme_claims() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let rows: Vec<(&str, &str)> = readme
        .lines()
        .filter(|l| l.starts_with("| [`examples/"))
        .map(|l| {
            let file = l
                .split("](")
                .nth(1)
                .and_then(|s| s.split(')').next())
                .unwrap();
            let verdict = l.trim_end_matches('|').rsplit('|').next().unwrap().trim();
            (file, verdict)
        })
        .collect();
    let examples = std::fs::read_dir(root().join("examples")).unwrap().count();
    assert_eq!(rows.len(), examples, "one README row per example");
    for (file, verdict) in rows {
        let json = printed(&format!(
            "explain -f {file} --now 2026-11-20T12:00:00Z -o json"
        ));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let health = v["cronJobs"][0]["health"].as_str().unwrap();
        let mark = match health {
            "ok" => "✓ ok",
            "warning" => "! warning",
            _ => "✗ error",
        };
        assert!(
            verdict.starts_with(mark),
            "{file}: the README says {verdict:?}, explain says {health}"
        );
    }
}
