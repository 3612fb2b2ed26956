//! The schedule engine's integration tests as one test binary (`integration`), a module per
//! file: one integration test binary per crate, as in the root's tests/main.rs. Cargo.toml
//! sets `autotests = false` and names this file, so a new file under tests/ runs only once it
//! is declared here (the root's `every_test_file_is_a_module` checks that). One file's tests:
//! `cargo test -p cronjob-doctor-schedule --test integration differential:: -- --nocapture`.

mod cases;
mod differential;
mod end_of_range;
mod robustness;
