//! Generated files must match what the binary generates. Run with `UPDATE_GENERATED=1` to
//! rewrite them after an intended change, then review the diff.

use std::path::Path;

fn check(path: &str, fresh: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&file, fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == fresh,
        "{path} is out of date: run `UPDATE_GENERATED=1 cargo test --test generated_docs` and commit the result"
    );
}

#[test]
fn rules_catalogue_matches_the_registry() {
    check("docs/rules.md", &doctor::render::catalogue::markdown());
}
