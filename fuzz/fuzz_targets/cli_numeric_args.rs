#![no_main]
//! Arbitrary bytes → one argv with a numeric flag (which flag, how it is spelled, its value)
//! → the CLI's real clap parser. Every value is either refused as a usage error or lands
//! inside the flag's documented range; nothing panics. The check is
//! `kubectl_cronjob_doctor::flag_check::check_numeric_argv`, which `tests/cli_flags_ranges.rs`
//! also runs on every `cargo test`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(why) = kubectl_cronjob_doctor::flag_check::check_numeric_argv(data) {
        panic!("{why}");
    }
});
