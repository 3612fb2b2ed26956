//! The fake API server's integration tests as one test binary (`integration`), a module per
//! file, the shared `common` compiled once: one integration test binary per crate, as in the
//! root's tests/main.rs. Cargo.toml sets `autotests = false` and names this file, so a new
//! file under tests/ runs only once it is declared here (the root's
//! `every_test_file_is_a_module` checks that). One file's tests:
//! `cargo test -p cronjob-doctor-fake-apiserver --test integration watch::`.

mod common;

mod faults;
mod generated;
mod misc;
mod read;
mod transport;
mod watch;
mod write;
