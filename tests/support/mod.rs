//! Helpers shared across the test modules that are not about a live server (those are
//! `cli_live_common`, `cli_actions_common` and `monitor_common`).

use std::path::Path;

pub mod fix_replay;
pub mod krew;

/// The repository root (the CLI crate's manifest directory).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
