//! The core's integration tests as one test binary (`integration`), a module per file, the
//! shared `replay_common` compiled once: one integration test binary per crate, as in the
//! root's tests/main.rs. Cargo.toml sets `autotests = false` and names this file, so a new
//! file under tests/ runs only once it is declared here (the root's
//! `every_test_file_is_a_module` checks that). One file's tests:
//! `cargo test -p cronjob-doctor-core --test integration replay_gates::`.

mod replay_common;

mod extreme_values;
mod job_lifecycle;
mod replay_cases;
mod replay_cases_late;
mod replay_gates;
mod replay_variants;
mod rules_catalogue;
mod shared_work;
mod source_corpus;
mod source_fixtures;
mod source_robustness;
