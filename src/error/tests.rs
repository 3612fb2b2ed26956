//! The error type's promises: every error exits 2, messages read as they always have, and
//! errors stay typed (a guard over the sources, so a string error added back fails here).

use std::path::{Path, PathBuf};

use super::*;

#[test]
fn every_kind_of_error_exits_2() {
    let io = || std::io::Error::other("disk full");
    for e in [
        Error::from(UsageError::FleetSarif),
        Error::from(InputError::NoKubeconfigForContexts),
        Error::from(ClusterError::ContextTimeout(
            std::time::Duration::from_secs(30),
        )),
        Error::from(OutputError::Stdout(io())),
        Error::from(SystemError::ClientPanicked),
        Error::from(Declined::NotConfirmed {
            nothing_was: "nothing was changed",
        }),
    ] {
        assert_eq!(e.exit_code(), exit::TROUBLE, "{e}");
    }
}

#[test]
fn messages_say_the_cause_once_and_keep_it_as_the_source() {
    let e = Error::from(OutputError::Stdout(std::io::Error::other("disk full")));
    assert_eq!(e.to_string(), "cannot write the output: disk full");
    // The top level is transparent: its source is the cause itself.
    let source = std::error::Error::source(&e).map(|s| s.to_string());
    assert_eq!(source.as_deref(), Some("disk full"));

    let name = doctor::names::cron_job_name("Bad_Name").unwrap_err();
    let e = Error::from(UsageError::NothingSent(Box::new(UsageError::InvalidName(
        name.clone(),
    ))));
    assert_eq!(e.to_string(), format!("{name}; nothing was sent"));

    let e = Error::from(Declined::NoTerminal {
        nothing_was: "nothing was created",
    });
    assert_eq!(
        e.to_string(),
        "stdin is not a terminal, so there is nobody to confirm: nothing was created. Review the preview above and add --yes to go ahead (or --dry-run=server to only test it)"
    );
    let e = Error::from(UsageError::SlotSeveral(3));
    assert_eq!(
        e.to_string(),
        "--slot answers for one CronJob; the input has 3: name one (explain NAME -f …)"
    );
}

/// Source files of every crate, without test-only files.
fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut todo: Vec<PathBuf> = [
        "src",
        "crates/core/src",
        "crates/schedule/src",
        "crates/fake-apiserver/src",
    ]
    .iter()
    .map(|d| root.join(d))
    .collect();
    let mut out = Vec::new();
    while let Some(p) = todo.pop() {
        if p.is_dir() {
            todo.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if p.extension().is_some_and(|x| x == "rs")
            && !p.to_string_lossy().ends_with("tests.rs")
        {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The text before the file's unit tests (`#[cfg(test)] mod tests`).
fn without_tests(text: &str) -> &str {
    let end = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    &text[..end]
}

/// Every `Result<…, String>` in `text`: the last top-level type argument of each `Result<`.
fn string_results(text: &str) -> usize {
    let mut n = 0;
    for (at, _) in text.match_indices("Result<") {
        let rest = &text[at + "Result<".len()..];
        let (mut depth, mut last_arg) = (0i32, 0usize);
        for (i, c) in rest.char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ',' if depth == 0 => last_arg = i + 1,
                '>' if depth == 0 => {
                    n += usize::from(rest[last_arg..i].trim() == "String");
                    break;
                }
                '>' => depth -= 1,
                _ => {}
            }
        }
    }
    n
}

#[test]
fn the_guard_sees_string_results() {
    assert_eq!(
        string_results("fn f() -> Result<Vec<(u8, String)>, String> {"),
        1
    );
    assert_eq!(string_results("fn f() -> Result<String, Error> {"), 0);
    assert_eq!(
        string_results("fn f() -> Result<(&str, String), String>"),
        1
    );
}

/// Errors are types, not strings: no `Result<_, String>` outside tests, except where clap's
/// value parsers take one (`cli/ranges.rs` wraps its messages in `FlagError` for clap), and no
/// variant of the shell's error types that is only a `String`.
#[test]
fn errors_are_typed() {
    let allowed = ["src/cli/ranges.rs"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for p in sources() {
        let rel = p
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&p).unwrap();
        let n = string_results(without_tests(&text));
        if n > 0 && !allowed.contains(&rel.as_str()) {
            found.push(format!("{rel}: {n} Result<_, String>"));
        }
        let error_type = rel.starts_with("src/error/") || rel == "src/cluster/api_error.rs";
        if error_type && text.contains("(String)") {
            found.push(format!("{rel}: a String variant"));
        }
    }
    assert!(found.is_empty(), "string errors:\n{}", found.join("\n"));
}
