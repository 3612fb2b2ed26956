//! The pure core stays pure: the schedule engine and the core crate may not do IO, talk to the
//! cluster or read a clock. `now` is a parameter everywhere below the CLI.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "tokio",
    "kube::",
    "Timestamp::now",
    "SystemTime",
    "Instant::now",
    "Zoned::now",
    "println!",
    "eprintln!",
];

fn scan(dir: &Path, offenders: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            scan(&path, offenders);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // Unit tests inside a module may print or read fixtures; only the code counts.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for f in FORBIDDEN {
                if code
                    .lines()
                    .any(|l| !l.trim_start().starts_with("//") && l.contains(f))
                {
                    offenders.push(format!("{}: {f}", path.display()));
                }
            }
        }
    }
}

#[test]
fn pure_crates_do_no_io_and_read_no_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    scan(&root.join("crates/schedule/src"), &mut offenders);
    scan(&root.join("crates/core/src"), &mut offenders);
    assert!(
        offenders.is_empty(),
        "IO or clock in the pure core:\n{}",
        offenders.join("\n")
    );
}
